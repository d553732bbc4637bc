/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Connection set-up through DOCA's RDMA-CM style calls (issue 19): the
 * measurement of bench/ucx_cm_setup.c, written against the DOCA API only
 * (a DOCA program; softdoca is the library it links).
 *
 * The server: a doca_rdma context with the connection state callbacks,
 * started, then doca_rdma_start_listen_to_port(). Each connection request is
 * accepted in its callback (doca_rdma_connection_accept(conn, NULL, 0)); once
 * established the server posts a receive, and answers the message it brings
 * with a small send on that connection. When the peer disconnects, the
 * disconnection callback calls doca_rdma_connection_disconnect() again (DOCA
 * programs do; it must be harmless).
 *
 * The client, N times after a few warm-up rounds: doca_rdma_connect_to_addr()
 * to the server's address; once established, posts a receive and sends a
 * small message on the connection. Timed: from doca_rdma_connect_to_addr to
 * the receive completion of the server's answer - the connection carried a
 * message each way. Then doca_rdma_connection_disconnect() and the wait for
 * the disconnection callback (untimed).
 *
 * Both sides sleep on the progress engine's notification handle between
 * events (doca_pe_request_notification + poll), as ucx_cm_setup sleeps on
 * the UCX worker's; -b makes them busy-poll doca_pe_progress instead.
 * The device and transport are chosen as softdoca-perf chooses them: -d
 * names the device (lo), -x sets SOFTDOCA_TRANSPORT (shm or tcp).
 *
 * Exits with 3 when a DOCA call reports DOCA_ERROR_NOT_SUPPORTED (softdoca
 * without RDMA-CM connections): bench/cm_setup.sh then skips this half.
 *
 *   doca_cm_setup -s [-x shm|tcp] [-p PORT]                     server
 *   doca_cm_setup [-x shm|tcp] [-p PORT] [-n N] [-w W] [-b] ADDR   client
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>

#include "cm_common.h"

#define EXIT_NOT_SUPPORTED 3
#define MSG_SIZE 64      /* a receive slot; the messages are 8 bytes */
#define SERVER_SLOTS 256 /* receive and answer buffers in flight (server) */
#define TASKS 64         /* per task type */

static const char *prog = "doca_cm_setup";

/* Reports a failed call by its function's name (what precedes its "("). */
static void fail(const char *call, doca_error_t st)
{
	fprintf(stderr, "%s: %.*s: %s (%s)\n", prog, (int)strcspn(call, "("), call,
	        doca_error_get_descr(st), doca_error_get_name(st));
	if (st == DOCA_ERROR_NOT_SUPPORTED) {
		fprintf(stderr, "%s: this DOCA library has no RDMA-CM style connections\n", prog);
		exit(EXIT_NOT_SUPPORTED);
	}
	exit(1);
}

#define CHECK(call)                        \
	do {                               \
		doca_error_t st_ = (call); \
		if (st_ != DOCA_SUCCESS)   \
			fail(#call, st_);  \
	} while (0)

/* The DOCA objects of one side. */
struct side {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_rdma *rdma;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
	uint8_t *mem;
	size_t mem_len;
	doca_notification_handle_t pe_fd;
	bool event;
};

/* ---------------------------------------------------------------- */
/* common                                                             */
/* ---------------------------------------------------------------- */

static void open_device(struct side *s, const char *name)
{
	struct doca_devinfo **list;
	uint32_t n;

	CHECK(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && !s->dev; i++) {
		char iface[DOCA_DEVINFO_IFACE_NAME_SIZE], ibdev[DOCA_DEVINFO_IBDEV_NAME_SIZE];

		CHECK(doca_devinfo_get_iface_name(list[i], iface, sizeof(iface)));
		CHECK(doca_devinfo_get_ibdev_name(list[i], ibdev, sizeof(ibdev)));
		if (strcmp(iface, name) == 0 || strcmp(ibdev, name) == 0)
			CHECK(doca_dev_open(list[i], &s->dev));
	}
	CHECK(doca_devinfo_destroy_list(list));
	if (!s->dev)
		DIE("no device named '%s' (softdoca-info lists them)", name);
}

/* Room for the connections: one at a time here, but a disconnected one may
 * hold its slot a while (softdoca reuses a slot behind 64 other free ones). */
#define MAX_CONNECTIONS 1024

static void wait_running(struct side *s)
{
	enum doca_ctx_states state;
	uint64_t deadline = cm_now_ns() + 10000000000ull;

	do {
		doca_pe_progress(s->pe);
		CHECK(doca_ctx_get_state(doca_rdma_as_ctx(s->rdma), &state));
		if (cm_now_ns() > deadline)
			DIE("the context did not start within 10 s");
	} while (state != DOCA_CTX_STATE_RUNNING);
}

/* Progresses until done(arg) or the deadline (false). Without -b, sleeps on
 * the progress engine's notification handle between events. */
static bool wait_for(struct side *s, uint64_t deadline, bool (*done)(void *), void *arg)
{
	for (;;) {
		uint64_t now;

		while (doca_pe_progress(s->pe))
			;
		if (done(arg))
			return true;
		now = cm_now_ns();
		if (now >= deadline)
			return false;
		if (s->event) {
			struct pollfd p = { .fd = s->pe_fd, .events = POLLIN };
			int ms = (int)((deadline - now) / 1000000u) + 1;

			CHECK(doca_pe_request_notification(s->pe));
			if (poll(&p, 1, ms) < 0 && errno != EINTR)
				DIE("poll: %s", strerror(errno));
			CHECK(doca_pe_clear_notification(s->pe, s->pe_fd));
		}
	}
}

/* Device, memory for the messages, progress engine and RDMA context (not
 * started): the caller sets the callbacks and the task pools. */
static void side_open(struct side *s, const struct cm_opts *o, size_t mem_len)
{
	*s = (struct side){ .event = !o->busy, .mem_len = mem_len };
	if (o->transport && setenv("SOFTDOCA_TRANSPORT", o->transport, 1) != 0)
		DIE("setenv: %s", strerror(errno));
	open_device(s, o->device);
	s->mem = mmap(NULL, mem_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s->mem == MAP_FAILED)
		DIE("cannot map %zu bytes", mem_len);
	CHECK(doca_mmap_create(&s->mmap));
	CHECK(doca_mmap_set_memrange(s->mmap, s->mem, mem_len));
	CHECK(doca_mmap_set_permissions(s->mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	CHECK(doca_mmap_add_dev(s->mmap, s->dev));
	CHECK(doca_mmap_start(s->mmap));
	CHECK(doca_buf_inventory_create(2 * SERVER_SLOTS + 16, &s->inv));
	CHECK(doca_buf_inventory_start(s->inv));
	CHECK(doca_pe_create(&s->pe));
	CHECK(doca_pe_get_notification_handle(s->pe, &s->pe_fd));
	CHECK(doca_rdma_create(s->dev, &s->rdma));
	CHECK(doca_rdma_set_permissions(s->rdma, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
}

static void side_start(struct side *s, void *user)
{
	CHECK(doca_ctx_set_user_data(doca_rdma_as_ctx(s->rdma), (union doca_data){ .ptr = user }));
	CHECK(doca_pe_connect_ctx(s->pe, doca_rdma_as_ctx(s->rdma)));
	CHECK(doca_ctx_start(doca_rdma_as_ctx(s->rdma)));
	wait_running(s);
}

static bool ctx_idle(void *arg)
{
	struct side *s = arg;
	enum doca_ctx_states state;

	CHECK(doca_ctx_get_state(doca_rdma_as_ctx(s->rdma), &state));
	return state == DOCA_CTX_STATE_IDLE;
}

static void side_close(struct side *s)
{
	doca_error_t st = doca_ctx_stop(doca_rdma_as_ctx(s->rdma));

	if (st != DOCA_SUCCESS && st != DOCA_ERROR_IN_PROGRESS)
		fail("doca_ctx_stop", st);
	if (!wait_for(s, cm_now_ns() + 10000000000ull, ctx_idle, s))
		DIE("the context did not stop within 10 s");
	CHECK(doca_rdma_destroy(s->rdma));
	CHECK(doca_pe_destroy(s->pe));
	CHECK(doca_buf_inventory_stop(s->inv));
	CHECK(doca_buf_inventory_destroy(s->inv));
	CHECK(doca_mmap_stop(s->mmap));
	CHECK(doca_mmap_destroy(s->mmap));
	CHECK(doca_dev_close(s->dev));
	munmap(s->mem, s->mem_len);
}

static struct doca_buf *buf_for_receive(struct side *s, uint8_t *addr)
{
	struct doca_buf *b;

	CHECK(doca_buf_inventory_buf_get_by_addr(s->inv, s->mmap, addr, MSG_SIZE, &b));
	return b;
}

static struct doca_buf *buf_to_send(struct side *s, uint8_t *addr, size_t len)
{
	struct doca_buf *b;

	CHECK(doca_buf_inventory_buf_get_by_data(s->inv, s->mmap, addr, len, &b));
	return b;
}

static void post_receive(struct side *s, struct doca_buf *b, void *user)
{
	struct doca_rdma_task_receive *t;

	CHECK(doca_rdma_task_receive_allocate_init(s->rdma, b, (union doca_data){ .ptr = user },
	                                           &t));
	CHECK(doca_task_submit(doca_rdma_task_receive_as_task(t)));
}

static void post_send(struct side *s, struct doca_rdma_connection *conn, struct doca_buf *b,
                      void *user)
{
	struct doca_rdma_task_send *t;

	CHECK(doca_rdma_task_send_allocate_init(s->rdma, conn, b, (union doca_data){ .ptr = user },
	                                        &t));
	CHECK(doca_task_submit(doca_rdma_task_send_as_task(t)));
}

/* The ping a finished receive brought (exits if it is not one). */
static struct ping received_ping(struct doca_rdma_task_receive *t)
{
	struct ping p;
	void *data;

	if (doca_rdma_task_receive_get_result_len(t) != sizeof(p))
		DIE("a message of %u bytes", doca_rdma_task_receive_get_result_len(t));
	CHECK(doca_buf_get_data(doca_rdma_task_receive_get_dst_buf(t), &data));
	memcpy(&p, data, sizeof(p));
	return p;
}

/* ---------------------------------------------------------------- */
/* server                                                             */
/* ---------------------------------------------------------------- */

struct server;

/* One accepted connection. */
struct sconn {
	struct doca_rdma_connection *conn;
	uint32_t flags; /* of the ping it carried */
};

/* A message buffer of the server: a receive, then its answer. */
struct slot {
	uint8_t *mem;
	bool busy;
};

struct server {
	struct side side;
	struct slot slots[SERVER_SLOTS];
	uint64_t last_event;
	bool finished; /* the last round's connection is disconnected */
	/* what the run saw */
	uint64_t requests, established, failures, pings, disconnects, redisconnect_errors,
	        task_errors;
	doca_error_t first_redisconnect_error, first_task_error;
	int fds_start;
	long rss_start;
};

static struct server *the_server(union doca_data ctx_user_data)
{
	return ctx_user_data.ptr;
}

static struct slot *slot_get(struct server *s)
{
	for (int i = 0; i < SERVER_SLOTS; i++)
		if (!s->slots[i].busy) {
			s->slots[i].busy = true;
			return &s->slots[i];
		}
	DIE("more than %d messages in flight", SERVER_SLOTS);
}

static void count_task_error(struct server *s, doca_error_t st)
{
	if (s->task_errors++ == 0)
		s->first_task_error = st;
}

static void server_request(struct doca_rdma_connection *conn, union doca_data ctx_user_data)
{
	struct server *s = the_server(ctx_user_data);
	struct sconn *c = calloc(1, sizeof(*c));

	if (!c)
		DIE("out of memory");
	c->conn = conn;
	CHECK(doca_rdma_connection_set_user_data(conn, (union doca_data){ .ptr = c }));
	CHECK(doca_rdma_connection_accept(conn, NULL, 0));
	s->requests++;
	s->last_event = cm_now_ns();
}

static void server_established(struct doca_rdma_connection *conn, union doca_data conn_user_data,
                               union doca_data ctx_user_data)
{
	struct server *s = the_server(ctx_user_data);
	struct slot *slot = slot_get(s);

	(void)conn;
	(void)conn_user_data;
	post_receive(&s->side, buf_for_receive(&s->side, slot->mem), slot);
	s->established++;
	s->last_event = cm_now_ns();
}

static void server_failure(struct doca_rdma_connection *conn, union doca_data conn_user_data,
                           union doca_data ctx_user_data)
{
	struct server *s = the_server(ctx_user_data);

	s->failures++;
	free(conn_user_data.ptr);
	/* in case a disconnection follows */
	CHECK(doca_rdma_connection_set_user_data(conn, (union doca_data){ .ptr = NULL }));
	s->last_event = cm_now_ns();
}

static void server_disconnected(struct doca_rdma_connection *conn, union doca_data conn_user_data,
                                union doca_data ctx_user_data)
{
	struct server *s = the_server(ctx_user_data);
	struct sconn *c = conn_user_data.ptr;
	/* DOCA programs disconnect again from this callback: it must be harmless. */
	doca_error_t st = doca_rdma_connection_disconnect(conn);

	if (st != DOCA_SUCCESS && s->redisconnect_errors++ == 0)
		s->first_redisconnect_error = st;
	s->disconnects++;
	if (c && (c->flags & PING_WARM_LAST)) {
		s->fds_start = cm_fd_count();
		s->rss_start = cm_rss_kib();
	}
	if (c && (c->flags & PING_LAST))
		s->finished = true;
	free(c);
	s->last_event = cm_now_ns();
}

static void server_received(struct doca_rdma_task_receive *t, union doca_data task_user_data,
                            union doca_data ctx_user_data)
{
	struct server *s = the_server(ctx_user_data);
	struct slot *slot = task_user_data.ptr;
	struct doca_buf *b = doca_rdma_task_receive_get_dst_buf(t);
	const struct doca_rdma_connection *conn =
	        doca_rdma_task_receive_get_result_rdma_connection(t);
	struct ping ping = received_ping(t);
	union doca_data ud;
	struct sconn *c;

	doca_task_free(doca_rdma_task_receive_as_task(t));
	CHECK(doca_buf_dec_refcount(b, NULL));
	CHECK(doca_rdma_connection_get_user_data(conn, &ud));
	c = ud.ptr;
	if (!c)
		DIE("a message on a connection the server did not accept");
	c->flags |= ping.flags;
	/* The answer leaves from the receive's slot: it holds the ping already. */
	post_send(&s->side, c->conn, buf_to_send(&s->side, slot->mem, sizeof(ping)), slot);
	s->pings++;
	s->last_event = cm_now_ns();
}

static void server_receive_error(struct doca_rdma_task_receive *t, union doca_data task_user_data,
                                 union doca_data ctx_user_data)
{
	struct server *s = the_server(ctx_user_data);
	struct slot *slot = task_user_data.ptr;
	struct doca_buf *b = doca_rdma_task_receive_get_dst_buf(t);

	count_task_error(s, doca_task_get_status(doca_rdma_task_receive_as_task(t)));
	doca_task_free(doca_rdma_task_receive_as_task(t));
	CHECK(doca_buf_dec_refcount(b, NULL));
	slot->busy = false;
}

static void server_sent(struct doca_rdma_task_send *t, union doca_data task_user_data,
                        union doca_data ctx_user_data)
{
	struct server *s = the_server(ctx_user_data);
	struct slot *slot = task_user_data.ptr;
	struct doca_task *task = doca_rdma_task_send_as_task(t);
	doca_error_t st = doca_task_get_status(task);

	if (st != DOCA_SUCCESS)
		count_task_error(s, st);
	CHECK(doca_buf_dec_refcount((struct doca_buf *)doca_rdma_task_send_get_src_buf(t), NULL));
	doca_task_free(task);
	slot->busy = false;
}

static bool server_done(void *arg)
{
	struct server *s = arg;

	return s->finished;
}

static int run_server(const struct cm_opts *o)
{
	struct server *s = calloc(1, sizeof(*s));
	uint64_t timeout_ns = (uint64_t)(o->timeout_s * 1e9);

	if (!s)
		DIE("out of memory");
	side_open(&s->side, o, SERVER_SLOTS * MSG_SIZE);
	for (int i = 0; i < SERVER_SLOTS; i++)
		s->slots[i] = (struct slot){ .mem = s->side.mem + i * MSG_SIZE };
	CHECK(doca_rdma_set_connection_state_callbacks(s->side.rdma, server_request,
	                                               server_established, server_failure,
	                                               server_disconnected));
	CHECK(doca_rdma_set_max_num_connections(s->side.rdma, MAX_CONNECTIONS));
	CHECK(doca_rdma_task_receive_set_conf(s->side.rdma, server_received, server_receive_error,
	                                      TASKS));
	CHECK(doca_rdma_task_send_set_conf(s->side.rdma, server_sent, server_sent, TASKS));
	side_start(&s->side, s);
	CHECK(doca_rdma_start_listen_to_port(s->side.rdma, o->port));
	s->fds_start = cm_fd_count();
	s->rss_start = cm_rss_kib();
	printf("%s: listening on port %u (transport %s), waiting for a client\n", prog, o->port,
	       o->transport ? o->transport : "auto");
	fflush(stdout);
	/* Until the client's last connection is gone, or an idle spell too long. */
	s->last_event = cm_now_ns();
	while (!wait_for(&s->side, s->last_event + timeout_ns, server_done, s))
		if (cm_now_ns() - s->last_event >= timeout_ns)
			break;
	if (!s->finished)
		DIE("no client activity for %.0f s (%llu connection requests)", o->timeout_s,
		    (unsigned long long)s->requests);
	cm_print_resources("server", s->fds_start, cm_fd_count(), s->rss_start, cm_rss_kib());
	printf("server: %llu requests, %llu established, %llu failed, %llu answered, "
	       "%llu disconnected",
	       (unsigned long long)s->requests, (unsigned long long)s->established,
	       (unsigned long long)s->failures, (unsigned long long)s->pings,
	       (unsigned long long)s->disconnects);
	if (s->redisconnect_errors)
		printf(", disconnect from the callback failed %llu times (first: %s)",
		       (unsigned long long)s->redisconnect_errors,
		       doca_error_get_name(s->first_redisconnect_error));
	if (s->task_errors)
		printf(", %llu tasks failed (first: %s)", (unsigned long long)s->task_errors,
		       doca_error_get_name(s->first_task_error));
	printf("\n");
	CHECK(doca_rdma_stop_listen_to_port(s->side.rdma, o->port));
	side_close(&s->side);
	free(s);
	return 0;
}

/* ---------------------------------------------------------------- */
/* client                                                             */
/* ---------------------------------------------------------------- */

struct client {
	struct side side;
	uint32_t round;
	struct doca_rdma_connection *conn; /* the round's, once established */
	struct doca_buf *recv_buf;
	bool answered, failed, disconnected;
	doca_error_t task_error;
	struct ping ping; /* what this round sends (copied to the send buffer) */
};

static struct client *the_client(union doca_data ctx_user_data)
{
	return ctx_user_data.ptr;
}

static void client_request(struct doca_rdma_connection *conn, union doca_data ctx_user_data)
{
	(void)ctx_user_data;
	CHECK(doca_rdma_connection_reject(conn)); /* the client does not listen */
}

static void client_established(struct doca_rdma_connection *conn, union doca_data conn_user_data,
                               union doca_data ctx_user_data)
{
	struct client *c = the_client(ctx_user_data);
	uint8_t *out = c->side.mem + MSG_SIZE;

	if (conn_user_data.u64 != c->round)
		DIE("round %u: round %llu's connection established", c->round,
		    (unsigned long long)conn_user_data.u64);
	c->conn = conn;
	CHECK(doca_buf_reset_data_len(c->recv_buf));
	post_receive(&c->side, c->recv_buf, c);
	memcpy(out, &c->ping, sizeof(c->ping));
	post_send(&c->side, conn, buf_to_send(&c->side, out, sizeof(c->ping)), c);
}

static void client_failure(struct doca_rdma_connection *conn, union doca_data conn_user_data,
                           union doca_data ctx_user_data)
{
	struct client *c = the_client(ctx_user_data);

	(void)conn;
	if (conn_user_data.u64 == c->round)
		c->failed = true;
}

static void client_disconnected(struct doca_rdma_connection *conn, union doca_data conn_user_data,
                                union doca_data ctx_user_data)
{
	struct client *c = the_client(ctx_user_data);

	(void)conn;
	if (conn_user_data.u64 == c->round)
		c->disconnected = true;
}

static void client_received(struct doca_rdma_task_receive *t, union doca_data task_user_data,
                            union doca_data ctx_user_data)
{
	struct client *c = the_client(ctx_user_data);
	struct ping pong = received_ping(t);

	(void)task_user_data;
	if (doca_rdma_task_receive_get_result_rdma_connection(t) != c->conn)
		DIE("round %u: the answer came on another connection", c->round);
	if (pong.round != c->round)
		DIE("round %u: the answer of round %u", c->round, pong.round);
	doca_task_free(doca_rdma_task_receive_as_task(t));
	c->answered = true;
}

static void client_receive_error(struct doca_rdma_task_receive *t, union doca_data task_user_data,
                                 union doca_data ctx_user_data)
{
	struct client *c = the_client(ctx_user_data);

	(void)task_user_data;
	if (c->task_error == DOCA_SUCCESS)
		c->task_error = doca_task_get_status(doca_rdma_task_receive_as_task(t));
	doca_task_free(doca_rdma_task_receive_as_task(t));
}

static void client_sent(struct doca_rdma_task_send *t, union doca_data task_user_data,
                        union doca_data ctx_user_data)
{
	struct client *c = the_client(ctx_user_data);
	struct doca_task *task = doca_rdma_task_send_as_task(t);
	doca_error_t st = doca_task_get_status(task);

	(void)task_user_data;
	if (st != DOCA_SUCCESS && c->task_error == DOCA_SUCCESS)
		c->task_error = st;
	CHECK(doca_buf_dec_refcount((struct doca_buf *)doca_rdma_task_send_get_src_buf(t), NULL));
	doca_task_free(task);
}

static bool answered_or_failed(void *arg)
{
	struct client *c = arg;

	return c->answered || c->failed || c->task_error != DOCA_SUCCESS;
}

static bool disconnected(void *arg)
{
	struct client *c = arg;

	return c->disconnected || c->failed;
}

static int run_client(const struct cm_opts *o)
{
	struct client *c = calloc(1, sizeof(*c));
	uint64_t timeout_ns = (uint64_t)(o->timeout_s * 1e9);
	uint32_t total = o->warmup + o->iters;
	struct doca_rdma_addr *addr;
	struct cm_stats stats;
	uint32_t failed_disconnects = 0;

	if (!c || cm_stats_init(&stats, o->iters) != 0)
		DIE("out of memory");
	side_open(&c->side, o, 2 * MSG_SIZE);
	c->recv_buf = buf_for_receive(&c->side, c->side.mem);
	CHECK(doca_rdma_set_connection_state_callbacks(c->side.rdma, client_request,
	                                               client_established, client_failure,
	                                               client_disconnected));
	CHECK(doca_rdma_set_max_num_connections(c->side.rdma, MAX_CONNECTIONS));
	CHECK(doca_rdma_task_receive_set_conf(c->side.rdma, client_received, client_receive_error,
	                                      TASKS));
	CHECK(doca_rdma_task_send_set_conf(c->side.rdma, client_sent, client_sent, TASKS));
	side_start(&c->side, c);
	CHECK(doca_rdma_addr_create(strchr(o->addr, ':') ? DOCA_RDMA_ADDR_TYPE_IPv6
	                                                 : DOCA_RDMA_ADDR_TYPE_IPv4,
	                            o->addr, o->port, &addr));
	if (o->warmup == 0)
		cm_stats_mark_start(&stats);
	for (uint32_t r = 0; r < total; r++) {
		uint64_t t0, t1;
		bool ok;

		c->ping = (struct ping){ .round = r };
		if (r + 1 == total)
			c->ping.flags |= PING_LAST;
		if (r + 1 == o->warmup)
			c->ping.flags |= PING_WARM_LAST;
		c->round = r;
		c->conn = NULL;
		c->answered = c->failed = c->disconnected = false;
		c->task_error = DOCA_SUCCESS;
		t0 = cm_now_ns();
		CHECK(doca_rdma_connect_to_addr(c->side.rdma, addr, (union doca_data){ .u64 = r }));
		ok = wait_for(&c->side, t0 + timeout_ns, answered_or_failed, c);
		t1 = cm_now_ns();
		if (!ok)
			DIE("round %u: no answer within %.1f s (%s)", r, o->timeout_s,
			    c->conn ? "connected" : "not connected");
		if (c->failed)
			DIE("round %u: the connection failed", r);
		if (c->task_error != DOCA_SUCCESS)
			fail("a task of the round", c->task_error);
		if (r >= o->warmup)
			stats.ns[r - o->warmup] = t1 - t0;
		CHECK(doca_rdma_connection_disconnect(c->conn));
		if (!wait_for(&c->side, cm_now_ns() + timeout_ns, disconnected, c))
			DIE("round %u: no disconnection callback within %.1f s", r, o->timeout_s);
		if (c->failed)
			failed_disconnects++;
		if (r + 1 == o->warmup)
			cm_stats_mark_start(&stats);
	}
	cm_stats_mark_end(&stats);
	{
		char what[256];

		snprintf(
		        what, sizeof(what),
		        "doca_cm_setup: %u connections after %u warm-up, transport %s, %s port %u, "
		        "%s waits",
		        o->iters, o->warmup, o->transport ? o->transport : "auto", o->addr, o->port,
		        o->busy ? "busy-polling" : "event-fd");
		cm_stats_print(&stats, what);
	}
	printf("client: %u of %u disconnects ended in the failure callback\n", failed_disconnects,
	       total);
	cm_stats_free(&stats);
	CHECK(doca_rdma_addr_destroy(addr));
	CHECK(doca_buf_dec_refcount(c->recv_buf, NULL));
	side_close(&c->side);
	free(c);
	return 0;
}

int main(int argc, char **argv)
{
	struct cm_opts o;
	int rc = cm_parse(argc, argv, &o, true);

	if (rc)
		return rc < 0 ? 0 : rc;
	return o.server ? run_server(&o) : run_client(&o);
}
