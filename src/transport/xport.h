/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The transport under the soft NIC: messages (a small header plus a payload)
 * between workers, over UCX active messages. UCX picks shared memory between
 * processes of one host and TCP between hosts; large payloads travel by
 * rendezvous and land straight in the buffer the receiver names.
 *
 * Only src/transport/ucx.c knows UCX; this interface has no UCX types.
 *
 * Threads: a worker and its endpoints are not thread-safe; the soft NIC
 * serialises every call on a worker with its own lock. Callbacks run inside
 * xport_worker_progress() (or the call that completed immediately).
 */
#ifndef SDOCA_TRANSPORT_XPORT_H_
#define SDOCA_TRANSPORT_XPORT_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>

enum xport_mode {
	XPORT_AUTO, /* shared memory on one host, TCP between hosts */
	XPORT_SHM,  /* shared memory only */
	XPORT_TCP,  /* TCP only, even on one host */
};

struct xport_worker;
struct xport_ep;
struct xport_op; /* an operation in flight */

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
	bool persistent; /* eager bytes the transport lets us keep past the callback */
	bool held;       /* kept past the receive callback (see xport_recv_fn) */
	void *desc;      /* transport handle (held and not persistent: our copy) */
};

/* Marks a copy of rx that the receive callback keeps (it then returns true);
 * eager bytes the transport does not let us keep are copied (the rare RNR
 * path pays the copy, not every message). False: out of memory. */
bool xport_rx_hold(struct xport_rx *rx);

/* A message arrived. The callback either places or drops the payload before
 * returning false, or keeps a copy of rx marked with xport_rx_hold() and
 * returns true; the copy is later consumed by xport_rx_receive() or
 * xport_rx_release(). */
typedef bool (*xport_recv_fn)(void *arg, const void *hdr, size_t hdr_len, struct xport_rx *rx);

/* An asynchronous operation finished (status DOCA_SUCCESS or an error). */
typedef void (*xport_done_fn)(void *arg, doca_error_t status);

/* The connection behind an endpoint failed (peer gone, network error). */
typedef void (*xport_ep_error_fn)(void *arg, doca_error_t status);

/* Mode from SOFTDOCA_TRANSPORT=auto|shm|tcp (INVALID_VALUE for anything else). */
doca_error_t xport_mode_from_env(enum xport_mode *mode);

doca_error_t xport_worker_create(const char *ifname, enum xport_mode mode, xport_recv_fn recv,
                                 void *recv_arg, struct xport_worker **worker);
void xport_worker_destroy(struct xport_worker *worker);

/* This worker's address, for the peer's xport_ep_create(). */
void xport_worker_address(const struct xport_worker *worker, const void **addr, size_t *len);

/* Processes arrived messages and completions; returns the number of events. */
unsigned int xport_worker_progress(struct xport_worker *worker);

/* A file descriptor that becomes readable when the armed worker has events. */
int xport_worker_fd(const struct xport_worker *worker);
/* Arms the fd. False means events are already pending: progress instead of sleeping. */
bool xport_worker_arm(struct xport_worker *worker);

/* Connects to a peer's worker address. on_error runs at most once. */
doca_error_t xport_ep_create(struct xport_worker *worker, const void *addr, size_t len,
                             xport_ep_error_fn on_error, void *arg, struct xport_ep **ep);
/* Closes an endpoint; force drops what is queued (the peer is gone). Operations
 * still in flight complete with an error; the endpoint is freed afterwards. */
void xport_ep_close(struct xport_ep *ep, bool force);

/* Sends hdr and the payload described by iov. The iov array and the bytes must
 * stay valid until done runs. Returns DOCA_SUCCESS when the send completed at
 * once (done is not called), DOCA_ERROR_IN_PROGRESS when done will be called
 * (*op, if op is not NULL, is then the operation), or an error (done is not
 * called). */
doca_error_t xport_send(struct xport_ep *ep, const void *hdr, size_t hdr_len,
                        const struct xport_iov *iov, size_t iovcnt, xport_done_fn done, void *arg,
                        struct xport_op **op);

/* Sends a header-only message if the transport takes it at once, so that
 * hdr need not outlive the call: DOCA_SUCCESS, or DOCA_ERROR_AGAIN when it
 * would have to be queued (nothing was sent; use xport_send). */
doca_error_t xport_send_now(struct xport_ep *ep, const void *hdr, size_t hdr_len);

/* Places a payload into iov (exactly rx->len bytes in total): copies an eager
 * payload, or receives a rendezvous payload straight into the buffers. Same
 * return convention as xport_send. Consumes rx. */
doca_error_t xport_rx_receive(struct xport_worker *worker, struct xport_rx *rx,
                              const struct xport_iov *iov, size_t iovcnt, xport_done_fn done,
                              void *arg, struct xport_op **op);

/* Copies an eager payload (!rx->rndv) into iov, synchronously. Consumes rx. */
void xport_rx_copy(struct xport_worker *worker, struct xport_rx *rx, const struct xport_iov *iov,
                   size_t iovcnt);

/* Gives up on an operation in flight (its peer is lost or hung): done will
 * not be called, and the caller may reuse what the operation referred to. */
void xport_op_abandon(struct xport_op *op);
/* Drops a payload without placing it (a rendezvous payload is never
 * fetched: its sender is told it is done). Consumes rx. */
void xport_rx_release(struct xport_worker *worker, struct xport_rx *rx);

#endif /* SDOCA_TRANSPORT_XPORT_H_ */
