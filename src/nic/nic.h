/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The soft NIC: reliable-connected queue pairs over the transport.
 *
 *   requester.c  turns work requests into request messages, in sequence
 *   responder.c  the target: checks every request, executes it, answers
 *   completer.c  matches answers to requests, completes them in order
 *   qp.c         queue pairs: connect info, connect, errors, teardown
 *   worker.c     a transport worker shared by the QPs of one PE and device
 *   service.c    the thread that progresses workers the application does not
 *   wire.c       message headers
 *   keys.c       the memory-key table (linked into libdoca_common)
 *
 * Locking: every QP, SRQ and work request belongs to one worker, and all of
 * their state changes under that worker's lock, whichever thread (the
 * application's, inside doca_pe_progress or a submit, or the service
 * thread) does the work. Work requests are completed through their done()
 * callback with the lock held.
 */
#ifndef SDOCA_NIC_NIC_H_
#define SDOCA_NIC_NIC_H_

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <doca_error.h>
#include <softdoca.h>

#include "core/keys.h"
#include "nic/wire.h"
#include "transport/xport.h"

#define NIC_MAX_SGE 16
#define NIC_MAX_QUEUE 32768
#define NIC_RNR_INFINITE 7
#define NIC_RNR_TIMER_NS 10000000u /* one RNR retry period: 10 ms */

#if defined(__x86_64__) || defined(__i386__)
#define nic_cpu_relax() __builtin_ia32_pause()
#else
#define nic_cpu_relax() ((void)0)
#endif

struct doca_dev;
struct doca_pe;
struct nic_worker;
struct nic_qp;
struct nic_srq;
struct nic_landing;

/* A work request's operation: a request's opcode (what it sends), or a
 * receive. */
enum nic_wr_op {
	NIC_WR_RECV = 0,
	NIC_WR_WRITE = NIC_OP_WRITE,
	NIC_WR_WRITE_IMM = NIC_OP_WRITE_IMM,
	NIC_WR_SEND = NIC_OP_SEND,
	NIC_WR_SEND_IMM = NIC_OP_SEND_IMM,
	NIC_WR_READ = NIC_OP_READ,
	NIC_WR_ATOMIC_FA = NIC_OP_ATOMIC_FA,
	NIC_WR_ATOMIC_CS = NIC_OP_ATOMIC_CS,
};

struct nic_wqe;

/* A transport operation of a work request (its send, or a read's data
 * landing), which a failing QP can abandon. */
struct nic_xslot {
	struct nic_wqe *wqe;
	struct xport_op *op;
	bool busy;
	bool incoming; /* a read's data landing (else the request's own send) */
};

/* A work request, embedded in the task that posts it. */
struct nic_wqe {
	enum nic_wr_op op;
	/* local buffers: source (send, write), destination (read, receive) or
	 * the 8-byte result (atomics) */
	struct xport_iov sge[NIC_MAX_SGE];
	uint32_t num_sge;
	uint64_t length; /* bytes to move (read: what the local side can take) */
	struct sdoca_key rkey;
	uint64_t raddr;
	uint8_t imm[4];
	uint64_t compare_or_add;
	uint64_t swap;
	/* called once, with the worker lock held, when the request is over */
	void (*done)(struct nic_wqe *wqe, doca_error_t status);
	/* results */
	uint64_t result_len;
	enum nic_recv_kind result_kind;
	uint8_t result_imm[4];
	struct nic_qp *result_qp;
	/* soft-NIC bookkeeping */
	struct nic_qp *qp;
	uint32_t seq;
	uint8_t outstanding; /* transport operations still referring to this request */
	struct nic_xslot xslot[2];
	bool answered;
	doca_error_t status;
	struct nic_wqe *next;
	uint8_t hdr[NIC_WIRE_MAX_HDR];
};

/* A shared receive queue: the receives of one RDMA context, consumed by the
 * sends and writes-with-immediate of all its connections in posting order. */
struct nic_srq {
	struct nic_worker *worker;
	struct nic_wqe *head;
	struct nic_wqe *tail;
	uint32_t count;
	uint32_t capacity;
	struct nic_qp *waiters; /* QPs whose next request waits for a receive */
};

enum nic_qp_state {
	NIC_QP_INIT,   /* exported; the peer is not known yet */
	NIC_QP_RTS,    /* connected */
	NIC_QP_CLOSED, /* the peer disconnected on purpose */
	NIC_QP_ERROR,
};

/* What a QP tells its owner (the RDMA connection). Called with the lock held. */
struct nic_qp_events {
	/* A fatal error: the context goes to STOPPING, as on hardware. */
	void (*fatal)(void *owner, doca_error_t status);
};

struct nic_qp_attr {
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

/* A request the responder keeps until it can execute it. */
struct nic_held {
	struct nic_msg msg;
	struct xport_rx rx;
	struct nic_held *next;
};

struct nic_qp {
	struct nic_worker *worker;
	struct nic_srq *srq;
	struct nic_qp_attr attr;
	uint32_t wire_id;
	uint64_t token;
	enum nic_qp_state state;
	doca_error_t error_status; /* what flushes requests once in NIC_QP_ERROR */
	struct xport_ep *ep;
	/* the peer */
	uint32_t peer_wire_id;
	uint64_t peer_token;
	uint64_t peer_node;
	uint32_t peer_pid;
	uint8_t peer_rnr_retry;
	int pidfd;
	/* requester */
	uint32_t next_seq;
	struct nic_wqe *inflight_head;
	struct nic_wqe *inflight_tail;
	uint32_t num_inflight;
	/* The peer refused request nak_seq: the connection fails once every
	 * request up to it has completed (completer.c). */
	bool nak_pending;
	uint32_t nak_seq;
	uint64_t last_heard_ns;
	/* The peer has connected its side (its first message came): until then
	 * requests wait for it as for a receive (RNR), not for a timeout. */
	bool peer_up;
	/* The transport reported the peer gone: acted on once every message the
	 * peer sent before has been read (nic_worker_settle_losses). */
	bool lost_pending;
	/* Heard from the peer (or a request started waiting) since the last timer
	 * look, which then sets last_heard_ns: no clock read per message. The
	 * timeout may so start up to one look (~1 ms) late, never early. */
	bool heard;
	/* responder */
	uint32_t expected_seq;
	struct nic_held *held_head;
	struct nic_held *held_tail;
	uint32_t num_held;
	struct nic_held *early; /* requests that came before their turn, by sequence */
	/* A refused request whose NAK waits for the transfers before it
	 * (responder.c): why (the responder's error class; 0 while none waits),
	 * and which. Later requests are dropped meanwhile. */
	uint8_t refusal;
	uint32_t refusal_seq;
	bool ack_pending; /* requests up to ack_seq are done, not yet acknowledged */
	uint32_t ack_seq;
	/* A piggybacked ACK of this side's requests up to acked_seq, not applied
	 * yet (completer.c: applied after this side's next request leaves, or at
	 * the next progress; before anything else touches the requests). */
	bool acked_pending;
	uint32_t acked_seq;
	/* on worker->ack_list (ack_pending and acked_pending may be cleared since) */
	bool on_ack_list;
	struct nic_qp *ack_next;
	uint32_t placing; /* payloads landing (or landed, not yet acknowledged in order) */
	struct nic_landing *placing_head, *placing_tail; /* ... in sequence order */
	uint64_t read_bytes_leaving;  /* bytes of read responses the transport still sends */
	uint32_t reads_leaving;       /* read responses the transport still sends */
	struct nic_landing *landings; /* responder transport operations in flight */
	bool waiting_recv;            /* on srq->waiters */
	struct nic_qp *next_waiter;
	uint64_t rnr_since_ns;
	uint64_t rnr_notice_ns;
	uint64_t unconnected_since_ns; /* requests held before connect since then */
	struct softdoca_rdma_counters counters;
	/* life */
	uint32_t outstanding; /* responder transport operations referring to the QP */
	bool detached;        /* the owner is gone: free once nothing refers to it */
	void *owner;
	const struct nic_qp_events *events;
};

/* --- worker.c --- */

struct nic_worker {
	_Atomic bool lock;             /* see nic_lock() */
	_Atomic uint32_t lock_waiters; /* threads in nic_lock()'s slow path */
	struct xport_worker *xport;
	struct doca_pe *pe;
	struct doca_dev *dev;
	unsigned int refs;
	struct nic_qp **qps; /* by wire id */
	uint32_t num_qp_slots;
	/* service thread hand-off */
	_Atomic uint64_t app_polls; /* bumped by every application progress */
	uint64_t polls_seen;
	bool fd_watched;           /* the service thread's epoll reports the worker's fd */
	uint32_t spin_ns;          /* how long the service thread polls on after traffic */
	uint32_t spins_skipped;    /* ... serves without it since it decayed to nothing */
	_Atomic bool app_sleeping; /* the application armed its PE and waits */
	/* QPs that deferred an ACK since the last flush: a flush visits only
	 * them, not every QP slot (140 instructions per message with 32 slots). */
	struct nic_qp *ack_list;
	/* The service thread sleeps until the transport wakes it (no 1 ms look):
	 * a deferred ACK must wake it, or nobody may send it (lock held to set). */
	_Atomic bool svc_asleep;
	bool losses_pending; /* a QP has lost_pending set */
	struct nic_worker *next;
};

doca_error_t nic_worker_get(struct doca_pe *pe, struct doca_dev *dev, struct nic_worker **worker);
void nic_worker_put(struct nic_worker *worker);
/* The application's progress: never waits for the lock. True if anything happened. */
bool nic_worker_progress(struct nic_worker *worker);
/* The application is about to sleep on its PE: the service thread takes over. */
void nic_worker_app_sleeps(struct nic_worker *worker);
/* Runs time-based work (timeouts, RNR notices); lock held. Returns the next
 * deadline in ns (UINT64_MAX when none). */
uint64_t nic_worker_timers(struct nic_worker *worker, uint64_t now_ns);
/* Sends every deferred ACK of the worker's QPs (lock held). */
void nic_worker_flush_acks(struct nic_worker *worker);
/* The QP has an ACK to send or to apply: the next flush visits it (lock held). */
void nic_worker_list_acks(struct nic_qp *qp);
/* The QP has neither any more: off the flush list if that is cheap (lock held). */
void nic_worker_unlist_acks(struct nic_qp *qp);
/* Reads every message that has arrived, then acts on peers the transport
 * reported gone and (peers true) on same-host peers whose process exited:
 * a peer's death counts only after what it sent before dying (lock held). */
void nic_worker_settle_losses(struct nic_worker *worker, bool peers);
/* The QP with this wire id and token, or NULL (lock held). */
struct nic_qp *nic_worker_find_qp(struct nic_worker *worker, uint32_t wire_id, uint64_t token);

/* The worker lock is held for short stretches (a progress pass, a submit,
 * a connect) by the application and the service thread. A spinlock, because
 * its release is a plain store: a mutex's release is a locked instruction,
 * which waits for the stores before it - the message just written into the
 * peer's shared-memory FIFO (17% of a sending loop's time, measured). A
 * waiter spins a little, then yields the core. */
static inline bool nic_trylock(struct nic_worker *w)
{
	return !atomic_load_explicit(&w->lock, memory_order_relaxed) &&
	       !atomic_exchange_explicit(&w->lock, true, memory_order_acquire);
}

static inline void nic_lock(struct nic_worker *w)
{
	if (nic_trylock(w))
		return;
	/* Counted, so that the service thread polling with short gaps in the
	 * lock lets a waiter in (service.c). */
	atomic_fetch_add_explicit(&w->lock_waiters, 1, memory_order_relaxed);
	for (unsigned int spins = 0; !nic_trylock(w); spins++) {
		if (spins < 64)
			nic_cpu_relax();
		else
			sched_yield();
	}
	atomic_fetch_sub_explicit(&w->lock_waiters, 1, memory_order_relaxed);
}

static inline void nic_unlock(struct nic_worker *w)
{
	atomic_store_explicit(&w->lock, false, memory_order_release);
}

uint64_t nic_now_ns(void);

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
/* A transport operation of the responder referring to the QP started/ended. */
void nic_qp_hold(struct nic_qp *qp);
void nic_qp_release(struct nic_qp *qp);
/* Frees a detached QP once nothing refers to it any more. */
void nic_qp_maybe_free(struct nic_qp *qp);
/* Validates connection info from outside (for the fuzzer too). */
doca_error_t nic_conn_info_check(const uint8_t *info, size_t len);

/* --- srq --- */
void nic_srq_init(struct nic_srq *srq, struct nic_worker *worker, uint32_t capacity);
doca_error_t nic_post_recv(struct nic_srq *srq, struct nic_wqe *wqe);
void nic_srq_flush(struct nic_srq *srq, doca_error_t status);

/* --- requester.c --- */
doca_error_t nic_post_send(struct nic_qp *qp, struct nic_wqe *wqe);

/* --- responder.c --- */
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
/* Sends the QP's deferred ACK, if it has one (lock held). */
void nic_resp_flush_ack(struct nic_qp *qp);
/* Takes the QP's deferred ACK to piggyback it on a request: true, and *seq,
 * if there was one. */
bool nic_resp_take_ack(struct nic_qp *qp, uint32_t *seq);
/* Defers an ACK of every request up to seq (lock held): it leaves with the
 * next request or answer, or at the next progress or service-thread look. */
void nic_resp_defer_ack(struct nic_qp *qp, uint32_t seq);

/* --- completer.c --- */
bool nic_comp_reply(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx);
/* The peer acknowledged every request up to seq (cumulative, as RC ACKs are). */
void nic_comp_ack(struct nic_qp *qp, uint32_t seq);
/* A piggybacked ACK up to seq, applied later by nic_comp_settle(). */
void nic_comp_defer_ack(struct nic_qp *qp, uint32_t seq);
/* Applies a deferred piggybacked ACK, if there is one (lock held). */
void nic_comp_settle(struct nic_qp *qp);
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
void nic_comp_timers(struct nic_qp *qp, uint64_t now_ns, uint64_t *next_ns);
/* The status a requester reports for a responder's syndrome. */
doca_error_t nic_syndrome_status(uint32_t syndrome);

/* --- service.c --- */
doca_error_t nic_service_add(struct nic_worker *worker);
void nic_service_remove(struct nic_worker *worker);
void nic_service_watch_pid(struct nic_qp *qp);
void nic_service_unwatch_pid(struct nic_qp *qp);
void nic_service_kick(void);

#endif /* SDOCA_NIC_NIC_H_ */
