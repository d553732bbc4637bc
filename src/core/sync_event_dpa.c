/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Device handles of sync events for DPA kernels (docs/dpa.md 2.9): a table
 * of tag:8 | generation:24 | slot:32 values, so a kernel's stale or made-up
 * handle is found out instead of dereferenced. A kernel's update runs under
 * the table lock, so the event cannot be stopped or destroyed under it.
 */
#include <pthread.h>

#include "core/sdk_log.h"
#include "core/sync_event.h"

SDOCA_LOG_MODULE(sync_event_dpa);

#define SE_DPA_TAG 0xe5u
#define SE_DPA_SLOTS 1024u

static struct {
	pthread_mutex_t lock;
	struct doca_sync_event *ev[SE_DPA_SLOTS];
	uint32_t generation[SE_DPA_SLOTS];
} table = { .lock = PTHREAD_MUTEX_INITIALIZER };

doca_error_t sdoca_se_dpa_handle(struct doca_sync_event *ev, uint64_t *handle)
{
	doca_error_t status = DOCA_ERROR_FULL;

	pthread_mutex_lock(&table.lock);
	if (ev->dpa_handle != 0) {
		*handle = ev->dpa_handle;
		status = DOCA_SUCCESS;
	}
	for (uint32_t slot = 0; status != DOCA_SUCCESS && slot < SE_DPA_SLOTS; slot++) {
		if (table.ev[slot] == NULL) {
			table.ev[slot] = ev;
			table.generation[slot] = (table.generation[slot] + 1) & 0xffffffu;
			ev->dpa_handle = (uint64_t)SE_DPA_TAG << 56 |
			                 (uint64_t)table.generation[slot] << 32 | slot;
			*handle = ev->dpa_handle;
			status = DOCA_SUCCESS;
		}
	}
	pthread_mutex_unlock(&table.lock);
	if (status != DOCA_SUCCESS)
		SDOCA_ERR("doca_sync_event_get_dpa_handle: %u events have DPA handles already",
		          SE_DPA_SLOTS);
	return status;
}

void sdoca_se_dpa_forget(struct doca_sync_event *ev)
{
	pthread_mutex_lock(&table.lock);
	if (ev->dpa_handle != 0)
		table.ev[(uint32_t)ev->dpa_handle % SE_DPA_SLOTS] = NULL;
	ev->dpa_handle = 0;
	pthread_mutex_unlock(&table.lock);
}

SDOCA_EXPORT doca_error_t sdoca_sync_event_dpa_op(uint64_t handle, enum sdoca_se_op op,
                                                  uint64_t operand, uint64_t *value)
{
	uint32_t slot = (uint32_t)handle;
	doca_error_t status = DOCA_ERROR_NOT_FOUND;

	if (handle >> 56 != SE_DPA_TAG || slot >= SE_DPA_SLOTS)
		return status;
	pthread_mutex_lock(&table.lock);
	struct doca_sync_event *ev = table.ev[slot];
	if (ev != NULL && table.generation[slot] == ((handle >> 32) & 0xffffffu)) {
		*value = sdoca_sync_event_remote_op(ev, op, operand, sizeof(uint64_t));
		if (op != SDOCA_SE_OP_GET)
			sdoca_se_changed(ev);
		status = DOCA_SUCCESS;
	}
	pthread_mutex_unlock(&table.lock);
	return status;
}

/* Remote-net events' DPA handles (doca_sync_event_remote_net_get_dpa_handle):
 * the imported key and value address the data path signals. */
#define RE_DPA_TAG 0xe6u

static struct {
	pthread_mutex_t lock;
	struct doca_sync_event_remote_net *ev[SE_DPA_SLOTS];
	uint32_t generation[SE_DPA_SLOTS];
} remote_table = { .lock = PTHREAD_MUTEX_INITIALIZER };

doca_error_t sdoca_se_remote_dpa_handle(struct doca_sync_event_remote_net *ev, uint64_t *handle)
{
	doca_error_t status = DOCA_ERROR_FULL;

	pthread_mutex_lock(&remote_table.lock);
	if (ev->dpa_handle != 0) {
		*handle = ev->dpa_handle;
		status = DOCA_SUCCESS;
	}
	for (uint32_t slot = 0; status != DOCA_SUCCESS && slot < SE_DPA_SLOTS; slot++) {
		if (remote_table.ev[slot] == NULL) {
			remote_table.ev[slot] = ev;
			remote_table.generation[slot] =
			        (remote_table.generation[slot] + 1) & 0xffffffu;
			ev->dpa_handle = (uint64_t)RE_DPA_TAG << 56 |
			                 (uint64_t)remote_table.generation[slot] << 32 | slot;
			*handle = ev->dpa_handle;
			status = DOCA_SUCCESS;
		}
	}
	pthread_mutex_unlock(&remote_table.lock);
	if (status != DOCA_SUCCESS)
		SDOCA_ERR("doca_sync_event_remote_net_get_dpa_handle: %u remote events have DPA "
		          "handles already",
		          SE_DPA_SLOTS);
	return status;
}

void sdoca_se_remote_dpa_forget(struct doca_sync_event_remote_net *ev)
{
	pthread_mutex_lock(&remote_table.lock);
	if (ev->dpa_handle != 0)
		remote_table.ev[(uint32_t)ev->dpa_handle % SE_DPA_SLOTS] = NULL;
	ev->dpa_handle = 0;
	pthread_mutex_unlock(&remote_table.lock);
}

SDOCA_EXPORT doca_error_t sdoca_sync_event_remote_dpa_lookup(uint64_t handle, struct sdoca_key *key,
                                                             uint64_t *addr)
{
	uint32_t slot = (uint32_t)handle;
	doca_error_t status = DOCA_ERROR_NOT_FOUND;

	if (handle >> 56 != RE_DPA_TAG || slot >= SE_DPA_SLOTS)
		return status;
	pthread_mutex_lock(&remote_table.lock);
	struct doca_sync_event_remote_net *ev = remote_table.ev[slot];
	if (ev != NULL && remote_table.generation[slot] == ((handle >> 32) & 0xffffffu)) {
		*key = ev->key;
		*addr = ev->addr;
		status = DOCA_SUCCESS;
	}
	pthread_mutex_unlock(&remote_table.lock);
	return status;
}
