/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libdoca_dpa, host side: the DPA context, its program, kernels, RPCs,
 * device memory, hash tables and execution units (dpa_threads.c has the
 * threads and their completion contexts). The DPA emulation (kernels on
 * host threads) is not built yet: no doca_dpa can be created, so every call
 * answers NOT_SUPPORTED and doca_dpa_cap_is_supported says the device has
 * no DPA.
 */
#include <stddef.h>

#include <doca_dpa.h>

#include "core/sdk_log.h"

SDOCA_LOG_MODULE(dpa);

#define NO_DPA "the DPA emulation is not built yet"

/* Prototypes: the DOCA 2.5 forms doca_dpa.h declares for SOFTDOCA_API_VERSION below 300. */
doca_error_t softdoca_v205_doca_dpa_create(struct doca_dev *dev, struct doca_dpa_app *app,
                                           struct doca_dpa **dpa);
doca_error_t doca_dpa_app_name_get(struct doca_dpa_app *app, char *app_name, size_t *app_name_len);
doca_error_t doca_devinfo_get_is_dpa_supported(const struct doca_devinfo *devinfo);

DOCA_EXPERIMENTAL doca_error_t doca_dpa_cap_is_supported(const struct doca_devinfo *devinfo)
{
	SDOCA_CHECK_ARG(devinfo);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_create(struct doca_dev *dev, struct doca_dpa **dpa)
{
	SDOCA_CHECK_ARG(dev);
	SDOCA_CHECK_ARG(dpa);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_destroy(struct doca_dpa *dpa)
{
	SDOCA_CHECK_ARG(dpa);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_start(struct doca_dpa *dpa)
{
	SDOCA_CHECK_ARG(dpa);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_stop(struct doca_dpa *dpa)
{
	SDOCA_CHECK_ARG(dpa);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_set_app(struct doca_dpa *dpa, struct doca_dpa_app *app)
{
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(app);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_app(struct doca_dpa *dpa, struct doca_dpa_app **app)
{
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(app);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_app_get_name(struct doca_dpa_app *app, char *app_name,
                                                     uint32_t *app_name_len)
{
	SDOCA_CHECK_ARG(app);
	SDOCA_CHECK_ARG(app_name);
	SDOCA_CHECK_ARG(app_name_len);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_set_log_level(struct doca_dpa *dpa,
                                                      doca_dpa_dev_log_level_t log_level)
{
	(void)log_level;
	SDOCA_CHECK_ARG(dpa);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_log_level(struct doca_dpa *dpa,
                                                      doca_dpa_dev_log_level_t *log_level)
{
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(log_level);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_log_file_set_path(struct doca_dpa *dpa,
                                                          const char *file_path)
{
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(file_path);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_log_file_get_path(struct doca_dpa *dpa, char *file_path,
                                                          uint32_t *file_path_len)
{
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(file_path);
	SDOCA_CHECK_ARG(file_path_len);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_trace_file_set_path(struct doca_dpa *dpa,
                                                            const char *file_path)
{
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(file_path);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_trace_file_get_path(struct doca_dpa *dpa, char *file_path,
                                                            uint32_t *file_path_len)
{
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(file_path);
	SDOCA_CHECK_ARG(file_path_len);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_max_threads_per_kernel(const struct doca_dpa *dpa,
                                                                   unsigned int *value)
{
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(value);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_kernel_max_run_time(const struct doca_dpa *dpa,
                                                                unsigned long long *value)
{
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(value);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_device_extend(struct doca_dpa *dpa,
                                                      struct doca_dev *other_dev,
                                                      struct doca_dpa **extended_dpa)
{
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(other_dev);
	SDOCA_CHECK_ARG(extended_dpa);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_dpa_handle(struct doca_dpa *dpa, doca_dpa_dev_t *handle)
{
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(handle);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_uar_id(const struct doca_dpa *dpa, uint32_t *uar_id)
{
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(uar_id);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_kernel_launch_update_set(
        struct doca_dpa *dpa, struct doca_sync_event *wait_event, uint64_t wait_threshold,
        struct doca_sync_event *comp_event, uint64_t comp_count, unsigned int num_threads,
        doca_dpa_func_t *func, ...)
{
	(void)wait_event;
	(void)wait_threshold;
	(void)comp_event;
	(void)comp_count;
	(void)num_threads;
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(func);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_kernel_launch_update_add(
        struct doca_dpa *dpa, struct doca_sync_event *wait_event, uint64_t wait_threshold,
        struct doca_sync_event *comp_event, uint64_t comp_count, unsigned int num_threads,
        doca_dpa_func_t *func, ...)
{
	(void)wait_event;
	(void)wait_threshold;
	(void)comp_event;
	(void)comp_count;
	(void)num_threads;
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(func);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_rpc(struct doca_dpa *dpa, doca_dpa_func_t *func,
                                            uint64_t *retval, ...)
{
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(func);
	SDOCA_CHECK_ARG(retval);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_peek_at_last_error(const struct doca_dpa *dpa)
{
	SDOCA_CHECK_ARG(dpa);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_mem_alloc(struct doca_dpa *dpa, size_t size,
                                                  doca_dpa_dev_uintptr_t *dev_ptr)
{
	(void)size;
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(dev_ptr);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_mem_free(struct doca_dpa *dpa,
                                                 doca_dpa_dev_uintptr_t dev_ptr)
{
	(void)dev_ptr;
	SDOCA_CHECK_ARG(dpa);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_h2d_memcpy(struct doca_dpa *dpa,
                                                   doca_dpa_dev_uintptr_t dst_ptr, void *src_ptr,
                                                   size_t size)
{
	(void)dst_ptr;
	(void)size;
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(src_ptr);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_h2d_buf_memcpy(struct doca_dpa *dpa,
                                                       doca_dpa_dev_uintptr_t dst_ptr,
                                                       struct doca_buf *buf, size_t size)
{
	(void)dst_ptr;
	(void)size;
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(buf);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_d2h_memcpy(struct doca_dpa *dpa, void *dst_ptr,
                                                   doca_dpa_dev_uintptr_t src_ptr, size_t size)
{
	(void)src_ptr;
	(void)size;
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(dst_ptr);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_d2h_buf_memcpy(struct doca_dpa *dpa, struct doca_buf *buf,
                                                       doca_dpa_dev_uintptr_t src_ptr, size_t size)
{
	(void)src_ptr;
	(void)size;
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(buf);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_memset(struct doca_dpa *dpa, doca_dpa_dev_uintptr_t dev_ptr,
                                               int value, size_t size)
{
	(void)dev_ptr;
	(void)value;
	(void)size;
	SDOCA_CHECK_ARG(dpa);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_hash_table_create(struct doca_dpa *dpa,
                                                          unsigned int num_entries,
                                                          struct doca_dpa_hash_table **ht)
{
	(void)num_entries;
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(ht);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_hash_table_destroy(struct doca_dpa_hash_table *ht)
{
	SDOCA_CHECK_ARG(ht);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_hash_table_get_dpa_handle(
        struct doca_dpa_hash_table *ht, doca_dpa_dev_hash_table_t *ht_handle)
{
	SDOCA_CHECK_ARG(ht);
	SDOCA_CHECK_ARG(ht_handle);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_core_num(struct doca_dpa *dpa, unsigned int *num_cores)
{
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(num_cores);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_num_eus_per_core(struct doca_dpa *dpa,
                                                             unsigned int *eus_per_core)
{
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(eus_per_core);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_total_num_eus_available(struct doca_dpa *dpa,
                                                                    unsigned int *total_num_eus)
{
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(total_num_eus);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_eu_affinity_create(struct doca_dpa *dpa,
                                                           struct doca_dpa_eu_affinity **affinity)
{
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(affinity);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_eu_affinity_destroy(struct doca_dpa_eu_affinity *affinity)
{
	SDOCA_CHECK_ARG(affinity);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_eu_affinity_set(struct doca_dpa_eu_affinity *affinity,
                                                        unsigned int eu_id)
{
	(void)eu_id;
	SDOCA_CHECK_ARG(affinity);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_eu_affinity_clear(struct doca_dpa_eu_affinity *affinity)
{
	SDOCA_CHECK_ARG(affinity);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_eu_affinity_get(struct doca_dpa_eu_affinity *affinity,
                                                        unsigned int *eu_id)
{
	SDOCA_CHECK_ARG(affinity);
	SDOCA_CHECK_ARG(eu_id);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

/* DOCA 2.5 forms. */

DOCA_EXPERIMENTAL doca_error_t softdoca_v205_doca_dpa_create(struct doca_dev *dev,
                                                             struct doca_dpa_app *app,
                                                             struct doca_dpa **dpa)
{
	SDOCA_CHECK_ARG(dev);
	SDOCA_CHECK_ARG(app);
	SDOCA_CHECK_ARG(dpa);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_app_name_get(struct doca_dpa_app *app, char *app_name,
                                                     size_t *app_name_len)
{
	SDOCA_CHECK_ARG(app);
	SDOCA_CHECK_ARG(app_name);
	SDOCA_CHECK_ARG(app_name_len);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_devinfo_get_is_dpa_supported(const struct doca_devinfo *devinfo)
{
	SDOCA_CHECK_ARG(devinfo);
	return DOCA_ERROR_NOT_SUPPORTED;
}
