/*
 * Unit tests: the context state machine, task pools and callbacks, the
 * progress engine and its notification handle.
 *
 * A small "echo" context built on the internal framework stands for a
 * library: it completes tasks when progressed, or from a second thread
 * (like softdoca's service thread does).
 */
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <doca_ctx.h>
#include <doca_pe.h>

#include "core/ctx.h"
#include "unit/testing.h"

#define FLUSHED DOCA_ERROR_CONNECTION_ABORTED

struct echo_task {
	struct doca_task base;
	int value;
	int result;
};

typedef void (*echo_cb_t)(struct echo_task *task, union doca_data task_ud, union doca_data ctx_ud);

struct echo_ctx {
	struct doca_ctx base;
	struct sdoca_task_pool pool;
	pthread_mutex_t lock;
	struct doca_task *pending; /* submitted, not completed */
	enum sdoca_start start_mode;
	doca_error_t start_error;
	bool complete_on_progress;
	bool stop_pending; /* like an RDMA context with connections */
	int stopped_calls;
	int notify_requests;
};

static struct echo_ctx *to_echo(struct doca_ctx *ctx)
{
	return sdoca_container_of(ctx, struct echo_ctx, base);
}

SDOCA_TASK_INVOKER(invoke_echo, struct echo_task, base, echo_cb_t)

static doca_error_t echo_submit(struct doca_task *task)
{
	struct echo_ctx *e = to_echo(task->ctx);

	if (sdoca_container_of(task, struct echo_task, base)->value < 0)
		return DOCA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&e->lock);
	task->qnext = e->pending;
	e->pending = task;
	pthread_mutex_unlock(&e->lock);
	return DOCA_SUCCESS;
}

static const struct sdoca_task_type echo_type = {
	.name = "echo",
	.size = sizeof(struct echo_task),
	.invoke = invoke_echo,
	.submit = echo_submit,
};

/* Completes everything pending; returns how many. */
static int complete_pending(struct echo_ctx *e, doca_error_t status)
{
	struct doca_task *list;
	int n = 0;

	pthread_mutex_lock(&e->lock);
	list = e->pending;
	e->pending = NULL;
	pthread_mutex_unlock(&e->lock);
	while (list) {
		struct doca_task *next = list->qnext;
		struct echo_task *t = sdoca_container_of(list, struct echo_task, base);

		t->result = t->value * 2;
		sdoca_task_complete(list, status);
		list = next;
		n++;
	}
	return n;
}

static doca_error_t echo_start(struct doca_ctx *ctx, enum sdoca_start *how)
{
	struct echo_ctx *e = to_echo(ctx);

	*how = e->start_mode;
	return e->start_error;
}

static bool echo_stop_needs_progress(struct doca_ctx *ctx)
{
	return to_echo(ctx)->stop_pending;
}

static void echo_stop(struct doca_ctx *ctx)
{
	complete_pending(to_echo(ctx), FLUSHED);
}

static void echo_stopped(struct doca_ctx *ctx)
{
	to_echo(ctx)->stopped_calls++;
}

static bool echo_progress(struct doca_ctx *ctx)
{
	struct echo_ctx *e = to_echo(ctx);

	return e->complete_on_progress && complete_pending(e, DOCA_SUCCESS) > 0;
}

static void echo_request_notification(struct doca_ctx *ctx)
{
	to_echo(ctx)->notify_requests++;
}

static const struct sdoca_ctx_ops echo_ops = {
	.name = "echo",
	.start = echo_start,
	.stop_needs_progress = echo_stop_needs_progress,
	.stop = echo_stop,
	.stopped = echo_stopped,
	.progress = echo_progress,
	.request_notification = echo_request_notification,
};

/* What the callbacks saw. */
static struct {
	enum doca_ctx_states transitions[16];
	int num_transitions;
	int successes, errors;
	doca_error_t last_status;
	int last_result;
	uint64_t last_task_ud, last_ctx_ud;
	bool free_in_callback;
	bool stop_in_callback;
	bool stop_in_ok_callback;
	doca_error_t stop_status;       /* what doca_ctx_stop answered inside a callback */
	struct doca_task *free_on_stop; /* freed by the STOPPING handler */
	int stopping_in_handler_errors; /* errors seen when the STOPPING handler ran */
	enum doca_ctx_states last_state;
	enum doca_ctx_states state_seen_in_error;
	uint8_t nested_progress;
	struct doca_pe *pe;
} seen;

static void state_cb(const union doca_data user_data, struct doca_ctx *ctx,
                     enum doca_ctx_states prev, enum doca_ctx_states next)
{
	enum doca_ctx_states now;

	(void)user_data;
	assert_doca_ok(doca_ctx_get_state(ctx, &now));
	assert_int_equal(prev, seen.last_state);
	seen.last_state = next;
	assert_int_equal(now, next); /* already in the new state */
	assert_true(seen.num_transitions < 16);
	seen.transitions[seen.num_transitions++] = next;
	/* DOCA programs clean up in their STOPPING handler: in-flight tasks are
	 * flushed after it, so it runs before any error callback. */
	if (next == DOCA_CTX_STATE_STOPPING) {
		seen.stopping_in_handler_errors = seen.errors;
		if (seen.free_on_stop) {
			doca_task_free(seen.free_on_stop);
			seen.free_on_stop = NULL;
		}
	}
}

static void echo_ok(struct echo_task *task, union doca_data task_ud, union doca_data ctx_ud)
{
	seen.successes++;
	seen.last_status = doca_task_get_status(&task->base);
	seen.last_result = task->result;
	seen.last_task_ud = task_ud.u64;
	seen.last_ctx_ud = ctx_ud.u64;
	seen.nested_progress = doca_pe_progress(seen.pe);
	if (seen.free_in_callback)
		doca_task_free(&task->base);
	if (seen.stop_in_ok_callback)
		seen.stop_status = doca_ctx_stop(task->base.ctx);
}

static void echo_err(struct echo_task *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)task_ud;
	(void)ctx_ud;
	seen.errors++;
	seen.last_status = doca_task_get_status(&task->base);
	assert_doca_ok(doca_ctx_get_state(task->base.ctx, &seen.state_seen_in_error));
	if (seen.stop_in_callback)
		(void)doca_ctx_stop(task->base.ctx);
	if (seen.free_in_callback)
		doca_task_free(&task->base);
}

static struct echo_ctx *echo;
static struct doca_pe *pe;

static int setup(void **state)
{
	union doca_data ud = { .u64 = 77 };

	(void)state;
	memset(&seen, 0, sizeof(seen));
	echo = calloc(1, sizeof(*echo));
	sdoca_ctx_init(&echo->base, &echo_ops, NULL);
	pthread_mutex_init(&echo->lock, NULL);
	echo->start_mode = SDOCA_START_DONE;
	echo->complete_on_progress = true;
	if (doca_pe_create(&pe) != DOCA_SUCCESS)
		return -1;
	seen.pe = pe;
	doca_ctx_set_state_changed_cb(&echo->base, state_cb);
	doca_ctx_set_user_data(&echo->base, ud);
	return sdoca_task_pool_configure(&echo->base, &echo->pool, &echo_type,
	                                 (sdoca_generic_cb_t)echo_ok, (sdoca_generic_cb_t)echo_err,
	                                 4) == DOCA_SUCCESS
	               ? 0
	               : -1;
}

static int teardown(void **state)
{
	(void)state;
	if (sdoca_ctx_fini(&echo->base) != DOCA_SUCCESS)
		return -1;
	pthread_mutex_destroy(&echo->lock);
	free(echo);
	return doca_pe_destroy(pe) == DOCA_SUCCESS ? 0 : -1;
}

static struct echo_task *alloc_echo(int value, uint64_t ud)
{
	struct doca_task *t;
	union doca_data d = { .u64 = ud };

	assert_doca_ok(sdoca_task_alloc(&echo->base, &echo->pool, d, &t));
	sdoca_container_of(t, struct echo_task, base)->value = value;
	return sdoca_container_of(t, struct echo_task, base);
}

static void drain(void)
{
	for (int i = 0; i < 100 && doca_pe_progress(pe); i++)
		;
}

static void test_connect_and_sync_start(void **state)
{
	struct doca_ctx *ctx = &echo->base;

	(void)state;
	assert_doca_err(doca_ctx_start(ctx), DOCA_ERROR_NOT_CONNECTED);
	assert_doca_ok(doca_pe_connect_ctx(pe, ctx));
	assert_doca_err(doca_pe_connect_ctx(pe, ctx), DOCA_ERROR_NOT_PERMITTED);
	assert_doca_ok(doca_ctx_start(ctx));
	assert_int_equal(seen.num_transitions, 1);
	assert_int_equal(seen.transitions[0], DOCA_CTX_STATE_RUNNING);
	assert_doca_err(doca_ctx_start(ctx), DOCA_ERROR_BAD_STATE);
	/* Configuration is frozen while running. */
	assert_doca_err(sdoca_task_pool_configure(ctx, &echo->pool, &echo_type,
	                                          (sdoca_generic_cb_t)echo_ok,
	                                          (sdoca_generic_cb_t)echo_err, 4),
	                DOCA_ERROR_BAD_STATE);
	assert_doca_err(doca_pe_destroy(pe), DOCA_ERROR_IN_USE);
	assert_doca_err(sdoca_ctx_fini(ctx), DOCA_ERROR_BAD_STATE);
	/* Nothing in flight: STOPPING and IDLE inside the call, SUCCESS. */
	assert_doca_ok(doca_ctx_stop(ctx));
	assert_int_equal(seen.num_transitions, 3);
	assert_int_equal(seen.transitions[1], DOCA_CTX_STATE_STOPPING);
	assert_int_equal(seen.transitions[2], DOCA_CTX_STATE_IDLE);
	assert_int_equal(echo->stopped_calls, 1);
	/* Stopping an IDLE context again (a generic "stop until IDLE" helper
	 * after the program's own stop) is SUCCESS and changes nothing. */
	assert_doca_ok(doca_ctx_stop(ctx));
	assert_int_equal(seen.num_transitions, 3);
	assert_int_equal(echo->stopped_calls, 1);
}

static void test_deferred_and_pending_start(void **state)
{
	struct doca_ctx *ctx = &echo->base;
	enum doca_ctx_states s;

	(void)state;
	assert_doca_ok(doca_pe_connect_ctx(pe, ctx));
	/* DOCA 3.x RDMA style: SUCCESS, STARTING, RUNNING from progress. */
	echo->start_mode = SDOCA_START_DEFERRED;
	assert_doca_ok(doca_ctx_start(ctx));
	assert_doca_ok(doca_ctx_get_state(ctx, &s));
	assert_int_equal(s, DOCA_CTX_STATE_STARTING);
	assert_int_equal(doca_pe_progress(pe), 1);
	assert_doca_ok(doca_ctx_get_state(ctx, &s));
	assert_int_equal(s, DOCA_CTX_STATE_RUNNING);
	assert_int_equal(doca_pe_progress(pe), 0);
	assert_doca_ok(doca_ctx_stop(ctx));

	/* DOCA 2.5 style: IN_PROGRESS until the library says the connection is up. */
	echo->start_mode = SDOCA_START_PENDING;
	assert_doca_err(softdoca_v205_doca_ctx_start(ctx), DOCA_ERROR_IN_PROGRESS);
	assert_int_equal(ctx->api_version, 205);
	assert_int_equal(doca_pe_progress(pe), 0);
	assert_doca_ok(doca_ctx_get_state(ctx, &s));
	assert_int_equal(s, DOCA_CTX_STATE_STARTING);
	sdoca_ctx_start_ready(ctx);
	assert_int_equal(doca_pe_progress(pe), 1);
	assert_doca_ok(doca_ctx_get_state(ctx, &s));
	assert_int_equal(s, DOCA_CTX_STATE_RUNNING);
	assert_doca_ok(doca_ctx_stop(ctx));

	/* A failed start leaves the context IDLE. */
	echo->start_error = DOCA_ERROR_INITIALIZATION;
	assert_doca_err(doca_ctx_start(ctx), DOCA_ERROR_INITIALIZATION);
	assert_doca_ok(doca_ctx_get_state(ctx, &s));
	assert_int_equal(s, DOCA_CTX_STATE_IDLE);
}

static void test_task_round_trip(void **state)
{
	struct doca_ctx *ctx = &echo->base;
	struct echo_task *t;
	struct doca_task *extra[5];
	size_t inflight;

	(void)state;
	assert_doca_ok(doca_pe_connect_ctx(pe, ctx));
	assert_doca_err(sdoca_task_alloc(ctx, &echo->pool, (union doca_data){ 0 }, &extra[0]),
	                DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_ctx_start(ctx));

	t = alloc_echo(21, 1234);
	assert_ptr_equal(doca_task_get_ctx(&t->base), ctx);
	assert_int_equal(doca_task_get_user_data(&t->base).u64, 1234);
	echo->complete_on_progress = false;
	assert_doca_ok(doca_task_submit(&t->base));
	assert_doca_err(doca_task_submit(&t->base), DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_ctx_get_num_inflight_tasks(ctx, &inflight));
	assert_int_equal(inflight, 1);
	assert_doca_ok(doca_pe_get_num_inflight_tasks(pe, &inflight));
	assert_int_equal(inflight, 1);
	assert_int_equal(doca_pe_progress(pe), 0);
	echo->complete_on_progress = true;
	assert_int_equal(doca_pe_progress(pe), 1);
	assert_int_equal(seen.successes, 1);
	assert_int_equal(seen.last_result, 42);
	assert_int_equal(seen.last_status, DOCA_SUCCESS);
	assert_int_equal(seen.last_task_ud, 1234);
	assert_int_equal(seen.last_ctx_ud, 77);
	assert_int_equal(seen.nested_progress, 0); /* progress inside a callback is refused */
	assert_doca_ok(doca_ctx_get_num_inflight_tasks(ctx, &inflight));
	assert_int_equal(inflight, 0);

	/* The task is the application's again: resubmit it, then free it. */
	assert_doca_ok(doca_task_submit_ex(&t->base, DOCA_TASK_SUBMIT_FLAG_FLUSH));
	drain();
	assert_int_equal(seen.successes, 2);
	assert_doca_err(doca_task_submit_ex(&t->base, 1u << 5), DOCA_ERROR_INVALID_VALUE);
	/* A task the library refuses stays with the application. */
	t->value = -1;
	assert_doca_err(doca_task_try_submit(&t->base), DOCA_ERROR_INVALID_VALUE);
	doca_task_free(&t->base);
	doca_task_free(&t->base); /* double free: refused, logged */
	assert_doca_err(doca_task_submit(&t->base), DOCA_ERROR_BAD_STATE);

	/* The pool holds 4. */
	for (int i = 0; i < 4; i++)
		assert_doca_ok(
		        sdoca_task_alloc(ctx, &echo->pool, (union doca_data){ 0 }, &extra[i]));
	assert_doca_err(sdoca_task_alloc(ctx, &echo->pool, (union doca_data){ 0 }, &extra[4]),
	                DOCA_ERROR_NO_MEMORY);
	for (int i = 0; i < 4; i++)
		doca_task_free(extra[i]);
	assert_doca_ok(doca_ctx_stop(ctx));
}

static void test_stop_flushes_in_flight(void **state)
{
	struct doca_ctx *ctx = &echo->base;
	enum doca_ctx_states s;

	(void)state;
	assert_doca_ok(doca_pe_connect_ctx(pe, ctx));
	assert_doca_ok(doca_ctx_start(ctx));
	echo->complete_on_progress = false;
	for (int i = 0; i < 3; i++)
		assert_doca_ok(doca_task_submit(&alloc_echo(i, i)->base));
	seen.free_in_callback = true;
	assert_doca_err(doca_ctx_stop(ctx), DOCA_ERROR_IN_PROGRESS);
	assert_doca_ok(doca_ctx_get_state(ctx, &s));
	assert_int_equal(s, DOCA_CTX_STATE_STOPPING);
	assert_doca_err(doca_ctx_stop(ctx), DOCA_ERROR_IN_PROGRESS);
	/* New work is refused while stopping. */
	assert_doca_err(sdoca_task_alloc(ctx, &echo->pool, (union doca_data){ 0 },
	                                 &(struct doca_task *){ NULL }),
	                DOCA_ERROR_BAD_STATE);
	assert_int_equal(doca_pe_progress(pe), 1);
	assert_int_equal(seen.errors, 3);
	assert_int_equal(seen.last_status, FLUSHED);
	assert_doca_ok(doca_ctx_get_state(ctx, &s));
	assert_int_equal(s, DOCA_CTX_STATE_IDLE);
	assert_int_equal(seen.transitions[seen.num_transitions - 2], DOCA_CTX_STATE_STOPPING);
	assert_int_equal(seen.transitions[seen.num_transitions - 1], DOCA_CTX_STATE_IDLE);
}

static void test_stop_waits_for_frees(void **state)
{
	struct doca_ctx *ctx = &echo->base;
	struct echo_task *kept;
	enum doca_ctx_states s;

	(void)state;
	assert_doca_ok(doca_pe_connect_ctx(pe, ctx));
	assert_doca_ok(doca_ctx_start(ctx));
	kept = alloc_echo(1, 1);
	assert_doca_err(doca_ctx_stop(ctx), DOCA_ERROR_IN_PROGRESS);
	drain();
	assert_doca_ok(doca_ctx_get_state(ctx, &s));
	assert_int_equal(s, DOCA_CTX_STATE_STOPPING);
	doca_task_free(&kept->base);
	assert_int_equal(doca_pe_progress(pe), 1);
	assert_doca_ok(doca_ctx_get_state(ctx, &s));
	assert_int_equal(s, DOCA_CTX_STATE_IDLE);
}

static enum doca_ctx_states state_of(struct doca_ctx *ctx)
{
	enum doca_ctx_states s;

	assert_doca_ok(doca_ctx_get_state(ctx, &s));
	return s;
}

/* Starts the echo context as a program of API generation `api` sees it:
 * 3.x SUCCESS then RUNNING from progress, 2.5 IN_PROGRESS until ready. */
static void start_as(struct doca_ctx *ctx, int api)
{
	assert_doca_ok(doca_pe_connect_ctx(pe, ctx));
	if (api == 205) {
		echo->start_mode = SDOCA_START_PENDING;
		assert_doca_err(softdoca_v205_doca_ctx_start(ctx), DOCA_ERROR_IN_PROGRESS);
		sdoca_ctx_start_ready(ctx);
	} else {
		echo->start_mode = SDOCA_START_DEFERRED;
		assert_doca_ok(doca_ctx_start(ctx));
	}
	assert_int_equal(doca_pe_progress(pe), 1);
	assert_int_equal(state_of(ctx), DOCA_CTX_STATE_RUNNING);
	seen.num_transitions = 0;
}

/* doca_ctx_stop() inside a completion callback: IN_PROGRESS, STOPPING at
 * once, IDLE from a later progress (not the one that ran the callback);
 * then a second stop (the samples' request_stop_ctx) is SUCCESS. */
static void stop_inside_callback(int api)
{
	struct doca_ctx *ctx = &echo->base;

	start_as(ctx, api);
	seen.free_in_callback = true;
	seen.stop_in_ok_callback = true;
	seen.stop_status = DOCA_SUCCESS;
	assert_doca_ok(doca_task_submit(&alloc_echo(1, 1)->base));
	assert_int_equal(doca_pe_progress(pe), 1);
	assert_int_equal(seen.successes, 1);
	assert_int_equal(seen.stop_status, DOCA_ERROR_IN_PROGRESS);
	assert_int_equal(state_of(ctx), DOCA_CTX_STATE_STOPPING);
	assert_int_equal(seen.num_transitions, 1);
	assert_int_equal(seen.transitions[0], DOCA_CTX_STATE_STOPPING);
	assert_int_equal(echo->stopped_calls, 0);
	assert_doca_err(doca_ctx_stop(ctx), DOCA_ERROR_IN_PROGRESS);
	/* A program's loop "while not IDLE: progress" ends at the next one. */
	for (int i = 0; i < 100 && state_of(ctx) != DOCA_CTX_STATE_IDLE; i++)
		(void)doca_pe_progress(pe);
	assert_int_equal(state_of(ctx), DOCA_CTX_STATE_IDLE);
	assert_int_equal(seen.num_transitions, 2);
	assert_int_equal(seen.transitions[1], DOCA_CTX_STATE_IDLE);
	assert_int_equal(echo->stopped_calls, 1);
	assert_doca_ok(doca_ctx_stop(ctx));
	assert_int_equal(seen.num_transitions, 2);
}

static void test_stop_inside_callback_v3(void **state)
{
	(void)state;
	stop_inside_callback(300);
}

static void test_stop_inside_callback_v25(void **state)
{
	(void)state;
	stop_inside_callback(205);
}

/* A library whose stop takes progress (an RDMA context with connections):
 * IN_PROGRESS even with nothing in flight; the STOPPING handler frees the
 * program's last task; IDLE from the next progress. */
static void stop_through_stopping(int api)
{
	struct doca_ctx *ctx = &echo->base;

	start_as(ctx, api);
	echo->stop_pending = true;
	seen.free_on_stop = &alloc_echo(1, 1)->base;
	assert_doca_err(doca_ctx_stop(ctx), DOCA_ERROR_IN_PROGRESS);
	assert_null(seen.free_on_stop); /* the STOPPING handler ran, inside the stop */
	assert_int_equal(seen.num_transitions, 1);
	assert_int_equal(seen.transitions[0], DOCA_CTX_STATE_STOPPING);
	assert_int_equal(doca_pe_progress(pe), 1);
	assert_int_equal(state_of(ctx), DOCA_CTX_STATE_IDLE);
	assert_int_equal(seen.num_transitions, 2);
	assert_int_equal(seen.transitions[1], DOCA_CTX_STATE_IDLE);
	assert_doca_ok(doca_ctx_stop(ctx));
}

static void test_stop_through_stopping_v3(void **state)
{
	(void)state;
	stop_through_stopping(300);
}

static void test_stop_through_stopping_v25(void **state)
{
	(void)state;
	stop_through_stopping(205);
}

/* The STOPPING handler runs before the flush: error callbacks come after
 * it, from progress, and see the context STOPPING. */
static void test_stopping_handler_before_flush(void **state)
{
	struct doca_ctx *ctx = &echo->base;

	(void)state;
	start_as(ctx, 300);
	echo->complete_on_progress = false;
	seen.free_in_callback = true;
	assert_doca_ok(doca_task_submit(&alloc_echo(1, 1)->base));
	assert_doca_ok(doca_task_submit(&alloc_echo(2, 2)->base));
	seen.errors = 0;
	assert_doca_err(doca_ctx_stop(ctx), DOCA_ERROR_IN_PROGRESS);
	assert_int_equal(seen.stopping_in_handler_errors, 0);
	assert_int_equal(doca_pe_progress(pe), 1);
	assert_int_equal(seen.errors, 2);
	assert_int_equal(seen.state_seen_in_error, DOCA_CTX_STATE_STOPPING);
	assert_int_equal(state_of(ctx), DOCA_CTX_STATE_IDLE);
}

/* A program that frees a task still submitted: DOCA allows freeing only a
 * task the program owns (doca_task_free returns nothing). The task is not
 * taken from the library; its callback still runs (the program sees how it
 * ended) and it is freed after, so the stop ends. */
static void free_while_submitted(int api)
{
	struct doca_ctx *ctx = &echo->base;
	struct echo_task *t;

	start_as(ctx, api);
	echo->complete_on_progress = false;
	t = alloc_echo(3, 3);
	assert_doca_ok(doca_task_submit(&t->base));
	doca_task_free(&t->base); /* logged; deferred */
	doca_task_free(&t->base); /* again: still deferred, not logged twice */
	assert_doca_err(doca_task_submit(&t->base), DOCA_ERROR_BAD_STATE);
	assert_doca_err(doca_ctx_stop(ctx), DOCA_ERROR_IN_PROGRESS);
	for (int i = 0; i < 100 && state_of(ctx) != DOCA_CTX_STATE_IDLE; i++)
		(void)doca_pe_progress(pe);
	assert_int_equal(seen.errors, 1);
	assert_int_equal(seen.last_status, FLUSHED);
	assert_int_equal(state_of(ctx), DOCA_CTX_STATE_IDLE);
	assert_int_equal(echo->pool.allocated, 0);
	assert_int_equal(ctx->allocated, 0);
	doca_task_free(&t->base); /* freed already: refused, logged */
	assert_int_equal(echo->pool.allocated, 0);
}

static void test_free_while_submitted_v3(void **state)
{
	(void)state;
	free_while_submitted(300);
}

static void test_free_while_submitted_v25(void **state)
{
	(void)state;
	free_while_submitted(205);
}

/* A context whose data path is not a PE (DOCA: on the DPA or a GPU) has
 * nothing to progress: its stop ends inside the call. softdoca cannot start
 * one, so the test takes a started context off its PE. */
static void test_stop_without_pe(void **state)
{
	struct doca_ctx *ctx = &echo->base;

	(void)state;
	assert_doca_ok(doca_pe_connect_ctx(pe, ctx));
	assert_doca_ok(doca_ctx_start(ctx));
	LIST_REMOVE(ctx, pe_link);
	ctx->pe = NULL;
	echo->stop_pending = true;
	assert_doca_ok(doca_ctx_stop(ctx));
	assert_int_equal(state_of(ctx), DOCA_CTX_STATE_IDLE);
	assert_int_equal(seen.num_transitions, 3);
	assert_int_equal(seen.transitions[1], DOCA_CTX_STATE_STOPPING);
	assert_int_equal(seen.transitions[2], DOCA_CTX_STATE_IDLE);
	assert_int_equal(echo->stopped_calls, 1);
}

static void test_fatal_error_stops(void **state)
{
	struct doca_ctx *ctx = &echo->base;
	enum doca_ctx_states s;

	(void)state;
	assert_doca_ok(doca_pe_connect_ctx(pe, ctx));
	assert_doca_ok(doca_ctx_start(ctx));
	echo->complete_on_progress = false;
	assert_doca_ok(doca_task_submit(&alloc_echo(5, 5)->base));
	assert_doca_ok(doca_task_submit(&alloc_echo(6, 6)->base));
	seen.free_in_callback = true;
	seen.stop_in_callback = true;
	/* The library saw a fatal error: one task fails, the context stops. */
	complete_pending(echo, DOCA_ERROR_IO_FAILED);
	sdoca_ctx_fail(ctx);
	drain();
	assert_int_equal(seen.errors, 2);
	assert_int_equal(seen.state_seen_in_error, DOCA_CTX_STATE_STOPPING);
	assert_doca_ok(doca_ctx_get_state(ctx, &s));
	assert_int_equal(s, DOCA_CTX_STATE_IDLE);
}

struct completer {
	struct echo_ctx *echo;
	int total;
	_Atomic int done;
};

static void *complete_from_thread(void *arg)
{
	struct completer *c = arg;

	while (atomic_load(&c->done) < c->total) {
		int n = complete_pending(c->echo, DOCA_SUCCESS);

		if (n)
			atomic_fetch_add(&c->done, n);
		else
			sched_yield();
	}
	return NULL;
}

/* Completions from another thread arrive exactly once, in FIFO order per queue. */
static void test_completions_from_another_thread(void **state)
{
	enum { TOTAL = 20000 };
	struct doca_ctx *ctx = &echo->base;
	struct completer c = { .echo = echo, .total = TOTAL };
	pthread_t thread;
	int submitted = 0;

	(void)state;
	assert_doca_ok(doca_pe_connect_ctx(pe, ctx));
	assert_doca_ok(doca_ctx_start(ctx));
	echo->complete_on_progress = false;
	seen.free_in_callback = true;
	assert_int_equal(pthread_create(&thread, NULL, complete_from_thread, &c), 0);
	while (seen.successes < TOTAL) {
		struct doca_task *t;

		if (submitted < TOTAL && sdoca_task_alloc(ctx, &echo->pool, (union doca_data){ 0 },
		                                          &t) == DOCA_SUCCESS) {
			assert_doca_ok(doca_task_submit(t));
			submitted++;
		}
		doca_pe_progress(pe);
	}
	pthread_join(thread, NULL);
	assert_int_equal(seen.successes, TOTAL);
	assert_doca_ok(doca_ctx_stop(ctx));
}

static bool readable(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, timeout_ms) == 1 && (p.revents & POLLIN);
}

static void *complete_later(void *arg)
{
	complete_pending(arg, DOCA_SUCCESS);
	return NULL;
}

static void test_notification_handle(void **state)
{
	struct doca_ctx *ctx = &echo->base;
	doca_notification_handle_t fd;
	pthread_t thread;

	(void)state;
	assert_doca_ok(doca_pe_connect_ctx(pe, ctx));
	assert_doca_ok(doca_ctx_start(ctx));
	echo->complete_on_progress = false;
	seen.free_in_callback = true;
	assert_doca_ok(doca_pe_get_notification_handle(pe, &fd));
	assert_true(fd >= 0);

	assert_doca_ok(doca_task_submit(&alloc_echo(1, 1)->base));
	assert_doca_ok(doca_pe_request_notification(pe));
	assert_int_equal(echo->notify_requests, 1);
	assert_false(readable(fd, 0));
	/* A completion from another thread makes the armed handle readable. */
	assert_int_equal(pthread_create(&thread, NULL, complete_later, echo), 0);
	assert_true(readable(fd, 10000));
	pthread_join(thread, NULL);
	assert_doca_ok(doca_pe_clear_notification(pe, fd));
	assert_false(readable(fd, 0));
	drain();
	assert_int_equal(seen.successes, 1);

	/* Not armed: completions do not signal. */
	assert_doca_ok(doca_task_submit(&alloc_echo(1, 1)->base));
	complete_pending(echo, DOCA_SUCCESS);
	assert_false(readable(fd, 0));
	/* Arming with work already waiting signals at once (no lost wake-up). */
	assert_doca_ok(doca_pe_request_notification(pe));
	assert_true(readable(fd, 0));
	assert_doca_ok(doca_pe_clear_notification(pe, fd));
	drain();
	assert_int_equal(seen.successes, 2);

	/* PROGRESS_ALL: arming clears what was signalled before. */
	assert_doca_ok(doca_pe_set_event_mode(pe, DOCA_PE_EVENT_MODE_PROGRESS_ALL));
	assert_doca_err(doca_pe_set_event_mode(pe, (enum doca_pe_event_mode)9),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_pe_request_notification(pe));
	assert_false(readable(fd, 0));
	assert_doca_err(doca_pe_set_notification_handle(pe, fd, (union doca_data){ 0 }),
	                DOCA_ERROR_NOT_SUPPORTED);
	assert_doca_ok(doca_ctx_stop(ctx));
}

static void test_bad_arguments(void **state)
{
	size_t n;
	enum doca_ctx_states s;

	(void)state;
	assert_doca_err(doca_pe_create(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_pe_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_pe_connect_ctx(NULL, &echo->base), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_pe_connect_ctx(pe, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_pe_progress(NULL), 0);
	assert_doca_err(doca_ctx_start(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_ctx_stop(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_ctx_get_state(NULL, &s), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_ctx_get_num_inflight_tasks(&echo->base, NULL),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_pe_get_num_inflight_tasks(NULL, &n), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_task_submit(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_task_get_status(NULL), DOCA_ERROR_INVALID_VALUE);
	doca_task_free(NULL);
	assert_null(doca_task_get_ctx(NULL));
	assert_doca_err(doca_task_batch_submit(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_ctx_set_datapath_on_gpu(&echo->base, (struct doca_gpu *)0x1),
	                DOCA_ERROR_NOT_SUPPORTED);
	assert_doca_ok(doca_ctx_set_completion_vector(&echo->base, 0));
	assert_doca_err(doca_ctx_set_completion_vector(&echo->base, 1), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(sdoca_task_pool_configure(&echo->base, &echo->pool, &echo_type,
	                                          (sdoca_generic_cb_t)echo_ok, NULL, 4),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(sdoca_task_pool_configure(&echo->base, &echo->pool, &echo_type,
	                                          (sdoca_generic_cb_t)echo_ok,
	                                          (sdoca_generic_cb_t)echo_err, 0),
	                DOCA_ERROR_INVALID_VALUE);
}

#define CTX_TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		CTX_TEST(test_connect_and_sync_start),
		CTX_TEST(test_deferred_and_pending_start),
		CTX_TEST(test_task_round_trip),
		CTX_TEST(test_stop_flushes_in_flight),
		CTX_TEST(test_stop_waits_for_frees),
		CTX_TEST(test_stop_inside_callback_v3),
		CTX_TEST(test_stop_inside_callback_v25),
		CTX_TEST(test_stop_through_stopping_v3),
		CTX_TEST(test_stop_through_stopping_v25),
		CTX_TEST(test_stopping_handler_before_flush),
		CTX_TEST(test_free_while_submitted_v3),
		CTX_TEST(test_free_while_submitted_v25),
		CTX_TEST(test_stop_without_pe),
		CTX_TEST(test_fatal_error_stops),
		CTX_TEST(test_completions_from_another_thread),
		CTX_TEST(test_notification_handle),
		CTX_TEST(test_bad_arguments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
