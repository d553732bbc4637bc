/*
 * The work-around for UCX 1.13's TCP event handler (src/transport/
 * ucx_tcp_events.c): an event with both directions reaches libuct's handler
 * as one of them, by turn, and everything else as it came; and a program
 * linked with softdoca calls softdoca's ucs_event_set_wait, not libucs's,
 * which is what makes libuct call it.
 */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>
#include <ucs/sys/event_set.h>

#include "transport/ucx_tcp_events.h"

static void both_directions_take_turns(void **state)
{
	const uint8_t both = UCS_EVENT_SET_EVREAD | UCS_EVENT_SET_EVWRITE;
	unsigned turn = 0;
	unsigned reads = 0, writes = 0;

	(void)state;
	for (int i = 0; i < 10; i++) {
		uint8_t got = ucx_one_direction(both, &turn);

		assert_true(got == UCS_EVENT_SET_EVREAD || got == UCS_EVENT_SET_EVWRITE);
		reads += got == UCS_EVENT_SET_EVREAD;
		writes += got == UCS_EVENT_SET_EVWRITE;
	}
	assert_int_equal(reads, 5);
	assert_int_equal(writes, 5);
	/* An error bit stays with whichever direction goes. */
	assert_int_equal(ucx_one_direction(both | UCS_EVENT_SET_EVERR, &turn) & UCS_EVENT_SET_EVERR,
	                 UCS_EVENT_SET_EVERR);
}

static void one_direction_is_unchanged(void **state)
{
	const uint8_t alone[] = { UCS_EVENT_SET_EVREAD,
		                  UCS_EVENT_SET_EVWRITE,
		                  UCS_EVENT_SET_EVREAD | UCS_EVENT_SET_EVERR,
		                  UCS_EVENT_SET_EVWRITE | UCS_EVENT_SET_EVERR,
		                  UCS_EVENT_SET_EVERR,
		                  0 };
	unsigned turn = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(alone); i++) {
		assert_int_equal(ucx_one_direction(alone[i], &turn), alone[i]);
		assert_int_equal(turn, 0);
	}
}

static void softdoca_definition_is_found_first(void **state)
{
	void *found = dlsym(RTLD_DEFAULT, "ucs_event_set_wait");
	void *libucs = dlsym(RTLD_NEXT, "ucs_event_set_wait");
	Dl_info info;

	(void)state;
	assert_non_null(found);
	assert_true(dladdr(found, &info) && info.dli_fname);
	assert_null(strstr(info.dli_fname, "libucs"));
	/* ... and it is not libucs's own. */
	assert_ptr_not_equal(found, libucs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(both_directions_take_turns),
		cmocka_unit_test(one_direction_is_unchanged),
		cmocka_unit_test(softdoca_definition_is_found_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
