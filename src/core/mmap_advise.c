/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * doca_mmap_advise. Cache invalidation is a BlueField DPU-mode feature; a
 * softdoca device has no NIC cache to invalidate. The device queries answer
 * NOT_SUPPORTED, no context can be created, and the calls on contexts and
 * tasks that cannot exist answer NOT_SUPPORTED, NULL or nothing.
 */
#include <stddef.h>

#include <doca_mmap_advise.h>

#include "core/sdk_log.h"

SDOCA_LOG_MODULE(mmap_advise);

#define NO_CACHE "a softdoca device has no NIC cache to invalidate (a BlueField DPU-mode feature)"

/* Contexts and tasks that cannot exist: their setters and getters are still
 * defined for programs that link them. */
#define UNREACHABLE_OBJECT() SDOCA_LOG_ONCE(DOCA_LOG_LEVEL_WARNING, "%s: %s", __func__, NO_CACHE)

DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_create(struct doca_dev *dev,
                                                       struct doca_mmap_advise **mmap_advise)
{
	SDOCA_CHECK_ARG(dev);
	SDOCA_CHECK_ARG(mmap_advise);
	SDOCA_NOT_SUPPORTED(NO_CACHE);
}

DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_destroy(struct doca_mmap_advise *mmap_advise)
{
	SDOCA_CHECK_ARG(mmap_advise);
	SDOCA_NOT_SUPPORTED(NO_CACHE);
}

DOCA_EXPERIMENTAL struct doca_ctx *doca_mmap_advise_as_ctx(struct doca_mmap_advise *mmap_advise)
{
	(void)mmap_advise;
	UNREACHABLE_OBJECT();
	return NULL;
}

DOCA_EXPERIMENTAL doca_error_t
doca_mmap_advise_cap_task_cache_invalidate_is_supported(const struct doca_devinfo *devinfo)
{
	SDOCA_CHECK_ARG(devinfo);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_task_cache_invalidate_get_max_buf_size(
        const struct doca_devinfo *devinfo, uint64_t *buf_size)
{
	SDOCA_CHECK_ARG(devinfo);
	SDOCA_CHECK_ARG(buf_size);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_task_invalidate_cache_set_conf(
        struct doca_mmap_advise *mmap_advise,
        doca_mmap_advise_task_invalidate_cache_completion_cb_t completion_cb,
        doca_mmap_advise_task_invalidate_cache_completion_cb_t error_cb, uint32_t num_tasks)
{
	(void)completion_cb;
	(void)error_cb;
	(void)num_tasks;
	SDOCA_CHECK_ARG(mmap_advise);
	SDOCA_NOT_SUPPORTED(NO_CACHE);
}

DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_task_invalidate_cache_alloc_init(
        struct doca_mmap_advise *mmap_advise, struct doca_buf *buf, union doca_data user_data,
        struct doca_mmap_advise_task_invalidate_cache **task)
{
	(void)user_data;
	SDOCA_CHECK_ARG(mmap_advise);
	SDOCA_CHECK_ARG(buf);
	SDOCA_CHECK_ARG(task);
	SDOCA_NOT_SUPPORTED(NO_CACHE);
}

DOCA_EXPERIMENTAL struct doca_task *doca_mmap_advise_task_invalidate_cache_as_doca_task(
        struct doca_mmap_advise_task_invalidate_cache *task)
{
	(void)task;
	UNREACHABLE_OBJECT();
	return NULL;
}

DOCA_EXPERIMENTAL void
doca_mmap_advise_task_invalidate_cache_set_buf(struct doca_mmap_advise_task_invalidate_cache *task,
                                               struct doca_buf *buf)
{
	(void)task;
	(void)buf;
	UNREACHABLE_OBJECT();
}

DOCA_EXPERIMENTAL struct doca_buf *doca_mmap_advise_task_invalidate_cache_get_buf(
        const struct doca_mmap_advise_task_invalidate_cache *task)
{
	(void)task;
	UNREACHABLE_OBJECT();
	return NULL;
}
