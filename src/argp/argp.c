/*
 * doca_argp registry: init/destroy, callbacks and generic flags.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * doca_argp registry: init/destroy, the program's callbacks, the generic
 * flags argp adds to every program, and argp's own log messages.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "argp/argp.h"
#include "core/sdk_log.h"

SDOCA_LOG_MODULE(argp);

struct argp_context argp_ctx;

void argp_log(uint32_t level, const char *file, int line, const char *format, ...)
{
	va_list args;
	char text[1024];

	va_start(args, format);
	if (argp_ctx.logger_cb) {
		(void)argp_ctx.logger_cb((enum doca_log_level)level, format, args);
	} else if (SDOCA_LOG_ENABLED(level)) {
		vsnprintf(text, sizeof(text), format, args);
		sdoca_log_sdk(level, sdoca_log_source, file, line, "%s", text);
	}
	va_end(args);
}

void argp_set_exit_hook(void (*hook)(int status))
{
	argp_ctx.exit_hook = hook;
}

void argp_finish(int status)
{
	fflush(stdout);
	if (argp_ctx.exit_hook) {
		argp_ctx.exit_hook(status);
		return;
	}
	exit(status);
}

int argp_level_from_text(const char *text)
{
	static const struct {
		const char *name;
		int level;
	} names[] = {
		{ "disable", DOCA_LOG_LEVEL_DISABLE }, { "critical", DOCA_LOG_LEVEL_CRIT },
		{ "crit", DOCA_LOG_LEVEL_CRIT },       { "error", DOCA_LOG_LEVEL_ERROR },
		{ "warning", DOCA_LOG_LEVEL_WARNING }, { "warn", DOCA_LOG_LEVEL_WARNING },
		{ "info", DOCA_LOG_LEVEL_INFO },       { "debug", DOCA_LOG_LEVEL_DEBUG },
		{ "trace", DOCA_LOG_LEVEL_TRACE },
	};
	char *end;
	long n;

	if (!text || !*text)
		return 0;
	n = strtol(text, &end, 10);
	if (end != text && *end == '\0')
		return n >= DOCA_LOG_LEVEL_DISABLE && n <= DOCA_LOG_LEVEL_TRACE && n % 10 == 0
		               ? (int)n
		               : 0;
	for (size_t i = 0; i < SDOCA_ARRAY_SIZE(names); i++)
		if (strcasecmp(text, names[i].name) == 0)
			return names[i].level;
	return 0;
}

/* The generic flags, in the order the help text lists them. */
static const struct {
	enum argp_builtin builtin;
	const char *short_name;
	const char *long_name;
	const char *arguments;
	const char *description;
	bool cli_only;
} builtins[] = {
	{ ARGP_BUILTIN_HELP, "h", "help", NULL, "Print this help text and exit", true },
	{ ARGP_BUILTIN_VERSION, "v", "version", NULL, "Print the program's version and exit",
	  true },
	{ ARGP_BUILTIN_LOG_LEVEL, "l", "log-level", "<level>",
	  "Log level of the program: 10=DISABLE 20=CRITICAL 30=ERROR 40=WARNING 50=INFO "
	  "60=DEBUG 70=TRACE (or the name)",
	  false },
	{ ARGP_BUILTIN_SDK_LOG_LEVEL, NULL, "sdk-log-level", "<level>",
	  "Log level of the DOCA libraries, same values as --log-level", false },
	{ ARGP_BUILTIN_JSON, "j", "json", "<path>", "Read the flags from a JSON file", true },
};

static doca_error_t register_builtins(void)
{
	for (size_t i = 0; i < SDOCA_ARRAY_SIZE(builtins); i++) {
		struct doca_argp_param *p;
		doca_error_t status = doca_argp_param_create(&p);

		if (status != DOCA_SUCCESS)
			return status;
		if (builtins[i].short_name)
			doca_argp_param_set_short_name(p, builtins[i].short_name);
		doca_argp_param_set_long_name(p, builtins[i].long_name);
		if (builtins[i].arguments)
			doca_argp_param_set_arguments(p, builtins[i].arguments);
		doca_argp_param_set_description(p, builtins[i].description);
		/* -h and -v are presence flags; the levels take text ("debug" or "60"). */
		doca_argp_param_set_type(p, builtins[i].arguments ? DOCA_ARGP_TYPE_STRING
		                                                  : DOCA_ARGP_TYPE_BOOLEAN);
		p->builtin = builtins[i].builtin;
		p->cli_only = builtins[i].cli_only;
		p->inherited = true;
		p->multi = p->builtin == ARGP_BUILTIN_LOG_LEVEL ||
		           p->builtin == ARGP_BUILTIN_SDK_LOG_LEVEL; /* last one wins */
		status = argp_attach_param(&argp_ctx.root, p);
		if (status != DOCA_SUCCESS)
			return status;
	}
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_init(const char *program_name, void *program_config)
{
	doca_error_t status;

	if (argp_ctx.initialized)
		return argp_fail(DOCA_ERROR_BAD_STATE, "doca_argp_init: already initialized");
	argp_ctx.config = program_config;
	argp_ctx.program_name = program_name ? strdup(program_name) : NULL;
	if (program_name && !argp_ctx.program_name)
		return DOCA_ERROR_NO_MEMORY;
	argp_ctx.root.registered = true;
	argp_ctx.initialized = true;
	status = register_builtins();
	if (status != DOCA_SUCCESS)
		doca_argp_destroy();
	return status;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_register_param(struct doca_argp_param *input_param)
{
	if (!argp_ctx.initialized)
		return argp_fail(DOCA_ERROR_BAD_STATE,
		                 "doca_argp_register_param: call doca_argp_init first");
	return argp_attach_param(&argp_ctx.root, input_param);
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_register_cmd(struct doca_argp_cmd *input_cmd)
{
	if (!argp_ctx.initialized)
		return argp_fail(DOCA_ERROR_BAD_STATE,
		                 "doca_argp_register_cmd: call doca_argp_init first");
	return doca_argp_cmd_register_cmd(&argp_ctx.root, input_cmd);
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_register_version_callback(doca_argp_param_cb_t callback)
{
	if (!callback)
		return argp_fail(DOCA_ERROR_INVALID_VALUE,
		                 "doca_argp_register_version_callback: NULL");
	if (!argp_ctx.initialized)
		return argp_fail(DOCA_ERROR_BAD_STATE,
		                 "doca_argp_register_version_callback: not initialized");
	argp_ctx.version_cb = callback;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t
doca_argp_register_validation_callback(doca_argp_validation_cb_t callback)
{
	if (!callback)
		return argp_fail(DOCA_ERROR_INVALID_VALUE,
		                 "doca_argp_register_validation_callback: NULL");
	if (!argp_ctx.initialized)
		return argp_fail(DOCA_ERROR_BAD_STATE,
		                 "doca_argp_register_validation_callback: not initialized");
	argp_ctx.validation_cb = callback;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_register_logger_callback(doca_argp_logger_cb_t callback)
{
	if (!callback)
		return argp_fail(DOCA_ERROR_INVALID_VALUE,
		                 "doca_argp_register_logger_callback: NULL");
	argp_ctx.logger_cb = callback;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_disable_logger_callback(void)
{
	argp_ctx.logger_cb = NULL; /* back to the SDK log */
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL void doca_argp_set_dpdk_program(doca_argp_dpdk_cb_t callback)
{
	argp_ctx.dpdk_cb = callback;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_get_log_level(int *log_level)
{
	if (!log_level)
		return DOCA_ERROR_INVALID_VALUE;
	*log_level = argp_ctx.log_level ? argp_ctx.log_level
	                                : (int)doca_log_level_get_global_lower_limit();
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_get_sdk_log_level(int *log_level)
{
	if (!log_level)
		return DOCA_ERROR_INVALID_VALUE;
	*log_level = argp_ctx.sdk_log_level ? argp_ctx.sdk_log_level
	                                    : (int)doca_log_level_get_global_sdk_limit();
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL void doca_argp_set_grpc_program(void)
{
	SDOCA_LOG_ONCE(
	        DOCA_LOG_LEVEL_WARNING,
	        "doca_argp_set_grpc_program is not supported by softdoca: no gRPC front end; "
	        "the program parses its own command line");
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_get_grpc_addr(const char **address)
{
	(void)address;
	SDOCA_LOG_NOT_SUPPORTED("no gRPC front end");
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_destroy(void)
{
	void (*hook)(int) = argp_ctx.exit_hook;
	doca_argp_logger_cb_t logger = argp_ctx.logger_cb;

	if (!argp_ctx.initialized)
		return DOCA_ERROR_BAD_STATE;
	argp_cmd_clear(&argp_ctx.root);
	while (!LIST_EMPTY(&argp_ctx.live_cmds))
		argp_cmd_free(LIST_FIRST(&argp_ctx.live_cmds));
	while (!LIST_EMPTY(&argp_ctx.live_params))
		argp_param_free(LIST_FIRST(&argp_ctx.live_params));
	free(argp_ctx.program_name);
	free(argp_ctx.dpdk_argv);
	memset(&argp_ctx, 0, sizeof(argp_ctx));
	/* Neither is part of one parse: a test hook and the logger stay. */
	argp_ctx.exit_hook = hook;
	argp_ctx.logger_cb = logger;
	return DOCA_SUCCESS;
}
