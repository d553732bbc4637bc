/*
 * Unit tests: doca_log sources, backends, level limits and line format.
 *
 * The log configuration is process-wide, so the tests run in the listed
 * order and each one accounts for the backends earlier ones created.
 */
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <doca_log.h>
#include <doca_mmap.h>

#include "unit/testing.h"

DOCA_LOG_REGISTER(TEST::LOG);

#define MAX_LINES 64

struct capture {
	char buf[512];
	char lines[MAX_LINES][512];
	int count;
};

static struct capture app_cap, sdk_cap;

static void app_flush(char *line)
{
	if (app_cap.count < MAX_LINES)
		snprintf(app_cap.lines[app_cap.count++], sizeof(app_cap.lines[0]), "%s", line);
}

static void sdk_flush(char *line)
{
	if (sdk_cap.count < MAX_LINES)
		snprintf(sdk_cap.lines[sdk_cap.count++], sizeof(sdk_cap.lines[0]), "%s", line);
}

static struct doca_log_backend *app_backend;

static bool captured(const struct capture *cap, const char *needle)
{
	for (int i = 0; i < cap->count; i++)
		if (strstr(cap->lines[i], needle))
			return true;
	return false;
}

/* Reads what was written to a file descriptor redirected into a temp file. */
static void read_file(int fd, char *out, size_t size)
{
	ssize_t n;

	lseek(fd, 0, SEEK_SET);
	n = read(fd, out, size - 1);
	out[n > 0 ? n : 0] = '\0';
}

/* Runs before any SDK backend exists: SDK errors go to stderr by default. */
static void test_sdk_errors_reach_stderr_by_default(void **state)
{
	char path[] = "/tmp/sdoca_log_XXXXXX", text[4096];
	int tmp = mkstemp(path), saved = dup(STDERR_FILENO);

	(void)state;
	assert_true(tmp >= 0);
	unlink(path);
	dup2(tmp, STDERR_FILENO);
	assert_doca_err(doca_mmap_start(NULL), DOCA_ERROR_INVALID_VALUE);
	dup2(saved, STDERR_FILENO);
	close(saved);
	read_file(tmp, text, sizeof(text));
	close(tmp);
	assert_non_null(strstr(text, "[DOCA][ERR]"));
	assert_non_null(strstr(text, "doca_mmap_start: invalid input"));
}

static void test_app_levels_default_info(void **state)
{
	(void)state;
	assert_doca_ok(doca_log_backend_create_with_buf(app_cap.buf, sizeof(app_cap.buf), app_flush,
	                                                &app_backend));
	DOCA_LOG_INFO("info %d", 1);
	DOCA_LOG_DBG("debug %d", 2);
	DOCA_LOG_ERR("error %d", 3);
	DOCA_LOG_TRC("trace is compiled out %d", 4);
	assert_true(captured(&app_cap, "info 1"));
	assert_false(captured(&app_cap, "debug 2"));
	assert_true(captured(&app_cap, "error 3"));
	assert_false(captured(&app_cap, "trace is compiled out"));
	assert_int_equal(doca_log_level_get_global_lower_limit(), DOCA_LOG_LEVEL_INFO);
	assert_int_equal(doca_log_level_get_global_upper_limit(), DOCA_LOG_LEVEL_CRIT);
}

static void test_line_format(void **state)
{
	regex_t re;
	const char *last;

	(void)state;
	DOCA_LOG_WARN("formatted %s", "line");
	last = app_cap.lines[app_cap.count - 1];
	assert_int_equal(regcomp(&re,
	                         "^\\[[0-9]{2}:[0-9]{2}:[0-9]{2}:[0-9]{6}\\]\\[[0-9]+\\]\\[DOCA\\]"
	                         "\\[WRN\\]\\[test_log\\.c:[0-9]+\\]\\[test_line_format\\] "
	                         "formatted line\n$",
	                         REG_EXTENDED),
	                 0);
	if (regexec(&re, last, 0, NULL, 0) != 0)
		fail_msg("unexpected line format: '%s'", last);
	regfree(&re);
}

static void test_backend_limits(void **state)
{
	(void)state;
	assert_doca_ok(doca_log_backend_set_level_lower_limit(app_backend, DOCA_LOG_LEVEL_DEBUG));
	DOCA_LOG_DBG("now debug shows");
	assert_true(captured(&app_cap, "now debug shows"));

	/* The upper limit hides messages more severe than it. */
	assert_doca_ok(doca_log_backend_set_level_upper_limit(app_backend, DOCA_LOG_LEVEL_ERROR));
	DOCA_LOG_CRIT("crit hidden by upper");
	DOCA_LOG_ERR("error passes upper");
	assert_false(captured(&app_cap, "crit hidden by upper"));
	assert_true(captured(&app_cap, "error passes upper"));
	assert_doca_ok(doca_log_backend_set_level_upper_limit(app_backend, DOCA_LOG_LEVEL_CRIT));

	assert_doca_err(doca_log_backend_set_level_lower_limit(app_backend, 55),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_log_backend_set_level_lower_limit(NULL, DOCA_LOG_LEVEL_INFO),
	                DOCA_ERROR_INVALID_VALUE);
	/* An application backend has no SDK level. */
	assert_doca_err(doca_log_backend_set_sdk_level(app_backend, DOCA_LOG_LEVEL_INFO),
	                DOCA_ERROR_NOT_PERMITTED);
}

static void test_strict_and_global(void **state)
{
	(void)state;
	assert_doca_ok(doca_log_backend_set_level_lower_limit_strict(app_backend));
	/* Strict: the lower limit may not become less verbose... */
	assert_doca_err(doca_log_backend_set_level_lower_limit(app_backend, DOCA_LOG_LEVEL_ERROR),
	                DOCA_ERROR_NOT_PERMITTED);
	/* ...not even through the global setter. */
	assert_doca_ok(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_ERROR));
	DOCA_LOG_DBG("strict keeps debug");
	assert_true(captured(&app_cap, "strict keeps debug"));
	assert_int_equal(doca_log_level_get_global_lower_limit(), DOCA_LOG_LEVEL_ERROR);
	assert_doca_ok(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_INFO));
	assert_doca_err(doca_log_level_set_global_lower_limit(0), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_log_level_set_global_upper_limit(71), DOCA_ERROR_INVALID_VALUE);

	assert_doca_ok(doca_log_backend_set_level_upper_limit_strict(app_backend));
	assert_doca_err(doca_log_backend_set_level_upper_limit(app_backend, DOCA_LOG_LEVEL_ERROR),
	                DOCA_ERROR_NOT_PERMITTED);
}

static void test_invalid_messages(void **state)
{
	int bogus_source = 1 << 20;

	(void)state;
	assert_doca_err(doca_log(DOCA_LOG_LEVEL_INFO, bogus_source, "f.c", 1, "f", "x"),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_log(DOCA_LOG_LEVEL_DISABLE, log_source, "f.c", 1, "f", "x"),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_log(45, log_source, "f.c", 1, "f", "x"), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_log_register_source(NULL, &bogus_source), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_log_register_source("x", NULL), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_log_unregister_source(log_source));
	assert_doca_err(doca_log_backend_create_with_buf(NULL, 10, app_flush, &app_backend),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_log_backend_create_with_file(NULL, &app_backend),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_log_backend_create_with_fd(-1, &app_backend),
	                DOCA_ERROR_INVALID_VALUE);
}

static void test_long_message_truncated(void **state)
{
	char *big = malloc(5000);
	const char *last;
	size_t len;

	(void)state;
	memset(big, 'x', 4999);
	big[4999] = '\0';
	DOCA_LOG_INFO("%s", big);
	free(big);
	last = app_cap.lines[app_cap.count - 1];
	len = strlen(last);
	/* The buffer backend holds 511 characters; the line is cut there. */
	assert_int_equal(len, sizeof(app_cap.buf) - 1);
}

static void test_sdk_backend(void **state)
{
	struct doca_log_backend *sdk;

	(void)state;
	assert_doca_ok(doca_log_backend_create_with_buf_sdk(sdk_cap.buf, sizeof(sdk_cap.buf),
	                                                    sdk_flush, &sdk));
	assert_doca_ok(doca_log_backend_set_sdk_level(sdk, DOCA_LOG_LEVEL_DEBUG));
	assert_doca_err(doca_mmap_set_memrange(NULL, NULL, 0), DOCA_ERROR_INVALID_VALUE);
	assert_true(captured(&sdk_cap, "doca_mmap_set_memrange: invalid input"));
	/* SDK lines name no function (as DOCA's own), application lines do. */
	assert_true(captured(&sdk_cap, "[DOCA][ERR][mmap.c:"));
	assert_false(captured(&app_cap, "doca_mmap_set_memrange"));
	DOCA_LOG_INFO("application only");
	assert_false(captured(&sdk_cap, "application only"));

	assert_doca_ok(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_CRIT));
	assert_int_equal(doca_log_level_get_global_sdk_limit(), DOCA_LOG_LEVEL_CRIT);
	sdk_cap.count = 0;
	assert_doca_err(doca_mmap_start(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(sdk_cap.count, 0);
	assert_doca_ok(doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_INFO));
}

static void test_fd_backend(void **state)
{
	struct doca_log_backend *b;
	int fds[2];
	char text[1024];
	ssize_t n;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	assert_doca_ok(doca_log_backend_create_with_fd(fds[1], &b));
	DOCA_LOG_INFO("through a pipe");
	n = read(fds[0], text, sizeof(text) - 1);
	assert_true(n > 0);
	text[n] = '\0';
	/* One whole line per write, ending in a newline. */
	assert_non_null(strstr(text, "through a pipe\n"));
	assert_doca_ok(doca_log_backend_set_level_lower_limit(b, DOCA_LOG_LEVEL_DISABLE));
	close(fds[0]);
}

/* Standard: INFO and more verbose to stdout; WARNING and more severe to stderr. */
static void test_standard_backend(void **state)
{
	char out_path[] = "/tmp/sdoca_out_XXXXXX", err_path[] = "/tmp/sdoca_err_XXXXXX";
	int out = mkstemp(out_path), err = mkstemp(err_path);
	int saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO);
	char text[4096];

	(void)state;
	unlink(out_path);
	unlink(err_path);
	fflush(stdout);
	dup2(out, STDOUT_FILENO);
	dup2(err, STDERR_FILENO);
	assert_doca_ok(doca_log_backend_create_standard());
	DOCA_LOG_INFO("standard info");
	DOCA_LOG_ERR("standard error");
	fflush(stdout);
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved_out);
	close(saved_err);
	read_file(out, text, sizeof(text));
	assert_non_null(strstr(text, "[INF]"));
	assert_non_null(strstr(text, "standard info"));
	assert_null(strstr(text, "standard error"));
	read_file(err, text, sizeof(text));
	assert_non_null(strstr(text, "standard error"));
	assert_null(strstr(text, "standard info"));
	close(out);
	close(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sdk_errors_reach_stderr_by_default),
		cmocka_unit_test(test_app_levels_default_info),
		cmocka_unit_test(test_line_format),
		cmocka_unit_test(test_backend_limits),
		cmocka_unit_test(test_strict_and_global),
		cmocka_unit_test(test_invalid_messages),
		cmocka_unit_test(test_long_message_truncated),
		cmocka_unit_test(test_sdk_backend),
		cmocka_unit_test(test_fd_backend),
		cmocka_unit_test(test_standard_backend),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
