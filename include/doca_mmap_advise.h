/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * mmap advise: a context whose task invalidates the NIC's cache of a memory
 * range (a BlueField DPU-mode feature). A softdoca device has no NIC cache:
 * the capability query answers NOT_SUPPORTED and no context can be created.
 *
 * Mind the names: the device queries say "task_cache_invalidate", the task
 * calls say "task_invalidate_cache" (as in DOCA).
 */
#ifndef DOCA_MMAP_ADVISE_H_
#define DOCA_MMAP_ADVISE_H_

#include <stddef.h>
#include <stdint.h>

#include "doca_compat.h"
#include "doca_error.h"
#include "doca_types.h"

SOFTDOCA_BEGIN_DECLS

struct doca_buf;
struct doca_ctx;
struct doca_dev;
struct doca_devinfo;
struct doca_task;

struct doca_mmap_advise;
struct doca_mmap_advise_task_invalidate_cache;

typedef void (*doca_mmap_advise_task_invalidate_cache_completion_cb_t)(
        struct doca_mmap_advise_task_invalidate_cache *task, union doca_data task_user_data,
        union doca_data ctx_user_data);

DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_create(struct doca_dev *dev,
                                                       struct doca_mmap_advise **mmap_advise);
DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_destroy(struct doca_mmap_advise *mmap_advise);
DOCA_EXPERIMENTAL struct doca_ctx *doca_mmap_advise_as_ctx(struct doca_mmap_advise *mmap_advise);

/* Device queries. */
DOCA_EXPERIMENTAL doca_error_t
doca_mmap_advise_cap_task_cache_invalidate_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_task_cache_invalidate_get_max_buf_size(
        const struct doca_devinfo *devinfo, uint64_t *buf_size);

/* The task: invalidate the cached lines of one buffer. */
DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_task_invalidate_cache_set_conf(
        struct doca_mmap_advise *mmap_advise,
        doca_mmap_advise_task_invalidate_cache_completion_cb_t completion_cb,
        doca_mmap_advise_task_invalidate_cache_completion_cb_t error_cb, uint32_t num_tasks);
DOCA_EXPERIMENTAL doca_error_t doca_mmap_advise_task_invalidate_cache_alloc_init(
        struct doca_mmap_advise *mmap_advise, struct doca_buf *buf, union doca_data user_data,
        struct doca_mmap_advise_task_invalidate_cache **task);
DOCA_EXPERIMENTAL struct doca_task *doca_mmap_advise_task_invalidate_cache_as_doca_task(
        struct doca_mmap_advise_task_invalidate_cache *task);
DOCA_EXPERIMENTAL void
doca_mmap_advise_task_invalidate_cache_set_buf(struct doca_mmap_advise_task_invalidate_cache *task,
                                               struct doca_buf *buf);
DOCA_EXPERIMENTAL struct doca_buf *doca_mmap_advise_task_invalidate_cache_get_buf(
        const struct doca_mmap_advise_task_invalidate_cache *task);

SOFTDOCA_END_DECLS

#endif /* DOCA_MMAP_ADVISE_H_ */
