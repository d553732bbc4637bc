/*
 * softdoca integration tests: helpers the scenarios share - preparing each
 * side, the handshake, buffers, one task at a time, receives, verdicts over
 * the out-of-band channel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <softdoca.h>

#include "peer.h"

void server_prepare(struct peer *p, size_t mem_len, uint32_t mmap_access)
{
	p->rdma_permissions = p->rdma_permissions ? p->rdma_permissions : ALL_RDMA;
	p->rnr_retry = 7;
	peer_alloc_memory(p, mem_len, mmap_access);
	peer_create_rdma(p);
	peer_start(p);
}

void server_prepare_spare(struct peer *p, size_t mem_len, uint32_t mmap_access)
{
	const void *blob;
	size_t len;

	p->max_conns = 2;
	server_prepare(p, mem_len, mmap_access);
	CHECK(doca_rdma_export(p->rdma, &blob, &len, &p->conn[1]));
}

void client_prepare(struct peer *p, size_t mem_len)
{
	p->rdma_permissions = ALL_RDMA;
	if (p->rnr_retry == 0)
		p->rnr_retry = 7;
	peer_alloc_memory(p, mem_len, ALL_RDMA);
	peer_create_rdma(p);
	peer_start(p);
}

/* Connection then mmap, in the order DOCA samples use. */
void handshake(struct peer *p, int i)
{
	peer_connect(p, i);
	peer_exchange_mmap(p, i);
}

/* The remote buffer at offset off of the server's exported range. */
struct doca_buf *remote_buf(struct peer *p, size_t off, size_t len, size_t data_len)
{
	return peer_buf(p, p->remote[0], (uint8_t *)p->remote_addr[0] + off, len, data_len);
}

struct doca_buf *local_buf(struct peer *p, size_t off, size_t len, size_t data_len)
{
	return peer_buf(p, p->mmap, p->mem + off, len, data_len);
}

void put(struct doca_buf *b)
{
	if (b)
		CHECK(doca_buf_dec_refcount(b, NULL));
}

void expect_status(struct result *r, doca_error_t want, const char *what)
{
	EXPECT(r->status == want, "%s: status %s, expected %s", what,
	       doca_error_get_name(r->status), doca_error_get_name(want));
}

/* Progresses until the peer sends the next message; returns it. */
char *wait_message(struct peer *p, int i)
{
	uint64_t deadline = now_ms() + WAIT_MS;
	size_t len;

	while (!oob_ready(p->oob[i])) {
		EXPECT(now_ms() < deadline, "peer silent for %d ms", WAIT_MS);
		doca_pe_progress(p->pe);
	}
	return oob_recv(p->oob[i], &len, WAIT_MS);
}

void report(struct peer *p, int i, const char *verdict)
{
	oob_send_str(p->oob[i], verdict);
}

void expect_ok_from_peer(struct peer *p, int i)
{
	char *verdict = wait_message(p, i);

	EXPECT(strcmp(verdict, "OK") == 0, "the peer reported: %s", verdict);
	free(verdict);
}

void do_write(struct peer *p, struct doca_buf *src, struct doca_buf *dst, struct result *r)
{
	struct doca_rdma_task_write *t;

	CHECK(doca_rdma_task_write_allocate_init(p->rdma, p->conn[0], src, dst, result_data(r),
	                                         &t));
	CHECK(doca_task_submit(doca_rdma_task_write_as_task(t)));
	peer_wait(p, r, WAIT_MS);
	doca_task_free(doca_rdma_task_write_as_task(t));
}

void do_read(struct peer *p, struct doca_buf *src, struct doca_buf *dst, struct result *r,
             uint32_t *len)
{
	struct doca_rdma_task_read *t;

	CHECK(doca_rdma_task_read_allocate_init(p->rdma, p->conn[0], src, dst, result_data(r), &t));
	CHECK(doca_task_submit(doca_rdma_task_read_as_task(t)));
	peer_wait(p, r, WAIT_MS);
	*len = doca_rdma_task_read_get_result_len(t);
	doca_task_free(doca_rdma_task_read_as_task(t));
}

void do_send(struct peer *p, struct doca_buf *src, bool imm, doca_be32_t value, struct result *r)
{
	if (imm) {
		struct doca_rdma_task_send_imm *t;

		CHECK(doca_rdma_task_send_imm_allocate_init(p->rdma, p->conn[0], src, value,
		                                            result_data(r), &t));
		CHECK(doca_task_submit(doca_rdma_task_send_imm_as_task(t)));
		peer_wait(p, r, WAIT_MS);
		doca_task_free(doca_rdma_task_send_imm_as_task(t));
	} else {
		struct doca_rdma_task_send *t;

		CHECK(doca_rdma_task_send_allocate_init(p->rdma, p->conn[0], src, result_data(r),
		                                        &t));
		CHECK(doca_task_submit(doca_rdma_task_send_as_task(t)));
		peer_wait(p, r, WAIT_MS);
		doca_task_free(doca_rdma_task_send_as_task(t));
	}
}

void do_write_imm(struct peer *p, struct doca_buf *src, struct doca_buf *dst, doca_be32_t value,
                  struct result *r)
{
	struct doca_rdma_task_write_imm *t;

	CHECK(doca_rdma_task_write_imm_allocate_init(p->rdma, p->conn[0], src, dst, value,
	                                             result_data(r), &t));
	CHECK(doca_task_submit(doca_rdma_task_write_imm_as_task(t)));
	peer_wait(p, r, WAIT_MS);
	doca_task_free(doca_rdma_task_write_imm_as_task(t));
}

uint64_t do_fetch_add(struct peer *p, size_t off, uint64_t add, struct result *r)
{
	struct doca_buf *dst = remote_buf(p, off, 8, 8), *res = local_buf(p, 0, 8, 0);
	struct doca_rdma_task_atomic_fetch_add *t;
	uint64_t value;

	CHECK(doca_rdma_task_atomic_fetch_add_allocate_init(p->rdma, p->conn[0], dst, res, add,
	                                                    result_data(r), &t));
	CHECK(doca_task_submit(doca_rdma_task_atomic_fetch_add_as_task(t)));
	peer_wait(p, r, WAIT_MS);
	doca_task_free(doca_rdma_task_atomic_fetch_add_as_task(t));
	memcpy(&value, p->mem, sizeof(value));
	put(dst);
	put(res);
	return value;
}

uint64_t do_cmp_swp(struct peer *p, size_t off, uint64_t cmp, uint64_t swap, struct result *r)
{
	struct doca_buf *dst = remote_buf(p, off, 8, 8), *res = local_buf(p, 0, 8, 0);
	struct doca_rdma_task_atomic_cmp_swp *t;
	uint64_t value;

	CHECK(doca_rdma_task_atomic_cmp_swp_allocate_init(p->rdma, p->conn[0], dst, res, cmp, swap,
	                                                  result_data(r), &t));
	CHECK(doca_task_submit(doca_rdma_task_atomic_cmp_swp_as_task(t)));
	peer_wait(p, r, WAIT_MS);
	doca_task_free(doca_rdma_task_atomic_cmp_swp_as_task(t));
	memcpy(&value, p->mem, sizeof(value));
	put(dst);
	put(res);
	return value;
}

void post_recv(struct peer *p, struct posted_recv *pr, struct doca_buf *buf)
{
	pr->buf = buf;
	CHECK(doca_rdma_task_receive_allocate_init(p->rdma, buf, result_data(&pr->r), &pr->task));
	CHECK(doca_task_submit(doca_rdma_task_receive_as_task(pr->task)));
}

void check_recv(struct posted_recv *pr, enum doca_rdma_opcode opcode, uint32_t len, bool imm,
                doca_be32_t value, const char *what)
{
	expect_status(&pr->r, DOCA_SUCCESS, what);
	EXPECT(doca_rdma_task_receive_get_result_opcode(pr->task) == opcode, "%s: opcode %d", what,
	       doca_rdma_task_receive_get_result_opcode(pr->task));
	EXPECT(doca_rdma_task_receive_get_result_len(pr->task) == len, "%s: length %u, expected %u",
	       what, doca_rdma_task_receive_get_result_len(pr->task), len);
	if (imm)
		EXPECT(doca_rdma_task_receive_get_result_immediate_data(pr->task) == value,
		       "%s: immediate 0x%x, expected 0x%x", what,
		       doca_rdma_task_receive_get_result_immediate_data(pr->task), value);
}

void free_recv(struct posted_recv *pr)
{
	doca_task_free(doca_rdma_task_receive_as_task(pr->task));
	put(pr->buf);
}

/* Target memory that a peer's atomics change is read with an atomic load,
 * as a program on real hardware would (volatile or atomic), never a plain read. */
uint64_t mem_u64(const struct peer *p, size_t off)
{
	return __atomic_load_n((uint64_t *)(void *)(p->mem + off), __ATOMIC_ACQUIRE);
}

void expect_pattern(const void *buf, size_t len, uint32_t seed, const char *what)
{
	long at = pattern_check(buf, len, seed);

	EXPECT(at < 0, "%s: byte %ld of %zu differs", what, at, len);
}

/* Every operation type of the seven was counted, with its bytes, on the
 * connection and on the device (no sync-event request: the ops scenario
 * makes none); nothing was refused or timed out. */
void expect_clean_counters(struct peer *p)
{
	struct softdoca_rdma_counters c, d;
	uint64_t posted = 0;

	CHECK(softdoca_rdma_connection_get_counters(p->conn[0], &c));
	CHECK(softdoca_dev_get_counters(p->dev, &d));
	for (int op = 0; op < SOFTDOCA_NUM_OP_TYPES; op++) {
		if (op > SOFTDOCA_OP_ATOMIC_CS) {
			EXPECT(c.posted[op] == 0, "%lu sync-event requests of type %d counted",
			       (unsigned long)c.posted[op], op);
			continue;
		}
		EXPECT(c.posted[op] > 0, "no request of type %d counted", op);
		EXPECT(op == SOFTDOCA_OP_SEND || op == SOFTDOCA_OP_SEND_IMM ||
		               op == SOFTDOCA_OP_WRITE_IMM || c.posted_bytes[op] > 0,
		       "no bytes of type %d counted", op);
		EXPECT(d.posted[op] >= c.posted[op], "the device counted fewer of type %d", op);
		posted += c.posted[op];
	}
	EXPECT(c.requests_posted == posted && c.requests_completed == posted,
	       "%lu posted, %lu completed, %lu by type", (unsigned long)c.requests_posted,
	       (unsigned long)c.requests_completed, (unsigned long)posted);
	EXPECT(c.posted_bytes[SOFTDOCA_OP_ATOMIC_FA] == 8 * c.posted[SOFTDOCA_OP_ATOMIC_FA],
	       "atomics count 8 bytes each");
	EXPECT(c.requests_failed == 0 && c.naks_received == 0 && c.timeouts == 0 &&
	               c.strangers_dropped == 0,
	       "failures counted on a connection where nothing failed");
}
