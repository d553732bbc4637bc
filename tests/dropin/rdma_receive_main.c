/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * rdma_receive -d DEV [-ld FILE] [-re FILE] [-g N]
 *   RDMA-CM instead of files: [-cm] [-lp PORT] [-sa ADDRESS [-sat ipv4|ipv6]]
 */
#include <doca_argp.h>
#include <doca_error.h>
#include <doca_log.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_RECEIVE::MAIN);

/* The DOCA flow, in rdma_receive_sample.c. */
doca_error_t rdma_receive(struct rdma_params *params);

int main(int argc, char **argv)
{
	struct rdma_params params;
	doca_error_t result;
	int exit_status = EXIT_FAILURE;

	set_default_params(&params);
	result = create_log_backends();
	if (result != DOCA_SUCCESS)
		return EXIT_FAILURE;
	DOCA_LOG_INFO("Starting rdma_receive");

	result = doca_argp_init("doca_rdma_receive", &params);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to initialise doca_argp: %s", doca_error_get_descr(result));
		goto sample_exit;
	}
	result = register_connection_params();
	if (result == DOCA_SUCCESS)
		result = doca_argp_start(argc, argv);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to parse the command line: %s", doca_error_get_descr(result));
		goto argp_cleanup;
	}

	result = rdma_receive(&params);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("rdma_receive() failed: %s", doca_error_get_descr(result));
		goto argp_cleanup;
	}
	exit_status = EXIT_SUCCESS;

argp_cleanup:
	doca_argp_destroy();
sample_exit:
	if (exit_status == EXIT_SUCCESS)
		DOCA_LOG_INFO("rdma_receive finished successfully");
	else
		DOCA_LOG_INFO("rdma_receive finished with errors");
	return exit_status;
}
