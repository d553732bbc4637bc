/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * DOCA DPA, device side: sync events from kernels (docs/dpa.md 1.7, 2.9).
 * A handle comes from doca_sync_event_get_dpa_handle on the host. get,
 * update_set, update_add (an update wakes host waiters) and wait_gt (asleep
 * until the value, masked, exceeds the given one) are built; the async-ops
 * forms are declared and log "not supported" (docs/compatibility.md).
 */
#ifndef DOCA_DPA_DEV_SYNC_EVENT_H_
#define DOCA_DPA_DEV_SYNC_EVENT_H_

#include "doca_dpa_dev.h"

SOFTDOCA_BEGIN_DECLS

__dpa_global__ typedef uint64_t doca_dpa_dev_sync_event_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_sync_event_remote_net_t;

DOCA_EXPERIMENTAL void doca_dpa_dev_sync_event_get(doca_dpa_dev_sync_event_t dpa_dev_se_handle,
                                                   uint64_t *value);
DOCA_EXPERIMENTAL void
doca_dpa_dev_sync_event_update_add(doca_dpa_dev_sync_event_t dpa_dev_se_handle, uint64_t value);
DOCA_EXPERIMENTAL void
doca_dpa_dev_sync_event_update_set(doca_dpa_dev_sync_event_t dpa_dev_se_handle, uint64_t value);
DOCA_EXPERIMENTAL void doca_dpa_dev_sync_event_wait_gt(doca_dpa_dev_sync_event_t dpa_dev_se_handle,
                                                       uint64_t value, uint64_t mask);
DOCA_EXPERIMENTAL void doca_dpa_dev_sync_event_post_wait_gt(doca_dpa_dev_async_ops_t async_ops,
                                                            doca_dpa_dev_sync_event_t wait_se,
                                                            uint64_t value);
DOCA_EXPERIMENTAL void doca_dpa_dev_sync_event_post_wait_ne(doca_dpa_dev_async_ops_t async_ops,
                                                            doca_dpa_dev_sync_event_t wait_se,
                                                            uint64_t value);

SOFTDOCA_END_DECLS

#endif /* DOCA_DPA_DEV_SYNC_EVENT_H_ */
