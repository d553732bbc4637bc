/*
 * The doca_rdma context: properties, capabilities and life cycle.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The doca_rdma context: properties, capabilities and its life cycle.
 *
 * DOCA 3.x: doca_ctx_start() returns SUCCESS, the context is STARTING and
 * becomes RUNNING at the next doca_pe_progress(); connections are made while
 * RUNNING (or STARTING). DOCA 2.5: start returns IN_PROGRESS and the
 * context becomes RUNNING once its one connection is connected.
 */
#include <stdlib.h>
#include <string.h>

#include "core/dev.h"
#include "core/sdk_log.h"
#include "diag/diag.h"
#include "rdma/rdma.h"
#include "rdma/rdma_dpa.h"

SDOCA_LOG_MODULE(rdma);

static doca_error_t rdma_start(struct doca_ctx *ctx, enum sdoca_start *how)
{
	struct doca_rdma *rdma = rdma_of(ctx);
	doca_error_t status;

	/* A DOCA 2.2 program may set it before it adds the device. */
	if (rdma->gid_index > 0 && rdma->gid_index >= ctx->dev->info.num_gids)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "GID index %u: device %s has %u GIDs",
		                  rdma->gid_index, ctx->dev->info.ibdev_name,
		                  ctx->dev->info.num_gids);
	status = nic_worker_get(ctx->pe, ctx->dev, &rdma->worker);
	if (status != DOCA_SUCCESS)
		return status;
	nic_srq_init(&rdma->srq, rdma->worker, rdma->recv_queue_size);
	status = rdma_connections_start(rdma);
	if (status != DOCA_SUCCESS) {
		nic_worker_put(rdma->worker);
		rdma->worker = NULL;
		return status;
	}
	if (ctx->dpa) {
		status = rdma_dpa_start(rdma);
		if (status != DOCA_SUCCESS) {
			rdma_connections_free(rdma);
			nic_worker_put(rdma->worker);
			rdma->worker = NULL;
			return status;
		}
	}
	/* DOCA 2.5: RUNNING once connected; 3.x and 2.2 at the next progress. */
	*how = ctx->api_version == 205 ? SDOCA_START_PENDING : SDOCA_START_DEFERRED;
	return DOCA_SUCCESS;
}

/* Flush: every task in flight completes with this status. */
#define RDMA_FLUSH_STATUS DOCA_ERROR_CONNECTION_ABORTED

/* Connections are torn down like a NIC's queue pairs: the context is
 * STOPPING until a later progress, where programs see the flush. */
static bool rdma_stop_needs_progress(struct doca_ctx *ctx)
{
	struct doca_rdma *rdma = rdma_of(ctx);
	bool live;

	if (!rdma->worker)
		return false;
	nic_lock(rdma->worker); /* the soft NIC frees slots from any thread */
	live = rdma->live > 0;
	nic_unlock(rdma->worker);
	return live;
}

static void rdma_stop(struct doca_ctx *ctx)
{
	struct doca_rdma *rdma = rdma_of(ctx);

	if (!rdma->worker)
		return;
	if (rdma->dpa_path)
		rdma_dpa_stop(rdma);
	rdma_connections_stop(rdma);
	nic_srq_flush(&rdma->srq, RDMA_FLUSH_STATUS);
}

static void rdma_stopped(struct doca_ctx *ctx)
{
	struct doca_rdma *rdma = rdma_of(ctx);

	if (!rdma->worker)
		return;
	if (rdma->dpa_path)
		rdma_dpa_stopped(rdma);
	rdma_connections_free(rdma);
	nic_worker_put(rdma->worker);
	rdma->worker = NULL;
}

static bool rdma_progress(struct doca_ctx *ctx)
{
	struct doca_rdma *rdma = rdma_of(ctx);

	return rdma->worker && nic_worker_progress(rdma->worker);
}

static void rdma_request_notification(struct doca_ctx *ctx)
{
	struct doca_rdma *rdma = rdma_of(ctx);

	if (rdma->worker)
		nic_worker_app_sleeps(rdma->worker);
}

static const struct sdoca_ctx_ops rdma_ops = {
	.name = "rdma",
	.start = rdma_start,
	.stop_needs_progress = rdma_stop_needs_progress,
	.stop = rdma_stop,
	.stopped = rdma_stopped,
	.progress = rdma_progress,
	.request_notification = rdma_request_notification,
	.jobs = &rdma_job_ops,
};

static uint32_t default_timeout_ms(void)
{
	const char *env = getenv("SOFTDOCA_TIMEOUT_MS");
	long v = env ? strtol(env, NULL, 10) : 0;

	return v >= 10 && v <= 3600000 ? (uint32_t)v : RDMA_DEFAULT_TIMEOUT_MS;
}

static doca_error_t create(struct doca_dev *dev, struct doca_rdma **rdma)
{
	struct doca_rdma *r;

	if (!sdoca_arg_valid(rdma))
		return DOCA_ERROR_INVALID_VALUE;
	r = calloc(1, sizeof(*r));
	if (!r)
		return DOCA_ERROR_NO_MEMORY;
	sdoca_diag_install(); /* before its first worker */
	sdoca_ctx_init(&r->ctx, &rdma_ops, dev);
	r->permissions = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE;
	r->send_queue_size = RDMA_DEFAULT_QUEUE_SIZE;
	r->recv_queue_size = RDMA_DEFAULT_QUEUE_SIZE;
	r->max_send_buf_list_len = RDMA_MAX_BUF_LIST_LEN;
	r->recv_buf_list_len = RDMA_MAX_BUF_LIST_LEN;
	r->transport_type = DOCA_RDMA_TRANSPORT_TYPE_RC;
	r->mtu = DOCA_MTU_SIZE_4K_BYTES;
	r->max_num_connections = 1;
	r->connection_request_timeout = RDMA_DEFAULT_CM_TIMEOUT_MS;
	r->rnr_retry_count = NIC_RNR_INFINITE;
	r->timeout_ms = default_timeout_ms();
	*rdma = r;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_create(struct doca_dev *dev, struct doca_rdma **rdma)
{
	if (!sdoca_arg_valid(dev))
		return DOCA_ERROR_INVALID_VALUE;
	return create(dev, rdma);
}

/* DOCA 2.2 (declared for SOFTDOCA_API_VERSION=202): the device comes with
 * doca_ctx_dev_add(). */
DOCA_EXPERIMENTAL doca_error_t softdoca_v202_doca_rdma_create(struct doca_rdma **rdma)
{
	return create(NULL, rdma);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_destroy(struct doca_rdma *rdma)
{
	doca_error_t status;

	if (!sdoca_arg_valid(rdma))
		return DOCA_ERROR_INVALID_VALUE;
	status = sdoca_ctx_fini(&rdma->ctx);
	if (status != DOCA_SUCCESS)
		return status;
	rdma_dpa_detach(rdma);
	free(rdma);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL struct doca_ctx *doca_rdma_as_ctx(struct doca_rdma *rdma)
{
	return rdma ? &rdma->ctx : NULL;
}

/* Properties change only while the context is IDLE. */
static bool idle(const struct doca_rdma *rdma, const char *caller)
{
	if (rdma->ctx.state != DOCA_CTX_STATE_IDLE) {
		SDOCA_ERR("%s: the context is not IDLE", caller);
		return false;
	}
	return true;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_set_send_queue_size(struct doca_rdma *rdma,
                                                             uint32_t send_queue_size)
{
	if (!sdoca_arg_valid(rdma))
		return DOCA_ERROR_INVALID_VALUE;
	if (!idle(rdma, __func__))
		return DOCA_ERROR_BAD_STATE;
	if (!sdoca_arg_valid(send_queue_size > 0 && send_queue_size <= RDMA_MAX_QUEUE_SIZE))
		return DOCA_ERROR_INVALID_VALUE;
	rdma->send_queue_size = send_queue_size;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_set_recv_queue_size(struct doca_rdma *rdma,
                                                             uint32_t recv_queue_size)
{
	if (!sdoca_arg_valid(rdma))
		return DOCA_ERROR_INVALID_VALUE;
	if (!idle(rdma, __func__))
		return DOCA_ERROR_BAD_STATE;
	if (!sdoca_arg_valid(recv_queue_size > 0 && recv_queue_size <= RDMA_MAX_QUEUE_SIZE))
		return DOCA_ERROR_INVALID_VALUE;
	rdma->recv_queue_size = recv_queue_size;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_set_max_send_buf_list_len(struct doca_rdma *rdma,
                                                                   uint32_t max_send_buf_list_len)
{
	if (!sdoca_arg_valid(rdma))
		return DOCA_ERROR_INVALID_VALUE;
	if (!idle(rdma, __func__))
		return DOCA_ERROR_BAD_STATE;
	if (!sdoca_arg_valid(max_send_buf_list_len > 0 &&
	                     max_send_buf_list_len <= RDMA_MAX_BUF_LIST_LEN))
		return DOCA_ERROR_INVALID_VALUE;
	rdma->max_send_buf_list_len = max_send_buf_list_len;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_set_transport_type(struct doca_rdma *rdma,
                                                            enum doca_rdma_transport_type type)
{
	if (!sdoca_arg_valid(rdma))
		return DOCA_ERROR_INVALID_VALUE;
	if (!idle(rdma, __func__))
		return DOCA_ERROR_BAD_STATE;
	if (type == DOCA_RDMA_TRANSPORT_TYPE_DC) {
		SDOCA_LOG_NOT_SUPPORTED("the soft NIC offers reliable connections (RC) only");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (!sdoca_arg_valid(type == DOCA_RDMA_TRANSPORT_TYPE_RC))
		return DOCA_ERROR_INVALID_VALUE;
	rdma->transport_type = type;
	return DOCA_SUCCESS;
}

/* The MTU is kept for getters; the transport has its own segmenting. */
DOCA_EXPERIMENTAL doca_error_t doca_rdma_set_mtu(struct doca_rdma *rdma, enum doca_mtu_size mtu)
{
	if (!sdoca_arg_valid(rdma))
		return DOCA_ERROR_INVALID_VALUE;
	if (!idle(rdma, __func__))
		return DOCA_ERROR_BAD_STATE;
	if (!sdoca_arg_valid(mtu <= DOCA_MTU_SIZE_RAW_ETHERNET))
		return DOCA_ERROR_INVALID_VALUE;
	rdma->mtu = mtu;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_set_permissions(struct doca_rdma *rdma,
                                                         uint32_t permissions)
{
	const uint32_t known = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ |
	                       DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC;

	if (!sdoca_arg_valid(rdma))
		return DOCA_ERROR_INVALID_VALUE;
	if (!idle(rdma, __func__))
		return DOCA_ERROR_BAD_STATE;
	if (permissions & ~known)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "doca_rdma_set_permissions: 0x%x are not RDMA permissions",
		                  permissions & ~known);
	rdma->permissions = permissions;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_set_grh_enabled(struct doca_rdma *rdma,
                                                         uint8_t grh_enabled)
{
	if (!sdoca_arg_valid(rdma))
		return DOCA_ERROR_INVALID_VALUE;
	if (!idle(rdma, __func__))
		return DOCA_ERROR_BAD_STATE;
	rdma->grh_enabled = grh_enabled ? 1 : 0;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_set_gid_index(struct doca_rdma *rdma, uint32_t gid_index)
{
	if (!sdoca_arg_valid(rdma))
		return DOCA_ERROR_INVALID_VALUE;
	if (!idle(rdma, __func__))
		return DOCA_ERROR_BAD_STATE;
	/* DOCA 2.2: before doca_ctx_dev_add() it is checked at start. */
	if (rdma->ctx.dev && gid_index >= rdma->ctx.dev->info.num_gids)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "doca_rdma_set_gid_index: device %s has %u GIDs",
		                  rdma->ctx.dev->info.ibdev_name, rdma->ctx.dev->info.num_gids);
	rdma->gid_index = gid_index;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_set_sl(struct doca_rdma *rdma, uint32_t sl)
{
	if (!sdoca_arg_valid(rdma))
		return DOCA_ERROR_INVALID_VALUE;
	if (!idle(rdma, __func__))
		return DOCA_ERROR_BAD_STATE;
	if (!sdoca_arg_valid(sl <= 15))
		return DOCA_ERROR_INVALID_VALUE;
	rdma->sl = sl;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_set_connection_request_timeout(struct doca_rdma *rdma,
                                                                        uint16_t timeout)
{
	if (!sdoca_arg_valid(rdma))
		return DOCA_ERROR_INVALID_VALUE;
	if (!idle(rdma, __func__))
		return DOCA_ERROR_BAD_STATE;
	rdma->connection_request_timeout = timeout;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_set_max_num_connections(struct doca_rdma *rdma,
                                                                 uint16_t max_num_connections)
{
	if (!sdoca_arg_valid(rdma))
		return DOCA_ERROR_INVALID_VALUE;
	if (!idle(rdma, __func__))
		return DOCA_ERROR_BAD_STATE;
	if (!sdoca_arg_valid(max_num_connections > 0 &&
	                     max_num_connections <= RDMA_MAX_CONNECTIONS))
		return DOCA_ERROR_INVALID_VALUE;
	rdma->max_num_connections = max_num_connections;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_set_rnr_retry_count(struct doca_rdma *rdma,
                                                             uint8_t rnr_retry_count)
{
	if (!sdoca_arg_valid(rdma))
		return DOCA_ERROR_INVALID_VALUE;
	if (!idle(rdma, __func__))
		return DOCA_ERROR_BAD_STATE;
	if (!sdoca_arg_valid(rnr_retry_count <= NIC_RNR_INFINITE))
		return DOCA_ERROR_INVALID_VALUE;
	rdma->rnr_retry_count = rnr_retry_count;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_send_queue_size(const struct doca_rdma *rdma,
                                                             uint32_t *send_queue_size)
{
	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(send_queue_size))
		return DOCA_ERROR_INVALID_VALUE;
	*send_queue_size = rdma->send_queue_size;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_recv_queue_size(const struct doca_rdma *rdma,
                                                             uint32_t *recv_queue_size)
{
	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(recv_queue_size))
		return DOCA_ERROR_INVALID_VALUE;
	*recv_queue_size = rdma->recv_queue_size;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_max_send_buf_list_len(const struct doca_rdma *rdma,
                                                                   uint32_t *max_send_buf_list_len)
{
	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(max_send_buf_list_len))
		return DOCA_ERROR_INVALID_VALUE;
	*max_send_buf_list_len = rdma->max_send_buf_list_len;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_transport_type(const struct doca_rdma *rdma,
                                                            enum doca_rdma_transport_type *type)
{
	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(type))
		return DOCA_ERROR_INVALID_VALUE;
	*type = rdma->transport_type;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_mtu(const struct doca_rdma *rdma,
                                                 enum doca_mtu_size *mtu)
{
	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(mtu))
		return DOCA_ERROR_INVALID_VALUE;
	*mtu = rdma->mtu;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_permissions(struct doca_rdma *rdma,
                                                         uint32_t *permissions)
{
	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(permissions))
		return DOCA_ERROR_INVALID_VALUE;
	*permissions = rdma->permissions;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_grh_enabled(const struct doca_rdma *rdma,
                                                         uint8_t *grh_enabled)
{
	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(grh_enabled))
		return DOCA_ERROR_INVALID_VALUE;
	*grh_enabled = rdma->grh_enabled;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_gid_index(const struct doca_rdma *rdma,
                                                       uint32_t *gid_index)
{
	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(gid_index))
		return DOCA_ERROR_INVALID_VALUE;
	*gid_index = rdma->gid_index;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_sl(const struct doca_rdma *rdma, uint32_t *sl)
{
	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(sl))
		return DOCA_ERROR_INVALID_VALUE;
	*sl = rdma->sl;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t
doca_rdma_get_connection_request_timeout(const struct doca_rdma *rdma, uint16_t *timeout)
{
	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(timeout))
		return DOCA_ERROR_INVALID_VALUE;
	*timeout = rdma->connection_request_timeout;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_max_num_connections(struct doca_rdma *rdma,
                                                                 uint16_t *max_num_connections)
{
	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(max_num_connections))
		return DOCA_ERROR_INVALID_VALUE;
	*max_num_connections = rdma->max_num_connections;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_rnr_retry_count(const struct doca_rdma *rdma,
                                                             uint8_t *rnr_retry_count)
{
	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(rnr_retry_count))
		return DOCA_ERROR_INVALID_VALUE;
	*rnr_retry_count = rdma->rnr_retry_count;
	return DOCA_SUCCESS;
}

/* --- capabilities: the same for every softdoca device --- */

DOCA_EXPERIMENTAL doca_error_t doca_rdma_cap_get_max_recv_queue_size(
        const struct doca_devinfo *devinfo, uint32_t *max_recv_queue_size)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(max_recv_queue_size))
		return DOCA_ERROR_INVALID_VALUE;
	*max_recv_queue_size = RDMA_MAX_QUEUE_SIZE;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_cap_get_max_send_queue_size(
        const struct doca_devinfo *devinfo, uint32_t *max_send_queue_size)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(max_send_queue_size))
		return DOCA_ERROR_INVALID_VALUE;
	*max_send_queue_size = RDMA_MAX_QUEUE_SIZE;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_cap_get_max_send_buf_list_len(
        const struct doca_devinfo *devinfo, uint32_t *max_send_buf_list_len)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(max_send_buf_list_len))
		return DOCA_ERROR_INVALID_VALUE;
	*max_send_buf_list_len = RDMA_MAX_BUF_LIST_LEN;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t
doca_rdma_cap_get_max_message_size(const struct doca_devinfo *devinfo, uint32_t *max_message_size)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(max_message_size))
		return DOCA_ERROR_INVALID_VALUE;
	*max_message_size = RDMA_MAX_MESSAGE_SIZE;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_cap_get_gid_table_size(const struct doca_devinfo *devinfo,
                                                                uint32_t *gid_table_size)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(gid_table_size))
		return DOCA_ERROR_INVALID_VALUE;
	*gid_table_size = devinfo->num_gids;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_cap_get_gid(const struct doca_devinfo *devinfo,
                                                     uint32_t start_index, uint32_t num_entries,
                                                     struct doca_rdma_gid *gid_array)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(gid_array))
		return DOCA_ERROR_INVALID_VALUE;
	if ((uint64_t)start_index + num_entries > devinfo->num_gids)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "doca_rdma_cap_get_gid: entries %u..%u asked, the table has %u",
		                  start_index, start_index + num_entries, devinfo->num_gids);
	for (uint32_t i = 0; i < num_entries; i++)
		memcpy(gid_array[i].raw, devinfo->gids[start_index + i].raw, DOCA_GID_BYTE_LENGTH);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_cap_transport_type_is_supported(
        const struct doca_devinfo *devinfo, enum doca_rdma_transport_type transport_type)
{
	if (!sdoca_arg_valid(devinfo))
		return DOCA_ERROR_INVALID_VALUE;
	if (transport_type == DOCA_RDMA_TRANSPORT_TYPE_RC)
		return DOCA_SUCCESS;
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* softdoca.h: DOCA has no query for this limit (doca_rdma_set_max_num_connections). */
DOCA_STABLE doca_error_t softdoca_rdma_cap_get_max_num_connections(
        const struct doca_devinfo *devinfo, uint32_t *max_num_connections)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(max_num_connections))
		return DOCA_ERROR_INVALID_VALUE;
	*max_num_connections = RDMA_MAX_CONNECTIONS;
	return DOCA_SUCCESS;
}

/* --- the GPU and DPA data paths --- */

DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_gpu_handle(struct doca_rdma *rdma,
                                                        struct doca_gpu_dev_rdma **gpu_rdma)
{
	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(gpu_rdma))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED("softdoca has no GPU data path");
	return DOCA_ERROR_NOT_SUPPORTED;
}
