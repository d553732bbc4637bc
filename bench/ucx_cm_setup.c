/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Connection set-up through UCX's own listener, the raw-UCX baseline of
 * bench/doca_cm_setup.c (issue 19). No softdoca code.
 *
 * The server makes a ucp_listener on a TCP port and accepts every connection
 * request at once, in the listener's callback (ucp_ep_create from the
 * request). The client, N times after a few warm-up rounds: creates an
 * endpoint to the listener's address (UCP_EP_PARAMS_FLAGS_CLIENT_SERVER),
 * sends one small active message on it, and waits for the server's answer,
 * sent back on the server's endpoint of the connection. Timed: from the
 * start of ucp_ep_create to the answer's arrival - the connection carried a
 * message each way. Then the client closes its endpoint gracefully and waits
 * for the close to finish, the server closes its own when UCX reports the
 * peer gone (neither is timed).
 *
 * Both sides use peer failure handling (UCP_ERR_HANDLING_MODE_PEER), as
 * softdoca's transport does, and so set MM_ERROR_HANDLING=y for shared memory
 * (the user's UCX_MM_ERROR_HANDLING wins). UCX_TLS and UCX_NET_DEVICES come
 * from the environment. UCX 1.13's listener needs a transport on the
 * listening device: for shared memory, UCX_TLS=sm,self,tcp (the messages
 * then go over sysv; -v shows the lanes), not sm,self ("device lo is not
 * enabled", UCS_ERR_UNREACHABLE).
 *
 * Both sides sleep on the worker's event fd between events (ucp_worker_arm +
 * poll), -b makes them busy-poll instead. With one CPU per process, busy
 * polling starves UCX's async thread, which handles the sockets: measured,
 * the median goes from 0.7 ms to 7.9 ms (tcp).
 *
 *   ucx_cm_setup -s [-p PORT] [127.0.0.1|::1]            server
 *   ucx_cm_setup [-p PORT] [-n N] [-w W] [-b] [-v] ADDR    client
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <ucp/api/ucp.h>

#include "cm_common.h"

#define AM_PING 11
#define AM_PONG 12

static const char *prog = "ucx_cm_setup";

#define UCS_CHECK(call)                                               \
	do {                                                          \
		ucs_status_t st_ = (call);                            \
		if (st_ != UCS_OK)                                    \
			DIE("%s: %s", #call, ucs_status_string(st_)); \
	} while (0)

struct ucx {
	ucp_context_h ctx;
	ucp_worker_h worker;
	int efd;
	bool event;
};

/* ---------------------------------------------------------------- */
/* common                                                             */
/* ---------------------------------------------------------------- */

/* UCX_TLS names a shared-memory transport (or all of them, by default). */
static bool uses_shm(const char *tls)
{
	static const char *const names[] = { "sm", "shm", "mm", "posix", "sysv", "all" };
	char list[256], *save, *t;

	if (!tls || !*tls)
		return true;
	snprintf(list, sizeof(list), "%s", tls[0] == '^' ? tls + 1 : tls);
	if (tls[0] == '^')
		return true; /* everything but some */
	for (t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save))
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strcmp(t, names[i]) == 0)
				return true;
	return false;
}

static void ucx_open(struct ucx *u, bool event)
{
	ucp_params_t params = {
		.field_mask = UCP_PARAM_FIELD_FEATURES,
		.features = UCP_FEATURE_AM | UCP_FEATURE_WAKEUP,
	};
	ucp_worker_params_t wparams = {
		.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
		.thread_mode = UCS_THREAD_MODE_SINGLE,
	};
	const char *tls = getenv("UCX_TLS");
	ucp_config_t *config;

	UCS_CHECK(ucp_config_read(NULL, NULL, &config));
	/* Peer failure handling over shared memory needs it (as in softdoca);
	 * UCX warns of it when no shared-memory transport is enabled. */
	if (!getenv("UCX_MM_ERROR_HANDLING") && uses_shm(tls))
		UCS_CHECK(ucp_config_modify(config, "MM_ERROR_HANDLING", "y"));
	/* Each process is pinned to one CPU, which UCX's async thread (it
	 * watches the listener's and the connections' sockets) then shares with
	 * the main thread. With the default spinlock, whichever of the two
	 * waits for the lock spins out its time slice while the holder is not
	 * running: measured, a median of 7.9 ms per connection instead of 0.7
	 * (tcp, event-fd waits). */
	if (!getenv("UCX_USE_MT_MUTEX"))
		UCS_CHECK(ucp_config_modify(config, "USE_MT_MUTEX", "y"));
	/* A server started again on the port within a minute finds the last
	 * run's connections in TIME_WAIT there: without it, bind fails (UCX's
	 * default is n; softdoca's listener sets SO_REUSEADDR). */
	if (!getenv("UCX_CM_REUSEADDR") && !getenv("UCX_TCP_CM_REUSEADDR"))
		UCS_CHECK(ucp_config_modify(config, "CM_REUSEADDR", "y"));
	UCS_CHECK(ucp_config_modify(config, "WARN_UNUSED_ENV_VARS", "n"));
	UCS_CHECK(ucp_init(&params, config, &u->ctx));
	ucp_config_release(config);
	UCS_CHECK(ucp_worker_create(u->ctx, &wparams, &u->worker));
	UCS_CHECK(ucp_worker_get_efd(u->worker, &u->efd));
	u->event = event;
}

static void ucx_close(struct ucx *u)
{
	ucp_worker_destroy(u->worker);
	ucp_cleanup(u->ctx);
}

/* Progresses until done(arg) or the deadline (false). With u->event, sleeps
 * on the worker's event fd between progress calls. */
static bool wait_for(struct ucx *u, uint64_t deadline, bool (*done)(void *), void *arg)
{
	for (;;) {
		uint64_t now;

		while (ucp_worker_progress(u->worker))
			;
		if (done(arg))
			return true;
		now = cm_now_ns();
		if (now >= deadline)
			return false;
		if (u->event) {
			ucs_status_t st = ucp_worker_arm(u->worker);
			struct pollfd p = { .fd = u->efd, .events = POLLIN };
			int ms = (int)((deadline - now) / 1000000u) + 1;

			if (st == UCS_ERR_BUSY)
				continue;
			if (st != UCS_OK)
				DIE("ucp_worker_arm: %s", ucs_status_string(st));
			if (poll(&p, 1, ms) < 0 && errno != EINTR)
				DIE("poll: %s", strerror(errno));
		}
	}
}

static void set_am_handler(struct ucx *u, unsigned id, ucp_am_recv_callback_t cb, void *arg)
{
	ucp_am_handler_param_t p = {
		.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB |
		              UCP_AM_HANDLER_PARAM_FIELD_ARG,
		.id = id,
		.cb = cb,
		.arg = arg,
	};

	UCS_CHECK(ucp_worker_set_am_recv_handler(u->worker, &p));
}

static void send_done(void *request, ucs_status_t status, void *user_data)
{
	(void)status; /* a failed connection shows in its error handler */
	(void)user_data;
	ucp_request_free(request);
}

/* Sends a header-only active message; the request, if any, frees itself on
 * completion. UCX 1.13 has no UCP_AM_SEND_FLAG_COPY_HEADER: the header stays
 * in place until the endpoint is closed (which flushes it). */
static void send_am(ucp_ep_h ep, unsigned id, const struct ping *hdr, uint32_t flags)
{
	ucp_request_param_t p = { .op_attr_mask =
		                          UCP_OP_ATTR_FIELD_FLAGS | UCP_OP_ATTR_FIELD_CALLBACK,
		                  .flags = flags,
		                  .cb.send = send_done };
	ucs_status_ptr_t req = ucp_am_send_nbx(ep, id, hdr, sizeof(*hdr), NULL, 0, &p);

	if (UCS_PTR_IS_ERR(req))
		DIE("ucp_am_send_nbx: %s", ucs_status_string(UCS_PTR_STATUS(req)));
}

static socklen_t make_addr(const char *host, uint16_t port, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (strchr(host, ':')) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

		a->sin6_family = AF_INET6;
		a->sin6_port = htons(port);
		if (inet_pton(AF_INET6, host, &a->sin6_addr) != 1)
			DIE("'%s' is not an IPv6 address", host);
		return sizeof(*a);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)ss;

		a->sin_family = AF_INET;
		a->sin_port = htons(port);
		if (inet_pton(AF_INET, host, &a->sin_addr) != 1)
			DIE("'%s' is not an IPv4 address", host);
		return sizeof(*a);
	}
}

/* ---------------------------------------------------------------- */
/* server                                                             */
/* ---------------------------------------------------------------- */

struct server;

struct conn {
	struct server *server;
	ucp_ep_h ep;
	ucs_status_t gone; /* UCX reported the peer gone (UCS_OK: not yet) */
	bool closing;      /* the close is under way: close_req */
	void *close_req;
	uint32_t flags;   /* of the ping it carried */
	struct ping pong; /* the answer's header, in place until the close */
	struct conn *next;
};

struct server {
	struct ucx u;
	struct conn *conns;
	uint64_t last_event;
	bool finished; /* the last round's connection is closed */
	/* what the run saw */
	uint64_t accepted, pings, reply_ep_unknown, reset, other_errors;
	ucs_status_t first_other;
	struct ping stray_pong; /* the answer on an unknown endpoint (never seen) */
	int fds_start;
	long rss_start;
};

static void server_ep_error(void *arg, ucp_ep_h ep, ucs_status_t status)
{
	struct conn *c = arg;

	(void)ep;
	c->gone = status;
	c->server->last_event = cm_now_ns();
}

static void on_conn_request(ucp_conn_request_h req, void *arg)
{
	struct server *s = arg;
	struct conn *c = calloc(1, sizeof(*c));
	ucp_ep_params_t p = {
		.field_mask = UCP_EP_PARAM_FIELD_CONN_REQUEST | UCP_EP_PARAM_FIELD_ERR_HANDLER |
		              UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE,
		.conn_request = req,
		.err_mode = UCP_ERR_HANDLING_MODE_PEER,
		.err_handler = { .cb = server_ep_error, .arg = c },
	};

	if (!c)
		DIE("out of memory");
	c->server = s;
	UCS_CHECK(ucp_ep_create(s->u.worker, &p, &c->ep));
	c->next = s->conns;
	s->conns = c;
	s->accepted++;
	s->last_event = cm_now_ns();
}

static ucs_status_t on_ping(void *arg, const void *header, size_t header_length, void *data,
                            size_t length, const ucp_am_recv_param_t *param)
{
	struct server *s = arg;
	struct ping ping;
	struct conn *c;

	(void)data;
	(void)length;
	if (header_length != sizeof(ping))
		DIE("a ping of %zu bytes", header_length);
	memcpy(&ping, header, sizeof(ping));
	if (!(param->recv_attr & UCP_AM_RECV_ATTR_FIELD_REPLY_EP))
		DIE("a ping without its reply endpoint");
	for (c = s->conns; c && c->ep != param->reply_ep; c = c->next)
		;
	if (c) {
		c->flags |= ping.flags;
		c->pong = ping;
		send_am(param->reply_ep, AM_PONG, &c->pong, 0);
	} else {
		s->reply_ep_unknown++; /* the answer still goes on the reply endpoint */
		s->stray_pong = ping;
		send_am(param->reply_ep, AM_PONG, &s->stray_pong, 0);
	}
	s->pings++;
	s->last_event = cm_now_ns();
	return UCS_OK;
}

/* A connection whose close finished: counted and freed. */
static void server_closed(struct server *s, struct conn *c)
{
	if (c->gone == UCS_ERR_CONNECTION_RESET)
		s->reset++;
	else if (s->other_errors++ == 0)
		s->first_other = c->gone;
	if (c->flags & PING_WARM_LAST) {
		s->fds_start = cm_fd_count();
		s->rss_start = cm_rss_kib();
	}
	if (c->flags & PING_LAST)
		s->finished = true;
	s->last_event = cm_now_ns();
	free(c);
}

/* Closes the connections whose peer left (forcibly: it is gone); frees the
 * closed ones. */
static void server_reap(struct server *s)
{
	struct conn **link = &s->conns, *c;

	while ((c = *link)) {
		if (c->gone != UCS_OK && !c->closing) {
			ucp_request_param_t p = { .op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
				                  .flags = UCP_EP_CLOSE_FLAG_FORCE };

			c->closing = true;
			c->close_req = ucp_ep_close_nbx(c->ep, &p);
			if (UCS_PTR_IS_ERR(c->close_req))
				DIE("ucp_ep_close_nbx: %s",
				    ucs_status_string(UCS_PTR_STATUS(c->close_req)));
		}
		if (!c->closing ||
		    (c->close_req && ucp_request_check_status(c->close_req) == UCS_INPROGRESS)) {
			link = &c->next;
			continue;
		}
		if (c->close_req)
			ucp_request_free(c->close_req);
		*link = c->next;
		server_closed(s, c);
	}
}

static bool server_done(void *arg)
{
	struct server *s = arg;

	server_reap(s);
	return s->finished;
}

static int run_server(const struct cm_opts *o)
{
	struct server s = { 0 };
	struct sockaddr_storage ss;
	ucp_listener_h listener;
	ucp_listener_params_t lp = {
		.field_mask =
		        UCP_LISTENER_PARAM_FIELD_SOCK_ADDR | UCP_LISTENER_PARAM_FIELD_CONN_HANDLER,
		.conn_handler = { .cb = on_conn_request, .arg = &s },
	};
	uint64_t timeout_ns = (uint64_t)(o->timeout_s * 1e9);

	ucx_open(&s.u, !o->busy);
	set_am_handler(&s.u, AM_PING, on_ping, &s);
	lp.sockaddr.addr = (const struct sockaddr *)&ss;
	lp.sockaddr.addrlen = make_addr(o->addr, o->port, &ss);
	UCS_CHECK(ucp_listener_create(s.u.worker, &lp, &listener));
	s.fds_start = cm_fd_count();
	s.rss_start = cm_rss_kib();
	printf("%s: listening on %s port %u, waiting for a client\n", prog, o->addr, o->port);
	fflush(stdout);
	/* Until the client's last connection is closed, or an idle spell too long. */
	s.last_event = cm_now_ns();
	while (!wait_for(&s.u, s.last_event + timeout_ns, server_done, &s))
		if (cm_now_ns() - s.last_event >= timeout_ns)
			break;
	if (!s.finished)
		DIE("no client activity for %.0f s (accepted %llu)", o->timeout_s,
		    (unsigned long long)s.accepted);
	cm_print_resources("server", s.fds_start, cm_fd_count(), s.rss_start, cm_rss_kib());
	printf("server: %llu accepted, %llu answered, %llu peers gone by reset, %llu by other "
	       "errors",
	       (unsigned long long)s.accepted, (unsigned long long)s.pings,
	       (unsigned long long)s.reset, (unsigned long long)s.other_errors);
	if (s.other_errors)
		printf(" (first: %s)", ucs_status_string(s.first_other));
	printf(", %llu pings on an unknown endpoint\n", (unsigned long long)s.reply_ep_unknown);
	ucp_listener_destroy(listener);
	ucx_close(&s.u);
	return 0;
}

/* ---------------------------------------------------------------- */
/* client                                                             */
/* ---------------------------------------------------------------- */

struct client {
	struct ucx u;
	uint32_t round;
	bool answered;
	bool closing;
	ucs_status_t error; /* UCX reported the endpoint failed (not while closing) */
	void *close_req;
	struct ping ping; /* the round's ping, in place until the close */
	uint32_t close_errors;
	ucs_status_t first_close_error;
};

static void client_ep_error(void *arg, ucp_ep_h ep, ucs_status_t status)
{
	struct client *c = arg;

	(void)ep;
	if (!c->closing && c->error == UCS_OK)
		c->error = status;
}

static ucs_status_t on_pong(void *arg, const void *header, size_t header_length, void *data,
                            size_t length, const ucp_am_recv_param_t *param)
{
	struct client *c = arg;
	struct ping pong;

	(void)data;
	(void)length;
	(void)param;
	if (header_length != sizeof(pong))
		DIE("an answer of %zu bytes", header_length);
	memcpy(&pong, header, sizeof(pong));
	if (pong.round != c->round)
		DIE("round %u: the answer of round %u", c->round, pong.round);
	c->answered = true;
	return UCS_OK;
}

static bool answered_or_failed(void *arg)
{
	struct client *c = arg;

	return c->answered || c->error != UCS_OK;
}

static bool closed(void *arg)
{
	struct client *c = arg;

	return ucp_request_check_status(c->close_req) != UCS_INPROGRESS;
}

static int run_client(const struct cm_opts *o)
{
	struct client c = { 0 };
	struct sockaddr_storage ss;
	ucp_ep_params_t ep_params = {
		.field_mask = UCP_EP_PARAM_FIELD_FLAGS | UCP_EP_PARAM_FIELD_SOCK_ADDR |
		              UCP_EP_PARAM_FIELD_ERR_HANDLER | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE,
		.flags = UCP_EP_PARAMS_FLAGS_CLIENT_SERVER,
		.err_mode = UCP_ERR_HANDLING_MODE_PEER,
		.err_handler = { .cb = client_ep_error, .arg = &c },
	};
	uint64_t timeout_ns = (uint64_t)(o->timeout_s * 1e9);
	uint32_t total = o->warmup + o->iters;
	struct cm_stats stats;

	if (cm_stats_init(&stats, o->iters) != 0)
		DIE("out of memory");
	ucx_open(&c.u, !o->busy);
	set_am_handler(&c.u, AM_PONG, on_pong, &c);
	ep_params.sockaddr.addr = (const struct sockaddr *)&ss;
	ep_params.sockaddr.addrlen = make_addr(o->addr, o->port, &ss);
	if (o->warmup == 0)
		cm_stats_mark_start(&stats);
	for (uint32_t r = 0; r < total; r++) {
		ucp_request_param_t close = { .op_attr_mask = 0 }; /* flush, then close */
		uint64_t t0, t1;
		ucs_status_t st;
		ucp_ep_h ep;
		bool ok;

		c.ping = (struct ping){ .round = r };
		if (r + 1 == total)
			c.ping.flags |= PING_LAST;
		if (r + 1 == o->warmup)
			c.ping.flags |= PING_WARM_LAST;
		c.round = r;
		c.answered = false;
		c.closing = false;
		c.error = UCS_OK;
		t0 = cm_now_ns();
		UCS_CHECK(ucp_ep_create(c.u.worker, &ep_params, &ep));
		send_am(ep, AM_PING, &c.ping, UCP_AM_SEND_FLAG_REPLY);
		ok = wait_for(&c.u, t0 + timeout_ns, answered_or_failed, &c);
		t1 = cm_now_ns();
		if (!ok)
			DIE("round %u: no answer within %.1f s", r, o->timeout_s);
		if (c.error == UCS_ERR_UNREACHABLE)
			DIE("round %u: the endpoint failed: %s (UCX 1.13's listener needs a "
			    "transport on the listening device for the connection: add tcp to "
			    "UCX_TLS, e.g. sm,self,tcp; shared memory still carries the messages)",
			    r, ucs_status_string(c.error));
		if (c.error != UCS_OK)
			DIE("round %u: the endpoint failed: %s", r, ucs_status_string(c.error));
		if (o->verbose && r == o->warmup)
			ucp_ep_print_info(ep, stdout);
		if (r >= o->warmup)
			stats.ns[r - o->warmup] = t1 - t0;
		c.closing = true;
		c.close_req = ucp_ep_close_nbx(ep, &close);
		if (UCS_PTR_IS_ERR(c.close_req))
			DIE("round %u: ucp_ep_close_nbx: %s", r,
			    ucs_status_string(UCS_PTR_STATUS(c.close_req)));
		if (c.close_req) {
			if (!wait_for(&c.u, cm_now_ns() + timeout_ns, closed, &c))
				DIE("round %u: the endpoint did not close within %.1f s", r,
				    o->timeout_s);
			st = ucp_request_check_status(c.close_req);
			if (st != UCS_OK && c.close_errors++ == 0)
				c.first_close_error = st;
			ucp_request_free(c.close_req);
		}
		if (r + 1 == o->warmup)
			cm_stats_mark_start(&stats);
	}
	cm_stats_mark_end(&stats);
	{
		char what[256];
		const char *tls = getenv("UCX_TLS"), *mt = getenv("UCX_USE_MT_MUTEX");

		snprintf(what, sizeof(what),
		         "ucx_cm_setup: %u connections after %u warm-up, UCX_TLS=%s, "
		         "USE_MT_MUTEX=%s, %s port %u, %s waits",
		         o->iters, o->warmup, tls ? tls : "(default)", mt ? mt : "y", o->addr,
		         o->port, o->busy ? "busy-polling" : "event-fd");
		cm_stats_print(&stats, what);
	}
	printf("client: %u of %u graceful closes ended in an error%s%s%s\n", c.close_errors, total,
	       c.close_errors ? " (first: " : "",
	       c.close_errors ? ucs_status_string(c.first_close_error) : "",
	       c.close_errors ? ")" : "");
	cm_stats_free(&stats);
	ucx_close(&c.u);
	return 0;
}

int main(int argc, char **argv)
{
	struct cm_opts o;
	int rc = cm_parse(argc, argv, &o, false);

	if (rc)
		return rc < 0 ? 0 : rc;
	return o.server ? run_server(&o) : run_client(&o);
}
