/*
 * Memory maps: local (owning a memory key) and remote (from a blob).
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Memory maps. A local mmap owns a memory key while started; a remote mmap
 * (from an export blob) describes memory of another process and is never
 * dereferenced here.
 */
#ifndef SDOCA_CORE_MMAP_H_
#define SDOCA_CORE_MMAP_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include <doca_mmap.h>

#include "core/compiler.h"
#include "core/keys.h"

/* Body of an mmap export blob, format version 1 (see docs/wire.md). */
#define SDOCA_MMAP_BLOB_BODY 64

/* An export descriptor; it stays valid until the mmap is stopped or destroyed. */
struct sdoca_mmap_export {
	SLIST_ENTRY(sdoca_mmap_export) link;
	const struct doca_dev *dev;
	size_t len;
	uint8_t bytes[];
};

struct doca_mmap {
	bool started;
	bool from_export;
	bool exported;
	bool range_set;
	bool thread_safe;  /* buffers are not counted */
	bool ever_started; /* the free callback runs at destroy */
	uint8_t *addr;
	size_t len;
	uint32_t access;
	union doca_data user_data;
	doca_mmap_memrange_free_cb_t *free_cb;
	void *free_opaque;
	uint32_t max_devs;
	uint32_t num_devs;
	struct doca_dev **devs;
	_Atomic uint32_t num_bufs;
	struct sdoca_key key; /* local: valid while started; remote: the peer's key */
	SLIST_HEAD(, sdoca_mmap_export) exports; /* one descriptor per device, freed at stop */
	/* remote mmaps only */
	uint64_t peer_node;
	uint32_t peer_pid;
	struct doca_dev *import_dev;
	uint32_t dpa_handle; /* doca_mmap_dev_get_dpa_handle's, 0 = none */
};

/* The started mmap's DPA handle, registered on first use (mmap.c). */
doca_error_t sdoca_mmap_dpa_handle(struct doca_mmap *mmap, uint32_t *handle);

/* Buffers count themselves on their mmap unless thread safety disabled counting. */
static inline bool sdoca_mmap_counts_bufs(const struct doca_mmap *mmap)
{
	return !mmap->thread_safe;
}

/* Whether [addr, addr + len) lies inside the mmap's range. */
static inline bool sdoca_mmap_contains(const struct doca_mmap *mmap, const void *addr, size_t len)
{
	uintptr_t start = (uintptr_t)mmap->addr, a = (uintptr_t)addr;

	return mmap->range_set && a >= start && len <= mmap->len && a - start <= mmap->len - len;
}

/* A local mmap once started; a remote one from its import until stopped. */
static inline bool sdoca_mmap_is_usable(const struct doca_mmap *mmap)
{
	return mmap->started;
}

#endif /* SDOCA_CORE_MMAP_H_ */
