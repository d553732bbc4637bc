/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * DOCA DPA, host side: load a DPA program (an "app"), launch kernels, call
 * RPCs, move memory to and from the device, and set up DPA threads with
 * their completion contexts (thread groups, async ops, notifications).
 *
 * softdoca runs the DPA program on the host (docs/dpa.md): device memory is
 * host memory, RPCs run on the calling thread. What is not built yet answers
 * NOT_SUPPORTED (docs/compatibility.md).
 *
 * SOFTDOCA_API_VERSION=205 gives the DOCA 2.5 forms (the app is given at
 * create; doca_dpa_app_name_get; doca_devinfo_get_is_dpa_supported).
 */
#ifndef DOCA_DPA_H_
#define DOCA_DPA_H_

#include <stdint.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdbool.h>

#include "doca_compat.h"
#include "doca_error.h"

SOFTDOCA_BEGIN_DECLS

struct doca_buf;
struct doca_dev;
struct doca_devinfo;
struct doca_sync_event;

struct doca_dpa;
struct doca_dpa_app; /* a DPA program image, exposed by its build as a global */
struct doca_dpa_hash_table;
struct doca_dpa_eu_affinity;
struct doca_dpa_thread;
struct doca_dpa_tg;
struct doca_dpa_completion;
struct doca_dpa_async_ops;
struct doca_dpa_notification_completion;

/* Limit on the user data of DPA completions, as a log2. */
#define DOCA_DPA_COMPLETION_LOG_MAX_USER_DATA (24)

#include "softdoca_dpa_types.h"

/* A kernel or RPC as the host names it: declare `doca_dpa_func_t name;`. */
typedef void(doca_dpa_func_t)(void);

/* The DPA context. */
DOCA_EXPERIMENTAL doca_error_t doca_dpa_cap_is_supported(const struct doca_devinfo *devinfo);
#if SOFTDOCA_API_VERSION >= 300
DOCA_EXPERIMENTAL doca_error_t doca_dpa_create(struct doca_dev *dev, struct doca_dpa **dpa);
#else
DOCA_EXPERIMENTAL doca_error_t doca_dpa_create(struct doca_dev *dev, struct doca_dpa_app *app,
                                               struct doca_dpa **dpa)
        SOFTDOCA_SYMBOL(205, doca_dpa_create);
#endif
DOCA_EXPERIMENTAL doca_error_t doca_dpa_destroy(struct doca_dpa *dpa);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_start(struct doca_dpa *dpa);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_stop(struct doca_dpa *dpa);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_set_app(struct doca_dpa *dpa, struct doca_dpa_app *app);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_app(struct doca_dpa *dpa, struct doca_dpa_app **app);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_app_get_name(struct doca_dpa_app *app, char *app_name,
                                                     uint32_t *app_name_len);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_set_log_level(struct doca_dpa *dpa,
                                                      doca_dpa_dev_log_level_t log_level);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_log_level(struct doca_dpa *dpa,
                                                      doca_dpa_dev_log_level_t *log_level);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_log_file_set_path(struct doca_dpa *dpa,
                                                          const char *file_path);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_log_file_get_path(struct doca_dpa *dpa, char *file_path,
                                                          uint32_t *file_path_len);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_trace_file_set_path(struct doca_dpa *dpa,
                                                            const char *file_path);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_trace_file_get_path(struct doca_dpa *dpa, char *file_path,
                                                            uint32_t *file_path_len);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_max_threads_per_kernel(const struct doca_dpa *dpa,
                                                                   unsigned int *value);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_kernel_max_run_time(const struct doca_dpa *dpa,
                                                                unsigned long long *value);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_device_extend(struct doca_dpa *dpa,
                                                      struct doca_dev *other_dev,
                                                      struct doca_dpa **extended_dpa);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_dpa_handle(struct doca_dpa *dpa,
                                                       doca_dpa_dev_t *handle);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_uar_id(const struct doca_dpa *dpa, uint32_t *uar_id);

/* Kernels: num_threads DPA threads run func once the (optional) wait_event
 * passes wait_threshold; at the end comp_event is set to (update_set) or
 * increased by (update_add) comp_count. RPCs: one call, its result in
 * *retval. Kernel and RPC arguments are 64-bit values. */
DOCA_EXPERIMENTAL doca_error_t doca_dpa_kernel_launch_update_set(
        struct doca_dpa *dpa, struct doca_sync_event *wait_event, uint64_t wait_threshold,
        struct doca_sync_event *comp_event, uint64_t comp_count, unsigned int num_threads,
        doca_dpa_func_t *func, ...);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_kernel_launch_update_add(
        struct doca_dpa *dpa, struct doca_sync_event *wait_event, uint64_t wait_threshold,
        struct doca_sync_event *comp_event, uint64_t comp_count, unsigned int num_threads,
        doca_dpa_func_t *func, ...);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_rpc(struct doca_dpa *dpa, doca_dpa_func_t *func,
                                            uint64_t *retval, ...);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_peek_at_last_error(const struct doca_dpa *dpa);

/* Device memory. */
DOCA_EXPERIMENTAL doca_error_t doca_dpa_mem_alloc(struct doca_dpa *dpa, size_t size,
                                                  doca_dpa_dev_uintptr_t *dev_ptr);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_mem_free(struct doca_dpa *dpa,
                                                 doca_dpa_dev_uintptr_t dev_ptr);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_h2d_memcpy(struct doca_dpa *dpa,
                                                   doca_dpa_dev_uintptr_t dst_ptr, void *src_ptr,
                                                   size_t size);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_h2d_buf_memcpy(struct doca_dpa *dpa,
                                                       doca_dpa_dev_uintptr_t dst_ptr,
                                                       struct doca_buf *buf, size_t size);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_d2h_memcpy(struct doca_dpa *dpa, void *dst_ptr,
                                                   doca_dpa_dev_uintptr_t src_ptr, size_t size);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_d2h_buf_memcpy(struct doca_dpa *dpa, struct doca_buf *buf,
                                                       doca_dpa_dev_uintptr_t src_ptr, size_t size);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_memset(struct doca_dpa *dpa, doca_dpa_dev_uintptr_t dev_ptr,
                                               int value, size_t size);

/* Hash tables kernels can use. */
DOCA_EXPERIMENTAL doca_error_t doca_dpa_hash_table_create(struct doca_dpa *dpa,
                                                          unsigned int num_entries,
                                                          struct doca_dpa_hash_table **ht);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_hash_table_destroy(struct doca_dpa_hash_table *ht);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_hash_table_get_dpa_handle(
        struct doca_dpa_hash_table *ht, doca_dpa_dev_hash_table_t *ht_handle);

/* Execution units (EUs) and which of them a thread may run on. */
DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_core_num(struct doca_dpa *dpa, unsigned int *num_cores);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_num_eus_per_core(struct doca_dpa *dpa,
                                                             unsigned int *eus_per_core);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_total_num_eus_available(struct doca_dpa *dpa,
                                                                    unsigned int *total_num_eus);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_eu_affinity_create(struct doca_dpa *dpa,
                                                           struct doca_dpa_eu_affinity **affinity);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_eu_affinity_destroy(struct doca_dpa_eu_affinity *affinity);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_eu_affinity_set(struct doca_dpa_eu_affinity *affinity,
                                                        unsigned int eu_id);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_eu_affinity_clear(struct doca_dpa_eu_affinity *affinity);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_eu_affinity_get(struct doca_dpa_eu_affinity *affinity,
                                                        unsigned int *eu_id);

/* DPA threads: an entry function and its argument, run when notified. */
DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_create(struct doca_dpa *dpa,
                                                      struct doca_dpa_thread **dpa_thread);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_destroy(struct doca_dpa_thread *dpa_thread);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_set_func_arg(struct doca_dpa_thread *dpa_thread,
                                                            doca_dpa_func_t *func, uint64_t arg);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_get_func_arg(struct doca_dpa_thread *dpa_thread,
                                                            doca_dpa_func_t **func, uint64_t *arg);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_set_local_storage(struct doca_dpa_thread *dpa_thread,
                                                                 doca_dpa_dev_uintptr_t dev_ptr);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_get_local_storage(struct doca_dpa_thread *dpa_thread,
                                                                 doca_dpa_dev_uintptr_t *dev_ptr);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_set_affinity(
        struct doca_dpa_thread *dpa_thread, const struct doca_dpa_eu_affinity *affinity);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_get_affinity(
        struct doca_dpa_thread *dpa_thread, const struct doca_dpa_eu_affinity **affinity);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_start(struct doca_dpa_thread *dpa_thread);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_stop(struct doca_dpa_thread *dpa_thread);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_run(struct doca_dpa_thread *dpa_thread);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_get_id(struct doca_dpa_thread *dpa_thread,
                                                      uint32_t *dpa_thread_id);

/* Thread groups: threads by rank. */
DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_group_create(struct doca_dpa *dpa,
                                                            unsigned int num_threads,
                                                            struct doca_dpa_tg **tg);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_group_destroy(struct doca_dpa_tg *tg);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_group_get_num_threads(struct doca_dpa_tg *tg,
                                                                     unsigned int *num_threads);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_group_set_thread(struct doca_dpa_tg *tg,
                                                                struct doca_dpa_thread *thread,
                                                                unsigned int rank);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_group_start(struct doca_dpa_tg *tg);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_group_stop(struct doca_dpa_tg *tg);

/* Completion contexts: where a thread's completions (RDMA, async ops) land. */
DOCA_EXPERIMENTAL doca_error_t doca_dpa_completion_create(struct doca_dpa *dpa,
                                                          unsigned int queue_size,
                                                          struct doca_dpa_completion **dpa_comp);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_completion_destroy(struct doca_dpa_completion *dpa_comp);
DOCA_EXPERIMENTAL doca_error_t
doca_dpa_completion_get_queue_size(struct doca_dpa_completion *dpa_comp, unsigned int *queue_size);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_completion_set_thread(struct doca_dpa_completion *dpa_comp,
                                                              struct doca_dpa_thread *dpa_thread);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_completion_get_thread(struct doca_dpa_completion *dpa_comp,
                                                              struct doca_dpa_thread **dpa_thread);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_completion_start(struct doca_dpa_completion *dpa_comp);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_completion_stop(struct doca_dpa_completion *dpa_comp);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_completion_get_dpa_handle(
        struct doca_dpa_completion *dpa_comp, doca_dpa_dev_completion_t *handle);

/* Async ops: device-initiated memory operations that complete to a
 * completion context. */
DOCA_EXPERIMENTAL doca_error_t doca_dpa_async_ops_create(struct doca_dpa *dpa,
                                                         unsigned int queue_size,
                                                         uint64_t user_data,
                                                         struct doca_dpa_async_ops **async_ops);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_async_ops_destroy(struct doca_dpa_async_ops *async_ops);
DOCA_EXPERIMENTAL doca_error_t
doca_dpa_async_ops_get_queue_size(struct doca_dpa_async_ops *async_ops, unsigned int *queue_size);
DOCA_EXPERIMENTAL doca_error_t
doca_dpa_async_ops_get_user_data(struct doca_dpa_async_ops *async_ops, uint64_t *user_data);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_async_ops_attach(struct doca_dpa_async_ops *async_ops,
                                                         struct doca_dpa_completion *dpa_comp);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_async_ops_start(struct doca_dpa_async_ops *async_ops);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_async_ops_stop(struct doca_dpa_async_ops *async_ops);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_async_ops_get_dpa_handle(
        struct doca_dpa_async_ops *async_ops, doca_dpa_dev_async_ops_t *handle);

/* Notification completions: let another DPA thread wake dpa_thread. */
DOCA_EXPERIMENTAL doca_error_t
doca_dpa_notification_completion_create(struct doca_dpa *dpa, struct doca_dpa_thread *dpa_thread,
                                        struct doca_dpa_notification_completion **notify_comp);
DOCA_EXPERIMENTAL doca_error_t
doca_dpa_notification_completion_destroy(struct doca_dpa_notification_completion *notify_comp);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_notification_completion_get_thread(
        struct doca_dpa_notification_completion *notify_comp, struct doca_dpa_thread **dpa_thread);
DOCA_EXPERIMENTAL doca_error_t
doca_dpa_notification_completion_start(struct doca_dpa_notification_completion *notify_comp);
DOCA_EXPERIMENTAL doca_error_t
doca_dpa_notification_completion_stop(struct doca_dpa_notification_completion *notify_comp);
DOCA_EXPERIMENTAL doca_error_t doca_dpa_notification_completion_get_dpa_handle(
        struct doca_dpa_notification_completion *notify_comp,
        doca_dpa_dev_notification_completion_t *handle);

#if SOFTDOCA_API_VERSION < 300
/* DOCA 2.5 names of doca_dpa_app_get_name and doca_dpa_cap_is_supported. */
DOCA_EXPERIMENTAL doca_error_t doca_dpa_app_name_get(struct doca_dpa_app *app, char *app_name,
                                                     size_t *app_name_len);
DOCA_EXPERIMENTAL doca_error_t
doca_devinfo_get_is_dpa_supported(const struct doca_devinfo *devinfo);
#endif

SOFTDOCA_END_DECLS

#endif /* DOCA_DPA_H_ */
