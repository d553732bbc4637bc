/*
 * Unit tests: devices from network interfaces, names, addresses, open/close.
 */
#include <arpa/inet.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>

#include <doca_ctx.h>
#include <doca_mmap.h>

#include "unit/testing.h"

static struct doca_devinfo *find(struct doca_devinfo **list, uint32_t n, const char *iface)
{
	for (uint32_t i = 0; i < n; i++) {
		char name[DOCA_DEVINFO_IFACE_NAME_SIZE];

		assert_doca_ok(doca_devinfo_get_iface_name(list[i], name, sizeof(name)));
		if (strcmp(name, iface) == 0)
			return list[i];
	}
	return NULL;
}

static void test_default_list_has_loopback(void **state)
{
	struct doca_devinfo **list;
	struct doca_devinfo *lo;
	uint32_t n;
	char ibdev[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	uint8_t ipv4[4];

	(void)state;
	unsetenv("SOFTDOCA_DEVICES");
	assert_doca_ok(doca_devinfo_create_list(&list, &n));
	assert_true(n >= 1);
	assert_null(list[n]); /* NULL-terminated like a verbs list */
	lo = find(list, n, "lo");
	assert_non_null(lo);
	assert_doca_ok(doca_devinfo_get_ibdev_name(lo, ibdev, sizeof(ibdev)));
	assert_string_equal(ibdev, "sdoca_lo");
	assert_doca_ok(doca_devinfo_get_ipv4_addr(lo, ipv4, sizeof(ipv4)));
	assert_int_equal(ipv4[0], 127);
	assert_int_equal(ipv4[3], 1);
	/* Every listed device has a name with the sdoca_ prefix and an address. */
	for (uint32_t i = 0; i < n; i++) {
		assert_doca_ok(doca_devinfo_get_ibdev_name(list[i], ibdev, sizeof(ibdev)));
		assert_true(strncmp(ibdev, "sdoca_", 6) == 0);
	}
	assert_doca_ok(doca_devinfo_destroy_list(list));
}

static void test_aliases_and_selection(void **state)
{
	struct doca_devinfo **list;
	uint32_t n;
	char ibdev[DOCA_DEVINFO_IBDEV_NAME_SIZE], iface[DOCA_DEVINFO_IFACE_NAME_SIZE];

	(void)state;
	setenv("SOFTDOCA_DEVICES", "mlx5_0=lo, nosuchif0, =lo", 1);
	assert_doca_ok(doca_devinfo_create_list(&list, &n));
	assert_int_equal(n, 1);
	assert_doca_ok(doca_devinfo_get_ibdev_name(list[0], ibdev, sizeof(ibdev)));
	assert_doca_ok(doca_devinfo_get_iface_name(list[0], iface, sizeof(iface)));
	assert_string_equal(ibdev, "mlx5_0");
	assert_string_equal(iface, "lo");
	assert_doca_ok(doca_devinfo_destroy_list(list));

	/* The same interface may appear under two names. */
	setenv("SOFTDOCA_DEVICES", "a=lo,b=lo", 1);
	assert_doca_ok(doca_devinfo_create_list(&list, &n));
	assert_int_equal(n, 2);
	assert_doca_ok(doca_devinfo_get_ibdev_name(list[1], ibdev, sizeof(ibdev)));
	assert_string_equal(ibdev, "b");
	assert_doca_ok(doca_devinfo_destroy_list(list));

	setenv("SOFTDOCA_DEVICES", "nosuchif0", 1);
	assert_doca_ok(doca_devinfo_create_list(&list, &n));
	assert_int_equal(n, 0);
	assert_null(list[0]);
	assert_doca_ok(doca_devinfo_destroy_list(list));
	unsetenv("SOFTDOCA_DEVICES");
}

static void test_getters_and_sizes(void **state)
{
	struct doca_dev *dev = open_loopback_dev();
	struct doca_devinfo *info = doca_dev_as_devinfo(dev);
	char small[4], pci[DOCA_DEVINFO_PCI_ADDR_SIZE];
	uint8_t mac[6], ipv4[4], yes = 9;
	uint16_t u16;
	uint64_t rate;
	uint32_t vectors;

	(void)state;
	assert_non_null(info);
	assert_doca_err(doca_devinfo_get_ibdev_name(info, small, sizeof(small)),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_devinfo_get_iface_name(info, small, sizeof(small)),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_devinfo_get_ipv4_addr(info, ipv4, 3), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_devinfo_get_ipv4_addr(NULL, ipv4, 4), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_devinfo_get_mac_addr(info, mac, 5), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_devinfo_get_mac_addr(info, mac, sizeof(mac)));
	assert_doca_err(doca_devinfo_get_lid(info, &u16), DOCA_ERROR_NOT_SUPPORTED);
	assert_doca_err(doca_devinfo_get_vhca_id(info, &u16), DOCA_ERROR_NOT_SUPPORTED);
	/* DOCA 3.1+ device queries: a physical function, no SF index, the
	 * interface's own index. */
	{
		enum doca_pci_func_type type = DOCA_PCI_FUNC_TYPE_SF;
		uint32_t u32;

		assert_doca_ok(doca_devinfo_get_pci_func_type(info, &type));
		assert_int_equal(type, DOCA_PCI_FUNC_TYPE_PF);
		/* A PF has no SF index to find; the output is left alone. */
		u32 = 77;
		assert_doca_err(doca_devinfo_get_sf_index(info, &u32), DOCA_ERROR_NOT_FOUND);
		assert_int_equal(u32, 77);
		assert_doca_err(doca_devinfo_get_sf_index(info, NULL), DOCA_ERROR_INVALID_VALUE);
		assert_doca_err(doca_devinfo_get_sf_index(NULL, &u32), DOCA_ERROR_INVALID_VALUE);
		assert_doca_ok(doca_devinfo_get_iface_index(info, &u32));
		assert_int_equal(u32, if_nametoindex("lo"));
		assert_doca_err(doca_devinfo_get_pci_func_type(info, NULL),
		                DOCA_ERROR_INVALID_VALUE);
	}
	/* The loopback has no link speed to report. */
	assert_doca_err(doca_devinfo_get_active_rate(info, &rate), DOCA_ERROR_DRIVER);

	assert_doca_ok(doca_devinfo_get_pci_addr_str(info, pci));
	assert_int_equal(strlen(pci), 12);
	assert_doca_ok(doca_devinfo_is_equal_pci_addr(info, pci, &yes));
	assert_int_equal(yes, 1);
	assert_doca_ok(doca_devinfo_is_equal_pci_addr(info, "0000:3a:00.0", &yes));
	assert_int_equal(yes, 0);
	assert_doca_err(doca_devinfo_is_equal_pci_addr(info, "not-a-pci", &yes),
	                DOCA_ERROR_INVALID_VALUE);

	assert_doca_ok(doca_devinfo_cap_is_hotplug_manager_supported(info, &yes));
	assert_int_equal(yes, 0);
	assert_doca_ok(doca_devinfo_rep_cap_is_filter_net_supported(info, &yes));
	assert_int_equal(yes, 0);
	assert_doca_ok(doca_ctx_cap_get_num_completion_vectors(info, &vectors));
	assert_int_equal(vectors, 1);
	assert_doca_ok(doca_dev_close(dev));
}

static void test_open_twice_is_counted(void **state)
{
	struct doca_devinfo **list;
	struct doca_dev *a, *b;
	uint32_t n;

	(void)state;
	assert_doca_ok(doca_devinfo_create_list(&list, &n));
	assert_doca_ok(doca_dev_open(list[0], &a));
	assert_doca_ok(doca_dev_open(list[0], &b));
	assert_ptr_equal(a, b);
	/* The device outlives the list it was opened from. */
	assert_doca_ok(doca_devinfo_destroy_list(list));
	assert_non_null(doca_dev_as_devinfo(a));
	assert_doca_ok(doca_dev_close(a));
	assert_doca_ok(doca_dev_close(b));
	assert_doca_err(doca_dev_close(b), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_dev_open(NULL, &a), DOCA_ERROR_INVALID_VALUE);
	assert_null(doca_dev_as_devinfo(NULL));
}

static void test_close_while_used(void **state)
{
	struct doca_dev *dev = open_loopback_dev();
	struct doca_mmap *mmap;

	(void)state;
	assert_doca_ok(doca_mmap_create(&mmap));
	assert_doca_ok(doca_mmap_add_dev(mmap, dev));
	assert_doca_err(doca_dev_close(dev), DOCA_ERROR_IN_USE);
	assert_doca_ok(doca_mmap_destroy(mmap));
	assert_doca_ok(doca_dev_close(dev));
}

static void test_no_representors(void **state)
{
	struct doca_dev *dev = open_loopback_dev();
	struct doca_devinfo_rep **reps;
	uint32_t n;

	(void)state;
	assert_doca_err(doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_NET, &reps, &n),
	                DOCA_ERROR_NOT_SUPPORTED);
	assert_doca_err(doca_devinfo_rep_create_list(NULL, 0, &reps, &n), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_dev_close(dev));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_list_has_loopback),
		cmocka_unit_test(test_aliases_and_selection),
		cmocka_unit_test(test_getters_and_sizes),
		cmocka_unit_test(test_open_twice_is_counted),
		cmocka_unit_test(test_close_while_used),
		cmocka_unit_test(test_no_representors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
