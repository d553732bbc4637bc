/*
 * softdoca tests: the host part of the thread program built by the dpacc
 * stand-in (thread_kernels.c): an RPC notifies a DPA thread; a thread
 * notifying itself 10,000 times loses no activation; two DPA threads of a
 * thread group ping-pong 100 round trips through notify, counting in their
 * local storage; a thread that returns is started again from the top; a
 * kernel's sync-event update wakes a host waiter; threads stop cleanly
 * whether parked, never run or finished. `thread_main fault` makes a
 * kernel write through a wild pointer (the death test in thread_fault.sh).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "unit/testing.h"

#include <doca_dpa.h>
#include <doca_dpa_dev.h>
#include <doca_sync_event.h>

#include "thread_common.h"

extern struct doca_dpa_app *thread_test_app;
doca_dpa_func_t rpc_notify;
doca_dpa_func_t count_kernel;
doca_dpa_func_t ping_kernel;
doca_dpa_func_t pong_kernel;
doca_dpa_func_t return_kernel;
doca_dpa_func_t fault_kernel;

static struct doca_dev *dev;
static struct doca_dpa *dpa;

/* A DPA thread with its state in DPA memory and its notification. */
struct test_thread {
	struct doca_dpa_thread *thread;
	struct doca_dpa_notification_completion *nc;
	doca_dpa_dev_notification_completion_t handle;
	doca_dpa_dev_uintptr_t storage;
	struct thread_state state;
};

/* An event a kernel publishes and the host waits on. */
struct test_event {
	struct doca_sync_event *ev;
	doca_dpa_dev_sync_event_t handle;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int setup(void **state)
{
	(void)state;
	dev = open_loopback_dev();
	assert_doca_ok(doca_dpa_create(dev, &dpa));
	assert_doca_ok(doca_dpa_set_app(dpa, thread_test_app));
	assert_doca_ok(doca_dpa_start(dpa));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	assert_doca_ok(doca_dpa_peek_at_last_error(dpa));
	assert_doca_ok(doca_dpa_stop(dpa));
	assert_doca_ok(doca_dpa_destroy(dpa));
	assert_doca_ok(doca_dev_close(dev));
	return 0;
}

static void event_create(struct test_event *e)
{
	assert_doca_ok(doca_sync_event_create(&e->ev));
	assert_doca_ok(doca_sync_event_add_publisher_location_dpa(e->ev, dpa));
	assert_doca_ok(doca_sync_event_add_subscriber_location_cpu(e->ev, dev));
	assert_doca_ok(doca_sync_event_start(e->ev));
	assert_doca_ok(doca_sync_event_get_dpa_handle(e->ev, dpa, &e->handle));
	assert_int_not_equal(e->handle, 0);
}

static void event_destroy(struct test_event *e)
{
	assert_doca_ok(doca_sync_event_stop(e->ev));
	assert_doca_ok(doca_sync_event_destroy(e->ev));
}

static void thread_create(struct test_thread *t, doca_dpa_func_t *kernel)
{
	memset(t, 0, sizeof(*t));
	assert_doca_ok(doca_dpa_mem_alloc(dpa, sizeof(struct thread_state), &t->storage));
	assert_doca_ok(doca_dpa_memset(dpa, t->storage, 0, sizeof(struct thread_state)));
	assert_doca_ok(doca_dpa_thread_create(dpa, &t->thread));
	assert_doca_ok(doca_dpa_thread_set_func_arg(t->thread, kernel, THREAD_ARG_MAGIC));
	assert_doca_ok(doca_dpa_thread_set_local_storage(t->thread, t->storage));
	assert_doca_ok(doca_dpa_thread_start(t->thread));
	assert_doca_ok(doca_dpa_notification_completion_create(dpa, t->thread, &t->nc));
	assert_doca_ok(doca_dpa_notification_completion_start(t->nc));
	assert_doca_ok(doca_dpa_notification_completion_get_dpa_handle(t->nc, &t->handle));
	t->state.self = t->handle;
}

/* The kernel reads its state only when activated: written after start. */
static void thread_put_state(struct test_thread *t)
{
	assert_doca_ok(doca_dpa_h2d_memcpy(dpa, t->storage, &t->state, sizeof(t->state)));
}

static void thread_get_state(struct test_thread *t)
{
	assert_doca_ok(doca_dpa_d2h_memcpy(dpa, &t->state, t->storage, sizeof(t->state)));
}

/* Stops the thread (joined), keeps its last state in t->state. */
static void thread_destroy(struct test_thread *t)
{
	assert_doca_ok(doca_dpa_notification_completion_destroy(t->nc));
	assert_doca_ok(doca_dpa_thread_stop(t->thread));
	thread_get_state(t);
	assert_doca_ok(doca_dpa_thread_destroy(t->thread));
	assert_doca_ok(doca_dpa_mem_free(dpa, t->storage));
}

static void test_count_10000(void **unused)
{
	(void)unused;
	struct test_event done;
	struct test_thread t;
	event_create(&done);
	thread_create(&t, count_kernel);
	t.state.limit = 10000;
	t.state.done = done.handle;
	thread_put_state(&t);
	assert_doca_ok(doca_dpa_thread_run(t.thread));
	uint64_t ret = 1;
	double t0 = now_s();
	assert_doca_ok(doca_dpa_rpc(dpa, &rpc_notify, &ret, t.handle));
	assert_int_equal(ret, 0);
	assert_doca_ok(doca_sync_event_wait_gt(done.ev, 9999, UINT64_MAX));
	printf("10000 activations: %.0f ns each\n", (now_s() - t0) * 1e9 / 10000);
	thread_get_state(&t);
	assert_int_equal(t.state.count, 10000);
	assert_int_equal(t.state.bad_arg, 0);
	assert_int_equal(t.state.rank, 1); /* rank 0 of 1 outside a group */
	uint64_t v = 0;
	assert_doca_ok(doca_sync_event_get(done.ev, &v));
	assert_int_equal(v, 10000);
	/* Finished: further notifications are dropped. */
	doca_dpa_dev_thread_notify(t.handle);
	thread_destroy(&t);
	assert_int_equal(t.state.count, 10000);
	event_destroy(&done);
}

static void test_ping_pong(void **unused)
{
	(void)unused;
	struct test_event done;
	struct test_thread ping, pong;
	struct doca_dpa_tg *tg;
	event_create(&done);
	thread_create(&ping, ping_kernel);
	thread_create(&pong, pong_kernel);
	assert_doca_ok(doca_dpa_thread_group_create(dpa, 2, &tg));
	assert_doca_ok(doca_dpa_thread_group_set_thread(tg, ping.thread, 0));
	assert_doca_ok(doca_dpa_thread_group_set_thread(tg, pong.thread, 1));
	assert_doca_ok(doca_dpa_thread_group_start(tg));
	ping.state.peer = pong.handle;
	pong.state.peer = ping.handle;
	pong.state.limit = 100;
	pong.state.done = done.handle;
	thread_put_state(&ping);
	thread_put_state(&pong);
	assert_doca_ok(doca_dpa_thread_run(ping.thread));
	assert_doca_ok(doca_dpa_thread_run(pong.thread));
	uint64_t ret = 1;
	double t0 = now_s();
	assert_doca_ok(doca_dpa_rpc(dpa, &rpc_notify, &ret, ping.handle));
	assert_doca_ok(doca_sync_event_wait_gt(done.ev, 99, UINT64_MAX));
	printf("100 round trips: %.1f us each\n", (now_s() - t0) * 1e6 / 100);
	thread_get_state(&ping);
	thread_get_state(&pong);
	assert_int_equal(ping.state.count, 100);
	assert_int_equal(pong.state.count, 100);
	assert_int_equal(ping.state.rank, 1);
	assert_int_equal(pong.state.rank, 2);
	assert_int_equal(ping.state.bad_arg + pong.state.bad_arg, 0);
	assert_doca_ok(doca_dpa_thread_group_stop(tg));
	assert_doca_ok(doca_dpa_thread_group_destroy(tg));
	thread_destroy(&ping);
	thread_destroy(&pong);
	event_destroy(&done);
}

static void test_return(void **unused)
{
	(void)unused;
	struct test_event done;
	struct test_thread t;
	event_create(&done);
	thread_create(&t, return_kernel);
	t.state.done = done.handle;
	thread_put_state(&t);
	/* A notification before run is kept until it. */
	uint64_t ret = 1;
	assert_doca_ok(doca_dpa_rpc(dpa, &rpc_notify, &ret, t.handle));
	assert_doca_ok(doca_dpa_thread_run(t.thread));
	assert_doca_ok(doca_sync_event_wait_gt(done.ev, 0, UINT64_MAX));
	/* Notified from host code this time. */
	doca_dpa_dev_thread_notify(t.handle);
	assert_doca_ok(doca_sync_event_wait_gt(done.ev, 1, UINT64_MAX));
	thread_get_state(&t);
	assert_int_equal(t.state.count, 2);
	thread_destroy(&t);
	event_destroy(&done);
}

static void test_stop_idle(void **unused)
{
	(void)unused;
	struct test_thread parked, never_run;
	thread_create(&parked, count_kernel);
	thread_create(&never_run, count_kernel);
	assert_doca_ok(doca_dpa_thread_run(parked.thread));
	/* A notification of a thread never run is dropped by its stop. */
	doca_dpa_dev_thread_notify(never_run.handle);
	thread_destroy(&parked);
	thread_destroy(&never_run);
	assert_int_equal(parked.state.count, 0);
	assert_int_equal(never_run.state.count, 0);
}

/* The death test's body: never returns. */
static int run_fault(void)
{
	setup(NULL);
	struct test_thread t;
	thread_create(&t, fault_kernel);
	t.state.fault_at = 16; /* unmapped */
	thread_put_state(&t);
	assert_doca_ok(doca_dpa_thread_run(t.thread));
	struct test_event done;
	event_create(&done);
	doca_dpa_dev_thread_notify(t.handle);
	doca_sync_event_wait_gt(done.ev, 0, UINT64_MAX); /* never updated */
	fprintf(stderr, "thread_main fault: still alive\n");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "fault") == 0)
		return run_fault();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_10000),
		cmocka_unit_test(test_ping_pong),
		cmocka_unit_test(test_return),
		cmocka_unit_test(test_stop_idle),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
