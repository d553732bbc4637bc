/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Buffers: a region [head, head + len) of an mmap with a data section
 * [data, data + data_len) inside it. Buffers can be chained into lists.
 */
#ifndef DOCA_BUF_H_
#define DOCA_BUF_H_

#include <stddef.h>
#include <stdint.h>

#include "doca_compat.h"
#include "doca_error.h"

#if SOFTDOCA_API_VERSION == 202
#include <stdbool.h> /* DOCA 2.2's list calls take bool * */
#endif

SOFTDOCA_BEGIN_DECLS

struct doca_buf;

#if SOFTDOCA_API_VERSION >= 205
DOCA_STABLE doca_error_t doca_buf_inc_refcount(struct doca_buf *buf, uint16_t *refcount);
/* At zero the buffer returns to its inventory. */
DOCA_STABLE doca_error_t doca_buf_dec_refcount(struct doca_buf *buf, uint16_t *refcount);
#else
/* DOCA 2.2 names of inc/dec_refcount. */
enum doca_buf_extension {
	DOCA_BUF_EXTENSION_NONE = 0,
};
DOCA_EXPERIMENTAL doca_error_t doca_buf_refcount_add(struct doca_buf *buf, uint16_t *refcount);
DOCA_EXPERIMENTAL doca_error_t doca_buf_refcount_rm(struct doca_buf *buf, uint16_t *refcount);
#endif
DOCA_STABLE doca_error_t doca_buf_get_refcount(const struct doca_buf *buf, uint16_t *refcount);
DOCA_STABLE doca_error_t doca_buf_get_len(const struct doca_buf *buf, size_t *len);
DOCA_STABLE doca_error_t doca_buf_get_head(const struct doca_buf *buf, void **head);
DOCA_STABLE doca_error_t doca_buf_get_data_len(const struct doca_buf *buf, size_t *data_len);
DOCA_STABLE doca_error_t doca_buf_get_data(const struct doca_buf *buf, void **data);
DOCA_STABLE doca_error_t doca_buf_set_data(struct doca_buf *buf, void *data, size_t data_len);
DOCA_STABLE doca_error_t doca_buf_reset_data_len(struct doca_buf *buf);
DOCA_STABLE doca_error_t doca_buf_is_in_list(const struct doca_buf *buf, uint8_t *is_in_list);
#if SOFTDOCA_API_VERSION >= 205
DOCA_STABLE doca_error_t doca_buf_set_data_len(struct doca_buf *buf, size_t data_len);
DOCA_STABLE doca_error_t doca_buf_get_next_in_list(struct doca_buf *buf,
                                                   struct doca_buf **next_buf);
DOCA_STABLE doca_error_t doca_buf_get_last_in_list(struct doca_buf *buf,
                                                   struct doca_buf **last_buf);
DOCA_STABLE doca_error_t doca_buf_is_last_in_list(const struct doca_buf *buf, uint8_t *is_last);
DOCA_STABLE doca_error_t doca_buf_is_first_in_list(const struct doca_buf *buf, uint8_t *is_first);
DOCA_STABLE doca_error_t doca_buf_get_list_len(const struct doca_buf *buf, uint32_t *num_elements);
DOCA_STABLE doca_error_t doca_buf_chain_list(struct doca_buf *list1, struct doca_buf *list2);
DOCA_EXPERIMENTAL doca_error_t doca_buf_chain_list_tail(struct doca_buf *list1_head,
                                                        struct doca_buf *list1_tail,
                                                        struct doca_buf *list2);
DOCA_STABLE doca_error_t doca_buf_unchain_list(struct doca_buf *list1, struct doca_buf *list2);
#else
/* DOCA 2.2 names of the list calls. */
DOCA_EXPERIMENTAL doca_error_t doca_buf_list_next(struct doca_buf *buf, struct doca_buf **next_buf);
DOCA_EXPERIMENTAL doca_error_t doca_buf_list_last(struct doca_buf *buf, struct doca_buf **last_buf);
DOCA_EXPERIMENTAL doca_error_t doca_buf_list_is_last(const struct doca_buf *buf, bool *is_last);
DOCA_EXPERIMENTAL doca_error_t doca_buf_list_is_first(const struct doca_buf *buf, bool *is_first);
DOCA_EXPERIMENTAL doca_error_t doca_buf_list_num_elements(const struct doca_buf *buf,
                                                          uint32_t *num_elements);
DOCA_EXPERIMENTAL doca_error_t doca_buf_list_chain(struct doca_buf *list1, struct doca_buf *list2);
DOCA_EXPERIMENTAL doca_error_t doca_buf_list_unchain(struct doca_buf *list1,
                                                     struct doca_buf *list2);
#endif

SOFTDOCA_END_DECLS

#endif /* DOCA_BUF_H_ */
