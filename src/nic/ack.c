/*
 * Acknowledgements, coalesced as RC responders do, both ways.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Sent: the peer's placed writes are acknowledged later, cumulatively -
 * piggybacked on this side's next request on the connection (a ping-pong
 * then costs one message per hop, not two), or alone at the worker's next
 * progress, before any other answer on the connection, before the service
 * thread sleeps, and at the latest when the service thread next looks
 * (1 ms) while the application polls. What consumed a receive is
 * acknowledged at once (landing.c).
 *
 * Received on a request: applied after this side's next request has left,
 * or at the next progress - a ping-pong's reply then leaves before the
 * completion work of the request it answers, as a NIC sends before the host
 * reaps completions - and before anything else touches the requests.
 *
 * A QP with either pending is on its worker's list (nic.h), so that a flush
 * visits only those, not every QP.
 */
#include "nic/resp.h"

void nic_ack_list(struct nic_qp *qp)
{
	struct nic_worker *w = qp->worker;

	if (!qp->ack.listed) {
		qp->ack.listed = true;
		SLIST_INSERT_HEAD(&w->acks, qp, ack.link);
	}
	nic_worker_wake_service(w);
}

void nic_ack_flush(struct nic_qp *qp)
{
	uint32_t seq;

	nic_assert_locked(qp->worker);
	if (nic_ack_take(qp, &seq) && qp->state == NIC_QP_RTS)
		nic_resp_answer(qp, NIC_OP_ACK, seq);
}

void nic_ack_flush_all(struct nic_worker *w)
{
	struct nic_qp_list batch = w->acks;
	struct nic_qp *qp;

	/* A flush may defer again: onto the worker's list, not this batch. */
	SLIST_INIT(&w->acks);
	while ((qp = SLIST_FIRST(&batch))) {
		SLIST_REMOVE_HEAD(&batch, ack.link);
		qp->ack.listed = false;
		nic_ack_settle(qp);
		nic_ack_flush(qp);
	}
}
