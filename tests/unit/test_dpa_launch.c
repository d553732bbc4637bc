/*
 * softdoca tests: libdoca_dpa's kernel launches (src/dpa/launch.c) with a
 * hand-made program image: bad input, ranks, the wait event's threshold,
 * submission order, set vs add on the completion event, no completion
 * event, finish and reschedule in a launch, a kernel's wait_gt (and an
 * RPC's) cancelled at the max run time, a stop with launches gated and running, and pool
 * threads ending when idle.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "unit/testing.h"

#include <doca_dpa.h>
#include <doca_dpa_dev.h>
#include <doca_dpa_dev_rdma.h>
#include <doca_dpa_dev_sync_event.h>
#include <doca_sync_event.h>
#include <softdoca_dpa_app.h>

unsigned int sdoca_dpa_launch_pool_threads(void);

#define MAX_RANKS 16

/* What the kernels leave for the test. */
static uint64_t slots[MAX_RANKS];
static uint64_t order[8];
static atomic_uint order_n;
static atomic_uint waiting;
static sem_t ran;

/* slots[rank] = rank + 1 | num_threads << 32 (atomic: launches running at
 * once write the same slots). */
static void lk_record(uint64_t unused)
{
	(void)unused;
	unsigned int rank = doca_dpa_dev_thread_rank();
	if (rank < MAX_RANKS)
		__atomic_store_n(&slots[rank],
		                 (rank + 1) | (uint64_t)doca_dpa_dev_num_threads() << 32,
		                 __ATOMIC_RELAXED);
}

/* Appends id to order, then posts ran. */
static void lk_order(uint64_t id)
{
	order[atomic_fetch_add(&order_n, 1) % 8] = id;
	sem_post(&ran);
}

enum { LEAVE_FINISH = 1, LEAVE_RESCHEDULE = 2, LEAVE_BAD_POST = 3 };

static atomic_uint after_bad_post; /* never: the post ends the instance */

static void lk_leave(uint64_t how)
{
	if (how == LEAVE_FINISH)
		doca_dpa_dev_thread_finish();
	if (how == LEAVE_BAD_POST) {
		/* no RDMA context: nothing to complete on */
		doca_dpa_dev_rdma_post_send(0x1234, 0, 0, 0, 8, DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH);
		atomic_fetch_add(&after_bad_post, 1);
	}
	doca_dpa_dev_thread_reschedule();
}

struct wait_args {
	uint64_t handle;
	uint64_t value;
};

/* Says it waits, then waits until the event's value > value. */
static void lk_wait(uint64_t handle, uint64_t value)
{
	atomic_fetch_add(&waiting, 1);
	sem_post(&ran);
	doca_dpa_dev_sync_event_wait_gt(handle, value, UINT64_MAX);
}

static void one_pack(va_list *ap, void *frame)
{
	*(uint64_t *)frame = va_arg(*ap, uint64_t);
}

#define ONE_ARG_CALL(k)                             \
	static uint64_t k##_call(const void *frame) \
	{                                           \
		k(*(const uint64_t *)frame);        \
		return 0;                           \
	}
ONE_ARG_CALL(lk_record)
ONE_ARG_CALL(lk_order)
ONE_ARG_CALL(lk_leave)

static void wait_pack(va_list *ap, void *frame)
{
	struct wait_args *a = frame;
	a->handle = va_arg(*ap, uint64_t);
	a->value = va_arg(*ap, uint64_t);
}

static uint64_t lk_wait_call(const void *frame)
{
	const struct wait_args *a = frame;
	lk_wait(a->handle, a->value);
	return 0;
}

static uint64_t an_rpc(uint64_t x)
{
	return x;
}

static uint64_t an_rpc_call(const void *frame)
{
	return an_rpc(*(const uint64_t *)frame);
}

/* An RPC waiting for an event nobody sets: ended at the max run time. */
static uint64_t rpc_wait(uint64_t handle)
{
	doca_dpa_dev_sync_event_wait_gt(handle, 0, UINT64_MAX);
	return 1;
}

static uint64_t rpc_wait_call(const void *frame)
{
	return rpc_wait(*(const uint64_t *)frame);
}

static void not_in_program(void)
{
}

#define K1(k) (void (*)(void)) k, sizeof(uint64_t), _Alignof(uint64_t), one_pack, k##_call
static const struct softdoca_dpa_kernel kernels[] = {
	{ "lk_record", SOFTDOCA_DPA_KERNEL_GLOBAL, 1, K1(lk_record) },
	{ "lk_order", SOFTDOCA_DPA_KERNEL_GLOBAL, 1, K1(lk_order) },
	{ "lk_leave", SOFTDOCA_DPA_KERNEL_GLOBAL, 1, K1(lk_leave) },
	{ "lk_wait", SOFTDOCA_DPA_KERNEL_GLOBAL, 2, (void (*)(void))lk_wait,
	  sizeof(struct wait_args), _Alignof(struct wait_args), wait_pack, lk_wait_call },
	{ "an_rpc", SOFTDOCA_DPA_KERNEL_RPC, 1, K1(an_rpc) },
	{ "rpc_wait", SOFTDOCA_DPA_KERNEL_RPC, 1, K1(rpc_wait) },
};
static const struct softdoca_dpa_kernel_table tables[] = { { "l.c", kernels, 6 } };
static const struct softdoca_dpa_app_image image = { SOFTDOCA_DPA_APP_MAGIC,
	                                             SOFTDOCA_DPA_APP_LAYOUT, 1, "launch_app",
	                                             tables };
#define APP ((struct doca_dpa_app *)(void *)&image)
#define FN(k) ((doca_dpa_func_t *)(void (*)(void))k)

struct fixture {
	struct doca_dev *dev;
	struct doca_dpa *dpa;
	struct doca_sync_event *wait_ev; /* the host sets it */
	struct doca_sync_event *comp_ev; /* launches signal it */
	struct doca_sync_event *comp2_ev;
};

static struct doca_sync_event *event_new(struct fixture *f)
{
	struct doca_sync_event *ev;
	assert_doca_ok(doca_sync_event_create(&ev));
	assert_doca_ok(doca_sync_event_add_publisher_location_cpu(ev, f->dev));
	assert_doca_ok(doca_sync_event_add_publisher_location_dpa(ev, f->dpa));
	assert_doca_ok(doca_sync_event_add_subscriber_location_dpa(ev, f->dpa));
	assert_doca_ok(doca_sync_event_add_subscriber_location_cpu(ev, f->dev));
	assert_doca_ok(doca_sync_event_start(ev));
	return ev;
}

static void event_free(struct doca_sync_event *ev)
{
	assert_doca_ok(doca_sync_event_stop(ev));
	assert_doca_ok(doca_sync_event_destroy(ev));
}

/* max_run: SOFTDOCA_DPA_KERNEL_MAX_RUN_S for this DPA, NULL = default. */
static int setup_with(void **state, const char *max_run, const char *eus)
{
	struct fixture *f = calloc(1, sizeof(*f));
	f->dev = open_loopback_dev();
	if (max_run != NULL)
		setenv("SOFTDOCA_DPA_KERNEL_MAX_RUN_S", max_run, 1);
	if (eus != NULL)
		setenv("SOFTDOCA_DPA_EUS", eus, 1);
	assert_doca_ok(doca_dpa_create(f->dev, &f->dpa));
	unsetenv("SOFTDOCA_DPA_KERNEL_MAX_RUN_S");
	unsetenv("SOFTDOCA_DPA_EUS");
	assert_doca_ok(doca_dpa_set_app(f->dpa, APP));
	assert_doca_ok(doca_dpa_start(f->dpa));
	f->wait_ev = event_new(f);
	f->comp_ev = event_new(f);
	f->comp2_ev = event_new(f);
	memset(slots, 0, sizeof(slots));
	memset(order, 0, sizeof(order));
	atomic_store(&order_n, 0);
	atomic_store(&waiting, 0);
	sem_init(&ran, 0, 0);
	*state = f;
	return 0;
}

static int setup(void **state)
{
	return setup_with(state, NULL, NULL);
}

static int setup_short_run(void **state)
{
	return setup_with(state, "1", NULL);
}

static int setup_four_eus(void **state)
{
	return setup_with(state, NULL, "4");
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	assert_doca_ok(doca_dpa_destroy(f->dpa)); /* stops the launcher too */
	event_free(f->wait_ev);
	event_free(f->comp_ev);
	event_free(f->comp2_ev);
	assert_doca_ok(doca_dev_close(f->dev));
	sem_destroy(&ran);
	free(f);
	return 0;
}

static uint64_t value_of(struct doca_sync_event *ev)
{
	uint64_t v = 0;
	assert_doca_ok(doca_sync_event_get(ev, &v));
	return v;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Waits for a kernel's sem_post, bounded so a lost one fails the test. */
static void wait_ran(void)
{
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 10;
	assert_int_equal(sem_timedwait(&ran, &until), 0);
}

static void test_bad_input(void **state)
{
	struct fixture *f = *state;
	struct doca_sync_event *c = f->comp_ev;
	assert_doca_err(doca_dpa_kernel_launch_update_set(NULL, NULL, 0, c, 1, 1, FN(lk_order),
	                                                  (uint64_t)1),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_dpa_kernel_launch_update_set(f->dpa, NULL, 0, c, 1, 1, NULL),
	                DOCA_ERROR_INVALID_VALUE);
	/* 1..max_threads_per_kernel (4 here) threads. */
	assert_doca_err(doca_dpa_kernel_launch_update_set(f->dpa, NULL, 0, c, 1, 0, FN(lk_order),
	                                                  (uint64_t)1),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_dpa_kernel_launch_update_add(f->dpa, NULL, 0, c, 1, 5, FN(lk_order),
	                                                  (uint64_t)1),
	                DOCA_ERROR_INVALID_VALUE);
	/* Not a kernel of the program, or an RPC. */
	assert_doca_err(
	        doca_dpa_kernel_launch_update_set(f->dpa, NULL, 0, c, 1, 1, FN(not_in_program)),
	        DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_dpa_kernel_launch_update_set(f->dpa, NULL, 0, c, 1, 1, FN(an_rpc), 1),
	                DOCA_ERROR_INVALID_VALUE);
	/* None of them ran. */
	assert_int_equal(value_of(c), 0);
	assert_doca_ok(doca_dpa_peek_at_last_error(f->dpa));
	/* The maximum is allowed. */
	assert_doca_ok(doca_dpa_kernel_launch_update_set(f->dpa, NULL, 0, c, 9, 4, FN(lk_record),
	                                                 (uint64_t)0));
	assert_doca_ok(doca_sync_event_wait_gt(c, 8, UINT64_MAX));
	assert_int_equal(slots[3], 4 | 4ull << 32);
	/* A stopped DPA launches nothing. */
	assert_doca_ok(doca_dpa_stop(f->dpa));
	assert_doca_err(doca_dpa_kernel_launch_update_set(f->dpa, NULL, 0, c, 1, 1, FN(lk_order),
	                                                  (uint64_t)1),
	                DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_dpa_start(f->dpa));
}

static void test_ranks(void **state)
{
	struct fixture *f = *state;
	assert_doca_ok(doca_dpa_kernel_launch_update_set(f->dpa, NULL, 0, f->comp_ev, 1, MAX_RANKS,
	                                                 FN(lk_record), (uint64_t)0));
	assert_doca_ok(doca_sync_event_wait_gt(f->comp_ev, 0, UINT64_MAX));
	for (unsigned int r = 0; r < MAX_RANKS; r++)
		assert_int_equal(slots[r], (r + 1) | (uint64_t)MAX_RANKS << 32);
	assert_doca_ok(doca_dpa_peek_at_last_error(f->dpa));
}

/* A launch starts once the wait event's value exceeds the threshold; a
 * later launch with no gate waits behind it (launches start in submission
 * order), then both run. */
static void test_threshold_and_order(void **state)
{
	struct fixture *f = *state;
	assert_doca_ok(doca_dpa_kernel_launch_update_set(f->dpa, f->wait_ev, 5, f->comp_ev, 10, 1,
	                                                 FN(lk_order), (uint64_t)1));
	assert_doca_ok(doca_dpa_kernel_launch_update_add(f->dpa, NULL, 0, f->comp2_ev, 1, 1,
	                                                 FN(lk_order), (uint64_t)2));
	assert_doca_ok(doca_sync_event_update_set(f->wait_ev, 5)); /* not above 5 */
	/* Not proof, but a launch that ignored the gate would have run by now. */
	struct timespec pause = { 0, 50000000 };
	nanosleep(&pause, NULL);
	assert_int_equal(atomic_load(&order_n), 0);
	assert_int_equal(value_of(f->comp_ev), 0);
	assert_int_equal(value_of(f->comp2_ev), 0);
	assert_doca_ok(doca_sync_event_update_set(f->wait_ev, 6));
	assert_doca_ok(doca_sync_event_wait_gt(f->comp_ev, 9, UINT64_MAX));
	assert_doca_ok(doca_sync_event_wait_gt(f->comp2_ev, 0, UINT64_MAX));
	/* Both ran once; started in order, they run concurrently. */
	assert_int_equal(atomic_load(&order_n), 2);
	assert_int_equal(order[0] + order[1], 3);
	assert_int_not_equal(order[0], order[1]);
	/* A gate already open: runs at once. */
	assert_doca_ok(doca_dpa_kernel_launch_update_set(f->dpa, f->wait_ev, 0, f->comp_ev, 11, 1,
	                                                 FN(lk_order), (uint64_t)3));
	assert_doca_ok(doca_sync_event_wait_gt(f->comp_ev, 10, UINT64_MAX));
	assert_int_equal(order[2], 3);
}

static void test_set_vs_add(void **state)
{
	struct fixture *f = *state;
	assert_doca_ok(doca_sync_event_update_set(f->comp_ev, 100));
	assert_doca_ok(doca_dpa_kernel_launch_update_add(f->dpa, NULL, 0, f->comp_ev, 3, 2,
	                                                 FN(lk_record), (uint64_t)0));
	assert_doca_ok(doca_dpa_kernel_launch_update_add(f->dpa, NULL, 0, f->comp_ev, 3, 3,
	                                                 FN(lk_record), (uint64_t)0));
	/* Once per launch, not per thread. */
	assert_doca_ok(doca_sync_event_wait_gt(f->comp_ev, 105, UINT64_MAX));
	assert_int_equal(value_of(f->comp_ev), 106);
	assert_doca_ok(doca_dpa_kernel_launch_update_set(f->dpa, NULL, 0, f->comp_ev, 7, 2,
	                                                 FN(lk_record), (uint64_t)0));
	assert_doca_ok(doca_sync_event_wait_eq(f->comp_ev, 7, UINT64_MAX));
}

static void test_no_comp_event(void **state)
{
	struct fixture *f = *state;
	assert_doca_ok(doca_dpa_kernel_launch_update_set(f->dpa, NULL, 0, NULL, 0, 1, FN(lk_order),
	                                                 (uint64_t)42));
	wait_ran();
	assert_int_equal(order[0], 42);
}

/* finish ends a launch instance; reschedule is for DPA threads (a bad call
 * that ends it). The completion event is signalled either way. */
static void test_finish_reschedule(void **state)
{
	struct fixture *f = *state;
	assert_doca_ok(doca_dpa_kernel_launch_update_add(f->dpa, NULL, 0, f->comp_ev, 1, 2,
	                                                 FN(lk_leave), (uint64_t)LEAVE_FINISH));
	assert_doca_ok(doca_sync_event_wait_gt(f->comp_ev, 0, UINT64_MAX));
	assert_doca_ok(doca_dpa_peek_at_last_error(f->dpa));
	assert_doca_ok(doca_dpa_kernel_launch_update_add(f->dpa, NULL, 0, f->comp_ev, 1, 1,
	                                                 FN(lk_leave), (uint64_t)LEAVE_RESCHEDULE));
	assert_doca_ok(doca_sync_event_wait_gt(f->comp_ev, 1, UINT64_MAX));
	assert_doca_err(doca_dpa_peek_at_last_error(f->dpa), DOCA_ERROR_BAD_STATE);
}

/* A post with no queue to fail on ends the launch instance there with
 * its error (docs/dpa.md 2.12); the completion event is still signalled. */
static void test_bad_post_ends_instance(void **state)
{
	struct fixture *f = *state;
	atomic_store(&after_bad_post, 0);
	assert_doca_ok(doca_dpa_kernel_launch_update_add(f->dpa, NULL, 0, f->comp_ev, 1, 3,
	                                                 FN(lk_leave), (uint64_t)LEAVE_BAD_POST));
	assert_doca_ok(doca_sync_event_wait_gt(f->comp_ev, 0, UINT64_MAX));
	assert_int_equal(value_of(f->comp_ev), 1);
	assert_int_equal(atomic_load(&after_bad_post), 0);
	assert_doca_err(doca_dpa_peek_at_last_error(f->dpa), DOCA_ERROR_INVALID_VALUE);
}

/* A kernel waiting on an event the host sets later; a bad handle. */
static void test_wait_gt(void **state)
{
	struct fixture *f = *state;
	doca_dpa_dev_sync_event_t h;
	assert_doca_ok(doca_sync_event_get_dpa_handle(f->wait_ev, f->dpa, &h));
	assert_doca_ok(doca_dpa_kernel_launch_update_set(f->dpa, NULL, 0, f->comp_ev, 1, 2,
	                                                 FN(lk_wait), h, (uint64_t)0x10));
	wait_ran();
	wait_ran();
	assert_int_equal(value_of(f->comp_ev), 0);
	assert_doca_ok(doca_sync_event_update_set(f->wait_ev, 0x11));
	assert_doca_ok(doca_sync_event_wait_gt(f->comp_ev, 0, UINT64_MAX));
	assert_doca_ok(doca_dpa_peek_at_last_error(f->dpa));
	/* A made-up handle: logged, the DPA's last error, the wait returns. */
	assert_doca_ok(doca_dpa_kernel_launch_update_set(
	        f->dpa, NULL, 0, f->comp_ev, 2, 1, FN(lk_wait), (uint64_t)12345, (uint64_t)0));
	assert_doca_ok(doca_sync_event_wait_gt(f->comp_ev, 1, UINT64_MAX));
	assert_doca_err(doca_dpa_peek_at_last_error(f->dpa), DOCA_ERROR_INVALID_VALUE);
	/* A remote-net event's handle (for doca_dpa_dev_rdma_signal_*) is no
	 * sync-event handle either. */
	struct doca_sync_event *pub;
	struct doca_sync_event_remote_net *remote;
	doca_dpa_dev_sync_event_remote_net_t rh;
	const uint8_t *blob;
	size_t blob_len;
	assert_doca_ok(doca_sync_event_create(&pub));
	assert_doca_ok(doca_sync_event_add_publisher_location_remote_net(pub));
	assert_doca_ok(doca_sync_event_start(pub));
	assert_doca_ok(doca_sync_event_export_to_remote_net(pub, &blob, &blob_len));
	assert_doca_ok(
	        doca_sync_event_remote_net_create_from_export(f->dev, blob, blob_len, &remote));
	assert_doca_ok(doca_sync_event_remote_net_get_dpa_handle(remote, f->dpa, &rh));
	assert_doca_ok(doca_dpa_kernel_launch_update_set(f->dpa, NULL, 0, f->comp_ev, 3, 1,
	                                                 FN(lk_wait), rh, (uint64_t)0));
	assert_doca_ok(doca_sync_event_wait_gt(f->comp_ev, 2, UINT64_MAX));
	assert_doca_ok(doca_sync_event_remote_net_destroy(remote));
	event_free(pub);
}

/* SOFTDOCA_DPA_KERNEL_MAX_RUN_S=1: a kernel waiting for an event nobody
 * sets is cancelled in its wait after 1 s; its launch still completes. */
static void test_max_run_time(void **state)
{
	struct fixture *f = *state;
	unsigned long long max_run;
	doca_dpa_dev_sync_event_t h;
	assert_doca_ok(doca_dpa_get_kernel_max_run_time(f->dpa, &max_run));
	assert_int_equal(max_run, 1);
	assert_doca_ok(doca_sync_event_get_dpa_handle(f->wait_ev, f->dpa, &h));
	double t0 = now_s();
	assert_doca_ok(doca_dpa_kernel_launch_update_set(f->dpa, NULL, 0, f->comp_ev, 1, 3,
	                                                 FN(lk_wait), h, (uint64_t)0));
	assert_doca_ok(doca_sync_event_wait_gt(f->comp_ev, 0, UINT64_MAX));
	double took = now_s() - t0;
	assert_true(took >= 0.99 && took < 3.0);
	assert_doca_err(doca_dpa_peek_at_last_error(f->dpa), DOCA_ERROR_TIME_OUT);
	assert_int_equal(atomic_load(&waiting), 3);
	/* An RPC too: doca_dpa_rpc answers TIME_OUT, the return value untouched. */
	uint64_t ret = 77;
	t0 = now_s();
	assert_doca_err(doca_dpa_rpc(f->dpa, FN(rpc_wait), &ret, h), DOCA_ERROR_TIME_OUT);
	took = now_s() - t0;
	assert_true(took >= 0.99 && took < 3.0);
	assert_int_equal(ret, 77);
}

/* A stop with one launch waiting in a kernel and one gated behind it:
 * both end at once, neither signals its completion event. */
static void test_stop(void **state)
{
	struct fixture *f = *state;
	doca_dpa_dev_sync_event_t h;
	assert_doca_ok(doca_sync_event_get_dpa_handle(f->wait_ev, f->dpa, &h));
	assert_doca_ok(doca_dpa_kernel_launch_update_set(f->dpa, NULL, 0, f->comp_ev, 1, 2,
	                                                 FN(lk_wait), h, (uint64_t)0));
	assert_doca_ok(doca_dpa_kernel_launch_update_set(f->dpa, f->wait_ev, 0, f->comp2_ev, 1, 1,
	                                                 FN(lk_order), (uint64_t)7));
	wait_ran();
	wait_ran();
	double t0 = now_s();
	assert_doca_ok(doca_dpa_stop(f->dpa));
	assert_true(now_s() - t0 < 1.0);
	assert_int_equal(value_of(f->comp_ev), 0);
	assert_int_equal(value_of(f->comp2_ev), 0);
	assert_int_equal(atomic_load(&order_n), 0);
	assert_doca_ok(doca_dpa_peek_at_last_error(f->dpa)); /* a stop is no error */
	/* Started again, it launches again. */
	assert_doca_ok(doca_dpa_start(f->dpa));
	assert_doca_ok(doca_dpa_kernel_launch_update_set(f->dpa, NULL, 0, f->comp_ev, 1, 1,
	                                                 FN(lk_order), (uint64_t)8));
	assert_doca_ok(doca_sync_event_wait_gt(f->comp_ev, 0, UINT64_MAX));
	assert_int_equal(order[0], 8);
}

/* Destroy with a launch gated: dropped, no thread left behind. */
static void test_destroy_gated(void **state)
{
	struct fixture *f = *state;
	assert_doca_ok(doca_dpa_kernel_launch_update_set(f->dpa, f->wait_ev, 0, f->comp_ev, 1, 1,
	                                                 FN(lk_order), (uint64_t)1));
}

/* Pool threads end after about a second without work. */
static void test_pool_idles_out(void **state)
{
	struct fixture *f = *state;
	assert_doca_ok(doca_dpa_kernel_launch_update_set(f->dpa, NULL, 0, f->comp_ev, 1, 4,
	                                                 FN(lk_record), (uint64_t)0));
	assert_doca_ok(doca_sync_event_wait_gt(f->comp_ev, 0, UINT64_MAX));
	assert_true(sdoca_dpa_launch_pool_threads() >= 1);
	double t0 = now_s();
	struct timespec tick = { 0, 20000000 };
	while (sdoca_dpa_launch_pool_threads() != 0 && now_s() - t0 < 10)
		nanosleep(&tick, NULL);
	assert_int_equal(sdoca_dpa_launch_pool_threads(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_bad_input, setup_four_eus, teardown),
		cmocka_unit_test_setup_teardown(test_ranks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_threshold_and_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_vs_add, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_comp_event, setup, teardown),
		cmocka_unit_test_setup_teardown(test_finish_reschedule, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_post_ends_instance, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wait_gt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_max_run_time, setup_short_run, teardown),
		cmocka_unit_test_setup_teardown(test_stop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_destroy_gated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pool_idles_out, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
