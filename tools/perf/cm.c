/*
 * softdoca-perf --cm: connections through the server's listener.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * --cm: the connections are set up through the server's listener, as an
 * RDMA-CM program does (doca_rdma_start_listen_to_port on the server,
 * doca_rdma_connect_to_addr on the client, the four connection callbacks),
 * instead of blobs over the TCP socket. That socket still carries the test
 * parameters, the listener's port and the memory descriptors.
 *
 *   server: listens, sends its port      client: connects num_conns times at
 *   accepts request k with private data         once, waits for them all, and
 *   k, waits for num_conns established          files each as conns[k]
 *
 * Both sides must agree on which connection is which: a --check of sends
 * knows the iteration a message carries from the connection it came on. The
 * requests may reach the server in any order, so the server numbers them as
 * they come and tells each client connection its number in the accept's
 * private data. DOCA has no call to read that on the client; softdoca's
 * softdoca_rdma_connection_get_private_data() does.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <doca_log.h>
#include <softdoca.h>

#include "perf.h"

/* Set-up that takes longer than this is broken (a connection that gets no
 * answer fails after the connection request timeout, 5 s by default). */
#define SETUP_TIMEOUT_NS (30 * 1000000000ull)
/* Without --cm-port: the first free port from the TCP socket's port + 1. */
#define PORT_TRIES 32

static struct perf_ep *ep_of(union doca_data ctx_data)
{
	return ctx_data.ptr;
}

static void setup_broken(const char *what, struct doca_rdma_connection *conn)
{
	uint32_t id = 0;

	(void)doca_rdma_connection_get_id(conn, &id);
	fprintf(stderr, "softdoca-perf: connection %u %s while setting up (--cm)\n", id, what);
	exit(1);
}

/* Server: request k is accepted as connection k, and told so. */
static void on_request(struct doca_rdma_connection *conn, union doca_data ctx_data)
{
	struct perf_ep *ep = ep_of(ctx_data);
	uint32_t k = ep->cm_requests++;
	uint8_t number[2] = { (uint8_t)(k >> 8), (uint8_t)k };

	if (k >= ep->num_conns) { /* someone else's: this test has its connections */
		(void)doca_rdma_connection_reject(conn);
		return;
	}
	ep->conns[k] = conn;
	PERF_CHECK(doca_rdma_connection_set_user_data(conn, (union doca_data){ .u64 = k }));
	PERF_CHECK(doca_rdma_connection_accept(conn, number, sizeof(number)));
}

/* Client: the server's number for this connection says where it goes. */
static void on_established(struct doca_rdma_connection *conn, union doca_data conn_data,
                           union doca_data ctx_data)
{
	struct perf_ep *ep = ep_of(ctx_data);
	const uint8_t *number;
	const void *data;
	uint8_t len;
	uint32_t k;

	(void)conn_data;
	if (ep->client) {
		PERF_CHECK(softdoca_rdma_connection_get_private_data(conn, &data, &len));
		number = data;
		k = len == 2 ? (uint32_t)number[0] << 8 | number[1] : UINT32_MAX;
		if (k >= ep->num_conns || ep->conns[k]) {
			fprintf(stderr,
			        "softdoca-perf: the server numbered a connection %u "
			        "(not softdoca-perf, or a second client?)\n",
			        k);
			exit(1);
		}
		ep->conns[k] = conn;
	}
	ep->cm_up++;
}

static void on_failure(struct doca_rdma_connection *conn, union doca_data conn_data,
                       union doca_data ctx_data)
{
	struct perf_ep *ep = ep_of(ctx_data);

	(void)conn_data;
	if (ep->cm_ready)
		return; /* its tasks fail and say so */
	if (ep->client)
		setup_broken("failed (refused, nobody listening, or no answer)", conn);
	ep->cm_down++; /* server: a request that never got established */
}

static void on_disconnect(struct doca_rdma_connection *conn, union doca_data conn_data,
                          union doca_data ctx_data)
{
	struct perf_ep *ep = ep_of(ctx_data);

	(void)conn_data;
	if (!ep->cm_ready)
		setup_broken("was disconnected by the peer", conn);
}

void perf_cm_configure(struct perf_ep *ep)
{
	PERF_CHECK(doca_rdma_set_connection_state_callbacks(ep->rdma, on_request, on_established,
	                                                    on_failure, on_disconnect));
	PERF_CHECK(
	        doca_ctx_set_user_data(doca_rdma_as_ctx(ep->rdma), (union doca_data){ .ptr = ep }));
}

/* Progresses until every connection is up; exits when set-up breaks. */
static void wait_established(struct perf_ep *ep)
{
	uint64_t deadline = perf_now_ns() + SETUP_TIMEOUT_NS;
	enum doca_ctx_states state = DOCA_CTX_STATE_STARTING;

	while (ep->cm_up < ep->num_conns || state != DOCA_CTX_STATE_RUNNING) {
		doca_pe_progress(ep->pe);
		PERF_CHECK(doca_ctx_get_state(doca_rdma_as_ctx(ep->rdma), &state));
		if (ep->cm_down || perf_now_ns() > deadline) {
			fprintf(stderr,
			        "softdoca-perf: %u of %u connections established (--cm): %s\n",
			        ep->cm_up, ep->num_conns, ep->cm_down ? "one failed" : "timed out");
			exit(1);
		}
	}
	ep->cm_ready = true;
}

static uint16_t local_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &len) != 0)
		return 0;
	return ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
	                                      : ((struct sockaddr_in *)&ss)->sin_port);
}

/* --cm-port, or the first port from the TCP socket's + 1 that is free. */
static uint16_t start_listening(struct perf_ep *ep, int oob)
{
	uint32_t port = ep->cm_port ? ep->cm_port : local_port(oob) + 1u;
	uint32_t sdk_log = doca_log_level_get_global_sdk_limit();
	doca_error_t status = DOCA_ERROR_IN_USE;

	/* A port in use on the way is no error worth a log line (the kernel
	 * hands out ports next to the TCP socket's to other sockets too). */
	if (!ep->cm_port)
		(void)doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_CRIT);
	for (int i = 0; i < (ep->cm_port ? 1 : PORT_TRIES) && status == DOCA_ERROR_IN_USE;
	     i++, port++) {
		if (port > 65535)
			port = 1024;
		status = doca_rdma_start_listen_to_port(ep->rdma, (uint16_t)port);
	}
	(void)doca_log_level_set_global_sdk_limit(sdk_log);
	if (status == DOCA_SUCCESS)
		return (uint16_t)(port - 1);
	fprintf(stderr, "softdoca-perf: cannot listen for connections (--cm) on port %u%s: %s\n",
	        ep->cm_port ? ep->cm_port : local_port(oob) + 1u,
	        ep->cm_port ? "" : " nor the next ones", doca_error_get_descr(status));
	perf_ep_close(ep);
	exit(1);
}

static void serve(struct perf_ep *ep, int oob)
{
	uint64_t word;

	ep->cm_port = start_listening(ep, oob);
	printf("softdoca-perf server: listening for %u connection%s (RDMA-CM) on port %u\n",
	       ep->num_conns, ep->num_conns == 1 ? "" : "s", ep->cm_port);
	fflush(stdout);
	word = htobe64(ep->cm_port);
	perf_oob_send(oob, &word, sizeof(word));
	wait_established(ep);
	PERF_CHECK(doca_rdma_stop_listen_to_port(ep->rdma, ep->cm_port));
}

/* The address the TCP socket reached the server at, as text and type. */
static void server_address(int oob, enum doca_rdma_addr_type *type, char *text, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	const void *ip;

	if (getpeername(oob, (struct sockaddr *)&ss, &sl) != 0) {
		perror("softdoca-perf: getpeername");
		exit(1);
	}
	if (ss.ss_family == AF_INET6) {
		*type = DOCA_RDMA_ADDR_TYPE_IPv6;
		ip = &((struct sockaddr_in6 *)&ss)->sin6_addr;
	} else {
		*type = DOCA_RDMA_ADDR_TYPE_IPv4;
		ip = &((struct sockaddr_in *)&ss)->sin_addr;
	}
	if (!inet_ntop(ss.ss_family, ip, text, (socklen_t)len)) {
		perror("softdoca-perf: inet_ntop");
		exit(1);
	}
}

static void connect_all(struct perf_ep *ep, int oob)
{
	enum doca_rdma_addr_type type;
	char text[INET6_ADDRSTRLEN];
	struct doca_rdma_addr *addr;
	uint64_t *word, t0;
	size_t len;

	/* A server that could not listen exits: so does this side, its
	 * context closed (a tool that exits with its UCX worker alive leaves
	 * what LeakSanitizer reports as leaks). */
	word = perf_oob_recv_or_null(oob, &len);
	if (!word || len != sizeof(*word) || be64toh(*word) == 0 || be64toh(*word) > 65535) {
		fprintf(stderr, "softdoca-perf: %s (--cm)\n",
		        word ? "the server sent no listening port"
		             : "the server went away before it listened");
		free(word);
		perf_ep_close(ep);
		exit(1);
	}
	ep->cm_port = (uint16_t)be64toh(*word);
	free(word);
	server_address(oob, &type, text, sizeof(text));
	PERF_CHECK(doca_rdma_addr_create(type, text, ep->cm_port, &addr));
	t0 = perf_now_ns();
	for (uint32_t i = 0; i < ep->num_conns; i++)
		PERF_CHECK(
		        doca_rdma_connect_to_addr(ep->rdma, addr, (union doca_data){ .u64 = i }));
	wait_established(ep);
	ep->setup_ns = perf_now_ns() - t0;
	PERF_CHECK(doca_rdma_addr_destroy(addr));
}

void perf_cm_connect(struct perf_ep *ep, int oob)
{
	if (ep->client)
		connect_all(ep, oob);
	else
		serve(ep, oob);
}
