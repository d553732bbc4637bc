/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The shared part of the DOCA 2.2 examples (see example.h): the
 * preparations of DOCA's 2023 RDMA programming guide, in its order, with a
 * work queue instead of a progress engine.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "example.h"

DOCA_LOG_REGISTER(EXAMPLE_V22);

void example_v22_open(struct example *ex, uint32_t access)
{
	example_open_device(ex);
	ex->mem = mmap(NULL, EXAMPLE_MEM_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	               -1, 0);
	if (ex->mem == MAP_FAILED) {
		DOCA_LOG_ERR("mmap: %s", strerror(errno));
		exit(1);
	}
	EXAMPLE_CHECK(doca_mmap_create(NULL, &ex->mmap));
	EXAMPLE_CHECK(doca_mmap_set_permissions(ex->mmap, access));
	EXAMPLE_CHECK(doca_mmap_set_memrange(ex->mmap, ex->mem, EXAMPLE_MEM_SIZE));
	EXAMPLE_CHECK(doca_mmap_dev_add(ex->mmap, ex->dev));
	EXAMPLE_CHECK(doca_mmap_start(ex->mmap));
	EXAMPLE_CHECK(doca_buf_inventory_create(NULL, 4, DOCA_BUF_EXTENSION_NONE, &ex->inv));
	EXAMPLE_CHECK(doca_buf_inventory_start(ex->inv));
	EXAMPLE_CHECK(doca_rdma_create(&ex->rdma));
	ex->ctx = doca_rdma_as_ctx(ex->rdma);
	EXAMPLE_CHECK(doca_ctx_dev_add(ex->ctx, ex->dev));
	EXAMPLE_CHECK(doca_rdma_set_permissions(ex->rdma, access));
}

void example_v22_start_and_connect(struct example *ex, bool event_driven)
{
	const void *blob;
	size_t len;
	void *peer;

	/* DOCA 2.2's start is synchronous: the instance is INIT when it returns. */
	EXAMPLE_CHECK(doca_ctx_start(ex->ctx));
	EXAMPLE_CHECK(doca_rdma_export(ex->rdma, &blob, &len));
	EXAMPLE_CHECK(doca_workq_create(4, &ex->workq));
	if (event_driven)
		EXAMPLE_CHECK(doca_workq_set_event_driven_enable(ex->workq, 1));
	EXAMPLE_CHECK(doca_ctx_workq_add(ex->ctx, ex->workq));
	example_write_file(ex->local_file, blob, len);
	printf("connection blob written to %s (%zu bytes), waiting for %s\n", ex->local_file, len,
	       ex->remote_file);
	peer = example_wait_file(ex->remote_file, &len);
	EXAMPLE_CHECK(doca_rdma_connect(ex->rdma, peer, len));
	free(peer);
	printf("connected\n");
}

/* The guide's clean-up: work queue out of the context first, then stop. */
void example_v22_close(struct example *ex)
{
	EXAMPLE_CHECK(doca_ctx_workq_rm(ex->ctx, ex->workq));
	EXAMPLE_CHECK(doca_workq_destroy(ex->workq));
	EXAMPLE_CHECK(doca_ctx_stop(ex->ctx));
	EXAMPLE_CHECK(doca_ctx_dev_rm(ex->ctx, ex->dev));
	EXAMPLE_CHECK(doca_rdma_destroy(ex->rdma));
	if (ex->remote_mmap)
		EXAMPLE_CHECK(doca_mmap_destroy(ex->remote_mmap));
	EXAMPLE_CHECK(doca_buf_inventory_destroy(ex->inv));
	EXAMPLE_CHECK(doca_mmap_destroy(ex->mmap));
	EXAMPLE_CHECK(doca_dev_close(ex->dev));
	munmap(ex->mem, EXAMPLE_MEM_SIZE);
}
