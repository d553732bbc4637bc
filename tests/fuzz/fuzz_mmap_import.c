/*
 * Fuzz target: doca_mmap_create_from_export() on arbitrary bytes.
 *
 * The first input byte chooses a mode: odd = the rest is used as is;
 * even = the rest gets a valid envelope checksum first, so the fuzzer also
 * explores the body decoder instead of stopping at the CRC.
 * Whatever the input, the call must not crash, leak, or hand out an mmap
 * unless the blob is a well-formed mmap export.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <doca_dev.h>
#include <doca_log.h>
#include <doca_mmap.h>

#include "core/blob.h"
#include "core/bytes.h"

static struct doca_dev *dev;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct doca_devinfo **list;
	uint32_t n;

	(void)argc;
	(void)argv;
	/* Refusals are expected by the thousand; keep the output readable. */
	doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DISABLE);
	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS || n == 0 ||
	    doca_dev_open(list[0], &dev) != DOCA_SUCCESS)
		abort();
	doca_devinfo_destroy_list(list);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct doca_mmap *mmap = NULL;
	uint8_t *blob;
	size_t len;
	void *addr;
	size_t range;

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
	if (doca_mmap_create_from_export(NULL, blob, len, dev, &mmap) == DOCA_SUCCESS) {
		/* Accepted: it must describe a sane, non-empty range. */
		if (doca_mmap_get_memrange(mmap, &addr, &range) != DOCA_SUCCESS || range == 0 ||
		    (uintptr_t)addr + range < (uintptr_t)addr)
			abort();
		if (doca_mmap_destroy(mmap) != DOCA_SUCCESS)
			abort();
	}
	free(blob);
	return 0;
}
