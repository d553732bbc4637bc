/*
 * softdoca tests: connection set-up through a transport listener (listen,
 * connect, accept, reject), as RDMA-CM style connections will use it, over
 * UCX on shared memory and on TCP and over the in-process fake transport, on
 * IPv4 and IPv6 loopback. A server and a client worker live in this process;
 * the test progresses both until what it waits for happened, within a
 * bounded time.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "transport/xport.h"
#include "unit/fake_transport.h"
#include "unit/testing.h"

#define WAIT_NS (20 * 1000000000ull) /* generous: sanitizer builds are slow */

struct side {
	struct xport_worker *worker;
	struct xport_ep *ep;
	char got[16]; /* the last message's header */
	int messages;
	int errors;
	doca_error_t error;
	int connects; /* a client's outcome came */
	doca_error_t connect_status;
	char answer[64]; /* the server's connection data, as text */
};

static struct {
	struct side server, client;
	struct xport_listener *listener;
	struct xport_conn_request *request; /* the last one, until answered */
	int requests;
	int sent; /* sends whose completion came */
} t;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Progresses both workers until cond holds or the time is up; then checks it. */
#define WAIT_FOR(cond)                                               \
	do {                                                         \
		uint64_t wait_end_ = now_ns() + WAIT_NS;             \
		while (!(cond) && now_ns() < wait_end_) {            \
			xport_worker_progress(t.server.worker);      \
			xport_worker_progress(t.client.worker);      \
		}                                                    \
		if (!(cond))                                         \
			fail_msg("timed out waiting for %s", #cond); \
	} while (0)

static bool on_message(void *arg, const void *hdr, size_t hdr_len, struct xport_rx *rx)
{
	struct side *s = arg;

	(void)rx;
	assert_true(hdr_len < sizeof(s->got));
	memcpy(s->got, hdr, hdr_len);
	s->got[hdr_len] = '\0';
	s->messages++;
	return false;
}

static void on_error(void *arg, doca_error_t status)
{
	struct side *s = arg;

	s->errors++;
	s->error = status;
}

static void on_connected(void *arg, doca_error_t status, const void *data, size_t len)
{
	struct side *s = arg;

	s->connects++;
	s->connect_status = status;
	assert_true(len < sizeof(s->answer));
	assert_true(len == 0 || data != NULL);
	memcpy(s->answer, data ? data : "", len);
	s->answer[len] = '\0';
}

/* The request's connection data is what the client sent. */
static void assert_request_data(const char *text)
{
	assert_int_equal(t.request->data_len, strlen(text));
	assert_memory_equal(t.request->data, text, strlen(text));
}

static void on_request(void *arg, struct xport_conn_request *request)
{
	(void)arg;
	t.request = request;
	t.requests++;
}

static void sent(void *arg, doca_error_t status)
{
	(void)arg;
	assert_doca_ok(status);
	t.sent++;
}

/* Sends a header-only message (a string literal: it outlives the send). */
static void send_text(struct xport_ep *ep, const char *text)
{
	doca_error_t status = xport_send(ep, text, strlen(text), NULL, 0, sent, NULL, NULL);

	if (status == DOCA_SUCCESS)
		t.sent++;
	else if (status != DOCA_ERROR_IN_PROGRESS)
		fail_msg("xport_send returned %s", doca_error_get_name(status));
}

static void listen_any(int family, const char *host)
{
	struct sockaddr_storage addr;
	size_t len;

	assert_doca_ok(xport_sockaddr(family, host, 0, &addr, &len));
	assert_doca_ok(xport_listen(t.server.worker, (struct sockaddr *)&addr, len, on_request,
	                            NULL, &t.listener));
	assert_int_not_equal(xport_listener_port(t.listener), 0);
	print_message("listening on %s port %u\n", host, xport_listener_port(t.listener));
}

static void connect_with(int family, const char *host, uint16_t port, const char *text)
{
	struct sockaddr_storage addr;
	size_t len;

	assert_doca_ok(xport_sockaddr(family, host, port, &addr, &len));
	assert_doca_ok(xport_connect(t.client.worker, (struct sockaddr *)&addr, len, text,
	                             strlen(text), on_connected, on_error, &t.client,
	                             &t.client.ep));
}

static void connect_to(int family, const char *host, uint16_t port)
{
	connect_with(family, host, port, "");
}

static int setup(void **state)
{
	(void)state;
	memset(&t, 0, sizeof(t));
	assert_doca_ok(xport_worker_create("lo", on_message, &t.server, &t.server.worker));
	assert_doca_ok(xport_worker_create("lo", on_message, &t.client, &t.client.worker));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	/* Forced: a graceful close waits for the peer's worker, which nothing
	 * progresses while this thread destroys the other. */
	if (t.client.ep)
		xport_ep_close(t.client.ep, true);
	if (t.server.ep)
		xport_ep_close(t.server.ep, true);
	if (t.listener)
		xport_listener_close(t.listener);
	xport_worker_destroy(t.client.worker);
	xport_worker_destroy(t.server.worker);
	return 0;
}

/* Connects, accepts, connection data goes each way and then a message. */
static void exchange(int family, const char *host)
{
	listen_any(family, host);
	connect_with(family, host, xport_listener_port(t.listener), "client's data");
	assert_doca_err(xport_send(t.client.ep, "early", 5, NULL, 0, sent, NULL, NULL),
	                DOCA_ERROR_NOT_CONNECTED);
	WAIT_FOR(t.requests == 1);
	assert_request_data("client's data");
	assert_doca_ok(
	        xport_accept(t.request, "server's data", 13, on_error, &t.server, &t.server.ep));
	WAIT_FOR(t.client.connects == 1);
	assert_doca_ok(t.client.connect_status);
	assert_string_equal(t.client.answer, "server's data");
	send_text(t.client.ep, "ping");
	WAIT_FOR(t.server.messages == 1);
	assert_string_equal(t.server.got, "ping");
	send_text(t.server.ep, "pong");
	WAIT_FOR(t.client.messages == 1 && t.sent == 2);
	assert_string_equal(t.client.got, "pong");
	assert_int_equal(t.client.errors, 0);
	assert_int_equal(t.server.errors, 0);
	assert_int_equal(t.requests, 1);
}

static void exchange_ipv4(void **state)
{
	(void)state;
	exchange(AF_INET, "127.0.0.1");
}

static void exchange_ipv6(void **state)
{
	(void)state;
	exchange(AF_INET6, "::1");
}

/* A refused client hears it, with the server's reason; the server has no
 * endpoint. */
static void rejected(int family, const char *host)
{
	listen_any(family, host);
	connect_to(family, host, xport_listener_port(t.listener));
	WAIT_FOR(t.requests == 1);
	assert_request_data("");
	xport_reject(t.request, "full", 4);
	WAIT_FOR(t.client.connects == 1);
	assert_doca_err(t.client.connect_status, DOCA_ERROR_CONNECTION_ABORTED);
	assert_string_equal(t.client.answer, "full");
	assert_int_equal(t.client.errors, 0);
	print_message("rejected client: %s\n", doca_error_get_name(t.client.connect_status));
}

static void rejected_ipv4(void **state)
{
	(void)state;
	rejected(AF_INET, "127.0.0.1");
}

static void rejected_ipv6(void **state)
{
	(void)state;
	rejected(AF_INET6, "::1");
}

/* A second listener on a port in use fails clearly, on either worker. */
static void port_in_use(void **state)
{
	struct xport_listener *second = NULL;
	struct sockaddr_storage addr;
	size_t len;

	(void)state;
	listen_any(AF_INET, "127.0.0.1");
	assert_doca_ok(
	        xport_sockaddr(AF_INET, "127.0.0.1", xport_listener_port(t.listener), &addr, &len));
	assert_doca_err(xport_listen(t.client.worker, (struct sockaddr *)&addr, len, on_request,
	                             NULL, &second),
	                DOCA_ERROR_IN_USE);
	assert_doca_err(xport_listen(t.server.worker, (struct sockaddr *)&addr, len, on_request,
	                             NULL, &second),
	                DOCA_ERROR_IN_USE);
	assert_null(second);
}

/* Nobody listens: the client's attempt fails. */
static void nobody_listens(void **state)
{
	uint16_t port;

	(void)state;
	listen_any(AF_INET, "127.0.0.1");
	port = xport_listener_port(t.listener);
	xport_listener_close(t.listener);
	t.listener = NULL;
	connect_to(AF_INET, "127.0.0.1", port);
	WAIT_FOR(t.client.connects == 1);
	assert_doca_err(t.client.connect_status, DOCA_ERROR_CONNECTION_ABORTED);
	assert_int_equal(t.requests, 0);
}

/* Connection data of the largest size arrives whole each way; one byte more
 * is refused at once. */
static void largest_data(void **state)
{
	static char big[XPORT_CONN_DATA_MAX + 1];
	struct sockaddr_storage addr;
	size_t len;
	struct xport_ep *ep = NULL;

	(void)state;
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)('a' + i % 26);
	listen_any(AF_INET, "127.0.0.1");
	assert_doca_ok(
	        xport_sockaddr(AF_INET, "127.0.0.1", xport_listener_port(t.listener), &addr, &len));
	assert_doca_err(xport_connect(t.client.worker, (struct sockaddr *)&addr, len, big,
	                              sizeof(big), on_connected, on_error, &t.client, &ep),
	                DOCA_ERROR_INVALID_VALUE);
	assert_null(ep);
	assert_doca_ok(xport_connect(t.client.worker, (struct sockaddr *)&addr, len, big,
	                             XPORT_CONN_DATA_MAX, on_connected, on_error, &t.client,
	                             &t.client.ep));
	WAIT_FOR(t.requests == 1);
	assert_int_equal(t.request->data_len, XPORT_CONN_DATA_MAX);
	assert_memory_equal(t.request->data, big, XPORT_CONN_DATA_MAX);
	assert_doca_err(xport_accept(t.request, big, sizeof(big), on_error, &t.server, &ep),
	                DOCA_ERROR_INVALID_VALUE);
	assert_null(ep);
	WAIT_FOR(t.client.connects == 1);
	assert_doca_err(t.client.connect_status, DOCA_ERROR_CONNECTION_ABORTED);
}

/* A listener closed with a request not answered refuses it. */
static void closed_with_request(void **state)
{
	(void)state;
	listen_any(AF_INET, "127.0.0.1");
	connect_to(AF_INET, "127.0.0.1", xport_listener_port(t.listener));
	WAIT_FOR(t.requests == 1);
	xport_listener_close(t.listener);
	t.listener = NULL;
	WAIT_FOR(t.client.connects == 1);
	assert_int_not_equal(t.client.connect_status, DOCA_SUCCESS);
}

/* A request wakes a server asleep on its worker's fd (as the soft NIC's
 * service thread sleeps). */
static void wakes_sleeping_server(void **state)
{
	struct pollfd p = { .fd = xport_worker_fd(t.server.worker), .events = POLLIN };
	uint64_t end = now_ns() + WAIT_NS;

	(void)state;
	listen_any(AF_INET, "127.0.0.1");
	while (!xport_worker_arm(t.server.worker) && now_ns() < end)
		xport_worker_progress(t.server.worker);
	connect_to(AF_INET, "127.0.0.1", xport_listener_port(t.listener));
	/* Only the client progresses: the server's fd must tell it to. */
	while (poll(&p, 1, 1) == 0 && now_ns() < end)
		xport_worker_progress(t.client.worker);
	assert_true(p.revents & POLLIN);
	WAIT_FOR(t.requests == 1);
}

/* UCX: a worker destroyed with its listener open and a request waiting
 * closes them (no socket stays watched for a worker that is gone). */
static void destroyed_listening(void **state)
{
	(void)state;
	listen_any(AF_INET6, "::1");
	connect_to(AF_INET6, "::1", xport_listener_port(t.listener));
	WAIT_FOR(t.requests == 1);
	t.listener = NULL; /* left to xport_worker_destroy */
}

static void bad_addresses(void **state)
{
	struct sockaddr_storage addr;
	size_t len;
	char text[XPORT_SOCKADDR_STRLEN];

	(void)state;
	assert_doca_err(xport_sockaddr(AF_INET, "::1", 1, &addr, &len), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(xport_sockaddr(AF_INET6, "127.0.0.1", 1, &addr, &len),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(xport_sockaddr(AF_INET, "localhost", 1, &addr, &len),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(xport_sockaddr(AF_UNIX, "127.0.0.1", 1, &addr, &len),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(xport_sockaddr(AF_UNSPEC, "::1", 4791, &addr, &len));
	assert_string_equal(xport_sockaddr_str((struct sockaddr *)&addr, text, sizeof(text)),
	                    "[::1]:4791");
	assert_int_equal(xport_sockaddr_port((struct sockaddr *)&addr), 4791);
}

int main(void)
{
#define CASES                                                                          \
	cmocka_unit_test_setup_teardown(exchange_ipv4, setup, teardown),               \
	        cmocka_unit_test_setup_teardown(exchange_ipv6, setup, teardown),       \
	        cmocka_unit_test_setup_teardown(rejected_ipv4, setup, teardown),       \
	        cmocka_unit_test_setup_teardown(rejected_ipv6, setup, teardown),       \
	        cmocka_unit_test_setup_teardown(port_in_use, setup, teardown),         \
	        cmocka_unit_test_setup_teardown(nobody_listens, setup, teardown),      \
	        cmocka_unit_test_setup_teardown(largest_data, setup, teardown),        \
	        cmocka_unit_test_setup_teardown(closed_with_request, setup, teardown), \
	        cmocka_unit_test_setup_teardown(wakes_sleeping_server, setup, teardown)
	const struct CMUnitTest fake[] = { CASES, cmocka_unit_test(bad_addresses) };
	const struct CMUnitTest shm[] = { CASES };
	const struct CMUnitTest tcp[] = { CASES, cmocka_unit_test_setup_teardown(
		                                         destroyed_listening, setup, teardown) };
	int failed = 0;

	failed += cmocka_run_group_tests_name("fake transport", fake, fake_xport_group_use_fake,
	                                      NULL);
	failed += cmocka_run_group_tests_name("UCX, shared memory", shm, fake_xport_group_use_shm,
	                                      NULL);
	failed += cmocka_run_group_tests_name("UCX, TCP", tcp, fake_xport_group_use_tcp, NULL);
	return failed;
}
