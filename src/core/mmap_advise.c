/*
 * doca_mmap_advise: the context whose task invalidates cached lines.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * doca_mmap_advise: a context whose task invalidates the cached lines of a
 * buffer. On a BlueField the NIC caches memory it reads; a softdoca device
 * reads memory through the CPU, whose caches are coherent, so there is
 * nothing stale to drop. The task still lives a task's whole life - pool,
 * allocate, submit on a RUNNING context, completion callback with SUCCESS
 * from doca_pe_progress(), free - so programs written for the hardware run
 * unchanged; its one action is a full memory fence, the CPU's nearest
 * equivalent (what was written before the submit is ordered before what the
 * callback reads).
 */
#include <stdlib.h>

#include <doca_mmap_advise.h>

#include "core/buf.h"
#include "core/ctx.h"
#include "core/dev.h"
#include "core/mmap.h"
#include "core/sdk_log.h"

SDOCA_LOG_MODULE(mmap_advise);

/* The largest buffer one task takes: as an RDMA message (2 GiB). */
#define INVALIDATE_MAX_BUF_SIZE (UINT64_C(1) << 31)

struct doca_mmap_advise {
	struct doca_ctx ctx;
	struct sdoca_task_pool invalidate;
};

struct doca_mmap_advise_task_invalidate_cache {
	struct doca_task base;
	struct doca_buf *buf;
};

static struct doca_mmap_advise_task_invalidate_cache *to_task(struct doca_task *task)
{
	return sdoca_container_of(task, struct doca_mmap_advise_task_invalidate_cache, base);
}

static doca_error_t submit_invalidate(struct doca_task *task)
{
	const struct doca_buf *buf = to_task(task)->buf;

	if (!buf)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "cache invalidate task has no buffer");
	if (buf->mmap->from_export)
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "cache invalidate: the buffer comes from a remote (imported) mmap");
	if (buf->len > INVALIDATE_MAX_BUF_SIZE)
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "cache invalidate: a buffer of %zu bytes exceeds the maximum of %llu",
		        buf->len, (unsigned long long)INVALIDATE_MAX_BUF_SIZE);
	atomic_thread_fence(memory_order_seq_cst);
	sdoca_task_complete(task, DOCA_SUCCESS);
	return DOCA_SUCCESS;
}

SDOCA_TASK_INVOKER(invoke_invalidate, struct doca_mmap_advise_task_invalidate_cache, base,
                   doca_mmap_advise_task_invalidate_cache_completion_cb_t)

static const struct sdoca_task_type invalidate_type = {
	.name = "mmap advise cache invalidate",
	.size = sizeof(struct doca_mmap_advise_task_invalidate_cache),
	.invoke = invoke_invalidate,
	.submit = submit_invalidate,
};

/* Tasks complete at submit: nothing is ever left to flush. */
static doca_error_t advise_start(struct doca_ctx *ctx, enum sdoca_start *how)
{
	(void)ctx;
	*how = SDOCA_START_DONE;
	return DOCA_SUCCESS;
}

static const struct sdoca_ctx_ops advise_ops = {
	.name = "mmap advise",
	.start = advise_start,
};

DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_create(struct doca_dev *dev,
                                                       struct doca_mmap_advise **mmap_advise)
{
	struct doca_mmap_advise *advise;

	if (!sdoca_arg_valid(dev) || !sdoca_arg_valid(mmap_advise))
		return DOCA_ERROR_INVALID_VALUE;
	advise = calloc(1, sizeof(*advise));
	if (!advise)
		return DOCA_ERROR_NO_MEMORY;
	sdoca_ctx_init(&advise->ctx, &advise_ops, dev);
	*mmap_advise = advise;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_destroy(struct doca_mmap_advise *mmap_advise)
{
	doca_error_t status;

	if (!sdoca_arg_valid(mmap_advise))
		return DOCA_ERROR_INVALID_VALUE;
	status = sdoca_ctx_fini(&mmap_advise->ctx);
	if (status != DOCA_SUCCESS)
		return status;
	free(mmap_advise);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL struct doca_ctx *doca_mmap_advise_as_ctx(struct doca_mmap_advise *mmap_advise)
{
	return mmap_advise ? &mmap_advise->ctx : NULL;
}

DOCA_EXPERIMENTAL doca_error_t
doca_mmap_advise_cap_task_cache_invalidate_is_supported(const struct doca_devinfo *devinfo)
{
	if (!sdoca_arg_valid(devinfo))
		return DOCA_ERROR_INVALID_VALUE;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_task_cache_invalidate_get_max_buf_size(
        const struct doca_devinfo *devinfo, uint64_t *buf_size)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(buf_size))
		return DOCA_ERROR_INVALID_VALUE;
	*buf_size = INVALIDATE_MAX_BUF_SIZE;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_task_invalidate_cache_set_conf(
        struct doca_mmap_advise *mmap_advise,
        doca_mmap_advise_task_invalidate_cache_completion_cb_t completion_cb,
        doca_mmap_advise_task_invalidate_cache_completion_cb_t error_cb, uint32_t num_tasks)
{
	if (!sdoca_arg_valid(mmap_advise))
		return DOCA_ERROR_INVALID_VALUE;
	return sdoca_task_pool_configure(&mmap_advise->ctx, &mmap_advise->invalidate,
	                                 &invalidate_type, (sdoca_generic_cb_t)completion_cb,
	                                 (sdoca_generic_cb_t)error_cb, num_tasks);
}

DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_task_invalidate_cache_alloc_init(
        struct doca_mmap_advise *mmap_advise, struct doca_buf *buf, union doca_data user_data,
        struct doca_mmap_advise_task_invalidate_cache **task)
{
	struct doca_task *t;
	doca_error_t status;

	if (!sdoca_arg_valid(mmap_advise) || !sdoca_arg_valid(buf) || !sdoca_arg_valid(task))
		return DOCA_ERROR_INVALID_VALUE;
	status = sdoca_task_alloc(&mmap_advise->ctx, &mmap_advise->invalidate, user_data, &t);
	if (status != DOCA_SUCCESS)
		return status;
	*task = to_task(t);
	(*task)->buf = buf;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL struct doca_task *doca_mmap_advise_task_invalidate_cache_as_doca_task(
        struct doca_mmap_advise_task_invalidate_cache *task)
{
	return task ? &task->base : NULL;
}

/* Setters and getters trust the task, as DOCA's do. */
DOCA_EXPERIMENTAL void
doca_mmap_advise_task_invalidate_cache_set_buf(struct doca_mmap_advise_task_invalidate_cache *task,
                                               struct doca_buf *buf)
{
	task->buf = buf;
}

DOCA_EXPERIMENTAL struct doca_buf *doca_mmap_advise_task_invalidate_cache_get_buf(
        const struct doca_mmap_advise_task_invalidate_cache *task)
{
	return task->buf;
}
