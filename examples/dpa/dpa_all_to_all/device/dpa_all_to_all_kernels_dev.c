/*
 * softdoca DPA examples - SPDX-License-Identifier: Apache-2.0
 *
 * dpa_all_to_all, device part: one kernel thread per destination rank. It
 * builds this round's block for its destination, writes it into that
 * rank's receive buffer over its own RDMA context, waits for the write's
 * completion, then signals the destination's events: sets "from this
 * rank" to the round and adds one to its arrivals.
 */
#include <doca_dpa_dev.h>
#include <doca_dpa_dev_rdma.h>
#include <doca_dpa_dev_sync_event.h>

#include "../dpa_all_to_all_common.h"

__dpa_global__ void all_to_all_kernel(doca_dpa_dev_uintptr_t config, uint32_t round)
{
	struct a2a_config *cfg = (struct a2a_config *)config;
	unsigned int dst = doca_dpa_dev_thread_rank();
	struct a2a_peer *p = &cfg->peers[dst];
	uint64_t *block = (uint64_t *)(cfg->send_buf + dst * A2A_BLOCK);
	doca_dpa_dev_completion_element_t e;

	for (uint32_t k = 0; k < A2A_ELEMS; k++)
		block[k] = A2A_VALUE(round, cfg->rank, dst, k);
	doca_dpa_dev_rdma_post_write(p->rdma, p->conn_id, p->remote_mmap,
	                             p->remote_recv + cfg->rank * A2A_BLOCK, cfg->send_mmap,
	                             (uint64_t)(uintptr_t)block, A2A_BLOCK,
	                             DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH);
	/* The write has landed once it completes: only then the signals. */
	while (!doca_dpa_dev_get_completion(p->comp, &e))
		doca_dpa_dev_yield();
	if (doca_dpa_dev_get_completion_type(e) != DOCA_DPA_DEV_COMP_SEND ||
	    doca_dpa_dev_get_completion_user_data(e) != p->conn_id) {
		DOCA_DPA_DEV_LOG_ERR("rank %u to rank %u: completion type %u\n", cfg->rank, dst,
		                     doca_dpa_dev_get_completion_type(e));
		__atomic_fetch_add(&cfg->errors, 1, __ATOMIC_RELAXED);
	}
	doca_dpa_dev_completion_ack(p->comp, 1);
	doca_dpa_dev_rdma_signal_set(p->rdma, p->conn_id, p->from_me, round + 1);
	doca_dpa_dev_rdma_signal_add(p->rdma, p->conn_id, p->arrivals, 1);
}
