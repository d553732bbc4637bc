/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Remote sync event responder: exports a sync event that the requester may
 * set over RDMA, and in the RUNNING callback - blocked, progressing nothing
 * - waits for the requester's set, answers by setting the event locally,
 * and waits for the requester's completion notice.
 *
 * With -cm it listens instead, sends the event's descriptor over the new
 * connection, and waits the same way in the send's completion callback.
 */
#include <doca_ctx.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>
#include <doca_sync_event.h>

#include "rdma_common.h"
#include "rdma_sync_event_common.h"

DOCA_LOG_REGISTER(RDMA_SYNC_EVENT_RESPONDER::SAMPLE);

static struct doca_sync_event *sync_event;

/* A remote-net publisher, a CPU subscriber, started. */
static doca_error_t create_sync_event(struct doca_dev *dev)
{
	doca_error_t result;

	result = doca_sync_event_create(&sync_event);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create the sync event: %s", doca_error_get_descr(result));
		return result;
	}
	result = doca_sync_event_add_publisher_location_remote_net(sync_event);
	if (result == DOCA_SUCCESS)
		result = doca_sync_event_add_subscriber_location_cpu(sync_event, dev);
	if (result == DOCA_SUCCESS)
		result = doca_sync_event_start(sync_event);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to configure the sync event: %s",
		             doca_error_get_descr(result));
		(void)doca_sync_event_destroy(sync_event);
		sync_event = NULL;
	}
	return result;
}

static doca_error_t wait_for_value_above(uint64_t value)
{
	uint64_t reached;
	doca_error_t result;

	DOCA_LOG_INFO("Waiting for the sync event to exceed %lu", (unsigned long)value);
	result = doca_sync_event_wait_gt(sync_event, value, UINT64_MAX);
	if (result == DOCA_SUCCESS)
		result = doca_sync_event_get(sync_event, &reached);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to wait for the sync event: %s", doca_error_get_descr(result));
		return result;
	}
	DOCA_LOG_INFO("Sync event signaled by the requester: %lu", (unsigned long)reached);
	return DOCA_SUCCESS;
}

/* The event's descriptor for the requester: rdma_common.c writes it to
 * the -m file, or (RDMA-CM) sends it on the connection. */
static doca_error_t export_sync_event(struct rdma_objects *objs, const void **desc, size_t *len)
{
	const uint8_t *blob;
	doca_error_t result;

	(void)objs;
	result = doca_sync_event_export_to_remote_net(sync_event, &blob, len);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to export the sync event: %s", doca_error_get_descr(result));
		return result;
	}
	*desc = blob;
	return DOCA_SUCCESS;
}

/* Runs once connected and the event's descriptor handed over (the RUNNING
 * callback, or with -cm the descriptor's send completion callback): the
 * exchange - with no progress call here. */
static doca_error_t synchronize(struct rdma_objects *objs)
{
	doca_error_t result;

	result = wait_for_value_above(SYNC_EVENT_START);
	if (result != DOCA_SUCCESS)
		return result;
	result = doca_sync_event_update_set(sync_event, SYNC_EVENT_ANSWER);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set the sync event: %s", doca_error_get_descr(result));
		return result;
	}
	DOCA_LOG_INFO("Answered by setting the sync event to %d", SYNC_EVENT_ANSWER);
	result = wait_for_value_above(SYNC_EVENT_ANSWER);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("The requester notified completion");
	(void)doca_ctx_stop(objs->ctx);
	return DOCA_SUCCESS;
}

doca_error_t rdma_sync_event_responder(struct rdma_params *params)
{
	struct rdma_objects objs;
	doca_error_t result, tmp;

	result = allocate_rdma_resources(
	        params, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
	        doca_sync_event_cap_is_export_to_remote_net_supported, &objs);
	if (result != DOCA_SUCCESS)
		return result;
	objs.exchange_mmap = true;
	objs.export_resource = export_sync_event;
	objs.connected = synchronize;

	result = create_sync_event(objs.dev);
	/* RDMA-CM: the event's descriptor goes to the requester in a send. */
	if (result == DOCA_SUCCESS && params->use_rdma_cm)
		result = config_rdma_cm_callbacks_and_negotiation(&objs, true, false);
	if (result == DOCA_SUCCESS)
		result = doca_ctx_set_state_changed_cb(objs.ctx, rdma_state_changed_callback);
	if (result == DOCA_SUCCESS)
		result = run_rdma_context(&objs);

	if (sync_event != NULL) {
		tmp = doca_sync_event_stop(sync_event);
		DOCA_ERROR_PROPAGATE(result, tmp);
		tmp = doca_sync_event_destroy(sync_event);
		DOCA_ERROR_PROPAGATE(result, tmp);
	}
	tmp = destroy_rdma_resources(&objs);
	DOCA_ERROR_PROPAGATE(result, tmp);
	return result;
}
