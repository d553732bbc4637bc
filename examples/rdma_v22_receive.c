/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * A DOCA 2.2 program following the send-with-immediate snippet of DOCA's
 * 2023 RDMA programming guide, receiving side: a receive job in polling
 * mode, then what arrived: opcode, length, immediate value and text (pair:
 * rdma_v22_send_imm, or the DOCA 3.x rdma_send / rdma_send_imm).
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "common/example.h"

int main(int argc, char **argv)
{
	struct example ex;

	example_parse(&ex, argc, argv, "-l MY_BLOB -r PEER_BLOB [-d DEV]");
	example_v22_open(&ex, DOCA_ACCESS_LOCAL_READ_WRITE);
	example_v22_start_and_connect(&ex, false);

	/* Step 1: the result is written where the event's result.ptr points. */
	doca_error_t status;
	struct doca_buf *dst_buf;
	struct doca_rdma_result rdma_result;
	struct doca_event event = { 0 };
	struct doca_rdma_job_recv job_recv = { 0 };

	memset(&rdma_result, 0, sizeof(rdma_result));
	event.result.ptr = (void *)(&rdma_result);
	/* Step 2: the destination, half of this program's memory. */
	EXAMPLE_CHECK(doca_buf_inventory_buf_by_data(ex.inv, ex.mmap, ex.mem, EXAMPLE_MEM_SIZE / 2,
	                                             &dst_buf));
	/* Step 3: the job. */
	job_recv.base.ctx = ex.ctx;
	job_recv.base.flags = DOCA_JOB_FLAGS_NONE;
	job_recv.base.type = DOCA_RDMA_JOB_RECV;
	job_recv.dst_buff = dst_buf;
	EXAMPLE_CHECK(doca_workq_submit(ex.workq, &job_recv.base));
	/* Step 4: poll the work queue until the job's event is there. */
	do {
		status = doca_workq_progress_retrieve(ex.workq, &event,
		                                      DOCA_WORKQ_RETRIEVE_FLAGS_NONE);
	} while (status == DOCA_ERROR_AGAIN);
	printf("receive job: %s, result %s\n", doca_get_error_name(status),
	       doca_get_error_name(rdma_result.result));
	if (status == DOCA_SUCCESS) {
		ex.mem[EXAMPLE_MEM_SIZE / 2 - 1] = '\0';
		printf("received %u bytes: \"%s\"\n", rdma_result.length, ex.mem);
		if (rdma_result.opcode == DOCA_RDMA_OPCODE_RECV_SEND_WITH_IMM)
			printf("with immediate 0x%x\n", ntohl(rdma_result.immediate_data));
	}

	doca_buf_refcount_rm(dst_buf, NULL);
	example_v22_close(&ex);
	return status == DOCA_SUCCESS ? 0 : 1;
}
