/*
 * softdoca-perf's remote sync-event tests.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * softdoca-perf's remote sync-event tests. The server creates a sync event
 * (remote-net publisher, CPU subscriber), exports it over the TCP socket and
 * serves the client's messages:
 *
 *   WAKE   its main thread waits in doca_sync_event_wait_gt - blocked, no
 *          progress call, as DOCA's sample responder - for each notify-set
 *          of the client's. A set carries the client's CLOCK_MONOTONIC time,
 *          so the wake-up latency is the waiter's clock minus the value it
 *          woke to (both processes on one host). Each wake-up is answered
 *          over the socket with the value woken to, and the client sets the
 *          next value only then: an event is a value, not a queue, so sets
 *          that land while the waiter waits for a CPU would otherwise
 *          coalesce into one wake-up (on a loaded host, all of them into the
 *          end mark). A set of UINT64_MAX ends; the samples go back.
 *   BLOCK  it blocks in poll() until the client's next message, as a DOCA
 *          target in getchar(): the soft NIC's service thread serves the
 *          client's writes, fetch-adds, notify-sets and notify-adds.
 *   CHECK  its event's value and its fetch-add counter go back.
 *
 * The client: sync_set --lat gives the wake-up latency, the notify-set's
 * own time to complete, and an 8-byte write and a fetch-add to the blocked
 * server, one in flight, with the same --gap-us between operations; --bw
 * (sync_set, sync_add) the rate of notify-sets or notify-adds, -q in
 * flight, beside fetch-adds of the same run (in alternating turns).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_sync_event.h>

#include "perf.h"

#define COUNTER_OFF 0 /* the server's fetch-add counter */
#define WRITE_OFF 64  /* where the 8-byte writes land on the server */
#define LOCAL_OFF 128 /* this side's buffers: 16 bytes per slot */
#define LOCAL_STEP 16
#define END_MARK UINT64_MAX

enum kind { K_SET, K_ADD, K_WRITE, K_FA };

/* Operations of one kind, each a task with its buffers in a slot. */
struct ops {
	enum kind kind;
	uint32_t n;
	struct perf_slot *slots;
};

/* ---------------------------------------------------------------- */
/* server                                                             */
/* ---------------------------------------------------------------- */

static void serve_wakes(struct doca_sync_event *ev, int oob)
{
	struct perf_samples s = { 0 };
	uint64_t last = 0, v, now;

	PERF_CHECK(doca_sync_event_update_set(ev, 0));
	perf_send_msg(oob, MSG_READY, 0, 0, 0);
	for (;;) {
		PERF_CHECK(doca_sync_event_wait_gt(ev, last, UINT64_MAX));
		now = perf_mono_ns();
		PERF_CHECK(doca_sync_event_get(ev, &v));
		if (v == END_MARK)
			break;
		perf_samples_add(&s, now > v ? now - v : 0);
		last = v;
		perf_send_msg(oob, MSG_WOKE, v, 0, 0);
	}
	perf_oob_send(oob, s.n ? (void *)s.v : (void *)&last, s.n * sizeof(uint64_t));
	free(s.v);
}

void perf_sync_server(struct perf_ep *ep, int oob)
{
	uint64_t *counter = (uint64_t *)(void *)(ep->mem + COUNTER_OFF);
	struct doca_sync_event *ev;
	const uint8_t *blob;
	size_t len;
	uint64_t v;

	PERF_CHECK(doca_sync_event_create(&ev));
	PERF_CHECK(doca_sync_event_add_publisher_location_remote_net(ev));
	PERF_CHECK(doca_sync_event_add_subscriber_location_cpu(ev, ep->dev));
	PERF_CHECK(doca_sync_event_start(ev));
	PERF_CHECK(doca_sync_event_export_to_remote_net(ev, &blob, &len));
	perf_oob_send(oob, blob, len);
	for (;;) {
		struct perf_msg m = perf_recv_msg(oob, 0);

		if (m.tag == MSG_FINISH)
			break;
		switch (m.tag) {
		case MSG_WAKE:
			serve_wakes(ev, oob);
			break;
		case MSG_BLOCK:
			PERF_CHECK(doca_sync_event_update_set(ev, 0));
			__atomic_store_n(counter, 0, __ATOMIC_SEQ_CST);
			perf_send_msg(oob, MSG_READY, 0, 0, 0);
			perf_oob_wait(oob); /* no progress call until the next message */
			break;
		case MSG_CHECK:
			PERF_CHECK(doca_sync_event_get(ev, &v));
			perf_send_msg(oob, MSG_RESULT, v,
			              __atomic_load_n(counter, __ATOMIC_SEQ_CST), 0);
			break;
		default:
			fprintf(stderr, "softdoca-perf: protocol error (message %lu)\n",
			        (unsigned long)m.tag);
			exit(1);
		}
	}
	PERF_CHECK(doca_sync_event_stop(ev));
	PERF_CHECK(doca_sync_event_destroy(ev));
}

/* ---------------------------------------------------------------- */
/* client                                                             */
/* ---------------------------------------------------------------- */

static struct doca_buf *buf_at(struct perf_ep *ep, struct doca_mmap *mmap, uint8_t *addr,
                               size_t data_len)
{
	struct doca_buf *b;

	PERF_CHECK(doca_buf_inventory_buf_get_by_args(ep->inv, mmap, addr, 8, addr, data_len, &b));
	return b;
}

/* n operations of a kind; their local buffers from slot `first` on. */
static void make_ops(struct perf_ep *ep, struct doca_sync_event_remote_net *rev, enum kind kind,
                     uint32_t n, uint32_t first, struct ops *o)
{
	struct doca_rdma_connection *conn = ep->conns[0];

	*o = (struct ops){ .kind = kind, .n = n, .slots = calloc(n, sizeof(*o->slots)) };
	if (!o->slots) {
		fprintf(stderr, "softdoca-perf: out of memory\n");
		exit(1);
	}
	for (uint32_t i = 0; i < n; i++) {
		struct perf_slot *s = &o->slots[i];
		union doca_data ud = { .ptr = s };
		uint8_t *local = ep->mem + LOCAL_OFF + LOCAL_STEP * (first + i);

		*s = (struct perf_slot){ .ep = ep, .index = i };
		if (kind == K_SET) {
			struct doca_rdma_task_remote_net_sync_event_notify_set *t;

			s->local = buf_at(ep, ep->mmap, local, 8);
			PERF_CHECK(doca_rdma_task_remote_net_sync_event_notify_set_allocate_init(
			        ep->rdma, conn, rev, s->local, ud, &t));
			s->task = doca_rdma_task_remote_net_sync_event_notify_set_as_task(t);
		} else if (kind == K_ADD) {
			struct doca_rdma_task_remote_net_sync_event_notify_add *t;

			s->local = buf_at(ep, ep->mmap, local, 0);
			PERF_CHECK(doca_rdma_task_remote_net_sync_event_notify_add_allocate_init(
			        ep->rdma, conn, rev, s->local, 1, ud, &t));
			s->task = doca_rdma_task_remote_net_sync_event_notify_add_as_task(t);
		} else if (kind == K_WRITE) {
			struct doca_rdma_task_write *t;

			s->local = buf_at(ep, ep->mmap, local, 8);
			s->remote = buf_at(ep, ep->remote_mmap, ep->remote_mem + WRITE_OFF, 0);
			PERF_CHECK(doca_rdma_task_write_allocate_init(ep->rdma, conn, s->local,
			                                              s->remote, ud, &t));
			s->task = doca_rdma_task_write_as_task(t);
		} else {
			struct doca_rdma_task_atomic_fetch_add *t;

			s->local = buf_at(ep, ep->mmap, local, 0);
			s->remote = buf_at(ep, ep->remote_mmap, ep->remote_mem + COUNTER_OFF, 8);
			PERF_CHECK(doca_rdma_task_atomic_fetch_add_allocate_init(
			        ep->rdma, conn, s->remote, s->local, 1, ud, &t));
			s->task = doca_rdma_task_atomic_fetch_add_as_task(t);
		}
	}
}

static void free_ops(struct ops *o)
{
	for (uint32_t i = 0; i < o->n; i++) {
		doca_task_free(o->slots[i].task);
		doca_buf_dec_refcount(o->slots[i].local, NULL);
		if (o->slots[i].remote)
			doca_buf_dec_refcount(o->slots[i].remote, NULL);
	}
	free(o->slots);
}

static void check_failures(struct perf_ep *ep)
{
	if (ep->failed)
		perf_fail("a sync-event test's operation", ep->first_error);
}

static void submit(struct ops *o, struct perf_slot *s)
{
	if (o->kind == K_WRITE) /* a write grows its remote buffer's data: start over */
		PERF_CHECK(doca_buf_reset_data_len(s->remote));
	s->busy = true;
	PERF_CHECK(doca_task_submit(s->task));
}

static void wait_idle(struct perf_ep *ep, struct perf_slot *s)
{
	while (s->busy && !ep->failed)
		doca_pe_progress(ep->pe);
	check_failures(ep);
}

static void pause_us(uint32_t us)
{
	struct timespec t = { .tv_sec = us / 1000000, .tv_nsec = (long)(us % 1000000) * 1000 };

	while (us && nanosleep(&t, &t) != 0)
		;
}

/* One operation at a time; a notify-set's value is the time it leaves
 * (stamp: its source), always above the one before. With a waiter (wake_oob
 * not -1), the next set leaves once the waiter said it woke, outside the
 * time measured; woke counts the wake-ups to the value set. */
static void latency(struct perf_ep *ep, struct ops *o, const struct perf_opts *opt, uint64_t *stamp,
                    int wake_oob, uint64_t *woke, struct perf_result *r, const char *label)
{
	struct perf_samples s = { 0 };
	uint64_t last = 0;

	for (uint64_t i = 0; i < opt->iters; i++) {
		uint64_t t0;

		pause_us(opt->gap_us);
		t0 = perf_now_ns();
		if (stamp) {
			uint64_t v = perf_mono_ns();

			*stamp = last = v > last ? v : last + 1;
		}
		submit(o, &o->slots[0]);
		wait_idle(ep, &o->slots[0]);
		perf_samples_add(&s, perf_now_ns() - t0);
		if (wake_oob < 0)
			continue;
		while (!perf_oob_readable(wake_oob)) /* on the CPU, as between operations */
			;
		*woke += perf_recv_msg(wake_oob, MSG_WOKE).a == last;
	}
	*r = (struct perf_result){ .label = label, .size = 8, .iters = s.n };
	perf_latency_stats(&s, r);
	free(s.v);
}

/* Every slot kept busy, for n operations or until the deadline (0: none);
 * adds the operations and the time they took to r. */
static void rate(struct perf_ep *ep, struct ops *o, uint64_t n, uint64_t deadline,
                 struct perf_result *r)
{
	uint64_t i = 0, t0 = perf_now_ns();

	ep->completed = 0;
	ep->done_at.n = 0;
	while (!ep->failed) {
		struct perf_slot *s = &o->slots[i % o->n];

		if (deadline ? (i & 63) == 0 && perf_now_ns() >= deadline : i >= n)
			break;
		while (s->busy && !ep->failed)
			doca_pe_progress(ep->pe);
		if (!ep->failed)
			submit(o, s);
		i++;
	}
	while (ep->completed < i && !ep->failed)
		doca_pe_progress(ep->pe);
	check_failures(ep);
	r->iters += i;
	r->t_avg += (double)(perf_now_ns() - t0); /* ns, until finish_rate() */
}

static void finish_rate(struct perf_result *r, const char *label)
{
	r->label = label;
	r->size = 8;
	r->msg_rate = (double)r->iters / (r->t_avg / 1e9);
	r->bw_avg = r->bw_peak = r->msg_rate * 8;
	r->t_avg = 0;
}

/* The server's event value and fetch-add counter against what they must be. */
static void verify(int oob, bool event_known, uint64_t event, uint64_t counter,
                   struct perf_result *r_event, struct perf_result *r_counter)
{
	struct perf_msg m;

	perf_send_msg(oob, MSG_CHECK, 0, 0, 0);
	m = perf_recv_msg(oob, MSG_RESULT);
	if (event_known) {
		r_event->verified += m.a == event;
		r_event->bad += m.a != event;
	}
	r_counter->verified += m.b == counter;
	r_counter->bad += m.b != counter;
}

/* Notify-set wake-ups, then the same operation's own time, an 8-byte write
 * and a fetch-add to the blocked server. */
static size_t client_latency(struct perf_ep *ep, struct doca_sync_event_remote_net *rev,
                             const struct perf_opts *o, int oob, struct perf_result *r)
{
	struct perf_samples wake = { 0 };
	struct ops ops;
	uint64_t *stamp = (uint64_t *)(void *)(ep->mem + LOCAL_OFF), woke = 0;
	size_t len;

	make_ops(ep, rev, K_SET, 1, 0, &ops);
	perf_send_msg(oob, MSG_WAKE, 0, 0, 0);
	perf_recv_msg(oob, MSG_READY);
	latency(ep, &ops, o, stamp, oob, &woke, &r[1], "remote notify-set, the whole operation");
	*stamp = END_MARK;
	submit(&ops, &ops.slots[0]);
	wait_idle(ep, &ops.slots[0]);
	free_ops(&ops);
	wake.v = perf_oob_recv(oob, &len);
	wake.n = wake.cap = len / sizeof(uint64_t);
	r[0] = (struct perf_result){ .label = "remote notify-set -> the waiter, blocked in "
		                              "doca_sync_event_wait_gt, wakes",
		                     .size = 8,
		                     .iters = wake.n };
	if (wake.n)
		perf_latency_stats(&wake, &r[0]);
	/* Every set woke the waiter, to the value set (a wake-up answered with
	 * another value counts as wrong). */
	r[0].verified = woke;
	r[0].bad = o->iters - woke;
	if (woke != o->iters)
		fprintf(stderr,
		        "softdoca-perf: data check: %lu of %lu notify-sets woke the waiter to "
		        "their value\n",
		        (unsigned long)woke, (unsigned long)o->iters);
	free(wake.v);

	perf_send_msg(oob, MSG_BLOCK, 0, 0, 0);
	perf_recv_msg(oob, MSG_READY);
	make_ops(ep, rev, K_WRITE, 1, 0, &ops);
	latency(ep, &ops, o, NULL, -1, NULL, &r[2], "RDMA write 8 B to the blocked server");
	free_ops(&ops);
	make_ops(ep, rev, K_FA, 1, 0, &ops);
	latency(ep, &ops, o, NULL, -1, NULL, &r[3], "atomic fetch-add to the blocked server");
	free_ops(&ops);
	verify(oob, false, 0, o->iters, NULL, &r[3]);
	return 4;
}

/* The notify-set or notify-add rate beside the fetch-add rate, the server
 * blocked throughout. Four turns each, alternating, so that the load of a
 * shared host falls on both alike. */
#define RATE_TURNS 4

static size_t client_rate(struct perf_ep *ep, struct doca_sync_event_remote_net *rev,
                          const struct perf_opts *o, int oob, struct perf_result *r)
{
	bool add = o->op == PERF_SYNC_ADD;
	uint64_t turn_ns = (uint64_t)(o->duration * 1e9 / RATE_TURNS);
	struct ops ev_ops, fa_ops;

	r[0] = r[1] = (struct perf_result){ 0 };
	perf_send_msg(oob, MSG_BLOCK, 0, 0, 0);
	perf_recv_msg(oob, MSG_READY);
	make_ops(ep, rev, add ? K_ADD : K_SET, o->depth, 0, &ev_ops);
	make_ops(ep, rev, K_FA, o->depth, o->depth, &fa_ops);
	for (uint32_t i = 0; i < o->depth; i++) /* each notify-set's value: 1 */
		*(uint64_t *)(void *)(ep->mem + LOCAL_OFF + LOCAL_STEP * i) = 1;
	for (int turn = 0; turn < RATE_TURNS; turn++) {
		uint64_t n = o->iters / RATE_TURNS + (turn < (int)(o->iters % RATE_TURNS));

		rate(ep, &ev_ops, n, turn_ns ? perf_now_ns() + turn_ns : 0, &r[0]);
		rate(ep, &fa_ops, n, turn_ns ? perf_now_ns() + turn_ns : 0, &r[1]);
	}
	free_ops(&ev_ops);
	free_ops(&fa_ops);
	finish_rate(&r[0], add ? "remote notify-add to the blocked server"
	                       : "remote notify-set to the blocked server");
	finish_rate(&r[1], "atomic fetch-add to the blocked server, turns alternating");
	verify(oob, true, add ? r[0].iters : 1, r[1].iters, &r[0], &r[1]);
	return 2;
}

size_t perf_sync_client(struct perf_ep *ep, const struct perf_opts *o, int oob,
                        struct perf_result r[PERF_SYNC_ROWS])
{
	struct doca_sync_event_remote_net *rev;
	size_t len, rows;
	void *blob = perf_oob_recv(oob, &len);

	PERF_CHECK(doca_sync_event_remote_net_create_from_export(ep->dev, blob, len, &rev));
	free(blob);
	rows = o->mode == PERF_LAT ? client_latency(ep, rev, o, oob, r)
	                           : client_rate(ep, rev, o, oob, r);
	PERF_CHECK(doca_sync_event_remote_net_destroy(rev));
	return rows;
}
