/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Device-opening helpers, linked into every program of this directory as
 * DOCA's samples link their samples/common.c: one opener per way a user names
 * a device (IB device name, PCI address, interface name, SF index) and one
 * for representors. The programs use the IB device name (-d); the other
 * openers are here because a real program carries them, so each program
 * needs every DOCA Core symbol they reference.
 */
#ifndef DROPIN_COMMON_H_
#define DROPIN_COMMON_H_

#include <doca_dev.h>
#include <doca_error.h>

/* Whether a device can run what the program needs; NULL accepts any. */
typedef doca_error_t (*device_check)(const struct doca_devinfo *devinfo);

/* Each opener opens the first matching device that passes `check` and
 * returns NOT_FOUND when there is none. */
doca_error_t open_device_by_ibdev_name(const char *name, device_check check, struct doca_dev **dev);
doca_error_t open_device_by_pci_addr(const char *pci_addr, device_check check,
                                     struct doca_dev **dev);
doca_error_t open_device_by_iface_name(const char *iface_name, device_check check,
                                       struct doca_dev **dev);
doca_error_t open_device_by_sf_index(uint32_t sf_index, device_check check, struct doca_dev **dev);

/* A representor of `local` (an eswitch manager) with the given PCI address. */
doca_error_t open_representor_by_pci_addr(struct doca_dev *local,
                                          enum doca_devinfo_rep_filter filter, const char *pci_addr,
                                          struct doca_dev_rep **rep);

#endif /* DROPIN_COMMON_H_ */
