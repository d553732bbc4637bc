/*
 * softdoca DPA examples - SPDX-License-Identifier: Apache-2.0
 *
 * dpa_remote_ping_pong: what the host and the DPA thread of each process
 * share.
 */
#ifndef DPA_REMOTE_PING_PONG_COMMON_H_
#define DPA_REMOTE_PING_PONG_COMMON_H_

#include <stdint.h>

#define RPP_ROUNDS 100
#define RPP_MSG_SIZE 16 /* the round, then a tag naming the sender */
#define RPP_SEND_AT 0   /* offsets in the thread's DPA buffer */
#define RPP_RECV_AT 64
#define RPP_BUF_SIZE 128
#define RPP_TAG_CLIENT 0x636c69656e74ull /* "client" */
#define RPP_TAG_SERVER 0x736572766572ull /* "server" */

/* The thread's local storage (DPA memory). */
struct rpp_state {
	uint64_t rdma, comp, done;
	uint32_t conn_id, mmap;
	uint64_t buf;
	uint64_t client; /* the client sends first */
	uint64_t started;
	uint64_t rounds; /* messages received and checked */
	uint64_t sends;  /* send completions */
	uint64_t errors;
	uint64_t last_round;
	uint64_t last_tag;
};

#endif /* DPA_REMOTE_PING_PONG_COMMON_H_ */
