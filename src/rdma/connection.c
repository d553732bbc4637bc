/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * RDMA connections made out of band: doca_rdma_export() creates a QP and a
 * connection blob; the peer passes it to doca_rdma_connect().
 *
 * Connection blob body (format version 1, docs/wire.md):
 *   0 u32 connection id at the exporter   8 16 GID of the exporting device
 *   4 u32 reserved (0)                    24 ... the QP's connection info
 */
#include <stdlib.h>
#include <string.h>

#include "core/blob.h"
#include "core/bytes.h"
#include "core/dev.h"
#include "core/sdk_log.h"
#include "rdma/rdma.h"

SDOCA_LOG_MODULE(rdma_connection);

#define BODY_CONN_ID 0
#define BODY_GID 8
#define BODY_INFO 24

static void connection_failed(void *owner, doca_error_t status)
{
	struct doca_rdma_connection *conn = owner;

	(void)status;
	/* As on hardware, a QP error is fatal to the context. */
	sdoca_ctx_fail(&conn->rdma->ctx);
}

static const struct nic_qp_events qp_events = { .fatal = connection_failed };

static bool can_connect(const struct doca_rdma *rdma)
{
	return rdma->ctx.state == DOCA_CTX_STATE_STARTING ||
	       rdma->ctx.state == DOCA_CTX_STATE_RUNNING;
}

static doca_error_t build_blob(struct doca_rdma *rdma, struct doca_rdma_connection *conn)
{
	const struct doca_devinfo *info = &rdma->ctx.dev->info;
	uint8_t *blob = malloc(SDOCA_BLOB_HEADER_SIZE + BODY_INFO + NIC_CONN_INFO_MAX);
	uint8_t *body;
	size_t info_len;

	if (!blob)
		return DOCA_ERROR_NO_MEMORY;
	body = blob + SDOCA_BLOB_HEADER_SIZE;
	memset(body, 0, BODY_INFO);
	sdoca_put_le32(body + BODY_CONN_ID, conn->id);
	if (rdma->gid_index < info->num_gids)
		memcpy(body + BODY_GID, info->gids[rdma->gid_index].raw, DOCA_GID_BYTE_LENGTH);
	info_len = nic_qp_info(conn->qp, body + BODY_INFO, NIC_CONN_INFO_MAX);
	if (info_len == 0) {
		free(blob);
		SDOCA_FAIL(DOCA_ERROR_UNEXPECTED, "the transport address does not fit a blob");
	}
	sdoca_blob_seal(blob, SDOCA_BLOB_RDMA_CONNECTION, BODY_INFO + info_len);
	conn->blob = blob;
	conn->blob_len = SDOCA_BLOB_HEADER_SIZE + BODY_INFO + info_len;
	return DOCA_SUCCESS;
}

doca_error_t rdma_export(struct doca_rdma *rdma, const void **blob, size_t *len,
                         struct doca_rdma_connection **out)
{
	struct nic_qp_attr attr = {
		.access = rdma->permissions,
		.send_queue = rdma->send_queue_size,
		.rnr_retry = rdma->rnr_retry_count,
		.timeout_ms = rdma->timeout_ms,
	};
	struct doca_rdma_connection *conn;
	doca_error_t status;

	if (!can_connect(rdma))
		SDOCA_FAIL(DOCA_ERROR_BAD_STATE,
		           "doca_rdma_export: the context must be STARTING or RUNNING");
	if (rdma->num_conns == rdma->max_num_connections)
		SDOCA_FAIL(DOCA_ERROR_FULL,
		           "doca_rdma_export: all %u connections are used (doca_rdma_set_max_num_"
		           "connections)",
		           rdma->max_num_connections);
	conn = calloc(1, sizeof(*conn));
	if (!conn)
		return DOCA_ERROR_NO_MEMORY;
	conn->rdma = rdma;
	conn->id = rdma->num_conns;
	attr.conn_id = conn->id;
	status = nic_qp_create(rdma->worker, &rdma->srq, &attr, conn, &qp_events, &conn->qp);
	if (status == DOCA_SUCCESS)
		status = build_blob(rdma, conn);
	if (status != DOCA_SUCCESS) {
		if (conn->qp)
			nic_qp_destroy(conn->qp, DOCA_ERROR_CONNECTION_ABORTED);
		free(conn);
		return status;
	}
	rdma->conns[rdma->num_conns++] = conn;
	*blob = conn->blob;
	*len = conn->blob_len;
	if (out)
		*out = conn;
	return DOCA_SUCCESS;
}

static bool owns(const struct doca_rdma *rdma, const struct doca_rdma_connection *conn)
{
	for (uint16_t i = 0; i < rdma->num_conns; i++)
		if (rdma->conns[i] == conn)
			return true;
	return false;
}

doca_error_t rdma_conn_blob_check(const void *blob, size_t len, const uint8_t **info,
                                  size_t *info_len)
{
	const uint8_t *body;
	size_t body_len;
	doca_error_t status;

	status = sdoca_blob_open(blob, len, SDOCA_BLOB_RDMA_CONNECTION, &body, &body_len);
	if (status != DOCA_SUCCESS)
		return status;
	if (body_len < BODY_INFO || sdoca_get_le32(body + 4) != 0)
		SDOCA_FAIL(DOCA_ERROR_INVALID_VALUE, "connection blob body is malformed");
	*info = body + BODY_INFO;
	*info_len = body_len - BODY_INFO;
	return DOCA_SUCCESS;
}

doca_error_t rdma_conn_connect(struct doca_rdma *rdma, const void *blob, size_t len,
                               struct doca_rdma_connection *conn)
{
	const uint8_t *info;
	size_t info_len;
	doca_error_t status;

	if (!can_connect(rdma))
		SDOCA_FAIL(DOCA_ERROR_BAD_STATE,
		           "doca_rdma_connect: the context must be STARTING or RUNNING");
	if (!owns(rdma, conn))
		SDOCA_FAIL(DOCA_ERROR_INVALID_VALUE,
		           "doca_rdma_connect: the connection was not exported by this context");
	if (conn->connected)
		SDOCA_FAIL(DOCA_ERROR_BAD_STATE, "doca_rdma_connect: connection %u is connected",
		           conn->id);
	status = rdma_conn_blob_check(blob, len, &info, &info_len);
	if (status != DOCA_SUCCESS)
		return status;
	status = nic_qp_connect(conn->qp, info, info_len);
	if (status != DOCA_SUCCESS)
		return status;
	conn->connected = true;
	/* DOCA 2.5: the context becomes RUNNING once connected. */
	if (rdma->ctx.api_version < 300 && rdma->ctx.state == DOCA_CTX_STATE_STARTING)
		sdoca_ctx_start_ready(&rdma->ctx);
	return DOCA_SUCCESS;
}

struct doca_rdma_connection *rdma_implicit_connection(struct doca_rdma *rdma)
{
	return rdma->num_conns > 0 ? rdma->conns[0] : NULL;
}

void rdma_connections_stop(struct doca_rdma *rdma)
{
	for (uint16_t i = 0; i < rdma->num_conns; i++) {
		struct doca_rdma_connection *conn = rdma->conns[i];

		if (conn->qp) {
			nic_qp_counters(conn->qp, &conn->final_counters);
			nic_qp_destroy(conn->qp, DOCA_ERROR_CONNECTION_ABORTED);
			conn->qp = NULL;
		}
	}
}

void rdma_connections_free(struct doca_rdma *rdma)
{
	for (uint16_t i = 0; i < rdma->num_conns; i++) {
		free(rdma->conns[i]->blob);
		free(rdma->conns[i]);
	}
	free(rdma->conns);
	rdma->conns = NULL;
	rdma->num_conns = 0;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_export(struct doca_rdma *rdma,
                                                const void **local_rdma_conn_details,
                                                size_t *local_rdma_conn_details_size,
                                                struct doca_rdma_connection **rdma_connection)
{
	SDOCA_CHECK_ARG(rdma);
	SDOCA_CHECK_ARG(local_rdma_conn_details);
	SDOCA_CHECK_ARG(local_rdma_conn_details_size);
	SDOCA_CHECK_ARG(rdma_connection);
	return rdma_export(rdma, local_rdma_conn_details, local_rdma_conn_details_size,
	                   rdma_connection);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_connect(struct doca_rdma *rdma,
                                                 const void *remote_rdma_conn_details,
                                                 size_t remote_rdma_conn_details_size,
                                                 struct doca_rdma_connection *rdma_connection)
{
	SDOCA_CHECK_ARG(rdma);
	SDOCA_CHECK_ARG(remote_rdma_conn_details);
	SDOCA_CHECK_ARG(rdma_connection);
	return rdma_conn_connect(rdma, remote_rdma_conn_details, remote_rdma_conn_details_size,
	                         rdma_connection);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_connection_get_id(const struct doca_rdma_connection *conn,
                                                           uint32_t *connection_id)
{
	SDOCA_CHECK_ARG(conn);
	SDOCA_CHECK_ARG(connection_id);
	*connection_id = conn->id;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_connection_set_user_data(struct doca_rdma_connection *conn,
                                                                  union doca_data user_data)
{
	SDOCA_CHECK_ARG(conn);
	conn->user_data = user_data;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_connection_get_user_data(
        const struct doca_rdma_connection *conn, union doca_data *user_data)
{
	SDOCA_CHECK_ARG(conn);
	SDOCA_CHECK_ARG(user_data);
	*user_data = conn->user_data;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t softdoca_dev_get_counters(const struct doca_dev *dev,
                                                   struct softdoca_rdma_counters *counters)
{
	SDOCA_CHECK_ARG(dev);
	SDOCA_CHECK_ARG(counters);
	nic_dev_counters(dev->info.ibdev_name, counters);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t softdoca_rdma_connection_get_counters(
        const struct doca_rdma_connection *rdma_connection, struct softdoca_rdma_counters *counters)
{
	SDOCA_CHECK_ARG(rdma_connection);
	SDOCA_CHECK_ARG(counters);
	if (!rdma_connection->qp) {
		*counters = rdma_connection->final_counters;
		return DOCA_SUCCESS;
	}
	nic_qp_counters(rdma_connection->qp, counters);
	return DOCA_SUCCESS;
}
