/*
 * RDMA connections: table, life, events and out-of-band export.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * RDMA connections: the context's table of them, their life (rdma.h), the
 * events that tell the application, and the out-of-band way in:
 * doca_rdma_export() creates a QP and a connection blob; the peer passes it
 * to doca_rdma_connect(). (rdma_cm.c has the way through a listener.)
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
#include "diag/diag.h"
#include "rdma/rdma.h"

SDOCA_LOG_MODULE(rdma_connection);

#define BODY_CONN_ID 0
#define BODY_GID 8
#define BODY_INFO 24

/* What the tasks of a connection that is torn down complete with. */
#define CONN_FLUSH_STATUS DOCA_ERROR_CONNECTION_ABORTED

static uint32_t conn_id(const struct doca_rdma_connection *conn)
{
	return (uint32_t)conn->generation << 16 | conn->index;
}

/* --- the table --- */

static void run_event(struct sdoca_event *event);

doca_error_t rdma_connections_start(struct doca_rdma *rdma)
{
	uint32_t n = (uint32_t)rdma->max_num_connections + RDMA_CONN_QUARANTINE;

	rdma->conns = calloc(n, sizeof(*rdma->conns));
	rdma->free_slots = calloc(n, sizeof(*rdma->free_slots));
	if (!rdma->conns || !rdma->free_slots) {
		rdma_connections_free(rdma);
		return DOCA_ERROR_NO_MEMORY;
	}
	for (uint32_t i = 0; i < n; i++) {
		struct doca_rdma_connection *conn = &rdma->conns[i];

		conn->rdma = rdma;
		conn->index = (uint16_t)i;
		for (int k = 0; k < RDMA_EVENT_KINDS; k++) {
			conn->events[k].conn = conn;
			conn->events[k].kind = (enum rdma_conn_event_kind)k;
			conn->events[k].base.run = run_event;
		}
		rdma->free_slots[i] = (uint16_t)i;
	}
	rdma->num_slots = n;
	rdma->free_head = 0;
	rdma->num_free = n;
	rdma->live = 0;
	rdma->implicit = NULL;
	rdma->isolated = rdma->ctx.api_version >= 300 &&
	                 (rdma->max_num_connections > 1 || rdma->request_cb ||
	                  rdma->established_cb || rdma->failure_cb || rdma->disconnect_cb);
	return DOCA_SUCCESS;
}

bool rdma_conn_valid(const struct doca_rdma *rdma, const struct doca_rdma_connection *conn)
{
	uintptr_t base = (uintptr_t)rdma->conns, at = (uintptr_t)conn;

	/* Arithmetic first: a pointer from outside the table is not read. */
	if (!rdma->conns || at < base || at >= base + rdma->num_slots * sizeof(*conn) ||
	    (at - base) % sizeof(*conn) != 0)
		return false;
	return atomic_load_explicit(&conn->in_use, memory_order_relaxed);
}

struct doca_rdma_connection *rdma_conn_alloc(struct doca_rdma *rdma, enum rdma_conn_state state)
{
	struct doca_rdma_connection *conn;

	nic_assert_locked(rdma->worker);
	if (rdma->live >= rdma->max_num_connections || rdma->num_free == 0)
		return NULL;
	conn = &rdma->conns[rdma->free_slots[rdma->free_head]];
	rdma->free_head = (rdma->free_head + 1) % rdma->num_slots;
	rdma->num_free--;
	rdma->live++;
	conn->state = state;
	conn->via_cm = false;
	conn->local_close = false;
	conn->reported_up = false;
	conn->finished = false;
	conn->connected = false;
	conn->request = NULL;
	conn->listener = NULL;
	conn->user_data = (union doca_data){ 0 };
	conn->private_len = 0;
	memset(&conn->peer, 0, sizeof(conn->peer));
	memset(&conn->final_counters, 0, sizeof(conn->final_counters));
	atomic_store_explicit(&conn->in_use, true, memory_order_relaxed);
	return conn;
}

/* Back to FREE, behind every other free slot (lock held). */
static void release(struct doca_rdma_connection *conn)
{
	struct doca_rdma *rdma = conn->rdma;

	nic_assert_locked(rdma->worker);
	if (conn->state == RDMA_CONN_FREE)
		return;
	free(conn->blob);
	conn->blob = NULL;
	conn->blob_len = 0;
	conn->state = RDMA_CONN_FREE;
	atomic_store_explicit(&conn->in_use, false, memory_order_relaxed);
	conn->generation++;
	rdma->free_slots[(rdma->free_head + rdma->num_free) % rdma->num_slots] = conn->index;
	rdma->num_free++;
	rdma->live--;
}

void rdma_conn_finish(struct doca_rdma_connection *conn)
{
	nic_assert_locked(conn->rdma->worker);
	conn->finished = true;
	if (conn->queued == 0)
		release(conn);
}

void rdma_conn_push(struct doca_rdma_connection *conn, enum rdma_conn_event_kind kind)
{
	nic_assert_locked(conn->rdma->worker);
	conn->queued++;
	sdoca_event_push(&conn->rdma->ctx, &conn->events[kind].base);
}

/* --- what the QP reports (worker lock held, any thread) --- */

static void qp_up(void *owner, const void *private_data, size_t len)
{
	struct doca_rdma_connection *conn = owner;

	nic_assert_locked(conn->rdma->worker);
	if (conn->state != RDMA_CONN_CONNECTING)
		return;
	if (len > RDMA_PRIVATE_DATA_MAX)
		len = RDMA_PRIVATE_DATA_MAX;
	if (len)
		memcpy(conn->private_data, private_data, len);
	conn->private_len = (uint8_t)len;
	conn->state = RDMA_CONN_ESTABLISHED;
	if (conn->rdma->isolated)
		rdma_conn_push(conn, RDMA_EVENT_UP);
}

static void qp_down(void *owner, enum nic_qp_down why, doca_error_t status)
{
	struct doca_rdma_connection *conn = owner;
	struct doca_rdma *rdma = conn->rdma;
	bool left = why == NIC_DOWN_PEER_LEFT && conn->state == RDMA_CONN_ESTABLISHED;

	nic_assert_locked(rdma->worker);
	if (conn->state != RDMA_CONN_CONNECTING && conn->state != RDMA_CONN_ESTABLISHED)
		return;
	conn->state = left ? RDMA_CONN_CLOSED : RDMA_CONN_FAILED;
	if (rdma->isolated) {
		rdma_conn_push(conn, RDMA_EVENT_DOWN);
		return;
	}
	/* One connection and no callbacks: as on hardware, an error is fatal to
	 * the context; a peer that left with nothing in flight is not. */
	if (status != DOCA_SUCCESS)
		sdoca_ctx_fail(&rdma->ctx);
}

static const struct nic_qp_events qp_events = { .up = qp_up, .down = qp_down };

doca_error_t rdma_conn_create_qp(struct doca_rdma_connection *conn)
{
	struct doca_rdma *rdma = conn->rdma;
	struct nic_qp_attr attr = {
		.access = rdma->permissions,
		.send_queue = rdma->send_queue_size,
		.rnr_retry = rdma->rnr_retry_count,
		.timeout_ms = rdma->timeout_ms,
		.conn_id = conn_id(conn),
	};

	return nic_qp_create(rdma->worker, &rdma->srq, &attr, conn, &qp_events, &conn->qp);
}

/* The QP goes, flushing its tasks (lock not held; the application's thread). */
static void drop_qp(struct doca_rdma_connection *conn)
{
	struct nic_qp *qp = conn->qp;

	if (!qp)
		return;
	nic_qp_counters(qp, &conn->final_counters);
	conn->qp = NULL;
	nic_qp_destroy(qp, CONN_FLUSH_STATUS);
}

/* --- the events, inside doca_pe_progress --- */

static void tell(struct doca_rdma_connection *conn, enum rdma_conn_event_kind kind,
                 enum rdma_conn_state state)
{
	struct doca_rdma *rdma = conn->rdma;
	union doca_data ctx_data = rdma->ctx.user_data;

	switch (kind) {
	case RDMA_EVENT_REQUEST:
		if (state == RDMA_CONN_REQUESTED && rdma->request_cb)
			rdma->request_cb(conn, ctx_data);
		break;
	case RDMA_EVENT_UP:
		conn->reported_up = true;
		if (rdma->established_cb)
			rdma->established_cb(conn, conn->user_data, ctx_data);
		break;
	case RDMA_EVENT_DOWN:
		/* Disconnected, by either side, once it was established (or by
		 * this side at any time); anything else is a failure. */
		if (state == RDMA_CONN_CLOSED && (conn->reported_up || conn->local_close)) {
			if (rdma->disconnect_cb)
				rdma->disconnect_cb(conn, conn->user_data, ctx_data);
		} else if (rdma->failure_cb) {
			rdma->failure_cb(conn, conn->user_data, ctx_data);
		}
		break;
	default:
		break;
	}
}

static void run_event(struct sdoca_event *event)
{
	struct rdma_conn_event *e = sdoca_container_of(event, struct rdma_conn_event, base);
	struct doca_rdma_connection *conn = e->conn;
	struct doca_rdma *rdma = conn->rdma;
	enum doca_ctx_states ctx_state = rdma->ctx.state;
	enum rdma_conn_state state;

	nic_lock(rdma->worker);
	state = conn->state;
	nic_unlock(rdma->worker);
	/* A stopping context tells nothing more: its connections are gone. */
	if (ctx_state == DOCA_CTX_STATE_RUNNING || ctx_state == DOCA_CTX_STATE_STARTING)
		tell(conn, e->kind, state);
	if (e->kind == RDMA_EVENT_DOWN)
		drop_qp(conn);
	nic_lock(rdma->worker);
	conn->queued--;
	if (e->kind == RDMA_EVENT_DOWN)
		conn->finished = true;
	if (conn->finished && conn->queued == 0)
		release(conn);
	nic_unlock(rdma->worker);
}

/* --- the out-of-band way in --- */

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
	sdoca_put_le32(body + BODY_CONN_ID, conn_id(conn));
	if (rdma->gid_index < info->num_gids)
		memcpy(body + BODY_GID, info->gids[rdma->gid_index].raw, DOCA_GID_BYTE_LENGTH);
	info_len = nic_qp_info(conn->qp, body + BODY_INFO, NIC_CONN_INFO_MAX);
	if (info_len == 0) {
		free(blob);
		return sdoca_fail(DOCA_ERROR_UNEXPECTED,
		                  "the transport address does not fit a blob");
	}
	sdoca_blob_seal(blob, SDOCA_BLOB_RDMA_CONNECTION, BODY_INFO + info_len);
	conn->blob = blob;
	conn->blob_len = SDOCA_BLOB_HEADER_SIZE + BODY_INFO + info_len;
	return DOCA_SUCCESS;
}

void rdma_conn_abandon(struct doca_rdma_connection *conn)
{
	drop_qp(conn);
	nic_lock(conn->rdma->worker);
	rdma_conn_finish(conn);
	nic_unlock(conn->rdma->worker);
}

doca_error_t rdma_export(struct doca_rdma *rdma, const void **blob, size_t *len,
                         struct doca_rdma_connection **out)
{
	struct doca_rdma_connection *conn;
	doca_error_t status;

	if (!can_connect(rdma))
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_rdma_export: the context must be STARTING or RUNNING");
	nic_lock(rdma->worker);
	conn = rdma_conn_alloc(rdma, RDMA_CONN_CONNECTING);
	nic_unlock(rdma->worker);
	if (!conn)
		return sdoca_fail(
		        DOCA_ERROR_FULL,
		        "doca_rdma_export: all %u connections are used (doca_rdma_set_max_num_"
		        "connections)",
		        rdma->max_num_connections);
	status = rdma_conn_create_qp(conn);
	if (status == DOCA_SUCCESS)
		status = build_blob(rdma, conn);
	if (status != DOCA_SUCCESS) {
		rdma_conn_abandon(conn);
		return status;
	}
	if (!rdma->implicit)
		rdma->implicit = conn;
	*blob = conn->blob;
	*len = conn->blob_len;
	if (out)
		*out = conn;
	return DOCA_SUCCESS;
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
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "connection blob body is malformed");
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
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_rdma_connect: the context must be STARTING or RUNNING");
	if (!rdma_conn_valid(rdma, conn) || conn->via_cm || !conn->qp)
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "doca_rdma_connect: the connection was not exported by this context");
	status = rdma_conn_blob_check(blob, len, &info, &info_len);
	if (status != DOCA_SUCCESS)
		return status;
	status = nic_qp_connect(conn->qp, info, info_len);
	if (status != DOCA_SUCCESS)
		return status;
	conn->connected = true;
	/* DOCA 2.5: the context becomes RUNNING once connected. */
	if (rdma->ctx.api_version == 205 && rdma->ctx.state == DOCA_CTX_STATE_STARTING)
		sdoca_ctx_start_ready(&rdma->ctx);
	return DOCA_SUCCESS;
}

struct doca_rdma_connection *rdma_implicit_connection(struct doca_rdma *rdma)
{
	return rdma->implicit;
}

void rdma_connections_stop(struct doca_rdma *rdma)
{
	if (!rdma->conns)
		return;
	rdma_listeners_close(rdma);
	for (uint32_t i = 0; i < rdma->num_slots; i++)
		drop_qp(&rdma->conns[i]);
}

void rdma_connections_free(struct doca_rdma *rdma)
{
	if (rdma->conns)
		for (uint32_t i = 0; i < rdma->num_slots; i++)
			free(rdma->conns[i].blob);
	free(rdma->conns);
	free(rdma->free_slots);
	rdma->conns = NULL;
	rdma->free_slots = NULL;
	rdma->num_slots = 0;
	rdma->implicit = NULL;
}

/* --- the public calls --- */

DOCA_EXPERIMENTAL doca_error_t doca_rdma_export(struct doca_rdma *rdma,
                                                const void **local_rdma_conn_details,
                                                size_t *local_rdma_conn_details_size,
                                                struct doca_rdma_connection **rdma_connection)
{
	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(local_rdma_conn_details) ||
	    !sdoca_arg_valid(local_rdma_conn_details_size) || !sdoca_arg_valid(rdma_connection))
		return DOCA_ERROR_INVALID_VALUE;
	return rdma_export(rdma, local_rdma_conn_details, local_rdma_conn_details_size,
	                   rdma_connection);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_connect(struct doca_rdma *rdma,
                                                 const void *remote_rdma_conn_details,
                                                 size_t remote_rdma_conn_details_size,
                                                 struct doca_rdma_connection *rdma_connection)
{
	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(remote_rdma_conn_details) ||
	    !sdoca_arg_valid(rdma_connection))
		return DOCA_ERROR_INVALID_VALUE;
	return rdma_conn_connect(rdma, remote_rdma_conn_details, remote_rdma_conn_details_size,
	                         rdma_connection);
}

doca_error_t rdma_conn_check(const struct doca_rdma_connection *conn, const char *fn)
{
	if (!conn)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "%s: rdma_connection is NULL", fn);
	if (!conn->rdma || !rdma_conn_valid(conn->rdma, conn))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "%s: not a connection of a running context (it ended)", fn);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_connection_disconnect(struct doca_rdma_connection *conn)
{
	struct doca_rdma *rdma;
	struct nic_cm_request *request = NULL;
	bool close = false;

	doca_error_t status = rdma_conn_check(conn, __func__);

	if (status != DOCA_SUCCESS)
		return status;
	rdma = conn->rdma;
	nic_lock(rdma->worker);
	switch (conn->state) {
	case RDMA_CONN_REQUESTED: /* not accepted: refused */
		request = conn->request;
		conn->request = NULL;
		conn->state = RDMA_CONN_FAILED;
		rdma_conn_finish(conn);
		break;
	case RDMA_CONN_CONNECTING:
	case RDMA_CONN_ESTABLISHED:
		conn->state = RDMA_CONN_CLOSED;
		conn->local_close = true;
		close = true;
		break;
	default: /* down already: disconnecting again changes nothing */
		break;
	}
	nic_unlock(rdma->worker);
	if (request)
		nic_cm_reject(rdma->worker, request);
	if (!close)
		return DOCA_SUCCESS;
	/* Its tasks are flushed first, then the application hears of it. */
	drop_qp(conn);
	if (rdma->isolated) {
		nic_lock(rdma->worker);
		rdma_conn_push(conn, RDMA_EVENT_DOWN);
		nic_unlock(rdma->worker);
	}
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_connection_get_id(const struct doca_rdma_connection *conn,
                                                           uint32_t *connection_id)
{
	doca_error_t status = rdma_conn_check(conn, __func__);

	if (status != DOCA_SUCCESS)
		return status;
	if (!sdoca_arg_valid(connection_id))
		return DOCA_ERROR_INVALID_VALUE;
	*connection_id = conn_id(conn);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_connection_set_user_data(struct doca_rdma_connection *conn,
                                                                  union doca_data user_data)
{
	doca_error_t status = rdma_conn_check(conn, __func__);

	if (status != DOCA_SUCCESS)
		return status;
	conn->user_data = user_data;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_connection_get_user_data(
        const struct doca_rdma_connection *conn, union doca_data *user_data)
{
	doca_error_t status = rdma_conn_check(conn, __func__);

	if (status != DOCA_SUCCESS)
		return status;
	if (!sdoca_arg_valid(user_data))
		return DOCA_ERROR_INVALID_VALUE;
	*user_data = conn->user_data;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t softdoca_dev_get_counters(const struct doca_dev *dev,
                                                   struct softdoca_rdma_counters *counters)
{
	if (!sdoca_arg_valid(dev) || !sdoca_arg_valid(counters))
		return DOCA_ERROR_INVALID_VALUE;
	nic_dev_counters(dev->info.ibdev_name, counters);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t softdoca_rdma_connection_get_counters(
        const struct doca_rdma_connection *rdma_connection, struct softdoca_rdma_counters *counters)
{
	doca_error_t status = rdma_conn_check(rdma_connection, __func__);

	if (status != DOCA_SUCCESS)
		return status;
	if (!sdoca_arg_valid(counters))
		return DOCA_ERROR_INVALID_VALUE;
	if (!rdma_connection->qp) {
		*counters = rdma_connection->final_counters;
		return DOCA_SUCCESS;
	}
	nic_qp_counters(rdma_connection->qp, counters);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t softdoca_process_counters_get(uint32_t pid,
                                                       struct softdoca_process_counters **counters)
{
	if (!sdoca_arg_valid(counters))
		return DOCA_ERROR_INVALID_VALUE;
	return diag_stats_query(pid, counters);
}

DOCA_STABLE void softdoca_process_counters_destroy(struct softdoca_process_counters *counters)
{
	nic_stats_free(counters);
}
