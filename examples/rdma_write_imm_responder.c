/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Exports its memory for writing and posts a receive without a buffer: the
 * requester's write with immediate completes it, and this program prints the
 * immediate and what the write left in memory (pair:
 * rdma_write_imm_requester).
 */
#include <arpa/inet.h>
#include <stdio.h>

#include "common/example.h"

static doca_be32_t immediate;

static void on_receive(struct doca_rdma_task_receive *task, union doca_data ud,
                       union doca_data ctx_ud)
{
	(void)ud;
	immediate = doca_rdma_task_receive_get_result_immediate_data(task);
	example_task_finished(doca_rdma_task_receive_as_task(task), ctx_ud);
}

int main(int argc, char **argv)
{
	struct example ex;
	struct doca_rdma_task_receive *task;
	union doca_data ud = { .u64 = 0 };
	doca_error_t status;

	example_parse(&ex, argc, argv, "-l MY_BLOB -r PEER_BLOB -m MEMORY_BLOB [-d DEV]");
	example_open(&ex, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE);
	EXAMPLE_CHECK(doca_rdma_task_receive_set_conf(ex.rdma, on_receive, on_receive, 1));
	example_start_and_connect(&ex);

	/* No buffer: the data goes where the requester writes it. The receive
	 * is posted before the requester learns where to write. */
	EXAMPLE_CHECK(doca_rdma_task_receive_allocate_init(ex.rdma, NULL, ud, &task));
	example_submit(&ex, doca_rdma_task_receive_as_task(task));
	example_export_memory(&ex);
	status = example_wait_task(&ex);
	printf("receive: %s\n", doca_error_get_name(status));
	if (status == DOCA_SUCCESS) {
		ex.mem[EXAMPLE_MEM_SIZE - 1] = '\0';
		printf("immediate 0x%x, memory now holds: \"%s\"\n", ntohl(immediate), ex.mem);
	}

	doca_task_free(doca_rdma_task_receive_as_task(task));
	example_close(&ex);
	return status == DOCA_SUCCESS ? 0 : 1;
}
