/*
 * Fuzz target: the device-side RDMA posts (src/dpa/dev/rdma.c ->
 * src/rdma/rdma_dpa.c) with random handles, connection ids, ranges, flags
 * and call orders, on an RDMA context on the DPA data path connected to its
 * own export, over the in-process fake transport (docs/dpa.md 2.15). Kernels
 * are host code here, so the target calls doca_dpa_dev_* itself, as a
 * kernel of a fake program (an RPC's execution state is set around each
 * call, so a bad call records the DPA's last error).
 *
 * Every call is judged by a model of the rules, as RC hardware treats bad
 * posts (docs/dpa.md 2.12):
 *  - no queue to fail on (RDMA handle not live, connection id naming no
 *    connection, receive ring full): the call must stop the execution (the
 *    harness runs the posts as an RPC's execution, its sigjmp_buf set around
 *    each call, so the stop lands back here), set the last error and post
 *    nothing;
 *  - a bad work request on the live connection (flags, length, an mmap
 *    handle of the wrong kind or not registered, a range outside it, a
 *    read-only destination, a null buffer, a bad remote-net event): it must
 *    return, set the last error, and fail in its turn: the batch is handed
 *    over at once, the posts before it complete as usual, it completes
 *    with SEND_ERR, and the connection is in error (the harness read behind
 *    it is flushed with SEND_ERR). The context is then stopped (the
 *    receives left complete with RECV_ERR, counted) and started again with
 *    a new loopback connection, so fuzzing goes on;
 *  - a bad receive (an mmap handle, a range, a read-only mmap) must return
 *    and set the last error; the send or write-imm that consumes it fails
 *    (SEND_ERR, and RECV_ERR for the receive) and so does the connection:
 *    the posts before it may complete or be flushed (the loopback QP is
 *    both ends: the responder's failure flushes what the requester has not
 *    heard back of yet), in order, and those after it are flushed; the
 *    bytes the earlier ones read are not judged;
 *  - a valid call must leave the last error SUCCESS; posts are held until a
 *    FLUSH (or a full send queue), then complete: each batch is drained
 *    (a reported harness read behind it) and its completions checked -
 *    types, connection id, immediates, byte counts, wr indexes (the model
 *    counts them per connection), no error completion before a failure -
 *    and at the end of the input every byte of the buffers is compared with
 *    the model's (bytes two posts of one batch race on, as they would on
 *    hardware, are not judged).
 * Valid posts that would fail at the responder (a misaligned atomic, a send
 * bigger than the receive it lands in) or wait for ever (a send with no
 * receive) are shaped or skipped: the harness posts receives in its own
 * buffer when none is free for a send.
 *
 * Input: records of 16 bytes, one post each (at most 48); a short record is
 * zero-filled. The first byte of the input chooses the buffers' fill.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dpa.h>
#include <doca_dpa_dev.h>
#include <doca_dpa_dev_buf.h>
#include <doca_dpa_dev_rdma.h>
#include <doca_mmap.h>
#include <doca_rdma.h>
#include <doca_sync_event.h>

#include "core/dpa_sink.h"
#include "dpa/dpa.h"
#include "transport/xport.h"
#include "unit/fake_transport.h"

#include "fuzz_dev.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PERMS                                                              \
	(DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE | \
	 DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_ATOMIC)
#define SQ_SIZE 16u
#define RQ_SIZE 16u
#define COMP_SIZE 128u
#define MAX_OPS 48u
#define RECORD 16u
#define FLUSH DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH
#define OPTIMIZE DOCA_DPA_DEV_SUBMIT_FLAG_OPTIMIZE_REPORTS
#define WAIT_NS (10ull * 1000 * 1000 * 1000)
/* The harness's receives land in H[0, HARNESS_RECV); its reads in the tail. */
#define HARNESS_RECV 4096u

#define CHECK(cond, ...)                                                   \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "fuzz_dpa_post: " __VA_ARGS__);    \
			fprintf(stderr, " (%s:%d)\n", __FILE__, __LINE__); \
			abort();                                           \
		}                                                          \
	} while (0)

static void ok(doca_error_t status)
{
	if (status != DOCA_SUCCESS)
		abort(); /* the harness itself failed: not what is being fuzzed */
}

/* --- the buffers and their model --- */

enum region_id { REG_L, REG_R, REG_RO, REG_H, NUM_REGIONS };

struct region {
	uint8_t *mem;    /* what the NIC reaches */
	uint8_t *shadow; /* what it should hold */
	uint8_t *known;  /* 0: a race decided the byte, not judged */
	size_t len;
	/* the batch's race analysis */
	uint8_t *touches, *wrote, *requester;
	uint8_t *dirty; /* written by an earlier post of the batch */
	int16_t *last_op;
};

static struct region regions[NUM_REGIONS];
static const size_t region_len[NUM_REGIONS] = { 4096, 4096, 1024, HARNESS_RECV + 64 };

/* An mmap handle the posts may name. */
struct handle_info {
	uint32_t handle;
	enum region_id region;
	bool from_export;
	bool writable;
};

enum { H_L, H_R, H_RO, H_R_EXPORT, H_H, NUM_HANDLES };
static struct handle_info handles[NUM_HANDLES];

static struct doca_dev *dev;
static struct doca_dpa *dpa;
static struct doca_dpa_completion *comp;
static doca_dpa_dev_completion_t comp_handle;
static struct doca_rdma *rdma;
static struct doca_rdma *keeper;
static doca_dpa_dev_rdma_t rdma_handle;
static uint32_t conn_id;
static uint16_t conn_wr; /* the connection's next wr index */
static struct doca_sync_event *event;
static doca_dpa_dev_sync_event_remote_net_t event_handle;
static uint64_t event_model;
static struct sdoca_dpa_exec exec;

/* The program the posts pretend to come from. */
static void fuzz_kernel(void)
{
}
static const struct softdoca_dpa_kernel kernels[] = {
	{ .name = "fuzz_dpa_post",
	  .kind = SOFTDOCA_DPA_KERNEL_GLOBAL,
	  .num_args = 0,
	  .func = fuzz_kernel },
};
static const struct softdoca_dpa_kernel_table tables[] = {
	{ .source = "fuzz_dpa_post.c", .kernels = kernels, .num_kernels = 1 },
};
static const struct softdoca_dpa_app_image image = {
	.magic = SOFTDOCA_DPA_APP_MAGIC,
	.layout = SOFTDOCA_DPA_APP_LAYOUT,
	.num_tables = 1,
	.name = "fuzz_app",
	.tables = tables,
};

/* --- operations, as the model sees them --- */

enum kind {
	K_WRITE,
	K_WRITE_IMM,
	K_READ,
	K_SEND,
	K_SEND_IMM,
	K_ATOMIC,
	K_SIGNAL_SET,
	K_SIGNAL_ADD,
	K_RECEIVE,
	K_RECEIVE_ACK,
	NUM_KINDS,
	K_HARNESS_READ = NUM_KINDS,
	K_REFUSED, /* a bad work request: fails in its turn */
};

struct range {
	enum region_id region;
	size_t off;
	size_t len;
};

struct recv_entry {
	struct range buf;
	bool bad; /* refused at post time: the message consuming it fails */
};

struct op {
	enum kind kind;
	struct range local, remote;
	size_t len;
	uint64_t value;
	uint32_t imm;
	bool reported;
	bool consumer;
	uint16_t wr;            /* its wr index on the connection */
	struct recv_entry recv; /* the receive a consumer lands in */
	uint8_t *snapshot;      /* a send's payload at post time, and its known mask */
	uint8_t *snapshot_known;
};

/* Posted and not drained yet, in order. */
static struct op batch[SQ_SIZE + 1];
static unsigned int batch_len;
static unsigned int batch_consumers;
/* The batch's first failing post (a refused one, or a consumer of a bad
 * receive); batch_len when none. fail_remote: the latter (the posts
 * before it may be flushed too). */
static unsigned int fail_at = ~0u;
static bool fail_remote;
/* Receives posted and not consumed, in order (the context's shared queue). */
static struct recv_entry fifo[RQ_SIZE];
static unsigned int fifo_len;
static uint64_t recv_done, recv_acked;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static const struct handle_info *lookup(uint32_t h)
{
	for (int i = 0; i < NUM_HANDLES; i++)
		if (handles[i].handle == h)
			return &handles[i];
	return NULL;
}

/* addr+len inside the handle's region, of the kind wanted: the range. */
static bool in_mmap(uint32_t h, uint64_t addr, uint64_t len, bool want_export, bool want_write,
                    struct range *out)
{
	const struct handle_info *hi = lookup(h);
	const struct region *r;
	uint64_t base;

	if (!hi || hi->from_export != want_export || (want_write && !hi->writable))
		return false;
	r = &regions[hi->region];
	base = (uint64_t)(uintptr_t)r->mem;
	if (addr < base || len > r->len || addr - base > r->len - len)
		return false;
	*out = (struct range){ hi->region, (size_t)(addr - base), (size_t)len };
	return true;
}

/* --- calling a device post as a kernel would --- */

static void reset_error(void)
{
	atomic_store(&dpa->last_error, DOCA_SUCCESS);
}

/* Runs a device call as the harness's execution: stopped says whether it
 * stopped the execution (siglongjmp to exec.entry) rather than return. */
static bool stopped;
#define CALL(stmt)                                   \
	do {                                         \
		stopped = true;                      \
		if (sigsetjmp(exec.entry, 0) == 0) { \
			stmt;                        \
			stopped = false;             \
		}                                    \
	} while (0)

static void expect_stop(bool stop, const char *what)
{
	if (stop)
		CHECK(stopped && exec.abort_error != DOCA_SUCCESS,
		      "%s with no queue did not stop the execution", what);
	else
		CHECK(!stopped, "%s stopped the execution (%s)", what,
		      doca_error_get_name(exec.abort_error));
	exec.abort_error = DOCA_SUCCESS;
}

static void expect_error(bool valid, const char *what)
{
	doca_error_t err = doca_dpa_peek_at_last_error(dpa);

	if (valid)
		CHECK(err == DOCA_SUCCESS, "valid %s set the last error %s", what,
		      doca_error_get_name(err));
	else
		CHECK(err != DOCA_SUCCESS, "invalid %s left the last error SUCCESS", what);
}

/* --- completions --- */

static const struct sdoca_dpa_cqe *next_cqe(uint64_t deadline)
{
	doca_dpa_dev_completion_element_t e;

	for (;;) {
		if (doca_dpa_dev_get_completion(comp_handle, &e))
			return (const struct sdoca_dpa_cqe *)(uintptr_t)e;
		CHECK(now_ns() < deadline, "a batch did not complete within 10 s");
		sched_yield();
	}
}

/* --- applying a drained batch to the model --- */

static void touch(unsigned int op_index, const struct range *rg, bool write, bool requester)
{
	struct region *r = &regions[rg->region];

	for (size_t i = rg->off; i < rg->off + rg->len; i++) {
		if (r->last_op[i] != (int16_t)op_index) {
			r->last_op[i] = (int16_t)op_index;
			if (r->touches[i] < 255)
				r->touches[i]++;
		}
		r->wrote[i] |= write;
		r->requester[i] |= requester;
	}
}

/* A byte two posts of the batch reach, one of them writing and one of them
 * from the requester's side (a write's source, a read's destination): its
 * outcome depends on timing, as on hardware. Responder-side accesses happen
 * in order. */
static bool racy(enum region_id id, size_t i)
{
	const struct region *r = &regions[id];

	return r->touches[i] >= 2 && r->wrote[i] && r->requester[i];
}

static void copy_model(const struct range *dst, const struct range *src, size_t len)
{
	struct region *d = &regions[dst->region], *s = &regions[src->region];
	uint8_t tmp[8192], tmpk[8192];

	for (size_t i = 0; i < len; i++) {
		tmp[i] = s->shadow[src->off + i];
		tmpk[i] = s->known[src->off + i] && !racy(src->region, src->off + i);
	}
	for (size_t i = 0; i < len; i++) {
		d->shadow[dst->off + i] = tmp[i];
		d->known[dst->off + i] = tmpk[i] && !racy(dst->region, dst->off + i);
		d->dirty[dst->off + i] = 1;
	}
}

/* Applies the posts before the batch's failure (the rest never ran). */
static void apply_batch(void)
{
	unsigned int n = fail_at < batch_len ? fail_at : batch_len;

	for (int k = 0; k < NUM_REGIONS; k++) {
		struct region *r = &regions[k];

		memset(r->touches, 0, r->len);
		memset(r->wrote, 0, r->len);
		memset(r->requester, 0, r->len);
		memset(r->dirty, 0, r->len);
		memset(r->last_op, 0xff, r->len * sizeof(*r->last_op));
	}
	for (unsigned int i = 0; i < n; i++) {
		struct op *o = &batch[i];

		switch (o->kind) {
		case K_WRITE:
		case K_WRITE_IMM:
			touch(i, &o->local, false, true);
			touch(i, &o->remote, true, false);
			break;
		case K_READ:
		case K_HARNESS_READ:
			touch(i, &o->remote, false, false);
			touch(i, &o->local, true, true);
			break;
		case K_SEND:
		case K_SEND_IMM:
			touch(i, &(struct range){ o->recv.buf.region, o->recv.buf.off, o->len },
			      true, false);
			break;
		case K_ATOMIC:
			touch(i, &o->remote, true, false);
			break;
		default:
			break;
		}
	}
	for (unsigned int i = 0; i < n; i++) {
		struct op *o = &batch[i];
		struct region *r;

		switch (o->kind) {
		case K_WRITE:
		case K_WRITE_IMM:
			copy_model(&o->remote, &o->local, o->len);
			break;
		case K_READ:
		case K_HARNESS_READ:
			copy_model(&o->local, &o->remote, o->len);
			/* Its response may have come after the connection failed. */
			if (fail_remote)
				memset(regions[o->local.region].known + o->local.off, 0, o->len);
			break;
		case K_SEND:
		case K_SEND_IMM: {
			/* The payload was taken at post time; a full send queue may
			 * have flushed the posts before it by then (take_send_slot),
			 * so bytes they write are not judged. */
			const struct region *src = &regions[o->local.region];

			r = &regions[o->recv.buf.region];
			for (size_t j = 0; j < o->len; j++) {
				size_t at = o->recv.buf.off + j;

				r->shadow[at] = o->snapshot[j];
				r->known[at] = o->snapshot_known[j] &&
				               !src->dirty[o->local.off + j] &&
				               !racy(o->recv.buf.region, at);
				r->dirty[at] = 1;
			}
			break;
		}
		case K_ATOMIC: {
			uint64_t v;
			bool known = true;

			r = &regions[REG_R];
			for (size_t j = o->remote.off; j < o->remote.off + 8; j++)
				known = known && r->known[j] && !racy(REG_R, j);
			memcpy(&v, r->shadow + o->remote.off, 8);
			v += o->value;
			memcpy(r->shadow + o->remote.off, &v, 8);
			for (size_t j = o->remote.off; j < o->remote.off + 8; j++) {
				r->known[j] = known;
				r->dirty[j] = 1;
			}
			break;
		}
		case K_SIGNAL_SET:
			event_model = o->value;
			break;
		case K_SIGNAL_ADD:
			event_model += o->value;
			break;
		default:
			break;
		}
	}
}

static void reset_context(void);

/* Appends a post that took the connection's next wr index. */
static void append(struct op *o)
{
	o->wr = conn_wr++;
	batch[batch_len++] = *o;
}

/* The batch fails at post i (if it does not already, earlier). */
static void fail_batch(unsigned int i, bool remote)
{
	if (fail_at > i) {
		fail_at = i;
		fail_remote = remote;
	}
}

/* Flushes what is held (a reported read behind it), waits for the batch's
 * completions and checks them, then applies the batch to the model. A
 * batch that failed leaves the connection in error: the context is
 * restarted with a new one. */
static void drain(void)
{
	static const uint32_t recv_types[] = {
		[K_SEND] = DOCA_DPA_DEV_COMP_RECV_SEND,
		[K_SEND_IMM] = DOCA_DPA_DEV_COMP_RECV_SEND_IMM,
		[K_WRITE_IMM] = DOCA_DPA_DEV_COMP_RECV_RDMA_WRITE_IMM,
	};
	struct region *h = &regions[REG_H];
	unsigned int recv_at = 0, recv_want = 0, consumed = 0;
	int prev = -1;
	bool errored = false, failed;
	uint64_t deadline;

	append(&(struct op){
	        .kind = K_HARNESS_READ,
	        .local = { REG_H, HARNESS_RECV, 8 },
	        .remote = { REG_R, 0, 8 },
	        .len = 8,
	        .reported = true,
	});
	reset_error();
	CALL(doca_dpa_dev_rdma_post_read(rdma_handle, conn_id, handles[H_H].handle,
	                                 (uint64_t)(uintptr_t)h->mem + HARNESS_RECV,
	                                 handles[H_R_EXPORT].handle,
	                                 (uint64_t)(uintptr_t)regions[REG_R].mem, 8, FLUSH));
	expect_stop(false, "harness read");
	expect_error(true, "harness read");
	failed = fail_at < batch_len;

	/* Receives completed: those of the consumers before the failure, and
	 * the bad one its consumer met. */
	for (unsigned int i = 0; i < batch_len && i < fail_at; i++)
		recv_want += batch[i].consumer;
	consumed = recv_want + (failed && fail_remote);
	deadline = now_ns() + WAIT_NS;
	while (prev < (int)batch_len - 1 || recv_at < consumed) {
		const struct sdoca_dpa_cqe *c = next_cqe(deadline);

		CHECK(c->user_data == conn_id, "completion user data 0x%x, connection id 0x%x",
		      c->user_data, conn_id);
		if (c->type == DOCA_DPA_DEV_COMP_SEND || c->type == DOCA_DPA_DEV_COMP_SEND_ERR) {
			unsigned int i = (uint16_t)(c->wr_index - batch[0].wr);

			CHECK(i < batch_len && (int)i > prev,
			      "wr index %u: post %u of a batch of %u, after %d", c->wr_index, i,
			      batch_len, prev);
			/* The posts it passed completed silently: unreported
			 * successes, before any error. */
			for (unsigned int j = (unsigned int)(prev + 1); j < i; j++)
				CHECK(!batch[j].reported && j < fail_at && !errored,
				      "post %u (kind %d, reported %d) raised no completion "
				      "(failure "
				      "at %u)",
				      j, batch[j].kind, batch[j].reported, fail_at);
			if (c->type == DOCA_DPA_DEV_COMP_SEND) {
				CHECK(i < fail_at && !errored && batch[i].reported,
				      "post %u (kind %d) completed with SEND (failure at %u)", i,
				      batch[i].kind, fail_at);
			} else {
				CHECK(i >= fail_at || (fail_remote && i < fail_at),
				      "post %u (kind %d) completed with SEND_ERR, syndrome %s "
				      "(failure at %u)",
				      i, batch[i].kind, doca_error_get_name(c->syndrome), fail_at);
				CHECK(c->syndrome != DOCA_SUCCESS, "SEND_ERR without a syndrome");
				errored = true;
			}
			prev = (int)i;
		} else {
			unsigned int i = 0, n = 0;

			for (; i < batch_len; i++)
				if (batch[i].consumer && n++ == recv_at)
					break;
			CHECK(i < batch_len && i <= fail_at,
			      "more receive completions than sends that ran (%u)", consumed);
			if (i == fail_at) {
				CHECK(c->type == DOCA_DPA_DEV_COMP_RECV_ERR,
				      "a bad receive completed with type 0x%x", c->type);
			} else {
				CHECK(c->type == recv_types[batch[i].kind],
				      "receive completion type 0x%x for post kind %d", c->type,
				      batch[i].kind);
				if (batch[i].kind != K_SEND)
					CHECK(c->immediate == batch[i].imm,
					      "immediate 0x%x, posted 0x%x", c->immediate,
					      batch[i].imm);
				if (batch[i].kind != K_WRITE_IMM)
					CHECK(c->byte_count == batch[i].len,
					      "received %u bytes of %zu", c->byte_count,
					      batch[i].len);
			}
			recv_at++;
		}
		doca_dpa_dev_completion_ack(comp_handle, 1);
	}
	CHECK(errored == failed, "a batch %s an error completion",
	      failed ? "that failed raised no" : "with no failure raised");
	expect_error(true, "completion polling");
	apply_batch();
	for (unsigned int i = 0; i < batch_len; i++) {
		free(batch[i].snapshot);
		free(batch[i].snapshot_known);
	}
	/* The consumed receives leave the queue. */
	memmove(fifo, fifo + consumed, (fifo_len - consumed) * sizeof(*fifo));
	fifo_len -= consumed;
	recv_done += consumed;
	batch_len = 0;
	batch_consumers = 0;
	fail_at = ~0u;
	fail_remote = false;
	if (failed)
		reset_context();
}

/* The receive the next consumer lands in: a harness one if none is free;
 * NULL when the receive queue is full. */
static struct recv_entry *claim_receive(void)
{
	if (fifo_len <= batch_consumers) {
		if (fifo_len == RQ_SIZE)
			return NULL;
		reset_error();
		CALL(doca_dpa_dev_rdma_post_receive(rdma_handle, handles[H_H].handle,
		                                    (uint64_t)(uintptr_t)regions[REG_H].mem,
		                                    HARNESS_RECV));
		expect_stop(false, "harness receive");
		expect_error(true, "harness receive");
		fifo[fifo_len++] = (struct recv_entry){ { REG_H, 0, HARNESS_RECV }, false };
	}
	return &fifo[batch_consumers];
}

/* --- one input --- */

struct reader {
	const uint8_t *p;
	size_t left;
};

static uint8_t u8(struct reader *r)
{
	if (!r->left)
		return 0;
	r->left--;
	return *r->p++;
}

static uint16_t u16(struct reader *r)
{
	return (uint16_t)(u8(r) | u8(r) << 8);
}

static uint64_t rdma_of(uint8_t sel)
{
	switch (sel >> 5) {
	case 7:
		return sel & 1 ? 0 : rdma_handle ^ (1ull << 32); /* none; a stale generation */
	case 6:
		return sel & 1 ? rdma_handle + 1 : (uint64_t)sel << 56 | sel; /* empty slot; junk */
	default:
		return rdma_handle;
	}
}

static uint32_t conn_of(uint8_t sel)
{
	switch (sel >> 5) {
	case 7:
		return sel & 1 ? conn_id ^ 0x10000u : conn_id + 1; /* stale; unused slot */
	case 6:
		return sel & 1 ? 0xffffffffu : (uint32_t)sel << 16 | sel;
	default:
		return conn_id;
	}
}

static uint32_t flags_of(uint8_t sel)
{
	uint32_t f = sel & 3;

	return sel >= 0xf0 ? f | 1u << (2 + (sel & 0x0f) % 30) : f;
}

/* An mmap handle and an address: mostly in or near a buffer. */
static void local_of(uint8_t sel, uint16_t off, uint16_t junk, uint32_t *h, uint64_t *addr)
{
	static const int pick[8] = { H_L, H_L, H_L, H_R, H_RO, H_R_EXPORT, -1, -2 };
	int k = pick[sel & 7];
	const struct region *r = &regions[k >= 0 ? handles[k].region : REG_L];

	*h = k >= 0 ? handles[k].handle : k == -1 ? 0 : (uint32_t)junk << 8 | sel;
	*addr = (uint64_t)(uintptr_t)r->mem + off % (r->len + 64);
	if (sel & 0x80)
		*addr = (uint64_t)junk << 48 | (uint64_t)junk << 16 | off;
}

static void remote_of(uint8_t sel, uint16_t off, uint16_t junk, uint32_t *h, uint64_t *addr)
{
	static const int pick[8] = { H_R_EXPORT, H_R_EXPORT, H_R_EXPORT, H_R_EXPORT,
		                     H_R_EXPORT, H_R,        -1,         -2 };
	int k = pick[sel & 7];

	*h = k >= 0 ? handles[k].handle : k == -1 ? 0 : (uint32_t)junk << 4 | sel;
	*addr = (uint64_t)(uintptr_t)regions[REG_R].mem + off % (regions[REG_R].len + 64);
	if (sel & 0x80)
		*addr = (uint64_t)junk << 40 | off;
}

static uint64_t length_of(uint8_t sel, uint16_t len)
{
	if (sel & 0x40)
		return (1ull << 31) + 1 + len; /* beyond the 2 GiB limit */
	return len % 4160u;
}

static void snapshot(struct op *o)
{
	const struct region *r = &regions[o->local.region];

	o->snapshot = malloc(o->len ? o->len : 1);
	o->snapshot_known = malloc(o->len ? o->len : 1);
	if (!o->snapshot || !o->snapshot_known)
		abort();
	memcpy(o->snapshot, r->shadow + o->local.off, o->len);
	memcpy(o->snapshot_known, r->known + o->local.off, o->len);
}

/* One post: generated from a record, judged, called, its error checked,
 * and if valid added to the batch (drained when it flushed). */
static void one_op(struct reader *in)
{
	enum kind kind = (enum kind)(u8(in) % NUM_KINDS);
	uint8_t rsel = u8(in), csel = u8(in), fsel = u8(in), lsel = u8(in), msel = u8(in);
	uint16_t loff = u16(in), roff = u16(in), len16 = u16(in), junk = u16(in);
	uint8_t xsel = u8(in), bsel = u8(in);
	uint64_t rh = rdma_of(rsel), laddr, raddr, len = length_of(msel, len16);
	uint32_t cid = conn_of(csel), flags = flags_of(fsel), lh, remh;
	uint32_t imm = (uint32_t)junk << 16 | len16;
	uint64_t value = (uint64_t)junk << 32 | roff;
	struct op o = { .kind = kind, .len = len, .imm = imm, .value = value };
	bool base_ok = rh == rdma_handle, valid, stop, use_buf = (bsel & 3) == 1,
	     null_buf = bsel == 0xff;
	struct doca_dpa_dev_buf lbuf, rbuf;
	struct recv_entry *re = NULL;

	local_of(lsel, loff, junk, &lh, &laddr);
	remote_of(msel, roff, junk, &remh, &raddr);
	if (kind == K_ATOMIC && !(xsel & 1))
		raddr &= ~7ull; /* mostly aligned: a misaligned one fails at the responder */

	switch (kind) {
	case K_RECEIVE:
		/* No free slot: nothing to fail on. A bad buffer: the receive
		 * is queued, and fails the message that consumes it. */
		stop = !base_ok || fifo_len == RQ_SIZE;
		valid = !null_buf && len <= (1ull << 31) &&
		        in_mmap(lh, laddr, len, false, true, &o.local);
		reset_error();
		if (use_buf || null_buf) {
			lbuf = (struct doca_dpa_dev_buf){ .addr = laddr, .len = len, .mmap = lh };
			CALL(doca_dpa_dev_rdma_post_buf_receive(rh,
			                                        null_buf ? 0 : (uintptr_t)&lbuf));
		} else {
			CALL(doca_dpa_dev_rdma_post_receive(rh, lh, laddr, len));
		}
		expect_stop(stop, "receive");
		expect_error(!stop && valid, "receive");
		if (!stop)
			fifo[fifo_len++] = (struct recv_entry){ o.local, !valid };
		return;
	case K_RECEIVE_ACK: {
		uint32_t n = xsel % 4;

		stop = !base_ok;
		valid = recv_acked + n <= recv_done;
		reset_error();
		CALL(doca_dpa_dev_rdma_receive_ack(rh, n));
		expect_stop(stop, "receive_ack");
		expect_error(!stop && valid, "receive_ack");
		if (!stop && valid)
			recv_acked += n;
		return;
	}
	case K_SIGNAL_SET:
	case K_SIGNAL_ADD: {
		uint64_t ev = xsel & 1 ? (xsel & 2 ? 0 : event_handle ^ value) : event_handle;

		stop = !base_ok || cid != conn_id;
		valid = ev == event_handle;
		reset_error();
		if (kind == K_SIGNAL_SET)
			CALL(doca_dpa_dev_rdma_signal_set(rh, cid, ev, value));
		else
			CALL(doca_dpa_dev_rdma_signal_add(rh, cid, ev, value));
		expect_stop(stop, "signal");
		expect_error(!stop && valid, "signal");
		if (stop)
			return;
		if (!valid) {
			o.kind = K_REFUSED;
			fail_batch(batch_len, false);
		}
		o.reported = !valid; /* signals raise no completion, errors do; they flush */
		append(&o);
		drain();
		return;
	}
	default:
		break;
	}

	/* No live connection: nothing to fail on. An atomic has no length. */
	stop = !base_ok || cid != conn_id;
	valid = (flags & ~3u) == 0 && (kind == K_ATOMIC || len <= (1ull << 31)) && !null_buf;
	switch (kind) {
	case K_WRITE:
	case K_WRITE_IMM:
		valid = valid && in_mmap(lh, laddr, len, false, false, &o.local) &&
		        in_mmap(remh, raddr, len, true, false, &o.remote);
		break;
	case K_READ:
		valid = valid && in_mmap(lh, laddr, len, false, true, &o.local) &&
		        in_mmap(remh, raddr, len, true, false, &o.remote);
		break;
	case K_SEND:
	case K_SEND_IMM:
		valid = valid && in_mmap(lh, laddr, len, false, false, &o.local);
		break;
	case K_ATOMIC:
		valid = valid && in_mmap(remh, raddr, 8, true, false, &o.remote);
		if (valid && (raddr & 7))
			return; /* valid here, refused by the responder: would break the QP */
		break;
	default:
		abort();
	}
	o.consumer = kind == K_SEND || kind == K_SEND_IMM || kind == K_WRITE_IMM;
	if (!stop && valid && o.consumer) {
		re = claim_receive();
		if (!re)
			return; /* the receive queue is full: the send would wait */
		if (kind != K_WRITE_IMM && len > re->buf.len)
			o.len = len = o.local.len = re->buf.len; /* a larger one is a RECV_ERR */
		o.recv = *re;
		if (re->bad)
			fail_batch(batch_len, true);
	}
	if (!stop && valid && (kind == K_SEND || kind == K_SEND_IMM))
		snapshot(&o);

	lbuf = (struct doca_dpa_dev_buf){ .addr = laddr, .len = len, .mmap = lh };
	rbuf = (struct doca_dpa_dev_buf){ .addr = raddr, .len = len, .mmap = remh };
	reset_error();
	if (use_buf || null_buf) {
		doca_dpa_dev_buf_t lb = null_buf && (xsel & 2) ? 0 : (uintptr_t)&lbuf;
		doca_dpa_dev_buf_t rb = null_buf && !(xsel & 2) ? 0 : (uintptr_t)&rbuf;

		switch (kind) {
		case K_WRITE:
			CALL(doca_dpa_dev_rdma_post_buf_write(rh, cid, rb, lb, flags));
			break;
		case K_WRITE_IMM:
			CALL(doca_dpa_dev_rdma_post_buf_write_imm(rh, cid, rb, lb, imm, flags));
			break;
		case K_READ:
			CALL(doca_dpa_dev_rdma_post_buf_read(rh, cid, lb, rb, flags));
			break;
		case K_SEND:
			CALL(doca_dpa_dev_rdma_post_buf_send(rh, cid, null_buf ? 0 : lb, flags));
			break;
		case K_SEND_IMM:
			CALL(doca_dpa_dev_rdma_post_buf_send_imm(rh, cid, null_buf ? 0 : lb, imm,
			                                         flags));
			break;
		default:
			CALL(doca_dpa_dev_rdma_post_buf_atomic_fetch_add(rh, cid, null_buf ? 0 : rb,
			                                                 value, flags));
			break;
		}
	} else {
		switch (kind) {
		case K_WRITE:
			CALL(doca_dpa_dev_rdma_post_write(rh, cid, remh, raddr, lh, laddr, len,
			                                  flags));
			break;
		case K_WRITE_IMM:
			CALL(doca_dpa_dev_rdma_post_write_imm(rh, cid, remh, raddr, lh, laddr, len,
			                                      imm, flags));
			break;
		case K_READ:
			CALL(doca_dpa_dev_rdma_post_read(rh, cid, lh, laddr, remh, raddr, len,
			                                 flags));
			break;
		case K_SEND:
			CALL(doca_dpa_dev_rdma_post_send(rh, cid, lh, laddr, len, flags));
			break;
		case K_SEND_IMM:
			CALL(doca_dpa_dev_rdma_post_send_imm(rh, cid, lh, laddr, len, imm, flags));
			break;
		default:
			CALL(doca_dpa_dev_rdma_post_atomic_fetch_add(rh, cid, remh, raddr, value,
			                                             flags));
			break;
		}
	}
	expect_stop(stop, "post");
	expect_error(!stop && valid, "post");
	if (stop)
		return;
	if (!valid) {
		/* Handed over at once with the posts held before it; it fails
		 * there, and so does the connection. */
		o.kind = K_REFUSED;
		o.reported = true;
		o.consumer = false;
		fail_batch(batch_len, false);
		append(&o);
		drain();
		return;
	}
	o.reported = !(flags & OPTIMIZE);
	append(&o);
	batch_consumers += o.consumer;
	if ((flags & FLUSH) || batch_len == SQ_SIZE)
		drain();
}

/* Sends nothing into each receive still queued, so the next input starts
 * with none. */
static void drain_receives(void)
{
	while (fifo_len > 0) {
		unsigned int n = fifo_len;

		for (unsigned int i = 0; i < n && batch_len < SQ_SIZE - 1; i++) {
			struct op o = { .kind = K_SEND, .reported = true, .consumer = true };

			o.recv = fifo[batch_consumers];
			o.local = (struct range){ REG_L, 0, 0 };
			if (o.recv.bad)
				fail_batch(batch_len, true);
			snapshot(&o);
			reset_error();
			CALL(doca_dpa_dev_rdma_post_send(rdma_handle, conn_id, handles[H_L].handle,
			                                 (uint64_t)(uintptr_t)regions[REG_L].mem, 0,
			                                 0));
			expect_stop(false, "harness send");
			expect_error(true, "harness send");
			append(&o);
			batch_consumers++;
		}
		drain();
	}
}

static void check_memory(void)
{
	uint64_t v;

	for (int k = 0; k < NUM_REGIONS; k++) {
		const struct region *r = &regions[k];
		size_t end = k == REG_H ? HARNESS_RECV : r->len;

		for (size_t i = 0; i < end; i++)
			CHECK(!r->known[i] || r->mem[i] == r->shadow[i],
			      "region %d byte %zu is 0x%02x, the model says 0x%02x", k, i,
			      r->mem[i], r->shadow[i]);
	}
	ok(doca_sync_event_get(event, &v));
	CHECK(v == event_model, "the signalled event holds %llu, the model says %llu",
	      (unsigned long long)v, (unsigned long long)event_model);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reader in = { data, size };
	uint8_t fill = u8(&in);

	for (int k = 0; k < NUM_REGIONS; k++) {
		struct region *r = &regions[k];

		if (k == REG_RO)
			continue; /* never written: its fill stays */
		for (size_t i = 0; i < r->len; i++)
			r->mem[i] = (uint8_t)(fill + i * 7 + (size_t)k * 31);
		memcpy(r->shadow, r->mem, r->len);
		memset(r->known, 1, r->len);
	}
	ok(doca_sync_event_get(event, &event_model));
	sdoca_dpa_exec = &exec;
	for (unsigned int n = 0; n < MAX_OPS && in.left > 0; n++)
		one_op(&in);
	drain();
	drain_receives();
	sdoca_dpa_exec = NULL;
	check_memory();
	return 0;
}

/* --- the loopback set-up --- */

/* Starts the context and connects it to its own export. */
static void start_loopback(void)
{
	struct doca_rdma_connection *conn;
	const void *blob;
	size_t blob_len;

	ok(doca_ctx_start(doca_rdma_as_ctx(rdma)));
	ok(doca_rdma_get_dpa_handle(rdma, &rdma_handle));
	ok(doca_rdma_export(rdma, &blob, &blob_len, &conn));
	ok(doca_rdma_connect(rdma, blob, blob_len, conn)); /* to its own export */
	ok(doca_rdma_connection_get_id(conn, &conn_id));
	conn_wr = 0;
}

/* After a failure: the connection is in error. Stops the context (the
 * receives still queued complete with RECV_ERR, counted) and starts it
 * again with a new loopback connection and new handles. */
static void reset_context(void)
{
	doca_dpa_dev_completion_element_t e;
	unsigned int flushed = 0;

	ok(doca_ctx_stop(doca_rdma_as_ctx(rdma)));
	while (doca_dpa_dev_get_completion(comp_handle, &e)) {
		const struct sdoca_dpa_cqe *c = (const struct sdoca_dpa_cqe *)(uintptr_t)e;

		CHECK(c->type == DOCA_DPA_DEV_COMP_RECV_ERR,
		      "the stop raised completion type 0x%x (receives only: RECV_ERR)", c->type);
		flushed++;
		doca_dpa_dev_completion_ack(comp_handle, 1);
	}
	CHECK(flushed == fifo_len, "the stop flushed %u receives, %u were queued", flushed,
	      fifo_len);
	fifo_len = 0;
	recv_done = recv_acked = 0;
	start_loopback();
}

static uint32_t mmap_handle(struct doca_mmap *m)
{
	doca_dpa_dev_mmap_t h = 0;

	ok(doca_mmap_dev_get_dpa_handle(m, dev, &h));
	return h;
}

static struct doca_mmap *mmap_over(struct region *r, uint32_t access)
{
	struct doca_mmap *m;

	ok(doca_mmap_create(&m));
	ok(doca_mmap_set_memrange(m, r->mem, r->len));
	ok(doca_mmap_add_dev(m, dev));
	ok(doca_mmap_set_permissions(m, access));
	ok(doca_mmap_start(m));
	return m;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct doca_sync_event_remote_net *remote_event;
	struct doca_mmap *r_mmap, *r_export;
	const void *blob;
	const uint8_t *ev_blob;
	size_t blob_len, ev_len;

	(void)argc;
	(void)argv;
	xport_set_ops_for_tests(&fake_xport_ops);
	dev = fuzz_open_dev(); /* any: the fake transport needs no network */
	for (int k = 0; k < NUM_REGIONS; k++) {
		struct region *r = &regions[k];

		r->len = region_len[k];
		r->mem = aligned_alloc(64, (r->len + 63) / 64 * 64);
		r->shadow = malloc(r->len);
		r->known = malloc(r->len);
		r->touches = malloc(r->len);
		r->wrote = malloc(r->len);
		r->requester = malloc(r->len);
		r->last_op = malloc(r->len * sizeof(*r->last_op));
		r->dirty = malloc(r->len);
		if (!r->mem || !r->shadow || !r->known || !r->touches || !r->wrote ||
		    !r->requester || !r->last_op || !r->dirty)
			abort();
		memset(r->mem, 0x5a, r->len);
	}

	ok(doca_dpa_create(dev, &dpa));
	ok(doca_dpa_set_app(dpa, (struct doca_dpa_app *)(uintptr_t)&image));
	ok(doca_dpa_start(dpa));
	exec = (struct sdoca_dpa_exec){
		.dpa = dpa, .selected = dpa, .kernel = &kernels[0], .num_threads = 1
	};
	/* Polled: completions are read by the harness, no DPA thread. */
	ok(doca_dpa_completion_create(dpa, COMP_SIZE, &comp));
	ok(doca_dpa_completion_start(comp));
	ok(doca_dpa_completion_get_dpa_handle(comp, &comp_handle));

	ok(doca_rdma_create(dev, &rdma));
	ok(doca_rdma_set_permissions(rdma, PERMS));
	ok(doca_rdma_set_send_queue_size(rdma, SQ_SIZE));
	ok(doca_rdma_set_recv_queue_size(rdma, RQ_SIZE));
	ok(doca_rdma_set_max_num_connections(rdma, 2));
	ok(doca_ctx_set_datapath_on_dpa(doca_rdma_as_ctx(rdma), dpa));
	ok(doca_rdma_dpa_completion_attach(rdma, comp));
	start_loopback();
	/* A second context, never stopped, keeps the soft NIC's service thread
	 * alive across reset_context: a service thread started inside an input
	 * holds its work list in a fresh allocation LeakSanitizer took for a
	 * leak. */
	ok(doca_rdma_create(dev, &keeper));
	ok(doca_ctx_set_datapath_on_dpa(doca_rdma_as_ctx(keeper), dpa));
	ok(doca_ctx_start(doca_rdma_as_ctx(keeper)));

	handles[H_L] = (struct handle_info){ mmap_handle(mmap_over(&regions[REG_L], PERMS)), REG_L,
		                             false, true };
	r_mmap = mmap_over(&regions[REG_R], PERMS);
	handles[H_R] = (struct handle_info){ mmap_handle(r_mmap), REG_R, false, true };
	handles[H_RO] = (struct handle_info){
		mmap_handle(mmap_over(&regions[REG_RO], DOCA_ACCESS_FLAG_LOCAL_READ_ONLY)), REG_RO,
		false, false
	};
	ok(doca_mmap_export_rdma(r_mmap, dev, &blob, &blob_len));
	ok(doca_mmap_create_from_export(NULL, blob, blob_len, dev, &r_export));
	handles[H_R_EXPORT] = (struct handle_info){ mmap_handle(r_export), REG_R, true, false };
	handles[H_H] = (struct handle_info){ mmap_handle(mmap_over(&regions[REG_H], PERMS)), REG_H,
		                             false, true };
	/* RO keeps its first fill for good (nothing may write it). */
	memcpy(regions[REG_RO].shadow, regions[REG_RO].mem, regions[REG_RO].len);
	memset(regions[REG_RO].known, 1, regions[REG_RO].len);

	ok(doca_sync_event_create(&event));
	ok(doca_sync_event_add_publisher_location_remote_net(event));
	ok(doca_sync_event_add_subscriber_location_cpu(event, dev));
	ok(doca_sync_event_start(event));
	ok(doca_sync_event_export_to_remote_net(event, &ev_blob, &ev_len));
	ok(doca_sync_event_remote_net_create_from_export(dev, ev_blob, ev_len, &remote_event));
	ok(doca_sync_event_remote_net_get_dpa_handle(remote_event, dpa, &event_handle));
	return 0;
}
