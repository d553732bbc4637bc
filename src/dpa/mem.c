/*
 * libdoca_dpa: DPA memory, identity-mapped host memory.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libdoca_dpa: DPA memory. Device memory is host memory (identity mapping,
 * docs/dpa.md 2.3): an allocation's address is its doca_dpa_dev_uintptr_t
 * and kernels dereference it. The table of allocations lets copies and
 * frees check that a range lies inside one live allocation.
 */
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/sdk_log.h"
#include "dpa/dpa.h"
#include "dpa/info.h"

SDOCA_LOG_MODULE(dpa_mem);

/* Index of the last allocation starting at or below addr, or -1. */
static ptrdiff_t alloc_below(const struct doca_dpa *dpa, uintptr_t addr)
{
	size_t lo = 0, hi = dpa->num_allocs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (dpa->allocs[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (ptrdiff_t)lo - 1;
}

static doca_error_t check_started(const struct doca_dpa *dpa, const char *caller)
{
	if (!dpa->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: the DPA is not started", caller);
	return DOCA_SUCCESS;
}

doca_error_t sdoca_dpa_mem_check(struct doca_dpa *dpa, uintptr_t addr, size_t size,
                                 const char *caller)
{
	pthread_mutex_lock(&dpa->mem_lock);
	ptrdiff_t i = alloc_below(dpa, addr);
	bool inside = i >= 0 && addr - dpa->allocs[i].addr <= dpa->allocs[i].size &&
	              size <= dpa->allocs[i].size - (addr - dpa->allocs[i].addr);
	pthread_mutex_unlock(&dpa->mem_lock);
	if (!inside)
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "%s: device range 0x%lx + %zu is not inside one doca_dpa_mem_alloc block",
		        caller, (unsigned long)addr, size);
	return DOCA_SUCCESS;
}

void sdoca_dpa_mem_release_all(struct doca_dpa *dpa)
{
	if (dpa->num_allocs != 0)
		SDOCA_DBG("doca_dpa_destroy: freeing %zu DPA memory blocks the program left",
		          dpa->num_allocs);
	for (size_t i = 0; i < dpa->num_allocs; i++)
		free((void *)dpa->allocs[i].addr);
	free(dpa->allocs);
	dpa->allocs = NULL;
	dpa->num_allocs = dpa->cap_allocs = 0;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_mem_alloc(struct doca_dpa *dpa, size_t size,
                                                  doca_dpa_dev_uintptr_t *dev_ptr)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(dev_ptr) || !sdoca_arg_valid(size > 0))
		return DOCA_ERROR_INVALID_VALUE;
	doca_error_t err = check_started(dpa, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	if (size > SIZE_MAX - SDOCA_DPA_MEM_ALIGN)
		return sdoca_fail(DOCA_ERROR_NO_MEMORY, "doca_dpa_mem_alloc: %zu bytes is too much",
		                  size);
	size_t rounded = (size + SDOCA_DPA_MEM_ALIGN - 1) & ~(size_t)(SDOCA_DPA_MEM_ALIGN - 1);
	void *p = aligned_alloc(SDOCA_DPA_MEM_ALIGN, rounded);
	if (p == NULL)
		return sdoca_fail(DOCA_ERROR_NO_MEMORY,
		                  "doca_dpa_mem_alloc: cannot allocate %zu bytes", size);
	pthread_mutex_lock(&dpa->mem_lock);
	if (dpa->num_allocs == dpa->cap_allocs) {
		size_t cap = dpa->cap_allocs ? dpa->cap_allocs * 2 : 16;
		struct sdoca_dpa_alloc *a = realloc(dpa->allocs, cap * sizeof(*a));
		if (a == NULL) {
			pthread_mutex_unlock(&dpa->mem_lock);
			free(p);
			return sdoca_fail(DOCA_ERROR_NO_MEMORY,
			                  "doca_dpa_mem_alloc: out of memory");
		}
		dpa->allocs = a;
		dpa->cap_allocs = cap;
	}
	size_t at = (size_t)(alloc_below(dpa, (uintptr_t)p) + 1);
	memmove(&dpa->allocs[at + 1], &dpa->allocs[at],
	        (dpa->num_allocs - at) * sizeof(*dpa->allocs));
	dpa->allocs[at] = (struct sdoca_dpa_alloc){ .addr = (uintptr_t)p, .size = size };
	dpa->num_allocs++;
	pthread_mutex_unlock(&dpa->mem_lock);
	*dev_ptr = (doca_dpa_dev_uintptr_t)(uintptr_t)p;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_mem_free(struct doca_dpa *dpa,
                                                 doca_dpa_dev_uintptr_t dev_ptr)
{
	if (!sdoca_arg_valid(dpa))
		return DOCA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&dpa->mem_lock);
	ptrdiff_t i = alloc_below(dpa, (uintptr_t)dev_ptr);
	if (i < 0 || dpa->allocs[i].addr != (uintptr_t)dev_ptr) {
		pthread_mutex_unlock(&dpa->mem_lock);
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "doca_dpa_mem_free: 0x%lx is not the start of a doca_dpa_mem_alloc block",
		        (unsigned long)dev_ptr);
	}
	memmove(&dpa->allocs[i], &dpa->allocs[i + 1],
	        (dpa->num_allocs - (size_t)i - 1) * sizeof(*dpa->allocs));
	dpa->num_allocs--;
	pthread_mutex_unlock(&dpa->mem_lock);
	free((void *)(uintptr_t)dev_ptr);
	return DOCA_SUCCESS;
}

static doca_error_t copy_check(struct doca_dpa *dpa, doca_dpa_dev_uintptr_t dev, size_t size,
                               const char *caller)
{
	doca_error_t err = check_started(dpa, caller);
	if (err != DOCA_SUCCESS)
		return err;
	return sdoca_dpa_mem_check(dpa, (uintptr_t)dev, size, caller);
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_h2d_memcpy(struct doca_dpa *dpa,
                                                   doca_dpa_dev_uintptr_t dst_ptr, void *src_ptr,
                                                   size_t size)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(src_ptr))
		return DOCA_ERROR_INVALID_VALUE;
	doca_error_t err = copy_check(dpa, dst_ptr, size, __func__);
	if (err == DOCA_SUCCESS)
		memmove((void *)(uintptr_t)dst_ptr, src_ptr, size);
	return err;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_d2h_memcpy(struct doca_dpa *dpa, void *dst_ptr,
                                                   doca_dpa_dev_uintptr_t src_ptr, size_t size)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(dst_ptr))
		return DOCA_ERROR_INVALID_VALUE;
	doca_error_t err = copy_check(dpa, src_ptr, size, __func__);
	if (err == DOCA_SUCCESS)
		memmove(dst_ptr, (void *)(uintptr_t)src_ptr, size);
	return err;
}

/* The source is the buffer's data; it must hold size bytes. */
DOCA_EXPERIMENTAL doca_error_t doca_dpa_h2d_buf_memcpy(struct doca_dpa *dpa,
                                                       doca_dpa_dev_uintptr_t dst_ptr,
                                                       struct doca_buf *buf, size_t size)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(buf))
		return DOCA_ERROR_INVALID_VALUE;
	if (size > buf->data_len)
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "doca_dpa_h2d_buf_memcpy: %zu bytes asked, the buffer's data has %zu", size,
		        buf->data_len);
	doca_error_t err = copy_check(dpa, dst_ptr, size, __func__);
	if (err == DOCA_SUCCESS)
		memmove((void *)(uintptr_t)dst_ptr, buf->data, size);
	return err;
}

/* The destination is the buffer from its data's start to its end; the data
 * length is left as it was (docs/compatibility.md). */
DOCA_EXPERIMENTAL doca_error_t doca_dpa_d2h_buf_memcpy(struct doca_dpa *dpa, struct doca_buf *buf,
                                                       doca_dpa_dev_uintptr_t src_ptr, size_t size)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(buf))
		return DOCA_ERROR_INVALID_VALUE;
	size_t room = buf->len - (size_t)(buf->data - buf->head);
	if (size > room)
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "doca_dpa_d2h_buf_memcpy: %zu bytes asked, the buffer has room for %zu",
		        size, room);
	doca_error_t err = copy_check(dpa, src_ptr, size, __func__);
	if (err == DOCA_SUCCESS)
		memmove(buf->data, (void *)(uintptr_t)src_ptr, size);
	return err;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_memset(struct doca_dpa *dpa, doca_dpa_dev_uintptr_t dev_ptr,
                                               int value, size_t size)
{
	if (!sdoca_arg_valid(dpa))
		return DOCA_ERROR_INVALID_VALUE;
	doca_error_t err = copy_check(dpa, dev_ptr, size, __func__);
	if (err == DOCA_SUCCESS)
		memset((void *)(uintptr_t)dev_ptr, value, size);
	return err;
}

void sdoca_dpa_mem_in_use(struct doca_dpa *dpa, uint64_t *bytes, uint32_t *blocks)
{
	pthread_mutex_lock(&dpa->mem_lock);
	uint64_t sum = 0;
	for (size_t i = 0; i < dpa->num_allocs; i++)
		sum += dpa->allocs[i].size;
	*bytes = sum;
	*blocks = dpa->num_allocs > UINT32_MAX ? UINT32_MAX : (uint32_t)dpa->num_allocs;
	pthread_mutex_unlock(&dpa->mem_lock);
}
