/*
 * The work-around for UCX 1.13's TCP event handler (src/transport/
 * ucx_tcp_events.c): an event with both directions reaches the handler as a
 * read call, then a write call unless the read removed a socket from an
 * event set (an endpoint destroyed); other events as they came; and a
 * program linked with softdoca calls softdoca's ucs_event_set_wait and
 * ucs_event_set_del, not libucs's, which is what makes libuct call them.
 */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>
#include <ucs/sys/event_set.h>

#include "transport/ucx_tcp_events.h"

static uint8_t calls[4];
static unsigned num_calls;
static int destroy_fd = -1; /* the read call removes it, as a destruction does */
static ucs_sys_event_set_t *event_set;

static void handler(void *callback_data, uint8_t events, void *arg)
{
	(void)callback_data;
	(void)arg;
	assert_true(num_calls < sizeof(calls));
	calls[num_calls++] = events;
	if ((events & UCS_EVENT_SET_EVREAD) && destroy_fd >= 0)
		assert_int_equal(ucs_event_set_del(event_set, destroy_fd), UCS_OK);
}

static int set_up(void **state)
{
	int sv[2];

	(void)state;
	num_calls = 0;
	destroy_fd = -1;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(ucs_event_set_create(&event_set), UCS_OK);
	assert_int_equal(ucs_event_set_add(event_set, sv[0], UCS_EVENT_SET_EVREAD, NULL), UCS_OK);
	close(sv[1]);
	*state = (void *)(intptr_t)sv[0];
	return 0;
}

static int tear_down(void **state)
{
	ucs_event_set_cleanup(event_set);
	close((int)(intptr_t)*state);
	return 0;
}

static void both_directions_read_then_write(void **state)
{
	const uint8_t both = UCS_EVENT_SET_EVREAD | UCS_EVENT_SET_EVWRITE;

	unsigned long left_out = ucx_event_writes_left_out();

	(void)state;
	ucx_deliver_event(handler, NULL, both | UCS_EVENT_SET_EVERR, NULL, ucx_event_removals());
	assert_int_equal(ucx_event_writes_left_out(), left_out);
	assert_int_equal(num_calls, 2);
	assert_int_equal(calls[0], UCS_EVENT_SET_EVREAD | UCS_EVENT_SET_EVERR);
	assert_int_equal(calls[1], UCS_EVENT_SET_EVWRITE);
}

static void no_write_after_a_destroying_read(void **state)
{
	const uint8_t both = UCS_EVENT_SET_EVREAD | UCS_EVENT_SET_EVWRITE;

	unsigned long left_out = ucx_event_writes_left_out();

	destroy_fd = (int)(intptr_t)*state;
	ucx_deliver_event(handler, NULL, both, NULL, ucx_event_removals());
	assert_int_equal(num_calls, 1);
	assert_int_equal(calls[0], UCS_EVENT_SET_EVREAD);
	/* counted: the worker's progress reports it, so the wait comes again */
	assert_int_equal(ucx_event_writes_left_out(), left_out + 1);
}

static void no_write_after_a_removal_earlier_in_the_wait(void **state)
{
	unsigned long at_wait = ucx_event_removals();

	assert_int_equal(ucs_event_set_del(event_set, (int)(intptr_t)*state), UCS_OK);
	ucx_deliver_event(handler, NULL, UCS_EVENT_SET_EVREAD | UCS_EVENT_SET_EVWRITE, NULL,
	                  at_wait);
	assert_int_equal(num_calls, 1);
	assert_int_equal(calls[0], UCS_EVENT_SET_EVREAD);
}

static void one_direction_as_it_came(void **state)
{
	const uint8_t alone[] = { UCS_EVENT_SET_EVREAD, UCS_EVENT_SET_EVWRITE,
		                  UCS_EVENT_SET_EVWRITE | UCS_EVENT_SET_EVERR,
		                  UCS_EVENT_SET_EVERR };

	(void)state;
	for (size_t i = 0; i < sizeof(alone); i++) {
		num_calls = 0;
		ucx_deliver_event(handler, NULL, alone[i], NULL, ucx_event_removals());
		assert_int_equal(num_calls, 1);
		assert_int_equal(calls[0], alone[i]);
	}
}

static void softdoca_definitions_are_found_first(void **state)
{
	static const char *const names[] = { "ucs_event_set_wait", "ucs_event_set_del" };

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		void *found = dlsym(RTLD_DEFAULT, names[i]);
		Dl_info info;

		assert_non_null(found);
		assert_true(dladdr(found, &info) && info.dli_fname);
		assert_null(strstr(info.dli_fname, "libucs"));
		assert_ptr_not_equal(found, dlsym(RTLD_NEXT, names[i]));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(both_directions_read_then_write, set_up, tear_down),
		cmocka_unit_test_setup_teardown(no_write_after_a_destroying_read, set_up,
		                                tear_down),
		cmocka_unit_test_setup_teardown(no_write_after_a_removal_earlier_in_the_wait,
		                                set_up, tear_down),
		cmocka_unit_test_setup_teardown(one_direction_as_it_came, set_up, tear_down),
		cmocka_unit_test(softdoca_definitions_are_found_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
