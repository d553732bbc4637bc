/*
 * The service thread that progresses workers the application leaves.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The service thread: a NIC needs no help from the target's CPU, so one
 * thread per process progresses every worker whenever the application does
 * not (it sits in getchar(), in a sync-event wait, in a long callback).
 *
 * It stays out of the way of a polling application: it only looks every
 * millisecond whether the application still polls, and takes over (progress,
 * then arm the worker's fd and sleep) once it does not, or at once when the
 * application arms its PE's notification. An armed worker costs the sender a
 * wake-up syscall per message, so it is armed only while the service thread
 * sleeps. After traffic it polls on for a moment before it sleeps (a
 * requester waiting for each answer sends its next request within
 * microseconds; a wake-up costs tens). Idle, the thread sleeps in epoll with
 * no timeout.
 *
 * It also waits on the pidfds of peer processes on this host (worker.c
 * watches them), so a peer that dies is noticed in well under a
 * millisecond, runs request timeouts, and answers the counters channel
 * (stats_channel.c: softdoca-info --pid). It runs while a worker exists or
 * a DPA context is started (nic_service_hold), so that a DPA program
 * without RDMA can be looked at too.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "core/sdk_log.h"
#include "core/sync_event.h"
#include "nic/nic.h"

SDOCA_LOG_MODULE(service);

#define EV_KICK 1
#define EV_WORKER 2
#define EV_PEER 3
#define EV_STATS 4 /* the counters channel: a reader came, or can take more */

#define APP_CHECK_NS 1000000u /* how often to look whether the application still polls */
/* How long the thread polls on after the last message before it sleeps: a
 * requester waiting for each answer sends its next request within
 * microseconds, and a wake-up costs far more than that (bench/RESULTS.md,
 * "The service thread's spin"). The price: up to this much CPU after each
 * burst of traffic, none while idle.
 *
 * Polling helps only while the peer runs meanwhile: when the requester
 * shares the thread's CPU (one CPU, both pinned together, or the scheduler
 * put them there), it cannot send until the thread sleeps, and every
 * operation would cost the whole spin. So the spin adapts: one that caught
 * no message halves the next, down to none; one in SPIN_PROBE serves then
 * tries a short one again, and one that catches a message restores the
 * whole. */
#define SPIN_NS 50000u
#define SPIN_MIN_NS 4000u
#define SPIN_PROBE 64
/* Polling on one worker while traffic keeps coming stops after this long,
 * so that the other workers are served too (it resumes at once). */
#define SPIN_MAX_NS 1000000u

struct entry {
	struct nic_worker *worker;
	bool busy; /* the thread is working on it right now */
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t not_busy;
	pthread_cond_t stopped;
	pthread_t thread;
	bool running;
	bool stopping;
	size_t holds; /* nic_service_hold()s not released */
	int epoll_fd;
	int kick_fd;
	_Atomic bool peer_event;
	struct entry *entries;
	size_t count;
	size_t cap;
} svc = { .lock = PTHREAD_MUTEX_INITIALIZER,
	  .not_busy = PTHREAD_COND_INITIALIZER,
	  .stopped = PTHREAD_COND_INITIALIZER,
	  .epoll_fd = -1,
	  .kick_fd = -1 };

void nic_service_kick(void)
{
	uint64_t one = 1;

	if (svc.kick_fd >= 0 && write(svc.kick_fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		SDOCA_WARN("service thread wake-up failed: %s", strerror(errno));
}

enum spin_end {
	SPIN_QUIET, /* no message for SPIN_NS (or none at all): time to sleep */
	SPIN_BUSY,  /* messages still coming after SPIN_MAX_NS */
	SPIN_APP,   /* the application progresses again: it takes over */
};

/* Polls the worker (lock held on entry and return) while messages keep
 * coming, giving the lock up between polls (and the CPU, when someone waits
 * for the lock) so that the application can submit or take over. */
static enum spin_end spin(struct nic_worker *w)
{
	uint64_t polls = atomic_load(&w->app_polls), wakes = sdoca_sync_event_wakes(), start, last;
	bool caught = false;

	nic_assert_locked(w);
	if (!xport_worker_progress(w->xport))
		return SPIN_QUIET; /* no traffic: nothing to wait for */
	if (w->spin_ns == 0) {
		if (++w->spins_skipped < SPIN_PROBE)
			return SPIN_QUIET;
		w->spins_skipped = 0;
		w->spin_ns = SPIN_MIN_NS; /* a probe */
	}
	start = last = nic_now_ns();
	for (;;) {
		while (xport_worker_progress(w->xport))
			;
		nic_ack_flush_all(w); /* answers leave now, not at sleep */
		if (caught)
			w->spin_ns = SPIN_NS;
		if (last - start >= SPIN_MAX_NS)
			return SPIN_BUSY;
		do {
			nic_unlock(w);
			/* A submit, a receive posted, a key revoked: let it in. And
			 * a sync-event waiter this thread just woke, on this CPU
			 * perhaps: let it run now, not after the spin. */
			if (atomic_load_explicit(&w->lock_waiters, memory_order_relaxed) ||
			    sdoca_sync_event_wakes() != wakes) {
				wakes = sdoca_sync_event_wakes();
				sched_yield();
			} else {
				sdoca_cpu_relax();
			}
			nic_lock(w);
			if (atomic_load(&w->app_polls) != polls)
				return SPIN_APP;
			if (nic_now_ns() - last >= w->spin_ns) {
				if (!caught) /* in vain: shorter next time */
					w->spin_ns =
					        w->spin_ns / 2 >= SPIN_MIN_NS ? w->spin_ns / 2 : 0;
				return SPIN_QUIET;
			}
		} while (!xport_worker_progress(w->xport));
		caught = true;
		last = nic_now_ns();
	}
}

/* Takes the worker over from an idle application; returns its next deadline.
 * UCX can report events pending forever after a peer died (arm keeps saying
 * busy while progress finds nothing): then look again in a millisecond
 * instead of spinning with the lock held. */
static uint64_t serve(struct nic_worker *w, bool peers)
{
	uint64_t next = UINT64_MAX;
	enum spin_end end;
	bool armed = false;

	nic_lock(w);
	atomic_store(&w->svc_asleep, false);
	if (SDOCA_UNLIKELY(w->stop_until_ns) && nic_diag->fault_stopped(w)) {
		next = w->stop_until_ns; /* an injected stop: nothing moves until then */
		nic_unlock(w);
		return next;
	}
	nic_worker_attend(w, peers);
	end = spin(w); /* it flushed the ACKs of what it received */
	if (end != SPIN_QUIET) {
		/* Not armed: back at once, after the other workers, while traffic
		 * goes on; else at the next look, which finds the application
		 * polling. */
		next = nic_worker_timers(w, nic_now_ns());
		nic_unlock(w);
		if (end == SPIN_BUSY)
			return 0;
		return next < nic_now_ns() + APP_CHECK_NS ? next : nic_now_ns() + APP_CHECK_NS;
	}
	for (int attempt = 0; attempt < 16 && !armed; attempt++) {
		while (xport_worker_progress(w->xport))
			;
		/* A loss or a connect's release that came while spin() let the
		 * lock go found the thread awake and did not kick it: attend to
		 * it now, or it would wait for the next event. */
		nic_worker_attend(w, false);
		nic_ack_flush_all(w); /* nobody else will before the thread sleeps */
		next = nic_worker_timers(w, nic_now_ns());
		armed = xport_worker_arm(w->xport);
	}
	atomic_store(&w->svc_asleep, armed);
	nic_unlock(w);
	if (!armed) {
		uint64_t soon = nic_now_ns() + APP_CHECK_NS;

		if (soon < next)
			next = soon;
	}
	return next;
}

/* The application polls: only timers and dead peers are the thread's job. */
static uint64_t watch(struct nic_worker *w, bool peers)
{
	uint64_t next = nic_now_ns() + APP_CHECK_NS;

	atomic_store(&w->svc_asleep, false);
	if (!nic_trylock(w))
		return next;
	if (SDOCA_UNLIKELY(w->stop_until_ns) && nic_diag->fault_stopped(w)) {
		nic_unlock(w);
		return next;
	}
	nic_worker_attend(w, peers);
	nic_ack_flush_all(w); /* the application may have stopped progressing */
	uint64_t timers = nic_worker_timers(w, nic_now_ns());

	nic_unlock(w);
	return timers < next ? timers : next;
}

/* The worker's fd becomes readable on every TCP arrival, armed or not: while
 * the application polls, it must not wake this thread (a wake-up preempts a
 * polling core, every message), so it leaves the epoll set until then. */
static void watch_fd(struct nic_worker *w, bool on)
{
	struct epoll_event ev = { .events = on ? EPOLLIN | EPOLLET : 0, .data.u64 = EV_WORKER };

	if (w->fd_watched == on)
		return;
	if (epoll_ctl(svc.epoll_fd, EPOLL_CTL_MOD, xport_worker_fd(w->xport), &ev) != 0)
		SDOCA_WARN("cannot change the watch on a transport worker: %s", strerror(errno));
	else
		w->fd_watched = on;
}

static int timeout_ms(uint64_t deadline)
{
	uint64_t now = nic_now_ns();

	if (deadline == UINT64_MAX)
		return -1;
	if (deadline <= now)
		return 0;
	return (int)((deadline - now + 999999) / 1000000);
}

static void *service_main(void *arg)
{
	struct epoll_event events[16];
	struct nic_worker **batch = NULL;
	size_t batch_cap = 0;

	(void)arg;
	for (;;) {
		uint64_t deadline = UINT64_MAX;
		bool peers = atomic_exchange(&svc.peer_event, false);
		size_t n;

		pthread_mutex_lock(&svc.lock);
		if (svc.stopping) {
			pthread_mutex_unlock(&svc.lock);
			break;
		}
		if (batch_cap < svc.count) {
			free(batch);
			batch_cap = svc.cap;
			batch = malloc(batch_cap * sizeof(*batch));
		}
		for (n = 0; n < svc.count && batch; n++) {
			svc.entries[n].busy = true;
			batch[n] = svc.entries[n].worker;
		}
		pthread_mutex_unlock(&svc.lock);

		for (size_t i = 0; i < n; i++) {
			struct nic_worker *w = batch[i];
			uint64_t polls = atomic_load(&w->app_polls), next;
			bool polling = polls != w->polls_seen && !atomic_load(&w->app_sleeping);

			w->polls_seen = polls;
			watch_fd(w, !polling);
			next = polling ? watch(w, peers) : serve(w, peers);
			if (next < deadline)
				deadline = next;
		}

		pthread_mutex_lock(&svc.lock);
		for (size_t i = 0; i < svc.count; i++)
			svc.entries[i].busy = false;
		pthread_cond_broadcast(&svc.not_busy);
		pthread_mutex_unlock(&svc.lock);

		uint64_t readers = nic_diag->channel_timers();

		if (readers < deadline)
			deadline = readers;
		int got = epoll_wait(svc.epoll_fd, events, 16, timeout_ms(deadline));

		for (int i = 0; i < got; i++) {
			uint64_t count;

			if (events[i].data.u64 == EV_KICK &&
			    read(svc.kick_fd, &count, sizeof(count)) < 0)
				continue;
			if (events[i].data.u64 == EV_PEER)
				atomic_store(&svc.peer_event, true);
			if (events[i].data.u64 == EV_STATS)
				nic_diag->channel_event();
		}
	}
	free(batch);
	return NULL;
}

static doca_error_t start_thread(void)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = EV_KICK };
	sigset_t all, old;
	int err;

	svc.epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	svc.kick_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (svc.epoll_fd < 0 || svc.kick_fd < 0 ||
	    epoll_ctl(svc.epoll_fd, EPOLL_CTL_ADD, svc.kick_fd, &ev) != 0)
		goto fail;
	/* Signals are the application's: they must not land on this thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	svc.stopping = false;
	nic_diag->channel_open(svc.epoll_fd, EV_STATS);
	err = pthread_create(&svc.thread, NULL, service_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err != 0)
		goto fail;
	svc.running = true;
	return DOCA_SUCCESS;
fail:
	SDOCA_ERR("cannot start the soft-NIC service thread: %s", strerror(errno));
	nic_diag->channel_close();
	if (svc.kick_fd >= 0)
		close(svc.kick_fd);
	if (svc.epoll_fd >= 0)
		close(svc.epoll_fd);
	svc.kick_fd = svc.epoll_fd = -1;
	return DOCA_ERROR_OPERATING_SYSTEM;
}

/* svc.lock held: the thread's epoll set gets the worker's transport fd. */
static doca_error_t watch_worker(struct nic_worker *worker)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLET, .data.u64 = EV_WORKER };

	if (epoll_ctl(svc.epoll_fd, EPOLL_CTL_ADD, xport_worker_fd(worker->xport), &ev) != 0) {
		SDOCA_ERR("cannot watch the transport worker: %s", strerror(errno));
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	worker->fd_watched = true;
	return DOCA_SUCCESS;
}

/* svc.lock held: true when nothing needs the thread any more; it is then told
 * to stop, and the caller calls stop_thread() once it released the lock. */
static bool stop_if_unused_locked(void)
{
	bool unused = svc.count == 0 && svc.holds == 0 && svc.running && !svc.stopping;

	if (unused)
		svc.stopping = true;
	return unused;
}

/* No worker and no hold left: the thread ends, so an unloaded library runs
 * no code. */
static void stop_thread(void)
{
	nic_service_kick();
	pthread_join(svc.thread, NULL);
	pthread_mutex_lock(&svc.lock);
	svc.running = false;
	nic_diag->channel_close();
	close(svc.kick_fd);
	close(svc.epoll_fd);
	svc.kick_fd = svc.epoll_fd = -1;
	/* Workers added while it stopped (nic_service_add cannot wait for the
	 * stop: its caller holds the workers' list lock, which the thread's
	 * counters snapshot takes) need a thread again, watching them. */
	if (svc.count > 0 && start_thread() == DOCA_SUCCESS)
		for (size_t i = 0; i < svc.count; i++)
			watch_worker(svc.entries[i].worker);
	pthread_cond_broadcast(&svc.stopped);
	pthread_mutex_unlock(&svc.lock);
}

doca_error_t nic_service_add(struct nic_worker *worker)
{
	doca_error_t status = DOCA_SUCCESS;

	pthread_mutex_lock(&svc.lock);
	if (svc.count == svc.cap) {
		size_t cap = svc.cap ? svc.cap * 2 : 4;
		struct entry *grown = realloc(svc.entries, cap * sizeof(*grown));

		if (!grown) {
			pthread_mutex_unlock(&svc.lock);
			return DOCA_ERROR_NO_MEMORY;
		}
		svc.entries = grown;
		svc.cap = cap;
	}
	if (!svc.running)
		status = start_thread();
	/* A thread that is stopping watches nothing new: stop_thread starts
	 * another one for this worker once it is gone. */
	if (status == DOCA_SUCCESS && !svc.stopping)
		status = watch_worker(worker);
	if (status == DOCA_SUCCESS) {
		worker->spin_ns = SPIN_NS;
		svc.entries[svc.count++] = (struct entry){ .worker = worker };
	}
	pthread_mutex_unlock(&svc.lock);
	nic_service_kick();
	return status;
}

void nic_service_remove(struct nic_worker *worker)
{
	bool last;

	pthread_mutex_lock(&svc.lock);
	for (;;) {
		size_t i;

		for (i = 0; i < svc.count && svc.entries[i].worker != worker; i++)
			;
		if (i == svc.count)
			break;
		if (!svc.entries[i].busy) {
			svc.entries[i] = svc.entries[--svc.count];
			break;
		}
		pthread_cond_wait(&svc.not_busy, &svc.lock);
	}
	epoll_ctl(svc.epoll_fd, EPOLL_CTL_DEL, xport_worker_fd(worker->xport), NULL);
	last = stop_if_unused_locked();
	pthread_mutex_unlock(&svc.lock);
	if (last)
		stop_thread();
}

void nic_service_hold(void)
{
	pthread_mutex_lock(&svc.lock);
	/* A stop under way finishes first, so the thread is started again. */
	while (svc.running && svc.stopping)
		pthread_cond_wait(&svc.stopped, &svc.lock);
	svc.holds++;
	if (!svc.running)
		(void)start_thread(); /* logged; the channel is only missing */
	pthread_mutex_unlock(&svc.lock);
}

void nic_service_release(void)
{
	bool last;

	pthread_mutex_lock(&svc.lock);
	if (svc.holds > 0)
		svc.holds--;
	last = stop_if_unused_locked();
	pthread_mutex_unlock(&svc.lock);
	if (last)
		stop_thread();
}

bool nic_service_watch_fd(int fd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = EV_PEER };

	return epoll_ctl(svc.epoll_fd, EPOLL_CTL_ADD, fd, &ev) == 0;
}

void nic_service_unwatch_fd(int fd)
{
	epoll_ctl(svc.epoll_fd, EPOLL_CTL_DEL, fd, NULL);
}
