/*
 * Fuzz target: the check of a peer's UCX worker address (the last part of a
 * connection blob, which UCX would otherwise read without bounds).
 *
 * The input is the peer's address; this process's own address, from a real
 * UCX worker on the loopback interface, is the reference. ASan sees any read
 * outside the input. For inputs of odd length the roles swap: the input
 * stands for this worker's own address (the check must not trust it either).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <doca_log.h>

#include "transport/ucx_address.h"
#include "transport/xport.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct xport_worker *worker;
static const void *own;
static size_t own_len;

static void destroy_worker(void)
{
	xport_worker_destroy(worker);
}

static bool ignore(void *arg, const void *hdr, size_t hdr_len, struct xport_rx *rx)
{
	(void)arg;
	(void)hdr;
	(void)hdr_len;
	(void)rx;
	return false;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DISABLE);
	if (xport_worker_create("lo", ignore, NULL, &worker) != DOCA_SUCCESS)
		abort();
	xport_worker_address(worker, &own, &own_len);
	atexit(destroy_worker);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* An exact-size copy, so that ASan sees a read one byte past the end. */
	uint8_t *input = malloc(size ? size : 1);

	if (!input)
		return 0;
	memcpy(input, data, size);
	if (size & 1)
		(void)xport_address_check(input, size, own, own_len);
	else
		(void)xport_address_check(own, own_len, input, size);
	free(input);
	return 0;
}
