/*
 * softdoca integration tests: RDMA task batches (softdoca.h) between two
 * processes.
 *
 *   batch          the client writes 64 slots in one batch, reads them back
 *                  in another, sends 16 messages in a third (twice, the
 *                  batch kept and resubmitted); every byte, data length,
 *                  status and user data is checked on both sides.
 *   batch_refused  a read batch from memory the server exported for writes
 *                  only: the first read is refused (NOT_PERMITTED), the rest
 *                  flushed, the batch reaches its error callback once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <softdoca.h>

#include "peer.h"

#define SLOT 4096
#define SLOTS 64
#define SENDS 16
#define W_OFF 0                      /* the server's write region */
#define S_OFF (SLOTS * SLOT)         /* its receive region */
#define MEM (S_OFF + 2 * SENDS * 64) /* on both sides */

struct batch_result {
	int calls;
	doca_error_t batch_status;
	uint16_t tasks_num;
	uint64_t batch_data;
	bool ctx_data_ok, had_dst;
	uint64_t task_data[SLOTS];
	doca_error_t status[SLOTS];
};

static struct batch_result seen;

static void batch_cb(struct doca_task_batch *batch, uint16_t tasks_num, union doca_data ctx_data,
                     union doca_data batch_data, union doca_data *task_data, struct doca_buf **src,
                     struct doca_buf **dst, doca_error_t *status)
{
	struct peer *p = ctx_data.ptr;

	(void)src;
	seen.calls++;
	seen.batch_status = doca_task_batch_get_status(batch);
	seen.tasks_num = tasks_num;
	seen.batch_data = batch_data.u64;
	seen.ctx_data_ok =
	        p && p->rdma && doca_task_batch_get_ctx(batch) == doca_rdma_as_ctx(p->rdma);
	seen.had_dst = dst != NULL;
	for (uint16_t i = 0; i < tasks_num && i < SLOTS; i++) {
		seen.task_data[i] = task_data[i].u64;
		seen.status[i] = status[i];
	}
}

/* Progresses until the batch callback ran `calls` times in all. */
static void wait_calls(struct peer *p, int calls)
{
	uint64_t deadline = now_ms() + WAIT_MS;

	while (seen.calls < calls) {
		EXPECT(now_ms() < deadline, "batch callback %d did not come within %d ms", calls,
		       WAIT_MS);
		doca_pe_progress(p->pe);
	}
}

static void expect_all_ok(uint16_t n, uint64_t batch_data, const char *what)
{
	EXPECT(seen.batch_status == DOCA_SUCCESS, "%s: batch status %s", what,
	       doca_error_get_name(seen.batch_status));
	EXPECT(seen.tasks_num == n, "%s: %u tasks, expected %u", what, seen.tasks_num, n);
	EXPECT(seen.batch_data == batch_data, "%s: batch user data %lu", what,
	       (unsigned long)seen.batch_data);
	EXPECT(seen.ctx_data_ok, "%s: the batch's context or its user data is wrong", what);
	for (uint16_t i = 0; i < n; i++) {
		EXPECT(seen.status[i] == DOCA_SUCCESS, "%s: task %u: %s", what, i,
		       doca_error_get_name(seen.status[i]));
		EXPECT(seen.task_data[i] == 1000u + i, "%s: task %u user data %lu", what, i,
		       (unsigned long)seen.task_data[i]);
	}
}

/* The client's context, with batches of every operation (two of up to 64). */
static void batch_client_prepare(struct peer *p)
{
	p->rdma_permissions = ALL_RDMA;
	p->rnr_retry = 7;
	peer_alloc_memory(p, MEM, ALL_RDMA);
	peer_create_rdma(p);
	for (int op = 0; op < SOFTDOCA_RDMA_BATCH_OPS; op++)
		CHECK(softdoca_rdma_task_batch_set_conf(p->rdma, (enum softdoca_rdma_batch_op)op,
		                                        DOCA_TASK_BATCH_MAX_TASKS_NUMBER_64, 2,
		                                        batch_cb, batch_cb));
	peer_start(p);
	handshake(p, 0);
}

static struct doca_task_batch *allocate(struct peer *p, enum softdoca_rdma_batch_op op, uint16_t n,
                                        uint64_t batch_data, struct doca_buf ***src,
                                        struct doca_buf ***dst)
{
	struct doca_task_batch *batch;
	union doca_data *ud;

	CHECK(softdoca_rdma_task_batch_allocate(p->rdma, op, p->conn[0], n,
	                                        (union doca_data){ .u64 = batch_data }, src, dst,
	                                        &ud, &batch));
	for (uint16_t i = 0; i < n; i++)
		ud[i].u64 = 1000u + i;
	return batch;
}

static void batch_server(struct peer *p)
{
	struct posted_recv recv[2 * SENDS];
	char *msg;

	server_prepare(p, MEM, ALL_RDMA);
	oob_accept(p);
	handshake(p, 0);
	for (int i = 0; i < 2 * SENDS; i++)
		post_recv(p, &recv[i], local_buf(p, S_OFF + (size_t)i * 64, 64, 0));
	report(p, 0, "ready");
	msg = wait_message(p, 0);
	EXPECT(strcmp(msg, "verify") == 0, "unexpected '%s'", msg);
	free(msg);
	for (int i = 0; i < 2 * SENDS; i++)
		peer_wait(p, &recv[i].r, WAIT_MS);
	/* slot i holds i + 1 bytes of pattern 10 + i, then nothing */
	for (int i = 0; i < SLOTS; i++) {
		expect_pattern(p->mem + W_OFF + (size_t)i * SLOT, (size_t)i + 1, 10 + i,
		               "batch write");
		EXPECT(p->mem[W_OFF + (size_t)i * SLOT + i + 1] == 0,
		       "batch write %d went past its length", i);
	}
	/* the sends arrived in order, twice */
	for (int i = 0; i < 2 * SENDS; i++) {
		char want[64];

		snprintf(want, sizeof(want), "batch message %d", i % SENDS);
		check_recv(&recv[i], DOCA_RDMA_OPCODE_RECV_SEND, (uint32_t)strlen(want) + 1, false,
		           0, "batch send");
		EXPECT(strcmp((char *)p->mem + S_OFF + (size_t)i * 64, want) == 0,
		       "receive %d holds '%s', expected '%s'", i,
		       (char *)p->mem + S_OFF + (size_t)i * 64, want);
		free_recv(&recv[i]);
	}
	report(p, 0, "OK");
	oob_expect(p->oob[0], "bye", WAIT_MS);
	peer_stop(p);
}

static void client_write_batch(struct peer *p)
{
	struct doca_buf **src, **dst, *sb[SLOTS], *db[SLOTS];
	struct doca_task_batch *batch;

	batch = allocate(p, SOFTDOCA_RDMA_BATCH_WRITE, SLOTS, 71, &src, &dst);
	for (int i = 0; i < SLOTS; i++) {
		pattern_fill(p->mem + (size_t)i * SLOT, (size_t)i + 1, 10 + i);
		src[i] = sb[i] = local_buf(p, (size_t)i * SLOT, SLOT, (size_t)i + 1);
		dst[i] = db[i] = remote_buf(p, W_OFF + (size_t)i * SLOT, SLOT, 0);
	}
	CHECK(doca_task_batch_submit(batch));
	wait_calls(p, 1);
	expect_all_ok(SLOTS, 71, "write batch");
	EXPECT(seen.had_dst, "write batch: no destination array in the callback");
	for (int i = 0; i < SLOTS; i++) {
		size_t len;

		CHECK(doca_buf_get_data_len(db[i], &len));
		EXPECT(len == (size_t)i + 1, "write %d: remote buffer data length %zu", i, len);
		put(sb[i]);
		put(db[i]);
	}
	doca_task_batch_free(batch);
}

static void client_read_batch(struct peer *p)
{
	struct doca_buf **src, **dst, *sb[SLOTS], *db[SLOTS];
	struct doca_task_batch *batch;

	memset(p->mem, 0, SLOTS * SLOT);
	batch = allocate(p, SOFTDOCA_RDMA_BATCH_READ, SLOTS, 72, &src, &dst);
	for (int i = 0; i < SLOTS; i++) {
		src[i] = sb[i] = remote_buf(p, W_OFF + (size_t)i * SLOT, SLOT, (size_t)i + 1);
		dst[i] = db[i] = local_buf(p, (size_t)i * SLOT, SLOT, 0);
	}
	CHECK(doca_task_batch_try_submit(batch));
	wait_calls(p, 2);
	expect_all_ok(SLOTS, 72, "read batch");
	for (int i = 0; i < SLOTS; i++) {
		size_t len;

		CHECK(doca_buf_get_data_len(db[i], &len));
		EXPECT(len == (size_t)i + 1, "read %d: data length %zu", i, len);
		expect_pattern(p->mem + (size_t)i * SLOT, (size_t)i + 1, 10 + i, "batch read");
		put(sb[i]);
		put(db[i]);
	}
	doca_task_batch_free(batch);
}

static void client_send_batch(struct peer *p)
{
	struct doca_buf **src, *sb[SENDS];
	struct doca_task_batch *batch;

	batch = allocate(p, SOFTDOCA_RDMA_BATCH_SEND, SENDS, 73, &src, NULL);
	for (int i = 0; i < SENDS; i++) {
		char *at = (char *)p->mem + S_OFF + (size_t)i * 64;

		snprintf(at, 64, "batch message %d", i);
		src[i] = sb[i] = local_buf(p, S_OFF + (size_t)i * 64, 64, strlen(at) + 1);
	}
	CHECK(doca_task_batch_submit(batch));
	wait_calls(p, 3);
	expect_all_ok(SENDS, 73, "send batch");
	EXPECT(!seen.had_dst, "send batch: a destination array in the callback");
	/* the same batch again */
	CHECK(doca_task_batch_submit(batch));
	wait_calls(p, 4);
	expect_all_ok(SENDS, 73, "send batch, again");
	doca_task_batch_free(batch);
	for (int i = 0; i < SENDS; i++)
		put(sb[i]);
}

static void batch_client(struct peer *p)
{
	batch_client_prepare(p);
	oob_expect(p->oob[0], "ready", WAIT_MS);
	client_write_batch(p);
	client_read_batch(p);
	client_send_batch(p);
	report(p, 0, "verify");
	expect_ok_from_peer(p, 0);
	report(p, 0, "bye");
	peer_stop(p);
}

/* The server's memory allows writes only. */
static void refused_server(struct peer *p)
{
	char *msg;

	server_prepare(p, MEM, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE);
	oob_accept(p);
	handshake(p, 0);
	report(p, 0, "ready");
	msg = wait_message(p, 0); /* progressing: the refusal fails this end too */
	EXPECT(strcmp(msg, "bye") == 0, "unexpected '%s'", msg);
	free(msg);
	peer_stop(p);
}

static void refused_client(struct peer *p)
{
	struct doca_buf **src, **dst, *sb[4], *db[4];
	struct doca_task_batch *batch;

	batch_client_prepare(p);
	oob_expect(p->oob[0], "ready", WAIT_MS);
	batch = allocate(p, SOFTDOCA_RDMA_BATCH_READ, 4, 74, &src, &dst);
	for (int i = 0; i < 4; i++) {
		src[i] = sb[i] = remote_buf(p, (size_t)i * SLOT, SLOT, 8);
		dst[i] = db[i] = local_buf(p, (size_t)i * SLOT, SLOT, 0);
	}
	CHECK(doca_task_batch_submit(batch));
	wait_calls(p, 1);
	EXPECT(seen.batch_status == DOCA_ERROR_NOT_PERMITTED, "batch status %s",
	       doca_error_get_name(seen.batch_status));
	EXPECT(seen.tasks_num == 4, "%u tasks", seen.tasks_num);
	EXPECT(seen.status[0] == DOCA_ERROR_NOT_PERMITTED, "read 0: %s",
	       doca_error_get_name(seen.status[0]));
	for (int i = 1; i < 4; i++)
		EXPECT(seen.status[i] != DOCA_SUCCESS, "read %d after the refused one succeeded",
		       i);
	for (int i = 0; i < 4; i++) {
		size_t len;

		CHECK(doca_buf_get_data_len(db[i], &len));
		EXPECT(len == 0, "a failed read placed %zu bytes", len);
		put(sb[i]);
		put(db[i]);
	}
	EXPECT(seen.calls == 1, "the batch completed %d times", seen.calls);
	doca_task_batch_free(batch);
	report(p, 0, "bye");
	peer_stop(p);
}

const struct scenario batch_scenarios[] = {
	{ "batch", batch_server, batch_client },
	{ "batch_refused", refused_server, refused_client },
	{ NULL, NULL, NULL },
};
