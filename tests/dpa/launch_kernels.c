/*
 * softdoca tests: device source of the launch program (launch_main.c):
 * kernels started with doca_dpa_kernel_launch_update_set / _add that
 * write their rank, mark a slot, wait on a sync event, fault, and spin.
 */
#include <doca_dpa_dev.h>
#include <doca_dpa_dev_sync_event.h>

#include "launch_common.h"

/* Each rank writes its rank and the launch's thread count. */
__dpa_global__ void rank_kernel(doca_dpa_dev_uintptr_t records)
{
	struct rank_record *r = (struct rank_record *)records;
	unsigned int rank = doca_dpa_dev_thread_rank();
	r[rank].rank = rank + 1;
	r[rank].num_threads = doca_dpa_dev_num_threads();
}

/* slots[m.index] = m.value (a struct argument by value), after a yield. */
__dpa_global__ void mark_kernel(doca_dpa_dev_uintptr_t slots, struct mark m)
{
	doca_dpa_dev_yield();
	((uint64_t *)slots)[m.index] = m.value;
	DOCA_DPA_DEV_LOG_DBG("mark_kernel: slot %u = %lu\n", m.index, (unsigned long)m.value);
}

/* Says it started (started != 0), waits until the event's value exceeds
 * value, then writes the value it saw into *seen. */
__dpa_global__ void wait_kernel(doca_dpa_dev_sync_event_t started, doca_dpa_dev_sync_event_t ev,
                                uint64_t value, doca_dpa_dev_uintptr_t seen)
{
	if (started != 0)
		doca_dpa_dev_sync_event_update_add(started, 1);
	doca_dpa_dev_sync_event_wait_gt(ev, value, UINT64_MAX);
	uint64_t now = 0;
	doca_dpa_dev_sync_event_get(ev, &now);
	*(uint64_t *)seen = now;
}

/* Writes through a wild pointer (the death test, launch_fault). */
__dpa_global__ void fault_kernel(doca_dpa_dev_uintptr_t where)
{
	*(volatile uint64_t *)where = 1;
}

/* Says it started, then spins on *flag with no device call: nothing can
 * cancel it (the launch_stuck test). */
__dpa_global__ void spin_kernel(doca_dpa_dev_sync_event_t started, doca_dpa_dev_uintptr_t flag)
{
	doca_dpa_dev_sync_event_update_add(started, 1);
	while (__atomic_load_n((uint64_t *)flag, __ATOMIC_ACQUIRE) == 0)
		;
}
