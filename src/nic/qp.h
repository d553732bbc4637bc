/*
 * Queue pairs: state, life, and the binding to their peer.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * A queue pair: its state, its peer, its requester's, responder's and
 * acknowledgements' state, its life (qp.c: connect, errors, references,
 * teardown), and the binding that lets only its peer's messages in
 * (binding.c).
 */
#ifndef SDOCA_NIC_QP_H_
#define SDOCA_NIC_QP_H_

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>

#include <doca_error.h>
#include <softdoca.h>

#include "nic/wqe.h"
#include "nic/worker.h"

struct nic_landing;

#define NIC_MAX_QUEUE 32768
#define NIC_RNR_INFINITE 7
#define NIC_RNR_TIMER_NS 10000000u /* one RNR retry period: 10 ms */

enum nic_qp_state {
	NIC_QP_INIT,   /* exported; the peer is not known yet */
	NIC_QP_RTS,    /* connected */
	NIC_QP_CLOSED, /* the peer disconnected on purpose */
	NIC_QP_ERROR,
};

/* Why a QP went down (nic_qp_events.down). */
enum nic_qp_down {
	NIC_DOWN_UNREACHED, /* connecting through a listener failed: refused,
	                     * unreachable, timed out, or a bad answer */
	NIC_DOWN_PEER_LEFT, /* the peer disconnected, or its process went away */
	NIC_DOWN_ERROR,     /* an error on the connection: a refused request, no
	                     * answer in time, a malformed message */
};

/* What a QP tells its owner (the RDMA connection), each at most once, with
 * the worker lock held, from any thread; never after nic_qp_destroy(). */
struct nic_qp_events {
	/* Connected both ways: the peer's first message came, or (connecting
	 * through a listener) the server accepted, with its private data. */
	void (*up)(void *owner, const void *private_data, size_t len);
	/* Down: status is what its requests in flight failed with, or
	 * DOCA_SUCCESS if none did (a peer that left while nothing was in
	 * flight). */
	void (*down)(void *owner, enum nic_qp_down why, doca_error_t status);
};

struct nic_qp_attr {
	uint32_t conn_id;    /* the connection's id (doca_rdma_connection_get_id) */
	uint32_t access;     /* remote operations this side allows */
	uint32_t send_queue; /* requests in flight at most */
	uint8_t rnr_retry;   /* this side's RNR retry count (7 = forever) */
	uint32_t timeout_ms; /* no answer for this long: the request fails */
};

/* Whether sequence number a comes after b (they wrap around). */
static inline bool nic_seq_after(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) > 0;
}

/* A request the responder keeps until it can execute it (or a message that
 * came before this side connected, unread until it knows the peer). */
struct nic_held {
	struct nic_msg msg;
	struct xport_rx rx;
	uint64_t arrived_ns; /* unverified only */
	STAILQ_ENTRY(nic_held) link;
};

STAILQ_HEAD(nic_held_list, nic_held);

/* A copy of m and its payload that outlives the transport's callback
 * (xport_rx_hold), or NULL (no memory): rx is then still the caller's
 * (resp_queue.c). */
struct nic_held *nic_held_new(const struct nic_msg *m, struct xport_rx *rx);

STAILQ_HEAD(nic_landing_queue, nic_landing);
LIST_HEAD(nic_landing_set, nic_landing);

/* The other end of a QP. */
struct nic_peer {
	uint32_t wire_id;
	uint64_t token;
	uint64_t node;
	uint32_t pid;
	uint8_t rnr_retry;
	int pidfd; /* a same-host peer's process, watched (worker.c); else -1 */
	/* It has connected its side (its first message came): until then
	 * requests wait for it as for a receive (RNR), not for a timeout. */
	bool up;
	/* It disconnected or its process went away (it did not fail). */
	bool left;
	/* The transport reported it gone: acted on once every message it sent
	 * before has been read (nic_worker_settle_losses). */
	bool lost;
	/* Heard from it (or a request started waiting) since the last timer
	 * look, which then sets last_heard_ns: no clock read per message. The
	 * timeout may so start up to one look (~1 ms) late, never early. */
	bool heard;
	uint64_t last_heard_ns;
};

/* Requester and completer: this side's requests. */
struct nic_req {
	uint32_t next_seq;
	struct nic_wqe_list inflight; /* in sequence order */
	uint32_t num_inflight;
	/* The peer refused request nak_seq: the connection fails once every
	 * request up to it has completed (completer.c). */
	bool nak_pending;
	uint32_t nak_seq;
	/* This side refused request refused_seq before sending it
	 * (nic_post_send_refused): later posts are flushed behind it, and the
	 * connection fails once it completed (completer.c). */
	bool refused;
	uint32_t refused_seq;
};

/* Responder: the peer's requests. */
struct nic_resp {
	uint32_t expected_seq;
	struct nic_held_list held;  /* their turn came; waiting to run (resp_queue.c) */
	struct nic_held_list early; /* came before their turn, by sequence */
	uint32_t num_held;          /* in both */
	/* Messages that came before this side connected (binding.c). */
	struct nic_held_list unverified;
	uint32_t num_unverified;
	/* Connected with messages in unverified: they, and what the peer sends
	 * meanwhile, wait there for the worker's next pass, which hands them to
	 * the normal dispatch (nic_bind_release_due). */
	bool releasing;
	/* The peer's requests run (nic_resp_connected); until then they are
	 * held, as for a receive (RNR). */
	bool connected;
	/* A refused request whose NAK waits for the transfers before it
	 * (landing.c): why (the responder's error class; 0 while none waits),
	 * and which. Later requests are dropped meanwhile. */
	uint8_t refusal;
	uint32_t refusal_seq;
	uint32_t placing;                 /* payloads landing, or landed and not yet in order */
	struct nic_landing_queue landing; /* ... in sequence order */
	struct nic_landing_set moving;    /* every transfer in flight (landing and leaving) */
	uint64_t read_bytes_leaving;      /* bytes of read responses the transport still sends */
	uint32_t reads_leaving;           /* read responses the transport still sends */
	bool waiting_recv;                /* on srq->waiters */
	TAILQ_ENTRY(nic_qp) waiter;
	uint64_t rnr_since_ns;
	uint64_t rnr_notice_ns;
	uint64_t unconnected_since_ns; /* requests held before connect since then */
};

/* Coalesced acknowledgements, both ways (ack.c). */
struct nic_ack {
	/* The peer's requests up to seq are done, not yet acknowledged. */
	bool pending;
	uint32_t seq;
	/* An ACK of this side's requests up to peer_seq rode on a request of the
	 * peer's and is not applied yet: after this side's next request leaves,
	 * or at the next progress, and before anything else touches the
	 * requests. */
	bool peer_pending;
	uint32_t peer_seq;
	bool listed; /* on worker->acks (pending and peer_pending may be clear since) */
	SLIST_ENTRY(nic_qp) link;
};

struct nic_qp {
	struct nic_worker *worker;
	struct nic_srq *srq;
	struct nic_qp_attr attr;
	uint32_t wire_id;
	uint64_t token; /* this side's, in its connection blob */
	/* The connection's secrets (binding.c), once connected: what the peer's
	 * messages carry, and what this side's carry. */
	uint64_t rx_secret;
	uint64_t tx_secret;
	/* What the data path compares a message's secret with: rx_secret, or
	 * never a match when the QP has faults (every message then takes the
	 * slow path, which looks at them: no test of its own per message). */
	uint64_t rx_check;
	/* nic_post_send's queue limit: attr.send_queue, or 0 when the QP has
	 * faults (every post takes the slow path, likewise). */
	uint32_t post_limit;
	enum nic_qp_state state;
	doca_error_t error_status; /* what flushes requests once in NIC_QP_ERROR */
	struct xport_ep *ep;
	struct nic_peer peer;
	struct nic_req req;
	struct nic_resp resp;
	struct nic_ack ack;
	struct softdoca_rdma_counters counters;
	/* The owner heard of it (nic_qp_events), each once. */
	bool told_up;
	bool told_down;
	/* Connecting through a listener (cm.c): the server's answer is awaited
	 * until the deadline. */
	bool cm_connecting;
	uint64_t cm_deadline_ns;
	struct nic_fault *fault; /* faults injected here (fault.c); NULL: none */
	/* Life (nic_qp_get/put): one reference for the owner until destroy, one
	 * for each request in flight and each transfer of the responder's; the
	 * QP is freed when the last goes. */
	uint32_t refs;
	bool detached; /* the owner destroyed it */
	void *owner;
	const struct nic_qp_events *events;
};

/* --- qp.c --- */

/* Connection info: what the peer needs to reach this QP (see docs/wire.md). */
#define NIC_CONN_INFO_MAX 3072

doca_error_t nic_qp_create(struct nic_worker *worker, struct nic_srq *srq,
                           const struct nic_qp_attr *attr, void *owner,
                           const struct nic_qp_events *events, struct nic_qp **qp);
/* Writes this QP's connection info; returns its size. */
size_t nic_qp_info(const struct nic_qp *qp, uint8_t *out, size_t cap);
/* Connects to the peer described by its connection info (validated here). */
doca_error_t nic_qp_connect(struct nic_qp *qp, const uint8_t *info, size_t len);
/* The QP's transport endpoint to its peer is open: takes the peer from its
 * connection info (checked) and goes to RTS (lock held). */
void nic_qp_ready(struct nic_qp *qp, const uint8_t *info);
/* The transport's error callback of a QP's endpoint (arg is the QP). */
void nic_qp_ep_error(void *arg, doca_error_t status);
/* The peer's first message came: the QP may be up (lock held). */
void nic_qp_peer_up(struct nic_qp *qp);
/* Tells the owner the QP is down, once (lock held). */
void nic_qp_tell_down(struct nic_qp *qp, enum nic_qp_down why, doca_error_t status);
/* Ends the QP: flushes what is in flight with status, says goodbye to a
 * connected peer, and frees the QP once the transport let go of it. */
void nic_qp_destroy(struct nic_qp *qp, doca_error_t status);
/* Moves the QP to error: fails the requests in flight with status and tells
 * the owner. drop_transport closes the connection at once (peer lost or
 * hung); otherwise it stays until destroy, so a NAK still gets through. */
void nic_qp_fail(struct nic_qp *qp, doca_error_t status, bool drop_transport, const char *why);
/* The peer's process is gone (same-host watch) or the transport saw it go. */
void nic_qp_peer_lost(struct nic_qp *qp, const char *how);
/* Sends a header-only control or reply message. */
void nic_qp_send_control(struct nic_qp *qp, const struct nic_msg *m);
/* A reference to the QP taken and dropped (lock held); the last frees it. */
void nic_qp_free(struct nic_qp *qp);
static inline void nic_qp_get(struct nic_qp *qp)
{
	nic_assert_locked(qp->worker);
	qp->refs++;
}
static inline void nic_qp_put_n(struct nic_qp *qp, uint32_t n)
{
	nic_assert_locked(qp->worker);
	assert(qp->refs >= n);
	qp->refs -= n;
	if (qp->refs == 0)
		nic_qp_free(qp);
}
static inline void nic_qp_put(struct nic_qp *qp)
{
	nic_qp_put_n(qp, 1);
}
/* The connection that owns the QP, or NULL once it destroyed the QP. */
static inline void *nic_qp_owner(const struct nic_qp *qp)
{
	return qp->detached ? NULL : qp->owner;
}
/* A copy of the QP's counters (takes the lock). */
void nic_qp_counters(struct nic_qp *qp, struct softdoca_rdma_counters *out);
/* Receives its owner posted and no message took yet (lock held): the
 * receive queue's depth, which a copy of the counters reports. An owner
 * that destroyed the QP took its queue with it. */
static inline uint64_t nic_qp_receive_queue_depth(const struct nic_qp *qp)
{
	return !qp->detached && qp->srq ? qp->srq->count : 0;
}
/* Validates connection info from outside (for the fuzzer too). */
doca_error_t nic_conn_info_check(const uint8_t *info, size_t len);

/* --- binding.c --- */
/* Whether a message for qp is its peer's: the connection's secret, over the
 * transport connection to the peer (a load and two compares). */
static inline bool nic_bind_ok(const struct nic_qp *qp, uint64_t secret, const struct xport_rx *rx)
{
	return secret == qp->rx_check && qp->ep && xport_rx_from(rx, qp->ep);
}
/* The peer's messages take the fast path from now on, unless the QP has
 * faults, whose messages take the slow path (nic_bind_refuse) on purpose. */
static inline void nic_bind_open_fast_path(struct nic_qp *qp)
{
	qp->rx_check = qp->fault ? ~qp->rx_secret : qp->rx_secret;
}
/* The same, whatever the QP's faults (slow paths). */
static inline bool nic_bind_peer(const struct nic_qp *qp, uint64_t secret,
                                 const struct xport_rx *rx)
{
	return secret == qp->rx_secret && qp->ep && xport_rx_from(rx, qp->ep);
}
/* A message that is not (yet) known to be the peer's: a QP with faults
 * looks at it (fault.c) if it is; kept unread before this side connects
 * (true: rx kept); else dropped and counted. */
bool nic_bind_refuse(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx);
/* At connect: the messages kept unread go on, if they are the peer's, at
 * the worker's next pass (nic_bind_release_due), where every message enters
 * the responder; false (nothing to wait for) if there are none. */
bool nic_bind_release(struct nic_qp *qp);
/* The worker's pass: hands the released messages of its QPs to dispatch,
 * then lets their responders run (lock held). */
void nic_bind_release_due(struct nic_worker *w);

#endif /* SDOCA_NIC_QP_H_ */
