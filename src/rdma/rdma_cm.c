/*
 * RDMA-CM style connections: listen, connect and their callbacks.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * RDMA-CM style connections: a server listens on a port, clients connect
 * to an address, and callbacks report requests, establishment, failure and
 * disconnection (connection.c runs them).
 *
 * The listener is a real TCP socket on the port for each IP address of the
 * context's device (its interface's addresses, the ones its GIDs are made
 * of: 127.0.0.1 and ::1 for the loopback device), as RDMA-CM listens on the
 * RDMA device's address; SOFTDOCA_CM_LISTEN=any takes every address of the
 * host instead (IPv4 and, where the host has it, IPv6). The socket carries
 * the handshake only; data then flows over the transport (nic/cm.c).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "core/dev.h"
#include "core/sdk_log.h"
#include "rdma/rdma.h"

SDOCA_LOG_MODULE(rdma_cm);

struct rdma_listener {
	struct rdma_listener *next;
	struct doca_rdma *rdma;
	uint16_t port;
	bool closing; /* requests that come now are refused */
	unsigned int num_sockets;
	struct nic_listener *sockets[SDOCA_DEV_MAX_GIDS]; /* one per address */
};

/* Also on the service thread (a client's request): one atomic snapshot. */
static bool can_connect(const struct doca_rdma *rdma)
{
	enum doca_ctx_states state = __atomic_load_n(&rdma->ctx.state, __ATOMIC_ACQUIRE);

	return state == DOCA_CTX_STATE_STARTING || state == DOCA_CTX_STATE_RUNNING;
}

/* --- addresses --- */

/* Fills addr from a socket address (the text form too). */
static void addr_from_sockaddr(struct doca_rdma_addr *addr, const struct sockaddr *sa, size_t len)
{
	const void *ip;

	memset(addr, 0, sizeof(*addr));
	if (len > sizeof(addr->sockaddr))
		return;
	memcpy(addr->sockaddr, sa, len);
	addr->sockaddr_len = len;
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;

		addr->type = DOCA_RDMA_ADDR_TYPE_IPv6;
		addr->port = ntohs(in6->sin6_port);
		ip = &in6->sin6_addr;
	} else {
		const struct sockaddr_in *in = (const struct sockaddr_in *)sa;

		addr->type = DOCA_RDMA_ADDR_TYPE_IPv4;
		addr->port = ntohs(in->sin_port);
		ip = &in->sin_addr;
	}
	if (!inet_ntop(sa->sa_family, ip, addr->text, sizeof(addr->text)))
		addr->text[0] = '\0';
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_addr_create(enum doca_rdma_addr_type addr_type,
                                                     const char *address, uint16_t port,
                                                     struct doca_rdma_addr **addr)
{
	struct sockaddr_storage ss;
	struct doca_rdma_addr *a;
	size_t len;

	if (!sdoca_arg_valid(address) || !sdoca_arg_valid(addr))
		return DOCA_ERROR_INVALID_VALUE;
	memset(&ss, 0, sizeof(ss));
	if (addr_type == DOCA_RDMA_ADDR_TYPE_GID) {
		SDOCA_LOG_NOT_SUPPORTED("GID addresses (InfiniBand) are not supported: a softdoca "
		                        "device speaks IP; use DOCA_RDMA_ADDR_TYPE_IPv4 or IPv6");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (addr_type == DOCA_RDMA_ADDR_TYPE_IPv4) {
		struct sockaddr_in *in = (struct sockaddr_in *)&ss;

		in->sin_family = AF_INET;
		in->sin_port = htons(port);
		if (inet_pton(AF_INET, address, &in->sin_addr) != 1)
			return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
			                  "doca_rdma_addr_create: '%s' is not an IPv4 address",
			                  address);
		len = sizeof(*in);
	} else if (addr_type == DOCA_RDMA_ADDR_TYPE_IPv6) {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
		if (inet_pton(AF_INET6, address, &in6->sin6_addr) != 1)
			return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
			                  "doca_rdma_addr_create: '%s' is not an IPv6 address",
			                  address);
		len = sizeof(*in6);
	} else {
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "doca_rdma_addr_create: address type %d", (int)addr_type);
	}
	if (port == 0)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "doca_rdma_addr_create: port 0");
	a = malloc(sizeof(*a));
	if (!a)
		return DOCA_ERROR_NO_MEMORY;
	addr_from_sockaddr(a, (struct sockaddr *)&ss, len);
	*addr = a;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_addr_destroy(struct doca_rdma_addr *addr)
{
	if (!sdoca_arg_valid(addr))
		return DOCA_ERROR_INVALID_VALUE;
	free(addr);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_addr_get_params(struct doca_rdma_addr *addr,
                                                         enum doca_rdma_addr_type *addr_type,
                                                         const char **address, uint16_t *port)
{
	if (!sdoca_arg_valid(addr) || !sdoca_arg_valid(addr_type) || !sdoca_arg_valid(address) ||
	    !sdoca_arg_valid(port))
		return DOCA_ERROR_INVALID_VALUE;
	*addr_type = addr->type;
	*address = addr->text;
	*port = addr->port;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t
doca_rdma_connection_get_addr(const struct doca_rdma_connection *conn, struct doca_rdma_addr **addr)
{
	doca_error_t status = rdma_conn_check(conn, __func__);

	if (status != DOCA_SUCCESS)
		return status;
	if (!sdoca_arg_valid(addr))
		return DOCA_ERROR_INVALID_VALUE;
	if (!conn->via_cm)
		return sdoca_fail(
		        DOCA_ERROR_NOT_FOUND,
		        "doca_rdma_connection_get_addr: connection %u was made out of band "
		        "(doca_rdma_export/connect): it has no address",
		        conn->index);
	*addr = (struct doca_rdma_addr *)&conn->peer;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t
softdoca_rdma_connection_get_private_data(const struct doca_rdma_connection *rdma_connection,
                                          const void **private_data, uint8_t *private_data_len)
{
	doca_error_t status = rdma_conn_check(rdma_connection, __func__);

	if (status != DOCA_SUCCESS)
		return status;
	if (!sdoca_arg_valid(private_data) || !sdoca_arg_valid(private_data_len))
		return DOCA_ERROR_INVALID_VALUE;
	*private_data = rdma_connection->private_len ? rdma_connection->private_data : NULL;
	*private_data_len = rdma_connection->private_len;
	return DOCA_SUCCESS;
}

/* --- the server --- */

/* A client asks (worker lock held, any thread): a connection in REQUESTED,
 * and the application hears of it. False refuses it. */
static bool on_request(void *arg, struct nic_cm_request *request, const void *private_data,
                       size_t len, const struct sockaddr *peer, size_t peer_len)
{
	struct rdma_listener *l = arg;
	struct doca_rdma *rdma = l->rdma;
	struct doca_rdma_connection *conn;

	nic_assert_locked(l->rdma->worker);
	if (l->closing || !can_connect(rdma))
		return false;
	conn = rdma_conn_alloc(rdma, RDMA_CONN_REQUESTED);
	if (!conn) {
		SDOCA_WARN("port %u: refused a client: all %u connections are used "
		           "(doca_rdma_set_max_num_connections)",
		           l->port, rdma->max_num_connections);
		return false;
	}
	conn->via_cm = true;
	conn->request = request;
	conn->listener = l;
	addr_from_sockaddr(&conn->peer, peer, peer_len);
	if (len > RDMA_PRIVATE_DATA_MAX)
		len = RDMA_PRIVATE_DATA_MAX;
	if (len)
		memcpy(conn->private_data, private_data, len);
	conn->private_len = (uint8_t)len;
	rdma_conn_push(conn, RDMA_EVENT_REQUEST);
	return true;
}

/* Listens on one address (family and address set in ss). */
static doca_error_t listen_on(struct rdma_listener *l, struct sockaddr_storage *ss)
{
	size_t len;
	doca_error_t status;

	if (ss->ss_family == AF_INET6) {
		((struct sockaddr_in6 *)ss)->sin6_port = htons(l->port);
		len = sizeof(struct sockaddr_in6);
	} else {
		((struct sockaddr_in *)ss)->sin_port = htons(l->port);
		len = sizeof(struct sockaddr_in);
	}
	status = nic_listen(l->rdma->worker, (struct sockaddr *)ss, len, on_request, l,
	                    &l->sockets[l->num_sockets]);
	if (status == DOCA_SUCCESS)
		l->num_sockets++;
	return status;
}

/* SOFTDOCA_CM_LISTEN=any: every address of the host, as earlier softdoca
 * did (for clients that reach a server on a non-loopback device at
 * 127.0.0.1, which RDMA-CM on hardware refuses too). */
static bool listen_any(void)
{
	const char *env = getenv("SOFTDOCA_CM_LISTEN");

	if (!env || strcmp(env, "device") == 0)
		return false;
	if (strcmp(env, "any") == 0)
		return true;
	SDOCA_WARN("SOFTDOCA_CM_LISTEN=%s: not 'device' or 'any'; listening on the device's "
	           "addresses",
	           env);
	return false;
}

static doca_error_t listen_host(struct rdma_listener *l)
{
	struct sockaddr_storage ss;
	doca_error_t status;

	memset(&ss, 0, sizeof(ss));
	ss.ss_family = AF_INET;
	((struct sockaddr_in *)&ss)->sin_addr.s_addr = htonl(INADDR_ANY);
	status = listen_on(l, &ss);
	if (status != DOCA_SUCCESS)
		return status;
	memset(&ss, 0, sizeof(ss));
	ss.ss_family = AF_INET6;
	((struct sockaddr_in6 *)&ss)->sin6_addr = in6addr_any;
	/* A host (or network namespace) without IPv6 still listens on IPv4. */
	if (listen_on(l, &ss) != DOCA_SUCCESS)
		SDOCA_DBG("port %u: listening on IPv4 only", l->port);
	return DOCA_SUCCESS;
}

/* Every address of the device: a port in use on one is refused (IN_USE);
 * an address the interface lost since the device was opened, or an IPv6
 * address not usable yet, is passed over while another one works. */
static doca_error_t listen_device(struct rdma_listener *l)
{
	const struct doca_devinfo *info = &l->rdma->ctx.dev->info;
	doca_error_t status, first = DOCA_SUCCESS;
	struct sockaddr_storage ss;
	char text[INET6_ADDRSTRLEN];

	for (uint32_t i = 0; i < info->num_ipv4 + info->num_ipv6; i++) {
		memset(&ss, 0, sizeof(ss));
		if (i < info->num_ipv4) {
			struct sockaddr_in *in = (struct sockaddr_in *)&ss;

			in->sin_family = AF_INET;
			memcpy(&in->sin_addr, info->ipv4[i], sizeof(in->sin_addr));
			inet_ntop(AF_INET, &in->sin_addr, text, sizeof(text));
		} else {
			struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

			in6->sin6_family = AF_INET6;
			memcpy(&in6->sin6_addr, info->ipv6[i - info->num_ipv4],
			       sizeof(in6->sin6_addr));
			if (IN6_IS_ADDR_LINKLOCAL(&in6->sin6_addr))
				in6->sin6_scope_id = info->ifindex;
			inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof(text));
		}
		status = listen_on(l, &ss);
		if (status == DOCA_ERROR_IN_USE)
			return status;
		if (status != DOCA_SUCCESS) {
			SDOCA_DBG("port %u: cannot listen on %s: %s", l->port, text,
			          doca_error_get_name(status));
			first = first == DOCA_SUCCESS ? status : first;
		} else {
			SDOCA_DBG("port %u: listening on %s", l->port, text);
		}
	}
	if (l->num_sockets == 0)
		return sdoca_fail(
		        first == DOCA_SUCCESS ? DOCA_ERROR_NOT_FOUND : first,
		        "doca_rdma_start_listen_to_port: device %s has no IP address to listen "
		        "on (SOFTDOCA_CM_LISTEN=any listens on every address of the host)",
		        info->ibdev_name);
	return DOCA_SUCCESS;
}

static void close_sockets(struct rdma_listener *l)
{
	while (l->num_sockets > 0)
		nic_listener_close(l->sockets[--l->num_sockets]);
}

static struct rdma_listener **find_listener(struct doca_rdma *rdma, uint16_t port)
{
	struct rdma_listener **link = &rdma->listeners;

	while (*link && (*link)->port != port)
		link = &(*link)->next;
	return link;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_start_listen_to_port(struct doca_rdma *rdma, uint16_t port)
{
	struct rdma_listener *l;
	doca_error_t status;

	if (!sdoca_arg_valid(rdma))
		return DOCA_ERROR_INVALID_VALUE;
	if (!can_connect(rdma))
		return sdoca_fail(
		        DOCA_ERROR_BAD_STATE,
		        "doca_rdma_start_listen_to_port: the context must be STARTING or RUNNING");
	if (!rdma->request_cb)
		return sdoca_fail(
		        DOCA_ERROR_BAD_STATE,
		        "doca_rdma_start_listen_to_port: no connection request callback "
		        "(doca_rdma_set_connection_state_callbacks before doca_ctx_start)");
	if (port == 0)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "doca_rdma_start_listen_to_port: port 0");
	if (*find_listener(rdma, port))
		return sdoca_fail(
		        DOCA_ERROR_IN_USE,
		        "doca_rdma_start_listen_to_port: this context listens on port %u already",
		        port);
	l = calloc(1, sizeof(*l));
	if (!l)
		return DOCA_ERROR_NO_MEMORY;
	l->rdma = rdma;
	l->port = port;
	status = listen_any() ? listen_host(l) : listen_device(l);
	if (status != DOCA_SUCCESS) {
		close_sockets(l);
		free(l);
		return status;
	}
	l->next = rdma->listeners;
	rdma->listeners = l;
	SDOCA_DBG("listening on port %u", port);
	return DOCA_SUCCESS;
}

/* Refuses the requests not answered yet and closes the sockets. */
static void close_listener(struct rdma_listener *l)
{
	struct doca_rdma *rdma = l->rdma;

	nic_lock(rdma->worker);
	l->closing = true;
	for (uint32_t i = 0; i < rdma->num_slots; i++) {
		struct doca_rdma_connection *conn = &rdma->conns[i];

		if (conn->state == RDMA_CONN_REQUESTED && conn->listener == l) {
			conn->request = NULL; /* refused by nic_listener_close */
			conn->state = RDMA_CONN_FAILED;
			rdma_conn_finish(conn);
		}
	}
	nic_unlock(rdma->worker);
	close_sockets(l);
	free(l);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_stop_listen_to_port(struct doca_rdma *rdma, uint16_t port)
{
	struct rdma_listener **link, *l;

	if (!sdoca_arg_valid(rdma))
		return DOCA_ERROR_INVALID_VALUE;
	link = find_listener(rdma, port);
	if (!*link)
		return sdoca_fail(
		        DOCA_ERROR_NOT_FOUND,
		        "doca_rdma_stop_listen_to_port: this context does not listen on port %u",
		        port);
	l = *link;
	*link = l->next;
	close_listener(l);
	return DOCA_SUCCESS;
}

void rdma_listeners_close(struct doca_rdma *rdma)
{
	while (rdma->listeners) {
		struct rdma_listener *l = rdma->listeners;

		rdma->listeners = l->next;
		close_listener(l);
	}
}

/* Takes a REQUESTED connection's request (lock held): NULL if it is not. */
static struct nic_cm_request *take_request(struct doca_rdma_connection *conn,
                                           enum rdma_conn_state next)
{
	struct nic_cm_request *request = conn->request;

	nic_assert_locked(conn->rdma->worker);
	if (conn->state != RDMA_CONN_REQUESTED)
		return NULL;
	conn->request = NULL;
	conn->state = next;
	return request;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_connection_accept(struct doca_rdma_connection *conn,
                                                           void *private_data,
                                                           uint8_t private_data_len)
{
	struct doca_rdma *rdma;
	struct nic_cm_request *request;
	doca_error_t status;

	status = rdma_conn_check(conn, __func__);
	if (status != DOCA_SUCCESS)
		return status;
	if (private_data_len && !private_data)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "doca_rdma_connection_accept: %u bytes of private data at NULL",
		                  private_data_len);
	rdma = conn->rdma;
	nic_lock(rdma->worker);
	/* CONNECTING before the QP exists: the client's first message may come
	 * as soon as it is accepted. */
	request = take_request(conn, RDMA_CONN_CONNECTING);
	nic_unlock(rdma->worker);
	if (!request)
		return sdoca_fail(
		        DOCA_ERROR_BAD_STATE,
		        "doca_rdma_connection_accept: connection %u is not a request waiting "
		        "for an answer",
		        conn->index);
	status = rdma_conn_create_qp(conn);
	if (status == DOCA_SUCCESS)
		status = nic_qp_accept(conn->qp, request, private_data, private_data_len);
	else
		nic_cm_reject(rdma->worker, request);
	if (status != DOCA_SUCCESS) {
		SDOCA_ERR("doca_rdma_connection_accept: %s", doca_error_get_descr(status));
		rdma_conn_abandon(conn);
		return status == DOCA_ERROR_NO_MEMORY ? status : DOCA_ERROR_CONNECTION_ABORTED;
	}
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_connection_reject(struct doca_rdma_connection *conn)
{
	struct doca_rdma *rdma;
	struct nic_cm_request *request;

	doca_error_t status = rdma_conn_check(conn, __func__);

	if (status != DOCA_SUCCESS)
		return status;
	rdma = conn->rdma;
	nic_lock(rdma->worker);
	request = take_request(conn, RDMA_CONN_FAILED);
	if (request)
		rdma_conn_finish(conn);
	nic_unlock(rdma->worker);
	if (!request)
		return sdoca_fail(
		        DOCA_ERROR_BAD_STATE,
		        "doca_rdma_connection_reject: connection %u is not a request waiting "
		        "for an answer",
		        conn->index);
	nic_cm_reject(rdma->worker, request);
	return DOCA_SUCCESS;
}

/* --- the client --- */

DOCA_EXPERIMENTAL doca_error_t doca_rdma_connect_to_addr(struct doca_rdma *rdma,
                                                         struct doca_rdma_addr *addr,
                                                         union doca_data connection_user_data)
{
	struct doca_rdma_connection *conn;
	doca_error_t status;

	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(addr))
		return DOCA_ERROR_INVALID_VALUE;
	if (!can_connect(rdma))
		return sdoca_fail(
		        DOCA_ERROR_BAD_STATE,
		        "doca_rdma_connect_to_addr: the context must be STARTING or RUNNING");
	if (!rdma->isolated)
		return sdoca_fail(
		        DOCA_ERROR_BAD_STATE,
		        "doca_rdma_connect_to_addr: no connection callbacks "
		        "(doca_rdma_set_connection_state_callbacks before doca_ctx_start)");
	nic_lock(rdma->worker);
	conn = rdma_conn_alloc(rdma, RDMA_CONN_CONNECTING);
	if (conn) {
		conn->via_cm = true;
		conn->user_data = connection_user_data;
		conn->peer = *addr;
	}
	nic_unlock(rdma->worker);
	if (!conn)
		return sdoca_fail(DOCA_ERROR_FULL,
		                  "doca_rdma_connect_to_addr: all %u connections are used "
		                  "(doca_rdma_set_max_num_connections)",
		                  rdma->max_num_connections);
	status = rdma_conn_create_qp(conn);
	if (status == DOCA_SUCCESS)
		status = nic_qp_connect_to(conn->qp, (const struct sockaddr *)addr->sockaddr,
		                           addr->sockaddr_len, NULL, 0,
		                           rdma->connection_request_timeout);
	if (status != DOCA_SUCCESS) {
		rdma_conn_abandon(conn);
		return status;
	}
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_set_connection_state_callbacks(
        struct doca_rdma *rdma, doca_rdma_connection_request_cb_t request_cb,
        doca_rdma_connection_established_cb_t established_cb,
        doca_rdma_connection_failure_cb_t failure_cb,
        doca_rdma_connection_disconnection_cb_t disconnect_cb)
{
	if (!sdoca_arg_valid(rdma))
		return DOCA_ERROR_INVALID_VALUE;
	if (rdma->ctx.state != DOCA_CTX_STATE_IDLE)
		return sdoca_fail(
		        DOCA_ERROR_BAD_STATE,
		        "doca_rdma_set_connection_state_callbacks: the context is not IDLE");
	rdma->request_cb = request_cb;
	rdma->established_cb = established_cb;
	rdma->failure_cb = failure_cb;
	rdma->disconnect_cb = disconnect_cb;
	return DOCA_SUCCESS;
}
