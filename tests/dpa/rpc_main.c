/*
 * softdoca tests: the host part of the RPC program built by the dpacc
 * stand-in from two device sources (rpc_kernels_a.c, rpc_kernels_b.c):
 * RPCs with integers, pointers, handles and a struct by value return their
 * values and change device memory the host copies in and out.
 */
#include <stdio.h>
#include <string.h>

#include "unit/testing.h"

#include <doca_dpa.h>

#include "rpc_common.h"

extern struct doca_dpa_app *rpc_test_app;
doca_dpa_func_t rpc_add;
doca_dpa_func_t rpc_fill;
doca_dpa_func_t rpc_struct;
doca_dpa_func_t rpc_static;
doca_dpa_func_t rpc_sum;
doca_dpa_func_t rpc_rank;
doca_dpa_func_t kernel_noop;

/* Named like the device helper of rpc_kernels_a.c. */
uint64_t helper(uint64_t v);
uint64_t helper(uint64_t v)
{
	return v + 1;
}

static struct doca_dev *dev;
static struct doca_dpa *dpa;

static int setup(void **state)
{
	(void)state;
	dev = open_loopback_dev();
	assert_doca_ok(doca_dpa_create(dev, &dpa));
	assert_doca_ok(doca_dpa_set_app(dpa, rpc_test_app));
	assert_doca_ok(doca_dpa_start(dpa));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	assert_doca_ok(doca_dpa_stop(dpa));
	assert_doca_ok(doca_dpa_destroy(dpa));
	assert_doca_ok(doca_dev_close(dev));
	return 0;
}

static void test_name(void **state)
{
	(void)state;
	char name[64];
	uint32_t len = sizeof(name);
	assert_doca_ok(doca_dpa_app_get_name(rpc_test_app, name, &len));
	assert_string_equal(name, "rpc_test_app");
}

static void test_integers(void **state)
{
	(void)state;
	uint64_t ret = 0;
	/* The device log line goes to stdout (the ctest checks it). */
	assert_doca_ok(doca_dpa_rpc(dpa, &rpc_add, &ret, -5, (int64_t)1 << 40, (unsigned char)200,
	                            (short)-3));
	assert_int_equal(ret, (uint64_t)(-5 + ((int64_t)1 << 40) + 200 - 3));
	assert_doca_ok(doca_dpa_rpc(dpa, &rpc_static, &ret, (uint64_t)0x1234));
	assert_int_equal(ret, ~(uint64_t)0x1234);
	assert_doca_ok(doca_dpa_rpc(dpa, &rpc_rank, &ret));
	assert_int_equal(ret, 1); /* rank 0 of 1 */
	/* Device and host helpers stayed apart. */
	assert_int_equal(helper(1), 2);
}

static void test_memory(void **state)
{
	(void)state;
	doca_dpa_dev_uintptr_t buf;
	uint8_t in[64], out[64];
	uint64_t ret = 0, expect = 0;

	assert_doca_ok(doca_dpa_mem_alloc(dpa, sizeof(in), &buf));
	for (size_t i = 0; i < sizeof(in); i++) {
		in[i] = (uint8_t)(i * 3);
		expect += in[i];
	}
	assert_doca_ok(doca_dpa_h2d_memcpy(dpa, buf, in, sizeof(in)));
	assert_doca_ok(doca_dpa_rpc(dpa, &rpc_sum, &ret, buf, sizeof(in), (uint64_t)7));
	assert_int_equal(ret, expect + ((uint64_t)7 << 32));

	assert_doca_ok(doca_dpa_rpc(dpa, &rpc_fill, &ret, buf + 8, (uint32_t)16, (uint8_t)100));
	assert_int_equal(ret, 32); /* the device helper: 16 * 2 */
	assert_doca_ok(doca_dpa_d2h_memcpy(dpa, out, buf, sizeof(out)));
	assert_memory_equal(out, in, 8);
	for (int i = 0; i < 16; i++)
		assert_int_equal(out[8 + i], 100 + i);
	assert_memory_equal(out + 24, in + 24, sizeof(in) - 24);
	assert_doca_ok(doca_dpa_mem_free(dpa, buf));
}

static void test_struct(void **state)
{
	(void)state;
	struct rpc_args args = { .a = 10, .b = 1000, .c = { 1, 2, 3 }, .tag = 0xfeedull << 40 };
	doca_dpa_dev_uintptr_t res_dev;
	struct rpc_result res;
	doca_dpa_dev_t handle;
	uint64_t ret = 0;

	assert_doca_ok(doca_dpa_get_dpa_handle(dpa, &handle));
	assert_doca_ok(doca_dpa_mem_alloc(dpa, sizeof(res), &res_dev));
	assert_doca_ok(doca_dpa_memset(dpa, res_dev, 0, sizeof(res)));
	assert_doca_ok(doca_dpa_rpc(dpa, &rpc_struct, &ret, args, 2.5f,
	                            (struct rpc_result *)(uintptr_t)res_dev, handle));
	assert_int_equal(ret, 0xfeedull << 40);
	assert_doca_ok(doca_dpa_d2h_memcpy(dpa, &res, res_dev, sizeof(res)));
	assert_int_equal(res.sum, 1016);
	assert_int_equal(res.scaled, 25);
	assert_int_equal(res.handle, handle);
	assert_doca_ok(doca_dpa_peek_at_last_error(dpa));
	assert_doca_ok(doca_dpa_mem_free(dpa, res_dev));
}

static void test_wrong_kind(void **state)
{
	(void)state;
	uint64_t ret;
	assert_doca_err(doca_dpa_rpc(dpa, &kernel_noop, &ret, (uint64_t)1),
	                DOCA_ERROR_INVALID_VALUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name),       cmocka_unit_test(test_integers),
		cmocka_unit_test(test_memory),     cmocka_unit_test(test_struct),
		cmocka_unit_test(test_wrong_kind),
	};
	int rc = cmocka_run_group_tests(tests, setup, teardown);
	fflush(stdout);
	return rc;
}
