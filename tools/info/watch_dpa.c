/*
 * softdoca-info --watch: the DPA threads' part of an interval.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * A DPA program's queues are its threads' completion contexts: their depth
 * (populated, unread, held back) is a gauge, shown as read now; activations
 * are a count, shown per second since the previous snapshot. A thread is
 * the same one in two snapshots when its id and its DPA's program and
 * device are; one seen first counts from 0.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "info.h"

static const struct softdoca_dpa_counters *dpa_of(const struct softdoca_process_counters *pc,
                                                  const struct softdoca_dpa_thread_counters *t)
{
	return t->dpa < pc->num_dpas ? &pc->dpas[t->dpa] : NULL;
}

static bool same_dpa(const struct softdoca_dpa_counters *a, const struct softdoca_dpa_counters *b)
{
	return a && b && strcmp(a->app_name, b->app_name) == 0 &&
	       strcmp(a->ibdev_name, b->ibdev_name) == 0;
}

/* Activations per second of t over the interval. */
static double activation_rate(const struct info_interval *iv,
                              const struct softdoca_dpa_thread_counters *t)
{
	const struct softdoca_dpa_counters *dpa = dpa_of(iv->now, t);
	uint64_t before = 0;

	for (uint32_t i = 0; i < iv->before->num_dpa_threads; i++) {
		const struct softdoca_dpa_thread_counters *b = &iv->before->dpa_threads[i];

		if (b->id == t->id && same_dpa(dpa_of(iv->before, b), dpa)) {
			before = b->activations <= t->activations ? b->activations : 0;
			break;
		}
	}
	return (double)(t->activations - before) / iv->seconds;
}

void info_watch_print_dpa_text(const struct info_interval *iv, const char *only)
{
	const struct softdoca_process_counters *pc = iv->now;
	bool any = false;

	for (uint32_t i = 0; i < pc->num_dpa_threads; i++) {
		const struct softdoca_dpa_thread_counters *t = &pc->dpa_threads[i];

		if (!info_dpa_shown(pc, t->dpa, only))
			continue;
		if (!any)
			printf("%-10s %-4s %-24s %-9s %12s %5s %10s %10s %10s\n", "dpa_thread",
			       "dpa", "kernel", "state", "activ/s", "cqs", "populated", "unread",
			       "held");
		any = true;
		printf("%-10u %-4u %-24s %-9s %12.0f %5u %10" PRIu64 " %10" PRIu64 " %10" PRIu64
		       "\n",
		       t->id, t->dpa, t->kernel[0] ? t->kernel : "-",
		       info_dpa_thread_state_name(t->state), activation_rate(iv, t), t->completions,
		       t->cq_populated, t->cq_unread, t->cq_held);
	}
}

bool info_watch_add_dpa_json(json_object *root, const struct info_interval *iv, const char *only)
{
	const struct softdoca_process_counters *pc = iv->now;
	json_object *threads;
	size_t j = 0;
	char text[40];

	/* The snapshot's members, as --pid --json has them, then each
	 * thread's rate added in the same order. */
	if (!info_add_dpa_json(root, pc, only) ||
	    !json_object_object_get_ex(root, "dpa_threads", &threads))
		return false;
	for (uint32_t i = 0; i < pc->num_dpa_threads; i++) {
		const struct softdoca_dpa_thread_counters *t = &pc->dpa_threads[i];
		json_object *o;
		double rate;

		if (!info_dpa_shown(pc, t->dpa, only))
			continue;
		o = json_object_array_get_idx(threads, j++);
		if (!o)
			return false;
		rate = activation_rate(iv, t);
		snprintf(text, sizeof(text), "%.3f", rate);
		json_object_object_add(o, "activations_per_s",
		                       json_object_new_double_s(rate, text));
	}
	return true;
}
