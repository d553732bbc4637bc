/*
 * doca_argp values: checked against the parameter type, then delivered.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * doca_argp values: command-line text or a JSON value checked against the
 * parameter's type, then handed to the generic flag or the program's
 * callback as callback(value, program_config).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

#include "argp/argp.h"

/* Deep enough for any configuration, shallow enough for the stack. */
#define ARGP_JSON_MAX_DEPTH 64

static const char *type_name(enum doca_argp_type type)
{
	switch (type) {
	case DOCA_ARGP_TYPE_STRING:
		return "a string";
	case DOCA_ARGP_TYPE_INT:
		return "an integer";
	case DOCA_ARGP_TYPE_BOOLEAN:
		return "a boolean";
	case DOCA_ARGP_TYPE_JSON_OBJ:
		return "a JSON object";
	default:
		return "a value";
	}
}

struct json_object *argp_json_parse(const char *text, size_t len, const char **why)
{
	struct json_tokener *tok = json_tokener_new_ex(ARGP_JSON_MAX_DEPTH);
	struct json_object *obj;
	enum json_tokener_error err;
	size_t end;

	if (!tok) {
		*why = "out of memory";
		return NULL;
	}
	/* The terminating NUL is passed too: it ends a number at the very end. */
	obj = json_tokener_parse_ex(tok, text, (int)(len < INT_MAX ? len + 1 : INT_MAX));
	err = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (err != json_tokener_success || !obj) {
		json_object_put(obj);
		*why = err == json_tokener_continue ? "unexpected end of the text"
		                                    : json_tokener_error_desc(err);
		return NULL;
	}
	for (size_t i = end; i < len; i++)
		if (!isspace((unsigned char)text[i])) {
			json_object_put(obj);
			*why = "more text after the JSON value";
			return NULL;
		}
	return obj;
}

static doca_error_t parse_int(const char *text, int *out)
{
	char *end;
	long n;

	if (!text || !*text || isspace((unsigned char)*text))
		return DOCA_ERROR_INVALID_VALUE;
	errno = 0;
	n = strtol(text, &end, 10);
	if (errno || *end != '\0' || n < INT_MIN || n > INT_MAX)
		return DOCA_ERROR_INVALID_VALUE;
	*out = (int)n;
	return DOCA_SUCCESS;
}

static doca_error_t parse_bool(const char *text, bool *out)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcasecmp(text, yes[i]) == 0) {
			*out = true;
			return DOCA_SUCCESS;
		}
		if (strcasecmp(text, no[i]) == 0) {
			*out = false;
			return DOCA_SUCCESS;
		}
	}
	return DOCA_ERROR_INVALID_VALUE;
}

doca_error_t argp_value_from_text(const struct doca_argp_param *param, const char *text,
                                  struct argp_value *value)
{
	char label[160];
	const char *why = NULL;
	doca_error_t status = DOCA_SUCCESS;

	memset(value, 0, sizeof(*value));
	argp_param_label(param, label, sizeof(label));
	switch (param->type) {
	case DOCA_ARGP_TYPE_BOOLEAN:
		value->b = true; /* a flag without a value */
		if (text)
			status = parse_bool(text, &value->b);
		break;
	case DOCA_ARGP_TYPE_INT:
		status = parse_int(text, &value->i);
		break;
	case DOCA_ARGP_TYPE_JSON_OBJ:
		value->obj = text ? argp_json_parse(text, strlen(text), &why) : NULL;
		if (value->obj && !json_object_is_type(value->obj, json_type_object)) {
			argp_value_release(value);
			why = "not an object";
		}
		status = value->obj ? DOCA_SUCCESS : DOCA_ERROR_INVALID_VALUE;
		break;
	default:
		value->s = text;
		status = text ? DOCA_SUCCESS : DOCA_ERROR_INVALID_VALUE;
	}
	if (status != DOCA_SUCCESS)
		return argp_fail(status, "argp: %s expects %s, got '%s'%s%s", label,
		                 type_name(param->type), text ? text : "", why ? ": " : "",
		                 why ? why : "");
	return DOCA_SUCCESS;
}

/* The log-level flags take a number or a name, in JSON as on the command line. */
static bool json_to_level_text(struct json_object *json, struct argp_value *value)
{
	if (json_object_is_type(json, json_type_int)) {
		snprintf(value->text, sizeof(value->text), "%lld",
		         (long long)json_object_get_int64(json));
		value->s = value->text;
		return true;
	}
	if (json_object_is_type(json, json_type_string)) {
		value->s = json_object_get_string(json);
		return true;
	}
	return false;
}

doca_error_t argp_value_from_json(const struct doca_argp_param *param, struct json_object *json,
                                  struct argp_value *value)
{
	enum json_type type = json_object_get_type(json);
	char label[160];
	bool ok = false;

	memset(value, 0, sizeof(*value));
	if (param->builtin == ARGP_BUILTIN_LOG_LEVEL ||
	    param->builtin == ARGP_BUILTIN_SDK_LOG_LEVEL)
		ok = json_to_level_text(json, value);
	else
		switch (param->type) {
		case DOCA_ARGP_TYPE_STRING:
			ok = type == json_type_string;
			value->s = ok ? json_object_get_string(json) : NULL;
			break;
		case DOCA_ARGP_TYPE_INT: {
			int64_t n = json_object_get_int64(json);

			ok = type == json_type_int && n >= INT_MIN && n <= INT_MAX;
			value->i = (int)n;
			break;
		}
		case DOCA_ARGP_TYPE_BOOLEAN:
			ok = type == json_type_boolean;
			value->b = ok && json_object_get_boolean(json);
			break;
		case DOCA_ARGP_TYPE_JSON_OBJ:
			ok = type == json_type_object;
			value->obj = ok ? json_object_get(json) : NULL;
			break;
		default:
			break;
		}
	if (!ok)
		return argp_fail(
		        DOCA_ERROR_INVALID_VALUE, "argp: %s expects %s, the JSON file has %s",
		        argp_param_label(param, label, sizeof(label)), type_name(param->type),
		        json_object_to_json_string_ext(json, JSON_C_TO_STRING_PLAIN));
	return DOCA_SUCCESS;
}

void argp_value_release(struct argp_value *value)
{
	json_object_put(value->obj);
	value->obj = NULL;
}

static doca_error_t apply_log_level(const struct doca_argp_param *param, const char *text)
{
	int level = argp_level_from_text(text);
	char label[160];

	if (!level)
		return argp_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "argp: %s expects 10..70 or disable, critical, error, warning, info, "
		        "debug, trace; got '%s'",
		        argp_param_label(param, label, sizeof(label)), text ? text : "");
	if (param->builtin == ARGP_BUILTIN_LOG_LEVEL) {
		argp_ctx.log_level = level;
		return doca_log_level_set_global_lower_limit((uint32_t)level);
	}
	argp_ctx.sdk_log_level = level;
	return doca_log_level_set_global_sdk_limit((uint32_t)level);
}

doca_error_t argp_apply(struct doca_argp_param *param, const struct argp_value *value)
{
	int i = value->i;
	bool b = value->b;
	void *arg;
	char label[160];
	doca_error_t status;

	switch (param->builtin) {
	case ARGP_BUILTIN_LOG_LEVEL:
	case ARGP_BUILTIN_SDK_LOG_LEVEL:
		return apply_log_level(param, value->s);
	case ARGP_BUILTIN_NONE:
		break;
	default:
		return DOCA_SUCCESS; /* -h, -v and -j act while the command line is read */
	}
	switch (param->type) {
	case DOCA_ARGP_TYPE_INT:
		arg = &i;
		break;
	case DOCA_ARGP_TYPE_BOOLEAN:
		arg = &b;
		break;
	case DOCA_ARGP_TYPE_JSON_OBJ:
		arg = value->obj;
		break;
	default:
		arg = (void *)(uintptr_t)value->s; /* callbacks take void *, as in DOCA */
	}
	status = param->callback(arg, argp_ctx.config);
	if (status != DOCA_SUCCESS)
		return argp_fail(status, "argp: the program refused the value of %s: %s",
		                 argp_param_label(param, label, sizeof(label)),
		                 doca_error_get_name(status));
	return DOCA_SUCCESS;
}
