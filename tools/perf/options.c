/*
 * softdoca-perf's command line, modelled on perftest's.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf.h"

static const char *const op_names[PERF_NUM_OPS] = {
	[PERF_WRITE] = "write",         [PERF_WRITE_IMM] = "write_imm",
	[PERF_READ] = "read",           [PERF_SEND] = "send",
	[PERF_SEND_IMM] = "send_imm",   [PERF_ATOMIC_FA] = "atomic_fa",
	[PERF_ATOMIC_CS] = "atomic_cs", [PERF_SYNC_SET] = "sync_set",
	[PERF_SYNC_ADD] = "sync_add",
};

const char *perf_op_name(enum perf_op op)
{
	return op_names[op];
}

bool perf_op_is_sync(enum perf_op op)
{
	return op == PERF_SYNC_SET || op == PERF_SYNC_ADD;
}

bool perf_op_is_pingpong(enum perf_op op)
{
	return op == PERF_WRITE || op == PERF_WRITE_IMM || op == PERF_SEND || op == PERF_SEND_IMM;
}

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
	        "Usage: %s [options]          start a server\n"
	        "       %s [options] HOST     start a client and run the test against HOST\n"
	        "\n"
	        "Options (both sides; the client's test settings are the ones used):\n"
	        "  -t, --test=OP          write, write_imm, read, send, send_imm, atomic_fa,\n"
	        "                         atomic_cs (default write); sync_set, sync_add: a\n"
	        "                         remote sync event's notify-set or notify-add: --lat\n"
	        "                         (sync_set) the time until the server's waiter,\n"
	        "                         blocked in doca_sync_event_wait_gt, wakes, beside an\n"
	        "                         8-byte write to the blocked server; --bw the rate,\n"
	        "                         beside remote fetch-adds in the same run\n"
	        "      --bw               measure bandwidth and message rate (default)\n"
	        "      --lat              measure latency\n"
	        "  -s, --size=BYTES       message size, K/M/G suffixes allowed (default 65536\n"
	        "                         for --bw, 8 for --lat; atomics are always 8)\n"
	        "  -a, --all              sweep sizes 2 B ... 8 MiB in powers of two\n"
	        "  -n, --iters=N          iterations per size (default 5000 --bw, 1000 --lat)\n"
	        "  -D, --duration=SECONDS run each size for this long instead of -n\n"
	        "  -q, --tx-depth=N       operations in flight (default 128 --bw; --lat uses 1)\n"
	        "      --conns=N          connections between the two sides (default 1, --bw\n"
	        "                         only); operations go to them in turn\n"
	        "  -d, --ib-dev=DEVICE    device: ibdev name (sdoca_lo) or interface (lo)\n"
	        "      --transport=T      shm or tcp (default: chosen by softdoca)\n"
	        "  -p, --port=PORT        TCP port of the server (default %d; 0 on the\n"
	        "                         server: any free port, which it prints)\n"
	        "      --cm               set the connections up through the server's\n"
	        "                         listener, as RDMA-CM does (doca_rdma_connect_to_addr\n"
	        "                         to the address the client reached the server at,\n"
	        "                         IPv4 or IPv6), not by blobs over the TCP socket,\n"
	        "                         which still carries parameters and memory\n"
	        "                         descriptors; the client prints the set-up time\n"
	        "      --cm-port=PORT     server: the port its listener takes with --cm\n"
	        "                         (default: the -p port + 1, or the next free one\n"
	        "                         above it); the client learns it over the socket\n"
	        "      --json=FILE        also write the results as JSON\n"
	        "      --report-gbits     bandwidth in Gb/s instead of MiB/s\n"
	        "      --check            verify each operation's data (slower; the banner says\n"
	        "                         how)\n"
	        "      --idle=SECONDS     client: once connected, stay idle this long and\n"
	        "                         report the CPU the process used meanwhile\n"
	        "      --gap-us=N         sync_set --lat: wait N us between operations (the\n"
	        "                         server's waiter and service thread then sleep)\n"
	        "      --passive          server: serve read, atomic and write --bw tests\n"
	        "                         blocked in poll() without progress calls, as a DOCA\n"
	        "                         target sitting in getchar() (the soft NIC's service\n"
	        "                         thread serves)\n"
	        "      --api=N            the DOCA API the test runs through: 300 (DOCA 3.x\n"
	        "                         tasks and progress engine, default) or 202 (DOCA\n"
	        "                         2.2 jobs and work queue: softdoca-perf-v202, built\n"
	        "                         for that generation, runs the test); each side\n"
	        "                         chooses its own\n"
	        "  -h, --help             this text\n",
	        prog, prog, PERF_DEFAULT_PORT);
}

static bool parse_u64(const char *s, uint64_t *out, bool suffixes)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (!s || !*s || *s == '-')
		return false;
	v = strtoull(s, &end, 0);
	if (errno)
		return false;
	if (suffixes && *end) {
		int shift = *end == 'K' || *end == 'k'   ? 10
		            : *end == 'M' || *end == 'm' ? 20
		            : *end == 'G' || *end == 'g' ? 30
		                                         : -1;

		if (shift < 0 || end[1] || v > (UINT64_MAX >> shift))
			return false;
		v <<= shift;
		end++;
	}
	if (*end)
		return false;
	*out = v;
	return true;
}

static int bad(const char *prog, const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry '%s --help'.\n", prog);
	return 2;
}

static int check_combination(const char *prog, struct perf_opts *o)
{
	bool atomic = o->op == PERF_ATOMIC_FA || o->op == PERF_ATOMIC_CS || perf_op_is_sync(o->op);

	if (o->op == PERF_SYNC_ADD && o->mode == PERF_LAT)
		return bad(prog, "%s: a notify-add's rate is --bw; the wake-up latency is sync_set",
		           "-t sync_add --lat");
	if (perf_op_is_sync(o->op) && o->conns > 1)
		return bad(prog, "%s: the sync-event tests run on one connection", "--conns");
	if (atomic) {
		if (o->size_set && o->size != 8)
			return bad(prog, "%s: atomics work on 8 bytes exactly", "-s");
		o->size = 8;
		o->sweep = false;
	}
	if (!o->size_set && !atomic)
		o->size = o->mode == PERF_LAT ? 8 : 65536;
	if (o->size > PERF_MAX_SIZE)
		return bad(prog, "%s: the size is over the 2 GiB message cap", "-s");
	if (o->mode == PERF_LAT && o->size == 0 && (o->op == PERF_WRITE))
		return bad(prog, "write latency needs at least 1 byte (%s)", "-s");
	if (!o->iters_set)
		o->iters = o->mode == PERF_LAT ? 1000 : 5000;
	if (o->mode == PERF_LAT && o->conns > 1)
		return bad(prog, "%s: latency runs on one connection", "--conns");
	if (o->mode == PERF_BW && o->conns > o->depth)
		return bad(prog, "%s: more connections than operations in flight (-q)", "--conns");
	/* --check expects each compare-swap to find what the one before left:
	 * one connection's order, which several connections do not have. */
	if (o->check && o->op == PERF_ATOMIC_CS && o->conns > 1)
		return bad(prog, "%s: atomic_cs over several connections has no order to check",
		           "--check");
	if (o->mode == PERF_LAT)
		o->depth = 1;
	if (o->api == 202 && o->conns > 1)
		return bad(prog, "%s: a DOCA 2.2 context has one connection", "--conns");
	if (o->api == 202 && o->cm)
		return bad(prog, "%s: DOCA 2.2 has no RDMA-CM calls", "--cm");
	/* the server sends its wake-up samples back in one message of at most 1 MiB */
	if (o->op == PERF_SYNC_SET && o->mode == PERF_LAT && o->iters > 100000)
		return bad(prog, "%s: sync_set --lat runs at most 100000 iterations", "-n");
	if (o->host && o->passive)
		return bad(prog, "%s is a server option", "--passive");
	if (o->host && o->cm_port)
		return bad(prog, "%s is a server option (the client learns the port)", "--cm-port");
	if (o->host && o->port == 0)
		return bad(prog, "%s: a client needs the server's port (0 is for a server)", "-p");
	if (perf_check_empty_op(o, NULL) < 0)
		return 2;
	return 0;
}

int perf_parse(int argc, char **argv, struct perf_opts *o)
{
	enum {
		OPT_BW = 256,
		OPT_LAT,
		OPT_TRANSPORT,
		OPT_JSON,
		OPT_GBITS,
		OPT_CHECK,
		OPT_IDLE,
		OPT_PASSIVE,
		OPT_CONNS,
		OPT_API,
		OPT_GAP,
		OPT_CM,
		OPT_CM_PORT
	};
	static const struct option longs[] = {
		{ "test", required_argument, NULL, 't' },
		{ "bw", no_argument, NULL, OPT_BW },
		{ "lat", no_argument, NULL, OPT_LAT },
		{ "size", required_argument, NULL, 's' },
		{ "all", no_argument, NULL, 'a' },
		{ "iters", required_argument, NULL, 'n' },
		{ "duration", required_argument, NULL, 'D' },
		{ "tx-depth", required_argument, NULL, 'q' },
		{ "ib-dev", required_argument, NULL, 'd' },
		{ "transport", required_argument, NULL, OPT_TRANSPORT },
		{ "port", required_argument, NULL, 'p' },
		{ "json", required_argument, NULL, OPT_JSON },
		{ "report-gbits", no_argument, NULL, OPT_GBITS },
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "idle", required_argument, NULL, OPT_IDLE },
		{ "passive", no_argument, NULL, OPT_PASSIVE },
		{ "conns", required_argument, NULL, OPT_CONNS },
		{ "api", required_argument, NULL, OPT_API },
		{ "gap-us", required_argument, NULL, OPT_GAP },
		{ "cm", no_argument, NULL, OPT_CM },
		{ "cm-port", required_argument, NULL, OPT_CM_PORT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *prog = argv[0];
	uint64_t v;
	int c;

	*o = (struct perf_opts){ .op = PERF_WRITE,
		                 .mode = PERF_BW,
		                 .depth = 128,
		                 .conns = 1,
		                 .device = "lo",
		                 .port = PERF_DEFAULT_PORT,
		                 .api = PERF_API };
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:s:an:D:q:d:p:h", longs, NULL)) != -1) {
		switch (c) {
		case 't': {
			int i;

			for (i = 0; i < PERF_NUM_OPS && strcmp(optarg, op_names[i]) != 0; i++)
				;
			if (i == PERF_NUM_OPS)
				return bad(prog, "-t: unknown test '%s'", optarg);
			o->op = (enum perf_op)i;
			break;
		}
		case OPT_BW:
			o->mode = PERF_BW;
			break;
		case OPT_LAT:
			o->mode = PERF_LAT;
			break;
		case 's':
			if (!parse_u64(optarg, &o->size, true))
				return bad(prog, "-s: '%s' is not a size", optarg);
			o->size_set = true;
			break;
		case 'a':
			o->sweep = true;
			break;
		case 'n':
			if (!parse_u64(optarg, &o->iters, false) || o->iters == 0)
				return bad(prog, "-n: '%s' is not a positive count", optarg);
			o->iters_set = true;
			break;
		case 'D':
			if (!parse_u64(optarg, &v, false) || v == 0 || v > 3600)
				return bad(prog, "-D: '%s' is not 1..3600 seconds", optarg);
			o->duration = (double)v;
			break;
		case 'q':
			if (!parse_u64(optarg, &v, false) || v == 0 || v > PERF_MAX_DEPTH)
				return bad(prog, "-q: '%s' is not 1..4096", optarg);
			o->depth = (uint32_t)v;
			break;
		case OPT_CONNS:
			if (!parse_u64(optarg, &v, false) || v == 0 || v > PERF_MAX_CONNS)
				return bad(prog, "--conns: '%s' is not 1..64", optarg);
			o->conns = (uint32_t)v;
			break;
		case OPT_API:
			if (!parse_u64(optarg, &v, false) || (v != 300 && v != 202))
				return bad(prog, "--api: '%s' is not 300 or 202", optarg);
			o->api = (uint32_t)v;
			break;
		case 'd':
			o->device = optarg;
			break;
		case OPT_TRANSPORT:
			if (strcmp(optarg, "shm") != 0 && strcmp(optarg, "tcp") != 0)
				return bad(prog, "--transport: '%s' is not shm or tcp", optarg);
			o->transport = optarg;
			break;
		case 'p':
			if (!parse_u64(optarg, &v, false) || v > 65535)
				return bad(prog, "-p: '%s' is not a port", optarg);
			o->port = (uint16_t)v;
			break;
		case OPT_CM:
			o->cm = true;
			break;
		case OPT_CM_PORT:
			if (!parse_u64(optarg, &v, false) || v == 0 || v > 65535)
				return bad(prog, "--cm-port: '%s' is not a port (1..65535)",
				           optarg);
			o->cm_port = (uint16_t)v;
			break;
		case OPT_JSON:
			o->json = optarg;
			break;
		case OPT_GBITS:
			o->gbits = true;
			break;
		case OPT_CHECK:
			o->check = true;
			break;
		case OPT_PASSIVE:
			o->passive = true;
			break;
		case OPT_GAP:
			if (!parse_u64(optarg, &v, false) || v > 1000000)
				return bad(prog, "--gap-us: '%s' is not 0..1000000", optarg);
			o->gap_us = (uint32_t)v;
			break;
		case OPT_IDLE:
			if (!parse_u64(optarg, &v, false) || v == 0 || v > 3600)
				return bad(prog, "--idle: '%s' is not 1..3600 seconds", optarg);
			o->idle = (uint32_t)v;
			break;
		case 'h':
			usage(stdout, prog);
			return -1;
		case ':':
			return bad(prog, "option '%s' needs a value", argv[optind - 1]);
		default:
			return bad(prog, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		o->host = argv[optind++];
	if (optind < argc)
		return bad(prog, "unexpected argument '%s'", argv[optind]);
	return check_combination(prog, o);
}
