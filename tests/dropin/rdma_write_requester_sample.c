/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Write requester: writes its string (-w) into the responder's memory right
 * after connecting (with -cm: once the responder's memory descriptor
 * arrived), then tells the responder it is done.
 */
#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_WRITE_REQUESTER::SAMPLE);

static void write_completed_callback(struct doca_rdma_task_write *task,
                                     union doca_data task_user_data, union doca_data ctx_user_data)
{
	struct rdma_objects *objs = ctx_user_data.ptr;
	doca_error_t result;

	(void)task_user_data;
	DOCA_LOG_INFO("RDMA write task was done successfully: \"%s\" written to the responder",
	              objs->params->text);
	doca_task_free(doca_rdma_task_write_as_task(task));
	result = release_task_bufs(objs);
	/* The responder cannot see a write complete: tell it. */
	if (result == DOCA_SUCCESS)
		result = signal_peer_done(objs);
	rdma_task_done(objs, result);
}

static void write_error_callback(struct doca_rdma_task_write *task, union doca_data task_user_data,
                                 union doca_data ctx_user_data)
{
	struct rdma_objects *objs = ctx_user_data.ptr;
	doca_error_t status = doca_task_get_status(doca_rdma_task_write_as_task(task));

	(void)task_user_data;
	DOCA_LOG_ERR("RDMA write task failed: %s", doca_error_get_descr(status));
	doca_task_free(doca_rdma_task_write_as_task(task));
	(void)release_task_bufs(objs);
	rdma_task_done(objs, status);
}

/* Runs in the RUNNING callback, right after connect (with -cm: in the
 * descriptor's receive completion callback). */
static doca_error_t write_prepare_and_submit(struct rdma_objects *objs)
{
	struct doca_rdma_task_write *task;
	union doca_data task_user_data = { .ptr = NULL };
	doca_error_t result;

	result = prepare_remote_write_bufs(objs);
	if (result != DOCA_SUCCESS)
		return result;
	result = doca_rdma_task_write_allocate_init(objs->rdma, objs->connection, objs->src_buf,
	                                            objs->dst_buf, task_user_data, &task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate the RDMA write task: %s",
		             doca_error_get_descr(result));
		return result;
	}
	DOCA_LOG_INFO("Submitting an RDMA write task of \"%s\"", objs->params->text);
	objs->tasks_in_flight++;
	result = doca_task_submit(doca_rdma_task_write_as_task(task));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to submit the RDMA write task: %s",
		             doca_error_get_descr(result));
		objs->tasks_in_flight--;
		doca_task_free(doca_rdma_task_write_as_task(task));
	}
	return result;
}

doca_error_t rdma_write_requester(struct rdma_params *params)
{
	struct rdma_objects objs;
	doca_error_t result, tmp;

	result = allocate_rdma_resources(params, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
	                                 DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
	                                 doca_rdma_cap_task_write_is_supported, &objs);
	if (result != DOCA_SUCCESS)
		return result;
	objs.is_requester = true;
	objs.exchange_mmap = true;
	objs.connected = write_prepare_and_submit;

	result = doca_rdma_task_write_set_conf(objs.rdma, write_completed_callback,
	                                       write_error_callback, TASKS_PER_PROGRAM);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to configure RDMA write tasks: %s",
		             doca_error_get_descr(result));
	/* RDMA-CM: the responder's memory descriptor comes in a receive. */
	if (result == DOCA_SUCCESS && params->use_rdma_cm)
		result = config_rdma_cm_callbacks_and_negotiation(&objs, false, true);
	if (result == DOCA_SUCCESS)
		result = doca_ctx_set_state_changed_cb(objs.ctx, rdma_state_changed_callback);
	if (result == DOCA_SUCCESS)
		result = create_buf_inventory(&objs);
	if (result == DOCA_SUCCESS)
		result = run_rdma_context(&objs);

	tmp = destroy_buf_inventory(&objs);
	DOCA_ERROR_PROPAGATE(result, tmp);
	tmp = destroy_rdma_resources(&objs);
	DOCA_ERROR_PROPAGATE(result, tmp);
	return result;
}
