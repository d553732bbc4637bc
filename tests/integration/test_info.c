/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * softdoca-info, run as a user runs it: its text and JSON describe the
 * loopback device truthfully, -d picks one, aliases name it, bad input and
 * a --pid it cannot read fail with a message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#ifndef INFO_BIN
#error "INFO_BIN: the softdoca-info binary"
#endif

/* Runs softdoca-info with args (stderr folded into stdout); returns its
 * output (malloc'd) and exit code. */
static char *run_info(const char *args, int *exit_code)
{
	char cmd[512];
	size_t cap = 1 << 16, len = 0;
	char *out = malloc(cap);
	FILE *p;
	int status;

	assert_non_null(out);
	snprintf(cmd, sizeof(cmd), "'%s' %s 2>&1", INFO_BIN, args);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (len + 1 < cap) {
		size_t n = fread(out + len, 1, cap - 1 - len, p);

		if (n == 0)
			break;
		len += n;
	}
	out[len] = '\0';
	status = pclose(p);
	assert_true(WIFEXITED(status));
	*exit_code = WEXITSTATUS(status);
	return out;
}

static void text_describes_loopback(void **state)
{
	int rc;
	char *out;

	(void)state;
	setenv("SOFTDOCA_DEVICES", "lo", 1);
	out = run_info("", &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "hca_id:\tsdoca_lo\n"));
	assert_non_null(strstr(out, "\tinterface:\t\t\tlo\n"));
	assert_non_null(strstr(out, "\tipv4:\t\t\t\t127.0.0.1\n"));
	assert_non_null(strstr(out, "GID[ 0]:\t\t\t::ffff:127.0.0.1\n"));
	assert_non_null(strstr(out, "\tmax_message_size:\t\t2147483648\n"));
	/* per context: what doca_rdma_set_max_num_connections() takes at most */
	assert_non_null(strstr(out, "\tmax_num_connections:\t\t1024\n"));
	assert_non_null(strstr(out, "\t\twrite                             supported\n"));
	assert_non_null(strstr(out, "\t\tatomic_fetch_add                  supported\n"));
	assert_null(strstr(out, "hca_id:\tsdoca_eth")); /* only what SOFTDOCA_DEVICES names */
	free(out);
}

static json_object *field(json_object *o, const char *name)
{
	json_object *v = NULL;

	assert_true(json_object_object_get_ex(o, name, &v));
	return v;
}

static void json_describes_loopback(void **state)
{
	static const char *const tasks[] = { "receive",        "send",
		                             "send_imm",       "write",
		                             "write_imm",      "read",
		                             "atomic_cmp_swp", "atomic_fetch_add" };
	json_object *root, *devs, *lo, *gids, *types;
	int rc;
	char *out;

	(void)state;
	setenv("SOFTDOCA_DEVICES", "lo", 1);
	out = run_info("--json", &rc);
	assert_int_equal(rc, 0);
	root = json_tokener_parse(out);
	assert_non_null(root);
	assert_string_equal(json_object_get_string(field(root, "doca_api_version")), "3.3.0000");
	devs = field(root, "devices");
	assert_int_equal(json_object_array_length(devs), 1);
	lo = json_object_array_get_idx(devs, 0);
	assert_string_equal(json_object_get_string(field(lo, "ibdev_name")), "sdoca_lo");
	assert_string_equal(json_object_get_string(field(lo, "interface")), "lo");
	assert_string_equal(json_object_get_string(field(lo, "ipv4")), "127.0.0.1");
	gids = field(lo, "gids");
	assert_true(json_object_array_length(gids) >= 1);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(gids, 0)),
	                    "::ffff:127.0.0.1");
	types = field(lo, "transport_types");
	assert_int_equal(json_object_array_length(types), 1);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(types, 0)), "RC");
	assert_int_equal(json_object_get_int64(field(lo, "max_message_size")), 1ll << 31);
	assert_int_equal(json_object_get_int64(field(lo, "max_send_buf_list_len")), 16);
	assert_int_equal(json_object_get_int64(field(lo, "max_num_connections")), 1024);
	for (size_t i = 0; i < sizeof(tasks) / sizeof(tasks[0]); i++)
		assert_true(json_object_get_boolean(field(field(lo, "tasks"), tasks[i])));
	json_object_put(root);
	free(out);
}

static void device_filter_and_alias(void **state)
{
	int rc;
	char *out;

	(void)state;
	setenv("SOFTDOCA_DEVICES", "mlx5_0=lo", 1);
	out = run_info("-d mlx5_0", &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "hca_id:\tmlx5_0\n"));
	assert_non_null(strstr(out, "\tinterface:\t\t\tlo\n"));
	free(out);
	out = run_info("--ib-dev=lo", &rc); /* the interface name works too */
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "hca_id:\tmlx5_0\n"));
	free(out);
}

static void bad_input(void **state)
{
	int rc;
	char *out;

	(void)state;
	setenv("SOFTDOCA_DEVICES", "lo", 1);
	out = run_info("-d no_such_device", &rc);
	assert_int_equal(rc, 1);
	assert_non_null(strstr(out, "no device 'no_such_device'"));
	free(out);
	out = run_info("--no-such-option", &rc);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, "Usage:"));
	free(out);
	out = run_info("stray", &rc);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, "unexpected argument 'stray'"));
	free(out);
	out = run_info("-h", &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "--json"));
	free(out);
}

/* --pid refused: no such process, one without softdoca, not a pid. A clear
 * message and a non-zero exit, at once. */
static void pid_refused(void **state)
{
	char args[64];
	pid_t child;
	int rc, status;
	char *out;

	(void)state;
	child = fork(); /* a pid that was, and is no more (reaped) */
	assert_true(child >= 0);
	if (child == 0)
		_exit(0);
	assert_int_equal(waitpid(child, &status, 0), child);
	snprintf(args, sizeof(args), "--pid %d", (int)child);
	out = run_info(args, &rc);
	assert_int_equal(rc, 1);
	assert_non_null(strstr(out, "there is no such process"));
	assert_non_null(strstr(out, "softdoca-info: cannot read the counters of process"));
	free(out);
	/* this test: a process, but no softdoca in it */
	snprintf(args, sizeof(args), "--pid %d --json", (int)getpid());
	out = run_info(args, &rc);
	assert_int_equal(rc, 1);
	assert_non_null(strstr(out, "has no softdoca counters channel"));
	free(out);
	out = run_info("--pid 0", &rc);
	assert_int_equal(rc, 2);
	assert_non_null(strstr(out, "--pid: '0' is not a process id"));
	free(out);
	out = run_info("--pid 12x", &rc);
	assert_int_equal(rc, 2);
	free(out);
	out = run_info("--pid=-3", &rc);
	assert_int_equal(rc, 2);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(text_describes_loopback),
		cmocka_unit_test(json_describes_loopback),
		cmocka_unit_test(device_filter_and_alias),
		cmocka_unit_test(bad_input),
		cmocka_unit_test(pid_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
