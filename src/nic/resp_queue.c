/*
 * The responder's queues: a peer's requests run in sequence.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The responder's queues: the peer's requests run one after the other in
 * sequence. A request waits, held, while it has no receive to consume (RNR:
 * the requester hears it is not lost, and a finite RNR retry count ends the
 * wait), while an earlier payload still lands, before this side has
 * connected, or - when the transport handed it over ahead of an earlier
 * one - for its turn.
 */
#include <stdlib.h>

#include "core/sdk_log.h"
#include "nic/resp.h"

SDOCA_LOG_MODULE(resp_queue);

#define MAX_HELD 65536
#define RNR_NOTICE_NS 100000000u /* "still waiting" to the requester every 100 ms */

struct nic_held *nic_held_new(const struct nic_msg *m, struct xport_rx *rx)
{
	struct nic_held *h = malloc(sizeof(*h));

	if (!h)
		return NULL;
	h->rx = *rx;
	if (!xport_rx_hold(&h->rx)) {
		free(h);
		return NULL;
	}
	h->msg = *m;
	return h;
}

/* A copy of the request that outlives the transport's callback, or NULL
 * (the connection failed). */
static struct nic_held *keep(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx)
{
	struct nic_held *h = qp->resp.num_held < MAX_HELD ? nic_held_new(m, rx) : NULL;

	if (!h) {
		xport_rx_release(qp->worker->xport, rx);
		nic_qp_fail(qp, DOCA_ERROR_CONNECTION_ABORTED, true,
		            "cannot hold a request (too many waiting, or out of memory)");
		return NULL;
	}
	qp->resp.num_held++;
	return h;
}

static bool hold(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx)
{
	struct nic_held *h = keep(qp, m, rx);

	if (!h)
		return false;
	STAILQ_INSERT_TAIL(&qp->resp.held, h, link);
	return true;
}

/* A request ahead of its turn: UCX can hand over a message before an
 * earlier one it had to queue (seen over TCP under load). It waits, in
 * sequence order, for the ones before it. */
static bool hold_early(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx)
{
	struct nic_held *h = keep(qp, m, rx), *before = NULL, *e;

	if (!h)
		return false;
	STAILQ_FOREACH(e, &qp->resp.early, link)
	{
		if (!nic_seq_after(m->seq, e->msg.seq))
			break;
		before = e;
	}
	if (before)
		STAILQ_INSERT_AFTER(&qp->resp.early, before, h, link);
	else
		STAILQ_INSERT_HEAD(&qp->resp.early, h, link);
	return true;
}

/* No receive: the request waits, the requester hears it is not lost. */
static void wait_for_recv(struct nic_qp *qp, uint32_t seq)
{
	struct nic_resp *resp = &qp->resp;

	nic_srq_wait(qp->srq, qp);
	if (resp->rnr_since_ns == 0) {
		qp->counters.rnr_waits++;
		resp->rnr_since_ns = nic_now_ns();
		resp->rnr_notice_ns = resp->rnr_since_ns;
		nic_resp_answer(qp, NIC_OP_RNR_WAIT, seq);
	}
}

/* The request whose turn it is. */
static SDOCA_ALWAYS_INLINE bool accept(struct nic_qp *qp, const struct nic_msg *m,
                                       struct xport_rx *rx)
{
	qp->resp.expected_seq++;
	/* Before connect: kept for it, waiting as for a receive (RNR). */
	if (SDOCA_UNLIKELY(!qp->resp.connected)) {
		if (!qp->resp.unconnected_since_ns)
			qp->resp.unconnected_since_ns = nic_now_ns();
		return hold(qp, m, rx);
	}
	/* In order: behind held requests or a landing payload. */
	if (!STAILQ_EMPTY(&qp->resp.held) || nic_resp_must_wait(qp, m, rx))
		return hold(qp, m, rx);
	if (nic_resp_run(qp, m, rx) != RESP_WAIT_RECV)
		return false;
	wait_for_recv(qp, m->seq);
	return hold(qp, m, rx);
}

/* A request that is not the one expected: one ahead waits for its turn. */
static bool out_of_turn(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx)
{
	uint32_t expected = qp->resp.expected_seq;

	if (nic_seq_after(expected, m->seq) || m->seq - expected >= MAX_HELD) {
		xport_rx_release(qp->worker->xport, rx);
		nic_qp_fail(qp, DOCA_ERROR_CONNECTION_RESET, true, "request out of sequence");
		return false;
	}
	return hold_early(qp, m, rx);
}

/* The requests that came early and whose turn it is now. */
static void accept_early(struct nic_qp *qp)
{
	struct nic_held *h;

	while ((h = STAILQ_FIRST(&qp->resp.early)) && h->msg.seq == qp->resp.expected_seq &&
	       (qp->state == NIC_QP_RTS || qp->state == NIC_QP_INIT)) {
		STAILQ_REMOVE_HEAD(&qp->resp.early, link);
		qp->resp.num_held--;
		if (accept(qp, &h->msg, &h->rx)) /* held again: the copy moved */
			h->rx.desc = NULL;
		free(h);
	}
}

bool nic_resp_request(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx)
{
	bool kept;

	nic_assert_locked(qp->worker);
	if (qp->state == NIC_QP_ERROR || qp->state == NIC_QP_CLOSED || qp->resp.refusal) {
		xport_rx_release(qp->worker->xport, rx);
		return false;
	}
	if (SDOCA_UNLIKELY(m->seq != qp->resp.expected_seq))
		return out_of_turn(qp, m, rx);
	kept = accept(qp, m, rx);
	if (SDOCA_UNLIKELY(!STAILQ_EMPTY(&qp->resp.early)))
		accept_early(qp);
	return kept;
}

void nic_resp_drain(struct nic_qp *qp)
{
	struct nic_resp *resp = &qp->resp;
	struct nic_held *h;

	nic_assert_locked(qp->worker);
	while ((h = STAILQ_FIRST(&resp->held)) && resp->connected &&
	       !nic_resp_must_wait(qp, &h->msg, &h->rx) && qp->state == NIC_QP_RTS) {
		STAILQ_REMOVE_HEAD(&resp->held, link);
		resp->num_held--;
		if (nic_resp_run(qp, &h->msg, &h->rx) == RESP_WAIT_RECV) {
			/* Still no receive: back to the front, in order. */
			STAILQ_INSERT_HEAD(&resp->held, h, link);
			resp->num_held++;
			wait_for_recv(qp, h->msg.seq);
			return;
		}
		free(h);
		resp->rnr_since_ns = 0;
	}
}

static void drop_list(struct nic_qp *qp, struct nic_held_list *list)
{
	struct nic_held *h;

	while ((h = STAILQ_FIRST(list))) {
		STAILQ_REMOVE_HEAD(list, link);
		xport_rx_release(qp->worker->xport, &h->rx);
		free(h);
	}
}

void nic_resp_drop_held(struct nic_qp *qp)
{
	nic_assert_locked(qp->worker);
	drop_list(qp, &qp->resp.held);
	drop_list(qp, &qp->resp.early);
	drop_list(qp, &qp->resp.unverified);
	qp->resp.num_held = 0;
	qp->resp.num_unverified = 0;
}

/* How long the requester keeps retrying a request that waits (RNR). */
static uint64_t rnr_allowance_ns(const struct nic_qp *qp)
{
	return (uint64_t)(qp->peer.rnr_retry + 1) * NIC_RNR_TIMER_NS;
}

void nic_resp_connected(struct nic_qp *qp)
{
	struct nic_resp *resp = &qp->resp;
	uint64_t waited =
	        resp->unconnected_since_ns ? nic_now_ns() - resp->unconnected_since_ns : 0;

	nic_assert_locked(qp->worker);
	resp->connected = true;
	resp->unconnected_since_ns = 0;
	/* The requester gave up on requests that waited longer than its RNR
	 * retries allow (completer.c): they are refused, never executed late. */
	if (!STAILQ_EMPTY(&resp->held) && qp->peer.rnr_retry != NIC_RNR_INFINITE &&
	    waited >= rnr_allowance_ns(qp)) {
		nic_resp_nak(qp, STAILQ_FIRST(&resp->held)->msg.seq, NIC_SYN_RNR_RETRY_EXCEEDED,
		             "requests waited for this side to connect longer than the RNR "
		             "retry count");
		return;
	}
	nic_resp_drain(qp);
}

void nic_resp_timers(struct nic_qp *qp, uint64_t now_ns, uint64_t *next_ns)
{
	struct nic_resp *resp = &qp->resp;
	struct nic_held *first = STAILQ_FIRST(&resp->held);
	uint64_t limit, notice;

	nic_assert_locked(qp->worker);
	if (!resp->waiting_recv || !first || qp->state != NIC_QP_RTS)
		return;
	if (qp->peer.rnr_retry != NIC_RNR_INFINITE) {
		limit = resp->rnr_since_ns + rnr_allowance_ns(qp);
		if (now_ns >= limit) {
			nic_resp_nak(qp, first->msg.seq, NIC_SYN_RNR_RETRY_EXCEEDED,
			             "no receive posted within the RNR retry count");
			return;
		}
		if (limit < *next_ns)
			*next_ns = limit;
	}
	notice = resp->rnr_notice_ns + RNR_NOTICE_NS;
	if (now_ns >= notice) {
		nic_resp_answer(qp, NIC_OP_RNR_WAIT, first->msg.seq);
		resp->rnr_notice_ns = now_ns;
		notice = now_ns + RNR_NOTICE_NS;
	}
	if (notice < *next_ns)
		*next_ns = notice;
}
