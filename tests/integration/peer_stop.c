/*
 * softdoca integration tests: how a program stops its context, as DOCA
 * programs do it (the server side checks; the client sends).
 *
 *   stop_in_callback  The server's last receive callback stops the context:
 *                     doca_ctx_stop answers IN_PROGRESS, the state is
 *                     STOPPING after that progress and IDLE only after a
 *                     later one (the program loops "while not IDLE:
 *                     progress"); a second stop, as DOCA samples' generic
 *                     request_stop_ctx does, answers SUCCESS.
 *   stopping_handler  The server stops with two receives still posted and a
 *                     send task allocated for later; its STOPPING handler
 *                     disconnects the connection and frees that task (DOCA
 *                     programs clean up there), then the receives are
 *                     flushed to their error callback and the context is
 *                     IDLE.
 *
 * Each records every state callback, task callback and answer in order and
 * compares the whole sequence.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peer.h"

#define MSG_LEN 64
#define MSGS_IN_CALLBACK 3
#define MSGS_BEFORE_STOP 2
#define POSTED_BEFORE_STOP 4

/* What the server saw, in order. */
static struct {
	char seq[512];
	struct peer *p;
	int received;
	int stop_after; /* the receive callback that stops the context (0: none) */
	struct doca_rdma_task_send *kept; /* allocated for later, freed on STOPPING */
} log_;

static void note(const char *what)
{
	size_t used = strlen(log_.seq);

	snprintf(log_.seq + used, sizeof(log_.seq) - used, "%s%s", used ? " " : "", what);
}

static void note_status(const char *what, doca_error_t status)
{
	char text[96];

	snprintf(text, sizeof(text), "%s=%s", what, doca_error_get_name(status));
	note(text);
}

static const char *state_word(enum doca_ctx_states s)
{
	static const char *const words[] = { "idle", "starting", "running", "stopping" };

	return (unsigned int)s < 4 ? words[s] : "?";
}

static void state_changed(const union doca_data user_data, struct doca_ctx *ctx,
                          enum doca_ctx_states prev, enum doca_ctx_states next)
{
	(void)user_data;
	(void)ctx;
	(void)prev;
	note(state_word(next));
	if (next != DOCA_CTX_STATE_STOPPING)
		return;
	/* A DOCA program's clean-up: its connections and the tasks it holds. */
	if (log_.kept) {
		note_status("disconnect", doca_rdma_connection_disconnect(log_.p->conn[0]));
		doca_task_free(doca_rdma_task_send_as_task(log_.kept));
		log_.kept = NULL;
		note("free");
	}
}

static void received(struct doca_rdma_task_receive *task, union doca_data task_ud,
                     union doca_data ctx_ud)
{
	struct doca_task *t = doca_rdma_task_receive_as_task(task);
	struct doca_ctx *ctx = doca_task_get_ctx(t);
	doca_error_t status = doca_task_get_status(t);

	(void)task_ud;
	(void)ctx_ud;
	if (status == DOCA_SUCCESS) {
		log_.received++;
		note("recv");
	} else {
		note_status("flush", status);
	}
	CHECK(doca_buf_dec_refcount(doca_rdma_task_receive_get_dst_buf(task), NULL));
	doca_task_free(t);
	if (status == DOCA_SUCCESS && log_.received == log_.stop_after)
		note_status("stop", doca_ctx_stop(ctx));
}

static void sent(struct doca_rdma_task_send *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)task;
	(void)task_ud;
	(void)ctx_ud;
	FAIL("the kept send task was never submitted");
}

static enum doca_ctx_states state_of(struct peer *p)
{
	enum doca_ctx_states s;

	CHECK(doca_ctx_get_state(doca_rdma_as_ctx(p->rdma), &s));
	return s;
}

/* The server's context with this file's callbacks, started and connected. */
static void server_setup(struct peer *p)
{
	struct doca_ctx *ctx;

	memset(&log_, 0, sizeof(log_));
	log_.p = p;
	p->rdma_permissions = ALL_RDMA;
	p->rnr_retry = 7;
	peer_alloc_memory(p, 4096, ALL_RDMA);
	peer_create_rdma(p);
	ctx = doca_rdma_as_ctx(p->rdma);
	CHECK(doca_rdma_task_receive_set_conf(p->rdma, received, received, 8));
	CHECK(doca_rdma_task_send_set_conf(p->rdma, sent, sent, 8));
	CHECK(doca_ctx_set_state_changed_cb(ctx, state_changed));
	peer_start(p);
	peer_connect(p, 0);
}

static void post(struct peer *p, int n)
{
	for (int i = 0; i < n; i++) {
		struct doca_rdma_task_receive *t;
		struct doca_buf *buf = local_buf(p, (size_t)i * MSG_LEN, MSG_LEN, 0);

		CHECK(doca_rdma_task_receive_allocate_init(p->rdma, buf, (union doca_data){ 0 },
		                                           &t));
		CHECK(doca_task_submit(doca_rdma_task_receive_as_task(t)));
	}
}

/* Progresses as DOCA samples do until IDLE (bounded). */
static void progress_until_idle(struct peer *p)
{
	uint64_t deadline = now_ms() + WAIT_MS;

	while (state_of(p) != DOCA_CTX_STATE_IDLE) {
		EXPECT(now_ms() < deadline, "not IDLE within %d ms: %s", WAIT_MS, log_.seq);
		doca_pe_progress(p->pe);
	}
}

static void expect_sequence(const char *want)
{
	EXPECT(strcmp(log_.seq, want) == 0, "sequence\n  got:  %s\n  want: %s", log_.seq, want);
	printf("sequence: %s\n", log_.seq);
}

static void expect_messages(struct peer *p, int n)
{
	for (int i = 0; i < n; i++)
		expect_pattern(p->mem + (size_t)i * MSG_LEN, MSG_LEN, (uint32_t)i, "message");
}

static void stop_in_callback_server(struct peer *p)
{
	uint64_t deadline = now_ms() + WAIT_MS;

	oob_accept(p);
	server_setup(p);
	log_.stop_after = MSGS_IN_CALLBACK;
	post(p, MSGS_IN_CALLBACK);
	report(p, 0, "posted");
	while (log_.received < MSGS_IN_CALLBACK) {
		EXPECT(now_ms() < deadline, "%d of %d messages", log_.received, MSGS_IN_CALLBACK);
		doca_pe_progress(p->pe);
	}
	/* The progress that ran the stopping callback did not end the stop. */
	EXPECT(state_of(p) == DOCA_CTX_STATE_STOPPING, "state %d after the stopping callback",
	       state_of(p));
	note_status("stop", doca_ctx_stop(doca_rdma_as_ctx(p->rdma)));
	progress_until_idle(p);
	note_status("stop", doca_ctx_stop(doca_rdma_as_ctx(p->rdma)));
	expect_sequence("starting running recv recv recv stopping stop=DOCA_ERROR_IN_PROGRESS "
	                "stop=DOCA_ERROR_IN_PROGRESS idle stop=DOCA_SUCCESS");
	expect_messages(p, MSGS_IN_CALLBACK);
	report(p, 0, "OK");
}

static void stopping_handler_server(struct peer *p)
{
	uint64_t deadline = now_ms() + WAIT_MS;
	struct doca_buf *src;

	oob_accept(p);
	server_setup(p);
	post(p, POSTED_BEFORE_STOP);
	report(p, 0, "posted");
	while (log_.received < MSGS_BEFORE_STOP) {
		EXPECT(now_ms() < deadline, "%d of %d messages", log_.received, MSGS_BEFORE_STOP);
		doca_pe_progress(p->pe);
	}
	/* A task the program allocated for later and holds. */
	src = local_buf(p, 3000, MSG_LEN, MSG_LEN);
	CHECK(doca_rdma_task_send_allocate_init(p->rdma, p->conn[0], src, (union doca_data){ 0 },
	                                        &log_.kept));
	note_status("stop", doca_ctx_stop(doca_rdma_as_ctx(p->rdma)));
	EXPECT(state_of(p) == DOCA_CTX_STATE_STOPPING, "state %d after the stop", state_of(p));
	progress_until_idle(p);
	note_status("stop", doca_ctx_stop(doca_rdma_as_ctx(p->rdma)));
	put(src);
	expect_sequence("starting running recv recv stopping disconnect=DOCA_SUCCESS free "
	                "stop=DOCA_ERROR_IN_PROGRESS flush=DOCA_ERROR_CONNECTION_ABORTED "
	                "flush=DOCA_ERROR_CONNECTION_ABORTED idle stop=DOCA_SUCCESS");
	expect_messages(p, MSGS_BEFORE_STOP);
	report(p, 0, "OK");
}

/* Sends n messages once the server posted its receives, then waits for the
 * verdict and stops. */
static void send_messages(struct peer *p, int n)
{
	char *ready;

	client_prepare(p, 4096);
	peer_connect(p, 0);
	ready = wait_message(p, 0);
	EXPECT(strcmp(ready, "posted") == 0, "the server said %s", ready);
	free(ready);
	for (int i = 0; i < n; i++) {
		struct doca_buf *src;
		struct result r;

		pattern_fill(p->mem + (size_t)i * MSG_LEN, MSG_LEN, (uint32_t)i);
		src = local_buf(p, (size_t)i * MSG_LEN, MSG_LEN, MSG_LEN);
		do_send(p, src, false, 0, &r);
		expect_status(&r, DOCA_SUCCESS, "send");
		put(src);
	}
	expect_ok_from_peer(p, 0);
	peer_stop(p);
}

static void stop_in_callback_client(struct peer *p)
{
	send_messages(p, MSGS_IN_CALLBACK);
}

static void stopping_handler_client(struct peer *p)
{
	send_messages(p, MSGS_BEFORE_STOP);
}

const struct scenario stop_scenarios[] = {
	{ "stop_in_callback", stop_in_callback_server, stop_in_callback_client },
	{ "stopping_handler", stopping_handler_server, stopping_handler_client },
	{ NULL, NULL, NULL },
};
