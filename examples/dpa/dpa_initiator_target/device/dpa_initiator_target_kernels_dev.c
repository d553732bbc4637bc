/*
 * softdoca DPA examples - SPDX-License-Identifier: Apache-2.0
 *
 * dpa_initiator_target, device part. The target thread posts a receive per
 * message, then notifies the initiator thread, which sends every message
 * with an immediate over two connections. Each thread handles its
 * completions, re-arms its completion context and reschedules; the next
 * completion starts it again from the top.
 */
#include <doca_dpa_dev.h>
#include <doca_dpa_dev_rdma.h>
#include <doca_dpa_dev_sync_event.h>

#include "../dpa_initiator_target_common.h"

/* The host's way to give a thread its first activation. */
__dpa_rpc__ uint64_t it_notify_rpc(doca_dpa_dev_notification_completion_t nc)
{
	doca_dpa_dev_thread_notify(nc);
	return 0;
}

static void send_all(struct initiator_state *s)
{
	/* Alternating connections: each sees its messages in order. */
	for (uint32_t seq = 0; seq < IT_MSGS_PER_CONN; seq++) {
		for (uint32_t c = 0; c < IT_NUM_CONNS; c++) {
			uint64_t addr = s->buf + (uint64_t)(seq * IT_NUM_CONNS + c) * IT_MSG_SIZE;
			struct it_msg *m = (struct it_msg *)addr;

			m->magic = IT_MAGIC;
			m->conn = c;
			m->seq = seq;
			m->payload[0] = (uint64_t)IT_IMM(c, seq) * 3;
			m->payload[1] = ~m->payload[0];
			doca_dpa_dev_rdma_post_send_imm(s->rdma, s->conn_id[c], s->mmap, addr,
			                                IT_MSG_SIZE, IT_IMM(c, seq),
			                                DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH);
		}
	}
}

__dpa_global__ void initiator_kernel(uint64_t arg)
{
	struct initiator_state *s =
	        (struct initiator_state *)doca_dpa_dev_thread_get_local_storage();
	doca_dpa_dev_completion_element_t e;

	(void)arg;
	s->activations++;
	if (!s->started) { /* notified by the target: its receives are posted */
		s->started = 1;
		DOCA_DPA_DEV_LOG_INFO("Initiator: the target is ready, sending %d messages\n",
		                      IT_NUM_MSGS);
		send_all(s);
	}
	while (doca_dpa_dev_get_completion(s->comp, &e)) {
		uint32_t user = doca_dpa_dev_get_completion_user_data(e);

		if (doca_dpa_dev_get_completion_type(e) != DOCA_DPA_DEV_COMP_SEND ||
		    (user != s->conn_id[0] && user != s->conn_id[1]))
			s->errors++;
		s->send_completions++;
		doca_dpa_dev_completion_ack(s->comp, 1);
	}
	if (s->send_completions == IT_NUM_MSGS) {
		DOCA_DPA_DEV_LOG_INFO("Initiator: all %d sends completed\n", IT_NUM_MSGS);
		doca_dpa_dev_sync_event_update_add(s->done, 1);
		doca_dpa_dev_thread_finish();
	}
	doca_dpa_dev_completion_request_notification(s->comp);
	doca_dpa_dev_thread_reschedule();
}

static void check_receive(struct target_state *s, doca_dpa_dev_completion_element_t e)
{
	uint32_t imm = doca_dpa_dev_get_completion_immediate(e);
	uint32_t user = doca_dpa_dev_get_completion_user_data(e);
	uint32_t conn = (imm >> 16) & 0xfff, seq = imm & 0xffff;
	uint32_t wr = doca_dpa_dev_rdma_completion_get_wr_index(e);
	struct it_record *r = &s->records[s->received % IT_NUM_MSGS];

	r->conn_id = user;
	r->immediate = imm;
	r->wr_index = wr;
	r->type = doca_dpa_dev_get_completion_type(e);
	if (r->type != DOCA_DPA_DEV_COMP_RECV_SEND_IMM || conn >= IT_NUM_CONNS ||
	    user != s->conn_id[conn] || seq != s->next_seq[conn]) {
		DOCA_DPA_DEV_LOG_ERR("Target: unexpected completion: type %u, immediate 0x%x, "
		                     "connection %u\n",
		                     r->type, imm, user);
		s->errors++;
		return;
	}
	s->next_seq[conn]++;
	DOCA_DPA_DEV_LOG_INFO("Target: connection %u, immediate 0x%x, receive %u\n", conn, imm, wr);
}

__dpa_global__ void target_kernel(uint64_t arg)
{
	struct target_state *s = (struct target_state *)doca_dpa_dev_thread_get_local_storage();
	doca_dpa_dev_completion_element_t e;

	(void)arg;
	s->activations++;
	if (!s->started) { /* the host's RPC */
		s->started = 1;
		for (uint64_t i = 0; i < IT_NUM_MSGS; i++)
			doca_dpa_dev_rdma_post_receive(s->rdma, s->mmap, s->buf + i * IT_MSG_SIZE,
			                               IT_MSG_SIZE);
		DOCA_DPA_DEV_LOG_INFO("Target: %d receives posted, notifying the initiator\n",
		                      IT_NUM_MSGS);
		doca_dpa_dev_thread_notify(s->initiator_nc);
	}
	while (doca_dpa_dev_get_completion(s->comp, &e)) {
		check_receive(s, e);
		s->received++;
		doca_dpa_dev_completion_ack(s->comp, 1);
	}
	if (s->received == IT_NUM_MSGS) {
		DOCA_DPA_DEV_LOG_INFO("Target: all %d messages received\n", IT_NUM_MSGS);
		doca_dpa_dev_sync_event_update_add(s->done, 1);
		doca_dpa_dev_thread_finish();
	}
	doca_dpa_dev_completion_request_notification(s->comp);
	doca_dpa_dev_thread_reschedule();
}
