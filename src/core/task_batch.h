/*
 * A task batch: one allocation, submission and completion for several
 * tasks of one type. DOCA's doca_task_batch_* (doca_pe.h) are the same for
 * every library; each library that offers batches allocates them and embeds
 * this at the start of its batch object. The batch lives a task's life (its
 * pool, states, user data, status, and its completion through the PE: the
 * batch pool's type's invoke calls the library's batch callback), so the
 * context's rules for tasks - all freed before it stops, submitted only
 * while RUNNING - hold for batches too.
 */
#ifndef SDOCA_CORE_TASK_BATCH_H_
#define SDOCA_CORE_TASK_BATCH_H_

#include <stdint.h>

#include "core/ctx.h"

struct doca_task_batch {
	struct doca_task task; /* user_data is the batch's; status the batch's */
	uint16_t tasks_num;    /* tasks in this batch (at most the pool's maximum) */
};

#endif /* SDOCA_CORE_TASK_BATCH_H_ */
