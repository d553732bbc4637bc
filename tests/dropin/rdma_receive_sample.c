/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Receive: posts one receive and prints the message that arrives in it.
 */
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_RECEIVE::SAMPLE);

static doca_error_t release_receive_task(struct doca_rdma_task_receive *task,
                                         struct rdma_resources *resources)
{
	doca_error_t result;

	doca_task_free(doca_rdma_task_receive_as_task(task));
	result = doca_buf_dec_refcount(resources->dst_buf, NULL);
	resources->dst_buf = NULL;
	return result;
}

static void rdma_receive_completed_callback(struct doca_rdma_task_receive *rdma_receive_task,
                                            union doca_data task_user_data,
                                            union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	const struct doca_buf *dst = doca_rdma_task_receive_get_dst_buf(rdma_receive_task);
	uint32_t result_len = doca_rdma_task_receive_get_result_len(rdma_receive_task);
	void *data = NULL;
	size_t data_len = 0;
	doca_error_t result, tmp;

	(void)task_user_data;
	result = doca_buf_get_data(dst, &data);
	if (result == DOCA_SUCCESS)
		result = doca_buf_get_data_len(dst, &data_len);
	if (result == DOCA_SUCCESS && data_len != result_len) {
		DOCA_LOG_ERR("Receive reported %u bytes, the buffer holds %zu", result_len,
		             data_len);
		result = DOCA_ERROR_UNEXPECTED;
	}
	if (result == DOCA_SUCCESS)
		DOCA_LOG_INFO("Message received (%zu bytes): \"%.*s\"", data_len, (int)data_len,
		              (const char *)data);
	tmp = release_receive_task(rdma_receive_task, resources);
	DOCA_ERROR_PROPAGATE(result, tmp);
	DOCA_ERROR_PROPAGATE(resources->first_encountered_error, result);
	(void)doca_ctx_stop(resources->rdma_ctx);
}

static void rdma_receive_error_callback(struct doca_rdma_task_receive *rdma_receive_task,
                                        union doca_data task_user_data,
                                        union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	doca_error_t status =
	        doca_task_get_status(doca_rdma_task_receive_as_task(rdma_receive_task));

	(void)task_user_data;
	DOCA_LOG_ERR("RDMA receive task failed: %s", doca_error_get_descr(status));
	(void)release_receive_task(rdma_receive_task, resources);
	rdma_fail(resources, status);
}

static doca_error_t rdma_receive_prepare_and_submit_task(struct rdma_resources *resources)
{
	struct doca_rdma_task_receive *rdma_receive_task = NULL;
	union doca_data task_user_data = { .u64 = 0 };
	doca_error_t result;

	result = rdma_export_and_connect(resources);
	if (result != DOCA_SUCCESS)
		return result;

	/* An empty buffer over the whole range: the message is appended to it. */
	result = doca_buf_inventory_buf_get_by_addr(resources->buf_inventory, resources->mmap,
	                                            resources->mmap_memrange, MEM_RANGE_LEN,
	                                            &resources->dst_buf);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate the destination buffer: %s",
		             doca_error_get_descr(result));
		return result;
	}
	result = doca_rdma_task_receive_allocate_init(resources->rdma, resources->dst_buf,
	                                              task_user_data, &rdma_receive_task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate the RDMA receive task: %s",
		             doca_error_get_descr(result));
		return result;
	}
	result = doca_task_submit(doca_rdma_task_receive_as_task(rdma_receive_task));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to submit the RDMA receive task: %s",
		             doca_error_get_descr(result));
		doca_task_free(doca_rdma_task_receive_as_task(rdma_receive_task));
		return result;
	}
	DOCA_LOG_INFO("Waiting for a message");
	return DOCA_SUCCESS;
}

static doca_error_t rdma_receive_configure_tasks(struct rdma_resources *resources)
{
	doca_error_t result = doca_rdma_task_receive_set_conf(
	        resources->rdma, rdma_receive_completed_callback, rdma_receive_error_callback, 1);

	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to configure RDMA receive tasks: %s",
		             doca_error_get_descr(result));
	return result;
}

const struct rdma_sample rdma_receive_sample = {
	.name = "rdma_receive",
	.mmap_permissions = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
	.rdma_permissions = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
	.check = doca_rdma_cap_task_receive_is_supported,
	.configure_tasks = rdma_receive_configure_tasks,
	.on_running = rdma_receive_prepare_and_submit_task,
};
