/*
 * softdoca tests: device source of the RDMA program (rdma_main.c). One DPA
 * thread, bound to the completion contexts of an initiator and a target
 * RDMA context on the DPA data path, records every completion and runs the
 * command the host set before notifying it.
 */
#include <doca_dpa_dev.h>
#include <doca_dpa_dev_rdma.h>
#include <doca_dpa_dev_sync_event.h>

#include "rdma_common.h"

__dpa_rpc__ uint64_t rdma_rpc_notify(doca_dpa_dev_notification_completion_t h)
{
	doca_dpa_dev_thread_notify(h);
	return 0;
}

static void drain(struct rdma_state *s, doca_dpa_dev_completion_t comp, uint32_t source)
{
	doca_dpa_dev_completion_element_t e;

	while (doca_dpa_dev_get_completion(comp, &e)) {
		if (s->num_records < MAX_RECORDS) {
			struct cqe_record *r = &s->records[s->num_records];
			r->type = doca_dpa_dev_get_completion_type(e);
			r->user_data = doca_dpa_dev_get_completion_user_data(e);
			r->immediate = doca_dpa_dev_get_completion_immediate(e);
			r->wr_index = doca_dpa_dev_rdma_completion_get_wr_index(e);
			r->source = source;
		}
		s->num_records++;
		doca_dpa_dev_completion_ack(comp, 1);
	}
}

static void receives(struct rdma_state *s)
{
	doca_dpa_dev_rdma_post_receive(s->tgt_rdma, s->tgt_mmap, s->tgt_buf + TGT_RECV_AT, 64);
	doca_dpa_dev_rdma_post_receive(s->tgt_rdma, s->tgt_mmap, s->tgt_buf + TGT_RECV_AT + 64, 64);
	doca_dpa_dev_rdma_post_receive(s->init_rdma, s->init_mmap, s->init_buf + INIT_LOOP_RECV_AT,
	                               64);
}

static void ops(struct rdma_state *s)
{
	const uint32_t f = DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH;
	unsigned char *send = (unsigned char *)(s->init_buf + INIT_SEND_AT);

	doca_dpa_dev_rdma_post_write(s->init_rdma, s->conn0, s->tgt_remote_mmap,
	                             s->tgt_buf + TGT_WRITE_AT, s->init_mmap,
	                             s->init_buf + INIT_SRC_AT, 64, f);
	doca_dpa_dev_rdma_post_read(s->init_rdma, s->conn0, s->init_mmap,
	                            s->init_buf + INIT_READ_AT, s->tgt_remote_mmap,
	                            s->tgt_buf + TGT_READ_AT, 64, f);
	doca_dpa_dev_rdma_post_send_imm(s->init_rdma, s->conn0, s->init_mmap,
	                                s->init_buf + INIT_SEND_AT, 32, IMM_SEND, f);
	/* The payload was taken at post time: this must not arrive. */
	for (int i = 0; i < 32; i++)
		send[i] = 0xee;
	/* From DPA memory: the heap mmap holds the write-imm's source. */
	doca_dpa_dev_rdma_post_write_imm(s->init_rdma, s->conn0, s->tgt_remote_mmap,
	                                 s->tgt_buf + TGT_WRITE_IMM_AT, s->heap_mmap, s->heap_buf,
	                                 16, IMM_WRITE, f);
	doca_dpa_dev_rdma_post_atomic_fetch_add(s->init_rdma, s->conn0, s->tgt_remote_mmap,
	                                        s->tgt_buf + TGT_ATOMIC_AT, 5, f);
	/* To the context's own export: lands in its own receive. */
	doca_dpa_dev_rdma_post_send_imm(s->init_rdma, s->conn_loop, s->init_mmap,
	                                s->init_buf + INIT_LOOP_SEND_AT, 24, IMM_LOOP, f);
}

static void optimize(struct rdma_state *s)
{
	for (uint64_t i = 0; i < 5; i++) {
		uint32_t flags = i < 4 ? DOCA_DPA_DEV_SUBMIT_FLAG_OPTIMIZE_REPORTS
		                       : DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH;
		doca_dpa_dev_rdma_post_write(s->init_rdma, s->conn0, s->tgt_remote_mmap,
		                             s->tgt_buf + TGT_OPT_AT + i * 64, s->init_mmap,
		                             s->init_buf + INIT_SRC_AT, 64, flags);
	}
}

static void signal(struct rdma_state *s)
{
	doca_dpa_dev_rdma_signal_set(s->init_rdma, s->conn0, s->signal, 40);
	doca_dpa_dev_rdma_signal_add(s->init_rdma, s->conn0, s->signal, 2);
}

static void bufs(struct rdma_state *s)
{
	const uint32_t f = DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH;

	doca_dpa_dev_rdma_post_buf_write(
	        s->init_rdma, s->conn0,
	        doca_dpa_dev_buf_array_get_buf(s->tgt_remote_arr, BUF_WRITE_DST),
	        doca_dpa_dev_buf_array_get_buf(s->init_arr, BUF_WRITE_SRC), f);
	doca_dpa_dev_rdma_post_buf_read(
	        s->init_rdma, s->conn0, doca_dpa_dev_buf_array_get_buf(s->init_arr, BUF_READ_DST),
	        doca_dpa_dev_buf_array_get_buf(s->tgt_remote_arr, BUF_READ_SRC), f);
}

/* A held write, bad work request kind on its own connection, a write: the
 * first completes, the bad one fails (SEND_ERR) and the last is flushed. */
static void bad_wr(struct rdma_state *s)
{
	const uint32_t f = DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH;
	const uint32_t c = s->bad_conn[s->bad_kind];
	const uint64_t r = s->bad_rdma;
	struct doca_dpa_dev_buf dst = { .addr = s->init_buf + BAD_DONE_AT,
		                        .len = 8,
		                        .mmap = s->init_remote_mmap };

	doca_dpa_dev_rdma_post_write(r, c, s->init_remote_mmap, s->init_buf + BAD_DONE_AT,
	                             s->init_mmap, s->init_buf + INIT_SRC_AT, 8,
	                             DOCA_DPA_DEV_SUBMIT_FLAG_NONE);
	switch (s->bad_kind) {
	case BAD_LOCAL_MMAP:
		doca_dpa_dev_rdma_post_write(r, c, s->init_remote_mmap, s->init_buf, 0xfffff,
		                             s->init_buf, 8, f);
		break;
	case BAD_REMOTE_KIND:
		doca_dpa_dev_rdma_post_write(r, c, s->init_mmap, s->init_buf, s->init_mmap,
		                             s->init_buf, 8, f);
		break;
	case BAD_REMOTE_RANGE:
		doca_dpa_dev_rdma_post_write(r, c, s->init_remote_mmap, s->init_buf + BUF_SIZE - 4,
		                             s->init_mmap, s->init_buf, 8, f);
		break;
	case BAD_READ_RO:
		doca_dpa_dev_rdma_post_read(r, c, s->ro_local_mmap, s->ro_local_buf,
		                            s->init_remote_mmap, s->init_buf, 8, f);
		break;
	case BAD_LENGTH:
		doca_dpa_dev_rdma_post_send(r, c, s->init_mmap, s->init_buf, (1ull << 31) + 1, f);
		break;
	case BAD_FLAGS:
		doca_dpa_dev_rdma_post_write(r, c, s->init_remote_mmap, s->init_buf, s->init_mmap,
		                             s->init_buf, 8, f | 1u << 5);
		break;
	case BAD_SIGNAL:
		doca_dpa_dev_rdma_signal_add(r, c, 0x1234, 1);
		break;
	case BAD_NULL_BUF:
		doca_dpa_dev_rdma_post_buf_write(r, c, (doca_dpa_dev_buf_t)(uintptr_t)&dst, 0, f);
		break;
	}
	doca_dpa_dev_rdma_post_write(r, c, s->init_remote_mmap, s->init_buf + BAD_FLUSHED_AT,
	                             s->init_mmap, s->init_buf + INIT_SRC_AT, 8, f);
}

/* A bad receive, then a send that consumes it: both fail (RECV_ERR and
 * SEND_ERR), and so does the connection. */
static void bad_recv(struct rdma_state *s)
{
	const uint32_t c = s->bad_conn[s->bad_kind];
	const uint64_t r = s->bad_rdma;

	switch (s->bad_kind) {
	case BAD_RECV_MMAP:
		doca_dpa_dev_rdma_post_receive(r, 0xfffff, s->init_buf, 8);
		break;
	case BAD_RECV_RO:
		doca_dpa_dev_rdma_post_receive(r, s->ro_local_mmap, s->ro_local_buf, 8);
		break;
	case BAD_RECV_RANGE:
		doca_dpa_dev_rdma_post_receive(r, s->init_mmap, s->init_buf + BUF_SIZE - 4, 8);
		break;
	}
	doca_dpa_dev_rdma_post_send(r, c, s->init_mmap, s->init_buf + INIT_SRC_AT, 8,
	                            DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH);
}

static void hold(struct rdma_state *s, uint64_t at, uint32_t flags)
{
	doca_dpa_dev_rdma_post_write(s->init_rdma, s->conn0, s->tgt_remote_mmap, s->tgt_buf + at,
	                             s->init_mmap, s->init_buf + INIT_SRC_AT, 64, flags);
}

/* A send of no bytes (its payload has no bounce buffer) into a receive. */
static void zero_send(struct rdma_state *s)
{
	doca_dpa_dev_rdma_post_receive(s->tgt_rdma, s->tgt_mmap, s->tgt_buf + TGT_ZERO_RECV_AT, 8);
	doca_dpa_dev_rdma_post_send(s->init_rdma, s->conn0, s->init_mmap, s->init_buf + INIT_SRC_AT,
	                            0, DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH);
}

/* Over the loopback connection, into memory its export does not let peers
 * write: the responder refuses it, the requester raises SEND_ERR. */
static void remote_err(struct rdma_state *s)
{
	doca_dpa_dev_rdma_post_write(s->init_rdma, s->conn_loop, s->ro_remote_mmap,
	                             s->init_buf + RO_AT, s->init_mmap, s->init_buf + INIT_SRC_AT,
	                             8, DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH);
}

__dpa_global__ void rdma_kernel(uint64_t arg)
{
	struct rdma_state *s = (struct rdma_state *)doca_dpa_dev_thread_get_local_storage();

	(void)arg;
	drain(s, s->init_comp, 0);
	drain(s, s->tgt_comp, 1);
	drain(s, s->bad_comp, 2);
	if (s->seq != s->seq_done) {
		switch (s->cmd) {
		case CMD_RECEIVES:
			receives(s);
			break;
		case CMD_OPS:
			ops(s);
			break;
		case CMD_OPTIMIZE:
			optimize(s);
			break;
		case CMD_SIGNAL:
			signal(s);
			break;
		case CMD_BUFS:
			bufs(s);
			break;
		case CMD_HOLD:
			hold(s, TGT_HOLD_AT, DOCA_DPA_DEV_SUBMIT_FLAG_NONE);
			break;
		case CMD_FLUSH:
			hold(s, TGT_HOLD_AT + 64, DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH);
			break;
		case CMD_ZERO_SEND:
			zero_send(s);
			break;
		case CMD_REMOTE_ERR:
			remote_err(s);
			break;
		case CMD_BAD_WR:
			bad_wr(s);
			break;
		case CMD_BAD_RECV:
			bad_recv(s);
			break;
		}
		s->cmd_done = s->cmd;
		s->seq_done = s->seq;
	}
	doca_dpa_dev_completion_request_notification(s->init_comp);
	doca_dpa_dev_completion_request_notification(s->tgt_comp);
	doca_dpa_dev_completion_request_notification(s->bad_comp);
	/* records + commands done: the host waits for a value past both */
	doca_dpa_dev_sync_event_update_set(s->done, s->num_records << 16 | s->seq_done);
	doca_dpa_dev_thread_reschedule();
}

/* Runs victim_cmd: a post with no queue to fail on stops the thread (error
 * state), so victim_after never moves. */
__dpa_global__ void victim_kernel(uint64_t arg)
{
	struct rdma_state *s = (struct rdma_state *)doca_dpa_dev_thread_get_local_storage();

	(void)arg;
	s->victim_runs++;
	switch (s->victim_cmd) {
	case VICTIM_BAD_HANDLE:
		doca_dpa_dev_rdma_post_write(s->init_rdma ^ 0x5a5a, s->conn0, s->tgt_remote_mmap,
		                             s->tgt_buf, s->init_mmap, s->init_buf, 8,
		                             DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH);
		break;
	case VICTIM_BAD_CONN:
		doca_dpa_dev_rdma_post_send(s->init_rdma, 999, s->init_mmap, s->init_buf, 8,
		                            DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH);
		break;
	case VICTIM_RECV_FULL:
		for (int i = 0; i <= BAD_RECV_QUEUE; i++)
			doca_dpa_dev_rdma_post_receive(s->bad_rdma, s->init_mmap, s->init_buf, 8);
		break;
	}
	s->victim_after++;
	doca_dpa_dev_thread_reschedule();
}

/* An RPC's post with no queue: the RPC ends, doca_dpa_rpc returns the error. */
__dpa_rpc__ uint64_t rdma_rpc_bad_post(doca_dpa_dev_rdma_t rdma, uint32_t conn, uint32_t mmap,
                                       uint64_t addr)
{
	doca_dpa_dev_rdma_post_send(rdma, conn, mmap, addr, 8, DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH);
	return 7; /* never returned */
}
