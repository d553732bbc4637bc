/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Remote sync event requester: imports the responder's sync event, sets it
 * over RDMA, reads it back with remote gets until the responder has
 * answered, and notifies completion with a second remote set: the get's
 * completion resubmits the notify-set task. With -cm it connects to the
 * responder and takes the event's descriptor from a receive on the connection.
 */
#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>
#include <doca_sync_event.h>

#include "rdma_common.h"
#include "rdma_sync_event_common.h"

DOCA_LOG_REGISTER(RDMA_SYNC_EVENT_REQUESTER::SAMPLE);

static struct doca_sync_event_remote_net *remote_event;
static uint64_t *set_value; /* the notify-set's source, in the program's memory */
static unsigned long gets;
/* The notify-set task, submitted twice (NULL once freed), and whether it is
 * in flight: whichever callback ends the exchange frees what is left. */
static struct doca_rdma_task_remote_net_sync_event_notify_set *set_task;
static bool set_in_flight;

static void free_set_task(void)
{
	if (set_task != NULL && !set_in_flight) {
		doca_task_free(doca_rdma_task_remote_net_sync_event_notify_set_as_task(set_task));
		set_task = NULL;
	}
}

/* The exchange cannot go on: the context stops (flushing what is in flight). */
static void stop_on_error(struct rdma_objects *objs, doca_error_t status)
{
	free_set_task();
	objs->tasks_in_flight = 1;
	rdma_task_done(objs, status);
}

static void set_completed_callback(struct doca_rdma_task_remote_net_sync_event_notify_set *task,
                                   union doca_data task_user_data, union doca_data ctx_user_data)
{
	struct rdma_objects *objs = ctx_user_data.ptr;

	(void)task;
	(void)task_user_data;
	set_in_flight = false;
	DOCA_LOG_INFO("Remote sync event notify-set %lu was done successfully",
	              (unsigned long)*set_value);
	if (*set_value == SYNC_EVENT_DONE) {
		DOCA_LOG_INFO("Notified completion after %lu remote gets", gets);
		free_set_task();
	}
	rdma_task_done(objs, DOCA_SUCCESS);
}

static void set_error_callback(struct doca_rdma_task_remote_net_sync_event_notify_set *task,
                               union doca_data task_user_data, union doca_data ctx_user_data)
{
	doca_error_t status =
	        doca_task_get_status(doca_rdma_task_remote_net_sync_event_notify_set_as_task(task));

	(void)task_user_data;
	DOCA_LOG_ERR("Remote sync event notify-set failed: %s", doca_error_get_descr(status));
	set_in_flight = false;
	stop_on_error(ctx_user_data.ptr, status);
}

/* A get: again until the responder's answer is there, then the notify-set
 * once more, with the completion value. */
static void get_completed_callback(struct doca_rdma_task_remote_net_sync_event_get *task,
                                   union doca_data task_user_data, union doca_data ctx_user_data)
{
	struct rdma_objects *objs = ctx_user_data.ptr;
	struct doca_buf *dst = doca_rdma_task_remote_net_sync_event_get_get_dst_buf(task);
	uint64_t value;
	void *data;
	doca_error_t result;

	(void)task_user_data;
	gets++;
	result = doca_buf_get_data(dst, &data);
	if (result == DOCA_SUCCESS) {
		memcpy(&value, data, sizeof(value));
		if (value < SYNC_EVENT_ANSWER) {
			result = doca_buf_reset_data_len(dst);
			if (result == DOCA_SUCCESS)
				result = doca_task_submit(
				        doca_rdma_task_remote_net_sync_event_get_as_task(task));
			if (result == DOCA_SUCCESS)
				return;
		}
	}
	doca_task_free(doca_rdma_task_remote_net_sync_event_get_as_task(task));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to get the sync event again: %s",
		             doca_error_get_descr(result));
		stop_on_error(objs, result);
		return;
	}
	DOCA_LOG_INFO("Remote sync event get read the responder's answer: %lu",
	              (unsigned long)value);
	*set_value = SYNC_EVENT_DONE;
	set_in_flight = true;
	result =
	        doca_task_submit(doca_rdma_task_remote_net_sync_event_notify_set_as_task(set_task));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to submit the completion notify-set: %s",
		             doca_error_get_descr(result));
		set_in_flight = false;
		stop_on_error(objs, result);
		return;
	}
	rdma_task_done(objs, DOCA_SUCCESS);
}

static void get_error_callback(struct doca_rdma_task_remote_net_sync_event_get *task,
                               union doca_data task_user_data, union doca_data ctx_user_data)
{
	doca_error_t status =
	        doca_task_get_status(doca_rdma_task_remote_net_sync_event_get_as_task(task));

	(void)task_user_data;
	DOCA_LOG_ERR("Remote sync event get failed: %s", doca_error_get_descr(status));
	doca_task_free(doca_rdma_task_remote_net_sync_event_get_as_task(task));
	stop_on_error(ctx_user_data.ptr, status);
}

/* The buffers: the notify-set's 8-byte source and the get's destination. */
static doca_error_t prepare_bufs(struct rdma_objects *objs)
{
	doca_error_t result;

	set_value = (uint64_t *)(void *)objs->memrange;
	*set_value = SYNC_EVENT_SET;
	result = doca_buf_inventory_buf_get_by_data(objs->inventory, objs->mmap, objs->memrange,
	                                            sizeof(uint64_t), &objs->src_buf);
	if (result == DOCA_SUCCESS)
		result = doca_buf_inventory_buf_get_by_addr(objs->inventory, objs->mmap,
		                                            objs->memrange + sizeof(uint64_t),
		                                            sizeof(uint64_t), &objs->dst_buf);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to get the task buffers: %s", doca_error_get_descr(result));
	return result;
}

/* Runs in the RUNNING callback, right after connect (with -cm: in the
 * descriptor's receive completion callback): the responder's event, from
 * the descriptor rdma_common.c took from the -m file or the connection,
 * then both tasks. */
static doca_error_t sync_prepare_and_submit(struct rdma_objects *objs)
{
	struct doca_rdma_task_remote_net_sync_event_get *get;
	union doca_data user_data = { .ptr = NULL };
	doca_error_t result;

	result = doca_sync_event_remote_net_create_from_export(
	        objs->dev, (const uint8_t *)objs->peer_mmap_desc, objs->peer_mmap_desc_size,
	        &remote_event);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create the remote sync event: %s",
		             doca_error_get_descr(result));
		return result;
	}
	result = prepare_bufs(objs);
	if (result != DOCA_SUCCESS)
		return result;
	result = doca_rdma_task_remote_net_sync_event_notify_set_allocate_init(
	        objs->rdma, objs->connection, remote_event, objs->src_buf, user_data, &set_task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate the notify-set task: %s",
		             doca_error_get_descr(result));
		return result;
	}
	result = doca_rdma_task_remote_net_sync_event_get_allocate_init(
	        objs->rdma, objs->connection, remote_event, objs->dst_buf, user_data, &get);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate the get task: %s", doca_error_get_descr(result));
		free_set_task();
		return result;
	}
	DOCA_LOG_INFO("Submitting a remote notify-set of %d and a remote get", SYNC_EVENT_SET);
	/* the set, the gets, and the completion set they submit */
	objs->tasks_in_flight = 3;
	set_in_flight = true;
	result =
	        doca_task_submit(doca_rdma_task_remote_net_sync_event_notify_set_as_task(set_task));
	if (result != DOCA_SUCCESS) {
		set_in_flight = false;
		free_set_task();
	} else {
		result = doca_task_submit(doca_rdma_task_remote_net_sync_event_get_as_task(get));
		if (result == DOCA_SUCCESS)
			return DOCA_SUCCESS;
	}
	/* The context stops (and a set in flight completes through its callback). */
	DOCA_LOG_ERR("Failed to submit the tasks: %s", doca_error_get_descr(result));
	doca_task_free(doca_rdma_task_remote_net_sync_event_get_as_task(get));
	return result;
}

doca_error_t rdma_sync_event_requester(struct rdma_params *params)
{
	struct rdma_objects objs;
	doca_error_t result, tmp;

	result = allocate_rdma_resources(
	        params, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
	        doca_rdma_cap_task_remote_net_sync_event_notify_set_is_supported, &objs);
	if (result != DOCA_SUCCESS)
		return result;
	objs.is_requester = true;
	objs.exchange_mmap = true;
	objs.connected = sync_prepare_and_submit;

	result = doca_rdma_task_remote_net_sync_event_notify_set_set_conf(
	        objs.rdma, set_completed_callback, set_error_callback, TASKS_PER_PROGRAM);
	if (result == DOCA_SUCCESS)
		result = doca_rdma_task_remote_net_sync_event_get_set_conf(
		        objs.rdma, get_completed_callback, get_error_callback, TASKS_PER_PROGRAM);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to configure the remote sync event tasks: %s",
		             doca_error_get_descr(result));
	/* RDMA-CM: the responder's event descriptor comes in a receive. */
	if (result == DOCA_SUCCESS && params->use_rdma_cm)
		result = config_rdma_cm_callbacks_and_negotiation(&objs, false, true);
	if (result == DOCA_SUCCESS)
		result = doca_ctx_set_state_changed_cb(objs.ctx, rdma_state_changed_callback);
	if (result == DOCA_SUCCESS)
		result = create_buf_inventory(&objs);
	if (result == DOCA_SUCCESS)
		result = run_rdma_context(&objs);

	tmp = destroy_buf_inventory(&objs);
	DOCA_ERROR_PROPAGATE(result, tmp);
	if (remote_event != NULL) {
		tmp = doca_sync_event_remote_net_destroy(remote_event);
		DOCA_ERROR_PROPAGATE(result, tmp);
	}
	tmp = destroy_rdma_resources(&objs);
	DOCA_ERROR_PROPAGATE(result, tmp);
	return result;
}
