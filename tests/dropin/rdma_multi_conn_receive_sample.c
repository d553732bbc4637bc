/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Multi-connection receive: one context with -nc connections (RDMA-CM: the
 * server accepts that many clients' connections, or the client makes that
 * many; out of band: one descriptor file pair "<path>-<index>" each). One
 * receive is posted for each connection as it comes up, into a slot of
 * memory of its own. For every message that arrives it prints the
 * connection the message came on (doca_rdma_task_receive_get_result_rdma_
 * connection), that connection's id and user data (its index in the order
 * of requests or connects) and the text; it stops once a message for every
 * connection arrived.
 */
#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_MULTI_CONN_RECEIVE::SAMPLE);

#define SLOT_LEN (MEMORY_LEN / MAX_CONNECTIONS) /* each receive's memory */

/* What a program of this file counts, beside its rdma_objects. */
struct multi_receive {
	struct rdma_objects objs;
	uint32_t received;
};

/* The connection that got user data `index` when it came: a server's in the
 * order of requests, out of band and a client's in the order of connects. */
static struct doca_rdma_connection *connection_of(const struct rdma_objects *objs, uint64_t index)
{
	if (objs->params->use_rdma_cm && !objs->is_client)
		return index < objs->num_requests ? objs->requested[index] : NULL;
	return index < objs->num_connections ? objs->connections[index] : NULL;
}

/* The message of a receive and where it came from; checks that the
 * connection's user data names that connection. */
static doca_error_t print_message(struct rdma_objects *objs, struct doca_rdma_task_receive *task,
                                  uint64_t receive_index)
{
	const struct doca_rdma_connection *connection =
	        doca_rdma_task_receive_get_result_rdma_connection(task);
	const struct doca_buf *dst = doca_rdma_task_receive_get_dst_buf(task);
	union doca_data connection_user_data;
	uint32_t id;
	void *data;
	size_t len;
	doca_error_t result;

	if (connection == NULL) {
		DOCA_LOG_ERR("The receive names no connection");
		return DOCA_ERROR_UNEXPECTED;
	}
	result = doca_rdma_connection_get_id(connection, &id);
	if (result == DOCA_SUCCESS)
		result = doca_rdma_connection_get_user_data(connection, &connection_user_data);
	if (result == DOCA_SUCCESS)
		result = doca_buf_get_data(dst, &data);
	if (result == DOCA_SUCCESS)
		result = doca_buf_get_data_len(dst, &len);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to read the receive's result: %s",
		             doca_error_get_descr(result));
		return result;
	}
	if (connection_of(objs, connection_user_data.u64) != connection) {
		DOCA_LOG_ERR("Connection id %u has user data %llu, which belongs to another "
		             "connection",
		             id, (unsigned long long)connection_user_data.u64);
		return DOCA_ERROR_UNEXPECTED;
	}
	if (len == 0 || len != doca_rdma_task_receive_get_result_len(task) ||
	    strnlen(data, len) != len - 1) {
		DOCA_LOG_ERR("Received %zu bytes on connection id %u that are not one string", len,
		             id);
		return DOCA_ERROR_UNEXPECTED;
	}
	/* Receives complete in the order posted, whichever connection the
	 * message came on: the receive's index says nothing of its sender. */
	DOCA_LOG_INFO("Receive %llu: message on connection id %u (user data %llu): \"%s\"",
	              (unsigned long long)receive_index, id,
	              (unsigned long long)connection_user_data.u64, (char *)data);
	return DOCA_SUCCESS;
}

static void receive_completed_callback(struct doca_rdma_task_receive *task,
                                       union doca_data task_user_data,
                                       union doca_data ctx_user_data)
{
	struct multi_receive *program = ctx_user_data.ptr;
	struct rdma_objects *objs = &program->objs;
	struct doca_buf *dst = doca_rdma_task_receive_get_dst_buf(task);
	doca_error_t result, tmp;

	result = print_message(objs, task, task_user_data.u64);
	doca_task_free(doca_rdma_task_receive_as_task(task));
	tmp = doca_buf_dec_refcount(dst, NULL);
	DOCA_ERROR_PROPAGATE(result, tmp);
	DOCA_ERROR_PROPAGATE(objs->first_error, result);
	/* Every connection's message, or an error: the end. */
	if (++program->received == objs->expected_connections || result != DOCA_SUCCESS)
		(void)doca_ctx_stop(objs->ctx);
}

static void receive_error_callback(struct doca_rdma_task_receive *task,
                                   union doca_data task_user_data, union doca_data ctx_user_data)
{
	struct multi_receive *program = ctx_user_data.ptr;
	doca_error_t status = doca_task_get_status(doca_rdma_task_receive_as_task(task));

	DOCA_LOG_ERR("RDMA receive task %llu failed: %s", (unsigned long long)task_user_data.u64,
	             doca_error_get_descr(status));
	(void)doca_buf_dec_refcount(doca_rdma_task_receive_get_dst_buf(task), NULL);
	doca_task_free(doca_rdma_task_receive_as_task(task));
	DOCA_ERROR_PROPAGATE(program->objs.first_error, status);
	(void)doca_ctx_stop(program->objs.ctx);
}

/* A connection came up: a receive of its own for it. */
static doca_error_t post_receive_for(struct rdma_objects *objs,
                                     struct doca_rdma_connection *connection, uint32_t index)
{
	struct doca_rdma_task_receive *task;
	struct doca_buf *dst;
	union doca_data task_user_data = { .u64 = index };
	doca_error_t result;

	(void)connection;
	result = doca_buf_inventory_buf_get_by_addr(
	        objs->inventory, objs->mmap, objs->memrange + index * SLOT_LEN, SLOT_LEN, &dst);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to get receive buffer %u: %s", index,
		             doca_error_get_descr(result));
		return result;
	}
	result = doca_rdma_task_receive_allocate_init(objs->rdma, dst, task_user_data, &task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate RDMA receive task %u: %s", index,
		             doca_error_get_descr(result));
		(void)doca_buf_dec_refcount(dst, NULL);
		return result;
	}
	DOCA_LOG_INFO("Submitting RDMA receive task %u", index);
	result = doca_task_submit(doca_rdma_task_receive_as_task(task));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to submit RDMA receive task %u: %s", index,
		             doca_error_get_descr(result));
		doca_task_free(doca_rdma_task_receive_as_task(task));
		(void)doca_buf_dec_refcount(dst, NULL);
	}
	return result;
}

static doca_error_t all_connected(struct rdma_objects *objs)
{
	DOCA_LOG_INFO("All %u connections are up", objs->num_connections);
	return DOCA_SUCCESS;
}

doca_error_t rdma_multi_conn_receive(struct rdma_params *params)
{
	struct multi_receive program = { .received = 0 };
	struct rdma_objects *objs = &program.objs;
	doca_error_t result, tmp;

	/* objs first in program: the context's user data serves both. */
	result = allocate_rdma_resources(params, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
	                                 DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
	                                 doca_rdma_cap_task_receive_is_supported, objs);
	if (result != DOCA_SUCCESS)
		return result;
	objs->expected_connections = params->num_connections;
	objs->multi_conn = true;
	objs->connection_ready = post_receive_for;
	objs->connected = all_connected;

	result = doca_rdma_set_max_num_connections(objs->rdma, (uint16_t)params->num_connections);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to allow %u connections: %s", params->num_connections,
		             doca_error_get_descr(result));
	if (result == DOCA_SUCCESS) {
		result = doca_rdma_task_receive_set_conf(objs->rdma, receive_completed_callback,
		                                         receive_error_callback,
		                                         params->num_connections);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_ERR("Failed to configure RDMA receive tasks: %s",
			             doca_error_get_descr(result));
	}
	if (result == DOCA_SUCCESS && params->use_rdma_cm)
		result = config_rdma_cm_callbacks_and_negotiation(objs, false, false);
	if (result == DOCA_SUCCESS)
		result = doca_ctx_set_state_changed_cb(objs->ctx, rdma_state_changed_callback);
	if (result == DOCA_SUCCESS)
		result = create_buf_inventory(objs);
	if (result == DOCA_SUCCESS)
		result = run_rdma_context(objs);
	if (result == DOCA_SUCCESS && program.received != objs->expected_connections) {
		DOCA_LOG_ERR("%u of %u messages arrived", program.received,
		             objs->expected_connections);
		result = DOCA_ERROR_UNEXPECTED;
	}

	tmp = destroy_buf_inventory(objs);
	DOCA_ERROR_PROPAGATE(result, tmp);
	tmp = destroy_rdma_resources(objs);
	DOCA_ERROR_PROPAGATE(result, tmp);
	return result;
}
