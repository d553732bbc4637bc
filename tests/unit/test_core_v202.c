/*
 * Unit tests: the DOCA 2.2 forms of the Core calls (built with
 * SOFTDOCA_API_VERSION=202, as a DOCA 2.2 program is): buffer, list and
 * inventory names, mmap creation with user data, device lists, buffer arrays
 * in their DOCA 2.5 form (which 2.2 programs see), and the 2.2 log API (its macros, backends,
 * limits and rate-limited messages).
 */
#include <stdio.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_array.h>
#include <doca_buf_inventory.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <softdoca.h>

#include "unit/testing.h"

DOCA_LOG_REGISTER(TEST::CORE_V22);

#define MAX_LINES 64

static char log_buf[512];
static char lines[MAX_LINES][512];
static int num_lines;

static void flush_line(char *line)
{
	if (num_lines < MAX_LINES)
		snprintf(lines[num_lines++], sizeof(lines[0]), "%s", line);
}

static int count_lines(const char *needle)
{
	int n = 0;

	for (int i = 0; i < num_lines; i++)
		n += strstr(lines[i], needle) != NULL;
	return n;
}

static void test_device_list(void **state)
{
	struct doca_devinfo **list;
	uint32_t n;
	uint8_t v = 1;

	(void)state;
	assert_doca_ok(doca_devinfo_list_create(&list, &n));
	assert_true(n > 0);
	assert_doca_ok(doca_devinfo_get_is_hotplug_manager_supported(list[0], &v));
	assert_int_equal(v, 0);
	assert_doca_ok(doca_devinfo_get_is_mmap_export_dpu_supported(list[0], &v));
	assert_int_equal(v, 0);
	assert_doca_ok(doca_devinfo_rep_get_is_list_all_supported(list[0], &v));
	assert_int_equal(v, 0);
	assert_doca_ok(doca_devinfo_list_destroy(list));
}

static void test_mmap_inventory_and_bufs(void **state)
{
	struct doca_dev *dev = open_loopback_dev();
	union doca_data ud = { .u64 = 42 }, got;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
	struct doca_buf *a, *b, *next;
	char mem[256];
	uint32_t num;
	uint16_t refs;
	bool flag;
	const void *desc;
	size_t desc_len, data_len;

	(void)state;
	assert_doca_ok(doca_mmap_create(&ud, &mmap));
	assert_doca_ok(doca_mmap_get_user_data(mmap, &got));
	assert_int_equal(got.u64, 42);
	assert_doca_ok(doca_mmap_set_memrange(mmap, mem, sizeof(mem)));
	assert_doca_ok(doca_mmap_set_permissions(mmap, DOCA_ACCESS_LOCAL_READ_WRITE));
	assert_doca_ok(doca_mmap_dev_add(mmap, dev));
	assert_doca_err(doca_mmap_set_dmabuf_memrange(mmap, 3, 0, 16), DOCA_ERROR_NOT_SUPPORTED);
	assert_doca_ok(doca_mmap_start(mmap));
	assert_doca_err(doca_mmap_export_dpu(mmap, dev, &desc, &desc_len),
	                DOCA_ERROR_NOT_SUPPORTED);

	/* Only DOCA_BUF_EXTENSION_NONE exists. */
	assert_doca_err(doca_buf_inventory_create(NULL, 4, 1, &inv), DOCA_ERROR_INVALID_VALUE);
	ud.u64 = 7;
	assert_doca_ok(doca_buf_inventory_create(&ud, 4, DOCA_BUF_EXTENSION_NONE, &inv));
	assert_doca_ok(doca_buf_inventory_get_user_data(inv, &got));
	assert_int_equal(got.u64, 7);
	assert_doca_ok(doca_buf_inventory_start(inv));
	assert_doca_ok(doca_buf_inventory_buf_by_data(inv, mmap, mem, 16, &a));
	assert_doca_ok(doca_buf_get_data_len(a, &data_len));
	assert_int_equal(data_len, 16);
	assert_doca_ok(doca_buf_inventory_buf_by_addr(inv, mmap, mem + 16, 16, &b));
	assert_doca_ok(doca_buf_get_data_len(b, &data_len));
	assert_int_equal(data_len, 0);

	assert_doca_ok(doca_buf_refcount_add(a, &refs));
	assert_int_equal(refs, 1);
	assert_doca_ok(doca_buf_refcount_rm(a, &refs));
	assert_int_equal(refs, 2);

	assert_doca_ok(doca_buf_list_chain(a, b));
	assert_doca_ok(doca_buf_list_num_elements(a, &num));
	assert_int_equal(num, 2);
	assert_doca_ok(doca_buf_list_next(a, &next));
	assert_ptr_equal(next, b);
	assert_doca_ok(doca_buf_list_last(a, &next));
	assert_ptr_equal(next, b);
	assert_doca_ok(doca_buf_list_is_first(a, &flag));
	assert_true(flag);
	assert_doca_ok(doca_buf_list_is_last(a, &flag));
	assert_false(flag);
	assert_doca_ok(doca_buf_list_unchain(a, b));
	assert_doca_ok(doca_buf_list_is_last(a, &flag));
	assert_true(flag);

	assert_doca_ok(doca_buf_refcount_rm(a, NULL));
	assert_doca_ok(doca_buf_refcount_rm(b, NULL));
	assert_doca_ok(doca_buf_inventory_stop(inv));
	assert_doca_ok(doca_buf_inventory_destroy(inv));
	assert_doca_ok(doca_mmap_stop(mmap));
	assert_doca_ok(doca_mmap_dev_rm(mmap, dev));
	assert_doca_ok(doca_mmap_destroy(mmap));
	assert_doca_ok(doca_dev_close(dev));
}

/* A buffer array as DOCA 2.5 (and so 2.2) programs make one: the mmap at
 * creation, the element size, count and offset with the parameters. */
static void test_buf_array_v25_form(void **state)
{
	struct doca_dev *dev = open_loopback_dev();
	struct doca_buf_arr *arr;
	struct doca_mmap *mmap;
	struct doca_dpa_dev_buf_arr *dpa;
	char mem[512];
	void *addr;
	size_t len;

	(void)state;
	assert_doca_ok(doca_mmap_create(NULL, &mmap));
	assert_doca_ok(doca_mmap_set_memrange(mmap, mem, sizeof(mem)));
	assert_doca_ok(doca_mmap_dev_add(mmap, dev));
	assert_doca_ok(doca_mmap_start(mmap));
	assert_doca_ok(doca_buf_arr_create(mmap, &arr));
	assert_doca_ok(doca_buf_arr_set_params(arr, 64, 9, 0));
	assert_doca_err(doca_buf_arr_start(arr), DOCA_ERROR_INVALID_VALUE); /* 9 x 64 > 512 */
	assert_doca_ok(doca_buf_arr_set_params(arr, 64, 4, 128));
	assert_doca_ok(doca_buf_arr_start(arr));
	assert_doca_ok(softdoca_buf_arr_get_elem(arr, 3, &addr, &len));
	assert_ptr_equal(addr, mem + 128 + 3 * 64);
	assert_int_equal(len, 64);
	assert_doca_err(softdoca_buf_arr_get_elem(arr, 4, &addr, &len), DOCA_ERROR_INVALID_VALUE);
	/* A DPA handle is for an array whose target is a DPA (not set here). */
	assert_doca_err(doca_buf_arr_get_dpa_handle(arr, &dpa), DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_buf_arr_stop(arr));
	assert_doca_ok(doca_buf_arr_destroy(arr));
	assert_doca_err(doca_buf_arr_create(NULL, &arr), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_buf_arr_set_params(NULL, 64, 1, 0), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_mmap_stop(mmap));
	assert_doca_ok(doca_mmap_destroy(mmap));
	assert_doca_ok(doca_dev_close(dev));
}

static void test_log(void **state)
{
	struct doca_logger_backend *backend;

	(void)state;
	assert_doca_ok(
	        doca_log_create_buffer_backend(log_buf, sizeof(log_buf), flush_line, &backend));
	DOCA_LOG_INFO("info %d", 1);
	DOCA_LOG_DBG("debug %d", 2);
	assert_int_equal(count_lines("info 1"), 1);
	assert_int_equal(count_lines("debug 2"), 0);
	/* DOCA 2.2 logs no file name: the source's name stands in for it. */
	assert_non_null(strstr(lines[0], "[TEST::CORE_V22:"));

	assert_doca_ok(doca_log_backend_level_set(backend, DOCA_LOG_LEVEL_DEBUG));
	DOCA_LOG_DBG("debug %d", 3);
	assert_int_equal(count_lines("debug 3"), 1);
	assert_doca_ok(doca_log_global_level_set(DOCA_LOG_LEVEL_ERROR));
	assert_int_equal(doca_log_global_level_get(), DOCA_LOG_LEVEL_ERROR);
	assert_doca_ok(doca_log_global_level_set(DOCA_LOG_LEVEL_INFO));

	/* At most `quantity` messages per bucket in a bucket time. */
	doca_log_set_quantity(3);
	doca_log_set_bucket_time(3600);
	assert_int_equal(doca_log_get_quantity(), 3);
	assert_int_equal(doca_log_get_bucket_time(), 3600);
	for (int i = 0; i < 10; i++)
		DOCA_LOG_RATE_LIMIT_INFO("limited");
	assert_int_equal(count_lines("limited"), 3);

	/* Developer messages are compiled out without DOCA_LOGGING_ALLOW_DLOG. */
	DOCA_DLOG_ERR("developer");
	assert_int_equal(count_lines("developer"), 0);
	assert_doca_ok(doca_log_developer(DOCA_LOG_LEVEL_ERROR, log_source, __LINE__, "dev %d", 4));
	assert_int_equal(count_lines("dev 4"), 1);
	assert_doca_err(doca_log_rate_limit(DOCA_LOG_LEVEL_INFO, log_source, 1, 1 << 20, "x"),
	                DOCA_ERROR_INVALID_VALUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_device_list),
		cmocka_unit_test(test_mmap_inventory_and_bufs),
		cmocka_unit_test(test_buf_array_v25_form),
		cmocka_unit_test(test_log),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
