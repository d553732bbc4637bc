/*
 * doca_pe: progress, completion callbacks and the notification handle.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "core/ctx.h"
#include "core/faults.h"
#include "core/pe.h"
#include "core/sdk_log.h"
#include "core/task.h"

SDOCA_LOG_MODULE(pe);

DOCA_STABLE doca_error_t doca_pe_create(struct doca_pe **pe)
{
	struct doca_pe *p;

	if (!sdoca_arg_valid(pe))
		return DOCA_ERROR_INVALID_VALUE;
	if (sdoca_faults_env_check("doca_pe_create") != DOCA_SUCCESS)
		return DOCA_ERROR_INVALID_VALUE;
	p = calloc(1, sizeof(*p));
	if (!p)
		return DOCA_ERROR_NO_MEMORY;
	p->event_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (p->event_fd < 0) {
		int err = errno;

		free(p);
		return sdoca_fail(DOCA_ERROR_OPERATING_SYSTEM, "doca_pe_create: eventfd failed: %s",
		                  strerror(err));
	}
	p->event_mode = DOCA_PE_EVENT_MODE_PROGRESS_SELECTIVE;
	*pe = p;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_pe_destroy(struct doca_pe *pe)
{
	if (!sdoca_arg_valid(pe))
		return DOCA_ERROR_INVALID_VALUE;
	if (!LIST_EMPTY(&pe->ctxs))
		return sdoca_fail(
		        DOCA_ERROR_IN_USE,
		        "doca_pe_destroy: contexts are still connected; destroy them first");
	close(pe->event_fd);
	free(pe);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_pe_connect_ctx(struct doca_pe *pe, struct doca_ctx *ctx)
{
	if (!sdoca_arg_valid(pe) || !sdoca_arg_valid(ctx))
		return DOCA_ERROR_INVALID_VALUE;
	if (ctx->state != DOCA_CTX_STATE_IDLE)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "doca_pe_connect_ctx: context is not IDLE");
	if (ctx->pe)
		return sdoca_fail(
		        DOCA_ERROR_NOT_PERMITTED,
		        "doca_pe_connect_ctx: context is already connected to a progress engine");
	ctx->pe = pe;
	LIST_INSERT_HEAD(&pe->ctxs, ctx, pe_link);
	return DOCA_SUCCESS;
}

static void signal_event(struct doca_pe *pe)
{
	uint64_t one = 1;

	/* Only the failure to write matters, and then the fd is already readable. */
	if (write(pe->event_fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		SDOCA_ERR("notification eventfd write failed: %s", strerror(errno));
}

void sdoca_pe_wake(struct doca_pe *pe)
{
	/* Loaded first (sequentially consistent, against the arming side's store
	 * then has_work()): a locked exchange per completion costs the common
	 * case otherwise, and the PE is rarely armed while it completes. */
	if (atomic_load(&pe->armed) && atomic_exchange(&pe->armed, false))
		signal_event(pe);
}

void sdoca_pe_push(struct doca_pe *pe, struct doca_task *task)
{
	struct doca_task *head = atomic_load_explicit(&pe->completed, memory_order_relaxed);

	/* Sequentially consistent: ordered before the load of armed below. */
	do
		task->next = head;
	while (!atomic_compare_exchange_weak(&pe->completed, &head, task));
	sdoca_pe_wake(pe);
}

/* Every completed task, oldest first (the order they completed in, which
 * keeps each connection's order). One locked instruction when there are
 * some, none when there are none. */
static struct doca_task *take_completions(struct doca_pe *pe)
{
	struct doca_task *list, *oldest_first = NULL;

	if (!atomic_load_explicit(&pe->completed, memory_order_relaxed))
		return NULL;
	list = atomic_exchange_explicit(&pe->completed, NULL, memory_order_acquire);
	while (list) {
		struct doca_task *next = list->next;

		list->next = oldest_first;
		oldest_first = list;
		list = next;
	}
	return oldest_first;
}

static void run_event(struct doca_task *task)
{
	struct sdoca_event *event = sdoca_container_of(task, struct sdoca_event, task);
	struct doca_ctx *ctx = task->ctx;

	event->run(event);
	atomic_fetch_sub(&ctx->events, 1);
}

static void run_callback(struct doca_pe *pe, struct doca_task *task)
{
	struct doca_ctx *ctx = task->ctx;
	struct sdoca_task_pool *pool = task->pool;
	sdoca_generic_cb_t cb;

	if (SDOCA_UNLIKELY(!pool)) {
		run_event(task);
		return;
	}
	cb = task->status == DOCA_SUCCESS ? pool->success_cb : pool->error_cb;
	ctx->inflight--;
	pe->inflight--;
	task->state = SDOCA_TASK_ALLOCATED; /* the application owns it again */
	pool->type->invoke(cb, task, task->user_data, ctx->user_data);
	/* Freed while submitted (doca_task_free logged it) and not taken back
	 * by its callback: freed now, so that the context can still stop. */
	if (SDOCA_UNLIKELY(task->free_requested) && task->state == SDOCA_TASK_ALLOCATED)
		sdoca_task_give_back(task);
}

/* Tested on every poll with a plain load, inline: a locked exchange per poll
 * costs the polling loop more than the rest of it, and a call per poll
 * ~20 instructions. */
static inline bool wants_advance(struct doca_pe *pe)
{
	return atomic_load_explicit(&pe->attention, memory_order_relaxed) || pe->num_stopping != 0;
}

/* Called when wants_advance(); whatever raises attention again meanwhile is
 * seen at the next poll. */
static bool advance_contexts(struct doca_pe *pe)
{
	bool progressed = false;

	atomic_store(&pe->attention, false);
	for (struct doca_ctx *ctx = LIST_FIRST(&pe->ctxs), *next; ctx; ctx = next) {
		next = LIST_NEXT(ctx, pe_link); /* ctx may leave the PE meanwhile */
		progressed |= sdoca_ctx_advance(ctx);
	}
	return progressed;
}

DOCA_STABLE uint8_t doca_pe_progress(struct doca_pe *pe)
{
	bool progressed = false;
	struct doca_task *list;

	if (!pe) {
		SDOCA_ERR("doca_pe_progress: pe is NULL");
		return 0;
	}
	if (pe->in_progress) {
		SDOCA_ERR(
		        "doca_pe_progress must not be called from a completion or state callback");
		return 0;
	}
	pe->in_progress = true;
	pe->progress_count++;
	for (struct doca_ctx *ctx = LIST_FIRST(&pe->ctxs), *next; ctx; ctx = next) {
		next = LIST_NEXT(ctx, pe_link); /* ctx may leave the PE meanwhile */
		if (ctx->ops->progress && ctx->state != DOCA_CTX_STATE_IDLE)
			progressed |= ctx->ops->progress(ctx);
	}
	/* Failures first, so an error callback already sees its context STOPPING. */
	if (wants_advance(pe))
		progressed |= advance_contexts(pe);
	list = take_completions(pe);
	while (list) {
		struct doca_task *task = list;

		list = task->next;
		run_callback(pe, task);
		progressed = true;
	}
	if (wants_advance(pe))
		progressed |= advance_contexts(pe);
	pe->in_progress = false;
	return progressed ? 1 : 0;
}

DOCA_STABLE doca_error_t doca_pe_get_notification_handle(const struct doca_pe *pe,
                                                         doca_notification_handle_t *handle)
{
	if (!sdoca_arg_valid(pe) || !sdoca_arg_valid(handle))
		return DOCA_ERROR_INVALID_VALUE;
	*handle = pe->event_fd;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_pe_set_notification_handle(struct doca_pe *pe,
                                                         doca_notification_handle_t handle,
                                                         union doca_data completion_key)
{
	(void)handle;
	(void)completion_key;
	if (!sdoca_arg_valid(pe))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED("setting the notification handle is a Windows (IO completion port) "
	                        "call; on Linux use doca_pe_get_notification_handle");
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* Whether doca_pe_progress() has something to do right now. */
static bool has_work(struct doca_pe *pe)
{
	if (atomic_load(&pe->completed) || atomic_load(&pe->attention))
		return true;
	for (struct doca_ctx *ctx = LIST_FIRST(&pe->ctxs); ctx; ctx = LIST_NEXT(ctx, pe_link))
		if (ctx->state == DOCA_CTX_STATE_STOPPING && ctx->inflight == 0 &&
		    ctx->allocated == 0)
			return true;
	return false;
}

DOCA_STABLE doca_error_t doca_pe_request_notification(struct doca_pe *pe)
{
	if (!sdoca_arg_valid(pe))
		return DOCA_ERROR_INVALID_VALUE;
	if (pe->event_mode == DOCA_PE_EVENT_MODE_PROGRESS_ALL)
		(void)doca_pe_clear_notification(pe, pe->event_fd);
	for (struct doca_ctx *ctx = LIST_FIRST(&pe->ctxs); ctx; ctx = LIST_NEXT(ctx, pe_link))
		if (ctx->ops->request_notification && ctx->state != DOCA_CTX_STATE_IDLE)
			ctx->ops->request_notification(ctx);
	atomic_store(&pe->armed, true);
	/* Work that arrived before arming must not be slept through. */
	if (has_work(pe))
		sdoca_pe_wake(pe);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_pe_clear_notification(struct doca_pe *pe,
                                                    doca_notification_handle_t handle)
{
	uint64_t count;

	(void)handle;
	if (!sdoca_arg_valid(pe))
		return DOCA_ERROR_INVALID_VALUE;
	if (read(pe->event_fd, &count, sizeof(count)) < 0 && errno != EAGAIN)
		return sdoca_fail(DOCA_ERROR_OPERATING_SYSTEM,
		                  "doca_pe_clear_notification: read failed: %s", strerror(errno));
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_pe_get_num_inflight_tasks(const struct doca_pe *pe,
                                                        size_t *num_inflight_tasks)
{
	if (!sdoca_arg_valid(pe) || !sdoca_arg_valid(num_inflight_tasks))
		return DOCA_ERROR_INVALID_VALUE;
	*num_inflight_tasks = pe->inflight;
	return DOCA_SUCCESS;
}

/* softdoca always progresses every connected context, which satisfies both modes. */
DOCA_EXPERIMENTAL doca_error_t doca_pe_set_event_mode(struct doca_pe *pe,
                                                      enum doca_pe_event_mode event_mode)
{
	if (!sdoca_arg_valid(pe))
		return DOCA_ERROR_INVALID_VALUE;
	if (event_mode != DOCA_PE_EVENT_MODE_PROGRESS_SELECTIVE &&
	    event_mode != DOCA_PE_EVENT_MODE_PROGRESS_ALL)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "doca_pe_set_event_mode: unknown mode %d", (int)event_mode);
	if (pe->in_progress)
		return sdoca_fail(
		        DOCA_ERROR_BAD_STATE,
		        "doca_pe_set_event_mode: not allowed inside a completion callback");
	pe->event_mode = event_mode;
	return DOCA_SUCCESS;
}
