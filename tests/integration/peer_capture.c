/*
 * softdoca integration tests: one operation of each kind, then a refused
 * write, with SOFTDOCA_CAPTURE set on both peers (run_capture.sh). Each side
 * prints its QP numbers; check_capture.py then reads both captures with
 * tshark and compares what it decodes with what this scenario did.
 */
#include <endian.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <softdoca.h>

#include "peer.h"

#define MEM (64 * 1024)
#define OFF_WRITE 0
#define OFF_WRITE_IMM 4096
#define OFF_READ 8192
#define OFF_ATOMIC 16384
#define OFF_SEND 20480
#define OFF_SEND_IMM 24576
#define WRITE_LEN 200
#define WRITE_IMM_LEN 64
#define READ_LEN 300
#define SEND_LEN 64
#define REFUSED_LEN 100
#define IMM_WRITE 0x11223344u
#define IMM_SEND 0xcafef00du

/* Text, not a bit pattern: Wireshark tries heuristic dissectors (RPC over
 * RDMA, SMB Direct, ...) on payloads, and text is none of theirs. */
static void fill_text(uint8_t *buf, size_t len, char tag)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)("softdoca capture test, payload "[i % 31]);
	buf[0] = (uint8_t)tag;
}

/* As softdoca-info shows them: the process's counters channel, read here. */
static void print_qps(struct peer *p, const char *role)
{
	struct softdoca_process_counters *pc;

	(void)p;
	CHECK(softdoca_process_counters_get((uint32_t)getpid(), &pc));
	for (uint32_t i = 0; i < pc->num_connections; i++)
		if (pc->connections[i].peer_pid != 0)
			printf("capture %s pid %u qp %" PRIu32 " peer_qp %" PRIu32 "\n", role,
			       (unsigned)getpid(), pc->connections[i].qp_number,
			       pc->connections[i].peer_qp_number);
	fflush(stdout);
	softdoca_process_counters_destroy(pc);
}

static void capture_server(struct peer *p)
{
	struct posted_recv recv[3];
	char *msg;

	/* A connection exported and never connected takes QP number 2: the
	 * server's QP differs from the client's, so the check tells them apart. */
	server_prepare_spare(p, MEM, ALL_RDMA);
	oob_accept(p);
	handshake(p, 0);
	fill_text(p->mem + OFF_READ, READ_LEN, 'R');
	__atomic_store_n((uint64_t *)(void *)(p->mem + OFF_ATOMIC), 1000, __ATOMIC_RELEASE);
	/* in the order the client's requests consume them */
	post_recv(p, &recv[0], NULL); /* the write-with-immediate's */
	post_recv(p, &recv[1], peer_buf(p, p->mmap, p->mem + OFF_SEND, SEND_LEN, 0));
	post_recv(p, &recv[2], peer_buf(p, p->mmap, p->mem + OFF_SEND_IMM, SEND_LEN, 0));
	print_qps(p, "server");
	report(p, 0, "ready");

	msg = wait_message(p, 0);
	EXPECT(strcmp(msg, "verify") == 0, "unexpected '%s'", msg);
	free(msg);
	for (int i = 0; i < 3; i++)
		peer_wait(p, &recv[i].r, WAIT_MS);
	check_recv(&recv[0], DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM, WRITE_IMM_LEN, true,
	           htobe32(IMM_WRITE), "write-imm");
	check_recv(&recv[1], DOCA_RDMA_OPCODE_RECV_SEND, SEND_LEN, false, 0, "send");
	check_recv(&recv[2], DOCA_RDMA_OPCODE_RECV_SEND_WITH_IMM, SEND_LEN, true, htobe32(IMM_SEND),
	           "send-imm");
	EXPECT(p->mem[OFF_WRITE] == 'W' && p->mem[OFF_WRITE_IMM] == 'I' &&
	               p->mem[OFF_SEND] == 'S' && p->mem[OFF_SEND_IMM] == 'S',
	       "written or sent bytes differ");
	EXPECT(mem_u64(p, OFF_ATOMIC) == 7, "atomic value %" PRIu64, mem_u64(p, OFF_ATOMIC));
	for (int i = 0; i < 3; i++)
		free_recv(&recv[i]);
	/* Revoked: the next write is refused with a remote access NAK. */
	CHECK(doca_mmap_destroy(p->mmap));
	p->mmap = NULL;
	report(p, 0, "refuse");
	msg = wait_message(p, 0);
	EXPECT(strcmp(msg, "done") == 0, "unexpected '%s'", msg);
	free(msg);
	/* The refused connection failed; the spare one keeps the context up. */
	peer_stop(p);
	report(p, 0, "OK");
}

static void capture_client(struct peer *p)
{
	struct doca_buf *src, *dst;
	struct result r;
	uint32_t len;

	client_prepare(p, MEM);
	handshake(p, 0);
	print_qps(p, "client");
	oob_expect(p->oob[0], "ready", WAIT_MS);

	fill_text(p->mem + OFF_WRITE, WRITE_LEN, 'W');
	src = local_buf(p, OFF_WRITE, WRITE_LEN, WRITE_LEN);
	dst = remote_buf(p, OFF_WRITE, WRITE_LEN, 0);
	do_write(p, src, dst, &r);
	expect_status(&r, DOCA_SUCCESS, "write");
	put(src);
	put(dst);

	fill_text(p->mem + OFF_WRITE_IMM, WRITE_IMM_LEN, 'I');
	src = local_buf(p, OFF_WRITE_IMM, WRITE_IMM_LEN, WRITE_IMM_LEN);
	dst = remote_buf(p, OFF_WRITE_IMM, WRITE_IMM_LEN, 0);
	do_write_imm(p, src, dst, htobe32(IMM_WRITE), &r);
	expect_status(&r, DOCA_SUCCESS, "write-imm");
	put(src);
	put(dst);

	src = remote_buf(p, OFF_READ, READ_LEN, READ_LEN);
	dst = local_buf(p, OFF_READ, READ_LEN, 0);
	do_read(p, src, dst, &r, &len);
	expect_status(&r, DOCA_SUCCESS, "read");
	EXPECT(len == READ_LEN && p->mem[OFF_READ] == 'R', "read %u bytes", len);
	put(src);
	put(dst);

	fill_text(p->mem + OFF_SEND, SEND_LEN, 'S');
	src = local_buf(p, OFF_SEND, SEND_LEN, SEND_LEN);
	do_send(p, src, false, 0, &r);
	expect_status(&r, DOCA_SUCCESS, "send");
	do_send(p, src, true, htobe32(IMM_SEND), &r);
	expect_status(&r, DOCA_SUCCESS, "send-imm");
	put(src);

	EXPECT(do_fetch_add(p, OFF_ATOMIC, 5, &r) == 1000, "fetch-add's original value");
	expect_status(&r, DOCA_SUCCESS, "fetch-add");
	EXPECT(do_cmp_swp(p, OFF_ATOMIC, 1005, 7, &r) == 1005, "compare-swap's original value");
	expect_status(&r, DOCA_SUCCESS, "compare-swap");
	report(p, 0, "verify");

	oob_expect(p->oob[0], "refuse", WAIT_MS);
	src = local_buf(p, OFF_WRITE, REFUSED_LEN, REFUSED_LEN);
	dst = remote_buf(p, OFF_WRITE, REFUSED_LEN, 0);
	do_write(p, src, dst, &r);
	expect_status(&r, DOCA_ERROR_NOT_PERMITTED, "write to a revoked mmap");
	put(src);
	put(dst);
	peer_wait_state(p, DOCA_CTX_STATE_IDLE, 10000);
	report(p, 0, "done");
	oob_expect(p->oob[0], "OK", WAIT_MS);
}

const struct scenario capture_scenarios[] = {
	{ "capture", capture_server, capture_client },
	{ NULL, NULL, NULL },
};
