/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Send: sends a string to the receiver, right after connecting (before the
 * receiver may have posted its receive: the send waits for it).
 */
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_SEND::SAMPLE);

static doca_error_t release_send_task(struct doca_rdma_task_send *task,
                                      struct rdma_resources *resources)
{
	doca_error_t result;

	doca_task_free(doca_rdma_task_send_as_task(task));
	result = doca_buf_dec_refcount(resources->src_buf, NULL);
	resources->src_buf = NULL;
	return result;
}

static void rdma_send_completed_callback(struct doca_rdma_task_send *rdma_send_task,
                                         union doca_data task_user_data,
                                         union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	doca_error_t result;

	(void)task_user_data;
	DOCA_LOG_INFO("RDMA send task was done successfully");
	result = release_send_task(rdma_send_task, resources);
	DOCA_ERROR_PROPAGATE(resources->first_encountered_error, result);
	(void)doca_ctx_stop(resources->rdma_ctx);
}

static void rdma_send_error_callback(struct doca_rdma_task_send *rdma_send_task,
                                     union doca_data task_user_data, union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	doca_error_t status = doca_task_get_status(doca_rdma_task_send_as_task(rdma_send_task));

	(void)task_user_data;
	DOCA_LOG_ERR("RDMA send task failed: %s", doca_error_get_descr(status));
	(void)release_send_task(rdma_send_task, resources);
	rdma_fail(resources, status);
}

static doca_error_t rdma_send_prepare_and_submit_task(struct rdma_resources *resources)
{
	struct doca_rdma_task_send *rdma_send_task = NULL;
	union doca_data task_user_data = { .u64 = 0 };
	const char *text = resources->cfg->text;
	size_t text_len = strlen(text); /* the receiver gets the length with the data */
	doca_error_t result;

	result = rdma_export_and_connect(resources);
	if (result != DOCA_SUCCESS)
		return result;

	memcpy(resources->mmap_memrange, text, text_len);
	result = doca_buf_inventory_buf_get_by_data(resources->buf_inventory, resources->mmap,
	                                            resources->mmap_memrange, text_len,
	                                            &resources->src_buf);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate the source buffer: %s",
		             doca_error_get_descr(result));
		return result;
	}
	result = doca_rdma_task_send_allocate_init(resources->rdma, resources->connection,
	                                           resources->src_buf, task_user_data,
	                                           &rdma_send_task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate the RDMA send task: %s",
		             doca_error_get_descr(result));
		return result;
	}
	DOCA_LOG_INFO("Sending %zu bytes", text_len);
	result = doca_task_submit(doca_rdma_task_send_as_task(rdma_send_task));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to submit the RDMA send task: %s",
		             doca_error_get_descr(result));
		doca_task_free(doca_rdma_task_send_as_task(rdma_send_task));
	}
	return result;
}

static doca_error_t rdma_send_configure_tasks(struct rdma_resources *resources)
{
	doca_error_t result = doca_rdma_task_send_set_conf(
	        resources->rdma, rdma_send_completed_callback, rdma_send_error_callback, 1);

	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to configure RDMA send tasks: %s",
		             doca_error_get_descr(result));
	return result;
}

const struct rdma_sample rdma_send_sample = {
	.name = "rdma_send",
	.string_param = "send-string",
	.string_param_help = "String to send to the peer",
	.mmap_permissions = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
	.rdma_permissions = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
	.check = doca_rdma_cap_task_send_is_supported,
	.configure_tasks = rdma_send_configure_tasks,
	.on_running = rdma_send_prepare_and_submit_task,
};
