/*
 * The application's signal handling stays as the application set it: libucs
 * installs SIGSEGV/SIGBUS/SIGILL/SIGFPE handlers and a SIGHUP one (after
 * which SIGHUP no longer ends the program) when it loads, and softdoca has
 * UCX give them back (src/transport/ucx.c). Checked at the start of main()
 * (before cmocka installs its own), and for handlers of the program's own
 * across UCX's whole set-up and tear-down (RDMA contexts of this process
 * connected to each other: UCX context, worker, endpoints). Run a second
 * time with UCX_ERROR_SIGNALS and UCX_DEBUG_SIGNO set (tests/CMakeLists.txt):
 * a user who asks for UCX's handlers keeps them.
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <doca_pe.h>

#include "unit/rdma_side.h"

static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGHUP };
#define NUM_SIGNALS (sizeof(crash_signals) / sizeof(crash_signals[0]))

/* The dispositions main() found, before anything else ran. */
static struct sigaction at_start[NUM_SIGNALS];

/* Whether a disposition is a handler of libucs's. */
static bool in_libucs(const struct sigaction *sa)
{
	void *handler =
	        (sa->sa_flags & SA_SIGINFO) ? (void *)sa->sa_sigaction : (void *)sa->sa_handler;
	Dl_info info;

	if (handler == (void *)SIG_DFL || handler == (void *)SIG_IGN)
		return false;
	return dladdr(handler, &info) && info.dli_fname && strstr(info.dli_fname, "libucs");
}

static void own_handler(int sig)
{
	(void)sig;
}

/* What the disposition of every crash signal is now. */
static void assert_handlers(void (*expected)(int))
{
	for (size_t i = 0; i < NUM_SIGNALS; i++) {
		struct sigaction sa;

		assert_int_equal(sigaction(crash_signals[i], NULL, &sa), 0);
		assert_false(sa.sa_flags & SA_SIGINFO);
		if (sa.sa_handler != expected)
			fail_msg("signal %d: handler %p, expected %p", crash_signals[i],
			         (void *)sa.sa_handler, (void *)expected);
	}
}

static void install_own(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = own_handler;
	for (size_t i = 0; i < NUM_SIGNALS; i++)
		assert_int_equal(sigaction(crash_signals[i], &sa, NULL), 0);
}

/* Two contexts of this process connected to each other: UCX's context,
 * worker and endpoints all exist when this returns. */
static void connect_pair(struct doca_dev *dev, struct doca_pe *pe, struct rdma_side *a,
                         struct rdma_side *b)
{
	rdma_side_start(dev, pe, a);
	rdma_side_start(dev, pe, b);
	assert_doca_ok(doca_rdma_connect(a->rdma, b->blob, b->len, a->conn));
	assert_doca_ok(doca_rdma_connect(b->rdma, a->blob, a->len, b->conn));
}

static void handlers_stay(void **state)
{
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct rdma_side a, b, c, d;

	(void)state;
	/* libucs loaded with this program; its handlers were gone at once
	 * (what was there before stays: a sanitizer's SIGSEGV handler). */
	for (size_t i = 0; i < NUM_SIGNALS; i++)
		if (in_libucs(&at_start[i]))
			fail_msg("signal %d had libucs's handler %p at start", crash_signals[i],
			         (void *)at_start[i].sa_handler);

	install_own();
	dev = open_loopback_dev();
	assert_doca_ok(doca_pe_create(&pe));
	connect_pair(dev, pe, &a, &b);
	assert_handlers(own_handler);
	connect_pair(dev, pe, &c, &d);
	rdma_side_stop(pe, &a);
	rdma_side_stop(pe, &b);
	rdma_side_stop(pe, &c);
	rdma_side_stop(pe, &d);
	assert_doca_ok(doca_pe_destroy(pe));
	assert_doca_ok(doca_dev_close(dev));
	assert_handlers(own_handler);
}

/* UCX_ERROR_SIGNALS=SIGSEGV UCX_DEBUG_SIGNO=SIGHUP: the user's choice. */
static void user_choice_kept(void **state)
{
	(void)state;
	for (size_t i = 0; i < NUM_SIGNALS; i++) {
		bool asked = crash_signals[i] == SIGSEGV || crash_signals[i] == SIGHUP;

		if (asked && !in_libucs(&at_start[i]))
			fail_msg("signal %d: UCX's handler is gone although the user asked for it",
			         crash_signals[i]);
		if (!asked && in_libucs(&at_start[i]))
			fail_msg("signal %d: UCX's handler, not asked for", crash_signals[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(handlers_stay),
	};
	const struct CMUnitTest user_choice[] = {
		cmocka_unit_test(user_choice_kept),
	};

	for (size_t i = 0; i < NUM_SIGNALS; i++)
		sigaction(crash_signals[i], NULL, &at_start[i]);
	if (getenv("UCX_ERROR_SIGNALS"))
		return cmocka_run_group_tests(user_choice, NULL, NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
