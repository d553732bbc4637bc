/*
 * softdoca tests: DOCA 2.5's forms of the DPA host calls (built with
 * SOFTDOCA_API_VERSION=205): the app given at create, doca_dpa_app_name_get
 * with a size_t length, doca_devinfo_get_is_dpa_supported.
 */
#include <string.h>

#include "unit/testing.h"

#include <doca_dpa.h>
#include <softdoca_dpa_app.h>

static uint64_t rpc_seven(void)
{
	return 7;
}

static void none_pack(va_list *ap, void *frame)
{
	(void)ap;
	(void)frame;
}

static uint64_t rpc_seven_call(const void *frame)
{
	(void)frame;
	return rpc_seven();
}

static const struct softdoca_dpa_kernel kernels[] = {
	{ "rpc_seven", SOFTDOCA_DPA_KERNEL_RPC, 0, (void (*)(void))rpc_seven, 1, 1, none_pack,
	  rpc_seven_call },
};
static const struct softdoca_dpa_kernel_table tables[] = { { "v205.c", kernels, 1 } };
static const struct softdoca_dpa_app_image image = { SOFTDOCA_DPA_APP_MAGIC,
	                                             SOFTDOCA_DPA_APP_LAYOUT, 1, "v205_app",
	                                             tables };
#define APP ((struct doca_dpa_app *)(void *)&image)

static void test_v205(void **state)
{
	(void)state;
	struct doca_dev *dev = open_loopback_dev();
	struct doca_dpa *dpa;
	char name[16];
	size_t len = sizeof(name);
	uint64_t ret = 0;

	assert_doca_ok(doca_devinfo_get_is_dpa_supported(doca_dev_as_devinfo(dev)));
	assert_doca_err(doca_dpa_create(dev, NULL, &dpa), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_dpa_create(dev, APP, &dpa));
	assert_doca_ok(doca_dpa_app_name_get(APP, name, &len));
	assert_string_equal(name, "v205_app");
	assert_int_equal(len, 9);
	assert_doca_ok(doca_dpa_start(dpa));
	assert_doca_ok(doca_dpa_rpc(dpa, (doca_dpa_func_t *)rpc_seven, &ret));
	assert_int_equal(ret, 7);
	assert_doca_ok(doca_dpa_destroy(dpa));
	assert_doca_ok(doca_dev_close(dev));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v205),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
