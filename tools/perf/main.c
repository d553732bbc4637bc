/*
 * softdoca-perf: server and client entry point.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * softdoca-perf: server and client, like perftest's ib_*_bw / ib_*_lat.
 *
 *   softdoca-perf -t write --bw                 (server: waits on port 18515)
 *   softdoca-perf -t write --bw -s 1M 127.0.0.1 (client: runs, prints the table)
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "perf.h"

/* The test parameters, from the client: seven big-endian 64-bit words. */
#define PARAM_WORDS 7

static void send_params(int oob, const struct perf_params *p)
{
	uint64_t w[PARAM_WORDS] = { htobe64(p->op),    htobe64(p->mode),     htobe64(p->depth),
		                    htobe64(p->check), htobe64(p->max_size), htobe64(p->conns),
		                    htobe64(p->cm) };

	perf_oob_send(oob, w, sizeof(w));
}

static struct perf_params recv_params(int oob)
{
	size_t len;
	uint64_t *w = perf_oob_recv(oob, &len);
	struct perf_params p;

	if (len != PARAM_WORDS * sizeof(uint64_t) || be64toh(w[0]) >= PERF_NUM_OPS ||
	    be64toh(w[1]) > PERF_LAT || be64toh(w[2]) == 0 || be64toh(w[2]) > PERF_MAX_DEPTH ||
	    be64toh(w[4]) > PERF_MAX_SIZE || be64toh(w[5]) == 0 || be64toh(w[5]) > PERF_MAX_CONNS ||
	    be64toh(w[6]) > 1) {
		fprintf(stderr, "softdoca-perf: the client sent invalid test parameters\n");
		exit(1);
	}
	p = (struct perf_params){ (uint32_t)be64toh(w[0]), (uint32_t)be64toh(w[1]),
		                  (uint32_t)be64toh(w[2]), (uint32_t)be64toh(w[3]),
		                  be64toh(w[4]),           (uint32_t)be64toh(w[5]),
		                  (uint32_t)be64toh(w[6]) };
	free(w);
	return p;
}

static int server(const struct perf_opts *o)
{
	uint16_t port = o->port;
	int listener = perf_oob_listen(&port), oob;
	struct perf_params p;
	struct perf_ep ep;

	printf("softdoca-perf server: waiting for a client on port %u\n", port);
	fflush(stdout);
	oob = perf_oob_accept(listener);
	close(listener);
	p = recv_params(oob);
	perf_ep_open(&ep, o, &p);
	perf_ep_connect(&ep, oob);
	printf("softdoca-perf server: running %s %s\n", perf_op_name((enum perf_op)p.op),
	       p.mode == PERF_BW ? "bandwidth" : "latency");
	fflush(stdout);
	if (perf_op_is_sync((enum perf_op)p.op))
		perf_sync_server(&ep, oob);
	else
		while (perf_server_run(&ep, oob))
			;
	perf_ep_close(&ep);
	close(oob);
	return 0;
}

static double cpu_seconds(void)
{
	struct rusage u;

	getrusage(RUSAGE_SELF, &u);
	return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
	       (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

/* Connected, and the program makes no DOCA call: only the soft NIC's service
 * thread may run. What it costs, as a share of one core. */
static void report_idle(uint32_t seconds)
{
	struct timespec t = { .tv_sec = seconds };
	double before = cpu_seconds(), used;

	while (nanosleep(&t, &t) != 0)
		;
	used = cpu_seconds() - before;
	printf(" Idle for %u s while connected: %.3f s of CPU, %.2f%% of one core\n", seconds, used,
	       100.0 * used / seconds);
}

static int client(const struct perf_opts *o)
{
	struct perf_result results[32];
	uint64_t sizes[32];
	size_t n = 0;
	struct perf_params p = { .op = o->op,
		                 .mode = o->mode,
		                 .depth = o->depth,
		                 .check = o->check,
		                 .conns = o->conns,
		                 .cm = o->cm };
	struct perf_ep ep;
	uint64_t bad = 0;
	int oob;

	if (o->sweep)
		for (uint64_t s = 2; s <= PERF_SWEEP_MAX; s *= 2)
			sizes[n++] = s;
	else
		sizes[n++] = o->size;
	p.max_size = sizes[n - 1];
	if (perf_op_is_sync(o->op))
		n = 0; /* rows of their own, not sizes */
	oob = perf_oob_connect(o->host, o->port);
	send_params(oob, &p);
	perf_ep_open(&ep, o, &p);
	perf_ep_connect(&ep, oob);
	perf_report_banner(o, &ep);
	if (o->idle)
		report_idle(o->idle);
	for (size_t i = 0; i < n; i++) {
		if (isatty(STDERR_FILENO))
			fprintf(stderr, "\r running %lu-byte messages...", (unsigned long)sizes[i]);
		perf_client_run(&ep, o, oob, sizes[i], &results[i]);
		if (isatty(STDERR_FILENO))
			fprintf(stderr, "\r%*s\r", 40, "");
		perf_report_row(o, &results[i]);
		bad += results[i].bad;
	}
	if (perf_op_is_sync(o->op)) {
		n = perf_sync_client(&ep, o, oob, results);
		for (size_t i = 0; i < n; i++) {
			perf_report_row(o, &results[i]);
			bad += results[i].bad;
		}
	}
	perf_client_finish(oob);
	perf_report_footer(o);
	if (o->check) {
		uint64_t verified = 0;

		for (size_t i = 0; i < n; i++)
			verified += results[i].verified;
		printf(" Data check: %lu verified, %lu wrong\n", (unsigned long)verified,
		       (unsigned long)bad);
	}
	if (bad)
		fprintf(stderr, "softdoca-perf: data check failed: %lu wrong\n",
		        (unsigned long)bad);
	perf_ep_close(&ep);
	close(oob);
	if (o->json && perf_report_json(o, &ep, results, n) != 0)
		return 1;
	return bad ? 1 : 0;
}

/* --api that is not this binary's: its twin, next to it, runs the test. */
static int run_twin(char **argv, uint32_t api)
{
	char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 32);
	char *slash;

	if (n <= 0)
		return 1;
	path[n] = '\0';
	slash = strrchr(path, '/');
	strcpy(slash ? slash + 1 : path, api == 202 ? "softdoca-perf-v202" : "softdoca-perf");
	execv(path, argv);
	fprintf(stderr, "softdoca-perf: cannot run %s for --api %u: %s\n", path, api,
	        strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	struct perf_opts o;
	int rc = perf_parse(argc, argv, &o);

	if (rc != 0)
		return rc < 0 ? 0 : rc;
	if (o.api != PERF_API)
		return run_twin(argv, o.api);
	perf_clock_init();
	return o.host ? client(&o) : server(&o);
}
