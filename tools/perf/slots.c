/*
 * softdoca-perf's slots: one operation with its buffers.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * softdoca-perf's slots (one operation with its buffers, reused for every
 * iteration it carries) and what their completions mean, the same for every
 * DOCA generation: endpoint.c (DOCA 3.x tasks) and endpoint_v202.c (DOCA 2.2
 * jobs) make, post and release them, and report their completions here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "perf.h"

void perf_fail(const char *what, doca_error_t status)
{
	fprintf(stderr, "softdoca-perf: %s: %s (%s)\n", what, doca_error_get_descr(status),
	        doca_error_get_name(status));
	exit(1);
}

void perf_samples_add(struct perf_samples *s, uint64_t value)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 4096;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v) {
			fprintf(stderr, "softdoca-perf: out of memory for samples\n");
			exit(1);
		}
	}
	s->v[s->n++] = value;
}

size_t perf_stride(uint64_t size)
{
	return (size_t)((size < 8 ? 8 : size) + 63) & ~(size_t)63;
}

uint32_t perf_num_slots(uint64_t size, uint32_t depth)
{
	uint64_t fit = PERF_REGION_CAP / perf_stride(size);

	return fit == 0 ? 1 : fit < depth ? (uint32_t)fit : depth;
}

/* Where a slot's bytes are. Unchecked bandwidth runs reuse one buffer for
 * every operation in flight, as perftest and ucx_perftest do, so that the
 * working set is one message and not depth of them (64 x 1 MiB does not fit
 * the cache and measures memory, not the transport); --check needs a buffer
 * per operation to tell them apart. */
size_t perf_slot_offset(const struct perf_ep *ep, uint32_t index, bool receive)
{
	if (!ep->check && ep->params.mode == PERF_BW)
		return receive ? ep->stride : 0;
	/* Latency: the ping-pong's two operation slots send the same bytes. */
	if (ep->params.mode == PERF_LAT)
		return receive ? (1 + index) * ep->stride : 0;
	return (receive ? ep->num_ops + index : index) * ep->stride;
}

/* ---------------------------------------------------------------- */
/* set-up                                                             */
/* ---------------------------------------------------------------- */

static void open_device(struct perf_ep *ep, const char *name)
{
	struct doca_devinfo **list;
	uint32_t n;

	PERF_CHECK(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && !ep->dev; i++) {
		char iface[DOCA_DEVINFO_IFACE_NAME_SIZE], ibdev[DOCA_DEVINFO_IBDEV_NAME_SIZE];

		PERF_CHECK(doca_devinfo_get_iface_name(list[i], iface, sizeof(iface)));
		PERF_CHECK(doca_devinfo_get_ibdev_name(list[i], ibdev, sizeof(ibdev)));
		if (strcmp(iface, name) == 0 || strcmp(ibdev, name) == 0)
			PERF_CHECK(doca_dev_open(list[i], &ep->dev));
	}
	PERF_CHECK(doca_devinfo_destroy_list(list));
	if (!ep->dev) {
		fprintf(stderr, "softdoca-perf: no device named '%s' (softdoca-info lists them)\n",
		        name);
		exit(1);
	}
}

void perf_ep_prepare(struct perf_ep *ep, const struct perf_opts *o, const struct perf_params *p)
{
	size_t stride = perf_stride(p->max_size);
	size_t region = perf_num_slots(p->max_size, p->depth) * stride;

	*ep = (struct perf_ep){ .params = *p,
		                .check = p->check != 0,
		                .passive = o->passive,
		                .client = o->host != NULL,
		                .cm_port = o->cm_port };
	ep->empty_op_set = perf_check_empty_op(o, &ep->empty_op) > 0;
	if (o->transport && setenv("SOFTDOCA_TRANSPORT", o->transport, 1) != 0)
		exit(1);
	open_device(ep, o->device);
	/* Operation slots, then receive slots: twice the operations' region. */
	ep->mem_len = 2 * region + stride;
	ep->mem =
	        mmap(NULL, ep->mem_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ep->mem == MAP_FAILED) {
		fprintf(stderr, "softdoca-perf: cannot map %zu bytes\n", ep->mem_len);
		exit(1);
	}
}

void perf_ep_exchange_memory(struct perf_ep *ep, int oob)
{
	const void *blob;
	size_t len, range;
	void *peer, *addr;

	PERF_CHECK(doca_mmap_export_rdma(ep->mmap, ep->dev, &blob, &len));
	perf_oob_send(oob, blob, len);
	peer = perf_oob_recv(oob, &len);
	PERF_CHECK(doca_mmap_create_from_export(NULL, peer, len, ep->dev, &ep->remote_mmap));
	free(peer);
	PERF_CHECK(doca_mmap_get_memrange(ep->remote_mmap, &addr, &range));
	ep->remote_mem = addr;
}

void perf_ep_release_memory(struct perf_ep *ep)
{
	if (ep->remote_mmap)
		PERF_CHECK(doca_mmap_destroy(ep->remote_mmap));
	PERF_CHECK(doca_buf_inventory_destroy(ep->inv));
	PERF_CHECK(doca_mmap_destroy(ep->mmap));
	PERF_CHECK(doca_dev_close(ep->dev));
	munmap(ep->mem, ep->mem_len);
	free(ep->done_at.v);
	free(ep->fa_seen);
}

static struct doca_buf *buf_at(struct perf_ep *ep, struct doca_mmap *mmap, uint8_t *addr,
                               size_t len, size_t data_len)
{
	struct doca_buf *b;

	PERF_CHECK(
	        doca_buf_inventory_buf_get_by_args(ep->inv, mmap, addr, len, addr, data_len, &b));
	return b;
}

void perf_slot_buffers(struct perf_ep *ep, struct perf_slot *s)
{
	enum perf_op op = (enum perf_op)ep->params.op;
	size_t off = perf_slot_offset(ep, s->index, s->receive), n = ep->size;
	uint8_t *local = ep->mem + off, *remote;

	if (s->receive) {
		/* Writes with immediate land in the operation slots: no receive buffer. */
		if (op != PERF_WRITE_IMM && n)
			s->local = buf_at(ep, ep->mmap, local, n, 0);
		return;
	}
	remote = ep->remote_mem + off;
	if (ep->params.mode == PERF_LAT && (op == PERF_WRITE || op == PERF_WRITE_IMM))
		remote += ep->stride; /* ping-pong: into the peer's slot 1, away from its source */

	switch (op) {
	case PERF_WRITE:
	case PERF_WRITE_IMM:
	case PERF_SEND:
	case PERF_SEND_IMM:
		/* NULL buffers for zero-length messages, as DOCA allows */
		s->local = n ? buf_at(ep, ep->mmap, local, n, n) : NULL;
		if (op == PERF_WRITE || op == PERF_WRITE_IMM)
			s->remote = n ? buf_at(ep, ep->remote_mmap, remote, n, 0) : NULL;
		break;
	case PERF_READ:
		s->local = n ? buf_at(ep, ep->mmap, local, n, 0) : NULL;
		s->remote = n ? buf_at(ep, ep->remote_mmap, remote, n, n) : NULL;
		break;
	default: /* atomics: the peer's 8-byte counter at offset 0, results in our slot */
		s->local = buf_at(ep, ep->mmap, local, 8, 0);
		s->remote = buf_at(ep, ep->remote_mmap, ep->remote_mem, 8, 8);
		break;
	}
	/* --check of a write --bw: read back into this slot's receive buffer
	 * (the writer posts none), from where the write went */
	if (perf_check_reads_back(ep, s)) {
		s->readback_local =
		        buf_at(ep, ep->mmap, ep->mem + perf_slot_offset(ep, s->index, true), n, 0);
		s->readback_remote = buf_at(ep, ep->remote_mmap, remote, n, n);
	}
}

/* ---------------------------------------------------------------- */
/* completions                                                        */
/* ---------------------------------------------------------------- */

void perf_count_failure(struct perf_ep *ep, doca_error_t status)
{
	if (status == DOCA_SUCCESS)
		return;
	if (ep->failed++ == 0)
		ep->first_error = status;
}

void perf_op_done(struct perf_slot *s, doca_error_t status)
{
	struct perf_ep *ep = s->ep;

	perf_count_failure(ep, status);
	if (ep->check) {
		if (s->reading_back) { /* the write counted already */
			perf_check_readback_done(s, status);
			return;
		}
		s->busy = status == DOCA_SUCCESS && perf_check_done(s);
	} else {
		s->busy = false;
	}
	ep->completed++;
	if (ep->params.mode == PERF_BW)
		perf_samples_add(&ep->done_at, perf_now_ns());
}

/* Whether a completed receive is to be posted again. */
static bool reposting(const struct perf_ep *ep)
{
	return ep->repost && (!ep->recv_limit || ep->recv_posted < ep->recv_limit);
}

/* A receive: the message of iteration `seq`, carrying that number as its
 * pattern seed and immediate. Re-posted at once while the test runs. */
void perf_receive_done(struct perf_slot *s, doca_error_t status, uint32_t conn, uint32_t len,
                       doca_be32_t imm)
{
	struct perf_ep *ep = s->ep;

	s->busy = false;
	if (status != DOCA_SUCCESS) {
		if (!ep->closing) /* closing flushes the receives left on purpose */
			perf_count_failure(ep, status);
		return;
	}
	if (ep->check)
		perf_check_receive(s, conn, len, imm);
	ep->received++;
	if (ep->defer_repost)
		s->repost_due = true;
	else if (reposting(ep))
		perf_ep_submit(s, 0);
}

void perf_ep_repost_due(struct perf_ep *ep)
{
	for (uint32_t i = 0; i < ep->num_recvs; i++) {
		struct perf_slot *s = &ep->recvs[i];

		if (!s->repost_due)
			continue;
		s->repost_due = false;
		if (reposting(ep))
			perf_ep_submit(s, 0);
	}
}

/* ---------------------------------------------------------------- */
/* slots                                                              */
/* ---------------------------------------------------------------- */

static struct perf_slot *new_slots(struct perf_ep *ep, uint32_t n, bool receive)
{
	struct perf_slot *slots = calloc(n ? n : 1, sizeof(*slots));

	if (!slots) {
		fprintf(stderr, "softdoca-perf: out of memory\n");
		exit(1);
	}
	for (uint32_t i = 0; i < n; i++) {
		slots[i] = (struct perf_slot){ .ep = ep, .index = i, .receive = receive };
		perf_ep_make_slot(ep, &slots[i]);
	}
	return slots;
}

void perf_ep_slots(struct perf_ep *ep, uint64_t size, uint32_t num_ops, uint32_t num_recvs)
{
	ep->size = size;
	ep->stride = perf_stride(size);
	ep->completed = ep->received = ep->failed = ep->verified = ep->bad = ep->posted = 0;
	if (ep->fa_seen)
		memset(ep->fa_seen, 0, ep->fa_seen_len);
	memset(ep->received_on, 0, sizeof(ep->received_on));
	ep->first_error = DOCA_SUCCESS;
	ep->done_at.n = 0;
	ep->num_ops = num_ops;
	ep->num_recvs = num_recvs;
	/* the ping-pong flags start clear, and what arrives finds poison (--check) */
	if (ep->params.mode == PERF_LAT &&
	    (ep->params.op == PERF_WRITE || ep->params.op == PERF_WRITE_IMM))
		memset(ep->mem, 0, 2 * ep->stride);
	ep->ops = new_slots(ep, num_ops, false);
	ep->recvs = new_slots(ep, num_recvs, true);
	ep->repost = num_recvs > 0;
	/* A ping-pong's reply leaves first, its receive is replaced after: the
	 * other posted receive takes the peer's next message meanwhile. */
	ep->defer_repost = ep->params.mode == PERF_LAT && num_recvs >= 2 &&
	                   perf_op_is_pingpong((enum perf_op)ep->params.op);
	ep->recv_posted = 0;
	for (uint32_t i = 0; i < num_recvs && (!ep->recv_limit || i < ep->recv_limit); i++)
		perf_ep_submit(&ep->recvs[i], 0);
}

static void free_slots(struct perf_slot *slots, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		perf_ep_release_slot(&slots[i]);
	free(slots);
}

/* Every slot has completed by now: the test consumes every receive it posts. */
void perf_ep_free_slots(struct perf_ep *ep)
{
	free_slots(ep->ops, ep->num_ops);
	free_slots(ep->recvs, ep->num_recvs);
	ep->ops = ep->recvs = NULL;
	ep->num_ops = ep->num_recvs = 0;
}

void perf_ep_submit(struct perf_slot *s, uint64_t seq)
{
	struct perf_ep *ep = s->ep;
	enum perf_op op = (enum perf_op)ep->params.op;
	doca_error_t status;

	s->seq = seq;
	if (s->receive)
		ep->recv_posted++;
	else if (perf_op_is_pingpong(op) && s->remote)
		/* a write grows its remote buffer's data length: start over */
		PERF_CHECK(doca_buf_reset_data_len(s->remote));
	/* What this side receives (receives, reads, atomic results) lands in an empty buffer. */
	if (s->local && (s->receive || !perf_op_is_pingpong(op)))
		PERF_CHECK(doca_buf_reset_data_len(s->local));
	s->busy = true;
	/* --check: the source filled, the destination poisoned; the test
	 * fault's operation completes here, never posted */
	if (ep->check && perf_check_before(s)) {
		perf_op_done(s, DOCA_SUCCESS);
		return;
	}
	status = perf_ep_post(s, seq);
	if (status != DOCA_SUCCESS) {
		s->busy = false;
		perf_count_failure(ep, status);
	}
}
