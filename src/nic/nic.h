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
 *   fault.c      faults injected on connections (SOFTDOCA_FAULTS)
 *   stats.c      counters of connections and devices
 *   worker.c     a transport worker shared by the QPs of one PE and device;
 *                message dispatch; watching peer processes
 *   service.c    the thread that progresses workers the application does not
 *
 * Locking: every QP, SRQ and work request belongs to one worker, and all of
 * their state changes under that worker's lock, whichever thread (the
 * application's, inside doca_pe_progress or a submit, or the service
 * thread) does the work. Work requests are completed through their done()
 * callback with the lock held.
 */
#ifndef SDOCA_NIC_NIC_H_
#define SDOCA_NIC_NIC_H_

#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/queue.h>
#include <stdbool.h>
#include <stdint.h>

#include <doca_error.h>
#include <softdoca.h>

#include "core/clock.h"
#include "core/keys.h"
#include "nic/diag_hooks.h"
#include "nic/wire.h"
#include "transport/xport.h"

#define NIC_MAX_SGE 16
#define NIC_MAX_QUEUE 32768
#define NIC_RNR_INFINITE 7
#define NIC_RNR_TIMER_NS 10000000u /* one RNR retry period: 10 ms */

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
	NIC_WR_EVENT_GET = NIC_OP_EVENT_GET,
	NIC_WR_EVENT_SET = NIC_OP_EVENT_SET,
	NIC_WR_EVENT_ADD = NIC_OP_EVENT_ADD,
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
	/* local buffers: source (send, write), destination (read, receive,
	 * sync-event get) or the 8-byte result (atomics, sync-event add) */
	struct xport_iov sge[NIC_MAX_SGE];
	uint32_t num_sge;
	uint64_t length; /* bytes to move (read: what the local side can take) */
	struct sdoca_key rkey;
	uint64_t raddr;
	uint8_t imm[4];
	uint64_t compare_or_add; /* also a sync-event set's value */
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
	STAILQ_ENTRY(nic_wqe) link; /* in its QP's requests in flight, or its SRQ */
	uint8_t hdr[NIC_WIRE_MAX_HDR];
};

STAILQ_HEAD(nic_wqe_list, nic_wqe);

/* A shared receive queue: the receives of one RDMA context, consumed by the
 * sends and writes-with-immediate of all its connections in posting order. */
struct nic_srq {
	struct nic_worker *worker;
	struct nic_wqe_list recvs; /* posted, in posting order */
	uint32_t count;
	uint32_t capacity;
	TAILQ_HEAD(, nic_qp) waiters; /* QPs whose next request waits for a receive */
};

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

SLIST_HEAD(nic_qp_list, nic_qp);

/* --- worker.c --- */

struct nic_worker {
	_Atomic bool lock;             /* see nic_lock() */
	_Atomic uint32_t lock_waiters; /* threads in nic_lock()'s slow path */
	/* The thread holding the lock, 0 when none: set in a debug build only,
	 * for nic_assert_locked() (the field is always there, so every file
	 * agrees on the struct whatever its NDEBUG). */
	_Atomic uintptr_t lock_owner;
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
	 * them, not every QP slot. A QP leaves it when flushed, or when it has
	 * nothing deferred any more and is first (where one connection's QP
	 * always is: the cheapest test). */
	struct nic_qp_list acks;
	/* The service thread sleeps until the transport wakes it (no 1 ms look):
	 * a deferred ACK must wake it, or nobody may send it (lock held to set). */
	_Atomic bool svc_asleep;
	bool losses_pending;         /* a QP's peer.lost is set */
	uint64_t stop_until_ns;      /* an injected stop (fault.c): no progress until then */
	uint64_t stranger_log_ns;    /* when strangers' messages were last logged */
	uint64_t strangers_unlogged; /* ... and how many were dropped since */
	LIST_ENTRY(nic_worker) link; /* in the process's workers */
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
/* Reads every message that has arrived, then acts on peers the transport
 * reported gone and (peers true) on same-host peers whose process exited:
 * a peer's death counts only after what it sent before dying (lock held). */
void nic_worker_settle_losses(struct nic_worker *worker, bool peers);
/* Calls fn for every worker, its lock held (and the list's). */
void nic_workers_visit(void (*fn)(struct nic_worker *w, void *arg), void *arg);
/* --- dispatch.c --- */
/* The transport's receive callback (arg: the worker; its lock held): true
 * if it kept rx. */
bool nic_worker_on_message(void *arg, const void *hdr, size_t hdr_len, struct xport_rx *rx);
/* Hands a message from the QP's peer to the responder or the completer; true
 * if it kept the transport's rx. */
bool nic_worker_dispatch(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx);
/* --- peers.c --- */
/* This kernel and PID namespace (a peer with the same can be watched). */
void nic_host_identity(uint8_t boot_id[16], uint64_t *pidns);
/* Watches a same-host peer's process (pidfd), so its death is noticed at
 * once; and stops watching it. */
void nic_worker_watch_peer(struct nic_qp *qp);
void nic_worker_unwatch_peer(struct nic_qp *qp);

/* The worker lock is held for short stretches (a progress pass, a submit,
 * a connect) by the application and the service thread. A spinlock, because
 * its release is a plain store: a mutex's release is a locked instruction,
 * which waits for the stores before it - the message just written into the
 * peer's shared-memory FIFO (bench/RESULTS.md). A waiter spins a little,
 * then yields the core. */
#ifndef NDEBUG
static inline uintptr_t nic_lock_self(void)
{
	return (uintptr_t)pthread_self();
}
#endif

/* What a function that says "lock held" requires, checked in a debug build
 * (as the kernel's lockdep_assert_held): the calling thread holds the
 * worker's lock. Only the holder stores its own id, and clears it before
 * releasing, so a thread reads its id there only while it holds the lock.
 * Nothing in a release build (NDEBUG): the data path pays nothing. */
#ifndef NDEBUG
/* Says who holds the lock (0: nobody) and where it was required, with a
 * backtrace, and aborts. */
_Noreturn void nic_lock_not_held(const struct nic_worker *w, const char *func, const char *file,
                                 int line);
#define nic_assert_locked(w)                                                               \
	((atomic_load_explicit(&(w)->lock_owner, memory_order_relaxed) == nic_lock_self()) \
	         ? (void)0                                                                 \
	         : nic_lock_not_held((w), __func__, __FILE__, __LINE__))
#else
#define nic_assert_locked(w) ((void)0)
#endif

static inline bool nic_trylock(struct nic_worker *w)
{
	bool taken = !atomic_load_explicit(&w->lock, memory_order_relaxed) &&
	             !atomic_exchange_explicit(&w->lock, true, memory_order_acquire);

#ifndef NDEBUG
	if (taken)
		atomic_store_explicit(&w->lock_owner, nic_lock_self(), memory_order_relaxed);
#endif
	return taken;
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
			sdoca_cpu_relax();
		else
			sched_yield();
	}
	atomic_fetch_sub_explicit(&w->lock_waiters, 1, memory_order_relaxed);
}

static inline void nic_unlock(struct nic_worker *w)
{
#ifndef NDEBUG
	nic_assert_locked(w);
	atomic_store_explicit(&w->lock_owner, 0, memory_order_relaxed);
#endif
	atomic_store_explicit(&w->lock, false, memory_order_release);
}

/* The QP with this wire id, or NULL (lock held). */
static inline struct nic_qp *nic_worker_find_qp(struct nic_worker *worker, uint32_t wire_id)
{
	nic_assert_locked(worker);
	return wire_id < worker->num_qp_slots ? worker->qps[wire_id] : NULL;
}

static inline uint64_t nic_now_ns(void)
{
	return sdoca_now_ns();
}

void nic_service_kick(void);

/* The service thread must look at the worker (a deferred ACK, a lost peer,
 * a new deadline) even if it sleeps: the application may not progress
 * again. Loaded first (set under the lock): no locked op in the common case. */
static inline void nic_worker_wake_service(struct nic_worker *w)
{
	if (atomic_load_explicit(&w->svc_asleep, memory_order_relaxed) &&
	    atomic_exchange(&w->svc_asleep, false))
		nic_service_kick();
}

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
/* Validates connection info from outside (for the fuzzer too). */
doca_error_t nic_conn_info_check(const uint8_t *info, size_t len);

/* --- cm.c: connecting QPs through a listening port, as RDMA-CM does --- */

struct nic_listener;
/* A client's request to connect, until accepted or rejected. */
struct nic_cm_request;
/* A request came (lock held, any thread), with the client's private data
 * (valid during the call) and address. False refuses it at once; true
 * keeps it until nic_qp_accept() or nic_cm_reject(). */
typedef bool (*nic_request_fn)(void *arg, struct nic_cm_request *request, const void *private_data,
                               size_t len, const struct sockaddr *peer, size_t peer_len);

/* Listens on addr (port 0: any free one) of the worker's host. */
doca_error_t nic_listen(struct nic_worker *worker, const struct sockaddr *addr, size_t addr_len,
                        nic_request_fn on_request, void *arg, struct nic_listener **listener);
uint16_t nic_listener_port(const struct nic_listener *listener);
/* Stops listening; requests not answered yet are refused (and freed: the
 * owner must forget them). Lock not held. */
void nic_listener_close(struct nic_listener *listener);
/* Connects a new QP to the requesting client, answering with this side's
 * connection info and private_data. Consumes the request, also on failure
 * (the client then hears a refusal). Lock not held. */
doca_error_t nic_qp_accept(struct nic_qp *qp, struct nic_cm_request *request,
                           const void *private_data, size_t len);
/* Refuses a request and frees it. Lock not held. */
void nic_cm_reject(struct nic_worker *worker, struct nic_cm_request *request);
/* Connects a new QP to the listener at addr, sending private_data; the QP
 * is up (events.up, with the server's private data) when the server
 * accepted, or down (NIC_DOWN_UNREACHED) when it refused, nobody listens,
 * or no answer came within timeout_ms. Lock not held. */
doca_error_t nic_qp_connect_to(struct nic_qp *qp, const struct sockaddr *addr, size_t addr_len,
                               const void *private_data, size_t len, uint32_t timeout_ms);
/* A connecting QP's deadline (lock held). */
void nic_cm_timers(struct nic_qp *qp, uint64_t now_ns, uint64_t *next_ns);
/* The connection data each way: the QP's connection info and the private
 * data. Checks data from outside; points into it. */
doca_error_t nic_cm_data_parse(const uint8_t *data, size_t len, const uint8_t **info,
                               size_t *info_len, const uint8_t **private_data, size_t *private_len);

/* --- srq.c --- */
void nic_srq_init(struct nic_srq *srq, struct nic_worker *worker, uint32_t capacity);
doca_error_t nic_post_recv(struct nic_srq *srq, struct nic_wqe *wqe);
/* A receive that fails when a message consumes it (a bad local key): the
 * message is refused (the requester's request fails, both QPs go to error)
 * and the receive completes with status, as on RC. */
doca_error_t nic_post_recv_refused(struct nic_srq *srq, struct nic_wqe *wqe, doca_error_t status);
void nic_srq_flush(struct nic_srq *srq, doca_error_t status);
/* The oldest posted receive, taken (one must be posted; lock held). */
struct nic_wqe *nic_srq_take(struct nic_srq *srq);
/* The QP's next request waits for a receive / does not any more. */
void nic_srq_wait(struct nic_srq *srq, struct nic_qp *qp);
void nic_srq_leave(struct nic_srq *srq, struct nic_qp *qp);

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

/* --- binding.c --- */
/* Whether a message for qp is its peer's: the connection's secret, over the
 * transport connection to the peer (a load and two compares). */
static inline bool nic_bind_ok(const struct nic_qp *qp, uint64_t secret, const struct xport_rx *rx)
{
	return secret == qp->rx_check && qp->ep && xport_rx_from(rx, qp->ep);
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
/* At connect: the messages kept unread go on if they are the peer's. */
void nic_bind_release(struct nic_qp *qp);

/* --- stats.c --- */
/* to += from, every counter. */
void nic_counters_add(struct softdoca_rdma_counters *to, const struct softdoca_rdma_counters *from);
/* Fills the totals from the arrays they sum. */
void nic_counters_finish(struct softdoca_rdma_counters *c);
/* A QP goes: its device keeps what it counted (lock held). */
void nic_stats_retire(const struct nic_worker *w, const struct softdoca_rdma_counters *c);
/* The counters of every connection the process had on a device. */
void nic_dev_counters(const char *ibdev_name, struct softdoca_rdma_counters *out);

/* The most a collection holds (the counters snapshot's limits, diag.h). */
#define NIC_STATS_MAX_DEVICES 1024u
#define NIC_STATS_MAX_CONNS (1u << 20)
/* Every device's counters and every live connection's, now (the lock of
 * each worker taken in turn); free with nic_stats_free(). */
doca_error_t nic_stats_collect(struct softdoca_process_counters **out);

void nic_stats_free(struct softdoca_process_counters *pc);

/* --- service.c --- */
doca_error_t nic_service_add(struct nic_worker *worker);
void nic_service_remove(struct nic_worker *worker);
/* Keeps the service thread (and so the counters channel) running without a
 * worker: a started DPA context (stats_dpa.h). One release per hold. */
void nic_service_hold(void);
void nic_service_release(void);
/* Peer-process fds (pidfds) in the thread's wait: one firing makes it check
 * every QP's peer (worker.c). */
bool nic_service_watch_fd(int fd);
void nic_service_unwatch_fd(int fd);

#endif /* SDOCA_NIC_NIC_H_ */
