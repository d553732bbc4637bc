/*
 * doca_argp help (-h, doca_argp_usage) and version (-v) text.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include <doca_version.h>
#include <softdoca.h>

#include "argp/argp.h"

/* Descriptions start in this column. */
#define ARGP_USAGE_COLUMN 38

static const char *program_name(void)
{
	return argp_ctx.program_name ? argp_ctx.program_name : "program";
}

static void print_entry(FILE *out, const char *left, const char *description)
{
	int width = (int)strlen(left) + 2;

	if (width + 2 > ARGP_USAGE_COLUMN) {
		fprintf(out, "  %s\n", left);
		width = 0;
	} else {
		fprintf(out, "  %s", left);
	}
	fprintf(out, "%*s%s\n", ARGP_USAGE_COLUMN - width, "", description ? description : "");
}

static void print_param(FILE *out, const struct doca_argp_param *p)
{
	char left[256];
	int n = 0;

	if (p->short_name)
		n = snprintf(left, sizeof(left), "-%s%s", p->short_name, p->long_name ? ", " : "");
	if (p->long_name && n >= 0 && (size_t)n < sizeof(left))
		n += snprintf(left + n, sizeof(left) - (size_t)n, "--%s", p->long_name);
	if (p->arguments && n >= 0 && (size_t)n < sizeof(left))
		snprintf(left + n, sizeof(left) - (size_t)n, " %s", p->arguments);
	print_entry(out, left, p->description);
}

/* Prints the section title before the first entry only. */
static void print_title(FILE *out, const char *title, bool *printed)
{
	if (!*printed)
		fprintf(out, "\n%s:\n", title);
	*printed = true;
}

static bool has_visible_cmds(const struct doca_argp_cmd *cmd)
{
	for (const struct doca_argp_cmd *c = cmd->children; c; c = c->next)
		if (!c->hidden)
			return true;
	return false;
}

static void print_cmd_path(FILE *out, const struct doca_argp_cmd *cmd)
{
	if (!cmd->parent)
		return;
	print_cmd_path(out, cmd->parent);
	fprintf(out, " %s", cmd->name);
}

void argp_print_usage(FILE *out, const struct doca_argp_cmd *cmd)
{
	const struct doca_argp_cmd *root = &argp_ctx.root;
	bool doca = false, program = false, own = false, cmds = false;

	if (!cmd)
		cmd = root;
	fprintf(out, "Usage: %s%s [DOCA Flags]", program_name(),
	        argp_ctx.dpdk_cb ? " [DPDK Flags] --" : "");
	if (cmd == root) {
		fprintf(out, " [Program Flags]");
	} else {
		print_cmd_path(out, cmd);
		fprintf(out, " [Command Flags]");
	}
	fprintf(out, "%s\n", has_visible_cmds(cmd) ? " <command> ..." : "");
	if (cmd != root && cmd->description)
		fprintf(out, "\n%s\n", cmd->description);

	for (const struct doca_argp_param *p = root->params; p; p = p->next) {
		if (p->hidden || (cmd != root && !p->inherited))
			continue;
		if (p->builtin != ARGP_BUILTIN_NONE) {
			print_title(out, "DOCA Flags", &doca);
			print_param(out, p);
		}
	}
	for (const struct doca_argp_param *p = root->params; p; p = p->next) {
		if (p->hidden || p->builtin != ARGP_BUILTIN_NONE || (cmd != root && !p->inherited))
			continue;
		print_title(out, "Program Flags", &program);
		print_param(out, p);
	}
	/* A command: its own flags and the inherited ones of the commands above it. */
	for (const struct doca_argp_cmd *c = cmd; c && c != root; c = c->parent)
		for (const struct doca_argp_param *p = c->params; p; p = p->next) {
			if (p->hidden || (c != cmd && !p->inherited))
				continue;
			print_title(out, "Command Flags", &own);
			print_param(out, p);
		}
	for (const struct doca_argp_cmd *c = cmd->children; c; c = c->next) {
		if (c->hidden)
			continue;
		print_title(out, "Commands", &cmds);
		print_entry(out, c->name, c->description);
	}
}

void argp_print_version(FILE *out)
{
	fprintf(out, "%s\nDOCA SDK version (compatible): %s\nsoftdoca version: %s\n",
	        program_name(), DOCA_VERSION_STRING, softdoca_version());
}

DOCA_EXPERIMENTAL void doca_argp_usage(void)
{
	if (!argp_ctx.initialized) {
		ARGP_ERR("doca_argp_usage: call doca_argp_init first");
		return;
	}
	argp_print_usage(stdout, argp_ctx.selected);
	fflush(stdout);
}
