/*
 * doca_argp commands and subcommands (DOCA 3.0).
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * doca_argp commands (DOCA 3.0): "prog [flags] cmd [cmd flags] sub ...".
 * A command has its own parameters, sees the inherited ones of the commands
 * above it, and its callback runs once it was chosen and parsed.
 */
#include <stdlib.h>
#include <string.h>

#include "argp/argp.h"

DOCA_EXPERIMENTAL doca_error_t doca_argp_cmd_create(struct doca_argp_cmd **cmd)
{
	struct doca_argp_cmd *c;

	if (!cmd)
		return argp_fail(DOCA_ERROR_INVALID_VALUE, "doca_argp_cmd_create: cmd is NULL");
	c = calloc(1, sizeof(*c));
	if (!c)
		return argp_fail(DOCA_ERROR_NO_MEMORY, "doca_argp_cmd_create: out of memory");
	LIST_INSERT_HEAD(&argp_ctx.live_cmds, c, live);
	*cmd = c;
	return DOCA_SUCCESS;
}

void argp_cmd_clear(struct doca_argp_cmd *cmd)
{
	while (cmd->params)
		argp_param_free(cmd->params);
	while (cmd->children)
		argp_cmd_free(cmd->children);
}

void argp_cmd_free(struct doca_argp_cmd *cmd)
{
	argp_cmd_clear(cmd);
	if (cmd->parent) {
		struct doca_argp_cmd **link = &cmd->parent->children;

		while (*link != cmd)
			link = &(*link)->next;
		*link = cmd->next;
	}
	LIST_REMOVE(cmd, live);
	free(cmd->name);
	free(cmd->description);
	free(cmd);
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_cmd_destroy(struct doca_argp_cmd *cmd)
{
	if (!cmd)
		return argp_fail(DOCA_ERROR_INVALID_VALUE, "doca_argp_cmd_destroy: cmd is NULL");
	if (cmd->registered)
		return argp_fail(
		        DOCA_ERROR_IN_USE,
		        "doca_argp_cmd_destroy: the command is registered; doca_argp_destroy "
		        "frees it");
	argp_cmd_free(cmd);
	return DOCA_SUCCESS;
}

static void set_text(struct doca_argp_cmd *cmd, char **field, const char *text)
{
	if (!cmd)
		return;
	free(*field);
	*field = text ? strdup(text) : NULL;
	if (text && !*field)
		cmd->no_memory = true;
}

DOCA_EXPERIMENTAL void doca_argp_cmd_set_name(struct doca_argp_cmd *cmd, const char *name)
{
	set_text(cmd, cmd ? &cmd->name : NULL, name);
}

DOCA_EXPERIMENTAL void doca_argp_cmd_set_description(struct doca_argp_cmd *cmd,
                                                     const char *description)
{
	set_text(cmd, cmd ? &cmd->description : NULL, description);
}

DOCA_EXPERIMENTAL void doca_argp_cmd_set_callback(struct doca_argp_cmd *cmd,
                                                  doca_argp_cmd_cb_t callback)
{
	if (cmd)
		cmd->callback = callback;
}

DOCA_EXPERIMENTAL void doca_argp_cmd_set_hidden(struct doca_argp_cmd *cmd)
{
	if (cmd)
		cmd->hidden = true;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_cmd_register_param(struct doca_argp_cmd *cmd,
                                                            struct doca_argp_param *input_param)
{
	if (!cmd)
		return argp_fail(DOCA_ERROR_INVALID_VALUE,
		                 "doca_argp_cmd_register_param: cmd is NULL");
	return argp_attach_param(cmd, input_param);
}

struct doca_argp_cmd *argp_find_cmd(const struct doca_argp_cmd *cmd, const char *name)
{
	for (struct doca_argp_cmd *c = cmd->children; c; c = c->next)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_cmd_register_cmd(struct doca_argp_cmd *cmd,
                                                          struct doca_argp_cmd *input_cmd)
{
	struct doca_argp_cmd **tail;

	if (!cmd || !input_cmd)
		return argp_fail(DOCA_ERROR_INVALID_VALUE, "argp: registering a NULL command");
	if (input_cmd->registered)
		return argp_fail(DOCA_ERROR_IN_USE, "argp: command '%s' is already registered",
		                 input_cmd->name ? input_cmd->name : "?");
	if (input_cmd->no_memory)
		return argp_fail(DOCA_ERROR_NO_MEMORY, "argp: command: out of memory in a setter");
	if (!input_cmd->name || !input_cmd->name[0] || input_cmd->name[0] == '-')
		return argp_fail(DOCA_ERROR_INVALID_VALUE,
		                 "argp: a command needs a name not starting "
		                 "with '-'");
	for (const struct doca_argp_cmd *c = cmd; c; c = c->parent)
		if (c == input_cmd)
			return argp_fail(DOCA_ERROR_INVALID_VALUE,
			                 "argp: command '%s' cannot be its own sub-command",
			                 input_cmd->name);
	if (argp_find_cmd(cmd, input_cmd->name))
		return argp_fail(DOCA_ERROR_ALREADY_EXIST, "argp: command '%s' is already taken",
		                 input_cmd->name);
	for (tail = &cmd->children; *tail; tail = &(*tail)->next)
		;
	*tail = input_cmd;
	input_cmd->next = NULL;
	input_cmd->parent = cmd;
	input_cmd->registered = true;
	return DOCA_SUCCESS;
}
