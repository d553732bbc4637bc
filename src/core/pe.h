/*
 * Progress engines.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Completed tasks wait in the PE's completion queue, a lock-free list that
 * any thread (the library's service thread among them) pushes onto.
 * doca_pe_progress() takes the whole list at once, oldest first, and runs
 * the callbacks.
 * The notification handle is an eventfd that is written only when the
 * application has armed it with doca_pe_request_notification().
 */
#ifndef SDOCA_CORE_PE_H_
#define SDOCA_CORE_PE_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/queue.h>

#include <doca_pe.h>

#include "core/compiler.h"

struct doca_ctx;

struct doca_pe {
	LIST_HEAD(, doca_ctx) ctxs; /* connected contexts */
	/* Completed tasks, newest first: any thread pushes one with a single
	 * compare-exchange; progress takes them all with one exchange. */
	struct doca_task *_Atomic completed;
	_Atomic bool armed;
	_Atomic bool attention; /* a context has a state change or failure to handle */
	int event_fd;
	size_t inflight;
	/* Contexts in STOPPING: they wait for frees, which raise no attention,
	 * so progress looks at them while there are any (no walk otherwise). */
	unsigned int num_stopping;
	bool in_progress;        /* doca_pe_progress() is running (callbacks must not re-enter) */
	uint64_t progress_count; /* doca_pe_progress() calls so far */
	enum doca_pe_event_mode event_mode;
};

/* Queues a completed task; any thread. */
void sdoca_pe_push(struct doca_pe *pe, struct doca_task *task);
/* Something needs doca_pe_progress(): wake an armed waiter. Any thread. */
void sdoca_pe_wake(struct doca_pe *pe);

#endif /* SDOCA_CORE_PE_H_ */
