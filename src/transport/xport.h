/*
 * The transport interface under the soft NIC (struct xport_ops).
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The transport under the soft NIC: messages (a small header plus a payload)
 * between workers, behind a table of operations (struct xport_ops) as UCT's
 * interfaces are behind uct_iface_ops. Its instances: UCX active messages
 * (ucx*.c, the only files that know UCX; SOFTDOCA_TRANSPORT picks shared
 * memory or TCP there) and the tests' in-process fake. Large payloads may
 * travel by rendezvous and land straight in the buffer the receiver names.
 *
 * Every object starts with the ops of the instance that made it; the xport_*
 * functions below dispatch through them with one indirect call, so the soft
 * NIC calls the transport by name whatever the instance.
 *
 * Threads: a worker and its endpoints are not thread-safe; the soft NIC
 * serialises every call on a worker with its own lock. Callbacks run inside
 * xport_worker_progress() (or the call that completed immediately).
 */
#ifndef SDOCA_TRANSPORT_XPORT_H_
#define SDOCA_TRANSPORT_XPORT_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>

struct xport_ops;
/* <sys/socket.h>'s, not included: the soft NIC's names (accept, send) stay its own. */
struct sockaddr;
struct sockaddr_storage;

/* The generic heads of the instances' objects (each embeds one first). */
struct xport_worker {
	/* An instance may change it while the worker listens or sets connections
	 * up (a thread that only wants the fd reads it without the worker's
	 * lock): an atomic, loaded relaxed (a plain load on x86). */
	_Atomic(const struct xport_ops *) ops;
};
struct xport_ep {
	const struct xport_ops *ops;
	/* What xport_rx.sender is for a message that came over this endpoint
	 * from its peer (0 until connected). */
	uintptr_t peer_id;
};
struct xport_listener {
	const struct xport_ops *ops;
};
/* A connection request that arrived on a listener, until accepted or
 * rejected; it carries the client's connection data (xport_connect). */
struct xport_conn_request {
	const struct xport_ops *ops;
	const void *data;
	size_t data_len;
	/* The client's address: a struct sockaddr_storage (not included here). */
	_Alignas(8) unsigned char peer[128];
	size_t peer_len;
};

/* Connection data, each way, at most this long (the soft NIC's connection
 * info and the application's private data). */
#define XPORT_CONN_DATA_MAX 4096

/* An asynchronous operation finished (status DOCA_SUCCESS or an error). */
typedef void (*xport_done_fn)(void *arg, doca_error_t status);

/* An operation in flight; the instance keeps one per operation that
 * completes later and calls xport_op_done() when it does. */
struct xport_op {
	xport_done_fn done; /* NULL once abandoned */
	void *arg;
};

/* A contiguous piece of a scattered buffer. */
struct xport_iov {
	void *base;
	size_t len;
};

/* An arriving message's payload. Eager payloads are in memory already;
 * rendezvous payloads are still at the sender until received. */
struct xport_rx {
	const void *data; /* eager: the bytes; rendezvous: NULL */
	size_t len;
	bool rndv;
	bool held;   /* kept past the receive callback (see xport_recv_fn) */
	bool copied; /* held in a copy of ours (desc), as the transport could not keep it */
	/* What the payload is kept in: set by the transport when it can keep it
	 * past the callback (rendezvous, or eager bytes it lets us keep), or our
	 * copy once held. NULL: nothing to release. */
	void *desc;
	/* Who sent it, as the transport knows the sender (0: unknown): compared
	 * with an endpoint's peer_id by xport_rx_from(). */
	uintptr_t sender;
};

/* A message arrived. The callback either places or drops the payload before
 * returning false, or keeps a copy of rx marked with xport_rx_hold() and
 * returns true; the copy is later consumed by xport_rx_receive() or
 * xport_rx_release(). A payload not kept is dropped when the callback returns
 * (a rendezvous sender is told it is done). */
typedef bool (*xport_recv_fn)(void *arg, const void *hdr, size_t hdr_len, struct xport_rx *rx);

/* The connection behind an endpoint failed (peer gone, network error). */
typedef void (*xport_ep_error_fn)(void *arg, doca_error_t status);

/* A connection request arrived on a listener; answer it (now, or later from
 * the worker's thread) with xport_accept() or xport_reject(). */
typedef void (*xport_conn_request_fn)(void *arg, struct xport_conn_request *request);

/* A client's connection attempt is over: DOCA_SUCCESS and the server's
 * connection data (valid during the call), or why it failed (a reject's
 * data, if the server gave any). */
typedef void (*xport_connected_fn)(void *arg, doca_error_t status, const void *data, size_t len);

/* One instance of the transport. The functions below say what each does. */
struct xport_ops {
	const char *name;
	doca_error_t (*worker_create)(const char *ifname, xport_recv_fn recv, void *recv_arg,
	                              struct xport_worker **worker);
	void (*worker_destroy)(struct xport_worker *worker);
	void (*worker_address)(const struct xport_worker *worker, const void **addr, size_t *len);
	unsigned int (*worker_progress)(struct xport_worker *worker);
	int (*worker_fd)(const struct xport_worker *worker);
	bool (*worker_arm)(struct xport_worker *worker);

	doca_error_t (*ep_create)(struct xport_worker *worker, const void *addr, size_t len,
	                          xport_ep_error_fn on_error, void *arg, struct xport_ep **ep);
	void (*ep_close)(struct xport_ep *ep, bool force);
	doca_error_t (*send)(struct xport_ep *ep, const void *hdr, size_t hdr_len,
	                     const struct xport_iov *iov, size_t iovcnt, xport_done_fn done,
	                     void *arg, struct xport_op **op);
	doca_error_t (*send_now)(struct xport_ep *ep, const void *hdr, size_t hdr_len);
	/* Whether sender (not ep->peer_id) is another transport connection to
	 * the same peer worker as ep's (the transport may pair two processes'
	 * connections otherwise than they were made). */
	bool (*same_peer)(const struct xport_ep *ep, uintptr_t sender);

	/* A rendezvous payload only (eager ones are copied by xport_rx_copy). */
	doca_error_t (*rx_receive)(struct xport_worker *worker, struct xport_rx *rx,
	                           const struct xport_iov *iov, size_t iovcnt, xport_done_fn done,
	                           void *arg, struct xport_op **op);
	/* A payload the transport kept for us (held, rx->desc its own). */
	void (*rx_release)(struct xport_worker *worker, struct xport_rx *rx);

	doca_error_t (*listen)(struct xport_worker *worker, const struct sockaddr *addr,
	                       size_t addr_len, xport_conn_request_fn on_request, void *arg,
	                       struct xport_listener **listener);
	uint16_t (*listener_port)(const struct xport_listener *listener);
	void (*listener_close)(struct xport_listener *listener);
	doca_error_t (*accept)(struct xport_conn_request *request, const void *data, size_t len,
	                       xport_ep_error_fn on_error, void *arg, struct xport_ep **ep);
	void (*reject)(struct xport_conn_request *request, const void *data, size_t len);
	doca_error_t (*connect)(struct xport_worker *worker, const struct sockaddr *addr,
	                        size_t addr_len, const void *data, size_t len,
	                        xport_connected_fn connected, xport_ep_error_fn on_error, void *arg,
	                        struct xport_ep **ep);
};

/* The UCX instance: the default. */
extern const struct xport_ops xport_ucx_ops;

/* Tests only: the instance later workers are created with (NULL: UCX).
 * Call it before any worker exists. */
void xport_set_ops_for_tests(const struct xport_ops *ops);

static inline const struct xport_ops *xport_worker_ops(const struct xport_worker *worker)
{
	return atomic_load_explicit(&worker->ops, memory_order_relaxed);
}

/* A worker of the current instance on a network interface. */
doca_error_t xport_worker_create(const char *ifname, xport_recv_fn recv, void *recv_arg,
                                 struct xport_worker **worker);

static inline void xport_worker_destroy(struct xport_worker *worker)
{
	xport_worker_ops(worker)->worker_destroy(worker);
}

/* This worker's address, for the peer's xport_ep_create(). */
static inline void xport_worker_address(const struct xport_worker *worker, const void **addr,
                                        size_t *len)
{
	xport_worker_ops(worker)->worker_address(worker, addr, len);
}

/* Processes arrived messages and completions; returns the number of events. */
static inline unsigned int xport_worker_progress(struct xport_worker *worker)
{
	return xport_worker_ops(worker)->worker_progress(worker);
}

/* A file descriptor that becomes readable when the armed worker has events. */
static inline int xport_worker_fd(const struct xport_worker *worker)
{
	return xport_worker_ops(worker)->worker_fd(worker);
}

/* Arms the fd. False means events are already pending: progress instead of sleeping. */
static inline bool xport_worker_arm(struct xport_worker *worker)
{
	return xport_worker_ops(worker)->worker_arm(worker);
}

/* Connects to a peer's worker address. on_error runs at most once. */
static inline doca_error_t xport_ep_create(struct xport_worker *worker, const void *addr,
                                           size_t len, xport_ep_error_fn on_error, void *arg,
                                           struct xport_ep **ep)
{
	return xport_worker_ops(worker)->ep_create(worker, addr, len, on_error, arg, ep);
}

/* Closes an endpoint; force drops what is queued (the peer is gone). Operations
 * still in flight complete with an error; the endpoint is freed afterwards. */
static inline void xport_ep_close(struct xport_ep *ep, bool force)
{
	ep->ops->ep_close(ep, force);
}

/* Sends hdr and the payload described by iov. The iov array and the bytes must
 * stay valid until done runs. Returns DOCA_SUCCESS when the send completed at
 * once (done is not called), DOCA_ERROR_IN_PROGRESS when done will be called
 * (*op, if op is not NULL, is then the operation), or an error (done is not
 * called). */
static inline doca_error_t xport_send(struct xport_ep *ep, const void *hdr, size_t hdr_len,
                                      const struct xport_iov *iov, size_t iovcnt,
                                      xport_done_fn done, void *arg, struct xport_op **op)
{
	return ep->ops->send(ep, hdr, hdr_len, iov, iovcnt, done, arg, op);
}

/* Sends a header-only message if the transport takes it at once, so that
 * hdr need not outlive the call: DOCA_SUCCESS, or DOCA_ERROR_AGAIN when it
 * would have to be queued (nothing was sent; use xport_send). */
static inline doca_error_t xport_send_now(struct xport_ep *ep, const void *hdr, size_t hdr_len)
{
	return ep->ops->send_now(ep, hdr, hdr_len);
}

/* Whether a message came from the peer ep is connected to (that process's
 * transport worker), not from anyone else who learned its address. A
 * compare in the common case. */
static inline bool xport_rx_from(const struct xport_rx *rx, const struct xport_ep *ep)
{
	return rx->sender == ep->peer_id || (rx->sender != 0 && ep->ops->same_peer(ep, rx->sender));
}

/* Gives up on an operation in flight (its peer is lost or hung): done will
 * not be called, and the caller may reuse what the operation referred to. */
static inline void xport_op_abandon(struct xport_op *op)
{
	op->done = NULL;
}

/* For instances: an operation finished; tells its owner unless abandoned,
 * and at most once. */
static inline void xport_op_done(struct xport_op *op, doca_error_t status)
{
	xport_done_fn done = op->done;

	op->done = NULL;
	if (done)
		done(op->arg, status);
}

/* Marks a copy of rx that the receive callback keeps (it then returns true);
 * eager bytes the transport does not let us keep are copied (the rare RNR
 * path pays the copy, not every message). False: out of memory. */
bool xport_rx_hold(struct xport_rx *rx);

/* Copies an eager payload (!rx->rndv) into iov, synchronously. Consumes rx. */
void xport_rx_copy(struct xport_worker *worker, struct xport_rx *rx, const struct xport_iov *iov,
                   size_t iovcnt);

/* Drops a payload without placing it (a rendezvous payload is never
 * fetched: its sender is told it is done). Consumes rx. */
void xport_rx_release(struct xport_worker *worker, struct xport_rx *rx);

/* Places a payload into iov (exactly rx->len bytes in total): copies an eager
 * payload, or receives a rendezvous payload straight into the buffers. Same
 * return convention as xport_send. Consumes rx. */
static inline doca_error_t xport_rx_receive(struct xport_worker *worker, struct xport_rx *rx,
                                            const struct xport_iov *iov, size_t iovcnt,
                                            xport_done_fn done, void *arg, struct xport_op **op)
{
	if (!rx->rndv) {
		if (op)
			*op = NULL;
		xport_rx_copy(worker, rx, iov, iovcnt);
		return DOCA_SUCCESS;
	}
	return xport_worker_ops(worker)->rx_receive(worker, rx, iov, iovcnt, done, arg, op);
}

/* Scatters len bytes from src over iov (for instances and xport_rx_copy). */
void xport_copy_to_iov(const void *src, size_t len, const struct xport_iov *iov, size_t iovcnt);

/*
 * Connection set-up by socket address (RDMA-CM style): a server listens on
 * an IPv4 or IPv6 address and port, a client connects to it, and the server
 * accepts or rejects each request. The endpoints are then like those of
 * xport_ep_create().
 */

/* A numeric IPv4 or IPv6 address (family AF_INET, AF_INET6 or AF_UNSPEC for
 * either) and a port, as a socket address. INVALID_VALUE if it is not one. */
doca_error_t xport_sockaddr(int family, const char *host, uint16_t port,
                            struct sockaddr_storage *addr, size_t *addr_len);

/* "address:port" ("[address]:port" for IPv6) for messages; returns buf. */
#define XPORT_SOCKADDR_STRLEN 56
const char *xport_sockaddr_str(const struct sockaddr *addr, char *buf, size_t len);

/* The port of an IPv4 or IPv6 socket address (0 for another family). */
uint16_t xport_sockaddr_port(const struct sockaddr *addr);

/* Listens on addr (port 0: one the system picks, see xport_listener_port).
 * DOCA_ERROR_IN_USE when the port is taken. on_request runs inside the
 * worker's progress. */
static inline doca_error_t xport_listen(struct xport_worker *worker, const struct sockaddr *addr,
                                        size_t addr_len, xport_conn_request_fn on_request,
                                        void *arg, struct xport_listener **listener)
{
	return xport_worker_ops(worker)->listen(worker, addr, addr_len, on_request, arg, listener);
}

/* The port the listener is bound to. */
static inline uint16_t xport_listener_port(const struct xport_listener *listener)
{
	return listener->ops->listener_port(listener);
}

/* Stops listening; requests not answered yet are rejected (their handles die
 * with the listener). Close listeners before their worker. */
static inline void xport_listener_close(struct xport_listener *listener)
{
	listener->ops->listener_close(listener);
}

/* Accepts a request, answering with data (at most XPORT_CONN_DATA_MAX
 * bytes): an endpoint to the client on the listener's worker. Consumes the
 * request, also on failure. */
static inline doca_error_t xport_accept(struct xport_conn_request *request, const void *data,
                                        size_t len, xport_ep_error_fn on_error, void *arg,
                                        struct xport_ep **ep)
{
	return request->ops->accept(request, data, len, on_error, arg, ep);
}

/* Refuses a request, with data if any: the client's connection attempt
 * fails. Consumes the request. */
static inline void xport_reject(struct xport_conn_request *request, const void *data, size_t len)
{
	request->ops->reject(request, data, len);
}

/* Connects to a listener, with data for the server (at most
 * XPORT_CONN_DATA_MAX bytes). connected runs once, inside the worker's
 * progress: DOCA_SUCCESS when the server accepted (the endpoint sends from
 * then on; before, sends fail with DOCA_ERROR_NOT_CONNECTED), or why the
 * attempt failed (DOCA_ERROR_CONNECTION_ABORTED: refused, or nobody
 * listening; else unreachable, reset). on_error reports failures after that. */
static inline doca_error_t xport_connect(struct xport_worker *worker, const struct sockaddr *addr,
                                         size_t addr_len, const void *data, size_t len,
                                         xport_connected_fn connected, xport_ep_error_fn on_error,
                                         void *arg, struct xport_ep **ep)
{
	return xport_worker_ops(worker)->connect(worker, addr, addr_len, data, len, connected,
	                                         on_error, arg, ep);
}

#endif /* SDOCA_TRANSPORT_XPORT_H_ */
