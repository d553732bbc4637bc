/*
 * Work requests and the shared receive queue.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Work requests (embedded in the tasks that post them) and the shared
 * receive queue of an RDMA context (srq.c).
 */
#ifndef SDOCA_NIC_WQE_H_
#define SDOCA_NIC_WQE_H_

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include <doca_error.h>

#include "core/keys.h"
#include "nic/wire.h"
#include "transport/xport.h"

struct nic_qp;
struct nic_worker;

#define NIC_MAX_SGE 16

/* A work request's operation: a request's opcode (what it sends), or a
 * receive. */
enum nic_wr_op {
	NIC_WR_RECV = 0,
	NIC_WR_WRITE = NIC_OP_WRITE,
	NIC_WR_WRITE_IMM = NIC_OP_WRITE_IMM,
	NIC_WR_SEND = NIC_OP_SEND,
	NIC_WR_SEND_IMM = NIC_OP_SEND_IMM,
	NIC_WR_READ = NIC_OP_READ,
	NIC_WR_ATOMIC_FA = NIC_OP_ATOMIC_FA,
	NIC_WR_ATOMIC_CS = NIC_OP_ATOMIC_CS,
	NIC_WR_EVENT_GET = NIC_OP_EVENT_GET,
	NIC_WR_EVENT_SET = NIC_OP_EVENT_SET,
	NIC_WR_EVENT_ADD = NIC_OP_EVENT_ADD,
};

/* A transport operation of a work request (its send, or a read's data
 * landing), which a failing QP can abandon. */
struct nic_xslot {
	struct nic_wqe *wqe;
	struct xport_op *op;
	bool busy;
	bool incoming; /* a read's data landing (else the request's own send) */
};

/* A work request, embedded in the task that posts it. */
struct nic_wqe {
	enum nic_wr_op op;
	/* local buffers: source (send, write), destination (read, receive,
	 * sync-event get) or the 8-byte result (atomics, sync-event add) */
	struct xport_iov sge[NIC_MAX_SGE];
	uint32_t num_sge;
	uint64_t length; /* bytes to move (read: what the local side can take) */
	struct sdoca_key rkey;
	uint64_t raddr;
	uint8_t imm[4];
	uint64_t compare_or_add; /* also a sync-event set's value */
	uint64_t swap;
	/* called once, with the worker lock held, when the request is over */
	void (*done)(struct nic_wqe *wqe, doca_error_t status);
	/* results */
	uint64_t result_len;
	enum nic_recv_kind result_kind;
	uint8_t result_imm[4];
	struct nic_qp *result_qp;
	/* soft-NIC bookkeeping */
	struct nic_qp *qp;
	uint32_t seq;
	uint8_t outstanding; /* transport operations still referring to this request */
	struct nic_xslot xslot[2];
	bool answered;
	doca_error_t status;
	STAILQ_ENTRY(nic_wqe) link; /* in its QP's requests in flight, or its SRQ */
	uint8_t hdr[NIC_WIRE_MAX_HDR];
};

STAILQ_HEAD(nic_wqe_list, nic_wqe);

/* A shared receive queue: the receives of one RDMA context, consumed by the
 * sends and writes-with-immediate of all its connections in posting order. */
struct nic_srq {
	struct nic_worker *worker;
	struct nic_wqe_list recvs; /* posted, in posting order */
	uint32_t count;
	uint32_t capacity;
	TAILQ_HEAD(, nic_qp) waiters; /* QPs whose next request waits for a receive */
};

/* --- srq.c --- */
void nic_srq_init(struct nic_srq *srq, struct nic_worker *worker, uint32_t capacity);
doca_error_t nic_post_recv(struct nic_srq *srq, struct nic_wqe *wqe);
/* A receive that fails when a message consumes it (a bad local key): the
 * message is refused (the requester's request fails, both QPs go to error)
 * and the receive completes with status, as on RC. */
doca_error_t nic_post_recv_refused(struct nic_srq *srq, struct nic_wqe *wqe, doca_error_t status);
void nic_srq_flush(struct nic_srq *srq, doca_error_t status);
/* The oldest posted receive, taken (one must be posted; lock held). */
struct nic_wqe *nic_srq_take(struct nic_srq *srq);
/* The QP's next request waits for a receive / does not any more. */
void nic_srq_wait(struct nic_srq *srq, struct nic_qp *qp);
void nic_srq_leave(struct nic_srq *srq, struct nic_qp *qp);

#endif /* SDOCA_NIC_WQE_H_ */
