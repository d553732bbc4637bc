/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Replaces the responder's 64-bit counter by -v N if it holds -c N, and
 * prints the value it held (pair: rdma_atomic_responder).
 *
 *   rdma_atomic_responder -l resp.blob -r req.blob -m mem.blob -v 100 &
 *   rdma_atomic_cmp_swp -l req.blob -r resp.blob -m mem.blob -c 100 -v 42
 */
#include <inttypes.h>
#include <stdio.h>

#include "common/example.h"

EXAMPLE_TASK_CALLBACK(atomic_cmp_swp)

int main(int argc, char **argv)
{
	struct example ex;
	struct doca_rdma_task_atomic_cmp_swp *task;
	struct doca_buf *counter, *result;
	union doca_data ud = { .u64 = 0 };
	doca_error_t status;
	uint64_t before;

	example_parse(&ex, argc, argv,
	              "-l MY_BLOB -r PEER_BLOB -m MEMORY_BLOB [-d DEV] [-c COMPARE] [-v SWAP]");
	example_open(&ex, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	EXAMPLE_CHECK(doca_rdma_task_atomic_cmp_swp_set_conf(ex.rdma, example_on_atomic_cmp_swp,
	                                                     example_on_atomic_cmp_swp, 1));
	example_start_and_connect(&ex);
	example_import_memory(&ex);

	counter = example_remote_buf(&ex, 0, sizeof(uint64_t), sizeof(uint64_t));
	result = example_local_buf(&ex, 0, sizeof(uint64_t), 0);
	EXAMPLE_CHECK(doca_rdma_task_atomic_cmp_swp_allocate_init(ex.rdma, ex.conn, counter, result,
	                                                          ex.compare, ex.value, ud, &task));
	status = example_run_task(&ex, doca_rdma_task_atomic_cmp_swp_as_task(task));
	before = *(uint64_t *)(void *)ex.mem;
	printf("compare-swap %" PRIu64 " -> %" PRIu64 ": %s\n", ex.compare, ex.value,
	       doca_error_get_name(status));
	if (status == DOCA_SUCCESS)
		printf("the counter held %" PRIu64 " before (%s)\n", before,
		       before == ex.compare ? "swapped" : "not swapped");

	doca_task_free(doca_rdma_task_atomic_cmp_swp_as_task(task));
	doca_buf_dec_refcount(counter, NULL);
	doca_buf_dec_refcount(result, NULL);
	example_signal_done(&ex);
	example_close(&ex);
	return status == DOCA_SUCCESS ? 0 : 1;
}
