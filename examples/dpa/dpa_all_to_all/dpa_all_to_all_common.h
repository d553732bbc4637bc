/*
 * softdoca DPA examples - SPDX-License-Identifier: Apache-2.0
 *
 * dpa_all_to_all: what the host and the kernel share.
 */
#ifndef DPA_ALL_TO_ALL_COMMON_H_
#define DPA_ALL_TO_ALL_COMMON_H_

#include <stdint.h>

#define A2A_MAX_RANKS 16
#define A2A_ELEMS 32 /* uint64_t values each rank sends each rank per round */
#define A2A_BLOCK (A2A_ELEMS * sizeof(uint64_t))
#define A2A_ROUNDS 3

/* Value k of what rank src sends rank dst in round r: every cell of the
 * matrix is distinct, so a misplaced block cannot go unnoticed. */
#define A2A_VALUE(r, src, dst, k) \
	((uint64_t)((r) + 1) << 48 | (uint64_t)(src) << 32 | (uint64_t)(dst) << 16 | (uint64_t)(k))

/* What this rank's kernel thread j needs to reach rank j. */
struct a2a_peer {
	uint64_t rdma;        /* this rank's RDMA context for peer j */
	uint64_t comp;        /* its completion context (polled) */
	uint64_t remote_recv; /* rank j's receive buffer (its address) */
	uint64_t arrivals;    /* rank j's arrivals event (remote-net handle) */
	uint64_t from_me;     /* rank j's event for this rank (remote-net handle) */
	uint32_t conn_id;
	uint32_t remote_mmap; /* rank j's receive buffer, imported */
};

/* In DPA memory; the kernel's first argument. */
struct a2a_config {
	uint64_t send_buf; /* A2A_BLOCK per destination */
	uint64_t errors;   /* bad completions, counted by the kernel */
	uint32_t send_mmap;
	uint32_t rank, num_ranks, pad;
	struct a2a_peer peers[A2A_MAX_RANKS];
};

#endif /* DPA_ALL_TO_ALL_COMMON_H_ */
