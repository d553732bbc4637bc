/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * What the drop-in samples share: main(), parameters, resources, the state
 * callback, descriptor files.
 */
#define _POSIX_C_SOURCE 200809L

#include "rdma_common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_argp.h>
#include <doca_log.h>

DOCA_LOG_REGISTER(RDMA_COMMON);

#define POLL_INTERVAL_NS (10 * 1000 * 1000)
#define PE_IDLE_SLEEP_NS (10 * 1000)

/* Copies a string parameter, refusing one that would not fit. */
static doca_error_t copy_string_param(char *dst, const char *src, const char *what)
{
	size_t len = strnlen(src, MAX_ARG_SIZE);

	if (len == MAX_ARG_SIZE || len == 0) {
		DOCA_LOG_ERR("%s must be 1 to %d characters", what, MAX_ARG_SIZE - 1);
		return DOCA_ERROR_INVALID_VALUE;
	}
	memcpy(dst, src, len + 1);
	return DOCA_SUCCESS;
}

static doca_error_t device_address_callback(void *param, void *config)
{
	struct rdma_config *cfg = config;
	const char *name = param;
	size_t len = strnlen(name, DOCA_DEVINFO_IBDEV_NAME_SIZE);

	if (len == DOCA_DEVINFO_IBDEV_NAME_SIZE) {
		DOCA_LOG_ERR("device name is longer than %d characters",
		             DOCA_DEVINFO_IBDEV_NAME_SIZE - 1);
		return DOCA_ERROR_INVALID_VALUE;
	}
	memcpy(cfg->device_name, name, len + 1);
	return DOCA_SUCCESS;
}

static doca_error_t local_descriptor_path_callback(void *param, void *config)
{
	struct rdma_config *cfg = config;

	return copy_string_param(cfg->local_connection_desc_path, param, "local descriptor path");
}

static doca_error_t remote_descriptor_path_callback(void *param, void *config)
{
	struct rdma_config *cfg = config;

	return copy_string_param(cfg->remote_connection_desc_path, param, "remote descriptor path");
}

static doca_error_t mmap_descriptor_path_callback(void *param, void *config)
{
	struct rdma_config *cfg = config;

	return copy_string_param(cfg->remote_resource_desc_path, param, "mmap descriptor path");
}

static doca_error_t string_callback(void *param, void *config)
{
	struct rdma_config *cfg = config;

	return copy_string_param(cfg->text, param, "string");
}

static doca_error_t gid_index_callback(void *param, void *config)
{
	struct rdma_config *cfg = config;
	int index = *(int *)param;

	if (index < 0) {
		DOCA_LOG_ERR("GID index must not be negative");
		return DOCA_ERROR_INVALID_VALUE;
	}
	cfg->gid_index = (uint32_t)index;
	cfg->is_gid_index_set = true;
	return DOCA_SUCCESS;
}

static doca_error_t register_param(const char *short_name, const char *long_name,
                                   const char *arguments, const char *description,
                                   enum doca_argp_type type, doca_argp_param_cb_t callback,
                                   bool mandatory)
{
	struct doca_argp_param *param;
	doca_error_t result;

	result = doca_argp_param_create(&param);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("doca_argp_param_create: %s", doca_error_get_descr(result));
		return result;
	}
	doca_argp_param_set_short_name(param, short_name);
	doca_argp_param_set_long_name(param, long_name);
	doca_argp_param_set_arguments(param, arguments);
	doca_argp_param_set_description(param, description);
	doca_argp_param_set_callback(param, callback);
	doca_argp_param_set_type(param, type);
	if (mandatory)
		doca_argp_param_set_mandatory(param);
	result = doca_argp_register_param(param);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("doca_argp_register_param(%s): %s", long_name,
		             doca_error_get_descr(result));
	return result;
}

doca_error_t register_rdma_common_params(void)
{
	doca_error_t result;

	result = register_param("d", "device", "<IB device name>",
	                        "DOCA device to use, by its IB device name (sdoca_lo, ...)",
	                        DOCA_ARGP_TYPE_STRING, device_address_callback, false);
	if (result != DOCA_SUCCESS)
		return result;
	result = register_param("ld", "local-descriptor-path", "<path>",
	                        "File this program writes its connection descriptor to",
	                        DOCA_ARGP_TYPE_STRING, local_descriptor_path_callback, true);
	if (result != DOCA_SUCCESS)
		return result;
	result = register_param("re", "remote-descriptor-path", "<path>",
	                        "File the peer writes its connection descriptor to (waited for)",
	                        DOCA_ARGP_TYPE_STRING, remote_descriptor_path_callback, true);
	if (result != DOCA_SUCCESS)
		return result;
	result = register_param("m", "mmap-descriptor-path", "<path>",
	                        "File of the responder's memory descriptor (the responder writes "
	                        "it, the requester waits for it)",
	                        DOCA_ARGP_TYPE_STRING, mmap_descriptor_path_callback, false);
	if (result != DOCA_SUCCESS)
		return result;
	return register_param("g", "gid-index", "<GID index>",
	                      "GID of the device the RDMA context uses", DOCA_ARGP_TYPE_INT,
	                      gid_index_callback, false);
}

doca_error_t register_rdma_string_param(const char *long_name, const char *description)
{
	return register_param("s", long_name, "<string>", description, DOCA_ARGP_TYPE_STRING,
	                      string_callback, false);
}

/* The device whose IB device name is cfg->device_name, if it can run the task. */
static doca_error_t open_doca_device_with_ibdev_name(const char *name, task_check check,
                                                     struct doca_dev **dev)
{
	struct doca_devinfo **dev_list;
	char ibdev_name[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	uint32_t nb_devs;
	doca_error_t result;

	*dev = NULL;
	result = doca_devinfo_create_list(&dev_list, &nb_devs);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to load doca devices list: %s", doca_error_get_descr(result));
		return result;
	}
	for (uint32_t i = 0; i < nb_devs; i++) {
		result = doca_devinfo_get_ibdev_name(dev_list[i], ibdev_name, sizeof(ibdev_name));
		if (result != DOCA_SUCCESS || strcmp(ibdev_name, name) != 0)
			continue;
		if (check && check(dev_list[i]) != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Device %s does not support the sample's task", name);
			continue;
		}
		if (doca_dev_open(dev_list[i], dev) == DOCA_SUCCESS)
			break;
	}
	doca_devinfo_destroy_list(dev_list);
	if (*dev == NULL) {
		DOCA_LOG_ERR("No usable device named %s", name);
		return DOCA_ERROR_NOT_FOUND;
	}
	return DOCA_SUCCESS;
}

static doca_error_t destroy_rdma_resources(struct rdma_resources *resources);

/* Every sample's state callback: logs the states; RUNNING runs the sample's
 * step (a failure stops the context); IDLE ends the progress loop. */
static void rdma_state_changed_callback(const union doca_data user_data, struct doca_ctx *ctx,
                                        enum doca_ctx_states prev_state,
                                        enum doca_ctx_states next_state)
{
	struct rdma_resources *resources = user_data.ptr;
	doca_error_t result;

	(void)ctx;
	(void)prev_state;
	switch (next_state) {
	case DOCA_CTX_STATE_STARTING:
		DOCA_LOG_INFO("RDMA context entered starting state");
		break;
	case DOCA_CTX_STATE_RUNNING:
		DOCA_LOG_INFO("RDMA context is running");
		result = resources->sample->on_running(resources);
		if (result != DOCA_SUCCESS)
			rdma_fail(resources, result);
		break;
	case DOCA_CTX_STATE_STOPPING:
		DOCA_LOG_INFO("RDMA context entered stopping state");
		break;
	case DOCA_CTX_STATE_IDLE:
		DOCA_LOG_INFO("RDMA context has been stopped");
		resources->run_pe_progress = false;
		break;
	default:
		break;
	}
}

static doca_error_t allocate_rdma_resources(struct rdma_config *cfg,
                                            const struct rdma_sample *sample,
                                            struct rdma_resources *resources)
{
	union doca_data ctx_user_data = { .ptr = resources };
	doca_error_t result;

	memset(resources, 0, sizeof(*resources));
	resources->cfg = cfg;
	resources->sample = sample;
	resources->first_encountered_error = DOCA_SUCCESS;

	result = open_doca_device_with_ibdev_name(cfg->device_name, sample->check,
	                                          &resources->doca_device);
	if (result != DOCA_SUCCESS)
		return result;

	/* Ordinary heap memory, as the published samples use. */
	resources->mmap_memrange = calloc(1, MEM_RANGE_LEN);
	if (resources->mmap_memrange == NULL) {
		DOCA_LOG_ERR("Failed to allocate memory for the mmap");
		result = DOCA_ERROR_NO_MEMORY;
		goto destroy;
	}
	result = doca_mmap_create(&resources->mmap);
	if (result == DOCA_SUCCESS)
		result = doca_mmap_set_memrange(resources->mmap, resources->mmap_memrange,
		                                MEM_RANGE_LEN);
	if (result == DOCA_SUCCESS)
		result = doca_mmap_set_permissions(resources->mmap, sample->mmap_permissions);
	if (result == DOCA_SUCCESS)
		result = doca_mmap_add_dev(resources->mmap, resources->doca_device);
	if (result == DOCA_SUCCESS)
		result = doca_mmap_start(resources->mmap);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set up the mmap: %s", doca_error_get_descr(result));
		goto destroy;
	}

	result = doca_buf_inventory_create(4, &resources->buf_inventory);
	if (result == DOCA_SUCCESS)
		result = doca_buf_inventory_start(resources->buf_inventory);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set up the buf inventory: %s",
		             doca_error_get_descr(result));
		goto destroy;
	}

	result = doca_pe_create(&resources->pe);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create the progress engine: %s",
		             doca_error_get_descr(result));
		goto destroy;
	}

	result = doca_rdma_create(resources->doca_device, &resources->rdma);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create the RDMA context: %s", doca_error_get_descr(result));
		goto destroy;
	}
	resources->rdma_ctx = doca_rdma_as_ctx(resources->rdma);
	result = doca_rdma_set_permissions(resources->rdma, sample->rdma_permissions);
	if (result == DOCA_SUCCESS && cfg->is_gid_index_set)
		result = doca_rdma_set_gid_index(resources->rdma, cfg->gid_index);
	if (result == DOCA_SUCCESS)
		result = doca_ctx_set_state_changed_cb(resources->rdma_ctx,
		                                       rdma_state_changed_callback);
	if (result == DOCA_SUCCESS)
		result = doca_ctx_set_user_data(resources->rdma_ctx, ctx_user_data);
	if (result == DOCA_SUCCESS)
		result = doca_pe_connect_ctx(resources->pe, resources->rdma_ctx);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to configure the RDMA context: %s",
		             doca_error_get_descr(result));
		goto destroy;
	}
	return DOCA_SUCCESS;

destroy:
	destroy_rdma_resources(resources);
	return result;
}

static doca_error_t destroy_rdma_resources(struct rdma_resources *resources)
{
	doca_error_t result = DOCA_SUCCESS, tmp;

	/* Buffers a failed sample left behind go back before their inventory. */
	if (resources->src_buf) {
		tmp = doca_buf_dec_refcount(resources->src_buf, NULL);
		DOCA_ERROR_PROPAGATE(result, tmp);
		resources->src_buf = NULL;
	}
	if (resources->dst_buf) {
		tmp = doca_buf_dec_refcount(resources->dst_buf, NULL);
		DOCA_ERROR_PROPAGATE(result, tmp);
		resources->dst_buf = NULL;
	}
	if (resources->rdma) {
		tmp = doca_rdma_destroy(resources->rdma);
		DOCA_ERROR_PROPAGATE(result, tmp);
		resources->rdma = NULL;
	}
	if (resources->pe) {
		tmp = doca_pe_destroy(resources->pe);
		DOCA_ERROR_PROPAGATE(result, tmp);
		resources->pe = NULL;
	}
	if (resources->remote_mmap) {
		tmp = doca_mmap_destroy(resources->remote_mmap);
		DOCA_ERROR_PROPAGATE(result, tmp);
		resources->remote_mmap = NULL;
	}
	if (resources->buf_inventory) {
		tmp = doca_buf_inventory_destroy(resources->buf_inventory);
		DOCA_ERROR_PROPAGATE(result, tmp);
		resources->buf_inventory = NULL;
	}
	if (resources->mmap) {
		tmp = doca_mmap_destroy(resources->mmap);
		DOCA_ERROR_PROPAGATE(result, tmp);
		resources->mmap = NULL;
	}
	if (resources->doca_device) {
		tmp = doca_dev_close(resources->doca_device);
		DOCA_ERROR_PROPAGATE(result, tmp);
		resources->doca_device = NULL;
	}
	free(resources->mmap_memrange);
	resources->mmap_memrange = NULL;
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to destroy RDMA resources: %s", doca_error_get_descr(result));
	return result;
}

/* Written under a temporary name and renamed: the peer sees all or nothing. */
static doca_error_t write_file(const char *path, const void *data, size_t len)
{
	char tmp[MAX_ARG_SIZE + 8];
	FILE *file;
	bool ok;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	file = fopen(tmp, "wb");
	if (file == NULL) {
		DOCA_LOG_ERR("Failed to open %s: %s", tmp, strerror(errno));
		return DOCA_ERROR_IO_FAILED;
	}
	ok = fwrite(data, 1, len, file) == len;
	ok = fclose(file) == 0 && ok;
	if (!ok || rename(tmp, path) != 0) {
		DOCA_LOG_ERR("Failed to write %s: %s", path, strerror(errno));
		return DOCA_ERROR_IO_FAILED;
	}
	return DOCA_SUCCESS;
}

/* Opens `path` once the peer has created it; gives up after FILE_WAIT_SECONDS. */
static doca_error_t wait_for_file(const char *path, FILE **file)
{
	const struct timespec interval = { .tv_sec = 0, .tv_nsec = POLL_INTERVAL_NS };
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	while ((*file = fopen(path, "rb")) == NULL) {
		if (errno != ENOENT) {
			DOCA_LOG_ERR("Failed to open %s: %s", path, strerror(errno));
			return DOCA_ERROR_IO_FAILED;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec >= FILE_WAIT_SECONDS) {
			DOCA_LOG_ERR("Waited %d seconds for %s", FILE_WAIT_SECONDS, path);
			return DOCA_ERROR_TIME_OUT;
		}
		nanosleep(&interval, NULL);
	}
	return DOCA_SUCCESS;
}

/* Waits for `path` and reads it whole into a malloc'd buffer. */
static doca_error_t read_file(const char *path, char **data, size_t *len)
{
	FILE *file;
	long size;
	doca_error_t result;

	result = wait_for_file(path, &file);
	if (result != DOCA_SUCCESS)
		return result;
	*data = NULL;
	if (fseek(file, 0, SEEK_END) == 0 && (size = ftell(file)) > 0 &&
	    fseek(file, 0, SEEK_SET) == 0 && (*data = malloc((size_t)size)) != NULL &&
	    fread(*data, 1, (size_t)size, file) == (size_t)size) {
		*len = (size_t)size;
		fclose(file);
		return DOCA_SUCCESS;
	}
	DOCA_LOG_ERR("Failed to read %s", path);
	free(*data);
	*data = NULL;
	fclose(file);
	return DOCA_ERROR_IO_FAILED;
}

doca_error_t rdma_export_and_connect(struct rdma_resources *resources)
{
	struct rdma_config *cfg = resources->cfg;
	const void *descriptor;
	size_t descriptor_size;
	char *remote_descriptor;
	size_t remote_descriptor_size;
	doca_error_t result;

	result = doca_rdma_export(resources->rdma, &descriptor, &descriptor_size,
	                          &resources->connection);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to export the RDMA connection: %s",
		             doca_error_get_descr(result));
		return result;
	}
	result = write_file(cfg->local_connection_desc_path, descriptor, descriptor_size);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("Connection descriptor written to %s, waiting for %s",
	              cfg->local_connection_desc_path, cfg->remote_connection_desc_path);

	result = read_file(cfg->remote_connection_desc_path, &remote_descriptor,
	                   &remote_descriptor_size);
	if (result != DOCA_SUCCESS)
		return result;
	result = doca_rdma_connect(resources->rdma, remote_descriptor, remote_descriptor_size,
	                           resources->connection);
	free(remote_descriptor);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to connect the RDMA context: %s",
		             doca_error_get_descr(result));
	return result;
}

doca_error_t rdma_export_mmap(struct rdma_resources *resources)
{
	const void *descriptor;
	size_t descriptor_size;
	doca_error_t result;

	result = doca_mmap_export_rdma(resources->mmap, resources->doca_device, &descriptor,
	                               &descriptor_size);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to export the mmap: %s", doca_error_get_descr(result));
		return result;
	}
	return write_file(resources->cfg->remote_resource_desc_path, descriptor, descriptor_size);
}

doca_error_t rdma_import_remote_mmap(struct rdma_resources *resources)
{
	char *descriptor;
	size_t descriptor_size;
	doca_error_t result;

	result =
	        read_file(resources->cfg->remote_resource_desc_path, &descriptor, &descriptor_size);
	if (result != DOCA_SUCCESS)
		return result;
	result = doca_mmap_create_from_export(NULL, descriptor, descriptor_size,
	                                      resources->doca_device, &resources->remote_mmap);
	free(descriptor);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to create the remote mmap: %s", doca_error_get_descr(result));
	return result;
}

static void done_path(const char *descriptor_path, char *out, size_t size)
{
	snprintf(out, size, "%s.done", descriptor_path);
}

doca_error_t signal_done(const char *descriptor_path)
{
	char path[MAX_ARG_SIZE + 8];

	done_path(descriptor_path, path, sizeof(path));
	return write_file(path, "done", 4);
}

doca_error_t wait_peer_done(const char *descriptor_path)
{
	char path[MAX_ARG_SIZE + 8];
	FILE *file;
	doca_error_t result;

	done_path(descriptor_path, path, sizeof(path));
	result = wait_for_file(path, &file);
	if (result == DOCA_SUCCESS)
		fclose(file);
	return result;
}

void rdma_fail(struct rdma_resources *resources, doca_error_t error)
{
	DOCA_ERROR_PROPAGATE(resources->first_encountered_error, error);
	(void)doca_ctx_stop(resources->rdma_ctx);
}

static doca_error_t run_progress_engine(struct rdma_resources *resources)
{
	const struct timespec idle = { .tv_sec = 0, .tv_nsec = PE_IDLE_SLEEP_NS };
	doca_error_t result;

	resources->run_pe_progress = true;
	result = doca_ctx_start(resources->rdma_ctx);
	if (result != DOCA_SUCCESS && result != DOCA_ERROR_IN_PROGRESS) {
		DOCA_LOG_ERR("Failed to start the RDMA context: %s", doca_error_get_descr(result));
		return result;
	}
	/* The state callback clears run_pe_progress when the context is idle. */
	while (resources->run_pe_progress) {
		if (doca_pe_progress(resources->pe) == 0)
			nanosleep(&idle, NULL);
	}
	return resources->first_encountered_error;
}

doca_error_t rdma_run_sample(struct rdma_config *cfg, const struct rdma_sample *sample)
{
	struct rdma_resources resources;
	doca_error_t result, tmp;

	if (sample->needs_mmap_descriptor && cfg->remote_resource_desc_path[0] == '\0') {
		DOCA_LOG_ERR("-m/--mmap-descriptor-path is needed");
		return DOCA_ERROR_INVALID_VALUE;
	}
	result = allocate_rdma_resources(cfg, sample, &resources);
	if (result != DOCA_SUCCESS)
		return result;
	if (sample->configure_tasks)
		result = sample->configure_tasks(&resources);
	if (result == DOCA_SUCCESS)
		result = run_progress_engine(&resources);
	tmp = destroy_rdma_resources(&resources);
	DOCA_ERROR_PROPAGATE(result, tmp);
	return result;
}

int rdma_sample_main(int argc, char **argv, const struct rdma_sample *sample)
{
	struct rdma_config cfg;
	struct doca_log_backend *sdk_log;
	doca_error_t result;
	int exit_status = EXIT_FAILURE;

	memset(&cfg, 0, sizeof(cfg));
	strcpy(cfg.device_name, "sdoca_lo");
	strcpy(cfg.text, DEFAULT_STRING);

	/* Application messages to stdout, SDK messages of WARNING and up to stderr. */
	result = doca_log_backend_create_standard();
	if (result != DOCA_SUCCESS)
		return exit_status;
	result = doca_log_backend_create_with_file_sdk(stderr, &sdk_log);
	if (result == DOCA_SUCCESS)
		result = doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_WARNING);
	if (result != DOCA_SUCCESS)
		return exit_status;

	DOCA_LOG_INFO("%s: starting", argv[0]);
	result = doca_argp_init(NULL, &cfg);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("doca_argp_init: %s", doca_error_get_descr(result));
		goto sample_exit;
	}
	result = register_rdma_common_params();
	if (result == DOCA_SUCCESS && sample->string_param)
		result =
		        register_rdma_string_param(sample->string_param, sample->string_param_help);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Cannot register the parameters: %s", doca_error_get_descr(result));
		goto argp_cleanup;
	}
	result = doca_argp_start(argc, argv);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Bad command line: %s", doca_error_get_descr(result));
		goto argp_cleanup;
	}

	result = rdma_run_sample(&cfg, sample);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("%s() failed: %s", sample->name, doca_error_get_descr(result));
		goto argp_cleanup;
	}
	exit_status = EXIT_SUCCESS;

argp_cleanup:
	doca_argp_destroy();
sample_exit:
	if (exit_status == EXIT_SUCCESS)
		DOCA_LOG_INFO("%s: done", argv[0]);
	else
		DOCA_LOG_INFO("%s: failed", argv[0]);
	return exit_status;
}
