/*
 * Fuzz target: doca_mmap_create_from_export() on arbitrary bytes.
 *
 * The input becomes a blob as fuzz_blob.h says.
 * Whatever the input, the call must not crash, leak, or hand out an mmap
 * unless the blob is a well-formed mmap export.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <doca_dev.h>
#include <doca_log.h>
#include <doca_mmap.h>

#include "fuzz_blob.h"
#include "fuzz_dev.h"

static struct doca_dev *dev;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	dev = fuzz_open_dev();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct doca_mmap *mmap = NULL;
	size_t len, range;
	uint8_t *blob = fuzz_blob_from_input(data, size, &len);
	void *addr;

	if (!blob)
		return 0;
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
