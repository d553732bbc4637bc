/*
 * softdoca integration tests: scenarios where things go wrong. The target
 * must refuse every bad access without touching its memory, both contexts
 * must end in error (STOPPING, then IDLE), and a dead or hung peer must be
 * noticed in bounded time.
 */
#include <arpa/inet.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <softdoca.h>

#include "peer.h"

/* Target memory: the exported range is the first half; the second half is
 * a guard that a forged range reaches into. Both halves are checked. */
#define TARGET_LEN (64 * 1024)
#define EXPORTED_LEN (32 * 1024)
#define GUARD_SEED 90

enum bad_op { BAD_WRITE, BAD_READ, BAD_ATOMIC, BAD_SEND };

struct error_case {
	const char *name;
	enum bad_op op;
	uint32_t mmap_access;  /* target mmap permissions */
	uint32_t rdma_access;  /* target context permissions */
	bool forge_range;      /* the client claims a range twice as long */
	bool destroy_mmap;     /* the target destroys its mmap before the access */
	size_t offset;         /* where the client aims */
	doca_error_t expected; /* the client's task status */
	size_t len;            /* bytes written or read (0: 4096) */
	int reads_before;      /* good reads submitted just before the bad request */
};

/* Reads before a bad request: each reads the first READ_LEN bytes of the
 * exported range into the initiator's memory after TARGET_LEN. */
#define MAX_READS 16
#define READ_LEN (EXPORTED_LEN / 2)

static const struct error_case cases[] = {
	{ "err_write_range", BAD_WRITE, ALL_RDMA, ALL_RDMA, true, false, 36 * 1024,
	  DOCA_ERROR_NOT_PERMITTED, 0, 0 },
	/* a rendezvous payload (over shm and TCP), which the target drops */
	{ "err_write_range_large", BAD_WRITE, ALL_RDMA, ALL_RDMA, true, false, 36 * 1024,
	  DOCA_ERROR_NOT_PERMITTED, 28 * 1024, 0 },
	{ "err_read_range", BAD_READ, ALL_RDMA, ALL_RDMA, true, false, 36 * 1024,
	  DOCA_ERROR_NOT_PERMITTED, 0, 0 },
	{ "err_atomic_range", BAD_ATOMIC, ALL_RDMA, ALL_RDMA, true, false, 40 * 1024,
	  DOCA_ERROR_NOT_PERMITTED, 0, 0 },
	{ "err_write_perm", BAD_WRITE,
	  DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ, ALL_RDMA, false, false, 0,
	  DOCA_ERROR_NOT_PERMITTED, 0, 0 },
	{ "err_read_perm", BAD_READ,
	  DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE, ALL_RDMA, false, false,
	  0, DOCA_ERROR_NOT_PERMITTED, 0, 0 },
	{ "err_atomic_perm", BAD_ATOMIC,
	  DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ |
	          DOCA_ACCESS_FLAG_RDMA_WRITE,
	  ALL_RDMA, false, false, 0, DOCA_ERROR_NOT_PERMITTED, 0, 0 },
	{ "err_ctx_perm", BAD_WRITE, ALL_RDMA, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, false, false, 0,
	  DOCA_ERROR_NOT_PERMITTED, 0, 0 },
	{ "err_destroyed", BAD_WRITE, ALL_RDMA, ALL_RDMA, false, true, 0, DOCA_ERROR_NOT_PERMITTED,
	  0, 0 },
	{ "err_misaligned", BAD_ATOMIC, ALL_RDMA, ALL_RDMA, false, false, 4,
	  DOCA_ERROR_INVALID_VALUE, 0, 0 },
	{ "err_too_long", BAD_SEND, ALL_RDMA, ALL_RDMA, false, false, 0, DOCA_ERROR_INVALID_VALUE,
	  0, 0 },
	/* as on RC, the reads before the refused write still succeed, with their
	 * bytes, and complete first; the write is aimed past the bytes they read,
	 * so that nothing holds it back behind them at the target */
	{ "err_write_perm_after_reads", BAD_WRITE,
	  DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ, ALL_RDMA, false, false,
	  READ_LEN + 4096, DOCA_ERROR_NOT_PERMITTED, 0, MAX_READS },
};

/* A small TCP send buffer makes UCX queue the read responses, as load does,
 * so that they are still leaving when the write is refused. Read by UCX when
 * the transport starts (both peers). */
static void queue_read_responses(const struct error_case *c)
{
	if (c->reads_before > 0)
		setenv("UCX_TCP_SNDBUF", "64k", 1);
}

static const char *current_case;

static const struct error_case *find_case(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (strcmp(cases[i].name, current_case) == 0)
			return &cases[i];
	FAIL("no error case %s", current_case);
}

static uint32_t memory_crc(const uint8_t *mem)
{
	return (uint32_t)crc32(0, mem, TARGET_LEN);
}

/* The target's side: its context, one connection, its memory exported. */
static void target_connect(struct peer *p)
{
	peer_create_rdma(p);
	peer_start(p);
	oob_accept(p);
	peer_connect(p, 0);
	peer_exchange_mmap(p, 0);
}

static void error_server(struct peer *p)
{
	const struct error_case *c = find_case();
	struct doca_rdma_task_receive *recv = NULL;
	struct result rr;
	struct doca_buf *rbuf = NULL;
	uint32_t before;
	char *msg;
	size_t len;

	p->rdma_permissions = c->rdma_access;
	p->rnr_retry = 7;
	queue_read_responses(c);
	peer_alloc_memory(p, TARGET_LEN, ALL_RDMA);
	/* the exported mmap covers the first half only, with this case's rights */
	CHECK(doca_mmap_destroy(p->mmap));
	CHECK(doca_mmap_create(&p->mmap));
	CHECK(doca_mmap_set_memrange(p->mmap, p->mem, EXPORTED_LEN));
	CHECK(doca_mmap_set_permissions(p->mmap, c->mmap_access));
	CHECK(doca_mmap_add_dev(p->mmap, p->dev));
	CHECK(doca_mmap_start(p->mmap));
	pattern_fill(p->mem, TARGET_LEN, GUARD_SEED);
	before = memory_crc(p->mem);
	target_connect(p);
	if (c->destroy_mmap) {
		CHECK(doca_mmap_destroy(p->mmap)); /* revokes the key at once */
		p->mmap = NULL;
	}
	if (c->op == BAD_SEND) { /* a receive of 100 bytes for a 200-byte send */
		struct doca_mmap *m = p->mmap;

		CHECK(doca_buf_inventory_buf_get_by_addr(p->inv, m, p->mem + 1000, 100, &rbuf));
		CHECK(doca_rdma_task_receive_allocate_init(p->rdma, rbuf, result_data(&rr), &recv));
		CHECK(doca_task_submit(doca_rdma_task_receive_as_task(recv)));
	}
	oob_send_str(p->oob[0], "ready");
	if (recv) {
		peer_wait(p, &rr, WAIT_MS);
		EXPECT(rr.status == DOCA_ERROR_TOO_BIG, "receive status %s",
		       doca_error_get_name(rr.status));
		doca_task_free(doca_rdma_task_receive_as_task(recv));
		CHECK(doca_buf_dec_refcount(rbuf, NULL));
	}
	/* Both ends of an RC connection go to error: STOPPING, then IDLE. */
	peer_wait_state(p, DOCA_CTX_STATE_IDLE, 10000);
	msg = oob_recv(p->oob[0], &len, WAIT_MS);
	EXPECT(strcmp(msg, "done") == 0, "unexpected '%s'", msg);
	free(msg);
	EXPECT(memory_crc(p->mem) == before, "%s changed target memory", c->name);
	oob_send_str(p->oob[0], "OK");
}

/* Re-seals a forged mmap blob claiming a longer range (docs/wire.md). */
static void forge(uint8_t *blob, size_t len, uint64_t new_len)
{
	uint32_t crc;

	for (int i = 0; i < 8; i++)
		blob[16 + 40 + i] = (uint8_t)(new_len >> (8 * i));
	crc = (uint32_t)crc32(0, blob, 12);
	crc = (uint32_t)crc32(crc, blob + 16, (uInt)(len - 16));
	for (int i = 0; i < 4; i++)
		blob[12 + i] = (uint8_t)(crc >> (8 * i));
}

/* Reads in flight from the start of the peer's exported range. */
struct reads {
	int n;
	size_t len;
	uint8_t *dst; /* read k lands at dst + k * len */
	struct doca_task *tasks[MAX_READS];
	struct doca_buf *bufs[2 * MAX_READS];
	struct result r[MAX_READS];
};

static void submit_reads(struct peer *p, struct reads *rd, int n, size_t len, uint8_t *dst)
{
	*rd = (struct reads){ .n = n, .len = len, .dst = dst };
	for (int k = 0; k < n; k++) {
		struct doca_rdma_task_read *t;

		CHECK(doca_buf_inventory_buf_get_by_data(p->inv, p->remote[0], p->remote_addr[0],
		                                         len, &rd->bufs[2 * k]));
		CHECK(doca_buf_inventory_buf_get_by_addr(p->inv, p->mmap, dst + k * len, len,
		                                         &rd->bufs[2 * k + 1]));
		CHECK(doca_rdma_task_read_allocate_init(p->rdma, p->conn[0], rd->bufs[2 * k],
		                                        rd->bufs[2 * k + 1], result_data(&rd->r[k]),
		                                        &t));
		rd->tasks[k] = doca_rdma_task_read_as_task(t);
		CHECK(doca_task_submit(rd->tasks[k]));
	}
}

/* Waits for read k and frees it; true if it brought the target's bytes
 * (the target holds the pattern of GUARD_SEED), false if it failed. */
static bool finish_read(struct peer *p, struct reads *rd, int k)
{
	bool ok;

	peer_wait(p, &rd->r[k], WAIT_MS);
	ok = rd->r[k].status == DOCA_SUCCESS;
	EXPECT(!ok || pattern_check(rd->dst + k * rd->len, rd->len, GUARD_SEED) < 0,
	       "read %d succeeded with the wrong bytes", k);
	doca_task_free(rd->tasks[k]);
	CHECK(doca_buf_dec_refcount(rd->bufs[2 * k], NULL));
	CHECK(doca_buf_dec_refcount(rd->bufs[2 * k + 1], NULL));
	return ok;
}

/* The reads succeeded before the bad request completed, with the target's bytes. */
static void check_reads(struct peer *p, struct reads *rd, const struct result *bad)
{
	for (int k = 0; k < rd->n; k++) {
		EXPECT(finish_read(p, rd, k), "read %d before the refused request: %s", k,
		       doca_error_get_name(rd->r[k].status));
		EXPECT(rd->r[k].order < bad->order, "read %d completed after the refused request",
		       k);
	}
}

static void submit_bad(struct peer *p, const struct error_case *c, struct result *r)
{
	uint8_t *remote = (uint8_t *)p->remote_addr[0] + c->offset;
	size_t len = c->len ? c->len : 4096;
	struct doca_buf *local = NULL, *far = NULL;
	struct doca_task *task;
	struct reads rd;

	submit_reads(p, &rd, c->reads_before, READ_LEN, p->mem + TARGET_LEN);
	switch (c->op) {
	case BAD_WRITE: {
		struct doca_rdma_task_write *t;

		CHECK(doca_buf_inventory_buf_get_by_data(p->inv, p->mmap, p->mem, len, &local));
		CHECK(doca_buf_inventory_buf_get_by_addr(p->inv, p->remote[0], remote, len, &far));
		CHECK(doca_rdma_task_write_allocate_init(p->rdma, p->conn[0], local, far,
		                                         result_data(r), &t));
		task = doca_rdma_task_write_as_task(t);
		break;
	}
	case BAD_READ: {
		struct doca_rdma_task_read *t;

		CHECK(doca_buf_inventory_buf_get_by_addr(p->inv, p->mmap, p->mem, 4096, &local));
		CHECK(doca_buf_inventory_buf_get_by_data(p->inv, p->remote[0], remote, 4096, &far));
		CHECK(doca_rdma_task_read_allocate_init(p->rdma, p->conn[0], far, local,
		                                        result_data(r), &t));
		task = doca_rdma_task_read_as_task(t);
		break;
	}
	case BAD_ATOMIC: {
		struct doca_rdma_task_atomic_fetch_add *t;

		CHECK(doca_buf_inventory_buf_get_by_addr(p->inv, p->mmap, p->mem, 8, &local));
		CHECK(doca_buf_inventory_buf_get_by_data(p->inv, p->remote[0], remote, 8, &far));
		CHECK(doca_rdma_task_atomic_fetch_add_allocate_init(p->rdma, p->conn[0], far, local,
		                                                    1, result_data(r), &t));
		task = doca_rdma_task_atomic_fetch_add_as_task(t);
		break;
	}
	default: {
		struct doca_rdma_task_send *t;

		CHECK(doca_buf_inventory_buf_get_by_data(p->inv, p->mmap, p->mem, 200, &local));
		CHECK(doca_rdma_task_send_allocate_init(p->rdma, p->conn[0], local, result_data(r),
		                                        &t));
		task = doca_rdma_task_send_as_task(t);
		break;
	}
	}
	CHECK(doca_task_submit(task));
	peer_wait(p, r, WAIT_MS);
	check_reads(p, &rd, r);
	doca_task_free(task);
	if (local)
		CHECK(doca_buf_dec_refcount(local, NULL));
	if (far)
		CHECK(doca_buf_dec_refcount(far, NULL));
}

static void error_client(struct peer *p)
{
	const struct error_case *c = find_case();
	struct result r;
	size_t len;
	uint8_t *blob;

	p->rdma_permissions = ALL_RDMA;
	p->rnr_retry = 7;
	queue_read_responses(c);
	peer_alloc_memory(p, TARGET_LEN + (size_t)c->reads_before * READ_LEN, ALL_RDMA);
	peer_create_rdma(p);
	peer_start(p);
	peer_connect(p, 0);
	blob = oob_recv(p->oob[0], &len, WAIT_MS);
	if (c->forge_range)
		forge(blob, len, 2 * EXPORTED_LEN);
	CHECK(doca_mmap_create_from_export(NULL, blob, len, p->dev, &p->remote[0]));
	CHECK(doca_mmap_get_memrange(p->remote[0], &p->remote_addr[0], &p->remote_len[0]));
	free(blob);
	oob_expect(p->oob[0], "ready", WAIT_MS);
	submit_bad(p, c, &r);
	EXPECT(r.status == c->expected, "%s: status %s, expected %s", c->name,
	       doca_error_get_name(r.status), doca_error_get_name(c->expected));
	peer_wait_state(p, DOCA_CTX_STATE_IDLE, 10000);
	oob_send_str(p->oob[0], "done");
	oob_expect(p->oob[0], "OK", WAIT_MS);
}

/* ------------------------------------------------------------------ */
/* a peer that dies or hangs                                            */
/* ------------------------------------------------------------------ */

#define STREAM_WINDOW 8
#define DETECT_BOUND_MS 2000

/* Keeps STREAM_WINDOW 1 MiB writes (or sends) in flight; after warm_up
 * completions tells the peer "word" once. Returns when the context is IDLE
 * after a failure; fills the time from "word" to IDLE. */
static uint64_t stream_until_failure(struct peer *p, bool sends, int warm_up, const char *word,
                                     doca_error_t *first_error)
{
	struct doca_task *tasks[STREAM_WINDOW];
	struct doca_buf *src[STREAM_WINDOW], *dst[STREAM_WINDOW];
	struct result r[STREAM_WINDOW];
	uint64_t t0 = 0, deadline = now_ms() + WAIT_MS;
	int completed = 0, first_order = 0;
	enum doca_ctx_states state;
	bool failing = false;

	*first_error = DOCA_SUCCESS;
	for (int i = 0; i < STREAM_WINDOW; i++) {
		src[i] = peer_buf(p, p->mmap, p->mem + (size_t)i * MiB, MiB, MiB);
		dst[i] = sends ? NULL
		               : peer_buf(p, p->remote[0],
		                          (uint8_t *)p->remote_addr[0] + (size_t)i * MiB, MiB, 0);
		if (sends) {
			struct doca_rdma_task_send *t;

			CHECK(doca_rdma_task_send_allocate_init(p->rdma, p->conn[0], src[i],
			                                        result_data(&r[i]), &t));
			tasks[i] = doca_rdma_task_send_as_task(t);
		} else {
			struct doca_rdma_task_write *t;

			CHECK(doca_rdma_task_write_allocate_init(p->rdma, p->conn[0], src[i],
			                                         dst[i], result_data(&r[i]), &t));
			tasks[i] = doca_rdma_task_write_as_task(t);
		}
		CHECK(doca_task_submit(tasks[i]));
	}
	for (;;) {
		doca_pe_progress(p->pe);
		for (int i = 0; i < STREAM_WINDOW; i++) {
			if (!tasks[i] || !r[i].done)
				continue;
			if (r[i].status != DOCA_SUCCESS) {
				/* the first failure in completion order names the cause */
				if (first_order == 0 || r[i].order < first_order) {
					first_order = r[i].order;
					*first_error = r[i].status;
				}
				failing = true;
			}
			completed++;
			if (dst[i]) /* the remote buffer filled up: start it over */
				CHECK(doca_buf_reset_data_len(dst[i]));
			if (failing) {
				/* A stopping context waits until its tasks are freed. */
				doca_task_free(tasks[i]);
				tasks[i] = NULL;
			} else {
				(void)result_data(&r[i]);
				if (doca_task_submit(tasks[i]) != DOCA_SUCCESS) {
					/* The peer was lost between this task's success and
					 * now: the context is stopping and refuses new work. */
					CHECK(doca_ctx_get_state(doca_rdma_as_ctx(p->rdma),
					                         &state));
					EXPECT(state != DOCA_CTX_STATE_RUNNING,
					       "a submission was refused while RUNNING");
					failing = true;
					doca_task_free(tasks[i]);
					tasks[i] = NULL;
				}
			}
		}
		if (completed >= warm_up && t0 == 0) {
			oob_send_str(p->oob[0], word);
			t0 = now_ms();
		}
		CHECK(doca_ctx_get_state(doca_rdma_as_ctx(p->rdma), &state));
		if (state == DOCA_CTX_STATE_IDLE)
			break;
		EXPECT(now_ms() < deadline, "the failure was not noticed within %d ms", WAIT_MS);
	}
	for (int i = 0; i < STREAM_WINDOW; i++) {
		EXPECT(!tasks[i], "task %d never completed", i);
		CHECK(doca_buf_dec_refcount(src[i], NULL));
		if (dst[i])
			CHECK(doca_buf_dec_refcount(dst[i], NULL));
	}
	return now_ms() - t0;
}

/* The target waits for a word, then dies (SIGKILL) or hangs (SIGSTOP). It
 * does not progress: its service thread serves the client meanwhile. */
static void doomed_target(struct peer *p, int sig)
{
	size_t len;

	p->rdma_permissions = ALL_RDMA;
	p->rnr_retry = 7;
	peer_alloc_memory(p, STREAM_WINDOW * MiB, ALL_RDMA);
	target_connect(p);
	free(oob_recv(p->oob[0], &len, WAIT_MS));
	raise(sig);
	FAIL("still alive after signal %d", sig);
}

static void survivor_client(struct peer *p, const char *word, uint64_t bound_ms,
                            doca_error_t expected)
{
	doca_error_t first_error;
	uint64_t ms;

	p->rdma_permissions = ALL_RDMA;
	p->rnr_retry = 7;
	peer_alloc_memory(p, STREAM_WINDOW * MiB, ALL_RDMA);
	peer_create_rdma(p);
	peer_start(p);
	peer_connect(p, 0);
	peer_exchange_mmap(p, 0);
	ms = stream_until_failure(p, false, 3 * STREAM_WINDOW, word, &first_error);
	/* A target that served every write in flight before it died fails none
	 * of them: the loss then shows only as the stopping context refusing the
	 * next submission (stream_until_failure checked that). */
	EXPECT(first_error == expected || first_error == DOCA_SUCCESS,
	       "writes failed with %s, expected %s", doca_error_get_name(first_error),
	       doca_error_get_name(expected));
	if (first_error == DOCA_SUCCESS)
		printf("every write in flight had completed when the loss was noticed\n");
	printf("failure noticed, context IDLE %lu ms after the peer was told to %s\n",
	       (unsigned long)ms, word);
	EXPECT(ms < bound_ms, "took %lu ms, the bound is %lu ms", (unsigned long)ms,
	       (unsigned long)bound_ms);
}

static void kill_target_server(struct peer *p)
{
	doomed_target(p, SIGKILL);
}

static void kill_target_client(struct peer *p)
{
	survivor_client(p, "die", DETECT_BOUND_MS, DOCA_ERROR_CONNECTION_RESET);
}

static void stop_target_server(struct peer *p)
{
	doomed_target(p, SIGSTOP);
}

/* Nothing fails a stopped peer but the request timeout (1 s here). */
static void stop_target_client(struct peer *p)
{
	setenv("SOFTDOCA_TIMEOUT_MS", "1000", 1);
	survivor_client(p, "stop", 1000 + DETECT_BOUND_MS, DOCA_ERROR_TIME_OUT);
}

/* The initiator dies mid-transfer; the target's posted receives fail. */
static void kill_initiator_server(struct peer *p)
{
	static struct result r[64];
	struct doca_rdma_task_receive *tasks[64];
	struct doca_buf *buf;
	uint64_t t0, ms;
	size_t len;
	int failed = 0;

	p->rdma_permissions = ALL_RDMA;
	p->rnr_retry = 7;
	peer_alloc_memory(p, MiB, ALL_RDMA);
	target_connect(p);
	buf = peer_buf(p, p->mmap, p->mem, MiB, 0);
	for (int i = 0; i < 64; i++) {
		CHECK(doca_rdma_task_receive_allocate_init(p->rdma, NULL, result_data(&r[i]),
		                                           &tasks[i]));
		doca_rdma_task_receive_set_dst_buf(tasks[i], i == 0 ? buf : NULL);
		CHECK(doca_task_submit(doca_rdma_task_receive_as_task(tasks[i])));
	}
	free(oob_recv(p->oob[0], &len, WAIT_MS)); /* "die": the client kills itself now */
	t0 = now_ms();
	for (int left = 64; left > 0;) {
		EXPECT(now_ms() - t0 < WAIT_MS, "the receives never failed");
		doca_pe_progress(p->pe);
		for (int i = 0; i < 64; i++) {
			if (!tasks[i] || !r[i].done)
				continue;
			failed += r[i].status != DOCA_SUCCESS;
			doca_task_free(doca_rdma_task_receive_as_task(tasks[i]));
			tasks[i] = NULL;
			left--;
		}
	}
	peer_wait_state(p, DOCA_CTX_STATE_IDLE, WAIT_MS);
	ms = now_ms() - t0;
	CHECK(doca_buf_dec_refcount(buf, NULL));
	EXPECT(failed > 0, "no posted receive failed");
	printf("initiator death noticed, context IDLE %lu ms later\n", (unsigned long)ms);
	EXPECT(ms < DETECT_BOUND_MS, "took %lu ms", (unsigned long)ms);
}

static void kill_initiator_client(struct peer *p)
{
	struct doca_buf *src;
	struct result r;

	p->rdma_permissions = ALL_RDMA;
	p->rnr_retry = 7;
	peer_alloc_memory(p, MiB, ALL_RDMA);
	peer_create_rdma(p);
	peer_start(p);
	peer_connect(p, 0);
	peer_exchange_mmap(p, 0);
	src = peer_buf(p, p->mmap, p->mem, 64, 64);
	for (int i = 0; i < 4; i++) {
		struct doca_rdma_task_send *t;

		CHECK(doca_rdma_task_send_allocate_init(p->rdma, p->conn[0], i ? NULL : src,
		                                        result_data(&r), &t));
		CHECK(doca_task_submit(doca_rdma_task_send_as_task(t)));
		peer_wait(p, &r, WAIT_MS);
		EXPECT(r.status == DOCA_SUCCESS, "send %d: %s", i, doca_error_get_name(r.status));
		doca_task_free(doca_rdma_task_send_as_task(t));
	}
	oob_send_str(p->oob[0], "die");
	raise(SIGKILL);
}

/* ------------------------------------------------------------------ */
/* the target stops while its read responses still leave                */
/* ------------------------------------------------------------------ */

/* The initiator does not progress while the target answers its reads, and
 * a small TCP buffer holds the answers back: the target stops its context
 * with responses still leaving, and its connection is closed under them
 * (this freed the connection inside the close, then wrote to it). */
#define LEAVING_LEN (64 * 1024) /* MAX_READS of them */

static void stop_during_reads_server(struct peer *p)
{
	struct softdoca_rdma_counters c = { 0 };
	uint64_t deadline;
	uint32_t before;
	size_t len;

	setenv("UCX_TCP_SNDBUF", "64k", 1);
	p->rdma_permissions = ALL_RDMA;
	p->rnr_retry = 7;
	peer_alloc_memory(p, TARGET_LEN, ALL_RDMA);
	pattern_fill(p->mem, TARGET_LEN, GUARD_SEED);
	before = memory_crc(p->mem);
	target_connect(p);
	for (deadline = now_ms() + WAIT_MS; c.requests_served < MAX_READS;) {
		EXPECT(now_ms() < deadline, "%lu of %d reads served",
		       (unsigned long)c.requests_served, MAX_READS);
		doca_pe_progress(p->pe);
		CHECK(softdoca_rdma_connection_get_counters(p->conn[0], &c));
	}
	peer_stop(p); /* at once: the responses are still on their way */
	EXPECT(memory_crc(p->mem) == before, "the target's memory changed");
	oob_send_str(p->oob[0], "stopped");
	free(oob_recv(p->oob[0], &len, WAIT_MS));
}

/* Every read either succeeded with the target's bytes or failed, in
 * bounded time, and the context stops cleanly. */
static void stop_during_reads_client(struct peer *p)
{
	struct reads rd;
	int ok = 0;

	setenv("UCX_TCP_SNDBUF", "64k", 1);
	p->rdma_permissions = ALL_RDMA;
	p->rnr_retry = 7;
	peer_alloc_memory(p, MAX_READS * (size_t)LEAVING_LEN, ALL_RDMA);
	peer_create_rdma(p);
	peer_start(p);
	peer_connect(p, 0);
	peer_exchange_mmap(p, 0);
	submit_reads(p, &rd, MAX_READS, LEAVING_LEN, p->mem);
	oob_expect(p->oob[0], "stopped", WAIT_MS); /* no progress calls meanwhile */
	for (int k = 0; k < MAX_READS; k++)
		ok += finish_read(p, &rd, k);
	printf("%d of %d reads completed before the target stopped\n", ok, MAX_READS);
	/* A failed connection stopped the context; a peer that left with
	 * nothing in flight did not fail it (as on RC). Either way: IDLE. */
	peer_stop(p);
	oob_send_str(p->oob[0], "done");
}

const struct scenario failure_scenarios[] = {
	{ "err_write_range", error_server, error_client },
	{ "err_write_range_large", error_server, error_client },
	{ "err_read_range", error_server, error_client },
	{ "err_atomic_range", error_server, error_client },
	{ "err_write_perm", error_server, error_client },
	{ "err_read_perm", error_server, error_client },
	{ "err_atomic_perm", error_server, error_client },
	{ "err_ctx_perm", error_server, error_client },
	{ "err_destroyed", error_server, error_client },
	{ "err_misaligned", error_server, error_client },
	{ "err_too_long", error_server, error_client },
	{ "err_write_perm_after_reads", error_server, error_client },
	{ "kill_target", kill_target_server, kill_target_client },
	{ "stop_target", stop_target_server, stop_target_client },
	{ "kill_initiator", kill_initiator_server, kill_initiator_client },
	{ "stop_during_reads", stop_during_reads_server, stop_during_reads_client },
	{ NULL, NULL, NULL },
};

void failure_select(const char *name)
{
	current_case = name;
}
