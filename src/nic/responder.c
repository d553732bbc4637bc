/*
 * The responder: checks and executes a request whose turn it is.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The responder: the target side of a QP checks a request whose turn it is
 * and executes it. The checks are a real RC responder's, in rxe's order,
 * each a small step that the opcode's row of nic_opcodes[] calls for:
 *
 *   check_opcode     the connection allows this kind of remote access
 *   check_resources  a request that consumes a receive has one (else RNR)
 *   check_length     a send fits the receive
 *   check_rkey       key exists, range inside, permission, atomic alignment
 *   execute          place / copy out / atomic, then acknowledge
 *
 * A request on a sync event (get, set, add) checks its key in its execute
 * step: a refusal there answers with a status and fails only that request,
 * as DOCA reports a sync-event task's error (the connection stays up).
 *
 * A failed check touches no target memory; it answers with a NAK and moves
 * the connection to error, as on RC hardware - once the requests before it
 * are over (landing.c), since a NAK also acknowledges every request before
 * it. Which requests run when is resp_queue.c's; the transfers a request
 * starts are landing.c's; acknowledgements are ack.c's.
 */
#include <stdlib.h>
#include <string.h>

#include <doca_types.h>

#include "core/sdk_log.h"
#include "core/sync_event.h"
#include "nic/dma.h"
#include "nic/resp.h"

SDOCA_LOG_MODULE(responder);

/* One error class, one place: the NAK the requester gets, and what the
 * responder's own receive (if one was taken) completes with. */
static const struct {
	uint32_t syndrome;
	doca_error_t recv_status;
	const char *what;
} errors[] = {
	[RESP_ERR_ACCESS] = { NIC_SYN_REMOTE_ACCESS, DOCA_SUCCESS, "remote access error" },
	[RESP_ERR_INVALID] = { NIC_SYN_REMOTE_INVALID, DOCA_SUCCESS, "invalid request" },
	[RESP_ERR_LENGTH] = { NIC_SYN_REMOTE_INVALID, DOCA_ERROR_TOO_BIG,
	                      "message longer than the posted receive" },
	[RESP_ERR_INTERNAL] = { NIC_SYN_REMOTE_OPERATIONAL, DOCA_ERROR_IO_FAILED,
	                        "payload could not be placed" },
	/* the receive completes with its own status */
	[RESP_ERR_RECV] = { NIC_SYN_REMOTE_OPERATIONAL, DOCA_ERROR_IO_FAILED,
	                    "the posted receive is bad (local protection error)" },
};

/* Where a request stands in the checks (named in the log when refused). */
enum step {
	CHECK_OPCODE,
	CHECK_RESOURCES,
	CHECK_LENGTH,
	CHECK_RKEY,
	EXECUTE,
};

static const char *const step_names[] = {
	[CHECK_OPCODE] = "check_opcode", [CHECK_RESOURCES] = "check_resources",
	[CHECK_LENGTH] = "check_length", [CHECK_RKEY] = "check_rkey",
	[EXECUTE] = "execute",
};

/* A request being worked on. */
struct resp {
	struct nic_qp *qp;
	const struct nic_msg *m;
	const struct nic_opcode_info *op;
	struct xport_rx *rx;
	struct sdoca_key_region region;
	bool key_held;
	struct nic_wqe *recv; /* the receive it consumes */
};

void nic_resp_answer(struct nic_qp *qp, uint8_t opcode, uint32_t seq)
{
	struct nic_msg a = { .opcode = opcode, .seq = seq };

	nic_qp_send_control(qp, &a);
}

void nic_resp_nak(struct nic_qp *qp, uint32_t seq, uint32_t syndrome, const char *why)
{
	struct nic_msg m = { .opcode = NIC_OP_NAK, .seq = seq, .syndrome = syndrome };

	nic_assert_locked(qp->worker);
	qp->resp.refusal = 0;
	nic_qp_send_control(qp, &m);
	qp->counters.naks_sent_by_syndrome[syndrome]++;
	nic_qp_fail(qp, DOCA_ERROR_CONNECTION_ABORTED, false, why);
}

void nic_resp_refusal_due(struct nic_qp *qp)
{
	struct nic_resp *resp = &qp->resp;

	nic_assert_locked(qp->worker);
	if (SDOCA_UNLIKELY(resp->refusal) && resp->placing == 0 && resp->reads_leaving == 0 &&
	    qp->state == NIC_QP_RTS)
		nic_resp_nak(qp, resp->refusal_seq, errors[resp->refusal].syndrome,
		             errors[resp->refusal].what);
}

static enum resp_result check_opcode(struct resp *r)
{
	uint32_t need = r->op->access;

	return (r->qp->attr.access & need) == need ? RESP_NEXT : RESP_ERR_ACCESS;
}

static enum resp_result check_resources(struct resp *r)
{
	const struct nic_wqe *recv = STAILQ_FIRST(&r->qp->srq->recvs);

	if (!recv)
		return RESP_WAIT_RECV;
	/* A receive refused at post time fails the message that consumes it. */
	return SDOCA_LIKELY(recv->status == DOCA_SUCCESS) ? RESP_NEXT : RESP_ERR_RECV;
}

static uint64_t recv_capacity(const struct nic_wqe *recv)
{
	uint64_t total = 0;

	for (uint32_t i = 0; i < recv->num_sge; i++)
		total += recv->sge[i].len;
	return total;
}

static enum resp_result check_length(struct resp *r)
{
	return r->m->len <= recv_capacity(STAILQ_FIRST(&r->qp->srq->recvs)) ? RESP_NEXT
	                                                                    : RESP_ERR_LENGTH;
}

static SDOCA_ALWAYS_INLINE enum resp_result check_rkey(struct resp *r)
{
	const struct nic_msg *m = r->m;
	bool atomic = r->op->flags & NIC_OPF_ATOMIC;
	uint32_t need = r->op->access;
	uint64_t start, end;

	if (m->len == 0 && !atomic)
		return RESP_NEXT; /* zero-length RDMA needs no key, as on hardware */
	/* Held only when the transport moves the bytes after this message (a
	 * rendezvous payload, a read response); an eager write or an atomic is
	 * done under the worker's lock, which a revoke waits out (keys.h): no
	 * locked instruction for it. */
	const struct sdoca_key_region *region = &r->region;

	r->key_held = need == DOCA_ACCESS_FLAG_RDMA_READ || r->rx->rndv;
	if (r->key_held ? sdoca_keys_acquire(&m->key, &r->region) != DOCA_SUCCESS
	                : (region = sdoca_keys_peek(&m->key)) == NULL) {
		r->key_held = false;
		return RESP_ERR_ACCESS;
	}
	start = region->addr;
	end = start + region->len;
	if (region->kind != SDOCA_KEY_MMAP || m->raddr < start || m->raddr > end ||
	    m->len > end - m->raddr)
		return RESP_ERR_ACCESS;
	if ((region->access & need) == 0)
		return RESP_ERR_ACCESS;
	if (atomic && (m->raddr % 8) != 0)
		return RESP_ERR_INVALID;
	return RESP_NEXT;
}

void nic_resp_finish_recv(struct nic_qp *qp, struct nic_wqe *recv, const struct nic_msg *m,
                          doca_error_t status)
{
	nic_assert_locked(qp->worker);
	recv->result_len = m->len;
	recv->result_kind = nic_op(m->opcode)->recv_kind;
	memcpy(recv->result_imm, m->imm, sizeof(recv->result_imm));
	recv->result_qp = qp;
	recv->done(recv, status);
}

/* Places the payload into iov, synchronously (eager) or by rendezvous. */
static enum resp_result place(struct resp *r, const struct xport_iov *iov, uint32_t iovcnt)
{
	struct nic_landing *l;

	if (!r->rx->rndv) {
		/* Eager: the bytes are here; copied before this returns, so no
		 * landing to keep (the common small write or send). */
		nic_dma_begin();
		xport_rx_copy(r->qp->worker->xport, r->rx, iov, iovcnt);
		nic_dma_end();
		nic_landing_landed(r->qp, r->m, r->key_held ? &r->m->key : NULL, r->recv,
		                   DOCA_SUCCESS);
		r->key_held = false;
		r->recv = NULL;
		return RESP_DONE;
	}
	l = nic_landing_new(r->qp, r->m, r->key_held, r->recv);
	if (!l) {
		xport_rx_release(r->qp->worker->xport, r->rx);
		return RESP_ERR_INTERNAL;
	}
	r->key_held = false; /* the landing owns the key and the receive now */
	r->recv = NULL;
	memcpy(l->iov, iov, iovcnt * sizeof(*iov));
	l->iovcnt = iovcnt;
	return nic_landing_receive(l, r->rx);
}

/* Cuts the receive's buffers down to the message length. */
static uint32_t recv_iov(const struct nic_wqe *recv, uint64_t len, struct xport_iov *iov)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < recv->num_sge && len > 0; i++) {
		iov[n].base = recv->sge[i].base;
		iov[n].len = recv->sge[i].len < len ? recv->sge[i].len : len;
		len -= iov[n].len;
		n++;
	}
	return n;
}

/* Sends the bytes straight from the target memory; the key stays held (so
 * the mmap cannot go away) until the transport is done with them. */
static enum resp_result respond_read(struct resp *r)
{
	struct nic_msg resp = { .opcode = NIC_OP_READ_RESP, .seq = r->m->seq, .len = r->m->len };
	struct nic_qp *qp = r->qp;
	struct nic_landing *l = nic_landing_new(qp, r->m, r->key_held, NULL);

	if (!l)
		return RESP_ERR_INTERNAL;
	r->key_held = false;
	resp.qp = qp->peer.wire_id;
	resp.secret = qp->tx_secret;
	l->iov[0].base = (void *)(uintptr_t)r->m->raddr;
	l->iov[0].len = r->m->len;
	l->iovcnt = r->m->len ? 1 : 0;
	return nic_landing_send_read(l, nic_wire_encode(&resp, l->hdr));
}

/* Real CPU atomics on the target's memory: atomic against its own threads
 * and every other peer. */
static enum resp_result respond_atomic(struct resp *r)
{
	struct nic_msg resp = { .opcode = NIC_OP_ATOMIC_RESP, .seq = r->m->seq };
	uint64_t *target = (uint64_t *)(uintptr_t)r->m->raddr;

	if (r->m->opcode == NIC_OP_ATOMIC_FA) {
		resp.value = __atomic_fetch_add(target, r->m->operand1, __ATOMIC_SEQ_CST);
	} else {
		uint64_t expected = r->m->operand1;

		__atomic_compare_exchange_n(target, &expected, r->m->operand2, false,
		                            __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		resp.value = expected; /* the original value either way */
	}
	nic_qp_send_control(r->qp, &resp);
	return RESP_DONE;
}

/* Why a peer's request on a sync event is refused, NULL if it is not: the
 * key is the live key of an event (not of an mmap), names its value, and
 * grants the access the opcode's row asks for (the event has the remote-net
 * publisher location). */
static const char *event_refusal(const struct resp *r, const struct sdoca_key_region *region)
{
	if (!region)
		return "unknown key, or the event was stopped or destroyed";
	if (region->kind != SDOCA_KEY_SYNC_EVENT || region->addr != r->m->raddr)
		return "the key is not that of this sync event";
	if (!(region->access & r->op->access))
		return "the event has no remote-net publisher location";
	return NULL;
}

_Static_assert(NIC_OP_EVENT_SET - NIC_OP_EVENT_GET == SDOCA_SE_OP_SET &&
                       NIC_OP_EVENT_ADD - NIC_OP_EVENT_GET == SDOCA_SE_OP_ADD,
               "sync-event opcodes follow enum sdoca_se_op");

/* Real CPU atomics on the event's value (sync_event_wait.c); its waiters
 * are woken once the answer has left. Under the worker's lock: a revoke
 * waits this out. */
static enum resp_result respond_event(struct resp *r)
{
	const struct nic_msg *m = r->m;
	struct nic_msg resp = { .opcode = NIC_OP_EVENT_RESP, .seq = m->seq };
	const struct sdoca_key_region *region = sdoca_keys_peek(&m->key);
	const char *why = event_refusal(r, region);
	enum sdoca_se_op op = (enum sdoca_se_op)(m->opcode - NIC_OP_EVENT_GET);

	if (why) {
		SDOCA_WARN("QP %u: %s %u refused: %s", r->qp->wire_id, nic_opcode_name(m->opcode),
		           m->seq, why);
		resp.syndrome = NIC_SYN_REMOTE_ACCESS;
	} else {
		resp.value = sdoca_sync_event_remote_op(region->owner, op, m->operand1, m->len);
	}
	nic_qp_send_control(r->qp, &resp);
	if (!why && op != SDOCA_SE_OP_GET)
		sdoca_sync_event_remote_changed(region->owner);
	return RESP_DONE;
}

static enum resp_result execute_write(struct resp *r)
{
	struct xport_iov iov = { (void *)(uintptr_t)r->m->raddr, r->m->len };

	if (r->op->flags & NIC_OPF_RECV) /* write with immediate */
		r->recv = nic_srq_take(r->qp->srq);
	return place(r, &iov, r->m->len ? 1 : 0);
}

static enum resp_result execute_send(struct resp *r)
{
	struct xport_iov iov[NIC_MAX_SGE];

	r->recv = nic_srq_take(r->qp->srq);
	return place(r, iov, recv_iov(r->recv, r->m->len, iov));
}

/* Tests, not a table of function pointers or a jump table: the steps
 * inline into the run, the ping-pong's write and send first. */
static SDOCA_ALWAYS_INLINE enum resp_result execute(struct resp *r)
{
	uint8_t exec = r->op->exec;

	if (exec == NIC_EXEC_WRITE)
		return execute_write(r);
	if (exec == NIC_EXEC_SEND)
		return execute_send(r);
	if (exec == NIC_EXEC_READ)
		return respond_read(r);
	if (exec == NIC_EXEC_ATOMIC)
		return respond_atomic(r);
	if (exec == NIC_EXEC_EVENT)
		return respond_event(r);
	return RESP_ERR_INVALID;
}

/* The checks a request's traits call for, in rxe's order, then its
 * execution; *at is where it stopped. Straight code: every test is one bit
 * of the opcode's row. */
static SDOCA_ALWAYS_INLINE enum resp_result run_steps(struct resp *r, enum step *at)
{
	const struct nic_opcode_info *op = r->op;
	enum resp_result res;

	/* The connection's access flags govern RDMA on mmaps; a sync event's
	 * access is its key's, checked in its execute step. */
	if (op->flags & NIC_OPF_RKEY) {
		*at = CHECK_OPCODE;
		if ((res = check_opcode(r)) != RESP_NEXT)
			return res;
	}
	if (op->flags & NIC_OPF_RECV) {
		*at = CHECK_RESOURCES;
		if ((res = check_resources(r)) != RESP_NEXT)
			return res;
		if (op->exec == NIC_EXEC_SEND) { /* the payload lands in the receive */
			*at = CHECK_LENGTH;
			if ((res = check_length(r)) != RESP_NEXT)
				return res;
		}
	}
	/* (A sync event's key is checked in its execute step, where a
	 * refusal is not fatal.) */
	if (op->flags & NIC_OPF_RKEY) {
		*at = CHECK_RKEY;
		if ((res = check_rkey(r)) != RESP_NEXT)
			return res;
	}
	*at = EXECUTE;
	return execute(r);
}

/* Drops the payload of a refused request without touching target memory. */
static void refuse(struct resp *r, enum resp_result error, const char *step)
{
	struct nic_qp *qp = r->qp;

	SDOCA_WARN("QP %u: %s %u refused at %s: %s", qp->wire_id, nic_opcode_name(r->m->opcode),
	           r->m->seq, step, errors[error].what);
	if (r->key_held)
		sdoca_keys_release(&r->m->key);
	if (r->rx->desc)
		xport_rx_release(qp->worker->xport, r->rx);
	if (error == RESP_ERR_LENGTH) {
		nic_resp_finish_recv(qp, nic_srq_take(qp->srq), r->m, errors[error].recv_status);
	} else if (error == RESP_ERR_RECV) {
		struct nic_wqe *recv = nic_srq_take(qp->srq);

		nic_resp_finish_recv(qp, recv, r->m, recv->status);
	} else if (r->recv)
		nic_resp_finish_recv(qp, r->recv, r->m, errors[error].recv_status);
	if (qp->resp.placing > 0 || qp->resp.reads_leaving > 0) {
		/* Payloads before it still land (only a rendezvous write runs
		 * meanwhile) or read responses still leave: the NAK waits until
		 * they are over and acknowledged (landing.c). */
		qp->resp.refusal = (uint8_t)error;
		qp->resp.refusal_seq = r->m->seq;
		nic_resp_drop_held(qp);
		return;
	}
	nic_resp_nak(qp, r->m->seq, errors[error].syndrome, errors[error].what);
}

enum resp_result nic_resp_run(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx)
{
	struct resp r = { .qp = qp, .m = m, .op = nic_op(m->opcode), .rx = rx };
	enum resp_result res;
	enum step at;

	res = run_steps(&r, &at);
	if (res == RESP_DONE || res == RESP_PLACING) {
		qp->counters.served[r.op->counter]++;
		qp->counters.served_bytes[r.op->counter] += m->len;
	} else if (res >= RESP_ERR_ACCESS) {
		refuse(&r, res, step_names[at]);
		return RESP_DONE;
	}
	return res;
}
