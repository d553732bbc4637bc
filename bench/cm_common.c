/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The connection set-up benchmarks' shared part (cm_common.h).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cm_common.h"

static void usage(FILE *f, const char *prog, bool with_doca)
{
	fprintf(f,
	        with_doca ? "usage: %s -s [options]                 server (every address of the "
	                    "host)\n"
	                  : "usage: %s -s [options] [LISTEN_ADDR]   server (default 127.0.0.1)\n",
	        prog);
	fprintf(f,
	        "       %s [options] SERVER_ADDR        client: connects -n times, timed\n"
	        "  -p PORT     TCP port (default %d)\n"
	        "  -n N        timed connections (default %d)\n"
	        "  -w N        untimed warm-up connections first (default %d)\n"
	        "  -b          busy-poll instead of sleeping on the event fd between events\n"
	        "  -t SECONDS  bound on one round (client) or an idle spell (server), default %d\n",
	        prog, CM_DEFAULT_PORT, CM_DEFAULT_ITERS, CM_DEFAULT_WARMUP, CM_DEFAULT_TIMEOUT_S);
	if (!with_doca)
		fprintf(f, "  -v          client: print the first timed endpoint's lanes\n");
	if (with_doca)
		fprintf(f,
		        "  -x shm|tcp  softdoca's transport (sets SOFTDOCA_TRANSPORT)\n"
		        "  -d DEVICE   device: ibdev name (sdoca_lo) or interface (lo, default)\n");
}

static int bad(const char *prog, bool with_doca, const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s '%s'\n", prog, what, arg);
	usage(stderr, prog, with_doca);
	return 1;
}

static bool parse_u32(const char *s, uint32_t max, uint32_t *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!*s || *end || v > max)
		return false;
	*out = (uint32_t)v;
	return true;
}

int cm_parse(int argc, char **argv, struct cm_opts *o, bool with_doca)
{
	const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	const char *optstring = with_doca ? "sp:n:w:bt:x:d:h" : "sp:n:w:bvt:h";
	uint32_t v;
	char *end;
	int c;

	*o = (struct cm_opts){ .port = CM_DEFAULT_PORT,
		               .iters = CM_DEFAULT_ITERS,
		               .warmup = CM_DEFAULT_WARMUP,
		               .timeout_s = CM_DEFAULT_TIMEOUT_S,
		               .device = "lo" };
	while ((c = getopt(argc, argv, optstring)) != -1) {
		switch (c) {
		case 's':
			o->server = true;
			break;
		case 'p':
			if (!parse_u32(optarg, 65535, &v) || v == 0)
				return bad(prog, with_doca, "-p: not a port:", optarg);
			o->port = (uint16_t)v;
			break;
		case 'n':
			if (!parse_u32(optarg, 10000000, &o->iters) || o->iters == 0)
				return bad(prog, with_doca, "-n: not a count:", optarg);
			break;
		case 'w':
			if (!parse_u32(optarg, 10000000, &o->warmup))
				return bad(prog, with_doca, "-w: not a count:", optarg);
			break;
		case 'b':
			o->busy = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 't':
			o->timeout_s = strtod(optarg, &end);
			if (!*optarg || *end || !(o->timeout_s > 0))
				return bad(prog, with_doca, "-t: not a positive number:", optarg);
			break;
		case 'x':
			if (strcmp(optarg, "shm") != 0 && strcmp(optarg, "tcp") != 0)
				return bad(prog, with_doca, "-x: not shm or tcp:", optarg);
			o->transport = optarg;
			break;
		case 'd':
			o->device = optarg;
			break;
		case 'h':
			usage(stdout, prog, with_doca);
			return -1;
		default:
			usage(stderr, prog, with_doca);
			return 1;
		}
	}
	if (optind < argc)
		o->addr = argv[optind++];
	if (optind < argc)
		return bad(prog, with_doca, "one address only, not", argv[optind]);
	if (!o->addr && !o->server) {
		fprintf(stderr, "%s: the client needs the server's address\n", prog);
		usage(stderr, prog, with_doca);
		return 1;
	}
	if (!o->addr)
		o->addr = "127.0.0.1";
	return 0;
}

uint64_t cm_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int cm_fd_count(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1; /* the directory's own */
}

long cm_rss_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

int cm_stats_init(struct cm_stats *s, uint32_t n)
{
	*s = (struct cm_stats){ .ns = calloc(n, sizeof(*s->ns)), .n = n };
	return s->ns ? 0 : -1;
}

void cm_stats_mark_start(struct cm_stats *s)
{
	s->fds_before = cm_fd_count();
	s->rss_before = cm_rss_kib();
}

void cm_stats_mark_end(struct cm_stats *s)
{
	s->fds_after = cm_fd_count();
	s->rss_after = cm_rss_kib();
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The sample at fraction q of the sorted ones (nearest rank). */
static double pick_us(const uint64_t *sorted, uint32_t n, double q)
{
	size_t i = (size_t)(q * n + 0.999999);

	i = i == 0 ? 0 : i - 1;
	if (i >= n)
		i = n - 1;
	return (double)sorted[i] / 1e3;
}

void cm_stats_print(const struct cm_stats *s, const char *what)
{
	uint64_t *v = malloc(s->n * sizeof(*v));
	double sum = 0, median;

	if (!v || s->n == 0) {
		free(v);
		printf("%s: no samples\n", what);
		return;
	}
	memcpy(v, s->ns, s->n * sizeof(*v));
	qsort(v, s->n, sizeof(*v), cmp_u64);
	for (uint32_t i = 0; i < s->n; i++)
		sum += (double)v[i];
	median = s->n % 2 ? (double)v[s->n / 2] / 1e3
	                  : ((double)v[s->n / 2 - 1] + (double)v[s->n / 2]) / 2e3;
	printf("%s\n", what);
	printf("#n      median_us  p99_us     mean_us    min_us     max_us\n");
	printf("%-7u %-10.1f %-10.1f %-10.1f %-10.1f %-10.1f\n", s->n, median,
	       pick_us(v, s->n, 0.99), sum / s->n / 1e3, (double)v[0] / 1e3,
	       (double)v[s->n - 1] / 1e3);
	cm_print_resources("client", s->fds_before, s->fds_after, s->rss_before, s->rss_after);
	free(v);
}

void cm_print_resources(const char *who, int fds_before, int fds_after, long rss_before,
                        long rss_after)
{
	printf("resources: %s fds %d -> %d, rss %ld -> %ld KiB over the timed rounds\n", who,
	       fds_before, fds_after, rss_before, rss_after);
	fflush(stdout);
}

void cm_stats_free(struct cm_stats *s)
{
	free(s->ns);
	s->ns = NULL;
}
