/*
 * Unit tests: doca_rdma_connect() with connection blobs that pass the blob
 * checks but carry a transport address UCX would abort on (a format version
 * it does not know) is refused with INVALID_VALUE; the process lives on and
 * the connection still connects with the genuine blob. One process, two RDMA
 * contexts connected to each other.
 */
#include <stdlib.h>
#include <string.h>

#include <doca_ctx.h>
#include <doca_pe.h>
#include <doca_rdma.h>

#include "core/blob.h"
#include "rdma/rdma.h"
#include "unit/testing.h"

/* Offset of the transport address in the connection info (docs/wire.md). */
#define INFO_ADDR 56

struct side {
	struct doca_rdma *rdma;
	struct doca_rdma_connection *conn;
	const void *blob;
	size_t len;
};

static struct doca_dev *dev;
static struct doca_pe *pe;

static void open_loopback(void)
{
	struct doca_devinfo **list;
	uint32_t n;
	char ibdev[DOCA_DEVINFO_IBDEV_NAME_SIZE];

	setenv("SOFTDOCA_DEVICES", "lo", 1);
	assert_doca_ok(doca_devinfo_create_list(&list, &n));
	assert_true(n >= 1);
	assert_doca_ok(doca_devinfo_get_ibdev_name(list[0], ibdev, sizeof(ibdev)));
	assert_string_equal(ibdev, "sdoca_lo");
	assert_doca_ok(doca_dev_open(list[0], &dev));
	assert_doca_ok(doca_devinfo_destroy_list(list));
}

static void start_side(struct side *s)
{
	assert_doca_ok(doca_rdma_create(dev, &s->rdma));
	assert_doca_ok(doca_rdma_set_permissions(s->rdma, DOCA_ACCESS_FLAG_RDMA_WRITE));
	assert_doca_ok(doca_pe_connect_ctx(pe, doca_rdma_as_ctx(s->rdma)));
	assert_doca_ok(doca_ctx_start(doca_rdma_as_ctx(s->rdma)));
	assert_doca_ok(doca_rdma_export(s->rdma, &s->blob, &s->len, &s->conn));
}

static void stop_side(struct side *s)
{
	enum doca_ctx_states state;
	doca_error_t status = doca_ctx_stop(doca_rdma_as_ctx(s->rdma));

	assert_true(status == DOCA_SUCCESS || status == DOCA_ERROR_IN_PROGRESS);
	for (int i = 0; i < 100000; i++) {
		assert_doca_ok(doca_ctx_get_state(doca_rdma_as_ctx(s->rdma), &state));
		if (state == DOCA_CTX_STATE_IDLE)
			break;
		doca_pe_progress(pe);
	}
	assert_int_equal(state, DOCA_CTX_STATE_IDLE);
	assert_doca_ok(doca_rdma_destroy(s->rdma));
}

/* A copy of the blob whose transport address claims another format version,
 * sealed again so that every softdoca check passes. */
static uint8_t *foreign_version(const struct side *s)
{
	uint8_t *copy = malloc(s->len);
	const uint8_t *info;
	size_t info_len;

	assert_non_null(copy);
	memcpy(copy, s->blob, s->len);
	assert_doca_ok(rdma_conn_blob_check(copy, s->len, &info, &info_len));
	assert_true(info_len > INFO_ADDR);
	copy[(size_t)(info - copy) + INFO_ADDR] ^= 0x0a; /* low 4 bits: the version */
	sdoca_blob_seal(copy, SDOCA_BLOB_RDMA_CONNECTION, s->len - SDOCA_BLOB_HEADER_SIZE);
	assert_doca_ok(rdma_conn_blob_check(copy, s->len, &info, &info_len));
	return copy;
}

static void foreign_address_refused(void **state)
{
	struct side a, b;
	uint8_t *bad;

	(void)state;
	open_loopback();
	assert_doca_ok(doca_pe_create(&pe));
	start_side(&a);
	start_side(&b);
	bad = foreign_version(&a);
	assert_doca_err(doca_rdma_connect(b.rdma, bad, a.len, b.conn), DOCA_ERROR_INVALID_VALUE);
	free(bad);
	/* Nothing was half done: the genuine blobs still connect both ends. */
	assert_doca_ok(doca_rdma_connect(b.rdma, a.blob, a.len, b.conn));
	assert_doca_ok(doca_rdma_connect(a.rdma, b.blob, b.len, a.conn));
	stop_side(&a);
	stop_side(&b);
	assert_doca_ok(doca_pe_destroy(pe));
	assert_doca_ok(doca_dev_close(dev));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(foreign_address_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
