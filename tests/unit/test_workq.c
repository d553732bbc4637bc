/*
 * Unit tests: DOCA 2.2's doca_workq and RDMA jobs, built as a DOCA 2.2
 * program is (SOFTDOCA_API_VERSION=202). Two RDMA instances of this process,
 * each with its own work queue, connected to each other: every job type
 * with NULL and chained buffers, the buffer rules, the results, the errors
 * a submit returns, failed jobs (the instance goes to ERROR, submits are
 * refused, stop/start/export/connect recovers it), and the event handle.
 */
#include <poll.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_mmap.h>
#include <doca_rdma.h>

#include "unit/testing.h"

#define MEM_LEN 4096
#define DEPTH 8
#define POLLS 20000000 /* retrieve calls before a wait counts as hung */
#define ACCESS_ALL                                                                       \
	(DOCA_ACCESS_LOCAL_READ_WRITE | DOCA_ACCESS_RDMA_READ | DOCA_ACCESS_RDMA_WRITE | \
	 DOCA_ACCESS_RDMA_ATOMIC)

struct side {
	struct doca_rdma *rdma;
	struct doca_ctx *ctx;
	struct doca_workq *wq;
	struct doca_mmap *mmap;
	struct doca_mmap *remote; /* the peer's memory */
	char *peer_mem;
	uint8_t mem[MEM_LEN] __attribute__((aligned(64)));
	const void *blob;
	size_t blob_len;
};

static struct doca_dev *dev;
static struct doca_buf_inventory *inv;
static struct side a, b;

static void side_start(struct side *s)
{
	assert_doca_ok(doca_ctx_start(s->ctx));
	assert_doca_ok(doca_rdma_export(s->rdma, &s->blob, &s->blob_len));
	assert_doca_ok(doca_ctx_workq_add(s->ctx, s->wq));
}

static void connect_sides(void)
{
	enum doca_rdma_state state;

	side_start(&a);
	side_start(&b);
	assert_doca_ok(doca_rdma_get_state(a.rdma, &state));
	assert_int_equal(state, DOCA_RDMA_STATE_INIT);
	assert_doca_ok(doca_rdma_connect(a.rdma, b.blob, b.blob_len));
	assert_doca_ok(doca_rdma_connect(b.rdma, a.blob, a.blob_len));
	assert_doca_ok(doca_rdma_get_state(a.rdma, &state));
	assert_int_equal(state, DOCA_RDMA_STATE_CONNECTED);
}

static void side_create(struct side *s)
{
	assert_doca_ok(doca_rdma_create(&s->rdma));
	s->ctx = doca_rdma_as_ctx(s->rdma);
	assert_doca_ok(doca_ctx_dev_add(s->ctx, dev));
	assert_doca_ok(doca_rdma_set_permissions(s->rdma, ACCESS_ALL));
	assert_doca_ok(doca_workq_create(DEPTH, &s->wq));
	assert_doca_ok(doca_mmap_create(NULL, &s->mmap));
	assert_doca_ok(doca_mmap_set_memrange(s->mmap, s->mem, sizeof(s->mem)));
	assert_doca_ok(doca_mmap_set_permissions(s->mmap, ACCESS_ALL));
	assert_doca_ok(doca_mmap_dev_add(s->mmap, dev));
	assert_doca_ok(doca_mmap_start(s->mmap));
}

/* Each side imports the other's memory. */
static void exchange_mmaps(void)
{
	struct side *sides[2][2] = { { &a, &b }, { &b, &a } };

	for (int i = 0; i < 2; i++) {
		struct side *s = sides[i][0], *peer = sides[i][1];
		const void *blob;
		size_t len;
		void *addr;

		assert_doca_ok(doca_mmap_export_rdma(peer->mmap, dev, &blob, &len));
		assert_doca_ok(doca_mmap_create_from_export(NULL, blob, len, dev, &s->remote));
		assert_doca_ok(doca_mmap_get_memrange(s->remote, &addr, &len));
		s->peer_mem = addr;
	}
}

static int group_setup(void **state)
{
	(void)state;
	dev = open_loopback_dev();
	assert_doca_ok(doca_buf_inventory_create(NULL, 64, 0, &inv));
	assert_doca_ok(doca_buf_inventory_start(inv));
	side_create(&a);
	side_create(&b);
	connect_sides();
	exchange_mmaps();
	return 0;
}

static void side_destroy(struct side *s)
{
	assert_doca_ok(doca_ctx_workq_rm(s->ctx, s->wq));
	assert_doca_ok(doca_workq_destroy(s->wq));
	assert_doca_ok(doca_ctx_stop(s->ctx));
	/* Stopped already: nothing to do (DOCA 2.2 documents no error for it;
	 * its samples stop again in their clean-up). */
	assert_doca_ok(doca_ctx_stop(s->ctx));
	assert_doca_ok(doca_ctx_dev_rm(s->ctx, dev));
	assert_doca_ok(doca_rdma_destroy(s->rdma));
	assert_doca_ok(doca_mmap_destroy(s->remote));
	assert_doca_ok(doca_mmap_destroy(s->mmap));
}

static int group_teardown(void **state)
{
	(void)state;
	side_destroy(&a);
	side_destroy(&b);
	assert_doca_ok(doca_buf_inventory_destroy(inv));
	assert_doca_ok(doca_dev_close(dev));
	return 0;
}

/* --- helpers --- */

static struct doca_buf *buf(struct doca_mmap *mmap, void *addr, size_t len, size_t data_len)
{
	struct doca_buf *bf;

	assert_doca_ok(doca_buf_inventory_buf_by_args(inv, mmap, addr, len, addr, data_len, &bf));
	return bf;
}

static void put(struct doca_buf *bf)
{
	if (bf)
		assert_doca_ok(doca_buf_refcount_rm(bf, NULL));
}

/* The next event of the side's work queue; returns what retrieve said. */
static doca_error_t next_event(struct side *s, struct doca_event *ev, struct doca_rdma_result *r)
{
	doca_error_t status = DOCA_ERROR_AGAIN;

	memset(r, 0xee, sizeof(*r));
	*ev = (struct doca_event){ .result.ptr = r };
	for (long i = 0; i < POLLS && status == DOCA_ERROR_AGAIN; i++)
		status = doca_workq_progress_retrieve(s->wq, ev, DOCA_WORKQ_RETRIEVE_FLAGS_NONE);
	assert_int_not_equal(status, DOCA_ERROR_AGAIN);
	return status;
}

/* Submits a job and waits for its event, which must succeed. */
static struct doca_rdma_result run_job(struct side *s, struct doca_job *job)
{
	struct doca_rdma_result r;
	struct doca_event ev;

	job->ctx = s->ctx;
	job->user_data.u64 = 0x1234;
	assert_doca_ok(doca_workq_submit(s->wq, job));
	assert_doca_ok(next_event(s, &ev, &r));
	assert_int_equal(ev.type, job->type);
	assert_int_equal(ev.user_data.u64, 0x1234);
	assert_doca_ok(r.result);
	assert_null(r.rdma_peer_addr);
	return r;
}

static size_t data_len_of(struct doca_buf *bf)
{
	size_t n;

	assert_doca_ok(doca_buf_get_data_len(bf, &n));
	return n;
}

/* --- tests --- */

static void test_capabilities(void **state)
{
	struct doca_devinfo *info = doca_dev_as_devinfo(dev);
	uint32_t v;
	uint8_t supported;

	(void)state;
	for (int t = DOCA_RDMA_JOB_RECV; t <= DOCA_RDMA_JOB_ATOMIC_FETCH_ADD; t++)
		assert_doca_ok(doca_rdma_job_get_supported(info, (enum doca_rdma_job_types)t));
	assert_doca_err(doca_rdma_job_get_supported(info, (enum doca_rdma_job_types)7),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_rdma_get_max_buf_chain_len(info, DOCA_RDMA_JOB_RECV,
	                                               DOCA_RDMA_TRANSPORT_RC, &v));
	assert_true(v >= 2);
	assert_doca_ok(doca_rdma_get_max_buf_chain_len(info, DOCA_RDMA_JOB_ATOMIC_CMP_SWP,
	                                               DOCA_RDMA_TRANSPORT_RC, &v));
	assert_int_equal(v, 1);
	assert_doca_ok(doca_rdma_get_max_message_size(info, &v));
	assert_int_equal(v, 1u << 31);
	assert_doca_ok(doca_rdma_get_max_send_queue_size(info, &v));
	assert_doca_ok(doca_rdma_get_max_recv_queue_size(info, &v));
	assert_doca_ok(doca_rdma_get_gid_table_size(info, &v));
	assert_doca_ok(doca_rdma_get_transport_type_supported(info, DOCA_RDMA_TRANSPORT_RC));
	assert_doca_err(doca_rdma_get_transport_type_supported(info, DOCA_RDMA_TRANSPORT_DC),
	                DOCA_ERROR_NOT_SUPPORTED);
	assert_doca_ok(doca_rdma_get_recv_buf_chain_len(a.rdma, &v));
	assert_doca_ok(doca_ctx_get_event_driven_supported(a.ctx, &supported));
	assert_int_equal(supported, 1);
	assert_doca_ok(doca_workq_get_depth(a.wq, &v));
	assert_int_equal(v, DEPTH);
	assert_doca_ok(doca_ctx_get_max_num_ctx(&v));
}

/* What doca_workq_submit refuses, and the life-cycle rules around it. */
static void test_submit_errors(void **state)
{
	struct doca_rdma_job_recv recv = { .base.type = DOCA_RDMA_JOB_RECV, .base.ctx = a.ctx };
	struct doca_rdma_job_send send = { .base.type = DOCA_RDMA_JOB_SEND, .base.ctx = a.ctx };
	struct doca_workq *other;
	struct doca_event ev;
	struct doca_rdma_result r;

	(void)state;
	assert_doca_err(doca_workq_progress_retrieve(a.wq, &ev, 0), DOCA_ERROR_AGAIN);
	assert_doca_err(doca_workq_submit(NULL, &recv.base), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_workq_create(2, &other));
	assert_doca_err(doca_workq_submit(other, &recv.base), DOCA_ERROR_NOT_FOUND);
	assert_doca_err(doca_ctx_workq_add(a.ctx, other), DOCA_ERROR_IN_USE);
	assert_doca_ok(doca_workq_destroy(other));
	assert_doca_err(doca_workq_destroy(a.wq), DOCA_ERROR_IN_USE);
	assert_doca_err(doca_ctx_stop(a.ctx), DOCA_ERROR_NOT_PERMITTED);
	assert_doca_err(doca_ctx_dev_add(a.ctx, dev), DOCA_ERROR_BAD_STATE);

	/* Malformed jobs. */
	recv.base.flags = 1;
	assert_doca_err(doca_workq_submit(a.wq, &recv.base), DOCA_ERROR_INVALID_VALUE);
	recv.base.flags = DOCA_JOB_FLAGS_NONE;
	recv.base.type = DOCA_RDMA_JOB_RECV - 1;
	assert_doca_err(doca_workq_submit(a.wq, &recv.base), DOCA_ERROR_INVALID_VALUE);
	recv.base.type = DOCA_RDMA_JOB_RECV;
	recv.base.ctx = NULL;
	assert_doca_err(doca_workq_submit(a.wq, &recv.base), DOCA_ERROR_INVALID_VALUE);
	recv.base.ctx = a.ctx;
	/* A local buffer as a write's remote destination. */
	{
		struct doca_buf *local = buf(a.mmap, a.mem, 64, 0);
		struct doca_rdma_job_read_write w = {
			.base = { .type = DOCA_RDMA_JOB_WRITE, .ctx = a.ctx }, .dst_buff = local
		};

		assert_doca_err(doca_workq_submit(a.wq, &w.base), DOCA_ERROR_INVALID_VALUE);
		put(local);
	}

	/* depth jobs in flight, then NO_MEMORY; the work queue cannot leave
	 * while they are there. */
	for (int i = 0; i < DEPTH; i++)
		assert_doca_ok(doca_workq_submit(a.wq, &recv.base));
	assert_doca_err(doca_workq_submit(a.wq, &recv.base), DOCA_ERROR_NO_MEMORY);
	assert_doca_err(doca_ctx_workq_rm(a.ctx, a.wq), DOCA_ERROR_IN_USE);
	for (int i = 0; i < DEPTH; i++)
		run_job(&b, &send.base); /* empty messages, consuming them */
	for (int i = 0; i < DEPTH; i++) {
		assert_doca_ok(next_event(&a, &ev, &r));
		assert_int_equal(r.opcode, DOCA_RDMA_OPCODE_RECV_SEND);
		assert_int_equal(r.length, 0);
	}
}

static void test_write_and_read(void **state)
{
	const char text[] = "written by a DOCA 2.2 job";
	struct doca_buf *src, *dst, *list;
	struct doca_rdma_job_read_write job = { 0 };
	struct doca_rdma_result r;

	(void)state;
	memcpy(a.mem, text, sizeof(text));
	memset(b.mem, 0, MEM_LEN);
	/* Into an empty remote buffer: at its start; its data length grows. */
	src = buf(a.mmap, a.mem, sizeof(text), sizeof(text));
	dst = buf(a.remote, a.peer_mem, 256, 0);
	job = (struct doca_rdma_job_read_write){ .base.type = DOCA_RDMA_JOB_WRITE,
		                                 .src_buff = src,
		                                 .dst_buff = dst };
	r = run_job(&a, &job.base);
	assert_int_equal(r.length, 0);
	assert_string_equal((char *)b.mem, text);
	assert_int_equal(data_len_of(dst), sizeof(text));
	/* Again: appended after the data section. */
	run_job(&a, &job.base);
	assert_string_equal((char *)b.mem + sizeof(text), text);
	put(dst);
	/* A remote buffer with no room after its data section (the programming
	 * guide's write snippet): written at the start of its data section. */
	dst = buf(a.remote, a.peer_mem + 512, sizeof(text), sizeof(text));
	job.dst_buff = dst;
	run_job(&a, &job.base);
	assert_string_equal((char *)b.mem + 512, text);
	assert_int_equal(data_len_of(dst), sizeof(text));
	put(dst);
	/* NULL buffers: zero bytes. */
	job.src_buff = NULL;
	job.dst_buff = NULL;
	run_job(&a, &job.base);
	put(src);

	/* Read b's text into a two-buffer list: 10 bytes, then the rest. */
	memset(a.mem, 0, MEM_LEN);
	src = buf(a.remote, a.peer_mem, sizeof(text), sizeof(text));
	list = buf(a.mmap, a.mem, 10, 0);
	dst = buf(a.mmap, a.mem + 100, 100, 0);
	assert_doca_ok(doca_buf_list_chain(list, dst));
	job = (struct doca_rdma_job_read_write){ .base.type = DOCA_RDMA_JOB_READ,
		                                 .src_buff = src,
		                                 .dst_buff = list };
	r = run_job(&a, &job.base);
	assert_int_equal(r.length, sizeof(text));
	assert_memory_equal(a.mem, text, 10);
	assert_string_equal((char *)a.mem + 100, text + 10);
	assert_int_equal(data_len_of(list), 10);
	assert_int_equal(data_len_of(dst), sizeof(text) - 10);
	assert_doca_ok(doca_buf_list_unchain(list, dst));
	put(list);
	put(dst);
	/* Into a full destination: at the start of its data section. */
	memset(a.mem, 0, MEM_LEN);
	dst = buf(a.mmap, a.mem, sizeof(text), sizeof(text));
	job.dst_buff = dst;
	r = run_job(&a, &job.base);
	assert_string_equal((char *)a.mem, text);
	put(dst);
	put(src);
}

static void test_send_and_receive(void **state)
{
	const char text[] = "a send in two pieces, a receive in two buffers";
	struct doca_rdma_job_recv recv = { .base.type = DOCA_RDMA_JOB_RECV };
	struct doca_rdma_job_send send = { 0 };
	struct doca_rdma_job_read_write wimm = { 0 };
	struct doca_buf *s1, *s2, *d1, *d2;
	struct doca_rdma_result r;
	struct doca_event ev;

	(void)state;
	memcpy(a.mem, text, sizeof(text));
	memset(b.mem, 0, MEM_LEN);
	memcpy(b.mem, "kept:", 5);
	s1 = buf(a.mmap, a.mem, 8, 8);
	s2 = buf(a.mmap, a.mem + 8, sizeof(text) - 8, sizeof(text) - 8);
	assert_doca_ok(doca_buf_list_chain(s1, s2));
	/* d1 holds data already: what arrives goes after it. */
	d1 = buf(b.mmap, b.mem, 20, 5);
	d2 = buf(b.mmap, b.mem + 200, 100, 0);
	assert_doca_ok(doca_buf_list_chain(d1, d2));
	recv.base.ctx = b.ctx;
	recv.dst_buff = d1;
	assert_doca_ok(doca_workq_submit(b.wq, &recv.base));
	send = (struct doca_rdma_job_send){ .base.type = DOCA_RDMA_JOB_SEND_IMM,
		                            .src_buff = s1,
		                            .immediate_data = 0xDEADBEEF };
	run_job(&a, &send.base);
	assert_doca_ok(next_event(&b, &ev, &r));
	assert_int_equal(ev.type, DOCA_RDMA_JOB_RECV);
	assert_doca_ok(r.result);
	assert_int_equal(r.opcode, DOCA_RDMA_OPCODE_RECV_SEND_WITH_IMM);
	assert_int_equal(r.immediate_data, 0xDEADBEEF);
	assert_int_equal(r.length, sizeof(text));
	assert_memory_equal(b.mem, "kept:", 5);
	assert_memory_equal(b.mem + 5, text, 15);
	assert_string_equal((char *)b.mem + 200, text + 15);
	assert_int_equal(data_len_of(d1), 20);
	assert_int_equal(data_len_of(d2), sizeof(text) - 15);
	assert_doca_ok(doca_buf_list_unchain(d1, d2));
	put(d1);
	put(d2);

	/* A NULL receive takes a write with immediate. */
	recv.dst_buff = NULL;
	assert_doca_ok(doca_workq_submit(b.wq, &recv.base));
	d1 = buf(a.remote, a.peer_mem + 1024, 64, 0);
	wimm = (struct doca_rdma_job_read_write){ .base.type = DOCA_RDMA_JOB_WRITE_IMM,
		                                  .src_buff = s1,
		                                  .dst_buff = d1,
		                                  .immediate_data = 0xABCD };
	run_job(&a, &wimm.base);
	assert_doca_ok(next_event(&b, &ev, &r));
	assert_int_equal(r.opcode, DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM);
	assert_int_equal(r.immediate_data, 0xABCD);
	assert_string_equal((char *)b.mem + 1024, text);
	put(d1);
	assert_doca_ok(doca_buf_list_unchain(s1, s2));
	put(s1);
	put(s2);
}

static void test_atomics(void **state)
{
	uint64_t *target = (uint64_t *)(void *)(b.mem + 2048), *orig = (uint64_t *)(void *)a.mem;
	struct doca_buf *dst, *res;
	struct doca_rdma_job_atomic job = { 0 };

	(void)state;
	*target = 40;
	dst = buf(a.remote, a.peer_mem + 2048, 8, 8);
	res = buf(a.mmap, a.mem, 8, 0);
	job = (struct doca_rdma_job_atomic){ .base.type = DOCA_RDMA_JOB_ATOMIC_FETCH_ADD,
		                             .cmp_or_add_dest_buff = dst,
		                             .result_buff = res,
		                             .swap_or_add_data = 2,
		                             .cmp_data = 999 /* ignored */ };
	run_job(&a, &job.base);
	assert_int_equal(*orig, 40);
	assert_int_equal(*target, 42);
	job.base.type = DOCA_RDMA_JOB_ATOMIC_CMP_SWP;
	job.cmp_data = 41; /* not equal: unchanged */
	job.swap_or_add_data = 7;
	run_job(&a, &job.base);
	assert_int_equal(*orig, 42);
	assert_int_equal(*target, 42);
	job.cmp_data = 42;
	run_job(&a, &job.base);
	assert_int_equal(*target, 7);
	/* No result buffer: refused at submit. */
	job.result_buff = NULL;
	job.base.ctx = a.ctx;
	assert_doca_err(doca_workq_submit(a.wq, &job.base), DOCA_ERROR_INVALID_VALUE);
	put(dst);
	put(res);
}

/* Retrieves every event left on a side (flushed jobs of a failure). */
static void drain(struct side *s)
{
	struct doca_rdma_result r;
	struct doca_event ev = { .result.ptr = &r };

	for (int i = 0; i < 1000; i++)
		(void)doca_workq_progress_retrieve(s->wq, &ev, 0);
}

/* Stop, start, export, connect: the only way out of ERROR. */
static void recover(void)
{
	enum doca_rdma_state state;

	drain(&a);
	drain(&b);
	assert_doca_ok(doca_ctx_workq_rm(a.ctx, a.wq));
	assert_doca_ok(doca_ctx_workq_rm(b.ctx, b.wq));
	assert_doca_ok(doca_ctx_stop(a.ctx));
	assert_doca_ok(doca_ctx_stop(b.ctx));
	assert_doca_ok(doca_rdma_get_state(a.rdma, &state));
	assert_int_equal(state, DOCA_RDMA_STATE_RESET);
	connect_sides();
}

/* A failed job: IO_FAILED with its own error, both ends in ERROR; the
 * peer's receive (if it posted one) fails with peer_expected. */
static void expect_failure_and_peer(struct side *s, struct doca_job *job, doca_error_t expected,
                                    doca_error_t peer_expected)
{
	struct doca_rdma_job_recv recv = { .base = { .type = DOCA_RDMA_JOB_RECV, .ctx = s->ctx } };
	struct doca_rdma_result r;
	struct doca_event ev;
	enum doca_rdma_state state;

	job->ctx = s->ctx;
	assert_doca_ok(doca_workq_submit(s->wq, job));
	assert_doca_err(next_event(s, &ev, &r), DOCA_ERROR_IO_FAILED);
	assert_int_equal(ev.type, job->type);
	assert_doca_err(r.result, expected);
	assert_doca_ok(doca_rdma_get_state(s->rdma, &state));
	assert_int_equal(state, DOCA_RDMA_STATE_ERROR);
	assert_doca_err(doca_workq_submit(s->wq, &recv.base), DOCA_ERROR_BAD_STATE);
	if (peer_expected != DOCA_SUCCESS) {
		struct side *peer = s == &a ? &b : &a;

		assert_doca_err(next_event(peer, &ev, &r), DOCA_ERROR_IO_FAILED);
		assert_int_equal(ev.type, DOCA_RDMA_JOB_RECV);
		assert_doca_err(r.result, peer_expected);
	}
	recover();
}

static void expect_failure(struct side *s, struct doca_job *job, doca_error_t expected)
{
	expect_failure_and_peer(s, job, expected, DOCA_SUCCESS);
}

static void test_failures_and_recovery(void **state)
{
	struct doca_buf *src = buf(a.mmap, a.mem, 64, 64), *dst, *res, *odd, *small;
	struct doca_rdma_job_read_write rw = { 0 };
	struct doca_rdma_job_atomic at = { 0 };
	struct doca_rdma_job_recv recv = { .base.type = DOCA_RDMA_JOB_RECV };
	struct doca_rdma_job_send send = { .base.type = DOCA_RDMA_JOB_SEND, .src_buff = src };
	struct doca_mmap *closed, *imported;
	const void *blob;
	size_t len;

	(void)state;
	/* Refused at submit, no failure: 64 bytes into 32 free ones; a remote
	 * buffer as a send's source; the receive chain limit while started. */
	dst = buf(a.remote, a.peer_mem + MEM_LEN - 32, 32, 0);
	rw = (struct doca_rdma_job_read_write){ .base = { .type = DOCA_RDMA_JOB_WRITE,
		                                          .ctx = a.ctx },
		                                .src_buff = src,
		                                .dst_buff = dst };
	assert_doca_err(doca_workq_submit(a.wq, &rw.base), DOCA_ERROR_INVALID_VALUE);
	send.src_buff = dst;
	send.base.ctx = a.ctx;
	assert_doca_err(doca_workq_submit(a.wq, &send.base), DOCA_ERROR_INVALID_VALUE);
	send.src_buff = src;
	assert_doca_err(doca_rdma_set_recv_buf_chain_len(a.rdma, 2), DOCA_ERROR_BAD_STATE);
	put(dst);

	/* A read of memory b exported for writes only. */
	assert_doca_ok(doca_mmap_create(NULL, &closed));
	assert_doca_ok(doca_mmap_set_memrange(closed, b.mem + 3072, 1024));
	assert_doca_ok(doca_mmap_set_permissions(closed, DOCA_ACCESS_LOCAL_READ_WRITE |
	                                                         DOCA_ACCESS_RDMA_WRITE));
	assert_doca_ok(doca_mmap_dev_add(closed, dev));
	assert_doca_ok(doca_mmap_start(closed));
	assert_doca_ok(doca_mmap_export_rdma(closed, dev, &blob, &len));
	assert_doca_ok(doca_mmap_create_from_export(NULL, blob, len, dev, &imported));
	dst = buf(a.mmap, a.mem + 512, 64, 0);
	rw = (struct doca_rdma_job_read_write){ .base.type = DOCA_RDMA_JOB_READ,
		                                .src_buff = buf(imported, b.mem + 3072, 64, 64),
		                                .dst_buff = dst };
	expect_failure(&a, &rw.base, DOCA_ERROR_NOT_PERMITTED);
	put((struct doca_buf *)rw.src_buff);
	put(dst);
	assert_doca_ok(doca_mmap_destroy(imported));
	assert_doca_ok(doca_mmap_destroy(closed));

	/* A misaligned atomic. */
	odd = buf(a.remote, a.peer_mem + 3, 8, 8);
	res = buf(a.mmap, a.mem + 8, 8, 0);
	at = (struct doca_rdma_job_atomic){ .base.type = DOCA_RDMA_JOB_ATOMIC_FETCH_ADD,
		                            .cmp_or_add_dest_buff = odd,
		                            .result_buff = res,
		                            .swap_or_add_data = 1 };
	expect_failure(&a, &at.base, DOCA_ERROR_INVALID_VALUE);
	put(odd);
	put(res);

	/* A send longer than the posted receive: both jobs fail. */
	small = buf(b.mmap, b.mem, 16, 0);
	recv.base.ctx = b.ctx;
	recv.dst_buff = small;
	assert_doca_ok(doca_workq_submit(b.wq, &recv.base));
	expect_failure_and_peer(&a, &send.base, DOCA_ERROR_INVALID_VALUE, DOCA_ERROR_TOO_BIG);
	put(small);

	/* Recovered: a write goes through again. */
	rw = (struct doca_rdma_job_read_write){ .base.type = DOCA_RDMA_JOB_WRITE,
		                                .src_buff = src,
		                                .dst_buff = buf(a.remote, a.peer_mem, 64, 0) };
	run_job(&a, &rw.base);
	put(rw.dst_buff);
	put(src);
}

/* The event handle is readable exactly when a result is ready. */
static void test_event_handle(void **state)
{
	struct doca_rdma_job_recv recv = { .base.type = DOCA_RDMA_JOB_RECV };
	struct doca_rdma_job_send send = { .base.type = DOCA_RDMA_JOB_SEND };
	doca_event_handle_t handle;
	struct doca_rdma_result r;
	struct doca_event ev;
	struct pollfd pfd = { .events = POLLIN };
	uint8_t enabled;

	(void)state;
	/* Only before the work queue joins a context. */
	assert_doca_err(doca_workq_set_event_driven_enable(b.wq, 1), DOCA_ERROR_BAD_STATE);
	assert_doca_err(doca_workq_set_event_handle(b.wq, 0, 0), DOCA_ERROR_NOT_SUPPORTED);
	assert_doca_ok(doca_ctx_workq_rm(b.ctx, b.wq));
	assert_doca_ok(doca_workq_set_event_driven_enable(b.wq, 1));
	assert_doca_ok(doca_workq_get_event_driven_enable(b.wq, &enabled));
	assert_int_equal(enabled, 1);
	assert_doca_ok(doca_workq_get_event_handle(b.wq, &handle));
	assert_doca_ok(doca_ctx_workq_add(b.ctx, b.wq));
	pfd.fd = handle;

	recv.base.ctx = b.ctx;
	for (int round = 0; round < 3; round++) {
		assert_doca_ok(doca_workq_submit(b.wq, &recv.base));
		assert_doca_err(doca_workq_progress_retrieve(b.wq, &ev, 0), DOCA_ERROR_AGAIN);
		assert_doca_ok(doca_workq_event_handle_arm(b.wq));
		assert_int_equal(poll(&pfd, 1, 0), 0); /* nothing ready yet */
		run_job(&a, &send.base);
		assert_int_equal(poll(&pfd, 1, 10000), 1);
		assert_doca_ok(doca_workq_event_handle_clear(b.wq, 0));
		ev = (struct doca_event){ .result.ptr = &r };
		assert_doca_ok(doca_workq_progress_retrieve(b.wq, &ev, 0));
		assert_doca_ok(r.result);
		assert_int_equal(poll(&pfd, 1, 0), 0); /* cleared */
	}
	/* Armed with a result already queued: readable at once. The sender's
	 * completion does not say the receive completed (as on RC, the ACK
	 * leaves first), so the handle says when the second one is there;
	 * it then stays queued until retrieved. */
	recv.base.ctx = b.ctx;
	assert_doca_ok(doca_workq_submit(b.wq, &recv.base));
	assert_doca_ok(doca_workq_submit(b.wq, &recv.base));
	run_job(&a, &send.base);
	run_job(&a, &send.base);
	assert_doca_ok(next_event(&b, &ev, &r));
	assert_doca_ok(doca_workq_event_handle_arm(b.wq));
	assert_int_equal(poll(&pfd, 1, 10000), 1);
	assert_doca_ok(doca_workq_event_handle_clear(b.wq, handle));
	assert_doca_ok(doca_workq_event_handle_arm(b.wq));
	assert_int_equal(poll(&pfd, 1, 0), 1);
	assert_doca_ok(doca_workq_event_handle_clear(b.wq, handle));
	assert_doca_ok(next_event(&b, &ev, &r));
	assert_doca_ok(r.result);
	assert_doca_err(doca_workq_progress_retrieve(b.wq, &ev, 0), DOCA_ERROR_AGAIN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_capabilities),   cmocka_unit_test(test_submit_errors),
		cmocka_unit_test(test_write_and_read), cmocka_unit_test(test_send_and_receive),
		cmocka_unit_test(test_atomics),        cmocka_unit_test(test_failures_and_recovery),
		cmocka_unit_test(test_event_handle),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
