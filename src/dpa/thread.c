/*
 * libdoca_dpa: DPA threads and thread groups.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libdoca_dpa: DPA threads and thread groups (docs/dpa.md 2.6). Each started
 * DPA thread is one host thread that waits until it is activated, then calls
 * its kernel from the top. Reschedule and finish siglongjmp back to the loop,
 * so an activation never returns into the kernel; state that must survive the
 * jump lives in the thread struct.
 *
 * After an activation a thread spins for a while, progressing the soft NIC
 * itself (the sync-event waiter's hooks): the completion its kernel waits
 * for is then produced on this very thread and activates it with no wake-up
 * of another thread. Then it hands the soft NIC to the service thread and
 * sleeps on a condition variable, so an idle DPA thread costs nothing.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/sdk_log.h"
#include "core/sync_event.h"
#include "dpa/dpa.h"
#include "dpa/info.h"

SDOCA_LOG_MODULE(dpa_thread);

/* How long a thread spins after an activation before it sleeps: as long as
 * a sync-event waiter, and the service thread after traffic. */
#define ACTIVATION_SPIN_NS 50000u

enum thread_state {
	THREAD_CREATED,  /* configurable */
	THREAD_STARTED,  /* host thread parked; triggers kept until run */
	THREAD_RUNNABLE, /* doca_dpa_thread_run: triggers activate it */
	THREAD_FINISHED, /* doca_dpa_dev_thread_finish: triggers dropped */
	THREAD_ERROR,    /* stopped by a bad device call (exec fail): triggers dropped */
};

static const char *const state_names[] = { "created", "started", "runnable", "finished", "error" };

struct doca_dpa_thread {
	struct doca_dpa *dpa;
	uint32_t id;
	doca_dpa_func_t *func;
	const struct softdoca_dpa_kernel *kernel;
	uint64_t arg;
	doca_dpa_dev_uintptr_t local_storage;
	const struct doca_dpa_eu_affinity *affinity;
	struct doca_dpa_tg *tg;
	unsigned int rank;
	_Atomic int bound; /* completion objects naming this thread */
	/* guarded by lock */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	enum thread_state state;
	bool pending; /* a trigger not consumed yet */
	/* Bumped with every change that can make an activation due (a trigger, a
	 * stop): the thread's spin watches it without taking the lock. */
	_Atomic uint32_t changes;
	bool running; /* in an activation */
	bool stopping;
	uint64_t activations;
	uint64_t last_activation_ns; /* sdoca_dpa_info_now_ns(), when the last one began */
	uint32_t eu;                 /* the affinity's EU, for softdoca-info */
	/* stopping, for the kernel's own device calls to see without the lock */
	atomic_bool cancel;
	bool detached; /* a kernel that never left: the struct is leaked */
	/* the host thread's own (survive siglongjmp: not locals) */
	pthread_t host;
	bool has_host;
	struct sdoca_dpa_exec exec;
	enum sdoca_dpa_leave leave;
	bool warned_return;
	void *frame;
};

struct doca_dpa_tg {
	struct doca_dpa *dpa;
	unsigned int num_threads;
	bool started;
	struct doca_dpa_thread **threads; /* by rank */
};

bool sdoca_dpa_thread_of(const struct doca_dpa_thread *t, const struct doca_dpa *dpa)
{
	return t->dpa == dpa;
}

void sdoca_dpa_thread_bind(struct doca_dpa_thread *t, int delta)
{
	atomic_fetch_add(&t->bound, delta);
}

doca_dpa_dev_uintptr_t sdoca_dpa_thread_local_storage(const struct doca_dpa_thread *t)
{
	return t->local_storage;
}

void sdoca_dpa_thread_trigger(struct doca_dpa_thread *t)
{
	pthread_mutex_lock(&t->lock);
	if (t->state != THREAD_FINISHED && t->state != THREAD_ERROR && !t->stopping) {
		t->pending = true;
		atomic_fetch_add_explicit(&t->changes, 1, memory_order_release);
		if (t->state == THREAD_RUNNABLE && !t->running)
			pthread_cond_signal(&t->wake);
	}
	pthread_mutex_unlock(&t->lock);
}

void sdoca_dpa_thread_cancel_point(struct doca_dpa_thread *t)
{
	if (atomic_load_explicit(&t->cancel, memory_order_relaxed))
		sdoca_dpa_thread_leave(t, SDOCA_DPA_LEAVE_RESCHEDULE);
}

void sdoca_dpa_thread_leave(struct doca_dpa_thread *t, enum sdoca_dpa_leave how)
{
	t->leave = how;
	siglongjmp(t->exec.entry, 1);
}

/* Lock held. */
static bool activation_due(const struct doca_dpa_thread *t)
{
	return t->stopping || (t->state == THREAD_RUNNABLE && t->pending);
}

/* Progresses the soft NIC until an activation is due (true, returned with
 * t->lock held) or ACTIVATION_SPIN_NS passed (false, unlocked: then it was
 * handed to the service thread). The clock is read every SPIN_CLOCK_ROUNDS
 * rounds, not every round: a round is a few hundred ns, and the read would
 * be a good part of it. A round that could not progress the soft NIC
 * (another thread has it) gives the CPU up. */
static bool spin_for_activation(struct doca_dpa_thread *t, uint32_t seen)
{
	enum { SPIN_CLOCK_ROUNDS = 16 };
	uint64_t start = sdoca_now_ns();

	for (unsigned int round = 1;; round++) {
		bool polled = sdoca_waiter_poll();

		if (atomic_load_explicit(&t->changes, memory_order_acquire) != seen) {
			pthread_mutex_lock(&t->lock);
			if (activation_due(t))
				return true;
			seen = atomic_load_explicit(&t->changes, memory_order_relaxed);
			pthread_mutex_unlock(&t->lock);
		}
		if (round % SPIN_CLOCK_ROUNDS == 0 &&
		    sdoca_now_ns() - start >= ACTIVATION_SPIN_NS) {
			sdoca_waiter_sleeps();
			return false;
		}
		if (polled)
			sdoca_cpu_relax();
		else
			sched_yield();
	}
}

/* Waits until an activation is due; false when the thread is stopping. */
static bool wait_activation(struct doca_dpa_thread *t)
{
	pthread_mutex_lock(&t->lock);
	bool was_running = t->running;
	t->running = false;
	if (t->leave == SDOCA_DPA_LEAVE_FINISH || t->leave == SDOCA_DPA_LEAVE_ERROR) {
		t->state = t->leave == SDOCA_DPA_LEAVE_ERROR ? THREAD_ERROR : THREAD_FINISHED;
		t->pending = false;
	}
	/* Spins only after an activation of a thread that may run again; one
	 * that finished hands the soft NIC its kernel polled back at once. */
	if (was_running && !activation_due(t)) {
		bool again = t->state == THREAD_RUNNABLE;
		uint32_t seen = atomic_load_explicit(&t->changes, memory_order_relaxed);
		pthread_mutex_unlock(&t->lock);
		if (!again)
			sdoca_waiter_sleeps();
		if (!again || !spin_for_activation(t, seen))
			pthread_mutex_lock(&t->lock);
	}
	while (!activation_due(t))
		pthread_cond_wait(&t->wake, &t->lock);
	bool go = !t->stopping;
	if (go) {
		t->pending = false; /* triggers from now on make one more activation */
		t->running = true;
		t->activations++;
		t->last_activation_ns = sdoca_dpa_info_now_ns();
	}
	pthread_mutex_unlock(&t->lock);
	return go;
}

static void *thread_main(void *arg)
{
	struct doca_dpa_thread *t = arg;
	char name[16];
	snprintf(name, sizeof(name), "dpa-%u", t->id);
	pthread_setname_np(pthread_self(), name);
	sdoca_dpa_exec = &t->exec;
	t->leave = SDOCA_DPA_LEAVE_RESCHEDULE;
	while (wait_activation(t)) {
		t->leave = SDOCA_DPA_LEAVE_RETURN;
		if (sigsetjmp(t->exec.entry, 0) == 0)
			t->kernel->call(t->frame);
		/* Reached by a return or by siglongjmp from reschedule/finish. */
		if (t->leave == SDOCA_DPA_LEAVE_RETURN && !t->warned_return) {
			t->warned_return = true;
			SDOCA_DBG("DPA kernel '%s' (thread %u) returned: treated as a reschedule",
			          t->kernel->name, t->id);
		}
	}
	sdoca_dpa_exec = NULL;
	return NULL;
}

/* Ends the host thread: parked or never activated, it leaves at once; a
 * kernel that never leaves is waited for SDOCA_DPA_JOIN_TIMEOUT_S, then detached. */
static void end_host_thread(struct doca_dpa_thread *t)
{
	if (!t->has_host)
		return;
	pthread_mutex_lock(&t->lock);
	t->stopping = true;
	atomic_fetch_add_explicit(&t->changes, 1, memory_order_release);
	atomic_store(&t->cancel, true);
	pthread_cond_signal(&t->wake);
	pthread_mutex_unlock(&t->lock);
	struct timespec deadline;
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += SDOCA_DPA_JOIN_TIMEOUT_S;
	int rc = pthread_timedjoin_np(t->host, NULL, &deadline);
	if (rc != 0) {
		SDOCA_ERR("DPA thread %u: kernel '%s' did not leave within %d s: detached", t->id,
		          t->kernel->name, SDOCA_DPA_JOIN_TIMEOUT_S);
		pthread_detach(t->host);
		pthread_mutex_lock(&t->lock);
		t->detached = true; /* the kernel still uses the thread: never freed */
		pthread_mutex_unlock(&t->lock);
	}
	t->has_host = false;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_create(struct doca_dpa *dpa,
                                                      struct doca_dpa_thread **dpa_thread)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(dpa_thread))
		return DOCA_ERROR_INVALID_VALUE;
	struct doca_dpa_thread *t = calloc(1, sizeof(*t));
	if (t == NULL)
		return sdoca_fail(DOCA_ERROR_NO_MEMORY, "doca_dpa_thread_create: no memory");
	t->dpa = dpa;
	t->id = atomic_fetch_add(&dpa->next_thread_id, 1) + 1;
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->wake, NULL);
	t->state = THREAD_CREATED;
	t->eu = SOFTDOCA_DPA_NO_EU;
	atomic_fetch_add(&dpa->threads, 1);
	sdoca_dpa_info_add_thread(t);
	*dpa_thread = t;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_destroy(struct doca_dpa_thread *dpa_thread)
{
	if (!sdoca_arg_valid(dpa_thread))
		return DOCA_ERROR_INVALID_VALUE;
	struct doca_dpa_thread *t = dpa_thread;
	int bound = atomic_load(&t->bound);
	if (bound != 0)
		return sdoca_fail(
		        DOCA_ERROR_IN_USE,
		        "doca_dpa_thread_destroy: thread %u: %d completion objects still use it",
		        t->id, bound);
	if (t->tg != NULL && t->tg->started)
		return sdoca_fail(DOCA_ERROR_IN_USE,
		                  "doca_dpa_thread_destroy: thread %u is in a started thread group",
		                  t->id);
	end_host_thread(t);
	sdoca_dpa_info_remove_thread(t);
	if (t->tg != NULL)
		t->tg->threads[t->rank] = NULL;
	atomic_fetch_sub(&t->dpa->threads, 1);
	if (t->detached) {
		/* Leaked: its host thread may still run, and use the DPA. */
		atomic_fetch_add(&t->dpa->leaked_threads, 1);
		return DOCA_SUCCESS;
	}
	pthread_cond_destroy(&t->wake);
	pthread_mutex_destroy(&t->lock);
	free(t->frame);
	free(t);
	return DOCA_SUCCESS;
}

/* A detached thread's kernel never left and still runs on its host thread
 * (and its exec, frame and entry): nothing may change them. */
static bool configurable(const struct doca_dpa_thread *t, const char *caller)
{
	if (t->detached) {
		SDOCA_ERR("%s: thread %u's kernel never left: it cannot change", caller, t->id);
		return false;
	}
	if (t->state != THREAD_CREATED || t->has_host) {
		SDOCA_ERR("%s: thread %u is started", caller, t->id);
		return false;
	}
	return true;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_set_func_arg(struct doca_dpa_thread *dpa_thread,
                                                            doca_dpa_func_t *func, uint64_t arg)
{
	if (!sdoca_arg_valid(dpa_thread) || !sdoca_arg_valid(func))
		return DOCA_ERROR_INVALID_VALUE;
	if (!configurable(dpa_thread, __func__))
		return DOCA_ERROR_BAD_STATE;
	const struct softdoca_dpa_kernel *k =
	        sdoca_dpa_find_kernel(dpa_thread->dpa, func, SOFTDOCA_DPA_KERNEL_GLOBAL, __func__);
	if (k == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	if (k->num_args != 1 || k->frame_size != sizeof(uint64_t))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "%s: kernel '%s' must take one uint64_t to run on a DPA thread",
		                  __func__, k->name);
	pthread_mutex_lock(&dpa_thread->lock); /* softdoca-info reads the kernel */
	dpa_thread->func = func;
	dpa_thread->kernel = k;
	dpa_thread->arg = arg;
	pthread_mutex_unlock(&dpa_thread->lock);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_get_func_arg(struct doca_dpa_thread *dpa_thread,
                                                            doca_dpa_func_t **func, uint64_t *arg)
{
	if (!sdoca_arg_valid(dpa_thread) || !sdoca_arg_valid(func) || !sdoca_arg_valid(arg))
		return DOCA_ERROR_INVALID_VALUE;
	if (dpa_thread->func == NULL)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: thread %u has no kernel set", __func__,
		                  dpa_thread->id);
	*func = dpa_thread->func;
	*arg = dpa_thread->arg;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_set_local_storage(struct doca_dpa_thread *dpa_thread,
                                                                 doca_dpa_dev_uintptr_t dev_ptr)
{
	if (!sdoca_arg_valid(dpa_thread))
		return DOCA_ERROR_INVALID_VALUE;
	if (!configurable(dpa_thread, __func__))
		return DOCA_ERROR_BAD_STATE;
	if (dev_ptr != 0 &&
	    sdoca_dpa_mem_check(dpa_thread->dpa, dev_ptr, 1, __func__) != DOCA_SUCCESS)
		return DOCA_ERROR_INVALID_VALUE;
	dpa_thread->local_storage = dev_ptr;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_get_local_storage(struct doca_dpa_thread *dpa_thread,
                                                                 doca_dpa_dev_uintptr_t *dev_ptr)
{
	if (!sdoca_arg_valid(dpa_thread) || !sdoca_arg_valid(dev_ptr))
		return DOCA_ERROR_INVALID_VALUE;
	*dev_ptr = dpa_thread->local_storage;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_set_affinity(
        struct doca_dpa_thread *dpa_thread, const struct doca_dpa_eu_affinity *affinity)
{
	if (!sdoca_arg_valid(dpa_thread) || !sdoca_arg_valid(affinity))
		return DOCA_ERROR_INVALID_VALUE;
	if (!configurable(dpa_thread, __func__))
		return DOCA_ERROR_BAD_STATE;
	/* Validated and kept for show: host threads are not pinned (2.6). */
	pthread_mutex_lock(&dpa_thread->lock);
	dpa_thread->affinity = affinity;
	dpa_thread->eu = sdoca_dpa_affinity_eu(affinity);
	pthread_mutex_unlock(&dpa_thread->lock);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_get_affinity(
        struct doca_dpa_thread *dpa_thread, const struct doca_dpa_eu_affinity **affinity)
{
	if (!sdoca_arg_valid(dpa_thread) || !sdoca_arg_valid(affinity))
		return DOCA_ERROR_INVALID_VALUE;
	if (dpa_thread->affinity == NULL)
		return sdoca_fail(DOCA_ERROR_NOT_FOUND, "%s: thread %u has no affinity set",
		                  __func__, dpa_thread->id);
	*affinity = dpa_thread->affinity;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_start(struct doca_dpa_thread *dpa_thread)
{
	if (!sdoca_arg_valid(dpa_thread))
		return DOCA_ERROR_INVALID_VALUE;
	struct doca_dpa_thread *t = dpa_thread;
	if (!configurable(t, __func__))
		return DOCA_ERROR_BAD_STATE;
	if (!t->dpa->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: the DPA is not started", __func__);
	if (t->kernel == NULL)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "%s: thread %u has no kernel: set_func_arg first", __func__,
		                  t->id);
	if (t->frame == NULL) {
		t->frame = aligned_alloc(alignof(max_align_t), alignof(max_align_t));
		if (t->frame == NULL)
			return sdoca_fail(DOCA_ERROR_NO_MEMORY, "%s: no memory", __func__);
	}
	/* The frame dpacc generated for a one-uint64_t kernel starts with it. */
	memcpy(t->frame, &t->arg, sizeof(t->arg));
	pthread_mutex_lock(&t->lock); /* softdoca-info reads exec and state */
	t->exec = (struct sdoca_dpa_exec){ .dpa = t->dpa,
		                           .selected = t->dpa,
		                           .thread = t,
		                           .thread_id = t->id,
		                           .kernel = t->kernel,
		                           .rank = t->tg != NULL ? t->rank : 0,
		                           .num_threads = t->tg != NULL ? t->tg->num_threads : 1 };
	t->stopping = false;
	atomic_store(&t->cancel, false);
	t->pending = false;
	t->state = THREAD_STARTED;
	pthread_mutex_unlock(&t->lock);
	sdoca_dpa_fault_install();
	int rc = pthread_create(&t->host, NULL, thread_main, t);
	if (rc != 0) {
		pthread_mutex_lock(&t->lock);
		t->state = THREAD_CREATED;
		pthread_mutex_unlock(&t->lock);
		return sdoca_fail(DOCA_ERROR_NO_MEMORY, "%s: thread %u: pthread_create: %s",
		                  __func__, t->id, strerror(rc));
	}
	t->has_host = true;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_run(struct doca_dpa_thread *dpa_thread)
{
	if (!sdoca_arg_valid(dpa_thread))
		return DOCA_ERROR_INVALID_VALUE;
	struct doca_dpa_thread *t = dpa_thread;
	pthread_mutex_lock(&t->lock);
	enum thread_state state = t->state;
	if (state == THREAD_STARTED && t->has_host) {
		/* Runnable, not activated: the first activation is a trigger (1.11). */
		t->state = THREAD_RUNNABLE;
		if (t->pending)
			pthread_cond_signal(&t->wake);
	}
	pthread_mutex_unlock(&t->lock);
	if (state != THREAD_STARTED || !t->has_host)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: thread %u is %s, not started",
		                  __func__, t->id, state_names[state]);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_stop(struct doca_dpa_thread *dpa_thread)
{
	if (!sdoca_arg_valid(dpa_thread))
		return DOCA_ERROR_INVALID_VALUE;
	struct doca_dpa_thread *t = dpa_thread;
	if (!t->has_host)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: thread %u is not started", __func__,
		                  t->id);
	end_host_thread(t);
	pthread_mutex_lock(&t->lock);
	t->state = THREAD_CREATED; /* configurable and startable again */
	pthread_mutex_unlock(&t->lock);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_get_id(struct doca_dpa_thread *dpa_thread,
                                                      uint32_t *dpa_thread_id)
{
	if (!sdoca_arg_valid(dpa_thread) || !sdoca_arg_valid(dpa_thread_id))
		return DOCA_ERROR_INVALID_VALUE;
	*dpa_thread_id = dpa_thread->id;
	return DOCA_SUCCESS;
}

uint64_t sdoca_dpa_thread_activations(struct doca_dpa_thread *t, const char **state)
{
	pthread_mutex_lock(&t->lock);
	uint64_t n = t->activations;
	if (state != NULL)
		*state = state_names[t->state];
	pthread_mutex_unlock(&t->lock);
	return n;
}

void sdoca_dpa_thread_info(struct doca_dpa_thread *t, struct softdoca_dpa_thread_counters *out)
{
	static const enum softdoca_dpa_thread_state shown[] = {
		[THREAD_CREATED] = SOFTDOCA_DPA_THREAD_CREATED,
		[THREAD_STARTED] = SOFTDOCA_DPA_THREAD_STARTED,
		[THREAD_RUNNABLE] = SOFTDOCA_DPA_THREAD_RUNNABLE,
		[THREAD_FINISHED] = SOFTDOCA_DPA_THREAD_FINISHED,
	};
	uint64_t now = sdoca_dpa_info_now_ns();
	pthread_mutex_lock(&t->lock);
	out->id = t->id;
	if (t->kernel != NULL)
		snprintf(out->kernel, sizeof(out->kernel), "%s", t->kernel->name);
	out->state = t->detached  ? SOFTDOCA_DPA_THREAD_DETACHED
	             : t->running ? SOFTDOCA_DPA_THREAD_RUNNING
	                          : shown[t->state];
	out->trigger_pending = t->pending;
	out->rank = t->exec.rank;
	out->num_ranks = t->exec.num_threads;
	out->eu = t->eu;
	out->activations = t->activations;
	out->ns_since_activation = t->activations == 0           ? SOFTDOCA_DPA_NEVER
	                           : now > t->last_activation_ns ? now - t->last_activation_ns
	                                                         : 0;
	pthread_mutex_unlock(&t->lock);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_group_create(struct doca_dpa *dpa,
                                                            unsigned int num_threads,
                                                            struct doca_dpa_tg **tg)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(tg))
		return DOCA_ERROR_INVALID_VALUE;
	if (num_threads == 0 || num_threads > dpa->total_eus)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "doca_dpa_thread_group_create: %u threads: must be 1..%u",
		                  num_threads, dpa->total_eus);
	struct doca_dpa_tg *g = calloc(1, sizeof(*g));
	struct doca_dpa_thread **threads = calloc(num_threads, sizeof(*threads));
	if (g == NULL || threads == NULL) {
		free(g);
		free(threads);
		return sdoca_fail(DOCA_ERROR_NO_MEMORY, "doca_dpa_thread_group_create: no memory");
	}
	g->dpa = dpa;
	g->num_threads = num_threads;
	g->threads = threads;
	*tg = g;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_group_destroy(struct doca_dpa_tg *tg)
{
	if (!sdoca_arg_valid(tg))
		return DOCA_ERROR_INVALID_VALUE;
	if (tg->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_dpa_thread_group_destroy: the group is started");
	for (unsigned int i = 0; i < tg->num_threads; i++)
		if (tg->threads[i] != NULL)
			tg->threads[i]->tg = NULL;
	free(tg->threads);
	free(tg);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_group_get_num_threads(struct doca_dpa_tg *tg,
                                                                     unsigned int *num_threads)
{
	if (!sdoca_arg_valid(tg) || !sdoca_arg_valid(num_threads))
		return DOCA_ERROR_INVALID_VALUE;
	*num_threads = tg->num_threads;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_group_set_thread(struct doca_dpa_tg *tg,
                                                                struct doca_dpa_thread *thread,
                                                                unsigned int rank)
{
	if (!sdoca_arg_valid(tg) || !sdoca_arg_valid(thread))
		return DOCA_ERROR_INVALID_VALUE;
	if (tg->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: the group is started", __func__);
	if (rank >= tg->num_threads)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "%s: rank %u of a group of %u",
		                  __func__, rank, tg->num_threads);
	if (thread->dpa != tg->dpa)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "%s: thread %u is of another DPA",
		                  __func__, thread->id);
	if (thread->tg != NULL)
		return sdoca_fail(DOCA_ERROR_IN_USE, "%s: thread %u is in a group already",
		                  __func__, thread->id);
	if (tg->threads[rank] != NULL)
		return sdoca_fail(DOCA_ERROR_IN_USE, "%s: rank %u is taken", __func__, rank);
	tg->threads[rank] = thread;
	thread->tg = tg;
	thread->rank = rank;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_group_start(struct doca_dpa_tg *tg)
{
	if (!sdoca_arg_valid(tg))
		return DOCA_ERROR_INVALID_VALUE;
	if (tg->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: the group is started already",
		                  __func__);
	for (unsigned int i = 0; i < tg->num_threads; i++)
		if (tg->threads[i] == NULL)
			return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: rank %u has no thread",
			                  __func__, i);
	/* Threads started before joining see their rank from now on; the host
	 * thread reads exec only inside activations, which need a run after. */
	for (unsigned int i = 0; i < tg->num_threads; i++) {
		struct doca_dpa_thread *t = tg->threads[i];
		pthread_mutex_lock(&t->lock);
		t->exec.rank = i;
		t->exec.num_threads = tg->num_threads;
		pthread_mutex_unlock(&t->lock);
	}
	tg->started = true;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_thread_group_stop(struct doca_dpa_tg *tg)
{
	if (!sdoca_arg_valid(tg))
		return DOCA_ERROR_INVALID_VALUE;
	if (!tg->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: the group is not started", __func__);
	tg->started = false;
	return DOCA_SUCCESS;
}
