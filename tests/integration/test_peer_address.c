/*
 * Crafted transport addresses: a live target process exports a connection
 * blob; its UCX address is damaged byte by byte (and at random), the blob is
 * sealed again so every other check passes, and a fresh process connects to
 * each one. Every connect must return (refused with INVALID_VALUE, or
 * accepted and then failing or working as UCX sees fit) and the process must
 * live: no assert, no crash, no hang. The undamaged blob must be accepted.
 *
 * Each probe is its own process because UCX keeps per-process state; the
 * parent never initialises UCX itself (it only forks).
 *
 * Over shared memory the target lives while the probes connect to it. Over
 * TCP it has exited first: UCX 1.13.1 asserts in a live target whose TCP
 * wireup reply is still pending when the connecting peer vanishes (fixed
 * upstream after 1.13; docs/compatibility.md), which a few hundred
 * short-lived probes hit under ASan. What the probes' own UCX does with the
 * address - where the crashes were - is the same either way.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <doca_ctx.h>
#include <doca_log.h>
#include <doca_pe.h>
#include <doca_rdma.h>

#include "unit/rdma_side.h"

#define PROBE_SECONDS 20        /* a probe that takes longer hangs */
#define PROBE_PROGRESS_MS 30    /* how long an accepted probe keeps progressing */
#define CONTROL_PROGRESS_MS 500 /* the undamaged probe: long enough for UCX's wireup */
#define RANDOM_PROBES 100
#define EXIT_ACCEPTED 0
#define EXIT_REFUSED 3

struct endpoint {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_rdma *rdma;
	struct doca_rdma_connection *conn;
	const void *blob;
	size_t len;
};

/* In a child: no cmocka assertions (a failing one would return into the
 * parent's test runner), exit code 2 on any failure. */
static void endpoint_start(struct endpoint *e)
{
	struct doca_devinfo **list;
	uint32_t n;

	static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };

	/* cmocka's handlers would carry a crash back into the test runner. */
	for (size_t i = 0; i < SDOCA_ARRAY_SIZE(crash_signals); i++)
		signal(crash_signals[i], SIG_DFL);
	doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DISABLE);
	setenv("SOFTDOCA_DEVICES", "lo", 1);
	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS || n != 1 ||
	    doca_dev_open(list[0], &e->dev) != DOCA_SUCCESS)
		_exit(2);
	doca_devinfo_destroy_list(list);
	if (doca_pe_create(&e->pe) != DOCA_SUCCESS ||
	    doca_rdma_create(e->dev, &e->rdma) != DOCA_SUCCESS ||
	    doca_rdma_set_permissions(e->rdma, DOCA_ACCESS_FLAG_RDMA_WRITE) != DOCA_SUCCESS ||
	    doca_pe_connect_ctx(e->pe, doca_rdma_as_ctx(e->rdma)) != DOCA_SUCCESS ||
	    doca_ctx_start(doca_rdma_as_ctx(e->rdma)) != DOCA_SUCCESS ||
	    doca_rdma_export(e->rdma, &e->blob, &e->len, &e->conn) != DOCA_SUCCESS)
		_exit(2);
}

/* The target: exports, hands its blob over, and serves (service thread)
 * until the parent closes `hold`. */
static pid_t start_target(const int hold[2], const int blob[2])
{
	pid_t pid = fork();
	struct endpoint e;
	char c;

	if (pid != 0)
		return pid;
	close(hold[1]);
	close(blob[0]);
	endpoint_start(&e);
	if (write(blob[1], &e.len, sizeof(e.len)) != sizeof(e.len) ||
	    write(blob[1], e.blob, e.len) != (ssize_t)e.len)
		_exit(2);
	close(blob[1]);
	while (read(hold[0], &c, 1) > 0)
		;
	_exit(0);
}

/* The target must have lived through every probe it served. */
static void stop_target(pid_t target, int hold_wr)
{
	int status;

	close(hold_wr);
	assert_int_equal(waitpid(target, &status, 0), target);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void read_all(int fd, void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len > 0) {
		ssize_t n = read(fd, p, len);

		assert_true(n > 0);
		p += n;
		len -= (size_t)n;
	}
}

/* One probe process: connects with `blob`; reports whether it was accepted. */
static void probe(const uint8_t *blob, size_t len, int progress_ms)
{
	struct endpoint e;
	struct timespec start, now;
	doca_error_t status;

	int null = open("/dev/null", O_WRONLY);

	alarm(PROBE_SECONDS);
	dup2(null, STDOUT_FILENO); /* UCX's own error lines about unreachable peers */
	endpoint_start(&e);
	status = doca_rdma_connect(e.rdma, blob, len, e.conn);
	if (status != DOCA_SUCCESS)
		_exit(status == DOCA_ERROR_INVALID_VALUE ? EXIT_REFUSED : 4);
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		doca_pe_progress(e.pe);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 <
	         progress_ms);
	_exit(EXIT_ACCEPTED);
}

struct tally {
	unsigned int accepted, refused, other, failed;
};

/* Runs one probe; a probe that died of a signal (assert, crash, the alarm
 * of a hang) is a failure, reported with the damage that caused it. */
static void run_probe(const uint8_t *blob, size_t len, const char *what, int progress_ms,
                      struct tally *t)
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (pid == 0)
		probe(blob, len, progress_ms);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "probe with %s died of signal %d\n", what, WTERMSIG(status));
		t->failed++;
	} else if (WEXITSTATUS(status) == EXIT_ACCEPTED) {
		t->accepted++;
	} else if (WEXITSTATUS(status) == EXIT_REFUSED) {
		t->refused++;
	} else {
		t->other++;
	}
}

static void crafted_addresses(const char *transport, bool live_target)
{
	static const uint8_t masks[] = { 0x01, 0x02, 0x80, 0xff };
	int hold[2], blob_pipe[2];
	struct tally t = { 0 };
	const uint8_t *info;
	uint8_t *blob;
	size_t len, info_len, addr_len;
	char what[64];
	pid_t target;

	setenv("SOFTDOCA_TRANSPORT", transport, 1);
	assert_int_equal(pipe(hold), 0);
	assert_int_equal(pipe(blob_pipe), 0);
	target = start_target(hold, blob_pipe);
	assert_true(target > 0);
	close(hold[0]);
	close(blob_pipe[1]);
	read_all(blob_pipe[0], &len, sizeof(len));
	blob = malloc(len);
	assert_non_null(blob);
	read_all(blob_pipe[0], blob, len);
	close(blob_pipe[0]);
	assert_doca_ok(rdma_conn_blob_check(blob, len, &info, &info_len));
	addr_len = info_len - RDMA_INFO_ADDR;
	run_probe(blob, len, "no damage", CONTROL_PROGRESS_MS, &t);
	assert_int_equal(t.accepted, 1);
	if (!live_target)
		stop_target(target, hold[1]);

	for (size_t at = 0; at < addr_len; at++) {
		for (size_t m = 0; m < SDOCA_ARRAY_SIZE(masks); m++) {
			uint8_t *bad = rdma_blob_with_address_byte(
			        blob, len, at, info[RDMA_INFO_ADDR + at] ^ masks[m]);

			snprintf(what, sizeof(what), "byte %zu ^ 0x%02x", at, masks[m]);
			run_probe(bad, len, what, PROBE_PROGRESS_MS, &t);
			free(bad);
		}
	}
	srand(12345);
	for (int i = 0; i < RANDOM_PROBES; i++) {
		size_t at = (size_t)rand() % addr_len;
		uint8_t value = (uint8_t)rand();
		uint8_t *bad = rdma_blob_with_address_byte(blob, len, at, value);

		snprintf(what, sizeof(what), "byte %zu = 0x%02x", at, value);
		run_probe(bad, len, what, PROBE_PROGRESS_MS, &t);
		free(bad);
	}
	print_message("%s: %zu-byte address, %u probes: %u accepted, %u refused, %u other "
	              "errors, %u died\n",
	              transport, addr_len, t.accepted + t.refused + t.other + t.failed, t.accepted,
	              t.refused, t.other, t.failed);

	if (live_target)
		stop_target(target, hold[1]);
	free(blob);
	assert_int_equal(t.failed, 0);
}

static void crafted_addresses_auto(void **state)
{
	(void)state;
	crafted_addresses("auto", true);
}

static void crafted_addresses_tcp(void **state)
{
	(void)state;
	crafted_addresses("tcp", false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(crafted_addresses_auto),
		cmocka_unit_test(crafted_addresses_tcp),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
