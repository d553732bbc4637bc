/*
 * softdoca tests: device source of the thread program (thread_main.c):
 * DPA-thread kernels that count their activations in local storage,
 * notify each other, reschedule, finish, return, update a sync event and
 * fault; an RPC that notifies a thread.
 */
#include <doca_dpa_dev.h>
#include <doca_dpa_dev_sync_event.h>

#include "thread_common.h"

static struct thread_state *state(uint64_t arg)
{
	struct thread_state *s = (struct thread_state *)doca_dpa_dev_thread_get_local_storage();
	if (arg != THREAD_ARG_MAGIC)
		s->bad_arg++;
	s->rank = doca_dpa_dev_thread_rank() + 1;
	return s;
}

__dpa_rpc__ uint64_t rpc_notify(doca_dpa_dev_notification_completion_t h)
{
	doca_dpa_dev_thread_notify(h);
	return 0;
}

/* Notifies itself until limit activations, then reports and finishes. */
__dpa_global__ void count_kernel(uint64_t arg)
{
	struct thread_state *s = state(arg);
	s->count++;
	if (s->count < s->limit) {
		doca_dpa_dev_thread_notify(s->self);
		doca_dpa_dev_thread_reschedule();
	}
	doca_dpa_dev_sync_event_update_set(s->done, s->count);
	doca_dpa_dev_thread_finish();
}

/* Ping: every activation notifies the pong thread. */
__dpa_global__ void ping_kernel(uint64_t arg)
{
	struct thread_state *s = state(arg);
	s->count++;
	doca_dpa_dev_thread_notify(s->peer);
	doca_dpa_dev_thread_reschedule();
}

/* Pong: answers until limit round trips, then reports and finishes. */
__dpa_global__ void pong_kernel(uint64_t arg)
{
	struct thread_state *s = state(arg);
	s->count++;
	if (s->count == s->limit) {
		doca_dpa_dev_sync_event_update_set(s->done, s->count);
		doca_dpa_dev_thread_finish();
	}
	doca_dpa_dev_thread_notify(s->peer);
	doca_dpa_dev_thread_reschedule();
}

/* Returns instead of rescheduling: the next activation starts it again. */
__dpa_global__ void return_kernel(uint64_t arg)
{
	struct thread_state *s = state(arg);
	s->count++;
	doca_dpa_dev_sync_event_update_add(s->done, 1);
}

/* Writes through a wild pointer. */
__dpa_global__ void fault_kernel(uint64_t arg)
{
	struct thread_state *s = state(arg);
	*(volatile uint64_t *)(uintptr_t)s->fault_at = 1;
	doca_dpa_dev_thread_reschedule();
}

/* Runs until the host sets limit, making no device call meanwhile: a
 * kernel that takes long (softdoca-info shows it running, info_main.c). */
__dpa_global__ void spin_kernel(uint64_t arg)
{
	struct thread_state *s = state(arg);
	while (__atomic_load_n(&s->limit, __ATOMIC_ACQUIRE) == 0)
		;
	doca_dpa_dev_thread_reschedule();
}
