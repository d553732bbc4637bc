/*
 * Fuzz target: the RDMA connection blob a peer hands to doca_rdma_connect(),
 * up to the transport address inside it (which goes to UCX as is).
 *
 * The input becomes a blob as fuzz_blob.h says; what the blob check accepts
 * goes on to the QP info check, as in doca_rdma_connect().
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <doca_log.h>

#include "fuzz_blob.h"
#include "nic/nic.h"
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
	uint8_t *blob = fuzz_blob_from_input(data, size, &len);

	if (!blob)
		return 0;
	if (rdma_conn_blob_check(blob, len, &info, &info_len) == DOCA_SUCCESS &&
	    nic_conn_info_check(info, info_len) == DOCA_SUCCESS) {
		/* accepted: the info lies inside the blob and names an address */
		if (info < blob || info + info_len > blob + len || info_len <= 56)
			abort();
	}
	free(blob);
	return 0;
}
