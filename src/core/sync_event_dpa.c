/*
 * Device handles of sync events for DPA kernels.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Device handles of sync events for DPA kernels (docs/dpa.md 2.9): a table
 * of tagged values (core/handle_table.h). A kernel's update runs under the
 * table lock, so the event cannot be stopped or destroyed under it. A
 * kernel's wait cannot sleep under that lock: it counts itself in
 * dpa_waiters under it instead, and forgetting the handle wakes such
 * sleepers and waits for them to leave before the event may go.
 */
#include <sched.h>

#include "core/handle_table.h"
#include "core/sdk_log.h"
#include "core/sync_event.h"

SDOCA_LOG_MODULE(sync_event_dpa);

#define SE_DPA_SLOTS 1024u

SDOCA_HANDLE_TABLE(local_table, 0xe5u, SE_DPA_SLOTS);

doca_error_t sdoca_se_dpa_handle(struct doca_sync_event *ev, uint64_t *handle)
{
	doca_error_t status = sdoca_handle_add(&local_table, ev, &ev->dpa_handle);

	if (status != DOCA_SUCCESS)
		SDOCA_ERR("doca_sync_event_get_dpa_handle: %u events have DPA handles already",
		          SE_DPA_SLOTS);
	else
		*handle = ev->dpa_handle;
	return status;
}

void sdoca_se_dpa_forget(struct doca_sync_event *ev)
{
	sdoca_handle_forget(&local_table, &ev->dpa_handle);
	/* No kernel finds the event from now on; those asleep on it leave at
	 * their wake-up (a wake before they sleep is seen as a moved counter). */
	while (atomic_load(&ev->dpa_waiters) != 0) {
		sdoca_sync_event_wake_all(ev);
		sched_yield();
	}
}

SDOCA_EXPORT doca_error_t sdoca_sync_event_dpa_wait(uint64_t handle, enum sdoca_se_cond cond,
                                                    uint64_t wait_val, uint64_t mask,
                                                    uint64_t timeout_ns, bool first)
{
	struct doca_sync_event *ev = sdoca_handle_lock(&local_table, handle);
	bool done;

	if (ev == NULL)
		return DOCA_ERROR_NOT_FOUND;
	if (sdoca_se_holds(sdoca_se_load(ev), cond, wait_val, mask)) {
		sdoca_handle_unlock(&local_table);
		return DOCA_SUCCESS;
	}
	atomic_fetch_add(&ev->dpa_waiters, 1);
	sdoca_handle_unlock(&local_table);
	done = sdoca_sync_event_sleep(ev, cond, wait_val, mask, timeout_ns, first);
	atomic_fetch_sub(&ev->dpa_waiters, 1); /* the last touch: the event may go now */
	return done ? DOCA_SUCCESS : DOCA_ERROR_AGAIN;
}

SDOCA_EXPORT doca_error_t sdoca_sync_event_dpa_op(uint64_t handle, enum sdoca_se_op op,
                                                  uint64_t operand, uint64_t *value)
{
	struct doca_sync_event *ev = sdoca_handle_lock(&local_table, handle);

	if (ev == NULL)
		return DOCA_ERROR_NOT_FOUND;
	*value = sdoca_sync_event_remote_op(ev, op, operand, sizeof(uint64_t));
	if (op != SDOCA_SE_OP_GET)
		sdoca_se_changed(ev);
	sdoca_handle_unlock(&local_table);
	return DOCA_SUCCESS;
}

/* Remote-net events' DPA handles (doca_sync_event_remote_net_get_dpa_handle):
 * the imported key and value address the data path signals. */
SDOCA_HANDLE_TABLE(remote_table, 0xe6u, SE_DPA_SLOTS);

doca_error_t sdoca_se_remote_dpa_handle(struct doca_sync_event_remote_net *ev, uint64_t *handle)
{
	doca_error_t status = sdoca_handle_add(&remote_table, ev, &ev->dpa_handle);

	if (status != DOCA_SUCCESS)
		SDOCA_ERR("doca_sync_event_remote_net_get_dpa_handle: %u remote events have DPA "
		          "handles already",
		          SE_DPA_SLOTS);
	else
		*handle = ev->dpa_handle;
	return status;
}

void sdoca_se_remote_dpa_forget(struct doca_sync_event_remote_net *ev)
{
	sdoca_handle_forget(&remote_table, &ev->dpa_handle);
}

SDOCA_EXPORT doca_error_t sdoca_sync_event_remote_dpa_lookup(uint64_t handle, struct sdoca_key *key,
                                                             uint64_t *addr)
{
	struct doca_sync_event_remote_net *ev = sdoca_handle_lock(&remote_table, handle);

	if (ev == NULL)
		return DOCA_ERROR_NOT_FOUND;
	*key = ev->key;
	*addr = ev->addr;
	sdoca_handle_unlock(&remote_table);
	return DOCA_SUCCESS;
}
