/*
 * doca_ctx: the context state machine (idle, starting, running, stopping).
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * doca_ctx: the state machine IDLE -> STARTING -> RUNNING -> STOPPING -> IDLE.
 *
 * Transitions the application asks for (start, stop) happen inside its call
 * and fire the state callback there. Transitions that wait for something
 * (connection ready, tasks flushed and freed) happen inside doca_pe_progress;
 * a context that began STOPPING inside a progress (a callback stopped it)
 * becomes IDLE in a later one, as on DOCA where the flush takes time.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/ctx.h"
#include "core/dev.h"
#include "core/pe.h"
#include "core/sdk_log.h"

SDOCA_LOG_MODULE(ctx);

static const char *state_name(enum doca_ctx_states state)
{
	static const char *const names[] = { "IDLE", "STARTING", "RUNNING", "STOPPING" };

	return (unsigned int)state < SDOCA_ARRAY_SIZE(names) ? names[state] : "?";
}

static void set_state(struct doca_ctx *ctx, enum doca_ctx_states next)
{
	enum doca_ctx_states prev = ctx->state;

	/* Atomic: a connection request may read it on the service thread
	 * (rdma_cm.c), as a snapshot the application thread checks again. */
	__atomic_store_n(&ctx->state, next, __ATOMIC_RELEASE);
	if (ctx->pe && (prev == DOCA_CTX_STATE_STOPPING) != (next == DOCA_CTX_STATE_STOPPING))
		ctx->pe->num_stopping += next == DOCA_CTX_STATE_STOPPING ? 1 : -1;
	SDOCA_DBG("%s context %p: %s -> %s", ctx->ops->name, (void *)ctx, state_name(prev),
	          state_name(next));
	if (ctx->state_cb)
		ctx->state_cb(ctx->user_data, ctx, prev, next);
}

SDOCA_EXPORT void sdoca_ctx_init(struct doca_ctx *ctx, const struct sdoca_ctx_ops *ops,
                                 struct doca_dev *dev)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->ops = ops;
	ctx->dev = dev;
	ctx->state = DOCA_CTX_STATE_IDLE;
	ctx->api_version = 300;
	if (dev)
		sdoca_dev_get(dev);
}

static void disconnect_from_pe(struct doca_ctx *ctx)
{
	if (!ctx->pe)
		return;
	LIST_REMOVE(ctx, pe_link);
	ctx->pe = NULL;
}

SDOCA_EXPORT doca_error_t sdoca_ctx_fini(struct doca_ctx *ctx)
{
	if (ctx->state != DOCA_CTX_STATE_IDLE)
		return sdoca_fail(
		        DOCA_ERROR_BAD_STATE,
		        "cannot destroy a %s context in state %s; stop it and wait for IDLE",
		        ctx->ops->name, state_name(ctx->state));
	disconnect_from_pe(ctx);
	if (ctx->v202.own_pe)
		(void)doca_pe_destroy(ctx->v202.own_pe);
	for (uint32_t i = 0; i < ctx->num_pools; i++) {
		free(ctx->pools[i]->objects);
		ctx->pools[i]->objects = NULL;
		ctx->pools[i]->free = NULL;
	}
	if (ctx->dev)
		sdoca_dev_put(ctx->dev);
	return DOCA_SUCCESS;
}

static doca_error_t ctx_start(struct doca_ctx *ctx, uint16_t api_version)
{
	enum sdoca_start how = SDOCA_START_DONE;
	doca_error_t status;

	if (!sdoca_arg_valid(ctx))
		return DOCA_ERROR_INVALID_VALUE;
	if (ctx->state != DOCA_CTX_STATE_IDLE)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_ctx_start: %s context is %s, not IDLE", ctx->ops->name,
		                  state_name(ctx->state));
	if (!ctx->pe)
		return sdoca_fail(
		        DOCA_ERROR_NOT_CONNECTED,
		        "doca_ctx_start: %s context is not connected to a progress engine "
		        "(doca_pe_connect_ctx)",
		        ctx->ops->name);
	ctx->api_version = api_version;
	atomic_store(&ctx->start_ready, false);
	atomic_store(&ctx->failed, false);
	ctx->stop_logged = false;
	status = ctx->ops->start ? ctx->ops->start(ctx, &how) : DOCA_SUCCESS;
	if (status != DOCA_SUCCESS)
		return status;
	if (how == SDOCA_START_DONE) {
		set_state(ctx, DOCA_CTX_STATE_RUNNING);
		return DOCA_SUCCESS;
	}
	if (how == SDOCA_START_DEFERRED)
		sdoca_ctx_start_ready(ctx);
	set_state(ctx, DOCA_CTX_STATE_STARTING);
	return how == SDOCA_START_PENDING ? DOCA_ERROR_IN_PROGRESS : DOCA_SUCCESS;
}

/* How long a context on the DPA data path may take to start or stop. */
#define DPA_PATH_WAIT_NS (10ull * 1000 * 1000 * 1000)

/* Progresses the context's own PE until it reaches state (bounded). */
static bool progress_until(struct doca_ctx *ctx, enum doca_ctx_states state)
{
	const struct timespec nap = { .tv_sec = 0, .tv_nsec = 10 * 1000 };
	uint64_t deadline = sdoca_now_ns() + DPA_PATH_WAIT_NS;

	while (ctx->state != state && sdoca_now_ns() < deadline)
		if (doca_pe_progress(ctx->pe) == 0)
			nanosleep(&nap, NULL);
	return ctx->state == state;
}

/* A context on the DPA data path has no progress engine of the program's:
 * it gets one of its own and starts synchronously (docs/dpa.md 2.8). */
static doca_error_t start_on_dpa(struct doca_ctx *ctx)
{
	doca_error_t status;

	if (!ctx->pe) {
		if (!ctx->v202.own_pe) {
			status = doca_pe_create(&ctx->v202.own_pe);
			if (status != DOCA_SUCCESS)
				return status;
		}
		(void)doca_pe_connect_ctx(ctx->v202.own_pe, ctx);
	}
	status = ctx_start(ctx, 300);
	if (status != DOCA_SUCCESS && status != DOCA_ERROR_IN_PROGRESS)
		return status;
	if (!progress_until(ctx, DOCA_CTX_STATE_RUNNING)) {
		(void)doca_ctx_stop(ctx);
		return sdoca_fail(DOCA_ERROR_INITIALIZATION,
		                  "doca_ctx_start: %s context on the DPA data path did not start",
		                  ctx->ops->name);
	}
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_ctx_start(struct doca_ctx *ctx)
{
	if (ctx && ctx->dpa && ctx->state == DOCA_CTX_STATE_IDLE)
		return start_on_dpa(ctx);
	return ctx_start(ctx, 300);
}

/* DOCA 2.5 programs (SOFTDOCA_API_VERSION=205) call this under the same name. */
DOCA_STABLE doca_error_t softdoca_v205_doca_ctx_start(struct doca_ctx *ctx)
{
	return ctx_start(ctx, 205);
}

/* DOCA 2.2 programs have no PE: softdoca makes one per context, which their
 * work queue's retrieve progresses. The start is synchronous: the context
 * can export and connect once it returns. */
DOCA_EXPERIMENTAL doca_error_t softdoca_v202_doca_ctx_start(struct doca_ctx *ctx)
{
	doca_error_t status;

	if (!sdoca_arg_valid(ctx))
		return DOCA_ERROR_INVALID_VALUE;
	if (!ctx->ops->jobs) {
		SDOCA_LOG_NOT_SUPPORTED("of DOCA 2.2's job-based contexts softdoca runs RDMA only");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (ctx->v202.started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_ctx_start: %s context is already started", ctx->ops->name);
	if (!ctx->dev)
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "doca_ctx_start: no device was added to the %s context (doca_ctx_dev_add)",
		        ctx->ops->name);
	if (!ctx->pe) {
		status = doca_pe_create(&ctx->v202.own_pe);
		if (status != DOCA_SUCCESS)
			return status;
		(void)doca_pe_connect_ctx(ctx->v202.own_pe, ctx);
	}
	status = ctx_start(ctx, 202);
	if (status != DOCA_SUCCESS)
		return status;
	(void)doca_pe_progress(ctx->pe); /* STARTING -> RUNNING */
	if (ctx->state != DOCA_CTX_STATE_RUNNING) {
		(void)doca_ctx_stop(ctx);
		return sdoca_fail(DOCA_ERROR_INITIALIZATION,
		                  "doca_ctx_start: %s context did not start", ctx->ops->name);
	}
	ctx->v202.started = true;
	return DOCA_SUCCESS;
}

/* Stopping ends within this long even if the flush is slow (DOCA 2.2's stop
 * is synchronous; its programs have no PE to progress). */
#define V202_STOP_WAIT_NS (10ull * 1000 * 1000 * 1000)

/* Back to RESET, also from ERROR (a failed context is already stopping or
 * IDLE). DOCA 2.2's header: NOT_PERMITTED while a work queue is added (or
 * jobs are pending). A context that is not started is stopped already:
 * SUCCESS, as DOCA 3.x answers a stop of an IDLE context (2.2 documents no
 * error for it, and its samples stop in their clean-up whatever happened). */
DOCA_EXPERIMENTAL doca_error_t softdoca_v202_doca_ctx_stop(struct doca_ctx *ctx)
{
	const struct timespec nap = { .tv_sec = 0, .tv_nsec = 10 * 1000 };
	uint64_t deadline;

	if (!sdoca_arg_valid(ctx))
		return DOCA_ERROR_INVALID_VALUE;
	if (ctx->v202.workq)
		return sdoca_fail(DOCA_ERROR_NOT_PERMITTED,
		                  "doca_ctx_stop: a work queue is still added to the %s context "
		                  "(doca_ctx_workq_rm first)",
		                  ctx->ops->name);
	if (!ctx->v202.started) {
		SDOCA_DBG("doca_ctx_stop: %s context %p is not started", ctx->ops->name,
		          (void *)ctx);
		return DOCA_SUCCESS;
	}
	if (ctx->state == DOCA_CTX_STATE_RUNNING || ctx->state == DOCA_CTX_STATE_STARTING)
		(void)doca_ctx_stop(ctx);
	/* No job of the context is left: only the connections' flush holds it. */
	deadline = sdoca_now_ns() + V202_STOP_WAIT_NS;
	while (ctx->state != DOCA_CTX_STATE_IDLE && sdoca_now_ns() < deadline)
		if (doca_pe_progress(ctx->pe) == 0)
			nanosleep(&nap, NULL);
	if (ctx->state != DOCA_CTX_STATE_IDLE)
		return sdoca_fail(DOCA_ERROR_NOT_PERMITTED,
		                  "doca_ctx_stop: %s context still has work", ctx->ops->name);
	ctx->v202.started = false;
	return DOCA_SUCCESS;
}

static bool fully_stopped(const struct doca_ctx *ctx)
{
	return ctx->inflight == 0 && ctx->allocated == 0 && atomic_load(&ctx->events) == 0;
}

static void finish_stop(struct doca_ctx *ctx)
{
	if (ctx->ops->stopped)
		ctx->ops->stopped(ctx);
	set_state(ctx, DOCA_CTX_STATE_IDLE);
}

/* RUNNING/STARTING -> STOPPING, flushing what is in flight. The state
 * callback runs before the flush: DOCA programs disconnect their connections
 * and free their tasks in their STOPPING handler. True if the library has
 * work that ends in a later progress. */
static bool begin_stop(struct doca_ctx *ctx)
{
	bool pending;

	ctx->stop_logged = false;
	if (ctx->pe)
		ctx->stop_epoch = ctx->pe->progress_count;
	set_state(ctx, DOCA_CTX_STATE_STOPPING);
	pending = ctx->ops->stop_needs_progress && ctx->ops->stop_needs_progress(ctx);
	if (ctx->ops->stop)
		ctx->ops->stop(ctx);
	return pending;
}

/*
 * DOCA's answers: SUCCESS once IDLE (also when it already was: programs stop
 * in their flow and again in a generic "stop and progress until IDLE"
 * helper), IN_PROGRESS while STOPPING. Always RUNNING -> STOPPING first;
 * STOPPING -> IDLE inside this call only when nothing is left and the call
 * is not inside a callback of the context's PE, else from a later
 * doca_pe_progress().
 */
static doca_error_t ctx_stop(struct doca_ctx *ctx);

/* On the DPA data path the stop is synchronous too: its own PE is
 * progressed here until the connections are torn down. */
DOCA_STABLE doca_error_t doca_ctx_stop(struct doca_ctx *ctx)
{
	doca_error_t status = ctx_stop(ctx);

	if (status != DOCA_ERROR_IN_PROGRESS || !ctx->dpa || ctx->pe != ctx->v202.own_pe)
		return status;
	if (!progress_until(ctx, DOCA_CTX_STATE_IDLE))
		return sdoca_fail(DOCA_ERROR_TIME_OUT,
		                  "doca_ctx_stop: %s context on the DPA data path did not stop",
		                  ctx->ops->name);
	return DOCA_SUCCESS;
}

static doca_error_t ctx_stop(struct doca_ctx *ctx)
{
	bool pending;

	if (!sdoca_arg_valid(ctx))
		return DOCA_ERROR_INVALID_VALUE;
	switch (ctx->state) {
	case DOCA_CTX_STATE_IDLE:
		SDOCA_DBG("doca_ctx_stop: %s context %p is already IDLE", ctx->ops->name,
		          (void *)ctx);
		return DOCA_SUCCESS;
	case DOCA_CTX_STATE_STOPPING:
		return DOCA_ERROR_IN_PROGRESS;
	default:
		break;
	}
	pending = begin_stop(ctx);
	/* No PE (no CPU data path): nothing can be in flight or progressed. */
	if (!ctx->pe) {
		finish_stop(ctx);
		return DOCA_SUCCESS;
	}
	if (pending || ctx->pe->in_progress || !fully_stopped(ctx))
		return DOCA_ERROR_IN_PROGRESS;
	finish_stop(ctx);
	return DOCA_SUCCESS;
}

SDOCA_EXPORT void sdoca_ctx_start_ready(struct doca_ctx *ctx)
{
	atomic_store(&ctx->start_ready, true);
	atomic_store(&ctx->pe->attention, true);
	sdoca_pe_wake(ctx->pe);
}

SDOCA_EXPORT void sdoca_event_push(struct doca_ctx *ctx, struct sdoca_event *event)
{
	event->task.ctx = ctx;
	event->task.pool = NULL;
	atomic_fetch_add(&ctx->events, 1);
	sdoca_pe_push(ctx->pe, &event->task);
}

SDOCA_EXPORT void sdoca_ctx_fail(struct doca_ctx *ctx)
{
	atomic_store(&ctx->failed, true);
	atomic_store(&ctx->pe->attention, true);
	sdoca_pe_wake(ctx->pe);
}

bool sdoca_ctx_advance(struct doca_ctx *ctx)
{
	if (atomic_exchange(&ctx->failed, false) &&
	    (ctx->state == DOCA_CTX_STATE_RUNNING || ctx->state == DOCA_CTX_STATE_STARTING)) {
		SDOCA_INFO("%s context %p: fatal error, stopping", ctx->ops->name, (void *)ctx);
		(void)begin_stop(ctx);
		return true;
	}
	if (ctx->state == DOCA_CTX_STATE_STARTING && atomic_exchange(&ctx->start_ready, false)) {
		set_state(ctx, DOCA_CTX_STATE_RUNNING);
		return true;
	}
	/* A stop that began in this progress ends in a later one. */
	if (ctx->state == DOCA_CTX_STATE_STOPPING && ctx->stop_epoch != ctx->pe->progress_count) {
		if (fully_stopped(ctx)) {
			finish_stop(ctx);
			return true;
		}
		if (ctx->inflight == 0 && !ctx->stop_logged) {
			ctx->stop_logged = true;
			SDOCA_INFO(
			        "%s context %p stays STOPPING until its %zu allocated task(s) are "
			        "freed with doca_task_free",
			        ctx->ops->name, (void *)ctx, ctx->allocated);
		}
	}
	return false;
}

DOCA_STABLE doca_error_t doca_ctx_get_num_inflight_tasks(const struct doca_ctx *ctx,
                                                         size_t *num_inflight_tasks)
{
	if (!sdoca_arg_valid(ctx) || !sdoca_arg_valid(num_inflight_tasks))
		return DOCA_ERROR_INVALID_VALUE;
	*num_inflight_tasks = ctx->inflight;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_ctx_set_user_data(struct doca_ctx *ctx, union doca_data user_data)
{
	if (!sdoca_arg_valid(ctx))
		return DOCA_ERROR_INVALID_VALUE;
	ctx->user_data = user_data;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_ctx_get_user_data(const struct doca_ctx *ctx,
                                                union doca_data *user_data)
{
	if (!sdoca_arg_valid(ctx) || !sdoca_arg_valid(user_data))
		return DOCA_ERROR_INVALID_VALUE;
	*user_data = ctx->user_data;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_ctx_set_state_changed_cb(struct doca_ctx *ctx,
                                                       doca_ctx_state_changed_callback_t cb)
{
	if (!sdoca_arg_valid(ctx))
		return DOCA_ERROR_INVALID_VALUE;
	ctx->state_cb = cb;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_ctx_get_state(const struct doca_ctx *ctx, enum doca_ctx_states *state)
{
	if (!sdoca_arg_valid(ctx) || !sdoca_arg_valid(state))
		return DOCA_ERROR_INVALID_VALUE;
	*state = ctx->state;
	return DOCA_SUCCESS;
}

/* Every submit is pushed at once, so there is never anything to flush. */
DOCA_EXPERIMENTAL void doca_ctx_flush_tasks(struct doca_ctx *ctx)
{
	(void)ctx;
}

DOCA_EXPERIMENTAL doca_error_t doca_ctx_set_datapath_on_gpu(struct doca_ctx *ctx,
                                                            struct doca_gpu *gpu_dev)
{
	if (!sdoca_arg_valid(ctx) || !sdoca_arg_valid(gpu_dev))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED("softdoca has no GPU data path");
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_ctx_set_datapath_on_dpa(struct doca_ctx *ctx,
                                                            struct doca_dpa *dpa_dev)
{
	if (!sdoca_arg_valid(ctx) || !sdoca_arg_valid(dpa_dev))
		return DOCA_ERROR_INVALID_VALUE;
	if (ctx->state != DOCA_CTX_STATE_IDLE)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: the %s context is not IDLE", __func__,
		                  ctx->ops->name);
	if (ctx->pe && ctx->pe != ctx->v202.own_pe)
		return sdoca_fail(
		        DOCA_ERROR_BAD_STATE,
		        "%s: the %s context is connected to a progress engine; a context on "
		        "the DPA data path has none",
		        __func__, ctx->ops->name);
	ctx->dpa = dpa_dev;
	return DOCA_SUCCESS;
}

/* A soft device has one completion vector: the PE's notification handle. */
DOCA_EXPERIMENTAL doca_error_t doca_ctx_set_completion_vector(struct doca_ctx *ctx,
                                                              uint32_t comp_vector)
{
	if (!sdoca_arg_valid(ctx))
		return DOCA_ERROR_INVALID_VALUE;
	if (ctx->state != DOCA_CTX_STATE_IDLE)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_ctx_set_completion_vector: context not IDLE");
	if (comp_vector != 0)
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "doca_ctx_set_completion_vector: vector %u does not exist (only 0)",
		        comp_vector);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_ctx_cap_get_num_completion_vectors(
        const struct doca_devinfo *devinfo, uint32_t *num_comp_vectors)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(num_comp_vectors))
		return DOCA_ERROR_INVALID_VALUE;
	*num_comp_vectors = 1;
	return DOCA_SUCCESS;
}
