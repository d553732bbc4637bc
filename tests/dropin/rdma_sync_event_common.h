/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The values the remote sync-event pair (rdma_sync_event_requester and
 * rdma_sync_event_responder) exchange through the responder's event:
 *
 *   requester: remote notify-set START + 1   responder: wait_gt(START) wakes
 *   responder: local update_set ANSWER        requester: remote gets until ANSWER
 *   requester: remote notify-set DONE         responder: wait_gt(ANSWER) wakes
 */
#ifndef DROPIN_RDMA_SYNC_EVENT_COMMON_H_
#define DROPIN_RDMA_SYNC_EVENT_COMMON_H_

#define SYNC_EVENT_START 0  /* the responder waits for a value above it */
#define SYNC_EVENT_SET 1    /* the requester's first notify-set */
#define SYNC_EVENT_ANSWER 2 /* the responder's answer, set locally */
#define SYNC_EVENT_DONE 3   /* the requester's completion notify-set */

#endif /* DROPIN_RDMA_SYNC_EVENT_COMMON_H_ */
