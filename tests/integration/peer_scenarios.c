/*
 * softdoca integration tests: the scenarios. The server is the target (it
 * exports memory and checks what lands in it); the client is the initiator.
 * Each scenario documents what both sides expect.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "peer.h"

/* ------------------------------------------------------------------ */
/* ops: every operation, sizes 0..64 MiB, lists, NULL buffers           */
/* ------------------------------------------------------------------ */

/* Server memory: W (write targets) at 0, R (read sources) at 67 MiB,
 * S (receive buffers) at 134 MiB, counters at 201 MiB, a read and a write
 * of the same bytes at 202 MiB. Each size k has its own offset in every
 * region. */
#define OPS_R (67 * MiB)
#define OPS_S (134 * MiB)
#define OPS_C (201 * MiB)
#define OPS_RW (202 * MiB)
#define OPS_MEM (204 * MiB)
#define OPS_LIST 8192                    /* list write / list receive */
#define OPS_SMALL_LIST 16384             /* a list write small enough to be inline */
#define OPS_IMM 20000                    /* write-imm target, send-imm receive */
#define OPS_TRUNC 30000                  /* truncated read source */
#define OPS_PIPE (66 * MiB)              /* 64 pipelined 4 KiB writes */
#define OPS_OVER (OPS_PIPE + 256 * 1024) /* 8 x 64 KiB, each written twice at once */
#define OVER_N 8
#define OVER_LEN (64 * 1024)
#define NUM_SIZES 6

static const size_t sizes[NUM_SIZES] = { 0, 1, 8, 4096, MiB, 64 * MiB };
static const size_t offsets[NUM_SIZES] = { 0, 0, 64, 4096, MiB, 2 * MiB };
static const size_t list_parts[3] = { 100, 5000, 1 };
static const size_t small_list_parts[3] = { 3, 1, 5 };
static const size_t recv_parts[3] = { 2000, 2000, 2000 };

static void ops_server(struct peer *p)
{
	struct posted_recv recv[NUM_SIZES + 4];
	struct doca_buf *parts[3];
	char *msg;
	int n = 0;

	server_prepare(p, OPS_MEM, ALL_RDMA);
	oob_accept(p);
	handshake(p, 0);
	for (int k = 0; k < NUM_SIZES; k++)
		pattern_fill(p->mem + OPS_R + offsets[k], sizes[k], 50 + k);
	pattern_fill(p->mem + OPS_R + OPS_LIST, 60, 60);
	pattern_fill(p->mem + OPS_R + OPS_TRUNC, 100, 61);
	memcpy(p->mem + OPS_C, &(uint64_t){ 1000 }, 8);
	memcpy(p->mem + OPS_C + 8, &(uint64_t){ 7 }, 8);
	pattern_fill(p->mem + OPS_RW, MiB, 90);

	/* Receives, in the order the client's sends come. A zero-length send and
	 * a write-with-immediate need no buffer. */
	for (int k = 0; k < NUM_SIZES; k++)
		post_recv(p, &recv[n++],
		          sizes[k] ? peer_buf(p, p->mmap, p->mem + OPS_S + offsets[k],
		                              k == 2 ? 64 : sizes[k], 0)
		                   : NULL);
	for (int i = 0; i < 3; i++)
		parts[i] = peer_buf(p, p->mmap, p->mem + OPS_S + OPS_LIST + i * 2000, recv_parts[i],
		                    0);
	CHECK(doca_buf_chain_list(parts[0], parts[1]));
	CHECK(doca_buf_chain_list(parts[0], parts[2]));
	post_recv(p, &recv[n++], parts[0]);
	post_recv(p, &recv[n++], peer_buf(p, p->mmap, p->mem + OPS_S + OPS_IMM, 32, 0));
	post_recv(p, &recv[n++], NULL);
	post_recv(p, &recv[n++], NULL);
	report(p, 0, "ready");

	msg = wait_message(p, 0);
	EXPECT(strcmp(msg, "verify") == 0, "unexpected '%s'", msg);
	free(msg);
	for (int i = 0; i < n; i++)
		peer_wait(p, &recv[i].r, WAIT_MS);

	/* writes */
	for (int k = 1; k < NUM_SIZES; k++)
		expect_pattern(p->mem + offsets[k], sizes[k], 10 + k, "write");
	expect_pattern(p->mem + OPS_LIST, 5101, 20, "list write");
	expect_pattern(p->mem + OPS_SMALL_LIST, 9, 23, "small list write");
	expect_pattern(p->mem + OPS_IMM, 64, 30, "write-imm data");
	for (int i = 0; i < 64; i++)
		expect_pattern(p->mem + OPS_PIPE + i * 4096, 4096, 40 + i, "pipelined write");
	for (int i = 0; i < OVER_N; i++) /* the later of two writes to the same bytes */
		expect_pattern(p->mem + OPS_OVER + i * OVER_LEN, OVER_LEN, 80 + i,
		               "overlapping write");
	/* receives */
	for (int k = 0; k < NUM_SIZES; k++) {
		check_recv(&recv[k], DOCA_RDMA_OPCODE_RECV_SEND, (uint32_t)sizes[k], false, 0,
		           "send");
		if (sizes[k]) {
			size_t dl;

			expect_pattern(p->mem + OPS_S + offsets[k], sizes[k], 100 + k, "send data");
			CHECK(doca_buf_get_data_len(recv[k].buf, &dl));
			EXPECT(dl == sizes[k], "receive data length %zu, expected %zu", dl,
			       sizes[k]);
		}
		EXPECT(doca_rdma_task_receive_get_result_rdma_connection(recv[k].task) ==
		               p->conn[0],
		       "receive names another connection");
	}
	check_recv(&recv[6], DOCA_RDMA_OPCODE_RECV_SEND, 5101, false, 0, "list send");
	expect_pattern(p->mem + OPS_S + OPS_LIST, 5101, 21, "list receive data");
	for (int i = 0; i < 3; i++) {
		size_t dl;

		CHECK(doca_buf_get_data_len(parts[i], &dl));
		EXPECT(dl == (i < 2 ? 2000u : 1101u), "list receive element %d holds %zu", i, dl);
	}
	check_recv(&recv[7], DOCA_RDMA_OPCODE_RECV_SEND_WITH_IMM, 16, true, 0xABCD, "send-imm");
	expect_pattern(p->mem + OPS_S + OPS_IMM, 16, 22, "send-imm data");
	check_recv(&recv[8], DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM, 0, true, 0x1234, "write-imm 0");
	check_recv(&recv[9], DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM, 64, true, 0x5678, "write-imm");
	expect_pattern(p->mem + OPS_RW, MiB, 91, "write behind a read of its bytes");
	expect_pattern(p->mem + OPS_RW + MiB, MiB, 92, "write ahead of a read of its bytes");
	/* atomics */
	EXPECT(mem_u64(p, OPS_C) == 1005, "fetch-add left %lu", (unsigned long)mem_u64(p, OPS_C));
	EXPECT(mem_u64(p, OPS_C + 8) == 9, "compare-swap left %lu",
	       (unsigned long)mem_u64(p, OPS_C + 8));
	for (int i = 0; i < n; i++)
		free_recv(&recv[i]);
	report(p, 0, "OK");
	oob_expect(p->oob[0], "bye", WAIT_MS);
	peer_stop(p);
}

/* Writes a three-element list of the given lengths (filled with pattern
 * seed) to the server's offset. */
static void list_write(struct peer *p, const size_t lens[3], size_t offset, int seed)
{
	struct doca_buf *parts[3], *dst;
	size_t at = 0;
	struct result r;

	pattern_fill(p->mem, lens[0] + lens[1] + lens[2], seed);
	for (int i = 0; i < 3; i++) {
		parts[i] = local_buf(p, at, lens[i], lens[i]);
		at += lens[i];
		if (i)
			CHECK(doca_buf_chain_list(parts[0], parts[i]));
	}
	dst = remote_buf(p, offset, at, 0);
	do_write(p, parts[0], dst, &r);
	expect_status(&r, DOCA_SUCCESS, "list write");
	put(parts[0]);
	put(dst);
}

static void client_writes(struct peer *p)
{
	struct result r;

	for (int k = 0; k < NUM_SIZES; k++) {
		struct doca_buf *src = NULL, *dst = NULL;

		if (sizes[k]) {
			pattern_fill(p->mem, sizes[k], 10 + k);
			src = local_buf(p, 0, sizes[k], sizes[k]);
			dst = remote_buf(p, offsets[k], sizes[k], 0);
		}
		do_write(p, src, dst, &r);
		expect_status(&r, DOCA_SUCCESS, "write");
		if (dst) {
			size_t dl;

			CHECK(doca_buf_get_data_len(dst, &dl));
			EXPECT(dl == sizes[k], "remote buffer data length %zu after write", dl);
		}
		put(src);
		put(dst);
	}
	/* from three-element lists: one large, one small enough to travel
	 * inside the message header */
	list_write(p, list_parts, OPS_LIST, 20);
	list_write(p, small_list_parts, OPS_SMALL_LIST, 23);
}

/* Submits n writes at once; they must succeed and complete in submission order. */
static void writes_in_order(struct peer *p, struct doca_rdma_task_write **tasks, struct result *r,
                            struct doca_buf **src, struct doca_buf **dst, int n, const char *what)
{
	for (int i = 0; i < n; i++)
		CHECK(doca_task_submit(doca_rdma_task_write_as_task(tasks[i])));
	for (int i = 0; i < n; i++) {
		peer_wait(p, &r[i], WAIT_MS);
		expect_status(&r[i], DOCA_SUCCESS, what);
		if (i)
			EXPECT(r[i].order == r[i - 1].order + 1, "%s %d completed out of order",
			       what, i);
		doca_task_free(doca_rdma_task_write_as_task(tasks[i]));
		put(src[i]);
		put(dst[i]);
	}
}

/* 64 writes in flight at once: they complete in submission order. */
static void client_pipelined_writes(struct peer *p)
{
	struct doca_rdma_task_write *tasks[64];
	struct doca_buf *src[64], *dst[64];
	struct result r[64];

	for (int i = 0; i < 64; i++) {
		pattern_fill(p->mem + i * 4096, 4096, 40 + i);
		src[i] = local_buf(p, i * 4096, 4096, 4096);
		dst[i] = remote_buf(p, OPS_PIPE + i * 4096, 4096, 0);
		CHECK(doca_rdma_task_write_allocate_init(p->rdma, p->conn[0], src[i], dst[i],
		                                         result_data(&r[i]), &tasks[i]));
	}
	writes_in_order(p, tasks, r, src, dst, 64, "pipelined write");
}

/* 64 KiB writes (rendezvous payloads): each range written twice with all of
 * them in flight; the later write must win (RC executes in order), and
 * completions come in submission order. */
static void client_overlapping_writes(struct peer *p)
{
	struct doca_rdma_task_write *tasks[2 * OVER_N];
	struct doca_buf *src[2 * OVER_N], *dst[2 * OVER_N];
	struct result r[2 * OVER_N];

	for (int i = 0; i < 2 * OVER_N; i++) {
		int range = i % OVER_N;

		pattern_fill(p->mem + i * OVER_LEN, OVER_LEN, (i < OVER_N ? 70 : 80) + range);
		src[i] = local_buf(p, i * OVER_LEN, OVER_LEN, OVER_LEN);
		dst[i] = remote_buf(p, OPS_OVER + range * OVER_LEN, OVER_LEN, 0);
		CHECK(doca_rdma_task_write_allocate_init(p->rdma, p->conn[0], src[i], dst[i],
		                                         result_data(&r[i]), &tasks[i]));
	}
	writes_in_order(p, tasks, r, src, dst, 2 * OVER_N, "overlapping write");
}

static void client_reads(struct peer *p)
{
	struct doca_buf *parts[3], *src, *dst;
	const size_t dst_off = 66 * MiB;
	struct result r;
	uint32_t len;

	for (int k = 0; k < NUM_SIZES; k++) {
		src = sizes[k] ? remote_buf(p, OPS_R + offsets[k], sizes[k], sizes[k]) : NULL;
		dst = sizes[k] ? local_buf(p, dst_off, sizes[k], 0) : NULL;
		do_read(p, src, dst, &r, &len);
		expect_status(&r, DOCA_SUCCESS, "read");
		EXPECT(len == sizes[k], "read returned %u bytes, expected %zu", len, sizes[k]);
		if (sizes[k]) {
			size_t dl;

			expect_pattern(p->mem + dst_off, sizes[k], 50 + k, "read data");
			CHECK(doca_buf_get_data_len(dst, &dl));
			EXPECT(dl == sizes[k], "read destination data length %zu", dl);
		}
		put(src);
		put(dst);
	}
	/* into a list of 10 + 20 + 30 bytes */
	for (int i = 0; i < 3; i++) {
		parts[i] = local_buf(p, dst_off + 100 * (size_t)i, 10 * ((size_t)i + 1), 0);
		if (i)
			CHECK(doca_buf_chain_list(parts[0], parts[i]));
	}
	src = remote_buf(p, OPS_R + OPS_LIST, 60, 60);
	do_read(p, src, parts[0], &r, &len);
	expect_status(&r, DOCA_SUCCESS, "list read");
	EXPECT(len == 60, "list read returned %u bytes", len);
	uint8_t joined[60];

	memcpy(joined, p->mem + dst_off, 10);
	memcpy(joined + 10, p->mem + dst_off + 100, 20);
	memcpy(joined + 30, p->mem + dst_off + 200, 30);
	expect_pattern(joined, 60, 60, "list read data");
	put(parts[0]);
	put(src);
	/* the destination has room for 50 of the 100 bytes: 50 are read */
	src = remote_buf(p, OPS_R + OPS_TRUNC, 100, 100);
	dst = local_buf(p, dst_off, 50, 0);
	do_read(p, src, dst, &r, &len);
	expect_status(&r, DOCA_SUCCESS, "short read");
	EXPECT(len == 50, "short read returned %u bytes", len);
	expect_pattern(p->mem + dst_off, 50, 61, "short read data");
	put(src);
	put(dst);
}

/* A 1 MiB read and a write of the same bytes in flight together, in both
 * orders: the read sees what it would if they had executed one at a time
 * (the older bytes before the write, the newer after it). */
static void client_read_write_order(struct peer *p)
{
	for (int write_first = 0; write_first < 2; write_first++) {
		size_t remote = OPS_RW + (size_t)write_first * MiB;
		size_t src_off = (size_t)write_first * 2 * MiB, dst_off = src_off + MiB;
		uint32_t seed = write_first ? 92 : 91;
		struct doca_buf *wsrc, *wdst, *rsrc, *rdst;
		struct doca_rdma_task_write *wr;
		struct doca_rdma_task_read *rd;
		struct result wres, rres;

		pattern_fill(p->mem + src_off, MiB, seed);
		wsrc = local_buf(p, src_off, MiB, MiB);
		wdst = remote_buf(p, remote, MiB, 0);
		rsrc = remote_buf(p, remote, MiB, MiB);
		rdst = local_buf(p, dst_off, MiB, 0);
		CHECK(doca_rdma_task_write_allocate_init(p->rdma, p->conn[0], wsrc, wdst,
		                                         result_data(&wres), &wr));
		CHECK(doca_rdma_task_read_allocate_init(p->rdma, p->conn[0], rsrc, rdst,
		                                        result_data(&rres), &rd));
		if (write_first)
			CHECK(doca_task_submit(doca_rdma_task_write_as_task(wr)));
		CHECK(doca_task_submit(doca_rdma_task_read_as_task(rd)));
		if (!write_first)
			CHECK(doca_task_submit(doca_rdma_task_write_as_task(wr)));
		peer_wait(p, &wres, WAIT_MS);
		peer_wait(p, &rres, WAIT_MS);
		expect_status(&wres, DOCA_SUCCESS, "write");
		expect_status(&rres, DOCA_SUCCESS, "read");
		expect_pattern(p->mem + dst_off, MiB, write_first ? 92 : 90,
		               write_first ? "read behind a write" : "read ahead of a write");
		doca_task_free(doca_rdma_task_write_as_task(wr));
		doca_task_free(doca_rdma_task_read_as_task(rd));
		put(wsrc);
		put(wdst);
		put(rsrc);
		put(rdst);
	}
}

static void client_sends(struct peer *p)
{
	struct doca_buf *parts[3], *src;
	struct result r;
	size_t at = 0;

	for (int k = 0; k < NUM_SIZES; k++) {
		src = NULL;
		if (sizes[k]) {
			pattern_fill(p->mem, sizes[k], 100 + k);
			src = local_buf(p, 0, sizes[k], sizes[k]);
		}
		do_send(p, src, false, 0, &r);
		expect_status(&r, DOCA_SUCCESS, "send");
		put(src);
	}
	pattern_fill(p->mem, 5101, 21);
	for (int i = 0; i < 3; i++) {
		parts[i] = local_buf(p, at, list_parts[i], list_parts[i]);
		at += list_parts[i];
		if (i)
			CHECK(doca_buf_chain_list(parts[0], parts[i]));
	}
	do_send(p, parts[0], false, 0, &r);
	expect_status(&r, DOCA_SUCCESS, "list send");
	put(parts[0]);
	pattern_fill(p->mem, 16, 22);
	src = local_buf(p, 0, 16, 16);
	do_send(p, src, true, 0xABCD, &r); /* passed through without byte swapping */
	expect_status(&r, DOCA_SUCCESS, "send-imm");
	put(src);
	do_write_imm(p, NULL, NULL, 0x1234, &r);
	expect_status(&r, DOCA_SUCCESS, "empty write-imm");
	pattern_fill(p->mem, 64, 30);
	src = local_buf(p, 0, 64, 64);
	struct doca_buf *dst = remote_buf(p, OPS_IMM, 64, 0);

	do_write_imm(p, src, dst, 0x5678, &r);
	expect_status(&r, DOCA_SUCCESS, "write-imm");
	put(src);
	put(dst);
}

static void client_atomics(struct peer *p)
{
	struct result r;

	EXPECT(do_fetch_add(p, OPS_C, 5, &r) == 1000, "fetch-add returned the wrong original");
	expect_status(&r, DOCA_SUCCESS, "fetch-add");
	EXPECT(do_cmp_swp(p, OPS_C + 8, 7, 9, &r) == 7, "compare-swap returned the wrong original");
	EXPECT(do_cmp_swp(p, OPS_C + 8, 7, 11, &r) == 9, "failed compare-swap returned %lu",
	       (unsigned long)*(uint64_t *)p->mem);
	expect_status(&r, DOCA_SUCCESS, "compare-swap");
}

static void ops_client(struct peer *p)
{
	client_prepare(p, 133 * MiB);
	handshake(p, 0);
	oob_expect(p->oob[0], "ready", WAIT_MS);
	client_writes(p);
	client_pipelined_writes(p);
	client_overlapping_writes(p);
	client_reads(p);
	client_read_write_order(p);
	client_sends(p);
	client_atomics(p);
	expect_clean_counters(p);
	report(p, 0, "verify");
	expect_ok_from_peer(p, 0);
	report(p, 0, "bye");
	peer_stop(p);
}

/* ------------------------------------------------------------------ */
/* blocked: the target sits in read() inside its RUNNING callback        */
/* ------------------------------------------------------------------ */

static void blocked_state_cb(const union doca_data user_data, struct doca_ctx *ctx,
                             enum doca_ctx_states prev, enum doca_ctx_states next)
{
	struct peer *p = user_data.ptr;
	size_t len;
	char *msg;

	(void)ctx;
	(void)prev;
	if (next != DOCA_CTX_STATE_RUNNING)
		return;
	/* As DOCA samples do: export, exchange, connect, then block. */
	handshake(p, 0);
	__atomic_store_n((uint64_t *)(void *)(p->mem + 4096), 0, __ATOMIC_RELEASE);
	pattern_fill(p->mem + 2 * MiB, MiB, 72);
	report(p, 0, "ready");
	msg = oob_recv(p->oob[0], &len, WAIT_MS); /* blocks: no progress calls at all */
	EXPECT(strcmp(msg, "done") == 0, "unexpected '%s'", msg);
	free(msg);
	expect_pattern(p->mem + 8192, 4096, 70, "blocked write 4K");
	expect_pattern(p->mem + MiB, MiB, 71, "blocked write 1M");
	EXPECT(mem_u64(p, 4096) == 10, "fetch-adds left %lu", (unsigned long)mem_u64(p, 4096));
	report(p, 0, "OK");
}

static void blocked_server(struct peer *p)
{
	union doca_data ud = { .ptr = p };

	p->rdma_permissions = ALL_RDMA;
	p->rnr_retry = 7;
	peer_alloc_memory(p, 4 * MiB, ALL_RDMA);
	peer_create_rdma(p);
	CHECK(doca_ctx_set_state_changed_cb(doca_rdma_as_ctx(p->rdma), blocked_state_cb));
	CHECK(doca_ctx_set_user_data(doca_rdma_as_ctx(p->rdma), ud));
	oob_accept(p);
	peer_start(p); /* the callback runs inside, and returns only when all is checked */
	oob_expect(p->oob[0], "bye", WAIT_MS);
	peer_stop(p);
}

static void blocked_client(struct peer *p)
{
	struct result r;
	struct doca_buf *src, *dst;
	uint32_t len;

	client_prepare(p, 4 * MiB);
	handshake(p, 0);
	oob_expect(p->oob[0], "ready", WAIT_MS);
	pattern_fill(p->mem, 4096, 70);
	src = local_buf(p, 0, 4096, 4096);
	dst = remote_buf(p, 8192, 4096, 0);
	do_write(p, src, dst, &r);
	expect_status(&r, DOCA_SUCCESS, "write to a blocked target");
	put(src);
	put(dst);
	pattern_fill(p->mem, MiB, 71);
	src = local_buf(p, 0, MiB, MiB);
	dst = remote_buf(p, MiB, MiB, 0);
	do_write(p, src, dst, &r);
	expect_status(&r, DOCA_SUCCESS, "1 MiB write to a blocked target");
	put(src);
	put(dst);
	src = remote_buf(p, 2 * MiB, MiB, MiB);
	dst = local_buf(p, 2 * MiB, MiB, 0);
	do_read(p, src, dst, &r, &len);
	expect_status(&r, DOCA_SUCCESS, "read from a blocked target");
	expect_pattern(p->mem + 2 * MiB, MiB, 72, "read from a blocked target");
	put(src);
	put(dst);
	for (uint64_t i = 0; i < 10; i++)
		EXPECT(do_fetch_add(p, 4096, 1, &r) == i, "fetch-add %lu on a blocked target",
		       (unsigned long)i);
	report(p, 0, "done");
	expect_ok_from_peer(p, 0);
	report(p, 0, "bye");
	peer_stop(p);
}

/* ------------------------------------------------------------------ */
/* poll_then_block: the target progresses until a write lands, then     */
/* stops progressing; the initiator's completion must not wait for it  */
/* (ACKs are deferred to the next progress: the service thread sends    */
/* them when that never comes)                                          */
/* ------------------------------------------------------------------ */

#define PTB_ROUNDS 40
#define PTB_BOUND_MS 500 /* promised: about 1 ms; margin for sanitizers and CI */

static void poll_then_block_server(struct peer *p)
{
	server_prepare(p, MiB, ALL_RDMA);
	oob_accept(p);
	handshake(p, 0);
	for (uint64_t i = 1; i <= PTB_ROUNDS; i++) {
		uint64_t deadline = now_ms() + WAIT_MS;

		report(p, 0, "go"); /* polling from here */
		while (mem_u64(p, 0) != i) {
			EXPECT(now_ms() < deadline, "round %lu: the write never landed",
			       (unsigned long)i);
			doca_pe_progress(p->pe);
		}
		expect_pattern(p->mem + 64, 4096, (int)i, "poll_then_block write");
		/* Blocks with no progress calls until the peer saw its completion. */
		oob_expect(p->oob[0], "next", WAIT_MS);
	}
	report(p, 0, "OK");
	oob_expect(p->oob[0], "bye", WAIT_MS);
	peer_stop(p);
}

static void poll_then_block_client(struct peer *p)
{
	uint64_t worst = 0;
	struct result r;

	client_prepare(p, MiB);
	handshake(p, 0);
	for (uint64_t i = 1; i <= PTB_ROUNDS; i++) {
		struct doca_buf *data = local_buf(p, 64, 4096, 4096), *flag = local_buf(p, 0, 8, 8);
		struct doca_buf *rdata = remote_buf(p, 64, 4096, 0),
		                *rflag = remote_buf(p, 0, 8, 0);
		uint64_t start;

		oob_expect(p->oob[0], "go", WAIT_MS);
		pattern_fill(p->mem + 64, 4096, (int)i);
		memcpy(p->mem, &i, sizeof(i));
		do_write(p, data, rdata, &r); /* the data first, then the flag, as RC orders */
		expect_status(&r, DOCA_SUCCESS, "poll_then_block data");
		start = now_ms();
		do_write(p, flag, rflag, &r);
		expect_status(&r, DOCA_SUCCESS, "poll_then_block flag");
		if (now_ms() - start > worst)
			worst = now_ms() - start;
		put(data);
		put(flag);
		put(rdata);
		put(rflag);
		report(p, 0, "next");
	}
	printf("poll_then_block: slowest completion %lu ms over %d rounds\n", (unsigned long)worst,
	       PTB_ROUNDS);
	EXPECT(worst < PTB_BOUND_MS, "a completion took %lu ms", (unsigned long)worst);
	expect_ok_from_peer(p, 0);
	report(p, 0, "bye");
	peer_stop(p);
}

/* ------------------------------------------------------------------ */
/* atomic_stress: two peers and two local threads on one counter        */
/* ------------------------------------------------------------------ */

#define STRESS_PER_ACTOR 50000
#define STRESS_WINDOW 32

struct local_adder {
	pthread_t thread;
	uint64_t *counter;
};

static void *local_adds(void *arg)
{
	struct local_adder *a = arg;

	for (int i = 0; i < STRESS_PER_ACTOR; i++)
		__atomic_fetch_add(a->counter, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void stress_server(struct peer *p)
{
	struct local_adder adders[2];
	uint64_t *counter;

	p->max_conns = 2;
	server_prepare(p, MiB, ALL_RDMA);
	counter = (uint64_t *)(p->mem + 4096);
	__atomic_store_n(counter, 0, __ATOMIC_SEQ_CST);
	for (int i = 0; i < 2; i++) {
		oob_accept(p);
		handshake(p, i);
	}
	for (int i = 0; i < 2; i++)
		report(p, i, "go");
	for (int i = 0; i < 2; i++) {
		adders[i].counter = counter;
		pthread_create(&adders[i].thread, NULL, local_adds, &adders[i]);
	}
	for (int i = 0; i < 2; i++) {
		char *msg = wait_message(p, i);

		EXPECT(strcmp(msg, "done") == 0, "client %d: %s", i, msg);
		free(msg);
	}
	for (int i = 0; i < 2; i++)
		pthread_join(adders[i].thread, NULL);
	/* Remote atomics are ordered before "done" only across processes, which
	 * ThreadSanitizer cannot see: read the counter as the atomic it is. */
	uint64_t total = __atomic_load_n(counter, __ATOMIC_SEQ_CST);

	EXPECT(total == 4u * STRESS_PER_ACTOR, "counter %lu, expected %u", (unsigned long)total,
	       4u * STRESS_PER_ACTOR);
	for (int i = 0; i < 2; i++)
		report(p, i, "OK");
	for (int i = 0; i < 2; i++)
		oob_expect(p->oob[i], "bye", WAIT_MS);
	peer_stop(p);
}

static void stress_client(struct peer *p)
{
	struct doca_rdma_task_atomic_fetch_add *tasks[STRESS_WINDOW];
	struct doca_buf *dst, *res[STRESS_WINDOW];
	struct result r[STRESS_WINDOW];
	int submitted = 0, completed = 0;

	client_prepare(p, MiB);
	handshake(p, 0);
	oob_expect(p->oob[0], "go", WAIT_MS);
	dst = remote_buf(p, 4096, 8, 8);
	for (int i = 0; i < STRESS_WINDOW; i++) {
		res[i] = local_buf(p, (size_t)i * 8, 8, 0);
		CHECK(doca_rdma_task_atomic_fetch_add_allocate_init(
		        p->rdma, p->conn[0], dst, res[i], 1, result_data(&r[i]), &tasks[i]));
		CHECK(doca_task_submit(doca_rdma_task_atomic_fetch_add_as_task(tasks[i])));
		submitted++;
	}
	/* Resubmit each task as it completes, until this actor did its share. */
	uint64_t deadline = now_ms() + 5 * WAIT_MS;

	while (completed < STRESS_PER_ACTOR) {
		for (int i = 0; i < STRESS_WINDOW; i++) {
			uint64_t original;

			if (!r[i].done)
				continue;
			expect_status(&r[i], DOCA_SUCCESS, "fetch-add");
			memcpy(&original, p->mem + (size_t)i * 8, 8);
			EXPECT(original < 4u * STRESS_PER_ACTOR, "fetch-add returned %lu",
			       (unsigned long)original);
			completed++;
			(void)result_data(&r[i]);
			if (submitted < STRESS_PER_ACTOR) {
				CHECK(doca_task_submit(
				        doca_rdma_task_atomic_fetch_add_as_task(tasks[i])));
				submitted++;
			}
		}
		EXPECT(now_ms() < deadline, "fetch-adds too slow: %d done", completed);
		doca_pe_progress(p->pe);
	}
	for (int i = 0; i < STRESS_WINDOW; i++) {
		doca_task_free(doca_rdma_task_atomic_fetch_add_as_task(tasks[i]));
		put(res[i]);
	}
	put(dst);
	report(p, 0, "done");
	expect_ok_from_peer(p, 0);
	report(p, 0, "bye");
	peer_stop(p);
}

const struct scenario scenarios[] = {
	{ "ops", ops_server, ops_client },
	{ "blocked", blocked_server, blocked_client },
	{ "poll_then_block", poll_then_block_server, poll_then_block_client },
	{ "atomic_stress", stress_server, stress_client },
	{ NULL, NULL, NULL },
};
