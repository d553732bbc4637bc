/*
 * The memory-key table (see keys.h).
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Slots live in chunks that are allocated on demand and never move or free,
 * so a reader can index them without a lock. Each slot has a live flag and a
 * count of holders. A reader increments the count before it checks the flag;
 * a revoker clears the flag before it waits for the count to drop. With both
 * done in sequentially consistent order, either the reader sees the key gone
 * or the revoker sees the reader and waits for it.
 *
 * A reader that is done with the region before it leaves a critical section
 * of its own (a responder's synchronous copy or atomic, under its worker's
 * lock) peeks instead: no count, no locked instruction. The revoker then
 * waits those sections out through the quiesce hook, after clearing the
 * flag: a section that saw the key live ends before revoke returns, and one
 * that starts later sees it gone.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "core/bytes.h"
#include "core/sdk_log.h"
#include "core/keys.h"

SDOCA_LOG_MODULE(keys);

#define CHUNK_BITS 10
#define CHUNK_SLOTS (1u << CHUNK_BITS)
#define MAX_CHUNKS 1024 /* up to ~1M live keys */

struct key_slot {
	_Atomic uint32_t live;
	_Atomic uint32_t holders;
	/* Written only while not live and unheld, under the table lock. */
	uint32_t tag_hi;
	uint64_t tag_lo;
	struct sdoca_key_region region;
	uint32_t next_free;
};

static struct {
	pthread_mutex_t lock;
	_Atomic(struct key_slot *) chunks[MAX_CHUNKS];
	uint32_t num_chunks;
	uint32_t free_head; /* 0 = empty */
	uint32_t live;
	_Atomic(sdoca_keys_quiesce_fn) quiesce;
} table = { .lock = PTHREAD_MUTEX_INITIALIZER };

static struct key_slot *slot_at(uint32_t index)
{
	uint32_t chunk = index >> CHUNK_BITS;
	struct key_slot *slots;

	if (chunk >= MAX_CHUNKS)
		return NULL;
	slots = atomic_load_explicit(&table.chunks[chunk], memory_order_acquire);
	return slots ? &slots[index & (CHUNK_SLOTS - 1)] : NULL;
}

/* Adds a chunk and threads its slots onto the free list (slot 0 excluded). */
static doca_error_t grow_locked(void)
{
	uint32_t chunk = table.num_chunks;
	struct key_slot *slots;

	if (chunk == MAX_CHUNKS)
		return sdoca_fail(DOCA_ERROR_FULL, "memory-key table is full (%u keys)",
		                  MAX_CHUNKS * CHUNK_SLOTS - 1);
	slots = calloc(CHUNK_SLOTS, sizeof(*slots));
	if (!slots)
		return DOCA_ERROR_NO_MEMORY;
	for (uint32_t i = CHUNK_SLOTS; i-- > 0;) {
		uint32_t index = (chunk << CHUNK_BITS) | i;

		if (index == 0)
			continue;
		slots[i].next_free = table.free_head;
		table.free_head = index;
	}
	atomic_store_explicit(&table.chunks[chunk], slots, memory_order_release);
	table.num_chunks++;
	return DOCA_SUCCESS;
}

static doca_error_t random_tag(uint32_t *hi, uint64_t *lo)
{
	uint8_t bytes[12];
	size_t got = 0;

	while (got < sizeof(bytes)) {
		ssize_t n = getrandom(bytes + got, sizeof(bytes) - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return sdoca_fail(DOCA_ERROR_OPERATING_SYSTEM, "getrandom failed: %s",
			                  strerror(errno));
		got += (size_t)n;
	}
	*lo = sdoca_get_le64(bytes);
	*hi = sdoca_get_le32(bytes + 8);
	return DOCA_SUCCESS;
}

SDOCA_EXPORT doca_error_t sdoca_keys_register(const struct sdoca_key_region *region,
                                              struct sdoca_key *key)
{
	struct key_slot *slot;
	doca_error_t status;
	uint32_t index;

	pthread_mutex_lock(&table.lock);
	if (table.free_head == 0 && (status = grow_locked()) != DOCA_SUCCESS)
		goto out;
	index = table.free_head;
	slot = slot_at(index);
	status = random_tag(&slot->tag_hi, &slot->tag_lo);
	if (status != DOCA_SUCCESS)
		goto out;
	table.free_head = slot->next_free;
	slot->region = *region;
	table.live++;
	key->index = index;
	key->tag_hi = slot->tag_hi;
	key->tag_lo = slot->tag_lo;
	atomic_store(&slot->live, 1); /* publishes the fields written above */
out:
	pthread_mutex_unlock(&table.lock);
	return status;
}

static bool tag_matches(const struct key_slot *slot, const struct sdoca_key *key)
{
	/* No early exit: the comparison takes the same time for any wrong tag. */
	return ((slot->tag_lo ^ key->tag_lo) | (uint64_t)(slot->tag_hi ^ key->tag_hi)) == 0;
}

SDOCA_EXPORT void sdoca_keys_set_quiesce(sdoca_keys_quiesce_fn fn)
{
	atomic_store(&table.quiesce, fn);
}

SDOCA_EXPORT void sdoca_keys_revoke(const struct sdoca_key *key)
{
	struct key_slot *slot = slot_at(key->index);
	sdoca_keys_quiesce_fn quiesce;

	if (!slot)
		return;
	pthread_mutex_lock(&table.lock);
	if (!atomic_load(&slot->live) || !tag_matches(slot, key)) {
		pthread_mutex_unlock(&table.lock);
		return;
	}
	atomic_store(&slot->live, 0);
	table.live--;
	pthread_mutex_unlock(&table.lock);

	/* Peekers finish their section; holders are responders in the middle of
	 * one access: both soon. */
	quiesce = atomic_load(&table.quiesce);
	if (quiesce)
		quiesce();
	while (atomic_load(&slot->holders) != 0)
		sched_yield();

	pthread_mutex_lock(&table.lock);
	slot->next_free = table.free_head;
	table.free_head = key->index;
	pthread_mutex_unlock(&table.lock);
}

SDOCA_EXPORT doca_error_t sdoca_keys_acquire(const struct sdoca_key *key,
                                             struct sdoca_key_region *region)
{
	struct key_slot *slot = slot_at(key->index);

	if (!slot || key->index == 0)
		return DOCA_ERROR_NOT_FOUND;
	atomic_fetch_add(&slot->holders, 1);
	if (!atomic_load(&slot->live) || !tag_matches(slot, key)) {
		atomic_fetch_sub(&slot->holders, 1);
		return DOCA_ERROR_NOT_FOUND;
	}
	*region = slot->region;
	return DOCA_SUCCESS;
}

SDOCA_EXPORT const struct sdoca_key_region *sdoca_keys_peek(const struct sdoca_key *key)
{
	struct key_slot *slot = slot_at(key->index);

	if (!slot || key->index == 0 || !atomic_load_explicit(&slot->live, memory_order_acquire) ||
	    !tag_matches(slot, key))
		return NULL;
	return &slot->region; /* unchanged until the key is revoked and quiesced */
}

SDOCA_EXPORT void sdoca_keys_release(const struct sdoca_key *key)
{
	struct key_slot *slot = slot_at(key->index);

	if (slot)
		atomic_fetch_sub(&slot->holders, 1);
}

SDOCA_EXPORT uint32_t sdoca_keys_live(void)
{
	uint32_t live;

	pthread_mutex_lock(&table.lock);
	live = table.live;
	pthread_mutex_unlock(&table.lock);
	return live;
}
