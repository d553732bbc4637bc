/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Read responder: puts its string (-r) in its memory, exports the memory,
 * connects, and blocks in the RUNNING callback until the requester has read.
 *
 * With -cm it listens instead, sends its memory descriptor over the new
 * connection and ends once the requester has disconnected.
 */
#include <doca_ctx.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_READ_RESPONDER::SAMPLE);

static doca_error_t reader_done(struct rdma_objects *objs)
{
	DOCA_LOG_INFO("Requester has read: \"%s\"", objs->memrange);
	(void)doca_ctx_stop(objs->ctx);
	return DOCA_SUCCESS;
}

/* The target's CPU takes no part in the read: out of band, nothing is
 * progressed while this waits. */
static doca_error_t wait_for_reader(struct rdma_objects *objs)
{
	return wait_peer_done(objs, reader_done);
}

doca_error_t rdma_read_responder(struct rdma_params *params)
{
	struct rdma_objects objs;
	doca_error_t result, tmp;

	result = allocate_rdma_resources(
	        params, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ,
	        DOCA_ACCESS_FLAG_RDMA_READ, NULL, &objs);
	if (result != DOCA_SUCCESS)
		return result;
	objs.exchange_mmap = true;
	objs.connected = wait_for_reader;
	/* The string with its NUL; the rest of the memory stays zero. */
	strncpy(objs.memrange, params->text, MEMORY_LEN - 1);

	/* RDMA-CM: the memory descriptor goes to the requester in a send. */
	if (params->use_rdma_cm)
		result = config_rdma_cm_callbacks_and_negotiation(&objs, true, false);
	if (result == DOCA_SUCCESS)
		result = doca_ctx_set_state_changed_cb(objs.ctx, rdma_state_changed_callback);
	if (result == DOCA_SUCCESS)
		result = run_rdma_context(&objs);

	tmp = destroy_rdma_resources(&objs);
	DOCA_ERROR_PROPAGATE(result, tmp);
	return result;
}
