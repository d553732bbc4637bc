/*
 * libdoca_dpa: kernel launches (doca_dpa_kernel_launch_update_*).
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libdoca_dpa: doca_dpa_kernel_launch_update_set / _add (docs/dpa.md 2.10).
 * The call packs the arguments into a heap frame (with the code dpacc
 * generated for the kernel, as doca_dpa_rpc does) and queues the launch on
 * its DPA's launcher thread, which takes launches in submission order:
 * it sleeps until the launch's wait event exceeds its threshold (no wait
 * event: at once), then hands the N instances to N pool threads at once
 * (rank i of N) and goes on with the next launch. The instance that
 * returns last sets or adds the completion count to the completion event.
 *
 * Nothing spins while idle: the launcher sleeps on a condition variable
 * while its queue is empty and on the event (the core's futex waiter, in
 * slices of 10 ms to see a stop) while gated; idle pool threads sleep on
 * their own condition variable and end after POOL_IDLE_S.
 *
 * doca_dpa_stop bumps the launcher's epoch: instances of launches started
 * before it are cancelled at their next device call (exec.c); queued
 * launches are dropped. Stop waits SDOCA_DPA_JOIN_TIMEOUT_S for the instances to
 * leave; those that make no device call are then left running, and
 * doca_dpa_destroy leaks the DPA rather than free it under them.
 */
#include <errno.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_sync_event.h>

#include "core/sdk_log.h"
#include "core/sync_event.h"
#include "dpa/dpa.h"

SDOCA_LOG_MODULE(dpa_launch);

#define POOL_IDLE_S 1
/* How often a gated launcher looks at its stop flag. */
#define GATE_SLICE_NS 10000000u

struct launch {
	struct launch *next; /* the launcher's queue */
	struct doca_dpa *dpa;
	struct sdoca_dpa_launcher *launcher;
	const struct softdoca_dpa_kernel *kernel;
	void *frame;
	struct doca_sync_event *wait_event; /* NULL: no gate */
	uint64_t wait_threshold;
	struct doca_sync_event *comp_event; /* NULL: nothing to signal */
	uint64_t comp_count;
	bool add;
	unsigned int num_threads;
	uint32_t id;
	uint32_t epoch;                 /* the launcher's when the launch started */
	_Atomic unsigned int remaining; /* instances not returned yet */
	atomic_bool stopped;            /* an instance was cancelled by a stop */
};

struct sdoca_dpa_launcher {
	pthread_mutex_t lock;
	pthread_cond_t wake;          /* the launcher thread: a launch queued, or a stop */
	pthread_cond_t idle;          /* a stop: the last running launch ended */
	struct launch *head, *tail;   /* queued, not started, in submission order */
	struct doca_sync_event *gate; /* the event the launcher sleeps on now */
	unsigned int running;         /* started launches with instances left */
	atomic_bool stopping;
	bool has_thread;
	pthread_t thread;
	_Atomic uint32_t epoch; /* bumped by each stop */
	uint32_t next_id;
};

/* A pool thread; its exec must survive siglongjmp, so it is not a local. */
struct pool_worker {
	struct pool_worker *next_idle;
	pthread_cond_t wake;
	struct launch *job;
	unsigned int rank;
	struct sdoca_dpa_exec exec;
};

static struct {
	pthread_mutex_t lock;
	struct pool_worker *idle;
	unsigned int live;
} pool = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Pool threads alive (tests: they end after POOL_IDLE_S unused). */
unsigned int sdoca_dpa_launch_pool_threads(void);
unsigned int sdoca_dpa_launch_pool_threads(void)
{
	pthread_mutex_lock(&pool.lock);
	unsigned int n = pool.live;
	pthread_mutex_unlock(&pool.lock);
	return n;
}

static void cond_init_monotonic(pthread_cond_t *cond)
{
	pthread_condattr_t attr;
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(cond, &attr);
	pthread_condattr_destroy(&attr);
}

static struct timespec monotonic_in(time_t seconds)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += seconds;
	return ts;
}

static void launch_free(struct launch *l)
{
	free(l->frame);
	free(l);
}

/* The instance that returns last signals the completion event and frees the
 * launch; a launch a stop cancelled signals nothing. */
static void instance_done(struct launch *l, doca_error_t how)
{
	if (how == DOCA_ERROR_SHUTDOWN)
		atomic_store(&l->stopped, true);
	if (atomic_fetch_sub(&l->remaining, 1) != 1)
		return;
	if (l->comp_event != NULL && !atomic_load(&l->stopped)) {
		uint64_t fetched;
		if (l->add)
			doca_sync_event_update_add(l->comp_event, l->comp_count, &fetched);
		else
			doca_sync_event_update_set(l->comp_event, l->comp_count);
	}
	struct sdoca_dpa_launcher *ln = l->launcher;
	launch_free(l);
	pthread_mutex_lock(&ln->lock);
	if (--ln->running == 0)
		pthread_cond_broadcast(&ln->idle);
	pthread_mutex_unlock(&ln->lock);
}

/* Kept apart so that what sigsetjmp must survive is in *w, not in locals. */
static void call_kernel(struct pool_worker *w, const struct launch *l)
{
	sdoca_dpa_exec = &w->exec;
	if (sigsetjmp(w->exec.entry, 0) == 0)
		l->kernel->call(l->frame);
	/* Reached by a return, a finish or a cancellation (exec.abort_error). */
	sdoca_dpa_exec = NULL;
}

static void run_instance(struct pool_worker *w, struct launch *l, unsigned int rank)
{
	w->exec = (struct sdoca_dpa_exec){ .dpa = l->dpa,
		                           .selected = l->dpa,
		                           .launch_id = l->id,
		                           .kernel = l->kernel,
		                           .rank = rank,
		                           .num_threads = l->num_threads,
		                           .deadline_ns = sdoca_dpa_deadline(l->dpa),
		                           .stop_epoch = &l->launcher->epoch,
		                           .epoch = l->epoch,
		                           .abort_error = DOCA_SUCCESS };
	call_kernel(w, l);
	instance_done(l, w->exec.abort_error);
}

static void pool_forget(struct pool_worker *w)
{
	for (struct pool_worker **p = &pool.idle; *p != NULL; p = &(*p)->next_idle) {
		if (*p == w) {
			*p = w->next_idle;
			return;
		}
	}
}

static void *worker_main(void *arg)
{
	struct pool_worker *w = arg;
	pthread_setname_np(pthread_self(), "dpa-launch");
	pthread_mutex_lock(&pool.lock);
	for (;;) {
		while (w->job == NULL) {
			struct timespec until = monotonic_in(POOL_IDLE_S);
			int rc = pthread_cond_timedwait(&w->wake, &pool.lock, &until);
			if (rc == ETIMEDOUT && w->job == NULL) {
				pool_forget(w);
				pool.live--;
				pthread_mutex_unlock(&pool.lock);
				pthread_cond_destroy(&w->wake);
				free(w);
				return NULL;
			}
		}
		struct launch *l = w->job;
		unsigned int rank = w->rank;
		w->job = NULL;
		pthread_mutex_unlock(&pool.lock);
		run_instance(w, l, rank);
		pthread_mutex_lock(&pool.lock);
		w->next_idle = pool.idle;
		pool.idle = w;
	}
}

/* Runs rank of l on an idle pool thread, or on a new one: every instance
 * of a launch runs at once, so kernels may wait for each other. */
static bool dispatch(struct launch *l, unsigned int rank)
{
	pthread_mutex_lock(&pool.lock);
	struct pool_worker *w = pool.idle;
	if (w != NULL) {
		pool.idle = w->next_idle;
		w->job = l;
		w->rank = rank;
		pthread_cond_signal(&w->wake);
		pthread_mutex_unlock(&pool.lock);
		return true;
	}
	pthread_mutex_unlock(&pool.lock);
	w = calloc(1, sizeof(*w));
	if (w == NULL)
		return false;
	cond_init_monotonic(&w->wake);
	w->job = l;
	w->rank = rank;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_t thread;
	pthread_mutex_lock(&pool.lock);
	int rc = pthread_create(&thread, &attr, worker_main, w);
	if (rc == 0)
		pool.live++;
	pthread_mutex_unlock(&pool.lock);
	pthread_attr_destroy(&attr);
	if (rc != 0) {
		SDOCA_ERR("DPA kernel launch: pthread_create: %s", strerror(rc));
		pthread_cond_destroy(&w->wake);
		free(w);
		return false;
	}
	return true;
}

static void start_launch(struct launch *l)
{
	unsigned int n = l->num_threads;
	atomic_store(&l->remaining, n);
	for (unsigned int rank = 0; rank < n; rank++) {
		/* l may be freed once the last instance is handed out. */
		if (!dispatch(l, rank)) {
			SDOCA_ERR("DPA kernel '%s' (launch %u): rank %u of %u could not be run",
			          l->kernel->name, l->id, rank, n);
			sdoca_dpa_set_error(l->dpa, DOCA_ERROR_NO_MEMORY);
			instance_done(l, DOCA_ERROR_NO_MEMORY);
		}
	}
}

/* Whether the launch may start: no gate, or the event's value > threshold.
 * Sleeps until then or until a stop. */
static bool pass_gate(struct sdoca_dpa_launcher *ln, const struct launch *l)
{
	if (l->wait_event == NULL)
		return true;
	for (bool first = true; !atomic_load(&ln->stopping); first = false) {
		if (sdoca_sync_event_sleep(l->wait_event, SDOCA_SE_GT, l->wait_threshold,
		                           UINT64_MAX, GATE_SLICE_NS, first))
			return true;
	}
	return false;
}

static void *launcher_main(void *arg)
{
	struct sdoca_dpa_launcher *ln = arg;
	pthread_setname_np(pthread_self(), "dpa-launcher");
	pthread_mutex_lock(&ln->lock);
	for (;;) {
		while (!atomic_load(&ln->stopping) && ln->head == NULL)
			pthread_cond_wait(&ln->wake, &ln->lock);
		if (atomic_load(&ln->stopping))
			break;
		/* Later launches wait behind this one even when their gate is open. */
		struct launch *l = ln->head;
		ln->gate = l->wait_event;
		pthread_mutex_unlock(&ln->lock);
		bool ready = pass_gate(ln, l);
		pthread_mutex_lock(&ln->lock);
		ln->gate = NULL;
		if (!ready || atomic_load(&ln->stopping))
			break; /* the stop frees the queue, l included */
		ln->head = l->next;
		if (ln->head == NULL)
			ln->tail = NULL;
		l->epoch = atomic_load(&ln->epoch);
		ln->running++;
		pthread_mutex_unlock(&ln->lock);
		start_launch(l);
		pthread_mutex_lock(&ln->lock);
	}
	pthread_mutex_unlock(&ln->lock);
	return NULL;
}

static struct sdoca_dpa_launcher *launcher_of(struct doca_dpa *dpa)
{
	struct sdoca_dpa_launcher *ln = atomic_load(&dpa->launcher), *first = NULL;
	if (ln != NULL)
		return ln;
	ln = calloc(1, sizeof(*ln));
	if (ln == NULL)
		return NULL;
	pthread_mutex_init(&ln->lock, NULL);
	pthread_cond_init(&ln->wake, NULL);
	cond_init_monotonic(&ln->idle);
	/* Two first launches from two threads: one launcher wins. */
	if (!atomic_compare_exchange_strong(&dpa->launcher, &first, ln)) {
		pthread_cond_destroy(&ln->idle);
		pthread_cond_destroy(&ln->wake);
		pthread_mutex_destroy(&ln->lock);
		free(ln);
		return first;
	}
	return ln;
}

bool sdoca_dpa_launch_stop(struct doca_dpa *dpa, const char *caller)
{
	struct sdoca_dpa_launcher *ln = dpa->launcher;
	if (ln == NULL)
		return true;
	pthread_mutex_lock(&ln->lock);
	atomic_store(&ln->stopping, true);
	atomic_fetch_add(&ln->epoch, 1); /* cancels what runs */
	pthread_cond_broadcast(&ln->wake);
	if (ln->gate != NULL)
		sdoca_sync_event_wake_all(ln->gate);
	bool had_thread = ln->has_thread;
	pthread_t thread = ln->thread;
	ln->has_thread = false;
	pthread_mutex_unlock(&ln->lock);
	if (had_thread)
		pthread_join(thread, NULL); /* it leaves within one gate slice */

	pthread_mutex_lock(&ln->lock);
	struct launch *queued = ln->head;
	ln->head = ln->tail = NULL;
	unsigned int dropped = 0;
	while (queued != NULL) {
		struct launch *next = queued->next;
		launch_free(queued);
		queued = next;
		dropped++;
	}
	struct timespec until = monotonic_in(SDOCA_DPA_JOIN_TIMEOUT_S);
	int rc = 0;
	while (ln->running > 0 && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&ln->idle, &ln->lock, &until);
	unsigned int left = ln->running;
	atomic_store(&ln->stopping, false); /* a restarted DPA launches again */
	pthread_mutex_unlock(&ln->lock);
	if (dropped > 0)
		SDOCA_WARN("%s: %u kernel launches that had not started were dropped", caller,
		           dropped);
	if (left > 0) {
		SDOCA_ERR("%s: %u kernel launches did not leave within %d s (their kernels make "
		          "no device call): left running",
		          caller, left, SDOCA_DPA_JOIN_TIMEOUT_S);
		return false;
	}
	return true;
}

bool sdoca_dpa_launch_fini(struct doca_dpa *dpa)
{
	struct sdoca_dpa_launcher *ln = dpa->launcher;
	if (ln == NULL)
		return true;
	if (!sdoca_dpa_launch_stop(dpa, "doca_dpa_destroy"))
		return false; /* running instances use it: leaked with the DPA */
	pthread_cond_destroy(&ln->wake);
	pthread_cond_destroy(&ln->idle);
	pthread_mutex_destroy(&ln->lock);
	free(ln);
	dpa->launcher = NULL;
	return true;
}

static doca_error_t launch(struct doca_dpa *dpa, struct doca_sync_event *wait_event,
                           uint64_t wait_threshold, struct doca_sync_event *comp_event,
                           uint64_t comp_count, unsigned int num_threads, doca_dpa_func_t *func,
                           bool add, va_list *args, const char *caller)
{
	if (!dpa->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: the DPA is not started", caller);
	if (num_threads == 0 || num_threads > dpa->total_eus)
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "%s: %u threads: must be 1..%u (doca_dpa_get_max_threads_per_kernel)",
		        caller, num_threads, dpa->total_eus);
	const struct softdoca_dpa_kernel *k =
	        sdoca_dpa_find_kernel(dpa, func, SOFTDOCA_DPA_KERNEL_GLOBAL, caller);
	if (k == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	struct sdoca_dpa_launcher *ln = launcher_of(dpa);
	struct launch *l = calloc(1, sizeof(*l));
	size_t align =
	        k->frame_align > alignof(max_align_t) ? k->frame_align : alignof(max_align_t);
	void *frame = aligned_alloc(align, (k->frame_size + align) / align * align);
	if (ln == NULL || l == NULL || frame == NULL) {
		free(l);
		free(frame);
		return sdoca_fail(DOCA_ERROR_NO_MEMORY, "%s: no memory for a launch of '%s'",
		                  caller, k->name);
	}
	/* The arguments are read now: the call returns before the kernel runs. */
	k->pack(args, frame);
	*l = (struct launch){ .dpa = dpa,
		              .launcher = ln,
		              .kernel = k,
		              .frame = frame,
		              .wait_event = wait_event,
		              .wait_threshold = wait_threshold,
		              .comp_event = comp_event,
		              .comp_count = comp_count,
		              .add = add,
		              .num_threads = num_threads };

	pthread_mutex_lock(&ln->lock);
	if (!ln->has_thread) {
		int rc = pthread_create(&ln->thread, NULL, launcher_main, ln);
		if (rc != 0) {
			pthread_mutex_unlock(&ln->lock);
			launch_free(l);
			return sdoca_fail(DOCA_ERROR_NO_MEMORY,
			                  "%s: launcher thread: pthread_create: %s", caller,
			                  strerror(rc));
		}
		ln->has_thread = true;
	}
	l->id = ++ln->next_id;
	if (ln->tail != NULL)
		ln->tail->next = l;
	else
		ln->head = l;
	ln->tail = l;
	pthread_cond_signal(&ln->wake);
	pthread_mutex_unlock(&ln->lock);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_kernel_launch_update_set(
        struct doca_dpa *dpa, struct doca_sync_event *wait_event, uint64_t wait_threshold,
        struct doca_sync_event *comp_event, uint64_t comp_count, unsigned int num_threads,
        doca_dpa_func_t *func, ...)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(func))
		return DOCA_ERROR_INVALID_VALUE;
	va_list args;
	va_start(args, func);
	doca_error_t err = launch(dpa, wait_event, wait_threshold, comp_event, comp_count,
	                          num_threads, func, false, &args, __func__);
	va_end(args);
	return err;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_kernel_launch_update_add(
        struct doca_dpa *dpa, struct doca_sync_event *wait_event, uint64_t wait_threshold,
        struct doca_sync_event *comp_event, uint64_t comp_count, unsigned int num_threads,
        doca_dpa_func_t *func, ...)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(func))
		return DOCA_ERROR_INVALID_VALUE;
	va_list args;
	va_start(args, func);
	doca_error_t err = launch(dpa, wait_event, wait_threshold, comp_event, comp_count,
	                          num_threads, func, true, &args, __func__);
	va_end(args);
	return err;
}
