/*
 * softdoca integration tests: sync events between two processes - a peer's
 * remote get, notify-set and notify-add on an event the server exported.
 *
 *   sync_wake     the server blocks in doca_sync_event_wait_gt inside its
 *                 RUNNING callback, with no progress call; a remote set, then
 *                 a remote add, wakes it within a bounded time (once the
 *                 waiter is asleep: the service thread applies them)
 *   sync_sum      two clients' remote adds and two local threads' adds,
 *                 1,000,000 in all, give the exact sum; the server's main
 *                 thread waits for it blocked in wait_eq
 *   sync_ops      remote get, the full 64-bit range (0, UINT64_MAX, an add
 *                 that wraps), masked waits woken by remote sets, the
 *                 DOCA 2.5 forms (peer_sync_v25.c)
 *   sync_refused  every refusal - no remote-net publisher location, a wrong
 *                 key, a stopped and a destroyed event - fails that task with
 *                 NOT_PERMITTED, leaves the value and the connection alone
 *
 * Where a test must know what a program cannot see (a waiter is asleep, the
 * key of an event that cannot be exported), it reads softdoca's own struct.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <doca_sync_event.h>
#include <softdoca.h>

#include "core/sync_event.h"
#include "peer.h"
#include "peer_sync.h"

#define WAKE_BOUND_MS 5000 /* a remote change wakes a blocked waiter within this */
#define SUM_TOTAL 1000000
#define SUM_WINDOW 64 /* notify-adds in flight per client */

/* --- helpers ------------------------------------------------------------ */

struct doca_sync_event *sync_new_event(struct peer *p, bool remote_net, uint64_t *addr)
{
	struct doca_sync_event *ev;

	CHECK(doca_sync_event_create(&ev));
	if (remote_net)
		CHECK(doca_sync_event_add_publisher_location_remote_net(ev));
	CHECK(doca_sync_event_add_subscriber_location_cpu(ev, p->dev));
	if (addr)
		CHECK(doca_sync_event_set_addr(ev, addr));
	CHECK(doca_sync_event_start(ev));
	return ev;
}

uint64_t sync_value(struct doca_sync_event *ev)
{
	uint64_t v;

	CHECK(doca_sync_event_get(ev, &v));
	return v;
}

void sync_send_event(struct peer *p, int i, struct doca_sync_event *ev)
{
	const uint8_t *data;
	size_t sz;

	CHECK(doca_sync_event_export_to_remote_net(ev, &data, &sz));
	oob_send(p->oob[i], data, sz);
}

struct doca_sync_event_remote_net *sync_recv_event(struct peer *p, int i)
{
	struct doca_sync_event_remote_net *rev;
	size_t len;
	uint8_t *blob = oob_recv(p->oob[i], &len, WAIT_MS);

	CHECK(doca_sync_event_remote_net_create_from_export(p->dev, blob, len, &rev));
	free(blob);
	return rev;
}

/* Seals a forged blob again: length and CRC-32 of the envelope (wire.md). */
void sync_reseal(uint8_t *blob, size_t len)
{
	uint32_t crc = (uint32_t)crc32(0, blob, 12);

	crc = (uint32_t)crc32(crc, blob + 16, (uInt)(len - 16));
	for (int i = 0; i < 4; i++)
		blob[12 + i] = (uint8_t)(crc >> (8 * i));
}

doca_error_t sync_remote_set(struct peer *p, struct doca_sync_event_remote_net *rev, uint64_t v)
{
	struct doca_rdma_task_remote_net_sync_event_notify_set *t;
	struct doca_buf *src = local_buf(p, 0, 8, 8);
	struct result r;

	memcpy(p->mem, &v, sizeof(v));
	CHECK(doca_rdma_task_remote_net_sync_event_notify_set_allocate_init(
	        p->rdma, p->conn[0], rev, src, result_data(&r), &t));
	CHECK(doca_task_submit(doca_rdma_task_remote_net_sync_event_notify_set_as_task(t)));
	peer_wait(p, &r, WAIT_MS);
	doca_task_free(doca_rdma_task_remote_net_sync_event_notify_set_as_task(t));
	put(src);
	return r.status;
}

doca_error_t sync_remote_add(struct peer *p, struct doca_sync_event_remote_net *rev, uint64_t add,
                             uint64_t *fetched)
{
	struct doca_rdma_task_remote_net_sync_event_notify_add *t;
	struct doca_buf *res = local_buf(p, 8, 8, 0);
	struct result r;

	CHECK(doca_rdma_task_remote_net_sync_event_notify_add_allocate_init(
	        p->rdma, p->conn[0], rev, res, add, result_data(&r), &t));
	CHECK(doca_task_submit(doca_rdma_task_remote_net_sync_event_notify_add_as_task(t)));
	peer_wait(p, &r, WAIT_MS);
	doca_task_free(doca_rdma_task_remote_net_sync_event_notify_add_as_task(t));
	memcpy(fetched, p->mem + 8, sizeof(*fetched));
	put(res);
	return r.status;
}

doca_error_t sync_remote_get(struct peer *p, struct doca_sync_event_remote_net *rev,
                             uint64_t *value)
{
	struct doca_rdma_task_remote_net_sync_event_get *t;
	struct doca_buf *dst = local_buf(p, 16, 8, 0);
	struct result r;
	size_t len = 0;

	CHECK(doca_rdma_task_remote_net_sync_event_get_allocate_init(p->rdma, p->conn[0], rev, dst,
	                                                             result_data(&r), &t));
	CHECK(doca_task_submit(doca_rdma_task_remote_net_sync_event_get_as_task(t)));
	peer_wait(p, &r, WAIT_MS);
	if (r.status == DOCA_SUCCESS) {
		EXPECT(doca_rdma_task_remote_net_sync_event_get_get_result_len(t) == 8,
		       "get result length %u",
		       doca_rdma_task_remote_net_sync_event_get_get_result_len(t));
		CHECK(doca_buf_get_data_len(dst, &len));
		EXPECT(len == 8, "get appended %zu bytes", len);
	}
	doca_task_free(doca_rdma_task_remote_net_sync_event_get_as_task(t));
	memcpy(value, p->mem + 16, sizeof(*value));
	put(dst);
	return r.status;
}

void sync_expect_value(const char *what, uint64_t got, uint64_t want)
{
	EXPECT(got == want, "%s: 0x%llx, expected 0x%llx", what, (unsigned long long)got,
	       (unsigned long long)want);
}

/* --- sync_wake ------------------------------------------------------------ */

struct wake_server {
	struct peer *p;
	struct doca_sync_event *ev;
	pthread_t watcher;
	bool done;
};

/* Tells the client once the server's waiter sleeps (its spin is over). */
static void *report_asleep(void *arg)
{
	struct wake_server *w = arg;
	uint64_t deadline = now_ms() + WAIT_MS;

	while (atomic_load(&w->ev->sleepers) == 0) {
		EXPECT(now_ms() < deadline, "the waiter never went to sleep");
		sched_yield();
	}
	report(w->p, 0, "asleep");
	return NULL;
}

static struct wake_server wake;

/* DOCA's samples block in the RUNNING callback; so does this one. */
static void wake_state_cb(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
                          enum doca_ctx_states next)
{
	struct peer *p = ud.ptr;
	char text[64];

	(void)prev;
	if (next != DOCA_CTX_STATE_RUNNING)
		return;
	peer_connect(p, 0);
	sync_send_event(p, 0, wake.ev);
	for (uint64_t round = 1; round <= 2; round++) {
		report(p, 0, "waiting");
		EXPECT(pthread_create(&wake.watcher, NULL, report_asleep, &wake) == 0, "thread");
		/* no progress call: the soft NIC's threads must apply the change */
		CHECK(doca_sync_event_wait_gt(wake.ev, round - 1, UINT64_MAX));
		pthread_join(wake.watcher, NULL);
		snprintf(text, sizeof(text), "woke %llu", (unsigned long long)sync_value(wake.ev));
		report(p, 0, text);
	}
	wake.done = true;
	(void)doca_ctx_stop(ctx);
}

static void wake_server(struct peer *p)
{
	oob_accept(p);
	wake = (struct wake_server){ .p = p, .ev = sync_new_event(p, true, NULL) };
	p->rdma_permissions = ALL_RDMA;
	p->rnr_retry = 7;
	peer_alloc_memory(p, 4096, ALL_RDMA);
	peer_create_rdma(p);
	CHECK(doca_ctx_set_state_changed_cb(doca_rdma_as_ctx(p->rdma), wake_state_cb));
	CHECK(doca_ctx_start(doca_rdma_as_ctx(p->rdma)));
	peer_wait_state(p, DOCA_CTX_STATE_IDLE, 5 * WAIT_MS);
	EXPECT(wake.done, "the server did not wake twice");
	oob_expect(p->oob[0], "bye", WAIT_MS);
	CHECK(doca_sync_event_stop(wake.ev));
	CHECK(doca_sync_event_destroy(wake.ev));
}

static void wake_client(struct peer *p)
{
	struct doca_sync_event_remote_net *rev;
	uint64_t fetched;

	client_prepare(p, 4096);
	peer_connect(p, 0);
	rev = sync_recv_event(p, 0);
	for (uint64_t round = 1; round <= 2; round++) {
		char want[32], *msg;
		uint64_t t0;

		oob_expect(p->oob[0], "waiting", WAIT_MS);
		oob_expect(p->oob[0], "asleep", WAIT_MS);
		t0 = now_ms();
		if (round == 1)
			CHECK(sync_remote_set(p, rev, 1));
		else
			CHECK(sync_remote_add(p, rev, 1, &fetched));
		msg = wait_message(p, 0);
		snprintf(want, sizeof(want), "woke %llu", (unsigned long long)round);
		EXPECT(strcmp(msg, want) == 0, "server said '%s', expected '%s'", msg, want);
		EXPECT(now_ms() - t0 < WAKE_BOUND_MS, "the waiter woke after %llu ms",
		       (unsigned long long)(now_ms() - t0));
		printf("round %llu: woken %llu ms after the remote %s\n", (unsigned long long)round,
		       (unsigned long long)(now_ms() - t0), round == 1 ? "set" : "add");
		free(msg);
	}
	EXPECT(fetched == 1, "the add fetched %llu", (unsigned long long)fetched);
	CHECK(doca_sync_event_remote_net_destroy(rev));
	report(p, 0, "bye");
	peer_stop(p);
}

/* --- sync_sum --------------------------------------------------------------- */

#define SUM_PER_ACTOR (SUM_TOTAL / 4)

static void *local_adds(void *arg)
{
	uint64_t fetched;

	for (int i = 0; i < SUM_PER_ACTOR; i++)
		CHECK(doca_sync_event_update_add(arg, 1, &fetched));
	return NULL;
}

static void sum_server(struct peer *p)
{
	struct doca_sync_event *ev;
	pthread_t adders[2];

	p->max_conns = 2;
	server_prepare(p, 4096, ALL_RDMA);
	ev = sync_new_event(p, true, NULL);
	for (int i = 0; i < 2; i++) {
		oob_accept(p);
		peer_connect(p, i);
		sync_send_event(p, i, ev);
	}
	for (int i = 0; i < 2; i++)
		report(p, i, "go");
	for (int i = 0; i < 2; i++)
		EXPECT(pthread_create(&adders[i], NULL, local_adds, ev) == 0, "thread");
	/* Blocked, no progress: the peers' adds reach the value all the same. */
	CHECK(doca_sync_event_wait_eq(ev, SUM_TOTAL, UINT64_MAX));
	for (int i = 0; i < 2; i++)
		pthread_join(adders[i], NULL);
	sync_expect_value("sum", sync_value(ev), SUM_TOTAL);
	for (int i = 0; i < 2; i++)
		oob_expect(p->oob[i], "done", WAIT_MS);
	for (int i = 0; i < 2; i++)
		report(p, i, "OK");
	for (int i = 0; i < 2; i++)
		oob_expect(p->oob[i], "bye", WAIT_MS);
	CHECK(doca_sync_event_stop(ev));
	CHECK(doca_sync_event_destroy(ev));
	peer_stop(p);
}

static void sum_client(struct peer *p)
{
	struct doca_rdma_task_remote_net_sync_event_notify_add *tasks[SUM_WINDOW];
	struct doca_buf *res[SUM_WINDOW];
	struct result r[SUM_WINDOW];
	struct doca_sync_event_remote_net *rev;
	int submitted = 0, completed = 0, base;
	uint64_t last = 0, deadline;

	client_prepare(p, 4096);
	peer_connect(p, 0);
	rev = sync_recv_event(p, 0);
	oob_expect(p->oob[0], "go", WAIT_MS);
	for (int i = 0; i < SUM_WINDOW; i++) {
		res[i] = local_buf(p, (size_t)i * 8, 8, 0);
		CHECK(doca_rdma_task_remote_net_sync_event_notify_add_allocate_init(
		        p->rdma, p->conn[0], rev, res[i], 1, result_data(&r[i]), &tasks[i]));
	}
	base = p->completions;
	for (int i = 0; i < SUM_WINDOW; i++, submitted++)
		CHECK(doca_task_submit(
		        doca_rdma_task_remote_net_sync_event_notify_add_as_task(tasks[i])));
	deadline = now_ms() + 10 * WAIT_MS;
	/* Each task is resubmitted as it completes, taken in completion order:
	 * RC keeps this connection's order, so the values fetched grow. */
	while (completed < SUM_PER_ACTOR) {
		for (int i = 0; i < SUM_WINDOW; i++) {
			uint64_t before;

			if (!r[i].done || r[i].order != base + completed + 1)
				continue;
			expect_status(&r[i], DOCA_SUCCESS, "notify-add");
			memcpy(&before, p->mem + (size_t)i * 8, 8);
			EXPECT(before < SUM_TOTAL && (completed == 0 || before > last),
			       "notify-add fetched %llu after %llu", (unsigned long long)before,
			       (unsigned long long)last);
			last = before;
			completed++;
			(void)result_data(&r[i]);
			if (submitted < SUM_PER_ACTOR) {
				CHECK(doca_task_submit(
				        doca_rdma_task_remote_net_sync_event_notify_add_as_task(
				                tasks[i])));
				submitted++;
			}
			i = -1; /* the next in order may be any slot */
		}
		EXPECT(now_ms() < deadline, "notify-adds too slow: %d done", completed);
		doca_pe_progress(p->pe);
	}
	for (int i = 0; i < SUM_WINDOW; i++) {
		doca_task_free(doca_rdma_task_remote_net_sync_event_notify_add_as_task(tasks[i]));
		put(res[i]);
	}
	CHECK(doca_sync_event_remote_net_destroy(rev));
	report(p, 0, "done");
	expect_ok_from_peer(p, 0);
	report(p, 0, "bye");
	peer_stop(p);
}

/* --- sync_ops --------------------------------------------------------------- */

struct masked_waiter {
	pthread_t thread;
	struct doca_sync_event *ev;
	enum sdoca_se_cond cond;
	uint64_t value, mask;
	_Atomic bool returned;
};

static void *masked_wait(void *arg)
{
	struct masked_waiter *w = arg;

	if (w->cond == SDOCA_SE_EQ)
		CHECK(doca_sync_event_wait_eq(w->ev, w->value, w->mask));
	else if (w->cond == SDOCA_SE_NEQ)
		CHECK(doca_sync_event_wait_neq_yield(w->ev, w->value, w->mask));
	else
		CHECK(doca_sync_event_wait_gt_yield(w->ev, w->value, w->mask));
	atomic_store(&w->returned, true);
	return NULL;
}

static void ops_server(struct peer *p)
{
	struct doca_sync_event *ev;
	struct masked_waiter w[3] = {
		{ .cond = SDOCA_SE_EQ, .value = 0xAB00, .mask = 0xFF00 },
		{ .cond = SDOCA_SE_NEQ, .value = 0, .mask = 0xF0000 },
		{ .cond = SDOCA_SE_GT, .value = 0x10, .mask = 0xFF },
	};
	char *msg;

	oob_accept(p);
	server_prepare(p, 4096, ALL_RDMA);
	peer_connect(p, 0);
	ev = sync_new_event(p, true, NULL);
	CHECK(doca_sync_event_update_set(ev, 0x5555));
	sync_send_event(p, 0, ev);
	oob_expect(p->oob[0], "range done", WAIT_MS);
	sync_expect_value("after the range", sync_value(ev), UINT64_MAX);
	CHECK(doca_sync_event_update_set(ev, 0));
	for (int i = 0; i < 3; i++) {
		w[i].ev = ev;
		EXPECT(pthread_create(&w[i].thread, NULL, masked_wait, &w[i]) == 0, "thread");
	}
	report(p, 0, "waiting");
	/* 0x1200AB: neq (bits 16-19 are 2) and gt (0xAB > 0x10) hold, eq does not */
	oob_expect(p->oob[0], "set 0x1200AB", WAIT_MS);
	pthread_join(w[1].thread, NULL);
	pthread_join(w[2].thread, NULL);
	EXPECT(!atomic_load(&w[0].returned), "wait_eq returned on 0x%llx",
	       (unsigned long long)sync_value(ev));
	report(p, 0, "two woke");
	oob_expect(p->oob[0], "set 0x12AB00", WAIT_MS);
	pthread_join(w[0].thread, NULL);
	report(p, 0, "third woke");
	msg = wait_message(p, 0); /* the 2.5 forms */
	EXPECT(strcmp(msg, "v25 done") == 0, "client: %s", msg);
	free(msg);
	sync_expect_value("after the 2.5 add", sync_value(ev), 0x12AB00 + 5);
	report(p, 0, "OK");
	oob_expect(p->oob[0], "bye", WAIT_MS);
	CHECK(doca_sync_event_stop(ev));
	CHECK(doca_sync_event_destroy(ev));
	peer_stop(p);
}

/* The connection counted each remote sync-event request by its type. */
static void expect_sync_counters(struct peer *p, uint64_t gets, uint64_t sets, uint64_t adds)
{
	struct softdoca_rdma_counters c;

	CHECK(softdoca_rdma_connection_get_counters(p->conn[0], &c));
	EXPECT(c.posted[SOFTDOCA_OP_SYNC_EVENT_GET] == gets &&
	               c.posted[SOFTDOCA_OP_SYNC_EVENT_SET] == sets &&
	               c.posted[SOFTDOCA_OP_SYNC_EVENT_ADD] == adds,
	       "sync-event requests counted: %lu get, %lu set, %lu add; sent %lu, %lu, %lu",
	       (unsigned long)c.posted[SOFTDOCA_OP_SYNC_EVENT_GET],
	       (unsigned long)c.posted[SOFTDOCA_OP_SYNC_EVENT_SET],
	       (unsigned long)c.posted[SOFTDOCA_OP_SYNC_EVENT_ADD], (unsigned long)gets,
	       (unsigned long)sets, (unsigned long)adds);
	EXPECT(c.requests_failed == 0 && c.naks_received == 0, "sync-event requests failed");
}

static void ops_client(struct peer *p)
{
	struct doca_sync_event_remote_net *rev;
	uint64_t v, fetched;
	char *msg;

	client_prepare(p, 4096);
	peer_connect(p, 0);
	rev = sync_recv_event(p, 0);
	CHECK(sync_remote_get(p, rev, &v));
	sync_expect_value("remote get", v, 0x5555);
	/* the whole range: 0, UINT64_MAX, an add that wraps around and back */
	CHECK(sync_remote_set(p, rev, 0));
	CHECK(sync_remote_get(p, rev, &v));
	sync_expect_value("after set 0", v, 0);
	CHECK(sync_remote_set(p, rev, UINT64_MAX));
	CHECK(sync_remote_get(p, rev, &v));
	sync_expect_value("after set UINT64_MAX", v, UINT64_MAX);
	CHECK(sync_remote_add(p, rev, 1, &fetched));
	sync_expect_value("add 1 fetched", fetched, UINT64_MAX);
	CHECK(sync_remote_get(p, rev, &v));
	sync_expect_value("after the wrap-around", v, 0);
	CHECK(sync_remote_add(p, rev, UINT64_MAX, &fetched));
	sync_expect_value("add UINT64_MAX fetched", fetched, 0);
	report(p, 0, "range done");
	/* masked waits on the server */
	oob_expect(p->oob[0], "waiting", WAIT_MS);
	CHECK(sync_remote_set(p, rev, 0x1200AB));
	report(p, 0, "set 0x1200AB");
	msg = wait_message(p, 0);
	EXPECT(strcmp(msg, "two woke") == 0, "server: %s", msg);
	free(msg);
	CHECK(sync_remote_set(p, rev, 0x12AB00));
	report(p, 0, "set 0x12AB00");
	msg = wait_message(p, 0);
	EXPECT(strcmp(msg, "third woke") == 0, "server: %s", msg);
	free(msg);
	/* the DOCA 2.5 forms, on the one connection */
	CHECK(sync_v25_add_get(p, rev, 5, &fetched, &v));
	sync_expect_value("2.5 add fetched", fetched, 0x12AB00);
	sync_expect_value("2.5 get", v, 0x12AB05);
	report(p, 0, "v25 done");
	expect_ok_from_peer(p, 0);
	expect_sync_counters(p, 5, 4, 3);
	CHECK(doca_sync_event_remote_net_destroy(rev));
	report(p, 0, "bye");
	peer_stop(p);
}

const struct scenario sync_scenarios[] = {
	{ "sync_wake", wake_server, wake_client },
	{ "sync_sum", sum_server, sum_client },
	{ "sync_ops", ops_server, ops_client },
	{ "sync_refused", sync_refused_server, sync_refused_client },
	{ NULL, NULL, NULL },
};
