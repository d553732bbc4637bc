/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Write responder: exports its memory, then waits (making no DOCA calls)
 * until the requester has written into it, and prints what arrived.
 */
#include <string.h>

#include <doca_ctx.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_WRITE_RESPONDER::SAMPLE);

static doca_error_t rdma_write_responder_export_and_wait(struct rdma_resources *resources)
{
	doca_error_t result;

	result = rdma_export_mmap(resources);
	if (result != DOCA_SUCCESS)
		return result;
	result = rdma_export_and_connect(resources);
	if (result != DOCA_SUCCESS)
		return result;
	/* Blocks inside the state callback, like a sample waiting for Enter: the
	 * write must land without this side progressing. */
	DOCA_LOG_INFO("Waiting for the requester to finish");
	result = wait_peer_done(resources->cfg->remote_connection_desc_path);
	if (result != DOCA_SUCCESS)
		return result;
	resources->mmap_memrange[MEM_RANGE_LEN - 1] = '\0';
	DOCA_LOG_INFO("Requester has written: \"%s\"", resources->mmap_memrange);
	/* Done: nothing of its own in flight, the context can stop. */
	(void)doca_ctx_stop(resources->rdma_ctx);
	return DOCA_SUCCESS;
}

/* A responder runs no task of its own: no capability to check, no tasks. */
const struct rdma_sample rdma_write_responder_sample = {
	.name = "rdma_write_responder",
	.needs_mmap_descriptor = true,
	.mmap_permissions = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE,
	.rdma_permissions = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE,
	.on_running = rdma_write_responder_export_and_wait,
};
