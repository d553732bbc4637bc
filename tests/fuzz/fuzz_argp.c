/*
 * Fuzz target: doca_argp on arbitrary command lines and JSON files.
 *
 * The first input byte chooses a mode: even = the rest is a command line
 * (arguments separated by NUL bytes, at most 32); odd = the rest is the text
 * of a -j JSON file. Each run registers parameters of every type (one
 * mandatory, one multi-value, one cli-only, a command with a sub-command),
 * parses, checks what the callbacks received and destroys everything, so a
 * leak or a use after free shows up under ASan.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include <doca_argp.h>
#include <doca_log.h>

#include "argp/argp.h"

#define FUZZ_MAX_ARGS 32

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fuzz_cfg {
	unsigned int calls;
};

static doca_error_t string_cb(void *value, void *config)
{
	if (!value || !config)
		abort();
	((struct fuzz_cfg *)config)->calls += strlen(value) > 0;
	return DOCA_SUCCESS;
}

static doca_error_t int_cb(void *value, void *config)
{
	volatile int v = *(int *)value; /* must be readable */

	(void)v;
	((struct fuzz_cfg *)config)->calls++;
	return DOCA_SUCCESS;
}

static doca_error_t bool_cb(void *value, void *config)
{
	bool b = *(bool *)value;

	if (b != true && b != false)
		abort();
	((struct fuzz_cfg *)config)->calls++;
	return DOCA_SUCCESS;
}

static doca_error_t obj_cb(void *value, void *config)
{
	if (!json_object_is_type(value, json_type_object))
		abort();
	((struct fuzz_cfg *)config)->calls++;
	/* A callback may refuse a value; argp must return its error cleanly. */
	return json_object_object_length(value) > 8 ? DOCA_ERROR_TOO_BIG : DOCA_SUCCESS;
}

static doca_error_t cmd_cb(void *config)
{
	((struct fuzz_cfg *)config)->calls++;
	return DOCA_SUCCESS;
}

static void ignore_exit(int status)
{
	(void)status;
}

static void add(struct doca_argp_cmd *cmd, const char *short_name, const char *long_name,
                enum doca_argp_type type, doca_argp_param_cb_t cb, int flags)
{
	struct doca_argp_param *p;

	if (doca_argp_param_create(&p) != DOCA_SUCCESS)
		abort();
	if (short_name)
		doca_argp_param_set_short_name(p, short_name);
	doca_argp_param_set_long_name(p, long_name);
	doca_argp_param_set_arguments(p, "<x>");
	doca_argp_param_set_description(p, long_name);
	doca_argp_param_set_type(p, type);
	doca_argp_param_set_callback(p, cb);
	if (flags & 1)
		doca_argp_param_set_mandatory(p);
	if (flags & 2)
		doca_argp_param_set_multiplicity(p);
	if (flags & 4)
		doca_argp_param_set_cli_only(p);
	if (flags & 8)
		doca_argp_param_set_inherited(p);
	if ((cmd ? doca_argp_cmd_register_param(cmd, p) : doca_argp_register_param(p)) !=
	    DOCA_SUCCESS)
		abort();
}

static struct doca_argp_cmd *add_cmd(struct doca_argp_cmd *parent, const char *name)
{
	struct doca_argp_cmd *cmd;

	if (doca_argp_cmd_create(&cmd) != DOCA_SUCCESS)
		abort();
	doca_argp_cmd_set_name(cmd, name);
	doca_argp_cmd_set_description(cmd, name);
	doca_argp_cmd_set_callback(cmd, cmd_cb);
	if ((parent ? doca_argp_cmd_register_cmd(parent, cmd) : doca_argp_register_cmd(cmd)) !=
	    DOCA_SUCCESS)
		abort();
	return cmd;
}

static void setup(struct fuzz_cfg *cfg)
{
	struct doca_argp_cmd *cmd;

	if (doca_argp_init("fuzz", cfg) != DOCA_SUCCESS)
		abort();
	add(NULL, "n", "name", DOCA_ARGP_TYPE_STRING, string_cb, 0);
	add(NULL, "c", "count", DOCA_ARGP_TYPE_INT, int_cb, 0);
	add(NULL, "fl", "flag", DOCA_ARGP_TYPE_BOOLEAN, bool_cb, 0);
	add(NULL, "o", "obj", DOCA_ARGP_TYPE_JSON_OBJ, obj_cb, 0);
	add(NULL, "i", "int", DOCA_ARGP_TYPE_INT, int_cb, 2);
	add(NULL, "d", "device", DOCA_ARGP_TYPE_STRING, string_cb, 1 | 8);
	add(NULL, NULL, "cli", DOCA_ARGP_TYPE_STRING, string_cb, 4);
	cmd = add_cmd(NULL, "write");
	add(cmd, "s", "size", DOCA_ARGP_TYPE_INT, int_cb, 8);
	add(add_cmd(cmd, "sub"), "x", "extra", DOCA_ARGP_TYPE_BOOLEAN, bool_cb, 2);
}

/* -j would make the fuzzer open files it names (/dev/stdin blocks): the
 * JSON mode feeds the same parser from memory instead. */
static bool names_json_flag(const char *arg)
{
	return strncmp(arg, "-j", 2) == 0 || strncmp(arg, "--j", 3) == 0;
}

static void run_cli(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *argv[FUZZ_MAX_ARGS + 1];
	int argc = 0;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	argv[argc++] = "fuzz";
	for (size_t at = 0; at <= size && argc < FUZZ_MAX_ARGS; at += strlen(text + at) + 1) {
		if (names_json_flag(text + at)) {
			free(text);
			return;
		}
		argv[argc++] = text + at;
	}
	argv[argc] = NULL;
	(void)doca_argp_start(argc, argv);
	free(text);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DISABLE);
	argp_set_exit_hook(ignore_exit);
	/* -h and -v print; keep the fuzzer's output readable. */
	if (!freopen("/dev/null", "w", stdout))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_cfg cfg = { 0 };

	if (size == 0)
		return 0;
	setup(&cfg);
	if (data[0] & 1) {
		(void)argp_json_load_text((const char *)data + 1, size - 1);
	} else {
		run_cli(data + 1, size - 1);
		doca_argp_usage();
	}
	if (doca_argp_destroy() != DOCA_SUCCESS)
		abort();
	/* -l and --sdk-log-level change process-wide levels: put them back. */
	doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_INFO);
	doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DISABLE);
	return 0;
}
