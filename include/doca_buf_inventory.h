/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Buffer inventories: a fixed pool of doca_buf objects.
 */
#ifndef DOCA_BUF_INVENTORY_H_
#define DOCA_BUF_INVENTORY_H_

#include <stddef.h>
#include <stdint.h>

#include "doca_compat.h"
#include "doca_error.h"
#include "doca_types.h"

#if SOFTDOCA_API_VERSION == 202
/* DOCA 2.2's doca_buf_inventory.h brought these two. */
#include "doca_buf.h"
#include "doca_mmap.h"
#endif

SOFTDOCA_BEGIN_DECLS

struct doca_buf;
struct doca_buf_inventory;
struct doca_mmap;

#if SOFTDOCA_API_VERSION >= 205
DOCA_STABLE doca_error_t doca_buf_inventory_create(size_t num_elements,
                                                   struct doca_buf_inventory **inventory);
#else
/* DOCA 2.2: user data and extensions (enum doca_buf_extension) at creation. */
DOCA_EXPERIMENTAL doca_error_t doca_buf_inventory_create(const union doca_data *user_data,
                                                         size_t num_elements, uint32_t extensions,
                                                         struct doca_buf_inventory **buf_inventory)
        SOFTDOCA_SYMBOL(202, doca_buf_inventory_create);
#endif
DOCA_STABLE doca_error_t doca_buf_inventory_destroy(struct doca_buf_inventory *inventory);
DOCA_STABLE doca_error_t doca_buf_inventory_start(struct doca_buf_inventory *inventory);
DOCA_STABLE doca_error_t doca_buf_inventory_stop(struct doca_buf_inventory *inventory);
#if SOFTDOCA_API_VERSION >= 205
DOCA_STABLE doca_error_t doca_buf_inventory_buf_get_by_args(struct doca_buf_inventory *inventory,
                                                            struct doca_mmap *mmap, void *addr,
                                                            size_t len, void *data, size_t data_len,
                                                            struct doca_buf **buf);

/* A buffer over [addr, addr + len) with an empty data section at addr. */
static inline doca_error_t doca_buf_inventory_buf_get_by_addr(struct doca_buf_inventory *inventory,
                                                              struct doca_mmap *mmap, void *addr,
                                                              size_t len, struct doca_buf **buf)
{
	return doca_buf_inventory_buf_get_by_args(inventory, mmap, addr, len, addr, 0, buf);
}

/* A buffer whose data section is the whole [data, data + data_len). */
static inline doca_error_t doca_buf_inventory_buf_get_by_data(struct doca_buf_inventory *inventory,
                                                              struct doca_mmap *mmap, void *data,
                                                              size_t data_len,
                                                              struct doca_buf **buf)
{
	return doca_buf_inventory_buf_get_by_args(inventory, mmap, data, data_len, data, data_len,
	                                          buf);
}

#if SOFTDOCA_API_VERSION >= 300
/* DOCA 3.2+: points a buffer the caller alone holds (one element, reference
 * count 1, not from a pool) at another range of its mmap, without returning
 * it to the inventory. */
DOCA_EXPERIMENTAL doca_error_t doca_buf_inventory_buf_reuse_by_args(struct doca_buf *buf,
                                                                    void *addr, size_t len,
                                                                    void *data, size_t data_len);

/* The experimental call inside these wrappers does not warn, so a program
 * built with -Werror and without DOCA_ALLOW_EXPERIMENTAL_API still compiles
 * (DOCA's own header warns there). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static inline doca_error_t doca_buf_inventory_buf_reuse_by_addr(struct doca_buf *buf, void *addr,
                                                                size_t len)
{
	return doca_buf_inventory_buf_reuse_by_args(buf, addr, len, addr, 0);
}

static inline doca_error_t doca_buf_inventory_buf_reuse_by_data(struct doca_buf *buf, void *data,
                                                                size_t data_len)
{
	return doca_buf_inventory_buf_reuse_by_args(buf, data, data_len, data, data_len);
}
#pragma GCC diagnostic pop
#endif
#else
/* DOCA 2.2 names of buf_get_by_args/addr/data. */
DOCA_EXPERIMENTAL doca_error_t doca_buf_inventory_buf_by_args(struct doca_buf_inventory *inventory,
                                                              struct doca_mmap *mmap, void *addr,
                                                              size_t len, void *data,
                                                              size_t data_len,
                                                              struct doca_buf **buf);

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static inline doca_error_t doca_buf_inventory_buf_by_addr(struct doca_buf_inventory *inventory,
                                                          struct doca_mmap *mmap, void *addr,
                                                          size_t len, struct doca_buf **buf)
{
	return doca_buf_inventory_buf_by_args(inventory, mmap, addr, len, addr, 0, buf);
}

static inline doca_error_t doca_buf_inventory_buf_by_data(struct doca_buf_inventory *inventory,
                                                          struct doca_mmap *mmap, void *data,
                                                          size_t data_len, struct doca_buf **buf)
{
	return doca_buf_inventory_buf_by_args(inventory, mmap, data, data_len, data, data_len, buf);
}
#pragma GCC diagnostic pop
#endif

DOCA_STABLE doca_error_t doca_buf_inventory_buf_dup(struct doca_buf_inventory *inventory,
                                                    const struct doca_buf *src_buf,
                                                    struct doca_buf **dst_buf);
#if SOFTDOCA_API_VERSION >= 205
DOCA_STABLE doca_error_t doca_buf_inventory_set_user_data(struct doca_buf_inventory *inventory,
                                                          union doca_data user_data);
#endif
DOCA_STABLE doca_error_t doca_buf_inventory_get_num_elements(
        const struct doca_buf_inventory *inventory, uint32_t *num_of_elements);
DOCA_STABLE doca_error_t doca_buf_inventory_get_num_free_elements(
        const struct doca_buf_inventory *inventory, uint32_t *num_of_free_elements);
DOCA_STABLE doca_error_t doca_buf_inventory_get_user_data(
        const struct doca_buf_inventory *inventory, union doca_data *user_data);
#if SOFTDOCA_API_VERSION >= 205
DOCA_EXPERIMENTAL doca_error_t doca_buf_inventory_expand(struct doca_buf_inventory *inventory,
                                                         uint32_t num_elements);
#endif

SOFTDOCA_END_DECLS

#endif /* DOCA_BUF_INVENTORY_H_ */
