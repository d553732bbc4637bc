/*
 * softdoca-info: entry point and command line.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * softdoca-info [-d DEVICE] [--json]: the devices softdoca offers and what
 * each supports, like ibv_devinfo. With --pid P: the counters of a running
 * softdoca process, per device and per connection, and its DPA threads.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "info.h"

static void usage(FILE *out, const char *prog)
{
	fprintf(out,
	        "Usage: %s [options]\n"
	        "Lists the devices softdoca offers (one per network interface, named\n"
	        "sdoca_<interface> or as SOFTDOCA_DEVICES aliases them) and what each supports.\n"
	        "\n"
	        "  -d, --ib-dev=DEVICE  only this device (ibdev name or interface; with\n"
	        "                       --pid, ibdev name)\n"
	        "  -p, --pid=PID        the counters of running softdoca process PID (this\n"
	        "                       user's, or any as root) instead: per device and per\n"
	        "                       live connection, operations and bytes by type, RNR\n"
	        "                       waits, timeouts, NAKs by syndrome, strangers' messages\n"
	        "                       dropped, faults injected; and its DPA contexts and\n"
	        "                       threads: kernel, state, rank, EU, activations, time\n"
	        "                       since the last one, completions queued\n"
	        "  -j, --json           print JSON instead of text\n"
	        "  -h, --help           this text\n",
	        prog);
}

static bool parse_pid(const char *s, uint32_t *pid)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0 || v > INT_MAX)
		return false;
	*pid = (uint32_t)v;
	return true;
}

/* --pid: the library says why it failed (a log line on stderr); so do we. */
static int process(uint32_t pid, const char *only, bool json)
{
	struct softdoca_process_counters *pc;
	doca_error_t status = softdoca_process_counters_get(pid, &pc);
	int rc = 0;

	if (status != DOCA_SUCCESS) {
		const char *why = status == DOCA_ERROR_AGAIN
		                          ? "its counters channel is busy with other readers; try "
		                            "again"
		                  : status == DOCA_ERROR_NOT_PERMITTED
		                          ? "it runs as another user (only that user or root may "
		                            "read its counters)"
		                          : doca_error_get_descr(status);

		fprintf(stderr, "softdoca-info: cannot read the counters of process %u: %s\n", pid,
		        why);
		return status == DOCA_ERROR_AGAIN ? 75 : 1; /* EX_TEMPFAIL: try again */
	}
	if (only) {
		bool found = false;

		for (uint32_t d = 0; d < pc->num_devices; d++)
			found |= strcmp(pc->devices[d].ibdev_name, only) == 0;
		found |= info_dpa_on_device(pc, only);
		if (!found) {
			fprintf(stderr, "softdoca-info: process %u has no device '%s'\n", pid,
			        only);
			softdoca_process_counters_destroy(pc);
			return 1;
		}
	}
	if (json)
		rc = info_print_process_json(pc, only);
	else
		info_print_process_text(pc, only);
	softdoca_process_counters_destroy(pc);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "ib-dev", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "pid", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *only = NULL;
	bool json = false;
	uint32_t pid = 0;
	struct doca_devinfo **list;
	struct info_device *devs;
	uint32_t num = 0;
	int opt, n = 0, rc;
	doca_error_t status;

	while ((opt = getopt_long(argc, argv, "d:jp:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			if (!parse_pid(optarg, &pid)) {
				fprintf(stderr, "softdoca-info: --pid: '%s' is not a process id\n",
				        optarg);
				usage(stderr, argv[0]);
				return 2;
			}
			break;
		case 'd':
			only = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		default:
			usage(stderr, argv[0]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "softdoca-info: unexpected argument '%s'\n", argv[optind]);
		usage(stderr, argv[0]);
		return 2;
	}
	if (pid)
		return process(pid, only, json);
	status = doca_devinfo_create_list(&list, &num);
	if (status != DOCA_SUCCESS) {
		fprintf(stderr, "softdoca-info: no devices: %s\n", doca_error_get_descr(status));
		return 1;
	}
	devs = calloc(num ? num : 1, sizeof(*devs));
	if (!devs) {
		doca_devinfo_destroy_list(list);
		fprintf(stderr, "softdoca-info: out of memory\n");
		return 1;
	}
	for (uint32_t i = 0; i < num; i++) {
		if (!info_describe(list[i], &devs[n]))
			continue;
		if (only && strcmp(only, devs[n].ibdev) != 0 && strcmp(only, devs[n].iface) != 0)
			continue;
		n++;
	}
	doca_devinfo_destroy_list(list);
	if (only && n == 0) {
		fprintf(stderr, "softdoca-info: no device '%s' (see softdoca-info without -d)\n",
		        only);
		free(devs);
		return 1;
	}
	rc = 0;
	if (json)
		rc = info_print_json(devs, n);
	else
		info_print_text(devs, n);
	free(devs);
	return rc;
}
