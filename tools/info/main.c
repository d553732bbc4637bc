/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * softdoca-info [-d DEVICE] [--json]: the devices softdoca offers and what
 * each supports, like ibv_devinfo.
 */
#include <getopt.h>
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
	        "  -d, --ib-dev=DEVICE  only this device (ibdev name or interface)\n"
	        "  -j, --json           print JSON instead of text\n"
	        "  -h, --help           this text\n",
	        prog);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "ib-dev", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *only = NULL;
	bool json = false;
	struct doca_devinfo **list;
	struct info_device *devs;
	uint32_t num = 0;
	int opt, n = 0, rc;
	doca_error_t status;

	while ((opt = getopt_long(argc, argv, "d:jh", longopts, NULL)) != -1) {
		switch (opt) {
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
