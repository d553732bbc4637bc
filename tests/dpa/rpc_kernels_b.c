/*
 * softdoca tests: device source 2 of the RPC program: reads device memory
 * the host filled with h2d, a typedef'd handle, and a static helper that
 * must not collide with source 1's names.
 */
#include <doca_dpa_dev.h>

#include "rpc_common.h"

typedef uint64_t my_handle_t;

static uint64_t sum_bytes(const uint8_t *p, size_t n)
{
	uint64_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += p[i];
	return s;
}

__dpa_rpc__ uint64_t rpc_sum(doca_dpa_dev_uintptr_t src, size_t n, my_handle_t h)
{
	DOCA_DPA_DEV_LOG_DBG("rpc_sum: never printed at the INFO level\n");
	return sum_bytes((const uint8_t *)src, n) + (h << 32);
}

__dpa_rpc__ uint64_t rpc_rank(void)
{
	return doca_dpa_dev_thread_rank() * 10 + doca_dpa_dev_num_threads();
}
