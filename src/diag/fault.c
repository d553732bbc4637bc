/*
 * Fault injection on connections.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Fault injection on connections (the specification: core/faults.h). A QP
 * whose connection a fault names gets a struct nic_fault when it is created;
 * every other QP has none, and the data path tests one pointer per message.
 * The hooks:
 *
 *   a message from the peer (worker.c, after binding):
 *     delay       handed over ms later (held, like a request waiting its turn)
 *     drop        lost: RC cannot recover it, the requester times out
 *     vanish      this and the peer's next messages lost (for ms, or for good)
 *     stop        the worker stops progressing for ms (or for good): to the
 *                 peer this process is stopped (SIGSTOP); its own submits
 *                 still leave
 *     rnr         at a request that consumes a receive: the receive queue
 *                 looks empty for ms - the QP uses an empty one meanwhile -
 *                 (RNR waits, notices, and RNR retries exceeded for a
 *                 finite retry count)
 *     empty_read  at a read response: the read succeeds, nothing placed (a
 *                 NIC bug, to test data checks)
 *   a request this side posts (requester.c):
 *     break       not sent; the oldest request fails with TIME_OUT and the
 *                 connection breaks, as when RC's transport retries run out
 *
 * A QP with faults takes the slow paths of the data path for every message
 * and post (its rx_check and post_limit never match), which look at them:
 * QPs without pay nothing for them.
 *
 * Positions count a kind's events on the connection from 1 (messages
 * received; requests that consume a receive; read responses; requests
 * posted), so a specification and a seed replay the same faults.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "core/faults.h"
#include "core/sdk_log.h"
#include "diag/fault.h"
#include "nic/nic.h"

SDOCA_LOG_MODULE(nic_fault);

struct nic_fault {
	struct sdoca_fault_config cfg;
	uint32_t conn;
	uint64_t events[SDOCA_FAULT_KINDS];
	uint64_t fired[SDOCA_FAULTS_MAX_ITEMS];
	uint64_t rnr_until;           /* the receive queue looks empty until then */
	struct nic_srq empty;         /* ... the QP's meanwhile */
	struct nic_srq *srq;          /* ... and its own, for after */
	uint64_t vanish_until;        /* the peer's messages are lost until then */
	struct nic_held_list delayed; /* in the order they came; arrived_ns: when due */
};

void diag_fault_attach(struct nic_qp *qp, uint32_t conn)
{
	struct nic_fault *f = calloc(1, sizeof(*f));

	if (!f)
		return;
	if (!sdoca_faults_for_conn(conn, &f->cfg)) {
		free(f);
		return;
	}
	f->conn = conn;
	STAILQ_INIT(&f->delayed);
	nic_srq_init(&f->empty, qp->worker, 0);
	qp->fault = f;
}

static void drop_delayed(struct nic_qp *qp)
{
	struct nic_fault *f = qp->fault;
	struct nic_held *h;

	while ((h = STAILQ_FIRST(&f->delayed))) {
		STAILQ_REMOVE_HEAD(&f->delayed, link);
		xport_rx_release(qp->worker->xport, &h->rx);
		free(h);
	}
}

void diag_fault_detach(struct nic_qp *qp)
{
	drop_delayed(qp);
	free(qp->fault);
	qp->fault = NULL;
}

static void injected(struct nic_qp *qp, uint32_t i, const char *what)
{
	struct nic_fault *f = qp->fault;

	f->fired[i]++;
	qp->counters.faults_injected++;
	sdoca_faults_count();
	SDOCA_INFO("fault injected: %s (fault %u, seed %" PRIu64 ", position %" PRIu64
	           ") on connection %u (QP %u): %s",
	           sdoca_fault_kind_name(f->cfg.items[i].kind), i + 1, f->cfg.seed,
	           f->events[f->cfg.items[i].kind], f->conn, qp->wire_id, what);
}

/* Counts an event of each kind in mask; the first item of those kinds that
 * fires (its index), or -1. */
static int fires(struct nic_qp *qp, uint32_t mask)
{
	struct nic_fault *f = qp->fault;
	int hit = -1;

	for (int k = 0; k < SDOCA_FAULT_KINDS; k++)
		if (mask & (1u << k))
			f->events[k]++;
	for (uint32_t i = 0; i < f->cfg.n && hit < 0; i++) {
		enum sdoca_fault_kind k = f->cfg.items[i].kind;

		if ((mask & (1u << k)) &&
		    sdoca_fault_fires(&f->cfg, i, f->conn, f->events[k], f->fired[i]))
			hit = (int)i;
	}
	return hit;
}

static uint64_t until(uint64_t now, uint32_t ms)
{
	return ms ? now + (uint64_t)ms * 1000000u : UINT64_MAX;
}

/* Held for ms; the service thread, which may sleep without a timer, is
 * woken for the deadline. */
static bool delay(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx, uint32_t ms)
{
	struct nic_held *h = nic_held_new(m, rx);

	if (!h)
		return false;
	h->arrived_ns = nic_now_ns() + (uint64_t)ms * 1000000u;
	STAILQ_INSERT_TAIL(&qp->fault->delayed, h, link);
	nic_worker_wake_service(qp->worker);
	return true;
}

bool diag_fault_message(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx, bool *kept)
{
	struct nic_fault *f = qp->fault;
	uint32_t mask = 1u << SDOCA_FAULT_DELAY | 1u << SDOCA_FAULT_DROP |
	                1u << SDOCA_FAULT_VANISH | 1u << SDOCA_FAULT_STOP;
	uint64_t now = nic_now_ns();
	int i;

	nic_assert_locked(qp->worker);
	*kept = false;
	if (f->vanish_until) {
		if (now < f->vanish_until)
			goto lost;
		f->vanish_until = 0;
	}
	if (nic_op(m->opcode)->flags & NIC_OPF_RECV)
		mask |= 1u << SDOCA_FAULT_RNR;
	if (m->opcode == NIC_OP_READ_RESP)
		mask |= 1u << SDOCA_FAULT_EMPTY_READ;
	i = fires(qp, mask);
	if (i < 0)
		return false;
	switch (f->cfg.items[i].kind) {
	case SDOCA_FAULT_DELAY:
		injected(qp, (uint32_t)i, nic_opcode_name(m->opcode));
		*kept = delay(qp, m, rx, f->cfg.items[i].ms);
		if (*kept)
			return true;
		goto lost;
	case SDOCA_FAULT_DROP:
		injected(qp, (uint32_t)i, nic_opcode_name(m->opcode));
		goto lost;
	case SDOCA_FAULT_VANISH:
		injected(qp, (uint32_t)i, "the peer's messages stop arriving");
		f->vanish_until = until(now, f->cfg.items[i].ms);
		goto lost;
	case SDOCA_FAULT_STOP:
		injected(qp, (uint32_t)i, "the soft NIC stops");
		qp->worker->stop_until_ns = until(now, f->cfg.items[i].ms);
		return false;
	case SDOCA_FAULT_RNR:
		injected(qp, (uint32_t)i, "the receive queue looks empty");
		f->rnr_until = until(now, f->cfg.items[i].ms);
		if (qp->srq != &f->empty) {
			/* A QP already waiting for a receive waits on the empty
			 * queue now: it is on the waiters list of the queue it
			 * uses, which the end of the fault leaves. */
			bool waiting = qp->resp.waiting_recv;

			nic_srq_leave(qp->srq, qp);
			f->srq = qp->srq;
			qp->srq = &f->empty;
			if (waiting)
				nic_srq_wait(&f->empty, qp);
		}
		nic_worker_wake_service(qp->worker);
		return false;
	case SDOCA_FAULT_EMPTY_READ:
		if (!nic_comp_read_empty(qp, m, rx))
			return false;
		injected(qp, (uint32_t)i, "a read response placed nowhere");
		return true;
	default:
		return false;
	}
lost:
	xport_rx_release(qp->worker->xport, rx);
	return true;
}

bool diag_fault_post(struct nic_qp *qp)
{
	int i;

	nic_assert_locked(qp->worker);
	i = fires(qp, 1u << SDOCA_FAULT_BREAK);
	if (i < 0)
		return false;
	injected(qp, (uint32_t)i, "the connection breaks (transport retries exhausted)");
	return true;
}

bool diag_fault_stopped(struct nic_worker *w)
{
	if (nic_now_ns() < w->stop_until_ns)
		return true;
	SDOCA_INFO("fault: the soft NIC goes on after its stop");
	w->stop_until_ns = 0;
	return false;
}

void diag_fault_timers(struct nic_qp *qp, uint64_t now, uint64_t *next)
{
	struct nic_fault *f = qp->fault;
	struct nic_held *h;

	nic_assert_locked(qp->worker);
	nic_qp_get(qp); /* a message delivered may fail it; freed after */
	if (f->rnr_until && now >= f->rnr_until) {
		bool waited = qp->resp.waiting_recv;

		f->rnr_until = 0;
		nic_srq_leave(&f->empty, qp);
		qp->srq = f->srq;
		if (waited) /* as when a receive is posted: it waits there again if none is */
			nic_resp_drain(qp);
	}
	if (f->rnr_until && f->rnr_until < *next)
		*next = f->rnr_until;
	while ((h = STAILQ_FIRST(&f->delayed)) && h->arrived_ns <= now) {
		STAILQ_REMOVE_HEAD(&f->delayed, link);
		if (nic_worker_dispatch(qp, &h->msg, &h->rx))
			h->rx.desc = NULL; /* held again: the copy moved */
		free(h);
	}
	if (h && h->arrived_ns < *next)
		*next = h->arrived_ns;
	nic_qp_put(qp);
}
