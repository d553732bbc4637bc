/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Buffer pools: fixed-size buffers carved from one mmap.
 */
#ifndef DOCA_BUF_POOL_H_
#define DOCA_BUF_POOL_H_

#include <stddef.h>
#include <stdint.h>

#include "doca_compat.h"
#include "doca_error.h"
#include "doca_types.h"

SOFTDOCA_BEGIN_DECLS

struct doca_buf;
struct doca_buf_pool;
struct doca_mmap;

DOCA_STABLE doca_error_t doca_buf_pool_create(size_t num_elements, size_t element_size,
                                              const struct doca_mmap *mmap,
                                              struct doca_buf_pool **buf_pool);
DOCA_STABLE doca_error_t doca_buf_pool_destroy(struct doca_buf_pool *buf_pool);
DOCA_STABLE doca_error_t doca_buf_pool_start(struct doca_buf_pool *buf_pool);
DOCA_STABLE doca_error_t doca_buf_pool_stop(struct doca_buf_pool *buf_pool);
DOCA_STABLE doca_error_t doca_buf_pool_buf_alloc(struct doca_buf_pool *buf_pool,
                                                 struct doca_buf **buf);
DOCA_STABLE doca_error_t doca_buf_pool_set_user_data(struct doca_buf_pool *buf_pool,
                                                     union doca_data user_data);
DOCA_STABLE doca_error_t doca_buf_pool_set_element_alignment(struct doca_buf_pool *buf_pool,
                                                             size_t element_alignment);
DOCA_STABLE doca_error_t doca_buf_pool_get_num_elements(const struct doca_buf_pool *buf_pool,
                                                        uint32_t *num_of_elements);
DOCA_STABLE doca_error_t doca_buf_pool_get_num_free_elements(const struct doca_buf_pool *buf_pool,
                                                             uint32_t *num_of_free_elements);
DOCA_STABLE doca_error_t doca_buf_pool_get_user_data(const struct doca_buf_pool *buf_pool,
                                                     union doca_data *user_data);
DOCA_STABLE doca_error_t doca_buf_pool_get_element_alignment(const struct doca_buf_pool *buf_pool,
                                                             size_t *element_alignment);

SOFTDOCA_END_DECLS

#endif /* DOCA_BUF_POOL_H_ */
