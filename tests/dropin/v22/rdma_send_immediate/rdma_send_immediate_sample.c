/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * rdma_send_immediate (DOCA 2.2): Sends its string (-s) with immediate data 0xABCD (given as is,
 * compared as is) with a send-with-immediate job.
 */
#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_SEND_IMMEDIATE::SAMPLE);

/* Called from main (in rdma_send_immediate_main.c). */
doca_error_t rdma_send_immediate(struct rdma_config *cfg);

doca_error_t rdma_send_immediate(struct rdma_config *cfg)
{
	struct rdma_resources res;
	doca_error_t status, tmp;

	status = allocate_rdma_resources(cfg, DOCA_ACCESS_LOCAL_READ_WRITE,
	                                 DOCA_ACCESS_LOCAL_READ_WRITE, &res);
	if (status != DOCA_SUCCESS)
		return status;
	status = connect_to_peer(cfg, &res, false, false);
	if (status == DOCA_SUCCESS)
		status = send_string(cfg, &res, DOCA_RDMA_JOB_SEND_IMM, IMMEDIATE_VALUE);
	if (status == DOCA_SUCCESS)
		DOCA_LOG_INFO("RDMA send with immediate job was done successfully");
	tmp = destroy_rdma_resources(&res, cfg);
	DOCA_ERROR_PROPAGATE(status, tmp);
	return status;
}
