/*
 * softdoca-perf: one message size of a test, on both sides.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * One message size of a test, on both sides. The client drives; the server
 * serves: passively (progress calls) for one-sided operations, posting
 * receives for sends, echoing in the ping-pong latency tests (write, send,
 * and their immediates: perftest's half round trip). Per size:
 *
 *   client: GO {size, iterations}     server: READY
 *   client runs, then DONE {sent}     server: EXTRA {k} (receives still posted)
 *   client sends k more, untimed      server: RESULT {verified, bad, failed}
 */
#include <arpa/inet.h>
#include <endian.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf.h"

void perf_send_msg(int fd, enum perf_msg_tag tag, uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t w[4] = { htobe64(tag), htobe64(a), htobe64(b), htobe64(c) };

	perf_oob_send(fd, w, sizeof(w));
}

struct perf_msg perf_recv_msg(int fd, enum perf_msg_tag want)
{
	size_t len;
	uint64_t *w = perf_oob_recv(fd, &len);
	struct perf_msg m = { 0 };

	if (len == 4 * sizeof(uint64_t))
		m = (struct perf_msg){ be64toh(w[0]), be64toh(w[1]), be64toh(w[2]), be64toh(w[3]) };
	free(w);
	if (want && m.tag != want) {
		fprintf(stderr, "softdoca-perf: protocol error (message %lu, expected %d)\n",
		        (unsigned long)m.tag, want);
		exit(1);
	}
	return m;
}

void perf_client_finish(int oob)
{
	perf_send_msg(oob, MSG_FINISH, 0, 0, 0);
}

static bool needs_receives(enum perf_op op)
{
	return op == PERF_WRITE_IMM || op == PERF_SEND || op == PERF_SEND_IMM;
}

/* The ping-pong write's arrival flag: the message's last byte. */
static uint8_t signal_of(uint64_t seq)
{
	return (uint8_t)(seq % 255 + 1);
}

/* Ping-pong writes are sent from slot 0 and land in the peer's slot 1. */
static uint8_t *last_byte(struct perf_ep *ep, uint32_t slot)
{
	return ep->mem + slot * ep->stride + ep->size - 1;
}

static bool broken(const struct perf_ep *ep)
{
	return ep->failed != 0;
}

static void wait_idle(struct perf_ep *ep, struct perf_slot *s)
{
	while (s->busy && !broken(ep))
		perf_progress(ep);
}

static void wait_all_idle(struct perf_ep *ep)
{
	for (uint32_t i = 0; i < ep->num_ops; i++)
		wait_idle(ep, &ep->ops[i]);
}

/* Reports the failure, takes everything down in order (no leak), exits. */
static void fail_run(struct perf_ep *ep)
{
	fprintf(stderr, "softdoca-perf: %lu operations failed, the first with %s (%s)\n",
	        (unsigned long)ep->failed, doca_error_get_name(ep->first_error),
	        doca_error_get_descr(ep->first_error));
	perf_ep_close(ep);
	exit(1);
}

/* Sends one ping-pong message: the write's data, then its arrival flag.
 * Not inlined, nor pingpong_wait: bench/instructions.sh counts inside them. */
static __attribute__((noinline)) void pingpong_send(struct perf_ep *ep, uint64_t seq)
{
	/* Two slots in turn, as perftest posts first and reaps the completion
	 * after: the one used two messages ago is long done. */
	struct perf_slot *s = &ep->ops[seq % ep->num_ops];

	wait_idle(ep, s);
	if (ep->params.op == PERF_WRITE) {
		if (ep->check)
			perf_pattern_fill(ep->mem, ep->size - 1, seq);
		/* the flag travels with the data, as its last byte */
		*last_byte(ep, 0) = signal_of(seq);
	}
	perf_ep_submit(s, seq);
	perf_ep_repost_due(ep);
}

/* Waits for the peer's ping-pong message `seq` (progressing, as DOCA programs do). */
static __attribute__((noinline)) void pingpong_wait(struct perf_ep *ep, uint64_t seq)
{
	if (ep->params.op == PERF_WRITE) {
		const uint8_t *flag = last_byte(ep, 1), expected = signal_of(seq);

		while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) != expected && !broken(ep))
			perf_progress(ep);
		if (ep->check && !broken(ep))
			perf_check_arrival(ep, ep->mem + ep->stride, ep->size - 1, seq);
	} else {
		while (ep->received <= seq && !broken(ep))
			perf_progress(ep);
	}
}

/* ---------------------------------------------------------------- */
/* client                                                             */
/* ---------------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void perf_latency_stats(struct perf_samples *s, struct perf_result *r)
{
	double sum = 0, var = 0;

	qsort(s->v, s->n, sizeof(*s->v), cmp_u64);
	for (size_t i = 0; i < s->n; i++)
		sum += (double)s->v[i];
	r->t_avg = sum / (double)s->n / 1e3;
	for (size_t i = 0; i < s->n; i++) {
		double d = (double)s->v[i] / 1e3 - r->t_avg;

		var += d * d;
	}
	r->t_stdev = sqrt(var / (double)s->n);
	r->t_min = (double)s->v[0] / 1e3;
	r->t_max = (double)s->v[s->n - 1] / 1e3;
	r->t_typical = (double)s->v[s->n / 2] / 1e3;
	r->t_p99 = (double)s->v[(size_t)((double)(s->n - 1) * 0.99)] / 1e3;
	r->t_p999 = (double)s->v[(size_t)((double)(s->n - 1) * 0.999)] / 1e3;
}

/* Samples in ns: half the round trip for ping-pongs, the whole operation otherwise. */
static uint64_t client_latency(struct perf_ep *ep, uint64_t iters, struct perf_samples *samples)
{
	enum perf_op op = (enum perf_op)ep->params.op;
	bool pingpong = perf_op_is_pingpong(op);

	for (uint64_t i = 0; i < iters && !broken(ep); i++) {
		uint64_t t0 = perf_now_ns();

		if (pingpong) {
			pingpong_send(ep, i);
			pingpong_wait(ep, i);
			perf_samples_add(samples, (perf_now_ns() - t0) / 2);
		} else {
			perf_ep_submit(&ep->ops[0], i);
			wait_idle(ep, &ep->ops[0]);
			perf_samples_add(samples, perf_now_ns() - t0);
		}
	}
	wait_all_idle(ep);
	return iters;
}

/* Keeps every slot busy; slot i % n carries iteration i, so the last
 * iteration in each slot is known (the server checks what it left). */
static uint64_t client_bandwidth(struct perf_ep *ep, const struct perf_opts *o, uint64_t *t0,
                                 uint64_t *t1)
{
	uint64_t i = 0, deadline = 0;

	*t0 = perf_now_ns();
	if (o->duration > 0)
		deadline = *t0 + (uint64_t)(o->duration * 1e9);
	while (!broken(ep)) {
		struct perf_slot *s;

		if (deadline ? (i & 63) == 0 && perf_now_ns() >= deadline : i >= o->iters)
			break;
		s = &ep->ops[i % ep->num_ops];
		while (s->busy && !broken(ep))
			perf_progress(ep);
		perf_ep_submit(s, i++);
	}
	while (ep->completed < i && !broken(ep))
		perf_progress(ep);
	*t1 = perf_now_ns();
	return i;
}

/* The average over the run; the peak over the best tenth of its time. */
static void bandwidth_stats(const struct perf_ep *ep, uint64_t t0, uint64_t t1, uint64_t n,
                            struct perf_result *r)
{
	enum { SLICES = 10 };
	uint64_t count[SLICES] = { 0 }, span = (t1 - t0) / SLICES;
	double seconds = (double)(t1 - t0) / 1e9;

	r->bw_avg = (double)(n * ep->size) / seconds;
	r->msg_rate = (double)n / seconds;
	r->bw_peak = r->bw_avg;
	for (size_t i = 0; span > 0 && i < ep->done_at.n; i++) {
		uint64_t slice = (ep->done_at.v[i] - t0) / span;

		count[slice < SLICES ? slice : SLICES - 1]++;
	}
	for (int k = 0; span > 0 && k < SLICES; k++) {
		double bw = (double)(count[k] * ep->size) / ((double)span / 1e9);

		if (bw > r->bw_peak)
			r->bw_peak = bw;
	}
}

void perf_client_run(struct perf_ep *ep, const struct perf_opts *o, int oob, uint64_t size,
                     struct perf_result *r)
{
	enum perf_op op = (enum perf_op)ep->params.op;
	bool lat = o->mode == PERF_LAT;
	/* a ping-pong takes turns between two slots (pingpong_send) */
	uint32_t ops = lat ? (perf_op_is_pingpong(op) ? 2 : 1) : perf_num_slots(size, o->depth);
	uint32_t recvs = lat && needs_receives(op) ? 2 : 0;
	uint64_t sent, extra, t0 = 0, t1 = 0;
	struct perf_samples samples = { 0 };
	struct perf_msg m;

	*r = (struct perf_result){ .size = size };
	perf_send_msg(oob, MSG_GO, size, lat || !o->duration ? o->iters : 0, 0);
	perf_recv_msg(oob, MSG_READY);
	ep->recv_limit = lat ? o->iters : 0;
	perf_ep_slots(ep, size, ops, recvs);
	if (lat) {
		sent = client_latency(ep, o->iters, &samples);
	} else {
		sent = client_bandwidth(ep, o, &t0, &t1);
		if (!broken(ep))
			bandwidth_stats(ep, t0, t1, sent, r);
	}
	if (broken(ep))
		fail_run(ep);
	perf_send_msg(oob, MSG_DONE, sent, 0, 0);
	extra = perf_recv_msg(oob, MSG_EXTRA).a;
	/* Consume the receives the server still has posted: untimed. */
	for (uint64_t i = 0; i < extra && !broken(ep); i++) {
		wait_idle(ep, &ep->ops[(sent + i) % ep->num_ops]);
		perf_ep_submit(&ep->ops[(sent + i) % ep->num_ops], sent + i);
	}
	while (ep->completed < sent + extra && !lat && !broken(ep))
		perf_progress(ep);
	wait_all_idle(ep); /* --check: the last writes read back */
	if (broken(ep))
		fail_run(ep);
	m = perf_recv_msg(oob, MSG_RESULT);
	r->iters = sent;
	r->verified = ep->verified + m.a;
	r->bad = ep->bad + m.b;
	if (m.c) {
		fprintf(stderr, "softdoca-perf: %lu operations failed on the server\n",
		        (unsigned long)m.c);
		exit(1);
	}
	if (lat)
		perf_latency_stats(&samples, r);
	free(samples.v);
	perf_ep_free_slots(ep);
}

/* ---------------------------------------------------------------- */
/* server                                                             */
/* ---------------------------------------------------------------- */

/* Progresses until the client sends its next message (checked now and then);
 * a passive server just waits for it. */
static void serve_until_message(struct perf_ep *ep, int oob)
{
	if (ep->passive) {
		perf_oob_wait(oob);
		return;
	}
	for (uint32_t n = 1;; n++) {
		perf_progress(ep);
		if ((n & 255) == 0 && perf_oob_readable(oob))
			return;
	}
}

static void server_prepare(struct perf_ep *ep)
{
	enum perf_op op = (enum perf_op)ep->params.op;
	uint32_t slots = perf_num_slots(ep->size, ep->params.depth);
	uint64_t zero = 0;

	if (op == PERF_READ)
		for (uint32_t k = 0; k < slots; k++)
			perf_pattern_fill(ep->mem + k * ep->stride, ep->size, k);
	/* --check: what the writes find is poison, not the last size's pattern
	 * (slot 1 too: a ping-pong's writes land there) */
	if (ep->check && (op == PERF_WRITE || op == PERF_WRITE_IMM))
		perf_pattern_poison(ep->mem, (slots + 1) * ep->stride);
	if (op == PERF_ATOMIC_FA || op == PERF_ATOMIC_CS)
		__atomic_store_n((uint64_t *)(void *)ep->mem, zero, __ATOMIC_RELEASE);
}

/* What writes and atomics left in this side's memory, once all is done. */
static void server_check_final(struct perf_ep *ep, uint64_t total, uint32_t slots)
{
	enum perf_op op = (enum perf_op)ep->params.op;

	if (op == PERF_ATOMIC_FA || op == PERF_ATOMIC_CS) {
		if (__atomic_load_n((uint64_t *)(void *)ep->mem, __ATOMIC_ACQUIRE) == total)
			ep->verified++;
		else
			ep->bad++;
	} else if (ep->check && (op == PERF_WRITE || op == PERF_WRITE_IMM)) {
		/* Only --check gives each slot its own buffer (slot_offset). */
		for (uint32_t k = 0; k < slots && k < total; k++) {
			uint64_t last = (total - 1 - k) / slots * slots + k;

			if (perf_pattern_ok(ep->mem + k * ep->stride, ep->size,
			                    perf_check_seed(ep, last)))
				ep->verified++;
			else
				perf_check_bad(ep, "slot %u at the target: not write %lu's bytes",
				               k, (unsigned long)last);
		}
	}
}

bool perf_server_run(struct perf_ep *ep, int oob)
{
	enum perf_op op = (enum perf_op)ep->params.op;
	bool lat = ep->params.mode == PERF_LAT;
	struct perf_msg go = perf_recv_msg(oob, 0);
	uint32_t slots, ops = 0, recvs = 0;
	uint64_t sent, extra = 0;

	if (go.tag == MSG_FINISH)
		return false;
	if (go.tag != MSG_GO) {
		fprintf(stderr, "softdoca-perf: protocol error (message %lu)\n",
		        (unsigned long)go.tag);
		exit(1);
	}
	if (ep->passive && (needs_receives(op) || (lat && perf_op_is_pingpong(op)))) {
		fprintf(stderr,
		        "softdoca-perf: --passive: a %s %s test needs the server's progress\n",
		        perf_op_name(op), lat ? "latency" : "bandwidth");
		exit(1);
	}
	slots = lat ? 1 : perf_num_slots(go.a, ep->params.depth);
	if (lat && perf_op_is_pingpong(op))
		ops = 2; /* in turn (pingpong_send) */
	if (needs_receives(op))
		recvs = lat ? 2 : 2 * slots;
	ep->size = go.a;
	ep->stride = perf_stride(go.a);
	server_prepare(ep);
	ep->recv_limit = lat ? go.b : 0;
	perf_ep_slots(ep, go.a, ops, recvs);
	perf_send_msg(oob, MSG_READY, 0, 0, 0);
	if (lat && perf_op_is_pingpong(op)) {
		for (uint64_t i = 0; i < go.b && !broken(ep); i++) {
			pingpong_wait(ep, i);
			pingpong_send(ep, i);
		}
		wait_all_idle(ep);
		if (!broken(ep))
			serve_until_message(ep, oob);
	} else {
		serve_until_message(ep, oob);
	}
	sent = perf_recv_msg(oob, MSG_DONE).a;
	ep->repost = false;
	if (!lat && recvs)
		extra = ep->recv_posted - sent;
	perf_send_msg(oob, MSG_EXTRA, extra, 0, 0);
	while (ep->received < ep->recv_posted && !broken(ep))
		perf_progress(ep);
	/* Without --check the writes share one buffer and carry no pattern. */
	if (ep->check && (!lat || !perf_op_is_pingpong(op)))
		server_check_final(ep, sent + extra, slots);
	perf_send_msg(oob, MSG_RESULT, ep->verified, ep->bad, ep->failed);
	if (broken(ep))
		fail_run(ep);
	perf_ep_free_slots(ep);
	return true;
}
