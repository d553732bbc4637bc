/*
 * softdoca integration tests: when a message arrives, seen from the
 * receiver: before its receive is posted (RNR), before it has connected,
 * and just before it stops and exits. Both sides must agree on whether the
 * message happened: delivered once and completed successfully, or refused
 * and failed on both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <softdoca.h>

#include "peer.h"

/* ------------------------------------------------------------------ */
/* rnr: sends arrive before any receive is posted                       */
/* ------------------------------------------------------------------ */

static void wait_rnr(struct peer *p, uint64_t n)
{
	struct softdoca_rdma_counters c;
	uint64_t deadline = now_ms() + WAIT_MS;

	for (;;) {
		CHECK(softdoca_rdma_connection_get_counters(p->conn[0], &c));
		if (c.rnr_waits >= n)
			return;
		EXPECT(now_ms() < deadline, "no request waited for a receive");
		doca_pe_progress(p->pe);
	}
}

static void rnr_server(struct peer *p)
{
	struct posted_recv recv[4];

	server_prepare(p, MiB, ALL_RDMA);
	oob_accept(p);
	handshake(p, 0);
	oob_expect(p->oob[0], "submitted", WAIT_MS);
	wait_rnr(p, 1); /* the first send is here and waits: post the receives now */
	post_recv(p, &recv[0], peer_buf(p, p->mmap, p->mem + 4096, 4096, 0));
	post_recv(p, &recv[1], peer_buf(p, p->mmap, p->mem + 8192, 4096, 0));
	post_recv(p, &recv[2], NULL);
	post_recv(p, &recv[3], NULL);
	for (int i = 0; i < 4; i++)
		peer_wait(p, &recv[i].r, WAIT_MS);
	check_recv(&recv[0], DOCA_RDMA_OPCODE_RECV_SEND, 100, false, 0, "late send");
	expect_pattern(p->mem + 4096, 100, 80, "late send data");
	check_recv(&recv[1], DOCA_RDMA_OPCODE_RECV_SEND_WITH_IMM, 16, true, 0xABCD,
	           "late send-imm");
	check_recv(&recv[2], DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM, 64, true, 0x42,
	           "late write-imm");
	expect_pattern(p->mem, 64, 81, "late write-imm data");
	check_recv(&recv[3], DOCA_RDMA_OPCODE_RECV_SEND, 0, false, 0, "late empty send");
	for (int i = 0; i < 4; i++)
		free_recv(&recv[i]);
	report(p, 0, "OK");
	oob_expect(p->oob[0], "bye", WAIT_MS);
	peer_stop(p);
}

static void rnr_client(struct peer *p)
{
	struct doca_rdma_task_send *send, *empty;
	struct doca_rdma_task_send_imm *send_imm;
	struct doca_rdma_task_write_imm *write_imm;
	struct doca_buf *a, *b, *c, *d;
	struct result r[4];

	client_prepare(p, MiB);
	handshake(p, 0);
	pattern_fill(p->mem, 100, 80);
	pattern_fill(p->mem + 4096, 16, 22);
	pattern_fill(p->mem + 8192, 64, 81);
	a = local_buf(p, 0, 100, 100);
	b = local_buf(p, 4096, 16, 16);
	c = local_buf(p, 8192, 64, 64);
	d = remote_buf(p, 0, 64, 0);
	/* Right after connect, as DOCA programs do; the peer posts nothing yet. */
	CHECK(doca_rdma_task_send_allocate_init(p->rdma, p->conn[0], a, result_data(&r[0]), &send));
	CHECK(doca_rdma_task_send_imm_allocate_init(p->rdma, p->conn[0], b, 0xABCD,
	                                            result_data(&r[1]), &send_imm));
	CHECK(doca_rdma_task_write_imm_allocate_init(p->rdma, p->conn[0], c, d, 0x42,
	                                             result_data(&r[2]), &write_imm));
	CHECK(doca_task_submit(doca_rdma_task_send_as_task(send)));
	CHECK(doca_task_submit(doca_rdma_task_send_imm_as_task(send_imm)));
	/* An empty payload held for a receive (nothing to copy while it waits). */
	CHECK(doca_rdma_task_send_allocate_init(p->rdma, p->conn[0], NULL, result_data(&r[3]),
	                                        &empty));
	CHECK(doca_task_submit(doca_rdma_task_write_imm_as_task(write_imm)));
	CHECK(doca_task_submit(doca_rdma_task_send_as_task(empty)));
	report(p, 0, "submitted");
	for (int i = 0; i < 4; i++) {
		peer_wait(p, &r[i], WAIT_MS);
		expect_status(&r[i], DOCA_SUCCESS, "send after RNR wait");
	}
	EXPECT(r[0].order < r[1].order && r[1].order < r[2].order && r[2].order < r[3].order,
	       "completions out of order");
	doca_task_free(doca_rdma_task_send_as_task(send));
	doca_task_free(doca_rdma_task_send_imm_as_task(send_imm));
	doca_task_free(doca_rdma_task_write_imm_as_task(write_imm));
	doca_task_free(doca_rdma_task_send_as_task(empty));
	put(a);
	put(b);
	put(c);
	put(d);
	expect_ok_from_peer(p, 0);
	report(p, 0, "bye");
	peer_stop(p);
}

/* With rnr_retry_count 1 the send gives up: both contexts end in error. */
static void rnr_exceeded_server(struct peer *p)
{
	char *msg;

	server_prepare(p, MiB, ALL_RDMA);
	oob_accept(p);
	handshake(p, 0);
	msg = wait_message(p, 0); /* progresses meanwhile, and posts no receive */
	EXPECT(strcmp(msg, "failed") == 0, "unexpected '%s'", msg);
	free(msg);
	peer_wait_state(p, DOCA_CTX_STATE_IDLE, 10000);
	report(p, 0, "OK");
}

static void rnr_exceeded_client(struct peer *p)
{
	struct doca_buf *src;
	struct result r;

	p->rnr_retry = 1;
	client_prepare(p, MiB);
	handshake(p, 0);
	src = local_buf(p, 0, 100, 100);
	do_send(p, src, false, 0, &r);
	expect_status(&r, DOCA_ERROR_TIME_OUT, "send never received");
	peer_wait_state(p, DOCA_CTX_STATE_IDLE, 10000);
	put(src);
	report(p, 0, "failed");
	expect_ok_from_peer(p, 0);
}

/* ------------------------------------------------------------------ */
/* recv_exit: the receiver stops inside its completion callback and     */
/* exits at once, while the sender is busy for a few ms after submit    */
/* ------------------------------------------------------------------ */

#define RECV_EXIT_ROUNDS 200
#define RECV_EXIT_BUSY_MS 5
#define RECV_EXIT_LEN 64

/* One receiver, in a process of its own: receives, stops its context in
 * the completion callback (freeing the task, as DOCA samples do), checks
 * the bytes, cleans up and exits. */
static void receive_and_exit(struct peer *p, int round)
{
	struct posted_recv pr;

	server_prepare(p, 4096, ALL_RDMA);
	peer_connect(p, 0);
	post_recv(p, &pr, local_buf(p, 0, 4096, 0));
	pr.r.stop_ctx = true;
	peer_wait_state(p, DOCA_CTX_STATE_IDLE, WAIT_MS);
	expect_status(&pr.r, DOCA_SUCCESS, "receive");
	expect_pattern(p->mem, RECV_EXIT_LEN, (uint32_t)round, "received bytes");
	put(pr.buf);
	peer_close(p);
	exit(0);
}

static void recv_exit_server(struct peer *p)
{
	int rounds = p->rounds ? p->rounds : RECV_EXIT_ROUNDS;

	oob_accept(p);
	for (int i = 0; i < rounds; i++) {
		int status;
		pid_t pid = fork();

		EXPECT(pid >= 0, "fork failed");
		if (pid == 0)
			receive_and_exit(p, i);
		EXPECT(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		               WEXITSTATUS(status) == 0,
		       "round %d: the receiver failed", i);
	}
}

static void busy_ms(uint64_t ms)
{
	uint64_t end = now_ms() + ms;

	while (now_ms() < end)
		; /* computing, not progressing */
}

static void recv_exit_client(struct peer *p)
{
	int rounds = p->rounds ? p->rounds : RECV_EXIT_ROUNDS;

	for (int i = 0; i < rounds; i++) {
		struct doca_rdma_task_send *t;
		struct doca_buf *src;
		struct result r;

		client_prepare(p, 4096);
		peer_connect(p, 0);
		pattern_fill(p->mem, RECV_EXIT_LEN, (uint32_t)i);
		src = local_buf(p, 0, RECV_EXIT_LEN, RECV_EXIT_LEN);
		CHECK(doca_rdma_task_send_allocate_init(p->rdma, p->conn[0], src, result_data(&r),
		                                        &t));
		CHECK(doca_task_submit(doca_rdma_task_send_as_task(t)));
		busy_ms(RECV_EXIT_BUSY_MS);
		peer_wait(p, &r, WAIT_MS);
		if (r.status != DOCA_SUCCESS)
			FAIL("round %d: a send that arrived failed with %s", i,
			     doca_error_get_name(r.status));
		doca_task_free(doca_rdma_task_send_as_task(t));
		put(src);
		peer_stop(p);
		peer_release(p);
	}
	printf("recv_exit: %d rounds, every send succeeded\n", rounds);
}

/* ------------------------------------------------------------------ */
/* late_connect: the receiver connects long after the send arrived      */
/* ------------------------------------------------------------------ */

#define LATE_TIMEOUT_MS "300" /* the sender's request timeout */
#define LATE_MS 1000          /* how late the receiver connects: > the timeout */

/* Exports, takes the peer's blob, and leaves connecting for later. */
static void *export_only(struct peer *p, size_t *peer_len)
{
	const void *blob;
	size_t len;

	CHECK(doca_rdma_export(p->rdma, &blob, &len, &p->conn[0]));
	oob_send(p->oob[0], blob, len);
	return oob_recv(p->oob[0], peer_len, WAIT_MS);
}

static void late_connect_server(struct peer *p)
{
	struct softdoca_rdma_counters c;
	struct posted_recv pr;
	uint64_t until;
	size_t len;
	void *blob;

	server_prepare(p, 4096, ALL_RDMA);
	oob_accept(p);
	blob = export_only(p, &len);
	oob_expect(p->oob[0], "submitted", WAIT_MS);
	/* The scenario: connecting long after the sender's timeout. */
	for (until = now_ms() + LATE_MS; now_ms() < until;)
		doca_pe_progress(p->pe);
	CHECK(doca_rdma_connect(p->rdma, blob, len, p->conn[0]));
	free(blob);
	post_recv(p, &pr, local_buf(p, 0, 4096, 0));
	peer_wait(p, &pr.r, WAIT_MS);
	check_recv(&pr, DOCA_RDMA_OPCODE_RECV_SEND, 100, false, 0, "late receiver");
	expect_pattern(p->mem, 100, 40, "late receiver's bytes");
	free_recv(&pr);
	oob_expect(p->oob[0], "done", WAIT_MS);
	CHECK(softdoca_rdma_connection_get_counters(p->conn[0], &c));
	EXPECT(c.requests_served == 1, "%lu requests served, expected the one send once",
	       (unsigned long)c.requests_served);
	report(p, 0, "OK");
	peer_stop(p);
}

static void late_connect_client(struct peer *p)
{
	struct doca_buf *src;
	struct result r;

	setenv("SOFTDOCA_TIMEOUT_MS", LATE_TIMEOUT_MS, 1);
	client_prepare(p, 4096); /* rnr_retry_count 7: forever, DOCA's default */
	peer_connect(p, 0);
	pattern_fill(p->mem, 100, 40);
	src = local_buf(p, 0, 100, 100);
	report(p, 0, "submitted");
	do_send(p, src, false, 0, &r);
	expect_status(&r, DOCA_SUCCESS, "send to a receiver that connected late");
	put(src);
	report(p, 0, "done");
	expect_ok_from_peer(p, 0);
	peer_stop(p);
}

/* With rnr_retry_count 1 the sender gives up (TIME_OUT); the receiver,
 * connecting afterwards, refuses the request instead of delivering it. */
static void late_connect_exceeded_server(struct peer *p)
{
	struct softdoca_rdma_counters c;
	struct posted_recv pr;
	size_t len;
	void *blob;
	char *msg;

	server_prepare(p, 4096, ALL_RDMA);
	pattern_fill(p->mem, 4096, 99);
	oob_accept(p);
	blob = export_only(p, &len);
	/* A receive posted before connect, ready for the send if it were run. */
	post_recv(p, &pr, local_buf(p, 0, 4096, 0));
	msg = wait_message(p, 0);
	EXPECT(strcmp(msg, "failed") == 0, "unexpected '%s'", msg);
	free(msg);
	CHECK(doca_rdma_connect(p->rdma, blob, len, p->conn[0]));
	free(blob);
	/* What came before the connect is decided on at the next progress, as
	 * on RC where the requester retries once the QP is ready. */
	peer_wait(p, &pr.r, WAIT_MS); /* the refusal failed the connection: flushed */
	EXPECT(pr.r.status != DOCA_SUCCESS, "the receive completed successfully");
	CHECK(softdoca_rdma_connection_get_counters(p->conn[0], &c));
	EXPECT(c.requests_served == 0 && c.naks_sent == 1, "served %lu, NAKs %lu",
	       (unsigned long)c.requests_served, (unsigned long)c.naks_sent);
	expect_pattern(p->mem, 4096, 99, "the receive buffer");
	free_recv(&pr);
	peer_wait_state(p, DOCA_CTX_STATE_IDLE, WAIT_MS);
	report(p, 0, "OK");
}

static void late_connect_exceeded_client(struct peer *p)
{
	struct doca_rdma_task_send *t;
	struct doca_buf *src;
	struct result r;

	setenv("SOFTDOCA_TIMEOUT_MS", LATE_TIMEOUT_MS, 1);
	p->rnr_retry = 1;
	client_prepare(p, 4096);
	peer_connect(p, 0);
	src = local_buf(p, 0, 100, 100);
	CHECK(doca_rdma_task_send_allocate_init(p->rdma, p->conn[0], src, result_data(&r), &t));
	CHECK(doca_task_submit(doca_rdma_task_send_as_task(t)));
	peer_wait(p, &r, WAIT_MS);
	expect_status(&r, DOCA_ERROR_TIME_OUT, "send to a receiver that never connected");
	/* The failed task keeps the context STOPPING, its transport up: the
	 * receiver connects to a live peer that has given up. */
	report(p, 0, "failed");
	expect_ok_from_peer(p, 0);
	doca_task_free(doca_rdma_task_send_as_task(t));
	peer_wait_state(p, DOCA_CTX_STATE_IDLE, WAIT_MS);
	put(src);
}

const struct scenario arrival_scenarios[] = {
	{ "rnr", rnr_server, rnr_client },
	{ "rnr_exceeded", rnr_exceeded_server, rnr_exceeded_client },
	{ "recv_exit", recv_exit_server, recv_exit_client },
	{ "late_connect", late_connect_server, late_connect_client },
	{ "late_connect_exceeded", late_connect_exceeded_server, late_connect_exceeded_client },
	{ NULL, NULL, NULL },
};
