/*
 * softdoca tests: device source of the two-process ping-pong
 * (pingpong_main.c). Each side's DPA thread keeps one receive posted; on a
 * received message it checks the sequence number, posts the next receive
 * and answers (the client with the next number, the server with the same).
 * In the badrecv scenario the server's receive is bad: the client's send
 * fails on it (SEND_ERR), the one after it is flushed, the server's receive
 * fails (RECV_ERR).
 */
#include <doca_dpa_dev.h>
#include <doca_dpa_dev_rdma.h>
#include <doca_dpa_dev_sync_event.h>

#include "pingpong_common.h"

__dpa_rpc__ uint64_t pp_rpc_notify(doca_dpa_dev_notification_completion_t h)
{
	doca_dpa_dev_thread_notify(h);
	return 0;
}

static void post_receive(struct pp_state *s)
{
	doca_dpa_dev_rdma_post_receive(s->rdma, s->mmap, s->buf + PP_RECV_AT, PP_MSG);
}

static void send_seq(struct pp_state *s, uint64_t seq)
{
	uint64_t *msg = (uint64_t *)(s->buf + PP_SEND_AT);

	msg[0] = seq;
	msg[1] = PP_TAG;
	doca_dpa_dev_rdma_post_send(s->rdma, s->conn, s->mmap, s->buf + PP_SEND_AT, PP_MSG,
	                            DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH);
}

__dpa_global__ void pp_kernel(uint64_t arg)
{
	struct pp_state *s = (struct pp_state *)doca_dpa_dev_thread_get_local_storage();
	doca_dpa_dev_completion_element_t e;

	(void)arg;
	if (!s->started) { /* the first activation: an RPC's notify */
		s->started = 1;
		if (s->bad && !s->client) /* an mmap handle never registered */
			doca_dpa_dev_rdma_post_receive(s->rdma, 0xfffff, s->buf + PP_RECV_AT,
			                               PP_MSG);
		else
			post_receive(s);
		if (s->client)
			send_seq(s, 0);
	}
	while (doca_dpa_dev_get_completion(s->comp, &e)) {
		doca_dpa_dev_completion_type_t type = doca_dpa_dev_get_completion_type(e);

		if (doca_dpa_dev_get_completion_user_data(e) != s->conn)
			s->errors++;
		if (type == DOCA_DPA_DEV_COMP_SEND) {
			s->sends++;
		} else if (type == DOCA_DPA_DEV_COMP_RECV_SEND) {
			const uint64_t *msg = (const uint64_t *)(s->buf + PP_RECV_AT);
			uint64_t seq = msg[0];

			if (seq != s->rounds || msg[1] != PP_TAG)
				s->errors++;
			s->rounds++;
			if (s->rounds < s->limit || !s->client)
				post_receive(s);
			if (s->rounds < s->limit)
				send_seq(s, s->client ? s->rounds : seq);
			else if (!s->client)
				send_seq(s, seq);
		} else if (type == DOCA_DPA_DEV_COMP_SEND_ERR && s->bad && s->client) {
			if (++s->send_errs == 1)
				send_seq(s, 1); /* the connection is in error: flushed */
		} else if (type == DOCA_DPA_DEV_COMP_RECV_ERR && s->bad && !s->client) {
			s->recv_errs++;
		} else {
			s->errors++;
		}
		doca_dpa_dev_completion_ack(s->comp, 1);
	}
	if (s->rounds >= s->limit ||
	    (s->bad && (s->client ? s->send_errs >= 2 : s->recv_errs >= 1)))
		doca_dpa_dev_sync_event_update_set(s->done, 1);
	doca_dpa_dev_completion_request_notification(s->comp);
	doca_dpa_dev_thread_reschedule();
}
