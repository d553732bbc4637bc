/*
 * softdoca DPA examples - SPDX-License-Identifier: Apache-2.0
 *
 * dpa_ping_pong: what the host and the ping and pong threads share.
 */
#ifndef DPA_PING_PONG_COMMON_H_
#define DPA_PING_PONG_COMMON_H_

#include <stdint.h>

#define PING_PONG_ROUNDS 100
#define PING_PONG_LOG_EVERY 25 /* rounds between two log lines */
#define PING_PONG_VALUE(round) (0x70000000ull + (round)*0x10001ull)

/* One thread's local storage (DPA memory). Each side owns a 64-byte
 * buffer: the peer writes the value of each round into its first 8 bytes
 * (write with immediate: immediate = round). */
struct ping_pong_state {
	uint64_t rdma, comp, done;
	uint32_t conn_id;
	uint32_t local_mmap;  /* this side's buffer */
	uint32_t remote_mmap; /* the peer's buffer, imported from its export */
	uint32_t is_ping;
	uint64_t local_buf, remote_buf;
	uint64_t src_buf; /* where the value written from is built */
	uint64_t started;
	uint64_t rounds; /* values received, all checked */
	uint64_t errors;
	uint64_t last_value;
};

#endif /* DPA_PING_PONG_COMMON_H_ */
