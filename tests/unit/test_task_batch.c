/*
 * RDMA task batches (softdoca.h) and DOCA's doca_task_batch_* calls, between
 * two RDMA contexts of this process over the real transport: batches of
 * writes, reads and sends move the bytes each entry names, complete once
 * with every entry's status and the user data of the batch, its entries
 * and its context; refusals leave the batch to the application with
 * nothing posted; a remote error fails the batch through its error
 * callback with the failed entries' statuses (between two processes:
 * tests/integration/peer_batch.c).
 */
#include <stdio.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_mmap.h>
#include <softdoca.h>

#include "unit/rdma_side.h"

#define SLOT 64
#define SLOTS 32

struct batch_seen {
	int ok, err;
	struct doca_task_batch *batch;
	uint16_t tasks_num;
	uint64_t ctx_data, batch_data;
	uint64_t task_data[SLOTS];
	doca_error_t status[SLOTS];
	bool had_dst;
	bool free_it;
};

struct fixture {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct rdma_side a, b;
	struct doca_mmap *local;  /* a's memory: sources and read destinations */
	struct doca_mmap *target; /* b's memory, exported for reads and writes */
	struct doca_mmap *remote; /* a's import of it */
	struct doca_buf_inventory *inv;
	uint8_t mem_a[SLOTS * SLOT];
	uint8_t mem_b[SLOTS * SLOT];
	struct batch_seen seen;
};

static void batch_cb(struct doca_task_batch *batch, uint16_t tasks_num, union doca_data ctx_data,
                     union doca_data batch_data, union doca_data *task_data, struct doca_buf **src,
                     struct doca_buf **dst, doca_error_t *status)
{
	struct batch_seen *s = ctx_data.ptr;

	(void)src;
	if (doca_task_batch_get_status(batch) == DOCA_SUCCESS)
		s->ok++;
	else
		s->err++;
	s->batch = batch;
	s->tasks_num = tasks_num;
	s->ctx_data = doca_task_batch_get_ctx_user_data(batch).u64;
	s->batch_data = batch_data.u64;
	assert_int_equal(doca_task_batch_get_user_data(batch).u64, batch_data.u64);
	assert_int_equal(doca_task_batch_get_tasks_num(batch), tasks_num);
	s->had_dst = dst != NULL;
	for (uint16_t i = 0; i < tasks_num; i++) {
		s->task_data[i] = task_data[i].u64;
		s->status[i] = status[i];
	}
	if (s->free_it)
		doca_task_batch_free(batch);
}

static void recv_cb(struct doca_rdma_task_receive *task, union doca_data task_data,
                    union doca_data ctx_data)
{
	int *received = task_data.ptr;

	(void)ctx_data;
	if (doca_task_get_status(doca_rdma_task_receive_as_task(task)) == DOCA_SUCCESS)
		(*received)++;
	doca_task_free(doca_rdma_task_receive_as_task(task));
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct doca_ctx *ctx;
	const void *blob;
	size_t blob_len;

	f->dev = open_loopback_dev();
	assert_doca_ok(doca_pe_create(&f->pe));
	/* a: batches of every operation, two batches of up to 32 each */
	assert_doca_ok(doca_rdma_create(f->dev, &f->a.rdma));
	ctx = doca_rdma_as_ctx(f->a.rdma);
	for (int op = 0; op < SOFTDOCA_RDMA_BATCH_OPS; op++)
		assert_doca_ok(softdoca_rdma_task_batch_set_conf(
		        f->a.rdma, (enum softdoca_rdma_batch_op)op,
		        DOCA_TASK_BATCH_MAX_TASKS_NUMBER_32, 2, batch_cb, batch_cb));
	assert_doca_ok(doca_ctx_set_user_data(ctx, (union doca_data){ .ptr = &f->seen }));
	assert_doca_ok(doca_pe_connect_ctx(f->pe, ctx));
	assert_doca_ok(doca_ctx_start(ctx));
	assert_doca_ok(doca_rdma_export(f->a.rdma, &f->a.blob, &f->a.len, &f->a.conn));
	/* b: allows writes and reads, takes sends */
	assert_doca_ok(doca_rdma_create(f->dev, &f->b.rdma));
	assert_doca_ok(doca_rdma_set_permissions(f->b.rdma, DOCA_ACCESS_FLAG_RDMA_WRITE |
	                                                            DOCA_ACCESS_FLAG_RDMA_READ));
	assert_doca_ok(doca_rdma_task_receive_set_conf(f->b.rdma, recv_cb, recv_cb, SLOTS));
	assert_doca_ok(doca_pe_connect_ctx(f->pe, doca_rdma_as_ctx(f->b.rdma)));
	assert_doca_ok(doca_ctx_start(doca_rdma_as_ctx(f->b.rdma)));
	assert_doca_ok(doca_rdma_export(f->b.rdma, &f->b.blob, &f->b.len, &f->b.conn));
	assert_doca_ok(doca_rdma_connect(f->a.rdma, f->b.blob, f->b.len, f->a.conn));
	assert_doca_ok(doca_rdma_connect(f->b.rdma, f->a.blob, f->a.len, f->b.conn));

	f->local = rdma_started_mmap(f->dev, f->mem_a, sizeof(f->mem_a),
	                             DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	f->target =
	        rdma_started_mmap(f->dev, f->mem_b, sizeof(f->mem_b),
	                          DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE |
	                                  DOCA_ACCESS_FLAG_RDMA_READ);
	assert_doca_ok(doca_mmap_export_rdma(f->target, f->dev, &blob, &blob_len));
	assert_doca_ok(doca_mmap_create_from_export(NULL, blob, blob_len, f->dev, &f->remote));
	assert_doca_ok(doca_buf_inventory_create(4 * SLOTS, &f->inv));
	assert_doca_ok(doca_buf_inventory_start(f->inv));
	for (int i = 0; i < 1000000 && !(rdma_running(f->a.rdma) && rdma_running(f->b.rdma)); i++)
		doca_pe_progress(f->pe);
	f->seen.free_it = true;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	rdma_side_stop(f->pe, &f->a);
	rdma_side_stop(f->pe, &f->b);
	assert_doca_ok(doca_buf_inventory_destroy(f->inv));
	assert_doca_ok(doca_mmap_destroy(f->remote));
	assert_doca_ok(doca_mmap_destroy(f->local));
	assert_doca_ok(doca_mmap_destroy(f->target));
	assert_doca_ok(doca_pe_destroy(f->pe));
	assert_doca_ok(doca_dev_close(f->dev));
	assert_int_equal(softdoca_num_memory_keys(), 0);
	free(f);
	return 0;
}

/* Progresses until `count` batch callbacks ran (bounded). */
static void wait_batches(struct fixture *f, int count)
{
	for (long i = 0; i < 20000000 && f->seen.ok + f->seen.err < count; i++)
		doca_pe_progress(f->pe);
	assert_int_equal(f->seen.ok + f->seen.err, count);
}

static struct doca_buf *buf_of(struct fixture *f, struct doca_mmap *mmap, uint8_t *at,
                               size_t data_len)
{
	struct doca_buf *b;

	assert_doca_ok(
	        doca_buf_inventory_buf_get_by_args(f->inv, mmap, at, SLOT, at, data_len, &b));
	return b;
}

static void release(struct doca_buf **bufs, int n)
{
	for (int i = 0; i < n; i++)
		assert_doca_ok(doca_buf_dec_refcount(bufs[i], NULL));
}

static void check_all_ok(struct fixture *f, uint16_t n, uint64_t batch_data)
{
	assert_int_equal(f->seen.err, 0);
	assert_int_equal(f->seen.tasks_num, n);
	assert_int_equal(f->seen.batch_data, batch_data);
	assert_ptr_equal((void *)(uintptr_t)f->seen.ctx_data, &f->seen);
	for (uint16_t i = 0; i < n; i++) {
		assert_int_equal(f->seen.status[i], DOCA_SUCCESS);
		assert_int_equal(f->seen.task_data[i], 1000 + i);
	}
}

/* 32 writes of different lengths in one batch land where each says, then a
 * batch of 32 reads brings them back; a second write batch is resubmitted
 * from the callback's ownership (not freed) and reused. */
static void test_write_then_read(void **state)
{
	struct fixture *f = *state;
	struct doca_buf **src, **dst, *sbufs[SLOTS], *dbufs[SLOTS];
	union doca_data *ud;
	struct doca_task_batch *batch;

	for (int i = 0; i < SLOTS; i++)
		memset(f->mem_a + i * SLOT, 'A' + i, SLOT);
	assert_doca_ok(softdoca_rdma_task_batch_allocate(
	        f->a.rdma, SOFTDOCA_RDMA_BATCH_WRITE, f->a.conn, SLOTS,
	        (union doca_data){ .u64 = 7 }, &src, &dst, &ud, &batch));
	assert_ptr_equal(doca_task_batch_get_ctx(batch), doca_rdma_as_ctx(f->a.rdma));
	assert_int_equal(doca_task_batch_get_tasks_num(batch), SLOTS);
	for (int i = 0; i < SLOTS; i++) {
		sbufs[i] = buf_of(f, f->local, f->mem_a + i * SLOT, 1 + i); /* i+1 bytes */
		dbufs[i] = buf_of(f, f->remote, f->mem_b + i * SLOT, 0);
		src[i] = sbufs[i];
		dst[i] = dbufs[i];
		ud[i].u64 = 1000 + (uint64_t)i;
	}
	assert_doca_ok(doca_task_batch_submit(batch));
	wait_batches(f, 1);
	check_all_ok(f, SLOTS, 7);
	assert_true(f->seen.had_dst);
	for (int i = 0; i < SLOTS; i++) {
		size_t len;

		assert_int_equal(f->mem_b[i * SLOT + i], 'A' + i); /* the last byte written */
		assert_int_equal(f->mem_b[i * SLOT + i + 1], 0);   /* and no more */
		assert_doca_ok(doca_buf_get_data_len(dbufs[i], &len));
		assert_int_equal(len, (size_t)i + 1);
	}
	release(sbufs, SLOTS);
	release(dbufs, SLOTS);

	/* read them back into a's cleared memory */
	memset(f->mem_a, 0, sizeof(f->mem_a));
	assert_doca_ok(softdoca_rdma_task_batch_allocate(
	        f->a.rdma, SOFTDOCA_RDMA_BATCH_READ, f->a.conn, SLOTS,
	        (union doca_data){ .u64 = 8 }, &src, &dst, &ud, &batch));
	for (int i = 0; i < SLOTS; i++) {
		sbufs[i] = buf_of(f, f->remote, f->mem_b + i * SLOT, 1 + i);
		dbufs[i] = buf_of(f, f->local, f->mem_a + i * SLOT, 0);
		src[i] = sbufs[i];
		dst[i] = dbufs[i];
		ud[i].u64 = 1000 + (uint64_t)i;
	}
	assert_doca_ok(doca_task_batch_try_submit(batch));
	wait_batches(f, 2);
	check_all_ok(f, SLOTS, 8);
	for (int i = 0; i < SLOTS; i++) {
		size_t len;

		assert_doca_ok(doca_buf_get_data_len(dbufs[i], &len));
		assert_int_equal(len, (size_t)i + 1);
		for (int k = 0; k <= i; k++)
			assert_int_equal(f->mem_a[i * SLOT + k], 'A' + i);
	}
	release(sbufs, SLOTS);
	release(dbufs, SLOTS);
}

/* A batch of sends is received in order; partial batches (fewer tasks than
 * the maximum) carry only their tasks; a kept batch is submitted again. */
static void test_sends_in_order(void **state)
{
	struct fixture *f = *state;
	struct doca_buf **src, *sbufs[8], *rbufs[16];
	union doca_data *ud;
	struct doca_task_batch *batch;
	int received = 0;

	for (int i = 0; i < 16; i++) {
		struct doca_rdma_task_receive *r;

		rbufs[i] = buf_of(f, f->target, f->mem_b + i * SLOT, 0);
		assert_doca_ok(doca_rdma_task_receive_allocate_init(
		        f->b.rdma, rbufs[i], (union doca_data){ .ptr = &received }, &r));
		assert_doca_ok(doca_task_submit(doca_rdma_task_receive_as_task(r)));
	}
	for (int i = 0; i < 8; i++) {
		snprintf((char *)f->mem_a + i * SLOT, SLOT, "message %d", i);
		sbufs[i] = buf_of(f, f->local, f->mem_a + i * SLOT, strlen("message 0") + 1);
	}
	f->seen.free_it = false; /* kept for a second round */
	assert_doca_ok(softdoca_rdma_task_batch_allocate(
	        f->a.rdma, SOFTDOCA_RDMA_BATCH_SEND, f->a.conn, 8, (union doca_data){ .u64 = 9 },
	        &src, NULL, &ud, &batch));
	for (int i = 0; i < 8; i++) {
		src[i] = sbufs[i];
		ud[i].u64 = 1000 + (uint64_t)i;
	}
	assert_doca_ok(doca_task_batch_submit(batch));
	wait_batches(f, 1);
	check_all_ok(f, 8, 9);
	assert_false(f->seen.had_dst);
	assert_ptr_equal(f->seen.batch, batch);
	/* the same batch again: the receives 8..15 take it */
	assert_doca_ok(doca_task_batch_submit(batch));
	wait_batches(f, 2);
	check_all_ok(f, 8, 9);
	for (long i = 0; i < 1000000 && received < 16; i++)
		doca_pe_progress(f->pe);
	assert_int_equal(received, 16);
	for (int i = 0; i < 16; i++) {
		char want[SLOT];

		snprintf(want, sizeof(want), "message %d", i % 8);
		assert_string_equal((char *)f->mem_b + i * SLOT, want);
	}
	doca_task_batch_free(batch);
	release(sbufs, 8);
	release(rbufs, 16);
}

/* Refusals: nothing is posted, the batch stays the application's. */
static void test_refusals(void **state)
{
	struct fixture *f = *state;
	struct doca_buf **src, **dst, *good, *bad;
	union doca_data *ud;
	struct doca_task_batch *batch, *second, *third;
	size_t inflight;

	good = buf_of(f, f->local, f->mem_a, 8);
	bad = buf_of(f, f->local, f->mem_a + SLOT, 0); /* local: not a write destination */
	assert_doca_ok(softdoca_rdma_task_batch_allocate(
	        f->a.rdma, SOFTDOCA_RDMA_BATCH_WRITE, f->a.conn, 2, (union doca_data){ .u64 = 1 },
	        &src, &dst, &ud, &batch));
	src[0] = good;
	dst[0] = bad;
	src[1] = good;
	dst[1] = bad;
	assert_doca_err(doca_task_batch_submit(batch), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_task_batch_try_submit(batch), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_ctx_get_num_inflight_tasks(doca_rdma_as_ctx(f->a.rdma), &inflight));
	assert_int_equal(inflight, 0);
	/* two batches of writes configured: a third is NO_MEMORY */
	assert_doca_ok(softdoca_rdma_task_batch_allocate(
	        f->a.rdma, SOFTDOCA_RDMA_BATCH_WRITE, f->a.conn, 1, (union doca_data){ .u64 = 2 },
	        &src, &dst, &ud, &second));
	assert_doca_err(softdoca_rdma_task_batch_allocate(
	                        f->a.rdma, SOFTDOCA_RDMA_BATCH_WRITE, f->a.conn, 1,
	                        (union doca_data){ .u64 = 3 }, &src, &dst, &ud, &third),
	                DOCA_ERROR_NO_MEMORY);
	doca_task_batch_free(second);
	doca_task_batch_free(batch);
	doca_task_batch_free(batch); /* twice: logged, ignored */
	/* more tasks than configured, none, an unknown op, no connection */
	assert_doca_err(softdoca_rdma_task_batch_allocate(
	                        f->a.rdma, SOFTDOCA_RDMA_BATCH_WRITE, f->a.conn, 33,
	                        (union doca_data){ .u64 = 0 }, &src, &dst, &ud, &batch),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(softdoca_rdma_task_batch_allocate(
	                        f->a.rdma, SOFTDOCA_RDMA_BATCH_WRITE, f->a.conn, 0,
	                        (union doca_data){ .u64 = 0 }, &src, &dst, &ud, &batch),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(softdoca_rdma_task_batch_allocate(
	                        f->a.rdma, (enum softdoca_rdma_batch_op)7, f->a.conn, 1,
	                        (union doca_data){ .u64 = 0 }, &src, &dst, &ud, &batch),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(softdoca_rdma_task_batch_allocate(f->a.rdma, SOFTDOCA_RDMA_BATCH_WRITE,
	                                                  NULL, 1, (union doca_data){ .u64 = 0 },
	                                                  &src, &dst, &ud, &batch),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(softdoca_rdma_task_batch_allocate(
	                        f->a.rdma, SOFTDOCA_RDMA_BATCH_WRITE, f->a.conn, 1,
	                        (union doca_data){ .u64 = 0 }, &src, NULL, &ud, &batch),
	                DOCA_ERROR_INVALID_VALUE);
	/* b configured no batches */
	assert_doca_err(softdoca_rdma_task_batch_allocate(
	                        f->b.rdma, SOFTDOCA_RDMA_BATCH_SEND, f->b.conn, 1,
	                        (union doca_data){ .u64 = 0 }, &src, NULL, &ud, &batch),
	                DOCA_ERROR_NOT_PERMITTED);
	/* configuration only while IDLE */
	assert_doca_err(softdoca_rdma_task_batch_set_conf(f->a.rdma, SOFTDOCA_RDMA_BATCH_SEND,
	                                                  DOCA_TASK_BATCH_MAX_TASKS_NUMBER_16, 1,
	                                                  batch_cb, batch_cb),
	                DOCA_ERROR_BAD_STATE);
	assert_doca_err(softdoca_rdma_task_batch_set_conf(NULL, SOFTDOCA_RDMA_BATCH_SEND,
	                                                  DOCA_TASK_BATCH_MAX_TASKS_NUMBER_16, 1,
	                                                  batch_cb, batch_cb),
	                DOCA_ERROR_INVALID_VALUE);
	/* the core calls on no batch */
	assert_doca_err(doca_task_batch_submit(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_task_batch_get_status(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_null(doca_task_batch_get_ctx(NULL));
	assert_int_equal(doca_task_batch_get_tasks_num(NULL), 0);
	assert_int_equal(doca_task_batch_get_user_data(NULL).u64, 0);
	doca_task_batch_free(NULL);
	release(&good, 1);
	release(&bad, 1);
}

/* Stopping the context with a batch in flight: the batch completes once,
 * each entry either done or flushed, and the context reaches IDLE only
 * once the application freed the batch (in the callback). */
static void test_stop_with_batch_in_flight(void **state)
{
	struct fixture *f = *state;
	struct doca_buf **src, **dst, *sbufs[SLOTS], *dbufs[SLOTS];
	union doca_data *ud;
	struct doca_task_batch *batch;
	enum doca_ctx_states st = DOCA_CTX_STATE_STOPPING;
	doca_error_t status;

	assert_doca_ok(softdoca_rdma_task_batch_allocate(
	        f->a.rdma, SOFTDOCA_RDMA_BATCH_WRITE, f->a.conn, SLOTS,
	        (union doca_data){ .u64 = 4 }, &src, &dst, &ud, &batch));
	for (int i = 0; i < SLOTS; i++) {
		sbufs[i] = buf_of(f, f->local, f->mem_a + i * SLOT, SLOT);
		dbufs[i] = buf_of(f, f->remote, f->mem_b + i * SLOT, 0);
		src[i] = sbufs[i];
		dst[i] = dbufs[i];
	}
	assert_doca_ok(doca_task_batch_submit(batch));
	status = doca_ctx_stop(doca_rdma_as_ctx(f->a.rdma));
	assert_true(status == DOCA_SUCCESS || status == DOCA_ERROR_IN_PROGRESS);
	for (long i = 0; i < 20000000 && st != DOCA_CTX_STATE_IDLE; i++) {
		doca_pe_progress(f->pe);
		assert_doca_ok(doca_ctx_get_state(doca_rdma_as_ctx(f->a.rdma), &st));
	}
	assert_int_equal(st, DOCA_CTX_STATE_IDLE);
	assert_int_equal(f->seen.ok + f->seen.err, 1);
	for (int i = 0; i < SLOTS; i++)
		assert_true(f->seen.status[i] == DOCA_SUCCESS ||
		            f->seen.status[i] == DOCA_ERROR_CONNECTION_ABORTED);
	release(sbufs, SLOTS);
	release(dbufs, SLOTS);
	/* started again for the teardown's stop */
	assert_doca_ok(doca_ctx_start(doca_rdma_as_ctx(f->a.rdma)));
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_write_then_read),
		T(test_sends_in_order),
		T(test_refusals),
		T(test_stop_with_batch_in_flight),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
