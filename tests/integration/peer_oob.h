/*
 * softdoca integration tests: the out-of-band channel between two peers
 * (length-prefixed messages over TCP) and the failure macros, for the peer
 * programs of every DOCA generation (peer.h adds the 3.x DOCA set-up).
 */
#ifndef SDOCA_TESTS_PEER_OOB_H_
#define SDOCA_TESTS_PEER_OOB_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Fails the process with a message (tests report through the exit code). */
#define FAIL(...)                                                    \
	do {                                                         \
		fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
		fprintf(stderr, __VA_ARGS__);                        \
		fprintf(stderr, "\n");                               \
		exit(1);                                             \
	} while (0)

#define EXPECT(cond, ...)                  \
	do {                               \
		if (!(cond))               \
			FAIL(__VA_ARGS__); \
	} while (0)

uint64_t now_ms(void);

/* A peer program's command line: <scenario> server|client [--iface I]
 * [--port-file F] [--host H] [--port P] [--rounds N]. */
struct peer_args {
	const char *scenario;
	bool server;
	bool stranger; /* role "stranger": a third process (run_pair.sh --stranger) */
	const char *iface, *port_file, *host;
	int port, rounds;
};
/* Exits 2 with the usage when there is no scenario and role. */
void peer_args_parse(int argc, char **argv, struct peer_args *a);
void peer_usage(const char *prog) __attribute__((noreturn));

/* Listens on an ephemeral port written to port_file (a FIFO the test driver
 * reads); returns the listening socket. */
int oob_listen_fd(const char *port_file);
/* The next peer that connects (fails the process after 30 s). */
int oob_accept_fd(int listen_fd);
int oob_connect_fd(const char *host, int port);
void oob_send(int fd, const void *data, size_t len);
/* Receives one message (malloc'ed); fails the process after timeout_ms. */
void *oob_recv(int fd, size_t *len, int timeout_ms);
void oob_send_str(int fd, const char *text);
/* Expects exactly this text next. */
void oob_expect(int fd, const char *text, int timeout_ms);
/* True when a message is waiting (does not read it). */
bool oob_ready(int fd);

#endif /* SDOCA_TESTS_PEER_OOB_H_ */
