/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Receive with immediate: posts one receive right after connecting; the
 * message must come with the immediate value 0xABCD. Prints both and stops
 * the context inside the completion callback.
 */
#include <doca_buf.h>
#include <doca_ctx.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_RECEIVE_IMMEDIATE::SAMPLE);

static doca_error_t print_message_and_immediate(struct doca_rdma_task_receive *task)
{
	const struct doca_buf *dst = doca_rdma_task_receive_get_dst_buf(task);
	doca_be32_t immediate = doca_rdma_task_receive_get_result_immediate_data(task);
	void *data;
	size_t len;
	doca_error_t result;

	if (doca_rdma_task_receive_get_result_opcode(task) != DOCA_RDMA_OPCODE_RECV_SEND_WITH_IMM) {
		DOCA_LOG_ERR("The message is not a send with immediate (opcode %d)",
		             (int)doca_rdma_task_receive_get_result_opcode(task));
		return DOCA_ERROR_UNEXPECTED;
	}
	if (immediate != IMMEDIATE_VALUE) {
		DOCA_LOG_ERR("Immediate 0x%x, expected 0x%x", (unsigned)immediate, IMMEDIATE_VALUE);
		return DOCA_ERROR_UNEXPECTED;
	}
	result = doca_buf_get_data(dst, &data);
	if (result == DOCA_SUCCESS)
		result = doca_buf_get_data_len(dst, &len);
	if (result != DOCA_SUCCESS)
		return result;
	if (len == 0 || strnlen(data, len) != len - 1) {
		DOCA_LOG_ERR("Received %zu bytes that are not one string", len);
		return DOCA_ERROR_UNEXPECTED;
	}
	DOCA_LOG_INFO("Message received with immediate 0x%x: \"%s\"", (unsigned)immediate,
	              (char *)data);
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
	result = print_message_and_immediate(task);
	doca_task_free(doca_rdma_task_receive_as_task(task));
	tmp = release_task_bufs(objs);
	DOCA_ERROR_PROPAGATE(result, tmp);
	rdma_task_done(objs, result);
}

doca_error_t rdma_receive_immediate(struct rdma_params *params)
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
