/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Posts one receive and prints the message that arrives in it: its opcode,
 * length, immediate value and text (pair: rdma_send or rdma_send_imm).
 */
#include <arpa/inet.h>
#include <stdio.h>

#include "common/example.h"

static enum doca_rdma_opcode opcode;
static uint32_t length;
static doca_be32_t immediate;

static void on_receive(struct doca_rdma_task_receive *task, union doca_data ud,
                       union doca_data ctx_ud)
{
	(void)ud;
	opcode = doca_rdma_task_receive_get_result_opcode(task);
	length = doca_rdma_task_receive_get_result_len(task);
	immediate = doca_rdma_task_receive_get_result_immediate_data(task);
	example_task_finished(doca_rdma_task_receive_as_task(task), ctx_ud);
}

int main(int argc, char **argv)
{
	struct example ex;
	struct doca_rdma_task_receive *task;
	struct doca_buf *dst;
	union doca_data ud = { .u64 = 0 };
	doca_error_t status;

	example_parse(&ex, argc, argv, "-l MY_BLOB -r PEER_BLOB [-d DEV]");
	example_open(&ex, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	EXAMPLE_CHECK(doca_rdma_task_receive_set_conf(ex.rdma, on_receive, on_receive, 1));
	example_start_and_connect(&ex);

	dst = example_local_buf(&ex, 0, EXAMPLE_MEM_SIZE / 2, 0);
	EXAMPLE_CHECK(doca_rdma_task_receive_allocate_init(ex.rdma, dst, ud, &task));
	status = example_run_task(&ex, doca_rdma_task_receive_as_task(task));
	printf("receive: %s\n", doca_error_get_name(status));
	if (status == DOCA_SUCCESS) {
		ex.mem[EXAMPLE_MEM_SIZE / 2 - 1] = '\0';
		printf("received %u bytes: \"%s\"\n", length, ex.mem);
		if (opcode == DOCA_RDMA_OPCODE_RECV_SEND_WITH_IMM)
			printf("with immediate 0x%x\n", ntohl(immediate));
	}

	doca_task_free(doca_rdma_task_receive_as_task(task));
	doca_buf_dec_refcount(dst, NULL);
	example_close(&ex);
	return status == DOCA_SUCCESS ? 0 : 1;
}
