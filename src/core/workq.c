/*
 * doca_workq, DOCA 2.2's way to run jobs, over the progress engine.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * A job becomes a task of its context (the library's sdoca_job_ops turn one
 * into the other); the context's PE (one softdoca made at the 2.2
 * doca_ctx_start) completes it, and the completion is queued here, in
 * completion order, until doca_workq_progress_retrieve() hands it out as an
 * event. Retrieve progresses the PEs only when nothing is queued. The event
 * handle is an epoll instance holding the PEs' notification eventfds and one
 * of the work queue's own (results already queued when armed): it becomes
 * readable when a result is ready, and a waiting program uses no CPU.
 *
 * Built with the DOCA 2.2 headers (struct doca_job, struct doca_event).
 */
#define SOFTDOCA_API_VERSION 202

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "core/ctx.h"
#include "core/dev.h"
#include "core/pe.h"
#include "core/sdk_log.h"

SDOCA_LOG_MODULE(workq);

/* doca_pe.h declares these for DOCA 2.5+ programs only. */
uint8_t doca_pe_progress(struct doca_pe *pe);
doca_error_t doca_pe_request_notification(struct doca_pe *pe);
doca_error_t doca_pe_clear_notification(struct doca_pe *pe, doca_notification_handle_t handle);

#define WORKQ_MAX_DEPTH (1u << 22)

struct doca_workq {
	uint32_t depth;
	uint32_t inflight; /* submitted, event not yet retrieved */
	/* Completed jobs' tasks waiting to be retrieved, oldest first: a ring
	 * of `depth` (no more can be in flight). */
	struct doca_task **done;
	uint32_t done_head;
	uint32_t done_count;
	bool event_driven;
	int epoll_fd; /* the event handle */
	int ready_fd; /* readable while armed with results queued */
	LIST_HEAD(, doca_ctx) ctxs;
};

DOCA_EXPERIMENTAL doca_error_t doca_workq_create(uint32_t depth, struct doca_workq **workq)
{
	struct doca_workq *wq;

	if (!sdoca_arg_valid(workq) || !sdoca_arg_valid(depth > 0 && depth <= WORKQ_MAX_DEPTH))
		return DOCA_ERROR_INVALID_VALUE;
	wq = calloc(1, sizeof(*wq));
	if (!wq)
		return DOCA_ERROR_NO_MEMORY;
	wq->done = calloc(depth, sizeof(*wq->done));
	if (!wq->done) {
		free(wq);
		return DOCA_ERROR_NO_MEMORY;
	}
	wq->depth = depth;
	wq->epoll_fd = -1;
	wq->ready_fd = -1;
	LIST_INIT(&wq->ctxs);
	*workq = wq;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_workq_destroy(struct doca_workq *workq)
{
	if (!sdoca_arg_valid(workq))
		return DOCA_ERROR_INVALID_VALUE;
	if (!LIST_EMPTY(&workq->ctxs))
		return sdoca_fail(DOCA_ERROR_IN_USE,
		                  "doca_workq_destroy: the work queue is still added to a context "
		                  "(doca_ctx_workq_rm)");
	if (workq->epoll_fd >= 0)
		close(workq->epoll_fd);
	if (workq->ready_fd >= 0)
		close(workq->ready_fd);
	free(workq->done);
	free(workq);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_workq_get_depth(const struct doca_workq *workq, uint32_t *depth)
{
	if (!sdoca_arg_valid(workq) || !sdoca_arg_valid(depth))
		return DOCA_ERROR_INVALID_VALUE;
	*depth = workq->depth;
	return DOCA_SUCCESS;
}

/* --- jobs and events --- */

DOCA_EXPERIMENTAL doca_error_t doca_workq_submit(struct doca_workq *workq,
                                                 struct doca_job const *job)
{
	struct doca_ctx *ctx;
	doca_error_t status;

	if (!sdoca_arg_valid(workq) || !sdoca_arg_valid(job) || !sdoca_arg_valid(job->ctx))
		return DOCA_ERROR_INVALID_VALUE;
	ctx = job->ctx;
	if (ctx->v202.workq != workq)
		return sdoca_fail(DOCA_ERROR_NOT_FOUND,
		                  "doca_workq_submit: the job's %s context has not this work queue "
		                  "(doca_ctx_workq_add)",
		                  ctx->ops->name);
	if (ctx->state != DOCA_CTX_STATE_RUNNING || atomic_load(&ctx->failed))
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_workq_submit: the %s context is in error; stop, start and "
		                  "connect it again",
		                  ctx->ops->name);
	if (workq->inflight == workq->depth) {
		SDOCA_DBG("work queue full: %u jobs in flight", workq->depth);
		return DOCA_ERROR_NO_MEMORY;
	}
	if (job->flags != DOCA_JOB_FLAGS_NONE)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "doca_workq_submit: unknown job flags 0x%x",
		                  (unsigned int)job->flags);
	/* Counted first: a job can complete before submit returns. */
	workq->inflight++;
	ctx->v202.jobs++;
	status = ctx->ops->jobs->submit(ctx, job);
	if (status != DOCA_SUCCESS) {
		workq->inflight--;
		ctx->v202.jobs--;
	}
	return status;
}

SDOCA_EXPORT void sdoca_workq_job_done(sdoca_generic_cb_t cb, struct doca_task *task,
                                       union doca_data task_user_data,
                                       union doca_data ctx_user_data)
{
	struct doca_ctx *ctx = task->ctx;
	struct doca_workq *wq = ctx->v202.workq;
	uint32_t at = wq->done_head + wq->done_count++;

	(void)cb;
	(void)task_user_data;
	(void)ctx_user_data;
	wq->done[at < wq->depth ? at : at - wq->depth] = task;
	/* A failed job puts the instance in ERROR, as on DOCA 2.2. */
	if (task->status != DOCA_SUCCESS && ctx->state == DOCA_CTX_STATE_RUNNING)
		sdoca_ctx_fail(ctx);
}

DOCA_EXPERIMENTAL doca_error_t doca_workq_progress_retrieve(struct doca_workq *workq,
                                                            struct doca_event *ev, int flags)
{
	struct doca_task *task;
	struct doca_ctx *ctx;

	if (!sdoca_arg_valid(workq) || !sdoca_arg_valid(ev) ||
	    !sdoca_arg_valid(flags == DOCA_WORKQ_RETRIEVE_FLAGS_NONE))
		return DOCA_ERROR_INVALID_VALUE;
	if (workq->done_count == 0)
		for (ctx = LIST_FIRST(&workq->ctxs); ctx; ctx = LIST_NEXT(ctx, v202.workq_link))
			(void)doca_pe_progress(ctx->pe);
	if (workq->done_count == 0)
		return DOCA_ERROR_AGAIN;
	task = workq->done[workq->done_head];
	workq->done_head = workq->done_head + 1 == workq->depth ? 0 : workq->done_head + 1;
	workq->done_count--;
	workq->inflight--;
	ctx = task->ctx;
	ctx->v202.jobs--;
	return ctx->ops->jobs->retrieve(task, ev);
}

/* --- event-driven mode --- */

DOCA_EXPERIMENTAL doca_error_t doca_workq_set_event_driven_enable(struct doca_workq *workq,
                                                                  uint8_t enable)
{
	struct epoll_event ev = { .events = EPOLLIN };

	if (!sdoca_arg_valid(workq))
		return DOCA_ERROR_INVALID_VALUE;
	if (!LIST_EMPTY(&workq->ctxs) && workq->event_driven != (enable != 0))
		return sdoca_fail(
		        DOCA_ERROR_BAD_STATE,
		        "doca_workq_set_event_driven_enable: the work queue is added to a "
		        "context");
	if (enable && workq->epoll_fd < 0) {
		workq->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
		workq->ready_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (workq->epoll_fd < 0 || workq->ready_fd < 0 ||
		    epoll_ctl(workq->epoll_fd, EPOLL_CTL_ADD, workq->ready_fd, &ev) != 0) {
			int err = errno;

			if (workq->epoll_fd >= 0)
				close(workq->epoll_fd);
			if (workq->ready_fd >= 0)
				close(workq->ready_fd);
			workq->epoll_fd = workq->ready_fd = -1;
			return sdoca_fail(DOCA_ERROR_OPERATING_SYSTEM,
			                  "doca_workq_set_event_driven_enable: %s", strerror(err));
		}
	}
	workq->event_driven = enable != 0;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_workq_get_event_driven_enable(struct doca_workq *workq,
                                                                  uint8_t *enabled)
{
	if (!sdoca_arg_valid(workq) || !sdoca_arg_valid(enabled))
		return DOCA_ERROR_INVALID_VALUE;
	*enabled = workq->event_driven;
	return DOCA_SUCCESS;
}

/* DOCA 2.2's header also says the first call enables event-driven mode: so
 * it does while no context has the work queue. */
DOCA_EXPERIMENTAL doca_error_t doca_workq_get_event_handle(struct doca_workq *workq,
                                                           doca_event_handle_t *handle)
{
	doca_error_t status;

	if (!sdoca_arg_valid(workq) || !sdoca_arg_valid(handle))
		return DOCA_ERROR_INVALID_VALUE;
	if (!workq->event_driven) {
		status = doca_workq_set_event_driven_enable(workq, 1);
		if (status != DOCA_SUCCESS)
			return status;
	}
	*handle = workq->epoll_fd;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_workq_set_event_handle(struct doca_workq *workq,
                                                           doca_event_handle_t event_handle,
                                                           uintptr_t completion_key)
{
	(void)event_handle;
	(void)completion_key;
	if (!sdoca_arg_valid(workq))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED("a Windows call (IO completion port); on Linux use "
	                        "doca_workq_get_event_handle");
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_workq_event_handle_arm(struct doca_workq *workq)
{
	uint64_t one = 1;

	if (!sdoca_arg_valid(workq))
		return DOCA_ERROR_INVALID_VALUE;
	if (!workq->event_driven)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_workq_event_handle_arm: event-driven mode is "
		                  "not enabled");
	for (struct doca_ctx *ctx = LIST_FIRST(&workq->ctxs); ctx;
	     ctx = LIST_NEXT(ctx, v202.workq_link))
		(void)doca_pe_request_notification(ctx->pe);
	if (workq->done_count > 0 && write(workq->ready_fd, &one, sizeof(one)) < 0 &&
	    errno != EAGAIN)
		return sdoca_fail(DOCA_ERROR_OPERATING_SYSTEM, "doca_workq_event_handle_arm: %s",
		                  strerror(errno));
	return DOCA_SUCCESS;
}

/* The handle given is not needed: the work queue knows its own (DOCA 2.2
 * programs pass it, the programming guide's example passes 0). */
DOCA_EXPERIMENTAL doca_error_t doca_workq_event_handle_clear(struct doca_workq *workq,
                                                             doca_event_handle_t handle)
{
	uint64_t count;

	(void)handle;
	if (!sdoca_arg_valid(workq))
		return DOCA_ERROR_INVALID_VALUE;
	if (!workq->event_driven)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_workq_event_handle_clear: event-driven mode "
		                  "is not enabled");
	for (struct doca_ctx *ctx = LIST_FIRST(&workq->ctxs); ctx;
	     ctx = LIST_NEXT(ctx, v202.workq_link))
		(void)doca_pe_clear_notification(ctx->pe, ctx->pe->event_fd);
	if (read(workq->ready_fd, &count, sizeof(count)) < 0 && errno != EAGAIN)
		return sdoca_fail(DOCA_ERROR_OPERATING_SYSTEM, "doca_workq_event_handle_clear: %s",
		                  strerror(errno));
	return DOCA_SUCCESS;
}

/* --- contexts --- */

DOCA_EXPERIMENTAL doca_error_t doca_ctx_workq_add(struct doca_ctx *ctx, struct doca_workq *workq)
{
	struct epoll_event ev = { .events = EPOLLIN };
	doca_error_t status;

	if (!sdoca_arg_valid(ctx) || !sdoca_arg_valid(workq))
		return DOCA_ERROR_INVALID_VALUE;
	if (!ctx->ops->jobs) {
		SDOCA_LOG_NOT_SUPPORTED("of DOCA 2.2's job-based contexts softdoca runs RDMA only");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (!ctx->v202.started || ctx->state != DOCA_CTX_STATE_RUNNING)
		return sdoca_fail(
		        DOCA_ERROR_BAD_STATE,
		        "doca_ctx_workq_add: the %s context is not started (doca_ctx_start)",
		        ctx->ops->name);
	if (ctx->v202.workq)
		return sdoca_fail(
		        DOCA_ERROR_IN_USE,
		        "doca_ctx_workq_add: the %s context has a work queue already (one per "
		        "context)",
		        ctx->ops->name);
	status = ctx->ops->jobs->attach(ctx, workq->depth);
	if (status != DOCA_SUCCESS)
		return status;
	if (workq->event_driven &&
	    epoll_ctl(workq->epoll_fd, EPOLL_CTL_ADD, ctx->pe->event_fd, &ev) != 0 &&
	    errno != EEXIST)
		return sdoca_fail(DOCA_ERROR_INITIALIZATION, "doca_ctx_workq_add: epoll_ctl: %s",
		                  strerror(errno));
	ctx->v202.workq = workq;
	LIST_INSERT_HEAD(&workq->ctxs, ctx, v202.workq_link);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_ctx_workq_rm(struct doca_ctx *ctx, struct doca_workq *workq)
{
	if (!sdoca_arg_valid(ctx) || !sdoca_arg_valid(workq))
		return DOCA_ERROR_INVALID_VALUE;
	if (ctx->v202.workq != workq)
		return sdoca_fail(
		        DOCA_ERROR_NOT_FOUND,
		        "doca_ctx_workq_rm: the work queue is not added to this %s context",
		        ctx->ops->name);
	if (ctx->v202.jobs > 0)
		return sdoca_fail(
		        DOCA_ERROR_IN_USE,
		        "doca_ctx_workq_rm: %u job(s) of the %s context are in the work queue; "
		        "retrieve their events first",
		        ctx->v202.jobs, ctx->ops->name);
	if (workq->event_driven)
		(void)epoll_ctl(workq->epoll_fd, EPOLL_CTL_DEL, ctx->pe->event_fd, NULL);
	LIST_REMOVE(ctx, v202.workq_link);
	ctx->v202.workq = NULL;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_ctx_get_event_driven_supported(struct doca_ctx *ctx,
                                                                   uint8_t *event_supported)
{
	if (!sdoca_arg_valid(ctx) || !sdoca_arg_valid(event_supported))
		return DOCA_ERROR_INVALID_VALUE;
	*event_supported = ctx->ops->jobs != NULL;
	return DOCA_SUCCESS;
}

/* softdoca sets no limit; this is what it answers. */
#define MAX_NUM_CTX 65535

DOCA_EXPERIMENTAL doca_error_t doca_ctx_get_max_num_ctx(uint32_t *max_num_ctx)
{
	if (!sdoca_arg_valid(max_num_ctx))
		return DOCA_ERROR_INVALID_VALUE;
	*max_num_ctx = MAX_NUM_CTX;
	return DOCA_SUCCESS;
}

/* One device per context, as DOCA 2.2's RDMA contexts take. */
DOCA_EXPERIMENTAL doca_error_t doca_ctx_dev_add(struct doca_ctx *ctx, struct doca_dev *dev)
{
	if (!sdoca_arg_valid(ctx) || !sdoca_arg_valid(dev))
		return DOCA_ERROR_INVALID_VALUE;
	if (ctx->state != DOCA_CTX_STATE_IDLE || ctx->v202.started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_ctx_dev_add: the %s context is started", ctx->ops->name);
	if (ctx->dev)
		return sdoca_fail(DOCA_ERROR_IN_USE,
		                  "doca_ctx_dev_add: the %s context has a device already",
		                  ctx->ops->name);
	sdoca_dev_get(dev);
	ctx->dev = dev;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_ctx_dev_rm(struct doca_ctx *ctx, struct doca_dev *dev)
{
	if (!sdoca_arg_valid(ctx) || !sdoca_arg_valid(dev))
		return DOCA_ERROR_INVALID_VALUE;
	if (ctx->state != DOCA_CTX_STATE_IDLE || ctx->v202.started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_ctx_dev_rm: the %s context is started", ctx->ops->name);
	if (ctx->dev != dev)
		return sdoca_fail(DOCA_ERROR_NOT_FOUND,
		                  "doca_ctx_dev_rm: the device was not added to the %s context",
		                  ctx->ops->name);
	ctx->dev = NULL;
	sdoca_dev_put(dev);
	return DOCA_SUCCESS;
}
