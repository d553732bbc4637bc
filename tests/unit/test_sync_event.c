/*
 * Unit tests: doca_sync_event on its own (src/core/sync_event*.c) - the
 * life cycle and its refusals, the value over the whole 64-bit range,
 * waits with masks (spinning and sleeping, woken by another thread), an
 * exact sum from concurrent adders, the export blob and every way a
 * malformed one is refused, and truthful capability answers.
 *
 * Built with the DOCA 2.5 names visible (dpu locations) besides DOCA 3's.
 */
#define SOFTDOCA_API_VERSION 205

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_mmap.h>
#include <doca_sync_event.h>

#include "core/blob.h"
#include "core/bytes.h"
#include "core/keys.h"
#include "core/sync_event.h"
#include "unit/testing.h"

static struct doca_dev *dev;

static int setup(void **state)
{
	(void)state;
	dev = open_loopback_dev();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	assert_doca_ok(doca_dev_close(dev));
	return 0;
}

/* Created, located as DOCA's remote-net samples do, and started. */
static struct doca_sync_event *started_event(bool remote_net)
{
	struct doca_sync_event *ev;

	assert_doca_ok(doca_sync_event_create(&ev));
	if (remote_net)
		assert_doca_ok(doca_sync_event_add_publisher_location_remote_net(ev));
	assert_doca_ok(doca_sync_event_add_subscriber_location_cpu(ev, dev));
	assert_doca_ok(doca_sync_event_start(ev));
	return ev;
}

static void stop_destroy(struct doca_sync_event *ev)
{
	assert_doca_ok(doca_sync_event_stop(ev));
	assert_doca_ok(doca_sync_event_destroy(ev));
}

static void test_life_cycle(void **state)
{
	struct doca_sync_event *ev;
	uint64_t mem[2] = { 0 };
	uint32_t keys = sdoca_keys_live();

	(void)state;
	assert_doca_ok(doca_sync_event_create(&ev));
	assert_doca_ok(doca_sync_event_add_publisher_location_cpu(ev, dev));
	assert_doca_err(doca_sync_event_add_publisher_location_cpu(ev, NULL),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_sync_event_set_addr(ev, (uint64_t *)(void *)((char *)mem + 4)),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_sync_event_set_addr(ev, &mem[1]));
	assert_doca_err(doca_sync_event_stop(ev), DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_sync_event_start(ev));
	assert_int_equal(sdoca_keys_live(), keys + 1);
	/* configured before start only; started alone, never a context */
	assert_doca_err(doca_sync_event_start(ev), DOCA_ERROR_BAD_STATE);
	assert_doca_err(doca_sync_event_add_subscriber_location_cpu(ev, dev), DOCA_ERROR_BAD_STATE);
	assert_doca_err(doca_sync_event_set_addr(ev, &mem[0]), DOCA_ERROR_BAD_STATE);
	assert_null(doca_sync_event_as_ctx(ev));
	/* the value lives in the program's memory */
	assert_doca_ok(doca_sync_event_update_set(ev, 77));
	assert_int_equal(__atomic_load_n(&mem[1], __ATOMIC_SEQ_CST), 77);
	assert_doca_ok(doca_sync_event_stop(ev));
	assert_int_equal(sdoca_keys_live(), keys);
	/* a stopped event starts again */
	assert_doca_ok(doca_sync_event_start(ev));
	assert_doca_ok(doca_sync_event_destroy(ev)); /* without a stop: the key goes too */
	assert_int_equal(sdoca_keys_live(), keys);
	assert_doca_err(doca_sync_event_create(NULL), DOCA_ERROR_INVALID_VALUE);
}

static void test_not_supported_locations(void **state)
{
	struct doca_sync_event *ev;
	const uint8_t *data;
	size_t sz;

	(void)state;
	assert_doca_ok(doca_sync_event_create(&ev));
	assert_doca_err(doca_sync_event_add_publisher_location_remote_pci(ev),
	                DOCA_ERROR_NOT_SUPPORTED);
	assert_doca_err(doca_sync_event_add_subscriber_location_remote_pci(ev),
	                DOCA_ERROR_NOT_SUPPORTED);
	assert_doca_err(doca_sync_event_add_subscriber_location_gpu(ev, (struct doca_gpu *)dev),
	                DOCA_ERROR_NOT_SUPPORTED);
	assert_doca_err(doca_sync_event_add_publisher_location_dpu(ev), DOCA_ERROR_NOT_SUPPORTED);
	assert_doca_err(doca_sync_event_export_to_remote_pci(ev, dev, &data, &sz),
	                DOCA_ERROR_NOT_SUPPORTED);
	assert_doca_err(doca_sync_event_create_from_export(dev, (const uint8_t *)"x", 1, &ev),
	                DOCA_ERROR_NOT_SUPPORTED);
	assert_doca_ok(doca_sync_event_destroy(ev));
}

static void test_capabilities(void **state)
{
	const struct doca_devinfo *info = doca_dev_as_devinfo(dev);

	(void)state;
	assert_doca_ok(doca_sync_event_cap_is_export_to_remote_net_supported(info));
	assert_doca_ok(doca_sync_event_cap_remote_net_is_create_from_export_supported(info));
	assert_doca_ok(doca_sync_event_cap_task_get_is_supported(info));
	assert_doca_ok(doca_sync_event_cap_task_notify_set_is_supported(info));
	assert_doca_ok(doca_sync_event_cap_task_notify_add_is_supported(info));
	assert_doca_ok(doca_sync_event_cap_task_wait_eq_is_supported(info));
	assert_doca_ok(doca_sync_event_cap_task_wait_neq_is_supported(info));
	assert_doca_ok(doca_sync_event_cap_task_wait_gt_is_supported(info));
	assert_doca_err(doca_sync_event_cap_is_create_from_export_supported(info),
	                DOCA_ERROR_NOT_SUPPORTED);
	assert_doca_err(doca_sync_event_cap_is_export_to_remote_pci_supported(info),
	                DOCA_ERROR_NOT_SUPPORTED);
	assert_doca_ok(doca_sync_event_cap_is_export_to_dpa_supported(info));
	assert_doca_err(doca_sync_event_cap_is_export_to_gpu_supported(info),
	                DOCA_ERROR_NOT_SUPPORTED);
	assert_doca_ok(doca_sync_event_cap_remote_net_is_export_to_dpa_supported(info));
	assert_doca_err(doca_sync_event_cap_task_get_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
}

/* DPA locations and device handles: what a kernel's update goes through
 * (the core never looks inside the doca_dpa, so any pointer stands in). */
static void test_dpa_handle(void **state)
{
	struct doca_dpa *dpa = (struct doca_dpa *)dev;
	struct doca_sync_event *ev;
	doca_dpa_dev_sync_event_t h, h2;
	uint64_t v = 0;

	(void)state;
	assert_doca_ok(doca_sync_event_create(&ev));
	assert_doca_ok(doca_sync_event_add_subscriber_location_cpu(ev, dev));
	assert_doca_ok(doca_sync_event_start(ev));
	/* No DPA location. */
	assert_doca_err(doca_sync_event_get_dpa_handle(ev, dpa, &h), DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_sync_event_stop(ev));
	assert_doca_ok(doca_sync_event_destroy(ev));

	assert_doca_ok(doca_sync_event_create(&ev));
	assert_doca_ok(doca_sync_event_add_publisher_location_dpa(ev, dpa));
	assert_doca_ok(doca_sync_event_add_subscriber_location_dpa(ev, dpa));
	assert_doca_err(doca_sync_event_add_publisher_location_dpa(ev, NULL),
	                DOCA_ERROR_INVALID_VALUE);
	/* Not started. */
	assert_doca_err(doca_sync_event_get_dpa_handle(ev, dpa, &h), DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_sync_event_start(ev));
	assert_doca_ok(doca_sync_event_get_dpa_handle(ev, dpa, &h));
	assert_doca_ok(doca_sync_event_export_to_dpa(ev, dpa, &h2));
	assert_int_equal(h, h2);
	assert_doca_ok(sdoca_sync_event_dpa_op(h, SDOCA_SE_OP_SET, 40, &v));
	assert_doca_ok(sdoca_sync_event_dpa_op(h, SDOCA_SE_OP_ADD, 2, &v));
	assert_int_equal(v, 40);
	assert_doca_ok(sdoca_sync_event_dpa_op(h, SDOCA_SE_OP_GET, 0, &v));
	assert_int_equal(v, 42);
	assert_doca_ok(doca_sync_event_wait_gt(ev, 41, UINT64_MAX));
	/* Made-up handles are refused. */
	assert_doca_err(sdoca_sync_event_dpa_op(h ^ (1ull << 32), SDOCA_SE_OP_ADD, 1, &v),
	                DOCA_ERROR_NOT_FOUND);
	assert_doca_err(sdoca_sync_event_dpa_op(0, SDOCA_SE_OP_GET, 0, &v), DOCA_ERROR_NOT_FOUND);
	/* A stopped event's handle is stale. */
	assert_doca_ok(doca_sync_event_stop(ev));
	assert_doca_err(sdoca_sync_event_dpa_op(h, SDOCA_SE_OP_ADD, 1, &v), DOCA_ERROR_NOT_FOUND);
	assert_doca_ok(doca_sync_event_destroy(ev));
}

/* A kernel's bounded sleep through a device handle: a timeout, a wake by a
 * set, and a stop while it sleeps (the stop wakes it and waits until it
 * left, so the event can be freed at once). */
struct dpa_sleeper {
	uint64_t handle;
	atomic_int result; /* -1 until it returns */
	atomic_int entered;
};

static void *dpa_sleeper_thread(void *arg)
{
	struct dpa_sleeper *s = arg;
	doca_error_t err;

	atomic_store(&s->entered, 1);
	do
		err = sdoca_sync_event_dpa_wait(s->handle, SDOCA_SE_GT, 5, UINT64_MAX, 1000000000u,
		                                true);
	while (err == DOCA_ERROR_AGAIN);
	atomic_store(&s->result, (int)err);
	return NULL;
}

static void test_dpa_wait(void **state)
{
	struct doca_dpa *dpa = (struct doca_dpa *)dev;
	struct doca_sync_event *ev;
	struct dpa_sleeper s = { 0 };
	pthread_t thread;

	(void)state;
	assert_doca_ok(doca_sync_event_create(&ev));
	assert_doca_ok(doca_sync_event_add_subscriber_location_dpa(ev, dpa));
	assert_doca_ok(doca_sync_event_start(ev));
	assert_doca_ok(doca_sync_event_get_dpa_handle(ev, dpa, &s.handle));
	assert_doca_err(
	        sdoca_sync_event_dpa_wait(s.handle, SDOCA_SE_GT, 0, UINT64_MAX, 1000000, true),
	        DOCA_ERROR_AGAIN);
	assert_doca_err(
	        sdoca_sync_event_dpa_wait(s.handle ^ 1, SDOCA_SE_GT, 0, UINT64_MAX, 0, false),
	        DOCA_ERROR_NOT_FOUND);
	/* Woken by a set. */
	atomic_store(&s.result, -1);
	assert_int_equal(pthread_create(&thread, NULL, dpa_sleeper_thread, &s), 0);
	assert_doca_ok(doca_sync_event_update_set(ev, 6));
	assert_int_equal(pthread_join(thread, NULL), 0);
	assert_int_equal(atomic_load(&s.result), DOCA_SUCCESS);
	/* Asleep (1 s slices) when the event stops: it leaves with NOT_FOUND,
	 * and the stop returned only after it left the event. */
	assert_doca_ok(doca_sync_event_update_set(ev, 0));
	atomic_store(&s.result, -1);
	atomic_store(&s.entered, 0);
	assert_int_equal(pthread_create(&thread, NULL, dpa_sleeper_thread, &s), 0);
	while (!atomic_load(&s.entered))
		sched_yield();
	assert_doca_ok(doca_sync_event_stop(ev));
	assert_doca_ok(doca_sync_event_destroy(ev));
	assert_int_equal(pthread_join(thread, NULL), 0);
	assert_int_equal(atomic_load(&s.result), DOCA_ERROR_NOT_FOUND);
}

/* 0, UINT64_MAX and an add that wraps around, with the value before each. */
static void test_full_range(void **state)
{
	struct doca_sync_event *ev = started_event(false);
	uint64_t v, fetched;

	(void)state;
	assert_doca_ok(doca_sync_event_get(ev, &v));
	assert_int_equal(v, 0);
	assert_doca_ok(doca_sync_event_update_set(ev, UINT64_MAX));
	assert_doca_ok(doca_sync_event_get(ev, &v));
	assert_true(v == UINT64_MAX);
	assert_doca_ok(doca_sync_event_update_add(ev, 2, &fetched));
	assert_true(fetched == UINT64_MAX);
	assert_doca_ok(doca_sync_event_get(ev, &v));
	assert_int_equal(v, 1);
	assert_doca_ok(doca_sync_event_update_add(ev, UINT64_MAX, &fetched)); /* minus one */
	assert_int_equal(fetched, 1);
	assert_doca_ok(doca_sync_event_get(ev, &v));
	assert_int_equal(v, 0);
	assert_doca_err(doca_sync_event_update_add(ev, 1, NULL), DOCA_ERROR_INVALID_VALUE);
	stop_destroy(ev);
}

/* Conditions that already hold return at once, masks applied. */
static void test_masks(void **state)
{
	struct doca_sync_event *ev = started_event(false);

	(void)state;
	assert_doca_ok(doca_sync_event_update_set(ev, 0xABCD00000000F0F0ull));
	assert_doca_ok(doca_sync_event_wait_eq(ev, 0xF0, 0xFF));
	assert_doca_ok(doca_sync_event_wait_eq(ev, 0xABCD000000000000ull, 0xFFFF000000000000ull));
	assert_doca_ok(doca_sync_event_wait_neq(ev, 0xF0F0, 0xFFFFFFFFFFFFFFFFull));
	assert_doca_ok(doca_sync_event_wait_gt(ev, 0xF0EF, 0xFFFF));
	assert_doca_ok(doca_sync_event_wait_gt_yield(ev, 0, 0xF000));
	assert_doca_ok(doca_sync_event_wait_eq_yield(ev, 0, 0x0F0F));
	assert_doca_ok(doca_sync_event_wait_neq_yield(ev, 0, 0xFFFF));
	/* mask 0: (value & 0) == 0 always holds, > 0 never would */
	assert_doca_ok(doca_sync_event_wait_eq(ev, 0, 0));
	/* the top of the range */
	assert_doca_ok(doca_sync_event_update_set(ev, UINT64_MAX));
	assert_doca_ok(doca_sync_event_wait_gt(ev, UINT64_MAX - 1, UINT64_MAX));
	assert_doca_ok(doca_sync_event_wait_eq(ev, UINT64_MAX, UINT64_MAX));
	assert_doca_err(doca_sync_event_wait_gt(NULL, 0, 0), DOCA_ERROR_INVALID_VALUE);
	stop_destroy(ev);
}

struct waiter {
	pthread_t thread;
	struct doca_sync_event *ev;
	int kind; /* 0 gt, 1 eq, 2 neq, 3 gt_yield */
	uint64_t value, mask;
	_Atomic bool returned;
};

static void *wait_thread(void *arg)
{
	struct waiter *w = arg;
	doca_error_t st;

	switch (w->kind) {
	case 0:
		st = doca_sync_event_wait_gt(w->ev, w->value, w->mask);
		break;
	case 1:
		st = doca_sync_event_wait_eq(w->ev, w->value, w->mask);
		break;
	case 2:
		st = doca_sync_event_wait_neq(w->ev, w->value, w->mask);
		break;
	default:
		st = doca_sync_event_wait_gt_yield(w->ev, w->value, w->mask);
		break;
	}
	if (st == DOCA_SUCCESS)
		atomic_store(&w->returned, true);
	return NULL;
}

/* Bounded: the waiter has counted itself as a sleeper (its spin is over). */
static void until_asleep(struct doca_sync_event *ev)
{
	for (long i = 0; atomic_load(&ev->sleepers) == 0; i++) {
		assert_true(i < 100000000L);
		sched_yield();
	}
}

/* A blocked waiter wakes when another thread changes the value - only
 * when the masked condition holds - both in its spin and asleep. */
static void test_blocked_waiters(void **state)
{
	static const struct {
		int kind;
		uint64_t value, mask, not_yet, done;
	} cases[] = {
		{ 0, 5, UINT64_MAX, 5, 6 },
		{ 1, 0x30, 0xF0, 0x0F, 0x3F },
		{ 2, 0, 0xFF00, 0x00FF, 0x0100 },
		{ 3, 0x7F, 0xFF, 0x17F, 0x80 },
	};

	(void)state;
	for (size_t i = 0; i < SDOCA_ARRAY_SIZE(cases); i++) {
		for (int asleep = 0; asleep < 2; asleep++) {
			struct doca_sync_event *ev = started_event(false);
			struct waiter w = { .ev = ev,
				            .kind = cases[i].kind,
				            .value = cases[i].value,
				            .mask = cases[i].mask };

			assert_doca_ok(doca_sync_event_update_set(ev, cases[i].not_yet));
			assert_int_equal(pthread_create(&w.thread, NULL, wait_thread, &w), 0);
			if (asleep) {
				until_asleep(ev);
				/* a change that does not satisfy it: it sleeps on */
				assert_doca_ok(doca_sync_event_update_set(ev, cases[i].not_yet));
				until_asleep(ev);
				assert_false(atomic_load(&w.returned));
			}
			assert_doca_ok(doca_sync_event_update_set(ev, cases[i].done));
			assert_int_equal(pthread_join(w.thread, NULL), 0);
			assert_true(atomic_load(&w.returned));
			stop_destroy(ev);
		}
	}
}

/* Another thread's update wakes a sleeping waiter, which stops and
 * destroys the event at once, as a program does with a kernel launch's
 * completion event: the updater must be done with the event by then
 * (a use after free, seen by ASan and TSan, before the fix). */
struct late_updater {
	struct doca_sync_event *ev;
	int add;
};

static void *late_updater_thread(void *arg)
{
	struct late_updater *u = arg;
	uint64_t fetched;

	while (!atomic_load(&u->ev->sleepers)) /* the waiter is asleep (or about to be) */
		sched_yield();
	if (u->add)
		assert_doca_ok(doca_sync_event_update_add(u->ev, 1, &fetched));
	else
		assert_doca_ok(doca_sync_event_update_set(u->ev, 1));
	return NULL;
}

static void test_update_then_destroy(void **state)
{
	(void)state;
	for (int i = 0; i < 200; i++) {
		struct late_updater u = { .add = i & 1 };
		pthread_t thread;

		assert_doca_ok(doca_sync_event_create(&u.ev));
		assert_doca_ok(doca_sync_event_add_publisher_location_cpu(u.ev, dev));
		assert_doca_ok(doca_sync_event_add_subscriber_location_cpu(u.ev, dev));
		assert_doca_ok(doca_sync_event_start(u.ev));
		assert_int_equal(pthread_create(&thread, NULL, late_updater_thread, &u), 0);
		assert_doca_ok(doca_sync_event_wait_gt(u.ev, 0, UINT64_MAX));
		assert_doca_ok(doca_sync_event_stop(u.ev));
		assert_doca_ok(doca_sync_event_destroy(u.ev));
		assert_int_equal(pthread_join(thread, NULL), 0);
	}
}

/* A value the program stores itself (no softdoca call) is noticed too. */
static void test_direct_store(void **state)
{
	uint64_t mem = 0;
	struct doca_sync_event *ev;
	struct waiter w = { .kind = 0, .value = 0, .mask = UINT64_MAX };

	(void)state;
	assert_doca_ok(doca_sync_event_create(&ev));
	assert_doca_ok(doca_sync_event_set_addr(ev, &mem));
	assert_doca_ok(doca_sync_event_start(ev));
	w.ev = ev;
	assert_int_equal(pthread_create(&w.thread, NULL, wait_thread, &w), 0);
	until_asleep(ev);
	__atomic_store_n(&mem, 1, __ATOMIC_SEQ_CST);
	assert_int_equal(pthread_join(w.thread, NULL), 0);
	assert_true(atomic_load(&w.returned));
	stop_destroy(ev);
}

#define ADDERS 4
#define ADDS_PER_ADDER 100000

static void *add_thread(void *arg)
{
	uint64_t fetched;

	for (int i = 0; i < ADDS_PER_ADDER; i++)
		if (doca_sync_event_update_add(arg, 1, &fetched) != DOCA_SUCCESS)
			return arg;
	return NULL;
}

/* Concurrent adders give the exact sum; a waiter for it wakes. */
static void test_exact_sum(void **state)
{
	struct doca_sync_event *ev = started_event(false);
	struct waiter w = {
		.ev = ev, .kind = 1, .value = ADDERS * ADDS_PER_ADDER, .mask = UINT64_MAX
	};
	pthread_t adders[ADDERS];
	uint64_t v;

	(void)state;
	assert_int_equal(pthread_create(&w.thread, NULL, wait_thread, &w), 0);
	for (int i = 0; i < ADDERS; i++)
		assert_int_equal(pthread_create(&adders[i], NULL, add_thread, ev), 0);
	for (int i = 0; i < ADDERS; i++) {
		void *failed;

		assert_int_equal(pthread_join(adders[i], &failed), 0);
		assert_null(failed);
	}
	assert_int_equal(pthread_join(w.thread, NULL), 0);
	assert_true(atomic_load(&w.returned));
	assert_doca_ok(doca_sync_event_get(ev, &v));
	assert_int_equal(v, ADDERS * ADDS_PER_ADDER);
	stop_destroy(ev);
}

/* The value at a doca_buf's data address. */
static void test_doca_buf_value(void **state)
{
	uint64_t mem[4] = { 0 };
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
	struct doca_buf *buf, *short_buf;
	struct doca_sync_event *ev;

	(void)state;
	assert_doca_ok(doca_mmap_create(&mmap));
	assert_doca_ok(doca_mmap_set_memrange(mmap, mem, sizeof(mem)));
	assert_doca_ok(doca_mmap_add_dev(mmap, dev));
	assert_doca_ok(doca_mmap_start(mmap));
	assert_doca_ok(doca_buf_inventory_create(4, &inv));
	assert_doca_ok(doca_buf_inventory_start(inv));
	assert_doca_ok(doca_buf_inventory_buf_get_by_data(inv, mmap, &mem[2], 8, &buf));
	assert_doca_ok(
	        doca_buf_inventory_buf_get_by_args(inv, mmap, &mem[3], 4, &mem[3], 4, &short_buf));
	assert_doca_ok(doca_sync_event_create(&ev));
	assert_doca_err(doca_sync_event_set_doca_buf(ev, short_buf), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_sync_event_set_doca_buf(ev, buf));
	assert_doca_ok(doca_sync_event_start(ev));
	assert_doca_ok(doca_sync_event_update_set(ev, 0x1234));
	assert_int_equal(__atomic_load_n(&mem[2], __ATOMIC_SEQ_CST), 0x1234);
	stop_destroy(ev);
	assert_doca_ok(doca_buf_dec_refcount(buf, NULL));
	assert_doca_ok(doca_buf_dec_refcount(short_buf, NULL));
	assert_doca_ok(doca_buf_inventory_destroy(inv));
	assert_doca_ok(doca_mmap_destroy(mmap));
}

/* The export carries the key and the value's address; stopping revokes it. */
static void test_export_import(void **state)
{
	struct doca_sync_event *ev, *plain = started_event(false);
	struct doca_sync_event_remote_net *rev;
	const uint8_t *data, *again;
	size_t sz, sz2;

	(void)state;
	assert_doca_err(doca_sync_event_export_to_remote_net(plain, &data, &sz),
	                DOCA_ERROR_NOT_PERMITTED);
	stop_destroy(plain);
	assert_doca_ok(doca_sync_event_create(&ev));
	assert_doca_ok(doca_sync_event_add_publisher_location_remote_net(ev));
	assert_doca_err(doca_sync_event_export_to_remote_net(ev, &data, &sz), DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_sync_event_start(ev));
	assert_doca_ok(doca_sync_event_export_to_remote_net(ev, &data, &sz));
	assert_doca_ok(doca_sync_event_export_to_remote_net(ev, &again, &sz2));
	assert_ptr_equal(data, again);
	assert_int_equal(sz, SDOCA_BLOB_HEADER_SIZE + SDOCA_SE_BLOB_BODY);
	assert_doca_ok(doca_sync_event_remote_net_create_from_export(dev, data, sz, &rev));
	assert_memory_equal(&rev->key, &ev->key, sizeof(rev->key));
	assert_true(rev->addr == (uintptr_t)ev->value);
	assert_non_null(sdoca_keys_peek(&rev->key));
	assert_int_equal(sdoca_keys_peek(&rev->key)->access, DOCA_ACCESS_FLAG_RDMA_READ |
	                                                             DOCA_ACCESS_FLAG_RDMA_WRITE |
	                                                             DOCA_ACCESS_FLAG_RDMA_ATOMIC);
	assert_doca_ok(doca_sync_event_stop(ev));
	assert_null(sdoca_keys_peek(&rev->key));
	assert_doca_ok(doca_sync_event_remote_net_destroy(rev));
	assert_doca_ok(doca_sync_event_destroy(ev));
}

/* A copy of a blob with one body byte changed and sealed again. */
static uint8_t *forged(const uint8_t *blob, size_t len, size_t at, uint8_t value)
{
	uint8_t *copy = test_malloc(len);

	memcpy(copy, blob, len);
	copy[SDOCA_BLOB_HEADER_SIZE + at] = value;
	sdoca_blob_seal(copy, SDOCA_BLOB_SYNC_EVENT, len - SDOCA_BLOB_HEADER_SIZE);
	return copy;
}

static void test_malformed_blobs(void **state)
{
	struct doca_sync_event *ev = started_event(true);
	struct doca_sync_event_remote_net *rev = NULL;
	const uint8_t *data;
	uint8_t copy[128];
	size_t sz;
	/* body offsets that make a blob invalid: node id, reserved, key slot, address */
	static const struct {
		size_t at;
		uint8_t value;
	} bad_fields[] = { { 12, 1 }, { 32, 3 } };

	(void)state;
	assert_doca_ok(doca_sync_event_export_to_remote_net(ev, &data, &sz));
	assert_true(sz <= sizeof(copy));
	/* short, long, corrupt, NULL */
	assert_doca_err(doca_sync_event_remote_net_create_from_export(dev, data, sz - 1, &rev),
	                DOCA_ERROR_INVALID_VALUE);
	memcpy(copy, data, sz);
	copy[sz] = 0;
	assert_doca_err(doca_sync_event_remote_net_create_from_export(dev, copy, sz + 1, &rev),
	                DOCA_ERROR_INVALID_VALUE);
	copy[20] ^= 1;
	assert_doca_err(doca_sync_event_remote_net_create_from_export(dev, copy, sz, &rev),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_sync_event_remote_net_create_from_export(dev, NULL, sz, &rev),
	                DOCA_ERROR_INVALID_VALUE);
	/* another kind of blob, another format version */
	memcpy(copy, data, sz);
	sdoca_blob_seal(copy, SDOCA_BLOB_MMAP, sz - SDOCA_BLOB_HEADER_SIZE);
	assert_doca_err(doca_sync_event_remote_net_create_from_export(dev, copy, sz, &rev),
	                DOCA_ERROR_INVALID_VALUE);
	memcpy(copy, data, sz);
	sdoca_put_le16(copy + 4, 2);
	assert_doca_err(doca_sync_event_remote_net_create_from_export(dev, copy, sz, &rev),
	                DOCA_ERROR_NOT_SUPPORTED);
	/* well sealed, bad fields */
	for (size_t i = 0; i < SDOCA_ARRAY_SIZE(bad_fields); i++) {
		uint8_t *f = forged(data, sz, bad_fields[i].at, bad_fields[i].value);

		assert_doca_err(doca_sync_event_remote_net_create_from_export(dev, f, sz, &rev),
		                DOCA_ERROR_INVALID_VALUE);
		test_free(f);
	}
	for (size_t field = 0; field < 3; field++) { /* zero node id, key slot, address */
		static const size_t at[] = { 0, 16, 32 }, width[] = { 8, 4, 8 };
		uint8_t *f = forged(data, sz, at[field], 0);

		memset(f + SDOCA_BLOB_HEADER_SIZE + at[field], 0, width[field]);
		sdoca_blob_seal(f, SDOCA_BLOB_SYNC_EVENT, sz - SDOCA_BLOB_HEADER_SIZE);
		assert_doca_err(doca_sync_event_remote_net_create_from_export(dev, f, sz, &rev),
		                DOCA_ERROR_INVALID_VALUE);
		test_free(f);
	}
	assert_null(rev);
	stop_destroy(ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_life_cycle),
		cmocka_unit_test(test_not_supported_locations),
		cmocka_unit_test(test_capabilities),
		cmocka_unit_test(test_dpa_handle),
		cmocka_unit_test(test_dpa_wait),
		cmocka_unit_test(test_full_range),
		cmocka_unit_test(test_masks),
		cmocka_unit_test(test_blocked_waiters),
		cmocka_unit_test(test_direct_store),
		cmocka_unit_test(test_update_then_destroy),
		cmocka_unit_test(test_exact_sum),
		cmocka_unit_test(test_doca_buf_value),
		cmocka_unit_test(test_export_import),
		cmocka_unit_test(test_malformed_blobs),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
