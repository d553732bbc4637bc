/*
 * libdoca_dpa: what softdoca-info --pid shows of the process's DPAs.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libdoca_dpa: what softdoca-info --pid shows of the process's DPAs
 * (docs/dpa.md 2.13), so that nothing hangs silently: per DPA its program,
 * last error and memory, per DPA thread its kernel, state, rank, EU,
 * activations, time since the last one and its completion contexts' depth.
 *
 * A registry holds the live DPA contexts, threads and completion contexts.
 * The counters channel is below libdoca_dpa (layers call only downward), so
 * the first doca_dpa_start hands it collect() (diag/stats_dpa.h), which its
 * service thread calls while DPA threads run: under the registry's lock
 * (objects are removed before they are freed) each object is read under its
 * own lock, never the other way round.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/dev.h"
#include "core/sdk_log.h"
#include "dpa/info.h"
#include "diag/stats_dpa.h"

SDOCA_LOG_MODULE(dpa_info);

struct info_dpa {
	struct doca_dpa *dpa;
	char app_name[64]; /* copied at start: set_app may change it while stopped */
	bool started;
	bool attached; /* holds the counters channel (stats_dpa.h) */
};

/* A growable array of pointers. */
struct list {
	void **items;
	size_t num, cap;
};

static struct {
	pthread_mutex_t lock;
	struct info_dpa *dpas;
	size_t num_dpas, cap_dpas;
	struct list threads;
	struct list completions;
} reg = { .lock = PTHREAD_MUTEX_INITIALIZER };

uint64_t sdoca_dpa_info_now_ns(void)
{
	/* Every activation stamps its start: the coarse clock costs a few ns
	 * (the precise one about 20) and milliseconds are enough to see a
	 * thread stuck. */
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Caller holds reg.lock. */
static bool grow(void **items, size_t *cap, size_t num, size_t size)
{
	if (num < *cap)
		return true;
	size_t n = *cap ? *cap * 2 : 16;
	void *grown = realloc(*items, n * size);
	if (grown == NULL)
		return false;
	*items = grown;
	*cap = n;
	return true;
}

static void list_add(struct list *l, void *obj, const char *what)
{
	pthread_mutex_lock(&reg.lock);
	if (grow((void **)&l->items, &l->cap, l->num, sizeof(*l->items)))
		l->items[l->num++] = obj;
	else
		SDOCA_WARN("no memory: softdoca-info will not show a %s", what);
	pthread_mutex_unlock(&reg.lock);
}

static void list_remove(struct list *l, void *obj)
{
	pthread_mutex_lock(&reg.lock);
	for (size_t i = 0; i < l->num; i++) {
		if (l->items[i] == obj) {
			l->items[i] = l->items[--l->num];
			break;
		}
	}
	pthread_mutex_unlock(&reg.lock);
}

void sdoca_dpa_info_add_thread(struct doca_dpa_thread *t)
{
	list_add(&reg.threads, t, "DPA thread");
}

void sdoca_dpa_info_remove_thread(struct doca_dpa_thread *t)
{
	list_remove(&reg.threads, t);
}

void sdoca_dpa_info_add_completion(struct doca_dpa_completion *c)
{
	list_add(&reg.completions, c, "DPA completion context");
}

void sdoca_dpa_info_remove_completion(struct doca_dpa_completion *c)
{
	list_remove(&reg.completions, c);
}

void sdoca_dpa_info_add_dpa(struct doca_dpa *dpa)
{
	pthread_mutex_lock(&reg.lock);
	if (grow((void **)&reg.dpas, &reg.cap_dpas, reg.num_dpas, sizeof(*reg.dpas)))
		reg.dpas[reg.num_dpas++] = (struct info_dpa){ .dpa = dpa };
	else
		SDOCA_WARN("no memory: softdoca-info will not show a DPA context");
	pthread_mutex_unlock(&reg.lock);
}

/* Caller holds reg.lock. */
static struct info_dpa *find_dpa(const struct doca_dpa *dpa)
{
	for (size_t i = 0; i < reg.num_dpas; i++)
		if (reg.dpas[i].dpa == dpa)
			return &reg.dpas[i];
	return NULL;
}

static doca_error_t collect(struct softdoca_process_counters *pc);

void sdoca_dpa_info_started(struct doca_dpa *dpa, bool started)
{
	bool attach = false;
	pthread_mutex_lock(&reg.lock);
	struct info_dpa *d = find_dpa(dpa);
	if (d != NULL) {
		d->started = started;
		if (started)
			snprintf(d->app_name, sizeof(d->app_name), "%s", dpa->app->name);
		attach = started && !d->attached;
		d->attached = d->attached || attach;
	}
	pthread_mutex_unlock(&reg.lock);
	/* Outside reg.lock: the service thread may be in collect() */
	if (attach)
		sdoca_stats_dpa_attach(collect);
}

void sdoca_dpa_info_remove_dpa(struct doca_dpa *dpa)
{
	bool detach = false;
	pthread_mutex_lock(&reg.lock);
	struct info_dpa *d = find_dpa(dpa);
	if (d != NULL) {
		detach = d->attached;
		*d = reg.dpas[--reg.num_dpas];
	}
	pthread_mutex_unlock(&reg.lock);
	/* Outside reg.lock: it may join the service thread, which may wait for it */
	if (detach)
		sdoca_stats_dpa_detach();
}

/* Caller holds reg.lock: the index of t's DPA among the first num, or -1. */
static ptrdiff_t dpa_index(const struct doca_dpa_thread *t, size_t num)
{
	for (size_t i = 0; i < num; i++)
		if (sdoca_dpa_thread_of(t, reg.dpas[i].dpa))
			return (ptrdiff_t)i;
	return -1;
}

/* One completion context, read once: whose and how deep. */
struct comp_depth {
	const struct doca_dpa *dpa;
	struct doca_dpa_thread *thread;
	uint64_t populated, unread, held;
};

static void fill_dpa(const struct info_dpa *d, const struct comp_depth *comps, size_t num_comps,
                     struct softdoca_dpa_counters *out)
{
	memcpy(out->app_name, d->app_name, sizeof(out->app_name));
	snprintf(out->ibdev_name, sizeof(out->ibdev_name), "%s", d->dpa->dev->info.ibdev_name);
	out->last_error = (doca_error_t)atomic_load(&d->dpa->last_error);
	out->num_threads = atomic_load(&d->dpa->threads);
	sdoca_dpa_mem_in_use(d->dpa, &out->mem_bytes, &out->mem_blocks);
	out->num_eus = d->dpa->total_eus;
	out->started = d->started;
	for (size_t i = 0; i < num_comps; i++) {
		if (comps[i].dpa != d->dpa || comps[i].thread != NULL)
			continue;
		out->polled_completions++;
		out->polled_cq_populated += comps[i].populated;
		out->polled_cq_unread += comps[i].unread;
		out->polled_cq_held += comps[i].held;
	}
}

static void fill_thread(struct doca_dpa_thread *t, uint32_t dpa, const struct comp_depth *comps,
                        size_t num_comps, struct softdoca_dpa_thread_counters *out)
{
	sdoca_dpa_thread_info(t, out);
	out->dpa = dpa;
	for (size_t i = 0; i < num_comps; i++) {
		if (comps[i].thread != t)
			continue;
		out->completions++;
		out->cq_populated += comps[i].populated;
		out->cq_unread += comps[i].unread;
		out->cq_held += comps[i].held;
	}
}

/* The counters channel's hook (service thread): every registered DPA and
 * every thread of one, as the snapshot's DPA section. */
static doca_error_t collect(struct softdoca_process_counters *pc)
{
	doca_error_t err = DOCA_SUCCESS;
	struct comp_depth *comps = NULL;
	pthread_mutex_lock(&reg.lock);
	/* at most what a snapshot holds; threads beyond are left out */
	size_t num_dpas = reg.num_dpas < SDOCA_STATS_MAX_DPAS ? reg.num_dpas : SDOCA_STATS_MAX_DPAS;
	size_t max_threads = reg.threads.num < SDOCA_STATS_MAX_DPA_THREADS
	                             ? reg.threads.num
	                             : SDOCA_STATS_MAX_DPA_THREADS;
	if (num_dpas == 0)
		goto out;
	pc->dpas = calloc(num_dpas, sizeof(*pc->dpas));
	pc->dpa_threads = calloc(max_threads ? max_threads : 1, sizeof(*pc->dpa_threads));
	comps = calloc(reg.completions.num ? reg.completions.num : 1, sizeof(*comps));
	if (pc->dpas == NULL || pc->dpa_threads == NULL || comps == NULL) {
		err = DOCA_ERROR_NO_MEMORY;
		goto out;
	}
	for (size_t i = 0; i < reg.completions.num; i++)
		comps[i].thread = sdoca_dpa_completion_info(reg.completions.items[i], &comps[i].dpa,
		                                            &comps[i].populated, &comps[i].unread,
		                                            &comps[i].held);
	for (size_t i = 0; i < num_dpas; i++)
		fill_dpa(&reg.dpas[i], comps, reg.completions.num, &pc->dpas[i]);
	pc->num_dpas = (uint32_t)num_dpas;
	for (size_t i = 0; i < reg.threads.num && pc->num_dpa_threads < max_threads; i++) {
		struct doca_dpa_thread *t = reg.threads.items[i];
		ptrdiff_t dpa = dpa_index(t, num_dpas);
		if (dpa < 0)
			continue; /* its DPA could not be registered */
		fill_thread(t, (uint32_t)dpa, comps, reg.completions.num,
		            &pc->dpa_threads[pc->num_dpa_threads++]);
	}
out:
	pthread_mutex_unlock(&reg.lock);
	free(comps);
	if (err != DOCA_SUCCESS) {
		free(pc->dpas);
		free(pc->dpa_threads);
		pc->dpas = NULL;
		pc->dpa_threads = NULL;
		pc->num_dpas = pc->num_dpa_threads = 0;
	}
	return err;
}
