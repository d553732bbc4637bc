/*
 * softdoca DPA examples - SPDX-License-Identifier: Apache-2.0
 *
 * dpa_initiator_target: an initiator and a target RDMA context on the DPA
 * data path in one process, joined by two connections. Each context's
 * completions go to a completion context bound to a DPA thread of its own.
 * An RPC starts the target thread; it posts its receives and notifies the
 * initiator thread, which sends every message with an immediate over both
 * connections. Both threads handle one batch of completions per
 * activation, re-arm (request_notification) and reschedule. The host then
 * checks every received byte, immediate and connection id exactly; exit 1
 * on any difference.
 */
#include <stdlib.h>
#include <string.h>

#include <doca_dpa.h>
#include <doca_log.h>

#include "dpa_common.h"
#include "../dpa_initiator_target_common.h"

DOCA_LOG_REGISTER(DPA_INITIATOR_TARGET::SAMPLE);

doca_dpa_func_t it_notify_rpc;
doca_dpa_func_t initiator_kernel;
doca_dpa_func_t target_kernel;

#define CHECK(call)                                                               \
	do {                                                                      \
		doca_error_t st_ = (call);                                        \
		if (st_ != DOCA_SUCCESS) {                                        \
			DOCA_LOG_ERR("%s: %s", #call, doca_error_get_descr(st_)); \
			return st_;                                               \
		}                                                                 \
	} while (0)

/* A DPA thread running kernel with its state at storage, its completion
 * context, and a notification completion others can wake it with. */
struct dpa_side {
	struct doca_dpa_thread *thread;
	struct doca_dpa_completion *comp;
	struct doca_dpa_notification_completion *nc;
	doca_dpa_dev_notification_completion_t nc_handle;
	doca_dpa_dev_completion_t comp_handle;
};

static doca_error_t side_create(struct dpa_resources *res, doca_dpa_func_t *kernel,
                                doca_dpa_dev_uintptr_t storage, struct dpa_side *side)
{
	CHECK(doca_dpa_thread_create(res->dpa, &side->thread));
	CHECK(doca_dpa_thread_set_func_arg(side->thread, kernel, 0));
	CHECK(doca_dpa_thread_set_local_storage(side->thread, storage));
	CHECK(doca_dpa_thread_start(side->thread));
	CHECK(doca_dpa_completion_create(res->dpa, 2 * IT_NUM_MSGS, &side->comp));
	CHECK(doca_dpa_completion_set_thread(side->comp, side->thread));
	CHECK(doca_dpa_completion_start(side->comp));
	CHECK(doca_dpa_completion_get_dpa_handle(side->comp, &side->comp_handle));
	CHECK(doca_dpa_notification_completion_create(res->dpa, side->thread, &side->nc));
	CHECK(doca_dpa_notification_completion_start(side->nc));
	CHECK(doca_dpa_notification_completion_get_dpa_handle(side->nc, &side->nc_handle));
	return DOCA_SUCCESS;
}

static doca_error_t side_destroy(struct dpa_side *side)
{
	CHECK(doca_dpa_notification_completion_stop(side->nc));
	CHECK(doca_dpa_notification_completion_destroy(side->nc));
	CHECK(doca_dpa_thread_stop(side->thread));
	return DOCA_SUCCESS;
}

static doca_error_t side_destroy_comp(struct dpa_side *side)
{
	CHECK(doca_dpa_completion_stop(side->comp));
	CHECK(doca_dpa_completion_destroy(side->comp));
	CHECK(doca_dpa_thread_destroy(side->thread));
	return DOCA_SUCCESS;
}

/* What the target must hold: every message once, each in the slot its
 * completion named, with the connection id of the connection it came on. */
static int check_results(const struct initiator_state *is, const struct target_state *ts,
                         const struct it_msg *slots)
{
	int seen[IT_NUM_CONNS][IT_MSGS_PER_CONN] = { { 0 } };
	int wrong = 0;

	if (is->errors || ts->errors || is->send_completions != IT_NUM_MSGS ||
	    ts->received != IT_NUM_MSGS) {
		DOCA_LOG_ERR("initiator: %lu sends completed, %lu errors; target: %lu received, "
		             "%lu errors",
		             (unsigned long)is->send_completions, (unsigned long)is->errors,
		             (unsigned long)ts->received, (unsigned long)ts->errors);
		return 1;
	}
	for (int i = 0; i < IT_NUM_MSGS; i++) {
		const struct it_record *r = &ts->records[i];
		uint32_t c = (r->immediate >> 16) & 0xfff, seq = r->immediate & 0xffff;
		const struct it_msg *m = &slots[r->wr_index % IT_NUM_MSGS];
		uint64_t want = (uint64_t)IT_IMM(c, seq) * 3;

		if (r->wr_index != (uint32_t)i || c >= IT_NUM_CONNS || seq >= IT_MSGS_PER_CONN ||
		    r->conn_id != ts->conn_id[c] || m->magic != IT_MAGIC || m->conn != c ||
		    m->seq != seq || m->payload[0] != want || m->payload[1] != ~want ||
		    seen[c][seq]++) {
			DOCA_LOG_ERR("receive %d: immediate 0x%x, connection id %u, slot %u holds "
			             "connection %u message %u",
			             i, r->immediate, r->conn_id, r->wr_index, m->conn, m->seq);
			wrong = 1;
		}
	}
	for (uint32_t c = 0; c < IT_NUM_CONNS; c++)
		DOCA_LOG_INFO("Connection %u (target id %u): %d messages received in order", c,
		              ts->conn_id[c], IT_MSGS_PER_CONN);
	return wrong;
}

static doca_error_t initiator_target(struct dpa_resources *res)
{
	const uint32_t access = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE;
	struct dpa_side init, tgt;
	struct doca_rdma *init_rdma, *tgt_rdma;
	struct doca_mmap *init_mmap, *tgt_mmap;
	struct doca_sync_event *done;
	doca_dpa_dev_uintptr_t init_storage, tgt_storage, tgt_buf;
	static struct it_msg send_buf[IT_NUM_MSGS]; /* host memory: the initiator's */
	struct it_msg slots[IT_NUM_MSGS];
	uint64_t ret;

	CHECK(doca_dpa_mem_alloc(res->dpa, sizeof(struct initiator_state), &init_storage));
	CHECK(doca_dpa_memset(res->dpa, init_storage, 0, sizeof(struct initiator_state)));
	CHECK(doca_dpa_mem_alloc(res->dpa, sizeof(struct target_state), &tgt_storage));
	CHECK(doca_dpa_memset(res->dpa, tgt_storage, 0, sizeof(struct target_state)));
	/* The target receives into DPA memory. */
	CHECK(doca_dpa_mem_alloc(res->dpa, sizeof(slots), &tgt_buf));
	CHECK(doca_dpa_memset(res->dpa, tgt_buf, 0, sizeof(slots)));

	CHECK(side_create(res, &initiator_kernel, init_storage, &init));
	CHECK(side_create(res, &target_kernel, tgt_storage, &tgt));

	struct initiator_state is = { 0 };
	struct target_state ts = { 0 };

	CHECK(dpa_rdma_create(res, init.comp, 2 * IT_NUM_MSGS, IT_NUM_CONNS, &init_rdma, &is.rdma));
	CHECK(dpa_rdma_create(res, tgt.comp, 2 * IT_NUM_MSGS, IT_NUM_CONNS, &tgt_rdma, &ts.rdma));
	for (int c = 0; c < IT_NUM_CONNS; c++)
		CHECK(dpa_rdma_connect_pair(init_rdma, tgt_rdma, &is.conn_id[c], &ts.conn_id[c]));
	CHECK(dpa_mmap_create(res, send_buf, sizeof(send_buf), access, &init_mmap, &is.mmap));
	CHECK(doca_mmap_create(&tgt_mmap));
	CHECK(doca_mmap_set_dpa_memrange(tgt_mmap, res->dpa, tgt_buf, sizeof(slots)));
	CHECK(doca_mmap_add_dev(tgt_mmap, res->dev));
	CHECK(doca_mmap_set_permissions(tgt_mmap, access));
	CHECK(doca_mmap_start(tgt_mmap));
	CHECK(doca_mmap_dev_get_dpa_handle(tgt_mmap, res->dev, &ts.mmap));
	CHECK(dpa_sync_event_create(res, DPA_LOC_DPA, DPA_LOC_CPU, &done, &is.done));
	ts.done = is.done;

	is.comp = init.comp_handle;
	is.buf = (uintptr_t)send_buf;
	ts.comp = tgt.comp_handle;
	ts.buf = tgt_buf;
	ts.initiator_nc = init.nc_handle;
	CHECK(doca_dpa_h2d_memcpy(res->dpa, init_storage, &is, sizeof(is)));
	CHECK(doca_dpa_h2d_memcpy(res->dpa, tgt_storage, &ts, sizeof(ts)));
	CHECK(doca_dpa_thread_run(init.thread));
	CHECK(doca_dpa_thread_run(tgt.thread));

	DOCA_LOG_INFO("Two connections between the initiator and the target: ids %u, %u and %u, %u",
	              is.conn_id[0], is.conn_id[1], ts.conn_id[0], ts.conn_id[1]);
	CHECK(doca_dpa_rpc(res->dpa, &it_notify_rpc, &ret, tgt.nc_handle));
	/* Each thread adds 1 when it is done. */
	CHECK(doca_sync_event_wait_gt(done, 1, UINT64_MAX));

	CHECK(doca_dpa_d2h_memcpy(res->dpa, &is, init_storage, sizeof(is)));
	CHECK(doca_dpa_d2h_memcpy(res->dpa, &ts, tgt_storage, sizeof(ts)));
	CHECK(doca_dpa_d2h_memcpy(res->dpa, slots, tgt_buf, sizeof(slots)));
	int wrong = check_results(&is, &ts, slots);
	DOCA_LOG_INFO("Initiator thread: %lu activations; target thread: %lu activations",
	              (unsigned long)is.activations, (unsigned long)ts.activations);
	if (doca_dpa_peek_at_last_error(res->dpa) != DOCA_SUCCESS) {
		DOCA_LOG_ERR("the DPA reported an error: %s",
		             doca_error_get_descr(doca_dpa_peek_at_last_error(res->dpa)));
		wrong = 1;
	}

	CHECK(side_destroy(&init));
	CHECK(side_destroy(&tgt));
	CHECK(dpa_rdma_destroy(init_rdma));
	CHECK(dpa_rdma_destroy(tgt_rdma));
	CHECK(side_destroy_comp(&init));
	CHECK(side_destroy_comp(&tgt));
	CHECK(dpa_sync_event_destroy(done));
	CHECK(dpa_mmap_destroy(init_mmap));
	CHECK(dpa_mmap_destroy(tgt_mmap));
	CHECK(doca_dpa_mem_free(res->dpa, tgt_buf));
	CHECK(doca_dpa_mem_free(res->dpa, tgt_storage));
	CHECK(doca_dpa_mem_free(res->dpa, init_storage));
	return wrong ? DOCA_ERROR_UNEXPECTED : DOCA_SUCCESS;
}

int main(int argc, char **argv)
{
	struct dpa_config cfg;
	struct dpa_resources res;
	doca_error_t st;

	if (dpa_common_init("doca_dpa_initiator_target", &cfg, 0, argc, argv) != DOCA_SUCCESS)
		return EXIT_FAILURE;
	DOCA_LOG_INFO("Starting the sample");
	st = dpa_resources_create(&cfg, &res);
	if (st == DOCA_SUCCESS) {
		st = initiator_target(&res);
		doca_error_t st2 = dpa_resources_destroy(&res);
		if (st == DOCA_SUCCESS)
			st = st2;
	}
	dpa_common_fini();
	if (st != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Sample finished with errors: %s", doca_error_get_descr(st));
		return EXIT_FAILURE;
	}
	DOCA_LOG_INFO("Sample finished successfully");
	return EXIT_SUCCESS;
}
