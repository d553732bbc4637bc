/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Sends a text as a message (pair: rdma_receive). The send may arrive before
 * the receiver posts its receive: it then waits (RNR) and completes later.
 *
 *   rdma_receive -l recv.blob -r send.blob &
 *   rdma_send -l send.blob -r recv.blob -t "some text"
 */
#include <stdio.h>
#include <string.h>

#include "common/example.h"

EXAMPLE_TASK_CALLBACK(send)

int main(int argc, char **argv)
{
	struct example ex;
	struct doca_rdma_task_send *task;
	struct doca_buf *src;
	union doca_data ud = { .u64 = 0 };
	doca_error_t status;
	size_t len;

	example_parse(&ex, argc, argv, "-l MY_BLOB -r PEER_BLOB [-d DEV] [-t TEXT]");
	example_open(&ex, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	EXAMPLE_CHECK(doca_rdma_task_send_set_conf(ex.rdma, example_on_send, example_on_send, 1));
	example_start_and_connect(&ex);

	len = strlen(ex.text) + 1;
	memcpy(ex.mem, ex.text, len);
	src = example_local_buf(&ex, 0, len, len);
	EXAMPLE_CHECK(doca_rdma_task_send_allocate_init(ex.rdma, ex.conn, src, ud, &task));
	status = example_run_task(&ex, doca_rdma_task_send_as_task(task));
	printf("send of %zu bytes: %s\n", len, doca_error_get_name(status));

	doca_task_free(doca_rdma_task_send_as_task(task));
	doca_buf_dec_refcount(src, NULL);
	example_close(&ex);
	return status == DOCA_SUCCESS ? 0 : 1;
}
