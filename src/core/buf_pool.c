/*
 * doca_buf_pool: fixed-size buffers carved from one mmap at start.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdlib.h>

#include <doca_buf_pool.h>

#include "core/buf.h"
#include "core/mmap.h"
#include "core/sdk_log.h"

SDOCA_LOG_MODULE(buf_pool);

struct doca_buf_pool {
	struct doca_buf_inventory inv; /* elements with fixed head/len */
	struct doca_mmap *mmap;
	size_t num_elements;
	size_t element_size;
	size_t alignment;
	bool carved; /* elements exist (after the first start) */
};

DOCA_STABLE doca_error_t doca_buf_pool_create(size_t num_elements, size_t element_size,
                                              const struct doca_mmap *mmap,
                                              struct doca_buf_pool **buf_pool)
{
	struct doca_buf_pool *pool;

	if (!sdoca_arg_valid(mmap) || !sdoca_arg_valid(buf_pool) ||
	    !sdoca_arg_valid(num_elements > 0 && num_elements <= UINT32_MAX) ||
	    !sdoca_arg_valid(element_size > 0))
		return DOCA_ERROR_INVALID_VALUE;
	pool = calloc(1, sizeof(*pool));
	if (!pool)
		return DOCA_ERROR_NO_MEMORY;
	pool->mmap = (struct doca_mmap *)mmap;
	pool->num_elements = num_elements;
	pool->element_size = element_size;
	pool->alignment = 1;
	*buf_pool = pool;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_pool_destroy(struct doca_buf_pool *buf_pool)
{
	if (!sdoca_arg_valid(buf_pool))
		return DOCA_ERROR_INVALID_VALUE;
	if (buf_pool->inv.num_free != buf_pool->inv.num_elements)
		return sdoca_fail(DOCA_ERROR_IN_USE,
		                  "doca_buf_pool_destroy: %zu buffer(s) not released",
		                  buf_pool->inv.num_elements - buf_pool->inv.num_free);
	sdoca_inventory_release_blocks(&buf_pool->inv);
	free(buf_pool);
	return DOCA_SUCCESS;
}

/* Lays the elements out in the mmap, each at an aligned address. */
static doca_error_t carve(struct doca_buf_pool *pool)
{
	uintptr_t base = (uintptr_t)pool->mmap->addr;
	uintptr_t first = (base + pool->alignment - 1) & ~(uintptr_t)(pool->alignment - 1);
	size_t stride = (pool->element_size + pool->alignment - 1) & ~(pool->alignment - 1);
	size_t avail = pool->mmap->len > first - base ? pool->mmap->len - (first - base) : 0;
	doca_error_t status;
	size_t i = 0;

	if (stride < pool->element_size || avail / stride < pool->num_elements)
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "doca_buf_pool_start: %zu elements of %zu bytes (aligned to %zu) do not "
		        "fit in the mmap's %zu bytes",
		        pool->num_elements, pool->element_size, pool->alignment, pool->mmap->len);
	status = sdoca_inventory_add_elements(&pool->inv, pool->num_elements);
	if (status != DOCA_SUCCESS)
		return status;
	for (struct doca_buf *e = pool->inv.free_list; e; e = e->next, i++) {
		e->head = (uint8_t *)(first + i * stride);
		e->len = pool->element_size;
		e->pool_element = true;
	}
	pool->carved = true;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_pool_start(struct doca_buf_pool *buf_pool)
{
	doca_error_t status;

	if (!sdoca_arg_valid(buf_pool))
		return DOCA_ERROR_INVALID_VALUE;
	if (buf_pool->inv.started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "doca_buf_pool_start: already started");
	if (!sdoca_mmap_is_usable(buf_pool->mmap))
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_buf_pool_start: the mmap is not started");
	if (!buf_pool->carved && (status = carve(buf_pool)) != DOCA_SUCCESS)
		return status;
	buf_pool->inv.started = true;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_pool_stop(struct doca_buf_pool *buf_pool)
{
	if (!sdoca_arg_valid(buf_pool))
		return DOCA_ERROR_INVALID_VALUE;
	if (!buf_pool->inv.started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "doca_buf_pool_stop: not started");
	buf_pool->inv.started = false;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_pool_buf_alloc(struct doca_buf_pool *buf_pool,
                                                 struct doca_buf **buf)
{
	doca_error_t status;

	if (!sdoca_arg_valid(buf_pool) || !sdoca_arg_valid(buf))
		return DOCA_ERROR_INVALID_VALUE;
	if (!buf_pool->inv.started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_buf_pool_buf_alloc: pool is not started");
	status = sdoca_buf_take(&buf_pool->inv, buf_pool->mmap, NULL, 0, NULL, 0, buf);
	if (status == DOCA_SUCCESS)
		(*buf)->data = (*buf)->head;
	return status;
}

DOCA_STABLE doca_error_t doca_buf_pool_set_user_data(struct doca_buf_pool *buf_pool,
                                                     union doca_data user_data)
{
	if (!sdoca_arg_valid(buf_pool))
		return DOCA_ERROR_INVALID_VALUE;
	buf_pool->inv.user_data = user_data;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_pool_set_element_alignment(struct doca_buf_pool *buf_pool,
                                                             size_t element_alignment)
{
	if (!sdoca_arg_valid(buf_pool) ||
	    !sdoca_arg_valid(element_alignment > 0 &&
	                     (element_alignment & (element_alignment - 1)) == 0))
		return DOCA_ERROR_INVALID_VALUE;
	if (buf_pool->carved)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_buf_pool_set_element_alignment: pool was already started");
	buf_pool->alignment = element_alignment;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_pool_get_num_elements(const struct doca_buf_pool *buf_pool,
                                                        uint32_t *num_of_elements)
{
	if (!sdoca_arg_valid(buf_pool) || !sdoca_arg_valid(num_of_elements))
		return DOCA_ERROR_INVALID_VALUE;
	*num_of_elements = (uint32_t)buf_pool->num_elements;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_pool_get_num_free_elements(const struct doca_buf_pool *buf_pool,
                                                             uint32_t *num_of_free_elements)
{
	if (!sdoca_arg_valid(buf_pool) || !sdoca_arg_valid(num_of_free_elements))
		return DOCA_ERROR_INVALID_VALUE;
	*num_of_free_elements =
	        (uint32_t)(buf_pool->carved ? buf_pool->inv.num_free : buf_pool->num_elements);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_pool_get_user_data(const struct doca_buf_pool *buf_pool,
                                                     union doca_data *user_data)
{
	if (!sdoca_arg_valid(buf_pool) || !sdoca_arg_valid(user_data))
		return DOCA_ERROR_INVALID_VALUE;
	*user_data = buf_pool->inv.user_data;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_pool_get_element_alignment(const struct doca_buf_pool *buf_pool,
                                                             size_t *element_alignment)
{
	if (!sdoca_arg_valid(buf_pool) || !sdoca_arg_valid(element_alignment))
		return DOCA_ERROR_INVALID_VALUE;
	*element_alignment = buf_pool->alignment;
	return DOCA_SUCCESS;
}
