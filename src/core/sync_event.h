/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * What sync_event.c and sync_event_task.c share while sync events are not
 * built: why every call answers NOT_SUPPORTED.
 */
#ifndef SDOCA_CORE_SYNC_EVENT_H_
#define SDOCA_CORE_SYNC_EVENT_H_

#define NO_SYNC_EVENT "sync events are not built yet"

/* Objects (events, their tasks) that cannot exist: their setters and getters
 * are still defined for programs that link them. */
#define UNREACHABLE_OBJECT() \
	SDOCA_LOG_ONCE(DOCA_LOG_LEVEL_WARNING, "%s: %s", __func__, NO_SYNC_EVENT)

#endif /* SDOCA_CORE_SYNC_EVENT_H_ */
