/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Connection set-up for the UCX instance: a listening TCP socket and a short
 * handshake over it that trades worker addresses; both ends then make their
 * endpoints from those addresses, as out-of-band connections do, and the
 * socket closes. Not UCX's own listener (ucp_listener_create): measured with
 * UCX 1.13.1, its connections need a TCP transport on the listening device
 * for their data lanes, so they cannot be made in shm mode ("device lo is not
 * enabled"), and over IPv6 loopback its server side dials the client's TCP
 * interface, which listens on IPv4 only, at [::1] and fails.
 *
 * UCX's async thread watches the sockets (edge-triggered) and only raises
 * worker->cm_ready and signals the worker's fd, so a sleeping service thread
 * wakes; every socket call and every callback runs in the worker's progress.
 *
 * The handshake, little-endian: the client sends HELLO with its worker
 * address; the server answers ACCEPT with its own, or REJECT.
 *   0 u32 magic "SDCM"  4 u8 version  5 u8 kind  6 u16 zero
 *   8 u32 address length  12 address (HELLO and ACCEPT only)
 */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <ucs/async/async_fwd.h>
#include <ucs/sys/event_set.h>

#include "core/bytes.h"
#include "core/sdk_log.h"
#include "transport/ucx.h"

SDOCA_LOG_MODULE(ucx_cm);

#define HS_MAGIC 0x4d434453u /* "SDCM" */
#define HS_VERSION 1
#define HS_HEADER 12
#define HS_MAX_ADDR 4096
#define MAX_UNANSWERED 64 /* server handshakes not yet handed over, per worker */

enum hs_kind {
	HS_HELLO = 1,
	HS_ACCEPT = 2,
	HS_REJECT = 3,
};

struct ucx_cm_listener {
	struct xport_listener super;
	struct ucx_worker *worker;
	int fd;
	uint16_t port;
	xport_conn_request_fn on_request;
	void *arg;
	struct ucx_cm_listener *next;
};

/* One handshake: a server's (it is the connection request) or a client's. */
struct ucx_cm_conn {
	struct xport_conn_request super;
	struct ucx_worker *worker;
	int fd;
	struct ucx_cm_listener *listener; /* a server's */
	struct ucx_ep *client;            /* a client's */
	bool sent;                        /* a client's HELLO left */
	bool delivered;                   /* a server's request was handed over */
	int error;                        /* a client's connect() failed at once */
	size_t have;
	uint8_t buf[HS_HEADER + HS_MAX_ADDR];
	struct ucx_cm_conn *next;
};

/* What a handshake came to (advance). */
enum outcome {
	PENDING,
	REQUEST, /* a server's: a whole HELLO */
	ANSWER,  /* a client's: a whole ACCEPT or REJECT */
	BROKEN,  /* the peer left, or sent what is not a handshake */
};

/* In UCX's async thread: tells the worker's progress to look. */
static void on_ready(int fd, ucs_event_set_types_t events, void *arg)
{
	struct ucx_worker *w = arg;
	ucp_worker_h ucp;

	(void)fd;
	(void)events;
	/* UCX orders the handler after watch() and before unwatch_close()
	 * returns, where ThreadSanitizer cannot see it: the flag's acquire and
	 * release say so (the load first: TSan checks an atomic write before
	 * the acquire of the same access). */
	(void)atomic_load_explicit(&w->cm_ready, memory_order_acquire);
	ucp = w->ucp;
	atomic_store_explicit(&w->cm_ready, true, memory_order_release);
	ucp_worker_signal(ucp);
}

static doca_error_t watch(struct ucx_worker *w, int fd, ucs_event_set_types_t events)
{
	ucs_status_t st;

	/* Releases the worker to on_ready (and has progress look once). */
	atomic_store_explicit(&w->cm_ready, true, memory_order_release);
	st = ucs_async_set_event_handler(UCS_ASYNC_MODE_THREAD_MUTEX, fd,
	                                 events | UCS_EVENT_SET_EDGE_TRIGGERED, on_ready, w, NULL);

	if (st != UCS_OK)
		SDOCA_FAIL(DOCA_ERROR_OPERATING_SYSTEM, "cannot watch a socket: %s",
		           ucs_status_string(st));
	return DOCA_SUCCESS;
}

static void unwatch_close(struct ucx_worker *w, int fd)
{
	ucs_async_remove_handler(fd, 1); /* waits for a handler running */
	(void)atomic_load_explicit(&w->cm_ready, memory_order_acquire); /* see on_ready */
	close(fd);
}

static struct ucx_cm_conn *conn_new(struct ucx_worker *w, int fd)
{
	struct ucx_cm_conn *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->super.ops = &xport_ucx_ops;
	c->worker = w;
	c->fd = fd;
	c->next = w->conns;
	w->conns = c;
	ucx_cm_active(w);
	return c;
}

static void conn_free(struct ucx_cm_conn *c)
{
	struct ucx_cm_conn **link = &c->worker->conns;

	while (*link != c)
		link = &(*link)->next;
	*link = c->next;
	if (c->fd >= 0)
		unwatch_close(c->worker, c->fd);
	ucx_cm_active(c->worker);
	free(c);
}

/* Sends a whole handshake message at once: it is small, and the socket's
 * buffer is empty. */
static bool send_msg(int fd, enum hs_kind kind, const void *addr, size_t len)
{
	uint8_t msg[HS_HEADER + HS_MAX_ADDR] = { 0 };

	if (len > HS_MAX_ADDR)
		return false;
	sdoca_put_le32(msg, HS_MAGIC);
	msg[4] = HS_VERSION;
	msg[5] = (uint8_t)kind;
	sdoca_put_le32(msg + 8, (uint32_t)len);
	if (len)
		memcpy(msg + HS_HEADER, addr, len);
	return send(fd, msg, HS_HEADER + len, MSG_NOSIGNAL) == (ssize_t)(HS_HEADER + len);
}

/* Reads what arrived; PENDING until a whole message of one of the kinds
 * wanted came. */
static enum outcome receive_msg(struct ucx_cm_conn *c, enum hs_kind want, enum hs_kind or)
{
	for (;;) {
		size_t need = HS_HEADER;
		ssize_t n;

		if (c->have >= HS_HEADER) {
			uint32_t len = sdoca_get_le32(c->buf + 8);

			if (sdoca_get_le32(c->buf) != HS_MAGIC || c->buf[4] != HS_VERSION ||
			    (c->buf[5] != want && c->buf[5] != or) || c->buf[6] || c->buf[7] ||
			    len > HS_MAX_ADDR || (c->buf[5] != HS_REJECT) != (len != 0))
				return BROKEN;
			need += len;
			if (c->have == need)
				return c->buf[5] == HS_HELLO ? REQUEST : ANSWER;
		}
		n = recv(c->fd, c->buf + c->have, need - c->have, 0);
		if (n > 0)
			c->have += (size_t)n;
		else if (n < 0 && errno == EAGAIN)
			return PENDING;
		else if (n == 0 || errno != EINTR)
			return BROKEN; /* closed early, or reset */
	}
}

/* A client's: connected yet? Then HELLO, then the answer. */
static enum outcome advance_client(struct ucx_cm_conn *c)
{
	struct pollfd p = { .fd = c->fd, .events = POLLOUT };
	socklen_t len = sizeof(c->error);

	if (c->error)
		return BROKEN;
	if (!c->sent) {
		if (poll(&p, 1, 0) == 0)
			return PENDING;
		if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &c->error, &len) != 0)
			c->error = errno;
		if (c->error)
			return BROKEN;
		if (!send_msg(c->fd, HS_HELLO, c->worker->address, c->worker->address_len)) {
			c->error = errno ? errno : EPROTO;
			return BROKEN;
		}
		c->sent = true;
	}
	return receive_msg(c, HS_ACCEPT, HS_REJECT);
}

/* The client learnt its fate: report it, after which c is gone. */
static void client_done(struct ucx_cm_conn *c, enum outcome o)
{
	struct ucx_ep *e = c->client;
	doca_error_t status = DOCA_ERROR_CONNECTION_RESET;

	e->conn = NULL;
	if (o == ANSWER && c->buf[5] == HS_ACCEPT)
		status = ucx_ep_connect(e, c->buf + HS_HEADER, c->have - HS_HEADER);
	else if (c->error == ECONNREFUSED || (o == ANSWER && c->buf[5] == HS_REJECT))
		SDOCA_DBG("connection refused by the server");
	else
		SDOCA_DBG("connection set-up failed: %s",
		          c->error ? strerror(c->error) : "the server hung up");
	if (status != DOCA_SUCCESS)
		e->state = UCX_EP_FAILED;
	conn_free(c);
	if (e->connected)
		e->connected(e->arg, status);
}

static unsigned int accept_sockets(struct ucx_cm_listener *l)
{
	unsigned int n = 0, waiting = 0;
	int fd;

	for (struct ucx_cm_conn *c = l->worker->conns; c; c = c->next)
		waiting += c->listener && !c->delivered;
	while ((fd = accept4(l->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
		struct ucx_cm_conn *c = waiting < MAX_UNANSWERED ? conn_new(l->worker, fd) : NULL;

		if (!c || watch(l->worker, fd, UCS_EVENT_SET_EVREAD) != DOCA_SUCCESS) {
			SDOCA_WARN("port %u: a connection request was dropped (%u waiting)",
			           l->port, waiting);
			if (c) {
				c->fd = -1; /* not watched */
				conn_free(c);
			}
			close(fd);
			continue;
		}
		c->listener = l;
		waiting++;
		n++;
	}
	return n;
}

/* The next handshake with news, or NULL. */
static struct ucx_cm_conn *next_news(struct ucx_worker *w, enum outcome *o)
{
	for (struct ucx_cm_conn *c = w->conns; c; c = c->next) {
		if (c->delivered)
			continue;
		*o = c->client ? advance_client(c) : receive_msg(c, HS_HELLO, HS_HELLO);
		if (*o != PENDING)
			return c;
	}
	return NULL;
}

unsigned int ucx_cm_progress(struct ucx_worker *w)
{
	unsigned int events = 0;
	struct ucx_cm_conn *c;
	enum outcome o;

	if (!atomic_exchange(&w->cm_ready, false))
		return 0;
	for (struct ucx_cm_listener *l = w->listeners; l; l = l->next)
		events += accept_sockets(l);
	/* A callback may answer, close or open anything: look again after each. */
	while ((c = next_news(w, &o))) {
		events++;
		if (c->client) {
			client_done(c, o);
		} else if (o == REQUEST) {
			c->delivered = true;
			c->listener->on_request(c->listener->arg, &c->super);
		} else {
			SDOCA_DBG("port %u: a connection request broke off", c->listener->port);
			conn_free(c);
		}
	}
	return events;
}

doca_error_t ucx_cm_listen(struct xport_worker *worker, const struct sockaddr *addr,
                           size_t addr_len, xport_conn_request_fn on_request, void *arg,
                           struct xport_listener **listener)
{
	struct ucx_worker *w = to_worker(worker);
	struct sockaddr_storage bound;
	socklen_t bound_len = sizeof(bound);
	char where[XPORT_SOCKADDR_STRLEN];
	struct ucx_cm_listener *l;
	int one = 1, fd, err;

	if (addr->sa_family != AF_INET && addr->sa_family != AF_INET6)
		SDOCA_FAIL(DOCA_ERROR_INVALID_VALUE, "listen: not an IPv4 or IPv6 address");
	xport_sockaddr_str(addr, where, sizeof(where));
	fd = socket(addr->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		SDOCA_FAIL(DOCA_ERROR_OPERATING_SYSTEM, "listen on %s: %s", where, strerror(errno));
	/* Again at once after connections closed (TIME_WAIT); a port another
	 * socket listens on stays refused. One family per listener. */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (addr->sa_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, addr, (socklen_t)addr_len) != 0 || listen(fd, SOMAXCONN) != 0 ||
	    getsockname(fd, (struct sockaddr *)&bound, &bound_len) != 0) {
		err = errno;
		close(fd);
		if (err == EADDRINUSE)
			SDOCA_FAIL(DOCA_ERROR_IN_USE, "cannot listen on %s: port %u is in use",
			           where, xport_sockaddr_port(addr));
		SDOCA_FAIL(err == EADDRNOTAVAIL || err == EINVAL ? DOCA_ERROR_INVALID_VALUE
		                                                 : DOCA_ERROR_OPERATING_SYSTEM,
		           "cannot listen on %s: %s", where, strerror(err));
	}
	l = calloc(1, sizeof(*l));
	if (!l || watch(w, fd, UCS_EVENT_SET_EVREAD) != DOCA_SUCCESS) {
		free(l);
		close(fd);
		return DOCA_ERROR_NO_MEMORY;
	}
	l->super.ops = &xport_ucx_ops;
	l->worker = w;
	l->fd = fd;
	l->port = xport_sockaddr_port((struct sockaddr *)&bound);
	l->on_request = on_request;
	l->arg = arg;
	l->next = w->listeners;
	w->listeners = l;
	ucx_cm_active(w);
	SDOCA_DBG("listening on %s (port %u)", where, l->port);
	*listener = &l->super;
	return DOCA_SUCCESS;
}

uint16_t ucx_cm_listener_port(const struct xport_listener *listener)
{
	return sdoca_container_of(listener, struct ucx_cm_listener, super)->port;
}

void ucx_cm_listener_close(struct xport_listener *listener)
{
	struct ucx_cm_listener *l = sdoca_container_of(listener, struct ucx_cm_listener, super);
	struct ucx_cm_listener **link = &l->worker->listeners;
	struct ucx_cm_conn *c = l->worker->conns, *next;

	for (; c; c = next) {
		next = c->next;
		if (c->listener != l)
			continue;
		if (c->delivered) /* the handle dies with the listener */
			send_msg(c->fd, HS_REJECT, NULL, 0);
		conn_free(c);
	}
	while (*link != l)
		link = &(*link)->next;
	*link = l->next;
	unwatch_close(l->worker, l->fd);
	ucx_cm_active(l->worker);
	free(l);
}

doca_error_t ucx_cm_accept(struct xport_conn_request *request, xport_ep_error_fn on_error,
                           void *arg, struct xport_ep **ep)
{
	struct ucx_cm_conn *c = sdoca_container_of(request, struct ucx_cm_conn, super);
	struct ucx_worker *w = c->worker;
	struct ucx_ep *e = ucx_ep_new(w, on_error, arg);
	doca_error_t status = e ? DOCA_SUCCESS : DOCA_ERROR_NO_MEMORY;

	if (status == DOCA_SUCCESS)
		status = ucx_ep_connect(e, c->buf + HS_HEADER, c->have - HS_HEADER);
	if (status != DOCA_SUCCESS) {
		ucx_ep_free(e);
		send_msg(c->fd, HS_REJECT, NULL, 0);
		conn_free(c);
		return status;
	}
	if (!send_msg(c->fd, HS_ACCEPT, w->address, w->address_len)) {
		SDOCA_DBG("port %u: the client left before it was accepted", c->listener->port);
		conn_free(c);
		xport_ep_close(&e->super, true);
		return DOCA_ERROR_CONNECTION_RESET;
	}
	conn_free(c);
	*ep = &e->super;
	return DOCA_SUCCESS;
}

void ucx_cm_reject(struct xport_conn_request *request)
{
	struct ucx_cm_conn *c = sdoca_container_of(request, struct ucx_cm_conn, super);

	send_msg(c->fd, HS_REJECT, NULL, 0);
	conn_free(c);
}

doca_error_t ucx_cm_connect(struct xport_worker *worker, const struct sockaddr *addr,
                            size_t addr_len, xport_done_fn connected, xport_ep_error_fn on_error,
                            void *arg, struct xport_ep **ep)
{
	struct ucx_worker *w = to_worker(worker);
	struct ucx_ep *e;
	struct ucx_cm_conn *c;
	int fd;

	if (addr->sa_family != AF_INET && addr->sa_family != AF_INET6)
		SDOCA_FAIL(DOCA_ERROR_INVALID_VALUE, "connect: not an IPv4 or IPv6 address");
	fd = socket(addr->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		SDOCA_FAIL(DOCA_ERROR_OPERATING_SYSTEM, "connect: %s", strerror(errno));
	e = ucx_ep_new(w, on_error, arg);
	c = e ? conn_new(w, fd) : NULL;
	if (!c || watch(w, fd, UCS_EVENT_SET_EVREAD | UCS_EVENT_SET_EVWRITE) != DOCA_SUCCESS) {
		if (c) {
			c->fd = -1; /* not watched */
			conn_free(c);
		}
		ucx_ep_free(e);
		close(fd);
		return DOCA_ERROR_NO_MEMORY;
	}
	if (connect(fd, addr, (socklen_t)addr_len) != 0 && errno != EINPROGRESS) {
		c->error = errno; /* reported from progress, as any other outcome */
		atomic_store(&w->cm_ready, true);
	}
	e->state = UCX_EP_CONNECTING;
	e->connected = connected;
	e->conn = c;
	c->client = e;
	*ep = &e->super;
	return DOCA_SUCCESS;
}

void ucx_cm_abandon(struct ucx_ep *e)
{
	conn_free(e->conn);
	e->conn = NULL;
}

void ucx_cm_close_all(struct ucx_worker *w)
{
	if (w->listeners || w->conns)
		SDOCA_WARN("a transport worker was destroyed with its listeners or connection "
		           "set-ups open: closed");
	while (w->listeners)
		ucx_cm_listener_close(&w->listeners->super);
	while (w->conns) {
		if (w->conns->client) {
			w->conns->client->conn = NULL;
			w->conns->client->state = UCX_EP_FAILED;
		}
		conn_free(w->conns);
	}
}
