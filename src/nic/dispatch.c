/*
 * Arriving messages: decoded and handed to their QP.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Arriving messages: the transport's receive callback decodes each header
 * (nic_wire_decode checks every field of bytes from another process), finds
 * the QP it names, checks it comes from that QP's peer (binding.c) and hands
 * requests to the responder, answers to the completer. A header that does
 * not decode fails the connection if it is the peer's, else it is counted
 * and dropped.
 */
#include "core/bytes.h"
#include "core/sdk_log.h"
#include "nic/capture_hook.h"
#include "nic/nic.h"

SDOCA_LOG_MODULE(dispatch);

/* A header that does not decode still names a QP and carries a secret at
 * fixed offsets; if it is the QP's peer's, the connection goes to error
 * rather than on with a bad peer. A stranger's is counted and dropped. */
static void malformed(struct nic_worker *w, const uint8_t *hdr, size_t hdr_len,
                      const struct xport_rx *rx)
{
	struct nic_msg m = { .opcode = hdr_len > 1 ? hdr[1] : 0 };
	struct nic_qp *qp;

	if (hdr_len < NIC_WIRE_COMMON)
		return;
	qp = nic_worker_find_qp(w, sdoca_get_le32(hdr + 4));
	if (!qp || qp->detached || qp->state == NIC_QP_INIT)
		return;
	if (nic_bind_peer(qp, sdoca_get_le64(hdr + 16), rx)) {
		nic_qp_fail(qp, DOCA_ERROR_CONNECTION_RESET, true,
		            "malformed message from the peer");
	} else {
		struct xport_rx none = { 0 };

		nic_bind_refuse(qp, &m, &none); /* counts it: rx is released by the caller */
	}
}

static void disconnected(struct nic_qp *qp)
{
	if (qp->state != NIC_QP_RTS && qp->state != NIC_QP_INIT)
		return;
	SDOCA_DBG("QP %u: the peer disconnected", qp->wire_id);
	qp->peer.left = true;
	if (qp->req.num_inflight > 0) {
		nic_qp_fail(qp, DOCA_ERROR_CONNECTION_RESET, true,
		            "the peer disconnected with requests in flight");
		return;
	}
	qp->state = NIC_QP_CLOSED;
	nic_qp_tell_down(qp, NIC_DOWN_PEER_LEFT, DOCA_SUCCESS);
}

bool nic_worker_on_message(void *arg, const void *hdr, size_t hdr_len, struct xport_rx *rx)
{
	struct nic_worker *w = arg;
	struct nic_msg m;
	struct nic_qp *qp;

	nic_assert_locked(w);
	if (nic_wire_decode(hdr, hdr_len, rx->len, &m) != DOCA_SUCCESS) {
		malformed(w, hdr, hdr_len, rx);
		xport_rx_release(w->xport, rx);
		return false;
	}
	qp = nic_worker_find_qp(w, m.qp);
	if (!qp || qp->detached) {
		/* A stale or forged message: nobody here expects it. */
		SDOCA_DBG("dropping %s for unknown QP %u", nic_opcode_name(m.opcode), m.qp);
		xport_rx_release(w->xport, rx);
		return false;
	}
	/* A QP with faults fails this test on purpose: the slow path has them. */
	if (SDOCA_UNLIKELY(!nic_bind_ok(qp, m.secret, rx)))
		return nic_bind_refuse(qp, &m, rx);
	return nic_worker_dispatch(qp, &m, rx);
}

bool nic_worker_dispatch(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx)
{
	nic_assert_locked(qp->worker);
	nic_capture_received(qp, m, rx);
	qp->peer.heard = true;
	if (SDOCA_UNLIKELY(!qp->peer.up))
		nic_qp_peer_up(qp);
	if (nic_op_is_request(m->opcode)) {
		/* A piggybacked ACK is applied after this side's next request leaves
		 * (or at the next progress): what the peer asks for first, as a NIC
		 * places data before the host reaps completions. */
		if (m->has_ack)
			nic_ack_defer_peer(qp, m->ack_seq);
		return nic_resp_request(qp, m, rx);
	}
	nic_ack_settle(qp);
	if (m->opcode == NIC_OP_DISCONNECT)
		disconnected(qp);
	else if (m->opcode != NIC_OP_HELLO)
		return nic_comp_reply(qp, m, rx);
	return false;
}
