/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * DOCA DPA, device side: memory handles and buffers as kernels see them
 * (docs/dpa.md 1.6). A buffer is a 32-byte record in DPA memory (address,
 * length, mmap handle); a buffer array is a record pointing at an array of
 * them. The accessors are inline: they read and write the records.
 */
#ifndef DOCA_DPA_DEV_BUF_H_
#define DOCA_DPA_DEV_BUF_H_

#include "doca_dpa_dev.h"

SOFTDOCA_BEGIN_DECLS

__dpa_global__ typedef uint32_t doca_dpa_dev_mmap_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_buf_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_buf_arr_t;

struct doca_dpa_dev_buf {
	uintptr_t addr;
	uint64_t len;
	doca_dpa_dev_mmap_t mmap;
	unsigned char reserved[12];
} __attribute__((__packed__));

struct doca_dpa_dev_buf_arr {
	struct doca_dpa_dev_buf *bufs;
	unsigned char reserved[20];
} __attribute__((__packed__, aligned(64)));

__forceinline doca_dpa_dev_buf_t doca_dpa_dev_buf_array_get_buf(doca_dpa_dev_buf_arr_t buf_arr,
                                                                const uint64_t buf_idx)
{
	struct doca_dpa_dev_buf_arr *arr = (struct doca_dpa_dev_buf_arr *)(uintptr_t)buf_arr;
	return (doca_dpa_dev_buf_t)(uintptr_t)&arr->bufs[buf_idx];
}

__forceinline void doca_dpa_dev_buf_set_addr(doca_dpa_dev_buf_t buf, uintptr_t addr)
{
	((struct doca_dpa_dev_buf *)(uintptr_t)buf)->addr = addr;
}

__forceinline void doca_dpa_dev_buf_set_len(doca_dpa_dev_buf_t buf, size_t len)
{
	((struct doca_dpa_dev_buf *)(uintptr_t)buf)->len = len;
}

__forceinline void doca_dpa_dev_buf_set_mmap(doca_dpa_dev_buf_t buf, doca_dpa_dev_mmap_t mmap)
{
	((struct doca_dpa_dev_buf *)(uintptr_t)buf)->mmap = mmap;
}

__forceinline uintptr_t doca_dpa_dev_buf_get_addr(doca_dpa_dev_buf_t buf)
{
	return ((struct doca_dpa_dev_buf *)(uintptr_t)buf)->addr;
}

__forceinline uint64_t doca_dpa_dev_buf_get_len(doca_dpa_dev_buf_t buf)
{
	return ((struct doca_dpa_dev_buf *)(uintptr_t)buf)->len;
}

__forceinline doca_dpa_dev_mmap_t doca_dpa_dev_buf_get_mmap(doca_dpa_dev_buf_t buf)
{
	return ((struct doca_dpa_dev_buf *)(uintptr_t)buf)->mmap;
}

/* The host address behind a buffer or an mmap address: memory is shared. */
DOCA_EXPERIMENTAL doca_dpa_dev_uintptr_t doca_dpa_dev_buf_get_external_ptr(doca_dpa_dev_buf_t buf);
DOCA_EXPERIMENTAL doca_dpa_dev_uintptr_t
doca_dpa_dev_mmap_get_external_ptr(doca_dpa_dev_mmap_t mmap_handle, uint64_t addr);

SOFTDOCA_END_DECLS

#endif /* DOCA_DPA_DEV_BUF_H_ */
