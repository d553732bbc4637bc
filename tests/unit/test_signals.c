/*
 * The application's signal handling stays as the application set it: libucs
 * installs SIGSEGV/SIGBUS/SIGILL/SIGFPE handlers when it loads, and softdoca
 * removes them again (src/transport/ucx.c). Checked at the start of main()
 * (before cmocka installs its own), and for handlers of the program's own
 * across UCX's whole set-up and tear-down (RDMA contexts of this process
 * connected to each other: UCX context, worker, endpoints).
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>

#include "unit/testing.h"

static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE };
#define NUM_SIGNALS (sizeof(crash_signals) / sizeof(crash_signals[0]))

/* The dispositions main() found, before anything else ran. */
static struct sigaction at_start[NUM_SIGNALS];

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

struct side {
	struct doca_rdma *rdma;
	struct doca_rdma_connection *conn;
	const void *blob;
	size_t len;
};

static void start_side(struct doca_dev *dev, struct doca_pe *pe, struct side *s)
{
	assert_doca_ok(doca_rdma_create(dev, &s->rdma));
	assert_doca_ok(doca_rdma_set_permissions(s->rdma, DOCA_ACCESS_FLAG_RDMA_WRITE));
	assert_doca_ok(doca_pe_connect_ctx(pe, doca_rdma_as_ctx(s->rdma)));
	assert_doca_ok(doca_ctx_start(doca_rdma_as_ctx(s->rdma)));
	assert_doca_ok(doca_rdma_export(s->rdma, &s->blob, &s->len, &s->conn));
}

static void stop_side(struct doca_pe *pe, struct side *s)
{
	enum doca_ctx_states state = DOCA_CTX_STATE_RUNNING;
	doca_error_t status = doca_ctx_stop(doca_rdma_as_ctx(s->rdma));

	assert_true(status == DOCA_SUCCESS || status == DOCA_ERROR_IN_PROGRESS);
	for (int i = 0; i < 1000000 && state != DOCA_CTX_STATE_IDLE; i++) {
		doca_pe_progress(pe);
		assert_doca_ok(doca_ctx_get_state(doca_rdma_as_ctx(s->rdma), &state));
	}
	assert_int_equal(state, DOCA_CTX_STATE_IDLE);
	assert_doca_ok(doca_rdma_destroy(s->rdma));
}

/* Two contexts of this process connected to each other: UCX's context,
 * worker and endpoints all exist when this returns. */
static void connect_pair(struct doca_dev *dev, struct doca_pe *pe, struct side *a, struct side *b)
{
	start_side(dev, pe, a);
	start_side(dev, pe, b);
	assert_doca_ok(doca_rdma_connect(a->rdma, b->blob, b->len, a->conn));
	assert_doca_ok(doca_rdma_connect(b->rdma, a->blob, a->len, b->conn));
}

static void handlers_stay(void **state)
{
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct side a, b, c, d;

	(void)state;
	/* libucs loaded with this program; its handlers were gone at once. */
	for (size_t i = 0; i < NUM_SIGNALS; i++)
		if (at_start[i].sa_handler != SIG_DFL)
			fail_msg("signal %d had handler %p at start (libucs's?)", crash_signals[i],
			         (void *)at_start[i].sa_handler);

	install_own();
	dev = open_loopback_dev();
	assert_doca_ok(doca_pe_create(&pe));
	connect_pair(dev, pe, &a, &b);
	assert_handlers(own_handler);
	connect_pair(dev, pe, &c, &d);
	stop_side(pe, &a);
	stop_side(pe, &b);
	stop_side(pe, &c);
	stop_side(pe, &d);
	assert_doca_ok(doca_pe_destroy(pe));
	assert_doca_ok(doca_dev_close(dev));
	assert_handlers(own_handler);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(handlers_stay),
	};

	for (size_t i = 0; i < NUM_SIGNALS; i++)
		sigaction(crash_signals[i], NULL, &at_start[i]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
