/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * doca_argp: the command-line parser of DOCA programs.
 *
 * A program calls doca_argp_init(), describes each of its parameters
 * (doca_argp_param_create, set_* and doca_argp_register_param, which hands
 * the parameter over to argp), then doca_argp_start(argc, argv): every value
 * found on the command line or in a JSON file (-j FILE) is passed to the
 * parameter's callback as callback(value, program_config). The value is an
 * int * for DOCA_ARGP_TYPE_INT, a bool * for BOOLEAN, a char * for STRING and
 * a struct json_object * (json-c) for JSON_OBJ; it lives until the callback
 * returns (strings from the command line live as long as argv).
 * doca_argp_destroy() frees everything argp holds.
 *
 * argp also handles -h/--help, -v/--version, -l/--log-level,
 * --sdk-log-level and -j/--json itself.
 */
#ifndef DOCA_ARGP_H_
#define DOCA_ARGP_H_

#include <stdarg.h>

#include "doca_compat.h"
#include "doca_error.h"
#include "doca_log.h"

SOFTDOCA_BEGIN_DECLS

enum doca_argp_type {
	DOCA_ARGP_TYPE_UNKNOWN = 0,
	DOCA_ARGP_TYPE_STRING = 1,
	DOCA_ARGP_TYPE_INT = 2,
	DOCA_ARGP_TYPE_BOOLEAN = 3,
	DOCA_ARGP_TYPE_JSON_OBJ = 4,
};

struct doca_argp_param;
struct doca_argp_cmd;

/* callback(value, program_config) for one value of a parameter. */
typedef doca_error_t (*doca_argp_param_cb_t)(void *, void *);
/* callback(program_config) once a command was selected and parsed. */
typedef doca_error_t (*doca_argp_cmd_cb_t)(void *);
/* Receives argv[0] and the arguments before "--" (DPDK's EAL arguments). */
typedef doca_error_t (*doca_argp_dpdk_cb_t)(int argc, char **argv);
/* callback(program_config) after every parameter was parsed. */
typedef doca_error_t (*doca_argp_validation_cb_t)(void *);
/* Receives argp's own messages instead of the SDK log. */
typedef doca_error_t (*doca_argp_logger_cb_t)(enum doca_log_level level, const char *format,
                                              va_list args);

#if SOFTDOCA_API_VERSION == 202
/* DOCA 2.2 names of the callback types. */
typedef doca_argp_param_cb_t callback_func;
typedef doca_argp_dpdk_cb_t dpdk_callback;
typedef doca_argp_validation_cb_t validation_callback;
#endif

DOCA_EXPERIMENTAL void doca_argp_usage(void);
DOCA_EXPERIMENTAL doca_error_t doca_argp_init(const char *program_name, void *program_config);
DOCA_EXPERIMENTAL doca_error_t doca_argp_register_param(struct doca_argp_param *input_param);
DOCA_EXPERIMENTAL doca_error_t doca_argp_register_cmd(struct doca_argp_cmd *input_cmd);
DOCA_EXPERIMENTAL doca_error_t doca_argp_register_version_callback(doca_argp_param_cb_t callback);
DOCA_EXPERIMENTAL doca_error_t
doca_argp_register_validation_callback(doca_argp_validation_cb_t callback);
DOCA_EXPERIMENTAL doca_error_t doca_argp_register_logger_callback(doca_argp_logger_cb_t callback);
DOCA_EXPERIMENTAL doca_error_t doca_argp_disable_logger_callback(void);
DOCA_EXPERIMENTAL doca_error_t doca_argp_start(int argc, char **argv);
DOCA_EXPERIMENTAL doca_error_t doca_argp_destroy(void);
DOCA_EXPERIMENTAL void doca_argp_set_dpdk_program(doca_argp_dpdk_cb_t callback);

DOCA_EXPERIMENTAL doca_error_t doca_argp_param_create(struct doca_argp_param **param);
DOCA_EXPERIMENTAL void doca_argp_param_set_short_name(struct doca_argp_param *param,
                                                      const char *name);
DOCA_EXPERIMENTAL void doca_argp_param_set_long_name(struct doca_argp_param *param,
                                                     const char *name);
DOCA_EXPERIMENTAL void doca_argp_param_set_arguments(struct doca_argp_param *param,
                                                     const char *arguments);
DOCA_EXPERIMENTAL void doca_argp_param_set_description(struct doca_argp_param *param,
                                                       const char *description);
DOCA_EXPERIMENTAL void doca_argp_param_set_callback(struct doca_argp_param *param,
                                                    doca_argp_param_cb_t callback);
DOCA_EXPERIMENTAL void doca_argp_param_set_type(struct doca_argp_param *param,
                                                enum doca_argp_type type);
DOCA_EXPERIMENTAL void doca_argp_param_set_mandatory(struct doca_argp_param *param);
DOCA_EXPERIMENTAL void doca_argp_param_set_cli_only(struct doca_argp_param *param);
DOCA_EXPERIMENTAL void doca_argp_param_set_multiplicity(struct doca_argp_param *param);
DOCA_EXPERIMENTAL void doca_argp_param_set_singular(struct doca_argp_param *param);
DOCA_EXPERIMENTAL void doca_argp_param_set_inherited(struct doca_argp_param *param);
DOCA_EXPERIMENTAL void doca_argp_param_set_hidden(struct doca_argp_param *param);
DOCA_EXPERIMENTAL doca_error_t doca_argp_param_destroy(struct doca_argp_param *param);

DOCA_EXPERIMENTAL doca_error_t doca_argp_cmd_create(struct doca_argp_cmd **cmd);
DOCA_EXPERIMENTAL void doca_argp_cmd_set_name(struct doca_argp_cmd *cmd, const char *name);
DOCA_EXPERIMENTAL void doca_argp_cmd_set_description(struct doca_argp_cmd *cmd,
                                                     const char *description);
DOCA_EXPERIMENTAL void doca_argp_cmd_set_callback(struct doca_argp_cmd *cmd,
                                                  doca_argp_cmd_cb_t callback);
DOCA_EXPERIMENTAL void doca_argp_cmd_set_hidden(struct doca_argp_cmd *cmd);
DOCA_EXPERIMENTAL doca_error_t doca_argp_cmd_register_param(struct doca_argp_cmd *cmd,
                                                            struct doca_argp_param *input_param);
DOCA_EXPERIMENTAL doca_error_t doca_argp_cmd_register_cmd(struct doca_argp_cmd *cmd,
                                                          struct doca_argp_cmd *input_cmd);
DOCA_EXPERIMENTAL doca_error_t doca_argp_cmd_destroy(struct doca_argp_cmd *cmd);

DOCA_EXPERIMENTAL doca_error_t doca_argp_get_log_level(int *log_level);
DOCA_EXPERIMENTAL doca_error_t doca_argp_get_sdk_log_level(int *log_level);

#if SOFTDOCA_API_VERSION < 300
/* DOCA 2.x gRPC programs; softdoca has no gRPC front end (NOT_SUPPORTED). */
DOCA_EXPERIMENTAL void doca_argp_set_grpc_program(void);
DOCA_EXPERIMENTAL doca_error_t doca_argp_get_grpc_addr(const char **address);
#endif

SOFTDOCA_END_DECLS

#endif /* DOCA_ARGP_H_ */
