/*
 * softdoca tests: the soft NIC when messages arrive out of order. UCX can
 * hand a message over before an earlier one it had to queue; here the fake
 * transport (fake_transport.c) hands the next two messages to a worker over
 * swapped, and the operations must still complete in submission order, with
 * the right bytes, and leave the connection working.
 *
 * Side A reads and writes the memory of side B; each side has its own
 * progress engine, so its own soft-NIC worker (and transport worker). Also
 * here: an ACK that rides on the peer's request is applied later than the
 * request it came with, but never lost, and before a flush; and a refused
 * request (NAK) fails only itself and what comes after it, never a request
 * before it whose answer the NAK overtook or whose payload still lands.
 */
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>

#include "unit/fake_transport.h"
#include "unit/testing.h"

#define MEM 8192
#define PART 1024
#define ACCESS                                                            \
	(DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | \
	 DOCA_ACCESS_FLAG_RDMA_WRITE)

struct side {
	struct doca_pe *pe;
	struct doca_rdma *rdma;
	struct doca_rdma_connection *conn;
	const void *blob;
	size_t blob_len;
	struct doca_mmap *mmap;
	uint8_t mem[MEM];
};

static struct {
	struct doca_dev *dev;
	struct side a, b;
	struct doca_mmap *remote; /* B's memory, as A imported it */
	struct doca_buf_inventory *inv;
	unsigned int worker_a, worker_b; /* the fake transport's indices */
	int done;
	int order[4];
	doca_error_t status[4];
	/* if set: whether task 0's bytes were in B's memory when it completed */
	const uint8_t *want0;
	size_t want0_at;
	bool landed0;
} t;

static void completed(struct doca_task *task, union doca_data ud)
{
	t.status[ud.u64] = doca_task_get_status(task);
	t.order[t.done++] = (int)ud.u64;
	if (ud.u64 == 0 && t.want0)
		t.landed0 = memcmp(t.b.mem + t.want0_at, t.want0, PART) == 0;
}

static void read_done(struct doca_rdma_task_read *task, union doca_data ud, union doca_data cud)
{
	(void)cud;
	completed(doca_rdma_task_read_as_task(task), ud);
}

static void write_done(struct doca_rdma_task_write *task, union doca_data ud, union doca_data cud)
{
	(void)cud;
	completed(doca_rdma_task_write_as_task(task), ud);
}

static void side_start(struct side *s)
{
	assert_doca_ok(doca_pe_create(&s->pe));
	assert_doca_ok(doca_rdma_create(t.dev, &s->rdma));
	assert_doca_ok(doca_rdma_set_permissions(s->rdma, ACCESS));
	assert_doca_ok(doca_rdma_task_read_set_conf(s->rdma, read_done, read_done, 4));
	assert_doca_ok(doca_rdma_task_write_set_conf(s->rdma, write_done, write_done, 4));
	assert_doca_ok(doca_pe_connect_ctx(s->pe, doca_rdma_as_ctx(s->rdma)));
	assert_doca_ok(doca_ctx_start(doca_rdma_as_ctx(s->rdma)));
	assert_doca_ok(doca_rdma_export(s->rdma, &s->blob, &s->blob_len, &s->conn));
	assert_doca_ok(doca_mmap_create(&s->mmap));
	assert_doca_ok(doca_mmap_set_memrange(s->mmap, s->mem, MEM));
	assert_doca_ok(doca_mmap_set_permissions(s->mmap, ACCESS));
	assert_doca_ok(doca_mmap_add_dev(s->mmap, t.dev));
	assert_doca_ok(doca_mmap_start(s->mmap));
}

/* Stops both contexts (progressing both sides until IDLE, bounded). */
static void stop_both(void)
{
	struct doca_ctx *ctx[2] = { doca_rdma_as_ctx(t.a.rdma), doca_rdma_as_ctx(t.b.rdma) };
	enum doca_ctx_states state[2] = { DOCA_CTX_STATE_RUNNING, DOCA_CTX_STATE_RUNNING };

	for (int k = 0; k < 2; k++) {
		doca_error_t status;

		assert_doca_ok(doca_ctx_get_state(ctx[k], &state[k]));
		if (state[k] != DOCA_CTX_STATE_RUNNING) /* a test stopped it already */
			continue;
		status = doca_ctx_stop(ctx[k]);
		assert_true(status == DOCA_SUCCESS || status == DOCA_ERROR_IN_PROGRESS);
	}
	for (int i = 0;
	     i < 1000000 && (state[0] != DOCA_CTX_STATE_IDLE || state[1] != DOCA_CTX_STATE_IDLE);
	     i++) {
		doca_pe_progress(t.a.pe);
		doca_pe_progress(t.b.pe);
		for (int k = 0; k < 2; k++)
			assert_doca_ok(doca_ctx_get_state(ctx[k], &state[k]));
	}
	assert_int_equal(state[0], DOCA_CTX_STATE_IDLE);
	assert_int_equal(state[1], DOCA_CTX_STATE_IDLE);
}

static void side_destroy(struct side *s)
{
	assert_doca_ok(doca_rdma_destroy(s->rdma));
	assert_doca_ok(doca_mmap_destroy(s->mmap));
	assert_doca_ok(doca_pe_destroy(s->pe));
}

static int setup(void **state)
{
	const void *blob;
	size_t len;

	(void)state;
	memset(&t, 0, sizeof(t));
	setenv("SOFTDOCA_DEVICES", "lo", 1);
	t.dev = open_loopback_dev();
	t.worker_a = fake_xport_workers_created();
	t.worker_b = t.worker_a + 1;
	side_start(&t.a);
	side_start(&t.b);
	assert_doca_ok(doca_rdma_connect(t.a.rdma, t.b.blob, t.b.blob_len, t.a.conn));
	assert_doca_ok(doca_rdma_connect(t.b.rdma, t.a.blob, t.a.blob_len, t.b.conn));
	assert_doca_ok(doca_mmap_export_rdma(t.b.mmap, t.dev, &blob, &len));
	assert_doca_ok(doca_mmap_create_from_export(NULL, blob, len, t.dev, &t.remote));
	assert_doca_ok(doca_buf_inventory_create(16, &t.inv));
	assert_doca_ok(doca_buf_inventory_start(t.inv));
	/* Both ends have heard each other (HELLO) before a test starts. */
	for (int i = 0; i < 1000; i++) {
		doca_pe_progress(t.a.pe);
		doca_pe_progress(t.b.pe);
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fake_xport_rndv_from(0);
	assert_doca_ok(doca_mmap_destroy(t.remote));
	stop_both();
	side_destroy(&t.a);
	side_destroy(&t.b);
	assert_doca_ok(doca_buf_inventory_destroy(t.inv));
	assert_doca_ok(doca_dev_close(t.dev));
	return 0;
}

static struct doca_buf *local(size_t at, size_t len, size_t data_len)
{
	struct doca_buf *b;

	assert_doca_ok(doca_buf_inventory_buf_get_by_args(t.inv, t.a.mmap, t.a.mem + at, len,
	                                                  t.a.mem + at, data_len, &b));
	return b;
}

static struct doca_buf *remote(size_t at, size_t len, size_t data_len)
{
	struct doca_buf *b;

	assert_doca_ok(doca_buf_inventory_buf_get_by_args(t.inv, t.remote, t.b.mem + at, len,
	                                                  t.b.mem + at, data_len, &b));
	return b;
}

static struct doca_task *read_task(size_t from, size_t to, int id, struct doca_buf **bufs)
{
	struct doca_rdma_task_read *task;

	bufs[0] = remote(from, PART, PART);
	bufs[1] = local(to, PART, 0);
	assert_doca_ok(doca_rdma_task_read_allocate_init(t.a.rdma, t.a.conn, bufs[0], bufs[1],
	                                                 (union doca_data){ .u64 = id }, &task));
	return doca_rdma_task_read_as_task(task);
}

static struct doca_task *write_task(size_t from, size_t to, int id, struct doca_buf **bufs)
{
	struct doca_rdma_task_write *task;

	bufs[0] = local(from, PART, PART);
	bufs[1] = remote(to, PART, 0);
	assert_doca_ok(doca_rdma_task_write_allocate_init(t.a.rdma, t.a.conn, bufs[0], bufs[1],
	                                                  (union doca_data){ .u64 = id }, &task));
	return doca_rdma_task_write_as_task(task);
}

/* Submits two tasks (ids 0 and 1), progresses both sides until both
 * completed (bounded), and checks they did in order. */
static void submit_two(struct doca_task *first, struct doca_task *second)
{
	t.done = 0;
	assert_doca_ok(doca_task_submit(first));
	assert_doca_ok(doca_task_submit(second));
	for (int i = 0; i < 1000000 && t.done < 2; i++) {
		doca_pe_progress(t.a.pe);
		doca_pe_progress(t.b.pe);
	}
	assert_int_equal(t.done, 2);
	assert_int_equal(t.order[0], 0);
	assert_int_equal(t.order[1], 1);
}

/* Runs two tasks, which must both succeed, in order, with the swap done. */
static void run_two(struct doca_task *first, struct doca_task *second)
{
	submit_two(first, second);
	assert_true(fake_xport_swapped());
	assert_doca_ok(t.status[0]);
	assert_doca_ok(t.status[1]);
	doca_task_free(first);
	doca_task_free(second);
}

static void put(struct doca_buf **bufs)
{
	for (int i = 0; i < 4; i++)
		if (bufs[i])
			assert_doca_ok(doca_buf_dec_refcount(bufs[i], NULL));
}

static void fill(uint8_t *p, size_t len, uint8_t seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(seed + i * 7);
}

/* Two read responses reach the initiator in the opposite order. */
static void read_responses_swapped(void **state)
{
	struct doca_buf *bufs[4] = { 0 };
	struct doca_task *r0, *r1;
	uint8_t want0[PART], want1[PART];

	(void)state;
	fill(t.b.mem, PART, 1);
	fill(t.b.mem + PART, PART, 2);
	memcpy(want0, t.b.mem, PART);
	memcpy(want1, t.b.mem + PART, PART);
	r0 = read_task(0, 0, 0, bufs);
	r1 = read_task(PART, PART, 1, bufs + 2);
	fake_xport_swap_next(t.worker_a);
	run_two(r0, r1);
	assert_memory_equal(t.a.mem, want0, PART);
	assert_memory_equal(t.a.mem + PART, want1, PART);
	put(bufs);
}

/* The write's ACK reaches the initiator before the earlier read's data. */
static void ack_passes_read_response(void **state)
{
	struct doca_buf *bufs[4] = { 0 };
	struct doca_task *r0, *w1;
	uint8_t want_read[PART], want_write[PART];

	(void)state;
	fill(t.b.mem + 2 * PART, PART, 3);
	memcpy(want_read, t.b.mem + 2 * PART, PART);
	fill(t.a.mem + 3 * PART, PART, 4);
	memcpy(want_write, t.a.mem + 3 * PART, PART);
	r0 = read_task(2 * PART, 2 * PART, 0, bufs);
	w1 = write_task(3 * PART, 3 * PART, 1, bufs + 2);
	fake_xport_swap_next(t.worker_a);
	run_two(r0, w1);
	assert_memory_equal(t.a.mem + 2 * PART, want_read, PART);
	assert_memory_equal(t.b.mem + 3 * PART, want_write, PART);
	put(bufs);
}

/* Two writes of the same bytes reach the target in the opposite order: the
 * later one's bytes stay, as if they had come in order. */
static void requests_swapped(void **state)
{
	struct doca_buf *bufs[4] = { 0 };
	struct doca_task *w0, *w1;
	uint8_t want[PART];

	(void)state;
	fill(t.a.mem + 4 * PART, PART, 5);
	fill(t.a.mem + 5 * PART, PART, 6);
	memcpy(want, t.a.mem + 5 * PART, PART);
	w0 = write_task(4 * PART, 6 * PART, 0, bufs);
	w1 = write_task(5 * PART, 6 * PART, 1, bufs + 2);
	fake_xport_swap_next(t.worker_b);
	run_two(w0, w1);
	assert_memory_equal(t.b.mem + 6 * PART, want, PART);
	put(bufs);
}

/* Whether the task with this id has completed. */
static bool finished(int id)
{
	for (int i = 0; i < t.done; i++)
		if (t.order[i] == id)
			return true;
	return false;
}

/* A's two writes, and B's write back to A that carries their ACK. */
struct exchange {
	struct doca_buf *bufs[4], *src, *dst;
	struct doca_task *w0, *w1;
	struct doca_rdma_task_write *back;
	struct doca_mmap *a_remote;
	bool freed, back_freed;
};

/* Frees the tasks that completed, as DOCA programs do in their callbacks. */
static void free_finished(struct exchange *x)
{
	if (!x->freed && finished(0) && finished(1)) {
		doca_task_free(x->w0);
		doca_task_free(x->w1);
		x->freed = true;
	}
	if (!x->back_freed && finished(2)) {
		doca_task_free(doca_rdma_task_write_as_task(x->back));
		x->back_freed = true;
	}
}

/* A's writes succeeded, in order (2 is B's). */
static void check_acknowledged(struct exchange *x)
{
	assert_true(x->freed && x->back_freed);
	for (int i = 0, seen = 0; i < t.done; i++)
		if (t.order[i] != 2)
			assert_int_equal(t.order[i], seen++);
	assert_doca_ok(t.status[0]);
	assert_doca_ok(t.status[1]);
	put(x->bufs);
	assert_doca_ok(doca_buf_dec_refcount(x->src, NULL));
	assert_doca_ok(doca_buf_dec_refcount(x->dst, NULL));
	assert_doca_ok(doca_mmap_destroy(x->a_remote));
}

/* A writes twice, B places both and writes back; A progresses until B's
 * bytes are there. True when the ACK rode on B's write, which waits for A's
 * next request or progress (completer.c): A's writes have not completed
 * yet. False when it went alone: the service thread sends a deferred ACK
 * when it next looks (1 ms), and a loaded host can keep this thread off the
 * CPU for longer between B's progress and B's write; the exchange is then
 * over and released. */
static bool write_back_attempt(struct exchange *x)
{
	const void *blob;
	size_t len;

	memset(x, 0, sizeof(*x));
	/* Where the bytes go, cleared: an earlier attempt left them there. */
	memset(t.b.mem + 4 * PART, 0, 2 * PART);
	memset(t.a.mem + 7 * PART, 0, 8);
	fill(t.a.mem + 4 * PART, 2 * PART, 7);
	x->w0 = write_task(4 * PART, 4 * PART, 0, x->bufs);
	x->w1 = write_task(5 * PART, 5 * PART, 1, x->bufs + 2);
	t.done = 0;
	assert_doca_ok(doca_task_submit(x->w0));
	assert_doca_ok(doca_task_submit(x->w1));
	/* B places both in one progress (unless the service thread has B's
	 * worker just then); its ACK waits (a second progress would send it
	 * alone), so it rides on B's write. */
	for (int i = 0; i < 1000000 && memcmp(t.b.mem + 4 * PART, t.a.mem + 4 * PART, 2 * PART);
	     i++)
		doca_pe_progress(t.b.pe);
	assert_memory_equal(t.b.mem + 4 * PART, t.a.mem + 4 * PART, 2 * PART);

	assert_doca_ok(doca_mmap_export_rdma(t.a.mmap, t.dev, &blob, &len));
	assert_doca_ok(doca_mmap_create_from_export(NULL, blob, len, t.dev, &x->a_remote));
	fill(t.b.mem, 8, 9);
	assert_doca_ok(doca_buf_inventory_buf_get_by_args(t.inv, t.b.mmap, t.b.mem, 8, t.b.mem, 8,
	                                                  &x->src));
	assert_doca_ok(doca_buf_inventory_buf_get_by_args(t.inv, x->a_remote, t.a.mem + 7 * PART, 8,
	                                                  t.a.mem + 7 * PART, 0, &x->dst));
	assert_doca_ok(doca_rdma_task_write_allocate_init(t.b.rdma, t.b.conn, x->src, x->dst,
	                                                  (union doca_data){ .u64 = 2 }, &x->back));
	assert_doca_ok(doca_task_submit(doca_rdma_task_write_as_task(x->back)));
	for (int i = 0; i < 1000000 && memcmp(t.a.mem + 7 * PART, t.b.mem, 8) != 0; i++)
		doca_pe_progress(t.a.pe);
	assert_memory_equal(t.a.mem + 7 * PART, t.b.mem, 8);
	if (t.done == 0)
		return true;
	/* The ACK went alone: the writes succeed all the same. */
	for (int i = 0; i < 1000000 && !(x->freed && x->back_freed); i++) {
		doca_pe_progress(t.a.pe);
		doca_pe_progress(t.b.pe);
		free_finished(x);
	}
	check_acknowledged(x);
	return false;
}

/* write_back_attempt until the ACK rides on B's write (bounded). */
static void write_back_with_ack(struct exchange *x)
{
	int attempts = 1;

	while (!write_back_attempt(x)) {
		print_message("the ACK went alone (attempt %d): again\n", attempts);
		assert_true(++attempts <= 100);
	}
}

/* A stops right after B's bytes came: both writes complete as acknowledged,
 * not as flushed. */
static void acknowledged_before_flush(void **state)
{
	struct exchange x;
	enum doca_ctx_states st = DOCA_CTX_STATE_RUNNING;
	doca_error_t stop;

	(void)state;
	write_back_with_ack(&x);
	stop = doca_ctx_stop(doca_rdma_as_ctx(t.a.rdma));
	assert_true(stop == DOCA_SUCCESS || stop == DOCA_ERROR_IN_PROGRESS);
	for (int i = 0; i < 1000000 && (st != DOCA_CTX_STATE_IDLE || !x.back_freed); i++) {
		free_finished(&x);
		doca_pe_progress(t.a.pe);
		doca_pe_progress(t.b.pe);
		assert_doca_ok(doca_ctx_get_state(doca_rdma_as_ctx(t.a.rdma), &st));
	}
	assert_int_equal(st, DOCA_CTX_STATE_IDLE);
	check_acknowledged(&x);
}

/* A stops progressing right after B's bytes came and sleeps on its PE's
 * notification handle: the service thread applies the ACK, and A's writes
 * complete, which wakes A (bounded: 5 s). */
static void acknowledged_while_asleep(void **state)
{
	struct exchange x;
	doca_notification_handle_t fd;
	struct pollfd pfd;

	(void)state;
	write_back_with_ack(&x);
	assert_doca_ok(doca_pe_get_notification_handle(t.a.pe, &fd));
	assert_doca_ok(doca_pe_request_notification(t.a.pe));
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	assert_int_equal(poll(&pfd, 1, 5000), 1);
	assert_doca_ok(doca_pe_clear_notification(t.a.pe, fd));
	for (int i = 0; i < 1000000 && !(x.freed && x.back_freed); i++) {
		doca_pe_progress(t.a.pe);
		doca_pe_progress(t.b.pe);
		free_finished(&x);
	}
	check_acknowledged(&x);
}

/* B's memory from 7 * PART, exported for remote reads only: a write there
 * is refused (remote access error). */
struct read_only {
	struct doca_mmap *mmap, *remote;
	struct doca_buf *bufs[2];
};

static struct doca_task *refused_write(struct read_only *ro, int id)
{
	struct doca_rdma_task_write *task;
	const void *blob;
	size_t len;

	assert_doca_ok(doca_mmap_create(&ro->mmap));
	assert_doca_ok(doca_mmap_set_memrange(ro->mmap, t.b.mem + 7 * PART, PART));
	assert_doca_ok(doca_mmap_set_permissions(ro->mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE |
	                                                           DOCA_ACCESS_FLAG_RDMA_READ));
	assert_doca_ok(doca_mmap_add_dev(ro->mmap, t.dev));
	assert_doca_ok(doca_mmap_start(ro->mmap));
	assert_doca_ok(doca_mmap_export_rdma(ro->mmap, t.dev, &blob, &len));
	assert_doca_ok(doca_mmap_create_from_export(NULL, blob, len, t.dev, &ro->remote));
	ro->bufs[0] = local(7 * PART, PART, PART); /* rendezvous too, when large ones are */
	assert_doca_ok(doca_buf_inventory_buf_get_by_args(
	        t.inv, ro->remote, t.b.mem + 7 * PART, PART, t.b.mem + 7 * PART, 0, &ro->bufs[1]));
	assert_doca_ok(doca_rdma_task_write_allocate_init(t.a.rdma, t.a.conn, ro->bufs[0],
	                                                  ro->bufs[1],
	                                                  (union doca_data){ .u64 = id }, &task));
	return doca_rdma_task_write_as_task(task);
}

/* Runs a request and a refused write after it: the first succeeds, then the
 * refused one fails with the remote access error, in that order, and the
 * read-only bytes stay as they were. */
static void run_then_refused(struct doca_task *first, struct read_only *ro)
{
	struct doca_task *refused = refused_write(ro, 1);
	uint8_t before[PART];

	memcpy(before, t.b.mem + 7 * PART, PART);
	submit_two(first, refused);
	assert_doca_ok(t.status[0]);
	assert_int_equal(t.status[1], DOCA_ERROR_NOT_PERMITTED);
	assert_memory_equal(t.b.mem + 7 * PART, before, PART);
	doca_task_free(first);
	doca_task_free(refused);
	for (int i = 0; i < 2; i++)
		assert_doca_ok(doca_buf_dec_refcount(ro->bufs[i], NULL));
}

static void read_only_destroy(struct read_only *ro)
{
	assert_doca_ok(doca_mmap_destroy(ro->remote));
	assert_doca_ok(doca_mmap_destroy(ro->mmap));
}

/* The NAK of a refused write reaches the initiator before the data of the
 * read submitted before it: the read still completes, with its bytes. */
static void nak_passes_read_response(void **state)
{
	struct doca_buf *bufs[4] = { 0 };
	struct read_only ro;
	uint8_t want[PART];

	(void)state;
	fill(t.b.mem + 2 * PART, PART, 11);
	memcpy(want, t.b.mem + 2 * PART, PART);
	fake_xport_swap_next(t.worker_a);
	run_then_refused(read_task(2 * PART, 2 * PART, 0, bufs), &ro);
	assert_true(fake_xport_swapped());
	assert_memory_equal(t.a.mem + 2 * PART, want, PART);
	put(bufs);
	stop_both();
	read_only_destroy(&ro);
}

/* A write refused while the write before it still lands (rendezvous): the
 * NAK leaves only after that payload is in place and acknowledged, so the
 * earlier write completes successfully with its bytes at the target. */
static void nak_waits_for_landing(void **state)
{
	struct doca_buf *bufs[4] = { 0 };
	struct read_only ro;
	uint8_t want[PART];

	(void)state;
	fake_xport_rndv_from(PART);
	fill(t.a.mem + 3 * PART, PART, 12);
	memcpy(want, t.a.mem + 3 * PART, PART);
	t.want0 = want;
	t.want0_at = 6 * PART;
	run_then_refused(write_task(3 * PART, 6 * PART, 0, bufs), &ro);
	assert_true(t.landed0);
	assert_memory_equal(t.b.mem + 6 * PART, want, PART);
	put(bufs);
	stop_both();
	read_only_destroy(&ro);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(read_responses_swapped, setup, teardown),
		cmocka_unit_test_setup_teardown(ack_passes_read_response, setup, teardown),
		cmocka_unit_test_setup_teardown(requests_swapped, setup, teardown),
		cmocka_unit_test_setup_teardown(acknowledged_before_flush, setup, teardown),
		cmocka_unit_test_setup_teardown(acknowledged_while_asleep, setup, teardown),
		cmocka_unit_test_setup_teardown(nak_passes_read_response, setup, teardown),
		cmocka_unit_test_setup_teardown(nak_waits_for_landing, setup, teardown),
	};

	xport_set_ops_for_tests(&fake_xport_ops);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
