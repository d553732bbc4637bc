/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Write with immediate responder: exports its memory, connects and posts a
 * receive without a buffer; the requester's write with immediate completes
 * it. Prints what was written and the immediate, and stops the context
 * inside the completion callback.
 */
#include <doca_ctx.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_WRITE_IMMEDIATE_RESPONDER::SAMPLE);

static doca_error_t print_written_text(struct rdma_objects *objs,
                                       struct doca_rdma_task_receive *task)
{
	enum doca_rdma_opcode opcode = doca_rdma_task_receive_get_result_opcode(task);
	doca_be32_t immediate = doca_rdma_task_receive_get_result_immediate_data(task);

	if (opcode != DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM) {
		DOCA_LOG_ERR("The receive did not end a write with immediate (opcode %d)",
		             (int)opcode);
		return DOCA_ERROR_UNEXPECTED;
	}
	if (immediate != IMMEDIATE_VALUE) {
		DOCA_LOG_ERR("Immediate 0x%x, expected 0x%x", (unsigned)immediate, IMMEDIATE_VALUE);
		return DOCA_ERROR_UNEXPECTED;
	}
	if (strnlen(objs->memrange, MEMORY_LEN) == MEMORY_LEN) {
		DOCA_LOG_ERR("The requester wrote no string that ends within %d bytes", MEMORY_LEN);
		return DOCA_ERROR_INVALID_VALUE;
	}
	DOCA_LOG_INFO("Requester has written with immediate 0x%x: \"%s\"", (unsigned)immediate,
	              objs->memrange);
	return DOCA_SUCCESS;
}

static void receive_completed_callback(struct doca_rdma_task_receive *task,
                                       union doca_data task_user_data,
                                       union doca_data ctx_user_data)
{
	struct rdma_objects *objs = ctx_user_data.ptr;
	doca_error_t result;

	(void)task_user_data;
	DOCA_LOG_INFO("RDMA receive task was done successfully");
	result = print_written_text(objs, task);
	doca_task_free(doca_rdma_task_receive_as_task(task));
	rdma_task_done(objs, result);
}

doca_error_t rdma_write_immediate_responder(struct rdma_params *params)
{
	struct rdma_objects objs;
	doca_error_t result, tmp;

	result = allocate_rdma_resources(
	        params, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE,
	        DOCA_ACCESS_FLAG_RDMA_WRITE, doca_rdma_cap_task_receive_is_supported, &objs);
	if (result != DOCA_SUCCESS)
		return result;
	objs.exchange_mmap = true;
	objs.connected = post_receive_without_buffer;

	result = doca_rdma_task_receive_set_conf(objs.rdma, receive_completed_callback,
	                                         rdma_receive_error_callback, TASKS_PER_PROGRAM);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to configure RDMA receive tasks: %s",
		             doca_error_get_descr(result));
	/* RDMA-CM: the memory descriptor goes to the requester in a send. */
	if (result == DOCA_SUCCESS && params->use_rdma_cm)
		result = config_rdma_cm_callbacks_and_negotiation(&objs, true, false);
	if (result == DOCA_SUCCESS)
		result = doca_ctx_set_state_changed_cb(objs.ctx, rdma_state_changed_callback);
	if (result == DOCA_SUCCESS)
		result = run_rdma_context(&objs);

	tmp = destroy_rdma_resources(&objs);
	DOCA_ERROR_PROPAGATE(result, tmp);
	return result;
}
