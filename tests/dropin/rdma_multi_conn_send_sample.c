/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Multi-connection send: one context with -nc connections (RDMA-CM: the
 * client connects that many times, one connection after the other, or the
 * server accepts that many; out of band: one descriptor file pair
 * "<path>-<index>" each). Once all are up it sends one message on each, the
 * last connection's first: its string (-s) followed by the connection's
 * index, "(sender connection <index>)", which the receiver prints beside
 * the connection the message came on.
 */
#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_MULTI_CONN_SEND::SAMPLE);

#define SLOT_LEN (MEMORY_LEN / MAX_CONNECTIONS) /* each message's memory */

static void send_completed_callback(struct doca_rdma_task_send *task,
                                    union doca_data task_user_data, union doca_data ctx_user_data)
{
	struct rdma_objects *objs = ctx_user_data.ptr;
	struct doca_buf *src = (struct doca_buf *)doca_rdma_task_send_get_src_buf(task);

	DOCA_LOG_INFO("RDMA send task %llu was done successfully",
	              (unsigned long long)task_user_data.u64);
	doca_task_free(doca_rdma_task_send_as_task(task));
	rdma_task_done(objs, doca_buf_dec_refcount(src, NULL));
}

static void send_error_callback(struct doca_rdma_task_send *task, union doca_data task_user_data,
                                union doca_data ctx_user_data)
{
	struct rdma_objects *objs = ctx_user_data.ptr;
	struct doca_buf *src = (struct doca_buf *)doca_rdma_task_send_get_src_buf(task);
	doca_error_t status = doca_task_get_status(doca_rdma_task_send_as_task(task));

	DOCA_LOG_ERR("RDMA send task %llu failed: %s", (unsigned long long)task_user_data.u64,
	             doca_error_get_descr(status));
	doca_task_free(doca_rdma_task_send_as_task(task));
	(void)doca_buf_dec_refcount(src, NULL);
	rdma_task_done(objs, status);
}

/* The message of connection `index`, from its own slot of memory. */
static doca_error_t send_on_connection(struct rdma_objects *objs, uint32_t index)
{
	struct doca_rdma_connection *connection = objs->connections[index];
	char *message = objs->memrange + index * SLOT_LEN;
	union doca_data task_user_data = { .u64 = index };
	struct doca_rdma_task_send *task;
	struct doca_buf *src;
	union doca_data connection_user_data = { .u64 = index };
	uint32_t id = 0;
	int len;
	doca_error_t result;

	/* Labelled by the connection's user data - the order the client asked
	 * for them - not by the order they came up in: a server's connections
	 * can come up in another order than the client's requests. */
	result = doca_rdma_connection_get_user_data(connection, &connection_user_data);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to get the user data of connection %u: %s", index,
		             doca_error_get_descr(result));
		return result;
	}
	len = snprintf(message, SLOT_LEN, "%s (sender connection %llu)", objs->params->text,
	               (unsigned long long)connection_user_data.u64);
	if (len < 0 || len >= SLOT_LEN) {
		DOCA_LOG_ERR("The message of connection %u is longer than %d bytes", index,
		             SLOT_LEN - 1);
		return DOCA_ERROR_INVALID_VALUE;
	}
	result = doca_rdma_connection_get_id(connection, &id);
	if (result == DOCA_SUCCESS)
		result = doca_buf_inventory_buf_get_by_data(objs->inventory, objs->mmap, message,
		                                            (size_t)len + 1, &src);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to prepare the message of connection %u: %s", index,
		             doca_error_get_descr(result));
		return result;
	}
	result = doca_rdma_task_send_allocate_init(objs->rdma, connection, src, task_user_data,
	                                           &task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate RDMA send task %u: %s", index,
		             doca_error_get_descr(result));
		(void)doca_buf_dec_refcount(src, NULL);
		return result;
	}
	DOCA_LOG_INFO("Sending on connection id %u: \"%s\"", id, message);
	objs->tasks_in_flight++;
	result = doca_task_submit(doca_rdma_task_send_as_task(task));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to submit RDMA send task %u: %s", index,
		             doca_error_get_descr(result));
		objs->tasks_in_flight--;
		doca_task_free(doca_rdma_task_send_as_task(task));
		(void)doca_buf_dec_refcount(src, NULL);
	}
	return result;
}

/* All connections are up: a message on each, the last connection's first,
 * so that the receiver's first receive is not the first connection's. */
static doca_error_t send_on_every_connection(struct rdma_objects *objs)
{
	doca_error_t result = DOCA_SUCCESS;

	DOCA_LOG_INFO("All %u connections are up", objs->num_connections);
	for (uint32_t i = objs->num_connections; i > 0 && result == DOCA_SUCCESS; i--)
		result = send_on_connection(objs, i - 1);
	return result;
}

doca_error_t rdma_multi_conn_send(struct rdma_params *params)
{
	struct rdma_objects objs;
	doca_error_t result, tmp;

	result = allocate_rdma_resources(params, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
	                                 DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
	                                 doca_rdma_cap_task_send_is_supported, &objs);
	if (result != DOCA_SUCCESS)
		return result;
	objs.expected_connections = params->num_connections;
	objs.multi_conn = true;
	objs.connected = send_on_every_connection;

	result = doca_rdma_set_max_num_connections(objs.rdma, (uint16_t)params->num_connections);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to allow %u connections: %s", params->num_connections,
		             doca_error_get_descr(result));
	if (result == DOCA_SUCCESS) {
		result = doca_rdma_task_send_set_conf(objs.rdma, send_completed_callback,
		                                      send_error_callback, params->num_connections);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to configure RDMA send tasks: %s",
			             doca_error_get_descr(result));
	}
	if (result == DOCA_SUCCESS && params->use_rdma_cm)
		result = config_rdma_cm_callbacks_and_negotiation(&objs, false, false);
	if (result == DOCA_SUCCESS)
		result = doca_ctx_set_state_changed_cb(objs.ctx, rdma_state_changed_callback);
	if (result == DOCA_SUCCESS)
		result = create_buf_inventory(&objs);
	if (result == DOCA_SUCCESS)
		result = run_rdma_context(&objs);

	tmp = destroy_buf_inventory(&objs);
	DOCA_ERROR_PROPAGATE(result, tmp);
	tmp = destroy_rdma_resources(&objs);
	DOCA_ERROR_PROPAGATE(result, tmp);
	return result;
}
