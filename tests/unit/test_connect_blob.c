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

#include "unit/rdma_side.h"

/* A copy of the blob whose transport address claims another format version
 * (the low 4 bits of its first byte). */
static uint8_t *foreign_version(const struct rdma_side *s)
{
	uint8_t first;
	const uint8_t *info;
	size_t info_len;

	assert_doca_ok(rdma_conn_blob_check(s->blob, s->len, &info, &info_len));
	first = info[RDMA_INFO_ADDR];
	return rdma_blob_with_address_byte(s->blob, s->len, 0, first ^ 0x0a);
}

static void foreign_address_refused(void **state)
{
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct rdma_side a, b;
	char ibdev[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	uint8_t *bad;

	(void)state;
	setenv("SOFTDOCA_DEVICES", "lo", 1);
	dev = open_loopback_dev();
	assert_doca_ok(doca_devinfo_get_ibdev_name(doca_dev_as_devinfo(dev), ibdev, sizeof(ibdev)));
	assert_string_equal(ibdev, "sdoca_lo");
	assert_doca_ok(doca_pe_create(&pe));
	rdma_side_start(dev, pe, &a);
	rdma_side_start(dev, pe, &b);
	bad = foreign_version(&a);
	assert_doca_err(doca_rdma_connect(b.rdma, bad, a.len, b.conn), DOCA_ERROR_INVALID_VALUE);
	free(bad);
	/* Nothing was half done: the genuine blobs still connect both ends. */
	assert_doca_ok(doca_rdma_connect(b.rdma, a.blob, a.len, b.conn));
	assert_doca_ok(doca_rdma_connect(a.rdma, b.blob, b.len, a.conn));
	rdma_side_stop(pe, &a);
	rdma_side_stop(pe, &b);
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
