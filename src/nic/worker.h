/*
 * The soft NIC's workers, their lock and the service thread.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * A worker: one transport worker per (progress engine, device), shared by
 * every QP of the contexts on that PE, and the lock under which all of
 * their state changes (worker.c, dispatch.c, peers.c); the service thread
 * that progresses workers the application leaves (service.c).
 */
#ifndef SDOCA_NIC_WORKER_H_
#define SDOCA_NIC_WORKER_H_

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>

#include <doca_error.h>

#include "core/clock.h"

struct doca_dev;
struct doca_pe;
struct nic_msg;
struct nic_qp;
struct xport_rx;
struct xport_worker;

SLIST_HEAD(nic_qp_list, nic_qp);

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
	bool releases_pending;       /* a QP's resp.releasing is set */
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
/* What a service pass looks at besides the transport, if anything waits:
 * messages released at connect, lost peers and (peers true) exited peers
 * (lock held). */
void nic_worker_attend(struct nic_worker *worker, bool peers);
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

#endif /* SDOCA_NIC_WORKER_H_ */
