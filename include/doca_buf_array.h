/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Buffer arrays: host side of buffers used by DPA or GPU kernels (on the
 * CPU: softdoca_buf_arr_get_elem in softdoca.h). DOCA 2.5 gave the mmap at
 * creation and the element count with the parameters; 3.0 the reverse.
 */
#ifndef DOCA_BUF_ARRAY_H_
#define DOCA_BUF_ARRAY_H_

#include <stddef.h>
#include <stdint.h>

#include "doca_compat.h"
#include "doca_error.h"
#include "doca_types.h"

SOFTDOCA_BEGIN_DECLS

struct doca_buf_arr;
struct doca_gpu_buf_arr;
struct doca_mmap;

typedef uint64_t doca_dpa_dev_buf_arr_t;

#if SOFTDOCA_API_VERSION >= 300
DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_create(size_t num_elem, struct doca_buf_arr **buf_arr);
#else
/* DOCA 2.5 (and 2.2 programs, which keep 2.5's header): the mmap is given at
 * creation, the element count with the parameters. */
DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_create(struct doca_mmap *mmap,
                                                   struct doca_buf_arr **buf_arr)
        SOFTDOCA_SYMBOL(205, doca_buf_arr_create);
#endif
DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_set_target_gpu(struct doca_buf_arr *buf_arr,
                                                           struct doca_gpu *gpu_handler);
DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_set_target_dpa(struct doca_buf_arr *buf_arr,
                                                           struct doca_dpa *dpa_handler);
#if SOFTDOCA_API_VERSION >= 300
DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_set_params(struct doca_buf_arr *buf_arr,
                                                       struct doca_mmap *mmap, size_t elem_size,
                                                       uint64_t start_offset);
#else
DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_set_params(struct doca_buf_arr *buf_arr, size_t size,
                                                       uint32_t num_elem, uint32_t start_offset)
        SOFTDOCA_SYMBOL(205, doca_buf_arr_set_params);
#endif
DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_start(struct doca_buf_arr *buf_arr);
DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_stop(struct doca_buf_arr *buf_arr);
DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_destroy(struct doca_buf_arr *buf_arr);
DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_get_gpu_handle(const struct doca_buf_arr *buf_arr,
                                                           struct doca_gpu_buf_arr **gpu_buf_arr);
#if SOFTDOCA_API_VERSION >= 300
DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_get_dpa_handle(const struct doca_buf_arr *buf_arr,
                                                           doca_dpa_dev_buf_arr_t *dpa_buf_arr);
#else
struct doca_dpa_dev_buf_arr;
DOCA_EXPERIMENTAL doca_error_t doca_buf_arr_get_dpa_handle(
        const struct doca_buf_arr *buf_arr, struct doca_dpa_dev_buf_arr **dpa_buf_arr)
        SOFTDOCA_SYMBOL(205, doca_buf_arr_get_dpa_handle);
#endif

SOFTDOCA_END_DECLS

#endif /* DOCA_BUF_ARRAY_H_ */
