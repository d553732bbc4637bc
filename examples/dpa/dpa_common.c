/*
 * softdoca DPA examples - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The examples' shared host code (dpa_common.h).
 */
#include "dpa_common.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_argp.h>
#include <doca_ctx.h>
#include <doca_log.h>

DOCA_LOG_REGISTER(DPA_COMMON);

#define FILE_WAIT_S 60

static doca_error_t device_param(void *param, void *config)
{
	struct dpa_config *cfg = config;
	const char *name = param;

	if (strlen(name) >= sizeof(cfg->device_name)) {
		DOCA_LOG_ERR("device name '%s' is too long", name);
		return DOCA_ERROR_INVALID_VALUE;
	}
	strcpy(cfg->device_name, name);
	return DOCA_SUCCESS;
}

static doca_error_t copy_path(char *dst, const char *path)
{
	if (strlen(path) >= DPA_PATH_LEN) {
		DOCA_LOG_ERR("path '%s' is too long", path);
		return DOCA_ERROR_INVALID_VALUE;
	}
	strcpy(dst, path);
	return DOCA_SUCCESS;
}

static doca_error_t local_param(void *param, void *config)
{
	return copy_path(((struct dpa_config *)config)->local_file, param);
}

static doca_error_t remote_param(void *param, void *config)
{
	return copy_path(((struct dpa_config *)config)->remote_file, param);
}

static doca_error_t server_param(void *param, void *config)
{
	((struct dpa_config *)config)->server = *(bool *)param;
	return DOCA_SUCCESS;
}

static doca_error_t add_param(const char *short_name, const char *long_name, const char *args,
                              const char *descr, doca_argp_param_cb_t cb, enum doca_argp_type type,
                              int mandatory)
{
	struct doca_argp_param *p;
	doca_error_t st = doca_argp_param_create(&p);

	if (st != DOCA_SUCCESS)
		return st;
	doca_argp_param_set_short_name(p, short_name);
	doca_argp_param_set_long_name(p, long_name);
	if (args)
		doca_argp_param_set_arguments(p, args);
	doca_argp_param_set_description(p, descr);
	doca_argp_param_set_callback(p, cb);
	doca_argp_param_set_type(p, type);
	if (mandatory)
		doca_argp_param_set_mandatory(p);
	return doca_argp_register_param(p);
}

doca_error_t dpa_common_init(const char *name, struct dpa_config *cfg, int files, int argc,
                             char **argv)
{
	struct doca_log_backend *sdk_log;
	doca_error_t st;

	memset(cfg, 0, sizeof(*cfg));
	st = doca_log_backend_create_standard();
	if (st != DOCA_SUCCESS)
		return st;
	st = doca_log_backend_create_with_file_sdk(stderr, &sdk_log);
	if (st != DOCA_SUCCESS)
		return st;
	st = doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_WARNING);
	if (st != DOCA_SUCCESS)
		return st;
	st = doca_argp_init(name, cfg);
	if (st != DOCA_SUCCESS)
		return st;
	st = add_param("d", "device", "<device name>",
	               "IB device or interface name (default: the first device with DPA)",
	               device_param, DOCA_ARGP_TYPE_STRING, 0);
	if (st == DOCA_SUCCESS && files)
		st = add_param("f", "local-file", "<path>", "where this side writes its blobs",
		               local_param, DOCA_ARGP_TYPE_STRING, 1);
	if (st == DOCA_SUCCESS && files)
		st = add_param("r", "remote-file", "<path>", "where the peer writes its blobs",
		               remote_param, DOCA_ARGP_TYPE_STRING, 1);
	if (st == DOCA_SUCCESS && files)
		st = add_param("s", "server", NULL, "run as the server (answers pings)",
		               server_param, DOCA_ARGP_TYPE_BOOLEAN, 0);
	if (st == DOCA_SUCCESS)
		st = doca_argp_start(argc, argv);
	if (st != DOCA_SUCCESS) {
		DOCA_LOG_ERR("parsing the command line: %s", doca_error_get_descr(st));
		doca_argp_destroy();
	}
	return st;
}

void dpa_common_fini(void)
{
	doca_argp_destroy();
}

/* The named device, or the first one with DPA. */
static doca_error_t open_device(const char *name, struct doca_dev **dev)
{
	struct doca_devinfo **list;
	uint32_t n;
	doca_error_t st = doca_devinfo_create_list(&list, &n);

	if (st != DOCA_SUCCESS) {
		DOCA_LOG_ERR("no device list: %s", doca_error_get_descr(st));
		return st;
	}
	*dev = NULL;
	for (uint32_t i = 0; i < n && *dev == NULL; i++) {
		char ibdev[DOCA_DEVINFO_IBDEV_NAME_SIZE] = "";
		char iface[DOCA_DEVINFO_IFACE_NAME_SIZE] = "";

		(void)doca_devinfo_get_ibdev_name(list[i], ibdev, sizeof(ibdev));
		(void)doca_devinfo_get_iface_name(list[i], iface, sizeof(iface));
		if (name[0] != '\0' && strcmp(name, ibdev) != 0 && strcmp(name, iface) != 0)
			continue;
		if (doca_dpa_cap_is_supported(list[i]) != DOCA_SUCCESS)
			continue;
		st = doca_dev_open(list[i], dev);
		if (st != DOCA_SUCCESS)
			DOCA_LOG_ERR("opening %s: %s", ibdev, doca_error_get_descr(st));
	}
	doca_devinfo_destroy_list(list);
	if (*dev == NULL) {
		DOCA_LOG_ERR("no device with DPA%s%s", name[0] ? " named " : "", name);
		return DOCA_ERROR_NOT_FOUND;
	}
	return DOCA_SUCCESS;
}

doca_error_t dpa_resources_create(const struct dpa_config *cfg, struct dpa_resources *res)
{
	doca_error_t st;

	memset(res, 0, sizeof(*res));
	st = open_device(cfg->device_name, &res->dev);
	if (st != DOCA_SUCCESS)
		return st;
	st = doca_dpa_create(res->dev, &res->dpa);
	if (st == DOCA_SUCCESS)
		st = doca_dpa_set_app(res->dpa, dpa_sample_app);
	if (st == DOCA_SUCCESS)
		st = doca_dpa_start(res->dpa);
	if (st != DOCA_SUCCESS) {
		DOCA_LOG_ERR("starting the DPA: %s", doca_error_get_descr(st));
		if (res->dpa)
			doca_dpa_destroy(res->dpa);
		doca_dev_close(res->dev);
		memset(res, 0, sizeof(*res));
	}
	return st;
}

doca_error_t dpa_resources_destroy(struct dpa_resources *res)
{
	doca_error_t st = doca_dpa_destroy(res->dpa);
	doca_error_t st2 = doca_dev_close(res->dev);

	return st != DOCA_SUCCESS ? st : st2;
}

static doca_error_t add_location(struct doca_sync_event *ev, struct dpa_resources *res,
                                 enum dpa_location loc, int publisher)
{
	switch (loc) {
	case DPA_LOC_CPU:
		return publisher ? doca_sync_event_add_publisher_location_cpu(ev, res->dev)
		                 : doca_sync_event_add_subscriber_location_cpu(ev, res->dev);
	case DPA_LOC_DPA:
		return publisher ? doca_sync_event_add_publisher_location_dpa(ev, res->dpa)
		                 : doca_sync_event_add_subscriber_location_dpa(ev, res->dpa);
	case DPA_LOC_REMOTE_NET:
		return publisher ? doca_sync_event_add_publisher_location_remote_net(ev)
		                 : DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_ERROR_INVALID_VALUE;
}

doca_error_t dpa_sync_event_create(struct dpa_resources *res, enum dpa_location publisher,
                                   enum dpa_location subscriber, struct doca_sync_event **ev,
                                   doca_dpa_dev_sync_event_t *handle)
{
	doca_error_t st = doca_sync_event_create(ev);

	if (st != DOCA_SUCCESS)
		return st;
	st = add_location(*ev, res, publisher, 1);
	if (st == DOCA_SUCCESS)
		st = add_location(*ev, res, subscriber, 0);
	if (st == DOCA_SUCCESS)
		st = doca_sync_event_start(*ev);
	if (st == DOCA_SUCCESS && handle)
		st = doca_sync_event_get_dpa_handle(*ev, res->dpa, handle);
	if (st != DOCA_SUCCESS) {
		DOCA_LOG_ERR("creating a sync event: %s", doca_error_get_descr(st));
		doca_sync_event_destroy(*ev);
		*ev = NULL;
	}
	return st;
}

doca_error_t dpa_sync_event_destroy(struct doca_sync_event *ev)
{
	doca_error_t st = doca_sync_event_stop(ev);

	if (st != DOCA_SUCCESS)
		return st;
	return doca_sync_event_destroy(ev);
}

doca_error_t dpa_mmap_create(struct dpa_resources *res, void *addr, size_t len, uint32_t access,
                             struct doca_mmap **mmap, doca_dpa_dev_mmap_t *handle)
{
	doca_error_t st = doca_mmap_create(mmap);

	if (st != DOCA_SUCCESS)
		return st;
	st = doca_mmap_set_memrange(*mmap, addr, len);
	if (st == DOCA_SUCCESS)
		st = doca_mmap_add_dev(*mmap, res->dev);
	if (st == DOCA_SUCCESS)
		st = doca_mmap_set_permissions(*mmap, access);
	if (st == DOCA_SUCCESS)
		st = doca_mmap_start(*mmap);
	if (st == DOCA_SUCCESS && handle)
		st = doca_mmap_dev_get_dpa_handle(*mmap, res->dev, handle);
	if (st != DOCA_SUCCESS) {
		DOCA_LOG_ERR("creating an mmap: %s", doca_error_get_descr(st));
		doca_mmap_destroy(*mmap);
		*mmap = NULL;
	}
	return st;
}

doca_error_t dpa_mmap_destroy(struct doca_mmap *mmap)
{
	doca_error_t st = doca_mmap_stop(mmap);

	if (st != DOCA_SUCCESS)
		return st;
	return doca_mmap_destroy(mmap);
}

doca_error_t dpa_rdma_create(struct dpa_resources *res, struct doca_dpa_completion *comp,
                             uint32_t queue_size, uint32_t max_connections, struct doca_rdma **rdma,
                             doca_dpa_dev_rdma_t *handle)
{
	const uint32_t access = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE |
	                        DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_ATOMIC;
	doca_error_t st = doca_rdma_create(res->dev, rdma);

	if (st != DOCA_SUCCESS)
		return st;
	st = doca_rdma_set_permissions(*rdma, access);
	if (st == DOCA_SUCCESS)
		st = doca_rdma_set_send_queue_size(*rdma, queue_size);
	if (st == DOCA_SUCCESS)
		st = doca_rdma_set_recv_queue_size(*rdma, queue_size);
	if (st == DOCA_SUCCESS)
		st = doca_rdma_set_max_num_connections(*rdma, max_connections);
	if (st == DOCA_SUCCESS)
		st = doca_ctx_set_datapath_on_dpa(doca_rdma_as_ctx(*rdma), res->dpa);
	if (st == DOCA_SUCCESS)
		st = doca_rdma_dpa_completion_attach(*rdma, comp);
	/* On the DPA data path the context needs no progress engine: it is
	 * running when the start returns. */
	if (st == DOCA_SUCCESS)
		st = doca_ctx_start(doca_rdma_as_ctx(*rdma));
	if (st == DOCA_SUCCESS)
		st = doca_rdma_get_dpa_handle(*rdma, handle);
	if (st != DOCA_SUCCESS) {
		DOCA_LOG_ERR("creating an RDMA context on the DPA: %s", doca_error_get_descr(st));
		doca_rdma_destroy(*rdma);
		*rdma = NULL;
	}
	return st;
}

doca_error_t dpa_rdma_destroy(struct doca_rdma *rdma)
{
	doca_error_t st = doca_ctx_stop(doca_rdma_as_ctx(rdma));

	if (st != DOCA_SUCCESS)
		return st;
	return doca_rdma_destroy(rdma);
}

doca_error_t dpa_rdma_connect_pair(struct doca_rdma *a, struct doca_rdma *b, uint32_t *a_conn_id,
                                   uint32_t *b_conn_id)
{
	struct doca_rdma_connection *ca, *cb;
	const void *da, *db;
	size_t la, lb;
	doca_error_t st = doca_rdma_export(a, &da, &la, &ca);

	if (st == DOCA_SUCCESS)
		st = doca_rdma_export(b, &db, &lb, &cb);
	if (st == DOCA_SUCCESS)
		st = doca_rdma_connect(a, db, lb, ca);
	if (st == DOCA_SUCCESS)
		st = doca_rdma_connect(b, da, la, cb);
	if (st == DOCA_SUCCESS)
		st = doca_rdma_connection_get_id(ca, a_conn_id);
	if (st == DOCA_SUCCESS)
		st = doca_rdma_connection_get_id(cb, b_conn_id);
	if (st != DOCA_SUCCESS)
		DOCA_LOG_ERR("connecting two RDMA contexts: %s", doca_error_get_descr(st));
	return st;
}

doca_error_t dpa_file_write(const char *path, const void *data, size_t len)
{
	char tmp[DPA_PATH_LEN + 8];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0 || rename(tmp, path) != 0) {
		DOCA_LOG_ERR("cannot write %s: %s", path, strerror(errno));
		return DOCA_ERROR_IO_FAILED;
	}
	return DOCA_SUCCESS;
}

doca_error_t dpa_file_wait(const char *path, void **data, size_t *len)
{
	const struct timespec tick = { .tv_nsec = 10 * 1000 * 1000 };
	FILE *f;
	long size = -1;

	for (int i = 0; !(f = fopen(path, "rb")); i++) {
		if (errno != ENOENT || i >= FILE_WAIT_S * 100) {
			DOCA_LOG_ERR("waited for %s: %s", path, strerror(errno));
			return DOCA_ERROR_TIME_OUT;
		}
		nanosleep(&tick, NULL);
	}
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) != 0)
		size = -1;
	*data = size >= 0 ? malloc((size_t)size + 1) : NULL;
	if (!*data || fread(*data, 1, (size_t)size, f) != (size_t)size) {
		DOCA_LOG_ERR("cannot read %s", path);
		fclose(f);
		free(*data);
		*data = NULL;
		return DOCA_ERROR_IO_FAILED;
	}
	fclose(f);
	*len = (size_t)size;
	return DOCA_SUCCESS;
}
