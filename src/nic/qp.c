/*
 * Queue pairs: connection info, connecting, errors and a QP's life.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Queue pairs: the connection info a peer needs, connecting, errors,
 * goodbye, and a QP's life.
 *
 * A QP is INIT after export (requests that arrive already are held), RTS
 * once connected, CLOSED when the peer said goodbye, ERROR after a fatal
 * error. It is freed when its last reference goes (nic_qp_put): the
 * owner's, released by destroy, and one for each request in flight and
 * each transfer of the responder's, so its memory lives until the
 * transport no longer refers to it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/blob.h"
#include "core/bytes.h"
#include "core/sdk_log.h"
#include "nic/capture_hook.h"
#include "nic/nic.h"

SDOCA_LOG_MODULE(qp);

/* Connection info layout (docs/wire.md). */
#define INFO_NODE 0
#define INFO_PID 8
#define INFO_WIRE_ID 12
#define INFO_TOKEN 16
#define INFO_RNR_RETRY 24
#define INFO_WIRE_VERSION 25
#define INFO_ADDR_LEN 28
#define INFO_BOOT_ID 32
#define INFO_PIDNS 48
#define INFO_ADDR 56
#define INFO_MAX_ADDR (NIC_CONN_INFO_MAX - INFO_ADDR)

static uint64_t random_token(void)
{
	uint64_t token = 0;

	while (token == 0)
		if (getrandom(&token, sizeof(token), 0) != (ssize_t)sizeof(token))
			token = (uint64_t)(uintptr_t)&token ^ nic_now_ns();
	return token;
}

/* The first QP number: on InfiniBand, QPs 0 and 1 are the management QPs
 * (SMI, GSI), and a capture (src/diag) of QP 0's traffic would read as
 * management datagrams. */
#define FIRST_QP_NUMBER 2

static doca_error_t take_slot(struct nic_worker *w, struct nic_qp *qp)
{
	uint32_t i;

	for (i = FIRST_QP_NUMBER; i < w->num_qp_slots && w->qps[i]; i++)
		;
	if (i >= w->num_qp_slots) {
		uint32_t n = w->num_qp_slots ? w->num_qp_slots * 2 : 16;
		struct nic_qp **grown = realloc(w->qps, n * sizeof(*grown));

		if (!grown)
			return DOCA_ERROR_NO_MEMORY;
		memset(grown + w->num_qp_slots, 0, (n - w->num_qp_slots) * sizeof(*grown));
		w->qps = grown;
		w->num_qp_slots = n;
	}
	w->qps[i] = qp;
	qp->wire_id = i;
	return DOCA_SUCCESS;
}

doca_error_t nic_qp_create(struct nic_worker *worker, struct nic_srq *srq,
                           const struct nic_qp_attr *attr, void *owner,
                           const struct nic_qp_events *events, struct nic_qp **out)
{
	struct nic_qp *qp = calloc(1, sizeof(*qp));
	doca_error_t status;

	if (!qp)
		return DOCA_ERROR_NO_MEMORY;
	qp->worker = worker;
	qp->srq = srq;
	qp->attr = *attr;
	qp->token = random_token();
	qp->state = NIC_QP_INIT;
	qp->peer.pidfd = -1;
	STAILQ_INIT(&qp->req.inflight);
	STAILQ_INIT(&qp->resp.held);
	STAILQ_INIT(&qp->resp.early);
	STAILQ_INIT(&qp->resp.unverified);
	STAILQ_INIT(&qp->resp.landing);
	LIST_INIT(&qp->resp.moving);
	qp->refs = 1; /* the owner's, until nic_qp_destroy */
	nic_diag->fault_attach(qp, attr->conn_id);
	qp->post_limit = qp->fault ? 0 : attr->send_queue;
	qp->owner = owner;
	qp->events = events;
	nic_lock(worker);
	status = take_slot(worker, qp);
	nic_unlock(worker);
	if (status != DOCA_SUCCESS) {
		if (qp->fault)
			nic_diag->fault_detach(qp);
		free(qp);
		return status;
	}
	*out = qp;
	return DOCA_SUCCESS;
}

size_t nic_qp_info(const struct nic_qp *qp, uint8_t *out, size_t cap)
{
	const void *addr;
	size_t addr_len;
	uint64_t pidns;

	xport_worker_address(qp->worker->xport, &addr, &addr_len);
	if (addr_len > INFO_MAX_ADDR || INFO_ADDR + addr_len > cap)
		return 0;
	memset(out, 0, INFO_ADDR);
	sdoca_put_le64(out + INFO_NODE, sdoca_node_id());
	sdoca_put_le32(out + INFO_PID, (uint32_t)getpid());
	sdoca_put_le32(out + INFO_WIRE_ID, qp->wire_id);
	sdoca_put_le64(out + INFO_TOKEN, qp->token);
	out[INFO_RNR_RETRY] = qp->attr.rnr_retry;
	out[INFO_WIRE_VERSION] = NIC_WIRE_VERSION;
	sdoca_put_le32(out + INFO_ADDR_LEN, (uint32_t)addr_len);
	nic_host_identity(out + INFO_BOOT_ID, &pidns);
	sdoca_put_le64(out + INFO_PIDNS, pidns);
	memcpy(out + INFO_ADDR, addr, addr_len);
	return INFO_ADDR + addr_len;
}

doca_error_t nic_conn_info_check(const uint8_t *info, size_t len)
{
	uint32_t addr_len;

	if (len < INFO_ADDR)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "connection info too short (%zu bytes)",
		                  len);
	addr_len = sdoca_get_le32(info + INFO_ADDR_LEN);
	if (addr_len == 0 || addr_len > INFO_MAX_ADDR || len != INFO_ADDR + (size_t)addr_len)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "connection info of %zu bytes with a %u-byte address", len,
		                  addr_len);
	if (sdoca_get_le64(info + INFO_NODE) == 0 || sdoca_get_le64(info + INFO_TOKEN) == 0)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "connection info without node id or token");
	if (info[INFO_RNR_RETRY] > NIC_RNR_INFINITE)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "connection info with RNR retry count %u", info[INFO_RNR_RETRY]);
	if (info[INFO_WIRE_VERSION] != NIC_WIRE_VERSION)
		return sdoca_fail(
		        DOCA_ERROR_NOT_SUPPORTED,
		        "the peer speaks soft-NIC wire version %u, this side %u (a softdoca "
		        "release without connection binding writes 0)",
		        info[INFO_WIRE_VERSION], NIC_WIRE_VERSION);
	for (int i = INFO_WIRE_VERSION + 1; i < INFO_ADDR_LEN; i++)
		if (info[i] != 0)
			return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
			                  "connection info with reserved bytes set");
	return DOCA_SUCCESS;
}

/* Called inside the transport's progress, maybe before the peer's last
 * messages were read: the loss waits for nic_worker_settle_losses(). */
void nic_qp_ep_error(void *arg, doca_error_t status)
{
	struct nic_qp *qp = arg;

	(void)status;
	qp->peer.lost = true;
	qp->worker->losses_pending = true;
	nic_worker_wake_service(qp->worker);
}

static bool same_host(const uint8_t *info)
{
	uint8_t boot_id[16];
	uint64_t pidns;

	nic_host_identity(boot_id, &pidns);
	return memcmp(boot_id, info + INFO_BOOT_ID, 16) == 0 && pidns != 0 &&
	       pidns == sdoca_get_le64(info + INFO_PIDNS);
}

void nic_qp_ready(struct nic_qp *qp, const uint8_t *info)
{
	struct nic_msg hello = { .opcode = NIC_OP_HELLO };
	bool local = same_host(info);

	nic_assert_locked(qp->worker);
	qp->peer.node = sdoca_get_le64(info + INFO_NODE);
	qp->peer.pid = sdoca_get_le32(info + INFO_PID);
	qp->peer.wire_id = sdoca_get_le32(info + INFO_WIRE_ID);
	qp->peer.token = sdoca_get_le64(info + INFO_TOKEN);
	qp->peer.rnr_retry = info[INFO_RNR_RETRY];
	qp->tx_secret = nic_conn_secret(qp->peer.token, qp->token);
	qp->rx_secret = nic_conn_secret(qp->token, qp->peer.token);
	nic_bind_open_fast_path(qp);
	if (qp->state == NIC_QP_INIT)
		qp->state = NIC_QP_RTS;
	qp->peer.last_heard_ns = nic_now_ns();
	if (local && qp->peer.pid != (uint32_t)getpid())
		nic_worker_watch_peer(qp);
	/* The first message sets the transport lanes up (tens of ms in UCX), so
	 * the first real request does not pay for it. */
	nic_qp_send_control(qp, &hello);
	/* What came before goes on at the worker's next pass, through the
	 * normal dispatch: the peer's requests are held until then (the
	 * responder is not connected yet) and nic_resp_connected decides on
	 * them; a goodbye closes the QP. */
	if (!nic_bind_release(qp))
		nic_resp_connected(qp);
	SDOCA_DBG("QP %u connected to QP %u of pid %u (%s)", qp->wire_id, qp->peer.wire_id,
	          qp->peer.pid, local ? "this host" : "another host");
}

/* A peer on this host that cannot be reached may simply have exited: say
 * so, rather than leave the transport's guess as the only word. */
static void peer_gone_hint(uint32_t pid)
{
	if (pid != 0 && pid <= (uint32_t)INT32_MAX && kill((pid_t)pid, 0) != 0 && errno == ESRCH)
		SDOCA_ERR("the peer, process %u on this host, is gone: it exited after exporting "
		          "its connection",
		          pid);
}

doca_error_t nic_qp_connect(struct nic_qp *qp, const uint8_t *info, size_t len)
{
	struct nic_worker *w = qp->worker;
	doca_error_t status = nic_conn_info_check(info, len);

	if (status != DOCA_SUCCESS)
		return status;
	nic_lock(w);
	if (qp->state != NIC_QP_INIT || qp->cm_connecting) {
		status = sdoca_fail(DOCA_ERROR_BAD_STATE,
		                    "connection is already connected or failed");
		goto out;
	}
	status = xport_ep_create(w->xport, info + INFO_ADDR, len - INFO_ADDR, nic_qp_ep_error, qp,
	                         &qp->ep);
	if (status != DOCA_SUCCESS && same_host(info))
		peer_gone_hint(sdoca_get_le32(info + INFO_PID));
	if (status == DOCA_SUCCESS) {
		nic_qp_ready(qp, info);
		/* The peer may have connected first: its HELLO came already. */
		if (qp->peer.up)
			nic_qp_peer_up(qp);
	}
out:
	nic_unlock(w);
	return status;
}

void nic_qp_peer_up(struct nic_qp *qp)
{
	nic_assert_locked(qp->worker);
	qp->peer.up = true;
	if (qp->told_up || qp->state != NIC_QP_RTS || qp->detached)
		return;
	qp->told_up = true;
	if (qp->events && qp->events->up)
		qp->events->up(qp->owner, NULL, 0);
}

void nic_qp_tell_down(struct nic_qp *qp, enum nic_qp_down why, doca_error_t status)
{
	nic_assert_locked(qp->worker);
	if (qp->told_down || qp->detached)
		return;
	qp->told_down = true;
	if (qp->events && qp->events->down)
		qp->events->down(qp->owner, why, status);
}

/* Control messages: the header lives here until the transport is done with it. */
struct control {
	struct control *next;
	uint8_t hdr[NIC_WIRE_MAX_HDR];
};

static void control_sent(void *arg, doca_error_t status)
{
	(void)status;
	free(arg);
}

void nic_qp_send_control(struct nic_qp *qp, const struct nic_msg *m)
{
	struct nic_msg out = *m;
	uint8_t hdr[NIC_WIRE_MAX_HDR];
	struct control *c;
	size_t len;

	nic_assert_locked(qp->worker);
	if (!qp->ep)
		return;
	if (m->opcode != NIC_OP_ACK)
		nic_ack_flush(qp); /* answers and goodbyes leave in sequence order */
	out.qp = qp->peer.wire_id;
	out.secret = qp->tx_secret;
	len = nic_wire_encode(&out, hdr);
	nic_capture_sent(qp, hdr, len, NULL, 0);
	/* Mostly the transport takes it at once: no copy to keep. */
	if (xport_send_now(qp->ep, hdr, len) != DOCA_ERROR_AGAIN)
		return;
	c = malloc(sizeof(*c));
	if (!c)
		return;
	memcpy(c->hdr, hdr, len);
	if (xport_send(qp->ep, c->hdr, len, NULL, 0, control_sent, c, NULL) !=
	    DOCA_ERROR_IN_PROGRESS)
		free(c);
}

static void close_transport(struct nic_qp *qp, bool force)
{
	struct xport_ep *ep = qp->ep;

	nic_worker_unwatch_peer(qp);
	qp->ep = NULL;
	if (ep) /* a forced close may complete operations (and their callbacks) in it */
		xport_ep_close(ep, force);
}

void nic_qp_free(struct nic_qp *qp)
{
	nic_assert_locked(qp->worker);
	nic_stats_retire(qp->worker, &qp->counters);
	if (qp->fault)
		nic_diag->fault_detach(qp);
	nic_worker_unwatch_peer(qp);
	if (qp->ack.listed)
		SLIST_REMOVE(&qp->worker->acks, qp, nic_qp, ack.link);
	qp->worker->qps[qp->wire_id] = NULL;
	free(qp);
}

void nic_qp_counters(struct nic_qp *qp, struct softdoca_rdma_counters *out)
{
	nic_lock(qp->worker);
	*out = qp->counters;
	out->receive_queue_depth = nic_qp_receive_queue_depth(qp);
	nic_unlock(qp->worker);
	nic_counters_finish(out);
}

void nic_qp_fail(struct nic_qp *qp, doca_error_t status, bool drop_transport, const char *why)
{
	nic_assert_locked(qp->worker);
	if (qp->state == NIC_QP_ERROR) {
		if (drop_transport)
			close_transport(qp, true);
		return;
	}
	SDOCA_WARN("connection QP %u to pid %u failed: %s", qp->wire_id, qp->peer.pid, why);
	nic_qp_get(qp); /* completions and abandoned transfers drop references */
	qp->state = NIC_QP_ERROR;
	qp->error_status = status;
	nic_srq_leave(qp->srq, qp);
	nic_resp_drop_held(qp);
	/* A peer that answered keeps its transport until the QP is destroyed, so a
	 * NAK still reaches it; a lost or hung one loses it now, which also
	 * cancels what the transport still holds. */
	/* Statuses first: closing the transport may complete operations at once. */
	nic_comp_flush(qp, status);
	if (drop_transport) {
		close_transport(qp, true);
		nic_comp_abandon(qp, status);
		nic_resp_abandon(qp);
		nic_comp_flush(qp, status);
	}
	/* A peer the transport lost (its process died, its host went) left,
	 * whatever failed first on the way (a payload cut off). */
	nic_qp_tell_down(qp, qp->peer.left || qp->peer.lost ? NIC_DOWN_PEER_LEFT : NIC_DOWN_ERROR,
	                 status);
	nic_qp_put(qp);
}

void nic_qp_peer_lost(struct nic_qp *qp, const char *how)
{
	char why[96];

	nic_assert_locked(qp->worker);
	if (qp->state == NIC_QP_CLOSED || qp->state == NIC_QP_ERROR) {
		/* It said goodbye before it left: nothing failed. */
		close_transport(qp, true);
		return;
	}
	snprintf(why, sizeof(why), "peer lost: %s", how);
	qp->peer.left = true;
	nic_qp_fail(qp, DOCA_ERROR_CONNECTION_RESET, true, why);
}

void nic_qp_destroy(struct nic_qp *qp, doca_error_t status)
{
	struct nic_worker *w = qp->worker;
	struct nic_msg bye = { .opcode = NIC_OP_DISCONNECT };

	bool busy;

	nic_lock(w);
	qp->detached = true;
	/* Held until the end: a forced close completes the transport's
	 * operations at once, and the last one's callback would free the QP. */
	nic_qp_get(qp);
	nic_srq_leave(qp->srq, qp);
	nic_resp_drop_held(qp);
	/* Like destroying a QP on a NIC: what is in flight is dropped, not awaited
	 * (the peer may hang), and its requests are flushed. */
	busy = !LIST_EMPTY(&qp->resp.moving) || qp->req.num_inflight > 0;
	/* A refusal still waiting for earlier transfers (landing.c) is not
	 * sent: those are dropped, and the peer hears a disconnect instead. */
	if (qp->state == NIC_QP_RTS)
		nic_qp_send_control(qp, &bye);
	nic_comp_flush(qp, status);
	/* Gracefully unless transfers are in flight: a QP in error whose
	 * transport is still open failed on a NAK, and that NAK (or the one it
	 * answered) may still be queued; a forced close dropped it, and the peer
	 * saw a lost connection instead. A lost or hung peer's transport is
	 * closed already. */
	close_transport(qp, busy);
	nic_comp_abandon(qp, status);
	nic_resp_abandon(qp);
	if (qp->state != NIC_QP_ERROR)
		qp->state = NIC_QP_CLOSED;
	nic_comp_flush(qp, status);
	/* destroy's own and the owner's, in one step: the QP is not touched
	 * after the count that may free it. */
	nic_qp_put_n(qp, 2);
	nic_unlock(w);
}
