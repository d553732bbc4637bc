/*
 * doca_buf_inventory: a pool of buffer descriptors.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/mmap.h"
#include "core/sdk_log.h"

SDOCA_LOG_MODULE(buf_inventory);

/* One allocation of elements; expand() adds more. */
struct sdoca_buf_block {
	struct sdoca_buf_block *next;
	size_t count;
	struct doca_buf elements[];
};

SDOCA_EXPORT doca_error_t sdoca_inventory_add_elements(struct doca_buf_inventory *inv, size_t n)
{
	struct sdoca_buf_block *block;

	if (n == 0 || n > UINT32_MAX - inv->num_elements)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "an inventory holds 1 to %u elements; %zu more requested",
		                  UINT32_MAX, n);
	block = calloc(1, sizeof(*block) + n * sizeof(struct doca_buf));
	if (!block)
		return DOCA_ERROR_NO_MEMORY;
	block->count = n;
	for (size_t i = n; i-- > 0;) {
		struct doca_buf *e = &block->elements[i];

		e->inv = inv;
		e->next = inv->free_list;
		inv->free_list = e;
	}
	block->next = inv->blocks;
	inv->blocks = block;
	inv->num_elements += n;
	inv->num_free += n;
	return DOCA_SUCCESS;
}

SDOCA_EXPORT void sdoca_inventory_release_blocks(struct doca_buf_inventory *inv)
{
	while (inv->blocks) {
		struct sdoca_buf_block *next = inv->blocks->next;

		free(inv->blocks);
		inv->blocks = next;
	}
}

DOCA_STABLE doca_error_t doca_buf_inventory_create(size_t num_elements,
                                                   struct doca_buf_inventory **inventory)
{
	struct doca_buf_inventory *inv;
	doca_error_t status;

	if (!sdoca_arg_valid(inventory) || !sdoca_arg_valid(num_elements > 0))
		return DOCA_ERROR_INVALID_VALUE;
	inv = calloc(1, sizeof(*inv));
	if (!inv)
		return DOCA_ERROR_NO_MEMORY;
	status = sdoca_inventory_add_elements(inv, num_elements);
	if (status != DOCA_SUCCESS) {
		free(inv);
		return status;
	}
	*inventory = inv;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_inventory_destroy(struct doca_buf_inventory *inventory)
{
	if (!sdoca_arg_valid(inventory))
		return DOCA_ERROR_INVALID_VALUE;
	if (inventory->num_free != inventory->num_elements)
		return sdoca_fail(DOCA_ERROR_IN_USE,
		                  "doca_buf_inventory_destroy: %zu buffer(s) were not released",
		                  inventory->num_elements - inventory->num_free);
	sdoca_inventory_release_blocks(inventory);
	free(inventory);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_inventory_start(struct doca_buf_inventory *inventory)
{
	if (!sdoca_arg_valid(inventory))
		return DOCA_ERROR_INVALID_VALUE;
	if (inventory->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_buf_inventory_start: already started");
	inventory->started = true;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_inventory_stop(struct doca_buf_inventory *inventory)
{
	if (!sdoca_arg_valid(inventory))
		return DOCA_ERROR_INVALID_VALUE;
	if (!inventory->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "doca_buf_inventory_stop: not started");
	inventory->started = false;
	return DOCA_SUCCESS;
}

SDOCA_EXPORT doca_error_t sdoca_buf_take(struct doca_buf_inventory *inv, struct doca_mmap *mmap,
                                         void *head, size_t len, void *data, size_t data_len,
                                         struct doca_buf **buf)
{
	struct doca_buf *e = inv->free_list;

	if (!e) {
		/* Expected when a program drains its inventory: no error line. */
		SDOCA_DBG("buffer inventory %p is empty (%zu elements)", (void *)inv,
		          inv->num_elements);
		return DOCA_ERROR_NO_MEMORY;
	}
	inv->free_list = e->next;
	inv->num_free--;
	if (!e->pool_element) {
		e->head = head;
		e->len = len;
	}
	e->mmap = mmap;
	e->data = data;
	e->data_len = data_len;
	e->next = NULL;
	e->tail = e;
	e->list_len = 1;
	e->refcount = 1;
	e->is_head = true;
	e->counted = sdoca_mmap_counts_bufs(mmap);
	if (e->counted)
		atomic_fetch_add(&mmap->num_bufs, 1);
	*buf = e;
	return DOCA_SUCCESS;
}

static doca_error_t check_usable(const struct doca_buf_inventory *inv, const struct doca_mmap *mmap)
{
	if (!inv->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "buffer inventory is not started");
	if (!sdoca_mmap_is_usable(mmap))
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "mmap is not started");
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_inventory_buf_get_by_args(struct doca_buf_inventory *inventory,
                                                            struct doca_mmap *mmap, void *addr,
                                                            size_t len, void *data, size_t data_len,
                                                            struct doca_buf **buf)
{
	uintptr_t a = (uintptr_t)addr, d = (uintptr_t)data;
	doca_error_t status;

	if (!sdoca_arg_valid(inventory) || !sdoca_arg_valid(mmap) || !sdoca_arg_valid(buf) ||
	    !sdoca_arg_valid(addr))
		return DOCA_ERROR_INVALID_VALUE;
	status = check_usable(inventory, mmap);
	if (status != DOCA_SUCCESS)
		return status;
	if (!sdoca_mmap_contains(mmap, addr, len))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "buffer [%p, +%zu) is outside the mmap range [%p, +%zu)", addr,
		                  len, (void *)mmap->addr, mmap->len);
	if (d < a || d - a > len || data_len > len - (d - a))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "data [%p, +%zu) is outside the buffer [%p, +%zu)", data,
		                  data_len, addr, len);
	return sdoca_buf_take(inventory, mmap, addr, len, data, data_len, buf);
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_inventory_buf_reuse_by_args(struct doca_buf *buf,
                                                                    void *addr, size_t len,
                                                                    void *data, size_t data_len)
{
	uintptr_t a = (uintptr_t)addr, d = (uintptr_t)data;

	if (!sdoca_arg_valid(buf) || !sdoca_arg_valid(addr))
		return DOCA_ERROR_INVALID_VALUE;
	if (!buf->is_head || buf->refcount != 1 || buf->list_len != 1 || buf->pool_element)
		return sdoca_fail(
		        DOCA_ERROR_NOT_PERMITTED,
		        "doca_buf_inventory_buf_reuse_by_args: only a single buffer held once and "
		        "not from a pool can be reused (reference count %u, %u element(s)%s)",
		        buf->refcount, buf->list_len, buf->pool_element ? ", from a pool" : "");
	if (!sdoca_mmap_is_usable(buf->mmap))
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "buffer's mmap is not started");
	if (!sdoca_mmap_contains(buf->mmap, addr, len))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "buffer [%p, +%zu) is outside the mmap range [%p, +%zu)", addr,
		                  len, (void *)buf->mmap->addr, buf->mmap->len);
	if (d < a || d - a > len || data_len > len - (d - a))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "data [%p, +%zu) is outside the buffer [%p, +%zu)", data,
		                  data_len, addr, len);
	buf->head = addr;
	buf->len = len;
	buf->data = data;
	buf->data_len = data_len;
	return DOCA_SUCCESS;
}

/* Duplicates the descriptor (not the bytes); a list is duplicated whole. */
DOCA_STABLE doca_error_t doca_buf_inventory_buf_dup(struct doca_buf_inventory *inventory,
                                                    const struct doca_buf *src_buf,
                                                    struct doca_buf **dst_buf)
{
	struct doca_buf *copy = NULL;
	doca_error_t status;

	if (!sdoca_arg_valid(inventory) || !sdoca_arg_valid(src_buf) || !sdoca_arg_valid(dst_buf))
		return DOCA_ERROR_INVALID_VALUE;
	if (!src_buf->is_head)
		return sdoca_fail(
		        DOCA_ERROR_NOT_PERMITTED,
		        "doca_buf_inventory_buf_dup: source is an inner element of a list");
	if (src_buf->refcount == 0)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_buf_inventory_buf_dup: source was released");
	if (inventory->num_free < src_buf->list_len)
		return sdoca_fail(DOCA_ERROR_NO_MEMORY,
		                  "doca_buf_inventory_buf_dup: %u elements needed, %zu free",
		                  src_buf->list_len, inventory->num_free);
	for (const struct doca_buf *s = src_buf; s; s = s->next) {
		struct doca_buf *e;

		status = check_usable(inventory, s->mmap);
		if (status == DOCA_SUCCESS)
			status = sdoca_buf_take(inventory, s->mmap, s->head, s->len, s->data,
			                        s->data_len, &e);
		if (status != DOCA_SUCCESS) {
			if (copy)
				doca_buf_dec_refcount(copy, NULL);
			return status;
		}
		if (copy)
			doca_buf_chain_list(copy, e);
		else
			copy = e;
	}
	*dst_buf = copy;
	return DOCA_SUCCESS;
}

/* DOCA allows this only on a started inventory; softdoca allows it at any time. */
DOCA_STABLE doca_error_t doca_buf_inventory_set_user_data(struct doca_buf_inventory *inventory,
                                                          union doca_data user_data)
{
	if (!sdoca_arg_valid(inventory))
		return DOCA_ERROR_INVALID_VALUE;
	inventory->user_data = user_data;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_inventory_get_num_elements(
        const struct doca_buf_inventory *inventory, uint32_t *num_of_elements)
{
	if (!sdoca_arg_valid(inventory) || !sdoca_arg_valid(num_of_elements))
		return DOCA_ERROR_INVALID_VALUE;
	*num_of_elements = (uint32_t)inventory->num_elements;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_inventory_get_num_free_elements(
        const struct doca_buf_inventory *inventory, uint32_t *num_of_free_elements)
{
	if (!sdoca_arg_valid(inventory) || !sdoca_arg_valid(num_of_free_elements))
		return DOCA_ERROR_INVALID_VALUE;
	*num_of_free_elements = (uint32_t)inventory->num_free;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_inventory_get_user_data(
        const struct doca_buf_inventory *inventory, union doca_data *user_data)
{
	if (!sdoca_arg_valid(inventory) || !sdoca_arg_valid(user_data))
		return DOCA_ERROR_INVALID_VALUE;
	*user_data = inventory->user_data;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_inventory_expand(struct doca_buf_inventory *inventory,
                                                         uint32_t num_elements)
{
	if (!sdoca_arg_valid(inventory))
		return DOCA_ERROR_INVALID_VALUE;
	if (!inventory->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_buf_inventory_expand: inventory is not started");
	return sdoca_inventory_add_elements(inventory, num_elements);
}
