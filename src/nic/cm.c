/*
 * Connecting QPs through a listening port, as RDMA-CM does.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Connecting QPs through a listening port, as RDMA-CM does, instead of by
 * connection info the application carries out of band.
 *
 * The client's transport connection request carries its QP's connection
 * info and the application's private data; the server answers, when the
 * application accepts, with its own. The transport endpoint of that
 * handshake becomes the QP's: no second set-up. The data each way
 * (docs/wire.md), little-endian:
 *   0 u16 connection info length  2 u16 private data length
 *   4 connection info, then private data
 */
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/sdk_log.h"
#include "nic/nic.h"

SDOCA_LOG_MODULE(nic_cm);

#define DATA_HEADER 4
#define MAX_PRIVATE (XPORT_CONN_DATA_MAX - DATA_HEADER - NIC_CONN_INFO_MAX)

struct nic_listener {
	struct nic_worker *worker;
	struct xport_listener *xport;
	nic_request_fn on_request;
	void *arg;
	/* Requests handed to the owner and not answered: refused on close. */
	LIST_HEAD(, nic_cm_request) requests;
};

struct nic_cm_request {
	struct xport_conn_request *xport;
	struct nic_listener *listener;
	const uint8_t *info; /* the client's connection info, checked */
	size_t info_len;
	LIST_ENTRY(nic_cm_request) link;
};

doca_error_t nic_cm_data_parse(const uint8_t *data, size_t len, const uint8_t **info,
                               size_t *info_len, const uint8_t **private_data, size_t *private_len)
{
	size_t ilen, plen;

	if (len < DATA_HEADER)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "connection data of %zu bytes", len);
	ilen = sdoca_get_le16(data);
	plen = sdoca_get_le16(data + 2);
	if (len != DATA_HEADER + ilen + plen)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "connection data of %zu bytes says %zu + %zu follow", len, ilen,
		                  plen);
	if (nic_conn_info_check(data + DATA_HEADER, ilen) != DOCA_SUCCESS)
		return DOCA_ERROR_INVALID_VALUE;
	*info = data + DATA_HEADER;
	*info_len = ilen;
	*private_data = plen ? data + DATA_HEADER + ilen : NULL;
	*private_len = plen;
	return DOCA_SUCCESS;
}

/* This QP's connection data with private_data; *len its size (0: failed). */
static uint8_t *build_data(const struct nic_qp *qp, const void *private_data, size_t plen,
                           size_t *len)
{
	uint8_t *data;
	size_t ilen;

	*len = 0;
	if (plen > MAX_PRIVATE)
		return NULL;
	data = malloc(DATA_HEADER + NIC_CONN_INFO_MAX + plen);
	if (!data)
		return NULL;
	ilen = nic_qp_info(qp, data + DATA_HEADER, NIC_CONN_INFO_MAX);
	if (ilen == 0) {
		free(data);
		return NULL;
	}
	sdoca_put_le16(data, (uint16_t)ilen);
	sdoca_put_le16(data + 2, (uint16_t)plen);
	if (plen)
		memcpy(data + DATA_HEADER + ilen, private_data, plen);
	*len = DATA_HEADER + ilen + plen;
	return data;
}

/* --- the server --- */

static void forget(struct nic_cm_request *r)
{
	LIST_REMOVE(r, link);
	free(r);
}

/* The transport's request callback: inside its progress, lock held. */
static void on_request(void *arg, struct xport_conn_request *xreq)
{
	struct nic_listener *l = arg;
	const uint8_t *info, *pd;
	size_t info_len, pd_len;
	struct nic_cm_request *r;

	nic_assert_locked(l->worker);
	if (nic_cm_data_parse(xreq->data, xreq->data_len, &info, &info_len, &pd, &pd_len) !=
	    DOCA_SUCCESS) {
		SDOCA_WARN("port %u: refused a connection request with malformed data",
		           xport_listener_port(l->xport));
		xport_reject(xreq, NULL, 0);
		return;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		xport_reject(xreq, NULL, 0);
		return;
	}
	r->xport = xreq;
	r->listener = l;
	r->info = info;
	r->info_len = info_len;
	LIST_INSERT_HEAD(&l->requests, r, link);
	if (!l->on_request(l->arg, r, pd, pd_len, (const struct sockaddr *)xreq->peer,
	                   xreq->peer_len)) {
		xport_reject(xreq, NULL, 0);
		forget(r);
	}
}

doca_error_t nic_listen(struct nic_worker *worker, const struct sockaddr *addr, size_t addr_len,
                        nic_request_fn fn, void *arg, struct nic_listener **out)
{
	struct nic_listener *l = calloc(1, sizeof(*l));
	doca_error_t status;

	if (!l)
		return DOCA_ERROR_NO_MEMORY;
	l->worker = worker;
	l->on_request = fn;
	l->arg = arg;
	LIST_INIT(&l->requests);
	nic_lock(worker);
	status = xport_listen(worker->xport, addr, addr_len, on_request, l, &l->xport);
	nic_unlock(worker);
	if (status != DOCA_SUCCESS) {
		free(l);
		return status;
	}
	*out = l;
	return DOCA_SUCCESS;
}

uint16_t nic_listener_port(const struct nic_listener *listener)
{
	return xport_listener_port(listener->xport);
}

void nic_listener_close(struct nic_listener *l)
{
	nic_lock(l->worker);
	while (!LIST_EMPTY(&l->requests)) {
		struct nic_cm_request *r = LIST_FIRST(&l->requests);

		xport_reject(r->xport, NULL, 0);
		forget(r);
	}
	xport_listener_close(l->xport);
	nic_unlock(l->worker);
	free(l);
}

doca_error_t nic_qp_accept(struct nic_qp *qp, struct nic_cm_request *r, const void *private_data,
                           size_t len)
{
	struct nic_worker *w = qp->worker;
	size_t data_len;
	uint8_t *data = build_data(qp, private_data, len, &data_len);
	doca_error_t status = DOCA_SUCCESS;

	uint8_t info[NIC_CONN_INFO_MAX];

	nic_lock(w);
	if (!data)
		status = len > MAX_PRIVATE ? DOCA_ERROR_INVALID_VALUE : DOCA_ERROR_NO_MEMORY;
	else if (qp->state != NIC_QP_INIT || qp->cm_connecting)
		status = DOCA_ERROR_BAD_STATE;
	/* The client's info lives in the request, which the transport's answer
	 * consumes. */
	memcpy(info, r->info, r->info_len);
	if (status != DOCA_SUCCESS)
		xport_reject(r->xport, NULL, 0);
	else
		status = xport_accept(r->xport, data, data_len, nic_qp_ep_error, qp, &qp->ep);
	/* Up when the client's first message (its HELLO) comes. */
	if (status == DOCA_SUCCESS)
		nic_qp_ready(qp, info);
	forget(r);
	nic_unlock(w);
	free(data);
	return status;
}

void nic_cm_reject(struct nic_worker *worker, struct nic_cm_request *r)
{
	nic_lock(worker);
	xport_reject(r->xport, NULL, 0);
	forget(r);
	nic_unlock(worker);
}

/* --- the client --- */

/* Lock held; the QP is still connecting. */
static void unreached(struct nic_qp *qp, doca_error_t status, const char *why)
{
	struct xport_ep *ep = qp->ep;

	nic_assert_locked(qp->worker);
	SDOCA_INFO("QP %u: connecting through a listener failed: %s", qp->wire_id, why);
	qp->cm_connecting = false;
	qp->state = NIC_QP_ERROR;
	qp->error_status = status;
	qp->ep = NULL;
	if (ep)
		xport_ep_close(ep, true);
	nic_qp_tell_down(qp, NIC_DOWN_UNREACHED, status);
}

/* The transport's connected callback: inside its progress, lock held. */
static void on_answer(void *arg, doca_error_t status, const void *data, size_t len)
{
	struct nic_qp *qp = arg;
	const uint8_t *info, *pd;
	size_t info_len, pd_len;

	nic_assert_locked(qp->worker);
	if (!qp->cm_connecting || qp->state != NIC_QP_INIT)
		return;
	if (status != DOCA_SUCCESS) {
		unreached(qp, status,
		          status == DOCA_ERROR_CONNECTION_ABORTED ? "refused (or nobody listens)"
		                                                  : doca_error_get_name(status));
		return;
	}
	if (nic_cm_data_parse(data, len, &info, &info_len, &pd, &pd_len) != DOCA_SUCCESS) {
		unreached(qp, DOCA_ERROR_CONNECTION_RESET, "the server's answer is malformed");
		return;
	}
	qp->cm_connecting = false;
	nic_qp_ready(qp, info);
	/* The server accepted: up now, with its private data (its HELLO may
	 * have come before this answer). */
	qp->peer.up = true;
	qp->told_up = true;
	if (qp->events && qp->events->up)
		qp->events->up(qp->owner, pd, pd_len);
}

doca_error_t nic_qp_connect_to(struct nic_qp *qp, const struct sockaddr *addr, size_t addr_len,
                               const void *private_data, size_t len, uint32_t timeout_ms)
{
	struct nic_worker *w = qp->worker;
	size_t data_len;
	uint8_t *data = build_data(qp, private_data, len, &data_len);
	doca_error_t status = DOCA_SUCCESS;

	if (!data)
		return len > MAX_PRIVATE ? DOCA_ERROR_INVALID_VALUE : DOCA_ERROR_NO_MEMORY;
	nic_lock(w);
	if (qp->state != NIC_QP_INIT || qp->cm_connecting)
		status = DOCA_ERROR_BAD_STATE;
	else
		status = xport_connect(w->xport, addr, addr_len, data, data_len, on_answer,
		                       nic_qp_ep_error, qp, &qp->ep);
	if (status == DOCA_SUCCESS) {
		qp->cm_connecting = true;
		qp->cm_deadline_ns = nic_now_ns() + (uint64_t)timeout_ms * 1000000u;
		nic_worker_wake_service(w); /* for the deadline */
	}
	nic_unlock(w);
	free(data);
	return status;
}

void nic_cm_timers(struct nic_qp *qp, uint64_t now_ns, uint64_t *next_ns)
{
	nic_assert_locked(qp->worker);
	if (qp->state != NIC_QP_INIT) {
		qp->cm_connecting = false;
		return;
	}
	if (now_ns >= qp->cm_deadline_ns) {
		unreached(qp, DOCA_ERROR_TIME_OUT, "no answer in time");
		return;
	}
	if (qp->cm_deadline_ns < *next_ns)
		*next_ns = qp->cm_deadline_ns;
}
