/*
 * softdoca tests: the remote sync-event tasks through the soft NIC, over the
 * in-process fake transport (no UCX). Side A runs get, notify-set and
 * notify-add (3.x and 2.5 forms) on an event of side B: the values over
 * the 64-bit range, a set of fewer than 8 bytes, a get into a list; every
 * refusal (no remote-net publisher location, a wrong key, another key's
 * kind or address, a stopped or destroyed event) fails that task only,
 * with NOT_PERMITTED, leaves the value as it was and the connection up;
 * and a waiter blocked on B's event wakes when A sets it, whether it still
 * spins (it progresses B's worker itself) or sleeps (B's service thread
 * applies the set), with nobody progressing B's PE.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>
#include <doca_sync_event.h>

#include "core/ctx.h"
#include "core/mmap.h"
#include "core/sync_event.h"
#include "transport/xport.h"
#include "unit/fake_transport.h"
#include "unit/testing.h"

#define MEM 4096
#define ACCESS                                                            \
	(DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | \
	 DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC)

/* The DOCA 2.5 forms (doca_rdma.h binds them for SOFTDOCA_API_VERSION=205). */
doca_error_t softdoca_v205_doca_rdma_task_remote_net_sync_event_notify_add_allocate_init(
        struct doca_rdma *rdma, struct doca_sync_event_remote_net *event,
        struct doca_buf *result_buf, uint64_t add_data, union doca_data user_data,
        struct doca_rdma_task_remote_net_sync_event_notify_add **task);
doca_error_t softdoca_v205_doca_rdma_task_remote_net_sync_event_get_allocate_init(
        struct doca_rdma *rdma, const struct doca_sync_event_remote_net *event,
        struct doca_buf *dst_buf, union doca_data user_data,
        struct doca_rdma_task_remote_net_sync_event_get **task);
uint32_t doca_rdma_task_remote_net_sync_event_get_get_result_length(
        const struct doca_rdma_task_remote_net_sync_event_get *task);

struct side {
	struct doca_pe *pe;
	struct doca_rdma *rdma;
	struct doca_rdma_connection *conn;
	const void *blob;
	size_t blob_len;
	struct doca_mmap *mmap;
	uint64_t mem[MEM / 8];
};

static struct {
	struct doca_dev *dev;
	struct side a, b;
	struct doca_buf_inventory *inv;
	struct doca_sync_event *ev; /* B's */
	struct doca_sync_event_remote_net *rev;
	int done;
	doca_error_t status;
} t;

static void finished(struct doca_task *task)
{
	t.status = doca_task_get_status(task);
	t.done++;
}

#define CALLBACK(name)                                                                \
	static void cb_##name(struct doca_rdma_task_##name *task, union doca_data ud, \
	                      union doca_data cud)                                    \
	{                                                                             \
		(void)ud;                                                             \
		(void)cud;                                                            \
		finished(doca_rdma_task_##name##_as_task(task));                      \
	}
CALLBACK(remote_net_sync_event_get)
CALLBACK(remote_net_sync_event_notify_set)
CALLBACK(remote_net_sync_event_notify_add)

static void side_start(struct side *s)
{
	struct doca_rdma *r;

	assert_doca_ok(doca_pe_create(&s->pe));
	assert_doca_ok(doca_rdma_create(t.dev, &s->rdma));
	r = s->rdma;
	assert_doca_ok(doca_rdma_set_permissions(r, ACCESS));
	assert_doca_ok(doca_rdma_task_remote_net_sync_event_get_set_conf(
	        r, cb_remote_net_sync_event_get, cb_remote_net_sync_event_get, 4));
	assert_doca_ok(doca_rdma_task_remote_net_sync_event_notify_set_set_conf(
	        r, cb_remote_net_sync_event_notify_set, cb_remote_net_sync_event_notify_set, 4));
	assert_doca_ok(doca_rdma_task_remote_net_sync_event_notify_add_set_conf(
	        r, cb_remote_net_sync_event_notify_add, cb_remote_net_sync_event_notify_add, 4));
	assert_doca_ok(doca_pe_connect_ctx(s->pe, doca_rdma_as_ctx(r)));
	assert_doca_ok(doca_ctx_start(doca_rdma_as_ctx(r)));
	assert_doca_ok(doca_rdma_export(r, &s->blob, &s->blob_len, &s->conn));
	assert_doca_ok(doca_mmap_create(&s->mmap));
	assert_doca_ok(doca_mmap_set_memrange(s->mmap, s->mem, MEM));
	assert_doca_ok(doca_mmap_set_permissions(s->mmap, ACCESS));
	assert_doca_ok(doca_mmap_add_dev(s->mmap, t.dev));
	assert_doca_ok(doca_mmap_start(s->mmap));
}

/* An event of B's, started (with the remote-net location or not). */
static struct doca_sync_event *b_event(bool remote_net)
{
	struct doca_sync_event *ev;

	assert_doca_ok(doca_sync_event_create(&ev));
	if (remote_net)
		assert_doca_ok(doca_sync_event_add_publisher_location_remote_net(ev));
	assert_doca_ok(doca_sync_event_add_subscriber_location_cpu(ev, t.dev));
	assert_doca_ok(doca_sync_event_start(ev));
	return ev;
}

static struct doca_sync_event_remote_net *import(struct doca_sync_event *ev)
{
	struct doca_sync_event_remote_net *rev;
	const uint8_t *data;
	size_t sz;

	assert_doca_ok(doca_sync_event_export_to_remote_net(ev, &data, &sz));
	assert_doca_ok(doca_sync_event_remote_net_create_from_export(t.dev, data, sz, &rev));
	return rev;
}

static int setup(void **state)
{
	(void)state;
	memset(&t, 0, sizeof(t));
	setenv("SOFTDOCA_DEVICES", "lo", 1);
	t.dev = open_loopback_dev();
	side_start(&t.a);
	side_start(&t.b);
	assert_doca_ok(doca_rdma_connect(t.a.rdma, t.b.blob, t.b.blob_len, t.a.conn));
	assert_doca_ok(doca_rdma_connect(t.b.rdma, t.a.blob, t.a.blob_len, t.b.conn));
	assert_doca_ok(doca_buf_inventory_create(16, &t.inv));
	assert_doca_ok(doca_buf_inventory_start(t.inv));
	t.ev = b_event(true);
	t.rev = import(t.ev);
	for (int i = 0; i < 1000; i++) { /* HELLOs */
		doca_pe_progress(t.a.pe);
		doca_pe_progress(t.b.pe);
	}
	return 0;
}

/* Stops both contexts (progressing both sides until IDLE, bounded), then
 * destroys them. */
static void stop_both(void)
{
	struct side *sides[2] = { &t.a, &t.b };
	enum doca_ctx_states st[2] = { DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_RUNNING };

	for (int k = 0; k < 2; k++) {
		doca_error_t status = doca_ctx_stop(doca_rdma_as_ctx(sides[k]->rdma));

		assert_true(status == DOCA_SUCCESS || status == DOCA_ERROR_IN_PROGRESS);
	}
	for (int i = 0;
	     i < 1000000 && (st[0] != DOCA_CTX_STATE_IDLE || st[1] != DOCA_CTX_STATE_IDLE); i++)
		for (int k = 0; k < 2; k++) {
			doca_pe_progress(sides[k]->pe);
			assert_doca_ok(
			        doca_ctx_get_state(doca_rdma_as_ctx(sides[k]->rdma), &st[k]));
		}
	for (int k = 0; k < 2; k++) {
		assert_int_equal(st[k], DOCA_CTX_STATE_IDLE);
		assert_doca_ok(doca_rdma_destroy(sides[k]->rdma));
		assert_doca_ok(doca_mmap_destroy(sides[k]->mmap));
		assert_doca_ok(doca_pe_destroy(sides[k]->pe));
	}
}

static int teardown(void **state)
{
	(void)state;
	assert_doca_ok(doca_sync_event_remote_net_destroy(t.rev));
	assert_doca_ok(doca_sync_event_stop(t.ev));
	assert_doca_ok(doca_sync_event_destroy(t.ev));
	stop_both();
	assert_doca_ok(doca_buf_inventory_destroy(t.inv));
	assert_doca_ok(doca_dev_close(t.dev));
	return 0;
}

static struct doca_buf *a_buf(size_t at, size_t len, size_t data_len)
{
	struct doca_buf *b;
	uint8_t *p = (uint8_t *)t.a.mem + at;

	assert_doca_ok(
	        doca_buf_inventory_buf_get_by_args(t.inv, t.a.mmap, p, len, p, data_len, &b));
	return b;
}

/* Submits, progresses A only (B is served without its application). */
static doca_error_t run_keep(struct doca_task *task)
{
	int want = t.done + 1;

	assert_doca_ok(doca_task_submit(task));
	for (long i = 0; i < 100000000L && t.done < want; i++) {
		doca_pe_progress(t.a.pe);
		if (i % 16 == 0)
			doca_pe_progress(t.b.pe);
	}
	assert_int_equal(t.done, want);
	return t.status;
}

/* The same, then frees the task. */
static doca_error_t run(struct doca_task *task)
{
	doca_error_t status = run_keep(task);

	doca_task_free(task);
	return status;
}

static doca_error_t remote_set(const struct doca_sync_event_remote_net *rev, const void *bytes,
                               size_t n)
{
	struct doca_rdma_task_remote_net_sync_event_notify_set *task;
	struct doca_buf *src = a_buf(0, 8, n);
	doca_error_t status;

	memcpy(t.a.mem, bytes, n);
	assert_doca_ok(doca_rdma_task_remote_net_sync_event_notify_set_allocate_init(
	        t.a.rdma, t.a.conn, (struct doca_sync_event_remote_net *)rev, src,
	        (union doca_data){ 0 }, &task));
	assert_ptr_equal(doca_rdma_task_remote_net_sync_event_notify_set_get_src_buf(task), src);
	status = run(doca_rdma_task_remote_net_sync_event_notify_set_as_task(task));
	assert_doca_ok(doca_buf_dec_refcount(src, NULL));
	return status;
}

static doca_error_t remote_add(const struct doca_sync_event_remote_net *rev, uint64_t add,
                               uint64_t *fetched)
{
	struct doca_rdma_task_remote_net_sync_event_notify_add *task;
	struct doca_buf *result = a_buf(64, 8, 0);
	doca_error_t status;

	assert_doca_ok(doca_rdma_task_remote_net_sync_event_notify_add_allocate_init(
	        t.a.rdma, t.a.conn, (struct doca_sync_event_remote_net *)rev, result, add,
	        (union doca_data){ 0 }, &task));
	assert_int_equal(doca_rdma_task_remote_net_sync_event_notify_add_get_add_data(task), add);
	status = run(doca_rdma_task_remote_net_sync_event_notify_add_as_task(task));
	memcpy(fetched, &t.a.mem[8], sizeof(*fetched));
	assert_doca_ok(doca_buf_dec_refcount(result, NULL));
	return status;
}

static uint64_t b_value(struct doca_sync_event *ev)
{
	uint64_t v;

	assert_doca_ok(doca_sync_event_get(ev, &v));
	return v;
}

static void test_get_set_add(void **state)
{
	struct doca_rdma_task_remote_net_sync_event_get *get;
	struct doca_buf *head = a_buf(128, 4, 0), *tail = a_buf(256, 16, 2);
	uint64_t v = UINT64_MAX, fetched = 0, got;
	const uint8_t three[3] = { 0xAA, 0xBB, 0xCC };

	(void)state;
	/* a set of the whole range, an add that wraps around */
	assert_doca_ok(remote_set(t.rev, &v, 8));
	assert_true(b_value(t.ev) == UINT64_MAX);
	assert_doca_ok(remote_add(t.rev, 2, &fetched));
	assert_true(fetched == UINT64_MAX);
	assert_int_equal(b_value(t.ev), 1);
	/* three bytes: only the value's first three change */
	assert_doca_ok(doca_sync_event_update_set(t.ev, 0x1122334455667788ull));
	assert_doca_ok(remote_set(t.rev, three, 3));
	assert_true(b_value(t.ev) == 0x1122334455CCBBAAull);
	/* a get appends the 8 bytes after the data of a list: 4 + 4 */
	assert_doca_ok(doca_buf_chain_list(head, tail));
	assert_doca_ok(doca_rdma_task_remote_net_sync_event_get_allocate_init(
	        t.a.rdma, t.a.conn, t.rev, head, (union doca_data){ 0 }, &get));
	assert_ptr_equal(doca_rdma_task_remote_net_sync_event_get_get_sync_event(get), t.rev);
	assert_doca_ok(run(doca_rdma_task_remote_net_sync_event_get_as_task(get)));
	assert_int_equal(doca_rdma_task_remote_net_sync_event_get_get_result_len(get), 8);
	memcpy(&got, (uint8_t *)t.a.mem + 128, 4);
	memcpy((uint8_t *)&got + 4, (uint8_t *)t.a.mem + 256 + 2, 4);
	assert_true(got == 0x1122334455CCBBAAull);
	assert_doca_ok(doca_buf_dec_refcount(head, NULL));
	/* the DOCA 2.5 forms go through the one connection */
	assert_doca_ok(doca_sync_event_update_set(t.ev, 40));
	{
		struct doca_rdma_task_remote_net_sync_event_notify_add *add;
		struct doca_buf *result = a_buf(64, 8, 0), *dst = a_buf(512, 8, 0);

		assert_doca_ok(
		        softdoca_v205_doca_rdma_task_remote_net_sync_event_notify_add_allocate_init(
		                t.a.rdma, t.rev, result, 2, (union doca_data){ 0 }, &add));
		assert_doca_ok(run(doca_rdma_task_remote_net_sync_event_notify_add_as_task(add)));
		assert_int_equal(t.a.mem[8], 40);
		assert_doca_ok(softdoca_v205_doca_rdma_task_remote_net_sync_event_get_allocate_init(
		        t.a.rdma, t.rev, dst, (union doca_data){ 0 }, &get));
		assert_doca_ok(run(doca_rdma_task_remote_net_sync_event_get_as_task(get)));
		assert_int_equal(doca_rdma_task_remote_net_sync_event_get_get_result_length(get),
		                 8);
		assert_int_equal(t.a.mem[64], 42);
		assert_doca_ok(doca_buf_dec_refcount(result, NULL));
		assert_doca_ok(doca_buf_dec_refcount(dst, NULL));
	}
}

/* A get resubmitted into the buffer that holds the last value, as DOCA 2.5's
 * sample polls a remote event: DOCA 2.5 puts the value at the buffer's data
 * address, so every get lands; DOCA 3.x appends after the data section, so
 * a full buffer is refused at submit, the task stays the program's and the
 * context still stops (teardown). */
static void test_get_again_into_full_buffer(void **state)
{
	struct doca_ctx *ctx = doca_rdma_as_ctx(t.a.rdma);
	struct doca_rdma_task_remote_net_sync_event_get *get;
	struct doca_buf *dst = a_buf(1024, 8, 0);
	size_t len;

	(void)state;
	ctx->api_version = 205; /* as softdoca_v205_doca_ctx_start() records it */
	assert_doca_ok(softdoca_v205_doca_rdma_task_remote_net_sync_event_get_allocate_init(
	        t.a.rdma, t.rev, dst, (union doca_data){ 0 }, &get));
	for (uint64_t v = 7; v < 10; v++) {
		assert_doca_ok(doca_sync_event_update_set(t.ev, v));
		assert_doca_ok(run_keep(doca_rdma_task_remote_net_sync_event_get_as_task(get)));
		assert_int_equal(t.a.mem[1024 / 8], v);
		assert_doca_ok(doca_buf_get_data_len(dst, &len));
		assert_int_equal(len, 8);
	}
	ctx->api_version = 300;
	assert_doca_err(doca_task_submit(doca_rdma_task_remote_net_sync_event_get_as_task(get)),
	                DOCA_ERROR_INVALID_VALUE);
	doca_task_free(doca_rdma_task_remote_net_sync_event_get_as_task(get));
	assert_doca_ok(doca_buf_dec_refcount(dst, NULL));
}

/* Every refusal: NOT_PERMITTED for that task, the value unchanged, the
 * connection up (the next task on it succeeds). */
static void test_refusals(void **state)
{
	struct doca_sync_event *plain = b_event(false), *stopped = b_event(true),
	                       *destroyed = b_event(true);
	struct doca_sync_event_remote_net no_location = *t.rev, wrong_key = *t.rev,
	                                  mmap_key = *t.rev, wrong_addr = *t.rev;
	struct doca_sync_event_remote_net *rev_stopped = import(stopped),
	                                  *rev_destroyed = import(destroyed);
	const struct {
		const char *what;
		const struct doca_sync_event_remote_net *rev;
		struct doca_sync_event *ev; /* whose value must not change */
	} cases[] = {
		{ "no remote-net location", &no_location, plain },
		{ "wrong key", &wrong_key, t.ev },
		{ "an mmap's key", &mmap_key, t.ev },
		{ "another address", &wrong_addr, t.ev },
		{ "stopped event", rev_stopped, NULL },
		{ "destroyed event", rev_destroyed, NULL },
	};
	uint64_t v = 0x55, fetched;

	(void)state;
	/* forged from what the responder knows: the event's own key, changed */
	no_location.key = plain->key;
	no_location.addr = (uintptr_t)plain->value;
	wrong_key.key.tag_lo ^= 1;
	mmap_key.key = t.b.mmap->key;
	mmap_key.addr = (uintptr_t)t.b.mem;
	wrong_addr.addr += 8;
	assert_doca_ok(doca_sync_event_update_set(stopped, 7));
	assert_doca_ok(doca_sync_event_stop(stopped));
	assert_doca_ok(doca_sync_event_destroy(destroyed));
	assert_doca_ok(doca_sync_event_update_set(t.ev, 1000));
	for (size_t i = 0; i < SDOCA_ARRAY_SIZE(cases); i++) {
		uint64_t before = cases[i].ev ? b_value(cases[i].ev) : 0;

		print_message("refusal: %s\n", cases[i].what);
		assert_doca_err(remote_set(cases[i].rev, &v, 8), DOCA_ERROR_NOT_PERMITTED);
		assert_doca_err(remote_add(cases[i].rev, 1, &fetched), DOCA_ERROR_NOT_PERMITTED);
		if (cases[i].ev)
			assert_true(b_value(cases[i].ev) == before);
		/* the connection is up: the real event still answers */
		assert_doca_ok(remote_add(t.rev, 1, &fetched));
		assert_true(fetched == 1000 + i);
	}
	assert_int_equal(b_value(stopped), 7);
	assert_doca_ok(doca_sync_event_remote_net_destroy(rev_stopped));
	assert_doca_ok(doca_sync_event_remote_net_destroy(rev_destroyed));
	assert_doca_ok(doca_sync_event_destroy(stopped));
	assert_doca_ok(doca_sync_event_destroy(plain));
}

static void *wait_above(void *arg)
{
	doca_sync_event_wait_gt(t.ev, (uint64_t)(uintptr_t)arg, UINT64_MAX);
	return NULL;
}

/* B's waiter wakes from A's set with B's PE never progressed: in its spin
 * it progresses B's worker itself; asleep, B's service thread serves. */
static void test_waiter_woken_by_peer(void **state)
{
	(void)state;
	for (int asleep = 0; asleep < 2; asleep++) {
		uint64_t next = 100 + (uint64_t)asleep;
		pthread_t waiter;

		assert_doca_ok(doca_sync_event_update_set(t.ev, next - 1));
		assert_int_equal(
		        pthread_create(&waiter, NULL, wait_above, (void *)(uintptr_t)(next - 1)),
		        0);
		for (long i = 0; asleep && atomic_load(&t.ev->sleepers) == 0; i++) {
			assert_true(i < 100000000L);
			sched_yield();
		}
		{
			struct doca_rdma_task_remote_net_sync_event_notify_set *task;
			struct doca_buf *src = a_buf(0, 8, 8);
			int want = t.done + 1;

			memcpy(t.a.mem, &next, 8);
			assert_doca_ok(
			        doca_rdma_task_remote_net_sync_event_notify_set_allocate_init(
			                t.a.rdma, t.a.conn, t.rev, src, (union doca_data){ 0 },
			                &task));
			assert_doca_ok(doca_task_submit(
			        doca_rdma_task_remote_net_sync_event_notify_set_as_task(task)));
			for (long i = 0; i < 1000000000L && t.done < want; i++)
				doca_pe_progress(t.a.pe); /* A only */
			assert_int_equal(t.done, want);
			assert_doca_ok(t.status);
			doca_task_free(
			        doca_rdma_task_remote_net_sync_event_notify_set_as_task(task));
			assert_doca_ok(doca_buf_dec_refcount(src, NULL));
		}
		assert_int_equal(pthread_join(waiter, NULL), 0);
		assert_int_equal(b_value(t.ev), next);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_get_set_add, setup, teardown),
		cmocka_unit_test_setup_teardown(test_get_again_into_full_buffer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_waiter_woken_by_peer, setup, teardown),
	};

	xport_set_ops_for_tests(&fake_xport_ops);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
