/*
 * softdoca tests: two connected RDMA contexts over the fake transport, for
 * the tests of the soft NIC's parts (nic_harness.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_ctx.h>
#include <doca_mmap.h>

#include "core/mmap.h"
#include "rdma/rdma.h"
#include "unit/nic_harness.h"

struct nh nh;

static void side_start(struct nh_side *s, uint32_t access, uint32_t send_queue)
{
	assert_doca_ok(doca_pe_create(&s->pe));
	assert_doca_ok(doca_rdma_create(nh.dev, &s->rdma));
	assert_doca_ok(doca_rdma_set_permissions(s->rdma, access));
	if (send_queue)
		assert_doca_ok(doca_rdma_set_send_queue_size(s->rdma, send_queue));
	assert_doca_ok(doca_pe_connect_ctx(s->pe, doca_rdma_as_ctx(s->rdma)));
	assert_doca_ok(doca_ctx_start(doca_rdma_as_ctx(s->rdma)));
	assert_doca_ok(doca_rdma_export(s->rdma, &s->blob, &s->blob_len, &s->conn));
	assert_doca_ok(doca_mmap_create(&s->mmap));
	assert_doca_ok(doca_mmap_set_memrange(s->mmap, s->mem, NH_MEM));
	assert_doca_ok(doca_mmap_set_permissions(s->mmap, access));
	assert_doca_ok(doca_mmap_add_dev(s->mmap, nh.dev));
	assert_doca_ok(doca_mmap_start(s->mmap));
}

static bool peer_up(struct nh_side *s)
{
	struct nic_qp *qp = nh_qp(s);
	bool up;

	nic_lock(qp->worker);
	up = qp->peer.up && qp->state == NIC_QP_RTS;
	nic_unlock(qp->worker);
	return up;
}

static void progress_pes(void)
{
	for (int i = 0; i < 100; i++) {
		doca_pe_progress(nh.a.pe);
		doca_pe_progress(nh.b.pe);
	}
}

static bool running(struct nh_side *s)
{
	enum doca_ctx_states st;

	assert_doca_ok(doca_ctx_get_state(doca_rdma_as_ctx(s->rdma), &st));
	return st == DOCA_CTX_STATE_RUNNING;
}

void nh_setup(const struct nh_config *config)
{
	char timeout[16];

	memset(&nh, 0, sizeof(nh));
	setenv("SOFTDOCA_DEVICES", "lo", 1);
	if (config->timeout_ms) {
		snprintf(timeout, sizeof(timeout), "%u", config->timeout_ms);
		setenv("SOFTDOCA_TIMEOUT_MS", timeout, 1);
	}
	nh.dev = open_loopback_dev();
	nh.a.worker = fake_xport_workers_created();
	side_start(&nh.a, config->access_a, config->send_queue);
	nh.b.worker = fake_xport_workers_created();
	side_start(&nh.b, config->access_b, config->send_queue);
	assert_int_equal(nh.b.worker, nh.a.worker + 1);
	unsetenv("SOFTDOCA_TIMEOUT_MS");
	assert_doca_ok(doca_rdma_connect(nh.a.rdma, nh.b.blob, nh.b.blob_len, nh.a.conn));
	assert_doca_ok(doca_rdma_connect(nh.b.rdma, nh.a.blob, nh.a.blob_len, nh.b.conn));
	NH_UNTIL(peer_up(&nh.a) && peer_up(&nh.b));
	/* Running (a start completes at a PE's progress). */
	for (double end = nh_now_s() + 10; !(running(&nh.a) && running(&nh.b)) && nh_now_s() < end;)
		progress_pes();
	assert_true(running(&nh.a) && running(&nh.b));
}

void nh_teardown(void)
{
	struct nh_side *s[2] = { &nh.a, &nh.b };
	enum doca_ctx_states st[2];
	double end = nh_now_s() + 10;

	fake_xport_pause(nh.a.worker, false);
	fake_xport_pause(nh.b.worker, false);
	do {
		/* A context still running is stopped (one that failed stops itself). */
		for (int k = 0; k < 2; k++)
			if (running(s[k]))
				(void)doca_ctx_stop(doca_rdma_as_ctx(s[k]->rdma));
		progress_pes();
		for (int k = 0; k < 2; k++)
			assert_doca_ok(doca_ctx_get_state(doca_rdma_as_ctx(s[k]->rdma), &st[k]));
	} while ((st[0] != DOCA_CTX_STATE_IDLE || st[1] != DOCA_CTX_STATE_IDLE) &&
	         nh_now_s() < end);
	assert_int_equal(st[0], DOCA_CTX_STATE_IDLE);
	assert_int_equal(st[1], DOCA_CTX_STATE_IDLE);
	for (int k = 0; k < 2; k++) {
		assert_doca_ok(doca_rdma_destroy(s[k]->rdma));
		assert_doca_ok(doca_mmap_destroy(s[k]->mmap));
		assert_doca_ok(doca_pe_destroy(s[k]->pe));
	}
	assert_doca_ok(doca_dev_close(nh.dev));
}

/* The NIC workers, not the PEs: a context whose connection failed stops at
 * its PE's next progress, and takes its counters and worker with it; a test
 * looks at them first (the teardown progresses the PEs). */
void nh_progress(void)
{
	for (int i = 0; i < 100; i++) {
		nic_worker_progress(nh.a.rdma->worker);
		nic_worker_progress(nh.b.rdma->worker);
	}
}

void nh_inject(struct nh_side *to, struct nic_msg *m, const void *payload, size_t len)
{
	uint8_t hdr[NIC_WIRE_MAX_HDR];
	size_t hdr_len;

	m->qp = nh_qp(to)->wire_id;
	m->secret = nh_qp(to)->rx_secret;
	hdr_len = nic_wire_encode(m, hdr);
	assert_true(fake_xport_inject(to->worker, (int)nh_peer(to)->worker, hdr, hdr_len, payload,
	                              len));
}

void nh_sent(struct nh_side *s, unsigned int n, struct nic_msg *m, struct fake_sent *raw)
{
	struct fake_sent copy;

	if (!raw)
		raw = &copy;
	assert_true(fake_xport_sent(s->worker, n, raw));
	assert_doca_ok(nic_wire_decode(raw->hdr, raw->hdr_len, raw->len, m));
}

int nh_find_sent(struct nh_side *s, unsigned int n, uint8_t opcode)
{
	unsigned int count = nh_sent_count(s);
	struct nic_msg m;

	for (; n < count; n++) {
		nh_sent(s, n, &m, NULL);
		if (m.opcode == opcode)
			return (int)n;
	}
	return -1;
}

/* Called with the worker's lock held, from whichever thread completed it. */
static void wqe_done(struct nic_wqe *w, doca_error_t status)
{
	int i = atomic_load(&nh.done);

	assert_true(i < NH_MAX_DONE);
	nh.order[i] = w;
	nh.status[i] = status;
	atomic_store(&nh.done, i + 1); /* after the entry: the test reads it then */
}

void nh_wqe_init(struct nic_wqe *w, enum nic_wr_op op, void *buf, size_t len)
{
	memset(w, 0, sizeof(*w));
	w->op = op;
	w->sge[0].base = buf;
	w->sge[0].len = len;
	w->num_sge = buf ? 1 : 0;
	w->length = len;
	w->done = wqe_done;
}

struct sdoca_key nh_mmap_key(struct doca_mmap *mmap)
{
	return mmap->key;
}

void nh_wqe_remote(struct nic_wqe *w, struct nh_side *s, size_t at)
{
	w->rkey = nh_mmap_key(s->mmap);
	w->raddr = (uint64_t)(uintptr_t)(s->mem + at);
}

doca_error_t nh_post_recv(struct nh_side *s, struct nic_wqe *w)
{
	return nic_post_recv(&s->rdma->srq, w);
}

bool nh_completed(const struct nic_wqe *w)
{
	int n = atomic_load(&nh.done);

	for (int i = 0; i < n; i++)
		if (nh.order[i] == w)
			return true;
	return false;
}

void nh_expect_done(int n, struct nic_wqe *const *order, const doca_error_t *status)
{
	assert_int_equal(atomic_load(&nh.done), n);
	for (int i = 0; i < n; i++) {
		assert_ptr_equal(nh.order[i], order[i]);
		assert_int_equal(nh.status[i], status[i]);
	}
}

doca_error_t nh_status_of(const struct nic_wqe *w)
{
	int n = atomic_load(&nh.done);

	for (int i = 0; i < n; i++)
		if (nh.order[i] == w)
			return nh.status[i];
	fail_msg("work request %p has not completed", (const void *)w);
	return DOCA_ERROR_UNKNOWN;
}

struct nic_qp *nh_qp(struct nh_side *s)
{
	assert_non_null(s->conn->qp);
	return s->conn->qp;
}

static enum nic_qp_state qp_state(struct nh_side *s)
{
	struct nic_qp *qp = s->conn->qp;
	enum nic_qp_state st;

	if (!qp)
		return NIC_QP_ERROR;
	nic_lock(qp->worker);
	st = qp->state;
	nic_unlock(qp->worker);
	return st;
}

bool nh_rts(struct nh_side *s)
{
	return qp_state(s) == NIC_QP_RTS;
}

bool nh_failed(struct nh_side *s)
{
	return qp_state(s) == NIC_QP_ERROR;
}

uint32_t nh_expected_seq(struct nh_side *s)
{
	struct nic_qp *qp = nh_qp(s);
	uint32_t seq;

	nic_lock(qp->worker);
	seq = qp->resp.expected_seq;
	nic_unlock(qp->worker);
	return seq;
}

uint32_t nh_next_seq(struct nh_side *s)
{
	struct nic_qp *qp = nh_qp(s);
	uint32_t seq;

	nic_lock(qp->worker);
	seq = qp->req.next_seq;
	nic_unlock(qp->worker);
	return seq;
}

struct softdoca_rdma_counters nh_counters(struct nh_side *s)
{
	struct softdoca_rdma_counters c;

	assert_doca_ok(softdoca_rdma_connection_get_counters(s->conn, &c));
	return c;
}
