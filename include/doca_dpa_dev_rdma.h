/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * DOCA DPA, device side: RDMA posts of a context on the DPA data path
 * (docs/dpa.md 1.5, 2.8). Each post goes through the soft NIC like a host
 * task; its completion lands in the completion context attached with
 * doca_rdma_dpa_completion_attach, user data = the connection id. A bad
 * call is logged, becomes the DPA's last error and posts nothing.
 */
#ifndef DOCA_DPA_DEV_RDMA_H_
#define DOCA_DPA_DEV_RDMA_H_

#include "doca_dpa_dev.h"
#include "doca_dpa_dev_buf.h"
#include "doca_dpa_dev_sync_event.h"

SOFTDOCA_BEGIN_DECLS

__dpa_global__ typedef uint64_t doca_dpa_dev_rdma_t;

DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_read(doca_dpa_dev_rdma_t rdma, uint32_t connection_id,
                                                   doca_dpa_dev_mmap_t dst_mmap, uint64_t dst_addr,
                                                   doca_dpa_dev_mmap_t src_mmap, uint64_t src_addr,
                                                   size_t length, uint32_t flags);
DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_buf_read(doca_dpa_dev_rdma_t rdma,
                                                       uint32_t connection_id,
                                                       doca_dpa_dev_buf_t dst_buf,
                                                       doca_dpa_dev_buf_t src_buf, uint32_t flags);
DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_write(doca_dpa_dev_rdma_t rdma,
                                                    uint32_t connection_id,
                                                    doca_dpa_dev_mmap_t dst_mmap, uint64_t dst_addr,
                                                    doca_dpa_dev_mmap_t src_mmap, uint64_t src_addr,
                                                    size_t length, uint32_t flags);
DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_buf_write(doca_dpa_dev_rdma_t rdma,
                                                        uint32_t connection_id,
                                                        doca_dpa_dev_buf_t dst_buf,
                                                        doca_dpa_dev_buf_t src_buf, uint32_t flags);
DOCA_EXPERIMENTAL void
doca_dpa_dev_rdma_post_write_imm(doca_dpa_dev_rdma_t rdma, uint32_t connection_id,
                                 doca_dpa_dev_mmap_t dst_mmap, uint64_t dst_addr,
                                 doca_dpa_dev_mmap_t src_mmap, uint64_t src_addr, size_t length,
                                 uint32_t immediate, uint32_t flags);
DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_buf_write_imm(doca_dpa_dev_rdma_t rdma,
                                                            uint32_t connection_id,
                                                            doca_dpa_dev_buf_t dst_buf,
                                                            doca_dpa_dev_buf_t src_buf,
                                                            uint32_t immediate, uint32_t flags);
DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_send(doca_dpa_dev_rdma_t rdma, uint32_t connection_id,
                                                   doca_dpa_dev_mmap_t mmap, uint64_t addr,
                                                   size_t length, uint32_t flags);
DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_buf_send(doca_dpa_dev_rdma_t rdma,
                                                       uint32_t connection_id,
                                                       doca_dpa_dev_buf_t buf, uint32_t flags);
DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_send_imm(doca_dpa_dev_rdma_t rdma,
                                                       uint32_t connection_id,
                                                       doca_dpa_dev_mmap_t mmap, uint64_t addr,
                                                       size_t length, uint32_t immediate,
                                                       uint32_t flags);
DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_buf_send_imm(doca_dpa_dev_rdma_t rdma,
                                                           uint32_t connection_id,
                                                           doca_dpa_dev_buf_t buf,
                                                           uint32_t immediate, uint32_t flags);
DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_receive(doca_dpa_dev_rdma_t rdma,
                                                      doca_dpa_dev_mmap_t mmap, uint64_t addr,
                                                      size_t length);
DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_buf_receive(doca_dpa_dev_rdma_t rdma,
                                                          doca_dpa_dev_buf_t buf);
DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_receive_ack(doca_dpa_dev_rdma_t rdma, uint32_t num_acked);
DOCA_EXPERIMENTAL uint32_t
doca_dpa_dev_rdma_completion_get_wr_index(doca_dpa_dev_completion_element_t comp_element);
DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_atomic_fetch_add(doca_dpa_dev_rdma_t rdma,
                                                               uint32_t connection_id,
                                                               doca_dpa_dev_mmap_t dst_mmap,
                                                               uint64_t dst_addr, uint64_t value,
                                                               uint32_t flags);
DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_buf_atomic_fetch_add(doca_dpa_dev_rdma_t rdma,
                                                                   uint32_t connection_id,
                                                                   doca_dpa_dev_buf_t dst_buf,
                                                                   uint64_t value, uint32_t flags);
DOCA_EXPERIMENTAL void
doca_dpa_dev_rdma_signal_set(doca_dpa_dev_rdma_t rdma, uint32_t connection_id,
                             doca_dpa_dev_sync_event_remote_net_t remote_sync_event,
                             uint64_t count);
DOCA_EXPERIMENTAL void
doca_dpa_dev_rdma_signal_add(doca_dpa_dev_rdma_t rdma, uint32_t connection_id,
                             doca_dpa_dev_sync_event_remote_net_t remote_sync_event,
                             uint64_t count);

SOFTDOCA_END_DECLS

#endif /* DOCA_DPA_DEV_RDMA_H_ */
