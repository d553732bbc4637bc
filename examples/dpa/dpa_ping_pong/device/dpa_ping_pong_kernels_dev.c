/*
 * softdoca DPA examples - SPDX-License-Identifier: Apache-2.0
 *
 * dpa_ping_pong, device part: one kernel for both threads. Each keeps a
 * receive posted (a write with immediate consumes one); on each write from
 * the peer it checks the round number and the value written, and answers
 * (the ping thread with the next round, the pong thread with the same).
 */
#include <doca_dpa_dev.h>
#include <doca_dpa_dev_rdma.h>
#include <doca_dpa_dev_sync_event.h>

#include "../dpa_ping_pong_common.h"

/* The host's start: both threads' first activation (the pong thread first). */
__dpa_rpc__ uint64_t ping_pong_start_rpc(doca_dpa_dev_notification_completion_t pong,
                                         doca_dpa_dev_notification_completion_t ping)
{
	doca_dpa_dev_thread_notify(pong);
	doca_dpa_dev_thread_notify(ping);
	return 0;
}

static void post_receive(struct ping_pong_state *s)
{
	doca_dpa_dev_rdma_post_receive(s->rdma, s->local_mmap, s->local_buf + 32, 32);
}

static void write_round(struct ping_pong_state *s, uint64_t round)
{
	*(volatile uint64_t *)s->src_buf = PING_PONG_VALUE(round);
	doca_dpa_dev_rdma_post_write_imm(s->rdma, s->conn_id, s->remote_mmap, s->remote_buf,
	                                 s->local_mmap, s->src_buf, sizeof(uint64_t),
	                                 (uint32_t)round, DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH);
}

__dpa_global__ void ping_pong_kernel(uint64_t arg)
{
	struct ping_pong_state *s =
	        (struct ping_pong_state *)doca_dpa_dev_thread_get_local_storage();
	doca_dpa_dev_completion_element_t e;

	(void)arg;
	if (!s->started) { /* the first activation: the host's RPC */
		s->started = 1;
		post_receive(s);
		if (s->is_ping)
			write_round(s, 0);
	}
	while (doca_dpa_dev_get_completion(s->comp, &e)) {
		doca_dpa_dev_completion_type_t type = doca_dpa_dev_get_completion_type(e);

		if (doca_dpa_dev_get_completion_user_data(e) != s->conn_id)
			s->errors++;
		if (type == DOCA_DPA_DEV_COMP_RECV_RDMA_WRITE_IMM) {
			uint64_t round = doca_dpa_dev_get_completion_immediate(e);
			uint64_t value = *(volatile uint64_t *)s->local_buf;

			if (round != s->rounds || value != PING_PONG_VALUE(round))
				s->errors++;
			s->last_value = value;
			s->rounds++;
			if (s->rounds % PING_PONG_LOG_EVERY == 0)
				DOCA_DPA_DEV_LOG_INFO("%s thread: round %lu, received 0x%lx\n",
				                      s->is_ping ? "Ping" : "Pong",
				                      (unsigned long)round, (unsigned long)value);
			if (s->rounds < PING_PONG_ROUNDS)
				post_receive(s);
			if (!s->is_ping)
				write_round(s, round); /* pong: the same round back */
			else if (s->rounds < PING_PONG_ROUNDS)
				write_round(s, s->rounds);
		} else if (type != DOCA_DPA_DEV_COMP_SEND) {
			s->errors++;
		}
		doca_dpa_dev_completion_ack(s->comp, 1);
	}
	if (s->rounds == PING_PONG_ROUNDS) {
		doca_dpa_dev_sync_event_update_add(s->done, 1);
		doca_dpa_dev_thread_finish();
	}
	doca_dpa_dev_completion_request_notification(s->comp);
	doca_dpa_dev_thread_reschedule();
}
