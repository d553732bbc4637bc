/*
 * softdoca-perf internals: a perftest-style benchmark on DOCA RDMA.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * softdoca-perf: a perftest-style benchmark on the DOCA RDMA API. A server
 * waits on a TCP port; a client connects, the two exchange their DOCA export
 * blobs over that socket (or, with --cm, the client connects through the
 * server's RDMA-CM listener and only the memory descriptors travel there),
 * then the client drives the test and prints perftest's columns.
 */
#ifndef SOFTDOCA_PERF_H_
#define SOFTDOCA_PERF_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>

enum perf_op {
	PERF_WRITE,
	PERF_WRITE_IMM,
	PERF_READ,
	PERF_SEND,
	PERF_SEND_IMM,
	PERF_ATOMIC_FA,
	PERF_ATOMIC_CS,
	PERF_SYNC_SET, /* a remote sync event's notify-set (sync.c) */
	PERF_SYNC_ADD, /* ... its notify-add */
	PERF_NUM_OPS
};

enum perf_mode { PERF_BW, PERF_LAT };

#define PERF_DEFAULT_PORT 18515
#define PERF_MAX_SIZE (2ull << 30)    /* DOCA's message cap, 2 GiB */
#define PERF_SWEEP_MAX (8ull << 20)   /* -a: 2 B ... 8 MiB */
#define PERF_REGION_CAP (64ull << 20) /* slots of one size share at most this */
#define PERF_MAX_DEPTH 4096
#define PERF_MAX_CONNS 64
/* The API generation this binary runs (the twin softdoca-perf-v202 is
 * built with PERF_WORKQ and the DOCA 2.2 headers for its endpoint). */
#ifdef PERF_WORKQ
#define PERF_API 202
#else
#define PERF_API 300
#endif

struct perf_opts {
	enum perf_op op;
	enum perf_mode mode;
	uint64_t size; /* -s */
	bool size_set;
	bool sweep;     /* -a */
	uint64_t iters; /* -n */
	bool iters_set;
	double duration; /* -D seconds; 0: run -n iterations */
	uint32_t depth;  /* -q outstanding operations */
	uint32_t conns;  /* --conns connections (operations spread round-robin) */
	const char *device;
	const char *transport;
	const char *host; /* NULL: this is the server */
	uint16_t port;
	const char *json;
	bool gbits;
	bool check;
	uint32_t idle;    /* --idle SECONDS: stay connected and idle, report the CPU used */
	bool passive;     /* --passive: the server makes no progress calls while serving */
	uint32_t api;     /* --api: 300 (DOCA 3.x tasks) or 202 (DOCA 2.2 jobs, the twin) */
	uint32_t gap_us;  /* --gap-us: sync_set --lat waits this long between operations */
	bool cm;          /* --cm: connections through a listener (RDMA-CM), not blobs */
	uint16_t cm_port; /* --cm-port (server); 0: the -p port + 1 or the next free */
};

/* What the client tells the server before the run (sent as big-endian words). */
struct perf_params {
	uint32_t op;
	uint32_t mode;
	uint32_t depth;
	uint32_t check;
	uint64_t max_size;
	uint32_t conns;
	uint32_t cm; /* connections through the server's listener */
};

/* options.c */
const char *perf_op_name(enum perf_op op);
/* The remote sync-event tests (sync.c), not run size by size. */
bool perf_op_is_sync(enum perf_op op);
/* Write, send and their immediates: the peer sees them arrive, so their
 * latency test is a ping-pong (perftest reports half its round trip). */
bool perf_op_is_pingpong(enum perf_op op);
/* 0: run; -1: help printed (exit 0); >0: a usage error, reported (exit with it). */
int perf_parse(int argc, char **argv, struct perf_opts *o);

/* oob.c: the TCP socket the two sides talk over, length-prefixed messages. */
/* Listens on *port (0: any free port); *port is then the port in use. */
int perf_oob_listen(uint16_t *port);
int perf_oob_accept(int listener);
int perf_oob_connect(const char *host, uint16_t port);
void perf_oob_send(int fd, const void *data, size_t len);
void *perf_oob_recv(int fd, size_t *len); /* exits when the peer is gone */
/* The same, but NULL when the peer closed before the message began. */
void *perf_oob_recv_or_null(int fd, size_t *len);
bool perf_oob_readable(int fd); /* a message is waiting (no blocking) */
void perf_oob_wait(int fd);     /* blocks until a message is waiting */

/* One task and its buffers, reused for every iteration it carries. */
struct perf_slot {
	struct perf_ep *ep;
	uint32_t index;
	bool receive;
	struct doca_task *task;
	void *typed; /* the task as its own type, for its setters */
	void *job;   /* DOCA 2.2: the slot's job (endpoint_v202.c) */
	struct doca_buf *local;
	struct doca_buf *remote;
	uint64_t seq; /* the iteration this slot carries now */
	bool busy;
	/* --check of a write --bw (check.c): once it completes, the target's
	 * bytes are read back, by this task or job, into a poisoned buffer */
	void *readback;
	struct doca_buf *readback_local;
	struct doca_buf *readback_remote;
	bool reading_back;
	bool repost_due; /* a completed receive, re-posted after the reply leaves */
};

/* A growable array of 64-bit values (latency samples, completion times). */
struct perf_samples {
	uint64_t *v;
	size_t n;
	size_t cap;
};
void perf_samples_add(struct perf_samples *s, uint64_t value);

/* The DOCA side of one process: device, memory, context, connection. */
struct perf_ep {
	struct perf_params params;
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_workq *workq; /* DOCA 2.2: jobs go there (endpoint_v202.c) */
	struct doca_rdma *rdma;
	struct doca_rdma_connection *conns[PERF_MAX_CONNS]; /* slot i uses i % num_conns */
	uint32_t num_conns;
	struct doca_mmap *mmap;
	struct doca_mmap *remote_mmap;
	struct doca_buf_inventory *inv;
	uint8_t *mem;
	size_t mem_len;
	uint8_t *remote_mem;
	/* the current size's operation and receive slots */
	struct perf_slot *ops;
	uint32_t num_ops;
	struct perf_slot *recvs;
	uint32_t num_recvs;
	uint64_t size;
	size_t stride;
	/* counted by the completion callbacks */
	uint64_t completed;
	uint64_t received;
	uint64_t received_on[PERF_MAX_CONNS]; /* receives per connection (--check) */
	uint64_t failed;
	doca_error_t first_error;
	bool repost;         /* receives are re-posted as they complete */
	bool defer_repost;   /* ... or, in a ping-pong, once the reply has left */
	uint64_t recv_limit; /* ... until this many were posted (0: no limit) */
	uint64_t recv_posted;
	bool closing; /* perf_ep_close runs: flushed receives are expected */
	bool passive; /* server: blocked, not progressing, while the client runs */
	/* connection set-up (cm.c with --cm) */
	bool client;
	uint16_t cm_port;     /* server: --cm-port (0: choose); then the listener's */
	uint32_t cm_requests; /* server: requests heard (accepted while < num_conns) */
	uint32_t cm_up;       /* connections established */
	uint32_t cm_down;     /* server: connections that failed in set-up */
	bool cm_ready;        /* set-up is over: later ends show as failed tasks */
	uint64_t setup_ns;    /* client: first connection asked -> all connected */
	/* --check: what was verified, what was wrong */
	bool check;
	uint64_t verified;
	uint64_t bad;
	uint64_t posted;    /* operations posted (fetch-add results stay below) */
	uint8_t *fa_seen;   /* fetch-add results returned so far, a bit each */
	size_t fa_seen_len; /* bytes */
	/* SOFTDOCA_PERF_TEST_EMPTY_OP (test only, check.c): this operation
	 * completes with success and is never posted, as one that placed nothing */
	bool empty_op_set;
	uint64_t empty_op;
	struct perf_samples done_at; /* completion times, for the peak bandwidth */
};

/* Slots of `size` bytes: how many fit, and how far apart they are. */
size_t perf_stride(uint64_t size);
uint32_t perf_num_slots(uint64_t size, uint32_t depth);

/* endpoint.c (DOCA 3.x tasks) or endpoint_v202.c (DOCA 2.2 jobs, the
 * softdoca-perf-v202 twin): the DOCA objects, and each slot's operation */
void perf_ep_open(struct perf_ep *ep, const struct perf_opts *o, const struct perf_params *p);
/* Connects (blobs over oob, or through the listener with --cm), then swaps
 * memory descriptors over oob. */
void perf_ep_connect(struct perf_ep *ep, int oob);
void perf_ep_make_slot(struct perf_ep *ep, struct perf_slot *s);
void perf_ep_release_slot(struct perf_slot *s);
/* --check of a write --bw: the slot's read-back (its buffers made already). */
void perf_ep_make_readback(struct perf_ep *ep, struct perf_slot *s);
doca_error_t perf_ep_post_readback(struct perf_slot *s);
/* Posts the slot's operation (iteration seq's immediate and operands set). */
doca_error_t perf_ep_post(struct perf_slot *s, uint64_t seq);
void perf_ep_close(struct perf_ep *ep);

/* slots.c: the same for every generation */
/* Opens the device and maps the memory the slots use. */
void perf_ep_prepare(struct perf_ep *ep, const struct perf_opts *o, const struct perf_params *p);
/* Exports this side's mmap to the peer and imports the peer's. */
void perf_ep_exchange_memory(struct perf_ep *ep, int oob);
/* The end of perf_ep_close: the mmaps, the inventory, the device, the memory. */
void perf_ep_release_memory(struct perf_ep *ep);
/* The slot's local and remote buffers (NULL for zero-length messages). */
void perf_slot_buffers(struct perf_ep *ep, struct perf_slot *s);
size_t perf_slot_offset(const struct perf_ep *ep, uint32_t index, bool receive);
void perf_count_failure(struct perf_ep *ep, doca_error_t status);
/* A slot's operation or receive (arrived on connection `conn`) completed. */
void perf_op_done(struct perf_slot *s, doca_error_t status);
void perf_receive_done(struct perf_slot *s, doca_error_t status, uint32_t conn, uint32_t len,
                       doca_be32_t imm);
/* num_ops operation slots and num_recvs posted receives of `size` bytes. */
void perf_ep_slots(struct perf_ep *ep, uint64_t size, uint32_t num_ops, uint32_t num_recvs);
void perf_ep_free_slots(struct perf_ep *ep);
void perf_ep_submit(struct perf_slot *s, uint64_t seq);
/* Re-posts the receives that completed since (defer_repost). */
void perf_ep_repost_due(struct perf_ep *ep);

/* Completes what has completed: the progress engine's callbacks, or the
 * work queue's events. Inline, as doca_pe_progress was called before. */
#ifdef PERF_WORKQ
void perf_ep_progress(struct perf_ep *ep);
static inline void perf_progress(struct perf_ep *ep)
{
	perf_ep_progress(ep);
}
#else
static inline void perf_progress(struct perf_ep *ep)
{
	doca_pe_progress(ep->pe);
}
#endif
/* cm.c: connections through a listener (--cm). */
/* Before doca_ctx_start: the connection callbacks. */
void perf_cm_configure(struct perf_ep *ep);
/* Server: listens, tells the client the port over oob, accepts num_conns.
 * Client: connects num_conns times to the oob peer's address and port it
 * was told, and waits for them all (ep->setup_ns). */
void perf_cm_connect(struct perf_ep *ep, int oob);

/* clock.c: monotonic nanoseconds, cheap (perf_clock_init() once first). */
void perf_clock_init(void);
uint64_t perf_now_ns(void);
/* CLOCK_MONOTONIC: the same clock in every process of the host. */
uint64_t perf_mono_ns(void);
void perf_fail(const char *what, doca_error_t status);
#define PERF_CHECK(call)                      \
	do {                                  \
		doca_error_t e_ = (call);     \
		if (e_ != DOCA_SUCCESS)       \
			perf_fail(#call, e_); \
	} while (0)

/* pattern.c: the data --check verifies. */
void perf_pattern_fill(uint8_t *buf, size_t len, uint64_t seed);
bool perf_pattern_ok(const uint8_t *buf, size_t len, uint64_t seed);
/* The first byte that is not the pattern's (len: none), and what it should be. */
size_t perf_pattern_mismatch(const uint8_t *buf, size_t len, uint64_t seed, uint8_t *want);
/* Bytes no pattern has: whatever an operation does not place shows. */
void perf_pattern_poison(uint8_t *buf, size_t len);

/* check.c: --check, operation by operation (its comment says what). */
/* SOFTDOCA_PERF_TEST_EMPTY_OP (a client's, test only): 1 and the iteration
 * if set, 0 if not, -1 (said) if it is not a number or not for this test. */
int perf_check_empty_op(const struct perf_opts *o, uint64_t *iteration);
/* What --check verifies for this test, in a line of the banner. */
const char *perf_check_what(const struct perf_opts *o);
/* The seed of the pattern iteration seq writes, sends or checks. */
uint64_t perf_check_seed(const struct perf_ep *ep, uint64_t seq);
/* Whether the slot reads back what its write left (write --bw). */
bool perf_check_reads_back(const struct perf_ep *ep, const struct perf_slot *s);
/* Before a slot's operation or receive is posted: fills its source, poisons
 * its destination. True: the test fault says it completes, unposted. */
bool perf_check_before(struct perf_slot *s);
/* A slot's operation succeeded: checks it. True: the slot stays busy, its
 * write read back (s->reading_back) before the slot carries another. */
bool perf_check_done(struct perf_slot *s);
/* That read-back completed: checks the bytes it brought. */
void perf_check_readback_done(struct perf_slot *s, doca_error_t status);
/* A receive completed: the message of connection conn's next iteration. */
void perf_check_receive(struct perf_slot *s, uint32_t conn, uint32_t len, doca_be32_t imm);
/* A ping-pong write of iteration seq arrived in buf (the peer's slot 1):
 * checks its len bytes, then poisons them for the next one. */
void perf_check_arrival(struct perf_ep *ep, uint8_t *buf, size_t len, uint64_t seq);
/* Counts one operation's result wrong; says the first few on stderr. */
void perf_check_bad(struct perf_ep *ep, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* run.c: one size, both sides. */
struct perf_result {
	const char *label; /* a sync-event test's row (NULL: a size's) */
	uint64_t size;
	uint64_t iters;
	double bw_peak; /* bytes per second */
	double bw_avg;
	double msg_rate;                                               /* per second */
	double t_min, t_max, t_typical, t_avg, t_stdev, t_p99, t_p999; /* us */
	uint64_t verified;
	uint64_t bad;
};
void perf_client_run(struct perf_ep *ep, const struct perf_opts *o, int oob, uint64_t size,
                     struct perf_result *r);
void perf_client_finish(int oob);
/* The messages between client and server: a tag and three numbers. */
enum perf_msg_tag {
	MSG_GO = 1,
	MSG_READY,
	MSG_DONE,
	MSG_EXTRA,
	MSG_RESULT,
	MSG_FINISH,
	MSG_WAKE,  /* sync: the server waits for the client's notify-sets, blocked */
	MSG_BLOCK, /* sync: the server blocks until the next message */
	MSG_CHECK, /* sync: the server reports its event's value and counter */
	MSG_WOKE,  /* sync: the server's waiter woke to a value (a) */
};
struct perf_msg {
	uint64_t tag, a, b, c;
};
void perf_send_msg(int fd, enum perf_msg_tag tag, uint64_t a, uint64_t b, uint64_t c);
/* The next message; exits on a tag other than want (0: any). */
struct perf_msg perf_recv_msg(int fd, enum perf_msg_tag want);
/* Minimum, median, average, percentiles of samples in ns (sorts them). */
void perf_latency_stats(struct perf_samples *s, struct perf_result *r);
/* Serves one size; returns false when the client said it is finished. */
bool perf_server_run(struct perf_ep *ep, int oob);

/* sync.c: the sync-event tests. The server exports an event and serves
 * until the client finishes; the client's rows go to r (returns how many). */
#define PERF_SYNC_ROWS 4
void perf_sync_server(struct perf_ep *ep, int oob);
size_t perf_sync_client(struct perf_ep *ep, const struct perf_opts *o, int oob,
                        struct perf_result r[PERF_SYNC_ROWS]);

/* report.c */
void perf_report_banner(const struct perf_opts *o, const struct perf_ep *ep);
void perf_report_row(const struct perf_opts *o, const struct perf_result *r);
void perf_report_footer(const struct perf_opts *o);
int perf_report_json(const struct perf_opts *o, const struct perf_ep *ep,
                     const struct perf_result *r, size_t n);

#endif /* SOFTDOCA_PERF_H_ */
