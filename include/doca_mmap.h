/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Memory maps: a registered memory range with permissions. A started mmap
 * can be exported for RDMA; the peer turns the blob into a remote mmap with
 * doca_mmap_create_from_export().
 */
#ifndef DOCA_MMAP_H_
#define DOCA_MMAP_H_

#include <stddef.h>
#include <stdint.h>

#include "doca_compat.h"
#include "doca_error.h"
#include "doca_types.h"

SOFTDOCA_BEGIN_DECLS

struct doca_mmap;
struct doca_dev;
struct doca_devinfo;

typedef uint32_t doca_dpa_dev_mmap_t;

/* Called by doca_mmap_destroy() to release the memory range. */
typedef void(doca_mmap_memrange_free_cb_t)(void *addr, size_t len, void *cookie);

#if SOFTDOCA_API_VERSION >= 205
DOCA_STABLE doca_error_t doca_mmap_create(struct doca_mmap **mmap);
#else
/* DOCA 2.2: the user data is given at creation. */
DOCA_EXPERIMENTAL doca_error_t doca_mmap_create(const union doca_data *user_data,
                                                struct doca_mmap **mmap)
        SOFTDOCA_SYMBOL(202, doca_mmap_create);
#endif
DOCA_STABLE doca_error_t doca_mmap_destroy(struct doca_mmap *mmap);
DOCA_STABLE doca_error_t doca_mmap_start(struct doca_mmap *mmap);
DOCA_STABLE doca_error_t doca_mmap_stop(struct doca_mmap *mmap);
#if SOFTDOCA_API_VERSION >= 205
DOCA_STABLE doca_error_t doca_mmap_add_dev(struct doca_mmap *mmap, struct doca_dev *dev);
DOCA_STABLE doca_error_t doca_mmap_rm_dev(struct doca_mmap *mmap, struct doca_dev *dev);
DOCA_STABLE doca_error_t doca_mmap_export_pci(struct doca_mmap *mmap, const struct doca_dev *dev,
                                              const void **export_desc, size_t *export_desc_len);
#else
/* DOCA 2.2 names of add_dev, rm_dev and export_pci. */
DOCA_EXPERIMENTAL doca_error_t doca_mmap_dev_add(struct doca_mmap *mmap, struct doca_dev *dev);
DOCA_EXPERIMENTAL doca_error_t doca_mmap_dev_rm(struct doca_mmap *mmap, struct doca_dev *dev);
DOCA_EXPERIMENTAL doca_error_t doca_mmap_export_dpu(struct doca_mmap *mmap,
                                                    const struct doca_dev *dev,
                                                    const void **export_desc,
                                                    size_t *export_desc_len);
#endif
DOCA_STABLE doca_error_t doca_mmap_export_rdma(struct doca_mmap *mmap, const struct doca_dev *dev,
                                               const void **export_desc, size_t *export_desc_len);
#if SOFTDOCA_API_VERSION >= 205
DOCA_EXPERIMENTAL doca_error_t doca_mmap_dev_get_dpa_handle(struct doca_mmap *mmap,
                                                            const struct doca_dev *dev,
                                                            doca_dpa_dev_mmap_t *dpa_mmap_handle);
#endif
DOCA_STABLE doca_error_t doca_mmap_create_from_export(const union doca_data *user_data,
                                                      const void *export_desc,
                                                      size_t export_desc_len, struct doca_dev *dev,
                                                      struct doca_mmap **mmap);
DOCA_STABLE doca_error_t doca_mmap_set_memrange(struct doca_mmap *mmap, void *addr, size_t len);
#if SOFTDOCA_API_VERSION >= 205
DOCA_STABLE doca_error_t doca_mmap_set_dmabuf_memrange(struct doca_mmap *mmap, int dmabuf_fd,
                                                       void *addr, size_t dmabuf_offset,
                                                       size_t len);
DOCA_EXPERIMENTAL doca_error_t doca_mmap_set_dpa_memrange(struct doca_mmap *mmap,
                                                          struct doca_dpa *dpa, uint64_t dpa_addr,
                                                          size_t len);
#else
/* DOCA 2.2: no address of the mapping. */
DOCA_EXPERIMENTAL doca_error_t doca_mmap_set_dmabuf_memrange(struct doca_mmap *mmap, int dmabuf_fd,
                                                             size_t offset, size_t len)
        SOFTDOCA_SYMBOL(202, doca_mmap_set_dmabuf_memrange);
#endif
DOCA_STABLE doca_error_t doca_mmap_get_memrange(const struct doca_mmap *mmap, void **addr,
                                                size_t *len);
DOCA_STABLE doca_error_t doca_mmap_set_free_cb(struct doca_mmap *mmap,
                                               doca_mmap_memrange_free_cb_t *free_cb, void *opaque);
DOCA_STABLE doca_error_t doca_mmap_get_user_data(const struct doca_mmap *mmap,
                                                 union doca_data *user_data);
DOCA_STABLE doca_error_t doca_mmap_get_max_num_devices(const struct doca_mmap *mmap,
                                                       uint32_t *max_num_devices);
DOCA_STABLE doca_error_t doca_mmap_get_num_bufs(const struct doca_mmap *mmap, uint32_t *num_bufs);
#if SOFTDOCA_API_VERSION >= 300
/* DOCA 3.2+: the memory key the mmap has on dev (host byte order). */
DOCA_EXPERIMENTAL doca_error_t doca_mmap_get_mkey(struct doca_mmap *mmap, struct doca_dev *dev,
                                                  uint32_t *mkey);
#endif
DOCA_STABLE doca_error_t doca_mmap_get_exported(const struct doca_mmap *mmap, uint8_t *exported);
DOCA_STABLE doca_error_t doca_mmap_get_from_export(const struct doca_mmap *mmap,
                                                   uint8_t *from_export);
DOCA_STABLE doca_error_t doca_mmap_set_max_num_devices(struct doca_mmap *mmap,
                                                       uint32_t max_num_devices);
DOCA_STABLE doca_error_t doca_mmap_set_permissions(struct doca_mmap *mmap, uint32_t access_mask);
#if SOFTDOCA_API_VERSION >= 205
DOCA_STABLE doca_error_t doca_mmap_set_user_data(struct doca_mmap *mmap, union doca_data user_data);
DOCA_STABLE doca_error_t doca_mmap_cap_is_export_pci_supported(const struct doca_devinfo *devinfo,
                                                               uint8_t *mmap_export);
DOCA_STABLE doca_error_t doca_mmap_cap_is_create_from_export_pci_supported(
        const struct doca_devinfo *devinfo, uint8_t *from_export);
DOCA_EXPERIMENTAL doca_error_t doca_mmap_enable_thread_safety(struct doca_mmap *mmap);
#endif

SOFTDOCA_END_DECLS

#endif /* DOCA_MMAP_H_ */
