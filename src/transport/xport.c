/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * What every transport instance shares: which instance new workers use, and
 * payloads kept past the receive callback or copied out of it (the same for
 * any instance, so none writes them again).
 */
#include <stdlib.h>
#include <string.h>

#include "core/compiler.h"
#include "transport/xport.h"

/* Set before any worker exists (tests), read when one is created. */
static const struct xport_ops *instance = &xport_ucx_ops;

void xport_set_ops_for_tests(const struct xport_ops *ops)
{
	instance = ops ? ops : &xport_ucx_ops;
}

doca_error_t xport_worker_create(const char *ifname, xport_recv_fn recv, void *recv_arg,
                                 struct xport_worker **worker)
{
	return instance->worker_create(ifname, recv, recv_arg, worker);
}

bool xport_rx_hold(struct xport_rx *rx)
{
	void *copy;

	if (rx->held)
		return true;
	if (!rx->desc && rx->len > 0) {
		/* The transport reuses these bytes when the callback returns. */
		copy = malloc(rx->len);
		if (!copy)
			return false;
		memcpy(copy, rx->data, rx->len);
		rx->data = copy;
		rx->desc = copy;
		rx->copied = true;
	}
	rx->held = true;
	return true;
}

void xport_copy_to_iov(const void *src, size_t len, const struct xport_iov *iov, size_t iovcnt)
{
	const uint8_t *from = src;

	if (iovcnt == 1) { /* the common small write: iov[0] is exactly len bytes */
		memcpy(iov[0].base, from, len);
		return;
	}
	for (size_t i = 0; i < iovcnt && len > 0; i++) {
		size_t n = iov[i].len < len ? iov[i].len : len;

		memcpy(iov[i].base, from, n);
		from += n;
		len -= n;
	}
}

static void __attribute__((noinline))
rx_copy_scattered(struct xport_worker *worker, struct xport_rx *rx, const struct xport_iov *iov,
                  size_t iovcnt)
{
	xport_copy_to_iov(rx->data, rx->len, iov, iovcnt);
	if (rx->held) /* else the transport releases it when the callback returns */
		xport_rx_release(worker, rx);
	rx->desc = NULL;
}

void xport_rx_copy(struct xport_worker *worker, struct xport_rx *rx, const struct xport_iov *iov,
                   size_t iovcnt)
{
	/* Most messages: one buffer, inside the receive callback. Split from
	 * the rest so that it saves no registers (~15 instructions a message). */
	if (SDOCA_LIKELY(iovcnt == 1 && !rx->held)) {
		rx->desc = NULL;
		memcpy(iov[0].base, rx->data, rx->len);
		return;
	}
	rx_copy_scattered(worker, rx, iov, iovcnt);
}

void xport_rx_release(struct xport_worker *worker, struct xport_rx *rx)
{
	if (rx->held && rx->desc) {
		if (rx->copied)
			free(rx->desc);
		else
			worker->ops->rx_release(worker, rx);
	}
	rx->desc = NULL;
}
