/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Reads the text the responder exported and prints it (pair:
 * rdma_read_responder).
 *
 *   rdma_read_responder -l resp.blob -r req.blob -m mem.blob -t "some text" &
 *   rdma_read_requester -l req.blob -r resp.blob -m mem.blob
 */
#include <stdio.h>

#include "common/example.h"

EXAMPLE_TASK_CALLBACK(read)

int main(int argc, char **argv)
{
	struct example ex;
	struct doca_rdma_task_read *task;
	struct doca_buf *src, *dst;
	union doca_data ud = { .u64 = 0 };
	doca_error_t status;
	size_t len = EXAMPLE_MEM_SIZE / 2;

	example_parse(&ex, argc, argv, "-l MY_BLOB -r PEER_BLOB -m MEMORY_BLOB [-d DEV]");
	example_open(&ex, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	EXAMPLE_CHECK(doca_rdma_task_read_set_conf(ex.rdma, example_on_read, example_on_read, 1));
	example_start_and_connect(&ex);
	example_import_memory(&ex);

	src = example_remote_buf(&ex, 0, len, len);
	dst = example_local_buf(&ex, 0, len, 0);
	EXAMPLE_CHECK(doca_rdma_task_read_allocate_init(ex.rdma, ex.conn, src, dst, ud, &task));
	status = example_run_task(&ex, doca_rdma_task_read_as_task(task));
	EXAMPLE_CHECK(doca_buf_get_data_len(dst, &len));
	ex.mem[EXAMPLE_MEM_SIZE / 2 - 1] = '\0';
	printf("read of %zu bytes: %s\n", len, doca_error_get_name(status));
	printf("read: \"%s\"\n", ex.mem);

	doca_task_free(doca_rdma_task_read_as_task(task));
	doca_buf_dec_refcount(src, NULL);
	doca_buf_dec_refcount(dst, NULL);
	example_signal_done(&ex);
	example_close(&ex);
	return status == DOCA_SUCCESS ? 0 : 1;
}
