/*
 * Export-blob envelope and the process's node id.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>
#include <zlib.h>

#include "core/blob.h"
#include "core/bytes.h"
#include "core/sdk_log.h"

SDOCA_LOG_MODULE(blob);

static const uint8_t blob_magic[4] = { 'S', 'D', 'C', 'A' };

static uint32_t blob_crc(const uint8_t *blob, size_t body_len)
{
	uLong crc = crc32(0L, Z_NULL, 0);

	crc = crc32(crc, blob, 12);
	crc = crc32(crc, blob + SDOCA_BLOB_HEADER_SIZE, (uInt)body_len);
	return (uint32_t)crc;
}

SDOCA_EXPORT void sdoca_blob_seal(uint8_t *blob, enum sdoca_blob_kind kind, size_t body_len)
{
	memcpy(blob, blob_magic, sizeof(blob_magic));
	sdoca_put_le16(blob + 4, SDOCA_BLOB_VERSION);
	sdoca_put_le16(blob + 6, (uint16_t)kind);
	sdoca_put_le32(blob + 8, (uint32_t)body_len);
	sdoca_put_le32(blob + 12, blob_crc(blob, body_len));
}

static const char *kind_name(unsigned int kind)
{
	switch (kind) {
	case SDOCA_BLOB_MMAP:
		return "mmap";
	case SDOCA_BLOB_RDMA_CONNECTION:
		return "RDMA connection";
	case SDOCA_BLOB_SYNC_EVENT:
		return "sync event";
	default:
		return "unknown";
	}
}

SDOCA_EXPORT doca_error_t sdoca_blob_open(const void *blob, size_t len,
                                          enum sdoca_blob_kind expected, const uint8_t **body,
                                          size_t *body_len)
{
	const uint8_t *p = blob;
	uint32_t declared;
	uint16_t version, kind;

	if (!blob)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "export blob is NULL");
	if (len < SDOCA_BLOB_HEADER_SIZE)
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "export blob too short: %zu bytes, a softdoca blob has at least %d", len,
		        SDOCA_BLOB_HEADER_SIZE);
	if (memcmp(p, blob_magic, sizeof(blob_magic)) != 0)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "not a softdoca export blob (bad magic; was it made by another "
		                  "DOCA implementation?)");
	version = sdoca_get_le16(p + 4);
	if (version != SDOCA_BLOB_VERSION)
		return sdoca_fail(
		        DOCA_ERROR_NOT_SUPPORTED,
		        "export blob has format version %u; this softdoca reads version %u",
		        version, SDOCA_BLOB_VERSION);
	declared = sdoca_get_le32(p + 8);
	if (declared > SDOCA_BLOB_MAX_BODY || len != SDOCA_BLOB_HEADER_SIZE + (size_t)declared)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "export blob length %zu does not match its header (%u-byte body)",
		                  len, declared);
	if (sdoca_get_le32(p + 12) != blob_crc(p, declared))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "export blob checksum mismatch (corrupted)");
	kind = sdoca_get_le16(p + 6);
	if (kind != expected)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "export blob describes a %s, expected a %s", kind_name(kind),
		                  kind_name(expected));
	*body = p + SDOCA_BLOB_HEADER_SIZE;
	*body_len = declared;
	return DOCA_SUCCESS;
}

static _Atomic uint64_t node_id;
static pthread_once_t node_once = PTHREAD_ONCE_INIT;

static void new_node_id(void)
{
	uint64_t id = 0;

	while (id == 0) {
		if (getrandom(&id, sizeof(id), 0) != (ssize_t)sizeof(id))
			id = ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)&id;
	}
	atomic_store(&node_id, id);
}

static void init_node_id(void)
{
	new_node_id();
	/* A forked child is another node: it must not pass for its parent. */
	pthread_atfork(NULL, NULL, new_node_id);
}

SDOCA_EXPORT uint64_t sdoca_node_id(void)
{
	pthread_once(&node_once, init_node_id);
	return atomic_load(&node_id);
}
