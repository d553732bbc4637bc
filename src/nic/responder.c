/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The responder: the target side of a QP. Each request goes through the
 * checks a real RC responder makes, in rxe's order, each a small step:
 *
 *   check_opcode     the connection allows this kind of remote access
 *   check_resources  send / send-imm / write-imm have a posted receive (else RNR)
 *   check_length     a send fits the receive
 *   check_rkey       key exists, range inside, permission, atomic alignment
 *   execute          place / copy out / atomic, then acknowledge
 *
 * Requests execute in sequence: one that waits for a receive, or whose
 * payload is still landing, holds back the ones behind it (as does a read
 * while enough read responses are still leaving). The exception: a few
 * rendezvous writes land side by side when their bytes meet no transfer
 * still in flight; they are acknowledged in sequence all the same. A failed
 * check touches no target memory; it answers with a NAK and moves the
 * connection to error, as on RC hardware - once the requests before it are
 * over (a request refused while earlier writes still land, or earlier read
 * responses still leave, waits for them, and for their ACK), since a NAK
 * also acknowledges every request before it, and a connection in error may
 * be torn down at once, dropping what its transport still sends.
 *
 * ACKs are coalesced, as RC responders do: a placed write or send is
 * acknowledged later, cumulatively - piggybacked on this side's next request
 * on the connection (a ping-pong then costs one message per hop, not two),
 * or sent alone at the next progress of the worker, before any other answer
 * on the connection, before the service thread sleeps, and at the latest when
 * the service thread next looks (1 ms) while the application polls.
 */
#include <stdlib.h>
#include <string.h>

#include <doca_types.h>

#include "core/sdk_log.h"
#include "nic/dma.h"
#include "nic/nic.h"

SDOCA_LOG_MODULE(responder);

#define MAX_HELD 65536
#define RNR_NOTICE_NS 100000000u /* "still waiting" to the requester every 100 ms */
/* Read responses leaving at once per connection: up to MIN_READS_LEAVING of
 * any size, more only within MAX_READ_BYTES_LEAVING; later reads wait. UCX's
 * TCP rendezvous slows down with many transfers at once - 128 reads in
 * flight, side by side: 1 MiB 2.0 -> 3.2 GB/s, 64 KiB 1.0 -> 1.8 GB/s with the
 * byte limit. A few at a time overlap one response's rendezvous handshake
 * with another's data: 1 MiB reads over TCP, side by side, 3.2-3.4 GB/s one
 * at a time, 3.6-3.7 two, 3.8-4.0 four, 3.5-3.9 eight (shm moves between 12
 * and 19 GB/s from run to run whatever the number). */
#define MIN_READS_LEAVING 4
#define MAX_READ_BYTES_LEAVING (256u * 1024)
/* Rendezvous writes landing at once per connection. One at a time, each
 * waits for the previous one's rendezvous round trip: 64 KiB writes to
 * disjoint ranges over TCP, side by side, 1.43 GB/s one at a time, 1.8-2.0
 * four at a time (eight: no better). */
#define MAX_PLACING 4

enum step_result {
	STEP_NEXT,
	STEP_WAIT_RECV, /* no receive posted: hold the request (RNR) */
	STEP_PLACING,   /* the payload lands asynchronously */
	STEP_DONE,
	STEP_ERR_ACCESS,   /* key, range, permission */
	STEP_ERR_INVALID,  /* misaligned atomic, malformed request */
	STEP_ERR_LENGTH,   /* longer than the posted receive */
	STEP_ERR_INTERNAL, /* the transport could not place it */
};

_Static_assert(STEP_ERR_ACCESS > 0, "qp->refusal uses 0 for none");

/* One error class, one place: the NAK the requester gets, and what the
 * responder's own receive (if one was taken) completes with. */
static const struct {
	uint32_t syndrome;
	doca_error_t recv_status;
	const char *what;
} errors[] = {
	[STEP_ERR_ACCESS] = { NIC_SYN_REMOTE_ACCESS, DOCA_SUCCESS, "remote access error" },
	[STEP_ERR_INVALID] = { NIC_SYN_REMOTE_INVALID, DOCA_SUCCESS, "invalid request" },
	[STEP_ERR_LENGTH] = { NIC_SYN_REMOTE_INVALID, DOCA_ERROR_TOO_BIG,
	                      "message longer than the posted receive" },
	[STEP_ERR_INTERNAL] = { NIC_SYN_REMOTE_OPERATIONAL, DOCA_ERROR_IO_FAILED,
	                        "payload could not be placed" },
};

/* Where a request stands in the responder's checks (named in the log when
 * one refuses it). */
enum step {
	CHECK_OPCODE,
	CHECK_RESOURCES,
	CHECK_LENGTH,
	CHECK_RKEY,
	EXECUTE,
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

/* What a payload still landing (or a read response still leaving) needs. */
struct nic_landing {
	struct nic_landing *next;         /* in qp->landings until it is over */
	struct nic_landing *next_placing; /* qp->placing_head ... (a payload landing) */
	struct xport_op *op;              /* NULL once the transport is done */
	bool sending;                     /* a read response leaving (else a payload landing) */
	bool landed; /* the payload is in place (status), to be acknowledged in order */
	doca_error_t status;
	uint32_t iovcnt; /* the target bytes it moves */
	struct nic_qp *qp;
	struct sdoca_key key;
	bool key_held;
	struct nic_wqe *recv;
	struct nic_msg m; /* the request */
	struct xport_iov iov[NIC_MAX_SGE];
	uint8_t hdr[NIC_WIRE_MAX_HDR];
};

static void answer(struct nic_qp *qp, uint8_t opcode, uint32_t seq)
{
	struct nic_msg a = { .opcode = opcode, .seq = seq };

	nic_qp_send_control(qp, &a);
}

/* NAKs request seq (after the ACK of what came before it) and fails the
 * connection. */
static void nak(struct nic_qp *qp, uint32_t seq, uint32_t syndrome, const char *why)
{
	struct nic_msg m = { .opcode = NIC_OP_NAK, .seq = seq, .syndrome = syndrome };

	qp->refusal = 0;
	nic_qp_send_control(qp, &m);
	qp->counters.naks_sent++;
	nic_qp_fail(qp, DOCA_ERROR_CONNECTION_ABORTED, false, why);
}

/* A refusal that waited for earlier transfers: sent once none is left. */
static void refusal_due(struct nic_qp *qp)
{
	if (SDOCA_UNLIKELY(qp->refusal) && qp->placing == 0 && qp->reads_leaving == 0 &&
	    qp->state == NIC_QP_RTS)
		nak(qp, qp->refusal_seq, errors[qp->refusal].syndrome, errors[qp->refusal].what);
}

static enum step_result check_opcode(struct resp *r)
{
	uint32_t need = r->op->access;

	return (r->qp->attr.access & need) == need ? STEP_NEXT : STEP_ERR_ACCESS;
}

static enum step_result check_resources(struct resp *r)
{
	return r->qp->srq->head ? STEP_NEXT : STEP_WAIT_RECV;
}

static uint64_t recv_capacity(const struct nic_wqe *recv)
{
	uint64_t total = 0;

	for (uint32_t i = 0; i < recv->num_sge; i++)
		total += recv->sge[i].len;
	return total;
}

static enum step_result check_length(struct resp *r)
{
	return r->m->len <= recv_capacity(r->qp->srq->head) ? STEP_NEXT : STEP_ERR_LENGTH;
}

static SDOCA_ALWAYS_INLINE enum step_result check_rkey(struct resp *r)
{
	const struct nic_msg *m = r->m;
	uint32_t need = r->op->access;
	uint64_t start, end;

	if (m->len == 0 && !(r->op->flags & NIC_OPF_ATOMIC))
		return STEP_NEXT; /* zero-length RDMA needs no key, as on hardware */
	/* Held only when the transport moves the bytes after this message (a
	 * rendezvous payload, a read response); an eager write or an atomic is
	 * done under the worker's lock, which a revoke waits out (keys.h): no
	 * locked instruction for it. */
	const struct sdoca_key_region *region = &r->region;

	r->key_held = need == DOCA_ACCESS_FLAG_RDMA_READ || r->rx->rndv;
	if (r->key_held ? sdoca_keys_acquire(&m->key, &r->region) != DOCA_SUCCESS
	                : (region = sdoca_keys_peek(&m->key)) == NULL) {
		r->key_held = false;
		return STEP_ERR_ACCESS;
	}
	start = region->addr;
	end = start + region->len;
	if (region->kind != SDOCA_KEY_MMAP || m->raddr < start || m->raddr > end ||
	    m->len > end - m->raddr)
		return STEP_ERR_ACCESS;
	if ((region->access & need) == 0)
		return STEP_ERR_ACCESS;
	if ((r->op->flags & NIC_OPF_ATOMIC) && (m->raddr % 8) != 0)
		return STEP_ERR_INVALID;
	return STEP_NEXT;
}

static struct nic_wqe *take_recv(struct nic_srq *srq)
{
	struct nic_wqe *recv = srq->head;

	srq->head = recv->next;
	if (!srq->head)
		srq->tail = NULL;
	srq->count--;
	recv->next = NULL;
	return recv;
}

static void finish_recv(struct nic_qp *qp, struct nic_wqe *recv, const struct nic_msg *m,
                        doca_error_t status)
{
	recv->result_len = m->len;
	recv->result_kind = nic_op(m->opcode)->recv_kind;
	memcpy(recv->result_imm, m->imm, sizeof(recv->result_imm));
	recv->result_qp = qp;
	recv->done(recv, status);
}

void nic_resp_defer_ack(struct nic_qp *qp, uint32_t seq)
{
	qp->ack_pending = true;
	qp->ack_seq = seq;
	nic_worker_list_acks(qp);
}

bool nic_resp_take_ack(struct nic_qp *qp, uint32_t *seq)
{
	if (!qp->ack_pending)
		return false;
	qp->ack_pending = false;
	*seq = qp->ack_seq;
	nic_worker_unlist_acks(qp);
	return true;
}

void nic_resp_flush_ack(struct nic_qp *qp)
{
	uint32_t seq;

	if (nic_resp_take_ack(qp, &seq) && qp->state == NIC_QP_RTS)
		answer(qp, NIC_OP_ACK, seq);
}

/* The payload of m is in place: release the key (if held), complete the
 * receive (if one was taken), ACK. */
static void landed(struct nic_qp *qp, const struct nic_msg *m, const struct sdoca_key *held_key,
                   struct nic_wqe *recv, doca_error_t status)
{
	if (held_key)
		sdoca_keys_release(held_key);
	if (status == DOCA_SUCCESS && qp->state == NIC_QP_RTS) {
		nic_resp_defer_ack(qp, m->seq);
		/* As on RC, where the NIC acknowledges before the completion is
		 * polled: the ACK of what a receive consumed is on its way before
		 * the application can see the receive (it may stop and exit in
		 * its callback). A write's ACK may wait for a request to ride on. */
		if (recv)
			nic_resp_flush_ack(qp);
	}
	if (recv)
		finish_recv(qp, recv, m,
		            status == DOCA_SUCCESS ? DOCA_SUCCESS : DOCA_ERROR_IO_FAILED);
	if (status != DOCA_SUCCESS)
		nic_qp_fail(qp, DOCA_ERROR_CONNECTION_RESET, true, "a payload did not arrive");
}

static void track(struct nic_qp *qp, struct nic_landing *l)
{
	l->next = qp->landings;
	qp->landings = l;
	nic_qp_hold(qp);
}

static void untrack(struct nic_qp *qp, struct nic_landing *l)
{
	struct nic_landing **link;

	for (link = &qp->landings; *link && *link != l; link = &(*link)->next)
		;
	if (*link)
		*link = l->next;
}

/* A landing's payload is in place (or failed): over, and freed. */
static void land(struct nic_landing *l, doca_error_t status)
{
	landed(l->qp, &l->m, l->key_held ? &l->key : NULL, l->recv, status);
	free(l);
}

/* A payload landed. It is over - key released, receive completed, ACK
 * deferred - once every payload before it is over too (RC acknowledges in
 * sequence): a write that landed early waits for the slower ones before it. */
static void landing_done(void *arg, doca_error_t status)
{
	struct nic_landing *l = arg;
	struct nic_qp *qp = l->qp;
	uint32_t over = 0;

	l->op = NULL;
	l->landed = true;
	l->status = status;
	while (qp->placing_head && qp->placing_head->landed) {
		l = qp->placing_head;
		qp->placing_head = l->next_placing;
		if (!qp->placing_head)
			qp->placing_tail = NULL;
		qp->placing--;
		untrack(qp, l);
		land(l, l->status); /* a failure abandons the landings left */
		over++;
	}
	refusal_due(qp);
	nic_resp_drain(qp);
	while (over-- > 0)
		nic_qp_release(qp); /* the last may free the QP */
}

static void start_placing(struct nic_qp *qp, struct nic_landing *l)
{
	l->next_placing = NULL;
	if (qp->placing_tail)
		qp->placing_tail->next_placing = l;
	else
		qp->placing_head = l;
	qp->placing_tail = l;
	qp->placing++;
	track(qp, l);
}

static struct nic_landing *new_landing(struct resp *r)
{
	struct nic_landing *l = malloc(sizeof(*l));

	if (!l)
		return NULL;
	l->qp = r->qp;
	l->op = NULL;
	l->sending = false;
	l->landed = false;
	l->status = DOCA_SUCCESS;
	l->iovcnt = 0;
	l->key = r->m->key;
	l->key_held = r->key_held;
	l->recv = r->recv;
	l->m = *r->m;
	return l;
}

/* Places the payload into iov, synchronously (eager) or by rendezvous. */
static enum step_result place(struct resp *r, const struct xport_iov *iov, uint32_t iovcnt)
{
	struct nic_landing *l;
	doca_error_t status;

	if (!r->rx->rndv) {
		/* Eager: the bytes are here; copied before this returns, so no
		 * landing to keep (the common small write or send). */
		nic_dma_begin();
		xport_rx_copy(r->qp->worker->xport, r->rx, iov, iovcnt);
		nic_dma_end();
		landed(r->qp, r->m, r->key_held ? &r->m->key : NULL, r->recv, DOCA_SUCCESS);
		r->key_held = false;
		r->recv = NULL;
		return STEP_DONE;
	}
	l = new_landing(r);
	if (!l) {
		xport_rx_release(r->qp->worker->xport, r->rx);
		return STEP_ERR_INTERNAL;
	}
	memcpy(l->iov, iov, iovcnt * sizeof(*iov));
	l->iovcnt = iovcnt;
	nic_dma_begin();
	status = xport_rx_receive(r->qp->worker->xport, r->rx, l->iov, iovcnt, landing_done, l,
	                          &l->op);
	nic_dma_end();
	r->key_held = false; /* the landing owns the key and the receive now */
	r->recv = NULL;
	if (status == DOCA_ERROR_IN_PROGRESS || r->qp->placing > 0) {
		/* Still landing, or landed at once behind others still landing. */
		l->landed = status != DOCA_ERROR_IN_PROGRESS;
		l->status = l->landed ? status : DOCA_SUCCESS;
		start_placing(r->qp, l);
		return STEP_PLACING;
	}
	land(l, status);
	return STEP_DONE;
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

static void read_sent(void *arg, doca_error_t status)
{
	struct nic_landing *l = arg;
	struct nic_qp *qp = l->qp;

	(void)status; /* a lost response shows at the requester */
	untrack(qp, l);
	if (l->key_held) /* not for a zero-length read, which takes no key */
		sdoca_keys_release(&l->key);
	qp->read_bytes_leaving -= l->m.len;
	qp->reads_leaving--;
	free(l);
	refusal_due(qp);
	nic_resp_drain(qp);
	nic_qp_release(qp);
}

/* Sends the bytes straight from the target memory; the key stays held (so
 * the mmap cannot go away) until the transport is done with them. */
static enum step_result respond_read(struct resp *r)
{
	struct nic_msg resp = { .opcode = NIC_OP_READ_RESP, .seq = r->m->seq, .len = r->m->len };
	struct nic_landing *l = new_landing(r);
	struct nic_qp *qp = r->qp;
	size_t hdr_len;
	doca_error_t status;

	if (!l)
		return STEP_ERR_INTERNAL;
	resp.qp = qp->peer_wire_id;
	resp.token = qp->peer_token;
	hdr_len = nic_wire_encode(&resp, l->hdr);
	nic_resp_flush_ack(qp); /* answers leave in sequence order */
	l->iov[0].base = (void *)(uintptr_t)r->m->raddr;
	l->iov[0].len = r->m->len;
	l->iovcnt = r->m->len ? 1 : 0;
	l->sending = true;
	r->key_held = false;
	nic_dma_begin();
	status = xport_send(qp->ep, l->hdr, hdr_len, l->iov, r->m->len ? 1 : 0, read_sent, l,
	                    &l->op);
	nic_dma_end();
	if (status == DOCA_ERROR_IN_PROGRESS) {
		track(qp, l);
		qp->read_bytes_leaving += r->m->len;
		qp->reads_leaving++;
		return STEP_DONE;
	}
	if (l->key_held)
		sdoca_keys_release(&l->key);
	free(l);
	return status == DOCA_SUCCESS ? STEP_DONE : STEP_ERR_INTERNAL;
}

/* Real CPU atomics on the target's memory: atomic against its own threads
 * and every other peer. */
static enum step_result respond_atomic(struct resp *r)
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
	return STEP_DONE;
}

static enum step_result execute_write(struct resp *r)
{
	struct xport_iov iov = { (void *)(uintptr_t)r->m->raddr, r->m->len };

	if (r->op->flags & NIC_OPF_RECV) /* write with immediate */
		r->recv = take_recv(r->qp->srq);
	return place(r, &iov, r->m->len ? 1 : 0);
}

static enum step_result execute_send(struct resp *r)
{
	struct xport_iov iov[NIC_MAX_SGE];

	r->recv = take_recv(r->qp->srq);
	return place(r, iov, recv_iov(r->recv, r->m->len, iov));
}

static const char *const step_names[] = {
	[CHECK_OPCODE] = "check_opcode", [CHECK_RESOURCES] = "check_resources",
	[CHECK_LENGTH] = "check_length", [CHECK_RKEY] = "check_rkey",
	[EXECUTE] = "execute",
};

/* A switch, not a table of function pointers: the steps inline into run(). */
static SDOCA_ALWAYS_INLINE enum step_result execute(struct resp *r)
{
	switch (r->op->exec) {
	case NIC_EXEC_WRITE:
		return execute_write(r);
	case NIC_EXEC_SEND:
		return execute_send(r);
	case NIC_EXEC_READ:
		return respond_read(r);
	case NIC_EXEC_ATOMIC:
		return respond_atomic(r);
	}
	return STEP_ERR_INVALID;
}

/* The checks a request's traits call for, in rxe's order, then its
 * execution; *at is where it stopped. Straight code: every test is one bit
 * of the opcode's row. */
static SDOCA_ALWAYS_INLINE enum step_result run_steps(struct resp *r, enum step *at)
{
	const struct nic_opcode_info *op = r->op;
	enum step_result res;

	if (op->access) {
		*at = CHECK_OPCODE;
		if ((res = check_opcode(r)) != STEP_NEXT)
			return res;
	}
	if (op->flags & NIC_OPF_RECV) {
		*at = CHECK_RESOURCES;
		if ((res = check_resources(r)) != STEP_NEXT)
			return res;
		if (op->exec == NIC_EXEC_SEND) { /* the payload lands in the receive */
			*at = CHECK_LENGTH;
			if ((res = check_length(r)) != STEP_NEXT)
				return res;
		}
	}
	if (op->flags & NIC_OPF_RKEY) {
		*at = CHECK_RKEY;
		if ((res = check_rkey(r)) != STEP_NEXT)
			return res;
	}
	*at = EXECUTE;
	return execute(r);
}

/* Drops the payload of a refused request without touching target memory. */
static void refuse(struct resp *r, enum step_result error, const char *step)
{
	struct nic_qp *qp = r->qp;

	SDOCA_WARN("QP %u: %s %u refused at %s: %s", qp->wire_id, nic_opcode_name(r->m->opcode),
	           r->m->seq, step, errors[error].what);
	if (r->key_held)
		sdoca_keys_release(&r->m->key);
	if (r->rx->desc)
		xport_rx_release(qp->worker->xport, r->rx);
	if (error == STEP_ERR_LENGTH) {
		struct nic_wqe *recv = take_recv(qp->srq);

		finish_recv(qp, recv, r->m, errors[error].recv_status);
	} else if (r->recv) {
		finish_recv(qp, r->recv, r->m, errors[error].recv_status);
	}
	if (qp->placing > 0 || qp->reads_leaving > 0) {
		/* Payloads before it still land (only a rendezvous write runs
		 * meanwhile) or read responses still leave: the NAK waits until
		 * they are over and acknowledged (landing_done, read_sent). */
		qp->refusal = (uint8_t)error;
		qp->refusal_seq = r->m->seq;
		nic_resp_drop_held(qp);
		return;
	}
	nak(qp, r->m->seq, errors[error].syndrome, errors[error].what);
}

/* Runs the request's steps; its payload is consumed unless it must wait.
 * Only requests reach here (nic_op_is_request, checked by the worker). */
static enum step_result run(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx)
{
	struct resp r = { .qp = qp, .m = m, .op = nic_op(m->opcode), .rx = rx };
	enum step_result res;
	enum step at;

	res = run_steps(&r, &at);
	if (res == STEP_DONE || res == STEP_PLACING) {
		qp->counters.requests_served++;
		if (r.op->flags & NIC_OPF_PAYLOAD)
			qp->counters.bytes_placed += m->len;
	} else if (res >= STEP_ERR_ACCESS) {
		refuse(&r, res, step_names[at]);
		return STEP_DONE;
	}
	return res;
}

/* A copy of the request that outlives the transport's callback, or NULL
 * (the connection failed). */
static struct nic_held *keep(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx)
{
	struct nic_held *h;

	h = qp->num_held < MAX_HELD ? malloc(sizeof(*h)) : NULL;
	if (h) {
		h->rx = *rx;
		if (!xport_rx_hold(&h->rx)) {
			free(h);
			h = NULL;
		}
	}
	if (!h) {
		xport_rx_release(qp->worker->xport, rx);
		nic_qp_fail(qp, DOCA_ERROR_CONNECTION_ABORTED, true,
		            "cannot hold a request (too many waiting, or out of memory)");
		return NULL;
	}
	h->msg = *m;
	qp->num_held++;
	return h;
}

static bool hold(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx, bool front)
{
	struct nic_held *h = keep(qp, m, rx);

	if (!h)
		return false;
	if (front) {
		h->next = qp->held_head;
		qp->held_head = h;
		if (!qp->held_tail)
			qp->held_tail = h;
	} else {
		h->next = NULL;
		if (qp->held_tail)
			qp->held_tail->next = h;
		else
			qp->held_head = h;
		qp->held_tail = h;
	}
	return true;
}

/* A request ahead of its turn: UCX can hand over a message before an
 * earlier one it had to queue (seen over TCP under load). It waits, in
 * sequence order, for the ones before it. */
static bool hold_early(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx)
{
	struct nic_held *h = keep(qp, m, rx), **link = &qp->early;

	if (!h)
		return false;
	while (*link && nic_seq_after(m->seq, (*link)->msg.seq))
		link = &(*link)->next;
	h->next = *link;
	*link = h;
	return true;
}

/* No receive: the request waits, the requester hears it is not lost. */
static void wait_for_recv(struct nic_qp *qp, uint32_t seq)
{
	struct nic_qp **link;

	if (!qp->waiting_recv) {
		for (link = &qp->srq->waiters; *link; link = &(*link)->next_waiter)
			;
		*link = qp;
		qp->next_waiter = NULL;
		qp->waiting_recv = true;
	}
	if (qp->rnr_since_ns == 0) {
		qp->counters.rnr_waits++;
		qp->rnr_since_ns = nic_now_ns();
		qp->rnr_notice_ns = qp->rnr_since_ns;
		answer(qp, NIC_OP_RNR_WAIT, seq);
	}
}

/* Whether [addr, addr + len) meets target bytes a transfer still moves (a
 * payload landing, a read response leaving). Unsigned differences: no
 * overflow whatever the request says (it is not validated yet). */
static bool meets_transfer(const struct nic_qp *qp, uint64_t addr, uint64_t len)
{
	if (len == 0)
		return false;
	for (const struct nic_landing *l = qp->landings; l; l = l->next)
		for (uint32_t i = 0; i < l->iovcnt; i++) {
			uint64_t base = (uintptr_t)l->iov[i].base;

			if (addr - base < l->iov[i].len || base - addr < len)
				return true;
		}
	return false;
}

/* must_wait() when something moves data. */
static bool waits_for_transfers(const struct nic_qp *qp, const struct nic_msg *m,
                                const struct xport_rx *rx)
{
	switch (m->opcode) {
	case NIC_OP_WRITE:
		/* An eager write is over at once (ACKed): after the payloads before it. */
		if (qp->placing && (!rx->rndv || qp->placing >= MAX_PLACING))
			return true;
		return meets_transfer(qp, m->raddr, m->len);
	case NIC_OP_READ: /* sees every earlier write */
		return qp->placing || (qp->reads_leaving >= MIN_READS_LEAVING &&
		                       qp->read_bytes_leaving + m->len > MAX_READ_BYTES_LEAVING);
	case NIC_OP_WRITE_IMM:
	case NIC_OP_ATOMIC_FA:
	case NIC_OP_ATOMIC_CS:
		return qp->placing || meets_transfer(qp, m->raddr, m->len);
	default: /* sends: into the target's own receive buffers, not its exported ranges */
		return qp->placing > 0;
	}
}

/* The request must wait for earlier ones still moving data: as if they had
 * executed one at a time, in sequence. Inline: when nothing moves data (the
 * common case) nothing waits, at the cost of two loads per message. */
static inline bool must_wait(const struct nic_qp *qp, const struct nic_msg *m,
                             const struct xport_rx *rx)
{
	return (qp->placing || qp->landings) && waits_for_transfers(qp, m, rx);
}

/* The request whose turn it is. */
static SDOCA_ALWAYS_INLINE bool accept(struct nic_qp *qp, const struct nic_msg *m,
                                       struct xport_rx *rx)
{
	qp->expected_seq++;
	/* Before connect: kept for it, waiting as for a receive (RNR). */
	if (SDOCA_UNLIKELY(qp->state == NIC_QP_INIT)) {
		if (!qp->unconnected_since_ns)
			qp->unconnected_since_ns = nic_now_ns();
		return hold(qp, m, rx, false);
	}
	/* In order: behind held requests or a landing payload. */
	if (qp->held_head || must_wait(qp, m, rx))
		return hold(qp, m, rx, false);
	if (run(qp, m, rx) != STEP_WAIT_RECV)
		return false;
	wait_for_recv(qp, m->seq);
	return hold(qp, m, rx, false);
}

/* A request that is not the one expected: one ahead waits for its turn. */
static bool out_of_turn(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx)
{
	if (nic_seq_after(qp->expected_seq, m->seq) || m->seq - qp->expected_seq >= MAX_HELD) {
		xport_rx_release(qp->worker->xport, rx);
		nic_qp_fail(qp, DOCA_ERROR_CONNECTION_RESET, true, "request out of sequence");
		return false;
	}
	return hold_early(qp, m, rx);
}

/* The requests that came early and whose turn it is now. */
static void accept_early(struct nic_qp *qp)
{
	while (qp->early && qp->early->msg.seq == qp->expected_seq &&
	       (qp->state == NIC_QP_RTS || qp->state == NIC_QP_INIT)) {
		struct nic_held *h = qp->early;

		qp->early = h->next;
		qp->num_held--;
		if (accept(qp, &h->msg, &h->rx)) /* held again: the copy moved */
			h->rx.desc = NULL;
		free(h);
	}
}

bool nic_resp_request(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx)
{
	bool kept;

	if (qp->state == NIC_QP_ERROR || qp->state == NIC_QP_CLOSED || qp->refusal) {
		xport_rx_release(qp->worker->xport, rx);
		return false;
	}
	if (SDOCA_UNLIKELY(m->seq != qp->expected_seq))
		return out_of_turn(qp, m, rx);
	kept = accept(qp, m, rx);
	if (SDOCA_UNLIKELY(qp->early != NULL))
		accept_early(qp);
	return kept;
}

void nic_resp_drain(struct nic_qp *qp)
{
	while (qp->held_head && !must_wait(qp, &qp->held_head->msg, &qp->held_head->rx) &&
	       qp->state == NIC_QP_RTS) {
		struct nic_held *h = qp->held_head;

		qp->held_head = h->next;
		if (!qp->held_head)
			qp->held_tail = NULL;
		qp->num_held--;
		if (run(qp, &h->msg, &h->rx) == STEP_WAIT_RECV) {
			/* Still no receive: back to the front, in order. */
			qp->held_head = h;
			if (!qp->held_tail)
				qp->held_tail = h;
			qp->num_held++;
			wait_for_recv(qp, h->msg.seq);
			return;
		}
		free(h);
		qp->rnr_since_ns = 0;
	}
}

static void drop_list(struct nic_qp *qp, struct nic_held **list)
{
	while (*list) {
		struct nic_held *h = *list;

		*list = h->next;
		xport_rx_release(qp->worker->xport, &h->rx);
		free(h);
	}
}

void nic_resp_connected(struct nic_qp *qp)
{
	uint64_t waited = qp->unconnected_since_ns ? nic_now_ns() - qp->unconnected_since_ns : 0;

	qp->unconnected_since_ns = 0;
	/* The requester gave up on requests that waited longer than its RNR
	 * retries allow (completer.c): they are refused, never executed late. */
	if (qp->held_head && qp->peer_rnr_retry != NIC_RNR_INFINITE &&
	    waited >= (uint64_t)(qp->peer_rnr_retry + 1) * NIC_RNR_TIMER_NS) {
		nak(qp, qp->held_head->msg.seq, NIC_SYN_RNR_RETRY_EXCEEDED,
		    "requests waited for this side to connect longer than the RNR retry count");
		return;
	}
	nic_resp_drain(qp);
}

void nic_resp_drop_held(struct nic_qp *qp)
{
	drop_list(qp, &qp->held_head);
	drop_list(qp, &qp->early);
	qp->held_tail = NULL;
	qp->num_held = 0;
}

void nic_resp_timers(struct nic_qp *qp, uint64_t now_ns, uint64_t *next_ns)
{
	uint64_t limit, notice;

	if (!qp->waiting_recv || !qp->held_head || qp->state != NIC_QP_RTS)
		return;
	if (qp->peer_rnr_retry != NIC_RNR_INFINITE) {
		limit = qp->rnr_since_ns + (uint64_t)(qp->peer_rnr_retry + 1) * NIC_RNR_TIMER_NS;
		if (now_ns >= limit) {
			nak(qp, qp->held_head->msg.seq, NIC_SYN_RNR_RETRY_EXCEEDED,
			    "no receive posted within the RNR retry count");
			return;
		}
		if (limit < *next_ns)
			*next_ns = limit;
	}
	notice = qp->rnr_notice_ns + RNR_NOTICE_NS;
	if (now_ns >= notice) {
		answer(qp, NIC_OP_RNR_WAIT, qp->held_head->msg.seq);
		qp->rnr_notice_ns = now_ns;
		notice = now_ns + RNR_NOTICE_NS;
	}
	if (notice < *next_ns)
		*next_ns = notice;
}

void nic_resp_abandon(struct nic_qp *qp)
{
	while (qp->landings) {
		struct nic_landing *l = qp->landings;

		qp->landings = l->next;
		if (l->op)
			xport_op_abandon(l->op);
		if (l->key_held)
			sdoca_keys_release(&l->key);
		if (l->recv)
			finish_recv(qp, l->recv, &l->m, DOCA_ERROR_CONNECTION_RESET);
		if (l->sending) {
			qp->read_bytes_leaving -= l->m.len;
			qp->reads_leaving--;
		}
		free(l);
		qp->outstanding--;
	}
	qp->placing = 0;
	qp->placing_head = qp->placing_tail = NULL;
}
