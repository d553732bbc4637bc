/*
 * Little-endian encoding of integers in blobs and wire messages.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SDOCA_CORE_BYTES_H_
#define SDOCA_CORE_BYTES_H_

#include <endian.h>
#include <stdint.h>
#include <string.h>

/* memcpy + leNNtoh: one unaligned load or store on little-endian hosts,
 * not a loop over bytes: every message header on the data path passes here. */
static inline void sdoca_put_le16(uint8_t *p, uint16_t v)
{
	v = htole16(v);
	memcpy(p, &v, sizeof(v));
}

static inline void sdoca_put_le32(uint8_t *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void sdoca_put_le64(uint8_t *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, sizeof(v));
}

static inline uint16_t sdoca_get_le16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return le16toh(v);
}

static inline uint32_t sdoca_get_le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static inline uint64_t sdoca_get_le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

#endif /* SDOCA_CORE_BYTES_H_ */
