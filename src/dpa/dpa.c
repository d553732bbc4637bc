/*
 * libdoca_dpa: the DPA context, its settings, limits and last error.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libdoca_dpa, host side: the DPA context (create, start, stop, destroy),
 * its log settings, its limits, its device handle and its last error.
 * Every softdoca device has a DPA: its kernels run on host threads.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/dev.h"
#include "core/sdk_log.h"
#include "dpa/dpa.h"
#include "dpa/info.h"

SDOCA_LOG_MODULE(dpa);

_Thread_local struct sdoca_dpa_exec *sdoca_dpa_exec __attribute__((tls_model("initial-exec")));

/* Device handles of live DPAs: tag 0xd1, a generation, a slot. A stale or
 * made-up value is found out instead of being dereferenced. */
#define DPA_HANDLE_TAG 0xd1ull
#define DPA_HANDLE_SLOTS 256u

static struct {
	pthread_mutex_t lock;
	struct doca_dpa *dpa[DPA_HANDLE_SLOTS];
	uint32_t generation[DPA_HANDLE_SLOTS];
} handles = { .lock = PTHREAD_MUTEX_INITIALIZER };

static doca_dpa_dev_t handle_register(struct doca_dpa *dpa)
{
	doca_dpa_dev_t h = 0;
	pthread_mutex_lock(&handles.lock);
	for (uint32_t slot = 0; slot < DPA_HANDLE_SLOTS; slot++) {
		if (handles.dpa[slot] == NULL) {
			handles.dpa[slot] = dpa;
			handles.generation[slot] = (handles.generation[slot] + 1) & 0xffffffu;
			h = DPA_HANDLE_TAG << 56 | (uint64_t)handles.generation[slot] << 32 | slot;
			break;
		}
	}
	pthread_mutex_unlock(&handles.lock);
	return h;
}

static void handle_unregister(doca_dpa_dev_t h)
{
	pthread_mutex_lock(&handles.lock);
	handles.dpa[(uint32_t)h % DPA_HANDLE_SLOTS] = NULL;
	pthread_mutex_unlock(&handles.lock);
}

struct doca_dpa *sdoca_dpa_from_handle(doca_dpa_dev_t h)
{
	uint32_t slot = (uint32_t)h;
	if (h >> 56 != DPA_HANDLE_TAG || slot >= DPA_HANDLE_SLOTS)
		return NULL;
	pthread_mutex_lock(&handles.lock);
	struct doca_dpa *dpa =
	        handles.generation[slot] == ((h >> 32) & 0xffffffu) ? handles.dpa[slot] : NULL;
	pthread_mutex_unlock(&handles.lock);
	return dpa;
}

void sdoca_dpa_set_error(struct doca_dpa *dpa, doca_error_t err)
{
	int expected = DOCA_SUCCESS;
	atomic_compare_exchange_strong(&dpa->last_error, &expected, (int)err);
}

/* A positive number from the environment, or the default. */
static unsigned long long env_number(const char *name, unsigned long long def,
                                     unsigned long long max)
{
	const char *s = getenv(name);
	if (s == NULL || *s == '\0')
		return def;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v == 0 || v > max) {
		SDOCA_WARN("%s=%s is not a number in 1..%llu: using %llu", name, s, max, def);
		return def;
	}
	return v;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_cap_is_supported(const struct doca_devinfo *devinfo)
{
	if (!sdoca_arg_valid(devinfo))
		return DOCA_ERROR_INVALID_VALUE;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_create(struct doca_dev *dev, struct doca_dpa **dpa)
{
	if (!sdoca_arg_valid(dev) || !sdoca_arg_valid(dpa))
		return DOCA_ERROR_INVALID_VALUE;
	struct doca_dpa *d = calloc(1, sizeof(*d));
	if (d == NULL)
		return sdoca_fail(DOCA_ERROR_NO_MEMORY, "doca_dpa_create: out of memory");
	d->handle = handle_register(d);
	if (d->handle == 0) {
		free(d);
		return sdoca_fail(DOCA_ERROR_FULL, "doca_dpa_create: %u DPA contexts exist already",
		                  DPA_HANDLE_SLOTS);
	}
	pthread_mutex_init(&d->mem_lock, NULL);
	d->dev = dev;
	d->log_fd = -1;
	d->trace_fd = -1;
	atomic_init(&d->log_level, DOCA_DPA_DEV_LOG_LEVEL_INFO);
	atomic_init(&d->last_error, DOCA_SUCCESS);
	d->total_eus = (unsigned int)env_number("SOFTDOCA_DPA_EUS",
	                                        SDOCA_DPA_CORES * SDOCA_DPA_EUS_PER_CORE -
	                                                SDOCA_DPA_EUS_RESERVED,
	                                        SDOCA_DPA_CORES * SDOCA_DPA_EUS_PER_CORE);
	d->max_run_s = env_number("SOFTDOCA_DPA_KERNEL_MAX_RUN_S", SDOCA_DPA_MAX_RUN_S, 86400);
	sdoca_dev_get(dev);
	sdoca_dpa_info_add_dpa(d);
	*dpa = d;
	return DOCA_SUCCESS;
}

static void close_files(struct doca_dpa *dpa)
{
	if (dpa->log_fd >= 0)
		close(dpa->log_fd);
	if (dpa->trace_fd >= 0)
		close(dpa->trace_fd);
	dpa->log_fd = -1;
	dpa->trace_fd = -1;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_destroy(struct doca_dpa *dpa)
{
	if (!sdoca_arg_valid(dpa))
		return DOCA_ERROR_INVALID_VALUE;
	unsigned int affinities = atomic_load(&dpa->affinities);
	if (affinities != 0)
		return sdoca_fail(DOCA_ERROR_IN_USE,
		                  "doca_dpa_destroy: %u EU affinities still exist", affinities);
	unsigned int threads = atomic_load(&dpa->threads);
	if (threads != 0)
		return sdoca_fail(DOCA_ERROR_IN_USE, "doca_dpa_destroy: %u DPA threads still exist",
		                  threads);
	sdoca_dpa_info_remove_dpa(dpa);
	/* DOCA's samples destroy a started DPA without stopping it. */
	dpa->started = false;
	bool launches_left = !sdoca_dpa_launch_fini(dpa);
	if (launches_left || atomic_load(&dpa->leaked_threads) > 0) {
		/* Kernels that never leave still use it and its memory. */
		SDOCA_ERR("doca_dpa_destroy: %s still run: the DPA is leaked",
		          launches_left ? "kernel launches" : "kernels of detached DPA threads");
		handle_unregister(dpa->handle);
		sdoca_dev_put(dpa->dev);
		return DOCA_SUCCESS;
	}
	close_files(dpa);
	sdoca_dpa_mem_release_all(dpa);
	handle_unregister(dpa->handle);
	sdoca_dev_put(dpa->dev);
	pthread_mutex_destroy(&dpa->mem_lock);
	free(dpa);
	return DOCA_SUCCESS;
}

static doca_error_t open_output(const char *path, int *fd, const char *what)
{
	if (path[0] == '\0')
		return DOCA_SUCCESS;
	*fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (*fd < 0)
		return sdoca_fail(DOCA_ERROR_IO_FAILED,
		                  "doca_dpa_start: cannot open the %s file %s: %s", what, path,
		                  strerror(errno));
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_start(struct doca_dpa *dpa)
{
	if (!sdoca_arg_valid(dpa))
		return DOCA_ERROR_INVALID_VALUE;
	if (dpa->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_dpa_start: the DPA is started already");
	if (dpa->app == NULL)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_dpa_start: no program: call doca_dpa_set_app first");
	doca_error_t err = open_output(dpa->log_path, &dpa->log_fd, "log");
	if (err == DOCA_SUCCESS)
		err = open_output(dpa->trace_path, &dpa->trace_fd, "trace");
	if (err != DOCA_SUCCESS) {
		close_files(dpa);
		return err;
	}
	sdoca_dpa_fault_install();
	dpa->started = true;
	sdoca_dpa_info_started(dpa, true);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_stop(struct doca_dpa *dpa)
{
	if (!sdoca_arg_valid(dpa))
		return DOCA_ERROR_INVALID_VALUE;
	if (!dpa->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "doca_dpa_stop: the DPA is not started");
	dpa->started = false;
	sdoca_dpa_info_started(dpa, false);
	/* Launches are cancelled and waited for (2 s); kernels left running
	 * then write to stdout, not to a closed log file. */
	sdoca_dpa_launch_stop(dpa, __func__);
	close_files(dpa);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_set_log_level(struct doca_dpa *dpa,
                                                      doca_dpa_dev_log_level_t log_level)
{
	if (!sdoca_arg_valid(dpa))
		return DOCA_ERROR_INVALID_VALUE;
	switch (log_level) {
	case DOCA_DPA_DEV_LOG_LEVEL_DISABLE:
	case DOCA_DPA_DEV_LOG_LEVEL_ERROR:
	case DOCA_DPA_DEV_LOG_LEVEL_WARNING:
	case DOCA_DPA_DEV_LOG_LEVEL_INFO:
	case DOCA_DPA_DEV_LOG_LEVEL_DEBUG:
		atomic_store(&dpa->log_level, (int)log_level);
		return DOCA_SUCCESS;
	}
	return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "doca_dpa_set_log_level: %d is not a log level",
	                  (int)log_level);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_log_level(struct doca_dpa *dpa,
                                                      doca_dpa_dev_log_level_t *log_level)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(log_level))
		return DOCA_ERROR_INVALID_VALUE;
	*log_level = (doca_dpa_dev_log_level_t)atomic_load(&dpa->log_level);
	return DOCA_SUCCESS;
}

static doca_error_t set_path(struct doca_dpa *dpa, char *dst, const char *path, const char *caller)
{
	if (dpa->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "%s: the DPA is started: set the path before", caller);
	size_t len = strlen(path);
	if (len == 0 || len >= PATH_MAX)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "%s: the path is empty or longer than %d bytes", caller,
		                  PATH_MAX - 1);
	memcpy(dst, path, len + 1);
	return DOCA_SUCCESS;
}

/* *len: the buffer's size in, the bytes written (with the NUL) out. */
static doca_error_t get_path(const char *src, char *buf, uint32_t *len, const char *caller)
{
	size_t need = strlen(src) + 1;
	if (*len < need) {
		SDOCA_ERR("%s: the buffer has %u bytes, the path needs %zu", caller, *len, need);
		*len = (uint32_t)need;
		return DOCA_ERROR_INVALID_VALUE;
	}
	memcpy(buf, src, need);
	*len = (uint32_t)need;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_log_file_set_path(struct doca_dpa *dpa,
                                                          const char *file_path)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(file_path))
		return DOCA_ERROR_INVALID_VALUE;
	return set_path(dpa, dpa->log_path, file_path, __func__);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_log_file_get_path(struct doca_dpa *dpa, char *file_path,
                                                          uint32_t *file_path_len)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(file_path) || !sdoca_arg_valid(file_path_len))
		return DOCA_ERROR_INVALID_VALUE;
	return get_path(dpa->log_path, file_path, file_path_len, __func__);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_trace_file_set_path(struct doca_dpa *dpa,
                                                            const char *file_path)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(file_path))
		return DOCA_ERROR_INVALID_VALUE;
	return set_path(dpa, dpa->trace_path, file_path, __func__);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_trace_file_get_path(struct doca_dpa *dpa, char *file_path,
                                                            uint32_t *file_path_len)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(file_path) || !sdoca_arg_valid(file_path_len))
		return DOCA_ERROR_INVALID_VALUE;
	return get_path(dpa->trace_path, file_path, file_path_len, __func__);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_max_threads_per_kernel(const struct doca_dpa *dpa,
                                                                   unsigned int *value)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(value))
		return DOCA_ERROR_INVALID_VALUE;
	*value = dpa->total_eus;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_kernel_max_run_time(const struct doca_dpa *dpa,
                                                                unsigned long long *value)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(value))
		return DOCA_ERROR_INVALID_VALUE;
	*value = dpa->max_run_s;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_core_num(struct doca_dpa *dpa, unsigned int *num_cores)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(num_cores))
		return DOCA_ERROR_INVALID_VALUE;
	*num_cores = SDOCA_DPA_CORES;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_num_eus_per_core(struct doca_dpa *dpa,
                                                             unsigned int *eus_per_core)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(eus_per_core))
		return DOCA_ERROR_INVALID_VALUE;
	*eus_per_core = SDOCA_DPA_EUS_PER_CORE;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_total_num_eus_available(struct doca_dpa *dpa,
                                                                    unsigned int *total_num_eus)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(total_num_eus))
		return DOCA_ERROR_INVALID_VALUE;
	*total_num_eus = dpa->total_eus;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_dpa_handle(struct doca_dpa *dpa, doca_dpa_dev_t *handle)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(handle))
		return DOCA_ERROR_INVALID_VALUE;
	if (!dpa->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_dpa_get_dpa_handle: the DPA is not started");
	*handle = dpa->handle;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_peek_at_last_error(const struct doca_dpa *dpa)
{
	if (!sdoca_arg_valid(dpa))
		return DOCA_ERROR_INVALID_VALUE;
	return (doca_error_t)atomic_load(&((struct doca_dpa *)dpa)->last_error);
}
