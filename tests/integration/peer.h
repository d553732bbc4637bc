/*
 * softdoca integration tests: one side of a two-process RDMA test.
 *
 * Each process is a DOCA program: it opens a device, creates a PE and an
 * RDMA context, exchanges connection and mmap blobs with its peer over a
 * TCP socket (the out-of-band channel, as DOCA samples do), and runs a
 * scenario. Every check compares the bytes that arrived.
 */
#ifndef SDOCA_TESTS_PEER_H_
#define SDOCA_TESTS_PEER_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>

#include "peer_oob.h"

#define PEER_MAX_CONNS 20 /* cm_flood's clients */

#define CHECK(call)                                                                 \
	do {                                                                        \
		doca_error_t check_ = (call);                                       \
		if (check_ != DOCA_SUCCESS)                                         \
			FAIL("%s returned %s", #call, doca_error_get_name(check_)); \
	} while (0)

/* What a task's callback saw. */
struct result {
	bool done;
	doca_error_t status;
	int order; /* completion rank among all tasks of this process */
	/* The callback frees the task and stops the context, as DOCA samples
	 * do when their last task completes. */
	bool stop_ctx;
};

struct peer {
	const char *scenario;
	bool server;
	bool stranger;
	int listen_fd;
	int oob[PEER_MAX_CONNS];
	int num_peers;
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_rdma *rdma;
	struct doca_rdma_connection *conn[PEER_MAX_CONNS];
	struct doca_mmap *mmap;
	uint8_t *mem;
	size_t mem_len;
	struct doca_mmap *remote[PEER_MAX_CONNS];
	void *remote_addr[PEER_MAX_CONNS];
	size_t remote_len[PEER_MAX_CONNS];
	struct doca_buf_inventory *inv;
	int completions;
	/* options */
	uint32_t rdma_permissions;
	uint32_t mmap_permissions;
	uint8_t rnr_retry;
	uint16_t max_conns;
	uint32_t num_tasks;
	int rounds;       /* --rounds N: repetitions, for scenarios that repeat */
	const char *host; /* a client's --host */
	/* connections through a listener (peer_cm.c) */
	bool cm;
	struct doca_rdma_connection *cm_conns[PEER_MAX_CONNS]; /* a server's, by arrival */
	int num_cm;
	int cm_established, cm_failed, cm_disconnected;
	uint64_t cm_last_down; /* user data of the last connection that went down */
};

/* --- out-of-band channel (peer_oob.c; peer_oob.h has the rest) --- */
void oob_listen(struct peer *p, const char *port_file);
void oob_connect(struct peer *p, const char *host, int port);
void oob_accept(struct peer *p);

/* --- DOCA set-up (peer_setup.c) --- */
void peer_open(struct peer *p, const char *iface);
void peer_alloc_memory(struct peer *p, size_t len, uint32_t access);
void peer_create_rdma(struct peer *p);
void peer_start(struct peer *p);
/* Exports connection i and its blob exchange happens over oob[i]. */
void peer_connect(struct peer *p, int i);
void peer_exchange_mmap(struct peer *p, int i);
/* Progresses until the result is done (fails after timeout_ms). */
void peer_wait(struct peer *p, struct result *r, int timeout_ms);
void peer_wait_state(struct peer *p, enum doca_ctx_states state, int timeout_ms);
void peer_stop(struct peer *p);
/* Destroys the context, PE and memory (not the device): a new round may
 * prepare them again. */
void peer_release(struct peer *p);
void peer_close(struct peer *p);
struct doca_buf *peer_buf(struct peer *p, struct doca_mmap *mmap, void *addr, size_t len,
                          size_t data_len);
union doca_data result_data(struct result *r);

void pattern_fill(void *buf, size_t len, uint32_t seed);
/* Index of the first byte that differs from the pattern, or -1. */
long pattern_check(const void *buf, size_t len, uint32_t seed);

/* --- shared scenario helpers (peer_helpers.c) --- */
#define MiB (1024u * 1024u)
#define WAIT_MS 60000

/* Every remote access, for contexts and memory that allow it all. */
#define ALL_RDMA                                                          \
	(DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | \
	 DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC)

struct posted_recv {
	struct doca_rdma_task_receive *task;
	struct result r;
	struct doca_buf *buf;
};

void server_prepare(struct peer *p, size_t mem_len, uint32_t mmap_access);
/* The same with a second connection, conn[1], exported and never
 * connected: it takes QP number 2 and keeps the context up when conn[0]
 * fails. */
void server_prepare_spare(struct peer *p, size_t mem_len, uint32_t mmap_access);
void client_prepare(struct peer *p, size_t mem_len);
/* Connection then mmap, in the order DOCA samples use. */
void handshake(struct peer *p, int i);
/* The remote buffer at offset off of the server's exported range. */
struct doca_buf *remote_buf(struct peer *p, size_t off, size_t len, size_t data_len);
struct doca_buf *local_buf(struct peer *p, size_t off, size_t len, size_t data_len);
void put(struct doca_buf *b);
void expect_status(struct result *r, doca_error_t want, const char *what);
/* Progresses until the peer sends the next message; returns it. */
char *wait_message(struct peer *p, int i);
void report(struct peer *p, int i, const char *verdict);
void expect_ok_from_peer(struct peer *p, int i);
void do_write(struct peer *p, struct doca_buf *src, struct doca_buf *dst, struct result *r);
void do_read(struct peer *p, struct doca_buf *src, struct doca_buf *dst, struct result *r,
             uint32_t *len);
void do_send(struct peer *p, struct doca_buf *src, bool imm, doca_be32_t value, struct result *r);
void do_write_imm(struct peer *p, struct doca_buf *src, struct doca_buf *dst, doca_be32_t value,
                  struct result *r);
uint64_t do_fetch_add(struct peer *p, size_t off, uint64_t add, struct result *r);
uint64_t do_cmp_swp(struct peer *p, size_t off, uint64_t cmp, uint64_t swap, struct result *r);
void post_recv(struct peer *p, struct posted_recv *pr, struct doca_buf *buf);
void check_recv(struct posted_recv *pr, enum doca_rdma_opcode opcode, uint32_t len, bool imm,
                doca_be32_t value, const char *what);
void free_recv(struct posted_recv *pr);
/* Target memory that a peer's atomics change is read with an atomic load,
 * as a program on real hardware would (volatile or atomic), never a plain read. */
uint64_t mem_u64(const struct peer *p, size_t off);
void expect_pattern(const void *buf, size_t len, uint32_t seed, const char *what);
/* Connection 0 and its device counted every operation type, with its bytes,
 * and no failure. */
void expect_clean_counters(struct peer *p);

/* --- scenarios (peer_scenarios.c) --- */
struct scenario {
	const char *name;
	void (*server)(struct peer *p);
	/* also a third process's, a stranger (p->stranger: run_pair.sh --stranger) */
	void (*client)(struct peer *p);
};
extern const struct scenario scenarios[];
extern const struct scenario failure_scenarios[];
extern const struct scenario arrival_scenarios[];
extern const struct scenario cm_scenarios[];
/* Sets the connection callbacks of peer_cm.c (before the context starts). */
void peer_cm_callbacks(struct peer *p);
/* Listens through the RDMA-CM API on a free port; returns it (peer_cm.c). */
uint16_t peer_cm_listen(struct peer *p);
extern const struct scenario cm_flood_scenarios[];
extern const struct scenario sync_scenarios[];
extern const struct scenario resume_scenarios[];
extern const struct scenario stranger_scenarios[];
extern const struct scenario fault_scenarios[];
extern const struct scenario stats_scenarios[];
extern const struct scenario batch_scenarios[];
extern const struct scenario stop_scenarios[];
extern const struct scenario flush_scenarios[];
extern const struct scenario gone_scenarios[];
extern const struct scenario capture_scenarios[];
/* The error scenarios share their code; this says which case runs. */
void failure_select(const char *name);

#endif /* SDOCA_TESTS_PEER_H_ */
