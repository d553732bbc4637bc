/*
 * Unit tests: doca_buf data sections, reference counts, lists, inventories, pools.
 */
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_array.h>
#include <doca_buf_inventory.h>
#include <doca_buf_pool.h>
#include <doca_mmap.h>
#include <softdoca.h>

#include "unit/testing.h"

static struct doca_dev *dev;
static char mem[4096];
static struct doca_mmap *mmap;
static struct doca_buf_inventory *inv;

static int setup(void **state)
{
	(void)state;
	dev = open_loopback_dev();
	if (doca_mmap_create(&mmap) || doca_mmap_set_memrange(mmap, mem, sizeof(mem)) ||
	    doca_mmap_add_dev(mmap, dev) || doca_mmap_start(mmap) ||
	    doca_buf_inventory_create(8, &inv) || doca_buf_inventory_start(inv))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (doca_buf_inventory_destroy(inv) || doca_mmap_destroy(mmap) || doca_dev_close(dev))
		return -1;
	return 0;
}

static uint32_t free_elements(void)
{
	uint32_t n;

	assert_doca_ok(doca_buf_inventory_get_num_free_elements(inv, &n));
	return n;
}

static void test_head_and_data(void **state)
{
	struct doca_buf *buf;
	void *p;
	size_t n;

	(void)state;
	assert_doca_ok(
	        doca_buf_inventory_buf_get_by_args(inv, mmap, mem + 100, 200, mem + 150, 50, &buf));
	assert_doca_ok(doca_buf_get_head(buf, &p));
	assert_ptr_equal(p, mem + 100);
	assert_doca_ok(doca_buf_get_len(buf, &n));
	assert_int_equal(n, 200);
	assert_doca_ok(doca_buf_get_data(buf, &p));
	assert_ptr_equal(p, mem + 150);
	assert_doca_ok(doca_buf_get_data_len(buf, &n));
	assert_int_equal(n, 50);

	assert_doca_ok(doca_buf_set_data(buf, mem + 100, 200));
	assert_doca_ok(doca_buf_set_data(buf, mem + 300, 0)); /* empty at the very end */
	assert_doca_err(doca_buf_set_data(buf, mem + 99, 1), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_buf_set_data(buf, mem + 250, 51), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_buf_set_data(buf, NULL, 0), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_buf_set_data(buf, mem + 120, 10));
	assert_doca_ok(doca_buf_set_data_len(buf, 180));
	assert_doca_err(doca_buf_set_data_len(buf, 181), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_buf_reset_data_len(buf));
	assert_doca_ok(doca_buf_get_data_len(buf, &n));
	assert_int_equal(n, 0);
	assert_doca_ok(doca_buf_get_data(buf, &p));
	assert_ptr_equal(p, mem + 120); /* reset keeps the data pointer */
	assert_doca_ok(doca_buf_dec_refcount(buf, NULL));
}

static void test_inline_getters(void **state)
{
	struct doca_buf *a, *b;
	void *p;
	size_t n;

	(void)state;
	assert_doca_ok(doca_buf_inventory_buf_get_by_addr(inv, mmap, mem, 64, &a));
	assert_doca_ok(doca_buf_get_data(a, &p));
	assert_ptr_equal(p, mem);
	assert_doca_ok(doca_buf_get_data_len(a, &n));
	assert_int_equal(n, 0);
	assert_doca_ok(doca_buf_inventory_buf_get_by_data(inv, mmap, mem + 64, 32, &b));
	assert_doca_ok(doca_buf_get_data_len(b, &n));
	assert_int_equal(n, 32);
	assert_doca_ok(doca_buf_get_len(b, &n));
	assert_int_equal(n, 32);
	assert_doca_ok(doca_buf_dec_refcount(a, NULL));
	assert_doca_ok(doca_buf_dec_refcount(b, NULL));
}

static void test_range_checks(void **state)
{
	struct doca_buf *buf = (struct doca_buf *)0x1;
	static char outside[16];

	(void)state;
	assert_doca_err(doca_buf_inventory_buf_get_by_addr(inv, mmap, mem + 4000, 97, &buf),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_buf_inventory_buf_get_by_addr(inv, mmap, outside, 8, &buf),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_buf_inventory_buf_get_by_args(inv, mmap, mem, 64, mem + 60, 8, &buf),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_buf_inventory_buf_get_by_args(inv, mmap, mem + 8, 64, mem, 1, &buf),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_buf_inventory_buf_get_by_addr(NULL, mmap, mem, 8, &buf),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_buf_inventory_buf_get_by_addr(inv, NULL, mem, 8, &buf),
	                DOCA_ERROR_INVALID_VALUE);
	assert_ptr_equal(buf, (struct doca_buf *)0x1);
	assert_int_equal(free_elements(), 8);
}

static void test_refcount(void **state)
{
	struct doca_buf *buf;
	uint16_t rc;
	uint32_t bufs;

	(void)state;
	assert_doca_ok(doca_buf_inventory_buf_get_by_addr(inv, mmap, mem, 8, &buf));
	assert_doca_ok(doca_buf_get_refcount(buf, &rc));
	assert_int_equal(rc, 1);
	assert_doca_ok(doca_buf_inc_refcount(buf, &rc));
	assert_int_equal(rc, 1); /* the count before the call */
	assert_doca_ok(doca_buf_get_refcount(buf, &rc));
	assert_int_equal(rc, 2);
	assert_doca_ok(doca_buf_dec_refcount(buf, &rc));
	assert_int_equal(free_elements(), 7);
	assert_doca_ok(doca_mmap_get_num_bufs(mmap, &bufs));
	assert_int_equal(bufs, 1);
	assert_doca_ok(doca_buf_dec_refcount(buf, NULL));
	assert_int_equal(free_elements(), 8);
	assert_doca_ok(doca_mmap_get_num_bufs(mmap, &bufs));
	assert_int_equal(bufs, 0);
	/* A released buffer is recognised, not freed twice. */
	assert_doca_err(doca_buf_dec_refcount(buf, NULL), DOCA_ERROR_BAD_STATE);
	assert_doca_err(doca_buf_inc_refcount(buf, NULL), DOCA_ERROR_BAD_STATE);
	assert_int_equal(free_elements(), 8);
}

static void test_refcount_limit(void **state)
{
	struct doca_buf *buf;

	(void)state;
	assert_doca_ok(doca_buf_inventory_buf_get_by_addr(inv, mmap, mem, 8, &buf));
	for (int i = 1; i < UINT16_MAX; i++)
		assert_doca_ok(doca_buf_inc_refcount(buf, NULL));
	assert_doca_err(doca_buf_inc_refcount(buf, NULL), DOCA_ERROR_TOO_BIG);
	for (int i = 0; i < UINT16_MAX; i++)
		assert_doca_ok(doca_buf_dec_refcount(buf, NULL));
	assert_int_equal(free_elements(), 8);
}

static void test_inventory_exhaustion(void **state)
{
	struct doca_buf *bufs[9];

	(void)state;
	for (int i = 0; i < 8; i++)
		assert_doca_ok(
		        doca_buf_inventory_buf_get_by_addr(inv, mmap, mem + i * 8, 8, &bufs[i]));
	assert_doca_err(doca_buf_inventory_buf_get_by_addr(inv, mmap, mem, 8, &bufs[8]),
	                DOCA_ERROR_NO_MEMORY);
	assert_doca_err(doca_buf_inventory_destroy(inv), DOCA_ERROR_IN_USE);
	for (int i = 0; i < 8; i++)
		assert_doca_ok(doca_buf_dec_refcount(bufs[i], NULL));
	assert_int_equal(free_elements(), 8);
}

static struct doca_buf *list_of(int n)
{
	struct doca_buf *head, *e;

	assert_doca_ok(doca_buf_inventory_buf_get_by_data(inv, mmap, mem, 16, &head));
	for (int i = 1; i < n; i++) {
		assert_doca_ok(doca_buf_inventory_buf_get_by_data(inv, mmap, mem + 16 * i, 16, &e));
		assert_doca_ok(doca_buf_chain_list(head, e));
	}
	return head;
}

static void test_lists(void **state)
{
	struct doca_buf *head = list_of(3), *second, *third, *last, *next;
	uint32_t n;
	uint8_t flag;
	uint16_t rc;

	(void)state;
	assert_doca_ok(doca_buf_get_list_len(head, &n));
	assert_int_equal(n, 3);
	assert_doca_ok(doca_buf_get_next_in_list(head, &second));
	assert_doca_ok(doca_buf_get_next_in_list(second, &third));
	assert_doca_ok(doca_buf_get_next_in_list(third, &next));
	assert_null(next);
	assert_doca_ok(doca_buf_get_last_in_list(head, &last));
	assert_ptr_equal(last, third);
	assert_doca_ok(doca_buf_get_last_in_list(second, &last));
	assert_ptr_equal(last, third);
	assert_doca_ok(doca_buf_is_first_in_list(head, &flag));
	assert_int_equal(flag, 1);
	assert_doca_ok(doca_buf_is_first_in_list(second, &flag));
	assert_int_equal(flag, 0);
	assert_doca_ok(doca_buf_is_last_in_list(third, &flag));
	assert_int_equal(flag, 1);
	assert_doca_ok(doca_buf_is_in_list(second, &flag));
	assert_int_equal(flag, 1);
	/* Inner elements: refcount 1, no own refcounting or length. */
	assert_doca_ok(doca_buf_get_refcount(second, &rc));
	assert_int_equal(rc, 1);
	assert_doca_err(doca_buf_inc_refcount(second, NULL), DOCA_ERROR_NOT_PERMITTED);
	assert_doca_err(doca_buf_dec_refcount(second, NULL), DOCA_ERROR_NOT_PERMITTED);
	assert_doca_err(doca_buf_get_list_len(second, &n), DOCA_ERROR_NOT_PERMITTED);
	assert_doca_err(doca_buf_chain_list(second, head), DOCA_ERROR_NOT_PERMITTED);
	assert_doca_err(doca_buf_chain_list(head, head), DOCA_ERROR_INVALID_VALUE);

	/* Split before the third element: [head, second] and [third]. */
	assert_doca_ok(doca_buf_unchain_list(head, third));
	assert_doca_ok(doca_buf_get_list_len(head, &n));
	assert_int_equal(n, 2);
	assert_doca_ok(doca_buf_get_list_len(third, &n));
	assert_int_equal(n, 1);
	assert_doca_ok(doca_buf_get_refcount(third, &rc));
	assert_int_equal(rc, 1);
	assert_doca_ok(doca_buf_is_in_list(third, &flag));
	assert_int_equal(flag, 0);
	assert_doca_ok(doca_buf_get_last_in_list(head, &last));
	assert_ptr_equal(last, second);
	assert_doca_err(doca_buf_unchain_list(head, third), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_buf_unchain_list(head, head), DOCA_ERROR_INVALID_VALUE);

	/* A list with more than one reference cannot be appended. */
	assert_doca_ok(doca_buf_inc_refcount(third, NULL));
	assert_doca_err(doca_buf_chain_list(head, third), DOCA_ERROR_NOT_PERMITTED);
	assert_doca_ok(doca_buf_dec_refcount(third, NULL));
	assert_doca_err(doca_buf_chain_list_tail(head, head, third), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_buf_chain_list_tail(head, second, third));
	assert_doca_ok(doca_buf_get_list_len(head, &n));
	assert_int_equal(n, 3);

	/* Releasing the head releases the whole list. */
	assert_int_equal(free_elements(), 5);
	assert_doca_ok(doca_buf_dec_refcount(head, NULL));
	assert_int_equal(free_elements(), 8);
}

static void test_dup(void **state)
{
	struct doca_buf *head = list_of(2), *copy, *second;
	void *p;
	size_t n;
	uint32_t len;

	(void)state;
	assert_doca_ok(doca_buf_set_data(head, mem + 4, 8));
	assert_doca_ok(doca_buf_inventory_buf_dup(inv, head, &copy));
	assert_ptr_not_equal(copy, head);
	assert_doca_ok(doca_buf_get_data(copy, &p));
	assert_ptr_equal(p, mem + 4);
	assert_doca_ok(doca_buf_get_data_len(copy, &n));
	assert_int_equal(n, 8);
	assert_doca_ok(doca_buf_get_list_len(copy, &len));
	assert_int_equal(len, 2);
	assert_doca_ok(doca_buf_get_next_in_list(head, &second));
	assert_doca_err(doca_buf_inventory_buf_dup(inv, second, &copy), DOCA_ERROR_NOT_PERMITTED);
	assert_doca_ok(doca_buf_dec_refcount(copy, NULL));
	assert_doca_ok(doca_buf_dec_refcount(head, NULL));
	assert_int_equal(free_elements(), 8);
}

static void test_inventory_states(void **state)
{
	struct doca_buf_inventory *other;
	struct doca_buf *buf;
	union doca_data ud = { .u64 = 5 };
	uint32_t n;

	(void)state;
	assert_doca_err(doca_buf_inventory_create(0, &other), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_buf_inventory_create(1, &other));
	assert_doca_err(doca_buf_inventory_buf_get_by_addr(other, mmap, mem, 8, &buf),
	                DOCA_ERROR_BAD_STATE);
	assert_doca_err(doca_buf_inventory_expand(other, 2), DOCA_ERROR_BAD_STATE);
	assert_doca_err(doca_buf_inventory_stop(other), DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_buf_inventory_set_user_data(other, ud));
	assert_doca_ok(doca_buf_inventory_start(other));
	assert_doca_err(doca_buf_inventory_start(other), DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_buf_inventory_expand(other, 2));
	assert_doca_ok(doca_buf_inventory_get_num_elements(other, &n));
	assert_int_equal(n, 3);
	assert_doca_ok(doca_buf_inventory_get_user_data(other, &ud));
	assert_int_equal(ud.u64, 5);
	assert_doca_ok(doca_buf_inventory_stop(other));
	assert_doca_ok(doca_buf_inventory_destroy(other));
}

static void test_unstarted_mmap(void **state)
{
	struct doca_mmap *idle;
	struct doca_buf *buf;

	(void)state;
	assert_doca_ok(doca_mmap_create(&idle));
	assert_doca_ok(doca_mmap_set_memrange(idle, mem, sizeof(mem)));
	assert_doca_err(doca_buf_inventory_buf_get_by_addr(inv, idle, mem, 8, &buf),
	                DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_mmap_destroy(idle));
}

static void test_remote_buffers(void **state)
{
	static char target[512];
	struct doca_mmap *exported, *remote;
	struct doca_buf *buf;
	const void *blob;
	size_t len;

	(void)state;
	assert_doca_ok(doca_mmap_create(&exported));
	assert_doca_ok(doca_mmap_set_memrange(exported, target, sizeof(target)));
	assert_doca_ok(doca_mmap_set_permissions(exported, DOCA_ACCESS_FLAG_RDMA_WRITE));
	assert_doca_ok(doca_mmap_add_dev(exported, dev));
	assert_doca_ok(doca_mmap_start(exported));
	assert_doca_ok(doca_mmap_export_rdma(exported, dev, &blob, &len));
	assert_doca_ok(doca_mmap_create_from_export(NULL, blob, len, dev, &remote));
	/* Buffers over a remote mmap follow the peer's range. */
	assert_doca_ok(doca_buf_inventory_buf_get_by_addr(inv, remote, target + 8, 64, &buf));
	assert_doca_err(doca_buf_inventory_buf_get_by_addr(inv, remote, target + 500, 64, &buf),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_mmap_destroy(remote), DOCA_ERROR_IN_USE);
	assert_doca_ok(doca_buf_dec_refcount(buf, NULL));
	assert_doca_ok(doca_mmap_destroy(remote));
	assert_doca_ok(doca_mmap_destroy(exported));
}

static void test_pool(void **state)
{
	struct doca_buf_pool *pool;
	struct doca_buf *a, *b, *c;
	void *ha, *hb;
	size_t n;
	uint32_t free_n;

	(void)state;
	assert_doca_err(doca_buf_pool_create(0, 64, mmap, &pool), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_buf_pool_create(2, 100, mmap, &pool));
	assert_doca_ok(doca_buf_pool_set_element_alignment(pool, 64));
	assert_doca_err(doca_buf_pool_set_element_alignment(pool, 48), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_buf_pool_buf_alloc(pool, &a), DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_buf_pool_start(pool));
	assert_doca_ok(doca_buf_pool_buf_alloc(pool, &a));
	assert_doca_ok(doca_buf_pool_buf_alloc(pool, &b));
	assert_doca_err(doca_buf_pool_buf_alloc(pool, &c), DOCA_ERROR_NO_MEMORY);
	assert_doca_ok(doca_buf_get_head(a, &ha));
	assert_doca_ok(doca_buf_get_head(b, &hb));
	assert_int_equal((uintptr_t)ha % 64, 0);
	assert_int_equal((uintptr_t)hb % 64, 0);
	assert_true((char *)hb - (char *)ha == 128 || (char *)ha - (char *)hb == 128);
	assert_doca_ok(doca_buf_get_len(a, &n));
	assert_int_equal(n, 100);
	assert_doca_err(doca_buf_pool_destroy(pool), DOCA_ERROR_IN_USE);
	assert_doca_ok(doca_buf_dec_refcount(a, NULL));
	assert_doca_ok(doca_buf_pool_get_num_free_elements(pool, &free_n));
	assert_int_equal(free_n, 1);
	/* The element comes back with its own place in the mmap. */
	assert_doca_ok(doca_buf_pool_buf_alloc(pool, &c));
	assert_doca_ok(doca_buf_get_head(c, &hb));
	assert_ptr_equal(hb, ha);
	assert_doca_ok(doca_buf_dec_refcount(b, NULL));
	assert_doca_ok(doca_buf_dec_refcount(c, NULL));
	assert_doca_ok(doca_buf_pool_stop(pool));
	assert_doca_ok(doca_buf_pool_destroy(pool));

	/* More than the mmap holds. */
	assert_doca_ok(doca_buf_pool_create(100, 4096, mmap, &pool));
	assert_doca_err(doca_buf_pool_start(pool), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_buf_pool_destroy(pool));
}

/* DOCA 3.2's reuse: one buffer re-pointed without going back to the
 * inventory; only a single, unshared buffer outside a pool. */
static void test_reuse(void **state)
{
	struct doca_buf *buf, *list, *other;
	struct doca_buf_pool *pool;
	void *p;
	size_t n;
	uint32_t free_before = free_elements();

	(void)state;
	assert_doca_ok(doca_buf_inventory_buf_get_by_data(inv, mmap, mem, 16, &buf));
	assert_doca_ok(doca_buf_inventory_buf_reuse_by_addr(buf, mem + 1000, 64));
	assert_doca_ok(doca_buf_get_head(buf, &p));
	assert_ptr_equal(p, mem + 1000);
	assert_doca_ok(doca_buf_get_data_len(buf, &n));
	assert_int_equal(n, 0);
	assert_doca_ok(doca_buf_inventory_buf_reuse_by_data(buf, mem + 2000, 32));
	assert_doca_ok(doca_buf_get_data(buf, &p));
	assert_ptr_equal(p, mem + 2000);
	assert_doca_ok(doca_buf_get_data_len(buf, &n));
	assert_int_equal(n, 32);
	assert_int_equal(free_elements(), free_before - 1); /* the same element */
	/* outside the mmap, data outside the buffer: refused, buffer unchanged */
	assert_doca_err(doca_buf_inventory_buf_reuse_by_addr(buf, mem + 4000, 200),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_buf_inventory_buf_reuse_by_args(buf, mem, 10, mem + 8, 4),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_buf_get_data(buf, &p));
	assert_ptr_equal(p, mem + 2000);
	/* shared, in a list, from a pool: refused */
	assert_doca_ok(doca_buf_inc_refcount(buf, NULL));
	assert_doca_err(doca_buf_inventory_buf_reuse_by_addr(buf, mem, 8),
	                DOCA_ERROR_NOT_PERMITTED);
	assert_doca_ok(doca_buf_dec_refcount(buf, NULL));
	assert_doca_ok(doca_buf_inventory_buf_get_by_addr(inv, mmap, mem + 64, 64, &list));
	assert_doca_ok(doca_buf_inventory_buf_get_by_addr(inv, mmap, mem + 128, 64, &other));
	assert_doca_ok(doca_buf_chain_list(list, other));
	assert_doca_err(doca_buf_inventory_buf_reuse_by_addr(list, mem, 8),
	                DOCA_ERROR_NOT_PERMITTED);
	assert_doca_ok(doca_buf_dec_refcount(list, NULL));
	assert_doca_ok(doca_buf_pool_create(1, 64, mmap, &pool));
	assert_doca_ok(doca_buf_pool_start(pool));
	assert_doca_ok(doca_buf_pool_buf_alloc(pool, &other));
	assert_doca_err(doca_buf_inventory_buf_reuse_by_addr(other, mem, 8),
	                DOCA_ERROR_NOT_PERMITTED);
	assert_doca_ok(doca_buf_dec_refcount(other, NULL));
	assert_doca_ok(doca_buf_pool_destroy(pool));
	assert_doca_err(doca_buf_inventory_buf_reuse_by_addr(NULL, mem, 8),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_buf_dec_refcount(buf, NULL));
	assert_int_equal(free_elements(), free_before);
}

/* A CPU buffer array: elements laid end to end in the mmap from the offset,
 * each found by index; the layout is checked at start, the mmap is held
 * while the array is started, and the GPU/DPA targets are refused. */
static void test_buf_array(void **state)
{
	struct doca_buf_arr *arr;
	struct doca_mmap *unstarted;
	void *addr;
	size_t len;
	uint32_t bufs;

	(void)state;
	assert_doca_ok(doca_buf_arr_create(16, &arr));
	/* no parameters yet */
	assert_doca_err(doca_buf_arr_start(arr), DOCA_ERROR_BAD_STATE);
	assert_doca_err(softdoca_buf_arr_get_elem(arr, 0, &addr, &len), DOCA_ERROR_BAD_STATE);
	/* 16 x 256 bytes from offset 64 do not fit in 4096 bytes */
	assert_doca_ok(doca_buf_arr_set_params(arr, mmap, 256, 64));
	assert_doca_err(doca_buf_arr_start(arr), DOCA_ERROR_INVALID_VALUE);
	/* an offset past the end, and a size whose product overflows */
	assert_doca_ok(doca_buf_arr_set_params(arr, mmap, 1, sizeof(mem) + 1));
	assert_doca_err(doca_buf_arr_start(arr), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_buf_arr_set_params(arr, mmap, SIZE_MAX / 8, 0));
	assert_doca_err(doca_buf_arr_start(arr), DOCA_ERROR_INVALID_VALUE);
	/* an mmap that is not started */
	assert_doca_ok(doca_mmap_create(&unstarted));
	assert_doca_ok(doca_buf_arr_set_params(arr, unstarted, 16, 0));
	assert_doca_err(doca_buf_arr_start(arr), DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_mmap_destroy(unstarted));
	/* 16 x 240 bytes from offset 256: exactly to the end */
	assert_doca_ok(doca_buf_arr_set_params(arr, mmap, 240, 256));
	assert_doca_ok(doca_buf_arr_start(arr));
	assert_doca_err(doca_buf_arr_start(arr), DOCA_ERROR_BAD_STATE);
	assert_doca_err(doca_buf_arr_set_params(arr, mmap, 16, 0), DOCA_ERROR_BAD_STATE);
	for (uint64_t i = 0; i < 16; i++) {
		assert_doca_ok(softdoca_buf_arr_get_elem(arr, i, &addr, &len));
		assert_ptr_equal(addr, mem + 256 + i * 240);
		assert_int_equal(len, 240);
		memset(addr, (int)i, len);
	}
	assert_int_equal(mem[256 + 15 * 240 + 239], 15);
	assert_doca_ok(softdoca_buf_arr_get_elem(arr, 3, &addr, NULL));
	assert_doca_err(softdoca_buf_arr_get_elem(arr, 16, &addr, &len), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(softdoca_buf_arr_get_elem(arr, 0, NULL, &len), DOCA_ERROR_INVALID_VALUE);
	/* the started array holds the mmap */
	assert_doca_ok(doca_mmap_get_num_bufs(mmap, &bufs));
	assert_int_equal(bufs, 1);
	assert_doca_err(doca_mmap_stop(mmap), DOCA_ERROR_NOT_PERMITTED);
	assert_doca_err(doca_mmap_destroy(mmap), DOCA_ERROR_IN_USE);
	/* no GPU; a DPA target is set while stopped, its handle needs one */
	assert_doca_err(doca_buf_arr_set_target_gpu(arr, NULL), DOCA_ERROR_NOT_SUPPORTED);
	assert_doca_err(doca_buf_arr_set_target_dpa(arr, NULL), DOCA_ERROR_INVALID_VALUE);
	{
		struct doca_gpu_buf_arr *gpu;
		doca_dpa_dev_buf_arr_t dpa;

		assert_doca_err(doca_buf_arr_get_gpu_handle(arr, &gpu), DOCA_ERROR_NOT_SUPPORTED);
		assert_doca_err(doca_buf_arr_get_dpa_handle(arr, &dpa), DOCA_ERROR_BAD_STATE);
	}
	assert_doca_ok(doca_buf_arr_stop(arr));
	assert_doca_err(doca_buf_arr_stop(arr), DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_mmap_get_num_bufs(mmap, &bufs));
	assert_int_equal(bufs, 0);
	/* started again, then destroyed without a stop: the mmap is let go */
	assert_doca_ok(doca_buf_arr_start(arr));
	assert_doca_ok(doca_buf_arr_destroy(arr));
	assert_doca_ok(doca_mmap_get_num_bufs(mmap, &bufs));
	assert_int_equal(bufs, 0);
	/* bad input */
	assert_doca_err(doca_buf_arr_create(0, &arr), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_buf_arr_create(4, NULL), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_buf_arr_start(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_buf_arr_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_buf_arr_create(1, &arr));
	assert_doca_err(doca_buf_arr_set_params(arr, NULL, 8, 0), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_buf_arr_set_params(arr, mmap, 0, 0), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_buf_arr_destroy(arr));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_head_and_data),
		cmocka_unit_test(test_inline_getters),
		cmocka_unit_test(test_range_checks),
		cmocka_unit_test(test_refcount),
		cmocka_unit_test(test_refcount_limit),
		cmocka_unit_test(test_inventory_exhaustion),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_dup),
		cmocka_unit_test(test_inventory_states),
		cmocka_unit_test(test_unstarted_mmap),
		cmocka_unit_test(test_remote_buffers),
		cmocka_unit_test(test_pool),
		cmocka_unit_test(test_reuse),
		cmocka_unit_test(test_buf_array),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
