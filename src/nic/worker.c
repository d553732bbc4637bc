/*
 * Workers: one transport worker per progress engine and device.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Workers: one transport worker per (progress engine, device), shared by
 * every QP of the contexts on that PE. Creating a UCX worker costs several
 * milliseconds and file descriptors, so QPs never get their own.
 *
 * Here: the list of workers, their progress by the application and by
 * sync-event waiters, and their timers. What arrives is dispatch.c's; the
 * peers' processes are watched in peers.c.
 */
#include <errno.h>
#include <execinfo.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/bytes.h"
#include "core/dev.h"
#include "core/sdk_log.h"
#include "core/sync_event.h"
#include "nic/nic.h"

SDOCA_LOG_MODULE(worker);

/* Empty polls per application progress call (see nic_worker_progress): the
 * lock is paid once per few polls of an idle transport, not per poll. */
#define APP_EMPTY_POLLS 4
#define APP_TIMER_POLLS 1024 /* application polls between two timer runs (~1 ms or less) */

static struct {
	pthread_mutex_t lock;
	LIST_HEAD(, nic_worker) list;
} workers = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The key table's quiesce hook (keys.h): a responder peeks at a key for a
 * synchronous access under its worker's lock, so taking and releasing every
 * worker's lock waits out each access that may have seen a revoked key. A
 * worker off the list has no QP left that serves requests (its last context
 * destroyed them first; messages for a destroyed QP are dropped unread). */
static void quiesce_workers(void)
{
	struct nic_worker *w;

	pthread_mutex_lock(&workers.lock);
	LIST_FOREACH(w, &workers.list, link)
	{
		nic_lock(w);
		nic_unlock(w);
	}
	pthread_mutex_unlock(&workers.lock);
}

/* The sync-event waiters' hooks (below nic_worker_progress, which they share). */
static bool waiter_poll(void);
static void waiter_sleeping(void);

doca_error_t nic_worker_get(struct doca_pe *pe, struct doca_dev *dev, struct nic_worker **worker)
{
	struct nic_worker *w;
	doca_error_t status;

	pthread_mutex_lock(&workers.lock);
	LIST_FOREACH(w, &workers.list, link)
	if (w->pe == pe && w->dev == dev)
		break;
	if (w) {
		w->refs++;
		status = DOCA_SUCCESS;
		goto out;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		status = DOCA_ERROR_NO_MEMORY;
		goto out;
	}
	w->pe = pe;
	w->dev = dev;
	w->refs = 1;
	SLIST_INIT(&w->acks);
	status = xport_worker_create(dev->info.iface_name, nic_worker_on_message, w, &w->xport);
	if (status == DOCA_SUCCESS) {
		status = nic_service_add(w);
		if (status != DOCA_SUCCESS)
			xport_worker_destroy(w->xport);
	}
	if (status != DOCA_SUCCESS) {
		free(w);
		goto out;
	}
	sdoca_dev_get(dev);
	LIST_INSERT_HEAD(&workers.list, w, link);
	sdoca_keys_set_quiesce(quiesce_workers);
	sdoca_waiter_set_hooks(waiter_poll, waiter_sleeping);
	SDOCA_DBG("transport worker for %s ready", dev->info.ibdev_name);
out:
	pthread_mutex_unlock(&workers.lock);
	if (status == DOCA_SUCCESS)
		*worker = w;
	return status;
}

static bool has_qps(const struct nic_worker *w)
{
	for (uint32_t i = 0; i < w->num_qp_slots; i++)
		if (w->qps[i])
			return true;
	return false;
}

/* Gives detached QPs a bounded time to be let go of by the transport. */
static void drain_qps(struct nic_worker *w)
{
	uint64_t give_up = nic_now_ns() + 2000000000u;

	nic_lock(w);
	while (has_qps(w) && nic_now_ns() < give_up) {
		xport_worker_progress(w->xport);
		nic_unlock(w);
		sched_yield();
		nic_lock(w);
	}
	if (has_qps(w))
		SDOCA_WARN("transport still held connections after 2 s; closing it anyway");
	nic_unlock(w);
}

void nic_workers_visit(void (*fn)(struct nic_worker *w, void *arg), void *arg)
{
	struct nic_worker *w;

	pthread_mutex_lock(&workers.lock);
	LIST_FOREACH(w, &workers.list, link)
	{
		nic_lock(w);
		fn(w, arg);
		nic_unlock(w);
	}
	pthread_mutex_unlock(&workers.lock);
}

void nic_worker_put(struct nic_worker *worker)
{
	pthread_mutex_lock(&workers.lock);
	if (--worker->refs > 0) {
		pthread_mutex_unlock(&workers.lock);
		return;
	}
	LIST_REMOVE(worker, link);
	pthread_mutex_unlock(&workers.lock);

	drain_qps(worker);
	nic_service_remove(worker);
	/* Closing the transport progresses it: messages still arriving reach
	 * the receive callback, which runs under the lock as everywhere else
	 * (no other thread can reach the worker now; the lock is for the
	 * callbacks' contract, checked by nic_assert_locked). */
	nic_lock(worker);
	xport_worker_destroy(worker->xport);
	nic_unlock(worker);
	sdoca_dev_put(worker->dev);
	free(worker->qps);
	free(worker);
}

/* Inline in its two callers: LTO then inlines nic_worker_progress, the
 * application's, into rdma_progress as it did with one caller. */
static SDOCA_ALWAYS_INLINE bool worker_progress(struct nic_worker *worker, bool *locked)
{
	/* A plain increment, not a locked one: it only tells the service thread
	 * that the application still polls; a lost count between two polling
	 * threads does not matter. */
	uint64_t polls = atomic_load_explicit(&worker->app_polls, memory_order_relaxed) + 1;

	atomic_store_explicit(&worker->app_polls, polls, memory_order_relaxed);
	unsigned int events = 0;

	if (atomic_load_explicit(&worker->app_sleeping, memory_order_relaxed))
		atomic_store(&worker->app_sleeping, false);
	/* The service thread is progressing: its work reaches the PE anyway. */
	if (!nic_trylock(worker))
		return false;
	if (SDOCA_UNLIKELY(worker->stop_until_ns) && nic_diag->fault_stopped(worker)) {
		nic_unlock(worker);
		return false;
	}
	if (locked)
		*locked = true;
	/* Before the poll: messages released at a connect go first, and what
	 * arrives meanwhile queues behind them. */
	if (SDOCA_UNLIKELY(worker->releases_pending))
		nic_bind_release_due(worker);
	/* ACKs deferred by the last progress: the application had its chance to
	 * answer (and carry them) in between. */
	if (!SLIST_EMPTY(&worker->acks))
		nic_ack_flush_all(worker);
	/* Polls a few times while nothing arrives: the lock is then paid once per
	 * few polls of an idle transport, not per poll. Returns as soon as
	 * something arrived: one more (empty) poll would sit between a request
	 * and the application's answer. */
	for (int i = 0; i < APP_EMPTY_POLLS && events == 0; i++)
		events = xport_worker_progress(worker->xport);
	/* Timeouts are the service thread's job, but a thread woken onto this
	 * core preempts the application - often inside this lock - so its
	 * trylock can keep failing: a polling application runs them too. */
	if (polls % APP_TIMER_POLLS == 0)
		nic_worker_timers(worker, nic_now_ns());
	if (SDOCA_UNLIKELY(worker->losses_pending))
		nic_worker_settle_losses(worker, false);
	nic_unlock(worker);
	return events > 0;
}

void nic_worker_attend(struct nic_worker *w, bool peers)
{
	nic_assert_locked(w);
	/* What came before the connect before what the transport saw later. */
	if (w->releases_pending)
		nic_bind_release_due(w);
	if (peers || w->losses_pending)
		nic_worker_settle_losses(w, peers);
}

bool nic_worker_progress(struct nic_worker *worker)
{
	return worker_progress(worker, NULL);
}

/* A thread blocked in a sync-event wait progresses every worker while it
 * spins, as an application's progress would: a peer's change then reaches
 * it in a transport hop, with no other thread woken. False if another
 * thread had them all. */
static bool waiter_poll(void)
{
	struct nic_worker *w;
	bool polled = false;

	pthread_mutex_lock(&workers.lock);
	LIST_FOREACH(w, &workers.list, link)
	worker_progress(w, &polled);
	pthread_mutex_unlock(&workers.lock);
	return polled;
}

/* ... and before it sleeps, hands them to the service thread at once. */
static void waiter_sleeping(void)
{
	struct nic_worker *w;

	pthread_mutex_lock(&workers.lock);
	LIST_FOREACH(w, &workers.list, link)
	nic_worker_app_sleeps(w);
	pthread_mutex_unlock(&workers.lock);
}

void nic_worker_app_sleeps(struct nic_worker *worker)
{
	atomic_store(&worker->app_sleeping, true);
	nic_service_kick();
}

uint64_t nic_worker_timers(struct nic_worker *worker, uint64_t now_ns)
{
	uint64_t next = UINT64_MAX;

	nic_assert_locked(worker);
	for (uint32_t i = 0; i < worker->num_qp_slots; i++) {
		struct nic_qp *qp = worker->qps[i];

		if (!qp || qp->detached)
			continue;
		if (qp->peer.heard) {
			qp->peer.last_heard_ns = now_ns;
			qp->peer.heard = false;
		}
		if (SDOCA_UNLIKELY(qp->cm_connecting))
			nic_cm_timers(qp, now_ns, &next);
		nic_comp_timers(qp, now_ns, &next);
		if (worker->qps[i] == qp) /* a timeout may have failed it, not freed it */
			nic_resp_timers(qp, now_ns, &next);
		if (worker->qps[i] == qp && SDOCA_UNLIKELY(qp->fault))
			nic_diag->fault_timers(qp, now_ns, &next);
	}
	return next;
}

#ifndef NDEBUG
_Noreturn void nic_lock_not_held(const struct nic_worker *w, const char *func, const char *file,
                                 int line)
{
	void *frames[32];
	int n = backtrace(frames, 32);

	fprintf(stderr,
	        "%s:%d: %s: the worker lock is not held by this thread (0x%lx); holder 0x%lx\n",
	        file, line, func, (unsigned long)nic_lock_self(),
	        (unsigned long)atomic_load(&w->lock_owner));
	backtrace_symbols_fd(frames, n, 2);
	abort();
}
#endif
