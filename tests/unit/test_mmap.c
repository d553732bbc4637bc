/*
 * Unit tests: doca_mmap life cycle, permissions, export/import and bad blobs.
 */
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_mmap.h>
#include <softdoca.h>

#include "core/blob.h"
#include "core/bytes.h"
#include "unit/testing.h"

static struct doca_dev *dev;

static int setup(void **state)
{
	(void)state;
	dev = open_loopback_dev();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return doca_dev_close(dev) == DOCA_SUCCESS ? 0 : -1;
}

static struct doca_mmap *started_mmap(void *addr, size_t len, uint32_t access)
{
	struct doca_mmap *mmap;

	assert_doca_ok(doca_mmap_create(&mmap));
	assert_doca_ok(doca_mmap_set_memrange(mmap, addr, len));
	assert_doca_ok(doca_mmap_set_permissions(mmap, access));
	assert_doca_ok(doca_mmap_add_dev(mmap, dev));
	assert_doca_ok(doca_mmap_start(mmap));
	return mmap;
}

static void test_life_cycle_and_states(void **state)
{
	static char mem[4096];
	struct doca_mmap *mmap;
	void *addr;
	size_t len;
	uint32_t keys = softdoca_num_memory_keys(), u32;
	uint8_t flag;
	union doca_data ud = { .u64 = 42 };

	(void)state;
	assert_doca_ok(doca_mmap_create(&mmap));
	assert_doca_err(doca_mmap_get_memrange(mmap, &addr, &len), DOCA_ERROR_BAD_STATE);
	/* Start needs a range. */
	assert_doca_err(doca_mmap_start(mmap), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_mmap_stop(mmap), DOCA_ERROR_BAD_STATE);
	assert_doca_err(doca_mmap_set_memrange(mmap, NULL, 10), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_mmap_set_memrange(mmap, mem, 0), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_mmap_set_memrange(mmap, (void *)(uintptr_t)-16, 32),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_mmap_set_memrange(mmap, mem, sizeof(mem)));
	/* The range is set once. */
	assert_doca_err(doca_mmap_set_memrange(mmap, mem, 16), DOCA_ERROR_NOT_PERMITTED);
	assert_doca_ok(doca_mmap_set_user_data(mmap, ud));
	assert_doca_ok(doca_mmap_set_max_num_devices(mmap, 2));
	assert_doca_ok(doca_mmap_get_max_num_devices(mmap, &u32));
	assert_int_equal(u32, 2);
	assert_doca_ok(doca_mmap_add_dev(mmap, dev));
	assert_doca_err(doca_mmap_add_dev(mmap, dev), DOCA_ERROR_ALREADY_EXIST);

	assert_doca_ok(doca_mmap_start(mmap));
	assert_int_equal(softdoca_num_memory_keys(), keys + 1);
	assert_doca_err(doca_mmap_start(mmap), DOCA_ERROR_BAD_STATE);
	/* Started: properties are frozen. */
	assert_doca_err(doca_mmap_set_permissions(mmap, DOCA_ACCESS_FLAG_RDMA_READ),
	                DOCA_ERROR_BAD_STATE);
	assert_doca_err(doca_mmap_set_user_data(mmap, ud), DOCA_ERROR_BAD_STATE);
	assert_doca_err(doca_mmap_add_dev(mmap, dev), DOCA_ERROR_NOT_PERMITTED);
	assert_doca_err(doca_mmap_rm_dev(mmap, dev), DOCA_ERROR_NOT_PERMITTED);
	assert_doca_err(doca_mmap_set_max_num_devices(mmap, 4), DOCA_ERROR_NOT_PERMITTED);
	assert_doca_ok(doca_mmap_get_memrange(mmap, &addr, &len));
	assert_ptr_equal(addr, mem);
	assert_int_equal(len, sizeof(mem));
	assert_doca_ok(doca_mmap_get_user_data(mmap, &ud));
	assert_int_equal(ud.u64, 42);
	assert_doca_ok(doca_mmap_get_from_export(mmap, &flag));
	assert_int_equal(flag, 0);
	assert_doca_ok(doca_mmap_get_exported(mmap, &flag));
	assert_int_equal(flag, 0);

	/* Stop revokes the key; the mmap can be changed and started again. */
	assert_doca_ok(doca_mmap_stop(mmap));
	assert_int_equal(softdoca_num_memory_keys(), keys);
	assert_doca_ok(doca_mmap_rm_dev(mmap, dev));
	assert_doca_err(doca_mmap_rm_dev(mmap, dev), DOCA_ERROR_NOT_FOUND);
	assert_doca_ok(doca_mmap_start(mmap));
	assert_doca_ok(doca_mmap_destroy(mmap));
	assert_int_equal(softdoca_num_memory_keys(), keys);
}

static void test_permissions(void **state)
{
	struct doca_mmap *mmap;

	(void)state;
	assert_doca_ok(doca_mmap_create(&mmap));
	assert_doca_ok(doca_mmap_set_permissions(mmap, DOCA_ACCESS_FLAG_LOCAL_READ_ONLY));
	assert_doca_ok(doca_mmap_set_permissions(
	        mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ |
	                      DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC));
	assert_doca_err(doca_mmap_set_permissions(mmap, 1u << 7), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_mmap_set_permissions(mmap, DOCA_ACCESS_FLAG_PCI_READ_ONLY |
	                                                        DOCA_ACCESS_FLAG_PCI_READ_WRITE),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_mmap_set_permissions(NULL, 0), DOCA_ERROR_INVALID_VALUE);
	assert_doca_ok(doca_mmap_destroy(mmap));
}

static int freed_calls;
static void *freed_addr;

static void free_cb(void *addr, size_t len, void *cookie)
{
	(void)len;
	freed_calls += cookie == &freed_calls;
	freed_addr = addr;
}

static void test_free_callback(void **state)
{
	struct doca_mmap *mmap;
	char *mem = malloc(128);

	(void)state;
	assert_doca_ok(doca_mmap_create(&mmap));
	assert_doca_ok(doca_mmap_set_memrange(mmap, mem, 128));
	assert_doca_ok(doca_mmap_set_free_cb(mmap, free_cb, &freed_calls));
	assert_doca_ok(doca_mmap_start(mmap));
	assert_doca_err(doca_mmap_set_free_cb(mmap, free_cb, NULL), DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_mmap_destroy(mmap));
	assert_int_equal(freed_calls, 1);
	assert_ptr_equal(freed_addr, mem);
	free(mem);

	/* Never started: the memory was never given to DOCA, the callback does not run. */
	assert_doca_ok(doca_mmap_create(&mmap));
	assert_doca_ok(doca_mmap_set_free_cb(mmap, free_cb, &freed_calls));
	assert_doca_ok(doca_mmap_destroy(mmap));
	assert_int_equal(freed_calls, 1);
}

static void test_destroy_with_buffers(void **state)
{
	static char mem[256];
	struct doca_mmap *mmap = started_mmap(mem, sizeof(mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	struct doca_buf_inventory *inv;
	struct doca_buf *buf;
	uint32_t n;

	(void)state;
	assert_doca_ok(doca_buf_inventory_create(2, &inv));
	assert_doca_ok(doca_buf_inventory_start(inv));
	assert_doca_ok(doca_buf_inventory_buf_get_by_addr(inv, mmap, mem, 64, &buf));
	assert_doca_ok(doca_mmap_get_num_bufs(mmap, &n));
	assert_int_equal(n, 1);
	assert_doca_err(doca_mmap_destroy(mmap), DOCA_ERROR_IN_USE);
	assert_doca_err(doca_mmap_stop(mmap), DOCA_ERROR_NOT_PERMITTED);
	assert_doca_ok(doca_buf_dec_refcount(buf, NULL));
	assert_doca_ok(doca_mmap_get_num_bufs(mmap, &n));
	assert_int_equal(n, 0);
	assert_doca_ok(doca_mmap_destroy(mmap));
	assert_doca_ok(doca_buf_inventory_destroy(inv));
}

static void test_export_import(void **state)
{
	static char mem[1000];
	struct doca_mmap *mmap = started_mmap(
	        mem, sizeof(mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE);
	struct doca_mmap *remote;
	const void *blob, *again;
	size_t blob_len, again_len, len;
	void *addr;
	uint8_t flag;
	union doca_data ud = { .u64 = 7 }, got;
	const uint8_t *body;
	size_t body_len;

	(void)state;
	assert_doca_ok(doca_mmap_export_rdma(mmap, dev, &blob, &blob_len));
	assert_int_equal(blob_len, SDOCA_BLOB_HEADER_SIZE + 64);
	/* The same device gets the same descriptor. */
	assert_doca_ok(doca_mmap_export_rdma(mmap, dev, &again, &again_len));
	assert_ptr_equal(again, blob);
	assert_doca_ok(doca_mmap_get_exported(mmap, &flag));
	assert_int_equal(flag, 1);
	/* The blob carries a 128-bit key and the range. */
	assert_doca_ok(sdoca_blob_open(blob, blob_len, SDOCA_BLOB_MMAP, &body, &body_len));
	assert_int_equal(sdoca_get_le64(body + 32), (uintptr_t)mem);
	assert_int_equal(sdoca_get_le64(body + 40), sizeof(mem));

	assert_doca_ok(doca_mmap_create_from_export(&ud, blob, blob_len, dev, &remote));
	assert_doca_ok(doca_mmap_get_memrange(remote, &addr, &len));
	assert_ptr_equal(addr, mem);
	assert_int_equal(len, sizeof(mem));
	assert_doca_ok(doca_mmap_get_from_export(remote, &flag));
	assert_int_equal(flag, 1);
	assert_doca_ok(doca_mmap_get_user_data(remote, &got));
	assert_int_equal(got.u64, 7);
	/* A remote mmap starts started and cannot be changed or re-exported. */
	assert_doca_err(doca_mmap_start(remote), DOCA_ERROR_BAD_STATE);
	assert_doca_err(doca_mmap_set_permissions(remote, 0), DOCA_ERROR_NOT_PERMITTED);
	assert_doca_err(doca_mmap_add_dev(remote, dev), DOCA_ERROR_NOT_PERMITTED);
	assert_doca_err(doca_mmap_export_rdma(remote, dev, &again, &again_len),
	                DOCA_ERROR_NOT_PERMITTED);
	assert_doca_ok(doca_mmap_destroy(remote));
	assert_doca_ok(doca_mmap_destroy(mmap));
}

/* The clean-up orders DOCA programs use for an imported mmap: stop then
 * destroy (DOCA's RDMA samples), destroy while started, stop with buffers
 * still out (refused), and start again after a stop. Destroying the import
 * never touches the exporter's key, even in the same process. */
static void test_remote_cleanup_orders(void **state)
{
	static char mem[256];
	struct doca_mmap *mmap = started_mmap(
	        mem, sizeof(mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE);
	struct doca_buf_inventory *inv;
	struct doca_mmap *remote;
	struct doca_buf *buf;
	const void *blob;
	size_t blob_len;
	uint32_t keys;

	(void)state;
	assert_doca_ok(doca_buf_inventory_create(4, &inv));
	assert_doca_ok(doca_buf_inventory_start(inv));
	assert_doca_ok(doca_mmap_export_rdma(mmap, dev, &blob, &blob_len));
	keys = softdoca_num_memory_keys();

	/* stop, then destroy */
	assert_doca_ok(doca_mmap_create_from_export(NULL, blob, blob_len, dev, &remote));
	assert_doca_ok(doca_buf_inventory_buf_get_by_addr(inv, remote, mem, 16, &buf));
	assert_doca_err(doca_mmap_stop(remote), DOCA_ERROR_NOT_PERMITTED); /* a buffer is out */
	assert_doca_ok(doca_buf_dec_refcount(buf, NULL));
	assert_doca_ok(doca_mmap_stop(remote));
	assert_doca_err(doca_mmap_stop(remote), DOCA_ERROR_BAD_STATE);
	assert_doca_err(doca_buf_inventory_buf_get_by_addr(inv, remote, mem, 16, &buf),
	                DOCA_ERROR_BAD_STATE);
	assert_doca_ok(doca_mmap_destroy(remote));
	assert_int_equal(softdoca_num_memory_keys(), keys);

	/* stop, start again, use, destroy while started */
	assert_doca_ok(doca_mmap_create_from_export(NULL, blob, blob_len, dev, &remote));
	assert_doca_ok(doca_mmap_stop(remote));
	assert_doca_ok(doca_mmap_start(remote));
	assert_doca_ok(doca_buf_inventory_buf_get_by_addr(inv, remote, mem, 16, &buf));
	assert_doca_ok(doca_buf_dec_refcount(buf, NULL));
	assert_doca_ok(doca_mmap_destroy(remote));
	assert_int_equal(softdoca_num_memory_keys(), keys);

	/* DOCA 3.2's mkey query: the key's 32-bit name, on the mmap's devices. */
	{
		uint32_t mkey = 0, remote_mkey = 0;

		assert_doca_ok(doca_mmap_create_from_export(NULL, blob, blob_len, dev, &remote));
		assert_doca_ok(doca_mmap_get_mkey(mmap, dev, &mkey));
		assert_int_not_equal(mkey, 0);
		assert_doca_ok(doca_mmap_get_mkey(remote, dev, &remote_mkey));
		assert_int_equal(remote_mkey, mkey);
		assert_doca_err(doca_mmap_get_mkey(mmap, NULL, &mkey), DOCA_ERROR_INVALID_VALUE);
		assert_doca_ok(doca_mmap_stop(remote));
		assert_doca_err(doca_mmap_get_mkey(remote, dev, &mkey), DOCA_ERROR_BAD_STATE);
		assert_doca_ok(doca_mmap_destroy(remote));
	}

	/* The exporter's key still serves: a new import of the same blob works. */
	assert_doca_ok(doca_mmap_create_from_export(NULL, blob, blob_len, dev, &remote));
	assert_doca_ok(doca_mmap_destroy(remote));

	/* A local mmap: stop then destroy, and destroy while started, both free
	 * the key. */
	assert_doca_ok(doca_mmap_stop(mmap));
	assert_int_equal(softdoca_num_memory_keys(), keys - 1);
	assert_doca_ok(doca_mmap_destroy(mmap));
	mmap = started_mmap(mem, sizeof(mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	assert_int_equal(softdoca_num_memory_keys(), keys);
	assert_doca_ok(doca_mmap_destroy(mmap));
	assert_int_equal(softdoca_num_memory_keys(), keys - 1);
	assert_doca_ok(doca_buf_inventory_destroy(inv));
}

static void test_export_preconditions(void **state)
{
	static char mem[64];
	struct doca_mmap *mmap;
	const void *blob;
	size_t len;

	(void)state;
	assert_doca_ok(doca_mmap_create(&mmap));
	assert_doca_ok(doca_mmap_set_memrange(mmap, mem, sizeof(mem)));
	assert_doca_ok(doca_mmap_set_permissions(mmap, DOCA_ACCESS_FLAG_RDMA_READ));
	assert_doca_err(doca_mmap_export_rdma(mmap, dev, &blob, &len), DOCA_ERROR_NOT_PERMITTED);
	assert_doca_ok(doca_mmap_start(mmap));
	/* The device must have been added. */
	assert_doca_err(doca_mmap_export_rdma(mmap, dev, &blob, &len), DOCA_ERROR_NOT_FOUND);
	assert_doca_err(doca_mmap_export_rdma(mmap, NULL, &blob, &len), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_mmap_export_pci(mmap, dev, &blob, &len), DOCA_ERROR_NOT_SUPPORTED);
	assert_doca_ok(doca_mmap_destroy(mmap));

	/* No RDMA permission: nothing to export. */
	mmap = started_mmap(mem, sizeof(mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	assert_doca_err(doca_mmap_export_rdma(mmap, dev, &blob, &len), DOCA_ERROR_NOT_PERMITTED);
	assert_doca_ok(doca_mmap_destroy(mmap));
}

/* Every malformed descriptor is refused, allocates nothing, changes nothing. */
static void test_bad_blobs(void **state)
{
	static char mem[64];
	struct doca_mmap *mmap = started_mmap(mem, sizeof(mem), DOCA_ACCESS_FLAG_RDMA_READ);
	struct doca_mmap *remote = (struct doca_mmap *)0x1;
	const void *blob;
	uint8_t copy[256];
	size_t len;

	(void)state;
	assert_doca_ok(doca_mmap_export_rdma(mmap, dev, &blob, &len));
	memcpy(copy, blob, len);

	/* short, long */
	assert_doca_err(doca_mmap_create_from_export(NULL, copy, len - 1, dev, &remote),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_mmap_create_from_export(NULL, copy, len + 1, dev, &remote),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_mmap_create_from_export(NULL, copy, 0, dev, &remote),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_mmap_create_from_export(NULL, NULL, len, dev, &remote),
	                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(doca_mmap_create_from_export(NULL, copy, len, NULL, &remote),
	                DOCA_ERROR_INVALID_VALUE);
	/* corrupt */
	copy[40] ^= 1;
	assert_doca_err(doca_mmap_create_from_export(NULL, copy, len, dev, &remote),
	                DOCA_ERROR_INVALID_VALUE);
	copy[40] ^= 1;
	/* another version */
	sdoca_put_le16(copy + 4, 99);
	assert_doca_err(doca_mmap_create_from_export(NULL, copy, len, dev, &remote),
	                DOCA_ERROR_NOT_SUPPORTED);
	sdoca_put_le16(copy + 4, SDOCA_BLOB_VERSION);
	/* another kind (a well-formed blob of a sync event) */
	sdoca_blob_seal(copy, SDOCA_BLOB_SYNC_EVENT, len - SDOCA_BLOB_HEADER_SIZE);
	assert_doca_err(doca_mmap_create_from_export(NULL, copy, len, dev, &remote),
	                DOCA_ERROR_INVALID_VALUE);
	/* well-formed envelope, nonsense inside: zero length, wrapping range, bad access */
	memcpy(copy, blob, len);
	sdoca_put_le64(copy + SDOCA_BLOB_HEADER_SIZE + 40, 0);
	sdoca_blob_seal(copy, SDOCA_BLOB_MMAP, len - SDOCA_BLOB_HEADER_SIZE);
	assert_doca_err(doca_mmap_create_from_export(NULL, copy, len, dev, &remote),
	                DOCA_ERROR_INVALID_VALUE);
	memcpy(copy, blob, len);
	sdoca_put_le64(copy + SDOCA_BLOB_HEADER_SIZE + 32, UINT64_MAX - 4);
	sdoca_blob_seal(copy, SDOCA_BLOB_MMAP, len - SDOCA_BLOB_HEADER_SIZE);
	assert_doca_err(doca_mmap_create_from_export(NULL, copy, len, dev, &remote),
	                DOCA_ERROR_INVALID_VALUE);
	memcpy(copy, blob, len);
	sdoca_put_le32(copy + SDOCA_BLOB_HEADER_SIZE + 12, 0x800);
	sdoca_blob_seal(copy, SDOCA_BLOB_MMAP, len - SDOCA_BLOB_HEADER_SIZE);
	assert_doca_err(doca_mmap_create_from_export(NULL, copy, len, dev, &remote),
	                DOCA_ERROR_INVALID_VALUE);
	/* Nothing was handed out on any failure. */
	assert_ptr_equal(remote, (struct doca_mmap *)0x1);
	assert_doca_ok(doca_mmap_destroy(mmap));
}

/* After stop, the blob still parses but the key it carries is dead. */
static void test_stop_invalidates_export(void **state)
{
	static char mem[64];
	struct doca_mmap *mmap = started_mmap(mem, sizeof(mem), DOCA_ACCESS_FLAG_RDMA_WRITE);
	const void *blob;
	size_t len;
	uint32_t keys = softdoca_num_memory_keys();

	(void)state;
	assert_doca_ok(doca_mmap_export_rdma(mmap, dev, &blob, &len));
	assert_doca_ok(doca_mmap_stop(mmap));
	assert_int_equal(softdoca_num_memory_keys(), keys - 1);
	assert_doca_ok(doca_mmap_destroy(mmap));
}

static void test_dmabuf_and_dpa(void **state)
{
	static char mem[64];
	struct doca_mmap *mmap;

	(void)state;
	assert_doca_ok(doca_mmap_create(&mmap));
	assert_doca_err(doca_mmap_set_dmabuf_memrange(mmap, 3, NULL, 0, 64),
	                DOCA_ERROR_NOT_SUPPORTED);
	assert_doca_ok(doca_mmap_set_dmabuf_memrange(mmap, 3, mem, 0, sizeof(mem)));
	/* DPA memory is host memory: an ordinary range, set once */
	assert_doca_err(doca_mmap_set_dpa_memrange(mmap, (struct doca_dpa *)0x1, 0, 64),
	                DOCA_ERROR_NOT_PERMITTED);
	assert_doca_ok(doca_mmap_enable_thread_safety(mmap));
	assert_doca_ok(doca_mmap_destroy(mmap));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_life_cycle_and_states),
		cmocka_unit_test(test_permissions),
		cmocka_unit_test(test_free_callback),
		cmocka_unit_test(test_destroy_with_buffers),
		cmocka_unit_test(test_export_import),
		cmocka_unit_test(test_remote_cleanup_orders),
		cmocka_unit_test(test_export_preconditions),
		cmocka_unit_test(test_bad_blobs),
		cmocka_unit_test(test_stop_invalidates_export),
		cmocka_unit_test(test_dmabuf_and_dpa),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
