/*
 * softdoca integration tests: the out-of-band channel between two peers,
 * length-prefixed messages over TCP (it crosses network namespaces too),
 * for the peer programs of every DOCA generation (peer_oob.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "peer.h"

#define CONNECT_TIMEOUT_MS 30000
#define PEER_OOB_BACKLOG 32 /* peers that connect at once (cm_flood: 20) */

static void write_all(int fd, const void *data, size_t len)
{
	const uint8_t *p = data;

	while (len > 0) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			FAIL("out-of-band send failed: %s", strerror(errno));
		p += n;
		len -= (size_t)n;
	}
}

static void read_all(int fd, void *data, size_t len, int timeout_ms)
{
	uint8_t *p = data;
	uint64_t deadline = now_ms() + (uint64_t)timeout_ms;

	while (len > 0) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		uint64_t now = now_ms();
		ssize_t n;

		if (now >= deadline)
			FAIL("out-of-band peer silent for %d ms", timeout_ms);
		if (poll(&pfd, 1, (int)(deadline - now)) <= 0)
			continue;
		n = recv(fd, p, len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			FAIL("out-of-band peer closed the channel");
		p += n;
		len -= (size_t)n;
	}
}

void oob_send(int fd, const void *data, size_t len)
{
	uint32_t n = htonl((uint32_t)len);

	write_all(fd, &n, sizeof(n));
	write_all(fd, data, len);
}

void *oob_recv(int fd, size_t *len, int timeout_ms)
{
	uint32_t n;
	void *data;

	read_all(fd, &n, sizeof(n), timeout_ms);
	*len = ntohl(n);
	data = malloc(*len + 1);
	read_all(fd, data, *len, timeout_ms);
	((char *)data)[*len] = '\0';
	return data;
}

void oob_send_str(int fd, const char *text)
{
	oob_send(fd, text, strlen(text));
}

void oob_expect(int fd, const char *text, int timeout_ms)
{
	size_t len;
	char *got = oob_recv(fd, &len, timeout_ms);

	EXPECT(strcmp(got, text) == 0, "expected '%s' from the peer, got '%s'", text, got);
	free(got);
}

bool oob_ready(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, 0) == 1;
}

uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* The port goes to a FIFO: the test driver waits on it, no polling. */
int oob_listen_fd(const char *port_file)
{
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY) };
	socklen_t alen = sizeof(addr);
	FILE *f;
	int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0 ||
	    listen(fd, PEER_OOB_BACKLOG) != 0 ||
	    getsockname(fd, (struct sockaddr *)&addr, &alen) != 0)
		FAIL("out-of-band listen failed: %s", strerror(errno));
	f = fopen(port_file, "w");
	if (!f)
		FAIL("cannot write %s: %s", port_file, strerror(errno));
	fprintf(f, "%d\n", ntohs(addr.sin_port));
	fclose(f);
	return fd;
}

int oob_accept_fd(int listen_fd)
{
	struct pollfd pfd = { .fd = listen_fd, .events = POLLIN };
	int fd, one = 1;

	if (poll(&pfd, 1, CONNECT_TIMEOUT_MS) != 1)
		FAIL("no peer connected within %d ms", CONNECT_TIMEOUT_MS);
	fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		FAIL("accept failed: %s", strerror(errno));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

int oob_connect_fd(const char *host, int port)
{
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;

	if (inet_pton(AF_INET, host, &addr.sin_addr) != 1)
		FAIL("bad host address %s", host);
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0)
		FAIL("cannot connect to %s:%d: %s", host, port, strerror(errno));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

void peer_usage(const char *prog)
{
	fprintf(stderr, "usage: %s <scenario> server|client [options]\n", prog);
	exit(2);
}

void peer_args_parse(int argc, char **argv, struct peer_args *a)
{
	*a = (struct peer_args){ .iface = "lo", .host = "127.0.0.1" };
	if (argc < 3)
		peer_usage(argv[0]);
	a->scenario = argv[1];
	a->server = strcmp(argv[2], "server") == 0;
	a->stranger = strcmp(argv[2], "stranger") == 0;
	for (int i = 3; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--iface") == 0)
			a->iface = argv[i + 1];
		else if (strcmp(argv[i], "--port-file") == 0)
			a->port_file = argv[i + 1];
		else if (strcmp(argv[i], "--host") == 0)
			a->host = argv[i + 1];
		else if (strcmp(argv[i], "--port") == 0)
			a->port = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--rounds") == 0)
			a->rounds = atoi(argv[i + 1]);
	}
}

void oob_listen(struct peer *p, const char *port_file)
{
	p->listen_fd = oob_listen_fd(port_file);
}

void oob_accept(struct peer *p)
{
	p->oob[p->num_peers++] = oob_accept_fd(p->listen_fd);
}

void oob_connect(struct peer *p, const char *host, int port)
{
	p->oob[p->num_peers++] = oob_connect_fd(host, port);
}
