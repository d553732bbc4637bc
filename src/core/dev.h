/*
 * Devices: one per usable network interface.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SDOCA_CORE_DEV_H_
#define SDOCA_CORE_DEV_H_

#include <stdatomic.h>
#include <sys/queue.h>
#include <stdbool.h>
#include <stdint.h>

#include <doca_dev.h>

#include "core/compiler.h"

#define SDOCA_DEV_MAX_ADDRS 16
#define SDOCA_DEV_MAX_GIDS (2 * SDOCA_DEV_MAX_ADDRS)

struct sdoca_gid {
	uint8_t raw[DOCA_GID_BYTE_LENGTH];
};

/* What an interface looks like to DOCA; copied into every doca_dev so it
 * stays valid after the device list is destroyed. */
struct doca_devinfo {
	char ibdev_name[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	char iface_name[DOCA_DEVINFO_IFACE_NAME_SIZE];
	unsigned int ifindex;
	bool loopback;
	bool has_mac;
	uint8_t mac[DOCA_DEVINFO_MAC_ADDR_SIZE];
	uint32_t mtu;
	int64_t speed_mbps; /* < 0 when the link speed is unknown */
	char pci_addr[DOCA_DEVINFO_PCI_ADDR_SIZE];
	bool pci_is_real; /* false: synthetic "ffff:BB:00.0" for virtual interfaces */
	uint32_t num_ipv4;
	uint8_t ipv4[SDOCA_DEV_MAX_ADDRS][DOCA_DEVINFO_IPV4_ADDR_SIZE];
	uint32_t num_ipv6;
	uint8_t ipv6[SDOCA_DEV_MAX_ADDRS][DOCA_DEVINFO_IPV6_ADDR_SIZE];
	uint32_t num_gids; /* IPv4-mapped addresses first, then IPv6 */
	struct sdoca_gid gids[SDOCA_DEV_MAX_GIDS];
};

struct doca_dev {
	struct doca_devinfo info;
	unsigned int opens;        /* doca_dev_open() calls not yet closed */
	_Atomic int users;         /* mmaps and contexts that refer to the device */
	LIST_ENTRY(doca_dev) link; /* in the open devices */
};

/* Objects that keep a device pointer take a use so the last close fails
 * with IN_USE instead of leaving them dangling. */
SDOCA_EXPORT void sdoca_dev_get(struct doca_dev *dev);
SDOCA_EXPORT void sdoca_dev_put(struct doca_dev *dev);

#endif /* SDOCA_CORE_DEV_H_ */
