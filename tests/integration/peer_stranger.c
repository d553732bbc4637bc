/*
 * softdoca integration tests: a third process that learned a connection's
 * blobs attacks the connection while its two ends use it. With the target's
 * connection and mmap blobs it writes blindly into the target's memory with
 * the key (stranger_write); with the connection blob alone it sends
 * requests whose sequence numbers collide with the peer's (stranger_seq).
 * Nothing it sends may land or touch the connection: the legitimate client
 * keeps writing and reading back its bytes throughout, the target's other
 * memory stays as it was, and the target counts the stranger's messages.
 *
 *   run_pair.sh PEER stranger_write|stranger_seq shm|tcp --stranger
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <softdoca.h>

#include "peer.h"

#define TARGET_MEM (1024 * 1024)
#define CLIENT_PART (TARGET_MEM / 2) /* the client's; the rest is never written */
#define CHUNK 4096
#define STRANGER_OPS 16
#define MIN_CLIENT_OPS 400
#define GUARD_SEED 77
#define STRANGER_SEED 99

static bool with_mmap(const struct peer *p)
{
	return strcmp(p->scenario, "stranger_write") == 0;
}

static uint32_t guard_crc(const struct peer *p)
{
	return (uint32_t)crc32(0, p->mem + CLIENT_PART, TARGET_MEM - CLIENT_PART);
}

static void stranger_server(struct peer *p)
{
	int client = -1, stranger = -1;
	struct softdoca_rdma_counters c;
	enum doca_ctx_states state;
	const void *blob, *mblob;
	size_t len, blen, mlen;
	uint32_t before;
	char *msg;

	server_prepare(p, TARGET_MEM, ALL_RDMA);
	pattern_fill(p->mem, TARGET_MEM, GUARD_SEED);
	before = guard_crc(p);
	oob_accept(p);
	oob_accept(p);
	for (int i = 0; i < 2; i++) {
		msg = oob_recv(p->oob[i], &len, WAIT_MS);
		if (strcmp(msg, "client") == 0)
			client = i;
		else if (strcmp(msg, "stranger") == 0)
			stranger = i;
		free(msg);
	}
	EXPECT(client >= 0 && stranger >= 0, "expected a client and a stranger");
	CHECK(doca_rdma_export(p->rdma, &blob, &blen, &p->conn[0]));
	oob_send(p->oob[client], blob, blen);
	msg = oob_recv(p->oob[client], &len, WAIT_MS);
	CHECK(doca_rdma_connect(p->rdma, msg, len, p->conn[0]));
	free(msg);
	CHECK(doca_mmap_export_rdma(p->mmap, p->dev, &mblob, &mlen));
	oob_send(p->oob[client], mblob, mlen);
	/* The stranger learns what leaked: the connection blob, and the mmap's. */
	oob_send(p->oob[stranger], blob, blen);
	if (with_mmap(p))
		oob_send(p->oob[stranger], mblob, mlen);
	/* The client is at work; the stranger attacks meanwhile. */
	msg = wait_message(p, stranger);
	EXPECT(strcmp(msg, "refused") == 0, "the stranger reported: %s", msg);
	free(msg);
	oob_send_str(p->oob[client], "stop");
	expect_ok_from_peer(p, client);
	CHECK(doca_ctx_get_state(doca_rdma_as_ctx(p->rdma), &state));
	EXPECT(state == DOCA_CTX_STATE_RUNNING, "the connection failed (context state %d)", state);
	/* The stranger's timeouts say no answer came, not that this side has
	 * taken in (and dropped) every message: a loaded host may not have yet. */
	for (uint64_t deadline = now_ms() + WAIT_MS;;) {
		CHECK(softdoca_rdma_connection_get_counters(p->conn[0], &c));
		if (c.strangers_dropped >= STRANGER_OPS)
			break;
		EXPECT(now_ms() < deadline, "%lu strangers' messages counted in %d ms",
		       (unsigned long)c.strangers_dropped, WAIT_MS);
		doca_pe_progress(p->pe);
	}
	EXPECT(guard_crc(p) == before, "memory the client never wrote changed");
	printf("%s: %lu messages from the stranger dropped; %lu requests of the client's served\n",
	       p->scenario, (unsigned long)c.strangers_dropped, (unsigned long)c.requests_served);
	oob_send_str(p->oob[client], "bye");
	peer_stop(p);
}

/* Connects its own context to the target's leaked blob and fires requests:
 * none may be answered (they time out here), none may land there. */
static void stranger_attack(struct peer *p)
{
	struct doca_task *tasks[STRANGER_OPS];
	struct doca_buf *bufs[2 * STRANGER_OPS] = { 0 };
	struct result r[STRANGER_OPS];
	const void *own;
	size_t len, own_len;
	void *blob;

	/* No answer will come: the requests fail after the RNR retries (the
	 * target never seems to connect) and the timeout. */
	setenv("SOFTDOCA_TIMEOUT_MS", "300", 1);
	p->rnr_retry = 1;
	oob_send_str(p->oob[0], "stranger");
	client_prepare(p, CHUNK);
	pattern_fill(p->mem, CHUNK, STRANGER_SEED);
	CHECK(doca_rdma_export(p->rdma, &own, &own_len, &p->conn[0]));
	blob = oob_recv(p->oob[0], &len, WAIT_MS);
	CHECK(doca_rdma_connect(p->rdma, blob, len, p->conn[0]));
	free(blob);
	if (with_mmap(p)) {
		blob = oob_recv(p->oob[0], &len, WAIT_MS);
		CHECK(doca_mmap_create_from_export(NULL, blob, len, p->dev, &p->remote[0]));
		CHECK(doca_mmap_get_memrange(p->remote[0], &p->remote_addr[0], &p->remote_len[0]));
		free(blob);
	}
	for (int i = 0; i < STRANGER_OPS; i++) {
		bufs[2 * i] = local_buf(p, 0, CHUNK, CHUNK);
		if (with_mmap(p)) {
			/* Half into the client's bytes, half into the rest. */
			size_t off = (i % 2) ? CLIENT_PART + (size_t)i * CHUNK : (size_t)i * CHUNK;
			struct doca_rdma_task_write *t;

			bufs[2 * i + 1] = remote_buf(p, off, CHUNK, 0);
			CHECK(doca_rdma_task_write_allocate_init(p->rdma, p->conn[0], bufs[2 * i],
			                                         bufs[2 * i + 1],
			                                         result_data(&r[i]), &t));
			tasks[i] = doca_rdma_task_write_as_task(t);
		} else {
			struct doca_rdma_task_send *t;

			CHECK(doca_rdma_task_send_allocate_init(p->rdma, p->conn[0], bufs[2 * i],
			                                        result_data(&r[i]), &t));
			tasks[i] = doca_rdma_task_send_as_task(t);
		}
		CHECK(doca_task_submit(tasks[i]));
	}
	for (int i = 0; i < STRANGER_OPS; i++) {
		peer_wait(p, &r[i], WAIT_MS);
		EXPECT(r[i].status != DOCA_SUCCESS, "the stranger's request %d was answered", i);
		doca_task_free(tasks[i]);
		put(bufs[2 * i]);
		put(bufs[2 * i + 1]);
	}
	printf("stranger: %d requests, none answered (the first: %s)\n", STRANGER_OPS,
	       doca_error_get_name(r[0].status));
	peer_wait_state(p, DOCA_CTX_STATE_IDLE, WAIT_MS);
	oob_send_str(p->oob[0], "refused");
}

/* Writes a chunk and reads it back, again and again, until told to stop:
 * every byte must be the client's own. */
static void stranger_client(struct peer *p)
{
	uint64_t ops = 0;
	struct result r;
	uint32_t got;

	if (p->stranger) {
		stranger_attack(p);
		return;
	}
	oob_send_str(p->oob[0], "client");
	client_prepare(p, 2 * CHUNK);
	handshake(p, 0);
	/* At least MIN_CLIENT_OPS, and until the stranger is done. */
	for (uint32_t seq = 0; ops < MIN_CLIENT_OPS || !oob_ready(p->oob[0]); seq++) {
		size_t off = (seq * (size_t)CHUNK) % CLIENT_PART;
		struct doca_buf *src = local_buf(p, 0, CHUNK, CHUNK);
		struct doca_buf *dst = remote_buf(p, off, CHUNK, 0);
		struct doca_buf *back = local_buf(p, CHUNK, CHUNK, 0);
		struct doca_buf *from = remote_buf(p, off, CHUNK, CHUNK);

		pattern_fill(p->mem, CHUNK, seq);
		memset(p->mem + CHUNK, 0, CHUNK);
		do_write(p, src, dst, &r);
		expect_status(&r, DOCA_SUCCESS, "the client's write");
		do_read(p, from, back, &r, &got);
		expect_status(&r, DOCA_SUCCESS, "the client's read");
		expect_pattern(p->mem + CHUNK, CHUNK, seq, "the bytes read back");
		put(src);
		put(dst);
		put(back);
		put(from);
		ops += 2;
	}
	oob_expect(p->oob[0], "stop", WAIT_MS);
	printf("client: %lu operations, every byte its own\n", (unsigned long)ops);
	report(p, 0, "OK");
	oob_expect(p->oob[0], "bye", WAIT_MS);
	peer_stop(p);
}

const struct scenario stranger_scenarios[] = {
	{ "stranger_write", stranger_server, stranger_client },
	{ "stranger_seq", stranger_server, stranger_client },
	{ NULL, NULL, NULL },
};
