/*
 * softdoca integration tests: the remote sync-event tasks as a DOCA 2.5
 * program calls them (no connection argument: the context's one
 * connection), built with SOFTDOCA_API_VERSION=205.
 */
#define SOFTDOCA_API_VERSION 205

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_pe.h>
#include <doca_rdma.h>
#include <doca_sync_event.h>

#include "peer.h"
#include "peer_sync.h"

doca_error_t sync_v25_add_get(struct peer *p, struct doca_sync_event_remote_net *rev, uint64_t add,
                              uint64_t *fetched, uint64_t *value)
{
	struct doca_rdma_task_remote_net_sync_event_notify_add *t_add;
	struct doca_rdma_task_remote_net_sync_event_get *t_get;
	struct doca_buf *res = local_buf(p, 8, 8, 0), *dst = local_buf(p, 16, 8, 0);
	struct result r;

	CHECK(doca_rdma_task_remote_net_sync_event_notify_add_allocate_init(
	        p->rdma, rev, res, add, result_data(&r), &t_add));
	CHECK(doca_task_submit(doca_rdma_task_remote_net_sync_event_notify_add_as_task(t_add)));
	peer_wait(p, &r, WAIT_MS);
	doca_task_free(doca_rdma_task_remote_net_sync_event_notify_add_as_task(t_add));
	if (r.status != DOCA_SUCCESS)
		return r.status;
	memcpy(fetched, p->mem + 8, sizeof(*fetched));
	CHECK(doca_rdma_task_remote_net_sync_event_get_allocate_init(p->rdma, rev, dst,
	                                                             result_data(&r), &t_get));
	CHECK(doca_task_submit(doca_rdma_task_remote_net_sync_event_get_as_task(t_get)));
	peer_wait(p, &r, WAIT_MS);
	EXPECT(r.status != DOCA_SUCCESS ||
	               doca_rdma_task_remote_net_sync_event_get_get_result_length(t_get) == 8,
	       "2.5 get: result length %u",
	       doca_rdma_task_remote_net_sync_event_get_get_result_length(t_get));
	doca_task_free(doca_rdma_task_remote_net_sync_event_get_as_task(t_get));
	memcpy(value, p->mem + 16, sizeof(*value));
	put(res);
	put(dst);
	return r.status;
}
