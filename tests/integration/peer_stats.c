/*
 * softdoca integration tests: softdoca-info --pid, run against both ends of
 * a real connection while they live. The client does a known set of
 * operations (100 writes of 4 KiB, 10 reads of 1 KiB, 3 sends of 64 B, 5
 * fetch-adds), then reads its own counters and the server's through the
 * tool (JSON and text): each side's numbers are exactly those operations,
 * posted on one side, served on the other, and match what the process
 * reads through softdoca.h, and the server's receive queue holds the two
 * receives no send took. The server meanwhile sits blocked in a read of
 * its socket, without progress calls: the service thread answers for it.
 *
 * stats_watch_nak: softdoca-info --watch --json on a server whose memory
 * is revoked while it watches; the client's write is refused (a remote
 * access NAK): the interval it falls in counts it at its rate, once, and
 * the connection is in ERROR from then on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>
#include <softdoca.h>

#include "peer.h"

#ifndef INFO_BIN
#error "INFO_BIN: the softdoca-info binary"
#endif

#define MEM (256 * 1024)
#define WRITES 100
#define WRITE_LEN 4096
#define READS 10
#define READ_LEN 1024
#define SENDS 3
#define SEND_LEN 64
#define ADDS 5
#define SPARE_RECVS 2 /* posted beyond the sends: the receive queue's depth */
#define ALL_OPS (WRITES + READS + SENDS + ADDS)
#define SILENT_READERS 4

static void stats_server(struct peer *p)
{
	struct posted_recv recv[SENDS + SPARE_RECVS];

	server_prepare(p, MEM, ALL_RDMA);
	oob_accept(p);
	handshake(p, 0);
	for (int i = 0; i < SENDS + SPARE_RECVS; i++)
		post_recv(p, &recv[i], local_buf(p, MEM - (size_t)(i + 1) * SEND_LEN, SEND_LEN, 0));
	oob_send_str(p->oob[0], "ready");
	/* Blocked without a DOCA call, as a target in getchar(): the service
	 * thread serves the client's requests and softdoca-info. */
	oob_expect(p->oob[0], "done", WAIT_MS);
	for (int i = 0; i < SENDS; i++) {
		peer_wait(p, &recv[i].r, WAIT_MS);
		check_recv(&recv[i], DOCA_RDMA_OPCODE_RECV_SEND, SEND_LEN, false, 0, "a send");
		free_recv(&recv[i]);
	}
	/* The spare receives are flushed by the stop, then freed. */
	EXPECT(doca_ctx_stop(doca_rdma_as_ctx(p->rdma)) == DOCA_ERROR_IN_PROGRESS,
	       "stop with receives posted");
	for (int i = SENDS; i < SENDS + SPARE_RECVS; i++) {
		peer_wait(p, &recv[i].r, WAIT_MS);
		free_recv(&recv[i]);
	}
	peer_stop(p);
	oob_send_str(p->oob[0], "bye");
}

/* softdoca-info's output and exit code (stderr folded in). */
static char *run_info(const char *args, int *exit_code)
{
	size_t cap = 1 << 20, len = 0, n;
	char cmd[512], *out = malloc(cap);
	FILE *f;
	int status;

	EXPECT(out, "out of memory");
	snprintf(cmd, sizeof(cmd), "'%s' %s 2>&1", INFO_BIN, args);
	f = popen(cmd, "r");
	EXPECT(f, "cannot run %s", cmd);
	while (len + 1 < cap && (n = fread(out + len, 1, cap - 1 - len, f)) > 0)
		len += n;
	out[len] = '\0';
	status = pclose(f);
	*exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
	return out;
}

static json_object *field(json_object *o, const char *name)
{
	json_object *v = NULL;

	EXPECT(json_object_object_get_ex(o, name, &v), "no \"%s\" in the JSON", name);
	return v;
}

static uint64_t num(json_object *o, const char *a, const char *b)
{
	json_object *v = field(o, a);

	return (uint64_t)json_object_get_int64(b ? field(v, b) : v);
}

/* softdoca-info --json --pid pid, parsed; its only connection in *conn. */
static json_object *info_json(uint32_t pid, json_object **conn, json_object **dev)
{
	char args[64];
	json_object *root, *conns, *devs;
	char *out;
	int rc;

	snprintf(args, sizeof(args), "--json --pid %u", pid);
	out = run_info(args, &rc);
	EXPECT(rc == 0, "softdoca-info %s: exit %d: %s", args, rc, out);
	root = json_tokener_parse(out);
	EXPECT(root, "softdoca-info %s: not JSON: %s", args, out);
	free(out);
	EXPECT(num(root, "pid", NULL) == pid, "the counters of another process");
	conns = field(root, "connections");
	devs = field(root, "devices");
	EXPECT(json_object_array_length(conns) == 1, "%zu connections, expected 1",
	       json_object_array_length(conns));
	EXPECT(json_object_array_length(devs) == 1, "%zu devices, expected 1",
	       json_object_array_length(devs));
	*conn = json_object_array_get_idx(conns, 0);
	*dev = json_object_array_get_idx(devs, 0);
	return root;
}

/* What a side counted, from the tool's JSON: posted ("posted") or served
 * ("served") operations of each type this test does, and their bytes. */
static void expect_ops(json_object *counters, const char *side, const char *who)
{
	char bytes[32];
	static const struct {
		const char *op;
		uint64_t count, len;
	} ops[] = {
		{ "write", WRITES, WRITE_LEN }, { "read", READS, READ_LEN },
		{ "send", SENDS, SEND_LEN },    { "atomic_fa", ADDS, 8 },
		{ "write_imm", 0, 0 },          { "atomic_cs", 0, 0 },
		{ "sync_event_add", 0, 0 },
	};

	snprintf(bytes, sizeof(bytes), "%s_bytes", side);
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		uint64_t n = num(counters, side, ops[i].op), b = num(counters, bytes, ops[i].op);

		EXPECT(n == ops[i].count && b == ops[i].count * ops[i].len,
		       "%s: %s[%s] = %lu, %s = %lu; expected %lu and %lu", who, side, ops[i].op,
		       (unsigned long)n, bytes, (unsigned long)b, (unsigned long)ops[i].count,
		       (unsigned long)(ops[i].count * ops[i].len));
	}
	EXPECT(num(counters, "timeouts", NULL) == 0 && num(counters, "naks_sent", NULL) == 0 &&
	               num(counters, "naks_received", NULL) == 0 &&
	               num(counters, "rnr_notices", NULL) == 0 &&
	               num(counters, "strangers_dropped", NULL) == 0 &&
	               num(counters, "faults_injected", NULL) == 0 &&
	               num(counters, "requests_failed", NULL) == 0 &&
	               num(counters, "naks_sent_by_syndrome", "remote_access") == 0,
	       "%s: failures counted where nothing failed", who);
}

static void do_ops(struct peer *p)
{
	struct result r;
	uint32_t got;

	for (int i = 0; i < WRITES; i++) {
		struct doca_buf *src = local_buf(p, 0, WRITE_LEN, WRITE_LEN);
		struct doca_buf *dst = remote_buf(p, (size_t)(i % 16) * WRITE_LEN, WRITE_LEN, 0);

		do_write(p, src, dst, &r);
		expect_status(&r, DOCA_SUCCESS, "a write");
		put(src);
		put(dst);
	}
	for (int i = 0; i < READS; i++) {
		struct doca_buf *src = remote_buf(p, 0, READ_LEN, READ_LEN);
		struct doca_buf *dst = local_buf(p, WRITE_LEN, READ_LEN, 0);

		do_read(p, src, dst, &r, &got);
		expect_status(&r, DOCA_SUCCESS, "a read");
		EXPECT(got == READ_LEN, "a read of %u bytes", got);
		put(src);
		put(dst);
	}
	for (int i = 0; i < SENDS; i++) {
		struct doca_buf *src = local_buf(p, 0, SEND_LEN, SEND_LEN);

		do_send(p, src, false, 0, &r);
		expect_status(&r, DOCA_SUCCESS, "a send");
		put(src);
	}
	for (int i = 0; i < ADDS; i++) {
		(void)do_fetch_add(p, 128 * 1024, 1, &r);
		expect_status(&r, DOCA_SUCCESS, "a fetch-add");
	}
}

/* A connection to pid's counters channel that never asks (the socket is
 * stats-<pid> in the user's private softdoca directory: README). */
static int silent_reader(uint32_t pid)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	EXPECT(fd >= 0, "no socket");
	if (xdg && *xdg) {
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/softdoca/stats-%u", xdg, pid);
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			return fd;
	}
	snprintf(sa.sun_path, sizeof(sa.sun_path), "/tmp/softdoca-%u/stats-%u", (unsigned)geteuid(),
	         pid);
	EXPECT(connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0, "cannot connect to %s",
	       sa.sun_path);
	return fd;
}

static void stats_client(struct peer *p)
{
	struct softdoca_rdma_counters own;
	json_object *mine, *theirs, *conn, *dev, *sconn, *sdev, *counters;
	uint32_t server;
	char args[64], *out, row[160];
	int rc, silent[SILENT_READERS];

	client_prepare(p, MEM);
	handshake(p, 0);
	oob_expect(p->oob[0], "ready", WAIT_MS);
	do_ops(p);

	/* This side, read by another process: what it posted. */
	mine = info_json((uint32_t)getpid(), &conn, &dev);
	counters = field(conn, "counters");
	expect_ops(counters, "posted", "the client's connection");
	EXPECT(num(counters, "requests_posted", NULL) == ALL_OPS &&
	               num(counters, "requests_completed", NULL) == ALL_OPS &&
	               num(counters, "bytes_sent", NULL) == WRITES * WRITE_LEN + SENDS * SEND_LEN &&
	               num(counters, "bytes_read", NULL) == READS * READ_LEN &&
	               num(counters, "requests_served", NULL) == 0,
	       "the client's totals are wrong");
	EXPECT(strcmp(json_object_get_string(field(conn, "state")), "RTS") == 0, "not RTS");
	CHECK(softdoca_rdma_connection_get_counters(p->conn[0], &own));
	EXPECT(own.requests_posted == ALL_OPS &&
	               own.bytes_sent == num(counters, "bytes_sent", NULL),
	       "softdoca.h and softdoca-info disagree");
	/* the device: every connection the process had, here this one */
	expect_ops(field(dev, "counters"), "posted", "the client's device");
	server = (uint32_t)num(conn, "peer_pid", NULL);
	EXPECT(server > 0 && server != (uint32_t)getpid(), "peer pid %u", server);

	/* The server, blocked in read(): what it served, to this process. */
	theirs = info_json(server, &sconn, &sdev);
	counters = field(sconn, "counters");
	expect_ops(counters, "served", "the server's connection");
	expect_ops(field(sdev, "counters"), "served", "the server's device");
	EXPECT(num(counters, "requests_served", NULL) == ALL_OPS &&
	               num(counters, "bytes_placed", NULL) ==
	                       WRITES * WRITE_LEN + SENDS * SEND_LEN &&
	               num(counters, "requests_posted", NULL) == 0,
	       "the server's totals are wrong");
	EXPECT(num(sconn, "peer_pid", NULL) == (uint64_t)getpid(), "the server's peer is not us");
	/* Its receive queue: the receives no send took; none here. */
	EXPECT(num(sconn, "receive_queue_depth", NULL) == SPARE_RECVS &&
	               num(conn, "receive_queue_depth", NULL) == 0 && own.receive_queue_depth == 0,
	       "receive queue depths %lu (server) and %lu (client), expected %d and 0",
	       (unsigned long)num(sconn, "receive_queue_depth", NULL),
	       (unsigned long)num(conn, "receive_queue_depth", NULL), SPARE_RECVS);
	EXPECT(num(sconn, "qp_number", NULL) == num(conn, "peer_qp_number", NULL) &&
	               num(conn, "qp_number", NULL) == num(sconn, "peer_qp_number", NULL),
	       "the two ends' QP numbers do not match");
	json_object_put(mine);
	json_object_put(theirs);

	/* The text: the server's write row, served, in its connection's table -
	 * while four readers that never ask hold every slot of its channel:
	 * they lose them before softdoca-info gives up. */
	for (int i = 0; i < SILENT_READERS; i++)
		silent[i] = silent_reader(server);
	snprintf(args, sizeof(args), "--pid %u", server);
	out = run_info(args, &rc);
	EXPECT(rc == 0, "softdoca-info %s: exit %d, with silent readers:\n%s", args, rc, out);
	for (int i = 0; i < SILENT_READERS; i++)
		close(silent[i]);
	snprintf(row, sizeof(row), "\t%-16s%14u%16u%14u%16u\n", "write", 0u, 0u, WRITES,
	         WRITES * WRITE_LEN);
	EXPECT(strstr(out, row), "no row '%s' in:\n%s", row, out);
	snprintf(row, sizeof(row), "\t%-24s%d\n", "receive_queue_depth:", SPARE_RECVS);
	EXPECT(strstr(out, row), "no line '%s' in:\n%s", row, out);
	snprintf(row, sizeof(row), " %8u ", (unsigned)getpid());
	EXPECT(strstr(out, row) && strstr(out, " RTS "), "no connection line in:\n%s", out);
	printf("%s", out);
	free(out);

	oob_send_str(p->oob[0], "done");
	oob_expect(p->oob[0], "bye", WAIT_MS);
	peer_stop(p);
}

/* --- softdoca-info --watch sees a NAK happen --- */

#define WATCH_INTERVALS 10 /* of 0.2 s: the NAK comes after the first */
#define REFUSED_LEN 64

/* The server revokes its memory and waits, blocked: the client's write is
 * refused by its service thread while softdoca-info watches it. */
static void watch_nak_server(struct peer *p)
{
	/* the refusal fails the connection; the spare keeps the context up */
	server_prepare_spare(p, MEM, ALL_RDMA);
	oob_accept(p);
	handshake(p, 0);
	CHECK(doca_mmap_destroy(p->mmap));
	p->mmap = NULL;
	oob_send_str(p->oob[0], "ready");
	oob_expect(p->oob[0], "done", WAIT_MS);
	peer_stop(p);
	oob_send_str(p->oob[0], "bye");
}

/* The connection to pid peer in one --watch --json line, parsed in root. */
static json_object *watched_connection(const char *line, uint32_t peer, json_object **root)
{
	json_object *conns;

	*root = json_tokener_parse(line);
	EXPECT(*root, "--watch --json: not JSON: %s", line);
	conns = field(*root, "connections");
	for (size_t i = 0; i < json_object_array_length(conns); i++) {
		json_object *c = json_object_array_get_idx(conns, i);

		if (num(c, "peer_pid", NULL) == peer)
			return c;
	}
	EXPECT(0, "--watch --json: no connection to pid %u in %s", peer, line);
	return NULL;
}

static void watch_nak_client(struct peer *p)
{
	char args[96], cmd[512], line[1 << 16];
	struct doca_buf *src, *dst;
	uint32_t server = 0;
	uint64_t naks_seen = 0;
	int intervals = 0, nak_interval = 0;
	struct result r;
	FILE *watch;

	client_prepare(p, MEM);
	handshake(p, 0);
	oob_expect(p->oob[0], "ready", WAIT_MS);
	{
		json_object *root, *conn, *dev;

		root = info_json((uint32_t)getpid(), &conn, &dev);
		server = (uint32_t)num(conn, "peer_pid", NULL);
		json_object_put(root);
	}
	snprintf(args, sizeof(args), "--pid %u --watch 0.2 --count %d --json", server,
	         WATCH_INTERVALS);
	snprintf(cmd, sizeof(cmd), "'%s' %s", INFO_BIN, args);
	watch = popen(cmd, "r");
	EXPECT(watch, "cannot run %s", cmd);
	while (fgets(line, sizeof(line), watch)) {
		json_object *root, *conn = watched_connection(line, (uint32_t)getpid(), &root);
		json_object *rates = field(conn, "rates"), *counters = field(conn, "counters");
		uint64_t naks = num(counters, "naks_sent_by_syndrome", "remote_access");
		double rate = json_object_get_double(
		        field(field(rates, "naks_sent_by_syndrome"), "remote_access"));
		double seconds = json_object_get_double(field(root, "seconds"));
		const char *state = json_object_get_string(field(conn, "state"));

		intervals++;
		/* The rate is this interval's NAKs: the one NAK, once. */
		EXPECT(naks <= 1 && (rate > 0) == (naks > naks_seen) &&
		               (naks == naks_seen ||
		                (rate * seconds > 0.99 && rate * seconds < 1.01)),
		       "interval %d: %lu remote-access NAKs, %.3f/s over %.3f s (before: %lu)",
		       intervals, (unsigned long)naks, rate, seconds, (unsigned long)naks_seen);
		EXPECT(strcmp(state, naks ? "ERROR" : "RTS") == 0, "interval %d: %s after %lu NAKs",
		       intervals, state, (unsigned long)naks);
		if (naks > naks_seen)
			nak_interval = intervals;
		naks_seen = naks;
		json_object_put(root);
		if (intervals == 1) {
			/* Refused while watched: a remote access NAK. */
			src = local_buf(p, 0, REFUSED_LEN, REFUSED_LEN);
			dst = remote_buf(p, 0, REFUSED_LEN, 0);
			do_write(p, src, dst, &r);
			expect_status(&r, DOCA_ERROR_NOT_PERMITTED, "a write to a revoked mmap");
			put(src);
			put(dst);
		}
	}
	EXPECT(pclose(watch) == 0, "softdoca-info %s failed", args);
	EXPECT(intervals == WATCH_INTERVALS, "%d intervals of %d", intervals, WATCH_INTERVALS);
	EXPECT(nak_interval > 1, "no interval saw the NAK (%lu counted)", (unsigned long)naks_seen);
	printf("softdoca-info --watch: the NAK in interval %d of %d, the connection then ERROR\n",
	       nak_interval, intervals);
	peer_wait_state(p, DOCA_CTX_STATE_IDLE, WAIT_MS);
	oob_send_str(p->oob[0], "done");
	oob_expect(p->oob[0], "bye", WAIT_MS);
}

const struct scenario stats_scenarios[] = {
	{ "stats_pid", stats_server, stats_client },
	{ "stats_watch_nak", watch_nak_server, watch_nak_client },
	{ NULL, NULL, NULL },
};
