/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libdoca_dpa, host side: DPA threads, thread groups and the completion
 * contexts they use (completions, async ops, notification completions).
 * Not built yet (docs/dpa.md part 3, step 2): every call answers
 * NOT_SUPPORTED.
 */
#include <stddef.h>

#include <doca_dpa.h>

#include "core/sdk_log.h"

SDOCA_LOG_MODULE(dpa_threads);

#define NO_DPA "DPA threads and completion contexts are not built yet"

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_create(struct doca_dpa *dpa,
                                                      struct doca_dpa_thread **dpa_thread)
{
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(dpa_thread);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_destroy(struct doca_dpa_thread *dpa_thread)
{
	SDOCA_CHECK_ARG(dpa_thread);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_set_func_arg(struct doca_dpa_thread *dpa_thread,
                                                            doca_dpa_func_t *func, uint64_t arg)
{
	(void)arg;
	SDOCA_CHECK_ARG(dpa_thread);
	SDOCA_CHECK_ARG(func);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_get_func_arg(struct doca_dpa_thread *dpa_thread,
                                                            doca_dpa_func_t **func, uint64_t *arg)
{
	SDOCA_CHECK_ARG(dpa_thread);
	SDOCA_CHECK_ARG(func);
	SDOCA_CHECK_ARG(arg);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_set_local_storage(struct doca_dpa_thread *dpa_thread,
                                                                 doca_dpa_dev_uintptr_t dev_ptr)
{
	(void)dev_ptr;
	SDOCA_CHECK_ARG(dpa_thread);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_get_local_storage(struct doca_dpa_thread *dpa_thread,
                                                                 doca_dpa_dev_uintptr_t *dev_ptr)
{
	SDOCA_CHECK_ARG(dpa_thread);
	SDOCA_CHECK_ARG(dev_ptr);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_set_affinity(
        struct doca_dpa_thread *dpa_thread, const struct doca_dpa_eu_affinity *affinity)
{
	SDOCA_CHECK_ARG(dpa_thread);
	SDOCA_CHECK_ARG(affinity);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_get_affinity(
        struct doca_dpa_thread *dpa_thread, const struct doca_dpa_eu_affinity **affinity)
{
	SDOCA_CHECK_ARG(dpa_thread);
	SDOCA_CHECK_ARG(affinity);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_start(struct doca_dpa_thread *dpa_thread)
{
	SDOCA_CHECK_ARG(dpa_thread);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_stop(struct doca_dpa_thread *dpa_thread)
{
	SDOCA_CHECK_ARG(dpa_thread);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_run(struct doca_dpa_thread *dpa_thread)
{
	SDOCA_CHECK_ARG(dpa_thread);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_get_id(struct doca_dpa_thread *dpa_thread,
                                                      uint32_t *dpa_thread_id)
{
	SDOCA_CHECK_ARG(dpa_thread);
	SDOCA_CHECK_ARG(dpa_thread_id);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_group_create(struct doca_dpa *dpa,
                                                            unsigned int num_threads,
                                                            struct doca_dpa_tg **tg)
{
	(void)num_threads;
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(tg);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_group_destroy(struct doca_dpa_tg *tg)
{
	SDOCA_CHECK_ARG(tg);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_group_get_num_threads(struct doca_dpa_tg *tg,
                                                                     unsigned int *num_threads)
{
	SDOCA_CHECK_ARG(tg);
	SDOCA_CHECK_ARG(num_threads);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_group_set_thread(struct doca_dpa_tg *tg,
                                                                struct doca_dpa_thread *thread,
                                                                unsigned int rank)
{
	(void)rank;
	SDOCA_CHECK_ARG(tg);
	SDOCA_CHECK_ARG(thread);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_group_start(struct doca_dpa_tg *tg)
{
	SDOCA_CHECK_ARG(tg);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_group_stop(struct doca_dpa_tg *tg)
{
	SDOCA_CHECK_ARG(tg);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_completion_create(struct doca_dpa *dpa,
                                                          unsigned int queue_size,
                                                          struct doca_dpa_completion **dpa_comp)
{
	(void)queue_size;
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(dpa_comp);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_completion_destroy(struct doca_dpa_completion *dpa_comp)
{
	SDOCA_CHECK_ARG(dpa_comp);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t
doca_dpa_completion_get_queue_size(struct doca_dpa_completion *dpa_comp, unsigned int *queue_size)
{
	SDOCA_CHECK_ARG(dpa_comp);
	SDOCA_CHECK_ARG(queue_size);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_completion_set_thread(struct doca_dpa_completion *dpa_comp,
                                                              struct doca_dpa_thread *dpa_thread)
{
	SDOCA_CHECK_ARG(dpa_comp);
	SDOCA_CHECK_ARG(dpa_thread);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_completion_get_thread(struct doca_dpa_completion *dpa_comp,
                                                              struct doca_dpa_thread **dpa_thread)
{
	SDOCA_CHECK_ARG(dpa_comp);
	SDOCA_CHECK_ARG(dpa_thread);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_completion_start(struct doca_dpa_completion *dpa_comp)
{
	SDOCA_CHECK_ARG(dpa_comp);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_completion_stop(struct doca_dpa_completion *dpa_comp)
{
	SDOCA_CHECK_ARG(dpa_comp);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_completion_get_dpa_handle(
        struct doca_dpa_completion *dpa_comp, doca_dpa_dev_completion_t *handle)
{
	SDOCA_CHECK_ARG(dpa_comp);
	SDOCA_CHECK_ARG(handle);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_async_ops_create(struct doca_dpa *dpa,
                                                         unsigned int queue_size,
                                                         uint64_t user_data,
                                                         struct doca_dpa_async_ops **async_ops)
{
	(void)queue_size;
	(void)user_data;
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(async_ops);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_async_ops_destroy(struct doca_dpa_async_ops *async_ops)
{
	SDOCA_CHECK_ARG(async_ops);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t
doca_dpa_async_ops_get_queue_size(struct doca_dpa_async_ops *async_ops, unsigned int *queue_size)
{
	SDOCA_CHECK_ARG(async_ops);
	SDOCA_CHECK_ARG(queue_size);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t
doca_dpa_async_ops_get_user_data(struct doca_dpa_async_ops *async_ops, uint64_t *user_data)
{
	SDOCA_CHECK_ARG(async_ops);
	SDOCA_CHECK_ARG(user_data);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_async_ops_attach(struct doca_dpa_async_ops *async_ops,
                                                         struct doca_dpa_completion *dpa_comp)
{
	SDOCA_CHECK_ARG(async_ops);
	SDOCA_CHECK_ARG(dpa_comp);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_async_ops_start(struct doca_dpa_async_ops *async_ops)
{
	SDOCA_CHECK_ARG(async_ops);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_async_ops_stop(struct doca_dpa_async_ops *async_ops)
{
	SDOCA_CHECK_ARG(async_ops);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_async_ops_get_dpa_handle(
        struct doca_dpa_async_ops *async_ops, doca_dpa_dev_async_ops_t *handle)
{
	SDOCA_CHECK_ARG(async_ops);
	SDOCA_CHECK_ARG(handle);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t
doca_dpa_notification_completion_create(struct doca_dpa *dpa, struct doca_dpa_thread *dpa_thread,
                                        struct doca_dpa_notification_completion **notify_comp)
{
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(dpa_thread);
	SDOCA_CHECK_ARG(notify_comp);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t
doca_dpa_notification_completion_destroy(struct doca_dpa_notification_completion *notify_comp)
{
	SDOCA_CHECK_ARG(notify_comp);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_notification_completion_get_thread(
        struct doca_dpa_notification_completion *notify_comp, struct doca_dpa_thread **dpa_thread)
{
	SDOCA_CHECK_ARG(notify_comp);
	SDOCA_CHECK_ARG(dpa_thread);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t
doca_dpa_notification_completion_start(struct doca_dpa_notification_completion *notify_comp)
{
	SDOCA_CHECK_ARG(notify_comp);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t
doca_dpa_notification_completion_stop(struct doca_dpa_notification_completion *notify_comp)
{
	SDOCA_CHECK_ARG(notify_comp);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_notification_completion_get_dpa_handle(
        struct doca_dpa_notification_completion *notify_comp,
        doca_dpa_dev_notification_completion_t *handle)
{
	SDOCA_CHECK_ARG(notify_comp);
	SDOCA_CHECK_ARG(handle);
	SDOCA_NOT_SUPPORTED(NO_DPA);
}
