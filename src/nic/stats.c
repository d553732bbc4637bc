/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Counters: a QP counts in the arrays of struct softdoca_rdma_counters (by
 * operation type, by syndrome) and the totals are summed when read, so the
 * data path pays one increment per counted event. A device's counters are
 * those of its live QPs plus what the process's QPs on it counted before
 * they went (kept here by device name for the process's life), plus the
 * strangers' messages that named no QP of it.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dev.h"
#include "nic/nic.h"

_Static_assert(sizeof(struct softdoca_rdma_counters) % sizeof(uint64_t) == 0,
               "the counters are an array of uint64_t");
_Static_assert(SOFTDOCA_OP_ATOMIC_CS == NIC_OP_ATOMIC_CS - 1 &&
                       SOFTDOCA_OP_WRITE == NIC_OP_WRITE - 1,
               "operation types are request opcodes less one");
_Static_assert((int)SOFTDOCA_SYN_REMOTE_OPERATIONAL == (int)NIC_SYN_REMOTE_OPERATIONAL,
               "syndromes are the wire's");

#define NUM_WORDS (sizeof(struct softdoca_rdma_counters) / sizeof(uint64_t))

/* What went, by device. */
struct retired {
	char name[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	struct softdoca_rdma_counters counters;
	struct retired *next;
};

static struct {
	pthread_mutex_t lock;
	struct retired *list;
} retired = { .lock = PTHREAD_MUTEX_INITIALIZER };

void nic_counters_add(struct softdoca_rdma_counters *to, const struct softdoca_rdma_counters *from)
{
	uint64_t words[NUM_WORDS], add[NUM_WORDS];

	memcpy(words, to, sizeof(words));
	memcpy(add, from, sizeof(add));
	for (size_t i = 0; i < NUM_WORDS; i++)
		words[i] += add[i];
	memcpy(to, words, sizeof(words));
}

void nic_counters_finish(struct softdoca_rdma_counters *c)
{
	c->requests_posted = c->bytes_sent = c->requests_served = c->bytes_placed = 0;
	c->naks_sent = c->naks_received = 0;
	for (int op = 0; op < SOFTDOCA_NUM_OP_TYPES; op++) {
		bool payload = nic_op_has_payload((uint8_t)(op + 1));

		c->requests_posted += c->posted[op];
		c->requests_served += c->served[op];
		if (payload) {
			c->bytes_sent += c->posted_bytes[op];
			c->bytes_placed += c->served_bytes[op];
		}
	}
	for (int s = 0; s < SOFTDOCA_NUM_SYNDROMES; s++) {
		c->naks_sent += c->naks_sent_by_syndrome[s];
		c->naks_received += c->naks_received_by_syndrome[s];
	}
}

static struct retired *find(const char *name, bool create)
{
	struct retired *r;

	for (r = retired.list; r; r = r->next)
		if (strcmp(r->name, name) == 0)
			return r;
	if (!create || !(r = calloc(1, sizeof(*r))))
		return NULL;
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->next = retired.list;
	retired.list = r;
	return r;
}

void nic_stats_retire(const struct nic_worker *w, const struct softdoca_rdma_counters *c)
{
	struct retired *r;

	pthread_mutex_lock(&retired.lock);
	r = find(w->dev->info.ibdev_name, true);
	if (r) /* out of memory: the device's history loses these */
		nic_counters_add(&r->counters, c);
	pthread_mutex_unlock(&retired.lock);
}

struct dev_sum {
	const char *name;
	struct softdoca_rdma_counters *out;
};

static void add_worker(struct nic_worker *w, void *arg)
{
	struct dev_sum *sum = arg;

	if (strcmp(w->dev->info.ibdev_name, sum->name) != 0)
		return;
	for (uint32_t i = 0; i < w->num_qp_slots; i++)
		if (w->qps[i])
			nic_counters_add(sum->out, &w->qps[i]->counters);
}

void nic_dev_counters(const char *ibdev_name, struct softdoca_rdma_counters *out)
{
	struct dev_sum sum = { ibdev_name, out };
	struct retired *r;

	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&retired.lock);
	r = find(ibdev_name, false);
	if (r)
		*out = r->counters;
	pthread_mutex_unlock(&retired.lock);
	nic_workers_visit(add_worker, &sum);
	nic_counters_finish(out);
}
