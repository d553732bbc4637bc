/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * A DOCA 2.2 program following the send-with-immediate snippet of DOCA's
 * 2023 RDMA programming guide, sending side: a send-with-immediate job on
 * an event-driven work queue, waited for with epoll (pair: rdma_v22_receive,
 * or the DOCA 3.x rdma_receive).
 *
 *   rdma_v22_receive -l recv.blob -r send.blob &
 *   rdma_v22_send_imm -l send.blob -r recv.blob -t "some text" -v 0xdeadbeef
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>

#include "common/example.h"

int main(int argc, char **argv)
{
	struct example ex;

	example_parse(&ex, argc, argv, "-l MY_BLOB -r PEER_BLOB [-d DEV] [-t TEXT] [-v IMMEDIATE]");
	example_v22_open(&ex, DOCA_ACCESS_LOCAL_READ_WRITE);
	/* Step 1: event-driven mode, before the work queue joins the context. */
	example_v22_start_and_connect(&ex, true);

	doca_event_handle_t workq_fd;
	struct epoll_event handle_event;
	struct epoll_event events_in = { .events = EPOLLIN };
	int epfd = epoll_create1(0);

	EXAMPLE_CHECK(doca_workq_get_event_handle(ex.workq, &workq_fd));
	if (epfd < 0 || epoll_ctl(epfd, EPOLL_CTL_ADD, workq_fd, &events_in) != 0) {
		perror("epoll");
		return 1;
	}
	/* Step 2: the result is written where the event's result.ptr points. */
	doca_error_t status;
	struct doca_buf *src_buf;
	struct doca_rdma_result rdma_result;
	struct doca_event event = { 0 };
	struct doca_rdma_job_send job_send = { 0 };

	memset(&rdma_result, 0, sizeof(rdma_result));
	event.result.ptr = (void *)(&rdma_result);
	/* Step 3: the source, a buffer whose data section is the text. */
	size_t len = strlen(ex.text) + 1;

	EXAMPLE_CHECK(doca_buf_inventory_buf_by_data(ex.inv, ex.mmap, ex.mem, len, &src_buf));
	memcpy(ex.mem, ex.text, len);
	/* Step 4: the job; the immediate travels in network order. */
	job_send.base.ctx = ex.ctx;
	job_send.base.flags = DOCA_JOB_FLAGS_NONE;
	job_send.base.type = DOCA_RDMA_JOB_SEND_IMM;
	job_send.src_buff = src_buf;
	job_send.immediate_data = htonl((uint32_t)ex.value);
	EXAMPLE_CHECK(doca_workq_submit(ex.workq, &job_send.base));
	/* Step 5: arm, sleep in epoll until a result is ready, clear, retrieve. */
	status = doca_workq_progress_retrieve(ex.workq, &event, DOCA_WORKQ_RETRIEVE_FLAGS_NONE);
	while (status == DOCA_ERROR_AGAIN) {
		EXAMPLE_CHECK(doca_workq_event_handle_arm(ex.workq));
		epoll_wait(epfd, &handle_event, 1, -1);
		EXAMPLE_CHECK(doca_workq_event_handle_clear(ex.workq, workq_fd));
		status = doca_workq_progress_retrieve(ex.workq, &event,
		                                      DOCA_WORKQ_RETRIEVE_FLAGS_NONE);
	}
	printf("send with immediate 0x%x of %zu bytes: %s, result %s\n", (uint32_t)ex.value, len,
	       doca_get_error_name(status), doca_get_error_name(rdma_result.result));

	doca_buf_refcount_rm(src_buf, NULL);
	example_v22_close(&ex);
	return status == DOCA_SUCCESS && rdma_result.result == DOCA_SUCCESS ? 0 : 1;
}
