/*
 * DPA device calls of doca_dpa_dev_sync_event.h.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * doca_dpa_dev_sync_event.h: a kernel reads, updates and waits on a sync
 * event through the device handle the host got (docs/dpa.md 2.9). Updates
 * wake the host's waiters as a host update does. A wait sleeps on the
 * event (the core's futex waiter, no spinning) in slices, and between them
 * passes the cancellation point: a stop, or the kernel's deadline, ends the
 * kernel there. The async-ops forms are not built.
 */
#include <doca_dpa_dev_sync_event.h>

#include "core/sdk_log.h"
#include "core/sync_event.h"
#include "dpa/dpa.h"

/* How long a waiting kernel sleeps before it looks at its stop and deadline. */
#define WAIT_SLICE_NS 10000000ull

SDOCA_LOG_MODULE(dpa_dev_sync_event);

static void bad_handle(const char *caller, uint64_t handle)
{
	sdoca_dpa_bad_call(caller, DOCA_ERROR_INVALID_VALUE,
	                   "0x%lx is not the DPA handle of a started sync event",
	                   (unsigned long)handle);
}

static void not_built(const char *caller)
{
	SDOCA_LOG_ONCE(DOCA_LOG_LEVEL_WARNING, "%s is not supported by softdoca yet", caller);
	if (sdoca_dpa_exec != NULL)
		sdoca_dpa_set_error(sdoca_dpa_exec->dpa, DOCA_ERROR_NOT_SUPPORTED);
}

DOCA_EXPERIMENTAL void doca_dpa_dev_sync_event_get(doca_dpa_dev_sync_event_t dpa_dev_se_handle,
                                                   uint64_t *value)
{
	uint64_t v = 0;
	sdoca_dpa_cancel_point(__func__);
	if (sdoca_sync_event_dpa_op(dpa_dev_se_handle, SDOCA_SE_OP_GET, 0, &v) != DOCA_SUCCESS) {
		bad_handle(__func__, dpa_dev_se_handle);
		return;
	}
	*value = v;
}

/* An update from a kernel; func names the device call in the report of a bad handle. */
static void update(const char *func, doca_dpa_dev_sync_event_t handle, enum sdoca_se_op op,
                   uint64_t value)
{
	uint64_t old;

	sdoca_dpa_cancel_point(func);
	if (sdoca_sync_event_dpa_op(handle, op, value, &old) != DOCA_SUCCESS)
		bad_handle(func, handle);
}

DOCA_EXPERIMENTAL void
doca_dpa_dev_sync_event_update_add(doca_dpa_dev_sync_event_t dpa_dev_se_handle, uint64_t value)
{
	update(__func__, dpa_dev_se_handle, SDOCA_SE_OP_ADD, value);
}

DOCA_EXPERIMENTAL void
doca_dpa_dev_sync_event_update_set(doca_dpa_dev_sync_event_t dpa_dev_se_handle, uint64_t value)
{
	update(__func__, dpa_dev_se_handle, SDOCA_SE_OP_SET, value);
}

DOCA_EXPERIMENTAL void doca_dpa_dev_sync_event_wait_gt(doca_dpa_dev_sync_event_t dpa_dev_se_handle,
                                                       uint64_t value, uint64_t mask)
{
	for (bool first = true;; first = false) {
		sdoca_dpa_cancel_point(__func__);
		uint64_t slice = WAIT_SLICE_NS;
		struct sdoca_dpa_exec *exec = sdoca_dpa_exec;
		if (exec != NULL && exec->deadline_ns != 0) {
			/* Wake at the deadline, so the cancellation is not late. */
			uint64_t now = sdoca_now_ns();
			uint64_t left = exec->deadline_ns > now ? exec->deadline_ns - now : 0;
			slice = left < slice ? left + 1 : slice;
		}
		doca_error_t err = sdoca_sync_event_dpa_wait(dpa_dev_se_handle, SDOCA_SE_GT, value,
		                                             mask, slice, first);
		if (err == DOCA_SUCCESS)
			return;
		if (err == DOCA_ERROR_NOT_FOUND) {
			bad_handle(__func__, dpa_dev_se_handle);
			return;
		}
	}
}

DOCA_EXPERIMENTAL void doca_dpa_dev_sync_event_post_wait_gt(doca_dpa_dev_async_ops_t async_ops,
                                                            doca_dpa_dev_sync_event_t wait_se,
                                                            uint64_t value)
{
	(void)async_ops;
	(void)wait_se;
	(void)value;
	not_built(__func__);
}

DOCA_EXPERIMENTAL void doca_dpa_dev_sync_event_post_wait_ne(doca_dpa_dev_async_ops_t async_ops,
                                                            doca_dpa_dev_sync_event_t wait_se,
                                                            uint64_t value)
{
	(void)async_ops;
	(void)wait_se;
	(void)value;
	not_built(__func__);
}
