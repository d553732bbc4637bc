/*
 * softdoca DPA examples - SPDX-License-Identifier: Apache-2.0
 *
 * dpa_remote_ping_pong, device part: each process's DPA thread keeps a
 * receive posted, checks each message's round and sender, and answers it
 * (the client with the next round, the server with the same).
 */
#include <doca_dpa_dev.h>
#include <doca_dpa_dev_rdma.h>
#include <doca_dpa_dev_sync_event.h>

#include "../dpa_remote_ping_pong_common.h"

__dpa_rpc__ uint64_t rpp_notify_rpc(doca_dpa_dev_notification_completion_t nc)
{
	doca_dpa_dev_thread_notify(nc);
	return 0;
}

static void post_receive(struct rpp_state *s)
{
	doca_dpa_dev_rdma_post_receive(s->rdma, s->mmap, s->buf + RPP_RECV_AT, RPP_MSG_SIZE);
}

static void send_round(struct rpp_state *s, uint64_t round)
{
	uint64_t *msg = (uint64_t *)(s->buf + RPP_SEND_AT);

	msg[0] = round;
	msg[1] = s->client ? RPP_TAG_CLIENT : RPP_TAG_SERVER;
	/* The payload is taken at post time: the buffer is free again at once. */
	doca_dpa_dev_rdma_post_send(s->rdma, s->conn_id, s->mmap, s->buf + RPP_SEND_AT,
	                            RPP_MSG_SIZE, DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH);
}

__dpa_global__ void rpp_kernel(uint64_t arg)
{
	struct rpp_state *s = (struct rpp_state *)doca_dpa_dev_thread_get_local_storage();
	doca_dpa_dev_completion_element_t e;

	(void)arg;
	if (!s->started) {
		s->started = 1;
		post_receive(s);
		if (s->client) {
			DOCA_DPA_DEV_LOG_INFO("Client thread: sending round 0\n");
			send_round(s, 0);
		}
	}
	while (doca_dpa_dev_get_completion(s->comp, &e)) {
		doca_dpa_dev_completion_type_t type = doca_dpa_dev_get_completion_type(e);

		if (doca_dpa_dev_get_completion_user_data(e) != s->conn_id)
			s->errors++;
		if (type == DOCA_DPA_DEV_COMP_SEND) {
			s->sends++;
		} else if (type == DOCA_DPA_DEV_COMP_RECV_SEND) {
			const uint64_t *msg = (const uint64_t *)(s->buf + RPP_RECV_AT);
			uint64_t want_tag = s->client ? RPP_TAG_SERVER : RPP_TAG_CLIENT;

			if (msg[0] != s->rounds || msg[1] != want_tag)
				s->errors++;
			s->last_round = msg[0];
			s->last_tag = msg[1];
			s->rounds++;
			if (s->rounds < RPP_ROUNDS)
				post_receive(s);
			if (!s->client)
				send_round(s, msg[0]);
			else if (s->rounds < RPP_ROUNDS)
				send_round(s, s->rounds);
		} else {
			DOCA_DPA_DEV_LOG_ERR("unexpected completion type %u\n", type);
			s->errors++;
		}
		doca_dpa_dev_completion_ack(s->comp, 1);
	}
	/* Done once every message arrived and every send completed. */
	if (s->rounds == RPP_ROUNDS && s->sends == RPP_ROUNDS) {
		DOCA_DPA_DEV_LOG_INFO("%s thread: %d rounds done\n",
		                      s->client ? "Client" : "Server", RPP_ROUNDS);
		doca_dpa_dev_sync_event_update_set(s->done, 1);
		doca_dpa_dev_thread_finish();
	}
	doca_dpa_dev_completion_request_notification(s->comp);
	doca_dpa_dev_thread_reschedule();
}
