/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Puts a text in its memory and exports it for reading; the requester reads
 * it while this program waits without progress calls (pair:
 * rdma_read_requester).
 */
#include <stdio.h>
#include <string.h>

#include "common/example.h"

int main(int argc, char **argv)
{
	struct example ex;

	example_parse(&ex, argc, argv, "-l MY_BLOB -r PEER_BLOB -m MEMORY_BLOB [-d DEV] [-t TEXT]");
	example_open(&ex, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ);
	strcpy(ex.mem, ex.text);
	example_start_and_connect(&ex);
	example_export_memory(&ex);
	printf("exported: \"%s\"\n", ex.mem);
	example_wait_peer_done(&ex);
	example_close(&ex);
	return 0;
}
