/*
 * Counters per QP, by operation type and syndrome.
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
#include <unistd.h>

#include "core/dev.h"
#include "nic/nic.h"

_Static_assert(sizeof(struct softdoca_rdma_counters) % sizeof(uint64_t) == 0,
               "the counters are an array of uint64_t");
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
	/* Each request's slot is the one its row names (wire.c checks there
	 * is one per request). */
	for (uint8_t op = 0; op < NIC_OP_REQUESTS_END; op++) {
		const struct nic_opcode_info *row = nic_op(op);

		if (!nic_op_is_request(op))
			continue;
		c->requests_posted += c->posted[row->counter];
		c->requests_served += c->served[row->counter];
		if (row->flags & NIC_OPF_PAYLOAD) {
			c->bytes_sent += c->posted_bytes[row->counter];
			c->bytes_placed += c->served_bytes[row->counter];
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

	nic_assert_locked(w);
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

/* --- a snapshot of the whole process (the counters channel) --- */

struct collect {
	struct softdoca_process_counters *pc;
	uint32_t dev_cap;
	uint32_t conn_cap;
	bool failed; /* out of memory */
};

/* The device's index in the snapshot, added if new; -1 when out of memory. */
static int64_t dev_index(struct collect *c, const char *name)
{
	struct softdoca_process_counters *pc = c->pc;

	for (uint32_t i = 0; i < pc->num_devices; i++)
		if (strcmp(pc->devices[i].ibdev_name, name) == 0)
			return i;
	if (pc->num_devices == NIC_STATS_MAX_DEVICES)
		return -1;
	if (pc->num_devices == c->dev_cap) {
		uint32_t cap = c->dev_cap ? c->dev_cap * 2 : 4;
		void *grown = realloc(pc->devices, cap * sizeof(*pc->devices));

		if (!grown)
			return -1;
		pc->devices = grown;
		c->dev_cap = cap;
	}
	memset(&pc->devices[pc->num_devices], 0, sizeof(pc->devices[0]));
	snprintf(pc->devices[pc->num_devices].ibdev_name, sizeof(pc->devices[0].ibdev_name), "%s",
	         name);
	return pc->num_devices++;
}

static const enum softdoca_qp_state qp_states[] = {
	[NIC_QP_INIT] = SOFTDOCA_QP_INIT,
	[NIC_QP_RTS] = SOFTDOCA_QP_RTS,
	[NIC_QP_CLOSED] = SOFTDOCA_QP_CLOSED,
	[NIC_QP_ERROR] = SOFTDOCA_QP_ERROR,
};

static bool add_connection(struct collect *c, uint32_t dev, const struct nic_qp *qp)
{
	struct softdoca_process_counters *pc = c->pc;
	struct softdoca_connection_counters *conn;

	if (pc->num_connections == NIC_STATS_MAX_CONNS)
		return false;
	if (pc->num_connections == c->conn_cap) {
		uint32_t cap = c->conn_cap ? c->conn_cap * 2 : 16;
		void *grown = realloc(pc->connections, cap * sizeof(*pc->connections));

		if (!grown)
			return false;
		pc->connections = grown;
		c->conn_cap = cap;
	}
	conn = &pc->connections[pc->num_connections++];
	*conn = (struct softdoca_connection_counters){
		.device = dev,
		.connection_id = qp->attr.conn_id,
		.qp_number = qp->wire_id,
		.peer_qp_number = qp->peer.wire_id,
		.peer_pid = qp->peer.pid,
		.state = qp_states[qp->state],
		.counters = qp->counters,
	};
	conn->counters.receive_queue_depth = nic_qp_receive_queue_depth(qp);
	return true;
}

static void collect_worker(struct nic_worker *w, void *arg)
{
	struct collect *c = arg;
	int64_t dev;

	if (c->failed)
		return;
	dev = dev_index(c, w->dev->info.ibdev_name);
	if (dev < 0) {
		c->failed = true;
		return;
	}
	for (uint32_t i = 0; i < w->num_qp_slots; i++) {
		const struct nic_qp *qp = w->qps[i];

		if (!qp)
			continue;
		/* the device counts what a QP its owner destroyed still finishes */
		nic_counters_add(&c->pc->devices[dev].counters, &qp->counters);
		if (!qp->detached && !add_connection(c, (uint32_t)dev, qp)) {
			c->failed = true;
			return;
		}
	}
}

doca_error_t nic_stats_collect(struct softdoca_process_counters **out)
{
	struct collect c = { .pc = calloc(1, sizeof(*c.pc)) };

	*out = NULL;
	if (!c.pc)
		return DOCA_ERROR_NO_MEMORY;
	c.pc->pid = (uint32_t)getpid();
	snprintf(c.pc->softdoca_version, sizeof(c.pc->softdoca_version), "%s", softdoca_version());
	c.pc->faults_injected = softdoca_faults_injected();
	/* Retired first, as nic_dev_counters does: a QP freed meanwhile is
	 * missed by this snapshot, never counted twice. */
	pthread_mutex_lock(&retired.lock);
	for (struct retired *r = retired.list; r && !c.failed; r = r->next) {
		int64_t dev = dev_index(&c, r->name);

		if (dev < 0)
			c.failed = true;
		else
			nic_counters_add(&c.pc->devices[dev].counters, &r->counters);
	}
	pthread_mutex_unlock(&retired.lock);
	nic_workers_visit(collect_worker, &c);
	if (c.failed) {
		nic_stats_free(c.pc);
		return DOCA_ERROR_NO_MEMORY;
	}
	for (uint32_t i = 0; i < c.pc->num_devices; i++)
		nic_counters_finish(&c.pc->devices[i].counters);
	for (uint32_t i = 0; i < c.pc->num_connections; i++)
		nic_counters_finish(&c.pc->connections[i].counters);
	*out = c.pc;
	return DOCA_SUCCESS;
}

void nic_stats_free(struct softdoca_process_counters *pc)
{
	if (!pc)
		return;
	free(pc->devices);
	free(pc->connections);
	free(pc->dpas);
	free(pc->dpa_threads);
	free(pc);
}
