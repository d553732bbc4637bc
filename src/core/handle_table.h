/*
 * Tagged handles for objects a DPA kernel names by value.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Tagged handles for objects a DPA kernel names by value (docs/dpa.md 2.2):
 * tag:8 | generation:24 | slot:32, so a stale or made-up handle is found
 * out instead of dereferenced. A lookup holds the table's lock until
 * sdoca_handle_unlock, so the object cannot be forgotten under its user.
 */
#ifndef SDOCA_CORE_HANDLE_TABLE_H_
#define SDOCA_CORE_HANDLE_TABLE_H_

#include <pthread.h>
#include <stdint.h>

#include <doca_error.h>

struct sdoca_handle_table {
	pthread_mutex_t lock;
	uint8_t tag;
	uint32_t slots;
	void **obj;
	uint32_t *generation;
};

/* A table of n slots with tag, in static storage. */
#define SDOCA_HANDLE_TABLE(name, tag_, n)                                                 \
	static void *name##_obj[n];                                                       \
	static uint32_t name##_generation[n];                                             \
	static struct sdoca_handle_table name = { PTHREAD_MUTEX_INITIALIZER, (tag_), (n), \
		                                  name##_obj, name##_generation }

/* Gives obj a handle in *handle, or keeps the one it has (*handle != 0).
 * DOCA_ERROR_FULL when every slot is taken. */
doca_error_t sdoca_handle_add(struct sdoca_handle_table *t, void *obj, uint64_t *handle);
/* Ends *handle (0: none) and sets it to 0. */
void sdoca_handle_forget(struct sdoca_handle_table *t, uint64_t *handle);
/* The object of handle with the table locked, or NULL (not locked). */
void *sdoca_handle_lock(struct sdoca_handle_table *t, uint64_t handle);
static inline void sdoca_handle_unlock(struct sdoca_handle_table *t)
{
	pthread_mutex_unlock(&t->lock);
}

#endif /* SDOCA_CORE_HANDLE_TABLE_H_ */
