/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * RDMA-CM style connections (listen / connect to an address) and the
 * verbs bridge. Connections are made with doca_rdma_export/connect for now;
 * the address-based flow is not built yet, and there are no verbs objects.
 */
#include "core/sdk_log.h"
#include "rdma/rdma.h"

SDOCA_LOG_MODULE(rdma_cm);

#define NO_CM "address-based connections are not built yet; use doca_rdma_export/connect"
#define NO_VERBS "softdoca has no verbs (librdmacm/libibverbs) objects to bridge to"

DOCA_EXPERIMENTAL doca_error_t doca_rdma_addr_create(enum doca_rdma_addr_type addr_type,
                                                     const char *address, uint16_t port,
                                                     struct doca_rdma_addr **addr)
{
	(void)addr_type;
	(void)port;
	SDOCA_CHECK_ARG(address);
	SDOCA_CHECK_ARG(addr);
	SDOCA_NOT_SUPPORTED(NO_CM);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_addr_destroy(struct doca_rdma_addr *addr)
{
	SDOCA_CHECK_ARG(addr);
	SDOCA_NOT_SUPPORTED(NO_CM);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_addr_get_params(struct doca_rdma_addr *addr,
                                                         enum doca_rdma_addr_type *addr_type,
                                                         const char **address, uint16_t *port)
{
	(void)addr_type;
	(void)address;
	(void)port;
	SDOCA_CHECK_ARG(addr);
	SDOCA_NOT_SUPPORTED(NO_CM);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_start_listen_to_port(struct doca_rdma *rdma, uint16_t port)
{
	(void)port;
	SDOCA_CHECK_ARG(rdma);
	SDOCA_NOT_SUPPORTED(NO_CM);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_stop_listen_to_port(struct doca_rdma *rdma, uint16_t port)
{
	(void)port;
	SDOCA_CHECK_ARG(rdma);
	SDOCA_NOT_SUPPORTED(NO_CM);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_connection_accept(struct doca_rdma_connection *conn,
                                                           void *private_data,
                                                           uint8_t private_data_len)
{
	(void)private_data;
	(void)private_data_len;
	SDOCA_CHECK_ARG(conn);
	SDOCA_NOT_SUPPORTED(NO_CM);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_connection_reject(struct doca_rdma_connection *conn)
{
	SDOCA_CHECK_ARG(conn);
	SDOCA_NOT_SUPPORTED(NO_CM);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_connect_to_addr(struct doca_rdma *rdma,
                                                         struct doca_rdma_addr *addr,
                                                         union doca_data connection_user_data)
{
	(void)connection_user_data;
	SDOCA_CHECK_ARG(rdma);
	SDOCA_CHECK_ARG(addr);
	SDOCA_NOT_SUPPORTED(NO_CM);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_connection_disconnect(struct doca_rdma_connection *conn)
{
	SDOCA_CHECK_ARG(conn);
	SDOCA_NOT_SUPPORTED(NO_CM);
}

DOCA_EXPERIMENTAL doca_error_t
doca_rdma_connection_get_addr(const struct doca_rdma_connection *conn, struct doca_rdma_addr **addr)
{
	SDOCA_CHECK_ARG(conn);
	SDOCA_CHECK_ARG(addr);
	SDOCA_NOT_SUPPORTED(NO_CM);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_set_connection_state_callbacks(
        struct doca_rdma *rdma, doca_rdma_connection_request_cb_t request_cb,
        doca_rdma_connection_established_cb_t established_cb,
        doca_rdma_connection_failure_cb_t failure_cb,
        doca_rdma_connection_disconnection_cb_t disconnect_cb)
{
	(void)request_cb;
	(void)established_cb;
	(void)failure_cb;
	(void)disconnect_cb;
	SDOCA_CHECK_ARG(rdma);
	SDOCA_NOT_SUPPORTED(NO_CM);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_bridge_prepare_connection(
        struct doca_rdma *rdma, struct rdma_cm_id *cm_id, struct doca_rdma_connection **conn)
{
	SDOCA_CHECK_ARG(rdma);
	SDOCA_CHECK_ARG(cm_id);
	SDOCA_CHECK_ARG(conn);
	SDOCA_NOT_SUPPORTED(NO_VERBS);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_bridge_accept(struct doca_rdma *rdma, void *private_data,
                                                       uint8_t private_data_len,
                                                       struct doca_rdma_connection *conn)
{
	(void)private_data;
	(void)private_data_len;
	SDOCA_CHECK_ARG(rdma);
	SDOCA_CHECK_ARG(conn);
	SDOCA_NOT_SUPPORTED(NO_VERBS);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_bridge_established(struct doca_rdma *rdma,
                                                            struct doca_rdma_connection *conn)
{
	SDOCA_CHECK_ARG(rdma);
	SDOCA_CHECK_ARG(conn);
	SDOCA_NOT_SUPPORTED(NO_VERBS);
}
