/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Turns a fuzzer input into an export blob. The first input byte chooses a
 * mode: odd = the rest is used as is; even = the rest gets a valid envelope
 * length and checksum first, so the fuzzer explores the body decoders
 * instead of stopping at the CRC.
 */
#ifndef SDOCA_FUZZ_BLOB_H_
#define SDOCA_FUZZ_BLOB_H_

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/blob.h"
#include "core/bytes.h"

/* A malloc'd blob of *len bytes (free it), or NULL for an empty input. */
static inline uint8_t *fuzz_blob_from_input(const uint8_t *data, size_t size, size_t *len)
{
	uint8_t *blob;

	if (size == 0)
		return NULL;
	*len = size - 1;
	blob = malloc(*len ? *len : 1);
	if (!blob)
		abort();
	memcpy(blob, data + 1, *len);
	if ((data[0] & 1) == 0 && *len >= SDOCA_BLOB_HEADER_SIZE) {
		uint32_t body = (uint32_t)(*len - SDOCA_BLOB_HEADER_SIZE);

		sdoca_put_le32(blob + 8, body);
		sdoca_blob_seal(blob, (enum sdoca_blob_kind)sdoca_get_le16(blob + 6), body);
	}
	return blob;
}

#endif /* SDOCA_FUZZ_BLOB_H_ */
