/*
 * doca_rdma_bridge.h: verbs interop, none available.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * doca_rdma_bridge.h: verbs interop. There are no verbs objects (protection
 * domains, memory regions) behind a softdoca device, so none can be handed
 * out or taken in.
 */
#include <doca_rdma.h>
#include <doca_rdma_bridge.h>

#include "core/sdk_log.h"

SDOCA_LOG_MODULE(rdma_bridge);

#define NO_VERBS "no verbs objects behind a softdoca device"

DOCA_STABLE doca_error_t doca_rdma_bridge_get_dev_pd(const struct doca_dev *dev, struct ibv_pd **pd)
{
	if (!sdoca_arg_valid(dev) || !sdoca_arg_valid(pd))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_VERBS);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_STABLE doca_error_t doca_rdma_bridge_open_dev_from_pd(struct ibv_pd *pd, struct doca_dev **dev)
{
	if (!sdoca_arg_valid(pd) || !sdoca_arg_valid(dev))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_VERBS);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_STABLE doca_error_t doca_rdma_bridge_get_buf_mkey(const struct doca_buf *buf,
                                                       struct doca_dev *dev, uint32_t *mkey)
{
	if (!sdoca_arg_valid(buf) || !sdoca_arg_valid(dev) || !sdoca_arg_valid(mkey))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_VERBS);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_bridge_get_mmap_mkey_from_pd(const struct doca_mmap *mmap,
                                                                      struct ibv_pd *pd,
                                                                      uint32_t *mkey)
{
	if (!sdoca_arg_valid(mmap) || !sdoca_arg_valid(pd) || !sdoca_arg_valid(mkey))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_VERBS);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_bridge_prepare_connection(
        struct doca_rdma *rdma, struct rdma_cm_id *cm_id, struct doca_rdma_connection **conn)
{
	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(cm_id) || !sdoca_arg_valid(conn))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_VERBS);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_bridge_accept(struct doca_rdma *rdma, void *private_data,
                                                       uint8_t private_data_len,
                                                       struct doca_rdma_connection *conn)
{
	(void)private_data;
	(void)private_data_len;
	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(conn))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_VERBS);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_bridge_established(struct doca_rdma *rdma,
                                                            struct doca_rdma_connection *conn)
{
	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(conn))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_VERBS);
	return DOCA_ERROR_NOT_SUPPORTED;
}
