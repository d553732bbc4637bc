/*
 * Buffers, the inventories they come from, and buffer lists.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * A list is a chain of buffers through "next". Only the head counts
 * references, knows the list length and its tail; other elements always
 * have a reference count of 1 and are released with their head.
 */
#ifndef SDOCA_CORE_BUF_H_
#define SDOCA_CORE_BUF_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>

#include "core/compiler.h"

struct doca_mmap;
struct sdoca_buf_block;

struct doca_buf {
	struct doca_buf_inventory *inv;
	struct doca_mmap *mmap;
	uint8_t *head;
	size_t len;
	uint8_t *data;
	size_t data_len;
	struct doca_buf *next; /* next element of the list, or next free element */
	struct doca_buf *tail; /* head only: last element of the list */
	uint32_t list_len;     /* head only */
	uint16_t refcount;     /* head only; 0 while in the inventory */
	bool is_head;
	bool counted;      /* holds a count on mmap->num_bufs */
	bool pool_element; /* head/len fixed by a buffer pool */
};

struct doca_buf_inventory {
	size_t num_elements;
	size_t num_free;
	bool started;
	union doca_data user_data;
	struct doca_buf *free_list;
	struct sdoca_buf_block *blocks; /* every allocation, for destroy */
};

/* Takes a free element for [head, head + len) of mmap with the given data section. */
SDOCA_EXPORT doca_error_t sdoca_buf_take(struct doca_buf_inventory *inv, struct doca_mmap *mmap,
                                         void *head, size_t len, void *data, size_t data_len,
                                         struct doca_buf **buf);
SDOCA_EXPORT doca_error_t sdoca_inventory_add_elements(struct doca_buf_inventory *inv, size_t n);
SDOCA_EXPORT void sdoca_inventory_release_blocks(struct doca_buf_inventory *inv);

/* Space after the data section, where reads and receives append. */
static inline size_t sdoca_buf_tailroom(const struct doca_buf *buf)
{
	return (size_t)(buf->head + buf->len - (buf->data + buf->data_len));
}

#endif /* SDOCA_CORE_BUF_H_ */
