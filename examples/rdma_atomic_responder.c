/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Exports a 64-bit counter (initial value -v N) for atomics, waits without
 * progress calls while the requester works on it, then prints it (pair:
 * rdma_atomic_fetch_add or rdma_atomic_cmp_swp).
 */
#include <inttypes.h>
#include <stdio.h>

#include "common/example.h"

int main(int argc, char **argv)
{
	struct example ex;
	uint64_t *counter;

	example_parse(&ex, argc, argv,
	              "-l MY_BLOB -r PEER_BLOB -m MEMORY_BLOB [-d DEV] [-v INITIAL]");
	example_open(&ex, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC);
	counter = (uint64_t *)(void *)ex.mem;
	__atomic_store_n(counter, ex.value, __ATOMIC_RELEASE);
	example_start_and_connect(&ex);
	example_export_memory(&ex);
	printf("counter starts at %" PRIu64 "\n", ex.value);
	example_wait_peer_done(&ex);
	/* The NIC changes it with CPU atomics: read it atomically too. */
	printf("counter is now %" PRIu64 "\n", __atomic_load_n(counter, __ATOMIC_ACQUIRE));
	example_close(&ex);
	return 0;
}
