/*
 * doca_argp_start: reads the command line and hands out the values.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * doca_argp_start: reads the command line, then gives the values out.
 *
 *   prog [DPDK flags --] [flags] [command [flags] [sub-command ...]]
 *
 * A flag is "-short" or "--long" (short names may have several letters, so
 * short flags are never bundled), its value the next argument or what
 * follows '='. A boolean flag takes no value unless given with '='.
 * The whole command line is read and checked first (unknown flags, missing
 * values, repeats; -h and -v act at once); then the JSON file of -j, then the
 * command-line values, in order, reach their callbacks, so the command line
 * overrides the file. Mandatory parameters, the validation callback, the
 * chosen command's callback and the DPDK callback come last.
 */
#include <stdlib.h>
#include <string.h>

#include "argp/argp.h"

struct occurrence {
	struct doca_argp_param *param;
	const char *text; /* NULL: a boolean flag without a value */
};

struct cli {
	struct occurrence *occ;
	int num_occ;
	const char *json_path;
	struct doca_argp_cmd *cmd; /* the command the flags belong to so far */
};

static void reset_counts(struct doca_argp_cmd *cmd)
{
	for (struct doca_argp_param *p = cmd->params; p; p = p->next) {
		p->given = 0;
		p->json_given = 0;
	}
	for (struct doca_argp_cmd *c = cmd->children; c; c = c->next)
		reset_counts(c);
}

/* -v: the program's version callback (DOCA's usually prints and exits) or ours. */
static doca_error_t show_version(void)
{
	if (argp_ctx.version_cb) {
		doca_error_t status = argp_ctx.version_cb(NULL, argp_ctx.config);

		if (status != DOCA_SUCCESS)
			return argp_fail(status, "argp: the version callback failed: %s",
			                 doca_error_get_name(status));
	} else {
		argp_print_version(stdout);
	}
	argp_finish(EXIT_SUCCESS);
	return DOCA_ERROR_SKIPPED;
}

/* Handles one "-name[=value]" or "--name[=value]" at argv[*i]. */
static doca_error_t read_flag(int argc, char **argv, int *i, struct cli *cli)
{
	const char *tok = argv[*i];
	bool is_long = tok[1] == '-';
	const char *name = tok + (is_long ? 2 : 1);
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	struct doca_argp_param *p = argp_find_param(cli->cmd, name, len, is_long);
	const char *text = eq ? eq + 1 : NULL;
	char label[160];

	if (!p)
		return argp_fail(DOCA_ERROR_INVALID_VALUE, "argp: unknown flag '%.*s'%s%s",
		                 (int)(name - tok + len), tok,
		                 cli->cmd->name ? " for command " : "",
		                 cli->cmd->name ? cli->cmd->name : "");
	argp_param_label(p, label, sizeof(label));
	if (!eq && p->type != DOCA_ARGP_TYPE_BOOLEAN) {
		if (*i + 1 >= argc)
			return argp_fail(DOCA_ERROR_INVALID_VALUE, "argp: %s needs a value", label);
		text = argv[++*i];
	}
	if (p->given++ && !p->multi)
		return argp_fail(DOCA_ERROR_INVALID_VALUE, "argp: %s is given more than once",
		                 label);
	switch (p->builtin) {
	case ARGP_BUILTIN_HELP:
		argp_print_usage(stdout, cli->cmd);
		argp_finish(EXIT_SUCCESS);
		return DOCA_ERROR_SKIPPED;
	case ARGP_BUILTIN_VERSION:
		return show_version();
	case ARGP_BUILTIN_JSON:
		cli->json_path = text;
		return DOCA_SUCCESS;
	default:
		cli->occ[cli->num_occ].param = p;
		cli->occ[cli->num_occ].text = text;
		cli->num_occ++;
		return DOCA_SUCCESS;
	}
}

static doca_error_t read_cli(int argc, char **argv, int first, struct cli *cli)
{
	for (int i = first; i < argc; i++) {
		const char *tok = argv[i];
		doca_error_t status;

		if (!tok)
			return argp_fail(DOCA_ERROR_INVALID_VALUE, "argp: argv[%d] is NULL", i);
		if (strcmp(tok, "--") == 0) {
			if (i + 1 < argc)
				return argp_fail(DOCA_ERROR_INVALID_VALUE,
				                 "argp: unexpected argument '%s' after '--'",
				                 argv[i + 1]);
			break;
		}
		if (tok[0] != '-' || tok[1] == '\0') {
			struct doca_argp_cmd *c = argp_find_cmd(cli->cmd, tok);

			if (!c)
				return argp_fail(DOCA_ERROR_INVALID_VALUE,
				                 "argp: unexpected argument '%s'", tok);
			cli->cmd = c;
			continue;
		}
		status = read_flag(argc, argv, &i, cli);
		if (status != DOCA_SUCCESS)
			return status;
	}
	return DOCA_SUCCESS;
}

static doca_error_t apply_cli(const struct cli *cli)
{
	for (int i = 0; i < cli->num_occ; i++) {
		struct argp_value value;
		doca_error_t status =
		        argp_value_from_text(cli->occ[i].param, cli->occ[i].text, &value);

		if (status == DOCA_SUCCESS)
			status = argp_apply(cli->occ[i].param, &value);
		argp_value_release(&value);
		if (status != DOCA_SUCCESS)
			return status;
	}
	return DOCA_SUCCESS;
}

/* Every mandatory parameter of the program and of the chosen commands was given. */
static doca_error_t check_mandatory(const struct doca_argp_cmd *cmd)
{
	char label[160];

	for (; cmd; cmd = cmd->parent)
		for (const struct doca_argp_param *p = cmd->params; p; p = p->next)
			if (p->mandatory && !p->given && !p->json_given)
				return argp_fail(DOCA_ERROR_INVALID_VALUE,
				                 "argp: missing mandatory parameter %s",
				                 argp_param_label(p, label, sizeof(label)));
	return DOCA_SUCCESS;
}

/* With a DPDK program, argv[1..] up to "--" are DPDK's (argv[0] too). */
static doca_error_t split_dpdk(int argc, char **argv, int *first)
{
	int sep = 1, dargc;

	while (sep < argc && (!argv[sep] || strcmp(argv[sep], "--") != 0))
		sep++;
	dargc = sep < argc ? sep : (argc > 0 ? 1 : 0);
	argp_ctx.dpdk_argv = calloc((size_t)dargc + 1, sizeof(char *));
	if (!argp_ctx.dpdk_argv)
		return argp_fail(DOCA_ERROR_NO_MEMORY, "argp: out of memory");
	memcpy(argp_ctx.dpdk_argv, argv, (size_t)dargc * sizeof(char *));
	*first = sep < argc ? sep + 1 : 1;
	return DOCA_SUCCESS;
}

static doca_error_t finish(const struct cli *cli, int dpdk_argc)
{
	doca_error_t status = check_mandatory(cli->cmd);

	if (status == DOCA_SUCCESS && argp_ctx.validation_cb) {
		status = argp_ctx.validation_cb(argp_ctx.config);
		if (status != DOCA_SUCCESS)
			ARGP_ERR("argp: the program's validation failed: %s",
			         doca_error_get_name(status));
	}
	if (status == DOCA_SUCCESS && cli->cmd->callback) {
		status = cli->cmd->callback(argp_ctx.config);
		if (status != DOCA_SUCCESS)
			ARGP_ERR("argp: command '%s' failed: %s", cli->cmd->name,
			         doca_error_get_name(status));
	}
	if (status == DOCA_SUCCESS && argp_ctx.dpdk_cb) {
		status = argp_ctx.dpdk_cb(dpdk_argc, argp_ctx.dpdk_argv);
		if (status != DOCA_SUCCESS)
			ARGP_ERR("argp: the DPDK callback failed: %s", doca_error_get_name(status));
	}
	return status;
}

static void set_program_name(int argc, char **argv)
{
	const char *base;

	if (argp_ctx.program_name || argc < 1 || !argv[0])
		return;
	base = strrchr(argv[0], '/');
	argp_ctx.program_name = strdup(base ? base + 1 : argv[0]);
}

DOCA_EXPERIMENTAL doca_error_t doca_argp_start(int argc, char **argv)
{
	struct cli cli = { .cmd = &argp_ctx.root };
	int first = 1, dpdk_argc = 0;
	doca_error_t status;

	if (!argp_ctx.initialized)
		return argp_fail(DOCA_ERROR_BAD_STATE,
		                 "doca_argp_start: call doca_argp_init first");
	if (argp_ctx.started)
		return argp_fail(DOCA_ERROR_BAD_STATE, "doca_argp_start: already called");
	if (argc < 0 || (argc > 0 && !argv))
		return argp_fail(DOCA_ERROR_INVALID_VALUE, "doca_argp_start: no argv");
	argp_ctx.started = true;
	set_program_name(argc, argv);
	reset_counts(&argp_ctx.root);
	if (argp_ctx.dpdk_cb) {
		status = split_dpdk(argc, argv, &first);
		if (status != DOCA_SUCCESS)
			return status;
		while (argp_ctx.dpdk_argv[dpdk_argc])
			dpdk_argc++;
	}
	cli.occ = calloc(argc > 0 ? (size_t)argc : 1, sizeof(*cli.occ));
	if (!cli.occ)
		return argp_fail(DOCA_ERROR_NO_MEMORY, "argp: out of memory");
	status = read_cli(argc, argv, first, &cli);
	argp_ctx.selected = cli.cmd;
	if (status == DOCA_SUCCESS && cli.json_path)
		status = argp_json_load_file(cli.json_path);
	if (status == DOCA_SUCCESS)
		status = apply_cli(&cli);
	if (status == DOCA_SUCCESS)
		status = finish(&cli, dpdk_argc);
	free(cli.occ);
	return status;
}
