/*
 * softdoca tests: an RDMA context of this process as one side of a
 * connection (started, exported), for tests that connect contexts of one
 * process to each other.
 */
#ifndef SDOCA_TESTS_RDMA_SIDE_H_
#define SDOCA_TESTS_RDMA_SIDE_H_

#include <stdlib.h>
#include <string.h>

#include <doca_ctx.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>

#include "core/blob.h"
#include "rdma/rdma.h"
#include "unit/testing.h"

/* Offset of the transport address in the connection info (docs/wire.md). */
#define RDMA_INFO_ADDR 56

struct rdma_side {
	struct doca_rdma *rdma;
	struct doca_rdma_connection *conn;
	const void *blob; /* its connection blob */
	size_t len;
};

/* Creates, starts and exports a context with RDMA_WRITE permission. */
static inline void rdma_side_start(struct doca_dev *dev, struct doca_pe *pe, struct rdma_side *s)
{
	assert_doca_ok(doca_rdma_create(dev, &s->rdma));
	assert_doca_ok(doca_rdma_set_permissions(s->rdma, DOCA_ACCESS_FLAG_RDMA_WRITE));
	assert_doca_ok(doca_pe_connect_ctx(pe, doca_rdma_as_ctx(s->rdma)));
	assert_doca_ok(doca_ctx_start(doca_rdma_as_ctx(s->rdma)));
	assert_doca_ok(doca_rdma_export(s->rdma, &s->blob, &s->len, &s->conn));
}

/* Stops the context (progressing until IDLE, bounded) and destroys it. */
static inline void rdma_side_stop(struct doca_pe *pe, struct rdma_side *s)
{
	enum doca_ctx_states state = DOCA_CTX_STATE_RUNNING;
	doca_error_t status = doca_ctx_stop(doca_rdma_as_ctx(s->rdma));

	assert_true(status == DOCA_SUCCESS || status == DOCA_ERROR_IN_PROGRESS);
	for (int i = 0; i < 1000000 && state != DOCA_CTX_STATE_IDLE; i++) {
		doca_pe_progress(pe);
		assert_doca_ok(doca_ctx_get_state(doca_rdma_as_ctx(s->rdma), &state));
	}
	assert_int_equal(state, DOCA_CTX_STATE_IDLE);
	assert_doca_ok(doca_rdma_destroy(s->rdma));
}

/* A copy of a connection blob whose transport address byte `at` is `value`,
 * sealed again so that every softdoca check before the address passes. */
static inline uint8_t *rdma_blob_with_address_byte(const void *blob, size_t len, size_t at,
                                                   uint8_t value)
{
	uint8_t *copy = malloc(len);
	const uint8_t *info;
	size_t info_len;

	assert_non_null(copy);
	memcpy(copy, blob, len);
	assert_doca_ok(rdma_conn_blob_check(copy, len, &info, &info_len));
	assert_true(info_len > RDMA_INFO_ADDR + at);
	copy[(size_t)(info - copy) + RDMA_INFO_ADDR + at] = value;
	sdoca_blob_seal(copy, SDOCA_BLOB_RDMA_CONNECTION, len - SDOCA_BLOB_HEADER_SIZE);
	assert_doca_ok(rdma_conn_blob_check(copy, len, &info, &info_len));
	return copy;
}

/* A started local mmap of mem on dev with the given access. */
static inline struct doca_mmap *rdma_started_mmap(struct doca_dev *dev, void *mem, size_t len,
                                                  uint32_t access)
{
	struct doca_mmap *mmap;

	assert_doca_ok(doca_mmap_create(&mmap));
	assert_doca_ok(doca_mmap_set_memrange(mmap, mem, len));
	assert_doca_ok(doca_mmap_set_permissions(mmap, access));
	assert_doca_ok(doca_mmap_add_dev(mmap, dev));
	assert_doca_ok(doca_mmap_start(mmap));
	return mmap;
}

static inline bool rdma_running(struct doca_rdma *rdma)
{
	enum doca_ctx_states state;

	assert_doca_ok(doca_ctx_get_state(doca_rdma_as_ctx(rdma), &state));
	return state == DOCA_CTX_STATE_RUNNING;
}

#endif /* SDOCA_TESTS_RDMA_SIDE_H_ */
