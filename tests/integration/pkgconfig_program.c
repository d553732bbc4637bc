/*
 * A small DOCA Core program, built by install_pkgconfig.sh against an
 * installed softdoca through pkg-config only. Exits 0 when everything
 * behaved as DOCA documents.
 */
#include <stdio.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_version.h>

DOCA_LOG_REGISTER(PKGCONFIG::PROGRAM);

#define CHECK(call)                                                                  \
	do {                                                                         \
		doca_error_t r_ = (call);                                            \
		if (r_ != DOCA_SUCCESS) {                                            \
			fprintf(stderr, "%s: %s\n", #call, doca_error_get_name(r_)); \
			return 1;                                                    \
		}                                                                    \
	} while (0)

int main(void)
{
	static char memory[256] = "hello softdoca";
	struct doca_devinfo **list;
	struct doca_dev *dev;
	struct doca_mmap *mmap, *remote;
	struct doca_buf_inventory *inv;
	struct doca_buf *buf;
	struct doca_pe *pe;
	const void *blob;
	size_t blob_len, len;
	void *data;
	uint32_t n;

	CHECK(doca_log_backend_create_standard());
	CHECK(doca_devinfo_create_list(&list, &n));
	if (n == 0)
		return 1;
	CHECK(doca_dev_open(list[0], &dev));
	CHECK(doca_devinfo_destroy_list(list));

	CHECK(doca_mmap_create(&mmap));
	CHECK(doca_mmap_set_memrange(mmap, memory, sizeof(memory)));
	CHECK(doca_mmap_set_permissions(mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE |
	                                              DOCA_ACCESS_FLAG_RDMA_READ));
	CHECK(doca_mmap_add_dev(mmap, dev));
	CHECK(doca_mmap_start(mmap));
	CHECK(doca_mmap_export_rdma(mmap, dev, &blob, &blob_len));
	CHECK(doca_mmap_create_from_export(NULL, blob, blob_len, dev, &remote));
	CHECK(doca_mmap_get_memrange(remote, &data, &len));
	if (data != (void *)memory || len != sizeof(memory))
		return 1;

	CHECK(doca_buf_inventory_create(4, &inv));
	CHECK(doca_buf_inventory_start(inv));
	CHECK(doca_buf_inventory_buf_get_by_data(inv, mmap, memory, 5, &buf));
	CHECK(doca_buf_get_data(buf, &data));
	if (memcmp(data, "hello", 5) != 0)
		return 1;
	CHECK(doca_buf_dec_refcount(buf, NULL));
	CHECK(doca_pe_create(&pe));
	if (doca_pe_progress(pe) != 0)
		return 1;
	CHECK(doca_pe_destroy(pe));
	CHECK(doca_buf_inventory_destroy(inv));
	CHECK(doca_mmap_destroy(remote));
	CHECK(doca_mmap_destroy(mmap));
	CHECK(doca_dev_close(dev));
	DOCA_LOG_INFO("DOCA %s on softdoca: all good", doca_version());
	return 0;
}
