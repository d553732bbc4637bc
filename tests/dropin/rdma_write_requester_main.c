/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * rdma_write_requester -d sdoca_lo -ld req.desc -re resp.desc -m mmap.desc [-s STRING]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_argp.h>
#include <doca_error.h>
#include <doca_log.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_WRITE_REQUESTER::MAIN);

int main(int argc, char **argv)
{
	struct rdma_config cfg;
	struct doca_log_backend *sdk_log;
	doca_error_t result;
	int exit_status = EXIT_FAILURE;

	memset(&cfg, 0, sizeof(cfg));
	strcpy(cfg.device_name, "sdoca_lo");
	strcpy(cfg.text, DEFAULT_STRING);

	/* Application messages to stdout, SDK messages of WARNING and up to stderr. */
	result = doca_log_backend_create_standard();
	if (result != DOCA_SUCCESS)
		return exit_status;
	result = doca_log_backend_create_with_file_sdk(stderr, &sdk_log);
	if (result == DOCA_SUCCESS)
		result = doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_WARNING);
	if (result != DOCA_SUCCESS)
		return exit_status;

	DOCA_LOG_INFO("%s: starting", argv[0]);
	result = doca_argp_init(NULL, &cfg);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("doca_argp_init: %s", doca_error_get_descr(result));
		goto sample_exit;
	}
	result = register_rdma_common_params();
	if (result == DOCA_SUCCESS)
		result = register_rdma_string_param("write-string", "String to write to the peer");
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Cannot register the parameters: %s", doca_error_get_descr(result));
		goto argp_cleanup;
	}
	result = doca_argp_start(argc, argv);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Bad command line: %s", doca_error_get_descr(result));
		goto argp_cleanup;
	}

	result = rdma_write_requester(&cfg);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("rdma_write_requester() failed: %s", doca_error_get_descr(result));
		goto argp_cleanup;
	}
	exit_status = EXIT_SUCCESS;

argp_cleanup:
	doca_argp_destroy();
sample_exit:
	if (exit_status == EXIT_SUCCESS)
		DOCA_LOG_INFO("%s: done", argv[0]);
	else
		DOCA_LOG_INFO("%s: failed", argv[0]);
	return exit_status;
}
