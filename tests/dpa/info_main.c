/*
 * softdoca tests: a DPA program (the thread program's kernels,
 * thread_kernels.c, built by the dpacc stand-in) that another process
 * looks at while its DPA threads live (dpa_info.sh runs softdoca-info
 * --pid against it). It leaves threads in every state - finished after 5
 * activations with an EU affinity, a thread group's two ranks (one
 * finished, one waiting), a kernel that returns after 2 activations,
 * started but never run with a notification pending and a completion
 * context, created only, and a kernel still running (it spins until the
 * end) - checks what its own counters snapshot says of
 * them (softdoca_process_counters_get on itself, exact values), prints
 * "ready PID", and waits for a line on stdin before it tears down.
 */
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "unit/testing.h"

#include <doca_dpa.h>
#include <doca_dpa_dev.h>
#include <doca_sync_event.h>
#include <softdoca.h>

#include "thread_common.h"

extern struct doca_dpa_app *thread_test_app;
doca_dpa_func_t rpc_notify;
doca_dpa_func_t count_kernel;
doca_dpa_func_t ping_kernel;
doca_dpa_func_t pong_kernel;
doca_dpa_func_t return_kernel;
doca_dpa_func_t spin_kernel;

#define SETTLE_S 20 /* the threads reach their states long before */

static struct doca_dev *dev;
static struct doca_dpa *dpa;

struct test_thread {
	struct doca_dpa_thread *thread;
	struct doca_dpa_notification_completion *nc;
	doca_dpa_dev_notification_completion_t handle;
	doca_dpa_dev_uintptr_t storage;
	struct thread_state state;
	uint32_t id;
};

struct test_event {
	struct doca_sync_event *ev;
	doca_dpa_dev_sync_event_t handle;
};

static void event_create(struct test_event *e)
{
	assert_doca_ok(doca_sync_event_create(&e->ev));
	assert_doca_ok(doca_sync_event_add_publisher_location_dpa(e->ev, dpa));
	assert_doca_ok(doca_sync_event_add_subscriber_location_cpu(e->ev, dev));
	assert_doca_ok(doca_sync_event_start(e->ev));
	assert_doca_ok(doca_sync_event_get_dpa_handle(e->ev, dpa, &e->handle));
}

static void event_destroy(struct test_event *e)
{
	assert_doca_ok(doca_sync_event_stop(e->ev));
	assert_doca_ok(doca_sync_event_destroy(e->ev));
}

/* Created, its state in DPA memory, started, with its notification. */
static void thread_create(struct test_thread *t, doca_dpa_func_t *kernel)
{
	memset(t, 0, sizeof(*t));
	assert_doca_ok(doca_dpa_mem_alloc(dpa, sizeof(struct thread_state), &t->storage));
	assert_doca_ok(doca_dpa_memset(dpa, t->storage, 0, sizeof(struct thread_state)));
	assert_doca_ok(doca_dpa_thread_create(dpa, &t->thread));
	assert_doca_ok(doca_dpa_thread_get_id(t->thread, &t->id));
	assert_doca_ok(doca_dpa_thread_set_func_arg(t->thread, kernel, THREAD_ARG_MAGIC));
	assert_doca_ok(doca_dpa_thread_set_local_storage(t->thread, t->storage));
}

static void thread_start(struct test_thread *t)
{
	assert_doca_ok(doca_dpa_thread_start(t->thread));
	assert_doca_ok(doca_dpa_notification_completion_create(dpa, t->thread, &t->nc));
	assert_doca_ok(doca_dpa_notification_completion_start(t->nc));
	assert_doca_ok(doca_dpa_notification_completion_get_dpa_handle(t->nc, &t->handle));
	t->state.self = t->handle;
}

static void thread_put_state(struct test_thread *t)
{
	assert_doca_ok(doca_dpa_h2d_memcpy(dpa, t->storage, &t->state, sizeof(t->state)));
}

static void thread_destroy(struct test_thread *t)
{
	if (t->nc != NULL) {
		assert_doca_ok(doca_dpa_notification_completion_destroy(t->nc));
		assert_doca_ok(doca_dpa_thread_stop(t->thread));
	}
	assert_doca_ok(doca_dpa_thread_destroy(t->thread));
	assert_doca_ok(doca_dpa_mem_free(dpa, t->storage));
}

static void notify(struct test_thread *t)
{
	uint64_t ret = 1;
	assert_doca_ok(doca_dpa_rpc(dpa, &rpc_notify, &ret, t->handle));
	assert_int_equal(ret, 0);
}

static const struct softdoca_dpa_thread_counters *
find_thread(const struct softdoca_process_counters *pc, uint32_t id)
{
	for (uint32_t i = 0; i < pc->num_dpa_threads; i++)
		if (pc->dpa_threads[i].id == id)
			return &pc->dpa_threads[i];
	fail_msg("thread %u is not in the snapshot", id);
	return NULL;
}

/* This process's snapshot once only the spinning kernel runs and the
 * finishing ones have finished: the sync events told the kernels got
 * there, not that their host threads have gone back to wait. Bounded. */
static struct softdoca_process_counters *settled(uint32_t finished_a, uint32_t finished_b,
                                                 uint32_t spinning)
{
	time_t give_up = time(NULL) + SETTLE_S;
	for (;;) {
		struct softdoca_process_counters *pc;
		assert_doca_ok(softdoca_process_counters_get((uint32_t)getpid(), &pc));
		bool quiet = find_thread(pc, finished_a)->state == SOFTDOCA_DPA_THREAD_FINISHED &&
		             find_thread(pc, finished_b)->state == SOFTDOCA_DPA_THREAD_FINISHED;
		for (uint32_t i = 0; i < pc->num_dpa_threads; i++)
			quiet = quiet &&
			        (pc->dpa_threads[i].state == SOFTDOCA_DPA_THREAD_RUNNING) ==
			                (pc->dpa_threads[i].id == spinning);
		if (quiet)
			return pc;
		softdoca_process_counters_destroy(pc);
		if (time(NULL) > give_up)
			fail_msg("the DPA threads did not settle within %d s", SETTLE_S);
		sched_yield();
	}
}

static void expect_thread(const struct softdoca_process_counters *pc, const struct test_thread *t,
                          const char *kernel, enum softdoca_dpa_thread_state state,
                          uint64_t activations, uint32_t rank, uint32_t num_ranks)
{
	const struct softdoca_dpa_thread_counters *c = find_thread(pc, t->id);
	assert_int_equal(c->dpa, 0);
	assert_string_equal(c->kernel, kernel);
	assert_int_equal(c->state, state);
	assert_int_equal(c->activations, activations);
	assert_int_equal(c->rank, rank);
	assert_int_equal(c->num_ranks, num_ranks);
	if (activations == 0)
		assert_int_equal(c->ns_since_activation, SOFTDOCA_DPA_NEVER);
	else
		assert_true(c->ns_since_activation < (uint64_t)SETTLE_S * 1000000000u);
}

static void test_info_while_running(void **unused)
{
	(void)unused;
	struct test_thread fin, ping, pong, ret, parked, created, spin;
	struct test_event done_fin, done_pp, done_ret;
	struct doca_dpa_eu_affinity *aff;
	struct doca_dpa_tg *tg;
	struct doca_dpa_completion *comp;
	char ibdev[DOCA_DEVINFO_IBDEV_NAME_SIZE];

	dev = open_loopback_dev();
	assert_doca_ok(doca_devinfo_get_ibdev_name(doca_dev_as_devinfo(dev), ibdev, sizeof(ibdev)));
	assert_doca_ok(doca_dpa_create(dev, &dpa));
	assert_doca_ok(doca_dpa_set_app(dpa, thread_test_app));
	assert_doca_ok(doca_dpa_start(dpa));
	event_create(&done_fin);
	event_create(&done_pp);
	event_create(&done_ret);

	/* finished after 5 self-notified activations, on EU 7 */
	thread_create(&fin, count_kernel);
	assert_doca_ok(doca_dpa_eu_affinity_create(dpa, &aff));
	assert_doca_ok(doca_dpa_eu_affinity_set(aff, 7));
	assert_doca_ok(doca_dpa_thread_set_affinity(fin.thread, aff));
	thread_start(&fin);
	fin.state.limit = 5;
	fin.state.done = done_fin.handle;
	thread_put_state(&fin);
	assert_doca_ok(doca_dpa_thread_run(fin.thread));
	notify(&fin);
	assert_doca_ok(doca_sync_event_wait_gt(done_fin.ev, 4, UINT64_MAX));

	/* a group of two: pong finishes at its 3rd, ping waits after its 3rd */
	thread_create(&ping, ping_kernel);
	thread_create(&pong, pong_kernel);
	thread_start(&ping);
	thread_start(&pong);
	assert_doca_ok(doca_dpa_thread_group_create(dpa, 2, &tg));
	assert_doca_ok(doca_dpa_thread_group_set_thread(tg, ping.thread, 0));
	assert_doca_ok(doca_dpa_thread_group_set_thread(tg, pong.thread, 1));
	assert_doca_ok(doca_dpa_thread_group_start(tg));
	ping.state.peer = pong.handle;
	pong.state.peer = ping.handle;
	pong.state.limit = 3;
	pong.state.done = done_pp.handle;
	thread_put_state(&ping);
	thread_put_state(&pong);
	assert_doca_ok(doca_dpa_thread_run(ping.thread));
	assert_doca_ok(doca_dpa_thread_run(pong.thread));
	notify(&ping);
	assert_doca_ok(doca_sync_event_wait_gt(done_pp.ev, 2, UINT64_MAX));

	/* returns: two activations, then waits */
	thread_create(&ret, return_kernel);
	thread_start(&ret);
	ret.state.done = done_ret.handle;
	thread_put_state(&ret);
	assert_doca_ok(doca_dpa_thread_run(ret.thread));
	notify(&ret);
	assert_doca_ok(doca_sync_event_wait_gt(done_ret.ev, 0, UINT64_MAX));
	notify(&ret);
	assert_doca_ok(doca_sync_event_wait_gt(done_ret.ev, 1, UINT64_MAX));

	/* started, never run: its notification waits; a completion context on it */
	thread_create(&parked, count_kernel);
	assert_doca_ok(doca_dpa_completion_create(dpa, 16, &comp));
	assert_doca_ok(doca_dpa_completion_set_thread(comp, parked.thread));
	assert_doca_ok(doca_dpa_completion_start(comp));
	thread_start(&parked);
	notify(&parked);

	/* created only */
	thread_create(&created, return_kernel);

	/* running: its kernel spins until limit is set (at the end) */
	thread_create(&spin, spin_kernel);
	thread_start(&spin);
	assert_doca_ok(doca_dpa_thread_run(spin.thread));
	notify(&spin);

	struct softdoca_process_counters *pc = settled(fin.id, pong.id, spin.id);
	assert_int_equal(pc->num_dpas, 1);
	assert_string_equal(pc->dpas[0].app_name, "thread_test_app");
	assert_string_equal(pc->dpas[0].ibdev_name, ibdev);
	assert_int_equal(pc->dpas[0].started, 1);
	assert_int_equal(pc->dpas[0].last_error, DOCA_SUCCESS);
	assert_int_equal(pc->dpas[0].num_threads, 7);
	assert_int_equal(pc->dpas[0].mem_blocks, 7);
	assert_int_equal(pc->dpas[0].mem_bytes, 7 * sizeof(struct thread_state));
	unsigned int eus;
	assert_doca_ok(doca_dpa_get_total_num_eus_available(dpa, &eus));
	assert_int_equal(pc->dpas[0].num_eus, eus);
	assert_int_equal(pc->num_dpa_threads, 7);
	expect_thread(pc, &fin, "count_kernel", SOFTDOCA_DPA_THREAD_FINISHED, 5, 0, 1);
	expect_thread(pc, &ping, "ping_kernel", SOFTDOCA_DPA_THREAD_RUNNABLE, 3, 0, 2);
	expect_thread(pc, &pong, "pong_kernel", SOFTDOCA_DPA_THREAD_FINISHED, 3, 1, 2);
	expect_thread(pc, &ret, "return_kernel", SOFTDOCA_DPA_THREAD_RUNNABLE, 2, 0, 1);
	expect_thread(pc, &parked, "count_kernel", SOFTDOCA_DPA_THREAD_STARTED, 0, 0, 1);
	expect_thread(pc, &created, "return_kernel", SOFTDOCA_DPA_THREAD_CREATED, 0, 0, 0);
	expect_thread(pc, &spin, "spin_kernel", SOFTDOCA_DPA_THREAD_RUNNING, 1, 0, 1);
	assert_int_equal(find_thread(pc, fin.id)->eu, 7);
	assert_int_equal(find_thread(pc, ping.id)->eu, SOFTDOCA_DPA_NO_EU);
	assert_int_equal(find_thread(pc, parked.id)->trigger_pending, 1);
	assert_int_equal(find_thread(pc, ret.id)->trigger_pending, 0);
	assert_int_equal(find_thread(pc, parked.id)->completions, 1);
	assert_int_equal(find_thread(pc, fin.id)->completions, 0);
	softdoca_process_counters_destroy(pc);

	/* Another process looks now; it says when it is done. */
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	char line[64];
	assert_non_null(fgets(line, sizeof(line), stdin));
	assert_string_equal(line, "done\n");
	/* the spinning kernel may leave now (DPA memory is host memory) */
	__atomic_store_n(
	        (uint64_t *)(uintptr_t)(spin.storage + offsetof(struct thread_state, limit)), 1,
	        __ATOMIC_RELEASE);

	assert_doca_ok(doca_dpa_completion_destroy(comp));
	assert_doca_ok(doca_dpa_thread_group_stop(tg));
	assert_doca_ok(doca_dpa_thread_group_destroy(tg));
	thread_destroy(&fin);
	thread_destroy(&ping);
	thread_destroy(&pong);
	thread_destroy(&ret);
	thread_destroy(&parked);
	thread_destroy(&created);
	thread_destroy(&spin);
	assert_doca_ok(doca_dpa_eu_affinity_destroy(aff));
	event_destroy(&done_fin);
	event_destroy(&done_pp);
	event_destroy(&done_ret);
	assert_doca_ok(doca_dpa_peek_at_last_error(dpa));
	assert_doca_ok(doca_dpa_stop(dpa));
	assert_doca_ok(doca_dpa_destroy(dpa));
	assert_doca_ok(doca_dev_close(dev));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_info_while_running),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
