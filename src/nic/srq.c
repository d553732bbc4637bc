/*
 * The shared receive queue of one RDMA context.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The shared receive queue: the receives of one RDMA context, consumed by
 * the sends and writes-with-immediate of all its connections in posting
 * order, and the connections whose next request waits for one (RNR).
 */
#include "core/sdk_log.h"
#include "nic/nic.h"

SDOCA_LOG_MODULE(srq);

void nic_srq_init(struct nic_srq *srq, struct nic_worker *worker, uint32_t capacity)
{
	srq->worker = worker;
	srq->capacity = capacity;
	srq->count = 0;
	STAILQ_INIT(&srq->recvs);
	TAILQ_INIT(&srq->waiters);
}

static doca_error_t post_recv(struct nic_srq *srq, struct nic_wqe *wqe, doca_error_t status)
{
	struct nic_worker *w = srq->worker;
	doca_error_t err = DOCA_SUCCESS;
	struct nic_qp *qp;

	nic_lock(w);
	if (srq->count >= srq->capacity) {
		err = sdoca_fail(
		        DOCA_ERROR_AGAIN,
		        "receive queue full (%u receives posted); raise the receive queue size",
		        srq->capacity);
		goto out;
	}
	wqe->op = NIC_WR_RECV;
	wqe->outstanding = 0;
	wqe->status = status; /* not SUCCESS: refused when consumed (responder.c) */
	STAILQ_INSERT_TAIL(&srq->recvs, wqe, link);
	srq->count++;
	/* A request that waited for a receive (RNR) runs now. */
	while (!STAILQ_EMPTY(&srq->recvs) && (qp = TAILQ_FIRST(&srq->waiters))) {
		nic_srq_leave(srq, qp);
		nic_resp_drain(qp);
	}
out:
	nic_unlock(w);
	return err;
}

doca_error_t nic_post_recv(struct nic_srq *srq, struct nic_wqe *wqe)
{
	return post_recv(srq, wqe, DOCA_SUCCESS);
}

doca_error_t nic_post_recv_refused(struct nic_srq *srq, struct nic_wqe *wqe, doca_error_t status)
{
	return post_recv(srq, wqe, status);
}

struct nic_wqe *nic_srq_take(struct nic_srq *srq)
{
	struct nic_wqe *recv = STAILQ_FIRST(&srq->recvs);

	nic_assert_locked(srq->worker);
	STAILQ_REMOVE_HEAD(&srq->recvs, link);
	srq->count--;
	return recv;
}

void nic_srq_wait(struct nic_srq *srq, struct nic_qp *qp)
{
	nic_assert_locked(srq->worker);
	if (!qp->resp.waiting_recv) {
		TAILQ_INSERT_TAIL(&srq->waiters, qp, resp.waiter);
		qp->resp.waiting_recv = true;
	}
}

void nic_srq_leave(struct nic_srq *srq, struct nic_qp *qp)
{
	nic_assert_locked(srq->worker);
	if (qp->resp.waiting_recv) {
		TAILQ_REMOVE(&srq->waiters, qp, resp.waiter);
		qp->resp.waiting_recv = false;
	}
}

void nic_srq_flush(struct nic_srq *srq, doca_error_t status)
{
	struct nic_worker *w = srq->worker;
	struct nic_qp *qp;

	nic_lock(w);
	while (!STAILQ_EMPTY(&srq->recvs)) {
		struct nic_wqe *wqe = nic_srq_take(srq);

		wqe->done(wqe, status);
	}
	while ((qp = TAILQ_FIRST(&srq->waiters)))
		nic_srq_leave(srq, qp);
	nic_unlock(w);
}
