/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * DOCA sync events: a 64-bit value that publishers update and subscribers
 * read or wait on, locally or, after an export, from a remote peer (the
 * doca_rdma remote_net_sync_event tasks). A sync event is also a context
 * with its own tasks (get, notify-set, notify-add, wait-eq, wait-neq).
 *
 * softdoca offers CPU and remote-net (RDMA peer) locations; DPA, GPU and
 * PCI-peer locations and exports answer NOT_SUPPORTED (docs/compatibility.md).
 *
 * SOFTDOCA_API_VERSION=205 adds the DOCA 2.5 names (wait-gt task, "dpu"
 * locations, export_to_* calls) that DOCA 3 renamed or removed.
 */
#ifndef DOCA_SYNC_EVENT_H_
#define DOCA_SYNC_EVENT_H_

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
struct doca_dpa;
struct doca_gpu;
struct doca_task;

struct doca_sync_event;
struct doca_sync_event_remote_net; /* what a peer imports; doca_rdma.h names it too */
struct doca_sync_event_task_get;
struct doca_sync_event_task_notify_set;
struct doca_sync_event_task_notify_add;
struct doca_sync_event_task_wait_eq;
struct doca_sync_event_task_wait_neq;

/* Device-side handles of a sync event (DPA and GPU kernels). */
typedef uint64_t doca_dpa_dev_sync_event_t;
typedef uint64_t doca_dpa_dev_sync_event_remote_net_t;
typedef uint64_t doca_gpu_dev_sync_event_t;
typedef uint64_t doca_gpu_dev_sync_event_remote_net_t;

typedef void (*doca_sync_event_task_get_completion_cb_t)(struct doca_sync_event_task_get *task,
                                                         union doca_data task_user_data,
                                                         union doca_data ctx_user_data);
typedef void (*doca_sync_event_task_notify_set_completion_cb_t)(
        struct doca_sync_event_task_notify_set *task, union doca_data task_user_data,
        union doca_data ctx_user_data);
typedef void (*doca_sync_event_task_notify_add_completion_cb_t)(
        struct doca_sync_event_task_notify_add *task, union doca_data task_user_data,
        union doca_data ctx_user_data);
typedef void (*doca_sync_event_task_wait_eq_completion_cb_t)(
        struct doca_sync_event_task_wait_eq *task, union doca_data task_user_data,
        union doca_data ctx_user_data);
typedef void (*doca_sync_event_task_wait_neq_completion_cb_t)(
        struct doca_sync_event_task_wait_neq *task, union doca_data task_user_data,
        union doca_data ctx_user_data);

/* Life cycle: create (or import), add locations, start; stop, destroy. */
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_create(struct doca_sync_event **event);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_create_from_export(struct doca_dev *dev,
                                                                  const uint8_t *data, size_t sz,
                                                                  struct doca_sync_event **event);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_is_create_from_export_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_remote_net_create_from_export(struct doca_dev *dev, const uint8_t *data, size_t sz,
                                              struct doca_sync_event_remote_net **event);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_remote_net_is_create_from_export_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_destroy(struct doca_sync_event *event);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_remote_net_destroy(struct doca_sync_event_remote_net *event);

/* Who updates the event (publishers) and who reads or waits (subscribers). */
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_publisher_location_cpu(struct doca_sync_event *event, struct doca_dev *dev);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_publisher_location_dpa(struct doca_sync_event *event, struct doca_dpa *dpa);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_publisher_location_gpu(struct doca_sync_event *event, struct doca_gpu *gpu);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_publisher_location_remote_pci(struct doca_sync_event *event);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_publisher_location_remote_net(struct doca_sync_event *event);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_subscriber_location_cpu(struct doca_sync_event *event, struct doca_dev *dev);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_subscriber_location_dpa(struct doca_sync_event *event, struct doca_dpa *dpa);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_subscriber_location_gpu(struct doca_sync_event *event, struct doca_gpu *gpu);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_subscriber_location_remote_pci(struct doca_sync_event *event);

/* Where the 64-bit value lives (default: memory the event allocates). */
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_set_addr(struct doca_sync_event *event,
                                                        uint64_t *addr);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_set_doca_buf(struct doca_sync_event *event,
                                                            struct doca_buf *buf);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_start(struct doca_sync_event *event);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_stop(struct doca_sync_event *event);
DOCA_EXPERIMENTAL struct doca_ctx *doca_sync_event_as_ctx(struct doca_sync_event *event);

/* Task: read the value into *ret_val_ptr. */
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_task_get_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_get_set_conf(
        struct doca_sync_event *event, doca_sync_event_task_get_completion_cb_t completion_cb,
        doca_sync_event_task_get_completion_cb_t error_cb, uint32_t num_tasks);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_get_alloc_init(
        struct doca_sync_event *event, uint64_t *ret_val_ptr, union doca_data user_data,
        struct doca_sync_event_task_get **task);
DOCA_EXPERIMENTAL struct doca_task *
doca_sync_event_task_get_as_doca_task(struct doca_sync_event_task_get *task);
DOCA_EXPERIMENTAL void
doca_sync_event_task_get_set_ret_val_ptr(struct doca_sync_event_task_get *task,
                                         uint64_t *ret_val_ptr);
DOCA_EXPERIMENTAL uint64_t *
doca_sync_event_task_get_get_ret_val_ptr(const struct doca_sync_event_task_get *task);

/* Task: set the value. */
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_task_notify_set_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_notify_set_set_conf(
        struct doca_sync_event *event,
        doca_sync_event_task_notify_set_completion_cb_t completion_cb,
        doca_sync_event_task_notify_set_completion_cb_t error_cb, uint32_t num_tasks);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_notify_set_alloc_init(
        struct doca_sync_event *event, uint64_t set_val, union doca_data user_data,
        struct doca_sync_event_task_notify_set **task);
DOCA_EXPERIMENTAL struct doca_task *
doca_sync_event_task_notify_set_as_doca_task(struct doca_sync_event_task_notify_set *task);
DOCA_EXPERIMENTAL void
doca_sync_event_task_notify_set_set_set_val(struct doca_sync_event_task_notify_set *task,
                                            uint64_t set_val);
DOCA_EXPERIMENTAL uint64_t
doca_sync_event_task_notify_set_get_set_val(const struct doca_sync_event_task_notify_set *task);

/* Task: add to the value, the previous value to *fetched_val_ptr. */
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_task_notify_add_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_notify_add_set_conf(
        struct doca_sync_event *event,
        doca_sync_event_task_notify_add_completion_cb_t completion_cb,
        doca_sync_event_task_notify_add_completion_cb_t error_cb, uint32_t num_tasks);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_notify_add_alloc_init(
        struct doca_sync_event *event, uint64_t inc_val, uint64_t *fetched_val_ptr,
        union doca_data user_data, struct doca_sync_event_task_notify_add **task);
DOCA_EXPERIMENTAL struct doca_task *
doca_sync_event_task_notify_add_as_doca_task(struct doca_sync_event_task_notify_add *task);
DOCA_EXPERIMENTAL void
doca_sync_event_task_notify_add_set_inc_val(struct doca_sync_event_task_notify_add *task,
                                            uint64_t inc_val);
DOCA_EXPERIMENTAL uint64_t
doca_sync_event_task_notify_add_get_inc_val(const struct doca_sync_event_task_notify_add *task);
DOCA_EXPERIMENTAL void
doca_sync_event_task_notify_add_set_fetched_val_ptr(struct doca_sync_event_task_notify_add *task,
                                                    uint64_t *fetched_val_ptr);
DOCA_EXPERIMENTAL uint64_t *doca_sync_event_task_notify_add_get_fetched_val_ptr(
        const struct doca_sync_event_task_notify_add *task);

/* Task: complete when (value & mask) == wait_val. */
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_task_wait_eq_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_wait_eq_set_conf(
        struct doca_sync_event *event, doca_sync_event_task_wait_eq_completion_cb_t completion_cb,
        doca_sync_event_task_wait_eq_completion_cb_t error_cb, uint32_t num_tasks);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_wait_eq_alloc_init(
        struct doca_sync_event *event, uint64_t wait_val, uint64_t mask, union doca_data user_data,
        struct doca_sync_event_task_wait_eq **task);
DOCA_EXPERIMENTAL struct doca_task *
doca_sync_event_task_wait_eq_as_doca_task(struct doca_sync_event_task_wait_eq *task);
DOCA_EXPERIMENTAL void
doca_sync_event_task_wait_eq_set_wait_val(struct doca_sync_event_task_wait_eq *task,
                                          uint64_t wait_val);
DOCA_EXPERIMENTAL uint64_t
doca_sync_event_task_wait_eq_get_wait_val(const struct doca_sync_event_task_wait_eq *task);
DOCA_EXPERIMENTAL void
doca_sync_event_task_wait_eq_set_mask(struct doca_sync_event_task_wait_eq *task, uint64_t mask);
DOCA_EXPERIMENTAL uint64_t
doca_sync_event_task_wait_eq_get_mask(const struct doca_sync_event_task_wait_eq *task);

/* Task: complete when (value & mask) != wait_val. */
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_task_wait_neq_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_wait_neq_set_conf(
        struct doca_sync_event *event, doca_sync_event_task_wait_neq_completion_cb_t completion_cb,
        doca_sync_event_task_wait_neq_completion_cb_t error_cb, uint32_t num_tasks);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_wait_neq_alloc_init(
        struct doca_sync_event *event, uint64_t wait_val, uint64_t mask, union doca_data user_data,
        struct doca_sync_event_task_wait_neq **task);
DOCA_EXPERIMENTAL struct doca_task *
doca_sync_event_task_wait_neq_as_doca_task(struct doca_sync_event_task_wait_neq *task);
DOCA_EXPERIMENTAL void
doca_sync_event_task_wait_neq_set_wait_val(struct doca_sync_event_task_wait_neq *task,
                                           uint64_t wait_val);
DOCA_EXPERIMENTAL uint64_t
doca_sync_event_task_wait_neq_get_wait_val(const struct doca_sync_event_task_wait_neq *task);
DOCA_EXPERIMENTAL void
doca_sync_event_task_wait_neq_set_mask(struct doca_sync_event_task_wait_neq *task, uint64_t mask);
DOCA_EXPERIMENTAL uint64_t
doca_sync_event_task_wait_neq_get_mask(const struct doca_sync_event_task_wait_neq *task);

/* Exports: a blob for a PCI or network peer, handles for DPA and GPU. */
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_export_to_remote_pci(struct doca_sync_event *event,
                                                                    struct doca_dev *dev,
                                                                    const uint8_t **data,
                                                                    size_t *sz);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_is_export_to_remote_pci_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_get_dpa_handle(struct doca_sync_event *event, struct doca_dpa *dpa,
                               doca_dpa_dev_sync_event_t *dpa_dev_se_handle);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_is_export_to_dpa_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_get_gpu_handle(struct doca_sync_event *event, struct doca_gpu *gpu,
                               doca_gpu_dev_sync_event_t **gpu_dev_se);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_is_export_to_gpu_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_export_to_remote_net(struct doca_sync_event *event,
                                                                    const uint8_t **data,
                                                                    size_t *sz);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_is_export_to_remote_net_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_remote_net_get_dpa_handle(
        struct doca_sync_event_remote_net *event, struct doca_dpa *dpa,
        doca_dpa_dev_sync_event_remote_net_t *dpa_remote_event);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_remote_net_is_export_to_dpa_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_remote_net_get_gpu_handle(
        struct doca_sync_event_remote_net *event, struct doca_gpu *gpu,
        doca_gpu_dev_sync_event_remote_net_t *gpu_remote_event);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_remote_net_is_export_to_gpu_supported(const struct doca_devinfo *devinfo);

/* CPU access to the value; a wait spins (or yields) briefly, then sleeps until
 * the condition holds (docs/compatibility.md). */
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_get(struct doca_sync_event *event, uint64_t *value);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_update_add(struct doca_sync_event *event,
                                                          uint64_t value, uint64_t *fetched);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_update_set(struct doca_sync_event *event,
                                                          uint64_t value);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_wait_gt(struct doca_sync_event *event,
                                                       uint64_t value, uint64_t mask);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_wait_gt_yield(struct doca_sync_event *event,
                                                             uint64_t value, uint64_t mask);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_wait_eq(struct doca_sync_event *event,
                                                       uint64_t value, uint64_t mask);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_wait_eq_yield(struct doca_sync_event *event,
                                                             uint64_t value, uint64_t mask);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_wait_neq(struct doca_sync_event *event,
                                                        uint64_t value, uint64_t mask);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_wait_neq_yield(struct doca_sync_event *event,
                                                              uint64_t value, uint64_t mask);

#if SOFTDOCA_API_VERSION < 300
/* DOCA 2.5 names that DOCA 3 renamed (dpu -> remote_pci, export_to_dpa/gpu
 * -> get_*_handle) or removed (the wait-gt task). */
struct doca_sync_event_task_wait_gt;

typedef void (*doca_sync_event_task_wait_gt_completion_cb_t)(
        struct doca_sync_event_task_wait_gt *task, union doca_data task_user_data,
        union doca_data ctx_user_data);

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_publisher_location_dpu(struct doca_sync_event *event);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_subscriber_location_dpu(struct doca_sync_event *event);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_task_wait_gt_is_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_wait_gt_set_conf(
        struct doca_sync_event *event, doca_sync_event_task_wait_gt_completion_cb_t completion_cb,
        doca_sync_event_task_wait_gt_completion_cb_t error_cb, uint32_t num_tasks);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_task_wait_gt_alloc_init(
        struct doca_sync_event *event, uint64_t wait_val, uint64_t mask, union doca_data user_data,
        struct doca_sync_event_task_wait_gt **task);
DOCA_EXPERIMENTAL struct doca_task *
doca_sync_event_task_wait_gt_as_doca_task(struct doca_sync_event_task_wait_gt *task);
DOCA_EXPERIMENTAL void
doca_sync_event_task_wait_gt_set_wait_val(struct doca_sync_event_task_wait_gt *task,
                                          uint64_t wait_val);
DOCA_EXPERIMENTAL uint64_t
doca_sync_event_task_wait_gt_get_wait_val(const struct doca_sync_event_task_wait_gt *task);
DOCA_EXPERIMENTAL void
doca_sync_event_task_wait_gt_set_mask(struct doca_sync_event_task_wait_gt *task, uint64_t mask);
DOCA_EXPERIMENTAL uint64_t
doca_sync_event_task_wait_gt_get_mask(const struct doca_sync_event_task_wait_gt *task);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_export_to_dpu(struct doca_sync_event *event,
                                                             struct doca_dev *dev,
                                                             const uint8_t **data, size_t *sz);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_is_export_to_dpu_supported(const struct doca_devinfo *devinfo);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_export_to_dpa(struct doca_sync_event *event, struct doca_dpa *dpa,
                              doca_dpa_dev_sync_event_t *dpa_dev_se_handle);
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_export_to_gpu(struct doca_sync_event *event, struct doca_gpu *gpu,
                              doca_gpu_dev_sync_event_t **gpu_dev_se);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_remote_net_export_to_dpa(
        struct doca_sync_event_remote_net *event, struct doca_dpa *dpa,
        doca_dpa_dev_sync_event_remote_net_t *dpa_remote_event);
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_remote_net_export_to_gpu(
        struct doca_sync_event_remote_net *event, struct doca_gpu *gpu,
        doca_gpu_dev_sync_event_remote_net_t *gpu_remote_event);
#endif

SOFTDOCA_END_DECLS

#endif /* DOCA_SYNC_EVENT_H_ */
