/*
 * doca_task: pools, submission and completion, once for every task type.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * A task is owned by the application while ALLOCATED and by the library
 * while SUBMITTED; sdoca_task_complete() queues it on its PE, and the
 * callback that runs in doca_pe_progress() hands it back.
 */
#include <stdlib.h>

#include "core/ctx.h"
#include "core/faults.h"
#include "core/pe.h"
#include "core/task.h"
#include "core/task_batch.h"
#include "core/sdk_log.h"

SDOCA_LOG_MODULE(task);

#define TASK_POOL_MAX (1u << 22)

static struct doca_task *pool_task(struct sdoca_task_pool *pool, uint32_t i)
{
	return (struct doca_task *)(void *)(pool->objects + (size_t)i * pool->type->size);
}

/* (Re)creates a pool's tasks; the caller checked the context's state. */
static doca_error_t pool_setup(struct doca_ctx *ctx, struct sdoca_task_pool *pool,
                               const struct sdoca_task_type *type, sdoca_generic_cb_t success_cb,
                               sdoca_generic_cb_t error_cb, uint32_t num_tasks)
{
	uint8_t *objects;
	uint32_t i;

	if (num_tasks == 0 || num_tasks > TASK_POOL_MAX)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "%s task configuration: num_tasks must be 1..%u, not %u",
		                  type->name, TASK_POOL_MAX, num_tasks);
	if (pool->allocated > 0)
		return sdoca_fail(DOCA_ERROR_IN_USE,
		                  "%s task configuration: %u task(s) of this type are not freed",
		                  type->name, pool->allocated);
	objects = calloc(num_tasks, type->size);
	if (!objects)
		return DOCA_ERROR_NO_MEMORY;

	for (i = 0; i < ctx->num_pools && ctx->pools[i] != pool; i++)
		;
	if (i == ctx->num_pools) {
		if (ctx->num_pools == SDOCA_CTX_MAX_TASK_TYPES) {
			free(objects);
			return DOCA_ERROR_FULL;
		}
		ctx->pools[ctx->num_pools++] = pool;
	}
	free(pool->objects);
	pool->type = type;
	pool->success_cb = success_cb;
	pool->error_cb = error_cb;
	pool->capacity = num_tasks;
	pool->allocated = 0;
	pool->objects = objects;
	pool->free = NULL;
	for (i = num_tasks; i-- > 0;) {
		struct doca_task *task = pool_task(pool, i);

		task->ctx = ctx;
		task->pool = pool;
		task->state = SDOCA_TASK_FREE;
		task->next = pool->free;
		pool->free = task;
	}
	return DOCA_SUCCESS;
}

SDOCA_EXPORT doca_error_t sdoca_task_pool_configure(struct doca_ctx *ctx,
                                                    struct sdoca_task_pool *pool,
                                                    const struct sdoca_task_type *type,
                                                    sdoca_generic_cb_t success_cb,
                                                    sdoca_generic_cb_t error_cb, uint32_t num_tasks)
{
	if (ctx->state != DOCA_CTX_STATE_IDLE)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "%s task configuration: context is not IDLE", type->name);
	if (!success_cb || !error_cb)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "%s task configuration: both completion callbacks are required",
		                  type->name);
	return pool_setup(ctx, pool, type, success_cb, error_cb, num_tasks);
}

SDOCA_EXPORT doca_error_t sdoca_task_pool_setup(struct doca_ctx *ctx, struct sdoca_task_pool *pool,
                                                const struct sdoca_task_type *type,
                                                uint32_t num_tasks)
{
	return pool_setup(ctx, pool, type, NULL, NULL, num_tasks);
}

SDOCA_EXPORT doca_error_t sdoca_task_alloc(struct doca_ctx *ctx, struct sdoca_task_pool *pool,
                                           union doca_data user_data, struct doca_task **task)
{
	struct doca_task *t;

	if (!pool->objects)
		return sdoca_fail(DOCA_ERROR_NOT_PERMITTED,
		                  "task allocation: this task type was not configured (call its "
		                  "*_set_conf before starting the context)");
	if (ctx->state != DOCA_CTX_STATE_RUNNING)
		return sdoca_fail(
		        DOCA_ERROR_BAD_STATE,
		        "%s task allocation: tasks can be allocated only while the context is "
		        "RUNNING",
		        pool->type->name);
	if (SDOCA_UNLIKELY(atomic_load_explicit(&sdoca_faults_process, memory_order_relaxed))) {
		doca_error_t status =
		        sdoca_faults_process_call(SDOCA_FAULT_FAIL_ALLOC, "a task allocation");

		if (status != DOCA_SUCCESS)
			return status;
	}
	t = sdoca_task_take(ctx, pool, user_data);
	if (!t) {
		SDOCA_DBG("%s task pool exhausted (%u tasks)", pool->type->name, pool->capacity);
		return DOCA_ERROR_NO_MEMORY;
	}
	*task = t;
	return DOCA_SUCCESS;
}

/* DOCA: "a task can be freed ... as long as it is not submitted", and every
 * task must be freed for its context to stop; doca_task_free() returns
 * nothing. A submitted task is therefore not freed under the library's feet
 * but once its callback ran (which still tells the program how it ended),
 * so that a stop never waits for it. */
DOCA_STABLE void doca_task_free(struct doca_task *task)
{
	if (!task) {
		SDOCA_ERR("doca_task_free: task is NULL");
		return;
	}
	switch (task->state) {
	case SDOCA_TASK_ALLOCATED:
		sdoca_task_give_back(task);
		return;
	case SDOCA_TASK_FREE:
		SDOCA_ERR("doca_task_free: task %p is already freed", (void *)task);
		return;
	default:
		if (!task->free_requested)
			SDOCA_ERR("doca_task_free: %s task %p is still submitted (DOCA frees only "
			          "a task the program owns); it is freed after its completion "
			          "callback",
			          task->pool ? task->pool->type->name : "?", (void *)task);
		task->free_requested = true;
		return;
	}
}

static doca_error_t submit(struct doca_task *task)
{
	struct doca_ctx *ctx;
	doca_error_t status;

	if (!sdoca_arg_valid(task))
		return DOCA_ERROR_INVALID_VALUE;
	if (task->state != SDOCA_TASK_ALLOCATED)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "doca_task_submit: task %p is %s",
		                  (void *)task,
		                  task->state == SDOCA_TASK_FREE ? "freed" : "already submitted");
	ctx = task->ctx;
	if (ctx->state != DOCA_CTX_STATE_RUNNING)
		return sdoca_fail(
		        DOCA_ERROR_BAD_STATE,
		        "doca_task_submit: %s tasks can be submitted only while the context is "
		        "RUNNING",
		        task->pool->type->name);
	if (SDOCA_UNLIKELY(atomic_load_explicit(&sdoca_faults_process, memory_order_relaxed))) {
		status = sdoca_faults_process_call(SDOCA_FAULT_FAIL_SUBMIT, "doca_task_submit");
		if (status != DOCA_SUCCESS)
			return status;
	}
	sdoca_task_submitting(task);
	status = task->pool->type->submit(task);
	if (status != DOCA_SUCCESS)
		sdoca_task_not_submitted(task);
	return status;
}

DOCA_STABLE doca_error_t doca_task_submit(struct doca_task *task)
{
	return submit(task);
}

DOCA_STABLE doca_error_t doca_task_try_submit(struct doca_task *task)
{
	return submit(task);
}

DOCA_EXPERIMENTAL doca_error_t doca_task_submit_ex(struct doca_task *task, uint32_t flags)
{
	const uint32_t known = DOCA_TASK_SUBMIT_FLAG_FLUSH | DOCA_TASK_SUBMIT_FLAG_OPTIMIZE_REPORTS;

	if (flags & ~known)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "doca_task_submit_ex: unknown flags 0x%x", flags & ~known);
	return submit(task);
}

SDOCA_EXPORT void sdoca_task_complete(struct doca_task *task, doca_error_t status)
{
	task->status = status;
	task->state = SDOCA_TASK_COMPLETED;
	sdoca_pe_push(task->ctx->pe, task);
}

DOCA_STABLE doca_error_t doca_task_get_status(const struct doca_task *task)
{
	if (!sdoca_arg_valid(task))
		return DOCA_ERROR_INVALID_VALUE;
	return task->status;
}

DOCA_STABLE void doca_task_set_user_data(struct doca_task *task, union doca_data user_data)
{
	if (task)
		task->user_data = user_data;
}

DOCA_STABLE union doca_data doca_task_get_user_data(const struct doca_task *task)
{
	union doca_data none = { .u64 = 0 };

	return task ? task->user_data : none;
}

DOCA_STABLE struct doca_ctx *doca_task_get_ctx(const struct doca_task *task)
{
	return task ? task->ctx : NULL;
}

/* Task batches (core/task_batch.h): a batch is a task of its library's batch
 * pool, so these are the task calls on its embedded task. */

DOCA_EXPERIMENTAL doca_error_t doca_task_batch_submit(struct doca_task_batch *task_batch)
{
	if (!sdoca_arg_valid(task_batch))
		return DOCA_ERROR_INVALID_VALUE;
	return submit(&task_batch->task);
}

/* Every submission checks the batch's tasks before any is posted. */
DOCA_EXPERIMENTAL doca_error_t doca_task_batch_try_submit(struct doca_task_batch *task_batch)
{
	if (!sdoca_arg_valid(task_batch))
		return DOCA_ERROR_INVALID_VALUE;
	return submit(&task_batch->task);
}

DOCA_EXPERIMENTAL void doca_task_batch_free(struct doca_task_batch *task_batch)
{
	if (!task_batch) {
		SDOCA_ERR("doca_task_batch_free: task_batch is NULL");
		return;
	}
	doca_task_free(&task_batch->task);
}

DOCA_EXPERIMENTAL doca_error_t doca_task_batch_get_status(const struct doca_task_batch *task_batch)
{
	if (!sdoca_arg_valid(task_batch))
		return DOCA_ERROR_INVALID_VALUE;
	return task_batch->task.status;
}

DOCA_EXPERIMENTAL void doca_task_batch_set_user_data(struct doca_task_batch *task_batch,
                                                     union doca_data user_data)
{
	if (task_batch)
		task_batch->task.user_data = user_data;
}

DOCA_EXPERIMENTAL union doca_data
doca_task_batch_get_user_data(const struct doca_task_batch *task_batch)
{
	union doca_data none = { .u64 = 0 };

	return task_batch ? task_batch->task.user_data : none;
}

DOCA_EXPERIMENTAL struct doca_ctx *doca_task_batch_get_ctx(const struct doca_task_batch *task_batch)
{
	return task_batch ? task_batch->task.ctx : NULL;
}

DOCA_EXPERIMENTAL union doca_data
doca_task_batch_get_ctx_user_data(const struct doca_task_batch *task_batch)
{
	union doca_data none = { .u64 = 0 };

	return task_batch ? task_batch->task.ctx->user_data : none;
}

DOCA_EXPERIMENTAL uint16_t doca_task_batch_get_tasks_num(struct doca_task_batch *task_batch)
{
	return task_batch ? task_batch->tasks_num : 0;
}
