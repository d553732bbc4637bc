/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * What bench/ucx_cm_setup.c and bench/doca_cm_setup.c share: the clock,
 * options, the result table and the resource counts they print, so that the
 * two report alike and bench/cm_setup.sh reads both with one parser.
 */
#ifndef SDOCA_BENCH_CM_COMMON_H_
#define SDOCA_BENCH_CM_COMMON_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* What the client sends, and the server sends back. */
struct ping {
	uint32_t round;
	uint32_t flags;
};
#define PING_LAST 1u      /* the client's last round: the server leaves after it */
#define PING_WARM_LAST 2u /* the last warm-up round: the timed ones follow */

/* Each program defines `prog`, its name for messages. */
#define DIE(...)                               \
	do {                                   \
		fprintf(stderr, "%s: ", prog); \
		fprintf(stderr, __VA_ARGS__);  \
		fprintf(stderr, "\n");         \
		exit(1);                       \
	} while (0)

#define CM_DEFAULT_PORT 19600
#define CM_DEFAULT_ITERS 1000
#define CM_DEFAULT_WARMUP 10
#define CM_DEFAULT_TIMEOUT_S 10 /* one round (client) or an idle spell (server) */

struct cm_opts {
	bool server;           /* -s */
	const char *addr;      /* client: the server's address; server: where to listen */
	uint16_t port;         /* -p */
	uint32_t iters;        /* -n: timed connections */
	uint32_t warmup;       /* -w: untimed connections first */
	bool busy;             /* -b: poll without sleeping (default: sleep on the event fd) */
	bool verbose;          /* -v (ucx_cm_setup): print the endpoint's lanes */
	double timeout_s;      /* -t */
	const char *transport; /* -x shm|tcp (doca_cm_setup only) */
	const char *device;    /* -d (doca_cm_setup only) */
};

/* with_doca: -x and -d are accepted. 0: run; -1: help printed; 1: usage
 * error (printed). */
int cm_parse(int argc, char **argv, struct cm_opts *o, bool with_doca);

uint64_t cm_now_ns(void);
/* Open file descriptors and resident set (KiB) of this process. */
int cm_fd_count(void);
long cm_rss_kib(void);

/* The timed rounds' samples (ns), and what the process held before and after. */
struct cm_stats {
	uint64_t *ns;
	uint32_t n;
	int fds_before, fds_after;
	long rss_before, rss_after;
};

int cm_stats_init(struct cm_stats *s, uint32_t n);
void cm_stats_mark_start(struct cm_stats *s);
void cm_stats_mark_end(struct cm_stats *s);
/* Prints the table bench/cm_setup.sh reads:
 *   #n  median_us  p99_us  mean_us  min_us  max_us
 *   ...
 * then "resources: ..." (fd and RSS growth across the timed rounds). */
void cm_stats_print(const struct cm_stats *s, const char *what);
void cm_stats_free(struct cm_stats *s);
void cm_print_resources(const char *who, int fds_before, int fds_after, long rss_before,
                        long rss_after);

#endif
