/*
 * Fuzz target: doca_sync_event_remote_net_create_from_export() on arbitrary
 * bytes.
 *
 * The input becomes a blob as fuzz_blob.h says. Whatever the input, the call
 * must not crash or leak, and hands out a remote event only for a
 * well-formed sync-event export (a key and an aligned value address).
 */
#include <stdint.h>
#include <stdlib.h>

#include <doca_sync_event.h>

#include "core/sync_event.h"
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
	struct doca_sync_event_remote_net *ev = NULL;
	size_t len;
	uint8_t *blob = fuzz_blob_from_input(data, size, &len);

	if (!blob)
		return 0;
	if (doca_sync_event_remote_net_create_from_export(dev, blob, len, &ev) == DOCA_SUCCESS) {
		/* Accepted: it must name a key and an aligned, non-null value. */
		if (ev->key.index == 0 || ev->addr == 0 || ev->addr % 8 != 0 || ev->peer_node == 0)
			abort();
		if (doca_sync_event_remote_net_destroy(ev) != DOCA_SUCCESS)
			abort();
	}
	free(blob);
	return 0;
}
