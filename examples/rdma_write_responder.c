/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Exports its memory for writing, waits without progress calls while the
 * requester writes, then prints what arrived (pair: rdma_write_requester).
 */
#include <stdio.h>

#include "common/example.h"

int main(int argc, char **argv)
{
	struct example ex;

	example_parse(&ex, argc, argv, "-l MY_BLOB -r PEER_BLOB -m MEMORY_BLOB [-d DEV]");
	example_open(&ex, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE);
	example_start_and_connect(&ex);
	example_export_memory(&ex);
	example_wait_peer_done(&ex);
	ex.mem[EXAMPLE_MEM_SIZE - 1] = '\0';
	printf("memory now holds: \"%s\"\n", ex.mem);
	example_close(&ex);
	return 0;
}
