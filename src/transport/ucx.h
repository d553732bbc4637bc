/*
 * The UCX instance's objects, shared by ucx.c, ucx_op.c, ucx_cm.c.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The UCX instance's objects, shared by ucx.c (workers, endpoints), ucx_op.c
 * (requests and the data path) and ucx_cm.c (connection set-up through a
 * listening socket).
 */
#ifndef SDOCA_TRANSPORT_UCX_H_
#define SDOCA_TRANSPORT_UCX_H_

#include <stdatomic.h>

#include <ucp/api/ucp.h>

#include "core/compiler.h"
#include "transport/xport.h"

struct context;
struct ucx_cm_conn;
struct ucx_cm_listener;

/* What softdoca keeps in the space UCX reserves in front of each request
 * (ucp_params.request_size). UCX initialises it once per request object
 * (request_init), and it is back to that state whenever UCX hands the
 * object out again, so it never carries a previous use's owner. */
struct ucx_op {
	struct xport_op op;  /* the owner's callback, set once the call returned */
	struct ucx_op *next; /* on the worker's deferred completions */
	ucs_status_t status;
	bool tracked;  /* handed to its owner: UCX's callback delivers to op */
	bool finished; /* completed inside the call that made it: that call reports it */
};

struct ucx_worker {
	struct xport_worker super;
	/* Calls into UCX that may complete requests (send, receive, close) in
	 * progress on this worker, and the completions they brought, delivered
	 * at the end of the next progress: a callback never runs inside the
	 * soft NIC's own call, half-way through its bookkeeping. */
	unsigned int calls;
	struct ucx_op *deferred, **deferred_tail;
	struct context *ctx;
	ucp_worker_h ucp;
	int fd;
	void *address;
	size_t address_len;
	xport_recv_fn recv;
	void *recv_arg;
	unsigned int closing; /* endpoints whose close has not completed */
	/* Inside ucp_worker_progress, whose callbacks may come from UCX's
	 * handling of an endpoint's failure: closing that endpoint there frees
	 * it under UCX's feet (it asserts, or crashes). Closes asked for then,
	 * and the forced closes that follow graceful flushes, wait in
	 * to_close for the end of the progress (after_progress). */
	unsigned int progressing;
	struct ucx_ep *to_close;
	/* Connection set-up (ucx_cm.c): set by UCX's async thread when one of
	 * the sockets below is ready, read by the worker's progress (while there
	 * are any: see ucx_cm_active). */
	atomic_bool cm_ready;
	struct ucx_cm_listener *listeners;
	struct ucx_cm_conn *conns; /* handshakes in progress */
	/* The server handshakes whose HELLO has not come, oldest first. */
	struct ucx_cm_conn *waiting, **waiting_tail;
	unsigned int num_waiting;
	struct ucx_ep *eps; /* every endpoint of the worker (ucx_ep_new .. free) */
};

enum ucx_ep_state {
	UCX_EP_READY,
	UCX_EP_CONNECTING, /* a client waiting for the server's answer */
	UCX_EP_FAILED,
};

struct ucx_ep {
	struct xport_ep super;
	struct ucx_worker *worker;
	ucp_ep_h ucp; /* NULL while connecting */
	xport_ep_error_fn on_error;
	xport_connected_fn connected; /* a client's: the handshake's outcome */
	void *arg;
	enum ucx_ep_state state;
	struct ucx_cm_conn *conn;     /* a client's handshake while connecting */
	uint64_t peer_uuid;           /* the peer worker's id, from its address */
	struct ucx_ep *next, **prev;  /* in worker->eps */
	struct ucx_ep *next_to_close; /* in worker->to_close */
	bool close_force;             /* ... and how */
};

/* The active-message id of every softdoca message. */
#define XPORT_AM_ID 0x5d0a

static inline struct ucx_worker *to_worker(const struct xport_worker *w)
{
	return sdoca_container_of(w, struct ucx_worker, super);
}

static inline struct ucx_ep *to_ep(const struct xport_ep *ep)
{
	return sdoca_container_of(ep, struct ucx_ep, super);
}

/* ucx.c: an endpoint not yet connected to anything. */
struct ucx_ep *ucx_ep_new(struct ucx_worker *worker, xport_ep_error_fn on_error, void *arg);
/* ucx.c: unlinks and frees an endpoint (NULL: nothing). */
void ucx_ep_free(struct ucx_ep *e);
/* ucx.c: connects e to a peer's worker address (checked first). */
doca_error_t ucx_ep_connect(struct ucx_ep *e, const void *addr, size_t len);

/* ucx_op.c: requests, completions and the data path. */
doca_error_t ucx_doca_status(ucs_status_t status);
/* ucp_params.request_init: a request object's record, once. */
void ucx_request_init(void *request);
/* Delivers the completions that came inside calls (progress, teardown). */
void ucx_deliver_deferred(struct ucx_worker *worker);
doca_error_t ucx_ep_send(struct xport_ep *ep, const void *hdr, size_t hdr_len,
                         const struct xport_iov *iov, size_t iovcnt, xport_done_fn done, void *arg,
                         struct xport_op **op);
doca_error_t ucx_ep_send_now(struct xport_ep *ep, const void *hdr, size_t hdr_len);
doca_error_t ucx_rx_receive(struct xport_worker *worker, struct xport_rx *rx,
                            const struct xport_iov *iov, size_t iovcnt, xport_done_fn done,
                            void *arg, struct xport_op **op);
void ucx_rx_release(struct xport_worker *worker, struct xport_rx *rx);

/* ucx.c: the worker's ops after its listeners or handshakes changed. */
void ucx_cm_active(struct ucx_worker *worker);

/* ucx_cm.c: the listener operations of xport_ucx_ops. */
doca_error_t ucx_cm_listen(struct xport_worker *worker, const struct sockaddr *addr,
                           size_t addr_len, xport_conn_request_fn on_request, void *arg,
                           struct xport_listener **listener);
uint16_t ucx_cm_listener_port(const struct xport_listener *listener);
void ucx_cm_listener_close(struct xport_listener *listener);
doca_error_t ucx_cm_accept(struct xport_conn_request *request, const void *data, size_t len,
                           xport_ep_error_fn on_error, void *arg, struct xport_ep **ep);
void ucx_cm_reject(struct xport_conn_request *request, const void *data, size_t len);
doca_error_t ucx_cm_connect(struct xport_worker *worker, const struct sockaddr *addr,
                            size_t addr_len, const void *data, size_t len,
                            xport_connected_fn connected, xport_ep_error_fn on_error, void *arg,
                            struct xport_ep **ep);
/* The connection set-up handshake's messages (ucx_cm.c). */
enum ucx_cm_kind {
	UCX_CM_HELLO = 1,
	UCX_CM_ACCEPT = 2,
	UCX_CM_REJECT = 3,
};
#define UCX_CM_HEADER 16
#define UCX_CM_MAX_ADDR 4096
#define UCX_CM_MAX_MSG (UCX_CM_HEADER + UCX_CM_MAX_ADDR + XPORT_CONN_DATA_MAX)
struct ucx_cm_msg {
	enum ucx_cm_kind kind;
	const uint8_t *addr; /* the sender's worker address (not in a REJECT) */
	size_t addr_len;
	const uint8_t *data; /* its connection data, NULL if none */
	size_t data_len;
};
enum ucx_cm_parsed {
	UCX_CM_PARTIAL, /* *need bytes are needed to go on */
	UCX_CM_WHOLE,   /* msg is one whole, valid message */
	UCX_CM_BAD,     /* not a handshake message */
};
/* Checks the bytes received so far (from another process: untrusted). */
enum ucx_cm_parsed ucx_cm_parse(const uint8_t *buf, size_t have, size_t *need,
                                struct ucx_cm_msg *msg);

/* Moves the handshakes whose sockets are ready on, and drops those that
 * waited too long for their first message; returns the events. */
unsigned int ucx_cm_progress(struct ucx_worker *worker);
/* A client endpoint closed while connecting: its handshake ends. */
void ucx_cm_abandon(struct ucx_ep *e);
/* Before the worker goes: no socket may stay watched (a caller's mistake). */
void ucx_cm_close_all(struct ucx_worker *worker);

#endif /* SDOCA_TRANSPORT_UCX_H_ */
