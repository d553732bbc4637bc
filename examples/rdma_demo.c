/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The demonstration behind `./run.sh demo`: two processes on this machine
 * (the program forks) doing every DOCA RDMA operation, each checked, and a
 * table of what happened:
 *
 *   operation        bytes  result  latency
 *
 * The target process never calls doca_pe_progress() while the initiator
 * writes, reads and runs atomics on its memory: it waits in read() on the
 * socket to its parent, as DOCA samples wait in getchar().
 *
 * Usage: rdma_demo [-d IFACE] [-t shm|tcp] [-n ITERATIONS]
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>

DOCA_LOG_REGISTER(RDMA_DEMO);

#define MiB (1024u * 1024u)
#define REGION (4 * MiB)
#define COUNTER (3 * MiB) /* the atomics' counter, at both ends */
#define ACCESS_ALL                                                        \
	(DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | \
	 DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC)

#define CHECK(call)                                                              \
	do {                                                                     \
		doca_error_t r_ = (call);                                        \
		if (r_ != DOCA_SUCCESS) {                                        \
			DOCA_LOG_ERR("%s: %s", #call, doca_error_get_descr(r_)); \
			exit(1);                                                 \
		}                                                                \
	} while (0)

struct side {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_rdma *rdma;
	struct doca_rdma_connection *conn;
	struct doca_mmap *mmap, *remote;
	struct doca_buf_inventory *inv;
	uint8_t *mem;
	uint8_t *peer_mem;
	int sock;
	int done;
	doca_error_t status;
	uint32_t received_len;
	doca_be32_t received_imm;
};

/* --- the out-of-band socket: length-prefixed messages --- */

static void sock_send(int fd, const void *data, size_t len)
{
	uint32_t n = (uint32_t)len;

	if (write(fd, &n, sizeof(n)) != sizeof(n) || write(fd, data, len) != (ssize_t)len)
		exit(1);
}

static void *sock_recv(int fd, size_t *len)
{
	uint32_t n;
	uint8_t *data;
	size_t got = 0;

	if (read(fd, &n, sizeof(n)) != sizeof(n))
		exit(1);
	data = malloc(n + 1);
	while (got < n) {
		ssize_t r = read(fd, data + got, n - got);

		if (r <= 0)
			exit(1);
		got += (size_t)r;
	}
	*len = n;
	return data;
}

/* --- one callback for every task type: count it, keep its status --- */

static void finished(struct doca_task *task, union doca_data ctx_user_data)
{
	struct side *s = ctx_user_data.ptr;

	s->status = doca_task_get_status(task);
	s->done++;
}

#define CALLBACK(type)                                                             \
	static void on_##type(struct doca_rdma_task_##type *t, union doca_data ud, \
	                      union doca_data cud)                                 \
	{                                                                          \
		(void)ud;                                                          \
		finished(doca_rdma_task_##type##_as_task(t), cud);                 \
	}
CALLBACK(send)
CALLBACK(send_imm)
CALLBACK(read)
CALLBACK(write)
CALLBACK(write_imm)
CALLBACK(atomic_cmp_swp)
CALLBACK(atomic_fetch_add)

static void on_receive(struct doca_rdma_task_receive *t, union doca_data ud, union doca_data cud)
{
	struct side *s = cud.ptr;

	(void)ud;
	s->received_len = doca_rdma_task_receive_get_result_len(t);
	s->received_imm = doca_rdma_task_receive_get_result_immediate_data(t);
	finished(doca_rdma_task_receive_as_task(t), cud);
	doca_buf_dec_refcount(doca_rdma_task_receive_get_dst_buf(t), NULL);
	doca_task_free(doca_rdma_task_receive_as_task(t));
}

static void open_side(struct side *s, const char *iface, uint32_t receives)
{
	struct doca_devinfo **list;
	union doca_data ud = { .ptr = s };
	uint32_t n;

	CHECK(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && !s->dev; i++) {
		char name[DOCA_DEVINFO_IFACE_NAME_SIZE];

		CHECK(doca_devinfo_get_iface_name(list[i], name, sizeof(name)));
		if (strcmp(name, iface) == 0)
			CHECK(doca_dev_open(list[i], &s->dev));
	}
	CHECK(doca_devinfo_destroy_list(list));
	if (!s->dev) {
		DOCA_LOG_ERR("no device on interface %s", iface);
		exit(1);
	}
	s->mem = mmap(NULL, REGION, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(doca_mmap_create(&s->mmap));
	CHECK(doca_mmap_set_memrange(s->mmap, s->mem, REGION));
	CHECK(doca_mmap_set_permissions(s->mmap, ACCESS_ALL));
	CHECK(doca_mmap_add_dev(s->mmap, s->dev));
	CHECK(doca_mmap_start(s->mmap));
	CHECK(doca_buf_inventory_create(64 + receives, &s->inv));
	CHECK(doca_buf_inventory_start(s->inv));
	CHECK(doca_pe_create(&s->pe));
	CHECK(doca_rdma_create(s->dev, &s->rdma));
	CHECK(doca_rdma_set_permissions(s->rdma, ACCESS_ALL));
	CHECK(doca_rdma_task_send_set_conf(s->rdma, on_send, on_send, 4));
	CHECK(doca_rdma_task_send_imm_set_conf(s->rdma, on_send_imm, on_send_imm, 4));
	CHECK(doca_rdma_task_read_set_conf(s->rdma, on_read, on_read, 4));
	CHECK(doca_rdma_task_write_set_conf(s->rdma, on_write, on_write, 4));
	CHECK(doca_rdma_task_write_imm_set_conf(s->rdma, on_write_imm, on_write_imm, 4));
	CHECK(doca_rdma_task_atomic_cmp_swp_set_conf(s->rdma, on_atomic_cmp_swp, on_atomic_cmp_swp,
	                                             4));
	CHECK(doca_rdma_task_atomic_fetch_add_set_conf(s->rdma, on_atomic_fetch_add,
	                                               on_atomic_fetch_add, 4));
	CHECK(doca_rdma_task_receive_set_conf(s->rdma, on_receive, on_receive, receives + 1));
	CHECK(doca_ctx_set_user_data(doca_rdma_as_ctx(s->rdma), ud));
	CHECK(doca_pe_connect_ctx(s->pe, doca_rdma_as_ctx(s->rdma)));
	CHECK(doca_ctx_start(doca_rdma_as_ctx(s->rdma)));
}

static void wait_running(struct side *s)
{
	enum doca_ctx_states state;

	do {
		doca_pe_progress(s->pe);
		CHECK(doca_ctx_get_state(doca_rdma_as_ctx(s->rdma), &state));
	} while (state != DOCA_CTX_STATE_RUNNING);
}

/* Connection blob and mmap blob, both ways (the initiator imports). */
static void connect_side(struct side *s, bool target)
{
	const void *blob;
	size_t len;
	void *peer;

	CHECK(doca_rdma_export(s->rdma, &blob, &len, &s->conn));
	sock_send(s->sock, blob, len);
	peer = sock_recv(s->sock, &len);
	CHECK(doca_rdma_connect(s->rdma, peer, len, s->conn));
	free(peer);
	if (target) {
		CHECK(doca_mmap_export_rdma(s->mmap, s->dev, &blob, &len));
		sock_send(s->sock, blob, len);
	} else {
		void *addr;

		peer = sock_recv(s->sock, &len);
		CHECK(doca_mmap_create_from_export(NULL, peer, len, s->dev, &s->remote));
		CHECK(doca_mmap_get_memrange(s->remote, &addr, &len));
		s->peer_mem = addr;
		free(peer);
	}
}

static void close_side(struct side *s)
{
	enum doca_ctx_states state;

	if (doca_ctx_stop(doca_rdma_as_ctx(s->rdma)) == DOCA_ERROR_IN_PROGRESS) {
		do {
			doca_pe_progress(s->pe);
			CHECK(doca_ctx_get_state(doca_rdma_as_ctx(s->rdma), &state));
		} while (state != DOCA_CTX_STATE_IDLE);
	}
	CHECK(doca_rdma_destroy(s->rdma));
	CHECK(doca_pe_destroy(s->pe));
	if (s->remote)
		CHECK(doca_mmap_destroy(s->remote));
	CHECK(doca_buf_inventory_destroy(s->inv));
	CHECK(doca_mmap_destroy(s->mmap));
	CHECK(doca_dev_close(s->dev));
}

/* --- the target: posts receives, then waits without progressing --- */

static void post_receives(struct side *s, int count)
{
	for (int i = 0; i < count; i++) {
		struct doca_rdma_task_receive *t;
		struct doca_buf *buf;
		union doca_data ud = { .u64 = 0 };

		/* released by on_receive once the receive completes */
		CHECK(doca_buf_inventory_buf_get_by_addr(s->inv, s->mmap, s->mem + MiB, MiB, &buf));
		CHECK(doca_rdma_task_receive_allocate_init(s->rdma, buf, ud, &t));
		CHECK(doca_task_submit(doca_rdma_task_receive_as_task(t)));
	}
}

/* Sends, sends with immediate and writes with immediate of the initiator. */
#define RECEIVES(iterations) (5 * ((iterations) + 1))

static int run_target(int sock, const char *iface, int iterations)
{
	struct side s = { .sock = sock };
	size_t len;
	char *msg;

	open_side(&s, iface, RECEIVES(iterations));
	wait_running(&s);
	connect_side(&s, true);
	memset(s.mem, 0, REGION);
	for (size_t i = 0; i < MiB; i++)
		s.mem[i] = (uint8_t)(i * 7 + 3); /* what the initiator reads */
	/* All the receives up front: this process will not run again until done. */
	post_receives(&s, RECEIVES(iterations));
	sock_send(sock, "ready", 5);
	/* Writes, reads and atomics happen now, served by the soft NIC alone. */
	msg = sock_recv(sock, &len);
	free(msg);
	while (s.done < RECEIVES(iterations) && s.status == DOCA_SUCCESS)
		doca_pe_progress(s.pe);
	sock_send(sock, &s.status, sizeof(s.status));
	sock_send(sock, s.mem + 1536 * 1024, 64); /* what the last writes left */
	msg = sock_recv(sock, &len);
	free(msg);
	close_side(&s);
	return 0;
}

/* --- the initiator --- */

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

enum op { OP_WRITE, OP_READ, OP_SEND, OP_SEND_IMM, OP_WRITE_IMM, OP_FETCH_ADD, OP_CMP_SWP };

static const char *const op_names[] = { "write",
	                                "read",
	                                "send",
	                                "send with immediate",
	                                "write with immediate",
	                                "atomic fetch-add",
	                                "atomic compare-swap" };

/* Submits one task of op and waits for it; returns its status. Atomics act
 * on a counter the initiator tracks: compare-swap expects `counter`. */
static doca_error_t run_once(struct side *s, enum op op, size_t bytes, uint64_t counter,
                             uint64_t *fetched)
{
	struct doca_buf *local = NULL, *remote = NULL;
	union doca_data ud = { .u64 = 0 };
	struct doca_task *task = NULL;
	int before = s->done;

	if (op == OP_FETCH_ADD || op == OP_CMP_SWP) {
		CHECK(doca_buf_inventory_buf_get_by_addr(s->inv, s->mmap, s->mem + COUNTER, 8,
		                                         &local));
		CHECK(doca_buf_inventory_buf_get_by_data(s->inv, s->remote, s->peer_mem + COUNTER,
		                                         8, &remote));
	} else if (op == OP_READ) {
		CHECK(doca_buf_inventory_buf_get_by_addr(s->inv, s->mmap, s->mem + MiB, bytes,
		                                         &local));
		CHECK(doca_buf_inventory_buf_get_by_data(s->inv, s->remote, s->peer_mem, bytes,
		                                         &remote));
	} else {
		CHECK(doca_buf_inventory_buf_get_by_data(s->inv, s->mmap, s->mem, bytes, &local));
		CHECK(doca_buf_inventory_buf_get_by_addr(
		        s->inv, s->remote, s->peer_mem + 1536 * 1024, bytes, &remote));
	}
	switch (op) {
	case OP_WRITE: {
		struct doca_rdma_task_write *t;

		CHECK(doca_rdma_task_write_allocate_init(s->rdma, s->conn, local, remote, ud, &t));
		task = doca_rdma_task_write_as_task(t);
		break;
	}
	case OP_READ: {
		struct doca_rdma_task_read *t;

		CHECK(doca_rdma_task_read_allocate_init(s->rdma, s->conn, remote, local, ud, &t));
		task = doca_rdma_task_read_as_task(t);
		break;
	}
	case OP_SEND: {
		struct doca_rdma_task_send *t;

		CHECK(doca_rdma_task_send_allocate_init(s->rdma, s->conn, local, ud, &t));
		task = doca_rdma_task_send_as_task(t);
		break;
	}
	case OP_SEND_IMM: {
		struct doca_rdma_task_send_imm *t;

		CHECK(doca_rdma_task_send_imm_allocate_init(s->rdma, s->conn, local, 0xABCD, ud,
		                                            &t));
		task = doca_rdma_task_send_imm_as_task(t);
		break;
	}
	case OP_WRITE_IMM: {
		struct doca_rdma_task_write_imm *t;

		CHECK(doca_rdma_task_write_imm_allocate_init(s->rdma, s->conn, local, remote,
		                                             0x1234, ud, &t));
		task = doca_rdma_task_write_imm_as_task(t);
		break;
	}
	case OP_FETCH_ADD: {
		struct doca_rdma_task_atomic_fetch_add *t;

		CHECK(doca_rdma_task_atomic_fetch_add_allocate_init(s->rdma, s->conn, remote, local,
		                                                    1, ud, &t));
		task = doca_rdma_task_atomic_fetch_add_as_task(t);
		break;
	}
	case OP_CMP_SWP: {
		struct doca_rdma_task_atomic_cmp_swp *t;

		CHECK(doca_rdma_task_atomic_cmp_swp_allocate_init(s->rdma, s->conn, remote, local,
		                                                  counter, counter + 1, ud, &t));
		task = doca_rdma_task_atomic_cmp_swp_as_task(t);
		break;
	}
	}
	CHECK(doca_task_submit(task));
	while (s->done == before)
		doca_pe_progress(s->pe);
	doca_task_free(task);
	if (fetched)
		memcpy(fetched, s->mem + COUNTER, 8);
	CHECK(doca_buf_dec_refcount(local, NULL));
	CHECK(doca_buf_dec_refcount(remote, NULL));
	return s->status;
}

/* Checks what a read brought back. */
static bool read_ok(const struct side *s, size_t bytes)
{
	for (size_t i = 0; i < bytes; i++)
		if (s->mem[MiB + i] != (uint8_t)(i * 7 + 3))
			return false;
	return true;
}

static int run_initiator(int sock, const char *iface, int iterations, const char *transport)
{
	static const struct {
		enum op op;
		size_t bytes;
	} plan[] = {
		{ OP_WRITE, 8 },     { OP_WRITE, 4096 },   { OP_WRITE, MiB / 2 },
		{ OP_READ, 8 },      { OP_READ, 4096 },    { OP_READ, MiB },
		{ OP_SEND, 8 },      { OP_SEND, 4096 },    { OP_SEND, MiB / 2 },
		{ OP_SEND_IMM, 64 }, { OP_WRITE_IMM, 64 }, { OP_FETCH_ADD, 8 },
		{ OP_CMP_SWP, 8 },
	};
	struct side s = { .sock = sock };
	doca_error_t target_status;
	uint64_t fetched = 0, expect_fetch = 0;
	uint8_t *last;
	int failures = 0;
	size_t len;

	open_side(&s, iface, 0);
	wait_running(&s);
	connect_side(&s, false);
	free(sock_recv(sock, &len)); /* "ready" */
	for (size_t i = 0; i < MiB; i++)
		s.mem[i] = (uint8_t)(i * 13 + 1);
	printf("\nsoftdoca RDMA demo: two processes, transport %s, %d iterations per row\n"
	       "the target sits in read() while its memory is written, read and updated\n\n",
	       transport, iterations);
	printf(" %-22s %10s %8s %14s\n", "operation", "bytes", "result", "latency [us]");
	printf(" %-22s %10s %8s %14s\n", "----------------------", "----------", "--------",
	       "--------------");
	for (size_t row = 0; row < sizeof(plan) / sizeof(plan[0]); row++) {
		double total = 0;
		doca_error_t st = DOCA_SUCCESS;
		bool ok = true;

		/* one untimed round first: the first use of a protocol sets it up */
		for (int it = -1; it < iterations && st == DOCA_SUCCESS; it++) {
			double t0 = now_us();

			st = run_once(&s, plan[row].op, plan[row].bytes, expect_fetch, &fetched);
			if (it >= 0)
				total += now_us() - t0;
			if (plan[row].op == OP_FETCH_ADD || plan[row].op == OP_CMP_SWP)
				ok = ok && fetched == expect_fetch++;
		}
		if (plan[row].op == OP_READ)
			ok = ok && read_ok(&s, plan[row].bytes);
		ok = ok && st == DOCA_SUCCESS;
		failures += !ok;
		printf(" %-22s %10zu %8s %14.2f\n", op_names[plan[row].op], plan[row].bytes,
		       ok                   ? "OK"
		       : st != DOCA_SUCCESS ? doca_error_get_name(st)
		                            : "WRONG",
		       total / iterations);
	}
	sock_send(sock, "done", 4);
	last = sock_recv(sock, &len);
	memcpy(&target_status, last, sizeof(target_status));
	free(last);
	last = sock_recv(sock, &len);
	/* the last write-with-immediate left the source bytes at the target */
	if (target_status != DOCA_SUCCESS || memcmp(last, s.mem, 64) != 0) {
		printf(" target side: %s\n", target_status != DOCA_SUCCESS
		                                     ? doca_error_get_name(target_status)
		                                     : "data mismatch");
		failures++;
	} else {
		printf(" %-22s %10s %8s\n", "receives at the target", "", "OK");
	}
	free(last);
	sock_send(sock, "bye", 3);
	close_side(&s);
	printf("\n%s\n", failures ? "SOME OPERATIONS FAILED" : "every operation checked OK");
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *iface = "lo", *transport = getenv("SOFTDOCA_TRANSPORT");
	int iterations = 100, sv[2], opt, status = 0, rc;
	pid_t child;

	while ((opt = getopt(argc, argv, "d:t:n:h")) != -1) {
		switch (opt) {
		case 'd':
			iface = optarg;
			break;
		case 't':
			transport = optarg;
			break;
		case 'n':
			iterations = atoi(optarg) > 0 ? atoi(optarg) : 1;
			break;
		default:
			fprintf(stderr, "usage: %s [-d IFACE] [-t shm|tcp] [-n ITERATIONS]\n",
			        argv[0]);
			return 2;
		}
	}
	if (transport)
		setenv("SOFTDOCA_TRANSPORT", transport, 1);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return 1;
	/* Fork before anything of DOCA exists: each process is a DOCA program. */
	child = fork();
	if (child == 0) {
		close(sv[0]);
		doca_log_backend_create_standard();
		_exit(run_target(sv[1], iface, iterations));
	}
	close(sv[1]);
	doca_log_backend_create_standard();
	rc = run_initiator(sv[0], iface, iterations, transport ? transport : "auto");
	waitpid(child, &status, 0);
	return rc || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}
