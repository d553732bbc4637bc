/*
 * softdoca integration tests: a flood of silent connections.
 *
 *   cm_flood PORT [SECONDS [MAX [HOLD]]]
 *
 * Opens TCP connections to 127.0.0.1:PORT as fast as it can and never sends
 * a byte on them: what a peer that hogs an RDMA-CM listener's handshakes
 * does. Loopback only, and bounded: it stops after SECONDS (default 30) or
 * MAX connections (default 10,000,000), or at SIGTERM / SIGINT. It keeps the
 * newest HOLD (default 4000) open; older ones are reset (SO_LINGER 0), so
 * the flood neither leaves TIME_WAIT behind nor runs out of ports.
 *
 * Prints "flooding: 1000 connections in T ms" once they are out (the server
 * may let its clients go), then at the end one line:
 *   flood: N connections in S s (R/s), D dropped by the server, E errors
 * where "dropped" counts the connections found closed or reset by the
 * server when their turn to be reset came.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Resets a held connection; true if the server had closed or reset it. */
static int reset(int fd)
{
	struct linger now = { .l_onoff = 1, .l_linger = 0 };
	char byte;
	ssize_t n = recv(fd, &byte, 1, MSG_DONTWAIT | MSG_PEEK);
	int dropped = n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);

	setsockopt(fd, SOL_SOCKET, SO_LINGER, &now, sizeof(now));
	close(fd);
	return dropped;
}

int main(int argc, char **argv)
{
	struct sockaddr_in to = { .sin_family = AF_INET,
		                  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sigaction sa = { .sa_handler = on_signal };
	double seconds = argc > 2 ? atof(argv[2]) : 30, start, end;
	unsigned long max = argc > 3 ? strtoul(argv[3], NULL, 10) : 10000000ul;
	long hold = argc > 4 ? atol(argv[4]) : 4000;
	unsigned long opened = 0, dropped = 0, errors = 0;
	long port = argc > 1 ? atol(argv[1]) : 0, head = 0, count = 0;
	struct rlimit lim;
	int *held;

	if (port <= 0 || port > 65535 || seconds <= 0 || seconds > 600 || hold < 1 ||
	    hold > 60000) {
		fprintf(stderr, "usage: %s PORT [SECONDS (<= 600) [MAX [HOLD (<= 60000)]]]\n",
		        argv[0]);
		return 2;
	}
	to.sin_port = htons((uint16_t)port);
	/* Room for the held sockets, within what the system allows. */
	if (getrlimit(RLIMIT_NOFILE, &lim) == 0) {
		lim.rlim_cur = lim.rlim_max;
		setrlimit(RLIMIT_NOFILE, &lim);
		if (lim.rlim_cur != RLIM_INFINITY && hold > (long)lim.rlim_cur - 16)
			hold = (long)lim.rlim_cur - 16;
	}
	held = calloc((size_t)hold, sizeof(*held));
	if (!held)
		return 1;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	start = now_s();
	end = start + seconds;
	while (!stop && opened < max) {
		int fd;

		/* The clock costs little next to a connect, but not nothing. */
		if ((opened & 63) == 0 && now_s() > end)
			break;
		if (count == hold) {
			dropped += (unsigned long)reset(held[head]);
			head = (head + 1) % hold;
			count--;
		}
		fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			errors++;
			continue;
		}
		if (connect(fd, (struct sockaddr *)&to, sizeof(to)) != 0 && errno != EINPROGRESS) {
			errors++;
			close(fd);
			continue;
		}
		held[(head + count) % hold] = fd;
		count++;
		if (++opened == 1000)
			printf("flooding: 1000 connections in %.1f ms\n", (now_s() - start) * 1000);
	}
	end = now_s();
	while (count-- > 0) {
		dropped += (unsigned long)reset(held[head]);
		head = (head + 1) % hold;
	}
	free(held);
	printf("flood: %lu connections in %.2f s (%.0f/s), %lu dropped by the server, %lu "
	       "errors\n",
	       opened, end - start, (double)opened / (end - start), dropped, errors);
	return 0;
}
