/*
 * doca_mmap_advise: a context and its cache-invalidate task. The CPU's
 * caches are coherent, so the invalidation itself changes nothing, but the
 * task lives a task's life: configured while IDLE, allocated while RUNNING,
 * completed through its callback from doca_pe_progress() with SUCCESS, and
 * freed before the context stops.
 */
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_mmap.h>
#include <doca_mmap_advise.h>
#include <doca_pe.h>

#include "unit/testing.h"

#define NUM_TASKS 4

struct done {
	int ok, err;
	doca_error_t status;
	uint64_t task_data, ctx_data;
	struct doca_buf *buf;
	bool free_task;
};

static void invalidate_cb(struct doca_mmap_advise_task_invalidate_cache *task,
                          union doca_data task_data, union doca_data ctx_data)
{
	struct doca_task *t = doca_mmap_advise_task_invalidate_cache_as_doca_task(task);
	struct done *d = (struct done *)(uintptr_t)ctx_data.u64;

	d->status = doca_task_get_status(t);
	if (d->status == DOCA_SUCCESS)
		d->ok++;
	else
		d->err++;
	d->task_data = task_data.u64;
	d->ctx_data = ctx_data.u64;
	d->buf = doca_mmap_advise_task_invalidate_cache_get_buf(task);
	if (d->free_task)
		doca_task_free(t);
}

struct fixture {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
	struct doca_mmap_advise *advise;
	struct doca_ctx *ctx;
	char mem[1024];
	struct done done;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	f->dev = open_loopback_dev();
	assert_doca_ok(doca_pe_create(&f->pe));
	assert_doca_ok(doca_mmap_create(&f->mmap));
	assert_doca_ok(doca_mmap_set_memrange(f->mmap, f->mem, sizeof(f->mem)));
	assert_doca_ok(doca_mmap_set_permissions(f->mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE |
	                                                          DOCA_ACCESS_FLAG_RDMA_READ));
	assert_doca_ok(doca_mmap_add_dev(f->mmap, f->dev));
	assert_doca_ok(doca_mmap_start(f->mmap));
	assert_doca_ok(doca_buf_inventory_create(8, &f->inv));
	assert_doca_ok(doca_buf_inventory_start(f->inv));
	assert_doca_ok(doca_mmap_advise_create(f->dev, &f->advise));
	f->ctx = doca_mmap_advise_as_ctx(f->advise);
	assert_non_null(f->ctx);
	assert_doca_ok(
	        doca_ctx_set_user_data(f->ctx, (union doca_data){ .u64 = (uintptr_t)&f->done }));
	*state = f;
	return 0;
}

static void run_until_idle(struct fixture *f)
{
	enum doca_ctx_states s = DOCA_CTX_STATE_RUNNING;

	for (int i = 0; i < 1000 && s != DOCA_CTX_STATE_IDLE; i++) {
		doca_pe_progress(f->pe);
		assert_doca_ok(doca_ctx_get_state(f->ctx, &s));
	}
	assert_int_equal(s, DOCA_CTX_STATE_IDLE);
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	assert_doca_ok(doca_mmap_advise_destroy(f->advise));
	assert_doca_ok(doca_buf_inventory_destroy(f->inv));
	assert_doca_ok(doca_mmap_destroy(f->mmap));
	assert_doca_ok(doca_pe_destroy(f->pe));
	assert_doca_ok(doca_dev_close(f->dev));
	free(f);
	return 0;
}

static void start(struct fixture *f)
{
	enum doca_ctx_states s;

	assert_doca_ok(doca_mmap_advise_task_invalidate_cache_set_conf(f->advise, invalidate_cb,
	                                                               invalidate_cb, NUM_TASKS));
	assert_doca_ok(doca_pe_connect_ctx(f->pe, f->ctx));
	assert_doca_ok(doca_ctx_start(f->ctx));
	assert_doca_ok(doca_ctx_get_state(f->ctx, &s));
	assert_int_equal(s, DOCA_CTX_STATE_RUNNING);
}

static void test_capabilities(void **state)
{
	struct fixture *f = *state;
	uint64_t max = 0;

	assert_doca_ok(doca_mmap_advise_cap_task_cache_invalidate_is_supported(
	        doca_dev_as_devinfo(f->dev)));
	assert_doca_ok(doca_mmap_advise_task_cache_invalidate_get_max_buf_size(
	        doca_dev_as_devinfo(f->dev), &max));
	assert_true(max >= sizeof(f->mem));
	assert_doca_err(doca_mmap_advise_cap_task_cache_invalidate_is_supported(NULL),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_mmap_advise_task_cache_invalidate_get_max_buf_size(
	                        doca_dev_as_devinfo(f->dev), NULL),
	                DOCA_ERROR_INVALID_VALUE);
}

/* Every task completes with SUCCESS in the next progress, not inside the
 * submit; the callback sees its task's and its context's user data. */
static void test_invalidate_round_trip(void **state)
{
	struct fixture *f = *state;
	struct doca_mmap_advise_task_invalidate_cache *task[NUM_TASKS], *extra;
	struct doca_buf *buf, *other;
	size_t inflight;

	start(f);
	assert_doca_ok(doca_buf_inventory_buf_get_by_data(f->inv, f->mmap, f->mem, 512, &buf));
	assert_doca_ok(
	        doca_buf_inventory_buf_get_by_data(f->inv, f->mmap, f->mem + 512, 512, &other));
	for (int i = 0; i < NUM_TASKS; i++)
		assert_doca_ok(doca_mmap_advise_task_invalidate_cache_alloc_init(
		        f->advise, buf, (union doca_data){ .u64 = 100 + (uint64_t)i }, &task[i]));
	/* the pool holds NUM_TASKS */
	assert_doca_err(doca_mmap_advise_task_invalidate_cache_alloc_init(
	                        f->advise, buf, (union doca_data){ .u64 = 0 }, &extra),
	                DOCA_ERROR_NO_MEMORY);
	assert_ptr_equal(doca_mmap_advise_task_invalidate_cache_get_buf(task[0]), buf);
	doca_mmap_advise_task_invalidate_cache_set_buf(task[1], other);
	assert_ptr_equal(doca_mmap_advise_task_invalidate_cache_get_buf(task[1]), other);
	assert_ptr_equal(
	        doca_task_get_ctx(doca_mmap_advise_task_invalidate_cache_as_doca_task(task[0])),
	        f->ctx);

	for (int i = 0; i < NUM_TASKS; i++) {
		f->done.free_task = i != 0; /* task 0 is resubmitted below */
		assert_doca_ok(doca_task_submit(
		        doca_mmap_advise_task_invalidate_cache_as_doca_task(task[i])));
		assert_int_equal(f->done.ok, i);
		assert_doca_ok(doca_ctx_get_num_inflight_tasks(f->ctx, &inflight));
		assert_int_equal(inflight, 1);
		assert_int_equal(doca_pe_progress(f->pe), 1);
		assert_int_equal(f->done.ok, i + 1);
		assert_int_equal(f->done.err, 0);
		assert_int_equal(f->done.task_data, 100 + (uint64_t)i);
		assert_int_equal(f->done.ctx_data, (uintptr_t)&f->done);
		assert_ptr_equal(f->done.buf, i == 1 ? other : buf);
	}
	/* a completed task is the application's again: resubmitted */
	f->done.free_task = true;
	assert_doca_ok(
	        doca_task_try_submit(doca_mmap_advise_task_invalidate_cache_as_doca_task(task[0])));
	doca_pe_progress(f->pe);
	assert_int_equal(f->done.ok, NUM_TASKS + 1);

	/* every task freed: the context stops at once */
	assert_doca_ok(doca_ctx_stop(f->ctx));
	run_until_idle(f);
	assert_doca_ok(doca_buf_dec_refcount(buf, NULL));
	assert_doca_ok(doca_buf_dec_refcount(other, NULL));
}

/* The context's rules: configuration while IDLE, tasks while RUNNING,
 * destroy while IDLE; a task without a buffer or on a peer's memory is
 * refused at submit and stays the application's. */
static void test_life_cycle_and_refusals(void **state)
{
	struct fixture *f = *state;
	struct doca_mmap_advise_task_invalidate_cache *task;
	struct doca_mmap *remote;
	struct doca_buf *buf, *remote_buf;
	const void *blob;
	size_t blob_len;
	doca_error_t status;

	assert_doca_ok(doca_buf_inventory_buf_get_by_data(f->inv, f->mmap, f->mem, 64, &buf));
	/* not configured, not started */
	assert_doca_err(doca_mmap_advise_task_invalidate_cache_alloc_init(
	                        f->advise, buf, (union doca_data){ .u64 = 0 }, &task),
	                DOCA_ERROR_NOT_PERMITTED);
	assert_doca_err(
	        doca_mmap_advise_task_invalidate_cache_set_conf(f->advise, invalidate_cb, NULL, 4),
	        DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_mmap_advise_task_invalidate_cache_set_conf(f->advise, invalidate_cb,
	                                                                invalidate_cb, 0),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_ctx_start(f->ctx), DOCA_ERROR_NOT_CONNECTED);
	start(f);
	assert_doca_err(doca_mmap_advise_task_invalidate_cache_set_conf(f->advise, invalidate_cb,
	                                                                invalidate_cb, 4),
	                DOCA_ERROR_BAD_STATE);
	assert_doca_err(doca_mmap_advise_destroy(f->advise), DOCA_ERROR_BAD_STATE);

	/* no buffer */
	assert_doca_ok(doca_mmap_advise_task_invalidate_cache_alloc_init(
	        f->advise, buf, (union doca_data){ .u64 = 0 }, &task));
	doca_mmap_advise_task_invalidate_cache_set_buf(task, NULL);
	assert_doca_err(doca_task_submit(doca_mmap_advise_task_invalidate_cache_as_doca_task(task)),
	                DOCA_ERROR_INVALID_VALUE);
	/* a peer's memory: no cache of this side holds it */
	assert_doca_ok(doca_mmap_export_rdma(f->mmap, f->dev, &blob, &blob_len));
	assert_doca_ok(doca_mmap_create_from_export(NULL, blob, blob_len, f->dev, &remote));
	assert_doca_ok(doca_buf_inventory_buf_get_by_addr(f->inv, remote, f->mem, 64, &remote_buf));
	doca_mmap_advise_task_invalidate_cache_set_buf(task, remote_buf);
	assert_doca_err(doca_task_submit(doca_mmap_advise_task_invalidate_cache_as_doca_task(task)),
	                DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_pe_progress(f->pe), 0);
	assert_int_equal(f->done.ok + f->done.err, 0);

	/* a task still allocated keeps the context STOPPING */
	status = doca_ctx_stop(f->ctx);
	assert_int_equal(status, DOCA_ERROR_IN_PROGRESS);
	doca_pe_progress(f->pe);
	{
		enum doca_ctx_states s;

		assert_doca_ok(doca_ctx_get_state(f->ctx, &s));
		assert_int_equal(s, DOCA_CTX_STATE_STOPPING);
	}
	doca_task_free(doca_mmap_advise_task_invalidate_cache_as_doca_task(task));
	run_until_idle(f);
	assert_doca_ok(doca_buf_dec_refcount(remote_buf, NULL));
	assert_doca_ok(doca_buf_dec_refcount(buf, NULL));
	assert_doca_ok(doca_mmap_destroy(remote));

	/* bad input */
	assert_doca_err(doca_mmap_advise_create(NULL, &f->advise), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_mmap_advise_create(f->dev, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_mmap_advise_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_null(doca_mmap_advise_as_ctx(NULL));
	assert_null(doca_mmap_advise_task_invalidate_cache_as_doca_task(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_capabilities, setup, teardown),
		cmocka_unit_test_setup_teardown(test_invalidate_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_life_cycle_and_refusals, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
