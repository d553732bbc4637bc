/*
 * softdoca tests: the host part of the launch program built by the dpacc
 * stand-in (launch_kernels.c): a launch gated on an event the host sets;
 * 64 ranks each writing its rank into DPA memory; the completion event set
 * vs added to; two launches starting in submission order; a kernel waiting
 * in doca_dpa_dev_sync_event_wait_gt for an event the host sets later; a
 * kernel cancelled at a 1 s max run time (TIME_OUT); doca_dpa_stop with one
 * launch waiting in its kernel and one gated. `launch_main fault` makes a
 * launched kernel write through a wild pointer (the launch_fault test),
 * `launch_main stuck` destroys the DPA under a kernel that never leaves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "unit/testing.h"

#include <doca_dpa.h>
#include <doca_sync_event.h>

#include "launch_common.h"

extern struct doca_dpa_app *launch_test_app;
doca_dpa_func_t rank_kernel;
doca_dpa_func_t mark_kernel;
doca_dpa_func_t wait_kernel;
doca_dpa_func_t fault_kernel;
doca_dpa_func_t spin_kernel;

/* A DPA, its device, and events the host and kernels share. */
struct world {
	struct doca_dev *dev;
	struct doca_dpa *dpa;
	struct doca_sync_event *gate, *comp, *comp2, *started;
	doca_dpa_dev_sync_event_t gate_h, started_h;
	doca_dpa_dev_uintptr_t mem; /* DPA memory: slots or records */
};

static struct world w;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct doca_sync_event *event_new(void)
{
	struct doca_sync_event *ev;
	assert_doca_ok(doca_sync_event_create(&ev));
	assert_doca_ok(doca_sync_event_add_publisher_location_cpu(ev, w.dev));
	assert_doca_ok(doca_sync_event_add_publisher_location_dpa(ev, w.dpa));
	assert_doca_ok(doca_sync_event_add_subscriber_location_dpa(ev, w.dpa));
	assert_doca_ok(doca_sync_event_add_subscriber_location_cpu(ev, w.dev));
	assert_doca_ok(doca_sync_event_start(ev));
	return ev;
}

static void event_free(struct doca_sync_event *ev)
{
	assert_doca_ok(doca_sync_event_stop(ev));
	assert_doca_ok(doca_sync_event_destroy(ev));
}

static uint64_t value_of(struct doca_sync_event *ev)
{
	uint64_t v = 0;
	assert_doca_ok(doca_sync_event_get(ev, &v));
	return v;
}

/* max_run_s: SOFTDOCA_DPA_KERNEL_MAX_RUN_S for this DPA, NULL = default. */
static void world_up(const char *max_run_s)
{
	memset(&w, 0, sizeof(w));
	w.dev = open_loopback_dev();
	if (max_run_s != NULL)
		setenv("SOFTDOCA_DPA_KERNEL_MAX_RUN_S", max_run_s, 1);
	assert_doca_ok(doca_dpa_create(w.dev, &w.dpa));
	unsetenv("SOFTDOCA_DPA_KERNEL_MAX_RUN_S");
	assert_doca_ok(doca_dpa_set_app(w.dpa, launch_test_app));
	assert_doca_ok(doca_dpa_start(w.dpa));
	w.gate = event_new();
	w.comp = event_new();
	w.comp2 = event_new();
	w.started = event_new();
	assert_doca_ok(doca_sync_event_get_dpa_handle(w.gate, w.dpa, &w.gate_h));
	assert_doca_ok(doca_sync_event_get_dpa_handle(w.started, w.dpa, &w.started_h));
	size_t size = LAUNCH_MAX_RANKS * sizeof(struct rank_record);
	assert_doca_ok(doca_dpa_mem_alloc(w.dpa, size, &w.mem));
	assert_doca_ok(doca_dpa_memset(w.dpa, w.mem, 0, size));
}

static void world_down(void)
{
	assert_doca_ok(doca_dpa_mem_free(w.dpa, w.mem));
	assert_doca_ok(doca_dpa_destroy(w.dpa));
	event_free(w.gate);
	event_free(w.comp);
	event_free(w.comp2);
	event_free(w.started);
	assert_doca_ok(doca_dev_close(w.dev));
}

static void slots_get(uint64_t *slots, size_t n)
{
	assert_doca_ok(doca_dpa_d2h_memcpy(w.dpa, slots, w.mem, n * sizeof(uint64_t)));
}

/* Gated on the host's set; 64 ranks write theirs; set vs add. */
static void test_gate_ranks_set_add(void **unused)
{
	(void)unused;
	world_up(NULL);
	unsigned int max_threads;
	assert_doca_ok(doca_dpa_get_max_threads_per_kernel(w.dpa, &max_threads));
	assert_true(max_threads >= LAUNCH_MAX_RANKS);
	double t0 = now_s();
	assert_doca_ok(doca_dpa_kernel_launch_update_set(w.dpa, w.gate, 0, w.comp, 1,
	                                                 LAUNCH_MAX_RANKS, &rank_kernel, w.mem));
	assert_int_equal(value_of(w.comp), 0);
	assert_doca_ok(doca_sync_event_update_set(w.gate, 1)); /* releases it */
	assert_doca_ok(doca_sync_event_wait_gt(w.comp, 0, UINT64_MAX));
	printf("gated launch of %d threads: %.0f us from the release to the completion\n",
	       LAUNCH_MAX_RANKS, (now_s() - t0) * 1e6);
	struct rank_record records[LAUNCH_MAX_RANKS];
	assert_doca_ok(doca_dpa_d2h_memcpy(w.dpa, records, w.mem, sizeof(records)));
	for (unsigned int r = 0; r < LAUNCH_MAX_RANKS; r++) {
		assert_int_equal(records[r].rank, r + 1);
		assert_int_equal(records[r].num_threads, LAUNCH_MAX_RANKS);
	}

	/* add: once per launch, whatever its thread count. The two launches run
	 * at once: each writes records of its own. */
	assert_doca_ok(doca_sync_event_update_set(w.comp, 10));
	assert_doca_ok(doca_dpa_kernel_launch_update_add(w.dpa, NULL, 0, w.comp, 5, 4, &rank_kernel,
	                                                 w.mem));
	assert_doca_ok(doca_dpa_kernel_launch_update_add(w.dpa, NULL, 0, w.comp, 5, 1, &rank_kernel,
	                                                 w.mem + 4 * sizeof(struct rank_record)));
	assert_doca_ok(doca_sync_event_wait_gt(w.comp, 19, UINT64_MAX));
	assert_int_equal(value_of(w.comp), 20);
	/* set: the value becomes the count, lower or not. */
	assert_doca_ok(doca_dpa_kernel_launch_update_set(w.dpa, NULL, 0, w.comp, 3, 2, &rank_kernel,
	                                                 w.mem));
	assert_doca_ok(doca_sync_event_wait_eq(w.comp, 3, UINT64_MAX));
	assert_doca_ok(doca_dpa_peek_at_last_error(w.dpa));
	world_down();
}

/* 200 launches one after the other, each waited for: pool threads reused. */
static void test_launch_latency(void **unused)
{
	(void)unused;
	world_up(NULL);
	double t0 = now_s();
	for (uint64_t i = 1; i <= 200; i++) {
		assert_doca_ok(doca_dpa_kernel_launch_update_set(w.dpa, NULL, 0, w.comp, i, 4,
		                                                 &rank_kernel, w.mem));
		assert_doca_ok(doca_sync_event_wait_gt(w.comp, i - 1, UINT64_MAX));
	}
	printf("launch of 4 threads to its completion, one at a time: %.1f us each\n",
	       (now_s() - t0) * 1e6 / 200);
	struct rank_record records[4];
	assert_doca_ok(doca_dpa_d2h_memcpy(w.dpa, records, w.mem, sizeof(records)));
	for (unsigned int r = 0; r < 4; r++)
		assert_int_equal(records[r].rank, r + 1);
	world_down();
}

/* A launch gated on the event, then one with no gate: the second starts
 * only after the first did. A struct argument by value. */
static void test_order(void **unused)
{
	(void)unused;
	world_up(NULL);
	struct mark first = { .index = 0, .value = 111 }, second = { .index = 1, .value = 222 };
	assert_doca_ok(doca_dpa_kernel_launch_update_set(w.dpa, w.gate, 4, w.comp, 1, 1,
	                                                 &mark_kernel, w.mem, first));
	assert_doca_ok(doca_dpa_kernel_launch_update_set(w.dpa, NULL, 0, w.comp2, 1, 1,
	                                                 &mark_kernel, w.mem, second));
	assert_doca_ok(doca_sync_event_update_set(w.gate, 4)); /* not above the threshold */
	struct timespec pause = { 0, 50000000 };
	nanosleep(&pause, NULL); /* room for a launch that ignored its place */
	uint64_t slots[2];
	slots_get(slots, 2);
	assert_int_equal(slots[0], 0);
	assert_int_equal(slots[1], 0);
	assert_int_equal(value_of(w.comp2), 0);
	assert_doca_ok(doca_sync_event_update_add(w.gate, 1, &(uint64_t){ 0 }));
	assert_doca_ok(doca_sync_event_wait_gt(w.comp, 0, UINT64_MAX));
	assert_doca_ok(doca_sync_event_wait_gt(w.comp2, 0, UINT64_MAX));
	slots_get(slots, 2);
	assert_int_equal(slots[0], 111);
	assert_int_equal(slots[1], 222);
	world_down();
}

/* Kernels waiting in wait_gt for an event the host sets later. */
static void test_kernel_wait(void **unused)
{
	(void)unused;
	world_up(NULL);
	assert_doca_ok(doca_dpa_kernel_launch_update_set(w.dpa, NULL, 0, w.comp, 1, 1, &wait_kernel,
	                                                 w.started_h, w.gate_h, (uint64_t)41,
	                                                 w.mem));
	assert_doca_ok(doca_sync_event_wait_gt(w.started, 0, UINT64_MAX));
	assert_doca_ok(doca_sync_event_update_set(w.gate, 41)); /* not enough */
	assert_doca_ok(doca_sync_event_update_set(w.gate, 42));
	assert_doca_ok(doca_sync_event_wait_gt(w.comp, 0, UINT64_MAX));
	uint64_t seen;
	slots_get(&seen, 1);
	assert_int_equal(seen, 42);
	assert_doca_ok(doca_dpa_peek_at_last_error(w.dpa));
	world_down();
}

/* SOFTDOCA_DPA_KERNEL_MAX_RUN_S=1: a kernel waiting for an event nobody
 * sets is cancelled in its wait; the launch completes, TIME_OUT stays. */
static void test_max_run_time(void **unused)
{
	(void)unused;
	world_up("1");
	unsigned long long max_run;
	assert_doca_ok(doca_dpa_get_kernel_max_run_time(w.dpa, &max_run));
	assert_int_equal(max_run, 1);
	double t0 = now_s();
	assert_doca_ok(doca_dpa_kernel_launch_update_set(w.dpa, NULL, 0, w.comp, 1, 2, &wait_kernel,
	                                                 w.started_h, w.gate_h, (uint64_t)0,
	                                                 w.mem));
	assert_doca_ok(doca_sync_event_wait_gt(w.comp, 0, UINT64_MAX));
	double took = now_s() - t0;
	printf("kernel cancelled after %.3f s (max run time 1 s)\n", took);
	assert_true(took >= 0.99 && took < 3.0);
	assert_int_equal(value_of(w.started), 2);
	uint64_t seen = 1;
	slots_get(&seen, 1);
	assert_int_equal(seen, 0); /* never got past its wait */
	assert_doca_err(doca_dpa_peek_at_last_error(w.dpa), DOCA_ERROR_TIME_OUT);
	world_down();
}

/* doca_dpa_stop with a launch waiting in its kernel and one gated behind
 * it: both are ended at once and signal nothing. */
static void test_stop_waiting(void **unused)
{
	(void)unused;
	world_up(NULL);
	assert_doca_ok(doca_dpa_kernel_launch_update_set(w.dpa, NULL, 0, w.comp, 1, 3, &wait_kernel,
	                                                 w.started_h, w.gate_h, (uint64_t)0,
	                                                 w.mem));
	struct mark m = { .index = 2, .value = 7 };
	assert_doca_ok(doca_dpa_kernel_launch_update_set(w.dpa, w.gate, 0, w.comp2, 1, 1,
	                                                 &mark_kernel, w.mem, m));
	assert_doca_ok(doca_sync_event_wait_gt(w.started, 2, UINT64_MAX));
	double t0 = now_s();
	assert_doca_ok(doca_dpa_stop(w.dpa));
	double took = now_s() - t0;
	printf("doca_dpa_stop with 3 kernels waiting and 1 launch gated: %.1f ms\n", took * 1e3);
	assert_true(took < 1.0);
	assert_int_equal(value_of(w.comp), 0);
	assert_int_equal(value_of(w.comp2), 0);
	assert_doca_ok(doca_dpa_peek_at_last_error(w.dpa));
	/* Started again with the gate open: the dropped launch stays dropped,
	 * a new one runs. */
	assert_doca_ok(doca_dpa_start(w.dpa));
	assert_doca_ok(doca_sync_event_update_set(w.gate, 1));
	struct mark again = { .index = 3, .value = 8 };
	assert_doca_ok(doca_dpa_kernel_launch_update_set(w.dpa, NULL, 0, w.comp, 1, 1, &mark_kernel,
	                                                 w.mem, again));
	assert_doca_ok(doca_sync_event_wait_gt(w.comp, 0, UINT64_MAX));
	uint64_t slots[4];
	slots_get(slots, 4);
	assert_int_equal(slots[2], 0);
	assert_int_equal(slots[3], 8);
	assert_int_equal(value_of(w.comp2), 0);
	world_down();
}

/* The death test's body (launch_fault): never returns. */
static int run_fault(void)
{
	world_up(NULL);
	assert_doca_ok(doca_dpa_kernel_launch_update_set(w.dpa, NULL, 0, w.comp, 1, 2,
	                                                 &fault_kernel, (uint64_t)16));
	doca_sync_event_wait_gt(w.comp, 0, UINT64_MAX); /* never updated */
	fprintf(stderr, "launch_main fault: still alive\n");
	return 0;
}

/* launch_stuck: a kernel that makes no device call cannot be cancelled;
 * doca_dpa_destroy waits 2 s for it, then returns and leaves the DPA (and
 * its memory) to it. Prints one line for expect_stdout.sh. */
static int run_stuck(void)
{
	world_up(NULL);
	assert_doca_ok(doca_dpa_kernel_launch_update_set(w.dpa, NULL, 0, NULL, 0, 1, &spin_kernel,
	                                                 w.started_h, w.mem));
	assert_doca_ok(doca_sync_event_wait_gt(w.started, 0, UINT64_MAX));
	double t0 = now_s();
	assert_doca_ok(doca_dpa_destroy(w.dpa));
	double took = now_s() - t0;
	assert_true(took >= 1.9 && took < 4.0);
	/* Device memory is host memory, still allocated: let the kernel go. */
	__atomic_store_n((uint64_t *)(uintptr_t)w.mem, 1, __ATOMIC_RELEASE);
	event_free(w.gate);
	event_free(w.comp);
	event_free(w.comp2);
	event_free(w.started);
	assert_doca_ok(doca_dev_close(w.dev));
	printf("stuck: doca_dpa_destroy returned after %.1f s\n", took);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "stuck") == 0)
		return run_stuck();
	if (argc > 1 && strcmp(argv[1], "fault") == 0)
		return run_fault();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gate_ranks_set_add),
		cmocka_unit_test(test_launch_latency),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_kernel_wait),
		cmocka_unit_test(test_max_run_time),
		cmocka_unit_test(test_stop_waiting),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
