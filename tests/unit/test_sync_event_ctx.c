/*
 * Unit tests: a sync event as a DOCA context (doca_sync_event_as_ctx) - its
 * get, notify-set, notify-add and wait (eq, neq, DOCA 2.5's gt) tasks
 * through a progress engine; a wait completed by another thread's update
 * while the application sleeps on the PE's notification handle; a stop
 * that flushes the pending waits; the refusals between the two ways of
 * starting an event.
 */
#define SOFTDOCA_API_VERSION 205

#include <poll.h>
#include <pthread.h>
#include <string.h>

#include <doca_ctx.h>
#include <doca_pe.h>
#include <doca_sync_event.h>

#include "core/keys.h"
#include "unit/testing.h"

#define TASKS 4

static struct {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_sync_event *ev;
	struct doca_ctx *ctx;
	int done;
	doca_error_t last_status;
	union doca_data last_ud;
} t;

static void finished(struct doca_task *task, union doca_data ud)
{
	t.done++;
	t.last_status = doca_task_get_status(task);
	t.last_ud = ud;
	doca_task_free(task);
}

#define CALLBACK(name)                                                                      \
	static void cb_##name(struct doca_sync_event_task_##name *task, union doca_data ud, \
	                      union doca_data cud)                                          \
	{                                                                                   \
		(void)cud;                                                                  \
		finished(doca_sync_event_task_##name##_as_doca_task(task), ud);             \
	}
CALLBACK(get)
CALLBACK(notify_set)
CALLBACK(notify_add)
CALLBACK(wait_eq)
CALLBACK(wait_neq)
CALLBACK(wait_gt)

static int setup(void **state)
{
	(void)state;
	memset(&t, 0, sizeof(t));
	t.dev = open_loopback_dev();
	assert_doca_ok(doca_pe_create(&t.pe));
	assert_doca_ok(doca_sync_event_create(&t.ev));
	assert_doca_ok(doca_sync_event_add_publisher_location_cpu(t.ev, t.dev));
	assert_doca_ok(doca_sync_event_add_subscriber_location_cpu(t.ev, t.dev));
	t.ctx = doca_sync_event_as_ctx(t.ev);
	assert_non_null(t.ctx);
	assert_doca_ok(doca_pe_connect_ctx(t.pe, t.ctx));
	assert_doca_ok(doca_sync_event_task_get_set_conf(t.ev, cb_get, cb_get, TASKS));
	assert_doca_ok(doca_sync_event_task_notify_set_set_conf(t.ev, cb_notify_set, cb_notify_set,
	                                                        TASKS));
	assert_doca_ok(doca_sync_event_task_notify_add_set_conf(t.ev, cb_notify_add, cb_notify_add,
	                                                        TASKS));
	assert_doca_ok(doca_sync_event_task_wait_eq_set_conf(t.ev, cb_wait_eq, cb_wait_eq, TASKS));
	assert_doca_ok(
	        doca_sync_event_task_wait_neq_set_conf(t.ev, cb_wait_neq, cb_wait_neq, TASKS));
	assert_doca_ok(doca_sync_event_task_wait_gt_set_conf(t.ev, cb_wait_gt, cb_wait_gt, TASKS));
	assert_doca_ok(doca_ctx_start(t.ctx));
	return 0;
}

static void progress_until_idle(void)
{
	enum doca_ctx_states state = DOCA_CTX_STATE_RUNNING;

	for (int i = 0; i < 1000000 && state != DOCA_CTX_STATE_IDLE; i++) {
		doca_pe_progress(t.pe);
		assert_doca_ok(doca_ctx_get_state(t.ctx, &state));
	}
	assert_int_equal(state, DOCA_CTX_STATE_IDLE);
}

static int teardown(void **state)
{
	enum doca_ctx_states st;
	doca_error_t status;

	(void)state;
	assert_doca_ok(doca_ctx_get_state(t.ctx, &st));
	if (st != DOCA_CTX_STATE_IDLE) {
		status = doca_ctx_stop(t.ctx);
		assert_true(status == DOCA_SUCCESS || status == DOCA_ERROR_IN_PROGRESS);
		progress_until_idle();
	}
	assert_doca_ok(doca_sync_event_destroy(t.ev));
	assert_doca_ok(doca_pe_destroy(t.pe));
	assert_doca_ok(doca_dev_close(t.dev));
	return 0;
}

/* Progresses until n more callbacks ran (bounded). */
static void progress_for(int n)
{
	int want = t.done + n;

	for (int i = 0; i < 1000000 && t.done < want; i++)
		doca_pe_progress(t.pe);
	assert_int_equal(t.done, want);
}

static void test_states(void **state)
{
	enum doca_ctx_states st;
	uint32_t keys = sdoca_keys_live();

	(void)state;
	assert_doca_ok(doca_ctx_get_state(t.ctx, &st));
	assert_int_equal(st, DOCA_CTX_STATE_RUNNING);
	/* a running context is started: neither the other start nor a destroy */
	assert_doca_err(doca_sync_event_start(t.ev), DOCA_ERROR_BAD_STATE);
	assert_doca_err(doca_sync_event_stop(t.ev), DOCA_ERROR_BAD_STATE);
	assert_doca_err(doca_sync_event_destroy(t.ev), DOCA_ERROR_BAD_STATE);
	assert_doca_err(doca_sync_event_add_publisher_location_remote_net(t.ev),
	                DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_ctx_stop(t.ctx)); /* nothing in flight: IDLE at once */
	assert_doca_ok(doca_ctx_get_state(t.ctx, &st));
	assert_int_equal(st, DOCA_CTX_STATE_IDLE);
	assert_int_equal(sdoca_keys_live(), keys - 1);
	/* started alone now: the context refuses to start */
	assert_doca_ok(doca_sync_event_start(t.ev));
	assert_doca_err(doca_ctx_start(t.ctx), DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_sync_event_stop(t.ev));
}

static void test_get_set_add(void **state)
{
	struct doca_sync_event_task_get *get;
	struct doca_sync_event_task_notify_set *set;
	struct doca_sync_event_task_notify_add *add;
	union doca_data ud = { .u64 = 7 };
	uint64_t got = 1, fetched = 0, v;

	(void)state;
	assert_doca_ok(doca_sync_event_task_notify_set_alloc_init(t.ev, UINT64_MAX, ud, &set));
	assert_true(doca_sync_event_task_notify_set_get_set_val(set) == UINT64_MAX);
	assert_doca_ok(doca_task_submit(doca_sync_event_task_notify_set_as_doca_task(set)));
	progress_for(1);
	assert_int_equal(t.last_ud.u64, 7);
	assert_doca_ok(doca_sync_event_get(t.ev, &v));
	assert_true(v == UINT64_MAX);

	assert_doca_ok(doca_sync_event_task_notify_add_alloc_init(t.ev, 3, &fetched, ud, &add));
	doca_sync_event_task_notify_add_set_inc_val(add, 5);
	assert_int_equal(doca_sync_event_task_notify_add_get_inc_val(add), 5);
	assert_ptr_equal(doca_sync_event_task_notify_add_get_fetched_val_ptr(add), &fetched);
	assert_doca_ok(doca_task_submit(doca_sync_event_task_notify_add_as_doca_task(add)));
	progress_for(1);
	assert_true(fetched == UINT64_MAX); /* and the value wrapped around to 4 */

	assert_doca_ok(doca_sync_event_task_get_alloc_init(t.ev, &got, ud, &get));
	assert_ptr_equal(doca_sync_event_task_get_get_ret_val_ptr(get), &got);
	assert_doca_ok(doca_task_submit(doca_sync_event_task_get_as_doca_task(get)));
	progress_for(1);
	assert_int_equal(t.last_status, DOCA_SUCCESS);
	assert_int_equal(got, 4);
	assert_doca_err(doca_sync_event_task_get_alloc_init(t.ev, NULL, ud, &get),
	                DOCA_ERROR_INVALID_VALUE);
}

/* Waits complete once their masked condition holds, seen at a progress. */
static void test_waits(void **state)
{
	struct doca_sync_event_task_wait_eq *eq;
	struct doca_sync_event_task_wait_neq *neq;
	struct doca_sync_event_task_wait_gt *gt;
	union doca_data ud = { .u64 = 0 };

	(void)state;
	assert_doca_ok(doca_sync_event_update_set(t.ev, 0x10));
	assert_doca_ok(doca_sync_event_task_wait_eq_alloc_init(t.ev, 0x2, 0xF, ud, &eq));
	assert_doca_ok(doca_sync_event_task_wait_neq_alloc_init(t.ev, 0x10, 0xF0, ud, &neq));
	assert_doca_ok(doca_sync_event_task_wait_gt_alloc_init(t.ev, 0, 0, ud, &gt));
	doca_sync_event_task_wait_gt_set_wait_val(gt, 0x100);
	doca_sync_event_task_wait_gt_set_mask(gt, 0xF00);
	assert_int_equal(doca_sync_event_task_wait_gt_get_mask(gt), 0xF00);
	assert_int_equal(doca_sync_event_task_wait_eq_get_wait_val(eq), 0x2);
	assert_int_equal(doca_sync_event_task_wait_neq_get_mask(neq), 0xF0);
	assert_doca_ok(doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(eq)));
	assert_doca_ok(doca_task_submit(doca_sync_event_task_wait_neq_as_doca_task(neq)));
	assert_doca_ok(doca_task_submit(doca_sync_event_task_wait_gt_as_doca_task(gt)));
	for (int i = 0; i < 100; i++)
		doca_pe_progress(t.pe);
	assert_int_equal(t.done, 0);
	assert_doca_ok(doca_sync_event_update_set(t.ev, 0x32)); /* eq and neq hold */
	progress_for(2);
	assert_doca_ok(doca_sync_event_update_set(t.ev, 0x232)); /* gt holds */
	progress_for(1);
	assert_int_equal(t.last_status, DOCA_SUCCESS);
}

static void *update_later(void *arg)
{
	(void)arg;
	doca_sync_event_update_set(t.ev, 9);
	return NULL;
}

/* An armed PE wakes when another thread's update satisfies a pending wait. */
static void test_wait_wakes_pe(void **state)
{
	struct doca_sync_event_task_wait_eq *eq;
	union doca_data ud = { .u64 = 0 };
	doca_notification_handle_t fd;
	struct pollfd p;
	pthread_t thread;

	(void)state;
	assert_doca_ok(doca_pe_get_notification_handle(t.pe, &fd));
	assert_doca_ok(doca_sync_event_task_wait_eq_alloc_init(t.ev, 9, UINT64_MAX, ud, &eq));
	assert_doca_ok(doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(eq)));
	assert_doca_ok(doca_pe_request_notification(t.pe));
	assert_int_equal(pthread_create(&thread, NULL, update_later, NULL), 0);
	p = (struct pollfd){ .fd = fd, .events = POLLIN };
	assert_int_equal(poll(&p, 1, 60000), 1);
	assert_int_equal(pthread_join(thread, NULL), 0);
	assert_doca_ok(doca_pe_clear_notification(t.pe, fd));
	progress_for(1);
	assert_int_equal(t.last_status, DOCA_SUCCESS);
}

/* A stop completes the pending waits with SHUTDOWN, then the context idles. */
static void test_stop_flushes(void **state)
{
	struct doca_sync_event_task_wait_neq *neq;
	union doca_data ud = { .u64 = 0 };

	(void)state;
	assert_doca_ok(doca_sync_event_task_wait_neq_alloc_init(t.ev, 0, UINT64_MAX, ud, &neq));
	assert_doca_ok(doca_task_submit(doca_sync_event_task_wait_neq_as_doca_task(neq)));
	assert_doca_err(doca_ctx_stop(t.ctx), DOCA_ERROR_IN_PROGRESS);
	progress_until_idle();
	assert_int_equal(t.done, 1);
	assert_int_equal(t.last_status, DOCA_ERROR_SHUTDOWN);
	/* tasks are allocated while RUNNING only */
	assert_doca_err(doca_sync_event_task_wait_neq_alloc_init(t.ev, 0, 0, ud, &neq),
	                DOCA_ERROR_BAD_STATE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_states, setup, teardown),
		cmocka_unit_test_setup_teardown(test_get_set_add, setup, teardown),
		cmocka_unit_test_setup_teardown(test_waits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wait_wakes_pe, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_flushes, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
