/*
 * The envelope of every export blob (mmap, RDMA connection, sync event).
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 *   offset size
 *   0      4    magic "SDCA"
 *   4      2    format version (SDOCA_BLOB_VERSION)
 *   6      2    kind (enum sdoca_blob_kind)
 *   8      4    body length
 *   12     4    CRC-32 of bytes 0..11 and the body
 *   16     ...  body, little-endian fields
 *
 * Blobs come from another process or host and are untrusted: opening one
 * checks every field before anything is allocated.
 */
#ifndef SDOCA_CORE_BLOB_H_
#define SDOCA_CORE_BLOB_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>

#include "core/compiler.h"

#define SDOCA_BLOB_HEADER_SIZE 16
#define SDOCA_BLOB_VERSION 1
#define SDOCA_BLOB_MAX_BODY 4096

enum sdoca_blob_kind {
	SDOCA_BLOB_MMAP = 1,
	SDOCA_BLOB_RDMA_CONNECTION = 2,
	SDOCA_BLOB_SYNC_EVENT = 3,
};

/* Writes the header for a body already placed at blob + SDOCA_BLOB_HEADER_SIZE. */
SDOCA_EXPORT void sdoca_blob_seal(uint8_t *blob, enum sdoca_blob_kind kind, size_t body_len);

/* Validates a blob of the expected kind and points at its body.
 * INVALID_VALUE for a short, long, corrupt or foreign blob; NOT_SUPPORTED
 * for a blob of a format version this library does not know. */
SDOCA_EXPORT doca_error_t sdoca_blob_open(const void *blob, size_t len,
                                          enum sdoca_blob_kind expected, const uint8_t **body,
                                          size_t *body_len);

/* This process on the soft fabric: random per process (and per fork). */
SDOCA_EXPORT uint64_t sdoca_node_id(void);

#endif /* SDOCA_CORE_BLOB_H_ */
