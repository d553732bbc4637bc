/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * rdma_read_responder (DOCA 2.2): Offers its string (-r) in its exported memory, waits without any
 * DOCA call while the requester reads it.
 */
#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_READ_RESPONDER::SAMPLE);

/* Called from main (in rdma_read_responder_main.c). */
doca_error_t rdma_read_responder(struct rdma_config *cfg);

doca_error_t rdma_read_responder(struct rdma_config *cfg)
{
	const uint32_t permissions = DOCA_ACCESS_LOCAL_READ_WRITE | DOCA_ACCESS_RDMA_READ;
	struct rdma_resources res;
	doca_error_t status, tmp;

	status = allocate_rdma_resources(cfg, permissions, permissions, &res);
	if (status != DOCA_SUCCESS)
		return status;
	strcpy(res.mmap_memrange, cfg->read_string);
	status = connect_to_peer(cfg, &res, true, false);
	if (status == DOCA_SUCCESS)
		status = wait_peer_done(cfg);
	if (status == DOCA_SUCCESS)
		DOCA_LOG_INFO("Requester has read \"%s\"", cfg->read_string);
	tmp = destroy_rdma_resources(&res, cfg);
	DOCA_ERROR_PROPAGATE(status, tmp);
	return status;
}
