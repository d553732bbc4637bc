/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * doca_buf_arr: buffers for DPA and GPU kernels. softdoca has no GPU
 * support, and its DPA emulation does not use buffer arrays yet, so no
 * buffer array can be created.
 */
#include <doca_buf_array.h>

#include "core/sdk_log.h"

SDOCA_LOG_MODULE(buf_array);

#define NO_BUF_ARR "buffer arrays serve DPA/GPU data paths, which softdoca does not emulate yet"

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_create(size_t num_elem, struct doca_buf_arr **buf_arr)
{
	(void)num_elem;
	SDOCA_CHECK_ARG(buf_arr);
	SDOCA_NOT_SUPPORTED(NO_BUF_ARR);
}

/* The other functions take an array that cannot exist. */
#define BUF_ARR_UNSUPPORTED(arr)                 \
	do {                                     \
		SDOCA_CHECK_ARG(arr);            \
		SDOCA_NOT_SUPPORTED(NO_BUF_ARR); \
	} while (0)

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_set_target_gpu(struct doca_buf_arr *buf_arr,
                                                           struct doca_gpu *gpu_handler)
{
	(void)gpu_handler;
	BUF_ARR_UNSUPPORTED(buf_arr);
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_set_target_dpa(struct doca_buf_arr *buf_arr,
                                                           struct doca_dpa *dpa_handler)
{
	(void)dpa_handler;
	BUF_ARR_UNSUPPORTED(buf_arr);
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_set_params(struct doca_buf_arr *buf_arr,
                                                       struct doca_mmap *mmap, size_t elem_size,
                                                       uint64_t start_offset)
{
	(void)mmap;
	(void)elem_size;
	(void)start_offset;
	BUF_ARR_UNSUPPORTED(buf_arr);
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_start(struct doca_buf_arr *buf_arr)
{
	BUF_ARR_UNSUPPORTED(buf_arr);
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_stop(struct doca_buf_arr *buf_arr)
{
	BUF_ARR_UNSUPPORTED(buf_arr);
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_destroy(struct doca_buf_arr *buf_arr)
{
	BUF_ARR_UNSUPPORTED(buf_arr);
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_get_gpu_handle(const struct doca_buf_arr *buf_arr,
                                                           struct doca_gpu_buf_arr **gpu_buf_arr)
{
	(void)gpu_buf_arr;
	BUF_ARR_UNSUPPORTED(buf_arr);
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_get_dpa_handle(const struct doca_buf_arr *buf_arr,
                                                           doca_dpa_dev_buf_arr_t *dpa_buf_arr)
{
	(void)dpa_buf_arr;
	BUF_ARR_UNSUPPORTED(buf_arr);
}
