/*
 * Unit tests: doca_argp — every type, short names of several letters,
 * boolean flags, mandatory and multi-value parameters, JSON files, commands,
 * the generic flags (-h, -v, -l, --sdk-log-level, -j) and every input error.
 * Each test checks what the callbacks received, not only the return code.
 *
 * Every test starts with doca_argp_init("test_prog", &cfg) and ends with
 * doca_argp_destroy() (setup/teardown); -h and -v run either with the test
 * exit hook (doca_argp_start returns SKIPPED) or in a child process.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include <doca_argp.h>
#include <doca_log.h>

#include "argp/argp.h"
#include "unit/testing.h"

#define MAX_VALUES 8

struct cfg {
	char name[64];
	int name_calls;
	int count;
	int count_calls;
	bool flag;
	int flag_calls;
	char obj_key[64];
	int obj_calls;
	int ints[MAX_VALUES];
	int num_ints;
	char path[64];
	int re;
	int version_calls;
	int validation_calls;
	int cmd_calls;
	int size;
	doca_error_t fail_with; /* what the name callback returns */
};

static struct cfg cfg;

static doca_error_t name_cb(void *value, void *config)
{
	struct cfg *c = config;

	snprintf(c->name, sizeof(c->name), "%s", (const char *)value);
	c->name_calls++;
	return c->fail_with;
}

static doca_error_t count_cb(void *value, void *config)
{
	struct cfg *c = config;

	c->count = *(int *)value;
	c->count_calls++;
	return DOCA_SUCCESS;
}

static doca_error_t flag_cb(void *value, void *config)
{
	struct cfg *c = config;

	c->flag = *(bool *)value;
	c->flag_calls++;
	return DOCA_SUCCESS;
}

static doca_error_t obj_cb(void *value, void *config)
{
	struct cfg *c = config;
	struct json_object *key;

	if (!json_object_object_get_ex(value, "key", &key))
		return DOCA_ERROR_INVALID_VALUE;
	snprintf(c->obj_key, sizeof(c->obj_key), "%s", json_object_get_string(key));
	c->obj_calls++;
	return DOCA_SUCCESS;
}

static doca_error_t ints_cb(void *value, void *config)
{
	struct cfg *c = config;

	if (c->num_ints == MAX_VALUES)
		return DOCA_ERROR_FULL;
	c->ints[c->num_ints++] = *(int *)value;
	return DOCA_SUCCESS;
}

static doca_error_t path_cb(void *value, void *config)
{
	snprintf(((struct cfg *)config)->path, sizeof(cfg.path), "%s", (const char *)value);
	return DOCA_SUCCESS;
}

static doca_error_t re_cb(void *value, void *config)
{
	((struct cfg *)config)->re = *(int *)value;
	return DOCA_SUCCESS;
}

static doca_error_t size_cb(void *value, void *config)
{
	((struct cfg *)config)->size = *(int *)value;
	return DOCA_SUCCESS;
}

static doca_error_t version_cb(void *value, void *config)
{
	(void)value;
	((struct cfg *)config)->version_calls++;
	return DOCA_SUCCESS;
}

static doca_error_t validation_cb(void *config)
{
	struct cfg *c = config;

	c->validation_calls++;
	/* Runs after every value arrived. */
	return c->count >= 0 ? DOCA_SUCCESS : DOCA_ERROR_INVALID_VALUE;
}

static doca_error_t cmd_cb(void *config)
{
	((struct cfg *)config)->cmd_calls++;
	return DOCA_SUCCESS;
}

enum { MANDATORY = 1, MULTI = 2, CLI_ONLY = 4, HIDDEN = 8, INHERITED = 16 };

static struct doca_argp_param *make_param(const char *short_name, const char *long_name,
                                          const char *arguments, enum doca_argp_type type,
                                          doca_argp_param_cb_t cb, int flags)
{
	struct doca_argp_param *p;

	assert_doca_ok(doca_argp_param_create(&p));
	if (short_name)
		doca_argp_param_set_short_name(p, short_name);
	if (long_name)
		doca_argp_param_set_long_name(p, long_name);
	if (arguments)
		doca_argp_param_set_arguments(p, arguments);
	doca_argp_param_set_description(p, long_name ? long_name : short_name);
	doca_argp_param_set_callback(p, cb);
	doca_argp_param_set_type(p, type);
	if (flags & MANDATORY)
		doca_argp_param_set_mandatory(p);
	if (flags & MULTI)
		doca_argp_param_set_multiplicity(p);
	if (flags & CLI_ONLY)
		doca_argp_param_set_cli_only(p);
	if (flags & HIDDEN)
		doca_argp_param_set_hidden(p);
	if (flags & INHERITED)
		doca_argp_param_set_inherited(p);
	return p;
}

static void add_param(const char *short_name, const char *long_name, const char *arguments,
                      enum doca_argp_type type, doca_argp_param_cb_t cb, int flags)
{
	assert_doca_ok(doca_argp_register_param(
	        make_param(short_name, long_name, arguments, type, cb, flags)));
}

/* The parameters most tests use. */
static void add_standard_params(void)
{
	add_param("n", "name", "<name>", DOCA_ARGP_TYPE_STRING, name_cb, 0);
	add_param("c", "count", "<num>", DOCA_ARGP_TYPE_INT, count_cb, 0);
	add_param("fl", "flag", NULL, DOCA_ARGP_TYPE_BOOLEAN, flag_cb, 0);
	add_param("o", "obj", "<json>", DOCA_ARGP_TYPE_JSON_OBJ, obj_cb, 0);
	add_param("i", "int", "<num>", DOCA_ARGP_TYPE_INT, ints_cb, MULTI);
}

#define ARGV(...) ((const char *[]){ "test_prog", __VA_ARGS__ })
#define START(...)                                                               \
	doca_argp_start((int)(sizeof(ARGV(__VA_ARGS__)) / sizeof(const char *)), \
	                (char **)ARGV(__VA_ARGS__))

static int exit_status = -1;

static void record_exit(int status)
{
	exit_status = status;
}

static int setup(void **state)
{
	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	exit_status = -1;
	argp_set_exit_hook(record_exit);
	return doca_argp_init("test_prog", &cfg) == DOCA_SUCCESS ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return doca_argp_destroy() == DOCA_SUCCESS ? 0 : -1;
}

/* Runs fn with stdout in a temporary file and returns what it printed. */
static char *capture_stdout(doca_error_t (*fn)(void), doca_error_t *status)
{
	static char text[16384];
	char path[] = "/tmp/sdoca_argp_XXXXXX";
	int tmp = mkstemp(path), saved;
	ssize_t n;

	assert_true(tmp >= 0);
	unlink(path);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	dup2(tmp, STDOUT_FILENO);
	*status = fn();
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	lseek(tmp, 0, SEEK_SET);
	n = read(tmp, text, sizeof(text) - 1);
	close(tmp);
	text[n > 0 ? n : 0] = '\0';
	return text;
}

/* Writes text to a temporary JSON file; path receives its name. */
static void write_json(char *path, const char *text)
{
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void test_every_type(void **state)
{
	(void)state;
	add_standard_params();
	assert_doca_ok(START("-n", "alice", "--count", "42", "-fl", "--obj", "{\"key\": \"v1\"}"));
	assert_string_equal(cfg.name, "alice");
	assert_int_equal(cfg.count, 42);
	assert_int_equal(cfg.count_calls, 1);
	assert_true(cfg.flag);
	assert_int_equal(cfg.flag_calls, 1);
	assert_string_equal(cfg.obj_key, "v1");
	assert_int_equal(cfg.num_ints, 0);
}

static void test_negative_int_and_equals(void **state)
{
	(void)state;
	add_standard_params();
	assert_doca_ok(START("--count=-17", "-n=a=b"));
	assert_int_equal(cfg.count, -17);
	assert_string_equal(cfg.name, "a=b"); /* split at the first '=' only */
}

/* DOCA samples: -ld, -re, -nc next to argp's own -l. */
static void test_multi_letter_short_names(void **state)
{
	int level;

	(void)state;
	add_param("ld", "local-descriptor-path", "<path>", DOCA_ARGP_TYPE_STRING, path_cb, 0);
	add_param("re", "remote", "<n>", DOCA_ARGP_TYPE_INT, re_cb, 0);
	add_param("nc", "no-check", NULL, DOCA_ARGP_TYPE_BOOLEAN, flag_cb, 0);
	assert_doca_ok(START("-ld", "/tmp/desc.txt", "-l", "50", "-re", "7", "-nc"));
	assert_string_equal(cfg.path, "/tmp/desc.txt");
	assert_int_equal(cfg.re, 7);
	assert_true(cfg.flag);
	assert_doca_ok(doca_argp_get_log_level(&level));
	assert_int_equal(level, 50);
}

static void test_boolean_without_value(void **state)
{
	(void)state;
	add_standard_params();
	/* The flag does not swallow the next argument. */
	assert_doca_ok(START("-fl", "-n", "bob"));
	assert_true(cfg.flag);
	assert_string_equal(cfg.name, "bob");
}

static void test_boolean_with_explicit_value(void **state)
{
	(void)state;
	add_standard_params();
	assert_doca_ok(START("--flag=false"));
	assert_int_equal(cfg.flag_calls, 1);
	assert_false(cfg.flag);
}

static void test_boolean_bad_value(void **state)
{
	(void)state;
	add_standard_params();
	assert_doca_err(START("--flag=maybe"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(cfg.flag_calls, 0);
}

static void test_mandatory_missing(void **state)
{
	(void)state;
	add_standard_params();
	add_param("d", "device", "<name>", DOCA_ARGP_TYPE_STRING, path_cb, MANDATORY);
	assert_doca_err(START("-n", "x"), DOCA_ERROR_INVALID_VALUE);
	assert_string_equal(cfg.path, "");
}

static void test_mandatory_given(void **state)
{
	(void)state;
	add_param("d", "device", "<name>", DOCA_ARGP_TYPE_STRING, path_cb, MANDATORY);
	assert_doca_ok(START("--device", "lo"));
	assert_string_equal(cfg.path, "lo");
}

static void test_unknown_flag(void **state)
{
	(void)state;
	add_standard_params();
	/* The whole line is checked before any callback runs. */
	assert_doca_err(START("-n", "x", "--bogus", "1"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(cfg.name_calls, 0);
}

static void test_unexpected_argument(void **state)
{
	(void)state;
	add_standard_params();
	assert_doca_err(START("stray"), DOCA_ERROR_INVALID_VALUE);
}

static void test_wrong_type_int(void **state)
{
	static const char *const bad[] = { "abc", "12x", "", " 5", "99999999999", "1.5" };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(teardown(NULL), 0);
		assert_int_equal(setup(NULL), 0);
		add_standard_params();
		assert_doca_err(START("-c", bad[i]), DOCA_ERROR_INVALID_VALUE);
		assert_int_equal(cfg.count_calls, 0);
	}
}

static void test_wrong_type_json_obj(void **state)
{
	(void)state;
	add_standard_params();
	assert_doca_err(START("--obj", "[1, 2]"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(cfg.obj_calls, 0);
}

static void test_missing_value(void **state)
{
	(void)state;
	add_standard_params();
	assert_doca_err(START("-n"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(cfg.name_calls, 0);
}

static void test_repeated_singular_param(void **state)
{
	(void)state;
	add_standard_params();
	assert_doca_err(START("-n", "a", "--name", "b"), DOCA_ERROR_INVALID_VALUE);
}

static void test_multi_value(void **state)
{
	(void)state;
	add_standard_params();
	assert_doca_ok(START("-i", "1", "--int", "2", "-i=3", "-n", "x"));
	assert_int_equal(cfg.num_ints, 3);
	assert_int_equal(cfg.ints[0], 1);
	assert_int_equal(cfg.ints[1], 2);
	assert_int_equal(cfg.ints[2], 3);
}

static void test_singular_undoes_multiplicity(void **state)
{
	struct doca_argp_param *p = make_param("s", "size", "<n>", DOCA_ARGP_TYPE_INT, size_cb, 0);

	(void)state;
	doca_argp_param_set_multiplicity(p);
	doca_argp_param_set_singular(p);
	assert_doca_ok(doca_argp_register_param(p));
	assert_doca_err(START("-s", "1", "-s", "2"), DOCA_ERROR_INVALID_VALUE);
}

static void test_callback_error_propagates(void **state)
{
	(void)state;
	add_standard_params();
	cfg.fail_with = DOCA_ERROR_BAD_CONFIG;
	assert_doca_err(START("-n", "x"), DOCA_ERROR_BAD_CONFIG);
	assert_int_equal(cfg.name_calls, 1);
}

static void test_validation_callback(void **state)
{
	(void)state;
	add_standard_params();
	assert_doca_ok(doca_argp_register_validation_callback(validation_cb));
	assert_doca_ok(START("-c", "3"));
	assert_int_equal(cfg.validation_calls, 1);
}

static void test_validation_failure(void **state)
{
	(void)state;
	add_standard_params();
	assert_doca_ok(doca_argp_register_validation_callback(validation_cb));
	assert_doca_err(START("-c", "-1"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(cfg.count, -1);
	assert_int_equal(cfg.validation_calls, 1);
}

static void test_json_config_flat(void **state)
{
	char path[] = "/tmp/sdoca_argp_json_XXXXXX";

	(void)state;
	add_standard_params();
	write_json(path, "{ \"name\": \"from-json\", \"count\": 5, \"flag\": true,\n"
	                 "  \"obj\": {\"key\": \"deep\", \"n\": [1, 2]}, \"i\": [4, 5, 6] }\n");
	assert_doca_ok(START("-j", path));
	unlink(path);
	assert_string_equal(cfg.name, "from-json");
	assert_int_equal(cfg.count, 5);
	assert_true(cfg.flag);
	assert_string_equal(cfg.obj_key, "deep");
	assert_int_equal(cfg.num_ints, 3);
	assert_int_equal(cfg.ints[0], 4);
	assert_int_equal(cfg.ints[2], 6);
}

/* DOCA's grouped form; the command line overrides the file. */
static void test_json_config_sections_and_override(void **state)
{
	char path[] = "/tmp/sdoca_argp_json_XXXXXX";
	int level;

	(void)state;
	add_standard_params();
	add_param("d", "device", "<name>", DOCA_ARGP_TYPE_STRING, path_cb, MANDATORY);
	write_json(
	        path,
	        "{ \"doca_general_flags\": { \"log-level\": 60, \"sdk-log-level\": \"error\" },\n"
	        "  \"doca_program_flags\": { \"device\": \"lo\", \"count\": 5 } }");
	assert_doca_ok(START("--json", path, "-c", "9"));
	unlink(path);
	assert_string_equal(cfg.path, "lo"); /* the mandatory parameter came from the file */
	assert_int_equal(cfg.count_calls, 2);
	assert_int_equal(cfg.count, 9);
	assert_doca_ok(doca_argp_get_log_level(&level));
	assert_int_equal(level, 60);
	assert_doca_ok(doca_argp_get_sdk_log_level(&level));
	assert_int_equal(level, 30);
	assert_int_equal(doca_log_level_get_global_sdk_limit(), 30);
	doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_INFO);
	doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_WARNING);
}

static void expect_json_error(const char *text, doca_error_t expected)
{
	char path[] = "/tmp/sdoca_argp_json_XXXXXX";

	assert_int_equal(teardown(NULL), 0);
	assert_int_equal(setup(NULL), 0);
	add_standard_params();
	add_param("co", "cli-only", "<n>", DOCA_ARGP_TYPE_INT, size_cb, CLI_ONLY);
	write_json(path, text);
	assert_doca_err(START("-j", path), expected);
	unlink(path);
}

static void test_json_errors(void **state)
{
	(void)state;
	expect_json_error("{ \"name\": \"x\", ", DOCA_ERROR_INVALID_VALUE);    /* truncated */
	expect_json_error("{ name: }", DOCA_ERROR_INVALID_VALUE);              /* malformed */
	expect_json_error("[1, 2]", DOCA_ERROR_INVALID_VALUE);                 /* not an object */
	expect_json_error("{} {}", DOCA_ERROR_INVALID_VALUE);                  /* trailing text */
	expect_json_error("{ \"count\": \"abc\" }", DOCA_ERROR_INVALID_VALUE); /* wrong type */
	expect_json_error("{ \"count\": 1.5 }", DOCA_ERROR_INVALID_VALUE);     /* wrong type */
	expect_json_error("{ \"name\": 3 }", DOCA_ERROR_INVALID_VALUE);        /* wrong type */
	expect_json_error("{ \"flag\": \"yes\" }", DOCA_ERROR_INVALID_VALUE);  /* wrong type */
	expect_json_error("{ \"obj\": [] }", DOCA_ERROR_INVALID_VALUE);        /* wrong type */
	expect_json_error("{ \"count\": [1, 2] }", DOCA_ERROR_INVALID_VALUE);  /* not multi */
	expect_json_error("{ \"count\": 4294967296 }", DOCA_ERROR_INVALID_VALUE); /* range */
	expect_json_error("{ \"bogus\": 1 }", DOCA_ERROR_INVALID_VALUE);          /* unknown */
	expect_json_error("{ \"cli-only\": 1 }", DOCA_ERROR_INVALID_VALUE);       /* cli-only */
	expect_json_error("{ \"json\": \"x\" }", DOCA_ERROR_INVALID_VALUE);       /* cli-only */
	expect_json_error("{ \"doca_program_flags\": 1 }", DOCA_ERROR_INVALID_VALUE);
	expect_json_error("{ \"doca_program_flags\": {}, \"x\": {} }", DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(cfg.count_calls, 0);
}

static void test_json_missing_file(void **state)
{
	(void)state;
	add_standard_params();
	assert_doca_err(START("-j", "/nonexistent/sdoca.json"), DOCA_ERROR_NOT_FOUND);
}

static void test_json_from_memory(void **state)
{
	static const char text[] = "{\"name\": \"mem\"}";

	(void)state;
	add_standard_params();
	assert_doca_ok(argp_json_load_text(text, sizeof(text) - 1));
	assert_string_equal(cfg.name, "mem");
	/* Bytes after a NUL are not JSON. */
	assert_doca_err(argp_json_load_text("{}\0{}", 5), DOCA_ERROR_INVALID_VALUE);
}

static doca_error_t run_help(void)
{
	return START("-h");
}

static void test_help_text(void **state)
{
	doca_error_t status;
	char *text;

	(void)state;
	add_standard_params();
	add_param("ld", "local-descriptor-path", "<path>", DOCA_ARGP_TYPE_STRING, path_cb, 0);
	add_param("sec", "secret", NULL, DOCA_ARGP_TYPE_BOOLEAN, flag_cb, HIDDEN);
	text = capture_stdout(run_help, &status);
	assert_doca_err(status, DOCA_ERROR_SKIPPED);
	assert_int_equal(exit_status, EXIT_SUCCESS);
	assert_non_null(strstr(text, "Usage: test_prog [DOCA Flags] [Program Flags]"));
	assert_non_null(strstr(text, "DOCA Flags:"));
	assert_non_null(strstr(text, "-h, --help"));
	assert_non_null(strstr(text, "-v, --version"));
	assert_non_null(strstr(text, "-l, --log-level <level>"));
	assert_non_null(strstr(text, "--sdk-log-level <level>"));
	assert_non_null(strstr(text, "-j, --json <path>"));
	assert_non_null(strstr(text, "Program Flags:"));
	assert_non_null(strstr(text, "-n, --name <name>"));
	assert_non_null(strstr(text, "-fl, --flag "));
	assert_non_null(strstr(text, "-ld, --local-descriptor-path <path>"));
	assert_null(strstr(text, "secret"));
	/* The program's flags follow argp's own. */
	assert_true(strstr(text, "--name") > strstr(text, "--json"));
	assert_int_equal(cfg.name_calls, 0);
}

static doca_error_t run_usage(void)
{
	doca_argp_usage();
	return DOCA_SUCCESS;
}

static void test_usage_call(void **state)
{
	doca_error_t status;
	char *text;

	(void)state;
	add_standard_params();
	text = capture_stdout(run_usage, &status);
	assert_non_null(strstr(text, "Usage: test_prog"));
	assert_non_null(strstr(text, "-c, --count <num>"));
	assert_int_equal(exit_status, -1); /* usage alone does not end the program */
}

/* Without the test hook, -h prints to stdout and exits with 0. */
static void test_help_exits(void **state)
{
	int fds[2], status;
	char text[8192];
	ssize_t n, len = 0;
	pid_t pid;

	(void)state;
	add_standard_params();
	assert_int_equal(pipe(fds), 0);
	fflush(stdout);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		argp_set_exit_hook(NULL);
		START("--help");
		_exit(99); /* not reached */
	}
	close(fds[1]);
	while ((n = read(fds[0], text + len, sizeof(text) - 1 - (size_t)len)) > 0)
		len += n;
	text[len] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_non_null(strstr(text, "Usage: test_prog"));
	assert_non_null(strstr(text, "-n, --name <name>"));
}

static void test_command_help(void **state)
{
	struct doca_argp_cmd *cmd;
	doca_error_t status;
	char *text;

	(void)state;
	add_standard_params();
	assert_doca_ok(doca_argp_cmd_create(&cmd));
	doca_argp_cmd_set_name(cmd, "write");
	doca_argp_cmd_set_description(cmd, "Write to the peer");
	assert_doca_ok(doca_argp_cmd_register_param(
	        cmd, make_param("s", "size", "<bytes>", DOCA_ARGP_TYPE_INT, size_cb, 0)));
	assert_doca_ok(doca_argp_register_cmd(cmd));
	text = capture_stdout(run_help, &status);
	assert_non_null(strstr(text, "Commands:"));
	assert_non_null(strstr(text, "write"));
	assert_non_null(strstr(text, "Write to the peer"));
	assert_null(strstr(text, "--size"));
}

static doca_error_t run_version(void)
{
	return START("-v");
}

static void test_version_flag(void **state)
{
	doca_error_t status;
	char *text;

	(void)state;
	add_standard_params();
	text = capture_stdout(run_version, &status);
	assert_doca_err(status, DOCA_ERROR_SKIPPED);
	assert_int_equal(exit_status, EXIT_SUCCESS);
	assert_non_null(strstr(text, "test_prog"));
	assert_non_null(strstr(text, "3.3.0000"));
}

static void test_version_callback(void **state)
{
	doca_error_t status;

	(void)state;
	add_standard_params();
	assert_doca_ok(doca_argp_register_version_callback(version_cb));
	(void)capture_stdout(run_version, &status);
	assert_doca_err(status, DOCA_ERROR_SKIPPED);
	assert_int_equal(cfg.version_calls, 1);
	assert_int_equal(exit_status, EXIT_SUCCESS);
}

static void test_log_level_flags(void **state)
{
	int level;

	(void)state;
	add_standard_params();
	assert_doca_ok(START("-l", "60", "--sdk-log-level", "debug", "-n", "x"));
	assert_doca_ok(doca_argp_get_log_level(&level));
	assert_int_equal(level, 60);
	assert_int_equal(doca_log_level_get_global_lower_limit(), 60);
	assert_doca_ok(doca_argp_get_sdk_log_level(&level));
	assert_int_equal(level, 60);
	assert_int_equal(doca_log_level_get_global_sdk_limit(), 60);
	doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_INFO);
	doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_WARNING);
}

static void test_log_level_bad(void **state)
{
	(void)state;
	assert_doca_err(START("-l", "65"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_log_level_get_global_lower_limit(), DOCA_LOG_LEVEL_INFO);
	assert_int_equal(teardown(NULL), 0);
	assert_int_equal(setup(NULL), 0);
	assert_doca_err(START("--log-level", "loud"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(teardown(NULL), 0);
	assert_int_equal(setup(NULL), 0);
	assert_doca_err(START("-l"), DOCA_ERROR_INVALID_VALUE);
}

static void test_log_level_default(void **state)
{
	int level;

	(void)state;
	assert_doca_ok(START());
	assert_doca_ok(doca_argp_get_log_level(&level));
	assert_int_equal(level, (int)doca_log_level_get_global_lower_limit());
	assert_doca_err(doca_argp_get_log_level(NULL), DOCA_ERROR_INVALID_VALUE);
}

static void test_commands(void **state)
{
	struct doca_argp_cmd *cmd, *sub;

	(void)state;
	add_param("d", "device", "<name>", DOCA_ARGP_TYPE_STRING, path_cb, INHERITED);
	add_standard_params();
	assert_doca_ok(doca_argp_cmd_create(&cmd));
	doca_argp_cmd_set_name(cmd, "write");
	doca_argp_cmd_set_callback(cmd, cmd_cb);
	assert_doca_ok(doca_argp_cmd_register_param(
	        cmd, make_param("s", "size", "<bytes>", DOCA_ARGP_TYPE_INT, size_cb, MANDATORY)));
	assert_doca_ok(doca_argp_cmd_create(&sub));
	doca_argp_cmd_set_name(sub, "sub");
	assert_doca_ok(doca_argp_cmd_register_cmd(cmd, sub));
	assert_doca_ok(doca_argp_register_cmd(cmd));
	/* -d is inherited, so it is known after the command; -n is the program's. */
	assert_doca_ok(START("-n", "x", "write", "-s", "64", "-d", "lo"));
	assert_int_equal(cfg.size, 64);
	assert_string_equal(cfg.path, "lo");
	assert_string_equal(cfg.name, "x");
	assert_int_equal(cfg.cmd_calls, 1);
}

static void test_command_errors(void **state)
{
	struct doca_argp_cmd *cmd;

	(void)state;
	add_standard_params();
	assert_doca_ok(doca_argp_cmd_create(&cmd));
	doca_argp_cmd_set_name(cmd, "write");
	doca_argp_cmd_set_callback(cmd, cmd_cb);
	assert_doca_ok(doca_argp_cmd_register_param(
	        cmd, make_param("s", "size", "<bytes>", DOCA_ARGP_TYPE_INT, size_cb, MANDATORY)));
	assert_doca_ok(doca_argp_register_cmd(cmd));
	assert_doca_err(doca_argp_cmd_destroy(cmd), DOCA_ERROR_IN_USE);
	assert_doca_err(doca_argp_register_cmd(cmd), DOCA_ERROR_IN_USE);
	/* -n is not inherited: unknown after the command. */
	assert_doca_err(START("write", "-s", "1", "-n", "x"), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(cfg.cmd_calls, 0);
	assert_int_equal(teardown(NULL), 0);
	assert_int_equal(setup(NULL), 0);
	assert_doca_ok(doca_argp_cmd_create(&cmd));
	doca_argp_cmd_set_name(cmd, "write");
	assert_doca_ok(doca_argp_cmd_register_param(
	        cmd, make_param("s", "size", "<bytes>", DOCA_ARGP_TYPE_INT, size_cb, MANDATORY)));
	assert_doca_ok(doca_argp_register_cmd(cmd));
	assert_doca_ok(START()); /* the command's mandatory flag only counts when chosen */
	assert_int_equal(teardown(NULL), 0);
	assert_int_equal(setup(NULL), 0);
	assert_doca_ok(doca_argp_cmd_create(&cmd));
	doca_argp_cmd_set_name(cmd, "write");
	assert_doca_ok(doca_argp_cmd_register_param(
	        cmd, make_param("s", "size", "<bytes>", DOCA_ARGP_TYPE_INT, size_cb, MANDATORY)));
	assert_doca_ok(doca_argp_register_cmd(cmd));
	assert_doca_err(START("write"), DOCA_ERROR_INVALID_VALUE);
	/* A command left unregistered is freed by doca_argp_destroy (ASan checks). */
	assert_doca_ok(doca_argp_cmd_create(&cmd));
}

static int dpdk_argc;
static char dpdk_args[4][32];

static doca_error_t dpdk_cb(int argc, char **argv)
{
	dpdk_argc = argc;
	for (int i = 0; i < argc && i < 4; i++)
		snprintf(dpdk_args[i], sizeof(dpdk_args[i]), "%s", argv[i]);
	return argv[argc] == NULL ? DOCA_SUCCESS : DOCA_ERROR_UNEXPECTED;
}

static void test_dpdk_program(void **state)
{
	(void)state;
	add_standard_params();
	doca_argp_set_dpdk_program(dpdk_cb);
	assert_doca_ok(START("-a", "00:03.0", "--", "-n", "bob"));
	assert_int_equal(dpdk_argc, 3);
	assert_string_equal(dpdk_args[0], "test_prog");
	assert_string_equal(dpdk_args[1], "-a");
	assert_string_equal(dpdk_args[2], "00:03.0");
	assert_string_equal(cfg.name, "bob");
}

static int logged_errors;
static char logged[256];

static doca_error_t logger_cb(enum doca_log_level level, const char *format, va_list args)
{
	if (level == DOCA_LOG_LEVEL_ERROR) {
		logged_errors++;
		vsnprintf(logged, sizeof(logged), format, args);
	}
	return DOCA_SUCCESS;
}

static void test_logger_callback(void **state)
{
	(void)state;
	add_standard_params();
	logged_errors = 0;
	assert_doca_err(doca_argp_register_logger_callback(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_argp_register_logger_callback(logger_cb));
	assert_doca_err(START("--nope"), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_argp_disable_logger_callback());
	assert_int_equal(logged_errors, 1);
	assert_non_null(strstr(logged, "unknown flag '--nope'"));
}

static void test_registration_errors(void **state)
{
	struct doca_argp_param *p;

	(void)state;
	add_standard_params();
	/* No name, no type, no callback, bad names. */
	p = make_param(NULL, NULL, NULL, DOCA_ARGP_TYPE_INT, count_cb, 0);
	assert_doca_err(doca_argp_register_param(p), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_argp_param_destroy(p));
	p = make_param("t", NULL, NULL, DOCA_ARGP_TYPE_UNKNOWN, count_cb, 0);
	assert_doca_err(doca_argp_register_param(p), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_argp_param_destroy(p));
	p = make_param("t", NULL, NULL, DOCA_ARGP_TYPE_INT, NULL, 0);
	assert_doca_err(doca_argp_register_param(p), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_argp_param_destroy(p));
	p = make_param("-t", NULL, NULL, DOCA_ARGP_TYPE_INT, count_cb, 0);
	assert_doca_err(doca_argp_register_param(p), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_argp_param_destroy(p));
	/* Names already taken, by the program or by argp itself. */
	p = make_param("n", "other", NULL, DOCA_ARGP_TYPE_INT, count_cb, 0);
	assert_doca_err(doca_argp_register_param(p), DOCA_ERROR_ALREADY_EXIST);
	assert_doca_ok(doca_argp_param_destroy(p));
	p = make_param("h", NULL, NULL, DOCA_ARGP_TYPE_INT, count_cb, 0);
	assert_doca_err(doca_argp_register_param(p), DOCA_ERROR_ALREADY_EXIST);
	/* Left for doca_argp_destroy to free (ASan's leak check covers it). */
	p = make_param(NULL, "log-level", NULL, DOCA_ARGP_TYPE_INT, count_cb, 0);
	assert_doca_err(doca_argp_register_param(p), DOCA_ERROR_ALREADY_EXIST);
	/* Registered parameters belong to argp. */
	p = make_param("z", NULL, NULL, DOCA_ARGP_TYPE_INT, count_cb, 0);
	assert_doca_ok(doca_argp_register_param(p));
	assert_doca_err(doca_argp_param_destroy(p), DOCA_ERROR_IN_USE);
	assert_doca_err(doca_argp_register_param(p), DOCA_ERROR_IN_USE);
	assert_doca_err(doca_argp_param_create(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_argp_param_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_argp_register_param(NULL), DOCA_ERROR_INVALID_VALUE);
	doca_argp_param_set_short_name(NULL, "x"); /* logged, no crash */
}

static void test_state_errors(void **state)
{
	(void)state;
	assert_doca_err(doca_argp_init("again", NULL), DOCA_ERROR_BAD_STATE);
	assert_doca_ok(START());
	assert_doca_err(START(), DOCA_ERROR_BAD_STATE);
	assert_doca_err(doca_argp_start(-1, NULL), DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_argp_destroy());
	assert_doca_err(doca_argp_destroy(), DOCA_ERROR_BAD_STATE);
	assert_doca_err(START(), DOCA_ERROR_BAD_STATE);
	assert_doca_err(doca_argp_register_param(NULL), DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_argp_init(NULL, &cfg)); /* the name then comes from argv[0] */
}

static void test_grpc_not_supported(void **state)
{
	const char *addr = NULL;

	(void)state;
	doca_argp_set_grpc_program();
	assert_doca_err(doca_argp_get_grpc_addr(&addr), DOCA_ERROR_NOT_SUPPORTED);
}

#define ARGP_TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		ARGP_TEST(test_every_type),
		ARGP_TEST(test_negative_int_and_equals),
		ARGP_TEST(test_multi_letter_short_names),
		ARGP_TEST(test_boolean_without_value),
		ARGP_TEST(test_boolean_with_explicit_value),
		ARGP_TEST(test_boolean_bad_value),
		ARGP_TEST(test_mandatory_missing),
		ARGP_TEST(test_mandatory_given),
		ARGP_TEST(test_unknown_flag),
		ARGP_TEST(test_unexpected_argument),
		ARGP_TEST(test_wrong_type_int),
		ARGP_TEST(test_wrong_type_json_obj),
		ARGP_TEST(test_missing_value),
		ARGP_TEST(test_repeated_singular_param),
		ARGP_TEST(test_multi_value),
		ARGP_TEST(test_singular_undoes_multiplicity),
		ARGP_TEST(test_callback_error_propagates),
		ARGP_TEST(test_validation_callback),
		ARGP_TEST(test_validation_failure),
		ARGP_TEST(test_json_config_flat),
		ARGP_TEST(test_json_config_sections_and_override),
		ARGP_TEST(test_json_errors),
		ARGP_TEST(test_json_missing_file),
		ARGP_TEST(test_json_from_memory),
		ARGP_TEST(test_help_text),
		ARGP_TEST(test_usage_call),
		ARGP_TEST(test_help_exits),
		ARGP_TEST(test_command_help),
		ARGP_TEST(test_version_flag),
		ARGP_TEST(test_version_callback),
		ARGP_TEST(test_log_level_flags),
		ARGP_TEST(test_log_level_bad),
		ARGP_TEST(test_log_level_default),
		ARGP_TEST(test_commands),
		ARGP_TEST(test_command_errors),
		ARGP_TEST(test_dpdk_program),
		ARGP_TEST(test_logger_callback),
		ARGP_TEST(test_registration_errors),
		ARGP_TEST(test_state_errors),
		ARGP_TEST(test_grpc_not_supported),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
