/*
 * DOCA 2.2's RDMA API: jobs, results, states and old query names.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * DOCA 2.2's RDMA API: jobs, their results, the instance's states and 2.2's
 * names of the capability queries (softdoca_rdma_v2.h declares them for
 * SOFTDOCA_API_VERSION=202). A job is an RDMA task of its kind, allocated
 * from the context's job pool and submitted down the same path as 3.x
 * tasks; doca_workq queues its completion and turns it into the event.
 *
 * Built with the DOCA 2.2 headers (the job and result structures).
 */
#define SOFTDOCA_API_VERSION 202

#include <assert.h>
#include <stddef.h>
#include <string.h>

#include "core/buf.h"
#include "core/sdk_log.h"
#include "core/task.h"
#include "rdma/rdma.h"

SDOCA_LOG_MODULE(rdma_v202);

/* doca_rdma.h declares these for DOCA 2.5+ programs only. */
doca_error_t doca_rdma_cap_get_gid_table_size(const struct doca_devinfo *devinfo,
                                              uint32_t *gid_table_size);
doca_error_t doca_rdma_cap_get_gid(const struct doca_devinfo *devinfo, uint32_t start_index,
                                   uint32_t num_entries, struct doca_rdma_gid *gid_array);
doca_error_t doca_rdma_cap_transport_type_is_supported(const struct doca_devinfo *devinfo,
                                                       enum doca_rdma_transport_type type);
doca_error_t doca_rdma_task_receive_set_dst_buf_list_len(struct doca_rdma *rdma,
                                                         uint32_t buf_list_len);
doca_error_t doca_rdma_task_receive_get_dst_buf_list_len(const struct doca_rdma *rdma,
                                                         uint32_t *buf_list_len);
doca_error_t doca_rdma_cap_get_max_recv_queue_size(const struct doca_devinfo *devinfo,
                                                   uint32_t *max_recv_queue_size);
doca_error_t doca_rdma_cap_get_max_send_queue_size(const struct doca_devinfo *devinfo,
                                                   uint32_t *max_send_queue_size);
doca_error_t doca_rdma_cap_get_max_message_size(const struct doca_devinfo *devinfo,
                                                uint32_t *max_message_size);

/* The layouts DOCA 2.2 programs were compiled with (LP64). */
static_assert(sizeof(struct doca_job) == 24, "struct doca_job is 24 bytes");
static_assert(sizeof(struct doca_event) == 24, "struct doca_event is 24 bytes");
static_assert(sizeof(struct doca_rdma_job_recv) == 32, "doca_rdma_job_recv is 32 bytes");
static_assert(sizeof(struct doca_rdma_job_send) == 48, "doca_rdma_job_send is 48 bytes");
static_assert(sizeof(struct doca_rdma_job_read_write) == 56, "read_write job is 56 bytes");
static_assert(sizeof(struct doca_rdma_job_atomic) == 64, "doca_rdma_job_atomic is 64 bytes");
static_assert(sizeof(struct doca_rdma_result) == 32, "doca_rdma_result is 32 bytes");
static_assert(DOCA_RDMA_JOB_RECV == 851969 && DOCA_RDMA_JOB_ATOMIC_FETCH_ADD == 851976,
              "DOCA 2.2's job type values");

#define FIRST_JOB DOCA_RDMA_JOB_RECV
#define NUM_JOBS (DOCA_RDMA_JOB_ATOMIC_FETCH_ADD - DOCA_RDMA_JOB_RECV + 1)

/* Job type -> task kind, and back for the event. */
static const enum rdma_task_kind kind_of_job[NUM_JOBS] = {
	[DOCA_RDMA_JOB_RECV - FIRST_JOB] = RDMA_TASK_RECEIVE,
	[DOCA_RDMA_JOB_SEND - FIRST_JOB] = RDMA_TASK_SEND,
	[DOCA_RDMA_JOB_SEND_IMM - FIRST_JOB] = RDMA_TASK_SEND_IMM,
	[DOCA_RDMA_JOB_READ - FIRST_JOB] = RDMA_TASK_READ,
	[DOCA_RDMA_JOB_WRITE - FIRST_JOB] = RDMA_TASK_WRITE,
	[DOCA_RDMA_JOB_WRITE_IMM - FIRST_JOB] = RDMA_TASK_WRITE_IMM,
	[DOCA_RDMA_JOB_ATOMIC_CMP_SWP - FIRST_JOB] = RDMA_TASK_ATOMIC_CMP_SWP,
	[DOCA_RDMA_JOB_ATOMIC_FETCH_ADD - FIRST_JOB] = RDMA_TASK_ATOMIC_FETCH_ADD,
};

static const int job_of_kind[RDMA_TASK_KINDS] = {
	[RDMA_TASK_RECEIVE] = DOCA_RDMA_JOB_RECV,
	[RDMA_TASK_SEND] = DOCA_RDMA_JOB_SEND,
	[RDMA_TASK_SEND_IMM] = DOCA_RDMA_JOB_SEND_IMM,
	[RDMA_TASK_READ] = DOCA_RDMA_JOB_READ,
	[RDMA_TASK_WRITE] = DOCA_RDMA_JOB_WRITE,
	[RDMA_TASK_WRITE_IMM] = DOCA_RDMA_JOB_WRITE_IMM,
	[RDMA_TASK_ATOMIC_CMP_SWP] = DOCA_RDMA_JOB_ATOMIC_CMP_SWP,
	[RDMA_TASK_ATOMIC_FETCH_ADD] = DOCA_RDMA_JOB_ATOMIC_FETCH_ADD,
};

static bool is_rdma_job(int type)
{
	return type >= FIRST_JOB && type < FIRST_JOB + NUM_JOBS;
}

/*
 * Where data lands in a destination buffer (list): after its data section,
 * as DOCA 2.2 documents and 3.x does. A destination with no room after its
 * data section but a data section (the programming guide's snippets build
 * destinations with doca_buf_inventory_buf_by_data) takes the data at the
 * start of its data section instead, as DOCA 2.0 documented: its data length
 * is reset, then grows by what arrives (docs/compatibility.md).
 */
static __attribute__((noinline)) void land_at_start(struct doca_buf *dst)
{
	size_t room = 0, data = 0;

	for (struct doca_buf *b = dst; b; b = b->next) {
		room += sdoca_buf_tailroom(b);
		data += b->data_len;
	}
	if (room > 0 || data == 0)
		return;
	for (struct doca_buf *b = dst; b; b = b->next)
		b->data_len = 0;
}

/* The usual destination, one buffer with room or empty, costs no call. */
static inline void land_at_start_when_full(struct doca_buf *dst)
{
	if (dst && (dst->next || (dst->data_len != 0 && sdoca_buf_tailroom(dst) == 0)))
		land_at_start(dst);
}

/* The job's arguments as its task's; the task's row checks the buffers. */
static void job_args(const struct doca_job *job, struct rdma_task_args *args)
{
	const struct doca_rdma_job_send *send = (const void *)job;
	const struct doca_rdma_job_read_write *rw = (const void *)job;
	const struct doca_rdma_job_atomic *atomic = (const void *)job;

	switch (job->type) {
	case DOCA_RDMA_JOB_RECV:
		args->dst = ((const struct doca_rdma_job_recv *)(const void *)job)->dst_buff;
		land_at_start_when_full(args->dst);
		break;
	case DOCA_RDMA_JOB_SEND_IMM:
		args->imm = send->immediate_data;
		/* fall through */
	case DOCA_RDMA_JOB_SEND:
		args->src = send->src_buff;
		break;
	case DOCA_RDMA_JOB_WRITE_IMM:
		args->imm = rw->immediate_data;
		/* fall through */
	case DOCA_RDMA_JOB_READ:
	case DOCA_RDMA_JOB_WRITE:
		args->src = rw->src_buff;
		args->dst = rw->dst_buff;
		land_at_start_when_full(args->dst);
		break;
	case DOCA_RDMA_JOB_ATOMIC_CMP_SWP:
		args->dst = atomic->cmp_or_add_dest_buff;
		args->result = atomic->result_buff;
		args->operand1 = atomic->cmp_data;
		args->operand2 = atomic->swap_or_add_data;
		break;
	case DOCA_RDMA_JOB_ATOMIC_FETCH_ADD:
		args->dst = atomic->cmp_or_add_dest_buff;
		args->result = atomic->result_buff;
		args->operand1 = atomic->swap_or_add_data;
		break;
	}
}

/* doca_workq_submit() checked the context's state and the work queue's room. */
static doca_error_t job_submit(struct doca_ctx *ctx, const struct doca_job *job)
{
	struct doca_rdma *rdma = rdma_of(ctx);
	struct doca_rdma_connection *conn = rdma_implicit_connection(rdma);
	struct rdma_task *t;
	doca_error_t status;

	if (!is_rdma_job(job->type))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "doca_workq_submit: %d is no RDMA job type", job->type);
	/* Receives can wait for a connection, as 3.x receive tasks can. */
	if ((!conn || !conn->connected) && job->type != DOCA_RDMA_JOB_RECV)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_workq_submit: the RDMA instance is not connected "
		                  "(doca_rdma_export, doca_rdma_connect)");
	t = rdma_job_take(rdma, kind_of_job[job->type - FIRST_JOB], job->user_data);
	if (!t)
		return DOCA_ERROR_NO_MEMORY;
	t->args = (struct rdma_task_args){ .conn = conn };
	job_args(job, &t->args);
	status = rdma_job_post(t);
	/* A full send queue is a full work queue to a DOCA 2.2 program. */
	return status == DOCA_ERROR_AGAIN ? DOCA_ERROR_NO_MEMORY : status;
}

static doca_error_t job_retrieve(struct doca_task *task, struct doca_event *ev)
{
	struct rdma_task *t = sdoca_container_of(task, struct rdma_task, base);
	enum rdma_task_kind kind = rdma_task_kind_of(t);
	struct doca_rdma_result *result = ev->result.ptr;
	doca_error_t status = task->status;

	ev->type = job_of_kind[kind];
	ev->user_data = task->user_data;
	if (result) {
		result->result = status;
		result->opcode = t->result_opcode;
		result->length =
		        kind == RDMA_TASK_RECEIVE || kind == RDMA_TASK_READ ? t->result_len : 0;
		result->rdma_peer_addr = NULL;
		result->immediate_data = t->result_imm;
	}
	sdoca_task_give_back(task);
	return status == DOCA_SUCCESS ? DOCA_SUCCESS : DOCA_ERROR_IO_FAILED;
}

static doca_error_t job_attach(struct doca_ctx *ctx, uint32_t depth)
{
	return rdma_jobs_setup(rdma_of(ctx), depth);
}

const struct sdoca_job_ops rdma_job_ops = {
	.attach = job_attach,
	.submit = job_submit,
	.retrieve = job_retrieve,
};

/* --- the instance --- */

DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_state(const struct doca_rdma *rdma,
                                                   enum doca_rdma_state *state)
{
	struct doca_rdma *r = (struct doca_rdma *)rdma;
	const struct doca_rdma_connection *conn;

	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(state))
		return DOCA_ERROR_INVALID_VALUE;
	conn = r->ctx.state == DOCA_CTX_STATE_RUNNING ? rdma_implicit_connection(r) : NULL;
	if (!rdma->ctx.v202.started)
		*state = DOCA_RDMA_STATE_RESET;
	else if (rdma->ctx.state != DOCA_CTX_STATE_RUNNING || atomic_load(&r->ctx.failed))
		*state = DOCA_RDMA_STATE_ERROR;
	else
		*state = conn && conn->connected ? DOCA_RDMA_STATE_CONNECTED : DOCA_RDMA_STATE_INIT;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_set_recv_buf_chain_len(struct doca_rdma *rdma,
                                                                uint32_t recv_buf_chain_len)
{
	return doca_rdma_task_receive_set_dst_buf_list_len(rdma, recv_buf_chain_len);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_recv_buf_chain_len(const struct doca_rdma *rdma,
                                                                uint32_t *recv_buf_chain_len)
{
	return doca_rdma_task_receive_get_dst_buf_list_len(rdma, recv_buf_chain_len);
}

/* --- capabilities: every softdoca device runs every job over RC --- */

DOCA_EXPERIMENTAL doca_error_t doca_rdma_job_get_supported(const struct doca_devinfo *devinfo,
                                                           enum doca_rdma_job_types job_type)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(is_rdma_job((int)job_type)))
		return DOCA_ERROR_INVALID_VALUE;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_max_recv_queue_size(const struct doca_devinfo *devinfo,
                                                                 uint32_t *max_recv_queue_size)
{
	return doca_rdma_cap_get_max_recv_queue_size(devinfo, max_recv_queue_size);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_max_send_queue_size(const struct doca_devinfo *devinfo,
                                                                 uint32_t *max_send_queue_size)
{
	return doca_rdma_cap_get_max_send_queue_size(devinfo, max_send_queue_size);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_max_message_size(const struct doca_devinfo *devinfo,
                                                              uint32_t *max_message_size)
{
	return doca_rdma_cap_get_max_message_size(devinfo, max_message_size);
}

/* Atomics take one buffer on each side; the rest up to RDMA_MAX_BUF_LIST_LEN. */
DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_max_buf_chain_len(
        const struct doca_devinfo *devinfo, enum doca_rdma_job_types job_type,
        enum doca_rdma_transport_type transport_type, uint32_t *max_buf_chain_len)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(max_buf_chain_len) ||
	    !sdoca_arg_valid(is_rdma_job((int)job_type)))
		return DOCA_ERROR_INVALID_VALUE;
	if (transport_type != DOCA_RDMA_TRANSPORT_RC)
		return DOCA_ERROR_NOT_SUPPORTED;
	*max_buf_chain_len = job_type == DOCA_RDMA_JOB_ATOMIC_CMP_SWP ||
	                                     job_type == DOCA_RDMA_JOB_ATOMIC_FETCH_ADD
	                             ? 1
	                             : RDMA_MAX_BUF_LIST_LEN;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_gid_table_size(struct doca_devinfo *devinfo,
                                                            uint32_t *gid_table_size)
{
	return doca_rdma_cap_get_gid_table_size(devinfo, gid_table_size);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_gid(struct doca_devinfo *devinfo, uint32_t start_index,
                                                 uint32_t num_entries,
                                                 struct doca_rdma_gid *gid_array)
{
	return doca_rdma_cap_get_gid(devinfo, start_index, num_entries, gid_array);
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_transport_type_supported(
        const struct doca_devinfo *devinfo, enum doca_rdma_transport_type transport_type)
{
	return doca_rdma_cap_transport_type_is_supported(devinfo, transport_type);
}
