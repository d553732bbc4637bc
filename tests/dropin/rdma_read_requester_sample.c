/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Read requester: reads the responder's memory right after connecting (with
 * -cm: once the responder's memory descriptor arrived), prints the string it
 * found there and tells the responder it is done.
 */
#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_READ_REQUESTER::SAMPLE);

/* The string the read placed at the start of the destination buffer. */
static doca_error_t print_read_text(struct doca_rdma_task_read *task)
{
	const struct doca_buf *dst = doca_rdma_task_read_get_dst_buf(task);
	void *data;
	size_t len;
	doca_error_t result;

	result = doca_buf_get_data(dst, &data);
	if (result == DOCA_SUCCESS)
		result = doca_buf_get_data_len(dst, &len);
	if (result != DOCA_SUCCESS)
		return result;
	if (len != doca_rdma_task_read_get_result_len(task) || strnlen(data, len) == len) {
		DOCA_LOG_ERR("The read returned %zu bytes (result length %u) without a string", len,
		             doca_rdma_task_read_get_result_len(task));
		return DOCA_ERROR_UNEXPECTED;
	}
	DOCA_LOG_INFO("Read from the responder: \"%s\"", (char *)data);
	return DOCA_SUCCESS;
}

static void read_completed_callback(struct doca_rdma_task_read *task,
                                    union doca_data task_user_data, union doca_data ctx_user_data)
{
	struct rdma_objects *objs = ctx_user_data.ptr;
	doca_error_t result, tmp;

	(void)task_user_data;
	DOCA_LOG_INFO("RDMA read task was done successfully");
	result = print_read_text(task);
	doca_task_free(doca_rdma_task_read_as_task(task));
	tmp = release_task_bufs(objs);
	DOCA_ERROR_PROPAGATE(result, tmp);
	/* The responder cannot see a read complete: tell it. */
	if (result == DOCA_SUCCESS)
		result = signal_peer_done(objs);
	rdma_task_done(objs, result);
}

static void read_error_callback(struct doca_rdma_task_read *task, union doca_data task_user_data,
                                union doca_data ctx_user_data)
{
	struct rdma_objects *objs = ctx_user_data.ptr;
	doca_error_t status = doca_task_get_status(doca_rdma_task_read_as_task(task));

	(void)task_user_data;
	DOCA_LOG_ERR("RDMA read task failed: %s", doca_error_get_descr(status));
	doca_task_free(doca_rdma_task_read_as_task(task));
	(void)release_task_bufs(objs);
	rdma_task_done(objs, status);
}

/* Runs in the RUNNING callback, right after connect (with -cm: in the
 * descriptor's receive completion callback): the whole of the responder's
 * memory into ours. */
static doca_error_t read_prepare_and_submit(struct rdma_objects *objs)
{
	struct doca_rdma_task_read *task;
	union doca_data task_user_data = { .ptr = NULL };
	void *remote_addr;
	size_t remote_len;
	doca_error_t result;

	result = import_remote_mmap(objs, &remote_addr, &remote_len);
	if (result != DOCA_SUCCESS)
		return result;
	result = doca_buf_inventory_buf_get_by_data(objs->inventory, objs->remote_mmap, remote_addr,
	                                            remote_len, &objs->src_buf);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to get the remote source buffer: %s",
		             doca_error_get_descr(result));
		return result;
	}
	result = prepare_empty_dst_buf(objs);
	if (result != DOCA_SUCCESS)
		return result;
	result = doca_rdma_task_read_allocate_init(objs->rdma, objs->connection, objs->src_buf,
	                                           objs->dst_buf, task_user_data, &task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate the RDMA read task: %s",
		             doca_error_get_descr(result));
		return result;
	}
	DOCA_LOG_INFO("Submitting an RDMA read task of %zu bytes", remote_len);
	objs->tasks_in_flight++;
	result = doca_task_submit(doca_rdma_task_read_as_task(task));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to submit the RDMA read task: %s",
		             doca_error_get_descr(result));
		objs->tasks_in_flight--;
		doca_task_free(doca_rdma_task_read_as_task(task));
	}
	return result;
}

doca_error_t rdma_read_requester(struct rdma_params *params)
{
	struct rdma_objects objs;
	doca_error_t result, tmp;

	result = allocate_rdma_resources(params, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
	                                 DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
	                                 doca_rdma_cap_task_read_is_supported, &objs);
	if (result != DOCA_SUCCESS)
		return result;
	objs.is_requester = true;
	objs.exchange_mmap = true;
	objs.connected = read_prepare_and_submit;

	result = doca_rdma_task_read_set_conf(objs.rdma, read_completed_callback,
	                                      read_error_callback, TASKS_PER_PROGRAM);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to configure RDMA read tasks: %s",
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
