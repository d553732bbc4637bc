/*
 * Fuzz target: the RDMA connection blob a peer hands to doca_rdma_connect(),
 * up to the transport address inside it (which goes to UCX as is).
 *
 * The first byte chooses: odd = use the rest as is; even = give the rest a
 * valid envelope checksum first, to reach the body checks.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <doca_log.h>

#include "core/blob.h"
#include "core/bytes.h"
#include "rdma/rdma.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DISABLE);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *info;
	size_t info_len, len;
	uint8_t *blob;

	if (size == 0)
		return 0;
	len = size - 1;
	blob = malloc(len ? len : 1);
	memcpy(blob, data + 1, len);
	if ((data[0] & 1) == 0 && len >= SDOCA_BLOB_HEADER_SIZE) {
		uint32_t body = (uint32_t)(len - SDOCA_BLOB_HEADER_SIZE);

		sdoca_put_le32(blob + 8, body);
		sdoca_blob_seal(blob, (enum sdoca_blob_kind)sdoca_get_le16(blob + 6), body);
	}
	if (rdma_conn_blob_check(blob, len, &info, &info_len) == DOCA_SUCCESS) {
		/* accepted: the info lies inside the blob and names an address */
		if (info < blob || info + info_len > blob + len || info_len <= 56)
			abort();
	}
	free(blob);
	return 0;
}
