/*
 * softdoca-perf's out-of-band TCP socket between client and server.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The TCP socket between softdoca-perf's client and server: export blobs,
 * test parameters and results travel here as length-prefixed messages.
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "perf.h"

/* A peer that stops answering for this long is gone: never hang. */
#define OOB_TIMEOUT_S 120

static void die(const char *what)
{
	fprintf(stderr, "softdoca-perf: %s: %s\n", what, errno ? strerror(errno) : "peer closed");
	exit(1);
}

static void configure(int fd)
{
	struct timeval tv = { .tv_sec = OOB_TIMEOUT_S };
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

int perf_oob_listen(uint16_t *port)
{
	struct sockaddr_in6 addr = { .sin6_family = AF_INET6,
		                     .sin6_port = htons(*port),
		                     .sin6_addr = IN6ADDR_ANY_INIT };
	int fd = socket(AF_INET6, SOCK_STREAM, 0), one = 1, zero = 0;

	if (fd < 0)
		die("socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0) {
		fprintf(stderr, "softdoca-perf: cannot listen on port %u: %s\n", *port,
		        strerror(errno));
		exit(1);
	}
	if (listen(fd, 1) != 0)
		die("listen");
	if (getsockname(fd, (struct sockaddr *)&addr, &(socklen_t){ sizeof(addr) }) != 0)
		die("getsockname");
	*port = ntohs(addr.sin6_port); /* the one the kernel chose for port 0 */
	return fd;
}

int perf_oob_accept(int listener)
{
	int fd = accept(listener, NULL, NULL);

	if (fd < 0)
		die("accept");
	configure(fd);
	return fd;
}

int perf_oob_connect(const char *host, uint16_t port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;
	char service[8];
	int fd = -1, rc;

	snprintf(service, sizeof(service), "%u", port);
	rc = getaddrinfo(host, service, &hints, &res);
	if (rc != 0) {
		fprintf(stderr, "softdoca-perf: %s: %s\n", host, gai_strerror(rc));
		exit(1);
	}
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
		if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		fprintf(stderr, "softdoca-perf: cannot connect to %s port %u: %s\n", host, port,
		        strerror(errno));
		exit(1);
	}
	configure(fd);
	return fd;
}

static void io_all(int fd, void *buf, size_t len, bool sending)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = sending ? send(fd, p, len, MSG_NOSIGNAL) : recv(fd, p, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = 0;
			die(sending ? "sending to the peer" : "the peer went away");
		}
		p += n;
		len -= (size_t)n;
	}
}

void perf_oob_send(int fd, const void *data, size_t len)
{
	uint32_t n = htonl((uint32_t)len);

	io_all(fd, &n, sizeof(n), true);
	io_all(fd, (void *)(uintptr_t)data, len, true);
}

void *perf_oob_recv_or_null(int fd, size_t *len)
{
	char byte;
	ssize_t n;

	do
		n = recv(fd, &byte, 1, MSG_PEEK);
	while (n < 0 && errno == EINTR);
	return n > 0 ? perf_oob_recv(fd, len) : NULL;
}

void *perf_oob_recv(int fd, size_t *len)
{
	uint32_t n;
	void *data;

	io_all(fd, &n, sizeof(n), false);
	n = ntohl(n);
	if (n > (1u << 20)) {
		fprintf(stderr,
		        "softdoca-perf: the peer sent a %u-byte message: not softdoca-perf?\n", n);
		exit(1);
	}
	data = malloc(n + 1u);
	if (!data)
		die("malloc");
	io_all(fd, data, n, false);
	((char *)data)[n] = '\0';
	*len = n;
	return data;
}

/* Whether a message is waiting, after up to timeout_ms (-1: until one is). */
static bool oob_poll(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int n;

	while ((n = poll(&p, 1, timeout_ms)) < 0 && errno == EINTR)
		;
	return n > 0;
}

void perf_oob_wait(int fd)
{
	(void)oob_poll(fd, -1);
}

bool perf_oob_readable(int fd)
{
	return oob_poll(fd, 0);
}
