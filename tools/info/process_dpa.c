/*
 * softdoca-info --pid P: the process's DPA contexts and threads.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * softdoca-info --pid P, its DPA part: the process's DPA contexts and their
 * threads (docs/dpa.md 2.13), so that a DPA program that waits forever
 * shows which thread waits, in which state, since when, and with how many
 * completions in front of it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "info.h"

static const char *const thread_states[] = {
	[SOFTDOCA_DPA_THREAD_CREATED] = "created",   [SOFTDOCA_DPA_THREAD_STARTED] = "started",
	[SOFTDOCA_DPA_THREAD_RUNNABLE] = "runnable", [SOFTDOCA_DPA_THREAD_RUNNING] = "running",
	[SOFTDOCA_DPA_THREAD_FINISHED] = "finished", [SOFTDOCA_DPA_THREAD_DETACHED] = "detached",
};

const char *info_dpa_thread_state_name(enum softdoca_dpa_thread_state s)
{
	return (unsigned)s < sizeof(thread_states) / sizeof(thread_states[0]) ? thread_states[s]
	                                                                      : "?";
}

bool info_dpa_shown(const struct softdoca_process_counters *pc, uint32_t dpa, const char *only)
{
	return !only || strcmp(pc->dpas[dpa].ibdev_name, only) == 0;
}

bool info_dpa_on_device(const struct softdoca_process_counters *pc, const char *ibdev)
{
	for (uint32_t i = 0; i < pc->num_dpas; i++)
		if (info_dpa_shown(pc, i, ibdev))
			return true;
	return false;
}

void info_print_dpa_text(const struct softdoca_process_counters *pc, const char *only)
{
	bool any_thread = false;

	for (uint32_t i = 0; i < pc->num_dpas; i++) {
		const struct softdoca_dpa_counters *d = &pc->dpas[i];

		if (!info_dpa_shown(pc, i, only))
			continue;
		printf("\nDPA %u:\t%s (hca_id %s, %s)\n", i, d->app_name[0] ? d->app_name : "-",
		       d->ibdev_name, d->started ? "started" : "stopped");
		printf("\tlast_error:\t\t%s\n", doca_error_get_name(d->last_error));
		printf("\tthreads:\t\t%u\n", d->num_threads);
		printf("\tmemory_in_use:\t\t%" PRIu64 " bytes in %u blocks\n", d->mem_bytes,
		       d->mem_blocks);
		printf("\teus_available:\t\t%u\n", d->num_eus);
		printf("\tpolled_cqs:\t\t%u (populated %" PRIu64 ", unread %" PRIu64
		       ", held %" PRIu64 ")\n",
		       d->polled_completions, d->polled_cq_populated, d->polled_cq_unread,
		       d->polled_cq_held);
	}
	for (uint32_t i = 0; i < pc->num_dpa_threads; i++) {
		const struct softdoca_dpa_thread_counters *t = &pc->dpa_threads[i];
		char rank[24] = "-", eu[12] = "-", since[32] = "never";

		if (!info_dpa_shown(pc, t->dpa, only))
			continue;
		if (!any_thread)
			printf("\n%-8s %-4s %-24s %-9s %-7s %-7s %-5s %12s %14s %4s %10s %10s "
			       "%10s\n",
			       "thread", "dpa", "kernel", "state", "trigger", "rank", "eu",
			       "activations", "last_activation", "cqs", "populated", "unread",
			       "held");
		any_thread = true;
		if (t->num_ranks)
			snprintf(rank, sizeof(rank), "%u/%u", t->rank, t->num_ranks);
		if (t->eu != SOFTDOCA_DPA_NO_EU)
			snprintf(eu, sizeof(eu), "%u", t->eu);
		if (t->ns_since_activation != SOFTDOCA_DPA_NEVER)
			snprintf(since, sizeof(since), "%.3f s ago",
			         (double)t->ns_since_activation / 1e9);
		printf("%-8u %-4u %-24s %-9s %-7s %-7s %-5s %12" PRIu64 " %14s %4u %10" PRIu64
		       " %10" PRIu64 " %10" PRIu64 "\n",
		       t->id, t->dpa, t->kernel[0] ? t->kernel : "-",
		       info_dpa_thread_state_name(t->state), t->trigger_pending ? "pending" : "-",
		       rank, eu, t->activations, since, t->completions, t->cq_populated,
		       t->cq_unread, t->cq_held);
	}
}

static json_object *int64(uint64_t v)
{
	return json_object_new_int64((int64_t)v);
}

static json_object *dpa_json(const struct softdoca_dpa_counters *d, uint32_t index)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "index", int64(index));
	json_object_object_add(o, "app_name", json_object_new_string(d->app_name));
	json_object_object_add(o, "ibdev_name", json_object_new_string(d->ibdev_name));
	json_object_object_add(o, "started", json_object_new_boolean(d->started));
	json_object_object_add(o, "last_error",
	                       json_object_new_string(doca_error_get_name(d->last_error)));
	json_object_object_add(o, "threads", int64(d->num_threads));
	json_object_object_add(o, "memory_in_use_bytes", int64(d->mem_bytes));
	json_object_object_add(o, "memory_blocks", int64(d->mem_blocks));
	json_object_object_add(o, "eus_available", int64(d->num_eus));
	json_object_object_add(o, "polled_completion_contexts", int64(d->polled_completions));
	json_object_object_add(o, "polled_cq_populated", int64(d->polled_cq_populated));
	json_object_object_add(o, "polled_cq_unread", int64(d->polled_cq_unread));
	json_object_object_add(o, "polled_cq_held", int64(d->polled_cq_held));
	return o;
}

static json_object *thread_json(const struct softdoca_dpa_thread_counters *t)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "id", int64(t->id));
	json_object_object_add(o, "dpa", int64(t->dpa));
	json_object_object_add(o, "kernel",
	                       t->kernel[0] ? json_object_new_string(t->kernel) : NULL);
	json_object_object_add(o, "state",
	                       json_object_new_string(info_dpa_thread_state_name(t->state)));
	json_object_object_add(o, "trigger_pending", json_object_new_boolean(t->trigger_pending));
	json_object_object_add(o, "rank", t->num_ranks ? int64(t->rank) : NULL);
	json_object_object_add(o, "num_ranks", t->num_ranks ? int64(t->num_ranks) : NULL);
	json_object_object_add(o, "eu", t->eu != SOFTDOCA_DPA_NO_EU ? int64(t->eu) : NULL);
	json_object_object_add(o, "activations", int64(t->activations));
	json_object_object_add(o, "ns_since_activation",
	                       t->ns_since_activation != SOFTDOCA_DPA_NEVER
	                               ? int64(t->ns_since_activation)
	                               : NULL);
	json_object_object_add(o, "completion_contexts", int64(t->completions));
	json_object_object_add(o, "cq_populated", int64(t->cq_populated));
	json_object_object_add(o, "cq_unread", int64(t->cq_unread));
	json_object_object_add(o, "cq_held", int64(t->cq_held));
	return o;
}

bool info_add_dpa_json(json_object *root, const struct softdoca_process_counters *pc,
                       const char *only)
{
	json_object *dpas = json_object_new_array(), *threads = json_object_new_array();

	if (!dpas || !threads) {
		json_object_put(dpas);
		json_object_put(threads);
		return false;
	}
	for (uint32_t i = 0; i < pc->num_dpas; i++)
		if (info_dpa_shown(pc, i, only))
			json_object_array_add(dpas, dpa_json(&pc->dpas[i], i));
	for (uint32_t i = 0; i < pc->num_dpa_threads; i++)
		if (info_dpa_shown(pc, pc->dpa_threads[i].dpa, only))
			json_object_array_add(threads, thread_json(&pc->dpa_threads[i]));
	json_object_object_add(root, "dpas", dpas);
	json_object_object_add(root, "dpa_threads", threads);
	return true;
}
