/*
 * softdoca tests: RDMA-CM style connections in one process. A server
 * context listens on a port; client contexts (each on its own PE, so on its
 * own soft-NIC worker) connect to 127.0.0.1 or ::1. One thread progresses
 * every PE until what a test waits for happened, within a bounded time.
 * Over UCX on shared memory and on TCP, and over the in-process fake
 * transport.
 *
 * Covered: the callback order on both sides, private data, data both ways
 * attributed to its connection, reject, nobody listening, a full context,
 * disconnect from either side (idempotent, also inside its callback), one
 * connection going down while the others go on, stale handles and ids,
 * listener errors, hostile bytes on the listening port, a flood of peers
 * that say nothing or part of a handshake, the addresses listened on, and 1000
 * connect/disconnect cycles without growth of memory, fds or threads.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <ifaddrs.h>
#include <malloc.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>
#include <softdoca.h>

#include "transport/xport.h"
#include "unit/fake_transport.h"
#include "unit/testing.h"

#define WAIT_NS (20 * 1000000000ull) /* generous: sanitizer builds are slow */
#define MAX_SIDES 5
#define MAX_CONNS 8
#define MSG 64

enum cm_event { EV_REQUEST, EV_ESTABLISHED, EV_FAILURE, EV_DISCONNECT, EV_KINDS };

struct side {
	struct doca_pe *pe;
	struct doca_rdma *rdma;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
	uint8_t mem[MAX_CONNS][2][MSG]; /* per connection: receive, send */
	int events[EV_KINDS];
	struct doca_rdma_connection *conns[MAX_CONNS]; /* by arrival */
	int num_conns;
	struct doca_rdma_connection *last; /* the last callback's */
	bool accept;                       /* a server accepts requests (else rejects) */
	bool disconnect_again;             /* disconnects inside its disconnection_cb */
	doca_error_t again_status;
	int received;
	struct doca_rdma_connection *received_on[MAX_CONNS];
	int sent, send_errors;
	doca_error_t send_error;
};

static struct {
	struct doca_dev *dev;
	struct side sides[MAX_SIDES]; /* 0: the server */
	int num_sides;
	uint16_t port;
	int order; /* callbacks so far, for order checks */
} t;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void progress_all(void)
{
	for (int i = 0; i < t.num_sides; i++)
		doca_pe_progress(t.sides[i].pe);
}

#define WAIT_FOR(cond)                                               \
	do {                                                         \
		uint64_t wait_end_ = now_ns() + WAIT_NS;             \
		while (!(cond) && now_ns() < wait_end_)              \
			progress_all();                              \
		if (!(cond))                                         \
			fail_msg("timed out waiting for %s", #cond); \
	} while (0)

static struct side *side_of(union doca_data ctx_data)
{
	return ctx_data.ptr;
}

/* --- connection callbacks --- */

static void on_request(struct doca_rdma_connection *conn, union doca_data ctx_data)
{
	struct side *s = side_of(ctx_data);

	s->events[EV_REQUEST]++;
	s->last = conn;
	if (!s->accept) {
		assert_doca_ok(doca_rdma_connection_reject(conn));
		return;
	}
	assert_doca_ok(doca_rdma_connection_accept(conn, "from the server", 15));
	assert_int_not_equal(s->num_conns, MAX_CONNS);
	assert_doca_ok(doca_rdma_connection_set_user_data(
	        conn, (union doca_data){ .u64 = (uint64_t)s->num_conns }));
	s->conns[s->num_conns++] = conn;
}

static void on_established(struct doca_rdma_connection *conn, union doca_data conn_data,
                           union doca_data ctx_data)
{
	struct side *s = side_of(ctx_data);

	(void)conn_data;
	s->events[EV_ESTABLISHED]++;
	s->last = conn;
}

static void on_failure(struct doca_rdma_connection *conn, union doca_data conn_data,
                       union doca_data ctx_data)
{
	struct side *s = side_of(ctx_data);

	(void)conn_data;
	s->events[EV_FAILURE]++;
	s->last = conn;
}

static void on_disconnect(struct doca_rdma_connection *conn, union doca_data conn_data,
                          union doca_data ctx_data)
{
	struct side *s = side_of(ctx_data);

	(void)conn_data;
	s->events[EV_DISCONNECT]++;
	s->last = conn;
	if (s->disconnect_again)
		s->again_status = doca_rdma_connection_disconnect(conn);
}

/* --- tasks --- */

static void recv_done(struct doca_rdma_task_receive *task, union doca_data task_data,
                      union doca_data ctx_data)
{
	struct side *s = side_of(ctx_data);
	struct doca_buf *buf = doca_rdma_task_receive_get_dst_buf(task);

	(void)task_data;
	assert_true(s->received < MAX_CONNS);
	s->received_on[s->received++] =
	        (struct doca_rdma_connection *)doca_rdma_task_receive_get_result_rdma_connection(
	                task);
	doca_buf_dec_refcount(buf, NULL);
	doca_task_free(doca_rdma_task_receive_as_task(task));
}

static void recv_failed(struct doca_rdma_task_receive *task, union doca_data task_data,
                        union doca_data ctx_data)
{
	(void)ctx_data;
	(void)task_data;
	doca_buf_dec_refcount(doca_rdma_task_receive_get_dst_buf(task), NULL);
	doca_task_free(doca_rdma_task_receive_as_task(task));
}

static void send_done(struct doca_rdma_task_send *task, union doca_data task_data,
                      union doca_data ctx_data)
{
	struct side *s = side_of(ctx_data);

	(void)task_data;
	s->sent++;
	doca_buf_dec_refcount((struct doca_buf *)doca_rdma_task_send_get_src_buf(task), NULL);
	doca_task_free(doca_rdma_task_send_as_task(task));
}

static void send_failed(struct doca_rdma_task_send *task, union doca_data task_data,
                        union doca_data ctx_data)
{
	struct side *s = side_of(ctx_data);

	(void)task_data;
	s->send_errors++;
	s->send_error = doca_task_get_status(doca_rdma_task_send_as_task(task));
	doca_buf_dec_refcount((struct doca_buf *)doca_rdma_task_send_get_src_buf(task), NULL);
	doca_task_free(doca_rdma_task_send_as_task(task));
}

static void post_recv(struct side *s, int slot)
{
	struct doca_rdma_task_receive *task;
	struct doca_buf *buf;

	memset(s->mem[slot][0], 0, MSG);
	assert_doca_ok(
	        doca_buf_inventory_buf_get_by_addr(s->inv, s->mmap, s->mem[slot][0], MSG, &buf));
	assert_doca_ok(
	        doca_rdma_task_receive_allocate_init(s->rdma, buf, (union doca_data){ 0 }, &task));
	assert_doca_ok(doca_task_submit(doca_rdma_task_receive_as_task(task)));
}

static doca_error_t send_text(struct side *s, struct doca_rdma_connection *conn, int slot,
                              const char *text)
{
	struct doca_rdma_task_send *task;
	struct doca_buf *buf;
	doca_error_t status;

	snprintf((char *)s->mem[slot][1], MSG, "%s", text);
	assert_doca_ok(doca_buf_inventory_buf_get_by_data(s->inv, s->mmap, s->mem[slot][1],
	                                                  strlen(text) + 1, &buf));
	status = doca_rdma_task_send_allocate_init(s->rdma, conn, buf, (union doca_data){ 0 },
	                                           &task);
	if (status != DOCA_SUCCESS) {
		doca_buf_dec_refcount(buf, NULL);
		return status;
	}
	status = doca_task_submit(doca_rdma_task_send_as_task(task));
	if (status != DOCA_SUCCESS) {
		doca_buf_dec_refcount(buf, NULL);
		doca_task_free(doca_rdma_task_send_as_task(task));
	}
	return status;
}

/* --- sides --- */

static struct side *side_start(uint16_t max_conns)
{
	struct side *s = &t.sides[t.num_sides++];
	struct doca_ctx *ctx;

	memset(s, 0, sizeof(*s));
	s->accept = true;
	assert_doca_ok(doca_pe_create(&s->pe));
	assert_doca_ok(doca_mmap_create(&s->mmap));
	assert_doca_ok(doca_mmap_set_memrange(s->mmap, s->mem, sizeof(s->mem)));
	assert_doca_ok(doca_mmap_add_dev(s->mmap, t.dev));
	assert_doca_ok(doca_mmap_set_permissions(s->mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	assert_doca_ok(doca_mmap_start(s->mmap));
	assert_doca_ok(doca_buf_inventory_create(4 * MAX_CONNS, &s->inv));
	assert_doca_ok(doca_buf_inventory_start(s->inv));
	assert_doca_ok(doca_rdma_create(t.dev, &s->rdma));
	ctx = doca_rdma_as_ctx(s->rdma);
	assert_doca_ok(doca_rdma_set_max_num_connections(s->rdma, max_conns));
	assert_doca_ok(doca_rdma_set_connection_state_callbacks(s->rdma, on_request, on_established,
	                                                        on_failure, on_disconnect));
	assert_doca_ok(doca_rdma_task_receive_set_conf(s->rdma, recv_done, recv_failed, MAX_CONNS));
	assert_doca_ok(doca_rdma_task_send_set_conf(s->rdma, send_done, send_failed, MAX_CONNS));
	assert_doca_ok(doca_ctx_set_user_data(ctx, (union doca_data){ .ptr = s }));
	assert_doca_ok(doca_pe_connect_ctx(s->pe, ctx));
	assert_doca_ok(doca_ctx_start(ctx));
	return s;
}

static void side_stop(struct side *s)
{
	struct doca_ctx *ctx = doca_rdma_as_ctx(s->rdma);
	enum doca_ctx_states state = DOCA_CTX_STATE_RUNNING;
	uint64_t end = now_ns() + WAIT_NS;
	doca_error_t status = doca_ctx_stop(ctx);

	assert_true(status == DOCA_SUCCESS || status == DOCA_ERROR_IN_PROGRESS);
	/* A context with connections stops through STOPPING: IDLE comes from
	 * its own PE's progress (teardown took it out of progress_all()). */
	while (state != DOCA_CTX_STATE_IDLE && now_ns() < end) {
		progress_all();
		doca_pe_progress(s->pe);
		assert_doca_ok(doca_ctx_get_state(ctx, &state));
	}
	assert_int_equal(state, DOCA_CTX_STATE_IDLE);
	assert_doca_ok(doca_rdma_destroy(s->rdma));
	assert_doca_ok(doca_buf_inventory_destroy(s->inv));
	assert_doca_ok(doca_mmap_destroy(s->mmap));
	assert_doca_ok(doca_pe_destroy(s->pe));
}

static bool is_running(struct side *s)
{
	enum doca_ctx_states state;

	assert_doca_ok(doca_ctx_get_state(doca_rdma_as_ctx(s->rdma), &state));
	return state == DOCA_CTX_STATE_RUNNING;
}

static void connect_to(struct side *s, enum doca_rdma_addr_type type, const char *host,
                       uint16_t port)
{
	struct doca_rdma_addr *addr;

	assert_doca_ok(doca_rdma_addr_create(type, host, port, &addr));
	assert_doca_ok(doca_rdma_connect_to_addr(s->rdma, addr, (union doca_data){ .ptr = s }));
	assert_doca_ok(doca_rdma_addr_destroy(addr));
}

/* A port for this test: one nobody listens on now. */
/* A port free on 127.0.0.1 and on ::1: the loopback device's listener
 * binds both (one free on IPv4 only made a listen fail with IN_USE). */
static uint16_t free_port(void)
{
	for (int attempt = 0; attempt < 100; attempt++) {
		struct sockaddr_in in = { .sin_family = AF_INET,
			                  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
		struct sockaddr_in6 in6 = { .sin6_family = AF_INET6,
			                    .sin6_addr = IN6ADDR_LOOPBACK_INIT };
		socklen_t len = sizeof(in);
		int fd = socket(AF_INET, SOCK_STREAM, 0), fd6 = socket(AF_INET6, SOCK_STREAM, 0);
		bool both;

		assert_true(fd >= 0 && fd6 >= 0);
		assert_int_equal(bind(fd, (struct sockaddr *)&in, sizeof(in)), 0);
		assert_int_equal(getsockname(fd, (struct sockaddr *)&in, &len), 0);
		in6.sin6_port = in.sin_port;
		both = bind(fd6, (struct sockaddr *)&in6, sizeof(in6)) == 0;
		close(fd);
		close(fd6);
		if (both)
			return ntohs(in.sin_port);
	}
	fail_msg("no port free on both 127.0.0.1 and ::1 in 100 tries");
	return 0;
}

static int setup(void **state)
{
	(void)state;
	memset(&t, 0, sizeof(t));
	t.dev = open_loopback_dev();
	t.port = free_port();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	while (t.num_sides > 0)
		side_stop(&t.sides[--t.num_sides]);
	assert_doca_ok(doca_dev_close(t.dev));
	return 0;
}

/* A server and a client, connected through the listener. */
static void connect_pair(enum doca_rdma_addr_type type, const char *host, struct side **server,
                         struct side **client)
{
	*server = side_start(MAX_CONNS);
	*client = side_start(1);
	assert_doca_ok(doca_rdma_start_listen_to_port((*server)->rdma, t.port));
	connect_to(*client, type, host, t.port);
	WAIT_FOR((*server)->events[EV_ESTABLISHED] == 1 && (*client)->events[EV_ESTABLISHED] == 1);
}

/* --- the tests --- */

/* The whole life on both sides: request, accept with private data,
 * established, a message each way on its connection, disconnect by the
 * client (again inside the callback), disconnection on both sides. */
static void life(enum doca_rdma_addr_type type, const char *host)
{
	struct side *server, *client;
	struct doca_rdma_connection *sconn, *cconn;
	struct doca_rdma_addr *addr;
	enum doca_rdma_addr_type got_type;
	const char *text;
	const void *pd;
	uint8_t pd_len;
	uint16_t port;
	uint32_t id;

	connect_pair(type, host, &server, &client);
	assert_int_equal(server->events[EV_REQUEST], 1);
	sconn = server->conns[0];
	cconn = client->last;
	/* What each side knows of the other. */
	assert_doca_ok(softdoca_rdma_connection_get_private_data(cconn, &pd, &pd_len));
	assert_int_equal(pd_len, 15);
	assert_memory_equal(pd, "from the server", 15);
	assert_doca_ok(doca_rdma_connection_get_addr(sconn, &addr));
	assert_doca_ok(doca_rdma_addr_get_params(addr, &got_type, &text, &port));
	assert_int_equal(got_type, type);
	assert_string_equal(text, host);
	assert_doca_ok(doca_rdma_connection_get_addr(cconn, &addr));
	assert_doca_ok(doca_rdma_addr_get_params(addr, &got_type, &text, &port));
	assert_int_equal(port, t.port);
	assert_doca_ok(doca_rdma_connection_get_id(sconn, &id));
	assert_int_equal(id, 0);
	/* A message each way. */
	post_recv(server, 0);
	post_recv(client, 0);
	assert_doca_ok(send_text(client, cconn, 0, "ping"));
	WAIT_FOR(server->received == 1);
	assert_string_equal((char *)server->mem[0][0], "ping");
	assert_ptr_equal(server->received_on[0], sconn);
	assert_doca_ok(send_text(server, sconn, 0, "pong"));
	WAIT_FOR(client->received == 1 && client->sent == 1 && server->sent == 1);
	assert_string_equal((char *)client->mem[0][0], "pong");
	assert_ptr_equal(client->received_on[0], cconn);
	/* The client disconnects: both hear it, once. */
	client->disconnect_again = true;
	server->disconnect_again = true;
	assert_doca_ok(doca_rdma_connection_disconnect(cconn));
	assert_doca_ok(doca_rdma_connection_disconnect(cconn));
	WAIT_FOR(client->events[EV_DISCONNECT] == 1 && server->events[EV_DISCONNECT] == 1);
	assert_doca_ok(client->again_status);
	assert_doca_ok(server->again_status);
	assert_int_equal(client->events[EV_FAILURE] + server->events[EV_FAILURE], 0);
	assert_ptr_equal(server->last, sconn);
	/* Gone: its handle is refused now, and the contexts run on. */
	assert_doca_err(doca_rdma_connection_get_id(sconn, &id), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(send_text(client, cconn, 0, "late"), DOCA_ERROR_INVALID_VALUE);
	assert_true(is_running(server) && is_running(client));
}

static void life_ipv4(void **state)
{
	(void)state;
	life(DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1");
}

static void life_ipv6(void **state)
{
	(void)state;
	life(DOCA_RDMA_ADDR_TYPE_IPv6, "::1");
}

/* The server disconnects: the client hears it; the slot serves again. */
static void server_disconnects(void **state)
{
	struct side *server, *client;
	uint32_t old_id, new_id;

	(void)state;
	connect_pair(DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", &server, &client);
	assert_doca_ok(doca_rdma_connection_get_id(server->conns[0], &old_id));
	assert_doca_ok(doca_rdma_connection_disconnect(server->conns[0]));
	WAIT_FOR(client->events[EV_DISCONNECT] == 1 && server->events[EV_DISCONNECT] == 1);
	connect_to(client, DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", t.port);
	WAIT_FOR(server->events[EV_ESTABLISHED] == 2 && client->events[EV_ESTABLISHED] == 2);
	/* A new connection: a new id; the old handle does not reach it. */
	assert_doca_ok(doca_rdma_connection_get_id(server->conns[1], &new_id));
	assert_int_not_equal(new_id, old_id);
	assert_doca_err(doca_rdma_connection_disconnect(server->conns[0]),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_rdma_connection_get_id(server->conns[0], &old_id),
	                DOCA_ERROR_INVALID_VALUE);
}

/* A rejected client hears failure; the server hears nothing more. */
static void rejected(void **state)
{
	struct side *server = side_start(MAX_CONNS), *client = side_start(1);

	(void)state;
	server->accept = false;
	assert_doca_ok(doca_rdma_start_listen_to_port(server->rdma, t.port));
	connect_to(client, DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", t.port);
	WAIT_FOR(client->events[EV_FAILURE] == 1);
	assert_int_equal(server->events[EV_REQUEST], 1);
	assert_int_equal(server->events[EV_ESTABLISHED] + server->events[EV_FAILURE], 0);
	assert_int_equal(client->events[EV_ESTABLISHED], 0);
	/* Its slot is free again: a second attempt is accepted. */
	server->accept = true;
	connect_to(client, DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", t.port);
	WAIT_FOR(client->events[EV_ESTABLISHED] == 1 && server->events[EV_ESTABLISHED] == 1);
}

/* Nobody listens: failure, soon (the connect is refused at once). */
static void nobody_listens(void **state)
{
	struct side *client = side_start(1);
	uint64_t start = now_ns();

	(void)state;
	connect_to(client, DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", t.port);
	WAIT_FOR(client->events[EV_FAILURE] == 1);
	print_message("failure_cb after %.1f ms\n", (double)(now_ns() - start) / 1e6);
	assert_true(now_ns() - start < 5000000000ull);
	assert_true(is_running(client));
}

/* A full server refuses the next client; a full client refuses to try. */
static void full(void **state)
{
	struct side *server = side_start(1), *a = side_start(1), *b = side_start(1);
	struct doca_rdma_addr *addr;
	const void *blob;
	size_t len;
	struct doca_rdma_connection *conn;

	(void)state;
	assert_doca_ok(doca_rdma_start_listen_to_port(server->rdma, t.port));
	connect_to(a, DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", t.port);
	WAIT_FOR(a->events[EV_ESTABLISHED] == 1 && server->events[EV_ESTABLISHED] == 1);
	connect_to(b, DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", t.port);
	WAIT_FOR(b->events[EV_FAILURE] == 1);
	assert_int_equal(server->events[EV_REQUEST], 1);
	assert_doca_err(doca_rdma_export(server->rdma, &blob, &len, &conn), DOCA_ERROR_FULL);
	assert_doca_ok(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", t.port, &addr));
	assert_doca_err(doca_rdma_connect_to_addr(a->rdma, addr, (union doca_data){ 0 }),
	                DOCA_ERROR_FULL);
	assert_doca_ok(doca_rdma_addr_destroy(addr));
}

/* One connection goes down while the others carry on: the context stays
 * RUNNING, its tasks on the others complete, with their data. */
static void one_goes_down(void **state)
{
	struct side *server = side_start(MAX_CONNS), *c[3];

	(void)state;
	assert_doca_ok(doca_rdma_start_listen_to_port(server->rdma, t.port));
	for (int i = 0; i < 3; i++) {
		c[i] = side_start(1);
		connect_to(c[i], DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", t.port);
		WAIT_FOR(c[i]->events[EV_ESTABLISHED] == 1 &&
		         server->events[EV_ESTABLISHED] == i + 1);
	}
	/* The first client's send waits for a receive that never comes (RNR)
	 * when its connection goes: it fails; the others' are received. */
	assert_doca_ok(send_text(c[0], c[0]->last, 0, "lost"));
	assert_doca_ok(doca_rdma_connection_disconnect(c[0]->last));
	WAIT_FOR(c[0]->send_errors == 1 && server->events[EV_DISCONNECT] == 1);
	post_recv(server, 1);
	post_recv(server, 2);
	assert_doca_ok(send_text(c[1], c[1]->last, 0, "one"));
	assert_doca_ok(send_text(c[2], c[2]->last, 0, "two"));
	WAIT_FOR(server->received == 2 && c[1]->sent == 1 && c[2]->sent == 1);
	for (int i = 0; i < 2; i++) {
		union doca_data which;

		assert_doca_ok(doca_rdma_connection_get_user_data(server->received_on[i], &which));
		assert_string_equal((char *)server->mem[1 + i][0], which.u64 == 1 ? "one" : "two");
	}
	assert_true(is_running(server));
	assert_int_equal(server->events[EV_FAILURE], 0);
}

/* Listener errors, and bad addresses. */
static void listener_errors(void **state)
{
	struct side *server = side_start(1), *other = side_start(1);
	struct doca_rdma_addr *addr = NULL;

	(void)state;
	assert_doca_ok(doca_rdma_start_listen_to_port(server->rdma, t.port));
	assert_doca_err(doca_rdma_start_listen_to_port(server->rdma, t.port), DOCA_ERROR_IN_USE);
	assert_doca_err(doca_rdma_start_listen_to_port(other->rdma, t.port), DOCA_ERROR_IN_USE);
	assert_doca_err(doca_rdma_stop_listen_to_port(other->rdma, t.port), DOCA_ERROR_NOT_FOUND);
	assert_doca_ok(doca_rdma_stop_listen_to_port(server->rdma, t.port));
	assert_doca_ok(doca_rdma_start_listen_to_port(other->rdma, t.port));
	assert_doca_err(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "::1", 1, &addr),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv6, "127.0.0.1", 1, &addr),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "localhost", 1, &addr),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_GID, "fe80::1", 1, &addr),
	                DOCA_ERROR_NOT_SUPPORTED);
	assert_null(addr);
}

/* softdoca.h's limit is the one doca_rdma_set_max_num_connections keeps. */
static void max_connections_cap(void **state)
{
	const struct doca_devinfo *info = doca_dev_as_devinfo(t.dev);
	struct doca_rdma *rdma;
	uint32_t max = 0;

	(void)state;
	assert_doca_ok(softdoca_rdma_cap_get_max_num_connections(info, &max));
	assert_int_equal(max, 1024);
	assert_doca_err(softdoca_rdma_cap_get_max_num_connections(NULL, &max),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(softdoca_rdma_cap_get_max_num_connections(info, NULL),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_rdma_create(t.dev, &rdma));
	assert_doca_ok(doca_rdma_set_max_num_connections(rdma, (uint16_t)max));
	assert_doca_err(doca_rdma_set_max_num_connections(rdma, (uint16_t)(max + 1)),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_rdma_destroy(rdma));
}

/* A context without connection callbacks cannot listen or connect. */
static void needs_callbacks(void **state)
{
	struct doca_rdma *rdma;
	struct doca_pe *pe;
	struct doca_rdma_addr *addr;

	(void)state;
	assert_doca_ok(doca_pe_create(&pe));
	assert_doca_ok(doca_rdma_create(t.dev, &rdma));
	assert_doca_ok(doca_pe_connect_ctx(pe, doca_rdma_as_ctx(rdma)));
	assert_doca_err(doca_rdma_start_listen_to_port(rdma, t.port), DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_ctx_start(doca_rdma_as_ctx(rdma)));
	assert_doca_err(doca_rdma_start_listen_to_port(rdma, t.port), DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", t.port, &addr));
	assert_doca_err(doca_rdma_connect_to_addr(rdma, addr, (union doca_data){ 0 }),
	                DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_rdma_addr_destroy(addr));
	assert_doca_ok(doca_ctx_stop(doca_rdma_as_ctx(rdma)));
	assert_doca_ok(doca_rdma_destroy(rdma));
	assert_doca_ok(doca_pe_destroy(pe));
}

/* Raw bytes to the listening port: a peer that connects and sends
 * nothing, random bytes, a truncated handshake. None becomes a request, and
 * a real client connects meanwhile. */
static void hostile_bytes(void **state)
{
	static const uint8_t truncated[] = { 'S', 'D', 'C', 'M', 2, 1, 0, 0, 0x40 };
	struct side *server = side_start(MAX_CONNS), *client = side_start(1);
	struct sockaddr_in in = { .sin_family = AF_INET,
		                  .sin_port = htons(t.port),
		                  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fds[3];
	uint8_t noise[512];

	(void)state;
	assert_doca_ok(doca_rdma_start_listen_to_port(server->rdma, t.port));
	srand(7);
	for (size_t i = 0; i < sizeof(noise); i++)
		noise[i] = (uint8_t)rand();
	for (int i = 0; i < 3; i++) {
		fds[i] = socket(AF_INET, SOCK_STREAM, 0);
		assert_true(fds[i] >= 0);
		assert_int_equal(connect(fds[i], (struct sockaddr *)&in, sizeof(in)), 0);
	}
	assert_int_equal(write(fds[1], noise, sizeof(noise)), sizeof(noise));
	assert_int_equal(write(fds[2], truncated, sizeof(truncated)), sizeof(truncated));
	connect_to(client, DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", t.port);
	WAIT_FOR(client->events[EV_ESTABLISHED] == 1 && server->events[EV_ESTABLISHED] == 1);
	assert_int_equal(server->events[EV_REQUEST], 1);
	for (int i = 0; i < 3; i++)
		close(fds[i]);
}

/* Whether the server hung up on a peer (end of stream, or reset). */
static bool hung_up(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char byte;

	return poll(&p, 1, 0) == 1 && recv(fd, &byte, 1, MSG_DONTWAIT) <= 0;
}

/* Peers that connect and say nothing, and more peers that send part of a
 * handshake and stop than a worker keeps waiting (64 where the process may
 * open 512 files): a real client still connects; the oldest partial peer
 * makes room at once, and none of them is kept past the 2 s deadline. The
 * silent ones wait in the kernel (TCP_DEFER_ACCEPT), never here. */
static void silent_flood(void **state)
{
	enum { SILENT = 8, PARTIAL = 64 + 8 };
	struct side *server = side_start(MAX_CONNS), *client = side_start(1);
	struct sockaddr_in in = { .sin_family = AF_INET,
		                  .sin_port = htons(t.port),
		                  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct rlimit saved, few;
	int fds[SILENT + PARTIAL], gone = 0;
	uint64_t start = now_ns(), evicted_ms;

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &saved), 0);
	few = saved;
	few.rlim_cur = 512;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &few), 0);
	assert_doca_ok(doca_rdma_start_listen_to_port(server->rdma, t.port));
	for (int i = 0; i < SILENT + PARTIAL; i++) {
		fds[i] = socket(AF_INET, SOCK_STREAM, 0);
		assert_true(fds[i] >= 0);
		assert_int_equal(connect(fds[i], (struct sockaddr *)&in, sizeof(in)), 0);
		if (i >= SILENT)
			assert_int_equal(write(fds[i], "SDCM", 4), 4);
	}
	connect_to(client, DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", t.port);
	WAIT_FOR(client->events[EV_ESTABLISHED] == 1 && server->events[EV_ESTABLISHED] == 1);
	assert_int_equal(server->events[EV_REQUEST], 1);
	/* Made room for: before any deadline. */
	WAIT_FOR(hung_up(fds[SILENT]));
	evicted_ms = (now_ns() - start) / 1000000;
	/* The rest go at their deadline, with the server's progress only. */
	for (int i = SILENT; i < SILENT + PARTIAL; i++) {
		WAIT_FOR(hung_up(fds[i]));
		gone++;
	}
	print_message("oldest partial peer dropped after %llu ms, all %d after %llu ms\n",
	              (unsigned long long)evicted_ms, gone,
	              (unsigned long long)((now_ns() - start) / 1000000));
	assert_true(evicted_ms < 2000);
	assert_int_equal(gone, PARTIAL);
	for (int i = 0; i < SILENT + PARTIAL; i++)
		close(fds[i]);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &saved), 0);
}

/* An IPv4 address of this host that is not loopback, or false. */
static bool other_address(struct in_addr *out)
{
	struct ifaddrs *list;
	bool found = false;

	assert_int_equal(getifaddrs(&list), 0);
	for (struct ifaddrs *ifa = list; ifa && !found; ifa = ifa->ifa_next)
		if (ifa->ifa_addr && ifa->ifa_addr->sa_family == AF_INET &&
		    (ifa->ifa_flags & IFF_UP) && !(ifa->ifa_flags & IFF_LOOPBACK)) {
			*out = ((struct sockaddr_in *)(void *)ifa->ifa_addr)->sin_addr;
			found = true;
		}
	freeifaddrs(list);
	return found;
}

/* Whether a TCP connection to addr:port is taken. */
static bool reachable(struct in_addr addr, uint16_t port)
{
	struct sockaddr_in in = { .sin_family = AF_INET,
		                  .sin_port = htons(port),
		                  .sin_addr = addr };
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	bool ok;

	assert_true(fd >= 0);
	ok = connect(fd, (struct sockaddr *)&in, sizeof(in)) == 0;
	close(fd);
	return ok;
}

/* The listener takes the device's addresses (the loopback device's:
 * 127.0.0.1 and ::1), not another interface's; SOFTDOCA_CM_LISTEN=any
 * takes every address of the host. */
static void bound_to_device(void **state)
{
	struct side *server = side_start(MAX_CONNS);
	struct in_addr loopback = { htonl(INADDR_LOOPBACK) }, other;

	(void)state;
	if (!other_address(&other)) {
		print_message("no non-loopback IPv4 address here: only 127.0.0.1 is checked\n");
		other.s_addr = 0;
	}
	assert_doca_ok(doca_rdma_start_listen_to_port(server->rdma, t.port));
	assert_true(reachable(loopback, t.port));
	if (other.s_addr)
		assert_false(reachable(other, t.port));
	assert_doca_ok(doca_rdma_stop_listen_to_port(server->rdma, t.port));
	setenv("SOFTDOCA_CM_LISTEN", "any", 1);
	assert_doca_ok(doca_rdma_start_listen_to_port(server->rdma, t.port));
	unsetenv("SOFTDOCA_CM_LISTEN");
	assert_true(reachable(loopback, t.port));
	if (other.s_addr)
		assert_true(reachable(other, t.port));
	/* The raw connections above said nothing: none became a request. */
	assert_int_equal(server->events[EV_REQUEST], 0);
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;

	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* Connect, establish, disconnect, hear it: cycles, without growth. */
static void cycles(void **state)
{
	struct side *server = side_start(1), *client = side_start(1);
	int fds = 0, threads = 0;
	size_t heap = 0;
	const int warm = 50, total = 1000;

	(void)state;
	assert_doca_ok(doca_rdma_start_listen_to_port(server->rdma, t.port));
	for (int i = 0; i < total; i++) {
		connect_to(client, DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", t.port);
		WAIT_FOR(client->events[EV_ESTABLISHED] == i + 1 &&
		         server->events[EV_ESTABLISHED] == i + 1);
		assert_doca_ok(
		        doca_rdma_connection_disconnect(i % 2 ? client->last : server->last));
		WAIT_FOR(client->events[EV_DISCONNECT] == i + 1 &&
		         server->events[EV_DISCONNECT] == i + 1);
		server->num_conns = 0;
		if (i == warm) {
			fds = count_entries("/proc/self/fd");
			threads = count_entries("/proc/self/task");
			heap = mallinfo2().uordblks;
		}
	}
	print_message("after %d cycles: fds %d -> %d, threads %d -> %d, heap %zu -> %zu bytes\n",
	              total - warm, fds, count_entries("/proc/self/fd"), threads,
	              count_entries("/proc/self/task"), heap, mallinfo2().uordblks);
	if (count_entries("/proc/self/fd") > fds)
		system("ss -tanp | grep test_cm | awk '{print $1, $4, $5}' | sort | uniq -c | sort "
		       "-rn | head; ss -tanp | grep test_cm | head -4");
	/* No growth: the count at cycle 50 may include a socket still closing
	 * (one fewer at the end is no leak), and the last cycle's may still be
	 * closing now: progress until it is gone (a leak never goes). */
	WAIT_FOR(count_entries("/proc/self/fd") <= fds);
	assert_int_equal(count_entries("/proc/self/task"), threads);
	/* The heap may wobble by what UCX keeps in its pools, not by a leak per
	 * cycle (950 cycles x even 100 bytes would be 95 KB). */
	assert_true(mallinfo2().uordblks < heap + 64 * 1024);
	assert_int_equal(client->events[EV_FAILURE] + server->events[EV_FAILURE], 0);
}

int main(void)
{
#define CASE(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
#define CASES                                                                       \
	CASE(life_ipv4), CASE(life_ipv6), CASE(server_disconnects), CASE(rejected), \
	        CASE(nobody_listens), CASE(full), CASE(one_goes_down), CASE(cycles)
	const struct CMUnitTest fake[] = { CASES, CASE(listener_errors), CASE(needs_callbacks),
		                           CASE(max_connections_cap) };
	const struct CMUnitTest shm[] = { CASES, CASE(hostile_bytes), CASE(silent_flood),
		                          CASE(bound_to_device) };
	const struct CMUnitTest tcp[] = { CASES, CASE(hostile_bytes), CASE(silent_flood),
		                          CASE(bound_to_device) };
	int failed = 0;

	setenv("SOFTDOCA_DEVICES", "lo", 1);
	failed += cmocka_run_group_tests_name("fake transport", fake, fake_xport_group_use_fake,
	                                      NULL);
	failed += cmocka_run_group_tests_name("UCX, shared memory", shm, fake_xport_group_use_shm,
	                                      NULL);
	failed += cmocka_run_group_tests_name("UCX, TCP", tcp, fake_xport_group_use_tcp, NULL);
	return failed;
}
