/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * doca_sync_event's task forms (get, notify-set, notify-add, wait-eq,
 * wait-neq, and DOCA 2.5's wait-gt): not built yet, like the events
 * themselves (sync_event.c says how they answer meanwhile).
 */
#define SOFTDOCA_API_VERSION 205

#include <stddef.h>

#include <doca_sync_event.h>

#include "core/sdk_log.h"
#include "core/sync_event.h"

SDOCA_LOG_MODULE(sync_event_task);

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_task_get_is_supported(const struct doca_devinfo *devinfo)
{
	SDOCA_CHECK_ARG(devinfo);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_get_set_conf(
        struct doca_sync_event *event, doca_sync_event_task_get_completion_cb_t completion_cb,
        doca_sync_event_task_get_completion_cb_t error_cb, uint32_t num_tasks)
{
	(void)completion_cb;
	(void)error_cb;
	(void)num_tasks;
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_get_alloc_init(
        struct doca_sync_event *event, uint64_t *ret_val_ptr, union doca_data user_data,
        struct doca_sync_event_task_get **task)
{
	(void)user_data;
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(ret_val_ptr);
	SDOCA_CHECK_ARG(task);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL struct doca_task *
doca_sync_event_task_get_as_doca_task(struct doca_sync_event_task_get *task)
{
	(void)task;
	UNREACHABLE_OBJECT();
	return NULL;
}

DOCA_EXPERIMENTAL void
doca_sync_event_task_get_set_ret_val_ptr(struct doca_sync_event_task_get *task,
                                         uint64_t *ret_val_ptr)
{
	(void)task;
	(void)ret_val_ptr;
	UNREACHABLE_OBJECT();
}

DOCA_EXPERIMENTAL uint64_t *
doca_sync_event_task_get_get_ret_val_ptr(const struct doca_sync_event_task_get *task)
{
	(void)task;
	UNREACHABLE_OBJECT();
	return NULL;
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_task_notify_set_is_supported(const struct doca_devinfo *devinfo)
{
	SDOCA_CHECK_ARG(devinfo);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_notify_set_set_conf(
        struct doca_sync_event *event,
        doca_sync_event_task_notify_set_completion_cb_t completion_cb,
        doca_sync_event_task_notify_set_completion_cb_t error_cb, uint32_t num_tasks)
{
	(void)completion_cb;
	(void)error_cb;
	(void)num_tasks;
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_notify_set_alloc_init(
        struct doca_sync_event *event, uint64_t set_val, union doca_data user_data,
        struct doca_sync_event_task_notify_set **task)
{
	(void)set_val;
	(void)user_data;
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(task);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL struct doca_task *
doca_sync_event_task_notify_set_as_doca_task(struct doca_sync_event_task_notify_set *task)
{
	(void)task;
	UNREACHABLE_OBJECT();
	return NULL;
}

DOCA_EXPERIMENTAL void
doca_sync_event_task_notify_set_set_set_val(struct doca_sync_event_task_notify_set *task,
                                            uint64_t set_val)
{
	(void)task;
	(void)set_val;
	UNREACHABLE_OBJECT();
}

DOCA_EXPERIMENTAL uint64_t
doca_sync_event_task_notify_set_get_set_val(const struct doca_sync_event_task_notify_set *task)
{
	(void)task;
	UNREACHABLE_OBJECT();
	return 0;
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_task_notify_add_is_supported(const struct doca_devinfo *devinfo)
{
	SDOCA_CHECK_ARG(devinfo);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_notify_add_set_conf(
        struct doca_sync_event *event,
        doca_sync_event_task_notify_add_completion_cb_t completion_cb,
        doca_sync_event_task_notify_add_completion_cb_t error_cb, uint32_t num_tasks)
{
	(void)completion_cb;
	(void)error_cb;
	(void)num_tasks;
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_notify_add_alloc_init(
        struct doca_sync_event *event, uint64_t inc_val, uint64_t *fetched_val_ptr,
        union doca_data user_data, struct doca_sync_event_task_notify_add **task)
{
	(void)inc_val;
	(void)user_data;
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(fetched_val_ptr);
	SDOCA_CHECK_ARG(task);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL struct doca_task *
doca_sync_event_task_notify_add_as_doca_task(struct doca_sync_event_task_notify_add *task)
{
	(void)task;
	UNREACHABLE_OBJECT();
	return NULL;
}

DOCA_EXPERIMENTAL void
doca_sync_event_task_notify_add_set_inc_val(struct doca_sync_event_task_notify_add *task,
                                            uint64_t inc_val)
{
	(void)task;
	(void)inc_val;
	UNREACHABLE_OBJECT();
}

DOCA_EXPERIMENTAL uint64_t
doca_sync_event_task_notify_add_get_inc_val(const struct doca_sync_event_task_notify_add *task)
{
	(void)task;
	UNREACHABLE_OBJECT();
	return 0;
}

DOCA_EXPERIMENTAL void
doca_sync_event_task_notify_add_set_fetched_val_ptr(struct doca_sync_event_task_notify_add *task,
                                                    uint64_t *fetched_val_ptr)
{
	(void)task;
	(void)fetched_val_ptr;
	UNREACHABLE_OBJECT();
}

DOCA_EXPERIMENTAL uint64_t *doca_sync_event_task_notify_add_get_fetched_val_ptr(
        const struct doca_sync_event_task_notify_add *task)
{
	(void)task;
	UNREACHABLE_OBJECT();
	return NULL;
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_task_wait_eq_is_supported(const struct doca_devinfo *devinfo)
{
	SDOCA_CHECK_ARG(devinfo);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_wait_eq_set_conf(
        struct doca_sync_event *event, doca_sync_event_task_wait_eq_completion_cb_t completion_cb,
        doca_sync_event_task_wait_eq_completion_cb_t error_cb, uint32_t num_tasks)
{
	(void)completion_cb;
	(void)error_cb;
	(void)num_tasks;
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_wait_eq_alloc_init(
        struct doca_sync_event *event, uint64_t wait_val, uint64_t mask, union doca_data user_data,
        struct doca_sync_event_task_wait_eq **task)
{
	(void)wait_val;
	(void)mask;
	(void)user_data;
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(task);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL struct doca_task *
doca_sync_event_task_wait_eq_as_doca_task(struct doca_sync_event_task_wait_eq *task)
{
	(void)task;
	UNREACHABLE_OBJECT();
	return NULL;
}

DOCA_EXPERIMENTAL void
doca_sync_event_task_wait_eq_set_wait_val(struct doca_sync_event_task_wait_eq *task,
                                          uint64_t wait_val)
{
	(void)task;
	(void)wait_val;
	UNREACHABLE_OBJECT();
}

DOCA_EXPERIMENTAL uint64_t
doca_sync_event_task_wait_eq_get_wait_val(const struct doca_sync_event_task_wait_eq *task)
{
	(void)task;
	UNREACHABLE_OBJECT();
	return 0;
}

DOCA_EXPERIMENTAL void
doca_sync_event_task_wait_eq_set_mask(struct doca_sync_event_task_wait_eq *task, uint64_t mask)
{
	(void)task;
	(void)mask;
	UNREACHABLE_OBJECT();
}

DOCA_EXPERIMENTAL uint64_t
doca_sync_event_task_wait_eq_get_mask(const struct doca_sync_event_task_wait_eq *task)
{
	(void)task;
	UNREACHABLE_OBJECT();
	return 0;
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_task_wait_neq_is_supported(const struct doca_devinfo *devinfo)
{
	SDOCA_CHECK_ARG(devinfo);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_wait_neq_set_conf(
        struct doca_sync_event *event, doca_sync_event_task_wait_neq_completion_cb_t completion_cb,
        doca_sync_event_task_wait_neq_completion_cb_t error_cb, uint32_t num_tasks)
{
	(void)completion_cb;
	(void)error_cb;
	(void)num_tasks;
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_wait_neq_alloc_init(
        struct doca_sync_event *event, uint64_t wait_val, uint64_t mask, union doca_data user_data,
        struct doca_sync_event_task_wait_neq **task)
{
	(void)wait_val;
	(void)mask;
	(void)user_data;
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(task);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL struct doca_task *
doca_sync_event_task_wait_neq_as_doca_task(struct doca_sync_event_task_wait_neq *task)
{
	(void)task;
	UNREACHABLE_OBJECT();
	return NULL;
}

DOCA_EXPERIMENTAL void
doca_sync_event_task_wait_neq_set_wait_val(struct doca_sync_event_task_wait_neq *task,
                                           uint64_t wait_val)
{
	(void)task;
	(void)wait_val;
	UNREACHABLE_OBJECT();
}

DOCA_EXPERIMENTAL uint64_t
doca_sync_event_task_wait_neq_get_wait_val(const struct doca_sync_event_task_wait_neq *task)
{
	(void)task;
	UNREACHABLE_OBJECT();
	return 0;
}

DOCA_EXPERIMENTAL void
doca_sync_event_task_wait_neq_set_mask(struct doca_sync_event_task_wait_neq *task, uint64_t mask)
{
	(void)task;
	(void)mask;
	UNREACHABLE_OBJECT();
}

DOCA_EXPERIMENTAL uint64_t
doca_sync_event_task_wait_neq_get_mask(const struct doca_sync_event_task_wait_neq *task)
{
	(void)task;
	UNREACHABLE_OBJECT();
	return 0;
}

/* DOCA 2.5 (declared for SOFTDOCA_API_VERSION below 300). */

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_task_wait_gt_is_supported(const struct doca_devinfo *devinfo)
{
	SDOCA_CHECK_ARG(devinfo);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_wait_gt_set_conf(
        struct doca_sync_event *event, doca_sync_event_task_wait_gt_completion_cb_t completion_cb,
        doca_sync_event_task_wait_gt_completion_cb_t error_cb, uint32_t num_tasks)
{
	(void)completion_cb;
	(void)error_cb;
	(void)num_tasks;
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_wait_gt_alloc_init(
        struct doca_sync_event *event, uint64_t wait_val, uint64_t mask, union doca_data user_data,
        struct doca_sync_event_task_wait_gt **task)
{
	(void)wait_val;
	(void)mask;
	(void)user_data;
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(task);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL struct doca_task *
doca_sync_event_task_wait_gt_as_doca_task(struct doca_sync_event_task_wait_gt *task)
{
	(void)task;
	UNREACHABLE_OBJECT();
	return NULL;
}

DOCA_EXPERIMENTAL void
doca_sync_event_task_wait_gt_set_wait_val(struct doca_sync_event_task_wait_gt *task,
                                          uint64_t wait_val)
{
	(void)task;
	(void)wait_val;
	UNREACHABLE_OBJECT();
}

DOCA_EXPERIMENTAL uint64_t
doca_sync_event_task_wait_gt_get_wait_val(const struct doca_sync_event_task_wait_gt *task)
{
	(void)task;
	UNREACHABLE_OBJECT();
	return 0;
}

DOCA_EXPERIMENTAL void
doca_sync_event_task_wait_gt_set_mask(struct doca_sync_event_task_wait_gt *task, uint64_t mask)
{
	(void)task;
	(void)mask;
	UNREACHABLE_OBJECT();
}

DOCA_EXPERIMENTAL uint64_t
doca_sync_event_task_wait_gt_get_mask(const struct doca_sync_event_task_wait_gt *task)
{
	(void)task;
	UNREACHABLE_OBJECT();
	return 0;
}
