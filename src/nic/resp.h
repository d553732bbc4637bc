/*
 * What the responder's three files share.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * What the responder's three files share: responder.c checks and executes
 * a request, resp_queue.c keeps requests in sequence until they can run,
 * landing.c follows the transfers a request starts (a payload landing, a
 * read response leaving) and the refusal that waits for them.
 */
#ifndef SDOCA_NIC_RESP_H_
#define SDOCA_NIC_RESP_H_

#include "nic/nic.h"

/* How far a request got. */
enum resp_result {
	RESP_NEXT,
	RESP_WAIT_RECV, /* no receive posted: hold the request (RNR) */
	RESP_PLACING,   /* the payload lands asynchronously */
	RESP_DONE,
	/* refused (an error class: the NAK's syndrome, see responder.c) */
	RESP_ERR_ACCESS,   /* key, range, permission */
	RESP_ERR_INVALID,  /* misaligned atomic, malformed request */
	RESP_ERR_LENGTH,   /* longer than the posted receive */
	RESP_ERR_INTERNAL, /* the transport could not place it */
	RESP_ERR_RECV,     /* the receive it consumes is bad (nic_post_recv_refused) */
};

_Static_assert(RESP_ERR_ACCESS > 0, "resp.refusal uses 0 for none");

/* A payload still landing, or a read response still leaving. */
struct nic_landing {
	LIST_ENTRY(nic_landing) moving;   /* in resp.moving until it is over */
	STAILQ_ENTRY(nic_landing) queued; /* in resp.landing (a payload landing) */
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

/* --- responder.c --- */
/* Checks and executes a request whose turn it is; its payload is consumed
 * unless it must wait (RESP_WAIT_RECV). A refused request is answered
 * (RESP_DONE). */
enum resp_result nic_resp_run(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx);
/* An answer (ACK, RNR notice) to request seq. */
void nic_resp_answer(struct nic_qp *qp, uint8_t opcode, uint32_t seq);
/* NAKs request seq (after the ACK of what came before it) and fails the
 * connection. */
void nic_resp_nak(struct nic_qp *qp, uint32_t seq, uint32_t syndrome, const char *why);
/* NAKs the refusal that waited for earlier transfers, once none is left. */
void nic_resp_refusal_due(struct nic_qp *qp);
/* A receive consumed by m completes (with status). */
void nic_resp_finish_recv(struct nic_qp *qp, struct nic_wqe *recv, const struct nic_msg *m,
                          doca_error_t status);

/* --- landing.c --- */
/* m's payload is in place: releases the key (if held), completes the
 * receive (if one was taken), acknowledges - or fails the connection. */
void nic_landing_landed(struct nic_qp *qp, const struct nic_msg *m,
                        const struct sdoca_key *held_key, struct nic_wqe *recv,
                        doca_error_t status);
/* A landing for a request, owning its key (if held) and receive. */
struct nic_landing *nic_landing_new(struct nic_qp *qp, const struct nic_msg *m, bool key_held,
                                    struct nic_wqe *recv);
/* Receives a rendezvous payload into l->iov; over at once or landing. */
enum resp_result nic_landing_receive(struct nic_landing *l, struct xport_rx *rx);
/* Sends a read response (header and target bytes) from l. */
enum resp_result nic_landing_send_read(struct nic_landing *l, size_t hdr_len);
/* Whether a request must wait for earlier ones still moving data. */
bool nic_landing_waits(const struct nic_qp *qp, const struct nic_msg *m, const struct xport_rx *rx);

/* The request must wait for earlier ones still moving data: as if they had
 * executed one at a time, in sequence. Inline: when nothing moves data (the
 * common case) nothing waits, at the cost of two loads per message. */
static inline bool nic_resp_must_wait(const struct nic_qp *qp, const struct nic_msg *m,
                                      const struct xport_rx *rx)
{
	return (qp->resp.placing || !LIST_EMPTY(&qp->resp.moving)) && nic_landing_waits(qp, m, rx);
}

#endif /* SDOCA_NIC_RESP_H_ */
