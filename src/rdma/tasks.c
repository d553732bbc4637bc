/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The RDMA tasks. Every kind shares one object (struct rdma_task) and one
 * allocate/submit/complete path; a table gives each kind its work-request
 * builder. The DOCA rules on buffers, from the task documentation:
 *
 *  - a local source is the data section of a buffer or list;
 *  - a local destination is the space after the data section of each buffer
 *    of a list, filled in order, whose data length grows by what arrived;
 *  - a remote buffer (from an imported mmap) is never a list; a write lands
 *    after its data section, a read takes its data section;
 *  - atomics act on the 8 bytes at the remote buffer's data address and put
 *    the original value at the result buffer's data address;
 *  - NULL buffers mean a zero-length operation (a keep-alive).
 */
#include <string.h>

#include "core/buf.h"
#include "core/mmap.h"
#include "core/sdk_log.h"
#include "rdma/rdma.h"

SDOCA_LOG_MODULE(rdma_tasks);

static struct rdma_task *to_task(struct doca_task *task)
{
	return sdoca_container_of(task, struct rdma_task, base);
}

/* --- building work requests --- */

/* The data sections of a local list: what a send or write carries. */
static SDOCA_ALWAYS_INLINE doca_error_t gather_data(const struct doca_buf *list, uint32_t max,
                                                    struct nic_wqe *wqe)
{
	uint64_t total = 0;

	wqe->num_sge = 0;
	for (const struct doca_buf *b = list; b; b = b->next) {
		if (wqe->num_sge == max)
			SDOCA_FAIL(DOCA_ERROR_INVALID_VALUE,
			           "source list is longer than max_send_buf_list_len (%u)", max);
		if (b->mmap->from_export)
			SDOCA_FAIL(DOCA_ERROR_INVALID_VALUE,
			           "a local source buffer comes from a remote (imported) mmap");
		wqe->sge[wqe->num_sge++] = (struct xport_iov){ b->data, b->data_len };
		total += b->data_len;
	}
	if (total > RDMA_MAX_MESSAGE_SIZE)
		SDOCA_FAIL(DOCA_ERROR_INVALID_VALUE,
		           "message of %llu bytes exceeds the 2 GiB limit",
		           (unsigned long long)total);
	wqe->length = total;
	return DOCA_SUCCESS;
}

/* The free space after the data sections of a local list: where data lands. */
static doca_error_t scatter_room(struct doca_buf *list, uint32_t max, struct nic_wqe *wqe)
{
	uint64_t total = 0;

	wqe->num_sge = 0;
	for (struct doca_buf *b = list; b; b = b->next) {
		if (wqe->num_sge == max)
			SDOCA_FAIL(DOCA_ERROR_INVALID_VALUE,
			           "destination list is longer than allowed (%u)", max);
		if (b->mmap->from_export)
			SDOCA_FAIL(
			        DOCA_ERROR_INVALID_VALUE,
			        "a local destination buffer comes from a remote (imported) mmap");
		if (!(b->mmap->access & DOCA_ACCESS_FLAG_LOCAL_READ_WRITE))
			SDOCA_FAIL(DOCA_ERROR_INVALID_VALUE,
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
		SDOCA_FAIL(DOCA_ERROR_INVALID_VALUE,
		           "the %s buffer must come from an mmap imported with "
		           "doca_mmap_create_from_export",
		           what);
	if (buf->next)
		SDOCA_FAIL(DOCA_ERROR_INVALID_VALUE, "the %s buffer must not be a list", what);
	return DOCA_SUCCESS;
}

static doca_error_t build_send(struct rdma_task *t)
{
	return gather_data(t->src, t->conn->rdma->max_send_buf_list_len, &t->wqe);
}

static doca_error_t build_write(struct rdma_task *t)
{
	doca_error_t status = gather_data(t->src, t->conn->rdma->max_send_buf_list_len, &t->wqe);

	if (status != DOCA_SUCCESS)
		return status;
	if (!t->dst) {
		if (t->wqe.length > 0)
			SDOCA_FAIL(DOCA_ERROR_INVALID_VALUE,
			           "write of %llu bytes with no destination",
			           (unsigned long long)t->wqe.length);
		return DOCA_SUCCESS;
	}
	status = check_remote(t->dst, "remote destination");
	if (status != DOCA_SUCCESS)
		return status;
	if (t->wqe.length > sdoca_buf_tailroom(t->dst))
		SDOCA_FAIL(DOCA_ERROR_INVALID_VALUE,
		           "write of %llu bytes into %zu free bytes of the remote buffer",
		           (unsigned long long)t->wqe.length, sdoca_buf_tailroom(t->dst));
	t->wqe.rkey = t->dst->mmap->key;
	t->wqe.raddr = (uintptr_t)(t->dst->data + t->dst->data_len);
	return DOCA_SUCCESS;
}

static doca_error_t build_read(struct rdma_task *t)
{
	doca_error_t status;

	if (!t->src) {
		if (t->dst)
			SDOCA_FAIL(DOCA_ERROR_INVALID_VALUE,
			           "read with a destination but no source");
		t->wqe.num_sge = 0;
		t->wqe.length = 0;
		return DOCA_SUCCESS;
	}
	status = check_remote(t->src, "remote source");
	if (status == DOCA_SUCCESS)
		status = scatter_room(t->dst, t->conn->rdma->max_send_buf_list_len, &t->wqe);
	if (status != DOCA_SUCCESS)
		return status;
	if (t->src->data_len < t->wqe.length)
		t->wqe.length = t->src->data_len;
	t->wqe.rkey = t->src->mmap->key;
	t->wqe.raddr = (uintptr_t)t->src->data;
	return DOCA_SUCCESS;
}

static doca_error_t build_atomic(struct rdma_task *t)
{
	doca_error_t status;

	if (!t->dst || !t->result)
		SDOCA_FAIL(DOCA_ERROR_INVALID_VALUE, "atomics need a remote and a result buffer");
	status = check_remote(t->dst, "remote destination");
	if (status != DOCA_SUCCESS)
		return status;
	if ((size_t)(t->dst->head + t->dst->len - t->dst->data) < sizeof(uint64_t) ||
	    (size_t)(t->result->head + t->result->len - t->result->data) < sizeof(uint64_t))
		SDOCA_FAIL(DOCA_ERROR_INVALID_VALUE,
		           "atomics need 8 bytes from the data address of both buffers");
	if (t->result->mmap->from_export)
		SDOCA_FAIL(DOCA_ERROR_INVALID_VALUE, "the result buffer must be local");
	t->wqe.sge[0] = (struct xport_iov){ t->result->data, sizeof(uint64_t) };
	t->wqe.num_sge = 1;
	t->wqe.length = sizeof(uint64_t);
	t->wqe.rkey = t->dst->mmap->key;
	t->wqe.raddr = (uintptr_t)t->dst->data;
	t->wqe.compare_or_add = t->operand1;
	t->wqe.swap = t->operand2;
	return DOCA_SUCCESS;
}

/* Grows the data sections of a destination list by what arrived. */
static void fill_room(struct doca_buf *list, uint64_t len)
{
	for (struct doca_buf *b = list; b && len > 0; b = b->next) {
		size_t room = sdoca_buf_tailroom(b), n = len < room ? len : room;

		b->data_len += n;
		len -= n;
	}
}

static const enum doca_rdma_opcode recv_opcodes[] = {
	[NIC_RECV_SEND] = DOCA_RDMA_OPCODE_RECV_SEND,
	[NIC_RECV_SEND_IMM] = DOCA_RDMA_OPCODE_RECV_SEND_WITH_IMM,
	[NIC_RECV_WRITE_IMM] = DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM,
};

/* The soft NIC finished the request (worker lock held, any thread). */
static void task_done(struct nic_wqe *wqe, doca_error_t status)
{
	struct rdma_task *t = sdoca_container_of(wqe, struct rdma_task, wqe);

	if (status == DOCA_SUCCESS) {
		t->result_len = (uint32_t)wqe->result_len;
		switch (t->kind) {
		case RDMA_TASK_WRITE:
		case RDMA_TASK_WRITE_IMM:
			if (t->dst)
				t->dst->data_len += wqe->length;
			break;
		case RDMA_TASK_READ:
			fill_room(t->dst, wqe->result_len);
			break;
		case RDMA_TASK_RECEIVE: {
			struct nic_qp *qp = wqe->result_qp;

			fill_room(t->dst, wqe->result_len);
			t->result_opcode = recv_opcodes[wqe->result_kind];
			memcpy(&t->result_imm, wqe->result_imm, sizeof(t->result_imm));
			t->result_conn = qp ? nic_qp_owner(qp) : NULL;
			break;
		}
		default:
			break;
		}
	} else if (t->kind == RDMA_TASK_RECEIVE && wqe->result_qp) {
		/* Valid after completion irrespective of success. */
		t->result_opcode = recv_opcodes[wqe->result_kind];
	}
	sdoca_task_complete(&t->base, status);
}

static const enum nic_wr_op wr_ops[] = {
	[RDMA_TASK_RECEIVE] = NIC_WR_RECV,
	[RDMA_TASK_SEND] = NIC_WR_SEND,
	[RDMA_TASK_SEND_IMM] = NIC_WR_SEND_IMM,
	[RDMA_TASK_READ] = NIC_WR_READ,
	[RDMA_TASK_WRITE] = NIC_WR_WRITE,
	[RDMA_TASK_WRITE_IMM] = NIC_WR_WRITE_IMM,
	[RDMA_TASK_ATOMIC_CMP_SWP] = NIC_WR_ATOMIC_CS,
	[RDMA_TASK_ATOMIC_FETCH_ADD] = NIC_WR_ATOMIC_FA,
};

/* Receives are built in submit(): they go to the shared receive queue. */
static doca_error_t (*const builders[])(struct rdma_task *t) = {
	[RDMA_TASK_SEND] = build_send,
	[RDMA_TASK_SEND_IMM] = build_send,
	[RDMA_TASK_READ] = build_read,
	[RDMA_TASK_WRITE] = build_write,
	[RDMA_TASK_WRITE_IMM] = build_write,
	[RDMA_TASK_ATOMIC_CMP_SWP] = build_atomic,
	[RDMA_TASK_ATOMIC_FETCH_ADD] = build_atomic,
};

static doca_error_t submit(struct doca_task *task)
{
	struct rdma_task *t = to_task(task);
	struct doca_rdma *rdma = rdma_of(task->ctx);
	doca_error_t status;

	/* What a builder may leave unset and the soft NIC still reads (a
	 * zero-length RDMA's key, a receive's connection); the soft NIC sets
	 * the rest itself. Clearing the whole request cost ~30 instructions. */
	t->wqe.rkey = (struct sdoca_key){ 0 };
	t->wqe.raddr = 0;
	t->wqe.result_len = 0;
	t->wqe.result_qp = NULL;
	t->wqe.op = wr_ops[t->kind];
	t->wqe.done = task_done;
	memcpy(t->wqe.imm, &t->imm, sizeof(t->wqe.imm));
	if (t->kind == RDMA_TASK_RECEIVE) {
		status = scatter_room(t->dst, rdma->recv_buf_list_len, &t->wqe);
		return status == DOCA_SUCCESS ? nic_post_recv(&rdma->srq, &t->wqe) : status;
	}
	if (!t->conn || !t->conn->qp)
		SDOCA_FAIL(
		        DOCA_ERROR_INVALID_VALUE,
		        "task has no connection (or its connection belongs to a stopped context)");
	status = builders[t->kind](t);
	if (status != DOCA_SUCCESS)
		return status;
	return nic_post_send(t->conn->qp, &t->wqe);
}

/* --- the kinds table --- */

SDOCA_TASK_INVOKER(invoke_receive, struct doca_rdma_task_receive, t.base,
                   doca_rdma_task_receive_completion_cb_t)
SDOCA_TASK_INVOKER(invoke_send, struct doca_rdma_task_send, t.base,
                   doca_rdma_task_send_completion_cb_t)
SDOCA_TASK_INVOKER(invoke_send_imm, struct doca_rdma_task_send_imm, t.base,
                   doca_rdma_task_send_imm_completion_cb_t)
SDOCA_TASK_INVOKER(invoke_read, struct doca_rdma_task_read, t.base,
                   doca_rdma_task_read_completion_cb_t)
SDOCA_TASK_INVOKER(invoke_write, struct doca_rdma_task_write, t.base,
                   doca_rdma_task_write_completion_cb_t)
SDOCA_TASK_INVOKER(invoke_write_imm, struct doca_rdma_task_write_imm, t.base,
                   doca_rdma_task_write_imm_completion_cb_t)
SDOCA_TASK_INVOKER(invoke_cmp_swp, struct doca_rdma_task_atomic_cmp_swp, t.base,
                   doca_rdma_task_atomic_cmp_swp_completion_cb_t)
SDOCA_TASK_INVOKER(invoke_fetch_add, struct doca_rdma_task_atomic_fetch_add, t.base,
                   doca_rdma_task_atomic_fetch_add_completion_cb_t)

#define KIND(n, inv)                                                                         \
	{                                                                                    \
		.name = n, .size = sizeof(struct rdma_task), .invoke = inv, .submit = submit \
	}

static const struct sdoca_task_type kinds[RDMA_TASK_KINDS] = {
	[RDMA_TASK_RECEIVE] = KIND("rdma receive", invoke_receive),
	[RDMA_TASK_SEND] = KIND("rdma send", invoke_send),
	[RDMA_TASK_SEND_IMM] = KIND("rdma send-imm", invoke_send_imm),
	[RDMA_TASK_READ] = KIND("rdma read", invoke_read),
	[RDMA_TASK_WRITE] = KIND("rdma write", invoke_write),
	[RDMA_TASK_WRITE_IMM] = KIND("rdma write-imm", invoke_write_imm),
	[RDMA_TASK_ATOMIC_CMP_SWP] = KIND("rdma compare-swap", invoke_cmp_swp),
	[RDMA_TASK_ATOMIC_FETCH_ADD] = KIND("rdma fetch-add", invoke_fetch_add),
};

doca_error_t rdma_task_set_conf(struct doca_rdma *rdma, enum rdma_task_kind kind,
                                sdoca_generic_cb_t ok, sdoca_generic_cb_t err, uint32_t num_tasks)
{
	SDOCA_CHECK_ARG(rdma);
	return sdoca_task_pool_configure(&rdma->ctx, &rdma->pools[kind], &kinds[kind], ok, err,
	                                 num_tasks);
}

static bool connection_of(const struct doca_rdma *rdma, const struct doca_rdma_connection *conn)
{
	for (uint16_t i = 0; i < rdma->num_conns; i++)
		if (rdma->conns[i] == conn)
			return true;
	return false;
}

doca_error_t rdma_task_alloc(struct doca_rdma *rdma, enum rdma_task_kind kind,
                             struct doca_rdma_connection *conn, union doca_data user_data,
                             struct rdma_task **out)
{
	struct doca_task *task;
	struct rdma_task *t;
	doca_error_t status;

	SDOCA_CHECK_ARG(rdma);
	if (kind != RDMA_TASK_RECEIVE && !connection_of(rdma, conn))
		SDOCA_FAIL(DOCA_ERROR_INVALID_VALUE,
		           "%s task: the connection is NULL or belongs to another context",
		           kinds[kind].name);
	status = sdoca_task_alloc(&rdma->ctx, &rdma->pools[kind], user_data, &task);
	if (status != DOCA_SUCCESS)
		return status;
	t = to_task(task);
	memset((uint8_t *)t + sizeof(t->base), 0, sizeof(*t) - sizeof(t->base));
	t->kind = kind;
	t->conn = conn;
	*out = t;
	return DOCA_SUCCESS;
}

/* Allocation helper for the public *_allocate_init calls. */
#define ALLOC(rdma, kind, conn, user_data, out_task, public_type)        \
	do {                                                             \
		struct rdma_task *t_;                                    \
		doca_error_t st_;                                        \
		SDOCA_CHECK_ARG(out_task);                               \
		st_ = rdma_task_alloc(rdma, kind, conn, user_data, &t_); \
		if (st_ != DOCA_SUCCESS)                                 \
			return st_;                                      \
		*(out_task) = (public_type *)(void *)t_;                 \
		task_ = t_;                                              \
	} while (0)

static doca_error_t supported(const struct doca_devinfo *devinfo)
{
	SDOCA_CHECK_ARG(devinfo);
	return DOCA_SUCCESS;
}

/* ========================= receive ========================= */

DOCA_EXPERIMENTAL doca_error_t
doca_rdma_cap_task_receive_is_supported(const struct doca_devinfo *devinfo)
{
	return supported(devinfo);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_cap_task_receive_get_max_dst_buf_list_len(
        const struct doca_devinfo *devinfo, enum doca_rdma_transport_type transport_type,
        uint32_t *max_buf_list_len)
{
	SDOCA_CHECK_ARG(devinfo);
	SDOCA_CHECK_ARG(max_buf_list_len);
	if (transport_type != DOCA_RDMA_TRANSPORT_TYPE_RC)
		return DOCA_ERROR_NOT_SUPPORTED;
	*max_buf_list_len = RDMA_MAX_BUF_LIST_LEN;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t
doca_rdma_task_receive_set_conf(struct doca_rdma *rdma, doca_rdma_task_receive_completion_cb_t ok,
                                doca_rdma_task_receive_completion_cb_t err, uint32_t num_tasks)
{
	return rdma_task_set_conf(rdma, RDMA_TASK_RECEIVE, (sdoca_generic_cb_t)ok,
	                          (sdoca_generic_cb_t)err, num_tasks);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_receive_set_dst_buf_list_len(struct doca_rdma *rdma,
                                                                           uint32_t buf_list_len)
{
	SDOCA_CHECK_ARG(rdma);
	SDOCA_CHECK_ARG(buf_list_len > 0 && buf_list_len <= RDMA_MAX_BUF_LIST_LEN);
	if (rdma->ctx.state != DOCA_CTX_STATE_IDLE)
		SDOCA_FAIL(DOCA_ERROR_BAD_STATE, "the context is not IDLE");
	rdma->recv_buf_list_len = buf_list_len;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t
doca_rdma_task_receive_get_dst_buf_list_len(const struct doca_rdma *rdma, uint32_t *buf_list_len)
{
	SDOCA_CHECK_ARG(rdma);
	SDOCA_CHECK_ARG(buf_list_len);
	*buf_list_len = rdma->recv_buf_list_len;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_receive_allocate_init(
        struct doca_rdma *rdma, struct doca_buf *dst_buf, union doca_data user_data,
        struct doca_rdma_task_receive **task)
{
	struct rdma_task *task_;

	ALLOC(rdma, RDMA_TASK_RECEIVE, NULL, user_data, task, struct doca_rdma_task_receive);
	task_->dst = dst_buf;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL struct doca_task *
doca_rdma_task_receive_as_task(struct doca_rdma_task_receive *task)
{
	return task ? &task->t.base : NULL;
}

DOCA_EXPERIMENTAL void doca_rdma_task_receive_set_dst_buf(struct doca_rdma_task_receive *task,
                                                          struct doca_buf *dst_buf)
{
	task->t.dst = dst_buf;
}

DOCA_EXPERIMENTAL struct doca_buf *
doca_rdma_task_receive_get_dst_buf(const struct doca_rdma_task_receive *task)
{
	return task->t.dst;
}

DOCA_EXPERIMENTAL enum doca_rdma_opcode
doca_rdma_task_receive_get_result_opcode(const struct doca_rdma_task_receive *task)
{
	return task->t.result_opcode;
}

DOCA_EXPERIMENTAL uint32_t
doca_rdma_task_receive_get_result_len(const struct doca_rdma_task_receive *task)
{
	return task->t.result_len;
}

DOCA_EXPERIMENTAL uint32_t
doca_rdma_task_receive_get_result_length(const struct doca_rdma_task_receive *task)
{
	return task->t.result_len;
}

DOCA_EXPERIMENTAL doca_be32_t
doca_rdma_task_receive_get_result_immediate_data(const struct doca_rdma_task_receive *task)
{
	return task->t.result_imm;
}

DOCA_EXPERIMENTAL const struct doca_rdma_connection *
doca_rdma_task_receive_get_result_rdma_connection(const struct doca_rdma_task_receive *task)
{
	return task->t.result_conn;
}

/* ========================= send / send with immediate ========================= */

DOCA_EXPERIMENTAL doca_error_t
doca_rdma_cap_task_send_is_supported(const struct doca_devinfo *devinfo)
{
	return supported(devinfo);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_send_set_conf(struct doca_rdma *rdma,
                                                            doca_rdma_task_send_completion_cb_t ok,
                                                            doca_rdma_task_send_completion_cb_t err,
                                                            uint32_t num_tasks)
{
	return rdma_task_set_conf(rdma, RDMA_TASK_SEND, (sdoca_generic_cb_t)ok,
	                          (sdoca_generic_cb_t)err, num_tasks);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_send_allocate_init(struct doca_rdma *rdma,
                                                                 struct doca_rdma_connection *conn,
                                                                 const struct doca_buf *src_buf,
                                                                 union doca_data user_data,
                                                                 struct doca_rdma_task_send **task)
{
	struct rdma_task *task_;

	ALLOC(rdma, RDMA_TASK_SEND, conn, user_data, task, struct doca_rdma_task_send);
	task_->src = (struct doca_buf *)src_buf;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL struct doca_task *doca_rdma_task_send_as_task(struct doca_rdma_task_send *task)
{
	return task ? &task->t.base : NULL;
}

DOCA_EXPERIMENTAL void doca_rdma_task_send_set_src_buf(struct doca_rdma_task_send *task,
                                                       const struct doca_buf *src_buf)
{
	task->t.src = (struct doca_buf *)src_buf;
}

DOCA_EXPERIMENTAL const struct doca_buf *
doca_rdma_task_send_get_src_buf(const struct doca_rdma_task_send *task)
{
	return task->t.src;
}

DOCA_EXPERIMENTAL void doca_rdma_task_send_set_rdma_connection(struct doca_rdma_task_send *task,
                                                               struct doca_rdma_connection *conn)
{
	task->t.conn = conn;
}

DOCA_EXPERIMENTAL const struct doca_rdma_connection *
doca_rdma_task_send_get_rdma_connection(const struct doca_rdma_task_send *task)
{
	return task->t.conn;
}

DOCA_EXPERIMENTAL doca_error_t
doca_rdma_cap_task_send_imm_is_supported(const struct doca_devinfo *devinfo)
{
	return supported(devinfo);
}

DOCA_EXPERIMENTAL doca_error_t
doca_rdma_task_send_imm_set_conf(struct doca_rdma *rdma, doca_rdma_task_send_imm_completion_cb_t ok,
                                 doca_rdma_task_send_imm_completion_cb_t err, uint32_t num_tasks)
{
	return rdma_task_set_conf(rdma, RDMA_TASK_SEND_IMM, (sdoca_generic_cb_t)ok,
	                          (sdoca_generic_cb_t)err, num_tasks);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_send_imm_allocate_init(
        struct doca_rdma *rdma, struct doca_rdma_connection *conn, const struct doca_buf *src_buf,
        doca_be32_t immediate_data, union doca_data user_data,
        struct doca_rdma_task_send_imm **task)
{
	struct rdma_task *task_;

	ALLOC(rdma, RDMA_TASK_SEND_IMM, conn, user_data, task, struct doca_rdma_task_send_imm);
	task_->src = (struct doca_buf *)src_buf;
	task_->imm = immediate_data;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL struct doca_task *
doca_rdma_task_send_imm_as_task(struct doca_rdma_task_send_imm *task)
{
	return task ? &task->t.base : NULL;
}

DOCA_EXPERIMENTAL void doca_rdma_task_send_imm_set_src_buf(struct doca_rdma_task_send_imm *task,
                                                           const struct doca_buf *src_buf)
{
	task->t.src = (struct doca_buf *)src_buf;
}

DOCA_EXPERIMENTAL const struct doca_buf *
doca_rdma_task_send_imm_get_src_buf(const struct doca_rdma_task_send_imm *task)
{
	return task->t.src;
}

DOCA_EXPERIMENTAL void
doca_rdma_task_send_imm_set_immediate_data(struct doca_rdma_task_send_imm *task,
                                           doca_be32_t immediate_data)
{
	task->t.imm = immediate_data;
}

DOCA_EXPERIMENTAL doca_be32_t
doca_rdma_task_send_imm_get_immediate_data(const struct doca_rdma_task_send_imm *task)
{
	return task->t.imm;
}

DOCA_EXPERIMENTAL void
doca_rdma_task_send_imm_set_rdma_connection(struct doca_rdma_task_send_imm *task,
                                            struct doca_rdma_connection *conn)
{
	task->t.conn = conn;
}

DOCA_EXPERIMENTAL const struct doca_rdma_connection *
doca_rdma_task_send_imm_get_rdma_connection(const struct doca_rdma_task_send_imm *task)
{
	return task->t.conn;
}

/* ========================= read ========================= */

DOCA_EXPERIMENTAL doca_error_t
doca_rdma_cap_task_read_is_supported(const struct doca_devinfo *devinfo)
{
	return supported(devinfo);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_read_set_conf(struct doca_rdma *rdma,
                                                            doca_rdma_task_read_completion_cb_t ok,
                                                            doca_rdma_task_read_completion_cb_t err,
                                                            uint32_t num_tasks)
{
	return rdma_task_set_conf(rdma, RDMA_TASK_READ, (sdoca_generic_cb_t)ok,
	                          (sdoca_generic_cb_t)err, num_tasks);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_read_allocate_init(
        struct doca_rdma *rdma, struct doca_rdma_connection *conn, const struct doca_buf *src_buf,
        struct doca_buf *dst_buf, union doca_data user_data, struct doca_rdma_task_read **task)
{
	struct rdma_task *task_;

	ALLOC(rdma, RDMA_TASK_READ, conn, user_data, task, struct doca_rdma_task_read);
	task_->src = (struct doca_buf *)src_buf;
	task_->dst = dst_buf;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL struct doca_task *doca_rdma_task_read_as_task(struct doca_rdma_task_read *task)
{
	return task ? &task->t.base : NULL;
}

DOCA_EXPERIMENTAL void doca_rdma_task_read_set_src_buf(struct doca_rdma_task_read *task,
                                                       const struct doca_buf *src_buf)
{
	task->t.src = (struct doca_buf *)src_buf;
}

DOCA_EXPERIMENTAL const struct doca_buf *
doca_rdma_task_read_get_src_buf(const struct doca_rdma_task_read *task)
{
	return task->t.src;
}

DOCA_EXPERIMENTAL void doca_rdma_task_read_set_dst_buf(struct doca_rdma_task_read *task,
                                                       struct doca_buf *dst_buf)
{
	task->t.dst = dst_buf;
}

DOCA_EXPERIMENTAL struct doca_buf *
doca_rdma_task_read_get_dst_buf(const struct doca_rdma_task_read *task)
{
	return task->t.dst;
}

DOCA_EXPERIMENTAL uint32_t
doca_rdma_task_read_get_result_len(const struct doca_rdma_task_read *task)
{
	return task->t.result_len;
}

DOCA_EXPERIMENTAL uint32_t
doca_rdma_task_read_get_result_length(const struct doca_rdma_task_read *task)
{
	return task->t.result_len;
}

DOCA_EXPERIMENTAL void doca_rdma_task_read_set_rdma_connection(struct doca_rdma_task_read *task,
                                                               struct doca_rdma_connection *conn)
{
	task->t.conn = conn;
}

DOCA_EXPERIMENTAL const struct doca_rdma_connection *
doca_rdma_task_read_get_rdma_connection(const struct doca_rdma_task_read *task)
{
	return task->t.conn;
}

/* ========================= write / write with immediate ========================= */

DOCA_EXPERIMENTAL doca_error_t
doca_rdma_cap_task_write_is_supported(const struct doca_devinfo *devinfo)
{
	return supported(devinfo);
}

DOCA_EXPERIMENTAL doca_error_t
doca_rdma_task_write_set_conf(struct doca_rdma *rdma, doca_rdma_task_write_completion_cb_t ok,
                              doca_rdma_task_write_completion_cb_t err, uint32_t num_tasks)
{
	return rdma_task_set_conf(rdma, RDMA_TASK_WRITE, (sdoca_generic_cb_t)ok,
	                          (sdoca_generic_cb_t)err, num_tasks);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_write_allocate_init(
        struct doca_rdma *rdma, struct doca_rdma_connection *conn, const struct doca_buf *src_buf,
        struct doca_buf *dst_buf, union doca_data user_data, struct doca_rdma_task_write **task)
{
	struct rdma_task *task_;

	ALLOC(rdma, RDMA_TASK_WRITE, conn, user_data, task, struct doca_rdma_task_write);
	task_->src = (struct doca_buf *)src_buf;
	task_->dst = dst_buf;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL struct doca_task *doca_rdma_task_write_as_task(struct doca_rdma_task_write *task)
{
	return task ? &task->t.base : NULL;
}

DOCA_EXPERIMENTAL void doca_rdma_task_write_set_src_buf(struct doca_rdma_task_write *task,
                                                        const struct doca_buf *src_buf)
{
	task->t.src = (struct doca_buf *)src_buf;
}

DOCA_EXPERIMENTAL const struct doca_buf *
doca_rdma_task_write_get_src_buf(const struct doca_rdma_task_write *task)
{
	return task->t.src;
}

DOCA_EXPERIMENTAL void doca_rdma_task_write_set_dst_buf(struct doca_rdma_task_write *task,
                                                        struct doca_buf *dst_buf)
{
	task->t.dst = dst_buf;
}

DOCA_EXPERIMENTAL struct doca_buf *
doca_rdma_task_write_get_dst_buf(const struct doca_rdma_task_write *task)
{
	return task->t.dst;
}

DOCA_EXPERIMENTAL void doca_rdma_task_write_set_rdma_connection(struct doca_rdma_task_write *task,
                                                                struct doca_rdma_connection *conn)
{
	task->t.conn = conn;
}

DOCA_EXPERIMENTAL const struct doca_rdma_connection *
doca_rdma_task_write_get_rdma_connection(const struct doca_rdma_task_write *task)
{
	return task->t.conn;
}

DOCA_EXPERIMENTAL doca_error_t
doca_rdma_cap_task_write_imm_is_supported(const struct doca_devinfo *devinfo)
{
	return supported(devinfo);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_write_imm_set_conf(
        struct doca_rdma *rdma, doca_rdma_task_write_imm_completion_cb_t ok,
        doca_rdma_task_write_imm_completion_cb_t err, uint32_t num_tasks)
{
	return rdma_task_set_conf(rdma, RDMA_TASK_WRITE_IMM, (sdoca_generic_cb_t)ok,
	                          (sdoca_generic_cb_t)err, num_tasks);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_write_imm_allocate_init(
        struct doca_rdma *rdma, struct doca_rdma_connection *conn, const struct doca_buf *src_buf,
        struct doca_buf *dst_buf, doca_be32_t immediate_data, union doca_data user_data,
        struct doca_rdma_task_write_imm **task)
{
	struct rdma_task *task_;

	ALLOC(rdma, RDMA_TASK_WRITE_IMM, conn, user_data, task, struct doca_rdma_task_write_imm);
	task_->src = (struct doca_buf *)src_buf;
	task_->dst = dst_buf;
	task_->imm = immediate_data;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL struct doca_task *
doca_rdma_task_write_imm_as_task(struct doca_rdma_task_write_imm *task)
{
	return task ? &task->t.base : NULL;
}

DOCA_EXPERIMENTAL void doca_rdma_task_write_imm_set_src_buf(struct doca_rdma_task_write_imm *task,
                                                            const struct doca_buf *src_buf)
{
	task->t.src = (struct doca_buf *)src_buf;
}

DOCA_EXPERIMENTAL const struct doca_buf *
doca_rdma_task_write_imm_get_src_buf(const struct doca_rdma_task_write_imm *task)
{
	return task->t.src;
}

DOCA_EXPERIMENTAL void doca_rdma_task_write_imm_set_dst_buf(struct doca_rdma_task_write_imm *task,
                                                            struct doca_buf *dst_buf)
{
	task->t.dst = dst_buf;
}

DOCA_EXPERIMENTAL struct doca_buf *
doca_rdma_task_write_imm_get_dst_buf(const struct doca_rdma_task_write_imm *task)
{
	return task->t.dst;
}

DOCA_EXPERIMENTAL void
doca_rdma_task_write_imm_set_immediate_data(struct doca_rdma_task_write_imm *task,
                                            doca_be32_t immediate_data)
{
	task->t.imm = immediate_data;
}

DOCA_EXPERIMENTAL doca_be32_t
doca_rdma_task_write_imm_get_immediate_data(const struct doca_rdma_task_write_imm *task)
{
	return task->t.imm;
}

DOCA_EXPERIMENTAL void
doca_rdma_task_write_imm_set_rdma_connection(struct doca_rdma_task_write_imm *task,
                                             struct doca_rdma_connection *conn)
{
	task->t.conn = conn;
}

DOCA_EXPERIMENTAL const struct doca_rdma_connection *
doca_rdma_task_write_imm_get_rdma_connection(const struct doca_rdma_task_write_imm *task)
{
	return task->t.conn;
}

/* ========================= atomics ========================= */

DOCA_EXPERIMENTAL doca_error_t
doca_rdma_cap_task_atomic_cmp_swp_is_supported(const struct doca_devinfo *devinfo)
{
	return supported(devinfo);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_atomic_cmp_swp_set_conf(
        struct doca_rdma *rdma, doca_rdma_task_atomic_cmp_swp_completion_cb_t ok,
        doca_rdma_task_atomic_cmp_swp_completion_cb_t err, uint32_t num_tasks)
{
	return rdma_task_set_conf(rdma, RDMA_TASK_ATOMIC_CMP_SWP, (sdoca_generic_cb_t)ok,
	                          (sdoca_generic_cb_t)err, num_tasks);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_atomic_cmp_swp_allocate_init(
        struct doca_rdma *rdma, struct doca_rdma_connection *conn, struct doca_buf *dst_buf,
        struct doca_buf *result_buf, uint64_t cmp_data, uint64_t swap_data,
        union doca_data user_data, struct doca_rdma_task_atomic_cmp_swp **task)
{
	struct rdma_task *task_;

	ALLOC(rdma, RDMA_TASK_ATOMIC_CMP_SWP, conn, user_data, task,
	      struct doca_rdma_task_atomic_cmp_swp);
	task_->dst = dst_buf;
	task_->result = result_buf;
	task_->operand1 = cmp_data;
	task_->operand2 = swap_data;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL struct doca_task *
doca_rdma_task_atomic_cmp_swp_as_task(struct doca_rdma_task_atomic_cmp_swp *task)
{
	return task ? &task->t.base : NULL;
}

DOCA_EXPERIMENTAL void
doca_rdma_task_atomic_cmp_swp_set_dst_buf(struct doca_rdma_task_atomic_cmp_swp *task,
                                          struct doca_buf *dst_buf)
{
	task->t.dst = dst_buf;
}

DOCA_EXPERIMENTAL struct doca_buf *
doca_rdma_task_atomic_cmp_swp_get_dst_buf(const struct doca_rdma_task_atomic_cmp_swp *task)
{
	return task->t.dst;
}

DOCA_EXPERIMENTAL void
doca_rdma_task_atomic_cmp_swp_set_result_buf(struct doca_rdma_task_atomic_cmp_swp *task,
                                             struct doca_buf *result_buf)
{
	task->t.result = result_buf;
}

DOCA_EXPERIMENTAL struct doca_buf *
doca_rdma_task_atomic_cmp_swp_get_result_buf(const struct doca_rdma_task_atomic_cmp_swp *task)
{
	return task->t.result;
}

DOCA_EXPERIMENTAL void
doca_rdma_task_atomic_cmp_swp_set_cmp_data(struct doca_rdma_task_atomic_cmp_swp *task,
                                           uint64_t cmp_data)
{
	task->t.operand1 = cmp_data;
}

DOCA_EXPERIMENTAL uint64_t
doca_rdma_task_atomic_cmp_swp_get_cmp_data(const struct doca_rdma_task_atomic_cmp_swp *task)
{
	return task->t.operand1;
}

DOCA_EXPERIMENTAL void
doca_rdma_task_atomic_cmp_swp_set_swap_data(struct doca_rdma_task_atomic_cmp_swp *task,
                                            uint64_t swap_data)
{
	task->t.operand2 = swap_data;
}

DOCA_EXPERIMENTAL uint64_t
doca_rdma_task_atomic_cmp_swp_get_swap_data(const struct doca_rdma_task_atomic_cmp_swp *task)
{
	return task->t.operand2;
}

DOCA_EXPERIMENTAL void
doca_rdma_task_atomic_cmp_swp_set_rdma_connection(struct doca_rdma_task_atomic_cmp_swp *task,
                                                  struct doca_rdma_connection *conn)
{
	task->t.conn = conn;
}

DOCA_EXPERIMENTAL const struct doca_rdma_connection *
doca_rdma_task_atomic_cmp_swp_get_rdma_connection(const struct doca_rdma_task_atomic_cmp_swp *task)
{
	return task->t.conn;
}

DOCA_EXPERIMENTAL doca_error_t
doca_rdma_cap_task_atomic_fetch_add_is_supported(const struct doca_devinfo *devinfo)
{
	return supported(devinfo);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_atomic_fetch_add_set_conf(
        struct doca_rdma *rdma, doca_rdma_task_atomic_fetch_add_completion_cb_t ok,
        doca_rdma_task_atomic_fetch_add_completion_cb_t err, uint32_t num_tasks)
{
	return rdma_task_set_conf(rdma, RDMA_TASK_ATOMIC_FETCH_ADD, (sdoca_generic_cb_t)ok,
	                          (sdoca_generic_cb_t)err, num_tasks);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_atomic_fetch_add_allocate_init(
        struct doca_rdma *rdma, struct doca_rdma_connection *conn, struct doca_buf *dst_buf,
        struct doca_buf *result_buf, uint64_t add_data, union doca_data user_data,
        struct doca_rdma_task_atomic_fetch_add **task)
{
	struct rdma_task *task_;

	ALLOC(rdma, RDMA_TASK_ATOMIC_FETCH_ADD, conn, user_data, task,
	      struct doca_rdma_task_atomic_fetch_add);
	task_->dst = dst_buf;
	task_->result = result_buf;
	task_->operand1 = add_data;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL struct doca_task *
doca_rdma_task_atomic_fetch_add_as_task(struct doca_rdma_task_atomic_fetch_add *task)
{
	return task ? &task->t.base : NULL;
}

DOCA_EXPERIMENTAL void
doca_rdma_task_atomic_fetch_add_set_dst_buf(struct doca_rdma_task_atomic_fetch_add *task,
                                            struct doca_buf *dst_buf)
{
	task->t.dst = dst_buf;
}

DOCA_EXPERIMENTAL struct doca_buf *
doca_rdma_task_atomic_fetch_add_get_dst_buf(const struct doca_rdma_task_atomic_fetch_add *task)
{
	return task->t.dst;
}

DOCA_EXPERIMENTAL void
doca_rdma_task_atomic_fetch_add_set_result_buf(struct doca_rdma_task_atomic_fetch_add *task,
                                               struct doca_buf *result_buf)
{
	task->t.result = result_buf;
}

DOCA_EXPERIMENTAL struct doca_buf *
doca_rdma_task_atomic_fetch_add_get_result_buf(const struct doca_rdma_task_atomic_fetch_add *task)
{
	return task->t.result;
}

DOCA_EXPERIMENTAL void
doca_rdma_task_atomic_fetch_add_set_add_data(struct doca_rdma_task_atomic_fetch_add *task,
                                             uint64_t add_data)
{
	task->t.operand1 = add_data;
}

DOCA_EXPERIMENTAL uint64_t
doca_rdma_task_atomic_fetch_add_get_add_data(const struct doca_rdma_task_atomic_fetch_add *task)
{
	return task->t.operand1;
}

DOCA_EXPERIMENTAL void
doca_rdma_task_atomic_fetch_add_set_rdma_connection(struct doca_rdma_task_atomic_fetch_add *task,
                                                    struct doca_rdma_connection *conn)
{
	task->t.conn = conn;
}

DOCA_EXPERIMENTAL const struct doca_rdma_connection *
doca_rdma_task_atomic_fetch_add_get_rdma_connection(
        const struct doca_rdma_task_atomic_fetch_add *task)
{
	return task->t.conn;
}
