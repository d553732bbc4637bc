/*
 * UCX requests and the data path of the UCX instance.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * UCX requests and the data path of the UCX instance: sends, rendezvous
 * receives, released payloads, and how their completions reach the soft NIC.
 *
 * A request's completion record lives in the space UCX reserves in front of
 * it (struct ucx_op), so the data path allocates nothing. UCX can complete a
 * request inside the very call that makes it - a failing endpoint purges its
 * requests inside ucp_am_recv_data_nbx - before the call has returned it and
 * its owner could be filled in. Such a request is reported by the call
 * itself (done at once, with its status); completions of other requests
 * that UCX delivers inside a call wait for the end of the next progress, so
 * that no callback runs half-way through the soft NIC's bookkeeping. Before
 * this, a resumed TCP peer ran the callback of a request's previous use: a
 * landing completed twice (bench/RESULTS.md, "A resumed peer"). Failures
 * that come inside UCX's progress wait for its end too: they come from
 * UCX's handling of an endpoint's failure, which the soft NIC's answer (a
 * payload released, an ACK sent) must not re-enter; a resumed TCP target
 * crashed in UCX's socket send that way (see op_done).
 */
#include "core/sdk_log.h"
#include "transport/ucx.h"

SDOCA_LOG_MODULE(ucx_op);

doca_error_t ucx_doca_status(ucs_status_t status)
{
	switch (status) {
	case UCS_OK:
		return DOCA_SUCCESS;
	case UCS_ERR_CANCELED:
		return DOCA_ERROR_CONNECTION_ABORTED;
	case UCS_ERR_NO_MEMORY:
		return DOCA_ERROR_NO_MEMORY;
	case UCS_ERR_MESSAGE_TRUNCATED:
		return DOCA_ERROR_TOO_BIG;
	case UCS_ERR_UNREACHABLE:
	case UCS_ERR_CONNECTION_RESET:
	case UCS_ERR_ENDPOINT_TIMEOUT:
	case UCS_ERR_REJECTED:
	case UCS_ERR_NOT_CONNECTED:
		return DOCA_ERROR_CONNECTION_RESET;
	default:
		return DOCA_ERROR_IO_FAILED;
	}
}

/* Once per request object UCX creates (not per use). */
void ucx_request_init(void *request)
{
	struct ucx_op *r = request;

	r->op.done = NULL;
	r->next = NULL;
	r->tracked = false;
	r->finished = false;
}

/* Tells a request's owner it is over, once, and gives the request back to
 * UCX in the state request_init left it in. */
static void deliver(struct ucx_op *r)
{
	ucs_status_t status = r->status;

	r->tracked = false;
	r->next = NULL;
	xport_op_done(&r->op, ucx_doca_status(status));
	ucp_request_free(r);
}

/* Completions that came inside a call, in the order they came. */
void ucx_deliver_deferred(struct ucx_worker *worker)
{
	struct ucx_op *r;

	while ((r = worker->deferred)) {
		worker->deferred = r->next;
		if (!worker->deferred)
			worker->deferred_tail = &worker->deferred;
		deliver(r);
	}
}

/* UCX's completion callback of sends and receives (user_data: the worker). */
static void op_done(void *request, ucs_status_t status, void *user_data)
{
	struct ucx_worker *worker = user_data;
	struct ucx_op *r = request;

	r->status = status;
	if (SDOCA_UNLIKELY(!r->tracked)) {
		/* Inside the call that makes it, which reports it (track). */
		r->finished = true;
		return;
	}
	/* A request failing inside UCX's progress was purged by UCX's handling
	 * of its endpoint's failure, which is not over yet: what the soft NIC
	 * does about it calls UCX again (releasing a rendezvous payload sends
	 * its sender an ATS on that very endpoint) and re-enters UCX's TCP
	 * transport half-way through tearing the connection down. */
	if (SDOCA_UNLIKELY(worker->calls > 0 || (status != UCS_OK && worker->progressing > 0))) {
		*worker->deferred_tail = r;
		worker->deferred_tail = &r->next;
		return;
	}
	deliver(r);
}

static void recv_done(void *request, ucs_status_t status, size_t length, void *user_data)
{
	(void)length;
	op_done(request, status, user_data);
}

/* The UCX convention (NULL = done now, error pointer, request) as ours. A
 * request UCX completed inside the call is done now too, with its status:
 * its owner's callback is not called. */
static doca_error_t track(void *request, xport_done_fn done, void *arg, struct xport_op **op,
                          const char *what)
{
	struct ucx_op *req = request;
	ucs_status_t status;

	if (op)
		*op = NULL;
	if (request == NULL)
		return DOCA_SUCCESS;
	if (UCS_PTR_IS_ERR(request)) {
		status = UCS_PTR_STATUS(request);
		goto failed;
	}
	if (SDOCA_UNLIKELY(req->finished)) {
		status = req->status;
		req->finished = false;
		ucp_request_free(req);
		if (status == UCS_OK)
			return DOCA_SUCCESS;
		goto failed;
	}
	req->op.done = done;
	req->op.arg = arg;
	req->tracked = true;
	if (op)
		*op = &req->op;
	return DOCA_ERROR_IN_PROGRESS;
failed:
	SDOCA_DBG("%s failed: %s", what, ucs_status_string(status));
	return ucx_doca_status(status);
}
doca_error_t ucx_ep_send(struct xport_ep *xep, const void *hdr, size_t hdr_len,
                         const struct xport_iov *iov, size_t iovcnt, xport_done_fn done, void *arg,
                         struct xport_op **op)
{
	struct ucx_ep *ep = to_ep(xep);
	struct ucx_worker *worker = ep->worker;
	/* UCX reads only the fields op_attr_mask names: the rest stays unset,
	 * not zeroed on every message. */
	ucp_request_param_t param;
	const void *buffer = iov;
	size_t count = iovcnt;
	void *request;

	param.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_DATATYPE |
	                     UCP_OP_ATTR_FIELD_USER_DATA | UCP_OP_ATTR_FIELD_FLAGS;
	param.flags = UCP_AM_SEND_FLAG_REPLY; /* the receiver learns who sent it */
	param.cb.send = op_done;
	param.user_data = worker;
	param.datatype = ucp_dt_make_iov();
	if (SDOCA_UNLIKELY(ep->state != UCX_EP_READY))
		return ep->state == UCX_EP_FAILED ? DOCA_ERROR_CONNECTION_RESET
		                                  : DOCA_ERROR_NOT_CONNECTED;
	if (iovcnt == 1) { /* contiguous: UCX has more protocols for it */
		param.datatype = ucp_dt_make_contig(1);
		buffer = iov[0].base;
		count = iov[0].len;
	} else if (iovcnt == 0) {
		param.datatype = ucp_dt_make_contig(1);
		buffer = NULL;
		count = 0;
	}
	worker->calls++;
	request = ucp_am_send_nbx(ep->ucp, XPORT_AM_ID, hdr, hdr_len, buffer, count, &param);
	worker->calls--;
	return track(request, done, arg, op, "send");
}

doca_error_t ucx_ep_send_now(struct xport_ep *xep, const void *hdr, size_t hdr_len)
{
	struct ucx_ep *ep = to_ep(xep);
	ucp_request_param_t param;
	ucs_status_ptr_t request;

	if (SDOCA_UNLIKELY(ep->state != UCX_EP_READY))
		return ep->state == UCX_EP_FAILED ? DOCA_ERROR_CONNECTION_RESET
		                                  : DOCA_ERROR_NOT_CONNECTED;
	param.op_attr_mask = UCP_OP_ATTR_FLAG_FORCE_IMM_CMPL | UCP_OP_ATTR_FIELD_DATATYPE |
	                     UCP_OP_ATTR_FIELD_FLAGS;
	param.flags = UCP_AM_SEND_FLAG_REPLY;
	param.datatype = ucp_dt_make_contig(1);
	request = ucp_am_send_nbx(ep->ucp, XPORT_AM_ID, hdr, hdr_len, NULL, 0, &param);
	if (request == NULL)
		return DOCA_SUCCESS;
	if (UCS_PTR_IS_ERR(request) && UCS_PTR_STATUS(request) == UCS_ERR_NO_RESOURCE)
		return DOCA_ERROR_AGAIN;
	if (UCS_PTR_IS_PTR(request)) { /* not expected with FORCE_IMM_CMPL: it is on its way */
		ucp_request_free(request);
		return DOCA_SUCCESS;
	}
	return ucx_doca_status(UCS_PTR_STATUS(request));
}

/* A rendezvous payload (xport_rx_receive copies eager ones). */
doca_error_t ucx_rx_receive(struct xport_worker *worker, struct xport_rx *rx,
                            const struct xport_iov *iov, size_t iovcnt, xport_done_fn done,
                            void *arg, struct xport_op **op)
{
	struct ucx_worker *w = to_worker(worker);
	ucp_request_param_t param = {
		.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_DATATYPE |
		                UCP_OP_ATTR_FIELD_USER_DATA,
		.cb.recv_am = recv_done,
		.user_data = w,
		.datatype = ucp_dt_make_iov(),
	};
	void *buffer = (void *)iov;
	size_t count = iovcnt;
	void *desc = rx->desc;
	void *request;

	if (iovcnt == 1) {
		param.datatype = ucp_dt_make_contig(1);
		buffer = iov[0].base;
		count = iov[0].len;
	}
	rx->desc = NULL;
	/* A failing endpoint purges its requests inside this call, this one
	 * among them. */
	w->calls++;
	request = ucp_am_recv_data_nbx(w->ucp, desc, buffer, count, &param);
	w->calls--;
	return track(request, done, arg, op, "receive");
}

/* A rendezvous payload nobody receives costs nothing: UCX tells its sender it
 * is done when the descriptor kept for later is released. Not received into
 * a sink: a receive leaves a request that a closing endpoint asserts on. */
void ucx_rx_release(struct xport_worker *worker, struct xport_rx *rx)
{
	struct ucx_worker *w = to_worker(worker);

	w->calls++;
	ucp_am_data_release(w->ucp, rx->desc);
	w->calls--;
}
