/*
 * Unit tests: doca_error names and descriptions.
 */
#include <string.h>

#include "unit/testing.h"

static void test_every_code_has_a_name(void **state)
{
	(void)state;
	for (int e = DOCA_SUCCESS; e <= DOCA_ERROR_DEVICE_FATAL_ERROR; e++) {
		const char *name = doca_error_get_name((doca_error_t)e);
		const char *descr = doca_error_get_descr((doca_error_t)e);

		assert_non_null(name);
		assert_non_null(descr);
		assert_true(strncmp(name, "DOCA_", 5) == 0);
		assert_true(strlen(descr) > 0);
		assert_string_not_equal(descr, "unrecognized error code");
	}
}

static void test_values_are_docas(void **state)
{
	(void)state;
	/* The numeric values are ABI shared with DOCA programs. */
	assert_int_equal(DOCA_ERROR_NOT_PERMITTED, 2);
	assert_int_equal(DOCA_ERROR_INVALID_VALUE, 6);
	assert_int_equal(DOCA_ERROR_NO_MEMORY, 7);
	assert_int_equal(DOCA_ERROR_BAD_STATE, 18);
	assert_int_equal(DOCA_ERROR_IN_PROGRESS, 26);
	assert_int_equal(DOCA_ERROR_TOO_BIG, 27);
	assert_int_equal(DOCA_ERROR_SKIPPED, 30);
	assert_int_equal(DOCA_ERROR_DEVICE_FATAL_ERROR, 31);
	assert_string_equal(doca_error_get_name(DOCA_ERROR_BAD_STATE), "DOCA_ERROR_BAD_STATE");
	assert_string_equal(doca_error_get_name(DOCA_SUCCESS), "DOCA_SUCCESS");
}

static void test_unknown_code(void **state)
{
	(void)state;
	assert_string_equal(doca_error_get_name((doca_error_t)32), "unrecognized error code");
	assert_string_equal(doca_error_get_descr((doca_error_t)-1), "unrecognized error code");
	/* The 2.2 names answer the same. */
	assert_string_equal(doca_get_error_name(DOCA_ERROR_AGAIN), "DOCA_ERROR_AGAIN");
	assert_string_equal(doca_get_error_string(DOCA_ERROR_AGAIN),
	                    doca_error_get_descr(DOCA_ERROR_AGAIN));
}

static void test_macros(void **state)
{
	doca_error_t r = DOCA_SUCCESS;

	(void)state;
	assert_false(DOCA_IS_ERROR(r));
	DOCA_ERROR_PROPAGATE(r, DOCA_ERROR_AGAIN);
	DOCA_ERROR_PROPAGATE(r, DOCA_ERROR_FULL); /* keeps the first error */
	assert_int_equal(r, DOCA_ERROR_AGAIN);
	assert_true(DOCA_IS_ERROR(r));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_code_has_a_name),
		cmocka_unit_test(test_values_are_docas),
		cmocka_unit_test(test_unknown_code),
		cmocka_unit_test(test_macros),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
