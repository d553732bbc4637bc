/*
 * softdoca tests: the host part of the RDMA program built by the dpacc
 * stand-in (rdma_kernels.c). One process has an initiator and a target
 * RDMA context on the DPA data path (no progress engine; started and
 * stopped synchronously); the initiator has two connections, one to the
 * target and one to its own export. A DPA thread bound to both contexts'
 * completion contexts posts write, read, send-imm, write-imm and
 * fetch-add, and the test checks the bytes that arrived and each
 * completion's type, immediate, user data (the connection id) and wr
 * index; an OPTIMIZE_REPORTS batch raises exactly one completion;
 * signal_set/add reach a remote-net event with no completion. Bad posts
 * (docs/dpa.md 2.12), on a third context with a loopback connection per
 * bad kind: a bad work request fails in its turn (SEND_ERR, the held post
 * before it completes, the one after it is flushed), a bad receive fails
 * the send that consumes it (RECV_ERR + SEND_ERR); a post with no queue to
 * fail on stops a second DPA thread (error state) and ends an RPC; each is
 * logged naming the kernel and thread (an SDK log backend on a memfd) and
 * the DPA's last error.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "unit/testing.h"

#include <doca_buf_array.h>
#include <doca_ctx.h>
#include <doca_dpa.h>
#include <doca_dpa_dev.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_rdma.h>
#include <doca_sync_event.h>

#include "rdma_common.h"

extern struct doca_dpa_app *rdma_test_app;
doca_dpa_func_t rdma_rpc_notify;
doca_dpa_func_t rdma_kernel;
doca_dpa_func_t victim_kernel;
doca_dpa_func_t rdma_rpc_bad_post;

#define PERMS                                                              \
	(DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE | \
	 DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_ATOMIC)

static struct doca_dev *dev;
static struct doca_dpa *dpa;
static struct doca_dpa_thread *thread;
static struct doca_dpa_notification_completion *nc;
static doca_dpa_dev_notification_completion_t nc_handle;
static struct doca_dpa_completion *init_comp, *tgt_comp;
static struct doca_rdma *init_rdma, *tgt_rdma;
static struct doca_rdma_connection *conn0, *conn_loop, *tgt_conn0;
static uint32_t tgt_conn0_id;
static struct doca_mmap *init_mmap, *tgt_mmap, *init_remote, *tgt_remote, *heap_mmap;
static struct doca_mmap *ro_mmap, *ro_remote;
static struct doca_buf_arr *init_arr, *tgt_remote_arr;
static struct doca_sync_event *done_ev, *sig_ev;
static struct doca_sync_event_remote_net *sig_remote;
static doca_dpa_dev_uintptr_t storage, heap;
static struct rdma_state *st; /* DPA memory is host memory */
static _Alignas(64) unsigned char init_buf[BUF_SIZE], tgt_buf[BUF_SIZE];
static unsigned char heap_pattern[64];
/* the bad-post context, its loopback connections, the victim thread */
static struct doca_dpa_completion *bad_comp;
static struct doca_rdma *bad_rdma;
static struct doca_rdma_connection *bad_conns[NUM_BAD];
static struct doca_mmap *ro_local;
static _Alignas(64) unsigned char ro_local_buf[64];
static struct doca_dpa_thread *victim;
static struct doca_dpa_notification_completion *victim_nc;
static doca_dpa_dev_notification_completion_t victim_nc_handle;
static int log_fd = -1; /* the SDK log, read back by the bad-post tests */

static struct doca_mmap *mmap_local(void *addr, size_t len)
{
	struct doca_mmap *m;

	assert_doca_ok(doca_mmap_create(&m));
	assert_doca_ok(doca_mmap_set_memrange(m, addr, len));
	assert_doca_ok(doca_mmap_add_dev(m, dev));
	assert_doca_ok(doca_mmap_set_permissions(m, PERMS));
	assert_doca_ok(doca_mmap_start(m));
	return m;
}

static struct doca_mmap *mmap_import(struct doca_mmap *m)
{
	const void *desc;
	size_t len;
	struct doca_mmap *remote;

	assert_doca_ok(doca_mmap_export_rdma(m, dev, &desc, &len));
	assert_doca_ok(doca_mmap_create_from_export(NULL, desc, len, dev, &remote));
	return remote;
}

static uint32_t mmap_handle(struct doca_mmap *m)
{
	doca_dpa_dev_mmap_t h = 0;

	assert_doca_ok(doca_mmap_dev_get_dpa_handle(m, dev, &h));
	assert_int_not_equal(h, 0);
	return h;
}

/* A buffer array on the DPA: one 64-byte element after another. */
static struct doca_buf_arr *arr_create(struct doca_mmap *m, uint64_t *handle)
{
	struct doca_buf_arr *a;

	assert_doca_ok(doca_buf_arr_create(BUF_SIZE / ARR_ELEM, &a));
	assert_doca_ok(doca_buf_arr_set_target_dpa(a, dpa));
	assert_doca_ok(doca_buf_arr_set_params(a, m, ARR_ELEM, 0));
	assert_doca_ok(doca_buf_arr_start(a));
	assert_doca_ok(doca_buf_arr_get_dpa_handle(a, handle));
	assert_int_not_equal(*handle, 0);
	return a;
}

static struct doca_dpa_completion *comp_create(uint64_t *handle)
{
	struct doca_dpa_completion *c;

	assert_doca_ok(doca_dpa_completion_create(dpa, 64, &c));
	assert_doca_ok(doca_dpa_completion_set_thread(c, thread));
	assert_doca_ok(doca_dpa_completion_start(c));
	assert_doca_ok(doca_dpa_completion_get_dpa_handle(c, handle));
	return c;
}

static struct doca_rdma *rdma_create_sized(struct doca_dpa_completion *comp, uint64_t *handle,
                                           uint32_t recv_queue, uint16_t conns)
{
	struct doca_rdma *r;
	enum doca_ctx_states state;
	doca_dpa_dev_rdma_t h;

	assert_doca_ok(doca_rdma_create(dev, &r));
	assert_doca_ok(doca_rdma_set_permissions(r, PERMS));
	assert_doca_ok(doca_rdma_set_send_queue_size(r, 64));
	assert_doca_ok(doca_rdma_set_recv_queue_size(r, recv_queue));
	assert_doca_ok(doca_rdma_set_max_num_connections(r, conns));
	assert_doca_ok(doca_ctx_set_datapath_on_dpa(doca_rdma_as_ctx(r), dpa));
	assert_doca_ok(doca_rdma_dpa_completion_attach(r, comp));
	assert_int_equal(doca_dpa_completion_destroy(comp), DOCA_ERROR_IN_USE);
	assert_int_equal(doca_rdma_get_dpa_handle(r, &h), DOCA_ERROR_BAD_STATE);
	/* No progress engine: RUNNING when the start returns. */
	assert_doca_ok(doca_ctx_start(doca_rdma_as_ctx(r)));
	assert_doca_ok(doca_ctx_get_state(doca_rdma_as_ctx(r), &state));
	assert_int_equal(state, DOCA_CTX_STATE_RUNNING);
	assert_int_equal(doca_ctx_set_datapath_on_dpa(doca_rdma_as_ctx(r), dpa),
	                 DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_rdma_get_dpa_handle(r, &h));
	assert_int_not_equal(h, 0);
	*handle = h;
	return r;
}

static struct doca_rdma *rdma_create(struct doca_dpa_completion *comp, uint64_t *handle)
{
	return rdma_create_sized(comp, handle, 64, 4);
}

static void connect_pair(struct doca_rdma *a, struct doca_rdma_connection **ca, struct doca_rdma *b,
                         struct doca_rdma_connection **cb)
{
	const void *da, *db;
	size_t la, lb;

	assert_doca_ok(doca_rdma_export(a, &da, &la, ca));
	if (a == b && ca == cb) { /* to its own export */
		assert_doca_ok(doca_rdma_connect(a, da, la, *ca));
		return;
	}
	assert_doca_ok(doca_rdma_export(b, &db, &lb, cb));
	assert_doca_ok(doca_rdma_connect(a, db, lb, *ca));
	assert_doca_ok(doca_rdma_connect(b, da, la, *cb));
}

static uint32_t conn_id(struct doca_rdma_connection *c)
{
	uint32_t id;

	assert_doca_ok(doca_rdma_connection_get_id(c, &id));
	return id;
}

static int setup(void **unused)
{
	(void)unused;
	for (int i = 0; i < BUF_SIZE; i++) {
		init_buf[i] = (unsigned char)(i * 7 + 1);
		tgt_buf[i] = (unsigned char)(i * 13 + 5);
	}
	memset(tgt_buf + TGT_RECV_AT, 0, 128);
	memset(tgt_buf + TGT_OPT_AT, 0, 5 * 64);
	memset(init_buf + INIT_LOOP_RECV_AT, 0, 64);
	uint64_t counter = 100;
	memcpy(tgt_buf + TGT_ATOMIC_AT, &counter, sizeof(counter));
	for (int i = 0; i < 64; i++)
		heap_pattern[i] = (unsigned char)(0xa0 + i);

	struct doca_log_backend *backend;
	log_fd = memfd_create("dpa_rdma_log", 0);
	assert_true(log_fd >= 0);
	assert_doca_ok(doca_log_backend_create_with_fd_sdk(log_fd, &backend));
	assert_doca_ok(doca_log_backend_create_with_fd_sdk(STDERR_FILENO, &backend));
	dev = open_loopback_dev();
	assert_doca_ok(doca_dpa_create(dev, &dpa));
	assert_doca_ok(doca_dpa_set_app(dpa, rdma_test_app));
	assert_doca_ok(doca_dpa_start(dpa));
	assert_doca_ok(doca_dpa_mem_alloc(dpa, sizeof(struct rdma_state), &storage));
	assert_doca_ok(doca_dpa_memset(dpa, storage, 0, sizeof(struct rdma_state)));
	st = (struct rdma_state *)(uintptr_t)storage;
	assert_doca_ok(doca_dpa_mem_alloc(dpa, sizeof(heap_pattern), &heap));
	assert_doca_ok(doca_dpa_h2d_memcpy(dpa, heap, heap_pattern, sizeof(heap_pattern)));

	assert_doca_ok(doca_dpa_thread_create(dpa, &thread));
	assert_doca_ok(doca_dpa_thread_set_func_arg(thread, &rdma_kernel, 0));
	assert_doca_ok(doca_dpa_thread_set_local_storage(thread, storage));
	assert_doca_ok(doca_dpa_thread_start(thread));
	assert_doca_ok(doca_dpa_notification_completion_create(dpa, thread, &nc));
	assert_doca_ok(doca_dpa_notification_completion_start(nc));
	assert_doca_ok(doca_dpa_notification_completion_get_dpa_handle(nc, &nc_handle));
	init_comp = comp_create(&st->init_comp);
	tgt_comp = comp_create(&st->tgt_comp);
	bad_comp = comp_create(&st->bad_comp);

	init_rdma = rdma_create(init_comp, &st->init_rdma);
	tgt_rdma = rdma_create(tgt_comp, &st->tgt_rdma);
	connect_pair(init_rdma, &conn0, tgt_rdma, &tgt_conn0);
	connect_pair(init_rdma, &conn_loop, init_rdma, &conn_loop);
	st->conn0 = conn_id(conn0);
	st->conn_loop = conn_id(conn_loop);
	tgt_conn0_id = conn_id(tgt_conn0);
	bad_rdma = rdma_create_sized(bad_comp, &st->bad_rdma, BAD_RECV_QUEUE, NUM_BAD + 1);
	for (int k = 0; k < NUM_BAD; k++) {
		connect_pair(bad_rdma, &bad_conns[k], bad_rdma, &bad_conns[k]);
		st->bad_conn[k] = conn_id(bad_conns[k]);
	}

	init_mmap = mmap_local(init_buf, sizeof(init_buf));
	tgt_mmap = mmap_local(tgt_buf, sizeof(tgt_buf));
	init_remote = mmap_import(init_mmap);
	tgt_remote = mmap_import(tgt_mmap);
	assert_doca_ok(doca_mmap_create(&heap_mmap));
	assert_doca_ok(doca_mmap_set_dpa_memrange(heap_mmap, dpa, heap, sizeof(heap_pattern)));
	assert_doca_ok(doca_mmap_add_dev(heap_mmap, dev));
	assert_doca_ok(doca_mmap_set_permissions(heap_mmap, PERMS));
	assert_doca_ok(doca_mmap_start(heap_mmap));
	st->init_mmap = mmap_handle(init_mmap);
	st->tgt_mmap = mmap_handle(tgt_mmap);
	st->init_remote_mmap = mmap_handle(init_remote);
	st->tgt_remote_mmap = mmap_handle(tgt_remote);
	st->heap_mmap = mmap_handle(heap_mmap);
	assert_doca_ok(doca_mmap_create(&ro_mmap));
	assert_doca_ok(doca_mmap_set_memrange(ro_mmap, init_buf + RO_AT, BUF_SIZE - RO_AT));
	assert_doca_ok(doca_mmap_add_dev(ro_mmap, dev));
	assert_doca_ok(doca_mmap_set_permissions(ro_mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE |
	                                                          DOCA_ACCESS_FLAG_RDMA_READ));
	assert_doca_ok(doca_mmap_start(ro_mmap));
	ro_remote = mmap_import(ro_mmap);
	st->ro_remote_mmap = mmap_handle(ro_remote);
	assert_doca_ok(doca_mmap_create(&ro_local));
	assert_doca_ok(doca_mmap_set_memrange(ro_local, ro_local_buf, sizeof(ro_local_buf)));
	assert_doca_ok(doca_mmap_add_dev(ro_local, dev));
	assert_doca_ok(doca_mmap_set_permissions(ro_local, DOCA_ACCESS_FLAG_LOCAL_READ_ONLY));
	assert_doca_ok(doca_mmap_start(ro_local));
	st->ro_local_mmap = mmap_handle(ro_local);
	st->ro_local_buf = (uintptr_t)ro_local_buf;
	st->init_buf = (uintptr_t)init_buf;
	st->tgt_buf = (uintptr_t)tgt_buf;
	st->heap_buf = heap;
	init_arr = arr_create(init_mmap, &st->init_arr);
	tgt_remote_arr = arr_create(tgt_remote, &st->tgt_remote_arr);

	assert_doca_ok(doca_sync_event_create(&done_ev));
	assert_doca_ok(doca_sync_event_add_publisher_location_dpa(done_ev, dpa));
	assert_doca_ok(doca_sync_event_add_subscriber_location_cpu(done_ev, dev));
	assert_doca_ok(doca_sync_event_start(done_ev));
	assert_doca_ok(doca_sync_event_get_dpa_handle(done_ev, dpa, &st->done));
	/* The target's event, signalled over conn0. */
	const uint8_t *data;
	size_t sz;
	assert_doca_ok(doca_sync_event_create(&sig_ev));
	assert_doca_ok(doca_sync_event_add_publisher_location_remote_net(sig_ev));
	assert_doca_ok(doca_sync_event_add_subscriber_location_cpu(sig_ev, dev));
	assert_doca_ok(doca_sync_event_start(sig_ev));
	assert_doca_ok(doca_sync_event_export_to_remote_net(sig_ev, &data, &sz));
	assert_doca_ok(doca_sync_event_remote_net_create_from_export(dev, data, sz, &sig_remote));
	assert_doca_ok(doca_sync_event_remote_net_get_dpa_handle(sig_remote, dpa, &st->signal));
	assert_int_not_equal(st->signal, 0);
	assert_doca_ok(doca_dpa_thread_run(thread));

	/* started and run by each no-queue test (it stops in the error state) */
	assert_doca_ok(doca_dpa_thread_create(dpa, &victim));
	assert_doca_ok(doca_dpa_thread_set_func_arg(victim, &victim_kernel, 0));
	assert_doca_ok(doca_dpa_thread_set_local_storage(victim, storage));
	assert_doca_ok(doca_dpa_notification_completion_create(dpa, victim, &victim_nc));
	assert_doca_ok(doca_dpa_notification_completion_start(victim_nc));
	assert_doca_ok(
	        doca_dpa_notification_completion_get_dpa_handle(victim_nc, &victim_nc_handle));
	return 0;
}

static int teardown(void **unused)
{
	enum doca_ctx_states state;

	(void)unused;
	/* Synchronous stops: IDLE when they return. */
	assert_doca_ok(doca_ctx_stop(doca_rdma_as_ctx(init_rdma)));
	assert_doca_ok(doca_ctx_get_state(doca_rdma_as_ctx(init_rdma), &state));
	assert_int_equal(state, DOCA_CTX_STATE_IDLE);
	assert_doca_ok(doca_ctx_stop(doca_rdma_as_ctx(tgt_rdma)));
	assert_doca_ok(doca_ctx_stop(doca_rdma_as_ctx(bad_rdma)));
	assert_doca_ok(doca_rdma_destroy(init_rdma));
	assert_doca_ok(doca_rdma_destroy(tgt_rdma));
	assert_doca_ok(doca_rdma_destroy(bad_rdma));
	assert_doca_ok(doca_dpa_notification_completion_destroy(nc));
	assert_doca_ok(doca_dpa_notification_completion_destroy(victim_nc));
	assert_doca_ok(doca_dpa_thread_destroy(victim));
	assert_doca_ok(doca_dpa_thread_stop(thread));
	assert_doca_ok(doca_dpa_completion_stop(init_comp));
	assert_doca_ok(doca_dpa_completion_stop(tgt_comp));
	assert_doca_ok(doca_dpa_completion_stop(bad_comp));
	assert_doca_ok(doca_dpa_completion_destroy(init_comp));
	assert_doca_ok(doca_dpa_completion_destroy(tgt_comp));
	assert_doca_ok(doca_dpa_completion_destroy(bad_comp));
	assert_doca_ok(doca_dpa_thread_destroy(thread));
	assert_doca_ok(doca_sync_event_remote_net_destroy(sig_remote));
	assert_doca_ok(doca_sync_event_stop(sig_ev));
	assert_doca_ok(doca_sync_event_destroy(sig_ev));
	assert_doca_ok(doca_sync_event_stop(done_ev));
	assert_doca_ok(doca_sync_event_destroy(done_ev));
	assert_doca_ok(doca_buf_arr_destroy(init_arr));
	assert_doca_ok(doca_buf_arr_destroy(tgt_remote_arr));
	struct doca_mmap *mmaps[] = { init_remote, tgt_remote, ro_remote, init_mmap,
		                      tgt_mmap,    ro_mmap,    heap_mmap, ro_local };
	for (size_t i = 0; i < sizeof(mmaps) / sizeof(mmaps[0]); i++) {
		if (!mmaps[i])
			continue;
		(void)doca_mmap_stop(mmaps[i]);
		assert_doca_ok(doca_mmap_destroy(mmaps[i]));
	}
	assert_doca_ok(doca_dpa_mem_free(dpa, heap));
	assert_doca_ok(doca_dpa_mem_free(dpa, storage));
	assert_doca_ok(doca_dpa_stop(dpa));
	assert_doca_ok(doca_dpa_destroy(dpa));
	assert_doca_ok(doca_dev_close(dev));
	return 0;
}

/* Runs a command on the DPA thread and waits until it ran and the thread
 * saw at least records completions in all. */
static void run(enum rdma_cmd cmd, uint64_t records)
{
	uint64_t ret;

	st->cmd = cmd;
	st->seq++;
	assert_doca_ok(doca_dpa_rpc(dpa, &rdma_rpc_notify, &ret, nc_handle));
	assert_doca_ok(doca_sync_event_wait_gt(done_ev, (records << 16 | st->seq) - 1, UINT64_MAX));
}

/* The one record of the type and source from index first on, with its fields. */
static const struct cqe_record *find(uint64_t first, uint32_t type, uint32_t source,
                                     uint32_t user_data, uint32_t wr_index)
{
	const struct cqe_record *found = NULL;

	for (uint64_t i = first; i < st->num_records; i++) {
		const struct cqe_record *r = &st->records[i];
		if (r->type == type && r->source == source && r->user_data == user_data &&
		    r->wr_index == wr_index) {
			assert_null(found);
			found = r;
		}
	}
	if (!found)
		fail_msg("no completion of type %u, source %u, user data 0x%x, wr index %u", type,
		         source, user_data, wr_index);
	return found;
}

static void test_ops(void **unused)
{
	unsigned char sent[32];

	(void)unused;
	memcpy(sent, init_buf + INIT_SEND_AT, sizeof(sent));
	run(CMD_RECEIVES, 0);
	assert_int_equal(st->num_records, 0);
	run(CMD_OPS, 9);
	assert_int_equal(st->num_records, 9);
	/* the initiator's requests, in order on conn0 (wr index = position) */
	for (uint32_t i = 0; i < 5; i++)
		find(0, DOCA_DPA_DEV_COMP_SEND, 0, st->conn0, i);
	find(0, DOCA_DPA_DEV_COMP_SEND, 0, st->conn_loop, 0);
	/* the target's receives, in posting order */
	assert_int_equal(find(0, DOCA_DPA_DEV_COMP_RECV_SEND_IMM, 1, tgt_conn0_id, 0)->immediate,
	                 IMM_SEND);
	assert_int_equal(
	        find(0, DOCA_DPA_DEV_COMP_RECV_RDMA_WRITE_IMM, 1, tgt_conn0_id, 1)->immediate,
	        IMM_WRITE);
	/* the loopback send, received on the same connection */
	assert_int_equal(find(0, DOCA_DPA_DEV_COMP_RECV_SEND_IMM, 0, st->conn_loop, 0)->immediate,
	                 IMM_LOOP);

	assert_memory_equal(tgt_buf + TGT_WRITE_AT, init_buf + INIT_SRC_AT, 64);
	assert_memory_equal(init_buf + INIT_READ_AT, tgt_buf + TGT_READ_AT, 64);
	assert_memory_equal(tgt_buf + TGT_RECV_AT, sent, sizeof(sent)); /* not the 0xee */
	assert_memory_equal(tgt_buf + TGT_WRITE_IMM_AT, heap_pattern, 16);
	uint64_t counter;
	memcpy(&counter, tgt_buf + TGT_ATOMIC_AT, sizeof(counter));
	assert_int_equal(counter, 105);
	assert_memory_equal(init_buf + INIT_LOOP_RECV_AT, init_buf + INIT_LOOP_SEND_AT, 24);
	assert_doca_ok(doca_dpa_peek_at_last_error(dpa));
}

/* Four optimized writes raise nothing; the fifth (FLUSH) raises its own,
 * and its completion means all five landed. */
static void test_optimize_reports(void **unused)
{
	(void)unused;
	run(CMD_OPTIMIZE, 10);
	assert_int_equal(st->num_records, 10);
	find(9, DOCA_DPA_DEV_COMP_SEND, 0, st->conn0, 9);
	for (int i = 0; i < 5; i++)
		assert_memory_equal(tgt_buf + TGT_OPT_AT + i * 64, init_buf + INIT_SRC_AT, 64);
	assert_doca_ok(doca_dpa_peek_at_last_error(dpa));
}

/* signal_set then signal_add reach the target's event; no completion. */
static void test_signals(void **unused)
{
	uint64_t value;

	(void)unused;
	run(CMD_SIGNAL, 10);
	assert_doca_ok(doca_sync_event_wait_gt(sig_ev, 41, UINT64_MAX));
	assert_doca_ok(doca_sync_event_get(sig_ev, &value));
	assert_int_equal(value, 42);
	assert_int_equal(st->num_records, 10);
	assert_doca_ok(doca_dpa_peek_at_last_error(dpa));
}

/* The _buf_ forms with buffers from arrays on the DPA (one over an mmap
 * created from an export). */
static void test_buf_arrays(void **unused)
{
	(void)unused;
	run(CMD_BUFS, 12);
	assert_int_equal(st->num_records, 12);
	find(10, DOCA_DPA_DEV_COMP_SEND, 0, st->conn0, 12);
	find(10, DOCA_DPA_DEV_COMP_SEND, 0, st->conn0, 13);
	assert_memory_equal(tgt_buf + BUF_WRITE_DST * ARR_ELEM, init_buf + BUF_WRITE_SRC * ARR_ELEM,
	                    ARR_ELEM);
	assert_memory_equal(init_buf + BUF_READ_DST * ARR_ELEM, tgt_buf + BUF_READ_SRC * ARR_ELEM,
	                    ARR_ELEM);
	assert_doca_ok(doca_dpa_peek_at_last_error(dpa));
}

/* A post without FLUSH is held: once the command ran, nothing arrived and
 * nothing completed (deterministic: it never reached the soft NIC). The
 * next FLUSH post sends it, then itself: two completions, in order. */
static void test_held_until_flush(void **unused)
{
	unsigned char before[64];

	(void)unused;
	memcpy(before, tgt_buf + TGT_HOLD_AT, sizeof(before));
	run(CMD_HOLD, 12);
	assert_int_equal(st->num_records, 12);
	assert_memory_equal(tgt_buf + TGT_HOLD_AT, before, sizeof(before));
	run(CMD_FLUSH, 14);
	assert_int_equal(st->num_records, 14);
	assert_int_equal(st->records[12].wr_index, 14);
	assert_int_equal(st->records[13].wr_index, 15);
	assert_memory_equal(tgt_buf + TGT_HOLD_AT, init_buf + INIT_SRC_AT, 64);
	assert_memory_equal(tgt_buf + TGT_HOLD_AT + 64, init_buf + INIT_SRC_AT, 64);
}

/* A send of 0 bytes (found by fuzz_dpa_post: its payload had no bounce
 * buffer, so the transport was handed a NULL iov base) completes on both
 * sides and changes no byte of the receive. */
static void test_zero_length_send(void **unused)
{
	unsigned char before[8];

	(void)unused;
	memcpy(before, tgt_buf + TGT_ZERO_RECV_AT, sizeof(before));
	run(CMD_ZERO_SEND, 16);
	assert_int_equal(st->num_records, 16);
	find(14, DOCA_DPA_DEV_COMP_SEND, 0, st->conn0, 16);
	find(14, DOCA_DPA_DEV_COMP_RECV_SEND, 1, tgt_conn0_id, 2);
	assert_memory_equal(tgt_buf + TGT_ZERO_RECV_AT, before, sizeof(before));
}

/* A write the target memory's export does not allow: refused by the peer,
 * reported as SEND_ERR with the connection id; the bytes are unchanged. */
static void test_remote_error(void **unused)
{
	unsigned char before[8];

	(void)unused;
	memcpy(before, init_buf + RO_AT, sizeof(before));
	run(CMD_REMOTE_ERR, 17);
	assert_int_equal(st->num_records, 17);
	const struct cqe_record *r = &st->records[16];
	assert_int_equal(r->type, DOCA_DPA_DEV_COMP_SEND_ERR);
	assert_int_equal(r->user_data, st->conn_loop);
	assert_memory_equal(init_buf + RO_AT, before, sizeof(before));
}

/* The SDK log so far (the memfd), NUL-terminated; static buffer. */
static const char *log_text(void)
{
	static char text[1 << 20];
	ssize_t n = pread(log_fd, text, sizeof(text) - 1, 0);

	assert_true(n >= 0);
	text[n] = 0;
	return text;
}

static unsigned int log_count(const char *needle)
{
	unsigned int n = 0;

	for (const char *p = log_text(); (p = strstr(p, needle)) != NULL; p += strlen(needle))
		n++;
	return n;
}

/* Waits (10 s at most) until the log has `count` lines with needle. */
static void wait_log(const char *needle, unsigned int count)
{
	struct timespec pause = { 0, 1000000 };

	for (int i = 0; i < 10000 && log_count(needle) < count; i++)
		nanosleep(&pause, NULL);
	assert_int_equal(log_count(needle), count);
}

static uint32_t thread_id(struct doca_dpa_thread *t)
{
	uint32_t id;

	assert_doca_ok(doca_dpa_thread_get_id(t, &id));
	return id;
}

/* Each bad work request, on a loopback connection of its own: the write
 * held before it completes (its bytes land), the bad one fails with
 * SEND_ERR, the write after it is flushed with SEND_ERR (its bytes never
 * land): exactly three completions, in order. Logged, the last error. */
static void test_bad_work_requests(void **unused)
{
	char line[256];

	(void)unused;
	for (uint32_t k = 0; k < NUM_BAD_WR; k++) {
		uint64_t before = st->num_records;
		uint32_t c = st->bad_conn[k];

		memset(init_buf + BAD_DONE_AT, 0, 128);
		st->bad_kind = k;
		run(CMD_BAD_WR, before + 3);
		assert_int_equal(st->num_records, before + 3);
		for (uint32_t i = 0; i < 3; i++) {
			const struct cqe_record *r = &st->records[before + i];

			assert_int_equal(r->type, i == 0 ? DOCA_DPA_DEV_COMP_SEND
			                                 : DOCA_DPA_DEV_COMP_SEND_ERR);
			assert_int_equal(r->source, 2);
			assert_int_equal(r->user_data, c);
			assert_int_equal(r->wr_index, i);
		}
		assert_memory_equal(init_buf + BAD_DONE_AT, init_buf + INIT_SRC_AT, 8);
		for (int i = 0; i < 8; i++)
			assert_int_equal(init_buf[BAD_FLUSHED_AT + i], 0);
		assert_int_equal(doca_dpa_peek_at_last_error(dpa), DOCA_ERROR_INVALID_VALUE);
	}
	snprintf(line, sizeof(line),
	         "DPA kernel 'rdma_kernel' (thread %u): doca_dpa_dev_rdma_post_write: local mmap "
	         "handle 0xfffff is not registered: it fails with an error completion",
	         thread_id(thread));
	assert_int_equal(log_count(line), 1);
	assert_int_equal(log_count(": it fails with an error completion"), NUM_BAD_WR);
	/* The other connections are unaffected: conn0 still writes. */
	uint64_t before = st->num_records;
	run(CMD_FLUSH, before + 1);
	assert_int_equal(st->records[before].type, DOCA_DPA_DEV_COMP_SEND);
	assert_int_equal(st->records[before].user_data, st->conn0);
}

/* A bad receive fails when a message consumes it, as on RC: RECV_ERR for
 * it (with the connection it came on), SEND_ERR for the send. */
static void test_bad_receives(void **unused)
{
	(void)unused;
	for (uint32_t k = BAD_RECV_MMAP; k < NUM_BAD; k++) {
		uint64_t before = st->num_records;
		uint32_t c = st->bad_conn[k];

		st->bad_kind = k;
		run(CMD_BAD_RECV, before + 2);
		assert_int_equal(st->num_records, before + 2);
		find(before, DOCA_DPA_DEV_COMP_RECV_ERR, 2, c, k - BAD_RECV_MMAP);
		find(before, DOCA_DPA_DEV_COMP_SEND_ERR, 2, c, 0);
	}
	assert_int_equal(log_count("doca_dpa_dev_rdma_post_receive: receive"), 3);
	assert_int_equal(doca_dpa_peek_at_last_error(dpa), DOCA_ERROR_INVALID_VALUE);
}

/* A post with no queue to fail on: logged naming the kernel and thread,
 * and the thread stops in the error state: it never went on after the
 * post, and a notify no longer activates it; stop and start still work. */
static void test_no_queue_stops_thread(void **unused)
{
	static const char *const calls[] = {
		[VICTIM_BAD_HANDLE] = "doca_dpa_dev_rdma_post_write: RDMA handle",
		[VICTIM_BAD_CONN] = "doca_dpa_dev_rdma_post_send: connection id 0x3e7",
		[VICTIM_RECV_FULL] =
		        "doca_dpa_dev_rdma_post_receive: the receive queue (4) is full",
	};
	char line[200];
	uint64_t ret;

	(void)unused;
	for (uint32_t cmd = 0; cmd < NUM_VICTIM; cmd++) {
		uint64_t runs = st->victim_runs;

		st->victim_cmd = cmd;
		assert_doca_ok(doca_dpa_thread_start(victim));
		assert_doca_ok(doca_dpa_thread_run(victim));
		assert_doca_ok(doca_dpa_rpc(dpa, &rdma_rpc_notify, &ret, victim_nc_handle));
		wait_log("the DPA thread stops in the error state", cmd + 1);
		snprintf(line, sizeof(line), "DPA kernel 'victim_kernel' (thread %u): %s",
		         thread_id(victim), calls[cmd]);
		assert_int_equal(log_count(line), 1);
		/* In the error state: the notification is dropped; run refused. */
		assert_doca_ok(doca_dpa_rpc(dpa, &rdma_rpc_notify, &ret, victim_nc_handle));
		assert_int_equal(doca_dpa_thread_run(victim), DOCA_ERROR_BAD_STATE);
		assert_doca_ok(doca_dpa_thread_stop(victim));
		assert_int_equal(st->victim_runs, runs + 1);
		assert_int_equal(st->victim_after, 0);
	}
	assert_int_equal(log_count(": nothing to complete on"), NUM_VICTIM);
	/* The first device-side error stays the last error. */
	assert_int_equal(doca_dpa_peek_at_last_error(dpa), DOCA_ERROR_INVALID_VALUE);
}

/* In an RPC the same posts end it: doca_dpa_rpc returns their error. */
static void test_no_queue_ends_rpc(void **unused)
{
	uint64_t ret = 0;

	(void)unused;
	assert_int_equal(doca_dpa_rpc(dpa, &rdma_rpc_bad_post, &ret, st->init_rdma ^ 0x5a5a,
	                              st->conn0, st->init_mmap, st->init_buf),
	                 DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_dpa_rpc(dpa, &rdma_rpc_bad_post, &ret, st->init_rdma, (uint32_t)999,
	                              st->init_mmap, st->init_buf),
	                 DOCA_ERROR_NOT_CONNECTED);
	assert_int_equal(ret, 0);
	assert_int_equal(log_count("DPA kernel 'rdma_rpc_bad_post' (RPC): "
	                           "doca_dpa_dev_rdma_post_send: "),
	                 4); /* each: the bad post, then the RPC's end */
	assert_int_equal(
	        log_count("DPA kernel 'rdma_rpc_bad_post' (RPC): doca_dpa_dev_rdma_post_send: "
	                  "the RPC ends with"),
	        2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_optimize_reports),
		cmocka_unit_test(test_signals),
		cmocka_unit_test(test_buf_arrays),
		cmocka_unit_test(test_held_until_flush),
		cmocka_unit_test(test_zero_length_send),
		cmocka_unit_test(test_remote_error),
		cmocka_unit_test(test_bad_work_requests),
		cmocka_unit_test(test_bad_receives),
		cmocka_unit_test(test_no_queue_stops_thread),
		cmocka_unit_test(test_no_queue_ends_rpc),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
