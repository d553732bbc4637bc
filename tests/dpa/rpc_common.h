/*
 * softdoca tests: types the RPC program's host and device parts share.
 */
#ifndef RPC_COMMON_H_
#define RPC_COMMON_H_

#include <stdint.h>

struct rpc_args {
	uint32_t a;
	uint64_t b;
	uint8_t c[3];
	uint64_t tag;
};

struct rpc_result {
	uint64_t sum;
	uint64_t scaled;
	uint64_t handle;
};

#endif /* RPC_COMMON_H_ */
