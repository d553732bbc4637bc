/*
 * doca_argp parameters: creation, setters, registration, look-up.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * doca_argp parameters: creation, setters, registration checks, look-up.
 * A registered parameter belongs to argp (doca_argp_destroy frees it); one
 * that was never registered may be destroyed by the program, and is freed by
 * doca_argp_destroy otherwise.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "argp/argp.h"

DOCA_EXPERIMENTAL doca_error_t doca_argp_param_create(struct doca_argp_param **param)
{
	struct doca_argp_param *p;

	if (!param)
		return argp_fail(DOCA_ERROR_INVALID_VALUE, "doca_argp_param_create: param is NULL");
	p = calloc(1, sizeof(*p));
	if (!p)
		return argp_fail(DOCA_ERROR_NO_MEMORY, "doca_argp_param_create: out of memory");
	LIST_INSERT_HEAD(&argp_ctx.live_params, p, live);
	*param = p;
	return DOCA_SUCCESS;
}

void argp_param_free(struct doca_argp_param *param)
{
	if (param->owner) {
		struct doca_argp_param **link = &param->owner->params;

		while (*link != param)
			link = &(*link)->next;
		*link = param->next;
	}
	LIST_REMOVE(param, live);
	free(param->short_name);
	free(param->long_name);
	free(param->arguments);
	free(param->description);
	free(param);
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_param_destroy(struct doca_argp_param *param)
{
	if (!param)
		return argp_fail(DOCA_ERROR_INVALID_VALUE,
		                 "doca_argp_param_destroy: param is NULL");
	if (param->owner)
		return argp_fail(DOCA_ERROR_IN_USE,
		                 "doca_argp_param_destroy: the parameter is registered; "
		                 "doca_argp_destroy frees it");
	argp_param_free(param);
	return DOCA_SUCCESS;
}

/* The setters return nothing: a failure is remembered for registration. */
static void set_text(struct doca_argp_param *param, char **field, const char *text,
                     const char *what)
{
	if (!param) {
		ARGP_ERR("doca_argp_param_set_%s: param is NULL", what);
		return;
	}
	free(*field);
	*field = text ? strdup(text) : NULL;
	if (text && !*field)
		param->no_memory = true;
}

DOCA_EXPERIMENTAL void doca_argp_param_set_short_name(struct doca_argp_param *param,
                                                      const char *name)
{
	set_text(param, param ? &param->short_name : NULL, name, "short_name");
}

DOCA_EXPERIMENTAL void doca_argp_param_set_long_name(struct doca_argp_param *param,
                                                     const char *name)
{
	set_text(param, param ? &param->long_name : NULL, name, "long_name");
}

DOCA_EXPERIMENTAL void doca_argp_param_set_arguments(struct doca_argp_param *param,
                                                     const char *arguments)
{
	set_text(param, param ? &param->arguments : NULL, arguments, "arguments");
}

DOCA_EXPERIMENTAL void doca_argp_param_set_description(struct doca_argp_param *param,
                                                       const char *description)
{
	set_text(param, param ? &param->description : NULL, description, "description");
}

DOCA_EXPERIMENTAL void doca_argp_param_set_callback(struct doca_argp_param *param,
                                                    doca_argp_param_cb_t callback)
{
	if (param)
		param->callback = callback;
}

DOCA_EXPERIMENTAL void doca_argp_param_set_type(struct doca_argp_param *param,
                                                enum doca_argp_type type)
{
	if (param)
		param->type = type;
}

DOCA_EXPERIMENTAL void doca_argp_param_set_mandatory(struct doca_argp_param *param)
{
	if (param)
		param->mandatory = true;
}

DOCA_EXPERIMENTAL void doca_argp_param_set_cli_only(struct doca_argp_param *param)
{
	if (param)
		param->cli_only = true;
}

DOCA_EXPERIMENTAL void doca_argp_param_set_multiplicity(struct doca_argp_param *param)
{
	if (param)
		param->multi = true;
}

/* Undoes set_multiplicity: the parameter may be given once (the default). */
DOCA_EXPERIMENTAL void doca_argp_param_set_singular(struct doca_argp_param *param)
{
	if (param)
		param->multi = false;
}

DOCA_EXPERIMENTAL void doca_argp_param_set_inherited(struct doca_argp_param *param)
{
	if (param)
		param->inherited = true;
}

DOCA_EXPERIMENTAL void doca_argp_param_set_hidden(struct doca_argp_param *param)
{
	if (param)
		param->hidden = true;
}

const char *argp_param_label(const struct doca_argp_param *param, char *buf, size_t size)
{
	if (param->short_name && param->long_name)
		snprintf(buf, size, "-%s/--%s", param->short_name, param->long_name);
	else if (param->short_name)
		snprintf(buf, size, "-%s", param->short_name);
	else
		snprintf(buf, size, "--%s", param->long_name ? param->long_name : "?");
	return buf;
}

/* A name is what follows the dashes: no dash first, no '=', no blanks. */
static bool name_is_valid(const char *name)
{
	if (!name[0] || name[0] == '-')
		return false;
	for (const char *c = name; *c; c++)
		if (*c == '=' || isspace((unsigned char)*c) || !isprint((unsigned char)*c))
			return false;
	return true;
}

static bool same_name(const char *a, const char *name, size_t len)
{
	return a && strlen(a) == len && memcmp(a, name, len) == 0;
}

struct doca_argp_param *argp_find_param(const struct doca_argp_cmd *cmd, const char *name,
                                        size_t len, bool long_name)
{
	for (const struct doca_argp_cmd *c = cmd; c; c = c->parent)
		for (struct doca_argp_param *p = c->params; p; p = p->next) {
			if (c != cmd && !p->inherited)
				continue;
			if (same_name(long_name ? p->long_name : p->short_name, name, len))
				return p;
		}
	return NULL;
}

static doca_error_t check_name(const struct doca_argp_cmd *cmd, const char *name, bool long_name,
                               const char *label)
{
	if (!name)
		return DOCA_SUCCESS;
	if (!name_is_valid(name))
		return argp_fail(DOCA_ERROR_INVALID_VALUE, "argp: parameter %s: invalid name '%s'",
		                 label, name);
	if (argp_find_param(cmd, name, strlen(name), long_name))
		return argp_fail(DOCA_ERROR_ALREADY_EXIST,
		                 "argp: parameter %s: %s%s is already taken", label,
		                 long_name ? "--" : "-", name);
	return DOCA_SUCCESS;
}

doca_error_t argp_attach_param(struct doca_argp_cmd *cmd, struct doca_argp_param *param)
{
	struct doca_argp_param **tail;
	char label[160];
	doca_error_t status;

	if (!param)
		return argp_fail(DOCA_ERROR_INVALID_VALUE, "argp: registering a NULL parameter");
	argp_param_label(param, label, sizeof(label));
	if (param->owner)
		return argp_fail(DOCA_ERROR_IN_USE, "argp: parameter %s is already registered",
		                 label);
	if (param->no_memory)
		return argp_fail(DOCA_ERROR_NO_MEMORY,
		                 "argp: parameter %s: out of memory in a setter", label);
	if (!param->short_name && !param->long_name)
		return argp_fail(DOCA_ERROR_INVALID_VALUE,
		                 "argp: a parameter needs a short or long name");
	if (param->type <= DOCA_ARGP_TYPE_UNKNOWN || param->type > DOCA_ARGP_TYPE_JSON_OBJ)
		return argp_fail(DOCA_ERROR_INVALID_VALUE, "argp: parameter %s: no valid type set",
		                 label);
	if (!param->callback && param->builtin == ARGP_BUILTIN_NONE)
		return argp_fail(DOCA_ERROR_INVALID_VALUE, "argp: parameter %s: no callback set",
		                 label);
	status = check_name(cmd, param->short_name, false, label);
	if (status == DOCA_SUCCESS)
		status = check_name(cmd, param->long_name, true, label);
	if (status != DOCA_SUCCESS)
		return status;
	for (tail = &cmd->params; *tail; tail = &(*tail)->next)
		;
	*tail = param;
	param->next = NULL;
	param->owner = cmd;
	return DOCA_SUCCESS;
}
