/*
 * The completer: completes requests in submission order per connection.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The completer: matches answers to the requests in flight and completes
 * them in submission order per connection (RC order), whatever order their
 * payloads land in. A request is over when its answer arrived and the
 * transport no longer refers to its buffers.
 *
 * Answers are matched by sequence number, not by arrival: UCX can hand over
 * a message before an earlier one it had to queue (a read response before
 * the one sent before it, seen over TCP under load), so an answer may come
 * early, and a cumulative ACK may pass a read's or an atomic's data.
 *
 * A NAK acknowledges every request before the one it refuses, as on RC (the
 * responder refuses a request only once those are over). Reads and atomics
 * among them still complete when their data comes - UCX may hand the NAK
 * over first - and the connection fails once every request up to the
 * refused one has completed, so completions keep submission order.
 *
 * An ACK piggybacked on the peer's request is applied later (ack.c); whatever
 * else touches the requests applies it first.
 */
#include <string.h>

#include "core/sdk_log.h"
#include "nic/nic.h"

SDOCA_LOG_MODULE(completer);

/* How long a large transfer may take on top of the timeout: 100 MB/s. */
#define SLOWEST_BYTES_PER_MS 100000u

doca_error_t nic_syndrome_status(uint32_t syndrome)
{
	switch (syndrome) {
	case NIC_SYN_REMOTE_ACCESS:
		return DOCA_ERROR_NOT_PERMITTED;
	case NIC_SYN_REMOTE_INVALID:
		return DOCA_ERROR_INVALID_VALUE;
	case NIC_SYN_RNR_RETRY_EXCEEDED:
		return DOCA_ERROR_TIME_OUT;
	default:
		return DOCA_ERROR_IO_FAILED;
	}
}

/* An answer for a request after the one the peer refused (a broken peer). */
static bool after_refused(const struct nic_qp *qp, uint32_t seq)
{
	return qp->req.nak_pending && nic_seq_after(seq, qp->req.nak_seq);
}

/* Every request up to the refused one has completed: the connection fails
 * (the requests after it are flushed). */
static void refusal_over(struct nic_qp *qp)
{
	qp->req.nak_pending = false;
	nic_qp_fail(qp, DOCA_ERROR_CONNECTION_ABORTED, false, "the responder refused a request");
}

/* The request this side refused completed: the connection fails, as on RC
 * after a local protection error (what was posted after it is flushed). */
static void refused_over(struct nic_qp *qp)
{
	qp->req.refused = false;
	qp->post_limit = qp->fault ? 0 : qp->attr.send_queue;
	nic_qp_fail(qp, DOCA_ERROR_CONNECTION_ABORTED, false,
	            "a work request was refused before it was sent (local protection error)");
}

/* Completes the requests at the head that are over. Each drops its
 * reference on the QP after the loop (the last may free it). */
static void complete_in_order(struct nic_qp *qp)
{
	struct nic_req *req = &qp->req;
	struct nic_wqe *wqe;
	uint32_t completed = 0;

	while ((wqe = STAILQ_FIRST(&req->inflight)) && wqe->answered && wqe->outstanding == 0) {
		STAILQ_REMOVE_HEAD(&req->inflight, link);
		req->num_inflight--;
		qp->counters.requests_completed++;
		qp->counters.requests_failed += wqe->status != DOCA_SUCCESS;
		wqe->done(wqe, wqe->status);
		completed++;
	}
	if (SDOCA_UNLIKELY(req->nak_pending) &&
	    (!(wqe = STAILQ_FIRST(&req->inflight)) || nic_seq_after(wqe->seq, req->nak_seq)))
		refusal_over(qp);
	if (SDOCA_UNLIKELY(req->refused) &&
	    (!(wqe = STAILQ_FIRST(&req->inflight)) || nic_seq_after(wqe->seq, req->refused_seq)))
		refused_over(qp);
	if (completed)
		nic_qp_put_n(qp, completed);
}

struct nic_xslot *nic_comp_slot(struct nic_wqe *wqe)
{
	struct nic_xslot *slot = wqe->xslot[0].busy ? &wqe->xslot[1] : &wqe->xslot[0];

	slot->wqe = wqe;
	slot->op = NULL;
	slot->busy = true;
	slot->incoming = false;
	wqe->outstanding++;
	return slot;
}

void nic_comp_slot_done(struct nic_xslot *slot)
{
	slot->busy = false;
	slot->op = NULL;
	slot->wqe->outstanding--;
}

/* The transport finished with a request's buffers (sent, or a read's data landed). */
static void transport_done(void *arg, doca_error_t status)
{
	struct nic_xslot *slot = arg;
	struct nic_wqe *wqe = slot->wqe;
	struct nic_qp *qp = wqe->qp;

	if (status != DOCA_SUCCESS && wqe->status == DOCA_SUCCESS)
		wqe->status = status;
	nic_comp_slot_done(slot);
	complete_in_order(qp); /* may free a destroyed QP: the last thing it waited for */
}

void nic_comp_sent(void *slot, doca_error_t status)
{
	transport_done(slot, status);
}

void nic_comp_abandon(struct nic_qp *qp, doca_error_t status)
{
	struct nic_wqe *wqe;

	STAILQ_FOREACH(wqe, &qp->req.inflight, link)
	for (int i = 0; i < 2; i++) {
		struct nic_xslot *slot = &wqe->xslot[i];

		if (!slot->busy)
			continue;
		if (slot->op)
			xport_op_abandon(slot->op);
		/* Its answer came, its data did not: not a success. (A send
		 * given up after its answer came did its work.) */
		if (slot->incoming && wqe->status == DOCA_SUCCESS)
			wqe->status = status;
		nic_comp_slot_done(slot);
	}
}

static struct nic_wqe *oldest_unanswered(struct nic_qp *qp)
{
	struct nic_wqe *wqe;

	STAILQ_FOREACH(wqe, &qp->req.inflight, link)
	if (!wqe->answered)
		break;
	return wqe;
}

/* Whether an answer of this opcode can answer the request: its own answer
 * (ACK, read or atomic response), or a NAK or RNR notice for any. */
static bool matches(const struct nic_wqe *wqe, uint8_t opcode)
{
	return opcode == NIC_OP_NAK || opcode == NIC_OP_RNR_WAIT ||
	       nic_op(wqe->op)->answer == opcode;
}

/* Places read data into the local buffers, cut to what arrived. */
static void place_read(struct nic_qp *qp, struct nic_wqe *wqe, struct xport_rx *rx)
{
	struct xport_iov iov[NIC_MAX_SGE];
	uint64_t left = rx->len;
	uint32_t n = 0;
	doca_error_t status;

	for (uint32_t i = 0; i < wqe->num_sge && left > 0; i++, n++) {
		iov[n].base = wqe->sge[i].base;
		iov[n].len = wqe->sge[i].len < left ? wqe->sge[i].len : left;
		left -= iov[n].len;
	}
	struct nic_xslot *slot = nic_comp_slot(wqe);

	slot->incoming = true;
	wqe->result_len = rx->len;
	status = xport_rx_receive(qp->worker->xport, rx, iov, n, transport_done, slot, &slot->op);
	if (status != DOCA_ERROR_IN_PROGRESS)
		transport_done(slot, status);
}

/* An answer's 8-byte value into the local buffers (an atomic's result
 * buffer, a sync-event get's destination list, none for a set). */
static void place_value(struct nic_wqe *wqe, uint64_t value)
{
	const uint8_t *from = (const uint8_t *)&value;
	size_t left = sizeof(value);

	for (uint32_t i = 0; i < wqe->num_sge && left > 0; i++) {
		size_t n = wqe->sge[i].len < left ? wqe->sge[i].len : left;

		memcpy(wqe->sge[i].base, from, n);
		from += n;
		left -= n;
	}
}

/* The request in flight with this sequence number, NULL if none. */
static struct nic_wqe *in_flight(struct nic_qp *qp, uint32_t seq)
{
	struct nic_wqe *wqe;

	STAILQ_FOREACH(wqe, &qp->req.inflight, link)
	if (wqe->seq == seq)
		break;
	return wqe;
}

/* Cumulative: every request up to seq is done at the responder. Reads and
 * atomics among them complete when their data comes; one that came already,
 * or an ACK that an earlier-sent, later-delivered one repeats, is no news. */
void nic_comp_ack(struct nic_qp *qp, uint32_t seq)
{
	if (nic_seq_after(seq, qp->req.next_seq - 1) || after_refused(qp, seq)) {
		nic_qp_fail(qp, DOCA_ERROR_CONNECTION_RESET, true,
		            "an ACK for a request never sent, or refused");
		return;
	}
	for (struct nic_wqe *wqe = oldest_unanswered(qp); wqe && !nic_seq_after(wqe->seq, seq);
	     wqe = STAILQ_NEXT(wqe, link)) {
		if (wqe->answered || !matches(wqe, NIC_OP_ACK))
			continue;
		wqe->answered = true;
		wqe->result_len = wqe->length;
	}
	complete_in_order(qp);
}

bool nic_comp_reply(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx)
{
	struct nic_wqe *wqe;

	nic_assert_locked(qp->worker);
	if (m->opcode == NIC_OP_RNR_WAIT) {
		qp->counters.rnr_notices++;
		return false; /* the responder is alive; hearing it reset the timeout */
	}
	if (m->opcode == NIC_OP_ACK) {
		nic_comp_ack(qp, m->seq);
		return false;
	}
	wqe = in_flight(qp, m->seq);
	if (!wqe || wqe->answered || !matches(wqe, m->opcode) || after_refused(qp, m->seq) ||
	    (m->opcode == NIC_OP_READ_RESP && m->len > wqe->length)) {
		xport_rx_release(qp->worker->xport, rx);
		nic_qp_fail(qp, DOCA_ERROR_CONNECTION_RESET, true,
		            "an answer matches no request in flight");
		return false;
	}
	wqe->answered = true;
	switch (m->opcode) {
	case NIC_OP_NAK:
		qp->counters.naks_received_by_syndrome[m->syndrome]++;
		wqe->status = nic_syndrome_status(m->syndrome);
		qp->req.nak_pending = true;
		qp->req.nak_seq = m->seq;
		nic_comp_ack(qp, m->seq - 1); /* completes what it can, in order */
		return false;
	case NIC_OP_READ_RESP:
		qp->counters.bytes_read += rx->len;
		place_read(qp, wqe, rx);
		return false;
	case NIC_OP_ATOMIC_RESP:
	case NIC_OP_EVENT_RESP:
		if (m->syndrome) { /* a refused sync-event request: it fails, the connection stays
			            */
			wqe->status = nic_syndrome_status(m->syndrome);
			break;
		}
		place_value(wqe, m->value);
		wqe->result_len = sizeof(m->value);
		break;
	}
	complete_in_order(qp);
	return false;
}

void nic_comp_flush_done(struct nic_qp *qp)
{
	complete_in_order(qp);
}

/* Flushes what is left: the connection failed. As on an RC QP in error,
 * nothing after the first request that failed or got no answer succeeds,
 * even one whose answer came already (a later read's data, while the one
 * before it was lost): completions keep submission order, and those after a
 * fatal one are flushed. What the peer acknowledged before that succeeded.
 * Only the failure path pays for this walk. */
void nic_comp_flush(struct nic_qp *qp, doca_error_t status)
{
	struct nic_wqe *wqe;
	bool broken = false;

	nic_assert_locked(qp->worker);
	nic_ack_settle(qp);
	STAILQ_FOREACH(wqe, &qp->req.inflight, link)
	{
		if (!wqe->answered || broken) {
			wqe->answered = true;
			if (broken || wqe->status == DOCA_SUCCESS)
				wqe->status = status;
		}
		broken |= wqe->status != DOCA_SUCCESS;
	}
	complete_in_order(qp);
}

/* No word from the peer for too long while requests wait: it hangs or is
 * gone, and the requests fail like an exhausted transport retry on RC. */
void nic_comp_timers(struct nic_qp *qp, uint64_t now_ns, uint64_t *next_ns)
{
	struct nic_wqe *wqe;
	uint64_t allowance_ms, deadline;

	nic_ack_settle(qp);
	wqe = oldest_unanswered(qp);
	if (!wqe || qp->state != NIC_QP_RTS)
		return;
	allowance_ms = qp->attr.timeout_ms + wqe->length / SLOWEST_BYTES_PER_MS;
	/* A peer that has not connected its side yet is not ready, as one
	 * without a receive is (RNR): with the default retry count (7, forever)
	 * the request waits for it while it lives; a finite count adds its
	 * retries. The responder refuses what waited longer (nic_resp_connected),
	 * so both sides agree on whether the request happened. */
	if (!qp->peer.up) {
		if (qp->attr.rnr_retry == NIC_RNR_INFINITE)
			return;
		allowance_ms += (uint64_t)(qp->attr.rnr_retry + 1) * NIC_RNR_TIMER_NS / 1000000u;
	}
	deadline = qp->peer.last_heard_ns + allowance_ms * 1000000u;
	if (now_ns < deadline) {
		if (deadline < *next_ns)
			*next_ns = deadline;
		return;
	}
	nic_comp_give_up(qp, "no answer from the peer (timeout)");
}

void nic_comp_give_up(struct nic_qp *qp, const char *why)
{
	struct nic_wqe *wqe = oldest_unanswered(qp);

	nic_assert_locked(qp->worker);
	if (wqe) {
		wqe->answered = true;
		wqe->status = DOCA_ERROR_TIME_OUT;
	}
	qp->counters.timeouts++;
	nic_qp_fail(qp, DOCA_ERROR_CONNECTION_ABORTED, true, why);
}

bool nic_comp_read_empty(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx)
{
	struct nic_wqe *wqe = in_flight(qp, m->seq);

	/* Not a read's answer (a broken peer): the usual path fails it. */
	if (!wqe || wqe->answered || wqe->op != NIC_WR_READ || m->len > wqe->length ||
	    after_refused(qp, m->seq))
		return false;
	xport_rx_release(qp->worker->xport, rx);
	wqe->answered = true;
	wqe->result_len = m->len;
	qp->counters.bytes_read += m->len;
	complete_in_order(qp);
	return true;
}
