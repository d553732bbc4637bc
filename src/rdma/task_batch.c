/*
 * RDMA task batches (softdoca_rdma_task_batch_*).
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * RDMA task batches (softdoca.h: softdoca_rdma_task_batch_*; the generic
 * doca_task_batch_* calls are core's, src/core/task.c).
 *
 * A batch is one object of its operation's pool: the core batch (a task of
 * the pool, so allocation, submission, the PE's completion and freeing are
 * a task's), then one entry per task - a whole RDMA task whose work request
 * the soft NIC runs as it runs an application's - then the arrays the
 * application fills: sources, destinations, user data, and the statuses
 * the callback reads. Submitting builds every entry first (a refused entry
 * refuses the batch with nothing posted), then posts them in order; each
 * entry's completion records its status, and the last one completes the
 * batch with the first failure seen. If posting stops part way (the send
 * queue is full), the entries not posted fail with that status and the
 * batch still completes once the posted ones did; if the first cannot be
 * posted, the submission fails and the batch is the application's again.
 */
#include <stdalign.h>
#include <string.h>

#include "core/sdk_log.h"
#include "core/task.h"
#include "core/task_batch.h"
#include "rdma/rdma.h"

SDOCA_LOG_MODULE(rdma_batch);

struct rdma_batch;

struct batch_entry {
	struct rdma_task t;
	struct rdma_batch *batch;
	uint16_t index;
};

struct rdma_batch {
	struct doca_task_batch pub;
	enum softdoca_rdma_batch_op op;
	struct doca_rdma_connection *conn;
	_Atomic uint32_t pending;         /* entries posted and not yet completed */
	_Atomic doca_error_t first_error; /* DOCA_SUCCESS until an entry fails */
	struct batch_entry *entries;
	struct doca_buf **src;
	struct doca_buf **dst;
	union doca_data *user_data;
	doca_error_t *status;
};

static const enum rdma_task_kind op_kind[SOFTDOCA_RDMA_BATCH_OPS] = {
	[SOFTDOCA_RDMA_BATCH_SEND] = RDMA_TASK_SEND,
	[SOFTDOCA_RDMA_BATCH_WRITE] = RDMA_TASK_WRITE,
	[SOFTDOCA_RDMA_BATCH_READ] = RDMA_TASK_READ,
};

static const char *const op_name[SOFTDOCA_RDMA_BATCH_OPS] = {
	[SOFTDOCA_RDMA_BATCH_SEND] = "rdma send batch",
	[SOFTDOCA_RDMA_BATCH_WRITE] = "rdma write batch",
	[SOFTDOCA_RDMA_BATCH_READ] = "rdma read batch",
};

static size_t align_up(size_t n, size_t a)
{
	return (n + a - 1) / a * a;
}

/* Where the parts of a batch of up to max tasks lie in its object. */
struct batch_layout {
	size_t entries, src, dst, user_data, status, size;
};

static struct batch_layout layout_of(uint16_t max)
{
	struct batch_layout l;

	l.entries = align_up(sizeof(struct rdma_batch), alignof(struct batch_entry));
	l.src = align_up(l.entries + max * sizeof(struct batch_entry), alignof(struct doca_buf *));
	l.dst = l.src + max * sizeof(struct doca_buf *);
	l.user_data = align_up(l.dst + max * sizeof(struct doca_buf *), alignof(union doca_data));
	l.status = align_up(l.user_data + max * sizeof(union doca_data), alignof(doca_error_t));
	/* Objects lie end to end in the pool: each starts as aligned as the first. */
	l.size = align_up(l.status + max * sizeof(doca_error_t), alignof(max_align_t));
	return l;
}

static struct rdma_batch *to_batch(struct doca_task *task)
{
	return sdoca_container_of(task, struct rdma_batch, pub.task);
}

/* The soft NIC finished an entry (worker lock held, any thread). */
static void entry_done(struct nic_wqe *wqe, doca_error_t status)
{
	struct batch_entry *e = sdoca_container_of(wqe, struct batch_entry, t.wqe);
	struct rdma_batch *b = e->batch;

	rdma_task_results(&e->t, wqe, status);
	b->status[e->index] = status;
	if (status != DOCA_SUCCESS) {
		doca_error_t none = DOCA_SUCCESS;

		atomic_compare_exchange_strong(&b->first_error, &none, status);
	}
	if (atomic_fetch_sub(&b->pending, 1) == 1)
		sdoca_task_complete(&b->pub.task, atomic_load(&b->first_error));
}

static doca_error_t batch_submit(struct doca_task *task)
{
	struct rdma_batch *b = to_batch(task);
	uint16_t n = b->pub.tasks_num;
	enum rdma_task_kind kind = op_kind[b->op];
	doca_error_t status;

	for (uint16_t i = 0; i < n; i++) {
		struct batch_entry *e = &b->entries[i];

		memset(&e->t, 0, sizeof(e->t));
		e->t.base.ctx = task->ctx;
		e->t.args.conn = b->conn;
		e->t.args.src = b->src[i];
		e->t.args.dst = b->dst[i];
		e->batch = b;
		e->index = i;
		b->status[i] = DOCA_SUCCESS;
		status = rdma_task_prepare(&e->t, kind, entry_done);
		if (status != DOCA_SUCCESS) {
			SDOCA_ERR("%s: task %u of %u refused; nothing was posted", op_name[b->op],
			          i, n);
			return status;
		}
	}
	atomic_store(&b->first_error, DOCA_SUCCESS);
	atomic_store(&b->pending, n);
	for (uint16_t i = 0; i < n; i++) {
		status = rdma_task_post(&b->entries[i].t);
		if (status == DOCA_SUCCESS)
			continue;
		if (i == 0)
			return status;
		SDOCA_WARN("%s: only %u of %u tasks could be posted (%s); the rest fail",
		           op_name[b->op], i, n, doca_error_get_name(status));
		for (uint16_t j = i; j < n; j++)
			b->status[j] = status;
		{
			doca_error_t none = DOCA_SUCCESS;

			atomic_compare_exchange_strong(&b->first_error, &none, status);
		}
		if (atomic_fetch_sub(&b->pending, (uint32_t)(n - i)) == (uint32_t)(n - i))
			sdoca_task_complete(task, atomic_load(&b->first_error));
		break;
	}
	return DOCA_SUCCESS;
}

static void batch_invoke(sdoca_generic_cb_t cb, struct doca_task *task, union doca_data batch_ud,
                         union doca_data ctx_ud)
{
	struct rdma_batch *b = to_batch(task);

	((softdoca_rdma_task_batch_completion_cb_t)cb)(
	        &b->pub, b->pub.tasks_num, ctx_ud, batch_ud, b->user_data, b->src,
	        b->op == SOFTDOCA_RDMA_BATCH_SEND ? NULL : b->dst, b->status);
}

static doca_error_t check_op(enum softdoca_rdma_batch_op op, const char *fn)
{
	if ((unsigned int)op >= SOFTDOCA_RDMA_BATCH_OPS)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "%s: unknown batch operation %d", fn,
		                  (int)op);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t softdoca_rdma_task_batch_set_conf(
        struct doca_rdma *rdma, enum softdoca_rdma_batch_op op,
        enum doca_task_batch_max_tasks_number max_tasks_number, uint16_t num_task_batches,
        softdoca_rdma_task_batch_completion_cb_t success_cb,
        softdoca_rdma_task_batch_completion_cb_t error_cb)
{
	struct rdma_batch_pool *bp;
	struct sdoca_task_type old_type;
	uint16_t max, old_max;
	doca_error_t status;

	if (!sdoca_arg_valid(rdma))
		return DOCA_ERROR_INVALID_VALUE;
	status = check_op(op, __func__);
	if (status != DOCA_SUCCESS)
		return status;
	if ((unsigned int)max_tasks_number > DOCA_TASK_BATCH_MAX_TASKS_NUMBER_128)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "%s: unknown max_tasks_number %d",
		                  __func__, (int)max_tasks_number);
	if (num_task_batches == 0)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "%s: num_task_batches must be at least 1", __func__);
	if (rdma->ctx.state != DOCA_CTX_STATE_IDLE)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: the context is not IDLE", __func__);
	bp = &rdma->batches[op];
	if (bp->pool.allocated > 0)
		return sdoca_fail(DOCA_ERROR_IN_USE, "%s: %u batch(es) are not freed", __func__,
		                  bp->pool.allocated);
	if (!success_cb || !error_cb)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "%s: both completion callbacks are required", __func__);
	old_type = bp->type;
	old_max = bp->max_tasks;
	max = (uint16_t)(16u << max_tasks_number);
	bp->type = (struct sdoca_task_type){
		.name = op_name[op],
		.size = layout_of(max).size,
		.invoke = batch_invoke,
		.submit = batch_submit,
	};
	bp->max_tasks = max;
	status = sdoca_task_pool_configure(&rdma->ctx, &bp->pool, &bp->type,
	                                   (sdoca_generic_cb_t)success_cb,
	                                   (sdoca_generic_cb_t)error_cb, num_task_batches);
	if (status != DOCA_SUCCESS) {
		/* The pool keeps its old batches: keep their layout. */
		bp->type = old_type;
		bp->max_tasks = old_max;
	}
	return status;
}

DOCA_EXPERIMENTAL doca_error_t softdoca_rdma_task_batch_allocate(
        struct doca_rdma *rdma, enum softdoca_rdma_batch_op op, struct doca_rdma_connection *conn,
        uint16_t tasks_num, union doca_data task_batch_user_data, struct doca_buf ***src_array,
        struct doca_buf ***dst_array, union doca_data **task_user_data_array,
        struct doca_task_batch **task_batch)
{
	struct rdma_batch_pool *bp;
	struct batch_layout l;
	struct rdma_batch *b;
	struct doca_task *task;
	uint8_t *base;
	doca_error_t status;

	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(src_array) ||
	    !sdoca_arg_valid(task_user_data_array) || !sdoca_arg_valid(task_batch))
		return DOCA_ERROR_INVALID_VALUE;
	status = check_op(op, __func__);
	if (status != DOCA_SUCCESS)
		return status;
	if (!sdoca_arg_valid(dst_array || op == SOFTDOCA_RDMA_BATCH_SEND))
		return DOCA_ERROR_INVALID_VALUE;
	if (!rdma_conn_valid(rdma, conn))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "%s: the connection is NULL or belongs to another context",
		                  __func__);
	bp = &rdma->batches[op];
	if (tasks_num == 0 || (bp->pool.objects && tasks_num > bp->max_tasks))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "%s: tasks_num must be 1..%u, not %u",
		                  __func__, bp->max_tasks, tasks_num);
	status = sdoca_task_alloc(&rdma->ctx, &bp->pool, task_batch_user_data, &task);
	if (status != DOCA_SUCCESS)
		return status;
	b = to_batch(task);
	base = (uint8_t *)b;
	l = layout_of(bp->max_tasks);
	b->pub.tasks_num = tasks_num;
	b->op = op;
	b->conn = conn;
	b->entries = (struct batch_entry *)(void *)(base + l.entries);
	b->src = (struct doca_buf **)(void *)(base + l.src);
	b->dst = (struct doca_buf **)(void *)(base + l.dst);
	b->user_data = (union doca_data *)(void *)(base + l.user_data);
	b->status = (doca_error_t *)(void *)(base + l.status);
	memset(b->src, 0, tasks_num * sizeof(*b->src));
	memset(b->dst, 0, tasks_num * sizeof(*b->dst));
	memset(b->user_data, 0, tasks_num * sizeof(*b->user_data));
	for (uint16_t i = 0; i < tasks_num; i++)
		b->status[i] = DOCA_SUCCESS;
	*src_array = b->src;
	if (dst_array)
		*dst_array = op == SOFTDOCA_RDMA_BATCH_SEND ? NULL : b->dst;
	*task_user_data_array = b->user_data;
	*task_batch = &b->pub;
	return DOCA_SUCCESS;
}
