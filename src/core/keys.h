/*
 * The memory-key table: what a remote peer may touch in this process.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * A key is 128 bits: a 32-bit slot index and a 96-bit tag from getrandom(),
 * so a peer cannot guess a key it was not given. Lookups take no lock: a
 * slot is found by index and checked against the tag. While a responder uses
 * a region it holds the slot (or peeks, inside a critical section that the
 * quiesce hook waits out), and revoking a key waits until no one does, so
 * once doca_mmap_stop/destroy returns no remote access touches the memory.
 */
#ifndef SDOCA_CORE_KEYS_H_
#define SDOCA_CORE_KEYS_H_

#include <stdbool.h>
#include <stdint.h>

#include <doca_error.h>

#include "core/bytes.h"
#include "core/compiler.h"

#define SDOCA_KEY_WIRE_SIZE 16

struct sdoca_key {
	uint32_t index; /* 0 is never a valid slot */
	uint32_t tag_hi;
	uint64_t tag_lo;
};

enum sdoca_key_kind {
	SDOCA_KEY_MMAP = 1,       /* a registered memory range */
	SDOCA_KEY_SYNC_EVENT = 2, /* the 8-byte value of a sync event */
};

/* What a key grants. */
struct sdoca_key_region {
	uint64_t addr;
	uint64_t len;
	uint32_t access; /* DOCA_ACCESS_FLAG_* */
	enum sdoca_key_kind kind;
	void *owner; /* the mmap or sync event */
};

SDOCA_EXPORT doca_error_t sdoca_keys_register(const struct sdoca_key_region *region,
                                              struct sdoca_key *key);
/* Invalidates the key and waits until every holder has released it. */
SDOCA_EXPORT void sdoca_keys_revoke(const struct sdoca_key *key);
/* Looks a key up and holds its slot; NOT_FOUND for unknown or revoked keys. */
SDOCA_EXPORT doca_error_t sdoca_keys_acquire(const struct sdoca_key *key,
                                             struct sdoca_key_region *region);
SDOCA_EXPORT void sdoca_keys_release(const struct sdoca_key *key);
/* Looks a key up without holding it, for a caller that is done with the
 * region before it leaves a critical section the quiesce hook waits out
 * (the region stays as it is until then). NULL for unknown or revoked keys. */
SDOCA_EXPORT const struct sdoca_key_region *sdoca_keys_peek(const struct sdoca_key *key);
/* Called by every revoke after the key is gone: returns once every critical
 * section that may have peeked at it has ended (the soft NIC: takes and
 * releases each worker's lock). Must not be called with such a section held. */
typedef void (*sdoca_keys_quiesce_fn)(void);
SDOCA_EXPORT void sdoca_keys_set_quiesce(sdoca_keys_quiesce_fn fn);
/* Number of keys registered and not revoked. */
SDOCA_EXPORT uint32_t sdoca_keys_live(void);

/* The key's 16 bytes in blobs and message headers (inline: every request
 * header carries one). */
static inline void sdoca_key_encode(const struct sdoca_key *key, uint8_t out[SDOCA_KEY_WIRE_SIZE])
{
	sdoca_put_le32(out, key->index);
	sdoca_put_le32(out + 4, key->tag_hi);
	sdoca_put_le64(out + 8, key->tag_lo);
}

static inline void sdoca_key_decode(const uint8_t in[SDOCA_KEY_WIRE_SIZE], struct sdoca_key *key)
{
	key->index = sdoca_get_le32(in);
	key->tag_hi = sdoca_get_le32(in + 4);
	key->tag_lo = sdoca_get_le64(in + 8);
}

#endif /* SDOCA_CORE_KEYS_H_ */
