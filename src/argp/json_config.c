/*
 * -j/--json FILE: the program's flags read from a JSON file.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * -j/--json FILE: the program's flags from a JSON file, read with json-c.
 *
 * The file is one object. Its keys are flag names (long, or short) and its
 * values the flag's value in JSON: a string, an integer, true/false or an
 * object, following the parameter's type; a multi-value parameter may take
 * an array (one callback per element). The flags may also be grouped as
 * DOCA's own configuration files do:
 *
 *   { "doca_general_flags": { "log-level": 60 },
 *     "doca_program_flags": { "device": "lo", "msg-size": 4096 } }
 *
 * Only the program's own (top-level) parameters can be set from a file, and
 * none of those marked cli-only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "argp/argp.h"

/* A configuration file is small; anything larger is a mistake. */
#define ARGP_JSON_MAX_FILE (16u << 20)

static const char SECTION_GENERAL[] = "doca_general_flags";
static const char SECTION_PROGRAM[] = "doca_program_flags";
static const char SECTION_DPDK[] = "doca_dpdk_flags";

static struct doca_argp_param *find_key(const char *key)
{
	size_t len = strlen(key);
	struct doca_argp_param *p = argp_find_param(&argp_ctx.root, key, len, true);

	return p ? p : argp_find_param(&argp_ctx.root, key, len, false);
}

static doca_error_t apply_one(struct doca_argp_param *param, struct json_object *json)
{
	struct argp_value value;
	doca_error_t status = argp_value_from_json(param, json, &value);

	if (status == DOCA_SUCCESS)
		status = argp_apply(param, &value);
	argp_value_release(&value);
	return status;
}

static doca_error_t apply_key(const char *key, struct json_object *json)
{
	struct doca_argp_param *p = find_key(key);
	char label[160];
	doca_error_t status = DOCA_SUCCESS;

	if (!p)
		return argp_fail(DOCA_ERROR_INVALID_VALUE,
		                 "argp: unknown flag '%s' in the JSON file", key);
	argp_param_label(p, label, sizeof(label));
	if (p->cli_only)
		return argp_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "argp: %s can only be given on the command line, not in a JSON file",
		        label);
	if (p->json_given++ && !p->multi)
		return argp_fail(DOCA_ERROR_INVALID_VALUE,
		                 "argp: %s is given more than once in the JSON "
		                 "file",
		                 label);
	if (p->multi && json_object_is_type(json, json_type_array)) {
		size_t n = json_object_array_length(json);

		for (size_t i = 0; i < n && status == DOCA_SUCCESS; i++)
			status = apply_one(p, json_object_array_get_idx(json, i));
		return status;
	}
	return apply_one(p, json);
}

/* Calls fn(name, value) for each member of obj, in the file's order. */
static doca_error_t for_each_member(struct json_object *obj,
                                    doca_error_t (*fn)(const char *, struct json_object *))
{
	struct json_object_iterator it = json_object_iter_begin(obj);
	struct json_object_iterator end = json_object_iter_end(obj);

	for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		doca_error_t status =
		        fn(json_object_iter_peek_name(&it), json_object_iter_peek_value(&it));

		if (status != DOCA_SUCCESS)
			return status;
	}
	return DOCA_SUCCESS;
}

static doca_error_t apply_section(const char *name, struct json_object *json)
{
	if (strcmp(name, SECTION_DPDK) == 0) {
		ARGP_WARN("argp: '%s' in the JSON file is ignored: softdoca runs no DPDK", name);
		return DOCA_SUCCESS;
	}
	if (strcmp(name, SECTION_GENERAL) != 0 && strcmp(name, SECTION_PROGRAM) != 0)
		return argp_fail(DOCA_ERROR_INVALID_VALUE,
		                 "argp: unknown section '%s' in the JSON file (expected %s or %s)",
		                 name, SECTION_GENERAL, SECTION_PROGRAM);
	if (!json_object_is_type(json, json_type_object))
		return argp_fail(DOCA_ERROR_INVALID_VALUE,
		                 "argp: '%s' in the JSON file is not an object", name);
	return for_each_member(json, apply_key);
}

static bool has_sections(struct json_object *obj)
{
	return json_object_object_get_ex(obj, SECTION_GENERAL, NULL) ||
	       json_object_object_get_ex(obj, SECTION_PROGRAM, NULL) ||
	       json_object_object_get_ex(obj, SECTION_DPDK, NULL);
}

/* text[len] is '\0'. */
static doca_error_t load_terminated(const char *text, size_t len)
{
	const char *why = NULL;
	struct json_object *obj = argp_json_parse(text, len, &why);
	doca_error_t status;

	if (!obj)
		return argp_fail(DOCA_ERROR_INVALID_VALUE,
		                 "argp: the JSON file is not valid JSON: %s", why);
	if (!json_object_is_type(obj, json_type_object)) {
		json_object_put(obj);
		return argp_fail(DOCA_ERROR_INVALID_VALUE,
		                 "argp: the JSON file must hold one object");
	}
	status = for_each_member(obj, has_sections(obj) ? apply_section : apply_key);
	json_object_put(obj);
	return status;
}

doca_error_t argp_json_load_text(const char *text, size_t len)
{
	char *copy = malloc(len + 1);
	doca_error_t status;

	if (!copy)
		return argp_fail(DOCA_ERROR_NO_MEMORY, "argp: out of memory");
	memcpy(copy, text, len);
	copy[len] = '\0';
	status = load_terminated(copy, len);
	free(copy);
	return status;
}

doca_error_t argp_json_load_file(const char *path)
{
	FILE *file = fopen(path, "rb");
	char *text = NULL;
	size_t len = 0, cap = 0;
	doca_error_t status;

	if (!file) {
		int err = errno;

		return argp_fail(err == ENOENT ? DOCA_ERROR_NOT_FOUND : DOCA_ERROR_IO_FAILED,
		                 "argp: cannot open the JSON file '%s': %s", path, strerror(err));
	}
	for (;;) {
		size_t n;

		if (len + 1 >= cap) {
			char *grown = cap < ARGP_JSON_MAX_FILE ? realloc(text, cap ? cap * 2 : 4096)
			                                       : NULL;

			if (!grown) {
				free(text);
				fclose(file);
				return argp_fail(cap < ARGP_JSON_MAX_FILE ? DOCA_ERROR_NO_MEMORY
				                                          : DOCA_ERROR_TOO_BIG,
				                 "argp: cannot read the JSON file '%s': %s", path,
				                 cap < ARGP_JSON_MAX_FILE ? "out of memory"
				                                          : "larger than 16 MiB");
			}
			text = grown;
			cap = cap ? cap * 2 : 4096;
		}
		n = fread(text + len, 1, cap - len - 1, file);
		len += n;
		if (n == 0)
			break;
	}
	status = ferror(file) ? DOCA_ERROR_IO_FAILED : DOCA_SUCCESS;
	fclose(file);
	if (status != DOCA_SUCCESS) {
		free(text);
		return argp_fail(status, "argp: cannot read the JSON file '%s'", path);
	}
	text[len] = '\0';
	ARGP_DBG("argp: reading flags from %s (%zu bytes)", path, len);
	status = load_terminated(text, len);
	free(text);
	return status;
}
