/*
 * Connection set-up for the UCX instance over a TCP handshake.
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
 * UCX's async thread watches the sockets (edge-triggered) and only marks
 * the socket and the worker ready (cm_ready) and signals the worker's fd, so
 * a sleeping service thread wakes; every socket call and every callback runs
 * in the worker's progress, which reads only the sockets marked.
 *
 * Peers that connect and say nothing (a flood of them, from anywhere: the
 * port is open to the network) must not lock real clients out:
 *  - the kernel holds a connection back until its first bytes came
 *    (TCP_DEFER_ACCEPT), so a silent one costs no socket here for a while;
 *  - a server handshake waits for its HELLO in a queue, oldest first, of at
 *    most max_waiting() (1024, fewer where the process may open few files);
 *    a silent one costs a socket and a few hundred bytes (the message buffer
 *    comes with the first byte);
 *  - when the queue is full, the oldest makes room, but is read first: a
 *    peer whose HELLO is already in its socket's buffer is not silent and
 *    is served; one that sent nothing, or not a whole HELLO, is dropped;
 *  - a handshake whose HELLO has not come within HS_DEADLINE_NS is dropped
 *    (checked whenever the worker progresses: by the application, or by
 *    the service thread when a socket wakes it);
 *  - one progress accepts at most ACCEPT_BATCH sockets per listener, then
 *    serves the handshakes that spoke, so accepting a flood never starves
 *    them (nor another listener's clients).
 *
 * The handshake, little-endian: the client sends HELLO with its worker
 * address and its connection data; the server answers ACCEPT with its own
 * address and data, or REJECT (data, if any, but no address).
 *   0 u32 magic "SDCM"  4 u8 version  5 u8 kind  6 u16 zero
 *   8 u32 address length  12 u32 data length  16 address, then data
 * ucx_cm_parse() checks a message before any of it is used (fuzz_cm).
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <ucs/async/async_fwd.h>
#include <ucs/sys/event_set.h>

#include "core/bytes.h"
#include "core/clock.h"
#include "core/sdk_log.h"
#include "transport/ucx.h"

SDOCA_LOG_MODULE(ucx_cm);

#define HS_MAGIC 0x4d434453u /* "SDCM" */
#define HS_VERSION 2
/* Server handshakes waiting for their HELLO, per worker: at most this many,
 * and at most an eighth of the files the process may open, at least the
 * minimum (see max_waiting). */
#define WAITING_MAX 1024
#define WAITING_MIN 64
#define HS_DEADLINE_NS (2 * 1000000000ull)
#define DEFER_ACCEPT_S 1 /* the kernel holds a silent connection back this long */
#define ACCEPT_BATCH 64  /* sockets accepted per progress */

/* A socket UCX's async thread watches: it marks it ready. */
struct watched {
	/* Atomic: UCX's async thread reads it in on_ready, ordered after watch()
	 * by UCX's own locks, which ThreadSanitizer cannot see. */
	_Atomic(struct ucx_worker *) worker;
	atomic_bool ready;
	/* Bumped (release) as on_ready's last touch of this struct and read
	 * (acquire) by unwatch_close: tells ThreadSanitizer that a handler has
	 * finished before the struct is freed, which UCX's removal of the
	 * handler ensures with locks TSan cannot see. An RMW, so every call's
	 * release stays in it. */
	atomic_uint handled;
};

struct ucx_cm_listener {
	struct xport_listener super;
	struct watched watch;
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
	struct watched watch;
	struct ucx_worker *worker;
	int fd;
	struct ucx_cm_listener *listener; /* a server's */
	struct ucx_ep *client;            /* a client's */
	bool sent;                        /* a client's HELLO left */
	bool delivered;                   /* a server's request was handed over */
	bool queued;                      /* a server's, in worker->waiting */
	int error;                        /* a client's connect() failed at once */
	uint64_t accepted_ns;             /* a server's, when its socket was accepted */
	size_t have;
	struct ucx_cm_msg msg; /* what arrived, once whole (it points into buf) */
	void *hello_data;      /* a client's connection data, until HELLO left */
	size_t hello_len;
	uint8_t *buf; /* UCX_CM_MAX_MSG bytes, from the first byte on */
	struct ucx_cm_conn *next;
	struct ucx_cm_conn *next_waiting, **prev_waiting; /* in worker->waiting */
};

/* What a handshake came to (advance). */
enum outcome {
	PENDING,
	REQUEST, /* a server's: a whole HELLO */
	ANSWER,  /* a client's: a whole ACCEPT or REJECT */
	BROKEN,  /* the peer left, or sent what is not a handshake */
};

/* In UCX's async thread: tells the worker's progress to look at x. */
static void on_ready(int fd, ucs_event_set_types_t events, void *arg)
{
	struct watched *x = arg;
	struct ucx_worker *w = atomic_load_explicit(&x->worker, memory_order_acquire);
	ucp_worker_h ucp;

	(void)fd;
	(void)events;
	/* UCX orders the handler after watch() and before unwatch_close()
	 * returns, where ThreadSanitizer cannot see it: the flag's acquire and
	 * release say so (the load first: TSan checks an atomic write before
	 * the acquire of the same access). */
	(void)atomic_load_explicit(&w->cm_ready, memory_order_acquire);
	ucp = w->ucp;
	atomic_store_explicit(&x->ready, true, memory_order_relaxed);
	atomic_store_explicit(&w->cm_ready, true, memory_order_release);
	atomic_fetch_add_explicit(&x->handled, 1, memory_order_release);
	ucp_worker_signal(ucp);
}

/* Progress looks at x once at least, then whenever its socket is ready. */
static doca_error_t watch(struct ucx_worker *w, struct watched *x, int fd,
                          ucs_event_set_types_t events)
{
	ucs_status_t st;

	atomic_store_explicit(&x->worker, w, memory_order_release);
	atomic_store_explicit(&x->ready, true, memory_order_relaxed);
	/* Releases the worker to on_ready (and has progress look once). */
	atomic_store_explicit(&w->cm_ready, true, memory_order_release);
	st = ucs_async_set_event_handler(UCS_ASYNC_MODE_THREAD_MUTEX, fd,
	                                 events | UCS_EVENT_SET_EDGE_TRIGGERED, on_ready, x, NULL);

	if (st != UCS_OK)
		return sdoca_fail(DOCA_ERROR_OPERATING_SYSTEM, "cannot watch a socket: %s",
		                  ucs_status_string(st));
	return DOCA_SUCCESS;
}

static void unwatch_close(struct ucx_worker *w, struct watched *x, int fd)
{
	ucs_async_remove_handler(fd, 1); /* waits for a handler running */
	(void)atomic_load_explicit(&w->cm_ready, memory_order_acquire); /* see on_ready */
	(void)atomic_load_explicit(&x->handled, memory_order_acquire);  /* see watched */
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

/* Was it marked ready since the last look? (Then it is not any more.) */
static bool take_ready(struct watched *x)
{
	return atomic_load_explicit(&x->ready, memory_order_relaxed) &&
	       atomic_exchange_explicit(&x->ready, false, memory_order_relaxed);
}

static void enqueue_waiting(struct ucx_cm_conn *c)
{
	struct ucx_worker *w = c->worker;

	if (!w->waiting)
		w->waiting_tail = &w->waiting;
	c->next_waiting = NULL;
	c->prev_waiting = w->waiting_tail;
	*w->waiting_tail = c;
	w->waiting_tail = &c->next_waiting;
	w->num_waiting++;
	c->queued = true;
}

static void dequeue_waiting(struct ucx_cm_conn *c)
{
	struct ucx_worker *w = c->worker;

	if (!c->queued)
		return;
	*c->prev_waiting = c->next_waiting;
	if (c->next_waiting)
		c->next_waiting->prev_waiting = c->prev_waiting;
	else
		w->waiting_tail = c->prev_waiting;
	w->num_waiting--;
	c->queued = false;
}

static void conn_free(struct ucx_cm_conn *c)
{
	struct ucx_cm_conn **link = &c->worker->conns;

	while (*link != c)
		link = &(*link)->next;
	*link = c->next;
	dequeue_waiting(c);
	if (c->fd >= 0)
		unwatch_close(c->worker, &c->watch, c->fd);
	ucx_cm_active(c->worker);
	free(c->hello_data);
	free(c->buf);
	free(c);
}

enum ucx_cm_parsed ucx_cm_parse(const uint8_t *buf, size_t have, size_t *need,
                                struct ucx_cm_msg *msg)
{
	uint32_t addr_len, data_len;
	uint8_t kind;

	*need = UCX_CM_HEADER;
	if (have < UCX_CM_HEADER)
		return UCX_CM_PARTIAL;
	kind = buf[5];
	addr_len = sdoca_get_le32(buf + 8);
	data_len = sdoca_get_le32(buf + 12);
	if (sdoca_get_le32(buf) != HS_MAGIC || buf[4] != HS_VERSION || buf[6] || buf[7] ||
	    kind < UCX_CM_HELLO || kind > UCX_CM_REJECT || addr_len > UCX_CM_MAX_ADDR ||
	    data_len > XPORT_CONN_DATA_MAX || (kind != UCX_CM_REJECT) != (addr_len != 0))
		return UCX_CM_BAD;
	*need = UCX_CM_HEADER + (size_t)addr_len + data_len;
	if (have < *need)
		return UCX_CM_PARTIAL;
	if (have > *need)
		return UCX_CM_BAD; /* one message per direction */
	msg->kind = (enum ucx_cm_kind)kind;
	msg->addr = buf + UCX_CM_HEADER;
	msg->addr_len = addr_len;
	msg->data = data_len ? buf + UCX_CM_HEADER + addr_len : NULL;
	msg->data_len = data_len;
	return UCX_CM_WHOLE;
}

/* Sends a whole handshake message at once: it is small, and the socket's
 * buffer is empty. */
static bool send_msg(int fd, enum ucx_cm_kind kind, const void *addr, size_t len, const void *data,
                     size_t data_len)
{
	uint8_t *msg;
	size_t total = UCX_CM_HEADER + len + data_len;
	bool sent;

	if (len > UCX_CM_MAX_ADDR || data_len > XPORT_CONN_DATA_MAX)
		return false;
	msg = calloc(1, total);
	if (!msg)
		return false;
	sdoca_put_le32(msg, HS_MAGIC);
	msg[4] = HS_VERSION;
	msg[5] = (uint8_t)kind;
	sdoca_put_le32(msg + 8, (uint32_t)len);
	sdoca_put_le32(msg + 12, (uint32_t)data_len);
	if (len)
		memcpy(msg + UCX_CM_HEADER, addr, len);
	if (data_len)
		memcpy(msg + UCX_CM_HEADER + len, data, data_len);
	sent = send(fd, msg, total, MSG_NOSIGNAL) == (ssize_t)total;
	free(msg);
	return sent;
}

/* Reads what arrived; PENDING until a whole message of one of the kinds
 * wanted came. */
static enum outcome receive_msg(struct ucx_cm_conn *c, enum ucx_cm_kind want, enum ucx_cm_kind or)
{
	if (!c->buf) {
		uint8_t first;
		ssize_t n = recv(c->fd, &first, 1, MSG_PEEK);

		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return PENDING; /* silent so far: no buffer yet */
		if (n <= 0)
			return BROKEN;
		c->buf = malloc(UCX_CM_MAX_MSG);
		if (!c->buf) {
			SDOCA_WARN("a connection set-up was dropped: no memory");
			return BROKEN;
		}
	}
	for (;;) {
		size_t need;
		ssize_t n;

		switch (ucx_cm_parse(c->buf, c->have, &need, &c->msg)) {
		case UCX_CM_BAD:
			return BROKEN;
		case UCX_CM_WHOLE:
			if (c->msg.kind != want && c->msg.kind != or)
				return BROKEN;
			return c->msg.kind == UCX_CM_HELLO ? REQUEST : ANSWER;
		case UCX_CM_PARTIAL:
			break;
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
		if (!send_msg(c->fd, UCX_CM_HELLO, c->worker->address, c->worker->address_len,
		              c->hello_data, c->hello_len)) {
			c->error = errno ? errno : EPROTO;
			return BROKEN;
		}
		c->sent = true;
	}
	return receive_msg(c, UCX_CM_ACCEPT, UCX_CM_REJECT);
}

/* The client learnt its fate: report it, after which c is gone. */
static void client_done(struct ucx_cm_conn *c, enum outcome o)
{
	struct ucx_ep *e = c->client;
	doca_error_t status = DOCA_ERROR_CONNECTION_RESET;
	bool accepted = o == ANSWER && c->msg.kind == UCX_CM_ACCEPT;

	e->conn = NULL;
	if (accepted)
		status = ucx_ep_connect(e, c->msg.addr, c->msg.addr_len);
	else if (c->error == ECONNREFUSED || o == ANSWER) {
		status = DOCA_ERROR_CONNECTION_ABORTED;
		SDOCA_DBG("connection refused by the server");
	} else
		SDOCA_DBG("connection set-up failed: %s",
		          c->error ? strerror(c->error) : "the server hung up");
	if (status != DOCA_SUCCESS)
		e->state = UCX_EP_FAILED;
	/* The answer's data lives in c until the callback has run. */
	if (e->connected)
		e->connected(e->arg, status, o == ANSWER ? c->msg.data : NULL,
		             o == ANSWER ? c->msg.data_len : 0);
	conn_free(c);
}

/* How many server handshakes may wait for their HELLO: each holds a file
 * descriptor, and the application needs its own. */
static unsigned int max_waiting(void)
{
	struct rlimit lim;
	rlim_t max = WAITING_MAX;

	if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY &&
	    lim.rlim_cur / 8 < max)
		max = lim.rlim_cur / 8;
	return max < WAITING_MIN ? WAITING_MIN : (unsigned int)max;
}

/* The oldest waiting handshake leaves the queue: served if its HELLO has
 * come (progress hands it over), otherwise dropped. */
static void take_oldest(struct ucx_worker *w, const char *why)
{
	struct ucx_cm_conn *c = w->waiting;
	enum outcome o = receive_msg(c, UCX_CM_HELLO, UCX_CM_HELLO);

	dequeue_waiting(c);
	if (o == REQUEST) {
		atomic_store_explicit(&c->watch.ready, true, memory_order_relaxed);
		return;
	}
	if (o == PENDING)
		SDOCA_DBG("port %u: a client that sent %s was dropped (%s)", c->listener->port,
		          c->have ? "part of a handshake" : "nothing", why);
	conn_free(c);
}

/* Drops the handshakes that waited too long for their HELLO. */
static void expire_waiting(struct ucx_worker *w, uint64_t now)
{
	while (w->waiting && now - w->waiting->accepted_ns > HS_DEADLINE_NS)
		take_oldest(w, "no handshake within 2 s");
}

/* Up to ACCEPT_BATCH sockets, per listener: a flood on one address does
 * not starve another's clients. */
static unsigned int accept_sockets(struct ucx_cm_listener *l, unsigned int max, uint64_t now)
{
	struct ucx_worker *w = l->worker;
	unsigned int n = 0;
	int fd;

	if (!take_ready(&l->watch))
		return 0;
	for (;;) {
		struct sockaddr_storage peer;
		socklen_t peer_len = sizeof(peer);
		struct ucx_cm_conn *c;

		if (n == ACCEPT_BATCH) {
			/* Back for the rest after the handshakes that spoke. */
			atomic_store_explicit(&l->watch.ready, true, memory_order_relaxed);
			atomic_store_explicit(&w->cm_ready, true, memory_order_relaxed);
			break;
		}
		fd = accept4(l->fd, (struct sockaddr *)&peer, &peer_len,
		             SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0 && (errno == EMFILE || errno == ENFILE) && w->waiting) {
			/* Out of descriptors: the oldest waiting one makes room
			 * (the listener is edge-triggered: a connection left
			 * queued would wait for the next one to arrive). */
			take_oldest(w, "out of file descriptors");
			continue;
		}
		if (fd < 0)
			break;
		n++;
		/* Full: the oldest makes room (served, if its HELLO came), as a
		 * kernel's full SYN queue drops, so silent peers cannot lock
		 * real clients out. */
		while (w->num_waiting >= max)
			take_oldest(w, "too many waiting");
		c = conn_new(w, fd);

		if (!c || watch(w, &c->watch, fd, UCS_EVENT_SET_EVREAD) != DOCA_SUCCESS) {
			SDOCA_WARN("port %u: a connection request was dropped (no memory, or its "
			           "socket cannot be watched)",
			           l->port);
			if (c) {
				c->fd = -1; /* not watched */
				conn_free(c);
			}
			close(fd);
			continue;
		}
		c->listener = l;
		c->accepted_ns = now;
		_Static_assert(sizeof(c->super.peer) == sizeof(peer), "a sockaddr_storage");
		memcpy(c->super.peer, &peer, sizeof(peer));
		c->super.peer_len = peer_len;
		enqueue_waiting(c);
	}
	return n;
}

/* The next handshake with news, or NULL. */
static struct ucx_cm_conn *next_news(struct ucx_worker *w, enum outcome *o)
{
	for (struct ucx_cm_conn *c = w->conns; c; c = c->next) {
		if (c->delivered || !take_ready(&c->watch))
			continue;
		*o = c->client ? advance_client(c) : receive_msg(c, UCX_CM_HELLO, UCX_CM_HELLO);
		if (*o != PENDING)
			return c;
	}
	return NULL;
}

unsigned int ucx_cm_progress(struct ucx_worker *w)
{
	unsigned int events = 0, max;
	struct ucx_cm_conn *c;
	enum outcome o;
	uint64_t now;

	if (!atomic_exchange(&w->cm_ready, false)) {
		/* Nothing new; a handshake may have waited too long. */
		if (!w->waiting || sdoca_now_ns() - w->waiting->accepted_ns <= HS_DEADLINE_NS)
			return 0;
	}
	now = sdoca_now_ns();
	expire_waiting(w, now);
	if (w->listeners) {
		max = max_waiting();
		for (struct ucx_cm_listener *l = w->listeners; l; l = l->next)
			events += accept_sockets(l, max, now);
	}
	/* A callback may answer, close or open anything: look again after each. */
	while ((c = next_news(w, &o))) {
		events++;
		if (c->client) {
			client_done(c, o);
		} else if (o == REQUEST) {
			dequeue_waiting(c);
			c->delivered = true;
			c->super.data = c->msg.data;
			c->super.data_len = c->msg.data_len;
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
	int one = 1, defer_s = DEFER_ACCEPT_S, fd, err;

	if (addr->sa_family != AF_INET && addr->sa_family != AF_INET6)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "listen: not an IPv4 or IPv6 address");
	xport_sockaddr_str(addr, where, sizeof(where));
	fd = socket(addr->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return sdoca_fail(DOCA_ERROR_OPERATING_SYSTEM, "listen on %s: %s", where,
		                  strerror(errno));
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
			return sdoca_fail(DOCA_ERROR_IN_USE,
			                  "cannot listen on %s: port %u is in use", where,
			                  xport_sockaddr_port(addr));
		return sdoca_fail(err == EADDRNOTAVAIL || err == EINVAL
		                          ? DOCA_ERROR_INVALID_VALUE
		                          : DOCA_ERROR_OPERATING_SYSTEM,
		                  "cannot listen on %s: %s", where, strerror(err));
	}
	/* Silent peers wait in the kernel, not here (see the top). */
	setsockopt(fd, IPPROTO_TCP, TCP_DEFER_ACCEPT, &defer_s, sizeof(defer_s));
	l = calloc(1, sizeof(*l));
	if (!l || watch(w, &l->watch, fd, UCS_EVENT_SET_EVREAD) != DOCA_SUCCESS) {
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
			send_msg(c->fd, UCX_CM_REJECT, NULL, 0, NULL, 0);
		conn_free(c);
	}
	while (*link != l)
		link = &(*link)->next;
	*link = l->next;
	unwatch_close(l->worker, &l->watch, l->fd);
	ucx_cm_active(l->worker);
	free(l);
}

doca_error_t ucx_cm_accept(struct xport_conn_request *request, const void *data, size_t len,
                           xport_ep_error_fn on_error, void *arg, struct xport_ep **ep)
{
	struct ucx_cm_conn *c = sdoca_container_of(request, struct ucx_cm_conn, super);
	struct ucx_worker *w = c->worker;
	struct ucx_ep *e = ucx_ep_new(w, on_error, arg);
	doca_error_t status = e ? DOCA_SUCCESS : DOCA_ERROR_NO_MEMORY;

	if (len > XPORT_CONN_DATA_MAX)
		status = DOCA_ERROR_INVALID_VALUE;
	if (status == DOCA_SUCCESS)
		status = ucx_ep_connect(e, c->msg.addr, c->msg.addr_len);
	if (status != DOCA_SUCCESS) {
		ucx_ep_free(e);
		send_msg(c->fd, UCX_CM_REJECT, NULL, 0, NULL, 0);
		conn_free(c);
		return status;
	}
	if (!send_msg(c->fd, UCX_CM_ACCEPT, w->address, w->address_len, data, len)) {
		SDOCA_DBG("port %u: the client left before it was accepted", c->listener->port);
		conn_free(c);
		xport_ep_close(&e->super, true);
		return DOCA_ERROR_CONNECTION_RESET;
	}
	conn_free(c);
	*ep = &e->super;
	return DOCA_SUCCESS;
}

void ucx_cm_reject(struct xport_conn_request *request, const void *data, size_t len)
{
	struct ucx_cm_conn *c = sdoca_container_of(request, struct ucx_cm_conn, super);

	send_msg(c->fd, UCX_CM_REJECT, NULL, 0, data, len <= XPORT_CONN_DATA_MAX ? len : 0);
	conn_free(c);
}

doca_error_t ucx_cm_connect(struct xport_worker *worker, const struct sockaddr *addr,
                            size_t addr_len, const void *data, size_t len,
                            xport_connected_fn connected, xport_ep_error_fn on_error, void *arg,
                            struct xport_ep **ep)
{
	struct ucx_worker *w = to_worker(worker);
	struct ucx_ep *e;
	struct ucx_cm_conn *c;
	int fd;

	if (addr->sa_family != AF_INET && addr->sa_family != AF_INET6)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "connect: not an IPv4 or IPv6 address");
	if (len > XPORT_CONN_DATA_MAX)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "connect: %zu bytes of connection data",
		                  len);
	fd = socket(addr->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return sdoca_fail(DOCA_ERROR_OPERATING_SYSTEM, "connect: %s", strerror(errno));
	e = ucx_ep_new(w, on_error, arg);
	c = e ? conn_new(w, fd) : NULL;
	if (!c ||
	    watch(w, &c->watch, fd, UCS_EVENT_SET_EVREAD | UCS_EVENT_SET_EVWRITE) != DOCA_SUCCESS) {
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
		atomic_store(&c->watch.ready, true);
		atomic_store(&w->cm_ready, true);
	}
	if (len) {
		c->hello_data = malloc(len);
		if (!c->hello_data) {
			conn_free(c);
			ucx_ep_free(e);
			return DOCA_ERROR_NO_MEMORY;
		}
		memcpy(c->hello_data, data, len);
		c->hello_len = len;
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
