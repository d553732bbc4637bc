/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * doca_dpa_dev_sync_event.h: a kernel reads and updates a sync event
 * through the device handle the host got (docs/dpa.md 2.9). Updates wake
 * the host's waiters as a host update does. wait_gt (with the kernel
 * deadline, step 4) and the async-ops forms are not built.
 */
#include <doca_dpa_dev_sync_event.h>

#include "core/sdk_log.h"
#include "core/sync_event.h"
#include "dpa/dpa.h"

SDOCA_LOG_MODULE(dpa_dev_sync_event);

static void bad_handle(const char *caller, uint64_t handle)
{
	struct sdoca_dpa_exec *exec = sdoca_dpa_exec;
	if (exec == NULL) {
		SDOCA_ERR("%s: 0x%lx is not the DPA handle of a started sync event", caller,
		          (unsigned long)handle);
		return;
	}
	SDOCA_ERR("DPA kernel '%s' (thread %u): %s: 0x%lx is not the DPA handle of a started "
	          "sync event",
	          exec->kernel->name, exec->thread_id, caller, (unsigned long)handle);
	sdoca_dpa_set_error(exec->dpa, DOCA_ERROR_INVALID_VALUE);
}

/* A stop of the calling DPA thread ends its activation here. */
static void cancel_point(void)
{
	struct sdoca_dpa_exec *exec = sdoca_dpa_exec;
	if (exec != NULL && exec->thread != NULL)
		sdoca_dpa_thread_cancel_point(exec->thread);
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
	cancel_point();
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

	cancel_point();
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
	(void)dpa_dev_se_handle;
	(void)value;
	(void)mask;
	not_built(__func__);
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
