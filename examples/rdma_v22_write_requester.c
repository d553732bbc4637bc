/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * A DOCA 2.2 program (work queue and jobs) following the write snippet of
 * DOCA's 2023 RDMA programming guide: a write job in polling mode into the
 * responder's exported memory (pair: rdma_write_responder, a DOCA 3.x
 * program: the generations talk to each other).
 *
 *   rdma_write_responder -l resp.blob -r req.blob -m mem.blob &
 *   rdma_v22_write_requester -l req.blob -r resp.blob -m mem.blob -t "some text"
 */
#include <stdio.h>
#include <string.h>

#include "common/example.h"

int main(int argc, char **argv)
{
	struct example ex;

	example_parse(&ex, argc, argv, "-l MY_BLOB -r PEER_BLOB -m MEMORY_BLOB [-d DEV] [-t TEXT]");
	example_v22_open(&ex, DOCA_ACCESS_LOCAL_READ_WRITE);
	example_v22_start_and_connect(&ex, false);
	example_import_memory(&ex);

	/* Step 1: the result is written where the event's result.ptr points. */
	doca_error_t status;
	struct doca_buf *src_buf;
	struct doca_buf *dst_buf;
	struct doca_rdma_result rdma_result;
	struct doca_event event = { 0 };
	struct doca_rdma_job_read_write job_write = { 0 };

	memset(&rdma_result, 0, sizeof(rdma_result));
	event.result.ptr = (void *)(&rdma_result);
	/* Step 2: the source, a buffer whose data section is the text. */
	size_t len = strlen(ex.text) + 1;

	EXAMPLE_CHECK(doca_buf_inventory_buf_by_data(ex.inv, ex.mmap, ex.mem, len, &src_buf));
	memcpy(ex.mem, ex.text, len);
	/* Step 3: the destination, as many bytes at the start of the peer's
	 * memory (a full data section: the data lands at its start). */
	EXAMPLE_CHECK(doca_buf_inventory_buf_by_data(ex.inv, ex.remote_mmap, ex.remote_mem, len,
	                                             &dst_buf));
	/* Step 4: the job. */
	job_write.base.ctx = ex.ctx;
	job_write.base.flags = DOCA_JOB_FLAGS_NONE;
	job_write.base.type = DOCA_RDMA_JOB_WRITE;
	job_write.src_buff = src_buf;
	job_write.dst_buff = dst_buf;
	EXAMPLE_CHECK(doca_workq_submit(ex.workq, &job_write.base));
	/* Step 5: poll the work queue until the job's event is there. */
	do {
		status = doca_workq_progress_retrieve(ex.workq, &event,
		                                      DOCA_WORKQ_RETRIEVE_FLAGS_NONE);
	} while (status == DOCA_ERROR_AGAIN);
	printf("write job of %zu bytes: %s, result %s\n", len, doca_get_error_name(status),
	       doca_get_error_name(rdma_result.result));

	doca_buf_refcount_rm(src_buf, NULL);
	doca_buf_refcount_rm(dst_buf, NULL);
	example_signal_done(&ex);
	example_v22_close(&ex);
	return status == DOCA_SUCCESS && rdma_result.result == DOCA_SUCCESS ? 0 : 1;
}
