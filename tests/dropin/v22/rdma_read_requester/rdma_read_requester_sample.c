/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * rdma_read_requester (DOCA 2.2): Reads the responder's string from its exported memory with a read
 * job, prints it and tells the responder it has finished.
 */
#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_rdma.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA_READ_REQUESTER::SAMPLE);

/* Called from main (in rdma_read_requester_main.c). */
doca_error_t rdma_read_requester(struct rdma_config *cfg);

doca_error_t rdma_read_requester(struct rdma_config *cfg)
{
	struct rdma_resources res;
	struct doca_rdma_job_read_write job = { .base.type = DOCA_RDMA_JOB_READ };
	struct doca_rdma_result result;
	struct doca_buf *src_buf = NULL, *dst_buf = NULL;
	doca_error_t status, tmp;

	status = allocate_rdma_resources(cfg, DOCA_ACCESS_LOCAL_READ_WRITE,
	                                 DOCA_ACCESS_LOCAL_READ_WRITE, &res);
	if (status != DOCA_SUCCESS)
		return status;
	status = connect_to_peer(cfg, &res, false, true);
	if (status == DOCA_SUCCESS)
		status = doca_buf_inventory_buf_by_data(res.buf_inventory, res.remote_mmap,
		                                        res.remote_memrange, MAX_BUFF_SIZE,
		                                        &src_buf);
	if (status == DOCA_SUCCESS)
		status = doca_buf_inventory_buf_by_addr(res.buf_inventory, res.mmap,
		                                        res.mmap_memrange, MAX_BUFF_SIZE, &dst_buf);
	if (status == DOCA_SUCCESS) {
		job.src_buff = src_buf;
		job.dst_buff = dst_buf;
		DOCA_LOG_INFO("Submitting a read job");
		status = run_rdma_job(&res, &job.base, &result);
	}
	if (status == DOCA_SUCCESS && strnlen(res.mmap_memrange, MAX_BUFF_SIZE) == MAX_BUFF_SIZE)
		status = DOCA_ERROR_INVALID_VALUE;
	if (status == DOCA_SUCCESS) {
		DOCA_LOG_INFO("Read %u bytes", result.length);
		DOCA_LOG_INFO("Read from the responder: \"%s\"", res.mmap_memrange);
		status = signal_peer_done(cfg);
	}
	if (src_buf != NULL)
		doca_buf_refcount_rm(src_buf, NULL);
	if (dst_buf != NULL)
		doca_buf_refcount_rm(dst_buf, NULL);
	tmp = destroy_rdma_resources(&res, cfg);
	DOCA_ERROR_PROPAGATE(status, tmp);
	return status;
}
