/*
 * Tagged handle tables (handle_table.h).
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 */
#include "core/handle_table.h"

#define GENERATION_MASK 0xffffffu

doca_error_t sdoca_handle_add(struct sdoca_handle_table *t, void *obj, uint64_t *handle)
{
	doca_error_t status;

	pthread_mutex_lock(&t->lock);
	status = *handle != 0 ? DOCA_SUCCESS : DOCA_ERROR_FULL;
	for (uint32_t slot = 0; status != DOCA_SUCCESS && slot < t->slots; slot++) {
		if (t->obj[slot] == NULL) {
			t->obj[slot] = obj;
			t->generation[slot] = (t->generation[slot] + 1) & GENERATION_MASK;
			*handle =
			        (uint64_t)t->tag << 56 | (uint64_t)t->generation[slot] << 32 | slot;
			status = DOCA_SUCCESS;
		}
	}
	pthread_mutex_unlock(&t->lock);
	return status;
}

void sdoca_handle_forget(struct sdoca_handle_table *t, uint64_t *handle)
{
	pthread_mutex_lock(&t->lock);
	if (*handle != 0)
		t->obj[(uint32_t)*handle % t->slots] = NULL;
	*handle = 0;
	pthread_mutex_unlock(&t->lock);
}

void *sdoca_handle_lock(struct sdoca_handle_table *t, uint64_t handle)
{
	uint32_t slot = (uint32_t)handle;
	void *obj;

	if (handle >> 56 != t->tag || slot >= t->slots)
		return NULL;
	pthread_mutex_lock(&t->lock);
	obj = t->obj[slot];
	if (obj == NULL || t->generation[slot] != ((handle >> 32) & GENERATION_MASK)) {
		pthread_mutex_unlock(&t->lock);
		return NULL;
	}
	return obj;
}
