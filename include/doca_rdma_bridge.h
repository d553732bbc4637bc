/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Bridge between DOCA objects and libibverbs ones (protection domains,
 * memory keys). A softdoca device has no verbs objects behind it: every
 * call answers NOT_SUPPORTED. (The RDMA-CM bridge calls,
 * doca_rdma_bridge_prepare_connection and friends, are in doca_rdma.h.)
 */
#ifndef DOCA_RDMA_BRIDGE_H_
#define DOCA_RDMA_BRIDGE_H_

#include <stdint.h>

/* DOCA's header includes libibverbs' <infiniband/verbs.h> for struct ibv_pd,
 * so programs get everything it brings. Where rdma-core's headers are
 * installed they come the same way; elsewhere the standard headers verbs.h
 * would bring come instead, with struct ibv_pd left opaque.
 * SOFTDOCA_NO_RDMA_CORE_HEADERS chooses the second way. */
#if !defined(SOFTDOCA_NO_RDMA_CORE_HEADERS) && defined(__has_include)
#if __has_include(<infiniband/verbs.h>)
#include <infiniband/verbs.h>
#define SOFTDOCA_HAVE_VERBS_H 1
#endif
#endif
#ifndef SOFTDOCA_HAVE_VERBS_H
#include <errno.h>
#include <linux/types.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>
#endif

#include "doca_compat.h"
#include "doca_error.h"
#include "doca_types.h"

SOFTDOCA_BEGIN_DECLS

#ifndef SOFTDOCA_HAVE_VERBS_H
struct ibv_pd;
#endif

struct doca_buf;
struct doca_dev;
struct doca_mmap;

/* The verbs protection domain of a device, and a device opened from one. */
DOCA_STABLE doca_error_t doca_rdma_bridge_get_dev_pd(const struct doca_dev *dev,
                                                     struct ibv_pd **pd);
DOCA_STABLE doca_error_t doca_rdma_bridge_open_dev_from_pd(struct ibv_pd *pd,
                                                           struct doca_dev **dev);
/* The memory key of a buffer (or an mmap) for verbs work requests. */
DOCA_STABLE doca_error_t doca_rdma_bridge_get_buf_mkey(const struct doca_buf *buf,
                                                       struct doca_dev *dev, uint32_t *mkey);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_bridge_get_mmap_mkey_from_pd(const struct doca_mmap *mmap,
                                                                      struct ibv_pd *pd,
                                                                      uint32_t *mkey);

SOFTDOCA_END_DECLS

#endif /* DOCA_RDMA_BRIDGE_H_ */
