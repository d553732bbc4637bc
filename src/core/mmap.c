/*
 * doca_mmap: registration, permissions, export and import.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Life cycle: create -> set_memrange / set_permissions / add_dev -> start
 * (registers a memory key) -> buffers, export -> stop (revokes the key) ->
 * destroy. A remote mmap comes from doca_mmap_create_from_export() started:
 * it only describes the peer's range, has no key of this process, and may be
 * stopped before it is destroyed (DOCA programs' usual clean-up) or not.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <doca_mmap.h>

#include "core/blob.h"
#include "core/bytes.h"
#include "core/dev.h"
#include "core/dpa_sink.h"
#include "core/faults.h"
#include "core/mmap.h"
#include "core/sdk_log.h"

SDOCA_LOG_MODULE(mmap);

#define MMAP_DEFAULT_MAX_DEVS 64

#define ACCESS_ALL                                                          \
	(DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ |   \
	 DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC |       \
	 DOCA_ACCESS_FLAG_PCI_READ_ONLY | DOCA_ACCESS_FLAG_PCI_READ_WRITE | \
	 DOCA_ACCESS_FLAG_PCI_RELAXED_ORDERING)
#define ACCESS_RDMA \
	(DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC)

/* Properties can change only on a local mmap that is not started:
 * DOCA_SUCCESS, or the error (logged). */
static doca_error_t check_configurable(const struct doca_mmap *mmap, const char *caller)
{
	if (mmap->from_export)
		return sdoca_fail(DOCA_ERROR_NOT_PERMITTED,
		                  "%s: mmap was created from an export and cannot be changed",
		                  caller);
	if (mmap->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "%s: mmap is started; stop it before changing it", caller);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_create(struct doca_mmap **mmap)
{
	struct doca_mmap *m;

	if (!sdoca_arg_valid(mmap))
		return DOCA_ERROR_INVALID_VALUE;
	if (sdoca_faults_env_check("doca_mmap_create") != DOCA_SUCCESS)
		return DOCA_ERROR_INVALID_VALUE;
	m = calloc(1, sizeof(*m));
	if (!m)
		return DOCA_ERROR_NO_MEMORY;
	m->access = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE;
	m->max_devs = MMAP_DEFAULT_MAX_DEVS;
	*mmap = m;
	return DOCA_SUCCESS;
}

static void free_exports(struct doca_mmap *mmap)
{
	struct sdoca_mmap_export *e;

	while ((e = SLIST_FIRST(&mmap->exports))) {
		SLIST_REMOVE_HEAD(&mmap->exports, link);
		free(e);
	}
}

static void release_key(struct doca_mmap *mmap)
{
	sdoca_keys_revoke(&mmap->key);
	memset(&mmap->key, 0, sizeof(mmap->key));
	free_exports(mmap);
}

static void dpa_table_remove(struct doca_mmap *mmap);

DOCA_STABLE doca_error_t doca_mmap_destroy(struct doca_mmap *mmap)
{
	uint32_t bufs;

	if (!sdoca_arg_valid(mmap))
		return DOCA_ERROR_INVALID_VALUE;
	bufs = atomic_load(&mmap->num_bufs);
	if (bufs > 0)
		return sdoca_fail(
		        DOCA_ERROR_IN_USE,
		        "doca_mmap_destroy: %u buffer(s) still point into the mmap; release them "
		        "with doca_buf_dec_refcount first",
		        bufs);
	dpa_table_remove(mmap);
	if (mmap->started && !mmap->from_export)
		release_key(mmap);
	if (mmap->ever_started && mmap->free_cb)
		mmap->free_cb(mmap->addr, mmap->len, mmap->free_opaque);
	for (uint32_t i = 0; i < mmap->num_devs; i++)
		sdoca_dev_put(mmap->devs[i]);
	if (mmap->import_dev)
		sdoca_dev_put(mmap->import_dev);
	free(mmap->devs);
	free_exports(mmap);
	free(mmap);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_start(struct doca_mmap *mmap)
{
	struct sdoca_key_region region;
	doca_error_t status;

	if (!sdoca_arg_valid(mmap))
		return DOCA_ERROR_INVALID_VALUE;
	if (mmap->started)
		return sdoca_fail(
		        DOCA_ERROR_BAD_STATE, "doca_mmap_start: mmap is already started%s",
		        mmap->from_export ? " (an mmap created from an export starts started)"
		                          : "");
	if (mmap->from_export) { /* stopped before: usable again */
		mmap->started = true;
		return DOCA_SUCCESS;
	}
	if (!mmap->range_set)
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "doca_mmap_start: no memory range; call doca_mmap_set_memrange first");
	status = sdoca_faults_check(SDOCA_FAULT_FAIL_MMAP, "doca_mmap_start");
	if (status != DOCA_SUCCESS)
		return status;
	region = (struct sdoca_key_region){ .addr = (uintptr_t)mmap->addr,
		                            .len = mmap->len,
		                            .access = mmap->access,
		                            .kind = SDOCA_KEY_MMAP,
		                            .owner = mmap };
	status = sdoca_keys_register(&region, &mmap->key);
	if (status != DOCA_SUCCESS)
		return status;
	mmap->started = true;
	mmap->ever_started = true;
	return DOCA_SUCCESS;
}

/* Revokes the key at once: later remote accesses fail and touch nothing. A
 * remote mmap has no key here: stopping it only ends its use for buffers. */
DOCA_STABLE doca_error_t doca_mmap_stop(struct doca_mmap *mmap)
{
	uint32_t bufs;

	if (!sdoca_arg_valid(mmap))
		return DOCA_ERROR_INVALID_VALUE;
	if (!mmap->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "doca_mmap_stop: mmap is not started");
	bufs = atomic_load(&mmap->num_bufs);
	if (bufs > 0)
		return sdoca_fail(DOCA_ERROR_NOT_PERMITTED,
		                  "doca_mmap_stop: %u buffer(s) still point into the mmap", bufs);
	dpa_table_remove(mmap);
	if (!mmap->from_export)
		release_key(mmap);
	mmap->started = false;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_add_dev(struct doca_mmap *mmap, struct doca_dev *dev)
{
	struct doca_dev **devs;

	if (!sdoca_arg_valid(mmap) || !sdoca_arg_valid(dev))
		return DOCA_ERROR_INVALID_VALUE;
	if (mmap->from_export || mmap->started)
		return sdoca_fail(DOCA_ERROR_NOT_PERMITTED,
		                  "doca_mmap_add_dev: mmap is started or created from an export");
	for (uint32_t i = 0; i < mmap->num_devs; i++)
		if (mmap->devs[i] == dev)
			return sdoca_fail(DOCA_ERROR_ALREADY_EXIST,
			                  "doca_mmap_add_dev: device %s is already added",
			                  dev->info.ibdev_name);
	if (mmap->num_devs >= mmap->max_devs)
		return sdoca_fail(DOCA_ERROR_NO_MEMORY,
		                  "doca_mmap_add_dev: mmap already has its maximum of %u devices",
		                  mmap->max_devs);
	devs = realloc(mmap->devs, (mmap->num_devs + 1) * sizeof(*devs));
	if (!devs)
		return DOCA_ERROR_NO_MEMORY;
	devs[mmap->num_devs++] = dev;
	mmap->devs = devs;
	sdoca_dev_get(dev);
	return DOCA_SUCCESS;
}

static int find_dev(const struct doca_mmap *mmap, const struct doca_dev *dev)
{
	for (uint32_t i = 0; i < mmap->num_devs; i++)
		if (mmap->devs[i] == dev)
			return (int)i;
	return -1;
}

/* A softdoca memory key is 128 bits (core/keys.h); its 32-bit slot number
 * names it the way an mkey names a registration, but grants nothing alone. */
DOCA_EXPERIMENTAL doca_error_t doca_mmap_get_mkey(struct doca_mmap *mmap, struct doca_dev *dev,
                                                  uint32_t *mkey)
{
	if (!sdoca_arg_valid(mmap) || !sdoca_arg_valid(dev) || !sdoca_arg_valid(mkey))
		return DOCA_ERROR_INVALID_VALUE;
	if (!mmap->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "doca_mmap_get_mkey: mmap is not started");
	if (mmap->from_export ? mmap->import_dev != dev : find_dev(mmap, dev) < 0)
		return sdoca_fail(DOCA_ERROR_NOT_FOUND,
		                  "doca_mmap_get_mkey: device %s is not the mmap's",
		                  dev->info.ibdev_name);
	*mkey = mmap->key.index;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_rm_dev(struct doca_mmap *mmap, struct doca_dev *dev)
{
	int i;

	if (!sdoca_arg_valid(mmap) || !sdoca_arg_valid(dev))
		return DOCA_ERROR_INVALID_VALUE;
	if (mmap->from_export || mmap->started)
		return sdoca_fail(DOCA_ERROR_NOT_PERMITTED,
		                  "doca_mmap_rm_dev: mmap is started or created from an export");
	i = find_dev(mmap, dev);
	if (i < 0)
		return sdoca_fail(DOCA_ERROR_NOT_FOUND, "doca_mmap_rm_dev: device %s was not added",
		                  dev->info.ibdev_name);
	mmap->devs[i] = mmap->devs[--mmap->num_devs];
	sdoca_dev_put(dev);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_export_pci(struct doca_mmap *mmap, const struct doca_dev *dev,
                                              const void **export_desc, size_t *export_desc_len)
{
	if (!sdoca_arg_valid(mmap) || !sdoca_arg_valid(dev) || !sdoca_arg_valid(export_desc) ||
	    !sdoca_arg_valid(export_desc_len))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED("there is no PCI peer (DPU/host) to share memory with; use "
	                        "doca_mmap_export_rdma");
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* The export blob body (format version 1, see docs/wire.md). */
static void encode_export(const struct doca_mmap *mmap, const struct doca_dev *dev, uint8_t *body)
{
	memset(body, 0, SDOCA_MMAP_BLOB_BODY);
	sdoca_put_le64(body, sdoca_node_id());
	sdoca_put_le32(body + 8, (uint32_t)getpid());
	sdoca_put_le32(body + 12, mmap->access);
	sdoca_key_encode(&mmap->key, body + 16);
	sdoca_put_le64(body + 32, (uintptr_t)mmap->addr);
	sdoca_put_le64(body + 40, mmap->len);
	if (dev->info.num_gids > 0)
		memcpy(body + 48, dev->info.gids[0].raw, DOCA_GID_BYTE_LENGTH);
}

DOCA_STABLE doca_error_t doca_mmap_export_rdma(struct doca_mmap *mmap, const struct doca_dev *dev,
                                               const void **export_desc, size_t *export_desc_len)
{
	size_t len = SDOCA_BLOB_HEADER_SIZE + SDOCA_MMAP_BLOB_BODY;
	struct sdoca_mmap_export *e;

	if (!sdoca_arg_valid(mmap) || !sdoca_arg_valid(dev) || !sdoca_arg_valid(export_desc) ||
	    !sdoca_arg_valid(export_desc_len))
		return DOCA_ERROR_INVALID_VALUE;
	if (mmap->from_export)
		return sdoca_fail(DOCA_ERROR_NOT_PERMITTED,
		                  "doca_mmap_export_rdma: an mmap created from an export cannot be "
		                  "exported again");
	if (!mmap->started)
		return sdoca_fail(DOCA_ERROR_NOT_PERMITTED,
		                  "doca_mmap_export_rdma: mmap is not started");
	if (!(mmap->access & ACCESS_RDMA))
		return sdoca_fail(
		        DOCA_ERROR_NOT_PERMITTED,
		        "doca_mmap_export_rdma: mmap has no RDMA permission (set "
		        "DOCA_ACCESS_FLAG_RDMA_READ/WRITE/ATOMIC with doca_mmap_set_permissions)");
	if (find_dev(mmap, dev) < 0)
		return sdoca_fail(DOCA_ERROR_NOT_FOUND,
		                  "doca_mmap_export_rdma: device %s was not added to the mmap",
		                  dev->info.ibdev_name);
	SLIST_FOREACH(e, &mmap->exports, link)
	if (e->dev == dev)
		break;
	if (!e) {
		e = malloc(sizeof(*e) + len);
		if (!e)
			return DOCA_ERROR_NO_MEMORY;
		e->dev = dev;
		e->len = len;
		encode_export(mmap, dev, e->bytes + SDOCA_BLOB_HEADER_SIZE);
		sdoca_blob_seal(e->bytes, SDOCA_BLOB_MMAP, SDOCA_MMAP_BLOB_BODY);
		SLIST_INSERT_HEAD(&mmap->exports, e, link);
	}
	mmap->exported = true;
	*export_desc = e->bytes;
	*export_desc_len = e->len;
	return DOCA_SUCCESS;
}

/* DPA handles of mmaps (docs/dpa.md 2.2): generation:12 | slot:20, never 0,
 * so a kernel's stale or made-up value is found out, not dereferenced. A
 * handle dies with the mmap's stop. */
#define DPA_MMAP_SLOTS 4096u

static struct {
	pthread_mutex_t lock;
	struct doca_mmap *mmap[DPA_MMAP_SLOTS];
	uint16_t generation[DPA_MMAP_SLOTS];
} dpa_table = { .lock = PTHREAD_MUTEX_INITIALIZER };

static uint32_t dpa_table_add(struct doca_mmap *mmap)
{
	uint32_t h = 0;

	pthread_mutex_lock(&dpa_table.lock);
	for (uint32_t slot = 1; slot < DPA_MMAP_SLOTS; slot++) {
		if (!dpa_table.mmap[slot]) {
			dpa_table.mmap[slot] = mmap;
			dpa_table.generation[slot] = (dpa_table.generation[slot] + 1) & 0xfffu;
			h = (uint32_t)dpa_table.generation[slot] << 20 | slot;
			break;
		}
	}
	pthread_mutex_unlock(&dpa_table.lock);
	return h;
}

static void dpa_table_remove(struct doca_mmap *mmap)
{
	if (!mmap->dpa_handle)
		return;
	pthread_mutex_lock(&dpa_table.lock);
	dpa_table.mmap[mmap->dpa_handle & 0xfffffu] = NULL;
	pthread_mutex_unlock(&dpa_table.lock);
	mmap->dpa_handle = 0;
}

SDOCA_EXPORT doca_error_t sdoca_mmap_dpa_lookup(uint32_t handle, struct sdoca_mmap_dpa_view *out)
{
	uint32_t slot = handle & 0xfffffu;
	doca_error_t status = DOCA_ERROR_NOT_FOUND;

	if (slot == 0 || slot >= DPA_MMAP_SLOTS)
		return status;
	pthread_mutex_lock(&dpa_table.lock);
	struct doca_mmap *mmap = dpa_table.mmap[slot];
	if (mmap && dpa_table.generation[slot] == handle >> 20) {
		*out = (struct sdoca_mmap_dpa_view){ .addr = mmap->addr,
			                             .len = mmap->len,
			                             .access = mmap->access,
			                             .from_export = mmap->from_export,
			                             .key = mmap->key };
		status = DOCA_SUCCESS;
	}
	pthread_mutex_unlock(&dpa_table.lock);
	return status;
}

doca_error_t sdoca_mmap_dpa_handle(struct doca_mmap *mmap, uint32_t *handle)
{
	if (!mmap->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_mmap_dev_get_dpa_handle: the mmap is not started");
	if (!mmap->dpa_handle) {
		mmap->dpa_handle = dpa_table_add(mmap);
		if (!mmap->dpa_handle)
			return sdoca_fail(
			        DOCA_ERROR_FULL,
			        "doca_mmap_dev_get_dpa_handle: %u mmaps have DPA handles already",
			        DPA_MMAP_SLOTS - 1);
	}
	*handle = mmap->dpa_handle;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_mmap_dev_get_dpa_handle(struct doca_mmap *mmap,
                                                            const struct doca_dev *dev,
                                                            doca_dpa_dev_mmap_t *dpa_mmap_handle)
{
	if (!sdoca_arg_valid(mmap) || !sdoca_arg_valid(dev) || !sdoca_arg_valid(dpa_mmap_handle))
		return DOCA_ERROR_INVALID_VALUE;
	return sdoca_mmap_dpa_handle(mmap, dpa_mmap_handle);
}

/* Every field of a blob from outside is checked before anything is allocated. */
static doca_error_t decode_export(const uint8_t *body, size_t body_len, struct doca_mmap *out)
{
	uint64_t addr, len;

	if (body_len != SDOCA_MMAP_BLOB_BODY)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "mmap export blob has a %zu-byte body, expected %d", body_len,
		                  SDOCA_MMAP_BLOB_BODY);
	out->peer_node = sdoca_get_le64(body);
	out->peer_pid = sdoca_get_le32(body + 8);
	out->access = sdoca_get_le32(body + 12);
	sdoca_key_decode(body + 16, &out->key);
	addr = sdoca_get_le64(body + 32);
	len = sdoca_get_le64(body + 40);
	if (out->peer_node == 0)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "mmap export blob has no node id");
	if (out->access & ~(uint32_t)ACCESS_ALL)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "mmap export blob has unknown access bits 0x%x", out->access);
	if (out->key.index == 0)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "mmap export blob has an invalid memory key");
	if (addr == 0 || len == 0 || addr + len < addr || addr + len > (uint64_t)UINTPTR_MAX)
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "mmap export blob has an invalid range (address 0x%llx, length %llu)",
		        (unsigned long long)addr, (unsigned long long)len);
	out->addr = (uint8_t *)(uintptr_t)addr;
	out->len = (size_t)len;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_create_from_export(const union doca_data *user_data,
                                                      const void *export_desc,
                                                      size_t export_desc_len, struct doca_dev *dev,
                                                      struct doca_mmap **mmap)
{
	struct doca_mmap parsed = { 0 };
	const uint8_t *body;
	size_t body_len;
	doca_error_t status;
	struct doca_mmap *m;

	if (!sdoca_arg_valid(export_desc) || !sdoca_arg_valid(dev) || !sdoca_arg_valid(mmap))
		return DOCA_ERROR_INVALID_VALUE;
	status = sdoca_blob_open(export_desc, export_desc_len, SDOCA_BLOB_MMAP, &body, &body_len);
	if (status != DOCA_SUCCESS)
		return status;
	status = decode_export(body, body_len, &parsed);
	if (status != DOCA_SUCCESS)
		return status;
	m = calloc(1, sizeof(*m));
	if (!m)
		return DOCA_ERROR_NO_MEMORY;
	*m = parsed;
	m->from_export = true;
	m->started = true;
	m->range_set = true;
	m->max_devs = 1;
	m->import_dev = dev;
	if (user_data)
		m->user_data = *user_data;
	sdoca_dev_get(dev);
	*mmap = m;
	return DOCA_SUCCESS;
}

static doca_error_t set_range(struct doca_mmap *mmap, void *addr, size_t len)
{
	doca_error_t status = check_configurable(mmap, __func__);
	if (status != DOCA_SUCCESS)
		return status;
	if (mmap->range_set)
		return sdoca_fail(DOCA_ERROR_NOT_PERMITTED,
		                  "%s: the memory range is already set (it can be set once)",
		                  __func__);
	if (!sdoca_arg_valid(addr) || !sdoca_arg_valid(len > 0) ||
	    !sdoca_arg_valid((uintptr_t)addr + len > (uintptr_t)addr))
		return DOCA_ERROR_INVALID_VALUE;
	mmap->addr = addr;
	mmap->len = len;
	mmap->range_set = true;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_set_memrange(struct doca_mmap *mmap, void *addr, size_t len)
{
	if (!sdoca_arg_valid(mmap))
		return DOCA_ERROR_INVALID_VALUE;
	return set_range(mmap, addr, len);
}

/* The dmabuf is already mapped at addr; softdoca reaches it through that mapping. */
DOCA_STABLE doca_error_t doca_mmap_set_dmabuf_memrange(struct doca_mmap *mmap, int dmabuf_fd,
                                                       void *addr, size_t dmabuf_offset, size_t len)
{
	(void)dmabuf_offset;
	if (!sdoca_arg_valid(mmap) || !sdoca_arg_valid(dmabuf_fd >= 0))
		return DOCA_ERROR_INVALID_VALUE;
	if (!addr) {
		SDOCA_LOG_NOT_SUPPORTED(
		        "a dmabuf without a CPU mapping (addr == NULL) is not reachable "
		        "by a software NIC");
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	return set_range(mmap, addr, len);
}

DOCA_EXPERIMENTAL doca_error_t doca_mmap_set_dpa_memrange(struct doca_mmap *mmap,
                                                          struct doca_dpa *dpa, uint64_t dpa_addr,
                                                          size_t len)
{
	if (!sdoca_arg_valid(mmap) || !sdoca_arg_valid(dpa))
		return DOCA_ERROR_INVALID_VALUE;
	/* DPA memory is host memory (docs/dpa.md 2.3): an ordinary range. */
	return set_range(mmap, (void *)(uintptr_t)dpa_addr, len);
}

DOCA_STABLE doca_error_t doca_mmap_get_memrange(const struct doca_mmap *mmap, void **addr,
                                                size_t *len)
{
	if (!sdoca_arg_valid(mmap) || !sdoca_arg_valid(addr) || !sdoca_arg_valid(len))
		return DOCA_ERROR_INVALID_VALUE;
	if (!mmap->range_set)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_mmap_get_memrange: no memory range is set");
	*addr = mmap->addr;
	*len = mmap->len;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_set_free_cb(struct doca_mmap *mmap,
                                               doca_mmap_memrange_free_cb_t *free_cb, void *opaque)
{
	if (!sdoca_arg_valid(mmap) || !sdoca_arg_valid(free_cb))
		return DOCA_ERROR_INVALID_VALUE;
	doca_error_t status = check_configurable(mmap, __func__);
	if (status != DOCA_SUCCESS)
		return status;
	mmap->free_cb = free_cb;
	mmap->free_opaque = opaque;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_get_user_data(const struct doca_mmap *mmap,
                                                 union doca_data *user_data)
{
	if (!sdoca_arg_valid(mmap) || !sdoca_arg_valid(user_data))
		return DOCA_ERROR_INVALID_VALUE;
	*user_data = mmap->user_data;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_set_user_data(struct doca_mmap *mmap, union doca_data user_data)
{
	if (!sdoca_arg_valid(mmap))
		return DOCA_ERROR_INVALID_VALUE;
	doca_error_t status = check_configurable(mmap, __func__);
	if (status != DOCA_SUCCESS)
		return status;
	mmap->user_data = user_data;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_get_max_num_devices(const struct doca_mmap *mmap,
                                                       uint32_t *max_num_devices)
{
	if (!sdoca_arg_valid(mmap) || !sdoca_arg_valid(max_num_devices))
		return DOCA_ERROR_INVALID_VALUE;
	*max_num_devices = mmap->max_devs;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_set_max_num_devices(struct doca_mmap *mmap,
                                                       uint32_t max_num_devices)
{
	if (!sdoca_arg_valid(mmap) || !sdoca_arg_valid(max_num_devices > 0))
		return DOCA_ERROR_INVALID_VALUE;
	if (mmap->ever_started || mmap->from_export)
		return sdoca_fail(
		        DOCA_ERROR_NOT_PERMITTED,
		        "doca_mmap_set_max_num_devices: only allowed before the first start");
	if (max_num_devices < mmap->num_devs)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "doca_mmap_set_max_num_devices: %u devices are already added",
		                  mmap->num_devs);
	mmap->max_devs = max_num_devices;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_get_num_bufs(const struct doca_mmap *mmap, uint32_t *num_bufs)
{
	if (!sdoca_arg_valid(mmap) || !sdoca_arg_valid(num_bufs))
		return DOCA_ERROR_INVALID_VALUE;
	*num_bufs = atomic_load(&mmap->num_bufs);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_get_exported(const struct doca_mmap *mmap, uint8_t *exported)
{
	if (!sdoca_arg_valid(mmap) || !sdoca_arg_valid(exported))
		return DOCA_ERROR_INVALID_VALUE;
	*exported = mmap->exported;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_get_from_export(const struct doca_mmap *mmap,
                                                   uint8_t *from_export)
{
	if (!sdoca_arg_valid(mmap) || !sdoca_arg_valid(from_export))
		return DOCA_ERROR_INVALID_VALUE;
	*from_export = mmap->from_export;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_set_permissions(struct doca_mmap *mmap, uint32_t access_mask)
{
	const uint32_t pci_both = DOCA_ACCESS_FLAG_PCI_READ_ONLY | DOCA_ACCESS_FLAG_PCI_READ_WRITE;

	if (!sdoca_arg_valid(mmap))
		return DOCA_ERROR_INVALID_VALUE;
	doca_error_t status = check_configurable(mmap, __func__);
	if (status != DOCA_SUCCESS)
		return status;
	if (access_mask & ~(uint32_t)ACCESS_ALL)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "doca_mmap_set_permissions: unknown access bits 0x%x",
		                  access_mask & ~(uint32_t)ACCESS_ALL);
	if ((access_mask & pci_both) == pci_both)
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "doca_mmap_set_permissions: PCI_READ_ONLY and PCI_READ_WRITE conflict");
	mmap->access = access_mask;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_cap_is_export_pci_supported(const struct doca_devinfo *devinfo,
                                                               uint8_t *mmap_export)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(mmap_export))
		return DOCA_ERROR_INVALID_VALUE;
	*mmap_export = 0;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_mmap_cap_is_create_from_export_pci_supported(
        const struct doca_devinfo *devinfo, uint8_t *from_export)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(from_export))
		return DOCA_ERROR_INVALID_VALUE;
	*from_export = 0;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_mmap_enable_thread_safety(struct doca_mmap *mmap)
{
	if (!sdoca_arg_valid(mmap))
		return DOCA_ERROR_INVALID_VALUE;
	if (mmap->started || atomic_load(&mmap->num_bufs) > 0)
		return sdoca_fail(DOCA_ERROR_NOT_PERMITTED,
		                  "doca_mmap_enable_thread_safety: mmap is started or has buffers");
	mmap->thread_safe = true;
	return DOCA_SUCCESS;
}
