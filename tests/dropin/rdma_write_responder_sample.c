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
	return DOCA_SUCCESS;
}

static void rdma_write_responder_state_changed_callback(const union doca_data user_data,
                                                        struct doca_ctx *ctx,
                                                        enum doca_ctx_states prev_state,
                                                        enum doca_ctx_states next_state)
{
	struct rdma_resources *resources = user_data.ptr;
	doca_error_t result;

	(void)ctx;
	(void)prev_state;
	switch (next_state) {
	case DOCA_CTX_STATE_STARTING:
		DOCA_LOG_INFO("RDMA context entered starting state");
		break;
	case DOCA_CTX_STATE_RUNNING:
		DOCA_LOG_INFO("RDMA context is running");
		result = rdma_write_responder_export_and_wait(resources);
		if (result != DOCA_SUCCESS)
			rdma_fail(resources, result);
		else
			(void)doca_ctx_stop(resources->rdma_ctx);
		break;
	case DOCA_CTX_STATE_STOPPING:
		DOCA_LOG_INFO("RDMA context entered stopping state");
		break;
	case DOCA_CTX_STATE_IDLE:
		DOCA_LOG_INFO("RDMA context has been stopped");
		resources->run_pe_progress = false;
		break;
	default:
		break;
	}
}

doca_error_t rdma_write_responder(struct rdma_config *cfg)
{
	struct rdma_resources resources;
	doca_error_t result, tmp;
	const uint32_t permissions =
	        DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE;

	if (cfg->remote_resource_desc_path[0] == '\0') {
		DOCA_LOG_ERR("-m/--mmap-descriptor-path is needed");
		return DOCA_ERROR_INVALID_VALUE;
	}

	/* A responder runs no task of its own: no capability to check. */
	result = allocate_rdma_resources(cfg, permissions, permissions, NULL,
	                                 rdma_write_responder_state_changed_callback, &resources);
	if (result != DOCA_SUCCESS)
		return result;
	result = run_progress_engine(&resources);
	tmp = destroy_rdma_resources(&resources);
	DOCA_ERROR_PROPAGATE(result, tmp);
	return result;
}
