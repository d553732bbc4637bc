/*
 * Where the soft NIC shows its messages to a capture (src/diag/capture.c).
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Layers call only downward, and the capture (libdoca_rdma's diagnostics,
 * above the NIC) writes files the NIC knows nothing of: so the capture
 * installs a table of two functions here and the NIC calls them, with the
 * worker lock held, for every message it hands to the transport and every
 * message from a QP's peer it dispatches. Off, the cost is one load of a
 * pointer that stays NULL and a branch that is never taken.
 */
#ifndef SDOCA_NIC_CAPTURE_HOOK_H_
#define SDOCA_NIC_CAPTURE_HOOK_H_

#include <stdatomic.h>
#include <stddef.h>

#include "core/compiler.h"

struct nic_qp;
struct nic_msg;
struct xport_iov;
struct xport_rx;

struct nic_capture_ops {
	/* The QP hands this header (as nic_wire_encode wrote it) and payload
	 * to the transport; the header's length says how much of iov is
	 * payload (none for a read request, whose iov is its destination). */
	void (*sent)(const struct nic_qp *qp, const void *hdr, size_t hdr_len,
	             const struct xport_iov *iov, size_t iovcnt);
	/* A message from the QP's peer, decoded and bound to the QP, goes to
	 * the responder or the completer; rx->data has an eager payload. */
	void (*received)(const struct nic_qp *qp, const struct nic_msg *m,
	                 const struct xport_rx *rx);
};

/* NULL while nothing captures. The capture's functions stay valid after it
 * stops (a call that loaded the table just before finds no file open). */
extern _Atomic(const struct nic_capture_ops *) nic_capture;

static inline void nic_capture_sent(const struct nic_qp *qp, const void *hdr, size_t hdr_len,
                                    const struct xport_iov *iov, size_t iovcnt)
{
	const struct nic_capture_ops *c = atomic_load_explicit(&nic_capture, memory_order_acquire);

	if (SDOCA_UNLIKELY(c != NULL))
		c->sent(qp, hdr, hdr_len, iov, iovcnt);
}

static inline void nic_capture_received(const struct nic_qp *qp, const struct nic_msg *m,
                                        const struct xport_rx *rx)
{
	const struct nic_capture_ops *c = atomic_load_explicit(&nic_capture, memory_order_acquire);

	if (SDOCA_UNLIKELY(c != NULL))
		c->received(qp, m, rx);
}

#endif /* SDOCA_NIC_CAPTURE_HOOK_H_ */
