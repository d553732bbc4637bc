/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Sends a text with a 32-bit immediate value (pair: rdma_receive).
 *
 *   rdma_receive -l recv.blob -r send.blob &
 *   rdma_send_imm -l send.blob -r recv.blob -t "some text" -v 0x1234
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "common/example.h"

EXAMPLE_TASK_CALLBACK(send_imm)

int main(int argc, char **argv)
{
	struct example ex;
	struct doca_rdma_task_send_imm *task;
	struct doca_buf *src;
	union doca_data ud = { .u64 = 0 };
	doca_error_t status;
	size_t len;

	example_parse(&ex, argc, argv, "-l MY_BLOB -r PEER_BLOB [-d DEV] [-t TEXT] [-v IMMEDIATE]");
	example_open(&ex, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	EXAMPLE_CHECK(doca_rdma_task_send_imm_set_conf(ex.rdma, example_on_send_imm,
	                                               example_on_send_imm, 1));
	example_start_and_connect(&ex);

	len = strlen(ex.text) + 1;
	memcpy(ex.mem, ex.text, len);
	src = example_local_buf(&ex, 0, len, len);
	/* The immediate travels as it is given: network order, as on hardware. */
	EXAMPLE_CHECK(doca_rdma_task_send_imm_allocate_init(ex.rdma, ex.conn, src,
	                                                    htonl((uint32_t)ex.value), ud, &task));
	status = example_run_task(&ex, doca_rdma_task_send_imm_as_task(task));
	printf("send with immediate 0x%x of %zu bytes: %s\n", (uint32_t)ex.value, len,
	       doca_error_get_name(status));

	doca_task_free(doca_rdma_task_send_imm_as_task(task));
	doca_buf_dec_refcount(src, NULL);
	example_close(&ex);
	return status == DOCA_SUCCESS ? 0 : 1;
}
