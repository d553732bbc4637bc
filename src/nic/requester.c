/*
 * The requester: a work request becomes one sequenced message.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The requester: a work request becomes one message with the connection's
 * next sequence number; writes and sends carry their local buffers as the
 * payload (gathered by the transport, no copy here). The request stays in
 * the QP's in-flight list until the completer sees its answer.
 */
#include <string.h>

#include "core/sdk_log.h"
#include "nic/capture_hook.h"
#include "nic/nic.h"

SDOCA_LOG_MODULE(requester);

/* Encodes the request, with this side's deferred ACK if there is one (then
 * *acked is true and *ack_seq what it acknowledges). */
static size_t encode_request(struct nic_qp *qp, struct nic_wqe *wqe, bool *acked, uint32_t *ack_seq)
{
	struct nic_msg m = {
		.opcode = (uint8_t)wqe->op,
		.qp = qp->peer.wire_id,
		.secret = qp->tx_secret,
		.seq = wqe->seq,
		.len = (uint32_t)wqe->length,
		.key = wqe->rkey,
		.raddr = wqe->raddr,
		.operand1 = wqe->compare_or_add,
		.operand2 = wqe->swap,
	};

	if (nic_op(m.opcode)->flags & NIC_OPF_ATOMIC)
		m.len = sizeof(uint64_t);
	memcpy(m.imm, wqe->imm, sizeof(m.imm));
	m.has_ack = nic_ack_take(qp, &m.ack_seq); /* the deferred ACK rides along */
	*acked = m.has_ack;
	*ack_seq = m.ack_seq;
	return nic_wire_encode(&m, wqe->hdr);
}

/* Counted in the slot its opcode's row names (softdoca.h's by-type arrays). */
static inline void count_posted(struct nic_qp *qp, const struct nic_wqe *wqe)
{
	uint8_t slot = nic_op((uint8_t)wqe->op)->counter;

	qp->counters.posted[slot]++;
	qp->counters.posted_bytes[slot] += wqe->length;
}

static doca_error_t check_state(const struct nic_qp *qp)
{
	switch (qp->state) {
	case NIC_QP_RTS:
	case NIC_QP_ERROR: /* accepted, and flushed (nic_post_send) */
		return DOCA_SUCCESS;
	case NIC_QP_INIT:
		return sdoca_fail(DOCA_ERROR_NOT_CONNECTED,
		                  "the connection is not connected yet (doca_rdma_connect)");
	default:
		return sdoca_fail(DOCA_ERROR_CONNECTION_RESET, "the peer closed the connection");
	}
}

/* In flight until the completer completes it, referring to the QP. */
static void append_inflight(struct nic_qp *qp, struct nic_wqe *wqe)
{
	STAILQ_INSERT_TAIL(&qp->req.inflight, wqe, link);
	qp->req.num_inflight++;
	nic_qp_get(qp);
}

/* A request set up with the next sequence number, which the caller takes
 * once the request is sent (or given up). */
static inline void prepare_request(struct nic_qp *qp, struct nic_wqe *wqe)
{
	wqe->qp = qp;
	wqe->seq = qp->req.next_seq;
	wqe->answered = false;
	wqe->status = DOCA_SUCCESS;
	wqe->outstanding = 0;
	wqe->xslot[0].busy = wqe->xslot[1].busy = false;
	wqe->result_len = 0;
}

/* A request taken with the next sequence number, never sent. */
static void take_unsent(struct nic_qp *qp, struct nic_wqe *wqe)
{
	prepare_request(qp, wqe);
	qp->req.next_seq++;
}

/* The send queue looks full (post_limit): it may be, or the QP has faults to
 * look at, or a refused request waits for its turn. DOCA_ERROR_IN_PROGRESS:
 * go on and send. */
static doca_error_t post_slow(struct nic_qp *qp, struct nic_wqe *wqe)
{
	nic_ack_settle(qp); /* some may be acknowledged already */
	if (qp->req.num_inflight >= qp->attr.send_queue) {
		SDOCA_DBG("send queue full (%u requests in flight)", qp->req.num_inflight);
		return DOCA_ERROR_AGAIN;
	}
	if (SDOCA_UNLIKELY(qp->req.refused) && qp->state == NIC_QP_RTS) {
		/* Behind a refused request: flushed once it completed, never
		 * sent (the QP goes to error then). */
		take_unsent(qp, wqe);
		wqe->answered = true;
		wqe->status = DOCA_ERROR_CONNECTION_ABORTED;
		append_inflight(qp, wqe);
		return DOCA_SUCCESS;
	}
	if (!qp->fault || qp->state != NIC_QP_RTS || !nic_diag->fault_post(qp))
		return DOCA_ERROR_IN_PROGRESS;
	/* Taken, never sent: it fails with the connection, as on RC. */
	take_unsent(qp, wqe);
	count_posted(qp, wqe);
	append_inflight(qp, wqe);
	nic_comp_give_up(qp, "injected: the transport's retries ran out");
	return DOCA_SUCCESS;
}

doca_error_t nic_post_send(struct nic_qp *qp, struct nic_wqe *wqe)
{
	struct nic_worker *w = qp->worker;
	struct nic_xslot *slot;
	uint32_t ack_seq;
	doca_error_t status;
	bool acked;
	size_t hdr_len;

	nic_lock(w);
	/* The transport lost the peer, not yet acted on: first what the peer
	 * sent before, then the loss, then this request (flushed behind). */
	if (SDOCA_UNLIKELY(qp->peer.lost))
		nic_worker_settle_losses(w, false);
	status = check_state(qp);
	if (status != DOCA_SUCCESS)
		goto out;
	if (qp->req.num_inflight >= qp->post_limit) {
		status = post_slow(qp, wqe);
		if (status != DOCA_ERROR_IN_PROGRESS)
			goto out;
	}
	prepare_request(qp, wqe);
	if (qp->state == NIC_QP_ERROR) {
		/* Like a work request posted to an RC QP in the error state: taken,
		 * then flushed behind what was in flight; the context stops at its
		 * next progress (the failure may have just happened on the service
		 * thread, with the context still RUNNING). */
		append_inflight(qp, wqe);
		nic_comp_flush(qp, qp->error_status);
		status = DOCA_SUCCESS;
		goto out;
	}
	hdr_len = encode_request(qp, wqe, &acked, &ack_seq);
	slot = nic_comp_slot(wqe);
	status = xport_send(qp->ep, wqe->hdr, hdr_len, wqe->sge,
	                    nic_op_has_payload(wqe->op) ? wqe->num_sge : 0, nic_comp_sent, slot,
	                    &slot->op);
	if (status != DOCA_ERROR_IN_PROGRESS)
		nic_comp_slot_done(slot);
	if (status != DOCA_SUCCESS && status != DOCA_ERROR_IN_PROGRESS) {
		if (acked) /* it did not leave: the ACK waits for the next chance */
			nic_ack_defer(qp, ack_seq);
		status = sdoca_fail(status, "the transport refused the request: %s",
		                    doca_error_get_name(status));
		goto out;
	}
	nic_capture_sent(qp, wqe->hdr, hdr_len, wqe->sge, wqe->num_sge);
	qp->req.next_seq++;
	count_posted(qp, wqe);
	if (qp->req.num_inflight == 0)
		qp->peer.heard = true; /* the timeout counts from here */
	append_inflight(qp, wqe);
	/* The request left: now the completion work of what the peer
	 * acknowledged on its last request (see completer.c). */
	nic_ack_settle(qp);
	nic_ack_unlist(qp);
	status = DOCA_SUCCESS;
out:
	nic_unlock(w);
	return status;
}

doca_error_t nic_post_send_refused(struct nic_qp *qp, struct nic_wqe *wqe, doca_error_t status,
                                   const char *why)
{
	struct nic_worker *w = qp->worker;
	doca_error_t err;

	nic_lock(w);
	if (SDOCA_UNLIKELY(qp->peer.lost))
		nic_worker_settle_losses(w, false);
	err = check_state(qp);
	if (err != DOCA_SUCCESS)
		goto out;
	if (qp->req.num_inflight >= qp->attr.send_queue) {
		SDOCA_DBG("send queue full (%u requests in flight)", qp->req.num_inflight);
		err = DOCA_ERROR_AGAIN;
		goto out;
	}
	take_unsent(qp, wqe);
	wqe->answered = true;
	if (qp->state == NIC_QP_ERROR || qp->req.refused) {
		/* Flushed like any post to a QP in error (or about to be). */
		wqe->status = qp->state == NIC_QP_ERROR ? qp->error_status
		                                        : DOCA_ERROR_CONNECTION_ABORTED;
	} else {
		SDOCA_DBG("QP %u: request %u refused before it was sent: %s", qp->wire_id, wqe->seq,
		          why);
		wqe->status = status;
		qp->req.refused = true;
		qp->req.refused_seq = wqe->seq;
		qp->post_limit = 0; /* later posts take post_slow, which flushes them */
	}
	append_inflight(qp, wqe);
	nic_comp_flush_done(qp);
out:
	nic_unlock(w);
	return err;
}
