/*
 * softdoca tests: a connection reads only its peer's messages (binding.c).
 * Over the fake transport, messages are made by hand and handed to side B
 * as if sent by side A's worker (its peer) or by a worker B never connected
 * to (a stranger, who may know both blobs: the right secret). Only a message
 * with the connection's secret from the peer's worker lands; the others are
 * counted and change nothing - memory, sequence, state - and the peer's own
 * requests go on working. Before B connects, messages wait unread and only
 * the peer's run once B knows who the peer is.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_ctx.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>
#include <softdoca.h>

#include "core/mmap.h"
#include "nic/nic.h"
#include "rdma/rdma.h"
#include "unit/fake_transport.h"
#include "unit/testing.h"

#define MEM 4096
#define ACCESS (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE)
#define STRANGER (-1)

struct side {
	struct doca_pe *pe;
	struct doca_rdma *rdma;
	struct doca_rdma_connection *conn;
	const void *blob;
	size_t blob_len;
};

static struct {
	struct doca_dev *dev;
	struct side a, b;
	struct doca_mmap *mmap; /* B's memory */
	uint8_t mem[MEM];
	unsigned int worker_a, worker_b;
} t;

static void side_start(struct side *s)
{
	assert_doca_ok(doca_pe_create(&s->pe));
	assert_doca_ok(doca_rdma_create(t.dev, &s->rdma));
	assert_doca_ok(doca_rdma_set_permissions(s->rdma, ACCESS));
	assert_doca_ok(doca_pe_connect_ctx(s->pe, doca_rdma_as_ctx(s->rdma)));
	assert_doca_ok(doca_ctx_start(doca_rdma_as_ctx(s->rdma)));
	assert_doca_ok(doca_rdma_export(s->rdma, &s->blob, &s->blob_len, &s->conn));
}

static void progress(void)
{
	for (int i = 0; i < 100; i++) {
		doca_pe_progress(t.a.pe);
		doca_pe_progress(t.b.pe);
	}
}

/* Progresses both sides until cond holds (10 s at most): the service thread
 * may be the one that takes a message in, and a loaded host can keep it off
 * the CPU while it holds the worker, when progress() alone does nothing. */
#define PROGRESS_UNTIL(cond)                                  \
	do {                                                  \
		time_t progress_end_ = time(NULL) + 10;       \
		while (!(cond) && time(NULL) < progress_end_) \
			progress();                           \
		assert_true(cond);                            \
	} while (0)

static int setup(void **state)
{
	(void)state;
	memset(&t, 0, sizeof(t));
	t.dev = open_loopback_dev();
	t.worker_a = fake_xport_workers_created();
	t.worker_b = t.worker_a + 1;
	side_start(&t.a);
	side_start(&t.b);
	assert_doca_ok(doca_mmap_create(&t.mmap));
	assert_doca_ok(doca_mmap_set_memrange(t.mmap, t.mem, MEM));
	assert_doca_ok(doca_mmap_set_permissions(t.mmap, ACCESS));
	assert_doca_ok(doca_mmap_add_dev(t.mmap, t.dev));
	assert_doca_ok(doca_mmap_start(t.mmap));
	return 0;
}

static int teardown(void **state)
{
	struct side *s[2] = { &t.a, &t.b };

	(void)state;
	for (int k = 0; k < 2; k++) {
		enum doca_ctx_states st;

		/* A failed when B acknowledged the requests made here by hand. */
		assert_doca_ok(doca_ctx_get_state(doca_rdma_as_ctx(s[k]->rdma), &st));
		if (st != DOCA_CTX_STATE_IDLE)
			(void)doca_ctx_stop(doca_rdma_as_ctx(s[k]->rdma));
	}
	for (int i = 0; i < 100000; i++) {
		enum doca_ctx_states sa, sb;

		progress();
		assert_doca_ok(doca_ctx_get_state(doca_rdma_as_ctx(t.a.rdma), &sa));
		assert_doca_ok(doca_ctx_get_state(doca_rdma_as_ctx(t.b.rdma), &sb));
		if (sa == DOCA_CTX_STATE_IDLE && sb == DOCA_CTX_STATE_IDLE)
			break;
	}
	for (int k = 0; k < 2; k++) {
		assert_doca_ok(doca_rdma_destroy(s[k]->rdma));
		assert_doca_ok(doca_pe_destroy(s[k]->pe));
	}
	assert_doca_ok(doca_mmap_destroy(t.mmap));
	assert_doca_ok(doca_dev_close(t.dev));
	return 0;
}

static void connect_both(void)
{
	assert_doca_ok(doca_rdma_connect(t.a.rdma, t.b.blob, t.b.blob_len, t.a.conn));
	assert_doca_ok(doca_rdma_connect(t.b.rdma, t.a.blob, t.a.blob_len, t.b.conn));
	progress();
}

/* A write of 8 bytes of `byte` at offset `at` of B's memory, with request
 * sequence `seq` and `secret`, handed to B as if `from` sent it. */
static void inject_write(int from, uint64_t secret, uint32_t seq, size_t at, uint8_t byte)
{
	uint8_t hdr[NIC_WIRE_MAX_HDR], payload[8];
	struct nic_msg m = {
		.opcode = NIC_OP_WRITE,
		.qp = t.b.conn->qp->wire_id,
		.seq = seq,
		.len = sizeof(payload),
		.secret = secret,
		.key = t.mmap->key,
		.raddr = (uint64_t)(uintptr_t)(t.mem + at),
	};
	size_t len = nic_wire_encode(&m, hdr);

	memset(payload, byte, sizeof(payload));
	assert_true(fake_xport_inject(t.worker_b, from, hdr, len, payload, sizeof(payload)));
}

static uint64_t strangers(void)
{
	struct softdoca_rdma_counters c;

	assert_doca_ok(softdoca_rdma_connection_get_counters(t.b.conn, &c));
	return c.strangers_dropped;
}

static bool filled(size_t at, uint8_t byte)
{
	for (size_t i = 0; i < 8; i++)
		if (t.mem[at + i] != byte)
			return false;
	return true;
}

static void expect_running(struct side *s)
{
	enum doca_ctx_states state;

	assert_doca_ok(doca_ctx_get_state(doca_rdma_as_ctx(s->rdma), &state));
	assert_int_equal(state, DOCA_CTX_STATE_RUNNING);
}

/* The secret and the key, from a worker B never connected to: dropped. */
static void test_stranger_with_both_blobs(void **state)
{
	struct nic_qp *qp;

	(void)state;
	connect_both();
	qp = t.b.conn->qp;
	inject_write(STRANGER, qp->rx_secret, qp->resp.expected_seq, 0, 0x5a);
	PROGRESS_UNTIL(strangers() == 1);
	assert_false(filled(0, 0x5a));
	/* The peer's next request, with the sequence the stranger's named, lands. */
	inject_write((int)t.worker_a, qp->rx_secret, qp->resp.expected_seq, 8, 0x6b);
	PROGRESS_UNTIL(filled(8, 0x6b));
	expect_running(&t.b);
}

/* From the peer's worker but with what the blob alone tells (its token):
 * dropped, whatever the sequence, the connection untouched. */
static void test_blob_alone(void **state)
{
	struct nic_qp *qp;

	(void)state;
	connect_both();
	qp = t.b.conn->qp;
	inject_write((int)t.worker_a, qp->token, qp->resp.expected_seq, 0, 0x11);
	inject_write((int)t.worker_a, qp->token, qp->resp.expected_seq + 7, 0, 0x12);
	inject_write((int)t.worker_a, qp->token, qp->resp.expected_seq - 1, 0, 0x13);
	PROGRESS_UNTIL(strangers() == 3);
	assert_true(filled(0, 0));
	inject_write((int)t.worker_a, qp->rx_secret, qp->resp.expected_seq, 0, 0x14);
	PROGRESS_UNTIL(filled(0, 0x14));
	expect_running(&t.b);
}

/* Before B connects it cannot tell: both wait, then only the peer's runs. */
static void test_before_connect(void **state)
{
	struct nic_qp *qp = t.b.conn->qp;
	uint64_t secret;

	(void)state;
	/* A connects first; B has not, so it does not know A yet. */
	assert_doca_ok(doca_rdma_connect(t.a.rdma, t.b.blob, t.b.blob_len, t.a.conn));
	secret = t.a.conn->qp->tx_secret;
	inject_write(STRANGER, secret, 0, 0, 0x21);
	inject_write((int)t.worker_a, secret, 0, 8, 0x22);
	PROGRESS_UNTIL(qp->resp.num_unverified == 3); /* with A's HELLO */
	assert_true(filled(0, 0) && filled(8, 0));
	assert_doca_ok(doca_rdma_connect(t.b.rdma, t.a.blob, t.a.blob_len, t.b.conn));
	PROGRESS_UNTIL(filled(8, 0x22) && strangers() == 1);
	assert_true(filled(0, 0));
	expect_running(&t.b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_stranger_with_both_blobs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_blob_alone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_before_connect, setup, teardown),
	};

	setenv("SOFTDOCA_DEVICES", "lo", 1);
	xport_set_ops_for_tests(&fake_xport_ops);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
