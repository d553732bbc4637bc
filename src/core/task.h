/*
 * The unchecked steps of a task's life, inline: doca_task_* (task.c) check
 * their arguments and states, then take these steps; the DOCA 2.2 jobs, whose
 * doca_workq_submit() checks once what they need, take them directly so that
 * a job costs what a 3.x task costs.
 */
#ifndef SDOCA_CORE_TASK_H_
#define SDOCA_CORE_TASK_H_

#include "core/ctx.h"
#include "core/pe.h"

/* A free task of the pool, now the caller's; NULL when all are in use. */
static inline struct doca_task *sdoca_task_take(struct doca_ctx *ctx, struct sdoca_task_pool *pool,
                                                union doca_data user_data)
{
	struct doca_task *t = pool->free;

	if (!t)
		return NULL;
	pool->free = t->next;
	pool->allocated++;
	ctx->allocated++;
	t->next = NULL;
	t->qnext = NULL;
	t->user_data = user_data;
	t->status = DOCA_SUCCESS;
	t->state = SDOCA_TASK_ALLOCATED;
	t->free_requested = false;
	return t;
}

/* Back to its pool's free list. */
static inline void sdoca_task_give_back(struct doca_task *task)
{
	struct sdoca_task_pool *pool = task->pool;

	task->state = SDOCA_TASK_FREE;
	task->free_requested = false;
	task->next = pool->free;
	pool->free = task;
	pool->allocated--;
	task->ctx->allocated--;
}

/* Counted before the library sees it: its service thread may complete it at once. */
static inline void sdoca_task_submitting(struct doca_task *task)
{
	struct doca_ctx *ctx = task->ctx;

	task->state = SDOCA_TASK_SUBMITTED;
	task->status = DOCA_SUCCESS;
	task->free_requested = false;
	ctx->inflight++;
	ctx->pe->inflight++;
}

/* The library refused it: the caller's again. */
static inline void sdoca_task_not_submitted(struct doca_task *task)
{
	struct doca_ctx *ctx = task->ctx;

	task->state = SDOCA_TASK_ALLOCATED;
	ctx->inflight--;
	ctx->pe->inflight--;
}

#endif /* SDOCA_CORE_TASK_H_ */
