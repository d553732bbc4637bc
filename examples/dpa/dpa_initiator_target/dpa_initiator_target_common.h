/*
 * softdoca DPA examples - SPDX-License-Identifier: Apache-2.0
 *
 * dpa_initiator_target: what the host and the two DPA threads share.
 */
#ifndef DPA_INITIATOR_TARGET_COMMON_H_
#define DPA_INITIATOR_TARGET_COMMON_H_

#include <stdint.h>

#define IT_NUM_CONNS 2     /* initiator -> target connections */
#define IT_MSGS_PER_CONN 8 /* send-with-immediate messages on each */
#define IT_NUM_MSGS (IT_NUM_CONNS * IT_MSGS_PER_CONN)
#define IT_MSG_SIZE 32 /* bytes per message (struct it_msg) */
#define IT_MAGIC 0x696e697474677421ull
/* The immediate of message seq on connection conn. */
#define IT_IMM(conn, seq) (0xd0000000u | (uint32_t)(conn) << 16 | (uint32_t)(seq))

/* One message: who sent it, and a payload derived from both. */
struct it_msg {
	uint64_t magic;
	uint32_t conn; /* connection index 0..IT_NUM_CONNS-1 */
	uint32_t seq;  /* 0..IT_MSGS_PER_CONN-1 on that connection */
	uint64_t payload[2];
};

/* The initiator thread's local storage (DPA memory). */
struct initiator_state {
	uint64_t rdma, comp, done;
	uint32_t conn_id[IT_NUM_CONNS];
	uint32_t mmap, pad;
	uint64_t buf; /* IT_NUM_MSGS messages to send */
	uint64_t started;
	uint64_t send_completions;
	uint64_t activations;
	uint64_t errors;
};

/* What the target saw in receive number i. */
struct it_record {
	uint32_t conn_id;
	uint32_t immediate;
	uint32_t wr_index;
	uint32_t type;
};

/* The target thread's local storage (DPA memory). */
struct target_state {
	uint64_t rdma, comp, done;
	uint64_t initiator_nc; /* the initiator thread's notification completion */
	uint32_t conn_id[IT_NUM_CONNS];
	uint32_t mmap, pad;
	uint64_t buf; /* IT_NUM_MSGS receive slots */
	uint64_t started;
	uint64_t received;
	uint64_t next_seq[IT_NUM_CONNS];
	uint64_t activations;
	uint64_t errors;
	struct it_record records[IT_NUM_MSGS];
};

#endif /* DPA_INITIATOR_TARGET_COMMON_H_ */
