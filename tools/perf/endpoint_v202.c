/*
 * softdoca-perf's DOCA 2.2 objects (the softdoca-perf-v202 twin).
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * softdoca-perf's DOCA 2.2 objects (the softdoca-perf-v202 twin, built with
 * SOFTDOCA_API_VERSION=202): an RDMA instance started the 2.2 way, a work
 * queue, each slot's job, and progress as doca_workq_progress_retrieve().
 * The tests, slots and reports are the 3.x binary's (run.c, slots.c), so
 * the two measure the same thing through the two APIs.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>

#include "perf.h"

#define ACCESS_ALL                                                                       \
	(DOCA_ACCESS_LOCAL_READ_WRITE | DOCA_ACCESS_RDMA_READ | DOCA_ACCESS_RDMA_WRITE | \
	 DOCA_ACCESS_RDMA_ATOMIC)

/* A slot's job: one of the four structures, the type in its base. */
union perf_job {
	struct doca_job base;
	struct doca_rdma_job_recv recv;
	struct doca_rdma_job_send send;
	struct doca_rdma_job_read_write rw;
	struct doca_rdma_job_atomic atomic;
};

static const int job_types[PERF_NUM_OPS] = {
	[PERF_WRITE] = DOCA_RDMA_JOB_WRITE,
	[PERF_WRITE_IMM] = DOCA_RDMA_JOB_WRITE_IMM,
	[PERF_READ] = DOCA_RDMA_JOB_READ,
	[PERF_SEND] = DOCA_RDMA_JOB_SEND,
	[PERF_SEND_IMM] = DOCA_RDMA_JOB_SEND_IMM,
	[PERF_ATOMIC_FA] = DOCA_RDMA_JOB_ATOMIC_FETCH_ADD,
	[PERF_ATOMIC_CS] = DOCA_RDMA_JOB_ATOMIC_CMP_SWP,
};

void perf_ep_open(struct perf_ep *ep, const struct perf_opts *o, const struct perf_params *p)
{
	uint32_t ops = p->depth + 1, recvs = 2 * p->depth + 2;
	struct doca_ctx *ctx;

	perf_ep_prepare(ep, o, p);
	PERF_CHECK(doca_mmap_create(NULL, &ep->mmap));
	PERF_CHECK(doca_mmap_set_memrange(ep->mmap, ep->mem, ep->mem_len));
	PERF_CHECK(doca_mmap_set_permissions(ep->mmap, ACCESS_ALL));
	PERF_CHECK(doca_mmap_dev_add(ep->mmap, ep->dev));
	PERF_CHECK(doca_mmap_start(ep->mmap));
	PERF_CHECK(doca_buf_inventory_create(NULL, 4 * p->depth + 16, 0, &ep->inv));
	PERF_CHECK(doca_buf_inventory_start(ep->inv));
	PERF_CHECK(doca_rdma_create(&ep->rdma));
	ctx = doca_rdma_as_ctx(ep->rdma);
	PERF_CHECK(doca_ctx_dev_add(ctx, ep->dev));
	PERF_CHECK(doca_rdma_set_permissions(ep->rdma, ACCESS_ALL));
	PERF_CHECK(doca_rdma_set_send_queue_size(ep->rdma, ops));
	PERF_CHECK(doca_rdma_set_recv_queue_size(ep->rdma, recvs));
	ep->num_conns = 1; /* a DOCA 2.2 instance has one connection */
	PERF_CHECK(doca_ctx_start(ctx));
	/* Every operation and receive slot may be in flight at once. */
	PERF_CHECK(doca_workq_create(ops + recvs, &ep->workq));
	PERF_CHECK(doca_ctx_workq_add(ctx, ep->workq));
}

void perf_ep_connect(struct perf_ep *ep, int oob)
{
	const void *blob;
	size_t len;
	void *peer;
	uint64_t t0 = perf_now_ns();

	if (ep->params.cm) {
		fprintf(stderr, "softdoca-perf: --cm: DOCA 2.2 has no RDMA-CM calls (a peer "
		                "runs --api 202)\n");
		exit(1);
	}
	PERF_CHECK(doca_rdma_export(ep->rdma, &blob, &len));
	perf_oob_send(oob, blob, len);
	peer = perf_oob_recv(oob, &len);
	PERF_CHECK(doca_rdma_connect(ep->rdma, peer, len));
	free(peer);
	ep->setup_ns = perf_now_ns() - t0;
	perf_ep_exchange_memory(ep, oob);
}

void perf_ep_make_slot(struct perf_ep *ep, struct perf_slot *s)
{
	union perf_job *job = calloc(1, sizeof(*job));

	if (!job) {
		fprintf(stderr, "softdoca-perf: out of memory\n");
		exit(1);
	}
	perf_slot_buffers(ep, s);
	job->base.ctx = doca_rdma_as_ctx(ep->rdma);
	job->base.flags = DOCA_JOB_FLAGS_NONE;
	job->base.user_data.ptr = s;
	if (s->receive) {
		job->base.type = DOCA_RDMA_JOB_RECV;
		job->recv.dst_buff = s->local;
	} else {
		job->base.type = job_types[ep->params.op];
		switch (ep->params.op) {
		case PERF_SEND:
		case PERF_SEND_IMM:
			job->send.src_buff = s->local;
			break;
		case PERF_READ:
			job->rw.src_buff = s->remote;
			job->rw.dst_buff = s->local;
			break;
		case PERF_ATOMIC_FA:
		case PERF_ATOMIC_CS:
			job->atomic.cmp_or_add_dest_buff = s->remote;
			job->atomic.result_buff = s->local;
			job->atomic.swap_or_add_data = 1; /* fetch-add's increment */
			break;
		default: /* writes */
			job->rw.src_buff = s->local;
			job->rw.dst_buff = s->remote;
			break;
		}
	}
	s->job = job;
	if (s->readback_local)
		perf_ep_make_readback(ep, s);
}

void perf_ep_make_readback(struct perf_ep *ep, struct perf_slot *s)
{
	union perf_job *job = calloc(1, sizeof(*job));

	if (!job) {
		fprintf(stderr, "softdoca-perf: out of memory\n");
		exit(1);
	}
	job->base.type = DOCA_RDMA_JOB_READ;
	job->base.ctx = doca_rdma_as_ctx(ep->rdma);
	job->base.flags = DOCA_JOB_FLAGS_NONE;
	job->base.user_data.ptr = s;
	job->rw.src_buff = s->readback_remote;
	job->rw.dst_buff = s->readback_local;
	s->readback = job;
}

doca_error_t perf_ep_post_readback(struct perf_slot *s)
{
	union perf_job *job = s->readback;

	return doca_workq_submit(s->ep->workq, &job->base);
}

void perf_ep_release_slot(struct perf_slot *s)
{
	free(s->job);
	if (s->local)
		doca_buf_refcount_rm(s->local, NULL);
	if (s->remote)
		doca_buf_refcount_rm(s->remote, NULL);
	if (s->readback) {
		free(s->readback);
		doca_buf_refcount_rm(s->readback_local, NULL);
		doca_buf_refcount_rm(s->readback_remote, NULL);
	}
}

doca_error_t perf_ep_post(struct perf_slot *s, uint64_t seq)
{
	union perf_job *job = s->job;

	if (!s->receive) {
		switch (s->ep->params.op) {
		case PERF_WRITE_IMM:
			job->rw.immediate_data = htonl((uint32_t)seq);
			break;
		case PERF_SEND_IMM:
			job->send.immediate_data = htonl((uint32_t)seq);
			break;
		case PERF_ATOMIC_CS:
			/* in order, each compare-swap finds what the one before left */
			job->atomic.cmp_data = seq;
			job->atomic.swap_or_add_data = seq + 1;
			break;
		default:
			break;
		}
	}
	return doca_workq_submit(s->ep->workq, &job->base);
}

/* One event per call, as DOCA 2.2 programs poll. */
void perf_ep_progress(struct perf_ep *ep)
{
	struct doca_rdma_result result;
	struct doca_event ev; /* retrieve fills it: not cleared on each poll */
	struct perf_slot *s;

	ev.result.ptr = &result;
	if (doca_workq_progress_retrieve(ep->workq, &ev, DOCA_WORKQ_RETRIEVE_FLAGS_NONE) ==
	    DOCA_ERROR_AGAIN)
		return;
	s = ev.user_data.ptr;
	if (s->receive)
		perf_receive_done(s, result.result, 0, result.length, result.immediate_data);
	else
		perf_op_done(s, result.result);
}

/* DOCA 2.2 stops a context once its work queue is out, which takes every
 * job's event first: a failure flushes what is left, a finished test left
 * nothing. */
void perf_ep_close(struct perf_ep *ep)
{
	struct doca_ctx *ctx = doca_rdma_as_ctx(ep->rdma);

	ep->repost = false;
	ep->closing = true;
	for (uint32_t i = 0; i < ep->num_ops; i++)
		while (ep->ops[i].busy)
			perf_ep_progress(ep);
	for (uint32_t i = 0; i < ep->num_recvs; i++)
		while (ep->recvs[i].busy)
			perf_ep_progress(ep);
	if (ep->ops || ep->recvs)
		perf_ep_free_slots(ep);
	PERF_CHECK(doca_ctx_workq_rm(ctx, ep->workq));
	PERF_CHECK(doca_workq_destroy(ep->workq));
	PERF_CHECK(doca_ctx_stop(ctx));
	PERF_CHECK(doca_ctx_dev_rm(ctx, ep->dev));
	PERF_CHECK(doca_rdma_destroy(ep->rdma));
	perf_ep_release_memory(ep);
}
