/*
 * The responder's transfers still landing or leaving.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The responder's transfers: payloads still landing (rendezvous writes and
 * sends) and read responses still leaving, and a refusal that waits for
 * them.
 *
 * Requests execute in sequence: one whose payload is still landing holds
 * back the ones behind it that touch the same bytes or need it over (as
 * does a read while enough read responses are still leaving). The
 * exception: a few rendezvous writes land side by side when their bytes
 * meet no transfer still in flight; they are acknowledged in sequence all
 * the same. A request refused while earlier payloads still land or earlier
 * read responses still leave is NAKed only once they are over (a NAK
 * acknowledges every request before it, and a connection in error may be
 * torn down at once, dropping what its transport still sends).
 */
#include <stdlib.h>
#include <string.h>

#include "core/sdk_log.h"
#include "nic/capture_hook.h"
#include "nic/dma.h"
#include "nic/resp.h"

/* Read responses leaving at once per connection: up to MIN_READS_LEAVING of
 * any size, more only within MAX_READ_BYTES_LEAVING; later reads wait. UCX's
 * TCP rendezvous slows down with many transfers at once, and a few at a
 * time overlap one response's handshake with another's data
 * (bench/RESULTS.md, "Reads in flight"). */
#define MIN_READS_LEAVING 4
#define MAX_READ_BYTES_LEAVING (256u * 1024)
/* Rendezvous writes landing at once per connection: more than one overlaps
 * their rendezvous round trips (bench/RESULTS.md, "Writes landing"). */
#define MAX_PLACING 4

/* A transfer starts: it refers to the QP until it is over. */
static void track(struct nic_qp *qp, struct nic_landing *l)
{
	LIST_INSERT_HEAD(&qp->resp.moving, l, moving);
	nic_qp_get(qp);
}

void nic_landing_landed(struct nic_qp *qp, const struct nic_msg *m,
                        const struct sdoca_key *held_key, struct nic_wqe *recv, doca_error_t status)
{
	nic_assert_locked(qp->worker);
	if (held_key)
		sdoca_keys_release(held_key);
	if (status == DOCA_SUCCESS && qp->state == NIC_QP_RTS) {
		nic_ack_defer(qp, m->seq);
		/* As on RC, where the NIC acknowledges before the completion is
		 * polled: the ACK of what a receive consumed is on its way before
		 * the application can see the receive (it may stop and exit in
		 * its callback). A write's ACK may wait for a request to ride on. */
		if (recv)
			nic_ack_flush(qp);
	}
	if (recv)
		nic_resp_finish_recv(qp, recv, m,
		                     status == DOCA_SUCCESS ? DOCA_SUCCESS : DOCA_ERROR_IO_FAILED);
	if (status != DOCA_SUCCESS)
		nic_qp_fail(qp, DOCA_ERROR_CONNECTION_RESET, true, "a payload did not arrive");
}

/* A landing's payload is in place (or failed): over, and freed. */
static void land(struct nic_landing *l, doca_error_t status)
{
	nic_landing_landed(l->qp, &l->m, l->key_held ? &l->key : NULL, l->recv, status);
	free(l);
}

/* A payload landed. It is over - key released, receive completed, ACK
 * deferred - once every payload before it is over too (RC acknowledges in
 * sequence): a write that landed early waits for the slower ones before it. */
static void landing_done(void *arg, doca_error_t status)
{
	struct nic_landing *l = arg;
	struct nic_qp *qp = l->qp;
	struct nic_resp *resp = &qp->resp;
	uint32_t over = 0;

	l->op = NULL;
	l->landed = true;
	l->status = status;
	while ((l = STAILQ_FIRST(&resp->landing)) && l->landed) {
		STAILQ_REMOVE_HEAD(&resp->landing, queued);
		resp->placing--;
		LIST_REMOVE(l, moving);
		land(l, l->status); /* a failure abandons the landings left */
		over++;
	}
	nic_resp_refusal_due(qp);
	nic_resp_drain(qp);
	while (over-- > 0)
		nic_qp_put(qp); /* the last may free the QP */
}

struct nic_landing *nic_landing_new(struct nic_qp *qp, const struct nic_msg *m, bool key_held,
                                    struct nic_wqe *recv)
{
	struct nic_landing *l = malloc(sizeof(*l));

	if (!l)
		return NULL;
	l->qp = qp;
	l->op = NULL;
	l->sending = false;
	l->landed = false;
	l->status = DOCA_SUCCESS;
	l->iovcnt = 0;
	l->key = m->key;
	l->key_held = key_held;
	l->recv = recv;
	l->m = *m;
	return l;
}

enum resp_result nic_landing_receive(struct nic_landing *l, struct xport_rx *rx)
{
	struct nic_qp *qp = l->qp;
	doca_error_t status;

	nic_dma_begin();
	status =
	        xport_rx_receive(qp->worker->xport, rx, l->iov, l->iovcnt, landing_done, l, &l->op);
	nic_dma_end();
	if (status == DOCA_ERROR_IN_PROGRESS || qp->resp.placing > 0) {
		/* Still landing, or landed at once behind others still landing. */
		l->landed = status != DOCA_ERROR_IN_PROGRESS;
		l->status = l->landed ? status : DOCA_SUCCESS;
		STAILQ_INSERT_TAIL(&qp->resp.landing, l, queued);
		qp->resp.placing++;
		track(qp, l);
		return RESP_PLACING;
	}
	land(l, status);
	return RESP_DONE;
}

static void read_sent(void *arg, doca_error_t status)
{
	struct nic_landing *l = arg;
	struct nic_qp *qp = l->qp;

	(void)status; /* a lost response shows at the requester */
	LIST_REMOVE(l, moving);
	if (l->key_held) /* not for a zero-length read, which takes no key */
		sdoca_keys_release(&l->key);
	qp->resp.read_bytes_leaving -= l->m.len;
	qp->resp.reads_leaving--;
	free(l);
	nic_resp_refusal_due(qp);
	nic_resp_drain(qp);
	nic_qp_put(qp);
}

enum resp_result nic_landing_send_read(struct nic_landing *l, size_t hdr_len)
{
	struct nic_qp *qp = l->qp;
	doca_error_t status;

	nic_ack_flush(qp); /* answers leave in sequence order */
	l->sending = true;
	nic_capture_sent(qp, l->hdr, hdr_len, l->iov, l->iovcnt);
	nic_dma_begin();
	status = xport_send(qp->ep, l->hdr, hdr_len, l->iov, l->iovcnt, read_sent, l, &l->op);
	nic_dma_end();
	if (status == DOCA_ERROR_IN_PROGRESS) {
		track(qp, l);
		qp->resp.read_bytes_leaving += l->m.len;
		qp->resp.reads_leaving++;
		return RESP_DONE;
	}
	if (l->key_held)
		sdoca_keys_release(&l->key);
	free(l);
	return status == DOCA_SUCCESS ? RESP_DONE : RESP_ERR_INTERNAL;
}

/* Whether [addr, addr + len) meets target bytes a transfer still moves (a
 * payload landing, a read response leaving). Unsigned differences: no
 * overflow whatever the request says (it is not validated yet). */
static bool meets_transfer(const struct nic_qp *qp, uint64_t addr, uint64_t len)
{
	const struct nic_landing *l;

	if (len == 0)
		return false;
	LIST_FOREACH(l, &qp->resp.moving, moving)
	for (uint32_t i = 0; i < l->iovcnt; i++) {
		uint64_t base = (uintptr_t)l->iov[i].base;

		if (addr - base < l->iov[i].len || base - addr < len)
			return true;
	}
	return false;
}

bool nic_landing_waits(const struct nic_qp *qp, const struct nic_msg *m, const struct xport_rx *rx)
{
	const struct nic_resp *resp = &qp->resp;

	switch ((enum nic_order)nic_op(m->opcode)->order) {
	case NIC_ORDER_WRITE:
		/* An eager write is over at once (ACKed): after the payloads before it. */
		if (resp->placing && (!rx->rndv || resp->placing >= MAX_PLACING))
			return true;
		return meets_transfer(qp, m->raddr, m->len);
	case NIC_ORDER_READ: /* sees every earlier write */
		return resp->placing ||
		       (resp->reads_leaving >= MIN_READS_LEAVING &&
		        resp->read_bytes_leaving + m->len > MAX_READ_BYTES_LEAVING);
	case NIC_ORDER_TARGET:
		return resp->placing || meets_transfer(qp, m->raddr, m->len);
	case NIC_ORDER_PAYLOADS:
		/* A send lands in the target's own receive buffers, not its
		 * exported ranges; a sync event's value is no mmap's either. */
		return resp->placing > 0;
	case NIC_ORDER_NONE: /* no request reaches here (test_wire.c checks every row) */
		break;
	}
	return true; /* until every transfer before it is over */
}

void nic_resp_abandon(struct nic_qp *qp)
{
	struct nic_resp *resp = &qp->resp;
	struct nic_landing *l;

	nic_assert_locked(qp->worker);
	/* The caller holds a reference of its own (nic_qp_fail, nic_qp_destroy),
	 * so none of these puts frees the QP. */
	while ((l = LIST_FIRST(&resp->moving))) {
		LIST_REMOVE(l, moving);
		if (l->op)
			xport_op_abandon(l->op);
		if (l->key_held)
			sdoca_keys_release(&l->key);
		if (l->recv)
			nic_resp_finish_recv(qp, l->recv, &l->m, DOCA_ERROR_CONNECTION_RESET);
		if (l->sending) {
			resp->read_bytes_leaving -= l->m.len;
			resp->reads_leaving--;
		}
		free(l);
		nic_qp_put(qp);
	}
	resp->placing = 0;
	STAILQ_INIT(&resp->landing);
}
