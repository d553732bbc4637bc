/*
 * doca_argp internals shared by the files of src/argp.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * doca_argp internals, shared by the files of src/argp:
 *   argp.c         the registry: init/destroy, callbacks, generic flags, logging
 *   params.c       parameter objects and their setters
 *   cmds.c         command objects (DOCA 3.0 sub-commands)
 *   values.c       text/JSON -> typed value, and handing a value to its callback
 *   parse.c        doca_argp_start: the command line
 *   json_config.c  -j FILE: parameters from a JSON file (json-c)
 *   usage.c        help and version output
 *
 * argp runs once at program start-up on one thread; nothing here is locked.
 * Names avoid glibc's own argp_* symbols (argp_parse, argp_usage, argp_error,
 * ...) because the static archive links into programs that may use them.
 */
#ifndef SDOCA_ARGP_ARGP_H_
#define SDOCA_ARGP_ARGP_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/queue.h>

#include <doca_argp.h>

struct json_object;

/* The flags argp handles itself; ARGP_BUILTIN_NONE is a program parameter. */
enum argp_builtin {
	ARGP_BUILTIN_NONE = 0,
	ARGP_BUILTIN_HELP,
	ARGP_BUILTIN_VERSION,
	ARGP_BUILTIN_LOG_LEVEL,
	ARGP_BUILTIN_SDK_LOG_LEVEL,
	ARGP_BUILTIN_JSON,
};

struct doca_argp_param {
	char *short_name;
	char *long_name;
	char *arguments;
	char *description;
	doca_argp_param_cb_t callback;
	enum doca_argp_type type;
	enum argp_builtin builtin;
	bool mandatory;
	bool cli_only;
	bool multi;
	bool inherited;                   /* visible in the sub-commands of its command */
	bool hidden;                      /* left out of the help text */
	bool no_memory;                   /* a setter could not copy its text: registration fails */
	struct doca_argp_cmd *owner;      /* NULL until registered */
	unsigned int given;               /* occurrences on the command line */
	unsigned int json_given;          /* occurrences in the JSON file */
	struct doca_argp_param *next;     /* in the owner's list, registration order */
	LIST_ENTRY(doca_argp_param) live; /* in argp_ctx.live_params */
};

struct doca_argp_cmd {
	char *name;
	char *description;
	doca_argp_cmd_cb_t callback;
	bool hidden;
	bool no_memory;
	bool registered;
	struct doca_argp_cmd *parent;
	struct doca_argp_param *params;
	struct doca_argp_cmd *children;
	struct doca_argp_cmd *next;     /* next sibling */
	LIST_ENTRY(doca_argp_cmd) live; /* in argp_ctx.live_cmds */
};

struct argp_context {
	bool initialized;
	bool started;
	char *program_name;
	void *config;
	struct doca_argp_cmd root;      /* the program: its parameters and commands */
	struct doca_argp_cmd *selected; /* the command doca_argp_start chose */
	doca_argp_param_cb_t version_cb;
	doca_argp_validation_cb_t validation_cb;
	doca_argp_logger_cb_t logger_cb;
	doca_argp_dpdk_cb_t dpdk_cb;
	int log_level; /* 0 until -l is given */
	int sdk_log_level;
	char **dpdk_argv; /* handed to dpdk_cb, kept until destroy (DPDK keeps it) */
	void (*exit_hook)(int status);
	/* Every parameter and command not yet destroyed, registered or not, so
	 * doca_argp_destroy frees what a failed registration left behind. */
	LIST_HEAD(, doca_argp_param) live_params;
	LIST_HEAD(, doca_argp_cmd) live_cmds;
};

extern struct argp_context argp_ctx;

/* One value of a parameter, as its callback receives it. */
struct argp_value {
	int i;
	bool b;
	const char *s;
	struct json_object *obj; /* owned: argp_value_release() drops it */
	char text[16];           /* s of a JSON number given to a text flag */
};

/* argp.c */
void argp_log(uint32_t level, const char *file, int line, const char *format, ...)
        __attribute__((format(printf, 4, 5)));
#define ARGP_ERR(...) argp_log(DOCA_LOG_LEVEL_ERROR, __FILE__, __LINE__, __VA_ARGS__)
#define ARGP_WARN(...) argp_log(DOCA_LOG_LEVEL_WARNING, __FILE__, __LINE__, __VA_ARGS__)
#define ARGP_DBG(...) argp_log(DOCA_LOG_LEVEL_DEBUG, __FILE__, __LINE__, __VA_ARGS__)
/* Logs the reason at ERROR and evaluates to err: return argp_fail(...). */
#define argp_fail(err, ...) (ARGP_ERR(__VA_ARGS__), (err))

/* Ends the program after -h or -v (a test hook may return instead). */
void argp_finish(int status);
/* Tests and fuzzers: called instead of exit() after -h/-v; doca_argp_start
 * then returns DOCA_ERROR_SKIPPED. NULL restores exit(). */
void argp_set_exit_hook(void (*hook)(int status));
/* Parses "10".."70" or a level name ("debug"); 0 if it is neither. */
int argp_level_from_text(const char *text);

/* The DOCA 2.x gRPC calls stay exported for 2.x programs; the public header
 * declares them for SOFTDOCA_API_VERSION < 300 only. */
DOCA_EXPERIMENTAL void doca_argp_set_grpc_program(void);
DOCA_EXPERIMENTAL doca_error_t doca_argp_get_grpc_addr(const char **address);

/* params.c */
void argp_param_free(struct doca_argp_param *param);
/* "-s/--long", "-s" or "--long", for messages. */
const char *argp_param_label(const struct doca_argp_param *param, char *buf, size_t size);
/* Checks a parameter is complete and its names unused under cmd, then adds it. */
doca_error_t argp_attach_param(struct doca_argp_cmd *cmd, struct doca_argp_param *param);
/* A parameter visible in cmd by short or long name: cmd's own, then the
 * inherited ones of every ancestor. */
struct doca_argp_param *argp_find_param(const struct doca_argp_cmd *cmd, const char *name,
                                        size_t len, bool long_name);

/* cmds.c */
void argp_cmd_free(struct doca_argp_cmd *cmd);
/* Frees the parameters and sub-commands of cmd (not cmd itself). */
void argp_cmd_clear(struct doca_argp_cmd *cmd);
struct doca_argp_cmd *argp_find_cmd(const struct doca_argp_cmd *cmd, const char *name);

/* values.c */
/* Parses text[0..len) (text[len] must be '\0') as one JSON value with
 * nothing but blanks after it; NULL and *why on failure. */
struct json_object *argp_json_parse(const char *text, size_t len, const char **why);
doca_error_t argp_value_from_text(const struct doca_argp_param *param, const char *text,
                                  struct argp_value *value);
doca_error_t argp_value_from_json(const struct doca_argp_param *param, struct json_object *json,
                                  struct argp_value *value);
void argp_value_release(struct argp_value *value);
/* Gives one value to the parameter: a generic flag's action or the callback. */
doca_error_t argp_apply(struct doca_argp_param *param, const struct argp_value *value);

/* json_config.c */
doca_error_t argp_json_load_file(const char *path);
/* The same from memory (fuzzing, tests): text need not be NUL-terminated. */
doca_error_t argp_json_load_text(const char *text, size_t len);

/* usage.c */
void argp_print_usage(FILE *out, const struct doca_argp_cmd *cmd);
void argp_print_version(FILE *out);

#endif /* SDOCA_ARGP_ARGP_H_ */
