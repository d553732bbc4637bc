/*
 * RDMA on the DPA data path: device posts become NIC work requests.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * RDMA on the DPA data path (docs/dpa.md 2.8). Device posts become soft-NIC
 * work requests like host tasks (same nic_post_send / nic_post_recv, same
 * requester, responder and completer); only their done() differs: it frees
 * the post's slot and pushes a CQE into the attached DPA completion
 * context's sink instead of completing a task on a PE. The host task path
 * is untouched. A bad post is sorted as RC hardware treats it (docs/dpa.md
 * 2.12): a bad work request on a live connection still takes its slot and
 * fails there (nic_post_send_refused), a bad receive fails the message
 * that consumes it (nic_post_recv_refused), and a post with no queue to
 * fail on is returned to the caller to stop the kernel.
 *
 * Locking: path->lock guards the slots and the unflushed list and is never
 * held while the worker lock is taken; done() runs under the worker lock
 * and takes path->lock. The handle table's rwlock keeps a context from
 * being stopped under a post.
 */
#include <endian.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_rdma.h>

#include "core/clock.h"
#include "core/dpa_sink.h"
#include "core/sdk_log.h"
#include "core/sync_event.h"
#include "rdma/rdma.h"
#include "rdma/rdma_dpa.h"

SDOCA_LOG_MODULE(rdma_dpa);

/* doca_dpa_dev_completion_type_t */
enum {
	CQE_SEND = 0x0,
	CQE_RECV_RDMA_WRITE_IMM = 0x1,
	CQE_RECV_SEND = 0x2,
	CQE_RECV_SEND_IMM = 0x3,
	CQE_SEND_ERR = 0xD,
	CQE_RECV_ERR = 0xE,
};

#define TAG_RDMA 0xd1ull
#define RDMA_HANDLE_SLOTS 256u
/* A post finding the send queue full waits this long for a slot. */
#define SLOT_WAIT_NS (5ull * 1000 * 1000 * 1000)

struct rdma_dpa_wr {
	struct nic_wqe wqe;
	struct rdma_dpa *path;
	struct nic_qp *qp;
	uint32_t conn_id;
	uint16_t wr_index;
	bool report;          /* not OPTIMIZE_REPORTS (errors are always reported) */
	doca_error_t refused; /* a bad post: fails in its turn with this status */
	uint8_t *bounce;      /* send payload, copied at post time */
	size_t bounce_cap;
	uint64_t atomic_result; /* 3.x device atomics have no result buffer */
	struct rdma_dpa_wr *next_free;
};

struct rdma_dpa {
	struct doca_rdma *rdma;
	pthread_mutex_t lock;
	struct rdma_dpa_wr *send, *recv;
	uint32_t num_send, num_recv;
	struct rdma_dpa_wr *free_send, *free_recv;
	struct rdma_dpa_wr **unflushed; /* posted without FLUSH, in order */
	uint32_t num_unflushed;
	uint16_t *conn_seq; /* per connection slot: the next wr index */
	uint16_t recv_seq;
	uint32_t recv_posted; /* receives not completed yet */
	uint64_t recv_done;   /* completed receives (receive_ack bound) */
	uint64_t recv_acked;
	bool flush_always; /* SOFTDOCA_DPA_FLUSH=always */
};

static struct {
	pthread_rwlock_t lock;
	struct doca_rdma *rdma[RDMA_HANDLE_SLOTS];
	uint32_t generation[RDMA_HANDLE_SLOTS];
} handles = { .lock = PTHREAD_RWLOCK_INITIALIZER };

static doca_error_t why_fail(char *why, size_t len, doca_error_t err, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));
static doca_error_t why_fail(char *why, size_t len, doca_error_t err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return err;
}

/* --- host calls --- */

DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_dpa_handle(struct doca_rdma *rdma,
                                                        doca_dpa_dev_rdma_t *dpa_rdma)
{
	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(dpa_rdma))
		return DOCA_ERROR_INVALID_VALUE;
	if (!rdma->ctx.dpa)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "%s: the context is not on the DPA data path "
		                  "(doca_ctx_set_datapath_on_dpa)",
		                  __func__);
	if (!rdma->dpa_path || rdma->dpa_handle == 0)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: the context is not started", __func__);
	*dpa_rdma = rdma->dpa_handle;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_dpa_completion_attach(struct doca_rdma *rdma,
                                                               struct doca_dpa_completion *dpa_comp)
{
	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(dpa_comp))
		return DOCA_ERROR_INVALID_VALUE;
	if (rdma->ctx.state != DOCA_CTX_STATE_IDLE)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: the context is not IDLE", __func__);
	/* The completion context's first member is its sink (core/dpa_sink.h). */
	rdma_dpa_detach(rdma);
	rdma->dpa_sink = (struct sdoca_cq_sink *)(void *)dpa_comp;
	atomic_fetch_add(&rdma->dpa_sink->users, 1);
	return DOCA_SUCCESS;
}

void rdma_dpa_detach(struct doca_rdma *rdma)
{
	if (rdma->dpa_sink)
		atomic_fetch_sub(&rdma->dpa_sink->users, 1);
	rdma->dpa_sink = NULL;
}

/* --- completions (worker lock held, any thread) --- */

static void push(struct rdma_dpa *path, const struct sdoca_dpa_cqe *cqe)
{
	struct sdoca_cq_sink *sink = path->rdma->dpa_sink;

	nic_assert_locked(path->rdma->worker);
	if (sink)
		sink->push(sink, cqe);
}

static uint32_t qpn_of(const struct nic_qp *qp, uint32_t fallback)
{
	const struct doca_rdma_connection *conn = qp ? nic_qp_owner(qp) : NULL;

	return conn ? (uint32_t)conn->generation << 16 | conn->index : fallback;
}

static void send_done(struct nic_wqe *wqe, doca_error_t status)
{
	struct rdma_dpa_wr *wr = sdoca_container_of(wqe, struct rdma_dpa_wr, wqe);
	struct rdma_dpa *path = wr->path;

	if (status != DOCA_SUCCESS || wr->report) {
		struct sdoca_dpa_cqe cqe = {
			.type = status == DOCA_SUCCESS ? CQE_SEND : CQE_SEND_ERR,
			.user_data = wr->conn_id,
			.wr_index = wr->wr_index,
			.byte_count = (uint32_t)wqe->result_len,
			.syndrome = (uint32_t)status,
			.qpn = wr->conn_id,
		};
		push(path, &cqe);
	}
	pthread_mutex_lock(&path->lock);
	wr->next_free = path->free_send;
	path->free_send = wr;
	pthread_mutex_unlock(&path->lock);
}

static const uint32_t recv_types[] = {
	[NIC_RECV_SEND] = CQE_RECV_SEND,
	[NIC_RECV_SEND_IMM] = CQE_RECV_SEND_IMM,
	[NIC_RECV_WRITE_IMM] = CQE_RECV_RDMA_WRITE_IMM,
};

static void recv_done(struct nic_wqe *wqe, doca_error_t status)
{
	struct rdma_dpa_wr *wr = sdoca_container_of(wqe, struct rdma_dpa_wr, wqe);
	struct rdma_dpa *path = wr->path;
	struct sdoca_dpa_cqe cqe = {
		.type = status == DOCA_SUCCESS ? recv_types[wqe->result_kind] : CQE_RECV_ERR,
		.user_data = qpn_of(wqe->result_qp, 0),
		.wr_index = wr->wr_index,
		.byte_count = (uint32_t)wqe->result_len,
		.syndrome = (uint32_t)status,
		.qpn = qpn_of(wqe->result_qp, 0),
	};
	uint32_t be;

	memcpy(&be, wqe->result_imm, sizeof(be));
	cqe.immediate = be32toh(be);
	/* A completed receive frees its slot (programs never ack receives). */
	pthread_mutex_lock(&path->lock);
	wr->next_free = path->free_recv;
	path->free_recv = wr;
	path->recv_posted--;
	path->recv_done++;
	pthread_mutex_unlock(&path->lock);
	push(path, &cqe);
}

/* --- start and stop --- */

doca_error_t rdma_dpa_start(struct doca_rdma *rdma)
{
	struct rdma_dpa *path = calloc(1, sizeof(*path));
	const char *flush = getenv("SOFTDOCA_DPA_FLUSH");

	if (!path)
		return sdoca_fail(DOCA_ERROR_NO_MEMORY, "DPA data path: no memory");
	path->rdma = rdma;
	path->num_send = rdma->send_queue_size;
	path->num_recv = rdma->recv_queue_size;
	path->send = calloc(path->num_send, sizeof(*path->send));
	path->recv = calloc(path->num_recv, sizeof(*path->recv));
	path->unflushed = calloc(path->num_send, sizeof(*path->unflushed));
	path->conn_seq = calloc(rdma->num_slots ? rdma->num_slots : 1, sizeof(*path->conn_seq));
	if (!path->send || !path->recv || !path->unflushed || !path->conn_seq) {
		free(path->send);
		free(path->recv);
		free(path->unflushed);
		free(path->conn_seq);
		free(path);
		return sdoca_fail(DOCA_ERROR_NO_MEMORY,
		                  "DPA data path: no memory for %u + %u slots",
		                  rdma->send_queue_size, rdma->recv_queue_size);
	}
	pthread_mutex_init(&path->lock, NULL);
	for (uint32_t i = path->num_send; i-- > 0;) {
		path->send[i].path = path;
		path->send[i].next_free = path->free_send;
		path->free_send = &path->send[i];
	}
	for (uint32_t i = path->num_recv; i-- > 0;) {
		path->recv[i].path = path;
		path->recv[i].next_free = path->free_recv;
		path->free_recv = &path->recv[i];
	}
	path->flush_always = flush && strcmp(flush, "always") == 0;
	rdma->dpa_path = path;

	pthread_rwlock_wrlock(&handles.lock);
	for (uint32_t slot = 0; slot < RDMA_HANDLE_SLOTS; slot++) {
		if (!handles.rdma[slot]) {
			handles.rdma[slot] = rdma;
			handles.generation[slot] = (handles.generation[slot] + 1) & 0xffffffu;
			rdma->dpa_handle =
			        TAG_RDMA << 56 | (uint64_t)handles.generation[slot] << 32 | slot;
			break;
		}
	}
	pthread_rwlock_unlock(&handles.lock);
	if (!rdma->dpa_handle) {
		rdma_dpa_stopped(rdma);
		return sdoca_fail(DOCA_ERROR_FULL,
		                  "DPA data path: %u contexts have DPA handles already",
		                  RDMA_HANDLE_SLOTS);
	}
	/* No program thread progresses this worker: the service thread does,
	 * and completions reach DPA threads through their completion context. */
	nic_worker_app_sleeps(rdma->worker);
	return DOCA_SUCCESS;
}

/* Kernels' later posts on the context are bad calls. */
void rdma_dpa_stop(struct doca_rdma *rdma)
{
	if (!rdma->dpa_handle)
		return;
	pthread_rwlock_wrlock(&handles.lock);
	handles.rdma[(uint32_t)rdma->dpa_handle % RDMA_HANDLE_SLOTS] = NULL;
	pthread_rwlock_unlock(&handles.lock);
	rdma->dpa_handle = 0;
}

void rdma_dpa_stopped(struct doca_rdma *rdma)
{
	struct rdma_dpa *path = rdma->dpa_path;

	rdma_dpa_stop(rdma);
	if (!path)
		return;
	for (uint32_t i = 0; i < path->num_send; i++)
		free(path->send[i].bounce);
	free(path->send);
	free(path->recv);
	free(path->unflushed);
	free(path->conn_seq);
	pthread_mutex_destroy(&path->lock);
	free(path);
	rdma->dpa_path = NULL;
}

/* --- posts --- */

/* Caller holds handles.lock (read). */
static struct doca_rdma *rdma_find(uint64_t h)
{
	uint32_t slot = (uint32_t)h;

	if (h >> 56 != TAG_RDMA || slot >= RDMA_HANDLE_SLOTS)
		return NULL;
	if (handles.generation[slot] != ((h >> 32) & 0xffffffu))
		return NULL;
	return handles.rdma[slot];
}

static struct doca_rdma_connection *conn_find(struct doca_rdma *rdma, uint32_t id)
{
	uint32_t index = id & 0xffffu;
	struct doca_rdma_connection *conn;

	if (!rdma->conns || index >= rdma->num_slots)
		return NULL;
	conn = &rdma->conns[index];
	if (!atomic_load_explicit(&conn->in_use, memory_order_acquire) ||
	    conn->generation != (id >> 16) || !conn->qp)
		return NULL;
	return conn;
}

/* The mmap a handle names, with [addr, addr + len) inside it. */
static doca_error_t range_check(uint32_t h, uint64_t addr, uint64_t len, bool remote,
                                const char *what, struct sdoca_mmap_dpa_view *v, char *why,
                                size_t why_len)
{
	if (sdoca_mmap_dpa_lookup(h, v) != DOCA_SUCCESS)
		return why_fail(why, why_len, DOCA_ERROR_INVALID_VALUE,
		                "%s mmap handle 0x%x is not registered", what, h);
	if (v->from_export != remote)
		return why_fail(why, why_len, DOCA_ERROR_INVALID_VALUE, "%s mmap handle 0x%x is %s",
		                what, h,
		                remote ? "a local mmap (the remote side needs one created from an "
		                         "export)"
		                       : "an mmap created from an export (the local side needs a "
		                         "local one)");
	if (addr < (uintptr_t)v->addr || len > v->len || addr - (uintptr_t)v->addr > v->len - len)
		return why_fail(why, why_len, DOCA_ERROR_INVALID_VALUE,
		                "%s range 0x%llx+%llu is outside mmap 0x%x (0x%llx+%zu)", what,
		                (unsigned long long)addr, (unsigned long long)len, h,
		                (unsigned long long)(uintptr_t)v->addr, v->len);
	return DOCA_SUCCESS;
}

/* Hands one post to the soft NIC. */
static void submit(struct rdma_dpa_wr *wr)
{
	doca_error_t status =
	        wr->refused == DOCA_SUCCESS
	                ? nic_post_send(wr->qp, &wr->wqe)
	                : nic_post_send_refused(wr->qp, &wr->wqe, wr->refused, "a bad DPA post");

	if (status != DOCA_SUCCESS)
		/* The QP is down or not connected: an error completion. */
		send_done(&wr->wqe, wr->refused != DOCA_SUCCESS ? wr->refused
		                                                : DOCA_ERROR_CONNECTION_ABORTED);
}

/* Hands the unflushed posts to the soft NIC, in order. A batch smaller than
 * the array emptied the list: a post that comes after it is its poster's
 * to flush, as one that came after an empty list's check always was. */
static void flush(struct rdma_dpa *path)
{
	enum { FLUSH_BATCH = 64 };
	struct rdma_dpa_wr *batch[FLUSH_BATCH];
	uint32_t n;

	do {
		pthread_mutex_lock(&path->lock);
		n = path->num_unflushed < FLUSH_BATCH ? path->num_unflushed : FLUSH_BATCH;
		memcpy(batch, path->unflushed, n * sizeof(*batch));
		memmove(path->unflushed, path->unflushed + n,
		        (path->num_unflushed - n) * sizeof(*batch));
		path->num_unflushed -= n;
		pthread_mutex_unlock(&path->lock);
		for (uint32_t i = 0; i < n; i++)
			submit(batch[i]);
	} while (n == FLUSH_BATCH);
}

static struct rdma_dpa_wr *take_send_slot(struct rdma_dpa *path)
{
	uint64_t deadline = 0;
	struct rdma_dpa_wr *wr;

	for (;;) {
		pthread_mutex_lock(&path->lock);
		wr = path->free_send;
		if (wr)
			path->free_send = wr->next_free;
		pthread_mutex_unlock(&path->lock);
		if (wr)
			return wr;
		/* A full send queue is a program bug on hardware too. */
		if (!deadline) {
			SDOCA_LOG_ONCE(DOCA_LOG_LEVEL_WARNING,
			               "DPA data path: the send queue (%u) is full; a post waits "
			               "for a completion",
			               path->num_send);
			deadline = sdoca_now_ns() + SLOT_WAIT_NS;
		} else if (sdoca_now_ns() > deadline) {
			return NULL;
		}
		flush(path);
		if (!nic_worker_progress(path->rdma->worker))
			sched_yield();
	}
}

static const enum nic_wr_op wr_ops[] = {
	[SDOCA_RDMA_DPA_WRITE] = NIC_WR_WRITE,
	[SDOCA_RDMA_DPA_WRITE_IMM] = NIC_WR_WRITE_IMM,
	[SDOCA_RDMA_DPA_READ] = NIC_WR_READ,
	[SDOCA_RDMA_DPA_SEND] = NIC_WR_SEND,
	[SDOCA_RDMA_DPA_SEND_IMM] = NIC_WR_SEND_IMM,
	[SDOCA_RDMA_DPA_ATOMIC_FA] = NIC_WR_ATOMIC_FA,
	[SDOCA_RDMA_DPA_SIGNAL_SET] = NIC_WR_EVENT_SET,
	[SDOCA_RDMA_DPA_SIGNAL_ADD] = NIC_WR_EVENT_ADD,
};

/* Checks a post's work request and fills it (no slot taken yet). */
static doca_error_t build(const struct sdoca_rdma_dpa_post *p, struct nic_wqe *wqe, char *why,
                          size_t why_len)
{
	struct sdoca_mmap_dpa_view local, remote;
	doca_error_t status;
	bool signal = p->op == SDOCA_RDMA_DPA_SIGNAL_SET || p->op == SDOCA_RDMA_DPA_SIGNAL_ADD;
	bool has_local = p->op != SDOCA_RDMA_DPA_ATOMIC_FA && !signal;
	bool has_remote =
	        p->op != SDOCA_RDMA_DPA_SEND && p->op != SDOCA_RDMA_DPA_SEND_IMM && !signal;
	uint32_t be;

	if (p->flags & ~(SDOCA_RDMA_DPA_FLUSH | SDOCA_RDMA_DPA_OPTIMIZE_REPORTS))
		return why_fail(why, why_len, DOCA_ERROR_INVALID_VALUE, "unknown flag bits 0x%x",
		                p->flags);
	if (p->length > RDMA_MAX_MESSAGE_SIZE)
		return why_fail(why, why_len, DOCA_ERROR_INVALID_VALUE,
		                "length %llu exceeds the 2 GiB limit",
		                (unsigned long long)p->length);
	memset(wqe, 0, offsetof(struct nic_wqe, qp));
	wqe->op = wr_ops[p->op];
	if (has_local) {
		status = range_check(p->local_mmap, p->local_addr, p->length, false, "local",
		                     &local, why, why_len);
		if (status != DOCA_SUCCESS)
			return status;
		if (p->op == SDOCA_RDMA_DPA_READ &&
		    !(local.access & DOCA_ACCESS_FLAG_LOCAL_READ_WRITE))
			return why_fail(why, why_len, DOCA_ERROR_INVALID_VALUE,
			                "local mmap 0x%x is read-only", p->local_mmap);
		wqe->sge[0] = (struct xport_iov){ (void *)(uintptr_t)p->local_addr, p->length };
		wqe->num_sge = 1;
		wqe->length = p->length;
	}
	if (has_remote) {
		uint64_t rlen = p->op == SDOCA_RDMA_DPA_ATOMIC_FA ? sizeof(uint64_t) : p->length;

		status = range_check(p->remote_mmap, p->remote_addr, rlen, true, "remote", &remote,
		                     why, why_len);
		if (status != DOCA_SUCCESS)
			return status;
		wqe->rkey = remote.key;
		wqe->raddr = p->remote_addr;
	}
	if (signal) {
		if (sdoca_sync_event_remote_dpa_lookup(p->remote_event, &wqe->rkey, &wqe->raddr) !=
		    DOCA_SUCCESS)
			return why_fail(why, why_len, DOCA_ERROR_INVALID_VALUE,
			                "0x%llx is not a remote-net sync event's DPA handle",
			                (unsigned long long)p->remote_event);
		/* A set writes the 8-byte value (as the host's notify-set task). */
		wqe->length = sizeof(uint64_t);
	}
	wqe->compare_or_add = p->value;
	be = htobe32(p->immediate);
	memcpy(wqe->imm, &be, sizeof(be));
	return DOCA_SUCCESS;
}

static doca_error_t no_rdma(uint64_t rdma_handle, enum sdoca_rdma_dpa_bad *bad, char *why,
                            size_t why_len)
{
	pthread_rwlock_unlock(&handles.lock);
	*bad = SDOCA_RDMA_DPA_BAD_NO_QUEUE;
	return why_fail(why, why_len, DOCA_ERROR_INVALID_VALUE,
	                "RDMA handle 0x%llx names no started context on the DPA data path",
	                (unsigned long long)rdma_handle);
}

SDOCA_EXPORT doca_error_t sdoca_rdma_dpa_post(uint64_t rdma_handle,
                                              const struct sdoca_rdma_dpa_post *p,
                                              enum sdoca_rdma_dpa_bad *bad, char *why,
                                              size_t why_len)
{
	struct doca_rdma_connection *conn;
	struct rdma_dpa_wr *wr;
	struct rdma_dpa *path;
	struct nic_wqe wqe;
	doca_error_t refused;
	bool now, alone;

	pthread_rwlock_rdlock(&handles.lock);
	struct doca_rdma *rdma = rdma_find(rdma_handle);
	if (!rdma)
		return no_rdma(rdma_handle, bad, why, why_len);
	path = rdma->dpa_path;
	conn = conn_find(rdma, p->conn_id);
	if (!conn) {
		pthread_rwlock_unlock(&handles.lock);
		*bad = SDOCA_RDMA_DPA_BAD_NO_QUEUE;
		return why_fail(why, why_len, DOCA_ERROR_NOT_CONNECTED,
		                "connection id 0x%x names no connection of the context (%u slots)",
		                p->conn_id, rdma->num_slots);
	}
	/* A bad work request on a valid connection still takes its place in
	 * the send queue: it fails there, in order (as a local protection
	 * error on RC). */
	refused = build(p, &wqe, why, why_len);
	wr = take_send_slot(path);
	if (!wr) {
		pthread_rwlock_unlock(&handles.lock);
		*bad = SDOCA_RDMA_DPA_BAD_NO_QUEUE;
		return why_fail(why, why_len, DOCA_ERROR_FULL,
		                "the send queue (%u) stayed full for 5 s", path->num_send);
	}
	if (refused != DOCA_SUCCESS) { /* the NIC never reads its fields */
		memset(&wr->wqe, 0, offsetof(struct nic_wqe, qp));
		wr->wqe.op = wr_ops[p->op];
	} else {
		memcpy(&wr->wqe, &wqe, offsetof(struct nic_wqe, qp));
	}
	wr->wqe.done = send_done;
	wr->qp = conn->qp;
	wr->conn_id = p->conn_id;
	wr->refused = refused;
	/* errors are always reported */
	wr->report = refused != DOCA_SUCCESS || !(p->flags & SDOCA_RDMA_DPA_OPTIMIZE_REPORTS);
	if (refused != DOCA_SUCCESS) {
		/* nothing more: it is never sent */
	} else if (p->op == SDOCA_RDMA_DPA_ATOMIC_FA || p->op == SDOCA_RDMA_DPA_SIGNAL_ADD) {
		wr->wqe.sge[0] = (struct xport_iov){ &wr->atomic_result, sizeof(uint64_t) };
		wr->wqe.num_sge = 1;
		wr->wqe.length = sizeof(uint64_t);
	} else if (p->op == SDOCA_RDMA_DPA_SEND || p->op == SDOCA_RDMA_DPA_SEND_IMM) {
		/* Send payloads are taken at post time. */
		if (wr->bounce_cap < p->length) {
			uint8_t *b = realloc(wr->bounce, p->length);

			if (!b) {
				send_done(&wr->wqe, DOCA_ERROR_NO_MEMORY);
				pthread_rwlock_unlock(&handles.lock);
				return DOCA_SUCCESS;
			}
			wr->bounce = b;
			wr->bounce_cap = p->length;
		}
		if (p->length)
			memcpy(wr->bounce, (void *)(uintptr_t)p->local_addr, p->length);
		/* A 0-byte send has no bounce buffer: its (checked) address
		 * stands in, so no transport is handed a NULL base (as a host
		 * task's empty doca_buf has its data address). */
		wr->wqe.sge[0].base =
		        p->length ? (void *)wr->bounce : (void *)(uintptr_t)p->local_addr;
	}
	pthread_mutex_lock(&path->lock);
	wr->wr_index = path->conn_seq[conn->index]++;
	/* A refused post goes at once, with the posts held before it: its
	 * error is known now, and its completion should not wait for a FLUSH. */
	now = (p->flags & SDOCA_RDMA_DPA_FLUSH) || path->flush_always ||
	      path->num_unflushed + 1 == path->num_send || refused != DOCA_SUCCESS;
	/* Going now with nothing held before it, it skips the list. */
	alone = now && path->num_unflushed == 0;
	if (!alone)
		path->unflushed[path->num_unflushed++] = wr;
	pthread_mutex_unlock(&path->lock);
	if (alone)
		submit(wr);
	else if (now)
		flush(path);
	pthread_rwlock_unlock(&handles.lock);
	if (refused != DOCA_SUCCESS)
		*bad = SDOCA_RDMA_DPA_BAD_WR;
	return refused;
}

SDOCA_EXPORT doca_error_t sdoca_rdma_dpa_receive(uint64_t rdma_handle, uint32_t mmap, uint64_t addr,
                                                 uint64_t length, enum sdoca_rdma_dpa_bad *bad,
                                                 char *why, size_t why_len)
{
	struct sdoca_mmap_dpa_view v;
	struct rdma_dpa_wr *wr;
	struct rdma_dpa *path;
	doca_error_t refused, status;

	pthread_rwlock_rdlock(&handles.lock);
	struct doca_rdma *rdma = rdma_find(rdma_handle);
	if (!rdma)
		return no_rdma(rdma_handle, bad, why, why_len);
	path = rdma->dpa_path;
	refused = range_check(mmap, addr, length, false, "receive", &v, why, why_len);
	if (refused == DOCA_SUCCESS && !(v.access & DOCA_ACCESS_FLAG_LOCAL_READ_WRITE))
		refused = why_fail(why, why_len, DOCA_ERROR_INVALID_VALUE,
		                   "receive mmap 0x%x is read-only", mmap);
	pthread_mutex_lock(&path->lock);
	wr = path->free_recv;
	if (wr) {
		path->free_recv = wr->next_free;
		path->recv_posted++;
		wr->wr_index = path->recv_seq++;
	}
	pthread_mutex_unlock(&path->lock);
	if (!wr) {
		pthread_rwlock_unlock(&handles.lock);
		*bad = SDOCA_RDMA_DPA_BAD_NO_QUEUE;
		return why_fail(why, why_len, DOCA_ERROR_FULL, "the receive queue (%u) is full",
		                path->num_recv);
	}
	memset(&wr->wqe, 0, offsetof(struct nic_wqe, qp));
	wr->wqe.op = NIC_WR_RECV;
	/* A refused receive's buffer is never touched: the message that
	 * consumes it is refused first (as on RC, where the key is checked
	 * when a message lands). */
	wr->wqe.sge[0] = (struct xport_iov){ (void *)(uintptr_t)addr, length };
	wr->wqe.num_sge = 1;
	wr->wqe.length = length;
	wr->wqe.done = recv_done;
	status = refused == DOCA_SUCCESS ? nic_post_recv(&rdma->srq, &wr->wqe)
	                                 : nic_post_recv_refused(&rdma->srq, &wr->wqe, refused);
	if (status != DOCA_SUCCESS) {
		pthread_mutex_lock(&path->lock);
		wr->next_free = path->free_recv;
		path->free_recv = wr;
		path->recv_posted--;
		pthread_mutex_unlock(&path->lock);
		pthread_rwlock_unlock(&handles.lock);
		*bad = SDOCA_RDMA_DPA_BAD_NO_QUEUE;
		return why_fail(why, why_len, status, "the soft NIC refused the receive");
	}
	pthread_rwlock_unlock(&handles.lock);
	if (refused != DOCA_SUCCESS)
		*bad = SDOCA_RDMA_DPA_BAD_WR;
	return refused;
}

/* A completed receive already freed its slot: only checked. */
SDOCA_EXPORT doca_error_t sdoca_rdma_dpa_receive_ack(uint64_t rdma_handle, uint32_t num,
                                                     enum sdoca_rdma_dpa_bad *bad, char *why,
                                                     size_t why_len)
{
	doca_error_t status = DOCA_SUCCESS;

	pthread_rwlock_rdlock(&handles.lock);
	struct doca_rdma *rdma = rdma_find(rdma_handle);
	if (!rdma) {
		return no_rdma(rdma_handle, bad, why, why_len);
	} else {
		struct rdma_dpa *path = rdma->dpa_path;

		pthread_mutex_lock(&path->lock);
		*bad = SDOCA_RDMA_DPA_BAD_CALL;
		if (path->recv_acked + num > path->recv_done)
			status = why_fail(
			        why, why_len, DOCA_ERROR_INVALID_VALUE,
			        "%u receives acknowledged, %llu completed and not acknowledged",
			        num, (unsigned long long)(path->recv_done - path->recv_acked));
		else
			path->recv_acked += num;
		pthread_mutex_unlock(&path->lock);
	}
	pthread_rwlock_unlock(&handles.lock);
	return status;
}
