/*
 * softdoca tests: what every cmocka unit test includes.
 */
#ifndef SDOCA_TESTS_TESTING_H_
#define SDOCA_TESTS_TESTING_H_

#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <doca_compat.h>
#include <doca_dev.h>
#include <doca_error.h>

/* A DOCA call that must succeed; prints the error name when it does not. */
#define assert_doca_ok(call)                                                                     \
	do {                                                                                     \
		doca_error_t assert_doca_ok_ = (call);                                           \
		if (assert_doca_ok_ != DOCA_SUCCESS)                                             \
			fail_msg("%s returned %s", #call, doca_get_error_name(assert_doca_ok_)); \
	} while (0)

/* A DOCA call that must fail with exactly this error. */
#define assert_doca_err(call, expected)                                 \
	do {                                                            \
		doca_error_t assert_doca_err_ = (call);                 \
		if (assert_doca_err_ != (expected))                     \
			fail_msg("%s returned %s, expected %s", #call,  \
			         doca_get_error_name(assert_doca_err_), \
			         doca_get_error_name(expected));        \
	} while (0)

/* Tests built for DOCA 2.2 (SOFTDOCA_API_VERSION=202) see its names. */
#if SOFTDOCA_API_VERSION == 202
#define doca_devinfo_create_list doca_devinfo_list_create
#define doca_devinfo_destroy_list doca_devinfo_list_destroy
#endif

/* Opens the loopback device (present on every machine and in every netns). */
static inline struct doca_dev *open_loopback_dev(void)
{
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	uint32_t n;

	assert_doca_ok(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && !dev; i++) {
		char iface[DOCA_DEVINFO_IFACE_NAME_SIZE];

		assert_doca_ok(doca_devinfo_get_iface_name(list[i], iface, sizeof(iface)));
		if (iface[0] == 'l' && iface[1] == 'o' && iface[2] == '\0')
			assert_doca_ok(doca_dev_open(list[i], &dev));
	}
	assert_doca_ok(doca_devinfo_destroy_list(list));
	assert_non_null(dev);
	return dev;
}

#endif /* SDOCA_TESTS_TESTING_H_ */
