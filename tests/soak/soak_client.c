/*
 * softdoca soak, the client: runs every operation type on 8 connections of
 * one context for a given time, with faults injected on both sides, and
 * keeps a ledger of every task.
 *
 * What is checked, operation by operation:
 *   write, write_imm  the source holds a pattern of the operation's own seed;
 *                     once written, the local buffer is poisoned (every byte
 *                     the pattern's complement) and the range read back and
 *                     compared byte for byte (a write that succeeded on a
 *                     connection that then failed is read back on the next)
 *   read              a range of the server's read-only area (a known
 *                     pattern) into a poisoned buffer, compared byte for byte
 *   send, send_imm,   the server compares kind, length, immediate and every
 *   write_imm         byte against the schedule (soak_recv_spec), in order
 *   fetch-add, cmp-swap, sync-event get/set/add
 *                     one in flight per word: the value fetched is exactly
 *                     the one expected; the words and events the server holds
 *                     at the end are exactly what succeeded (for an operation
 *                     that failed: it happened or not, one of two values,
 *                     settled by the next operation on the word)
 *   every task        completes exactly once (a second completion, or one for
 *                     a task not in flight, fails the run), within the
 *                     deadline; an error only on a connection given a fatal
 *                     fault (break, vanish, drop), or from an injected
 *                     allocation or submission failure
 *
 * A connection that fails: its tasks end (with errors, or done), the client
 * disconnects it and tells the server, which disconnects its side and
 * offers the next connection for the slot; meanwhile the other 7 go on.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>
#include <doca_sync_event.h>
#include <softdoca.h>

#include "soak.h"

#define MAX_OPS 256
#define TASKS_PER_TYPE 128

/* Task kinds, for the ledger and the report. */
enum kind {
	K_WRITE,
	K_WRITE_IMM,
	K_READ,
	K_READBACK, /* the read after a write */
	K_SEND,
	K_SEND_IMM,
	K_FA,
	K_CS,
	K_EV_GET,
	K_EV_SET,
	K_EV_ADD,
	NUM_KINDS
};

static const char *const kind_names[NUM_KINDS] = {
	"write",     "write_imm", "read",      "read-back", "send",      "send_imm",
	"fetch_add", "cmp_swp",   "event_get", "event_set", "event_add",
};

enum op_state {
	OS_FREE,
	OS_WAIT_MEM, /* waiting for arena memory (it alone: nothing new starts) */
	OS_SUBMIT,   /* to allocate and submit (again, after an injected failure) */
	OS_FLIGHT,   /* submitted */
	OS_PARKED,   /* written; read back once the slot's next connection is up */
	OS_QUAR,     /* failed: its memory waits until the server closed the connection */
};

struct op {
	uint16_t idx;
	uint32_t serial;
	enum op_state state;
	enum kind kind; /* the first task's */
	int stage;      /* 1: the read-back of a write */
	int slot;
	uint32_t gen;
	uint64_t deadline;
	struct doca_task *task;
	struct doca_buf *lbuf, *rbuf;
	size_t len;
	long lpage, rpage; /* arena pages (-1: none) */
	size_t roff;       /* offset in the server's range */
	uint64_t seed;
	uint32_t k; /* receive-consuming: its place in the connection's schedule */
	uint32_t imm;
	int word;        /* atomics and events: which (SOAK_WORDS: the event) */
	bool resolve;    /* reads the word only, to settle a failed operation */
	bool recv_op;    /* consumes a receive */
	uint64_t a, b;   /* add; cmp and swap; the value set */
	uint64_t expect; /* the value the word holds before it */
};

enum slot_state { SL_LIVE, SL_FAILING, SL_WAIT_GONE };

struct slot {
	struct doca_rdma_connection *conn;
	uint32_t gen;
	enum slot_state st;
	bool down; /* the connection's failure callback ran */
	bool doomed;
	bool failed; /* a task failed, or the connection did */
	char doom[64];
	int inflight; /* ops in OS_SUBMIT or OS_FLIGHT */
	uint32_t next_k;
	bool recv_unsubmitted; /* a receive-consuming op holds next_k - 1 */
	uint64_t fail_t0;
	uint64_t ops_at_fail; /* everyone's successes when it began failing */
	/* words 0..3 fetch-add, 4 compare-swap, SOAK_WORDS: the sync event */
	uint64_t val[SOAK_WORDS + 1];
	bool busy[SOAK_WORDS + 1];
	bool unc[SOAK_WORDS + 1];
	uint64_t alt[SOAK_WORDS + 1]; /* its value if the failed operation happened */
	struct doca_sync_event_remote_net *rev;
};

struct arena {
	size_t pages;
	uint8_t *used;
	size_t next;
};

struct opts {
	const char *iface, *host;
	int port;
	double seconds;
	uint64_t seed;
	int report_s, depth;
	double doom;      /* probability a connection gets a fatal fault */
	double recycle_s; /* a healthy connection is replaced this often */
	uint32_t arena_mb, nrecv;
	double rss_growth_mb;
	uint64_t deadline_ms;
	const char *client_faults, *server_faults;
};

static struct client {
	struct opts o;
	int fd;
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_rdma *rdma;
	struct doca_buf_inventory *inv;
	struct doca_mmap *mmap, *remote;
	uint8_t *mem, *small;
	size_t mem_len, arena_len;
	uint8_t *raddr; /* the server's range */
	size_t rlen, write_len, static_off, atom_off;
	struct arena local, rwrite;
	struct slot slots[SOAK_CONNS];
	struct op ops[MAX_OPS];
	struct op *waiter;
	uint64_t rng;
	char base_faults[512];
	struct soak_tally *tally;
	uint32_t max_gen;
	/* the ledger's totals */
	uint64_t ok[NUM_KINDS], failed[NUM_KINDS], bytes[NUM_KINDS];
	uint64_t errors[NUM_KINDS][64]; /* completions, by status */
	uint64_t alloc_errors[64], submit_errors[64];
	uint64_t unexpected; /* errors on connections without a fatal fault */
	uint64_t completions, successes, resolved, parked_readbacks;
	uint64_t conn_failed[4], reconnects, doomed_total, recycled;
	uint64_t others_during_outage, long_outages;
	struct soak_proc proc;
} C;

/* --- small things --- */

static uint64_t rnd(void)
{
	return soak_mix(C.rng++, 0x736f616bull);
}

static void arena_init(struct arena *a, size_t len)
{
	a->pages = len / SOAK_PAGE;
	a->used = calloc(a->pages, 1);
	a->next = 0;
	EXPECT(a->used, "out of memory");
}

static size_t npages(size_t len)
{
	return len ? (len + SOAK_PAGE - 1) / SOAK_PAGE : 1;
}

/* Next fit: the first run of free pages from where the last one ended. */
static long arena_alloc(struct arena *a, size_t len)
{
	size_t n = npages(len);

	for (size_t tries = 0, i = a->next; tries < 2; tries++, i = 0) {
		size_t run = 0;

		for (; i < a->pages; i++) {
			run = a->used[i] ? 0 : run + 1;
			if (run == n) {
				size_t first = i + 1 - n;

				memset(a->used + first, 1, n);
				a->next = i + 1;
				return (long)first;
			}
		}
	}
	return -1;
}

static void arena_free(struct arena *a, long page, size_t len)
{
	if (page < 0)
		return;
	for (size_t i = 0; i < npages(len); i++) {
		EXPECT(a->used[(size_t)page + i], "arena page freed twice");
		a->used[(size_t)page + i] = 0;
	}
}

static struct doca_buf *mkbuf(struct doca_mmap *mmap, void *addr, size_t len, size_t data_len)
{
	struct doca_buf *b;

	CHECK(doca_buf_inventory_buf_get_by_args(C.inv, mmap, addr, len, addr, data_len, &b));
	return b;
}

static void put(struct doca_buf **b)
{
	if (*b)
		CHECK(doca_buf_dec_refcount(*b, NULL));
	*b = NULL;
}

static uint8_t *lmem(const struct op *op)
{
	return C.mem + (size_t)op->lpage * SOAK_PAGE;
}

/* The local 8-byte result word of an op on word w of slot s. */
static uint64_t *result_word(int s, int w)
{
	return (uint64_t *)(void *)(C.small + (size_t)(s * 16 + w) * 8);
}

static uint64_t *source_word(int s, int w)
{
	return (uint64_t *)(void *)(C.small + (size_t)(s * 16 + 8 + w) * 8);
}

static int status_index(doca_error_t st)
{
	return (int)st >= 0 && (int)st < 64 ? (int)st : 63;
}

/* --- faults of the connections --- */

/* Sets the faults for the next export: the base faults, and with
 * probability o.doom one fatal fault for this connection alone. */
static void faults_for_next(struct slot *s, bool may_doom)
{
	char spec[700];

	s->doomed = false;
	s->doom[0] = '\0';
	if (may_doom && (double)(rnd() % 1000000) / 1e6 < C.o.doom) {
		uint64_t r = rnd();
		static const char *const fatal[] = { "break", "vanish", "drop" };
		/* break counts requests posted; vanish and drop messages received */
		uint64_t nth = 20 + rnd() % 400;

		snprintf(s->doom, sizeof(s->doom), "%s:nth=%" PRIu64, fatal[r % 3], nth);
		s->doomed = true;
		C.doomed_total++;
	}
	snprintf(spec, sizeof(spec), "%s%s%s", C.base_faults, s->doomed ? ";" : "", s->doom);
	CHECK(softdoca_faults_set(spec));
}

/* --- the ledger --- */

static union doca_data op_ud(const struct op *op)
{
	union doca_data d = { .u64 = (uint64_t)op->serial << 16 | op->idx };

	return d;
}

static struct op *op_new(int slot, enum kind kind)
{
	static uint32_t serial;

	for (int i = 0; i < MAX_OPS; i++) {
		struct op *op = &C.ops[i];

		if (op->state != OS_FREE)
			continue;
		memset(op, 0, sizeof(*op));
		op->idx = (uint16_t)i;
		op->serial = ++serial;
		op->slot = slot;
		op->gen = C.slots[slot].gen;
		op->kind = kind;
		op->lpage = op->rpage = -1;
		op->seed = soak_mix(C.o.seed, (uint64_t)op->serial << 20 ^ 0x4f50);
		return op;
	}
	return NULL;
}

static void set_state(struct op *op, enum op_state st);

static void op_release(struct op *op)
{
	set_state(op, OS_FREE);
	put(&op->lbuf);
	put(&op->rbuf);
	arena_free(&C.local, op->lpage, op->len);
	arena_free(&C.rwrite, op->rpage, op->len);
}

static void set_state(struct op *op, enum op_state st)
{
	bool was = op->state == OS_SUBMIT || op->state == OS_FLIGHT;
	bool is = st == OS_SUBMIT || st == OS_FLIGHT;

	if (was && !is)
		C.slots[op->slot].inflight--;
	if (!was && is)
		C.slots[op->slot].inflight++;
	if (st == OS_SUBMIT || st == OS_FLIGHT)
		op->deadline = now_ms() + C.o.deadline_ms;
	op->state = st;
}

static void describe(const struct op *op, char *out, size_t n)
{
	snprintf(out, n, "op %u (%s%s, slot %d gen %u, %zu bytes, seed %" PRIx64 ")", op->serial,
	         kind_names[op->kind], op->stage ? " read-back" : "", op->slot, op->gen, op->len,
	         op->seed);
}

/* Memory for an op's data, from both arenas as it needs. */
static bool op_memory(struct op *op)
{
	bool remote = op->kind == K_WRITE || op->kind == K_WRITE_IMM;

	if (op->kind == K_FA || op->kind == K_CS || op->kind >= K_EV_GET)
		return true;
	op->lpage = arena_alloc(&C.local, op->len);
	if (op->lpage < 0)
		return false;
	if (remote) {
		op->rpage = arena_alloc(&C.rwrite, op->len);
		if (op->rpage < 0) {
			arena_free(&C.local, op->lpage, op->len);
			op->lpage = -1;
			return false;
		}
		op->roff = (size_t)op->rpage * SOAK_PAGE;
	}
	/* What the op sends, or the poison its destination starts as. */
	if (op->kind == K_READ)
		pat_fill(lmem(op), op->len, SOAK_STATIC_SEED, op->roff, 0xFF);
	else
		pat_fill(lmem(op), op->len, op->seed, 0, 0);
	return true;
}

/* Allocates and submits the op's task for its stage; false (and the op
 * stays to submit) when an injected failure refused it. */
static bool op_submit(struct op *op)
{
	struct slot *s = &C.slots[op->slot];
	struct doca_buf *remote_word;
	union doca_data ud = op_ud(op);
	doca_error_t st;
	struct doca_task *t = NULL;

	put(&op->lbuf);
	put(&op->rbuf);
	if (op->stage == 1) {
		struct doca_rdma_task_read *r;

		pat_fill(lmem(op), op->len, op->seed, 0, 0xFF);
		op->rbuf = mkbuf(C.remote, C.raddr + op->roff, op->len, op->len);
		op->lbuf = mkbuf(C.mmap, lmem(op), op->len, 0);
		st = doca_rdma_task_read_allocate_init(C.rdma, s->conn, op->rbuf, op->lbuf, ud, &r);
		if (st == DOCA_SUCCESS)
			t = doca_rdma_task_read_as_task(r);
	} else {
		switch (op->kind) {
		case K_WRITE:
		case K_WRITE_IMM: {
			op->lbuf = mkbuf(C.mmap, lmem(op), op->len, op->len);
			op->rbuf = mkbuf(C.remote, C.raddr + op->roff, op->len, 0);
			if (op->kind == K_WRITE) {
				struct doca_rdma_task_write *w;

				st = doca_rdma_task_write_allocate_init(C.rdma, s->conn, op->lbuf,
				                                        op->rbuf, ud, &w);
				if (st == DOCA_SUCCESS)
					t = doca_rdma_task_write_as_task(w);
			} else {
				struct doca_rdma_task_write_imm *w;

				st = doca_rdma_task_write_imm_allocate_init(
				        C.rdma, s->conn, op->lbuf, op->rbuf, (doca_be32_t)op->imm,
				        ud, &w);
				if (st == DOCA_SUCCESS)
					t = doca_rdma_task_write_imm_as_task(w);
			}
			break;
		}
		case K_READ: {
			struct doca_rdma_task_read *r;

			op->rbuf = mkbuf(C.remote, C.raddr + C.static_off + op->roff, op->len,
			                 op->len);
			op->lbuf = mkbuf(C.mmap, lmem(op), op->len, 0);
			st = doca_rdma_task_read_allocate_init(C.rdma, s->conn, op->rbuf, op->lbuf,
			                                       ud, &r);
			if (st == DOCA_SUCCESS)
				t = doca_rdma_task_read_as_task(r);
			break;
		}
		case K_SEND:
		case K_SEND_IMM:
			op->lbuf = mkbuf(C.mmap, lmem(op), op->len, op->len);
			if (op->kind == K_SEND) {
				struct doca_rdma_task_send *x;

				st = doca_rdma_task_send_allocate_init(C.rdma, s->conn, op->lbuf,
				                                       ud, &x);
				if (st == DOCA_SUCCESS)
					t = doca_rdma_task_send_as_task(x);
			} else {
				struct doca_rdma_task_send_imm *x;

				st = doca_rdma_task_send_imm_allocate_init(
				        C.rdma, s->conn, op->lbuf, (doca_be32_t)op->imm, ud, &x);
				if (st == DOCA_SUCCESS)
					t = doca_rdma_task_send_imm_as_task(x);
			}
			break;
		case K_FA:
		case K_CS: {
			remote_word = mkbuf(C.remote,
			                    C.raddr + C.atom_off +
			                            (size_t)(op->slot * SOAK_WORDS + op->word) * 8,
			                    8, 8);
			op->rbuf = remote_word;
			*result_word(op->slot, op->word) = ~op->expect;
			op->lbuf = mkbuf(C.mmap, result_word(op->slot, op->word), 8, 0);
			if (op->kind == K_FA) {
				struct doca_rdma_task_atomic_fetch_add *x;

				st = doca_rdma_task_atomic_fetch_add_allocate_init(
				        C.rdma, s->conn, op->rbuf, op->lbuf, op->a, ud, &x);
				if (st == DOCA_SUCCESS)
					t = doca_rdma_task_atomic_fetch_add_as_task(x);
			} else {
				struct doca_rdma_task_atomic_cmp_swp *x;

				st = doca_rdma_task_atomic_cmp_swp_allocate_init(
				        C.rdma, s->conn, op->rbuf, op->lbuf, op->a, op->b, ud, &x);
				if (st == DOCA_SUCCESS)
					t = doca_rdma_task_atomic_cmp_swp_as_task(x);
			}
			break;
		}
		case K_EV_GET: {
			struct doca_rdma_task_remote_net_sync_event_get *x;

			*result_word(op->slot, SOAK_WORDS) = ~op->expect;
			op->lbuf = mkbuf(C.mmap, result_word(op->slot, SOAK_WORDS), 8, 0);
			st = doca_rdma_task_remote_net_sync_event_get_allocate_init(
			        C.rdma, s->conn, s->rev, op->lbuf, ud, &x);
			if (st == DOCA_SUCCESS)
				t = doca_rdma_task_remote_net_sync_event_get_as_task(x);
			break;
		}
		case K_EV_SET: {
			struct doca_rdma_task_remote_net_sync_event_notify_set *x;

			*source_word(op->slot, 0) = op->a;
			op->lbuf = mkbuf(C.mmap, source_word(op->slot, 0), 8, 8);
			st = doca_rdma_task_remote_net_sync_event_notify_set_allocate_init(
			        C.rdma, s->conn, s->rev, op->lbuf, ud, &x);
			if (st == DOCA_SUCCESS)
				t = doca_rdma_task_remote_net_sync_event_notify_set_as_task(x);
			break;
		}
		case K_EV_ADD: {
			struct doca_rdma_task_remote_net_sync_event_notify_add *x;

			*result_word(op->slot, SOAK_WORDS) = ~op->expect;
			op->lbuf = mkbuf(C.mmap, result_word(op->slot, SOAK_WORDS), 8, 0);
			st = doca_rdma_task_remote_net_sync_event_notify_add_allocate_init(
			        C.rdma, s->conn, s->rev, op->lbuf, op->a, ud, &x);
			if (st == DOCA_SUCCESS)
				t = doca_rdma_task_remote_net_sync_event_notify_add_as_task(x);
			break;
		}
		default:
			FAIL("no such kind");
		}
	}
	if (st != DOCA_SUCCESS) {
		C.alloc_errors[status_index(st)]++;
		return false;
	}
	st = doca_task_submit(t);
	if (st != DOCA_SUCCESS) {
		C.submit_errors[status_index(st)]++;
		doca_task_free(t);
		return false;
	}
	op->task = t;
	set_state(op, OS_FLIGHT);
	if (op->recv_op && op->stage == 0)
		s->recv_unsubmitted = false;
	return true;
}

/* --- completions --- */

static void slot_failing(struct slot *s)
{
	s->failed = true;
	if (s->st != SL_LIVE)
		return;
	s->st = SL_FAILING;
	s->fail_t0 = now_ms();
	s->ops_at_fail = C.successes;
}

static void check_value(const struct op *op, uint64_t got, const char *what)
{
	char d[160];

	if (got == op->expect)
		return;
	describe(op, d, sizeof(d));
	DATA_FAIL("%s: %s 0x%" PRIx64 ", expected 0x%" PRIx64, d, what, got, op->expect);
}

/* A value-reading op that succeeded: settles a word left uncertain. */
static void settle(struct slot *s, const struct op *op, uint64_t got)
{
	int w = op->word;
	char d[160];

	if (got != s->val[w] && got != s->alt[w]) {
		describe(op, d, sizeof(d));
		DATA_FAIL("%s: the word holds 0x%" PRIx64 " after a failed operation, neither "
		          "0x%" PRIx64 " (it did not happen) nor 0x%" PRIx64 " (it did)",
		          d, got, s->val[w], s->alt[w]);
	}
	s->val[w] = got;
	s->unc[w] = false;
	C.resolved++;
}

static void op_succeeded(struct op *op, uint64_t result_len)
{
	struct slot *s = &C.slots[op->slot];
	enum kind k = op->stage ? K_READBACK : op->kind;
	char d[160];
	long at;
	uint64_t got;

	C.ok[k]++;
	C.successes++;
	switch (k) {
	case K_WRITE:
	case K_WRITE_IMM:
		C.bytes[k] += op->len;
		if (op->recv_op)
			C.tally->ok[op->slot][op->gen]++;
		/* Read it back: now, or on the slot's next connection. */
		op->stage = 1;
		if (s->st == SL_LIVE) {
			set_state(op, OS_SUBMIT);
		} else {
			set_state(op, OS_PARKED);
			C.parked_readbacks++;
		}
		return;
	case K_READ:
	case K_READBACK:
		C.bytes[k] += op->len;
		describe(op, d, sizeof(d));
		if (result_len != op->len)
			DATA_FAIL("%s: the read's result length is %" PRIu64, d, result_len);
		at = k == K_READ ? pat_check(lmem(op), op->len, SOAK_STATIC_SEED, op->roff)
		                 : pat_check(lmem(op), op->len, op->seed, 0);
		if (at >= 0)
			DATA_FAIL("%s: byte %ld is 0x%02x, expected 0x%02x", d, at, lmem(op)[at],
			          k == K_READ ? pat_byte(SOAK_STATIC_SEED, op->roff + (size_t)at)
			                      : pat_byte(op->seed, (uint64_t)at));
		break;
	case K_SEND:
	case K_SEND_IMM:
		C.bytes[k] += op->len;
		C.tally->ok[op->slot][op->gen]++;
		break;
	case K_FA:
	case K_CS:
	case K_EV_GET:
	case K_EV_ADD:
		got = *result_word(op->slot, k == K_FA || k == K_CS ? op->word : SOAK_WORDS);
		if (op->resolve) {
			settle(s, op, got);
			break;
		}
		check_value(op, got, k == K_EV_GET ? "the event's value" : "the value fetched");
		if (k == K_FA || k == K_EV_ADD)
			s->val[op->word] = op->expect + op->a;
		else if (k == K_CS && op->a == op->expect)
			s->val[op->word] = op->b;
		break;
	case K_EV_SET:
		s->val[op->word] = op->a;
		break;
	default:
		break;
	}
	if (op->word >= 0 && (op->kind == K_FA || op->kind == K_CS || op->kind >= K_EV_GET))
		s->busy[op->word] = false;
	op_release(op);
}

static void op_failed(struct op *op, doca_error_t st)
{
	struct slot *s = &C.slots[op->slot];
	enum kind k = op->stage ? K_READBACK : op->kind;
	char d[160];

	C.failed[k]++;
	C.errors[k][status_index(st)]++;
	if (!s->doomed) {
		C.unexpected++;
		describe(op, d, sizeof(d));
		printf("UNEXPECTED: %s failed with %s on a connection given no fatal fault\n", d,
		       doca_error_get_name(st));
	}
	slot_failing(s);
	if (op->recv_op && op->stage == 0)
		C.tally->failed[op->slot][op->gen]++;
	if (op->stage == 1) {
		/* The write happened: read it back on the next connection. */
		set_state(op, OS_PARKED);
		C.parked_readbacks++;
		return;
	}
	if (op->kind == K_FA || op->kind == K_CS || op->kind >= K_EV_GET) {
		int w = op->word;

		/* Done or not: the word holds one of two values from now on. */
		if (!op->resolve && op->kind != K_EV_GET &&
		    !(op->kind == K_CS && op->a != op->expect)) {
			s->unc[w] = true;
			s->alt[w] = op->kind == K_CS       ? op->b
			            : op->kind == K_EV_SET ? op->a
			                                   : op->expect + op->a;
		}
		s->busy[w] = false;
		op_release(op);
		return;
	}
	/* Its bytes may still be on their way: the memory waits for the server
	 * to close the connection. */
	set_state(op, OS_QUAR);
}

static void completed(struct doca_task *task, union doca_data ud, uint64_t result_len)
{
	uint16_t idx = (uint16_t)(ud.u64 & 0xffff);
	uint32_t serial = (uint32_t)(ud.u64 >> 16);
	struct op *op = idx < MAX_OPS ? &C.ops[idx] : NULL;
	doca_error_t st = doca_task_get_status(task);

	if (!op || op->serial != serial || op->state != OS_FLIGHT || op->task != task)
		FAIL("a completion for a task not in flight (a task completed twice, or a stray "
		     "one): op %u serial %u, %s",
		     idx, serial, doca_error_get_name(st));
	C.completions++;
	op->task = NULL;
	doca_task_free(task);
	if (st == DOCA_SUCCESS)
		op_succeeded(op, result_len);
	else
		op_failed(op, st);
}

#define CB(type)                                                                   \
	static void cb_##type(struct doca_rdma_task_##type *t, union doca_data ud, \
	                      union doca_data cud)                                 \
	{                                                                          \
		(void)cud;                                                         \
		completed(doca_rdma_task_##type##_as_task(t), ud, 0);              \
	}
CB(write)
CB(write_imm)
CB(send)
CB(send_imm)
CB(atomic_fetch_add)
CB(atomic_cmp_swp)
CB(remote_net_sync_event_notify_set)
CB(remote_net_sync_event_notify_add)

static void cb_read(struct doca_rdma_task_read *t, union doca_data ud, union doca_data cud)
{
	(void)cud;
	completed(doca_rdma_task_read_as_task(t), ud, doca_rdma_task_read_get_result_len(t));
}

static void cb_remote_net_sync_event_get(struct doca_rdma_task_remote_net_sync_event_get *t,
                                         union doca_data ud, union doca_data cud)
{
	(void)cud;
	if (doca_task_get_status(doca_rdma_task_remote_net_sync_event_get_as_task(t)) ==
	    DOCA_SUCCESS)
		EXPECT(doca_rdma_task_remote_net_sync_event_get_get_result_len(t) == 8,
		       "an event's get returned %u bytes",
		       doca_rdma_task_remote_net_sync_event_get_get_result_len(t));
	completed(doca_rdma_task_remote_net_sync_event_get_as_task(t), ud, 8);
}

static void conn_failed(struct doca_rdma_connection *c, union doca_data ud, union doca_data cud)
{
	struct slot *s = &C.slots[ud.u64 & 0xff];

	(void)cud;
	if (s->conn != c)
		return;
	s->down = true;
	if (!s->doomed) {
		C.unexpected++;
		printf("UNEXPECTED: slot %d's connection (gen %u) failed without a fatal fault\n",
		       (int)(s - C.slots), s->gen);
	}
	slot_failing(s);
}

static void conn_disconnected(struct doca_rdma_connection *c, union doca_data ud,
                              union doca_data cud)
{
	struct slot *s = &C.slots[ud.u64 & 0xff];

	(void)cud;
	if (s->conn != c)
		return;
	s->down = true;
	if (!s->doomed) {
		C.unexpected++;
		printf("UNEXPECTED: slot %d's connection (gen %u) was closed by the server\n",
		       (int)(s - C.slots), s->gen);
	}
	slot_failing(s);
}

/* --- starting operations --- */

static void start_word_op(struct slot *s, int slot, enum kind k)
{
	int w = k == K_CS       ? SOAK_CS_WORD
	        : k >= K_EV_GET ? SOAK_WORDS
	                        : (int)(rnd() % SOAK_FA_WORDS);
	struct op *op;

	if (s->busy[w])
		return;
	op = op_new(slot, k);
	if (!op)
		return;
	op->word = w;
	op->expect = s->val[w];
	if (s->unc[w]) {
		/* Settle it first: an op that reads and changes nothing. */
		op->resolve = true;
		op->kind = k = k == K_CS ? K_CS : k >= K_EV_GET ? K_EV_GET : K_FA;
		op->a = k == K_CS ? s->val[w] : 0;
		op->b = op->a;
	} else if (k == K_FA || k == K_EV_ADD) {
		op->a = rnd();
	} else if (k == K_CS) {
		/* Mostly a swap that must happen; sometimes one that must not. */
		op->a = rnd() % 4 ? s->val[w] : s->val[w] ^ (1ull << (rnd() % 64));
		op->b = rnd();
	} else if (k == K_EV_SET) {
		op->a = rnd();
	}
	s->busy[w] = true;
	set_state(op, OS_SUBMIT);
}

static void start_op(int slot)
{
	struct slot *s = &C.slots[slot];
	uint64_t r = rnd() % 100;
	struct op *op;

	if (r >= 60) {
		start_word_op(s, slot,
		              r < 75   ? K_FA
		              : r < 83 ? K_CS
		              : r < 88 ? K_EV_GET
		              : r < 94 ? K_EV_SET
		                       : K_EV_ADD);
		return;
	}
	if (r >= 36 && s->recv_unsubmitted)
		return; /* the schedule's next one goes first */
	op = op_new(slot, K_WRITE);
	if (!op)
		return;
	if (r < 18) {
		op->len = soak_len(rnd());
	} else if (r < 36) {
		op->kind = K_READ;
		op->len = soak_len(rnd());
		op->roff = rnd() % (SOAK_STATIC_LEN - op->len + 1);
	} else {
		struct soak_recv_spec spec = soak_recv_spec(C.o.seed, slot, s->gen, s->next_k);

		op->recv_op = true;
		op->k = s->next_k++;
		op->len = spec.len;
		op->imm = spec.imm;
		op->seed = spec.seed;
		op->kind = spec.kind == RK_SEND       ? K_SEND
		           : spec.kind == RK_SEND_IMM ? K_SEND_IMM
		                                      : K_WRITE_IMM;
		s->recv_unsubmitted = true;
	}
	if (op_memory(op)) {
		set_state(op, OS_SUBMIT);
	} else {
		op->state = OS_WAIT_MEM;
		C.waiter = op;
	}
}

/* --- connections --- */

static void export_slot(int i, bool may_doom)
{
	struct slot *s = &C.slots[i];
	union doca_data ud = { .u64 = (uint64_t)i };
	const void *blob;
	size_t len;

	faults_for_next(s, may_doom);
	CHECK(doca_rdma_export(C.rdma, &blob, &len, &s->conn));
	CHECK(doca_rdma_connection_set_user_data(s->conn, ud));
	soak_send(C.fd, MSG_CONN, i, s->gen, blob, len);
	s->down = false;
	s->failed = false;
	s->st = SL_LIVE;
	s->next_k = 0;
	s->recv_unsubmitted = false;
}

/* The slot's tasks have all ended: close it, and ask for the next one. */
static void slot_dead(int i)
{
	struct slot *s = &C.slots[i];

	if (!s->down)
		CHECK(doca_rdma_connection_disconnect(s->conn));
	s->conn = NULL;
	soak_send(C.fd, MSG_DEAD, i, s->gen, NULL, 0);
	s->st = SL_WAIT_GONE;
	if (!s->failed)
		return; /* replaced while healthy */
	C.conn_failed[0]++;
	if (strncmp(s->doom, "break", 5) == 0)
		C.conn_failed[1]++;
	else if (strncmp(s->doom, "vanish", 6) == 0)
		C.conn_failed[2]++;
	else if (strncmp(s->doom, "drop", 4) == 0)
		C.conn_failed[3]++;
	if (now_ms() - s->fail_t0 >= 1000) {
		C.long_outages++;
		C.others_during_outage += C.successes - s->ops_at_fail;
	}
}

/* The server closed (slot, gen) and offers gen + 1. */
static void slot_gone(int i, uint32_t gen, const void *blob, size_t len, bool may_doom)
{
	struct slot *s = &C.slots[i];

	EXPECT(s->st == SL_WAIT_GONE && gen == s->gen + 1, "slot %d: unexpected offer of gen %u", i,
	       gen);
	EXPECT(gen < SOAK_MAX_GEN, "too many reconnections");
	/* Nothing of the old connection can land any more: its memory is free. */
	for (int j = 0; j < MAX_OPS; j++) {
		struct op *op = &C.ops[j];

		if (op->slot != i)
			continue;
		if (op->state == OS_QUAR)
			op_release(op);
		else if (op->state == OS_PARKED)
			set_state(op, OS_SUBMIT); /* read back on the new connection */
	}
	s->gen = gen;
	if (gen > C.max_gen)
		C.max_gen = gen;
	export_slot(i, may_doom);
	CHECK(doca_rdma_connect(C.rdma, blob, len, s->conn));
	C.reconnects++;
}

/* --- the report --- */

static void report(const char *when)
{
	struct softdoca_rdma_counters c;
	uint64_t ops = 0, bytes = 0, failed = 0;

	CHECK(softdoca_dev_get_counters(C.dev, &c));
	for (int k = 0; k < NUM_KINDS; k++) {
		ops += C.ok[k];
		bytes += C.bytes[k];
		failed += C.failed[k];
	}
	soak_proc_sample(&C.proc);
	printf("client %s %.0f s: %" PRIu64 " tasks ok, %" PRIu64 " failed, %.2f GiB, "
	       "faults injected %" PRIu64 ", connections failed %" PRIu64 " (reconnected %" PRIu64
	       "), timeouts %" PRIu64 ", RNR notices %" PRIu64 ", RSS %.1f MiB (peak %.1f), "
	       "fds %d, threads %d\n",
	       when, (double)(now_ms() - C.proc.start_ms) / 1000.0, ops, failed,
	       (double)bytes / (1u << 30), softdoca_faults_injected(), C.conn_failed[0],
	       C.reconnects, c.timeouts, c.rnr_notices, C.proc.rss_mb, C.proc.peak_mb, C.proc.fds,
	       C.proc.threads);
}

static void usage_value(const char *opt)
{
	FAIL("option %s needs a value", opt);
}

static void parse(int argc, char **argv)
{
	struct opts *o = &C.o;

	*o = (struct opts){ .iface = "lo",
		            .host = "127.0.0.1",
		            .seconds = 60,
		            .seed = (uint64_t)time(NULL) ^ (uint64_t)getpid() << 32,
		            .report_s = 10,
		            .depth = 4,
		            .doom = 0.25,
		            .recycle_s = 10,
		            .arena_mb = 320,
		            .nrecv = 4,
		            .rss_growth_mb = 64,
		            .deadline_ms = 30000,
		            .client_faults = "delay:rate=0.01,ms=5;fail_alloc:rate=0.005;"
		                             "fail_submit:rate=0.005",
		            .server_faults = "delay:rate=0.01,ms=5;rnr:rate=0.02,ms=50;"
		                             "stop:rate=0.0005,ms=300" };
	for (int i = 0; i < argc; i += 2) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v)
			usage_value(a);
		if (strcmp(a, "--iface") == 0)
			o->iface = v;
		else if (strcmp(a, "--host") == 0)
			o->host = v;
		else if (strcmp(a, "--port") == 0)
			o->port = atoi(v);
		else if (strcmp(a, "--seconds") == 0)
			o->seconds = atof(v);
		else if (strcmp(a, "--seed") == 0)
			o->seed = strtoull(v, NULL, 0);
		else if (strcmp(a, "--report") == 0)
			o->report_s = atoi(v);
		else if (strcmp(a, "--depth") == 0)
			o->depth = atoi(v);
		else if (strcmp(a, "--doom") == 0)
			o->doom = atof(v);
		else if (strcmp(a, "--recycle") == 0)
			o->recycle_s = atof(v);
		else if (strcmp(a, "--arena-mb") == 0)
			o->arena_mb = (uint32_t)atoi(v);
		else if (strcmp(a, "--nrecv") == 0)
			o->nrecv = (uint32_t)atoi(v);
		else if (strcmp(a, "--rss-growth-mb") == 0)
			o->rss_growth_mb = atof(v);
		else if (strcmp(a, "--deadline-ms") == 0)
			o->deadline_ms = strtoull(v, NULL, 0);
		else if (strcmp(a, "--client-faults") == 0)
			o->client_faults = v;
		else if (strcmp(a, "--server-faults") == 0)
			o->server_faults = v;
		else
			FAIL("unknown option %s", a);
	}
	EXPECT(o->port > 0, "the client needs --port");
	EXPECT(o->depth >= 1 && o->depth <= MAX_OPS / SOAK_CONNS / 2, "--depth is 1..%d",
	       MAX_OPS / SOAK_CONNS / 2);
	EXPECT(o->arena_mb >= 128, "--arena-mb is at least 128");
	EXPECT(o->report_s >= 1, "--report is at least 1");
}

static void setup(void)
{
	union doca_data ud = { .ptr = &C };
	uint32_t n = TASKS_PER_TYPE;

	C.dev = soak_open_dev(C.o.iface);
	CHECK(doca_buf_inventory_create(2 * MAX_OPS + 16, &C.inv));
	CHECK(doca_buf_inventory_start(C.inv));
	C.arena_len = (size_t)C.o.arena_mb << 20;
	C.mem_len = C.arena_len + SOAK_PAGE;
	C.mem = mmap(NULL, C.mem_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	EXPECT(C.mem != MAP_FAILED, "cannot map %zu bytes", C.mem_len);
	memset(C.mem, 0x3C, C.mem_len); /* touched: RSS is flat from here on */
	C.small = C.mem + C.arena_len;
	arena_init(&C.local, C.arena_len);
	arena_init(&C.rwrite, C.arena_len);
	CHECK(doca_mmap_create(&C.mmap));
	CHECK(doca_mmap_set_memrange(C.mmap, C.mem, C.mem_len));
	CHECK(doca_mmap_set_permissions(C.mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	CHECK(doca_mmap_add_dev(C.mmap, C.dev));
	CHECK(doca_mmap_start(C.mmap));

	CHECK(doca_pe_create(&C.pe));
	CHECK(doca_rdma_create(C.dev, &C.rdma));
	CHECK(doca_rdma_set_permissions(C.rdma, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	CHECK(doca_rdma_set_max_num_connections(C.rdma, 2 * SOAK_CONNS));
	CHECK(doca_rdma_task_write_set_conf(C.rdma, cb_write, cb_write, n));
	CHECK(doca_rdma_task_write_imm_set_conf(C.rdma, cb_write_imm, cb_write_imm, n));
	CHECK(doca_rdma_task_read_set_conf(C.rdma, cb_read, cb_read, n));
	CHECK(doca_rdma_task_send_set_conf(C.rdma, cb_send, cb_send, n));
	CHECK(doca_rdma_task_send_imm_set_conf(C.rdma, cb_send_imm, cb_send_imm, n));
	CHECK(doca_rdma_task_atomic_fetch_add_set_conf(C.rdma, cb_atomic_fetch_add,
	                                               cb_atomic_fetch_add, n));
	CHECK(doca_rdma_task_atomic_cmp_swp_set_conf(C.rdma, cb_atomic_cmp_swp, cb_atomic_cmp_swp,
	                                             n));
	CHECK(doca_rdma_task_remote_net_sync_event_get_set_conf(
	        C.rdma, cb_remote_net_sync_event_get, cb_remote_net_sync_event_get, n));
	CHECK(doca_rdma_task_remote_net_sync_event_notify_set_set_conf(
	        C.rdma, cb_remote_net_sync_event_notify_set, cb_remote_net_sync_event_notify_set,
	        n));
	CHECK(doca_rdma_task_remote_net_sync_event_notify_add_set_conf(
	        C.rdma, cb_remote_net_sync_event_notify_add, cb_remote_net_sync_event_notify_add,
	        n));
	CHECK(doca_rdma_set_connection_state_callbacks(C.rdma, NULL, NULL, conn_failed,
	                                               conn_disconnected));
	CHECK(doca_ctx_set_user_data(doca_rdma_as_ctx(C.rdma), ud));
	CHECK(doca_pe_connect_ctx(C.pe, doca_rdma_as_ctx(C.rdma)));
	CHECK(doca_ctx_start(doca_rdma_as_ctx(C.rdma)));
	for (uint64_t t0 = now_ms();;) {
		enum doca_ctx_states st;

		CHECK(doca_ctx_get_state(doca_rdma_as_ctx(C.rdma), &st));
		if (st == DOCA_CTX_STATE_RUNNING)
			break;
		EXPECT(now_ms() - t0 < 10000, "the context did not start");
		doca_pe_progress(C.pe);
	}
}

/* Parameters to the server; its memory, events and connections back. */
static void handshake(void)
{
	struct soak_params prm = { .seed = C.o.seed,
		                   .arena_mb = C.o.arena_mb,
		                   .nrecv = C.o.nrecv,
		                   .report_s = (uint32_t)C.o.report_s,
		                   .seconds = (uint32_t)C.o.seconds,
		                   .rss_growth_mb = C.o.rss_growth_mb };
	struct soak_msg hdr;
	const void *body;
	size_t len;
	void *m;

	snprintf(prm.server_faults, sizeof(prm.server_faults), "seed=%" PRIu64 ";%s", C.o.seed,
	         C.o.server_faults);
	snprintf(C.base_faults, sizeof(C.base_faults), "seed=%" PRIu64 ";%s", C.o.seed,
	         C.o.client_faults);
	C.fd = oob_connect_fd(C.o.host, C.o.port);
	soak_send(C.fd, MSG_PARAMS, 0, 0, &prm, sizeof(prm));
	m = soak_recv(C.fd, &hdr, &body, &len, 60000);
	EXPECT(hdr.type == MSG_MMAP, "expected the server's memory");
	CHECK(doca_mmap_create_from_export(NULL, body, len, C.dev, &C.remote));
	free(m);
	CHECK(doca_mmap_get_memrange(C.remote, (void **)&C.raddr, &C.rlen));
	C.write_len = C.arena_len;
	C.static_off = C.write_len;
	C.atom_off = C.static_off + SOAK_STATIC_LEN;
	EXPECT(C.rlen >= C.atom_off + SOAK_PAGE, "the server's range is too short");
	for (int i = 0; i < SOAK_CONNS; i++) {
		m = soak_recv(C.fd, &hdr, &body, &len, 60000);
		EXPECT(hdr.type == MSG_EVENT && hdr.slot == i, "expected event %d", i);
		CHECK(doca_sync_event_remote_net_create_from_export(C.dev, body, len,
		                                                    &C.slots[i].rev));
		free(m);
	}
	for (int i = 0; i < SOAK_CONNS; i++) {
		m = soak_recv(C.fd, &hdr, &body, &len, 60000);
		EXPECT(hdr.type == MSG_CONN && hdr.slot == i && hdr.gen == 0,
		       "expected connection %d", i);
		export_slot(i, true);
		CHECK(doca_rdma_connect(C.rdma, body, len, C.slots[i].conn));
		free(m);
	}
}

static void check_deadlines(uint64_t t)
{
	char d[160];

	for (int i = 0; i < MAX_OPS; i++) {
		struct op *op = &C.ops[i];

		if ((op->state == OS_FLIGHT || op->state == OS_SUBMIT) && t > op->deadline) {
			describe(op, d, sizeof(d));
			FAIL("%s: %s for %" PRIu64 " ms (slot state %d): a task hung", d,
			     op->state == OS_FLIGHT ? "in flight" : "refused", C.o.deadline_ms,
			     C.slots[op->slot].st);
		}
	}
}

/* One pass over what waits: memory, submissions, slots to close. */
static void step(bool running)
{
	if (C.waiter) {
		struct op *op = C.waiter;

		if (C.slots[op->slot].st != SL_LIVE || op->gen != C.slots[op->slot].gen) {
			/* its connection failed meanwhile: never submitted */
			if (op->recv_op)
				C.tally->failed[op->slot][op->gen]++;
			op->state = OS_FREE;
			C.waiter = NULL;
		} else if (op_memory(op)) {
			C.waiter = NULL;
			set_state(op, OS_SUBMIT);
		}
	}
	for (int i = 0; i < MAX_OPS; i++) {
		struct op *op = &C.ops[i];
		struct slot *s = &C.slots[op->slot];

		if (op->state != OS_SUBMIT)
			continue;
		if (s->st != SL_LIVE) {
			if (op->stage == 1) {
				set_state(op, OS_PARKED);
				continue;
			}
			/* never submitted: nothing of it can arrive */
			if (op->recv_op)
				C.tally->failed[op->slot][op->gen]++;
			if (op->kind == K_FA || op->kind == K_CS || op->kind >= K_EV_GET)
				s->busy[op->word] = false;
			op_release(op);
			continue;
		}
		op->gen = s->gen;
		(void)op_submit(op);
	}
	for (int i = 0; i < SOAK_CONNS; i++)
		if (C.slots[i].st == SL_FAILING && C.slots[i].inflight == 0)
			slot_dead(i);
	if (!running || C.waiter)
		return;
	for (int n = 0; n < SOAK_CONNS; n++) {
		int i = (int)(rnd() % SOAK_CONNS);

		if (C.slots[i].st == SL_LIVE && C.slots[i].inflight < C.o.depth && !C.waiter)
			start_op(i);
	}
}

static bool idle(void)
{
	for (int i = 0; i < MAX_OPS; i++)
		if (C.ops[i].state != OS_FREE)
			return false;
	for (int i = 0; i < SOAK_CONNS; i++)
		if (C.slots[i].st != SL_LIVE)
			return false;
	return true;
}

/* The server's words, events and receives against the ledger. */
static void verify_final(const struct soak_final *f)
{
	uint64_t words = 0;

	for (int i = 0; i < SOAK_CONNS; i++) {
		struct slot *s = &C.slots[i];

		for (int w = 0; w <= SOAK_WORDS; w++) {
			uint64_t got = w == SOAK_WORDS ? f->events[i] : f->words[i][w];

			if (w > SOAK_CS_WORD && w < SOAK_WORDS)
				continue;
			EXPECT(!s->busy[w], "slot %d word %d still busy", i, w);
			if (got != s->val[w] && !(s->unc[w] && got == s->alt[w]))
				DATA_FAIL("slot %d %s %d: the server holds 0x%" PRIx64
				          ", expected 0x%" PRIx64 "%s",
				          i, w == SOAK_WORDS ? "event" : "word", w, got, s->val[w],
				          s->unc[w] ? " or the failed operation's value" : "");
			words++;
		}
		for (uint32_t g = 0; g <= C.max_gen; g++) {
			uint32_t ok = C.tally->ok[i][g], failed = C.tally->failed[i][g];
			uint32_t seen = f->verified[i][g];

			if (seen < ok || seen > ok + failed)
				DATA_FAIL(
				        "slot %d gen %u: the server verified %u receive-consuming "
				        "operations; %u succeeded here, %u failed",
				        i, g, seen, ok, failed);
		}
	}
	printf("client: %" PRIu64 " atomic words and events hold exactly what succeeded; "
	       "every receive-consuming operation that succeeded was verified by the server "
	       "(%" PRIu64 " receives, %.2f GiB)\n",
	       words, f->receives, (double)f->bytes_received / (1u << 30));
}

static void print_errors(void)
{
	bool any = false;

	printf("errors by kind:");
	for (int k = 0; k < NUM_KINDS; k++)
		for (int e = 0; e < 64; e++)
			if (C.errors[k][e]) {
				printf(" %s %s %" PRIu64 ";", kind_names[k],
				       doca_error_get_name((doca_error_t)e), C.errors[k][e]);
				any = true;
			}
	for (int e = 0; e < 64; e++) {
		if (C.alloc_errors[e]) {
			printf(" task allocation (injected) %s %" PRIu64 ";",
			       doca_error_get_name((doca_error_t)e), C.alloc_errors[e]);
			any = true;
		}
		if (C.submit_errors[e]) {
			printf(" submit (injected) %s %" PRIu64 ";",
			       doca_error_get_name((doca_error_t)e), C.submit_errors[e]);
			any = true;
		}
	}
	printf("%s\n", any ? "" : " none");
}

int soak_client(int argc, char **argv)
{
	struct softdoca_rdma_counters c;
	struct soak_msg hdr;
	const void *body;
	size_t len;
	void *m;
	uint64_t start, end, drain_limit, next_report, next_check = 0, next_sample = 0;
	uint64_t next_recycle;
	uint64_t total_ok = 0, total_failed = 0, bytes = 0;
	bool ok = true;

	parse(argc, argv);
	C.rng = C.o.seed;
	C.tally = calloc(1, sizeof(*C.tally));
	EXPECT(C.tally, "out of memory");
	printf("client: seed %" PRIu64 " (--seed %" PRIu64 " replays the faults), %.0f s, "
	       "%d connections, depth %d, sizes 1 B - 64 MiB, fatal fault probability %.2f\n",
	       C.o.seed, C.o.seed, C.o.seconds, SOAK_CONNS, C.o.depth, C.o.doom);
	printf("client: faults here '%s', on the server '%s'\n", C.o.client_faults,
	       C.o.server_faults);
	setup();
	handshake();
	start = now_ms();
	end = start + (uint64_t)(C.o.seconds * 1000.0);
	drain_limit = end + 120000;
	soak_proc_init(&C.proc, end - start, C.o.rss_growth_mb);
	next_report = start + (uint64_t)C.o.report_s * 1000u;
	next_recycle = start + (uint64_t)(C.o.recycle_s * 1000.0);
	for (;;) {
		uint64_t t;
		bool running;

		doca_pe_progress(C.pe);
		t = now_ms();
		running = t < end;
		if (oob_ready(C.fd)) {
			m = soak_recv(C.fd, &hdr, &body, &len, 30000);
			EXPECT(hdr.type == MSG_GONE && hdr.slot < SOAK_CONNS,
			       "unexpected message '%c' from the server", hdr.type);
			slot_gone(hdr.slot, hdr.gen, body, len, running);
			free(m);
		}
		step(running);
		if (t >= next_check) {
			check_deadlines(t);
			next_check = t + 10;
		}
		/* Now and then a healthy connection is closed and replaced (the
		 * next one may get a fatal fault): fatal faults keep coming. */
		if (running && C.o.recycle_s > 0 && t >= next_recycle) {
			int i = (int)(rnd() % SOAK_CONNS);

			if (C.slots[i].st == SL_LIVE && !C.slots[i].doomed) {
				C.slots[i].st = SL_FAILING;
				C.slots[i].fail_t0 = t;
				C.slots[i].ops_at_fail = C.successes;
				C.recycled++;
			}
			next_recycle = t + (uint64_t)(C.o.recycle_s * 1000.0);
		}
		if (t >= next_sample) {
			soak_proc_sample(&C.proc);
			next_sample = t + 1000;
		}
		if (t >= next_report) {
			report("at");
			next_report = t + (uint64_t)C.o.report_s * 1000u;
		}
		if (!running && idle())
			break;
		EXPECT(t < drain_limit, "the run did not drain within 120 s of its end");
	}
	report("end");
	C.tally->max_gen = C.max_gen;
	soak_send(C.fd, MSG_END, 0, 0, C.tally, sizeof(*C.tally));
	m = soak_recv(C.fd, &hdr, &body, &len, 120000);
	EXPECT(hdr.type == MSG_FINAL && len == sizeof(struct soak_final), "expected the final");
	verify_final(body);

	for (int k = 0; k < NUM_KINDS; k++) {
		total_ok += C.ok[k];
		total_failed += C.failed[k];
		bytes += C.bytes[k];
		printf("  %-10s %10" PRIu64 " ok %8" PRIu64 " failed %10.2f GiB\n", kind_names[k],
		       C.ok[k], C.failed[k], (double)C.bytes[k] / (1u << 30));
	}
	print_errors();
	CHECK(softdoca_dev_get_counters(C.dev, &c));
	printf("client: %" PRIu64 " tasks completed exactly once (%" PRIu64 " ok, %" PRIu64
	       " failed with an error), %.2f GiB checked, 0 data errors\n",
	       C.completions, total_ok, total_failed, (double)bytes / (1u << 30));
	printf("faults injected: %" PRIu64 " here, %" PRIu64 " on the server; connections given "
	       "a fatal fault %" PRIu64 ", failed %" PRIu64 " (break %" PRIu64 ", vanish %" PRIu64
	       ", drop %" PRIu64 "), healthy ones replaced %" PRIu64 ", reconnected %" PRIu64
	       "; words settled after a failure %" PRIu64
	       ", writes read back on a later connection %" PRIu64 "\n",
	       softdoca_faults_injected(), ((const struct soak_final *)body)->faults_injected,
	       C.doomed_total, C.conn_failed[0], C.conn_failed[1], C.conn_failed[2],
	       C.conn_failed[3], C.recycled, C.reconnects, C.resolved, C.parked_readbacks);
	printf("device counters: posted %" PRIu64 ", completed %" PRIu64 ", failed %" PRIu64
	       ", timeouts %" PRIu64 ", RNR notices %" PRIu64 ", NAKs received %" PRIu64 "\n",
	       c.requests_posted, c.requests_completed, c.requests_failed, c.timeouts,
	       c.rnr_notices, c.naks_received);
	if (C.long_outages)
		printf("while a connection was failing for 1 s or more (%" PRIu64 " times), the "
		       "others completed %" PRIu64 " tasks\n",
		       C.long_outages, C.others_during_outage);
	free(m);
	/* The soft NIC's count of completions is the ledger's. */
	if (c.requests_completed != C.completions) {
		printf("FAIL: the device counted %" PRIu64 " completions, the ledger %" PRIu64 "\n",
		       c.requests_completed, C.completions);
		ok = false;
	}
	if (C.unexpected) {
		printf("FAIL: %" PRIu64 " errors on connections given no fatal fault\n",
		       C.unexpected);
		ok = false;
	}
	if (C.long_outages && C.others_during_outage == 0) {
		printf("FAIL: the other connections stood still while one failed\n");
		ok = false;
	}
	if (total_ok == 0) {
		printf("FAIL: nothing completed\n");
		ok = false;
	}
	if (!soak_proc_verdict(&C.proc, "client"))
		ok = false;

	for (int i = 0; i < SOAK_CONNS; i++)
		CHECK(doca_rdma_connection_disconnect(C.slots[i].conn));
	(void)doca_ctx_stop(doca_rdma_as_ctx(C.rdma));
	for (uint64_t t0 = now_ms();;) {
		enum doca_ctx_states st;

		CHECK(doca_ctx_get_state(doca_rdma_as_ctx(C.rdma), &st));
		if (st == DOCA_CTX_STATE_IDLE)
			break;
		EXPECT(now_ms() - t0 < 30000, "the context did not stop");
		doca_pe_progress(C.pe);
	}
	for (int i = 0; i < SOAK_CONNS; i++)
		CHECK(doca_sync_event_remote_net_destroy(C.slots[i].rev));
	CHECK(doca_rdma_destroy(C.rdma));
	CHECK(doca_pe_destroy(C.pe));
	CHECK(doca_mmap_destroy(C.remote));
	CHECK(doca_mmap_destroy(C.mmap));
	CHECK(doca_buf_inventory_destroy(C.inv));
	CHECK(doca_dev_close(C.dev));
	munmap(C.mem, C.mem_len);
	free(C.local.used);
	free(C.rwrite.used);
	free(C.tally);
	close(C.fd);
	printf("client: %s\n", ok ? "PASS" : "FAIL");
	return ok ? 0 : 1;
}
