/*
 * Binding a connection to its peer by a shared secret.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * A connection is bound to its peer: the soft NIC reads a message for a QP
 * only when it carries the connection's secret - mixed from the tokens of
 * both connection blobs, so that whoever holds one blob cannot make it up
 * (nic_conn_secret) - and came over the transport connection to the peer's
 * worker (xport_rx_from). Anything else is a stranger's: dropped unread,
 * counted on the QP it named, logged at most once a second per worker, and
 * it never touches the connection (its sequence, its requests, its state).
 *
 * Before this side connects it knows neither the peer's token nor its
 * worker, so messages for a QP in INIT wait unread, bounded, until
 * doca_rdma_connect says who the peer is; then, at the worker's next pass
 * (not inside the connect call), the peer's go on to the normal dispatch in
 * the order they came, and the rest are dropped as strangers'. The peer's
 * messages that come in between queue behind them.
 */
#include <stdlib.h>

#include "core/sdk_log.h"
#include "nic/nic.h"

SDOCA_LOG_MODULE(binding);

#define MAX_UNVERIFIED 65536 /* as many as the responder holds (resp_queue.c) */
#define LOG_EVERY_NS 1000000000u

static void stranger(struct nic_qp *qp, const struct nic_msg *m)
{
	struct nic_worker *w = qp->worker;
	uint64_t now;

	qp->counters.strangers_dropped++;
	w->strangers_unlogged++;
	now = nic_now_ns();
	if (now - w->stranger_log_ns < LOG_EVERY_NS && w->stranger_log_ns != 0)
		return;
	SDOCA_WARN("QP %u: dropped %lu message(s) from a process that is not its peer (the last a "
	           "%s); the connection is unaffected",
	           qp->wire_id, (unsigned long)w->strangers_unlogged, nic_opcode_name(m->opcode));
	w->stranger_log_ns = now;
	w->strangers_unlogged = 0;
}

/* Keeps a message unread in the order it came: true, or false if there are
 * too many (the caller releases rx). */
static bool keep(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx)
{
	struct nic_held *h = qp->resp.num_unverified < MAX_UNVERIFIED ? nic_held_new(m, rx) : NULL;

	if (h) {
		h->arrived_ns = nic_now_ns();
		STAILQ_INSERT_TAIL(&qp->resp.unverified, h, link);
		qp->resp.num_unverified++;
		return true;
	}
	SDOCA_LOG_ONCE(DOCA_LOG_LEVEL_WARNING,
	               "QP %u: too many messages before it connected: dropped", qp->wire_id);
	return false;
}

/* A message known to be the peer's: its faults see it first, as every
 * message of the peer's. */
static bool deliver(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx)
{
	bool kept;

	if (qp->fault && nic_diag->fault_message(qp, m, rx, &kept))
		return kept;
	return nic_worker_dispatch(qp, m, rx);
}

bool nic_bind_refuse(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx)
{
	/* The peer's, behind those that came before the connect. */
	if (SDOCA_UNLIKELY(qp->resp.releasing) && nic_bind_peer(qp, m->secret, rx)) {
		if (keep(qp, m, rx))
			return true;
		/* A hole in the peer's sequence: nothing after it could run. */
		xport_rx_release(qp->worker->xport, rx);
		nic_qp_fail(qp, DOCA_ERROR_CONNECTION_ABORTED, true,
		            "cannot hold the peer's message until the connect's (too many "
		            "waiting, or out of memory)");
		return false;
	} else if (qp->fault && nic_bind_peer(qp, m->secret, rx)) {
		return deliver(qp, m, rx);
	} else if (qp->state == NIC_QP_INIT) {
		if (keep(qp, m, rx))
			return true;
	} else if (qp->ep) {
		stranger(qp, m);
	} /* else the transport is closed: a late message of the peer's, dropped */
	xport_rx_release(qp->worker->xport, rx);
	return false;
}

bool nic_bind_release(struct nic_qp *qp)
{
	nic_assert_locked(qp->worker);
	if (STAILQ_EMPTY(&qp->resp.unverified))
		return false;
	/* Not inside the connect call, with its lock held: the worker's next
	 * pass dispatches them, the way every other message enters. Until
	 * then the peer's messages take the slow path and queue behind. */
	qp->resp.releasing = true;
	qp->rx_check = ~qp->rx_secret;
	qp->worker->releases_pending = true;
	nic_worker_wake_service(qp->worker);
	return true;
}

/* The messages kept before the connect, and since, in the order they came. */
static void release(struct nic_qp *qp)
{
	struct nic_held *h;

	/* Still releasing while the list is walked: a message of the peer's
	 * that came meanwhile is kept behind, and walked in its turn. */
	while ((h = STAILQ_FIRST(&qp->resp.unverified))) {
		STAILQ_REMOVE_HEAD(&qp->resp.unverified, link);
		qp->resp.num_unverified--;
		if (qp->detached || !nic_bind_peer(qp, h->msg.secret, &h->rx)) {
			if (!qp->detached)
				stranger(qp, &h->msg);
			xport_rx_release(qp->worker->xport, &h->rx);
		} else {
			/* It waited since it came, not since now (nic_resp_connected). */
			if (nic_op_is_request(h->msg.opcode) && !qp->resp.unconnected_since_ns)
				qp->resp.unconnected_since_ns = h->arrived_ns;
			if (deliver(qp, &h->msg, &h->rx))
				h->rx.desc = NULL; /* held again: the copy moved */
		}
		free(h);
	}
	qp->resp.releasing = false;
	nic_bind_open_fast_path(qp);
	if (!qp->detached)
		nic_resp_connected(qp);
}

void nic_bind_release_due(struct nic_worker *w)
{
	nic_assert_locked(w);
	w->releases_pending = false;
	for (uint32_t i = 0; i < w->num_qp_slots; i++) {
		struct nic_qp *qp = w->qps[i];

		if (qp && qp->resp.releasing) {
			nic_qp_get(qp); /* a refused request may fail and free it */
			release(qp);
			nic_qp_put(qp);
		}
	}
}
