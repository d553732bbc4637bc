/*
 * softdoca tests: what the host and the DPA thread of the two-process
 * ping-pong share (pingpong_kernels.c, pingpong_main.c).
 */
#ifndef SDOCA_TESTS_DPA_PINGPONG_COMMON_H_
#define SDOCA_TESTS_DPA_PINGPONG_COMMON_H_

#include <stdint.h>

#define PP_MSG 16     /* bytes per message: the sequence number, then a tag */
#define PP_SEND_AT 0  /* the message built for sending */
#define PP_RECV_AT 64 /* where the peer's message lands */
#define PP_TAG 0x70696e67u
#define PP_ROUNDS 1000

/* In DPA memory; the thread's local storage points at it. */
struct pp_state {
	uint64_t rdma, comp, done;
	uint32_t conn, mmap;
	uint64_t buf;
	uint64_t client; /* the client sends first and counts round trips */
	uint64_t started;
	uint64_t rounds, limit;
	uint64_t errors; /* wrong sequence, tag, connection or completion type */
	uint64_t sends;  /* SEND completions seen */
	/* badrecv: the server's receive names an mmap never registered; the
	 * client's send into it fails (SEND_ERR), and so does the one after it
	 * (flushed); the server sees RECV_ERR */
	uint64_t bad;
	uint64_t send_errs, recv_errs;
};

#endif /* SDOCA_TESTS_DPA_PINGPONG_COMMON_H_ */
