/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Receive: posts one receive right after connecting, prints the message that
 * arrives in it, and stops the context inside the completion callback: the
 * program is gone moments after its message arrived.
 *
 * Includes nothing but DOCA headers (through rdma_common.h too), as programs
 * written for DOCA do, yet calls malloc, memset, strncpy, strnlen, strlen,
 * snprintf and free: DOCA's headers bring <stdlib.h>, <string.h> and (with
 * doca_log.h) <stdio.h>.
 */
#include <doca_buf.h>
#include <doca_ctx.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_RECEIVE::SAMPLE);

/* Copies the message out before its buffer goes back, and prints it. */
static doca_error_t print_message(struct doca_rdma_task_receive *task)
{
	const struct doca_buf *dst = doca_rdma_task_receive_get_dst_buf(task);
	uint32_t result_len = doca_rdma_task_receive_get_result_len(task);
	char size_text[32];
	char *message;
	void *data;
	size_t data_len;
	doca_error_t result;

	result = doca_buf_get_data(dst, &data);
	if (result == DOCA_SUCCESS)
		result = doca_buf_get_data_len(dst, &data_len);
	if (result != DOCA_SUCCESS)
		return result;
	/* The sender sends its string with the NUL. */
	if (data_len != result_len || result_len == 0 || strnlen(data, data_len) != data_len - 1) {
		DOCA_LOG_ERR("Received %zu bytes (result length %u) that are not one string",
		             data_len, result_len);
		return DOCA_ERROR_UNEXPECTED;
	}
	message = malloc(data_len);
	if (message == NULL)
		return DOCA_ERROR_NO_MEMORY;
	memset(message, 0, data_len);
	strncpy(message, data, data_len - 1);
	snprintf(size_text, sizeof(size_text), "%u bytes", result_len);
	DOCA_LOG_INFO("Message received (%s, %zu characters): \"%s\"", size_text, strlen(message),
	              message);
	free(message);
	return DOCA_SUCCESS;
}

static void receive_completed_callback(struct doca_rdma_task_receive *task,
                                       union doca_data task_user_data,
                                       union doca_data ctx_user_data)
{
	struct rdma_objects *objs = ctx_user_data.ptr;
	doca_error_t result, tmp;

	(void)task_user_data;
	DOCA_LOG_INFO("RDMA receive task was done successfully");
	result = print_message(task);
	doca_task_free(doca_rdma_task_receive_as_task(task));
	tmp = release_task_bufs(objs);
	DOCA_ERROR_PROPAGATE(result, tmp);
	/* The last task: this stops the context, right here in the callback. */
	rdma_task_done(objs, result);
}

doca_error_t rdma_receive(struct rdma_params *params)
{
	struct rdma_objects objs;
	doca_error_t result, tmp;

	result = allocate_rdma_resources(params, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
	                                 DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
	                                 doca_rdma_cap_task_receive_is_supported, &objs);
	if (result != DOCA_SUCCESS)
		return result;
	objs.connected = post_receive;

	result = doca_rdma_task_receive_set_conf(objs.rdma, receive_completed_callback,
	                                         rdma_receive_error_callback, TASKS_PER_PROGRAM);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to configure RDMA receive tasks: %s",
		             doca_error_get_descr(result));
	if (result == DOCA_SUCCESS && params->use_rdma_cm)
		result = config_rdma_cm_callbacks_and_negotiation(&objs, false, false);
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
