/*
 * What every transport instance shares, and which one workers use.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * What every transport instance shares: which instance new workers use,
 * payloads kept past the receive callback or copied out of it (the same for
 * any instance, so none writes them again), and socket addresses.
 */
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/compiler.h"
#include "core/sdk_log.h"
#include "transport/xport.h"

SDOCA_LOG_MODULE(xport);

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
			xport_worker_ops(worker)->rx_release(worker, rx);
	}
	rx->desc = NULL;
}

doca_error_t xport_sockaddr(int family, const char *host, uint16_t port,
                            struct sockaddr_storage *addr, size_t *addr_len)
{
	/* Numeric only: a name lookup could block the caller for seconds. */
	struct addrinfo hints = { .ai_family = family, .ai_flags = AI_NUMERICHOST };
	struct addrinfo *found;
	int rc;

	if (!host || (family != AF_INET && family != AF_INET6 && family != AF_UNSPEC))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "not an IPv4 or IPv6 address");
	rc = getaddrinfo(host, NULL, &hints, &found);
	if (rc != 0)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "%s is not a numeric %s address: %s",
		                  host,
		                  family == AF_INET    ? "IPv4"
		                  : family == AF_INET6 ? "IPv6"
		                                       : "IP",
		                  gai_strerror(rc));
	memset(addr, 0, sizeof(*addr));
	memcpy(addr, found->ai_addr, found->ai_addrlen);
	*addr_len = found->ai_addrlen;
	freeaddrinfo(found);
	if (addr->ss_family == AF_INET)
		((struct sockaddr_in *)addr)->sin_port = htons(port);
	else
		((struct sockaddr_in6 *)addr)->sin6_port = htons(port);
	return DOCA_SUCCESS;
}

const char *xport_sockaddr_str(const struct sockaddr *addr, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN] = "?";

	if (addr->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)addr;

		inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
		snprintf(buf, len, "%s:%u", host, ntohs(in->sin_port));
	} else if (addr->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)addr;

		inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
		snprintf(buf, len, "[%s]:%u", host, ntohs(in6->sin6_port));
	} else {
		snprintf(buf, len, "(address family %d)", addr->sa_family);
	}
	return buf;
}

uint16_t xport_sockaddr_port(const struct sockaddr *addr)
{
	if (addr->sa_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)addr)->sin_port);
	if (addr->sa_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)addr)->sin6_port);
	return 0;
}
