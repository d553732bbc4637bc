/*
 * softdoca-perf's DOCA 3.x objects.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * softdoca-perf's DOCA 3.x objects: device, registered memory, RDMA context
 * and connections, and each slot's task with its buffers (slots.c has what
 * is the same in every generation).
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_log.h>

#include "perf.h"

#define ACCESS_ALL                                                        \
	(DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | \
	 DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC)

/* ---------------------------------------------------------------- */
/* completions                                                        */
/* ---------------------------------------------------------------- */

static void op_done(struct doca_task *task, union doca_data ud)
{
	perf_op_done(ud.ptr, doca_task_get_status(task));
}

/* The connection a receive arrived on, as an index of ep->conns. */
static uint32_t conn_index(const struct perf_ep *ep, const struct doca_rdma_connection *conn)
{
	uint32_t c = 0;

	while (c + 1 < ep->num_conns && ep->conns[c] != conn)
		c++;
	return c;
}

/* What arrived is read only for --check: the getters cost the data path. */
static void receive_done(struct doca_rdma_task_receive *t, union doca_data ud, union doca_data cud)
{
	struct perf_slot *s = ud.ptr;
	uint32_t conn = 0, len = 0;
	doca_be32_t imm = 0;

	(void)cud;
	if (s->ep->check) {
		conn = conn_index(s->ep, doca_rdma_task_receive_get_result_rdma_connection(t));
		len = doca_rdma_task_receive_get_result_len(t);
		imm = doca_rdma_task_receive_get_result_immediate_data(t);
	}
	perf_receive_done(s, doca_task_get_status(doca_rdma_task_receive_as_task(t)), conn, len,
	                  imm);
}

#define OP_CALLBACK(type)                                                            \
	static void type##_done(struct doca_rdma_task_##type *t, union doca_data ud, \
	                        union doca_data cud)                                 \
	{                                                                            \
		(void)cud;                                                           \
		op_done(doca_rdma_task_##type##_as_task(t), ud);                     \
	}
OP_CALLBACK(write)
OP_CALLBACK(write_imm)
OP_CALLBACK(read)
OP_CALLBACK(send)
OP_CALLBACK(send_imm)
OP_CALLBACK(atomic_fetch_add)
OP_CALLBACK(atomic_cmp_swp)
OP_CALLBACK(remote_net_sync_event_notify_set)
OP_CALLBACK(remote_net_sync_event_notify_add)

/* ---------------------------------------------------------------- */
/* set-up                                                             */
/* ---------------------------------------------------------------- */

static void configure_tasks(struct perf_ep *ep)
{
	uint32_t ops = ep->params.depth + 1, recvs = 2 * ep->params.depth + 2;
	struct doca_rdma *r = ep->rdma;

	PERF_CHECK(doca_rdma_task_write_set_conf(r, write_done, write_done, ops));
	PERF_CHECK(doca_rdma_task_write_imm_set_conf(r, write_imm_done, write_imm_done, ops));
	PERF_CHECK(doca_rdma_task_read_set_conf(r, read_done, read_done, ops));
	PERF_CHECK(doca_rdma_task_send_set_conf(r, send_done, send_done, ops));
	PERF_CHECK(doca_rdma_task_send_imm_set_conf(r, send_imm_done, send_imm_done, ops));
	PERF_CHECK(doca_rdma_task_atomic_fetch_add_set_conf(r, atomic_fetch_add_done,
	                                                    atomic_fetch_add_done, ops));
	PERF_CHECK(doca_rdma_task_atomic_cmp_swp_set_conf(r, atomic_cmp_swp_done,
	                                                  atomic_cmp_swp_done, ops));
	PERF_CHECK(doca_rdma_task_remote_net_sync_event_notify_set_set_conf(
	        r, remote_net_sync_event_notify_set_done, remote_net_sync_event_notify_set_done,
	        ops));
	PERF_CHECK(doca_rdma_task_remote_net_sync_event_notify_add_set_conf(
	        r, remote_net_sync_event_notify_add_done, remote_net_sync_event_notify_add_done,
	        ops));
	PERF_CHECK(doca_rdma_task_receive_set_conf(r, receive_done, receive_done, recvs));
	PERF_CHECK(doca_rdma_set_send_queue_size(r, ops));
	PERF_CHECK(doca_rdma_set_recv_queue_size(r, recvs));
}

void perf_ep_open(struct perf_ep *ep, const struct perf_opts *o, const struct perf_params *p)
{
	perf_ep_prepare(ep, o, p);
	PERF_CHECK(doca_mmap_create(&ep->mmap));
	PERF_CHECK(doca_mmap_set_memrange(ep->mmap, ep->mem, ep->mem_len));
	PERF_CHECK(doca_mmap_set_permissions(ep->mmap, ACCESS_ALL));
	PERF_CHECK(doca_mmap_add_dev(ep->mmap, ep->dev));
	PERF_CHECK(doca_mmap_start(ep->mmap));
	PERF_CHECK(doca_buf_inventory_create(4 * p->depth + 16, &ep->inv));
	PERF_CHECK(doca_buf_inventory_start(ep->inv));
	PERF_CHECK(doca_pe_create(&ep->pe));
	PERF_CHECK(doca_rdma_create(ep->dev, &ep->rdma));
	PERF_CHECK(doca_rdma_set_permissions(ep->rdma, ACCESS_ALL));
	configure_tasks(ep);
	ep->num_conns = p->conns ? p->conns : 1;
	PERF_CHECK(doca_rdma_set_max_num_connections(ep->rdma, (uint16_t)ep->num_conns));
	if (p->cm)
		perf_cm_configure(ep);
	PERF_CHECK(doca_pe_connect_ctx(ep->pe, doca_rdma_as_ctx(ep->rdma)));
	PERF_CHECK(doca_ctx_start(doca_rdma_as_ctx(ep->rdma)));
}

/* Connection i of each side is made from the other's blob i, over oob. */
static void connect_by_blobs(struct perf_ep *ep, int oob)
{
	uint64_t t0 = perf_now_ns();
	enum doca_ctx_states state;
	const void *blob;
	size_t len;
	void *peer;

	for (uint32_t i = 0; i < ep->num_conns; i++) {
		PERF_CHECK(doca_rdma_export(ep->rdma, &blob, &len, &ep->conns[i]));
		perf_oob_send(oob, blob, len);
		peer = perf_oob_recv(oob, &len);
		PERF_CHECK(doca_rdma_connect(ep->rdma, peer, len, ep->conns[i]));
		free(peer);
	}
	do {
		doca_pe_progress(ep->pe);
		PERF_CHECK(doca_ctx_get_state(doca_rdma_as_ctx(ep->rdma), &state));
	} while (state != DOCA_CTX_STATE_RUNNING);
	ep->setup_ns = perf_now_ns() - t0;
}

void perf_ep_connect(struct perf_ep *ep, int oob)
{
	if (ep->params.cm)
		perf_cm_connect(ep, oob);
	else
		connect_by_blobs(ep, oob);
	perf_ep_exchange_memory(ep, oob);
}

/* ---------------------------------------------------------------- */
/* slots                                                              */
/* ---------------------------------------------------------------- */

static void make_op(struct perf_ep *ep, struct perf_slot *s)
{
	enum perf_op op = (enum perf_op)ep->params.op;
	union doca_data ud = { .ptr = s };
	struct doca_rdma *r = ep->rdma;
	struct doca_rdma_connection *conn = ep->conns[s->index % ep->num_conns];

	switch (op) {
	case PERF_WRITE: {
		struct doca_rdma_task_write *t;

		PERF_CHECK(
		        doca_rdma_task_write_allocate_init(r, conn, s->local, s->remote, ud, &t));
		s->task = doca_rdma_task_write_as_task(t);
		break;
	}
	case PERF_WRITE_IMM: {
		struct doca_rdma_task_write_imm *t;

		PERF_CHECK(doca_rdma_task_write_imm_allocate_init(r, conn, s->local, s->remote, 0,
		                                                  ud, &t));
		s->task = doca_rdma_task_write_imm_as_task(t);
		s->typed = t;
		break;
	}
	case PERF_READ: {
		struct doca_rdma_task_read *t;

		PERF_CHECK(doca_rdma_task_read_allocate_init(r, conn, s->remote, s->local, ud, &t));
		s->task = doca_rdma_task_read_as_task(t);
		break;
	}
	case PERF_SEND: {
		struct doca_rdma_task_send *t;

		PERF_CHECK(doca_rdma_task_send_allocate_init(r, conn, s->local, ud, &t));
		s->task = doca_rdma_task_send_as_task(t);
		break;
	}
	case PERF_SEND_IMM: {
		struct doca_rdma_task_send_imm *t;

		PERF_CHECK(doca_rdma_task_send_imm_allocate_init(r, conn, s->local, 0, ud, &t));
		s->task = doca_rdma_task_send_imm_as_task(t);
		s->typed = t;
		break;
	}
	case PERF_ATOMIC_FA: {
		struct doca_rdma_task_atomic_fetch_add *t;

		PERF_CHECK(doca_rdma_task_atomic_fetch_add_allocate_init(r, conn, s->remote,
		                                                         s->local, 1, ud, &t));
		s->task = doca_rdma_task_atomic_fetch_add_as_task(t);
		break;
	}
	default: {
		struct doca_rdma_task_atomic_cmp_swp *t;

		PERF_CHECK(doca_rdma_task_atomic_cmp_swp_allocate_init(r, conn, s->remote, s->local,
		                                                       0, 0, ud, &t));
		s->task = doca_rdma_task_atomic_cmp_swp_as_task(t);
		s->typed = t;
		break;
	}
	}
}

static void make_receive(struct perf_ep *ep, struct perf_slot *s)
{
	union doca_data ud = { .ptr = s };
	struct doca_rdma_task_receive *t;

	PERF_CHECK(doca_rdma_task_receive_allocate_init(ep->rdma, s->local, ud, &t));
	s->task = doca_rdma_task_receive_as_task(t);
}

void perf_ep_make_slot(struct perf_ep *ep, struct perf_slot *s)
{
	perf_slot_buffers(ep, s);
	if (s->receive)
		make_receive(ep, s);
	else
		make_op(ep, s);
	if (s->readback_local)
		perf_ep_make_readback(ep, s);
}

void perf_ep_make_readback(struct perf_ep *ep, struct perf_slot *s)
{
	union doca_data ud = { .ptr = s };
	struct doca_rdma_task_read *t;

	PERF_CHECK(doca_rdma_task_read_allocate_init(ep->rdma, ep->conns[s->index % ep->num_conns],
	                                             s->readback_remote, s->readback_local, ud,
	                                             &t));
	s->readback = doca_rdma_task_read_as_task(t);
}

doca_error_t perf_ep_post_readback(struct perf_slot *s)
{
	return doca_task_submit(s->readback);
}

void perf_ep_release_slot(struct perf_slot *s)
{
	doca_task_free(s->task);
	if (s->local)
		doca_buf_dec_refcount(s->local, NULL);
	if (s->remote)
		doca_buf_dec_refcount(s->remote, NULL);
	if (s->readback) {
		doca_task_free(s->readback);
		doca_buf_dec_refcount(s->readback_local, NULL);
		doca_buf_dec_refcount(s->readback_remote, NULL);
	}
}

/* Only the operations with per-iteration operands have s->typed. */
doca_error_t perf_ep_post(struct perf_slot *s, uint64_t seq)
{
	if (s->typed) {
		switch (s->ep->params.op) {
		case PERF_WRITE_IMM:
			doca_rdma_task_write_imm_set_immediate_data(s->typed, htonl((uint32_t)seq));
			break;
		case PERF_SEND_IMM:
			doca_rdma_task_send_imm_set_immediate_data(s->typed, htonl((uint32_t)seq));
			break;
		default:
			/* compare-swap: in order, each finds what the one before left */
			doca_rdma_task_atomic_cmp_swp_set_cmp_data(s->typed, seq);
			doca_rdma_task_atomic_cmp_swp_set_swap_data(s->typed, seq + 1);
			break;
		}
	}
	return doca_task_submit(s->task);
}

void perf_ep_close(struct perf_ep *ep)
{
	struct doca_ctx *ctx = doca_rdma_as_ctx(ep->rdma);
	enum doca_ctx_states state;

	ep->repost = false;
	ep->closing = true;
	/* Stopping flushes whatever is in flight (after a failure too); the
	 * context reaches IDLE once every task has completed and been freed. */
	(void)doca_ctx_stop(ctx);
	for (uint32_t i = 0; i < ep->num_ops; i++)
		while (ep->ops[i].busy)
			doca_pe_progress(ep->pe);
	for (uint32_t i = 0; i < ep->num_recvs; i++)
		while (ep->recvs[i].busy)
			doca_pe_progress(ep->pe);
	if (ep->ops || ep->recvs)
		perf_ep_free_slots(ep);
	for (;;) {
		PERF_CHECK(doca_ctx_get_state(ctx, &state));
		if (state == DOCA_CTX_STATE_IDLE)
			break;
		doca_pe_progress(ep->pe);
	}
	PERF_CHECK(doca_rdma_destroy(ep->rdma));
	PERF_CHECK(doca_pe_destroy(ep->pe));
	perf_ep_release_memory(ep);
}
