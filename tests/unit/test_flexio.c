/*
 * softdoca tests: libflexio as DOCA DPA programs use it - the DPA resources
 * file (its YAML subset, docs/dpa.md 2.14) read from a buffer with no NUL,
 * as DOCA's dpa_common.c passes it; every kind of bad file refused with
 * FLEXIO_STATUS_FAILED and one stderr line; the version macros and check;
 * FlexIO's own calls refused, each said once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit/testing.h"

#include <libflexio/flexio_ver.h>
#define FLEXIO_VER_USED FLEXIO_VER(25, 4, 0)
#include <libflexio/flexio.h>

/* What was written to stderr while capturing. */
static FILE *capture_file;
static int saved_stderr = -1;
static char captured[4096];

static void capture_start(void)
{
	fflush(stderr);
	capture_file = tmpfile();
	assert_non_null(capture_file);
	saved_stderr = dup(STDERR_FILENO);
	assert_true(saved_stderr >= 0);
	assert_true(dup2(fileno(capture_file), STDERR_FILENO) >= 0);
}

static const char *capture_end(void)
{
	size_t n;

	fflush(stderr);
	assert_true(dup2(saved_stderr, STDERR_FILENO) >= 0);
	close(saved_stderr);
	rewind(capture_file);
	n = fread(captured, 1, sizeof(captured) - 1, capture_file);
	captured[n] = '\0';
	fclose(capture_file);
	return captured;
}

static unsigned int count_lines(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Parses text as a file's exact bytes (no NUL after them: ASan sees any
 * read past the end). */
static flexio_status parse(const char *app_key, const char *text, struct flexio_resource **res)
{
	size_t len = strlen(text);
	char *bytes = malloc(len ? len : 1);
	flexio_status st;

	assert_non_null(bytes);
	memcpy(bytes, text, len);
	st = flexio_resources_create(app_key, bytes, len, res);
	free(bytes);
	return st;
}

static void assert_ids(uint32_t *ids, uint32_t n, const uint32_t *want, uint32_t want_n)
{
	assert_int_equal(n, want_n);
	if (want_n == 0) {
		assert_null(ids);
		return;
	}
	assert_non_null(ids);
	assert_memory_equal(ids, want, want_n * sizeof(*want));
}

static void test_version_macros(void **unused)
{
	(void)unused;
	assert_int_equal(FLEXIO_VER(25, 4, 0), 0x19040000);
	assert_int_equal(FLEXIO_VER_USED, FLEXIO_VER(25, 4, 0));
	assert_int_equal(FLEXIO_VER_LATEST, 0xffffffff);
	assert_int_equal(flexio_version_set(FLEXIO_VER_USED), FLEXIO_STATUS_SUCCESS);
	assert_int_equal(flexio_version_set(FLEXIO_VER_LATEST), FLEXIO_STATUS_SUCCESS);
	capture_start();
	assert_int_equal(flexio_version_set(0x100000000ull), FLEXIO_STATUS_FAILED);
	assert_non_null(strstr(capture_end(), "FLEXIO_VER_LATEST"));
}

/* The shape DOCA's samples read: EUs for the key, no EU groups. */
static void test_flow_lists(void **unused)
{
	struct flexio_resource *res = NULL;
	static const uint32_t eus[] = { 1, 2, 10, 11, 12, 13, 0x20 };

	(void)unused;
	assert_int_equal(parse("dpa_app", "dpa_app:\n  eus: [1, 2, 10-13, 0x20]\n", &res),
	                 FLEXIO_STATUS_SUCCESS);
	assert_ids(flexio_resources_get_eus(res), flexio_resources_get_eus_num(res), eus, 7);
	assert_int_equal(flexio_resources_get_eugs_num(res), 0);
	assert_null(flexio_resources_get_eugs(res));
	flexio_resources_destroy(res);
}

static void test_block_lists_comments_several_apps(void **unused)
{
	struct flexio_resource *res = NULL;
	static const char file[] = "# placement for two applications\r\n"
	                           "---\n"
	                           "other_app:\n"
	                           "  eus: [100-110]   # not ours\n"
	                           "  eu_groups: [9]\n"
	                           "\n"
	                           "\"dpa/app-1\":\n"
	                           "  eus:\r\n"
	                           "    - 5\n"
	                           "    - 0x7-9 # a range\n"
	                           "  eu_groups:\n"
	                           "  - 3\n"
	                           "  - 65535\n"
	                           "last_app:\n"
	                           "  eus: []\n";
	static const uint32_t eus[] = { 5, 7, 8, 9 }, eugs[] = { 3, 65535 };

	(void)unused;
	assert_int_equal(parse("dpa/app-1", file, &res), FLEXIO_STATUS_SUCCESS);
	assert_ids(flexio_resources_get_eus(res), flexio_resources_get_eus_num(res), eus, 4);
	assert_ids(flexio_resources_get_eugs(res), (uint32_t)flexio_resources_get_eugs_num(res),
	           eugs, 2);
	flexio_resources_destroy(res);

	assert_int_equal(parse("last_app", file, &res), FLEXIO_STATUS_SUCCESS);
	assert_int_equal(flexio_resources_get_eus_num(res), 0);
	assert_null(flexio_resources_get_eus(res));
	flexio_resources_destroy(res);

	/* An application with nothing under it: no EUs, no groups. */
	assert_int_equal(parse("bare", "bare:\nnext:\n  eus: [1]\n", &res), FLEXIO_STATUS_SUCCESS);
	assert_int_equal(flexio_resources_get_eus_num(res), 0);
	assert_int_equal(flexio_resources_get_eugs_num(res), 0);
	flexio_resources_destroy(res);

	/* Every EU id an affinity can name, as one range. */
	assert_int_equal(parse("all", "all:\n  eus: [0-255]\n", &res), FLEXIO_STATUS_SUCCESS);
	assert_int_equal(flexio_resources_get_eus_num(res), 256);
	assert_int_equal(flexio_resources_get_eus(res)[255], 255);
	flexio_resources_destroy(res);
}

static void test_bad_files(void **unused)
{
	static const struct {
		const char *text;
		const char *says; /* in the stderr line */
	} bad[] = {
		{ "app:\n\teus: [1]\n", "tab" },
		{ "app:\n  eus: [256]\n", "not an id" },
		{ "app:\n  eu_groups: [65536]\n", "not an id" },
		{ "app:\n  eus: [99999999999999999999]\n", "not an id" },
		{ "app:\n  eus: [0x]\n", "after an id" },
		{ "app:\n  eus: [1, 1]\n", "twice" },
		{ "app:\n  eus: [1-3, 2]\n", "twice" },
		{ "app:\n  eus: [5-3]\n", "range" },
		{ "app:\n  eus: [1-]\n", "range" },
		{ "app:\n  eus: [1,]\n", "ends with ','" },
		{ "app:\n  eus: [1, 2\n", "expected a list" },
		{ "app:\n  eus: 1\n", "expected a list" },
		{ "app:\n  eus: [1 2]\n", "unexpected" },
		{ "app:\n  eus: [-1]\n", "not an id" },
		{ "app:\n  threads: [1]\n", "unknown key" },
		{ "app:\n  eus: [1]\n  eus: [2]\n", "twice" },
		{ "app:\n  eus: [1]\napp:\n  eus: [2]\n", "twice" },
		{ "app: [1]\n", "lines below" },
		{ "app\n", "followed by ':'" },
		{ "  eus: [1]\napp:\n", "before the first" },
		{ "app:\n  - 1\n", "outside a list" },
		{ "app:\n    eus:\n  - 1\n", "outside a list" },
		{ "app:\n  eus:\n    - 1 2\n", "unexpected" },
		{ "ap p:\n", "not an application key" },
		{ "\"app:\n", "not an application key" },
		{ "app:\n  eus: [1]\n---\n", "after the first" },
		{ "other:\n  eus: [1]\n", "no application key 'app'" },
		{ "", "no application key 'app'" },
		{ "other:\n  eus: [300]\napp:\n", "not an id" }, /* another app's lists count */
		{ "app:\n  eus: [1\x01]\n", "control character" },
	};
	struct flexio_resource *const sentinel = (struct flexio_resource *)(uintptr_t)0x1234;

	(void)unused;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct flexio_resource *res = sentinel;
		flexio_status st;
		const char *out;

		capture_start();
		st = parse("app", bad[i].text, &res);
		out = capture_end();
		if (st != FLEXIO_STATUS_FAILED || res != sentinel || count_lines(out) != 1 ||
		    !strstr(out, bad[i].says) || strncmp(out, "libflexio: ", 11) != 0)
			fail_msg("case %zu (%s): status %d, stderr '%s'", i, bad[i].text, st, out);
	}
}

/* Bytes a text editor never writes, and the arguments. */
static void test_bad_bytes_and_arguments(void **unused)
{
	struct flexio_resource *res = NULL;
	char nul_file[] = "app:\n  eus: [1]\n";
	char file[] = "app:\n";
	const char *out;

	(void)unused;
	nul_file[9] = '\0';
	capture_start();
	assert_int_equal(flexio_resources_create("app", nul_file, sizeof(nul_file) - 1, &res),
	                 FLEXIO_STATUS_FAILED);
	assert_int_equal(flexio_resources_create(NULL, file, 5, &res), FLEXIO_STATUS_FAILED);
	assert_int_equal(flexio_resources_create("", file, 5, &res), FLEXIO_STATUS_FAILED);
	assert_int_equal(flexio_resources_create("app", NULL, 5, &res), FLEXIO_STATUS_FAILED);
	assert_int_equal(flexio_resources_create("app", file, 5, NULL), FLEXIO_STATUS_FAILED);
	assert_int_equal(flexio_resources_create("app", file, (size_t)1 << 30, &res),
	                 FLEXIO_STATUS_FAILED);
	out = capture_end();
	assert_int_equal(count_lines(out), 6);
	assert_null(res);
	/* Only the given length is read: the bytes after it are not the file's. */
	capture_start();
	assert_int_equal(flexio_resources_create("app", file, 3, &res), FLEXIO_STATUS_FAILED);
	assert_non_null(strstr(capture_end(), "followed by ':'"));
	assert_int_equal(flexio_resources_create("app", file, 5, &res), FLEXIO_STATUS_SUCCESS);
	flexio_resources_destroy(res);
	/* NULL objects answer nothing. */
	flexio_resources_destroy(NULL);
	assert_int_equal(flexio_resources_get_eus_num(NULL), 0);
	assert_null(flexio_resources_get_eus(NULL));
	assert_int_equal(flexio_resources_get_eugs_num(NULL), 0);
	assert_null(flexio_resources_get_eugs(NULL));
}

/* FlexIO's own model: refused, each call said once on stderr. */
static void test_unsupported(void **unused)
{
	struct flexio_process *process = NULL;
	struct flexio_event_handler *handler = NULL;
	uint64_t ret = 0;
	const char *out;

	(void)unused;
	capture_start();
	for (int i = 0; i < 2; i++) {
		assert_int_equal(flexio_process_create(NULL, NULL, NULL, &process),
		                 FLEXIO_STATUS_FAILED);
		assert_int_equal(flexio_process_call(process, NULL, &ret, 1, 2),
		                 FLEXIO_STATUS_FAILED);
		assert_int_equal(flexio_event_handler_create(process, NULL, &handler),
		                 FLEXIO_STATUS_FAILED);
		assert_int_equal(flexio_event_handler_run(handler, 0), FLEXIO_STATUS_FAILED);
		assert_int_equal(flexio_event_handler_destroy(
		                         (struct flexio_event_handler *)(uintptr_t)0x10),
		                 FLEXIO_STATUS_FAILED);
		assert_int_equal(flexio_process_destroy((struct flexio_process *)(uintptr_t)0x10),
		                 FLEXIO_STATUS_FAILED);
	}
	assert_int_equal(flexio_process_destroy(NULL), FLEXIO_STATUS_SUCCESS);
	assert_int_equal(flexio_event_handler_destroy(NULL), FLEXIO_STATUS_SUCCESS);
	out = capture_end();
	assert_int_equal(count_lines(out), 6);
	assert_non_null(strstr(out, "flexio_process_create is not supported"));
	assert_null(process);
	assert_null(handler);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version_macros),
		cmocka_unit_test(test_flow_lists),
		cmocka_unit_test(test_block_lists_comments_several_apps),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_bad_bytes_and_arguments),
		cmocka_unit_test(test_unsupported),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
