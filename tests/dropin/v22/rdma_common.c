/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * What the DOCA 2.2 drop-in programs share (see rdma_common.h): doca_argp's
 * parameters, the resources in DOCA 2.2's order (device, mmap, RDMA
 * instance with the device added, start, export, work queue), the
 * descriptor exchange and a job run to its event.
 */
#include <doca_argp.h>
#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_rdma.h>

#include "../files.h"
#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA::COMMON);

/* --- command line ----------------------------------------------------------- */

#define STRING_PARAM(fn, field, what)                                           \
	static doca_error_t fn(void *param, void *config)                       \
	{                                                                       \
		struct rdma_config *cfg = config;                               \
		return copy_param(cfg->field, sizeof(cfg->field), param, what); \
	}
STRING_PARAM(device_callback, device_name, "The IB device name")
STRING_PARAM(send_string_callback, send_string, "The send string")
STRING_PARAM(read_string_callback, read_string, "The read string")
STRING_PARAM(write_string_callback, write_string, "The write string")
STRING_PARAM(local_desc_callback, local_connection_desc_path, "The local descriptor path")
STRING_PARAM(remote_desc_callback, remote_connection_desc_path, "The remote descriptor path")
STRING_PARAM(mmap_desc_callback, mmap_connection_desc_path, "The mmap descriptor path")

static doca_error_t gid_index_callback(void *param, void *config)
{
	struct rdma_config *cfg = config;
	int gid_index = *(int *)param;

	if (gid_index < 0) {
		DOCA_LOG_ERR("The GID index must not be negative");
		return DOCA_ERROR_INVALID_VALUE;
	}
	cfg->is_gid_index_set = true;
	cfg->gid_index = (uint32_t)gid_index;
	return DOCA_SUCCESS;
}

/* DOCA 2.2's RDMA samples take every one of these flags. */
static doca_error_t register_rdma_params(void)
{
	static const struct {
		const char *short_name, *long_name, *arguments, *description;
		enum doca_argp_type type;
		callback_func callback;
	} table[] = {
		{ "d", "device", "<IB device name>", "IB device name (optional: else the first)",
		  DOCA_ARGP_TYPE_STRING, device_callback },
		{ "s", "send-string", "<string>", "String to send", DOCA_ARGP_TYPE_STRING,
		  send_string_callback },
		{ "r", "read-string", "<string>", "String to offer for reading",
		  DOCA_ARGP_TYPE_STRING, read_string_callback },
		{ "w", "write-string", "<string>", "String to write", DOCA_ARGP_TYPE_STRING,
		  write_string_callback },
		{ "ld", "local-descriptor-path", "<path>",
		  "File this program writes its connection descriptor to", DOCA_ARGP_TYPE_STRING,
		  local_desc_callback },
		{ "re", "remote-descriptor-path", "<path>",
		  "File holding the peer's connection descriptor (waited for)",
		  DOCA_ARGP_TYPE_STRING, remote_desc_callback },
		{ "m", "mmap-descriptor-path", "<path>",
		  "File holding the responder's memory descriptor", DOCA_ARGP_TYPE_STRING,
		  mmap_desc_callback },
		{ "g", "gid-index", "<GID index>", "GID index for DOCA RDMA (optional)",
		  DOCA_ARGP_TYPE_INT, gid_index_callback },
	};
	struct doca_argp_param *param;
	doca_error_t result = DOCA_SUCCESS;

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]) && result == DOCA_SUCCESS; i++) {
		result = doca_argp_param_create(&param);
		if (result != DOCA_SUCCESS)
			break;
		doca_argp_param_set_short_name(param, table[i].short_name);
		doca_argp_param_set_long_name(param, table[i].long_name);
		doca_argp_param_set_arguments(param, table[i].arguments);
		doca_argp_param_set_description(param, table[i].description);
		doca_argp_param_set_callback(param, table[i].callback);
		doca_argp_param_set_type(param, table[i].type);
		result = doca_argp_register_param(param);
	}
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to register the parameters: %s",
		             doca_get_error_string(result));
	return result;
}

int run_sample(int argc, char **argv, const char *name, rdma_sample sample)
{
	struct rdma_config cfg = { 0 };
	char program[64];
	doca_error_t result;

	strcpy(cfg.send_string, DEFAULT_STRING);
	strcpy(cfg.read_string, DEFAULT_STRING);
	strcpy(cfg.write_string, DEFAULT_STRING);
	strcpy(cfg.local_connection_desc_path, "/tmp/local_connection_desc_path.txt");
	strcpy(cfg.remote_connection_desc_path, "/tmp/remote_connection_desc_path.txt");
	strcpy(cfg.mmap_connection_desc_path, "/tmp/remote_mmap_connection_desc_path.txt");
	if (doca_log_create_standard_backend() != DOCA_SUCCESS)
		return EXIT_FAILURE;
	DOCA_LOG_INFO("Starting %s", name);
	snprintf(program, sizeof(program), "doca_%s", name);
	result = doca_argp_init(program, &cfg);
	if (result == DOCA_SUCCESS) {
		result = register_rdma_params();
		if (result == DOCA_SUCCESS)
			result = doca_argp_start(argc, argv);
		if (result == DOCA_SUCCESS)
			result = sample(&cfg);
		doca_argp_destroy();
	}
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("%s failed: %s", name, doca_get_error_string(result));
		return EXIT_FAILURE;
	}
	DOCA_LOG_INFO("%s finished successfully", name);
	return EXIT_SUCCESS;
}

/* --- resources ---------------------------------------------------------------- */

/* Logs a failed step; returns its result so steps chain. */
static doca_error_t step(doca_error_t result, const char *what)
{
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to %s: %s", what, doca_get_error_string(result));
	return result;
}

/* The device named by -d, else the first one. */
static doca_error_t open_doca_device(const char *device_name, struct doca_dev **dev)
{
	char ibdev_name[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	struct doca_devinfo **dev_list;
	uint32_t nb_devs;
	doca_error_t result;

	*dev = NULL;
	result = step(doca_devinfo_list_create(&dev_list, &nb_devs), "list the devices");
	if (result != DOCA_SUCCESS)
		return result;
	for (uint32_t i = 0; i < nb_devs && *dev == NULL; i++) {
		if (doca_devinfo_get_ibdev_name(dev_list[i], ibdev_name, sizeof(ibdev_name)) !=
		            DOCA_SUCCESS ||
		    (device_name[0] != '\0' && strcmp(device_name, ibdev_name) != 0))
			continue;
		result = step(doca_dev_open(dev_list[i], dev), "open the device");
	}
	doca_devinfo_list_destroy(dev_list);
	if (*dev == NULL) {
		DOCA_LOG_ERR("No device %s", device_name);
		return DOCA_ERROR_NOT_FOUND;
	}
	return result;
}

doca_error_t allocate_rdma_resources(struct rdma_config *cfg, uint32_t mmap_permissions,
                                     uint32_t rdma_permissions, struct rdma_resources *res)
{
	doca_error_t result;

	memset(res, 0, sizeof(*res));
	result = open_doca_device(cfg->device_name, &res->doca_device);
	if (result != DOCA_SUCCESS)
		return result;
	res->mmap_memrange = calloc(MEM_RANGE_LEN, 1);
	result = res->mmap_memrange ? DOCA_SUCCESS : DOCA_ERROR_NO_MEMORY;
	if (result == DOCA_SUCCESS)
		result = step(doca_mmap_create(NULL, &res->mmap), "create the mmap");
	if (result == DOCA_SUCCESS)
		result = step(doca_mmap_set_permissions(res->mmap, mmap_permissions),
		              "set the mmap's permissions");
	if (result == DOCA_SUCCESS)
		result = step(doca_mmap_set_memrange(res->mmap, res->mmap_memrange, MEM_RANGE_LEN),
		              "set the mmap's memory range");
	if (result == DOCA_SUCCESS)
		result = step(doca_mmap_dev_add(res->mmap, res->doca_device),
		              "add the device to the mmap");
	if (result == DOCA_SUCCESS)
		result = step(doca_mmap_start(res->mmap), "start the mmap");
	if (result == DOCA_SUCCESS)
		result = step(doca_rdma_create(&res->rdma), "create the RDMA instance");
	if (result == DOCA_SUCCESS) {
		res->rdma_ctx = doca_rdma_as_ctx(res->rdma);
		result = step(doca_ctx_dev_add(res->rdma_ctx, res->doca_device),
		              "add the device to the RDMA context");
	}
	if (result == DOCA_SUCCESS)
		result = step(doca_rdma_set_permissions(res->rdma, rdma_permissions),
		              "set the RDMA permissions");
	if (result == DOCA_SUCCESS && cfg->is_gid_index_set)
		result = step(doca_rdma_set_gid_index(res->rdma, cfg->gid_index),
		              "set the GID index");
	if (result == DOCA_SUCCESS)
		result = step(doca_ctx_start(res->rdma_ctx), "start the RDMA context");
	if (result == DOCA_SUCCESS)
		result = step(doca_rdma_export(res->rdma, &res->rdma_conn_details,
		                               &res->rdma_conn_details_size),
		              "export the RDMA instance");
	if (result == DOCA_SUCCESS)
		result = step(doca_workq_create(WORKQ_DEPTH, &res->workq), "create the work queue");
	if (result == DOCA_SUCCESS)
		result = step(doca_ctx_workq_add(res->rdma_ctx, res->workq),
		              "add the work queue to the RDMA context");
	if (result == DOCA_SUCCESS)
		result = step(doca_buf_inventory_create(NULL, INVENTORY_NUM_INITIAL_ELEMENTS, 0,
		                                        &res->buf_inventory),
		              "create the buffer inventory");
	if (result == DOCA_SUCCESS)
		result = step(doca_buf_inventory_start(res->buf_inventory),
		              "start the buffer inventory");
	if (result != DOCA_SUCCESS)
		(void)destroy_rdma_resources(res, cfg);
	return result;
}

/* DOCA 2.2's order: the work queue leaves the context before it stops.
 * Safe on partly allocated resources. */
doca_error_t destroy_rdma_resources(struct rdma_resources *res, struct rdma_config *cfg)
{
	doca_error_t result = DOCA_SUCCESS;

	(void)cfg;
	if (res->buf_inventory != NULL)
		DOCA_ERROR_PROPAGATE(result, step(doca_buf_inventory_destroy(res->buf_inventory),
		                                  "destroy the buffer inventory"));
	if (res->remote_mmap != NULL)
		DOCA_ERROR_PROPAGATE(result, step(doca_mmap_destroy(res->remote_mmap),
		                                  "destroy the remote mmap"));
	if (res->workq != NULL) {
		(void)doca_ctx_workq_rm(res->rdma_ctx, res->workq);
		DOCA_ERROR_PROPAGATE(
		        result, step(doca_workq_destroy(res->workq), "destroy the work queue"));
	}
	if (res->rdma != NULL) {
		(void)doca_ctx_stop(res->rdma_ctx);
		(void)doca_ctx_dev_rm(res->rdma_ctx, res->doca_device);
		DOCA_ERROR_PROPAGATE(
		        result, step(doca_rdma_destroy(res->rdma), "destroy the RDMA instance"));
	}
	if (res->mmap != NULL)
		DOCA_ERROR_PROPAGATE(result,
		                     step(doca_mmap_destroy(res->mmap), "destroy the mmap"));
	free(res->mmap_memrange);
	if (res->doca_device != NULL)
		DOCA_ERROR_PROPAGATE(result,
		                     step(doca_dev_close(res->doca_device), "close the device"));
	memset(res, 0, sizeof(*res));
	return result;
}

doca_error_t connect_to_peer(struct rdma_config *cfg, struct rdma_resources *res, bool export_mmap,
                             bool import_mmap)
{
	const void *mmap_details;
	size_t mmap_details_size, peer_size, range;
	char *peer = NULL;
	doca_error_t result = DOCA_SUCCESS;

	if (export_mmap) {
		result = step(doca_mmap_export_rdma(res->mmap, res->doca_device, &mmap_details,
		                                    &mmap_details_size),
		              "export the mmap");
		if (result == DOCA_SUCCESS)
			result = write_descriptor_file(cfg->mmap_connection_desc_path, mmap_details,
			                               mmap_details_size);
	}
	if (result == DOCA_SUCCESS)
		result = write_descriptor_file(cfg->local_connection_desc_path,
		                               res->rdma_conn_details, res->rdma_conn_details_size);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Connection descriptor in %s; waiting for the peer's in %s",
	              cfg->local_connection_desc_path, cfg->remote_connection_desc_path);
	result = read_peer_file(cfg->remote_connection_desc_path, &peer, &peer_size);
	if (result != DOCA_SUCCESS)
		return result;
	result = step(doca_rdma_connect(res->rdma, peer, peer_size), "connect to the peer");
	free(peer);
	if (result != DOCA_SUCCESS || !import_mmap)
		return result;
	result = read_peer_file(cfg->mmap_connection_desc_path, &peer, &peer_size);
	if (result != DOCA_SUCCESS)
		return result;
	result = step(doca_mmap_create_from_export(NULL, peer, peer_size, res->doca_device,
	                                           &res->remote_mmap),
	              "create the remote mmap");
	free(peer);
	if (result == DOCA_SUCCESS)
		result = step(doca_mmap_get_memrange(res->remote_mmap,
		                                     (void **)&res->remote_memrange, &range),
		              "get the remote memory range");
	return result;
}

doca_error_t run_rdma_job(struct rdma_resources *res, struct doca_job *job,
                          struct doca_rdma_result *result)
{
	struct doca_event event = { 0 };
	doca_error_t status;

	job->ctx = res->rdma_ctx;
	job->flags = DOCA_JOB_FLAGS_NONE;
	status = step(doca_workq_submit(res->workq, job), "submit the job");
	if (status != DOCA_SUCCESS)
		return status;
	memset(result, 0, sizeof(*result));
	event.result.ptr = result;
	do
		status = doca_workq_progress_retrieve(res->workq, &event,
		                                      DOCA_WORKQ_RETRIEVE_FLAGS_NONE);
	while (status == DOCA_ERROR_AGAIN);
	if (status == DOCA_SUCCESS && event.user_data.u64 != job->user_data.u64)
		status = DOCA_ERROR_UNEXPECTED;
	if (status != DOCA_SUCCESS)
		DOCA_LOG_ERR("The job failed: %s (%s)", doca_get_error_string(status),
		             doca_get_error_string(result->result));
	return status;
}

doca_error_t signal_peer_done(const struct rdma_config *cfg)
{
	return signal_done_file(cfg->local_connection_desc_path);
}

doca_error_t wait_peer_done(const struct rdma_config *cfg)
{
	return wait_done_file(cfg->remote_connection_desc_path);
}

doca_error_t send_string(struct rdma_config *cfg, struct rdma_resources *res, int job_type,
                         doca_be32_t immediate)
{
	struct doca_rdma_job_send job = { .base.type = job_type, .immediate_data = immediate };
	struct doca_rdma_result result;
	struct doca_buf *src_buf;
	size_t len = strlen(cfg->send_string) + 1;
	doca_error_t status;

	status = step(doca_buf_inventory_buf_by_data(res->buf_inventory, res->mmap,
	                                             res->mmap_memrange, len, &src_buf),
	              "get the source buffer");
	if (status != DOCA_SUCCESS)
		return status;
	memcpy(res->mmap_memrange, cfg->send_string, len);
	job.src_buff = src_buf;
	DOCA_LOG_INFO("Submitting a send job of %zu bytes", len);
	status = run_rdma_job(res, &job.base, &result);
	doca_buf_refcount_rm(src_buf, NULL);
	return status;
}

doca_error_t receive_string(struct rdma_resources *res, struct doca_rdma_result *result)
{
	struct doca_rdma_job_recv job = { .base.type = DOCA_RDMA_JOB_RECV };
	struct doca_buf *dst_buf;
	doca_error_t status;

	status = step(doca_buf_inventory_buf_by_addr(res->buf_inventory, res->mmap,
	                                             res->mmap_memrange, MAX_BUFF_SIZE, &dst_buf),
	              "get the destination buffer");
	if (status != DOCA_SUCCESS)
		return status;
	job.dst_buff = dst_buf;
	DOCA_LOG_INFO("Submitting a receive job");
	status = run_rdma_job(res, &job.base, result);
	doca_buf_refcount_rm(dst_buf, NULL);
	if (status == DOCA_SUCCESS && strnlen(res->mmap_memrange, MAX_BUFF_SIZE) == MAX_BUFF_SIZE) {
		DOCA_LOG_ERR("The message exceeds %d bytes", MAX_BUFF_SIZE);
		status = DOCA_ERROR_INVALID_VALUE;
	}
	return status;
}
