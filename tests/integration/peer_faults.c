/*
 * softdoca integration tests: faults injected through softdoca_faults_set
 * (the SOFTDOCA_FAULTS syntax) on one side of a real connection, and what
 * the DOCA program then sees: delayed messages change nothing but time, a
 * forced RNR makes a send wait (or fail with TIME_OUT once the peer's RNR
 * retries run out), a lost message, a vanished peer and a broken connection
 * fail requests with TIME_OUT and stop the context, and a soft NIC stopped
 * past the peer's timeout goes on cleanly afterwards. Each side checks the
 * faults were counted (softdoca_faults_injected, the connection counters).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <softdoca.h>

#include "peer.h"

#define MEM (64 * 1024)
#define CHUNK 4096

/* The case's fault specification on one side (the other injects none). */
struct fault_case {
	const char *name;
	const char *server_faults;
	const char *client_faults;
	doca_error_t expected; /* the client's first failure (SUCCESS: none) */
};

static const struct fault_case cases[] = {
	{ "fault_delay", NULL, "seed=7;delay:rate=0.3,ms=5", DOCA_SUCCESS },
	{ "fault_rnr", "rnr:nth=2,ms=300", NULL, DOCA_SUCCESS },
	{ "fault_rnr_exceeded", "rnr:nth=1,ms=3000", NULL, DOCA_ERROR_TIME_OUT },
	{ "fault_drop", NULL, "drop:nth=6", DOCA_ERROR_TIME_OUT },
	{ "fault_vanish", NULL, "vanish:nth=4", DOCA_ERROR_TIME_OUT },
	{ "fault_break", NULL, "break:nth=20", DOCA_ERROR_TIME_OUT },
	{ "fault_stop", "stop:nth=8,ms=1500", NULL, DOCA_ERROR_TIME_OUT },
};

static const struct fault_case *find_case(const struct peer *p)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (strcmp(cases[i].name, p->scenario) == 0)
			return &cases[i];
	FAIL("no fault case %s", p->scenario);
}

static bool sends(const struct fault_case *c)
{
	return strncmp(c->name, "fault_rnr", 9) == 0;
}

/* The faults this side injected: counted on the device (its connections,
 * which go with the context once it is IDLE) and in total. */
static void expect_injected(struct peer *p, const char *spec)
{
	struct softdoca_rdma_counters c;

	CHECK(softdoca_dev_get_counters(p->dev, &c));
	if (!spec) {
		EXPECT(softdoca_faults_injected() == 0, "faults injected on the wrong side");
		return;
	}
	EXPECT(c.faults_injected > 0 && softdoca_faults_injected() >= c.faults_injected,
	       "%lu faults counted on the device, %lu in all", (unsigned long)c.faults_injected,
	       (unsigned long)softdoca_faults_injected());
	printf("%lu fault(s) injected (%s)\n", (unsigned long)c.faults_injected, spec);
}

static void fault_server(struct peer *p)
{
	const struct fault_case *c = find_case(p);
	struct posted_recv recv[4];
	char *msg;

	if (c->server_faults)
		CHECK(softdoca_faults_set(c->server_faults));
	p->rnr_retry = 7;
	server_prepare(p, MEM, ALL_RDMA);
	oob_accept(p);
	handshake(p, 0);
	if (sends(c))
		for (int i = 0; i < 4; i++)
			post_recv(p, &recv[i], local_buf(p, (size_t)i * CHUNK, CHUNK, 0));
	oob_send_str(p->oob[0], "ready");
	msg = wait_message(p, 0); /* a stopped soft NIC goes on meanwhile */
	EXPECT(strcmp(msg, "done") == 0, "expected done, got %s", msg);
	free(msg);
	expect_injected(p, c->server_faults);
	/* Stopping flushes the receives a failed send left; IDLE once freed. */
	(void)doca_ctx_stop(doca_rdma_as_ctx(p->rdma));
	if (sends(c))
		for (int i = 0; i < 4; i++) {
			peer_wait(p, &recv[i].r, WAIT_MS);
			free_recv(&recv[i]);
		}
	peer_stop(p);
	oob_send_str(p->oob[0], "bye");
}

/* A write and its read-back, checked; the status of the first that failed. */
static doca_error_t write_and_read(struct peer *p, uint32_t seq)
{
	size_t off = (seq % (MEM / CHUNK / 2)) * CHUNK;
	struct doca_buf *src = local_buf(p, off, CHUNK, CHUNK), *dst = remote_buf(p, off, CHUNK, 0);
	struct doca_buf *from = remote_buf(p, off, CHUNK, CHUNK);
	struct doca_buf *back = local_buf(p, MEM / 2 + off, CHUNK, 0);
	struct result r;
	uint32_t got;

	pattern_fill(p->mem + off, CHUNK, seq);
	memset(p->mem + MEM / 2 + off, 0, CHUNK);
	do_write(p, src, dst, &r);
	if (r.status == DOCA_SUCCESS) {
		do_read(p, from, back, &r, &got);
		if (r.status == DOCA_SUCCESS)
			expect_pattern(p->mem + MEM / 2 + off, CHUNK, seq, "bytes read back");
	}
	put(src);
	put(dst);
	put(from);
	put(back);
	return r.status;
}

static void fault_client(struct peer *p)
{
	const struct fault_case *c = find_case(p);
	doca_error_t first = DOCA_SUCCESS;
	uint64_t t0 = 0, slowest = 0;
	int done = 0;

	if (c->client_faults)
		CHECK(softdoca_faults_set(c->client_faults));
	/* A silent peer is noticed soon; an RNR wait is not silence. Where
	 * every operation must succeed, a host loaded enough to deschedule a
	 * peer for half a second must not fail the test: those cases allow 3 s
	 * (a stress round saw 558 ms for a 5 ms delay, and an RNR's 300 ms
	 * wait answered after 597 ms). */
	setenv("SOFTDOCA_TIMEOUT_MS", c->expected == DOCA_SUCCESS ? "3000" : "500", 1);
	p->rnr_retry = strcmp(c->name, "fault_rnr_exceeded") == 0 ? 1 : 7;
	client_prepare(p, MEM);
	handshake(p, 0);
	oob_expect(p->oob[0], "ready", WAIT_MS);
	for (uint32_t seq = 0; seq < 100 && first == DOCA_SUCCESS; seq++, done++) {
		struct result r;

		t0 = now_ms();
		if (sends(c)) {
			struct doca_buf *src;

			if (seq == 4)
				break;
			src = local_buf(p, 0, 64, 64);
			do_send(p, src, false, 0, &r);
			put(src);
			first = r.status;
		} else {
			first = write_and_read(p, seq);
		}
		if (now_ms() - t0 > slowest)
			slowest = now_ms() - t0;
	}
	printf("%s: %d operation(s), slowest %lu ms, first failure %s\n", c->name, done,
	       (unsigned long)slowest, doca_error_get_name(first));
	EXPECT(first == c->expected, "the first failure is %s, expected %s",
	       doca_error_get_name(first), doca_error_get_name(c->expected));
	if (strcmp(c->name, "fault_rnr") == 0)
		EXPECT(slowest >= 300, "the send waited %lu ms, not the RNR's 300",
		       (unsigned long)slowest);
	if (first != DOCA_SUCCESS) /* as on RC: the context stops */
		peer_wait_state(p, DOCA_CTX_STATE_IDLE, WAIT_MS);
	expect_injected(p, c->client_faults);
	oob_send_str(p->oob[0], "done");
	oob_expect(p->oob[0], "bye", WAIT_MS);
	peer_stop(p);
}

/* An RNR fault that fires while the connection already waits for a receive
 * on the context's queue (the soak found it: the connection then waited
 * forever). No receive is posted until the fault's 100 ms are over; the two
 * sends must then complete. */
#define RNR_WAITING_MS 100

static void rnr_waiting_server(struct peer *p)
{
	struct posted_recv recv[4];
	uint64_t t0;
	char *msg;

	CHECK(softdoca_faults_set("rnr:nth=2,ms=100"));
	server_prepare(p, MEM, ALL_RDMA);
	oob_accept(p);
	handshake(p, 0);
	oob_send_str(p->oob[0], "ready");
	/* The first send waits for a receive; the second sets off the fault. */
	t0 = now_ms();
	while (softdoca_faults_injected() == 0) {
		EXPECT(now_ms() - t0 < WAIT_MS, "the RNR fault never fired");
		doca_pe_progress(p->pe);
	}
	/* A timed fault: its end comes by the clock (progressing meanwhile). */
	t0 = now_ms();
	while (now_ms() - t0 < 3 * RNR_WAITING_MS)
		doca_pe_progress(p->pe);
	for (int i = 0; i < 4; i++)
		post_recv(p, &recv[i], local_buf(p, (size_t)i * CHUNK, CHUNK, 0));
	for (int i = 0; i < 2; i++) {
		peer_wait(p, &recv[i].r, 10000);
		check_recv(&recv[i], DOCA_RDMA_OPCODE_RECV_SEND, 64, false, 0, "send after RNR");
		expect_pattern(p->mem + (size_t)i * CHUNK, 64, (uint32_t)i, "send after RNR");
	}
	msg = wait_message(p, 0);
	EXPECT(strcmp(msg, "done") == 0, "expected done, got %s", msg);
	free(msg);
	(void)doca_ctx_stop(doca_rdma_as_ctx(p->rdma));
	for (int i = 0; i < 4; i++) {
		peer_wait(p, &recv[i].r, WAIT_MS);
		free_recv(&recv[i]);
	}
	peer_stop(p);
	oob_send_str(p->oob[0], "bye");
}

static void rnr_waiting_client(struct peer *p)
{
	struct doca_rdma_task_send *t[2];
	struct doca_buf *src[2];
	struct result r[2];

	p->rnr_retry = 7;
	client_prepare(p, MEM);
	handshake(p, 0);
	oob_expect(p->oob[0], "ready", WAIT_MS);
	for (int i = 0; i < 2; i++) {
		pattern_fill(p->mem + (size_t)i * CHUNK, 64, (uint32_t)i);
		src[i] = local_buf(p, (size_t)i * CHUNK, 64, 64);
		CHECK(doca_rdma_task_send_allocate_init(p->rdma, p->conn[0], src[i],
		                                        result_data(&r[i]), &t[i]));
		CHECK(doca_task_submit(doca_rdma_task_send_as_task(t[i])));
	}
	for (int i = 0; i < 2; i++) {
		peer_wait(p, &r[i], 10000);
		expect_status(&r[i], DOCA_SUCCESS, "a send held by RNR");
		doca_task_free(doca_rdma_task_send_as_task(t[i]));
		put(src[i]);
	}
	oob_send_str(p->oob[0], "done");
	oob_expect(p->oob[0], "bye", WAIT_MS);
	peer_stop(p);
}

const struct scenario fault_scenarios[] = {
	{ "fault_rnr_waiting", rnr_waiting_server, rnr_waiting_client },
	{ "fault_delay", fault_server, fault_client },
	{ "fault_rnr", fault_server, fault_client },
	{ "fault_rnr_exceeded", fault_server, fault_client },
	{ "fault_drop", fault_server, fault_client },
	{ "fault_vanish", fault_server, fault_client },
	{ "fault_break", fault_server, fault_client },
	{ "fault_stop", fault_server, fault_client },
	{ NULL, NULL, NULL },
};
