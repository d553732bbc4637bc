/*
 * The soft NIC: reliable-connected queue pairs over the transport.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 *   wire.c       message headers and the opcode table (every opcode's traits)
 *   requester.c  turns work requests into request messages, in sequence
 *   responder.c  the target: checks every request and executes it
 *   resp_queue.c ... in sequence: requests held for their turn, a receive
 *                (RNR) or the connection; the RNR timers
 *   landing.c    ... payloads still landing, read responses still leaving,
 *                and a refusal (NAK) that waits for them
 *   ack.c        coalesced acknowledgements, sent and received
 *   completer.c  matches answers to requests, completes them in order
 *   srq.c        the shared receive queue of an RDMA context
 *   qp.c         queue pairs: connect info, connect, errors, life, teardown
 *   binding.c    a connection reads only its peer's messages (secret, sender)
 *   stats.c      counters of connections and devices
 *   worker.c     a transport worker shared by the QPs of one PE and device
 *   dispatch.c   arriving messages: decoded, handed to their QP
 *   peers.c      this host's identity; watching peer processes
 *   service.c    the thread that progresses workers the application does not
 *   diag_hooks.c the hooks of diagnostics (src/diag: faults, counters channel)
 *
 * The objects have their headers (wqe.h, qp.h, worker.h, cm.h, stats.h);
 * this one includes them all and declares the request path: requester,
 * responder, acknowledgements, completer.
 *
 * Locking: every QP, SRQ and work request belongs to one worker, and all of
 * their state changes under that worker's lock, whichever thread (the
 * application's, inside doca_pe_progress or a submit, or the service
 * thread) does the work. Work requests are completed through their done()
 * callback with the lock held.
 */
#ifndef SDOCA_NIC_NIC_H_
#define SDOCA_NIC_NIC_H_

#include <stdbool.h>
#include <stdint.h>

#include <doca_error.h>

#include "nic/cm.h"
#include "nic/diag_hooks.h"
#include "nic/qp.h"
#include "nic/stats.h"
#include "nic/wire.h"
#include "nic/worker.h"
#include "nic/wqe.h"
#include "transport/xport.h"

/* --- requester.c --- */
doca_error_t nic_post_send(struct nic_qp *qp, struct nic_wqe *wqe);
/* A work request this side refuses without sending it (a bad local or
 * remote key, a range outside it: the DPA data path's bad post), as a local
 * protection error on RC: it takes its place in order, completes with
 * status (never DOCA_SUCCESS) once the requests before it completed, and
 * the QP then goes to error; requests posted after it are flushed. On a QP
 * in error it is flushed like any post. Fails as nic_post_send does when
 * the QP is not connected or closed (nothing taken). */
doca_error_t nic_post_send_refused(struct nic_qp *qp, struct nic_wqe *wqe, doca_error_t status,
                                   const char *why);

/* --- responder.c, resp_queue.c, landing.c (see resp.h for their insides) --- */
/* A request from the peer (lock held); true if the transport's rx was kept. */
bool nic_resp_request(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx);
/* Executes held requests that can run now (after connect, a receive, a landing). */
void nic_resp_drain(struct nic_qp *qp);
/* The QP just connected: runs what arrived before, or refuses it when the
 * requester has given up on it meanwhile. */
void nic_resp_connected(struct nic_qp *qp);
void nic_resp_drop_held(struct nic_qp *qp);
void nic_resp_timers(struct nic_qp *qp, uint64_t now_ns, uint64_t *next_ns);
/* Gives up the responder's transport operations (peer lost or hung). */
void nic_resp_abandon(struct nic_qp *qp);

/* --- ack.c (the fast paths inline: every message passes them) --- */
/* Puts the QP on its worker's list of QPs with deferred ACKs and makes sure
 * the service thread will look. */
void nic_ack_list(struct nic_qp *qp);
/* Sends the QP's deferred ACK, if it has one. */
void nic_ack_flush(struct nic_qp *qp);
/* Sends and applies every deferred ACK of the worker's QPs. */
void nic_ack_flush_all(struct nic_worker *worker);
/* The peer acknowledged every request up to seq (completer.c). */
void nic_comp_ack(struct nic_qp *qp, uint32_t seq);

/* Defers an ACK of every request of the peer's up to seq: it leaves with the
 * next request or answer, or at the next progress or service-thread look. */
static inline void nic_ack_defer(struct nic_qp *qp, uint32_t seq)
{
	nic_assert_locked(qp->worker);
	qp->ack.pending = true;
	qp->ack.seq = seq;
	nic_ack_list(qp);
}

/* Off the worker's list if it has nothing deferred any more and that is
 * cheap (it is first). */
static inline void nic_ack_unlist(struct nic_qp *qp)
{
	if (SLIST_FIRST(&qp->worker->acks) == qp && !qp->ack.pending && !qp->ack.peer_pending) {
		SLIST_REMOVE_HEAD(&qp->worker->acks, ack.link);
		qp->ack.listed = false;
	}
}

/* Takes the deferred ACK to piggyback it on a request: true, and *seq, if
 * there was one. */
static inline bool nic_ack_take(struct nic_qp *qp, uint32_t *seq)
{
	nic_assert_locked(qp->worker);
	if (!qp->ack.pending)
		return false;
	qp->ack.pending = false;
	*seq = qp->ack.seq;
	nic_ack_unlist(qp);
	return true;
}

/* The peer acknowledged this side's requests up to seq on a request of its
 * own: applied later by nic_ack_settle(). */
static inline void nic_ack_defer_peer(struct nic_qp *qp, uint32_t seq)
{
	if (!qp->ack.peer_pending || nic_seq_after(seq, qp->ack.peer_seq))
		qp->ack.peer_seq = seq;
	qp->ack.peer_pending = true;
	nic_ack_list(qp);
}

/* Applies a deferred piggybacked ACK, if there is one. */
static inline void nic_ack_settle(struct nic_qp *qp)
{
	if (!qp->ack.peer_pending)
		return;
	qp->ack.peer_pending = false;
	nic_comp_ack(qp, qp->ack.peer_seq);
}

/* --- completer.c --- */
bool nic_comp_reply(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx);
/* A free transport slot of a request (counted as outstanding). */
struct nic_xslot *nic_comp_slot(struct nic_wqe *wqe);
/* The operation of a slot finished at once. */
void nic_comp_slot_done(struct nic_xslot *slot);
/* The transport finished an operation of a request (an xport_done_fn; arg is the slot). */
void nic_comp_sent(void *slot, doca_error_t status);
/* Gives up the requester's transport operations (peer lost or hung); a
 * read whose data had not landed fails with status. */
void nic_comp_abandon(struct nic_qp *qp, doca_error_t status);
void nic_comp_flush(struct nic_qp *qp, doca_error_t status);
/* Completes the requests at the head that are over (a refused one, and
 * what was flushed behind it). */
void nic_comp_flush_done(struct nic_qp *qp);
void nic_comp_timers(struct nic_qp *qp, uint64_t now_ns, uint64_t *next_ns);
/* The peer stays silent past the retries: the oldest request fails with
 * TIME_OUT and the connection breaks (the timeout; an injected break). */
void nic_comp_give_up(struct nic_qp *qp, const char *why);
/* A read response whose data is not placed, the read completed as if it
 * had been (an injected fault for testing data checks); false, and nothing
 * done, when it answers no read in flight. */
bool nic_comp_read_empty(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx);
/* The status a requester reports for a responder's syndrome. */
doca_error_t nic_syndrome_status(uint32_t syndrome);

#endif /* SDOCA_NIC_NIC_H_ */
