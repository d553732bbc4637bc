/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * rdma_write_responder (DOCA 2.2): Exports its memory for writes, waits without any DOCA call while
 * the requester writes, then prints what arrived.
 */
#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_WRITE_RESPONDER::SAMPLE);

/* Called from main (in rdma_write_responder_main.c). */
doca_error_t rdma_write_responder(struct rdma_config *cfg);

doca_error_t rdma_write_responder(struct rdma_config *cfg)
{
	const uint32_t permissions = DOCA_ACCESS_LOCAL_READ_WRITE | DOCA_ACCESS_RDMA_WRITE;
	struct rdma_resources res;
	doca_error_t status, tmp;

	status = allocate_rdma_resources(cfg, permissions, permissions, &res);
	if (status != DOCA_SUCCESS)
		return status;
	status = connect_to_peer(cfg, &res, true, false);
	if (status == DOCA_SUCCESS)
		status = wait_peer_done(cfg);
	if (status == DOCA_SUCCESS) {
		res.mmap_memrange[MAX_BUFF_SIZE - 1] = '\0';
		DOCA_LOG_INFO("Requester has written: \"%s\"", res.mmap_memrange);
	}
	tmp = destroy_rdma_resources(&res, cfg);
	DOCA_ERROR_PROPAGATE(status, tmp);
	return status;
}
