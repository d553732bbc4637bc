/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Devices. softdoca offers one device per usable network interface of the
 * machine, named like an RDMA device ("sdoca_<ifname>" unless an alias is
 * configured in SOFTDOCA_DEVICES, e.g. "mlx5_0=lo").
 */
#ifndef DOCA_DEV_H_
#define DOCA_DEV_H_

#include <stdint.h>

#include "doca_compat.h"
#include "doca_error.h"
#include "doca_types.h"

SOFTDOCA_BEGIN_DECLS

struct doca_devinfo;
struct doca_devinfo_rep;
struct doca_dev;
struct doca_dev_rep;

enum doca_devinfo_rep_filter {
	DOCA_DEVINFO_REP_FILTER_ALL = 0,
	DOCA_DEVINFO_REP_FILTER_NET = 1 << 1,
	DOCA_DEVINFO_REP_FILTER_EMULATED = 1 << 2,
};

#define DOCA_DEVINFO_VUID_SIZE 128
#define DOCA_DEVINFO_IPV4_ADDR_SIZE 4
#define DOCA_DEVINFO_IPV6_ADDR_SIZE 16
#define DOCA_DEVINFO_MAC_ADDR_SIZE 6
#define DOCA_DEVINFO_IFACE_NAME_SIZE 256
#define DOCA_DEVINFO_IBDEV_NAME_SIZE 64
#define DOCA_DEVINFO_PCI_ADDR_SIZE 13
#define DOCA_DEVINFO_PCI_BDF_SIZE 8
#define DOCA_DEVINFO_REP_VUID_SIZE 128
#define DOCA_DEVINFO_REP_PCI_ADDR_SIZE 13
#define DOCA_DEVINFO_REP_PCI_BDF_SIZE 8

#if SOFTDOCA_API_VERSION >= 205
/* The list of devices; destroy it with doca_devinfo_destroy_list(). */
DOCA_STABLE doca_error_t doca_devinfo_create_list(struct doca_devinfo ***dev_list,
                                                  uint32_t *nb_devs);
DOCA_STABLE doca_error_t doca_devinfo_destroy_list(struct doca_devinfo **dev_list);

/* softdoca devices have no representors: NOT_SUPPORTED. */
DOCA_STABLE doca_error_t doca_devinfo_rep_create_list(struct doca_dev *dev, int filter,
                                                      struct doca_devinfo_rep ***dev_list_rep,
                                                      uint32_t *nb_devs_rep);
DOCA_STABLE doca_error_t doca_devinfo_rep_destroy_list(struct doca_devinfo_rep **dev_list_rep);
#else
/* DOCA 2.2 names of the device and representor lists. */
DOCA_EXPERIMENTAL doca_error_t doca_devinfo_list_create(struct doca_devinfo ***dev_list,
                                                        uint32_t *nb_devs);
DOCA_EXPERIMENTAL doca_error_t doca_devinfo_list_destroy(struct doca_devinfo **dev_list);
DOCA_EXPERIMENTAL doca_error_t doca_devinfo_rep_list_create(struct doca_dev *dev, int filter,
                                                            struct doca_devinfo_rep ***dev_list_rep,
                                                            uint32_t *nb_devs_rep);
DOCA_EXPERIMENTAL doca_error_t
doca_devinfo_rep_list_destroy(struct doca_devinfo_rep **dev_list_rep);
#endif

DOCA_STABLE doca_error_t doca_dev_open(struct doca_devinfo *devinfo, struct doca_dev **dev);
DOCA_STABLE doca_error_t doca_dev_close(struct doca_dev *dev);
#if SOFTDOCA_API_VERSION >= 205
DOCA_EXPERIMENTAL doca_error_t doca_dev_accelerate_resource_reclaim(struct doca_dev *dev);
#endif
DOCA_STABLE doca_error_t doca_dev_rep_open(struct doca_devinfo_rep *devinfo,
                                           struct doca_dev_rep **dev_rep);
DOCA_STABLE doca_error_t doca_dev_rep_close(struct doca_dev_rep *dev);
DOCA_STABLE struct doca_devinfo *doca_dev_as_devinfo(const struct doca_dev *dev);
DOCA_STABLE struct doca_devinfo_rep *doca_dev_rep_as_devinfo(struct doca_dev_rep *dev_rep);

DOCA_STABLE doca_error_t doca_devinfo_get_pci_addr_str(const struct doca_devinfo *devinfo,
                                                       char *pci_addr_str);
#if SOFTDOCA_API_VERSION >= 205
DOCA_STABLE doca_error_t doca_devinfo_is_equal_pci_addr(const struct doca_devinfo *devinfo,
                                                        const char *pci_addr_str,
                                                        uint8_t *is_equal);
#else
DOCA_EXPERIMENTAL doca_error_t doca_devinfo_get_is_pci_addr_equal(
        const struct doca_devinfo *devinfo, const char *pci_addr_str, uint8_t *is_equal);
#endif
DOCA_STABLE doca_error_t doca_devinfo_get_ipv4_addr(const struct doca_devinfo *devinfo,
                                                    uint8_t *ipv4_addr, uint32_t size);
DOCA_STABLE doca_error_t doca_devinfo_get_ipv6_addr(const struct doca_devinfo *devinfo,
                                                    uint8_t *ipv6_addr, uint32_t size);
DOCA_STABLE doca_error_t doca_devinfo_get_mac_addr(const struct doca_devinfo *devinfo,
                                                   uint8_t *mac_addr, uint32_t size);
DOCA_STABLE doca_error_t doca_devinfo_get_iface_name(const struct doca_devinfo *devinfo,
                                                     char *iface_name, uint32_t size);
DOCA_STABLE doca_error_t doca_devinfo_get_ibdev_name(const struct doca_devinfo *devinfo,
                                                     char *ibdev_name, uint32_t size);
DOCA_STABLE doca_error_t doca_devinfo_get_lid(const struct doca_devinfo *devinfo, uint16_t *lid);
#if SOFTDOCA_API_VERSION >= 205
DOCA_EXPERIMENTAL doca_error_t doca_devinfo_get_active_rate(const struct doca_devinfo *devinfo,
                                                            uint64_t *active_rate);
DOCA_EXPERIMENTAL doca_error_t doca_devinfo_get_vhca_id(const struct doca_devinfo *devinfo,
                                                        uint16_t *vhca_id);
#endif
#if SOFTDOCA_API_VERSION >= 300
/* DOCA 3.1+: which PCI function the device is (a softdoca device is a PF),
 * its sub-function index (SFs only) and its network interface's index. */
DOCA_EXPERIMENTAL doca_error_t doca_devinfo_get_pci_func_type(
        const struct doca_devinfo *devinfo, enum doca_pci_func_type *pci_func_type);
DOCA_EXPERIMENTAL doca_error_t doca_devinfo_get_sf_index(const struct doca_devinfo *devinfo,
                                                         uint32_t *sf_index);
DOCA_EXPERIMENTAL doca_error_t doca_devinfo_get_iface_index(const struct doca_devinfo *devinfo,
                                                            uint32_t *iface_index);
#endif
#if SOFTDOCA_API_VERSION >= 205
DOCA_STABLE doca_error_t doca_devinfo_cap_is_hotplug_manager_supported(
        const struct doca_devinfo *devinfo, uint8_t *is_hotplug_manager);
DOCA_EXPERIMENTAL doca_error_t doca_devinfo_cap_is_notification_moderation_supported(
        const struct doca_devinfo *devinfo, uint8_t *is_notification_moderation_supported);
DOCA_STABLE doca_error_t doca_devinfo_rep_cap_is_filter_all_supported(
        const struct doca_devinfo *devinfo, uint8_t *filter_all_supported);
DOCA_STABLE doca_error_t doca_devinfo_rep_cap_is_filter_net_supported(
        const struct doca_devinfo *devinfo, uint8_t *filter_net_supported);
DOCA_STABLE doca_error_t doca_devinfo_rep_cap_is_filter_emulated_supported(
        const struct doca_devinfo *devinfo, uint8_t *filter_emulated_supported);
DOCA_EXPERIMENTAL doca_error_t doca_devinfo_cap_is_accelerate_resource_reclaim_supported(
        const struct doca_devinfo *devinfo, uint8_t *is_accelerate_resource_reclaim);
#else
/* DOCA 2.2 names of the capability queries. */
DOCA_EXPERIMENTAL doca_error_t doca_devinfo_get_is_hotplug_manager_supported(
        const struct doca_devinfo *devinfo, uint8_t *is_hotplug_manager);
DOCA_EXPERIMENTAL doca_error_t doca_devinfo_get_is_mmap_export_dpu_supported(
        const struct doca_devinfo *devinfo, uint8_t *mmap_export);
DOCA_EXPERIMENTAL doca_error_t doca_devinfo_get_is_mmap_from_export_dpu_supported(
        const struct doca_devinfo *devinfo, uint8_t *from_export);
DOCA_EXPERIMENTAL doca_error_t doca_devinfo_rep_get_is_list_all_supported(
        const struct doca_devinfo *devinfo, uint8_t *all_supported);
DOCA_EXPERIMENTAL doca_error_t doca_devinfo_rep_get_is_list_net_supported(
        const struct doca_devinfo *devinfo, uint8_t *net_supported);
DOCA_EXPERIMENTAL doca_error_t doca_devinfo_rep_get_is_list_emulated_supported(
        const struct doca_devinfo *devinfo, uint8_t *emulated_supported);
#endif

DOCA_STABLE doca_error_t doca_devinfo_rep_get_vuid(const struct doca_devinfo_rep *devinfo_rep,
                                                   char *rep_vuid, uint32_t size);
DOCA_STABLE doca_error_t
doca_devinfo_rep_get_pci_addr_str(const struct doca_devinfo_rep *devinfo_rep, char *pci_addr_str);
DOCA_STABLE doca_error_t doca_devinfo_rep_get_pci_func_type(
        const struct doca_devinfo_rep *devinfo_rep, enum doca_pci_func_type *pci_func_type);
#if SOFTDOCA_API_VERSION >= 205
DOCA_STABLE doca_error_t doca_devinfo_rep_get_is_hotplug(const struct doca_devinfo_rep *devinfo_rep,
                                                         uint8_t *is_hotplug);
#if SOFTDOCA_API_VERSION >= 300
DOCA_EXPERIMENTAL doca_error_t
doca_devinfo_rep_get_sf_index(const struct doca_devinfo_rep *devinfo_rep, uint32_t *sf_index);
#endif
DOCA_EXPERIMENTAL doca_error_t doca_devinfo_rep_get_iface_name(
        const struct doca_devinfo_rep *devinfo_rep, char *iface_name, uint32_t size);
DOCA_EXPERIMENTAL doca_error_t
doca_devinfo_rep_get_vhca_id(const struct doca_devinfo_rep *devinfo_rep, uint16_t *vhca_id);
DOCA_STABLE doca_error_t doca_devinfo_rep_is_equal_pci_addr(
        const struct doca_devinfo_rep *devinfo_rep, const char *pci_addr_str, uint8_t *is_equal);
#else
DOCA_EXPERIMENTAL doca_error_t doca_devinfo_rep_get_is_pci_addr_equal(
        const struct doca_devinfo_rep *devinfo_rep, const char *pci_addr_str, uint8_t *is_equal);
#endif

SOFTDOCA_END_DECLS

#endif /* DOCA_DEV_H_ */
