/*
 * softdoca-info: entry point and command line.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * softdoca-info [-d DEVICE] [--json]: the devices softdoca offers and what
 * each supports, like ibv_devinfo. With --pid P: the counters of a running
 * softdoca process, per device and per connection, and its DPA threads.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
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
	        "  -w, --watch[=SECONDS] with --pid: every SECONDS (default 1, at least\n"
	        "                       0.01), the rates since the last interval per device\n"
	        "                       and connection: operations and MiB/s posted and\n"
	        "                       served by type, RNR waits, NAKs by syndrome,\n"
	        "                       timeouts, failures, requests in flight, state; DPA\n"
	        "                       threads' activations/s and completion queues; ends\n"
	        "                       on Ctrl-C/SIGTERM, or when the process exits or\n"
	        "                       closes its counters channel (exit 0, a message on\n"
	        "                       stderr)\n"
	        "  -c, --count=N        with --watch: stop after N intervals\n"
	        "  -j, --json           print JSON instead of text (--watch: one line per\n"
	        "                       interval)\n"
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

/* --watch's interval: seconds, a decimal number. */
static bool parse_interval(const char *s, double *seconds)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < 0.01 || v > 86400)
		return false;
	*seconds = v;
	return true;
}

static bool parse_count(const char *s, uint64_t *count)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (*s == '-')
		return false;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || v == 0)
		return false;
	*count = v;
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
	if (only && !info_process_has_device(pc, only)) {
		fprintf(stderr, "softdoca-info: process %u has no device '%s'\n", pid, only);
		softdoca_process_counters_destroy(pc);
		return 1;
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
		{ "watch", optional_argument, NULL, 'w' },
		{ "count", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *only = NULL;
	bool json = false;
	uint32_t pid = 0;
	bool watch = false;
	double interval = 1.0;
	uint64_t count = 0;
	struct doca_devinfo **list;
	struct info_device *devs;
	uint32_t num = 0;
	int opt, n = 0, rc;
	doca_error_t status;

	while ((opt = getopt_long(argc, argv, "d:jp:w::c:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			if (!parse_pid(optarg, &pid)) {
				fprintf(stderr, "softdoca-info: --pid: '%s' is not a process id\n",
				        optarg);
				usage(stderr, argv[0]);
				return 2;
			}
			break;
		case 'w':
			watch = true;
			/* "--watch 0.2" as well as "--watch=0.2": a number next is
			 * its interval (no operand is a number). */
			if (!optarg && optind < argc &&
			    (isdigit((unsigned char)argv[optind][0]) || argv[optind][0] == '.'))
				optarg = argv[optind++];
			if (optarg && !parse_interval(optarg, &interval)) {
				fprintf(stderr,
				        "softdoca-info: --watch: '%s' is not a number of seconds "
				        "from 0.01 to 86400\n",
				        optarg);
				usage(stderr, argv[0]);
				return 2;
			}
			break;
		case 'c':
			if (!parse_count(optarg, &count)) {
				fprintf(stderr,
				        "softdoca-info: --count: '%s' is not a number of "
				        "intervals\n",
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
	if ((watch || count) && !pid) {
		fprintf(stderr, "softdoca-info: --watch and --count watch a process: give --pid\n");
		usage(stderr, argv[0]);
		return 2;
	}
	if (count && !watch) {
		fprintf(stderr, "softdoca-info: --count counts --watch's intervals\n");
		usage(stderr, argv[0]);
		return 2;
	}
	if (watch) {
		struct info_watch_opts w = {
			.pid = pid, .only = only, .json = json, .interval = interval, .count = count
		};

		return info_watch(&w);
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
