/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Write requester: writes a string into the responder's memory.
 */
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_WRITE_REQUESTER::SAMPLE);

/* Releases the task and both buffers: the sample has one task in its life. */
static doca_error_t release_write_task(struct doca_rdma_task_write *task,
                                       struct rdma_resources *resources)
{
	doca_error_t result = DOCA_SUCCESS, tmp;

	doca_task_free(doca_rdma_task_write_as_task(task));
	tmp = doca_buf_dec_refcount(resources->src_buf, NULL);
	DOCA_ERROR_PROPAGATE(result, tmp);
	tmp = doca_buf_dec_refcount(resources->dst_buf, NULL);
	DOCA_ERROR_PROPAGATE(result, tmp);
	resources->src_buf = NULL;
	resources->dst_buf = NULL;
	return result;
}

static void rdma_write_completed_callback(struct doca_rdma_task_write *rdma_write_task,
                                          union doca_data task_user_data,
                                          union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	doca_error_t result;

	(void)task_user_data;
	DOCA_LOG_INFO("RDMA write task was done successfully");
	result = release_write_task(rdma_write_task, resources);
	/* The responder cannot see the write complete: tell it through a file. */
	if (result == DOCA_SUCCESS)
		result = signal_done(resources->cfg->local_connection_desc_path);
	DOCA_ERROR_PROPAGATE(resources->first_encountered_error, result);
	(void)doca_ctx_stop(resources->rdma_ctx);
}

static void rdma_write_error_callback(struct doca_rdma_task_write *rdma_write_task,
                                      union doca_data task_user_data, union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	struct doca_task *task = doca_rdma_task_write_as_task(rdma_write_task);
	doca_error_t status = doca_task_get_status(task);

	(void)task_user_data;
	DOCA_LOG_ERR("RDMA write task failed: %s", doca_error_get_descr(status));
	(void)release_write_task(rdma_write_task, resources);
	rdma_fail(resources, status);
}

/* Connects, imports the responder's memory and submits the write. */
static doca_error_t rdma_write_prepare_and_submit_task(struct rdma_resources *resources)
{
	struct doca_rdma_task_write *rdma_write_task = NULL;
	union doca_data task_user_data = { .u64 = 0 };
	const char *text = resources->cfg->text;
	size_t text_len = strlen(text) + 1; /* with its NUL: the responder prints a string */
	void *remote_addr;
	size_t remote_len;
	doca_error_t result;

	result = rdma_export_and_connect(resources);
	if (result != DOCA_SUCCESS)
		return result;
	result = rdma_import_remote_mmap(resources);
	if (result != DOCA_SUCCESS)
		return result;
	result = doca_mmap_get_memrange(resources->remote_mmap, &remote_addr, &remote_len);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to get the remote memory range: %s",
		             doca_error_get_descr(result));
		return result;
	}
	if (remote_len < text_len) {
		DOCA_LOG_ERR("The string (%zu bytes) does not fit in the remote memory (%zu bytes)",
		             text_len, remote_len);
		return DOCA_ERROR_INVALID_VALUE;
	}

	memcpy(resources->mmap_memrange, text, text_len);
	result = doca_buf_inventory_buf_get_by_data(resources->buf_inventory, resources->mmap,
	                                            resources->mmap_memrange, text_len,
	                                            &resources->src_buf);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate the source buffer: %s",
		             doca_error_get_descr(result));
		return result;
	}
	/* An empty destination: the write lands at the start of the remote range. */
	result =
	        doca_buf_inventory_buf_get_by_addr(resources->buf_inventory, resources->remote_mmap,
	                                           remote_addr, remote_len, &resources->dst_buf);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate the destination buffer: %s",
		             doca_error_get_descr(result));
		return result;
	}

	result = doca_rdma_task_write_allocate_init(resources->rdma, resources->connection,
	                                            resources->src_buf, resources->dst_buf,
	                                            task_user_data, &rdma_write_task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate the RDMA write task: %s",
		             doca_error_get_descr(result));
		return result;
	}
	DOCA_LOG_INFO("Submitting an RDMA write of %zu bytes", text_len);
	result = doca_task_submit(doca_rdma_task_write_as_task(rdma_write_task));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to submit the RDMA write task: %s",
		             doca_error_get_descr(result));
		doca_task_free(doca_rdma_task_write_as_task(rdma_write_task));
	}
	return result;
}

static doca_error_t rdma_write_configure_tasks(struct rdma_resources *resources)
{
	doca_error_t result = doca_rdma_task_write_set_conf(
	        resources->rdma, rdma_write_completed_callback, rdma_write_error_callback, 1);

	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to configure RDMA write tasks: %s",
		             doca_error_get_descr(result));
	return result;
}

const struct rdma_sample rdma_write_requester_sample = {
	.name = "rdma_write_requester",
	.string_param = "write-string",
	.string_param_help = "String to write to the peer",
	.needs_mmap_descriptor = true,
	.mmap_permissions = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
	.rdma_permissions = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
	.check = doca_rdma_cap_task_write_is_supported,
	.configure_tasks = rdma_write_configure_tasks,
	.on_running = rdma_write_prepare_and_submit_task,
};
