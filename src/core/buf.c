/*
 * doca_buf: data section, reference counts and lists.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * DOCA leaves out-of-range set_data/set_data_len undefined; softdoca checks
 * the range and refuses with INVALID_VALUE instead.
 */
#include <stdatomic.h>

#include "core/buf.h"
#include "core/mmap.h"
#include "core/sdk_log.h"

SDOCA_LOG_MODULE(buf);

/* Most calls take a list by its head: false (logged) for an inner element. */
static bool is_head(const struct doca_buf *buf, const char *caller)
{
	if (!buf->is_head) {
		SDOCA_ERR("%s: buffer is an inner element of a list; use the list head", caller);
		return false;
	}
	return true;
}

/* Returns every element of a list to its inventory. Inner elements keep a
 * count of 1 while listed; 0 marks an element that is back in its inventory. */
static void release_list(struct doca_buf *head)
{
	struct doca_buf *e = head;

	while (e) {
		struct doca_buf *next = e->next;
		struct doca_buf_inventory *inv = e->inv;

		if (e->counted)
			atomic_fetch_sub(&e->mmap->num_bufs, 1);
		e->refcount = 0;
		e->counted = false;
		e->is_head = false;
		e->mmap = NULL;
		e->next = inv->free_list;
		inv->free_list = e;
		inv->num_free++;
		e = next;
	}
}

DOCA_STABLE doca_error_t doca_buf_inc_refcount(struct doca_buf *buf, uint16_t *refcount)
{
	if (!sdoca_arg_valid(buf))
		return DOCA_ERROR_INVALID_VALUE;
	if (buf->refcount == 0)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_buf_inc_refcount: buffer was already released");
	if (!is_head(buf, __func__))
		return DOCA_ERROR_NOT_PERMITTED;
	if (buf->refcount == UINT16_MAX)
		return sdoca_fail(DOCA_ERROR_TOO_BIG,
		                  "doca_buf_inc_refcount: reference count at maximum");
	if (refcount)
		*refcount = buf->refcount;
	buf->refcount++;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_dec_refcount(struct doca_buf *buf, uint16_t *refcount)
{
	if (!sdoca_arg_valid(buf))
		return DOCA_ERROR_INVALID_VALUE;
	if (buf->refcount == 0)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_buf_dec_refcount: buffer was already released");
	if (!is_head(buf, __func__))
		return DOCA_ERROR_NOT_PERMITTED;
	if (refcount)
		*refcount = buf->refcount;
	if (--buf->refcount == 0)
		release_list(buf);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_get_refcount(const struct doca_buf *buf, uint16_t *refcount)
{
	if (!sdoca_arg_valid(buf) || !sdoca_arg_valid(refcount))
		return DOCA_ERROR_INVALID_VALUE;
	*refcount = buf->is_head ? buf->refcount : 1;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_get_len(const struct doca_buf *buf, size_t *len)
{
	if (!sdoca_arg_valid(buf) || !sdoca_arg_valid(len))
		return DOCA_ERROR_INVALID_VALUE;
	*len = buf->len;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_get_head(const struct doca_buf *buf, void **head)
{
	if (!sdoca_arg_valid(buf) || !sdoca_arg_valid(head))
		return DOCA_ERROR_INVALID_VALUE;
	*head = buf->head;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_get_data_len(const struct doca_buf *buf, size_t *data_len)
{
	if (!sdoca_arg_valid(buf) || !sdoca_arg_valid(data_len))
		return DOCA_ERROR_INVALID_VALUE;
	*data_len = buf->data_len;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_get_data(const struct doca_buf *buf, void **data)
{
	if (!sdoca_arg_valid(buf) || !sdoca_arg_valid(data))
		return DOCA_ERROR_INVALID_VALUE;
	*data = buf->data;
	return DOCA_SUCCESS;
}

/* Whether [data, data + data_len) lies inside the buffer. */
static bool data_fits(const struct doca_buf *buf, uintptr_t data, size_t data_len)
{
	uintptr_t head = (uintptr_t)buf->head;

	return data >= head && data - head <= buf->len && data_len <= buf->len - (data - head);
}

DOCA_STABLE doca_error_t doca_buf_set_data(struct doca_buf *buf, void *data, size_t data_len)
{
	if (!sdoca_arg_valid(buf) || !sdoca_arg_valid(data))
		return DOCA_ERROR_INVALID_VALUE;
	if (!data_fits(buf, (uintptr_t)data, data_len))
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "doca_buf_set_data: data %p + %zu is outside the buffer [%p, +%zu)", data,
		        data_len, (void *)buf->head, buf->len);
	buf->data = data;
	buf->data_len = data_len;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_set_data_len(struct doca_buf *buf, size_t data_len)
{
	if (!sdoca_arg_valid(buf))
		return DOCA_ERROR_INVALID_VALUE;
	if (!data_fits(buf, (uintptr_t)buf->data, data_len))
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "doca_buf_set_data_len: %zu bytes from the data pointer pass the end of "
		        "the buffer",
		        data_len);
	buf->data_len = data_len;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_reset_data_len(struct doca_buf *buf)
{
	if (!sdoca_arg_valid(buf))
		return DOCA_ERROR_INVALID_VALUE;
	buf->data_len = 0;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_get_next_in_list(struct doca_buf *buf, struct doca_buf **next_buf)
{
	if (!sdoca_arg_valid(buf) || !sdoca_arg_valid(next_buf))
		return DOCA_ERROR_INVALID_VALUE;
	*next_buf = buf->next;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_get_last_in_list(struct doca_buf *buf, struct doca_buf **last_buf)
{
	if (!sdoca_arg_valid(buf) || !sdoca_arg_valid(last_buf))
		return DOCA_ERROR_INVALID_VALUE;
	if (buf->is_head) {
		*last_buf = buf->tail;
		return DOCA_SUCCESS;
	}
	while (buf->next)
		buf = buf->next;
	*last_buf = buf;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_is_last_in_list(const struct doca_buf *buf, uint8_t *is_last)
{
	if (!sdoca_arg_valid(buf) || !sdoca_arg_valid(is_last))
		return DOCA_ERROR_INVALID_VALUE;
	*is_last = buf->next == NULL;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_is_first_in_list(const struct doca_buf *buf, uint8_t *is_first)
{
	if (!sdoca_arg_valid(buf) || !sdoca_arg_valid(is_first))
		return DOCA_ERROR_INVALID_VALUE;
	*is_first = buf->is_head;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_is_in_list(const struct doca_buf *buf, uint8_t *is_in_list)
{
	if (!sdoca_arg_valid(buf) || !sdoca_arg_valid(is_in_list))
		return DOCA_ERROR_INVALID_VALUE;
	*is_in_list = !buf->is_head || buf->list_len > 1;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_get_list_len(const struct doca_buf *buf, uint32_t *num_elements)
{
	if (!sdoca_arg_valid(buf) || !sdoca_arg_valid(num_elements))
		return DOCA_ERROR_INVALID_VALUE;
	if (!is_head(buf, __func__))
		return DOCA_ERROR_NOT_PERMITTED;
	*num_elements = buf->list_len;
	return DOCA_SUCCESS;
}

static doca_error_t chain(struct doca_buf *head, struct doca_buf *tail, struct doca_buf *list2)
{
	if (head == list2)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "cannot chain a buffer list to itself");
	if (!list2->is_head)
		return sdoca_fail(DOCA_ERROR_NOT_PERMITTED,
		                  "the list to append is an inner element of another list");
	if (list2->refcount != 1)
		return sdoca_fail(DOCA_ERROR_NOT_PERMITTED,
		                  "the list to append has %u references; it must have exactly 1",
		                  list2->refcount);
	if ((uint64_t)head->list_len + list2->list_len > UINT32_MAX)
		return sdoca_fail(DOCA_ERROR_TOO_BIG, "the combined list would be too long");
	tail->next = list2;
	head->tail = list2->tail;
	head->list_len += list2->list_len;
	list2->is_head = false;
	list2->tail = NULL;
	list2->list_len = 0;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_buf_chain_list(struct doca_buf *list1, struct doca_buf *list2)
{
	if (!sdoca_arg_valid(list1) || !sdoca_arg_valid(list2))
		return DOCA_ERROR_INVALID_VALUE;
	if (!is_head(list1, __func__))
		return DOCA_ERROR_NOT_PERMITTED;
	return chain(list1, list1->tail, list2);
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_chain_list_tail(struct doca_buf *list1_head,
                                                        struct doca_buf *list1_tail,
                                                        struct doca_buf *list2)
{
	if (!sdoca_arg_valid(list1_head) || !sdoca_arg_valid(list1_tail) || !sdoca_arg_valid(list2))
		return DOCA_ERROR_INVALID_VALUE;
	if (!is_head(list1_head, __func__))
		return DOCA_ERROR_NOT_PERMITTED;
	if (list1_head->tail != list1_tail)
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "doca_buf_chain_list_tail: list1_tail is not the last element of list1");
	return chain(list1_head, list1_tail, list2);
}

/* Splits list1 before list2; list2 becomes the head of the rest, with one reference. */
DOCA_STABLE doca_error_t doca_buf_unchain_list(struct doca_buf *list1, struct doca_buf *list2)
{
	struct doca_buf *prev = NULL;
	uint32_t before = 0;

	if (!sdoca_arg_valid(list1) || !sdoca_arg_valid(list2))
		return DOCA_ERROR_INVALID_VALUE;
	if (!is_head(list1, __func__))
		return DOCA_ERROR_NOT_PERMITTED;
	for (struct doca_buf *e = list1; e && e != list2; e = e->next) {
		prev = e;
		before++;
	}
	if (list2 == list1 || !prev || prev->next != list2)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "doca_buf_unchain_list: list2 is not an inner element of list1");
	prev->next = NULL;
	list2->is_head = true;
	list2->refcount = 1;
	list2->tail = list1->tail;
	list2->list_len = list1->list_len - before;
	list1->tail = prev;
	list1->list_len = before;
	return DOCA_SUCCESS;
}
