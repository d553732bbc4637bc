/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * doca_sync_event. Sync events are not built yet (they come with the
 * sync-event work): no event can be created or imported, so every call on
 * one answers NOT_SUPPORTED, the capability queries say the device cannot,
 * and the getters of objects that cannot exist return NULL or 0.
 *
 * The task forms are in sync_event_task.c. This file sees the DOCA 2.5 view
 * of the header: it declares every DOCA 3
 * function too (none changed its signature, only names were added or
 * renamed) plus the 2.5 names, so one file defines both generations against
 * the header's own prototypes.
 */
#define SOFTDOCA_API_VERSION 205

#include <stddef.h>

#include <doca_sync_event.h>

#include "core/sdk_log.h"
#include "core/sync_event.h"

SDOCA_LOG_MODULE(sync_event);

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_create(struct doca_sync_event **event)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_create_from_export(struct doca_dev *dev,
                                                                  const uint8_t *data, size_t sz,
                                                                  struct doca_sync_event **event)
{
	(void)sz;
	SDOCA_CHECK_ARG(dev);
	SDOCA_CHECK_ARG(data);
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_is_create_from_export_supported(const struct doca_devinfo *devinfo)
{
	SDOCA_CHECK_ARG(devinfo);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_remote_net_create_from_export(struct doca_dev *dev, const uint8_t *data, size_t sz,
                                              struct doca_sync_event_remote_net **event)
{
	(void)sz;
	SDOCA_CHECK_ARG(dev);
	SDOCA_CHECK_ARG(data);
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_remote_net_is_create_from_export_supported(const struct doca_devinfo *devinfo)
{
	SDOCA_CHECK_ARG(devinfo);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_destroy(struct doca_sync_event *event)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_remote_net_destroy(struct doca_sync_event_remote_net *event)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_publisher_location_cpu(struct doca_sync_event *event, struct doca_dev *dev)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(dev);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_publisher_location_dpa(struct doca_sync_event *event, struct doca_dpa *dpa)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(dpa);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_publisher_location_gpu(struct doca_sync_event *event, struct doca_gpu *gpu)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(gpu);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_publisher_location_remote_pci(struct doca_sync_event *event)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_publisher_location_remote_net(struct doca_sync_event *event)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_subscriber_location_cpu(struct doca_sync_event *event, struct doca_dev *dev)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(dev);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_subscriber_location_dpa(struct doca_sync_event *event, struct doca_dpa *dpa)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(dpa);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_subscriber_location_gpu(struct doca_sync_event *event, struct doca_gpu *gpu)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(gpu);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_subscriber_location_remote_pci(struct doca_sync_event *event)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_set_addr(struct doca_sync_event *event,
                                                        uint64_t *addr)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(addr);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_set_doca_buf(struct doca_sync_event *event,
                                                            struct doca_buf *buf)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(buf);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_start(struct doca_sync_event *event)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_stop(struct doca_sync_event *event)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL struct doca_ctx *doca_sync_event_as_ctx(struct doca_sync_event *event)
{
	(void)event;
	UNREACHABLE_OBJECT();
	return NULL;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_export_to_remote_pci(struct doca_sync_event *event,
                                                                    struct doca_dev *dev,
                                                                    const uint8_t **data,
                                                                    size_t *sz)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(dev);
	SDOCA_CHECK_ARG(data);
	SDOCA_CHECK_ARG(sz);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_is_export_to_remote_pci_supported(const struct doca_devinfo *devinfo)
{
	SDOCA_CHECK_ARG(devinfo);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_get_dpa_handle(struct doca_sync_event *event, struct doca_dpa *dpa,
                               doca_dpa_dev_sync_event_t *dpa_dev_se_handle)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(dpa_dev_se_handle);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_is_export_to_dpa_supported(const struct doca_devinfo *devinfo)
{
	SDOCA_CHECK_ARG(devinfo);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_get_gpu_handle(
        struct doca_sync_event *event, struct doca_gpu *gpu, doca_gpu_dev_sync_event_t **gpu_dev_se)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(gpu);
	SDOCA_CHECK_ARG(gpu_dev_se);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_is_export_to_gpu_supported(const struct doca_devinfo *devinfo)
{
	SDOCA_CHECK_ARG(devinfo);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_export_to_remote_net(struct doca_sync_event *event,
                                                                    const uint8_t **data,
                                                                    size_t *sz)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(data);
	SDOCA_CHECK_ARG(sz);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_is_export_to_remote_net_supported(const struct doca_devinfo *devinfo)
{
	SDOCA_CHECK_ARG(devinfo);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_remote_net_get_dpa_handle(
        struct doca_sync_event_remote_net *event, struct doca_dpa *dpa,
        doca_dpa_dev_sync_event_remote_net_t *dpa_remote_event)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(dpa_remote_event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_remote_net_is_export_to_dpa_supported(const struct doca_devinfo *devinfo)
{
	SDOCA_CHECK_ARG(devinfo);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_remote_net_get_gpu_handle(
        struct doca_sync_event_remote_net *event, struct doca_gpu *gpu,
        doca_gpu_dev_sync_event_remote_net_t *gpu_remote_event)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(gpu);
	SDOCA_CHECK_ARG(gpu_remote_event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_remote_net_is_export_to_gpu_supported(const struct doca_devinfo *devinfo)
{
	SDOCA_CHECK_ARG(devinfo);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_get(struct doca_sync_event *event, uint64_t *value)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(value);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_update_add(struct doca_sync_event *event,
                                                          uint64_t value, uint64_t *fetched)
{
	(void)value;
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(fetched);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_update_set(struct doca_sync_event *event,
                                                          uint64_t value)
{
	(void)value;
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_wait_gt(struct doca_sync_event *event,
                                                       uint64_t value, uint64_t mask)
{
	(void)value;
	(void)mask;
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_wait_gt_yield(struct doca_sync_event *event,
                                                             uint64_t value, uint64_t mask)
{
	(void)value;
	(void)mask;
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_wait_eq(struct doca_sync_event *event,
                                                       uint64_t value, uint64_t mask)
{
	(void)value;
	(void)mask;
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_wait_eq_yield(struct doca_sync_event *event,
                                                             uint64_t value, uint64_t mask)
{
	(void)value;
	(void)mask;
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_wait_neq(struct doca_sync_event *event,
                                                        uint64_t value, uint64_t mask)
{
	(void)value;
	(void)mask;
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_wait_neq_yield(struct doca_sync_event *event,
                                                              uint64_t value, uint64_t mask)
{
	(void)value;
	(void)mask;
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

/* DOCA 2.5 names (declared for SOFTDOCA_API_VERSION below 300). */

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_publisher_location_dpu(struct doca_sync_event *event)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_subscriber_location_dpu(struct doca_sync_event *event)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_export_to_dpu(struct doca_sync_event *event,
                                                             struct doca_dev *dev,
                                                             const uint8_t **data, size_t *sz)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(dev);
	SDOCA_CHECK_ARG(data);
	SDOCA_CHECK_ARG(sz);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_is_export_to_dpu_supported(const struct doca_devinfo *devinfo)
{
	SDOCA_CHECK_ARG(devinfo);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_export_to_dpa(struct doca_sync_event *event, struct doca_dpa *dpa,
                              doca_dpa_dev_sync_event_t *dpa_dev_se_handle)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(dpa_dev_se_handle);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_export_to_gpu(struct doca_sync_event *event,
                                                             struct doca_gpu *gpu,
                                                             doca_gpu_dev_sync_event_t **gpu_dev_se)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(gpu);
	SDOCA_CHECK_ARG(gpu_dev_se);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_remote_net_export_to_dpa(
        struct doca_sync_event_remote_net *event, struct doca_dpa *dpa,
        doca_dpa_dev_sync_event_remote_net_t *dpa_remote_event)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(dpa);
	SDOCA_CHECK_ARG(dpa_remote_event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_remote_net_export_to_gpu(
        struct doca_sync_event_remote_net *event, struct doca_gpu *gpu,
        doca_gpu_dev_sync_event_remote_net_t *gpu_remote_event)
{
	SDOCA_CHECK_ARG(event);
	SDOCA_CHECK_ARG(gpu);
	SDOCA_CHECK_ARG(gpu_remote_event);
	SDOCA_NOT_SUPPORTED(NO_SYNC_EVENT);
}
