/*
 * softdoca tests: libdoca_dpa's host side (context, program, limits, EU
 * affinities, memory, RPC, last error) with a hand-made program image, so
 * it does not depend on dpacc (tests/dpa builds real ones).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit/testing.h"

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_dpa.h>
#include <doca_dpa_dev.h>
#include <doca_mmap.h>
#include <softdoca_dpa_app.h>

/* Two RPCs and a kernel, with what dpacc would generate for them. */
struct pair {
	uint32_t a;
	uint16_t b;
};

static uint64_t rpc_sum(int x, struct pair p, uint64_t *out)
{
	*out = (uint64_t)x * 1000 + p.a + p.b;
	DOCA_DPA_DEV_LOG_DBG("rpc_sum %d\n", x);
	return *out + doca_dpa_dev_num_threads() + doca_dpa_dev_thread_rank();
}

struct rpc_sum_frame {
	int x;
	struct pair p;
	uint64_t *out;
};

static void rpc_sum_pack(va_list *ap, void *frame)
{
	struct rpc_sum_frame *f = frame;
	f->x = va_arg(*ap, int);
	f->p = va_arg(*ap, struct pair);
	f->out = va_arg(*ap, uint64_t *);
}

static uint64_t rpc_sum_call(const void *frame)
{
	const struct rpc_sum_frame *f = frame;
	return rpc_sum(f->x, f->p, f->out);
}

static uint64_t rpc_bad(void)
{
	doca_dpa_dev_thread_finish(); /* thread-only: aborts the RPC */
}

static void rpc_none_pack(va_list *ap, void *frame)
{
	(void)ap;
	(void)frame;
}

static uint64_t rpc_bad_call(const void *frame)
{
	(void)frame;
	return rpc_bad();
}

static uint64_t rpc_trace(void)
{
	doca_dpa_dev_trace(1, 2, 3, 0xabc, UINT64_MAX);
	doca_dpa_dev_trace_flush();
	return 0;
}

static uint64_t rpc_trace_call(const void *frame)
{
	(void)frame;
	return rpc_trace();
}

static void kernel(void)
{
}

static uint64_t kernel_call(const void *frame)
{
	(void)frame;
	kernel();
	return 0;
}

static const struct softdoca_dpa_kernel kernels[] = {
	{ "rpc_sum", SOFTDOCA_DPA_KERNEL_RPC, 3, (void (*)(void))rpc_sum,
	  sizeof(struct rpc_sum_frame), _Alignof(struct rpc_sum_frame), rpc_sum_pack,
	  rpc_sum_call },
	{ "rpc_bad", SOFTDOCA_DPA_KERNEL_RPC, 0, (void (*)(void))rpc_bad, 1, 1, rpc_none_pack,
	  rpc_bad_call },
	{ "kernel", SOFTDOCA_DPA_KERNEL_GLOBAL, 0, kernel, 1, 1, rpc_none_pack, kernel_call },
	{ "rpc_trace", SOFTDOCA_DPA_KERNEL_RPC, 0, (void (*)(void))rpc_trace, 1, 1, rpc_none_pack,
	  rpc_trace_call },
};
static const struct softdoca_dpa_kernel_table tables[] = { { "test.c", kernels, 4 } };
static const struct softdoca_dpa_app_image image = { SOFTDOCA_DPA_APP_MAGIC,
	                                             SOFTDOCA_DPA_APP_LAYOUT, 1, "test_app",
	                                             tables };
#define APP ((struct doca_dpa_app *)(void *)&image)

struct fixture {
	struct doca_dev *dev;
	struct doca_dpa *dpa;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	f->dev = open_loopback_dev();
	assert_doca_ok(doca_dpa_create(f->dev, &f->dpa));
	*state = f;
	return 0;
}

static int setup_started(void **state)
{
	setup(state);
	struct fixture *f = *state;
	assert_doca_ok(doca_dpa_set_app(f->dpa, APP));
	assert_doca_ok(doca_dpa_start(f->dpa));
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	assert_doca_ok(doca_dpa_destroy(f->dpa));
	assert_doca_ok(doca_dev_close(f->dev));
	free(f);
	return 0;
}

static void test_lifecycle(void **state)
{
	struct fixture *f = *state;
	struct doca_dpa_app *app;
	char name[32];
	uint32_t len = sizeof(name);

	assert_doca_ok(doca_dpa_cap_is_supported(doca_dev_as_devinfo(f->dev)));
	assert_doca_err(doca_dpa_cap_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_dpa_get_app(f->dpa, &app), DOCA_ERROR_BAD_STATE);
	assert_doca_err(doca_dpa_start(f->dpa), DOCA_ERROR_BAD_STATE); /* no program */
	assert_doca_ok(doca_dpa_set_app(f->dpa, APP));
	assert_doca_ok(doca_dpa_get_app(f->dpa, &app));
	assert_ptr_equal(app, APP);
	assert_doca_ok(doca_dpa_app_get_name(app, name, &len));
	assert_string_equal(name, "test_app");
	assert_int_equal(len, 9);
	len = 4;
	assert_doca_err(doca_dpa_app_get_name(app, name, &len), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(len, 9);

	doca_dpa_dev_t handle;
	assert_doca_err(doca_dpa_get_dpa_handle(f->dpa, &handle), DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_dpa_start(f->dpa));
	assert_doca_err(doca_dpa_start(f->dpa), DOCA_ERROR_BAD_STATE);
	assert_doca_err(doca_dpa_set_app(f->dpa, APP), DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_dpa_get_dpa_handle(f->dpa, &handle));
	assert_int_not_equal(handle, 0);
	assert_doca_ok(doca_dpa_peek_at_last_error(f->dpa));
	assert_doca_ok(doca_dpa_stop(f->dpa));
	assert_doca_err(doca_dpa_stop(f->dpa), DOCA_ERROR_BAD_STATE);
	/* The device keeps a use while the DPA exists. */
	assert_doca_err(doca_dev_close(f->dev), DOCA_ERROR_IN_USE);
}

static void test_bad_image(void **state)
{
	struct fixture *f = *state;
	struct softdoca_dpa_app_image bad = image;
	bad.magic = 1;
	assert_doca_err(doca_dpa_set_app(f->dpa, (struct doca_dpa_app *)(void *)&bad),
	                DOCA_ERROR_INVALID_VALUE);
	bad = image;
	bad.layout = 99;
	assert_doca_err(doca_dpa_set_app(f->dpa, (struct doca_dpa_app *)(void *)&bad),
	                DOCA_ERROR_UNSUPPORTED_VERSION);
	assert_doca_err(doca_dpa_set_app(f->dpa, NULL), DOCA_ERROR_INVALID_VALUE);
}

static void test_limits(void **state)
{
	struct fixture *f = *state;
	unsigned int v;
	unsigned long long t;

	assert_doca_ok(doca_dpa_get_core_num(f->dpa, &v));
	assert_int_equal(v, 16);
	assert_doca_ok(doca_dpa_get_num_eus_per_core(f->dpa, &v));
	assert_int_equal(v, 16);
	assert_doca_ok(doca_dpa_get_total_num_eus_available(f->dpa, &v));
	assert_int_equal(v, 254);
	assert_doca_ok(doca_dpa_get_max_threads_per_kernel(f->dpa, &v));
	assert_int_equal(v, 254);
	assert_doca_ok(doca_dpa_get_kernel_max_run_time(f->dpa, &t));
	assert_int_equal(t, 5);
	assert_doca_err(doca_dpa_get_core_num(f->dpa, NULL), DOCA_ERROR_INVALID_VALUE);
}

static void test_limits_env(void **state)
{
	(void)state;
	struct doca_dev *dev = open_loopback_dev();
	struct doca_dpa *dpa;
	unsigned int v;
	unsigned long long t;

	setenv("SOFTDOCA_DPA_EUS", "8", 1);
	setenv("SOFTDOCA_DPA_KERNEL_MAX_RUN_S", "30", 1);
	assert_doca_ok(doca_dpa_create(dev, &dpa));
	unsetenv("SOFTDOCA_DPA_EUS");
	unsetenv("SOFTDOCA_DPA_KERNEL_MAX_RUN_S");
	assert_doca_ok(doca_dpa_get_total_num_eus_available(dpa, &v));
	assert_int_equal(v, 8);
	assert_doca_ok(doca_dpa_get_kernel_max_run_time(dpa, &t));
	assert_int_equal(t, 30);
	assert_doca_ok(doca_dpa_destroy(dpa));
	assert_doca_ok(doca_dev_close(dev));
}

static void test_log_settings(void **state)
{
	struct fixture *f = *state;
	doca_dpa_dev_log_level_t level;
	char path[64];
	uint32_t len = sizeof(path);

	assert_doca_ok(doca_dpa_get_log_level(f->dpa, &level));
	assert_int_equal(level, DOCA_DPA_DEV_LOG_LEVEL_INFO);
	assert_doca_ok(doca_dpa_set_log_level(f->dpa, DOCA_DPA_DEV_LOG_LEVEL_DEBUG));
	assert_doca_ok(doca_dpa_get_log_level(f->dpa, &level));
	assert_int_equal(level, DOCA_DPA_DEV_LOG_LEVEL_DEBUG);
	assert_doca_err(doca_dpa_set_log_level(f->dpa, (doca_dpa_dev_log_level_t)35),
	                DOCA_ERROR_INVALID_VALUE);

	assert_doca_ok(doca_dpa_log_file_get_path(f->dpa, path, &len));
	assert_string_equal(path, "");
	assert_doca_err(doca_dpa_log_file_set_path(f->dpa, ""), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_dpa_log_file_set_path(f->dpa, "/tmp/x.log"));
	len = sizeof(path);
	assert_doca_ok(doca_dpa_log_file_get_path(f->dpa, path, &len));
	assert_string_equal(path, "/tmp/x.log");
	assert_int_equal(len, 11);
	len = 3;
	assert_doca_err(doca_dpa_log_file_get_path(f->dpa, path, &len), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_dpa_trace_file_set_path(f->dpa, "/tmp/y.trace"));
	len = sizeof(path);
	assert_doca_ok(doca_dpa_trace_file_get_path(f->dpa, path, &len));
	assert_string_equal(path, "/tmp/y.trace");
}

/* The device log goes to the file set before start, filtered by level. */
static void test_log_file(void **state)
{
	struct fixture *f = *state;
	char path[] = "/tmp/test_dpa_logXXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	uint64_t out, ret;
	struct pair p = { 1, 2 };

	assert_doca_ok(doca_dpa_set_app(f->dpa, APP));
	assert_doca_ok(doca_dpa_log_file_set_path(f->dpa, path));
	assert_doca_ok(doca_dpa_start(f->dpa));
	assert_doca_err(doca_dpa_log_file_set_path(f->dpa, path), DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_dpa_rpc(f->dpa, (doca_dpa_func_t *)rpc_sum, &ret, 7, p, &out));
	assert_doca_ok(doca_dpa_set_log_level(f->dpa, DOCA_DPA_DEV_LOG_LEVEL_DEBUG));
	assert_doca_ok(doca_dpa_rpc(f->dpa, (doca_dpa_func_t *)rpc_sum, &ret, 8, p, &out));
	assert_doca_ok(doca_dpa_stop(f->dpa));

	char text[128] = { 0 };
	assert_true(read(fd, text, sizeof(text) - 1) >= 0);
	close(fd);
	unlink(path);
	assert_string_equal(text, "rpc_sum 8\n"); /* the INFO-level run printed nothing */
}

/* Trace lines go to the trace file: the five values in hex. */
static void test_trace_file(void **state)
{
	struct fixture *f = *state;
	char path[] = "/tmp/test_dpa_traceXXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	uint64_t ret;

	assert_doca_ok(doca_dpa_set_app(f->dpa, APP));
	assert_doca_ok(doca_dpa_trace_file_set_path(f->dpa, path));
	assert_doca_ok(doca_dpa_start(f->dpa));
	assert_doca_ok(doca_dpa_rpc(f->dpa, (doca_dpa_func_t *)rpc_trace, &ret));
	assert_doca_ok(doca_dpa_stop(f->dpa));

	char text[128] = { 0 };
	assert_true(read(fd, text, sizeof(text) - 1) >= 0);
	close(fd);
	unlink(path);
	assert_string_equal(text, "0x1 0x2 0x3 0xabc 0xffffffffffffffff\n");
}

static void test_affinity(void **state)
{
	struct fixture *f = *state;
	struct doca_dpa_eu_affinity *aff;
	unsigned int eu;

	assert_doca_ok(doca_dpa_eu_affinity_create(f->dpa, &aff));
	assert_doca_err(doca_dpa_eu_affinity_get(aff, &eu), DOCA_ERROR_NOT_FOUND);
	assert_doca_ok(doca_dpa_eu_affinity_set(aff, 253));
	assert_doca_ok(doca_dpa_eu_affinity_get(aff, &eu));
	assert_int_equal(eu, 253);
	assert_doca_err(doca_dpa_eu_affinity_set(aff, 254), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_dpa_eu_affinity_clear(aff));
	assert_doca_err(doca_dpa_eu_affinity_get(aff, &eu), DOCA_ERROR_NOT_FOUND);
	assert_doca_err(doca_dpa_destroy(f->dpa), DOCA_ERROR_IN_USE);
	assert_doca_ok(doca_dpa_eu_affinity_destroy(aff));
}

static void test_memory(void **state)
{
	struct fixture *f = *state;
	doca_dpa_dev_uintptr_t p, q;
	uint8_t in[100], out[100];

	for (int i = 0; i < 100; i++)
		in[i] = (uint8_t)i;
	assert_doca_ok(doca_dpa_mem_alloc(f->dpa, 100, &p));
	assert_doca_ok(doca_dpa_mem_alloc(f->dpa, 10, &q));
	assert_int_equal(p % 64, 0);
	assert_doca_ok(doca_dpa_h2d_memcpy(f->dpa, p, in, 100));
	assert_memory_equal((void *)(uintptr_t)p, in, 100); /* identity mapping */
	assert_doca_ok(doca_dpa_memset(f->dpa, p + 10, 0xab, 5));
	assert_doca_ok(doca_dpa_d2h_memcpy(f->dpa, out, p, 100));
	assert_int_equal(out[9], 9);
	assert_int_equal(out[10], 0xab);
	assert_int_equal(out[14], 0xab);
	assert_int_equal(out[15], 15);

	/* Ranges outside one allocation, and frees of what was not allocated. */
	assert_doca_err(doca_dpa_h2d_memcpy(f->dpa, p + 1, in, 100), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_dpa_d2h_memcpy(f->dpa, out, q, 11), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_dpa_memset(f->dpa, (doca_dpa_dev_uintptr_t)(uintptr_t)in, 0, 1),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_dpa_mem_free(f->dpa, p + 8), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_dpa_mem_alloc(f->dpa, 0, &p), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_dpa_mem_free(f->dpa, p));
	assert_doca_err(doca_dpa_mem_free(f->dpa, p), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_dpa_d2h_memcpy(f->dpa, out, p, 1), DOCA_ERROR_INVALID_VALUE);
	/* q is freed by destroy. */
	(void)q;
}

static void test_memory_not_started(void **state)
{
	struct fixture *f = *state;
	doca_dpa_dev_uintptr_t p;
	assert_doca_err(doca_dpa_mem_alloc(f->dpa, 8, &p), DOCA_ERROR_BAD_STATE);
}

static void test_buf_memcpy(void **state)
{
	struct fixture *f = *state;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
	struct doca_buf *buf;
	char mem[64] = "hello, dpa";
	doca_dpa_dev_uintptr_t p;

	assert_doca_ok(doca_mmap_create(&mmap));
	assert_doca_ok(doca_mmap_set_memrange(mmap, mem, sizeof(mem)));
	assert_doca_ok(doca_mmap_add_dev(mmap, f->dev));
	assert_doca_ok(doca_mmap_start(mmap));
	assert_doca_ok(doca_buf_inventory_create(1, &inv));
	assert_doca_ok(doca_buf_inventory_start(inv));
	assert_doca_ok(doca_buf_inventory_buf_get_by_data(inv, mmap, mem, 11, &buf));

	assert_doca_ok(doca_dpa_mem_alloc(f->dpa, 32, &p));
	assert_doca_ok(doca_dpa_h2d_buf_memcpy(f->dpa, p, buf, 11));
	assert_string_equal((char *)(uintptr_t)p, "hello, dpa");
	assert_doca_err(doca_dpa_h2d_buf_memcpy(f->dpa, p, buf, 12), DOCA_ERROR_INVALID_VALUE);
	memcpy((char *)(uintptr_t)p, "HELLO", 5);
	assert_doca_ok(doca_dpa_d2h_buf_memcpy(f->dpa, buf, p, 5));
	assert_string_equal(mem, "HELLO, dpa");
	assert_doca_err(doca_dpa_d2h_buf_memcpy(f->dpa, buf, p, 65), DOCA_ERROR_INVALID_VALUE);

	assert_doca_ok(doca_buf_dec_refcount(buf, NULL));
	assert_doca_ok(doca_buf_inventory_destroy(inv));
	assert_doca_ok(doca_mmap_destroy(mmap));
}

static void test_rpc(void **state)
{
	struct fixture *f = *state;
	uint64_t ret = 0, out = 0;
	struct pair p = { 40, 2 };

	assert_doca_ok(doca_dpa_rpc(f->dpa, (doca_dpa_func_t *)rpc_sum, &ret, 5, p, &out));
	assert_int_equal(out, 5042);
	assert_int_equal(ret, 5043); /* + 1 thread, rank 0 */
	/* Not an RPC, not in the program. */
	assert_doca_err(doca_dpa_rpc(f->dpa, kernel, &ret), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_dpa_rpc(f->dpa, (doca_dpa_func_t *)test_rpc, &ret),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_dpa_peek_at_last_error(f->dpa));
	/* A thread-only call aborts the RPC, which stays the last error. */
	ret = 77;
	assert_doca_err(doca_dpa_rpc(f->dpa, (doca_dpa_func_t *)rpc_bad, &ret),
	                DOCA_ERROR_BAD_STATE);
	assert_int_equal(ret, 77);
	assert_doca_err(doca_dpa_peek_at_last_error(f->dpa), DOCA_ERROR_BAD_STATE);
	assert_doca_err(doca_dpa_peek_at_last_error(f->dpa), DOCA_ERROR_BAD_STATE);
	/* The DPA still serves RPCs. */
	assert_doca_ok(doca_dpa_rpc(f->dpa, (doca_dpa_func_t *)rpc_sum, &ret, 1, p, &out));
	assert_int_equal(out, 1042);
}

static void test_rpc_not_started(void **state)
{
	struct fixture *f = *state;
	uint64_t ret;
	assert_doca_ok(doca_dpa_set_app(f->dpa, APP));
	assert_doca_err(doca_dpa_rpc(f->dpa, (doca_dpa_func_t *)rpc_bad, &ret),
	                DOCA_ERROR_BAD_STATE);
}

static void test_not_built(void **state)
{
	struct fixture *f = *state;
	struct doca_dpa_hash_table *ht;
	assert_doca_err(doca_dpa_hash_table_create(f->dpa, 4, &ht), DOCA_ERROR_NOT_SUPPORTED);
	/* Launches need a started DPA (test_dpa_launch has the rest). */
	assert_doca_err(doca_dpa_kernel_launch_update_set(f->dpa, NULL, 0, NULL, 0, 1, kernel),
	                DOCA_ERROR_BAD_STATE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_lifecycle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_image, setup, teardown),
		cmocka_unit_test_setup_teardown(test_limits, setup, teardown),
		cmocka_unit_test(test_limits_env),
		cmocka_unit_test_setup_teardown(test_log_settings, setup, teardown),
		cmocka_unit_test_setup_teardown(test_log_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trace_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_affinity, setup, teardown),
		cmocka_unit_test_setup_teardown(test_memory, setup_started, teardown),
		cmocka_unit_test_setup_teardown(test_memory_not_started, setup, teardown),
		cmocka_unit_test_setup_teardown(test_buf_memcpy, setup_started, teardown),
		cmocka_unit_test_setup_teardown(test_rpc, setup_started, teardown),
		cmocka_unit_test_setup_teardown(test_rpc_not_started, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_built, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
