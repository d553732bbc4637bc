/*
 * doca_buf_arr: arrays of equal buffers laid end to end in an mmap.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * doca_buf_arr: num_elem buffers of elem_size bytes each, laid end to end
 * in an mmap from start_offset on. DOCA builds them for a GPU or DPA
 * kernel, which picks element i by index; softdoca has no GPU and its DPA
 * emulation is not built, so the GPU and DPA targets and handles are
 * NOT_SUPPORTED, and an array without a target is a CPU array: it is
 * created, configured, started (its layout checked against the mmap, which
 * it then holds like a buffer: the mmap cannot be stopped or destroyed under
 * it), stopped and destroyed as in DOCA, and softdoca_buf_arr_get_elem()
 * (softdoca.h) gives element i's address, as the device side's get-by-index
 * does.
 */
#include <stdlib.h>

#include <string.h>

#include <doca_buf_array.h>
#include <doca_dpa_dev_buf.h>
#include <softdoca.h>

#include "core/mmap.h"
#include "core/sdk_log.h"

SDOCA_LOG_MODULE(buf_array);

#define NO_GPU "softdoca has no GPU data path"

struct doca_buf_arr {
	size_t num_elem;
	struct doca_mmap *mmap; /* NULL until set_params */
	size_t elem_size;
	uint64_t start_offset;
	bool started;
	struct doca_dpa *dpa; /* doca_buf_arr_set_target_dpa */
	/* a DPA target's records, in DPA memory (host memory, docs/dpa.md 2.3) */
	struct doca_dpa_dev_buf_arr *dev_arr;
};

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_create(size_t num_elem, struct doca_buf_arr **buf_arr)
{
	struct doca_buf_arr *arr;

	if (!sdoca_arg_valid(buf_arr) || !sdoca_arg_valid(num_elem > 0))
		return DOCA_ERROR_INVALID_VALUE;
	arr = calloc(1, sizeof(*arr));
	if (!arr)
		return DOCA_ERROR_NO_MEMORY;
	arr->num_elem = num_elem;
	*buf_arr = arr;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_set_target_gpu(struct doca_buf_arr *buf_arr,
                                                           struct doca_gpu *gpu_handler)
{
	(void)gpu_handler;
	if (!sdoca_arg_valid(buf_arr))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_GPU);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_set_target_dpa(struct doca_buf_arr *buf_arr,
                                                           struct doca_dpa *dpa_handler)
{
	if (!sdoca_arg_valid(buf_arr) || !sdoca_arg_valid(dpa_handler))
		return DOCA_ERROR_INVALID_VALUE;
	if (buf_arr->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: the array is started", __func__);
	buf_arr->dpa = dpa_handler;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_set_params(struct doca_buf_arr *buf_arr,
                                                       struct doca_mmap *mmap, size_t elem_size,
                                                       uint64_t start_offset)
{
	if (!sdoca_arg_valid(buf_arr) || !sdoca_arg_valid(mmap) || !sdoca_arg_valid(elem_size > 0))
		return DOCA_ERROR_INVALID_VALUE;
	if (buf_arr->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_buf_arr_set_params: the array is started");
	buf_arr->mmap = mmap;
	buf_arr->elem_size = elem_size;
	buf_arr->start_offset = start_offset;
	return DOCA_SUCCESS;
}

/* The elements must lie inside the mmap's range: checked when the array
 * starts, once the mmap has its range. */
static doca_error_t check_layout(const struct doca_buf_arr *arr)
{
	const struct doca_mmap *mmap = arr->mmap;
	size_t bytes;

	if (!mmap->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_buf_arr_start: the mmap is not started");
	if (mmap->from_export && !arr->dpa)
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "doca_buf_arr_start: a CPU array needs a local mmap, not an imported one");
	if (__builtin_mul_overflow(arr->num_elem, arr->elem_size, &bytes) ||
	    arr->start_offset > mmap->len || bytes > mmap->len - arr->start_offset)
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "doca_buf_arr_start: %zu elements of %zu bytes from offset %llu do not fit "
		        "in the mmap's %zu bytes",
		        arr->num_elem, arr->elem_size, (unsigned long long)arr->start_offset,
		        mmap->len);
	return DOCA_SUCCESS;
}

static void dpa_records_free(struct doca_buf_arr *arr)
{
	if (!arr->dev_arr)
		return;
	free(arr->dev_arr->bufs);
	free(arr->dev_arr);
	arr->dev_arr = NULL;
}

/* A DPA target: one 32-byte record per element (address, length, the
 * mmap's DPA handle) that kernels read with the inline accessors. */
static doca_error_t dpa_records(struct doca_buf_arr *arr)
{
	uint32_t handle;
	doca_error_t status = sdoca_mmap_dpa_handle(arr->mmap, &handle);
	size_t bytes = arr->num_elem * sizeof(struct doca_dpa_dev_buf);

	if (status != DOCA_SUCCESS)
		return status;
	arr->dev_arr = aligned_alloc(64, sizeof(*arr->dev_arr));
	if (!arr->dev_arr)
		return DOCA_ERROR_NO_MEMORY;
	memset(arr->dev_arr, 0, sizeof(*arr->dev_arr));
	arr->dev_arr->bufs = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
	if (!arr->dev_arr->bufs) {
		dpa_records_free(arr);
		return DOCA_ERROR_NO_MEMORY;
	}
	memset(arr->dev_arr->bufs, 0, bytes);
	for (size_t i = 0; i < arr->num_elem; i++) {
		struct doca_dpa_dev_buf *b = &arr->dev_arr->bufs[i];

		b->addr = (uintptr_t)arr->mmap->addr + arr->start_offset + i * arr->elem_size;
		b->len = arr->elem_size;
		b->mmap = handle;
	}
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_start(struct doca_buf_arr *buf_arr)
{
	doca_error_t status;

	if (!sdoca_arg_valid(buf_arr))
		return DOCA_ERROR_INVALID_VALUE;
	if (buf_arr->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "doca_buf_arr_start: the array is started");
	if (!buf_arr->mmap)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_buf_arr_start: no mmap yet (doca_buf_arr_set_params)");
	status = check_layout(buf_arr);
	if (status != DOCA_SUCCESS)
		return status;
	if (buf_arr->dpa) {
		status = dpa_records(buf_arr);
		if (status != DOCA_SUCCESS)
			return status;
	}
	/* Held like a buffer: the mmap refuses stop and destroy meanwhile. */
	atomic_fetch_add(&buf_arr->mmap->num_bufs, 1);
	buf_arr->started = true;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_stop(struct doca_buf_arr *buf_arr)
{
	if (!sdoca_arg_valid(buf_arr))
		return DOCA_ERROR_INVALID_VALUE;
	if (!buf_arr->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_buf_arr_stop: the array is not started");
	atomic_fetch_sub(&buf_arr->mmap->num_bufs, 1);
	dpa_records_free(buf_arr);
	buf_arr->started = false;
	return DOCA_SUCCESS;
}

/* A started array is stopped first, as DOCA's destroy allows. */
DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_destroy(struct doca_buf_arr *buf_arr)
{
	if (!sdoca_arg_valid(buf_arr))
		return DOCA_ERROR_INVALID_VALUE;
	if (buf_arr->started)
		atomic_fetch_sub(&buf_arr->mmap->num_bufs, 1);
	dpa_records_free(buf_arr);
	free(buf_arr);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_get_gpu_handle(const struct doca_buf_arr *buf_arr,
                                                           struct doca_gpu_buf_arr **gpu_buf_arr)
{
	(void)gpu_buf_arr;
	if (!sdoca_arg_valid(buf_arr))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_GPU);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_get_dpa_handle(const struct doca_buf_arr *buf_arr,
                                                           doca_dpa_dev_buf_arr_t *dpa_buf_arr)
{
	if (!sdoca_arg_valid(buf_arr) || !sdoca_arg_valid(dpa_buf_arr))
		return DOCA_ERROR_INVALID_VALUE;
	if (!buf_arr->dpa)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: the array's target is not a DPA",
		                  __func__);
	if (!buf_arr->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: the array is not started", __func__);
	*dpa_buf_arr = (uintptr_t)buf_arr->dev_arr;
	return DOCA_SUCCESS;
}

/* DOCA 2.5's forms (doca_buf_array.h binds them for programs built for 2.5
 * or 2.2): the mmap at creation; the element size, count and offset with
 * the parameters. */
DOCA_EXPERIMENTAL doca_error_t softdoca_v205_doca_buf_arr_create(struct doca_mmap *mmap,
                                                                 struct doca_buf_arr **buf_arr);
DOCA_EXPERIMENTAL doca_error_t softdoca_v205_doca_buf_arr_set_params(struct doca_buf_arr *buf_arr,
                                                                     size_t size, uint32_t num_elem,
                                                                     uint32_t start_offset);
struct doca_dpa_dev_buf_arr;
DOCA_EXPERIMENTAL doca_error_t softdoca_v205_doca_buf_arr_get_dpa_handle(
        const struct doca_buf_arr *buf_arr, struct doca_dpa_dev_buf_arr **dpa_buf_arr);

DOCA_EXPERIMENTAL doca_error_t softdoca_v205_doca_buf_arr_create(struct doca_mmap *mmap,
                                                                 struct doca_buf_arr **buf_arr)
{
	doca_error_t status;

	if (!sdoca_arg_valid(mmap))
		return DOCA_ERROR_INVALID_VALUE;
	/* One element until set_params says how many. */
	status = doca_buf_arr_create(1, buf_arr);
	if (status == DOCA_SUCCESS)
		(*buf_arr)->mmap = mmap;
	return status;
}

DOCA_EXPERIMENTAL doca_error_t softdoca_v205_doca_buf_arr_set_params(struct doca_buf_arr *buf_arr,
                                                                     size_t size, uint32_t num_elem,
                                                                     uint32_t start_offset)
{
	if (!sdoca_arg_valid(buf_arr) || !sdoca_arg_valid(size > 0) ||
	    !sdoca_arg_valid(num_elem > 0))
		return DOCA_ERROR_INVALID_VALUE;
	if (!buf_arr->mmap)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_buf_arr_set_params: the array has no mmap");
	if (buf_arr->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_buf_arr_set_params: the array is started");
	buf_arr->num_elem = num_elem;
	return doca_buf_arr_set_params(buf_arr, buf_arr->mmap, size, start_offset);
}

DOCA_EXPERIMENTAL doca_error_t softdoca_v205_doca_buf_arr_get_dpa_handle(
        const struct doca_buf_arr *buf_arr, struct doca_dpa_dev_buf_arr **dpa_buf_arr)
{
	if (!sdoca_arg_valid(buf_arr) || !sdoca_arg_valid(dpa_buf_arr))
		return DOCA_ERROR_INVALID_VALUE;
	if (!buf_arr->dpa)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: the array's target is not a DPA",
		                  __func__);
	if (!buf_arr->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: the array is not started", __func__);
	*dpa_buf_arr = buf_arr->dev_arr;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t softdoca_buf_arr_get_elem(const struct doca_buf_arr *buf_arr,
                                                   uint64_t index, void **addr, size_t *len)
{
	if (!sdoca_arg_valid(buf_arr) || !sdoca_arg_valid(addr))
		return DOCA_ERROR_INVALID_VALUE;
	if (!buf_arr->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "softdoca_buf_arr_get_elem: the array is not started");
	if (index >= buf_arr->num_elem)
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "softdoca_buf_arr_get_elem: index %llu of an array of %zu elements",
		        (unsigned long long)index, buf_arr->num_elem);
	*addr = buf_arr->mmap->addr + buf_arr->start_offset + index * buf_arr->elem_size;
	if (len)
		*len = buf_arr->elem_size;
	return DOCA_SUCCESS;
}
