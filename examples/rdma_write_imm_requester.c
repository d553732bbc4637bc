/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Writes a text into the responder's memory together with an immediate
 * value, which completes a receive there (pair: rdma_write_imm_responder).
 *
 *   rdma_write_imm_responder -l resp.blob -r req.blob -m mem.blob &
 *   rdma_write_imm_requester -l req.blob -r resp.blob -m mem.blob -v 7
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "common/example.h"

EXAMPLE_TASK_CALLBACK(write_imm)

int main(int argc, char **argv)
{
	struct example ex;
	struct doca_rdma_task_write_imm *task;
	struct doca_buf *src, *dst;
	union doca_data ud = { .u64 = 0 };
	doca_error_t status;
	size_t len;

	example_parse(&ex, argc, argv,
	              "-l MY_BLOB -r PEER_BLOB -m MEMORY_BLOB [-d DEV] [-t TEXT] [-v IMMEDIATE]");
	example_open(&ex, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	EXAMPLE_CHECK(doca_rdma_task_write_imm_set_conf(ex.rdma, example_on_write_imm,
	                                                example_on_write_imm, 1));
	example_start_and_connect(&ex);
	example_import_memory(&ex);

	len = strlen(ex.text) + 1;
	memcpy(ex.mem, ex.text, len);
	src = example_local_buf(&ex, 0, len, len);
	dst = example_remote_buf(&ex, 0, EXAMPLE_MEM_SIZE, 0);
	EXAMPLE_CHECK(doca_rdma_task_write_imm_allocate_init(ex.rdma, ex.conn, src, dst,
	                                                     htonl((uint32_t)ex.value), ud, &task));
	status = example_run_task(&ex, doca_rdma_task_write_imm_as_task(task));
	printf("write with immediate 0x%x of %zu bytes: %s\n", (uint32_t)ex.value, len,
	       doca_error_get_name(status));

	doca_task_free(doca_rdma_task_write_imm_as_task(task));
	doca_buf_dec_refcount(src, NULL);
	doca_buf_dec_refcount(dst, NULL);
	example_close(&ex);
	return status == DOCA_SUCCESS ? 0 : 1;
}
