/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * RDMA tasks on a remote sync event (get, notify-set, notify-add). They
 * need doca_sync_event, which softdoca does not offer yet, so no such task
 * can be configured or allocated; the capability queries say so.
 */
#include "core/sdk_log.h"
#include "rdma/rdma.h"

SDOCA_LOG_MODULE(rdma_sync_event);

#define NO_SYNC_EVENT "remote sync events need doca_sync_event, which softdoca does not offer yet"

/* Task objects of these kinds cannot exist; their setters and getters are
 * still defined for programs that link them. */
#define UNREACHABLE_TASK() SDOCA_LOG_ONCE(DOCA_LOG_LEVEL_WARNING, "%s: %s", __func__, NO_SYNC_EVENT)

DOCA_EXPERIMENTAL doca_error_t
doca_rdma_cap_task_remote_net_sync_event_get_is_supported(const struct doca_devinfo *devinfo)
{
	SDOCA_CHECK_ARG(devinfo);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_remote_net_sync_event_get_set_conf(
        struct doca_rdma *rdma, doca_rdma_task_remote_net_sync_event_get_completion_cb_t ok,
        doca_rdma_task_remote_net_sync_event_get_completion_cb_t err, uint32_t num_tasks)
{
	(void)ok;
	(void)err;
	(void)num_tasks;
	SDOCA_CHECK_ARG(rdma);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_remote_net_sync_event_get_allocate_init(
        struct doca_rdma *rdma, struct doca_rdma_connection *conn,
        const struct doca_sync_event_remote_net *event, struct doca_buf *dst_buf,
        union doca_data user_data, struct doca_rdma_task_remote_net_sync_event_get **task)
{
	(void)conn;
	(void)event;
	(void)dst_buf;
	(void)user_data;
	SDOCA_CHECK_ARG(rdma);
	SDOCA_CHECK_ARG(task);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

RDMA_TASK_AS_TASK(doca_rdma_task_remote_net_sync_event_get_as_task, remote_net_sync_event_get)

DOCA_EXPERIMENTAL void doca_rdma_task_remote_net_sync_event_get_set_sync_event(
        struct doca_rdma_task_remote_net_sync_event_get *task,
        const struct doca_sync_event_remote_net *event)
{
	(void)task;
	(void)event;
	UNREACHABLE_TASK();
}

DOCA_EXPERIMENTAL const struct doca_sync_event_remote_net *
doca_rdma_task_remote_net_sync_event_get_get_sync_event(
        const struct doca_rdma_task_remote_net_sync_event_get *task)
{
	(void)task;
	UNREACHABLE_TASK();
	return NULL;
}

DOCA_EXPERIMENTAL void doca_rdma_task_remote_net_sync_event_get_set_dst_buf(
        struct doca_rdma_task_remote_net_sync_event_get *task, struct doca_buf *dst_buf)
{
	(void)task;
	(void)dst_buf;
	UNREACHABLE_TASK();
}

DOCA_EXPERIMENTAL struct doca_buf *doca_rdma_task_remote_net_sync_event_get_get_dst_buf(
        const struct doca_rdma_task_remote_net_sync_event_get *task)
{
	(void)task;
	UNREACHABLE_TASK();
	return NULL;
}

DOCA_EXPERIMENTAL uint32_t doca_rdma_task_remote_net_sync_event_get_get_result_len(
        const struct doca_rdma_task_remote_net_sync_event_get *task)
{
	(void)task;
	UNREACHABLE_TASK();
	return 0;
}

DOCA_EXPERIMENTAL uint32_t doca_rdma_task_remote_net_sync_event_get_get_result_length(
        const struct doca_rdma_task_remote_net_sync_event_get *task)
{
	(void)task;
	UNREACHABLE_TASK();
	return 0;
}

DOCA_EXPERIMENTAL void doca_rdma_task_remote_net_sync_event_get_set_rdma_connection(
        struct doca_rdma_task_remote_net_sync_event_get *task, struct doca_rdma_connection *conn)
{
	(void)task;
	(void)conn;
	UNREACHABLE_TASK();
}

DOCA_EXPERIMENTAL const struct doca_rdma_connection *
doca_rdma_task_remote_net_sync_event_get_get_rdma_connection(
        const struct doca_rdma_task_remote_net_sync_event_get *task)
{
	(void)task;
	UNREACHABLE_TASK();
	return NULL;
}

DOCA_EXPERIMENTAL doca_error_t
doca_rdma_cap_task_remote_net_sync_event_notify_set_is_supported(const struct doca_devinfo *devinfo)
{
	SDOCA_CHECK_ARG(devinfo);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_remote_net_sync_event_notify_set_set_conf(
        struct doca_rdma *rdma, doca_rdma_task_remote_net_sync_event_notify_set_completion_cb_t ok,
        doca_rdma_task_remote_net_sync_event_notify_set_completion_cb_t err, uint32_t num_tasks)
{
	(void)ok;
	(void)err;
	(void)num_tasks;
	SDOCA_CHECK_ARG(rdma);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_remote_net_sync_event_notify_set_allocate_init(
        struct doca_rdma *rdma, struct doca_rdma_connection *conn,
        struct doca_sync_event_remote_net *event, const struct doca_buf *src_buf,
        union doca_data user_data, struct doca_rdma_task_remote_net_sync_event_notify_set **task)
{
	(void)conn;
	(void)event;
	(void)src_buf;
	(void)user_data;
	SDOCA_CHECK_ARG(rdma);
	SDOCA_CHECK_ARG(task);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

RDMA_TASK_AS_TASK(doca_rdma_task_remote_net_sync_event_notify_set_as_task,
                  remote_net_sync_event_notify_set)

DOCA_EXPERIMENTAL void doca_rdma_task_remote_net_sync_event_notify_set_set_sync_event(
        struct doca_rdma_task_remote_net_sync_event_notify_set *task,
        struct doca_sync_event_remote_net *event)
{
	(void)task;
	(void)event;
	UNREACHABLE_TASK();
}

DOCA_EXPERIMENTAL struct doca_sync_event_remote_net *
doca_rdma_task_remote_net_sync_event_notify_set_get_sync_event(
        const struct doca_rdma_task_remote_net_sync_event_notify_set *task)
{
	(void)task;
	UNREACHABLE_TASK();
	return NULL;
}

DOCA_EXPERIMENTAL void doca_rdma_task_remote_net_sync_event_notify_set_set_rdma_connection(
        struct doca_rdma_task_remote_net_sync_event_notify_set *task,
        struct doca_rdma_connection *conn)
{
	(void)task;
	(void)conn;
	UNREACHABLE_TASK();
}

DOCA_EXPERIMENTAL const struct doca_rdma_connection *
doca_rdma_task_remote_net_sync_event_notify_set_get_rdma_connection(
        const struct doca_rdma_task_remote_net_sync_event_notify_set *task)
{
	(void)task;
	UNREACHABLE_TASK();
	return NULL;
}

DOCA_EXPERIMENTAL void doca_rdma_task_remote_net_sync_event_notify_set_set_src_buf(
        struct doca_rdma_task_remote_net_sync_event_notify_set *task,
        const struct doca_buf *src_buf)
{
	(void)task;
	(void)src_buf;
	UNREACHABLE_TASK();
}

DOCA_EXPERIMENTAL const struct doca_buf *
doca_rdma_task_remote_net_sync_event_notify_set_get_src_buf(
        const struct doca_rdma_task_remote_net_sync_event_notify_set *task)
{
	(void)task;
	UNREACHABLE_TASK();
	return NULL;
}

DOCA_EXPERIMENTAL doca_error_t
doca_rdma_cap_task_remote_net_sync_event_notify_add_is_supported(const struct doca_devinfo *devinfo)
{
	SDOCA_CHECK_ARG(devinfo);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_remote_net_sync_event_notify_add_set_conf(
        struct doca_rdma *rdma, doca_rdma_task_remote_net_sync_event_notify_add_completion_cb_t ok,
        doca_rdma_task_remote_net_sync_event_notify_add_completion_cb_t err, uint32_t num_tasks)
{
	(void)ok;
	(void)err;
	(void)num_tasks;
	SDOCA_CHECK_ARG(rdma);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_remote_net_sync_event_notify_add_allocate_init(
        struct doca_rdma *rdma, struct doca_rdma_connection *conn,
        struct doca_sync_event_remote_net *event, struct doca_buf *result_buf, uint64_t add_data,
        union doca_data user_data, struct doca_rdma_task_remote_net_sync_event_notify_add **task)
{
	(void)conn;
	(void)event;
	(void)result_buf;
	(void)add_data;
	(void)user_data;
	SDOCA_CHECK_ARG(rdma);
	SDOCA_CHECK_ARG(task);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

RDMA_TASK_AS_TASK(doca_rdma_task_remote_net_sync_event_notify_add_as_task,
                  remote_net_sync_event_notify_add)

DOCA_EXPERIMENTAL void doca_rdma_task_remote_net_sync_event_notify_add_set_sync_event(
        struct doca_rdma_task_remote_net_sync_event_notify_add *task,
        struct doca_sync_event_remote_net *event)
{
	(void)task;
	(void)event;
	UNREACHABLE_TASK();
}

DOCA_EXPERIMENTAL struct doca_sync_event_remote_net *
doca_rdma_task_remote_net_sync_event_notify_add_get_sync_event(
        const struct doca_rdma_task_remote_net_sync_event_notify_add *task)
{
	(void)task;
	UNREACHABLE_TASK();
	return NULL;
}

DOCA_EXPERIMENTAL void doca_rdma_task_remote_net_sync_event_notify_add_set_result_buf(
        struct doca_rdma_task_remote_net_sync_event_notify_add *task, struct doca_buf *result_buf)
{
	(void)task;
	(void)result_buf;
	UNREACHABLE_TASK();
}

DOCA_EXPERIMENTAL struct doca_buf *doca_rdma_task_remote_net_sync_event_notify_add_get_result_buf(
        const struct doca_rdma_task_remote_net_sync_event_notify_add *task)
{
	(void)task;
	UNREACHABLE_TASK();
	return NULL;
}

DOCA_EXPERIMENTAL void doca_rdma_task_remote_net_sync_event_notify_add_set_add_data(
        struct doca_rdma_task_remote_net_sync_event_notify_add *task, uint64_t add_data)
{
	(void)task;
	(void)add_data;
	UNREACHABLE_TASK();
}

DOCA_EXPERIMENTAL uint64_t doca_rdma_task_remote_net_sync_event_notify_add_get_add_data(
        const struct doca_rdma_task_remote_net_sync_event_notify_add *task)
{
	(void)task;
	UNREACHABLE_TASK();
	return 0;
}

DOCA_EXPERIMENTAL void doca_rdma_task_remote_net_sync_event_notify_add_set_rdma_connection(
        struct doca_rdma_task_remote_net_sync_event_notify_add *task,
        struct doca_rdma_connection *conn)
{
	(void)task;
	(void)conn;
	UNREACHABLE_TASK();
}

DOCA_EXPERIMENTAL const struct doca_rdma_connection *
doca_rdma_task_remote_net_sync_event_notify_add_get_rdma_connection(
        const struct doca_rdma_task_remote_net_sync_event_notify_add *task)
{
	(void)task;
	UNREACHABLE_TASK();
	return NULL;
}
