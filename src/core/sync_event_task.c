/*
 * A sync event as a DOCA context (doca_sync_event_as_ctx).
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * A sync event as a DOCA context (doca_sync_event_as_ctx): its tasks run
 * through the progress engine it is connected to.
 *
 * Get, notify-set and notify-add act at submit and complete at once (their
 * callbacks run in the next doca_pe_progress). A wait (eq, neq, DOCA 2.5's
 * gt) that does not hold yet stays pending: each progress of the PE looks
 * at the pending waits, and a change of the value by anyone - a local
 * update, a task, a peer's remote set or add applied by the service thread
 * - also wakes a PE that sleeps on its notification handle. Stopping the
 * context completes the pending waits with DOCA_ERROR_SHUTDOWN.
 *
 * Every task type shares one object (struct se_task) and one path; a row
 * per type carries its name and submit step. This file sees the DOCA 2.5
 * view of the header (wait-gt) besides DOCA 3's.
 */
#define SOFTDOCA_API_VERSION 205

#include <string.h>

#include <doca_sync_event.h>

#include "core/sdk_log.h"
#include "core/sync_event.h"

SDOCA_LOG_MODULE(sync_event_task);

#define WAIT_FLUSH_STATUS DOCA_ERROR_SHUTDOWN

struct se_task {
	struct doca_task base;
	uint64_t *ptr; /* get: where the value goes; notify-add: the value before */
	uint64_t val;  /* notify-set: the value; notify-add: what to add; waits: the threshold */
	uint64_t mask; /* waits */
	enum sdoca_se_cond cond;
};

/* The public task types are the common task under their own name. */
#define SE_PUBLIC_TASK(name)                 \
	struct doca_sync_event_task_##name { \
		struct se_task t;            \
	}
SE_PUBLIC_TASK(get);
SE_PUBLIC_TASK(notify_set);
SE_PUBLIC_TASK(notify_add);
SE_PUBLIC_TASK(wait_eq);
SE_PUBLIC_TASK(wait_neq);
SE_PUBLIC_TASK(wait_gt);

static struct se_task *to_task(struct doca_task *task)
{
	return sdoca_container_of(task, struct se_task, base);
}

static struct doca_sync_event *event_of(struct doca_ctx *ctx)
{
	return sdoca_container_of(ctx, struct doca_sync_event, ctx);
}

/* --- what each type does at submit --- */

static doca_error_t submit_get(struct doca_task *task)
{
	struct se_task *t = to_task(task);

	*t->ptr = sdoca_se_load(event_of(task->ctx));
	sdoca_task_complete(task, DOCA_SUCCESS);
	return DOCA_SUCCESS;
}

static doca_error_t submit_notify_set(struct doca_task *task)
{
	struct doca_sync_event *ev = event_of(task->ctx);

	__atomic_store_n(ev->value, to_task(task)->val, __ATOMIC_SEQ_CST);
	sdoca_se_changed(ev);
	sdoca_task_complete(task, DOCA_SUCCESS);
	return DOCA_SUCCESS;
}

static doca_error_t submit_notify_add(struct doca_task *task)
{
	struct doca_sync_event *ev = event_of(task->ctx);
	struct se_task *t = to_task(task);
	uint64_t old = __atomic_fetch_add(ev->value, t->val, __ATOMIC_SEQ_CST);

	sdoca_se_changed(ev);
	if (t->ptr)
		*t->ptr = old;
	sdoca_task_complete(task, DOCA_SUCCESS);
	return DOCA_SUCCESS;
}

static bool wait_holds(struct doca_sync_event *ev, const struct se_task *t)
{
	return sdoca_se_holds(sdoca_se_load(ev), t->cond, t->val, t->mask);
}

static doca_error_t submit_wait(struct doca_task *task)
{
	struct doca_sync_event *ev = event_of(task->ctx);

	/* Counted before the check: a change from now on wakes the PE. */
	atomic_fetch_add(&ev->task_waits, 1);
	if (wait_holds(ev, to_task(task))) {
		atomic_fetch_sub(&ev->task_waits, 1);
		sdoca_task_complete(task, DOCA_SUCCESS);
		return DOCA_SUCCESS;
	}
	task->qnext = ev->pending;
	ev->pending = task;
	return DOCA_SUCCESS;
}

/* Completes the pending waits that hold now (all of them when flushing). */
static bool settle_waits(struct doca_sync_event *ev, bool flush)
{
	struct doca_task **at = &ev->pending, *task;
	bool any = false;

	while ((task = *at)) {
		if (!flush && !wait_holds(ev, to_task(task))) {
			at = &task->qnext;
			continue;
		}
		*at = task->qnext;
		atomic_fetch_sub(&ev->task_waits, 1);
		sdoca_task_complete(task, flush ? WAIT_FLUSH_STATUS : DOCA_SUCCESS);
		any = true;
	}
	return any;
}

/* --- the context --- */

static doca_error_t se_start(struct doca_ctx *ctx, enum sdoca_start *how)
{
	struct doca_sync_event *ev = event_of(ctx);

	if (ev->started)
		return sdoca_fail(
		        DOCA_ERROR_BAD_STATE,
		        "doca_ctx_start: the sync event was started with doca_sync_event_start");
	*how = SDOCA_START_DONE;
	return sdoca_se_activate(ev);
}

static void se_stop(struct doca_ctx *ctx)
{
	settle_waits(event_of(ctx), true);
}

static void se_stopped(struct doca_ctx *ctx)
{
	sdoca_se_deactivate(event_of(ctx));
}

static bool se_progress(struct doca_ctx *ctx)
{
	struct doca_sync_event *ev = event_of(ctx);

	return ev->pending && settle_waits(ev, false);
}

const struct sdoca_ctx_ops sdoca_se_ctx_ops = {
	.name = "sync event",
	.start = se_start,
	.stop = se_stop,
	.stopped = se_stopped,
	.progress = se_progress,
};

/* --- the table --- */

#define INVOKER(name)                                                                 \
	SDOCA_TASK_INVOKER(invoke_##name, struct doca_sync_event_task_##name, t.base, \
	                   doca_sync_event_task_##name##_completion_cb_t)
INVOKER(get)
INVOKER(notify_set)
INVOKER(notify_add)
INVOKER(wait_eq)
INVOKER(wait_neq)
INVOKER(wait_gt)

#define ROW(label, tname, submit_fn)                                                     \
	{                                                                                \
		.name = label, .size = sizeof(struct se_task), .invoke = invoke_##tname, \
		.submit = submit_fn                                                      \
	}

static const struct sdoca_task_type types[SDOCA_SE_TASK_KINDS] = {
	[SDOCA_SE_TASK_GET] = ROW("sync event get", get, submit_get),
	[SDOCA_SE_TASK_NOTIFY_SET] = ROW("sync event notify-set", notify_set, submit_notify_set),
	[SDOCA_SE_TASK_NOTIFY_ADD] = ROW("sync event notify-add", notify_add, submit_notify_add),
	[SDOCA_SE_TASK_WAIT_EQ] = ROW("sync event wait-eq", wait_eq, submit_wait),
	[SDOCA_SE_TASK_WAIT_NEQ] = ROW("sync event wait-neq", wait_neq, submit_wait),
	[SDOCA_SE_TASK_WAIT_GT] = ROW("sync event wait-gt", wait_gt, submit_wait),
};

static doca_error_t set_conf(struct doca_sync_event *ev, enum sdoca_se_task_kind kind,
                             sdoca_generic_cb_t ok, sdoca_generic_cb_t err, uint32_t num_tasks)
{
	if (!sdoca_arg_valid(ev))
		return DOCA_ERROR_INVALID_VALUE;
	return sdoca_task_pool_configure(&ev->ctx, &ev->pools[kind], &types[kind], ok, err,
	                                 num_tasks);
}

/* A task of the kind from the event's pool (the context must be RUNNING). */
static doca_error_t alloc(struct doca_sync_event *ev, enum sdoca_se_task_kind kind,
                          union doca_data user_data, const struct se_task *args,
                          struct se_task **out)
{
	struct doca_task *task;
	doca_error_t status;

	if (!sdoca_arg_valid(ev))
		return DOCA_ERROR_INVALID_VALUE;
	status = sdoca_task_alloc(&ev->ctx, &ev->pools[kind], user_data, &task);
	if (status != DOCA_SUCCESS)
		return status;
	*out = to_task(task);
	(*out)->ptr = args->ptr;
	(*out)->val = args->val;
	(*out)->mask = args->mask;
	(*out)->cond = args->cond;
	return DOCA_SUCCESS;
}

/* alloc into task_out, a public task type's pointer (every struct pointer
 * has the same representation, C11 6.2.5: copied, not aliased). */
static doca_error_t allocate(struct doca_sync_event *ev, enum sdoca_se_task_kind kind,
                             union doca_data user_data, const struct se_task *args, void *task_out)
{
	struct se_task *t;
	doca_error_t status = alloc(ev, kind, user_data, args, &t);

	if (status == DOCA_SUCCESS)
		memcpy(task_out, &t, sizeof(t));
	return status;
}

/* What a public *_alloc_init returns: a task of the kind with the given
 * fields (designated initializers of struct se_task), stored in *task. The
 * argument is checked here, so that the log names the public function. */
#define SE_ALLOCATE(kind, event, user_data, task, ...)                                    \
	(sdoca_arg_valid(task) ? allocate((event), (kind), (user_data),                   \
	                                  &(const struct se_task){ __VA_ARGS__ }, (task)) \
	                       : DOCA_ERROR_INVALID_VALUE)

/* The public functions every task type has, one macro call each that names
 * the function in full (tests/headers/check_compatibility.py reads such a
 * call as its definition). Setters and getters trust the task, as DOCA's do. */
#define SE_CAP(fn)                                                            \
	DOCA_EXPERIMENTAL doca_error_t fn(const struct doca_devinfo *devinfo) \
	{                                                                     \
		if (!sdoca_arg_valid(devinfo))                                \
			return DOCA_ERROR_INVALID_VALUE;                      \
		return DOCA_SUCCESS;                                          \
	}
#define SE_SET_CONF(fn, name, kind)                                                              \
	DOCA_EXPERIMENTAL doca_error_t fn(                                                       \
	        struct doca_sync_event *event, doca_sync_event_task_##name##_completion_cb_t ok, \
	        doca_sync_event_task_##name##_completion_cb_t err, uint32_t num_tasks)           \
	{                                                                                        \
		return set_conf(event, kind, (sdoca_generic_cb_t)ok, (sdoca_generic_cb_t)err,    \
		                num_tasks);                                                      \
	}
#define SE_AS_TASK(fn, name)                                                             \
	DOCA_EXPERIMENTAL struct doca_task *fn(struct doca_sync_event_task_##name *task) \
	{                                                                                \
		return task ? &task->t.base : NULL;                                      \
	}
#define SE_SETTER(fn, name, type, field)                                                \
	DOCA_EXPERIMENTAL void fn(struct doca_sync_event_task_##name *task, type value) \
	{                                                                               \
		task->t.field = value;                                                  \
	}
#define SE_GETTER(fn, name, type, field)                                          \
	DOCA_EXPERIMENTAL type fn(const struct doca_sync_event_task_##name *task) \
	{                                                                         \
		return task->t.field;                                             \
	}

/* ========================= get ========================= */

SE_CAP(doca_sync_event_cap_task_get_is_supported)
SE_SET_CONF(doca_sync_event_task_get_set_conf, get, SDOCA_SE_TASK_GET)

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_get_alloc_init(
        struct doca_sync_event *event, uint64_t *ret_val_ptr, union doca_data user_data,
        struct doca_sync_event_task_get **task)
{
	if (!sdoca_arg_valid(ret_val_ptr))
		return DOCA_ERROR_INVALID_VALUE;
	return SE_ALLOCATE(SDOCA_SE_TASK_GET, event, user_data, task, .ptr = ret_val_ptr);
}

SE_AS_TASK(doca_sync_event_task_get_as_doca_task, get)
SE_SETTER(doca_sync_event_task_get_set_ret_val_ptr, get, uint64_t *, ptr)
SE_GETTER(doca_sync_event_task_get_get_ret_val_ptr, get, uint64_t *, ptr)

/* ========================= notify-set ========================= */

SE_CAP(doca_sync_event_cap_task_notify_set_is_supported)
SE_SET_CONF(doca_sync_event_task_notify_set_set_conf, notify_set, SDOCA_SE_TASK_NOTIFY_SET)

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_notify_set_alloc_init(
        struct doca_sync_event *event, uint64_t set_val, union doca_data user_data,
        struct doca_sync_event_task_notify_set **task)
{
	return SE_ALLOCATE(SDOCA_SE_TASK_NOTIFY_SET, event, user_data, task, .val = set_val);
}

SE_AS_TASK(doca_sync_event_task_notify_set_as_doca_task, notify_set)
SE_SETTER(doca_sync_event_task_notify_set_set_set_val, notify_set, uint64_t, val)
SE_GETTER(doca_sync_event_task_notify_set_get_set_val, notify_set, uint64_t, val)

/* ========================= notify-add ========================= */

SE_CAP(doca_sync_event_cap_task_notify_add_is_supported)
SE_SET_CONF(doca_sync_event_task_notify_add_set_conf, notify_add, SDOCA_SE_TASK_NOTIFY_ADD)

/* fetched_val_ptr may be NULL: the value before the add is then not kept. */
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_notify_add_alloc_init(
        struct doca_sync_event *event, uint64_t inc_val, uint64_t *fetched_val_ptr,
        union doca_data user_data, struct doca_sync_event_task_notify_add **task)
{
	return SE_ALLOCATE(SDOCA_SE_TASK_NOTIFY_ADD, event, user_data, task, .ptr = fetched_val_ptr,
	                   .val = inc_val);
}

SE_AS_TASK(doca_sync_event_task_notify_add_as_doca_task, notify_add)
SE_SETTER(doca_sync_event_task_notify_add_set_inc_val, notify_add, uint64_t, val)
SE_GETTER(doca_sync_event_task_notify_add_get_inc_val, notify_add, uint64_t, val)
SE_SETTER(doca_sync_event_task_notify_add_set_fetched_val_ptr, notify_add, uint64_t *, ptr)
SE_GETTER(doca_sync_event_task_notify_add_get_fetched_val_ptr, notify_add, uint64_t *, ptr)

/* ========================= waits ========================= */

SE_CAP(doca_sync_event_cap_task_wait_eq_is_supported)
SE_SET_CONF(doca_sync_event_task_wait_eq_set_conf, wait_eq, SDOCA_SE_TASK_WAIT_EQ)

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_wait_eq_alloc_init(
        struct doca_sync_event *event, uint64_t wait_val, uint64_t mask, union doca_data user_data,
        struct doca_sync_event_task_wait_eq **task)
{
	return SE_ALLOCATE(SDOCA_SE_TASK_WAIT_EQ, event, user_data, task, .val = wait_val,
	                   .mask = mask, .cond = SDOCA_SE_EQ);
}

SE_AS_TASK(doca_sync_event_task_wait_eq_as_doca_task, wait_eq)
SE_SETTER(doca_sync_event_task_wait_eq_set_wait_val, wait_eq, uint64_t, val)
SE_GETTER(doca_sync_event_task_wait_eq_get_wait_val, wait_eq, uint64_t, val)
SE_SETTER(doca_sync_event_task_wait_eq_set_mask, wait_eq, uint64_t, mask)
SE_GETTER(doca_sync_event_task_wait_eq_get_mask, wait_eq, uint64_t, mask)

SE_CAP(doca_sync_event_cap_task_wait_neq_is_supported)
SE_SET_CONF(doca_sync_event_task_wait_neq_set_conf, wait_neq, SDOCA_SE_TASK_WAIT_NEQ)

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_wait_neq_alloc_init(
        struct doca_sync_event *event, uint64_t wait_val, uint64_t mask, union doca_data user_data,
        struct doca_sync_event_task_wait_neq **task)
{
	return SE_ALLOCATE(SDOCA_SE_TASK_WAIT_NEQ, event, user_data, task, .val = wait_val,
	                   .mask = mask, .cond = SDOCA_SE_NEQ);
}

SE_AS_TASK(doca_sync_event_task_wait_neq_as_doca_task, wait_neq)
SE_SETTER(doca_sync_event_task_wait_neq_set_wait_val, wait_neq, uint64_t, val)
SE_GETTER(doca_sync_event_task_wait_neq_get_wait_val, wait_neq, uint64_t, val)
SE_SETTER(doca_sync_event_task_wait_neq_set_mask, wait_neq, uint64_t, mask)
SE_GETTER(doca_sync_event_task_wait_neq_get_mask, wait_neq, uint64_t, mask)

/* DOCA 2.5 (declared for SOFTDOCA_API_VERSION below 300). */

SE_CAP(doca_sync_event_cap_task_wait_gt_is_supported)
SE_SET_CONF(doca_sync_event_task_wait_gt_set_conf, wait_gt, SDOCA_SE_TASK_WAIT_GT)

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_wait_gt_alloc_init(
        struct doca_sync_event *event, uint64_t wait_val, uint64_t mask, union doca_data user_data,
        struct doca_sync_event_task_wait_gt **task)
{
	return SE_ALLOCATE(SDOCA_SE_TASK_WAIT_GT, event, user_data, task, .val = wait_val,
	                   .mask = mask, .cond = SDOCA_SE_GT);
}

SE_AS_TASK(doca_sync_event_task_wait_gt_as_doca_task, wait_gt)
SE_SETTER(doca_sync_event_task_wait_gt_set_wait_val, wait_gt, uint64_t, val)
SE_GETTER(doca_sync_event_task_wait_gt_get_wait_val, wait_gt, uint64_t, val)
SE_SETTER(doca_sync_event_task_wait_gt_set_mask, wait_gt, uint64_t, mask)
SE_GETTER(doca_sync_event_task_wait_gt_get_mask, wait_gt, uint64_t, mask)
