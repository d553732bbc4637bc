/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * rdma_receive (DOCA 2.2): Receives one message with a receive job and prints it.
 */
#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_RECEIVE::SAMPLE);

/* Called from main (in rdma_receive_main.c). */
doca_error_t rdma_receive(struct rdma_config *cfg);

doca_error_t rdma_receive(struct rdma_config *cfg)
{
	struct rdma_resources res;
	struct doca_rdma_result result;
	doca_error_t status, tmp;

	status = allocate_rdma_resources(cfg, DOCA_ACCESS_LOCAL_READ_WRITE,
	                                 DOCA_ACCESS_LOCAL_READ_WRITE, &res);
	if (status != DOCA_SUCCESS)
		return status;
	status = connect_to_peer(cfg, &res, false, false);
	if (status == DOCA_SUCCESS)
		status = receive_string(&res, &result);
	if (status == DOCA_SUCCESS)
		DOCA_LOG_INFO("Got from the sender (%u bytes): \"%s\"", result.length,
		              res.mmap_memrange);
	tmp = destroy_rdma_resources(&res, cfg);
	DOCA_ERROR_PROPAGATE(status, tmp);
	return status;
}
