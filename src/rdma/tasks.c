/*
 * The RDMA tasks' one path: one object, one allocate/submit/complete.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The RDMA tasks' one path: every type shares one object (struct rdma_task)
 * and one allocate/submit/complete; a row per type (types[] below) carries
 * what differs. A new type is a row, its builder and, if its completion
 * gives more than a length, its results function. The DOCA rules on
 * buffers, from the task documentation:
 *
 *  - a local source is the data section of a buffer or list;
 *  - a local destination is the space after the data section of each buffer
 *    of a list, filled in order, whose data length grows by what arrived;
 *  - a remote buffer (from an imported mmap) is never a list; a write lands
 *    after its data section, a read takes its data section;
 *  - atomics act on the 8 bytes at the remote buffer's data address and put
 *    the original value at the result buffer's data address;
 *  - a remote sync event's get appends the 8-byte value after the data
 *    section of a local list (DOCA 2.5: puts it at the data address of the
 *    buffer, whose data section then holds at least those 8 bytes; its
 *    sample gets again and again into one 8-byte buffer), a notify-set sets the value to the first
 * 8 bytes (at most) of a local source list's data, and a notify-add puts the value before it at its
 * result buffer's data address, as an atomic;
 *  - NULL buffers mean a zero-length operation (a keep-alive).
 */
#include <string.h>

#include "core/buf.h"
#include "core/mmap.h"
#include "core/sdk_log.h"
#include "core/task.h"
#include "rdma/rdma.h"

SDOCA_LOG_MODULE(rdma_tasks);

/* One task type: what differs between them. */
struct rdma_task_type {
	struct sdoca_task_type base; /* what doca_task sees: name, size, invoke, submit */
	enum nic_wr_op op;
	bool connected; /* goes through a connection: every type but receive */
	/* Checks what the application gave and fills in the work request. */
	doca_error_t (*build)(struct rdma_task *t);
	/* What a completion gives besides the length (any thread, worker lock
	 * held); NULL when nothing. */
	void (*results)(struct rdma_task *t, const struct nic_wqe *wqe, doca_error_t status);
};

static struct rdma_task *to_task(struct doca_task *task)
{
	return sdoca_container_of(task, struct rdma_task, base);
}

/* --- builders: from the application's arguments to a work request --- */

/* The data sections of a local list: what a send or write carries. */
static SDOCA_ALWAYS_INLINE doca_error_t gather_data(const struct doca_buf *list, uint32_t max,
                                                    struct nic_wqe *wqe)
{
	uint64_t total = 0;

	wqe->num_sge = 0;
	for (const struct doca_buf *b = list; b; b = b->next) {
		if (wqe->num_sge == max)
			return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
			                  "source list is longer than max_send_buf_list_len (%u)",
			                  max);
		if (b->mmap->from_export)
			return sdoca_fail(
			        DOCA_ERROR_INVALID_VALUE,
			        "a local source buffer comes from a remote (imported) mmap");
		wqe->sge[wqe->num_sge++] = (struct xport_iov){ b->data, b->data_len };
		total += b->data_len;
	}
	if (total > RDMA_MAX_MESSAGE_SIZE)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "message of %llu bytes exceeds the 2 GiB limit",
		                  (unsigned long long)total);
	wqe->length = total;
	return DOCA_SUCCESS;
}

/* The free space after the data sections of a local list: where data lands.
 * Inline: on the path of every receive posted. */
static SDOCA_ALWAYS_INLINE doca_error_t scatter_room(struct doca_buf *list, uint32_t max,
                                                     struct nic_wqe *wqe)
{
	uint64_t total = 0;

	wqe->num_sge = 0;
	for (struct doca_buf *b = list; b; b = b->next) {
		if (wqe->num_sge == max)
			return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
			                  "destination list is longer than allowed (%u)", max);
		if (b->mmap->from_export)
			return sdoca_fail(
			        DOCA_ERROR_INVALID_VALUE,
			        "a local destination buffer comes from a remote (imported) mmap");
		if (!(b->mmap->access & DOCA_ACCESS_FLAG_LOCAL_READ_WRITE))
			return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
			                  "a local destination buffer's mmap is read-only");
		wqe->sge[wqe->num_sge++] =
		        (struct xport_iov){ b->data + b->data_len, sdoca_buf_tailroom(b) };
		total += sdoca_buf_tailroom(b);
	}
	wqe->length = total < RDMA_MAX_MESSAGE_SIZE ? total : RDMA_MAX_MESSAGE_SIZE;
	return DOCA_SUCCESS;
}

static SDOCA_ALWAYS_INLINE doca_error_t check_remote(const struct doca_buf *buf, const char *what)
{
	if (!buf->mmap->from_export)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "the %s buffer must come from an mmap imported with "
		                  "doca_mmap_create_from_export",
		                  what);
	if (buf->next)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "the %s buffer must not be a list",
		                  what);
	return DOCA_SUCCESS;
}

static doca_error_t build_receive(struct rdma_task *t)
{
	return scatter_room(t->args.dst, rdma_of(t->base.ctx)->recv_buf_list_len, &t->wqe);
}

static doca_error_t build_send(struct rdma_task *t)
{
	return gather_data(t->args.src, t->args.conn->rdma->max_send_buf_list_len, &t->wqe);
}

static doca_error_t build_write(struct rdma_task *t)
{
	struct doca_buf *dst = t->args.dst;
	doca_error_t status =
	        gather_data(t->args.src, t->args.conn->rdma->max_send_buf_list_len, &t->wqe);

	if (status != DOCA_SUCCESS)
		return status;
	if (!dst) {
		if (t->wqe.length > 0)
			return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
			                  "write of %llu bytes with no destination",
			                  (unsigned long long)t->wqe.length);
		return DOCA_SUCCESS;
	}
	status = check_remote(dst, "remote destination");
	if (status != DOCA_SUCCESS)
		return status;
	if (t->wqe.length > sdoca_buf_tailroom(dst))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "write of %llu bytes into %zu free bytes of the remote buffer",
		                  (unsigned long long)t->wqe.length, sdoca_buf_tailroom(dst));
	t->wqe.rkey = dst->mmap->key;
	t->wqe.raddr = (uintptr_t)(dst->data + dst->data_len);
	return DOCA_SUCCESS;
}

static doca_error_t build_read(struct rdma_task *t)
{
	const struct doca_buf *src = t->args.src;
	doca_error_t status;

	if (!src) {
		if (t->args.dst)
			return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
			                  "read with a destination but no source");
		t->wqe.num_sge = 0;
		t->wqe.length = 0;
		return DOCA_SUCCESS;
	}
	status = check_remote(src, "remote source");
	if (status == DOCA_SUCCESS)
		status = scatter_room(t->args.dst, t->args.conn->rdma->max_send_buf_list_len,
		                      &t->wqe);
	if (status != DOCA_SUCCESS)
		return status;
	if (src->data_len < t->wqe.length)
		t->wqe.length = src->data_len;
	t->wqe.rkey = src->mmap->key;
	t->wqe.raddr = (uintptr_t)src->data;
	return DOCA_SUCCESS;
}

static doca_error_t build_atomic(struct rdma_task *t)
{
	struct doca_buf *dst = t->args.dst, *result = t->args.result;
	doca_error_t status;

	if (!dst || !result)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "atomics need a remote and a result buffer");
	status = check_remote(dst, "remote destination");
	if (status != DOCA_SUCCESS)
		return status;
	if ((size_t)(dst->head + dst->len - dst->data) < sizeof(uint64_t) ||
	    (size_t)(result->head + result->len - result->data) < sizeof(uint64_t))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "atomics need 8 bytes from the data address of both buffers");
	if (result->mmap->from_export)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "the result buffer must be local");
	/* The original value lands in the result buffer: it is the request's
	 * one local buffer. */
	t->wqe.sge[0] = (struct xport_iov){ result->data, sizeof(uint64_t) };
	t->wqe.num_sge = 1;
	t->wqe.length = sizeof(uint64_t);
	t->wqe.rkey = dst->mmap->key;
	t->wqe.raddr = (uintptr_t)dst->data;
	t->wqe.compare_or_add = t->args.operand1;
	t->wqe.swap = t->args.operand2;
	return DOCA_SUCCESS;
}

/* A remote sync event's key and value address. */
static doca_error_t target_event(struct rdma_task *t)
{
	const struct doca_sync_event_remote_net *ev = t->args.event;

	if (!ev)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "%s task has no remote sync event",
		                  t->type->base.name);
	t->wqe.rkey = ev->key;
	t->wqe.raddr = ev->addr;
	return DOCA_SUCCESS;
}

/* DOCA 2.5: the value overwrites the 8 bytes at the data address. */
static doca_error_t build_event_get_v205(struct rdma_task *t)
{
	struct doca_buf *dst = t->args.dst;

	if (!dst || dst->mmap->from_export ||
	    !(dst->mmap->access & DOCA_ACCESS_FLAG_LOCAL_READ_WRITE) ||
	    (size_t)(dst->head + dst->len - dst->data) < sizeof(uint64_t))
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "remote sync-event get needs a local writable buffer with 8 bytes from "
		        "its data address");
	t->wqe.sge[0] = (struct xport_iov){ dst->data, sizeof(uint64_t) };
	t->wqe.num_sge = 1;
	t->wqe.length = sizeof(uint64_t);
	return target_event(t);
}

static doca_error_t build_event_get(struct rdma_task *t)
{
	doca_error_t status;

	if (t->base.ctx->api_version == 205)
		return build_event_get_v205(t);
	status = scatter_room(t->args.dst, t->args.conn->rdma->max_send_buf_list_len, &t->wqe);

	if (status != DOCA_SUCCESS)
		return status;
	if (t->wqe.length < sizeof(uint64_t))
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "remote sync-event get: the destination has %llu free bytes, the value "
		        "needs 8",
		        (unsigned long long)t->wqe.length);
	t->wqe.length = sizeof(uint64_t);
	return target_event(t);
}

/* The value is the first bytes (up to 8) of the source list's data; fewer
 * set only the value's first bytes, as an RDMA write of them would. */
static doca_error_t build_event_set(struct rdma_task *t)
{
	uint8_t bytes[sizeof(uint64_t)] = { 0 };
	uint32_t n = 0, bufs = 0, max = t->args.conn->rdma->max_send_buf_list_len;
	uint64_t value;

	for (const struct doca_buf *b = t->args.src; b; b = b->next) {
		size_t take = sizeof(bytes) - n < b->data_len ? sizeof(bytes) - n : b->data_len;

		if (++bufs > max)
			return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
			                  "source list is longer than max_send_buf_list_len (%u)",
			                  max);
		if (b->mmap->from_export)
			return sdoca_fail(
			        DOCA_ERROR_INVALID_VALUE,
			        "a local source buffer comes from a remote (imported) mmap");
		memcpy(bytes + n, b->data, take);
		n += (uint32_t)take;
	}
	if (n == 0)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "remote sync-event notify-set: the source has no data to set");
	memcpy(&value, bytes, sizeof(value));
	t->wqe.compare_or_add = value;
	t->wqe.length = n;
	t->wqe.num_sge = 0;
	return target_event(t);
}

/* The value before the add lands like an atomic's original value. */
static doca_error_t build_event_add(struct rdma_task *t)
{
	struct doca_buf *result = t->args.result;

	if (!result || result->mmap->from_export ||
	    (size_t)(result->head + result->len - result->data) < sizeof(uint64_t))
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "remote sync-event notify-add needs a local result buffer with 8 bytes "
		        "from its data address");
	t->wqe.sge[0] = (struct xport_iov){ result->data, sizeof(uint64_t) };
	t->wqe.num_sge = 1;
	t->wqe.length = sizeof(uint64_t);
	t->wqe.compare_or_add = t->args.operand1;
	return target_event(t);
}

/* --- results: what a completion gives besides the length --- */

/* Grows the data sections of a destination list by what arrived. */
static void fill_room(struct doca_buf *list, uint64_t len)
{
	for (struct doca_buf *b = list; b && len > 0; b = b->next) {
		size_t room = sdoca_buf_tailroom(b), n = len < room ? len : room;

		b->data_len += n;
		len -= n;
	}
}

static void write_results(struct rdma_task *t, const struct nic_wqe *wqe, doca_error_t status)
{
	if (status == DOCA_SUCCESS && t->args.dst)
		t->args.dst->data_len += wqe->length;
}

static void read_results(struct rdma_task *t, const struct nic_wqe *wqe, doca_error_t status)
{
	if (status == DOCA_SUCCESS)
		fill_room(t->args.dst, wqe->result_len);
}

static void event_get_results(struct rdma_task *t, const struct nic_wqe *wqe, doca_error_t status)
{
	struct doca_buf *dst = t->args.dst;

	if (status != DOCA_SUCCESS)
		return;
	if (t->base.ctx->api_version != 205)
		fill_room(dst, wqe->result_len);
	else if (dst->data_len < sizeof(uint64_t))
		dst->data_len = sizeof(uint64_t);
}

static const enum doca_rdma_opcode recv_opcodes[] = {
	[NIC_RECV_SEND] = DOCA_RDMA_OPCODE_RECV_SEND,
	[NIC_RECV_SEND_IMM] = DOCA_RDMA_OPCODE_RECV_SEND_WITH_IMM,
	[NIC_RECV_WRITE_IMM] = DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM,
};

static void receive_results(struct rdma_task *t, const struct nic_wqe *wqe, doca_error_t status)
{
	struct nic_qp *qp = wqe->result_qp;

	if (status == DOCA_SUCCESS) {
		fill_room(t->args.dst, wqe->result_len);
		t->result_opcode = recv_opcodes[wqe->result_kind];
		memcpy(&t->result_imm, wqe->result_imm, sizeof(t->result_imm));
		t->result_conn = qp ? nic_qp_owner(qp) : NULL;
	} else if (qp) {
		/* Valid after completion irrespective of success. */
		t->result_opcode = recv_opcodes[wqe->result_kind];
	}
}

/* --- the one path --- */

/* The soft NIC finished the request (worker lock held, any thread). */
static void task_done(struct nic_wqe *wqe, doca_error_t status)
{
	struct rdma_task *t = sdoca_container_of(wqe, struct rdma_task, wqe);

	if (status == DOCA_SUCCESS)
		t->result_len = (uint32_t)wqe->result_len;
	if (t->type->results)
		t->type->results(t, wqe, status);
	sdoca_task_complete(&t->base, status);
}

/* What a builder may leave unset and the soft NIC still reads (a zero-length
 * RDMA's key, a receive's connection); the soft NIC sets the rest itself.
 * Clearing the whole request cost ~30 instructions. */
static SDOCA_ALWAYS_INLINE void prepare(struct rdma_task *t)
{
	t->wqe.rkey = (struct sdoca_key){ 0 };
	t->wqe.raddr = 0;
	t->wqe.result_len = 0;
	t->wqe.result_qp = NULL;
	t->wqe.op = t->type->op;
	t->wqe.done = task_done;
	memcpy(t->wqe.imm, &t->args.imm, sizeof(t->wqe.imm));
}

/* A request on its connection's QP. */
static doca_error_t submit_request(struct doca_task *task)
{
	struct rdma_task *t = to_task(task);
	doca_error_t status;

	prepare(t);
	if (!t->args.conn || !t->args.conn->qp)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "task has no connection, or its connection was disconnected (or "
		                  "belongs to a stopped context)");
	status = t->type->build(t);
	if (status != DOCA_SUCCESS)
		return status;
	return nic_post_send(t->args.conn->qp, &t->wqe);
}

/* A receive, on the context's shared receive queue. */
static doca_error_t submit_receive(struct doca_task *task)
{
	struct rdma_task *t = to_task(task);
	doca_error_t status;

	prepare(t);
	status = t->type->build(t);
	return status == DOCA_SUCCESS ? nic_post_recv(&rdma_of(task->ctx)->srq, &t->wqe) : status;
}

/* --- the table --- */

/* Each type's completion callback gets its own task type. */
#define INVOKER(name)                                                           \
	SDOCA_TASK_INVOKER(invoke_##name, struct doca_rdma_task_##name, t.base, \
	                   doca_rdma_task_##name##_completion_cb_t)
INVOKER(receive)
INVOKER(send)
INVOKER(send_imm)
INVOKER(read)
INVOKER(write)
INVOKER(write_imm)
INVOKER(atomic_cmp_swp)
INVOKER(atomic_fetch_add)
INVOKER(remote_net_sync_event_get)
INVOKER(remote_net_sync_event_notify_set)
INVOKER(remote_net_sync_event_notify_add)

#define ROW(label, tname, submit_fn, on_conn, wr_op, builder, results_fn)                  \
	{                                                                                  \
		.base = { .name = label,                                                   \
			  .size = sizeof(struct rdma_task),                                \
			  .invoke = invoke_##tname,                                        \
			  .submit = submit_fn },                                           \
		.op = wr_op, .connected = on_conn, .build = builder, .results = results_fn \
	}
/* A request on a connection: every type but receive. */
#define REQUEST(label, tname, wr_op, builder, results_fn) \
	ROW(label, tname, submit_request, true, wr_op, builder, results_fn)

static const struct rdma_task_type types[RDMA_TASK_KINDS] = {
	[RDMA_TASK_RECEIVE] = ROW("rdma receive", receive, submit_receive, false, NIC_WR_RECV,
	                          build_receive, receive_results),
	[RDMA_TASK_SEND] = REQUEST("rdma send", send, NIC_WR_SEND, build_send, NULL),
	[RDMA_TASK_SEND_IMM] =
	        REQUEST("rdma send-imm", send_imm, NIC_WR_SEND_IMM, build_send, NULL),
	[RDMA_TASK_READ] = REQUEST("rdma read", read, NIC_WR_READ, build_read, read_results),
	[RDMA_TASK_WRITE] = REQUEST("rdma write", write, NIC_WR_WRITE, build_write, write_results),
	[RDMA_TASK_WRITE_IMM] =
	        REQUEST("rdma write-imm", write_imm, NIC_WR_WRITE_IMM, build_write, write_results),
	[RDMA_TASK_ATOMIC_CMP_SWP] =
	        REQUEST("rdma compare-swap", atomic_cmp_swp, NIC_WR_ATOMIC_CS, build_atomic, NULL),
	[RDMA_TASK_ATOMIC_FETCH_ADD] =
	        REQUEST("rdma fetch-add", atomic_fetch_add, NIC_WR_ATOMIC_FA, build_atomic, NULL),
	[RDMA_TASK_SYNC_EVENT_GET] =
	        REQUEST("rdma remote sync-event get", remote_net_sync_event_get, NIC_WR_EVENT_GET,
	                build_event_get, event_get_results),
	[RDMA_TASK_SYNC_EVENT_NOTIFY_SET] =
	        REQUEST("rdma remote sync-event notify-set", remote_net_sync_event_notify_set,
	                NIC_WR_EVENT_SET, build_event_set, NULL),
	[RDMA_TASK_SYNC_EVENT_NOTIFY_ADD] =
	        REQUEST("rdma remote sync-event notify-add", remote_net_sync_event_notify_add,
	                NIC_WR_EVENT_ADD, build_event_add, NULL),
};

/* --- tasks the library submits itself (a batch's entries) --- */

doca_error_t rdma_task_prepare(struct rdma_task *t, enum rdma_task_kind kind,
                               void (*done)(struct nic_wqe *wqe, doca_error_t status))
{
	t->type = &types[kind];
	t->result_len = 0;
	prepare(t);
	t->wqe.done = done;
	if (t->type->connected && (!t->args.conn || !t->args.conn->qp))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "%s: no connection, or its connection was disconnected",
		                  t->type->base.name);
	return t->type->build(t);
}

doca_error_t rdma_task_post(struct rdma_task *t)
{
	if (!t->type->connected)
		return nic_post_recv(&rdma_of(t->base.ctx)->srq, &t->wqe);
	return nic_post_send(t->args.conn->qp, &t->wqe);
}

void rdma_task_results(struct rdma_task *t, const struct nic_wqe *wqe, doca_error_t status)
{
	if (status == DOCA_SUCCESS)
		t->result_len = (uint32_t)wqe->result_len;
	if (t->type->results)
		t->type->results(t, wqe, status);
}

/* --- DOCA 2.2 jobs: one pool for every kind, each task submitted by its
 * kind's row, its completion queued on the work queue --- */

static const struct sdoca_task_type job_type = {
	.name = "rdma job",
	.size = sizeof(struct rdma_task),
	.invoke = sdoca_workq_job_done,
};

doca_error_t rdma_jobs_setup(struct doca_rdma *rdma, uint32_t depth)
{
	if (rdma->job_pool.objects && rdma->job_pool.capacity >= depth)
		return DOCA_SUCCESS;
	return sdoca_task_pool_setup(&rdma->ctx, &rdma->job_pool, &job_type, depth);
}

/* doca_workq_submit() checked the context and the work queue's room: what
 * sdoca_task_alloc() would check. prepare() and the builders set the rest. */
struct rdma_task *rdma_job_take(struct doca_rdma *rdma, enum rdma_task_kind kind,
                                union doca_data user_data)
{
	struct doca_task *task = sdoca_task_take(&rdma->ctx, &rdma->job_pool, user_data);
	struct rdma_task *t;

	if (!task)
		return NULL;
	t = to_task(task);
	t->type = &types[kind];
	t->result_len = 0;
	t->result_opcode = DOCA_RDMA_OPCODE_RECV_SEND;
	t->result_imm = 0;
	t->result_conn = NULL;
	return t;
}

doca_error_t rdma_job_post(struct rdma_task *t)
{
	doca_error_t status;

	sdoca_task_submitting(&t->base);
	status = t->type->base.submit(&t->base);
	if (status != DOCA_SUCCESS) {
		sdoca_task_not_submitted(&t->base);
		sdoca_task_give_back(&t->base);
	}
	return status;
}

enum rdma_task_kind rdma_task_kind_of(const struct rdma_task *t)
{
	return (enum rdma_task_kind)(t->type - types);
}

doca_error_t rdma_task_set_conf(struct doca_rdma *rdma, enum rdma_task_kind kind,
                                sdoca_generic_cb_t ok, sdoca_generic_cb_t err, uint32_t num_tasks)
{
	if (!sdoca_arg_valid(rdma))
		return DOCA_ERROR_INVALID_VALUE;
	return sdoca_task_pool_configure(&rdma->ctx, &rdma->pools[kind], &types[kind].base, ok, err,
	                                 num_tasks);
}

doca_error_t rdma_task_alloc(struct doca_rdma *rdma, enum rdma_task_kind kind,
                             union doca_data user_data, const struct rdma_task_args *args,
                             struct rdma_task **out)
{
	const struct rdma_task_type *type = &types[kind];
	struct doca_task *task;
	struct rdma_task *t;
	doca_error_t status;

	if (!sdoca_arg_valid(rdma))
		return DOCA_ERROR_INVALID_VALUE;
	if (type->connected && !rdma_conn_valid(rdma, args->conn))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "%s task: the connection is NULL or belongs to another context",
		                  type->base.name);
	status = sdoca_task_alloc(&rdma->ctx, &rdma->pools[kind], user_data, &task);
	if (status != DOCA_SUCCESS)
		return status;
	t = to_task(task);
	memset((uint8_t *)t + sizeof(t->base), 0, sizeof(*t) - sizeof(t->base));
	t->type = type;
	t->args = *args;
	*out = t;
	return DOCA_SUCCESS;
}
