/*
 * Devices from the machine's network interfaces.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Every interface that is up and has an IP address becomes a device named
 * "sdoca_<ifname>", in interface-index order. SOFTDOCA_DEVICES picks the
 * interfaces and their names instead: "lo,eth0" or "mlx5_0=lo,mlx5_1=eth0".
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <ifaddrs.h>
#include <limits.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/dev.h"
#include "core/faults.h"
#include "core/sdk_log.h"

SDOCA_LOG_MODULE(dev);

#define DEV_NAME_PREFIX "sdoca_"

struct scan {
	struct doca_devinfo *infos;
	size_t count;
	size_t cap;
};

static struct {
	pthread_mutex_t lock;
	LIST_HEAD(, doca_dev) open_devs;
} devices = { .lock = PTHREAD_MUTEX_INITIALIZER };

static struct doca_devinfo *scan_find_or_add(struct scan *scan, const char *name)
{
	char base[IF_NAMESIZE];
	const char *colon = strchr(name, ':'); /* "eth0:1" is an address label of eth0 */
	size_t len = colon ? (size_t)(colon - name) : strlen(name);

	if (len == 0 || len >= sizeof(base))
		return NULL;
	memcpy(base, name, len);
	base[len] = '\0';
	for (size_t i = 0; i < scan->count; i++)
		if (strcmp(scan->infos[i].iface_name, base) == 0)
			return &scan->infos[i];
	if (scan->count == scan->cap) {
		size_t cap = scan->cap ? scan->cap * 2 : 8;
		struct doca_devinfo *grown = realloc(scan->infos, cap * sizeof(*grown));

		if (!grown)
			return NULL;
		scan->infos = grown;
		scan->cap = cap;
	}
	struct doca_devinfo *info = &scan->infos[scan->count++];

	memset(info, 0, sizeof(*info));
	snprintf(info->iface_name, sizeof(info->iface_name), "%s", base);
	info->speed_mbps = -1;
	return info;
}

static void scan_address(struct doca_devinfo *info, const struct ifaddrs *ifa)
{
	switch (ifa->ifa_addr->sa_family) {
	case AF_INET:
		if (info->num_ipv4 < SDOCA_DEV_MAX_ADDRS)
			memcpy(info->ipv4[info->num_ipv4++],
			       &((const struct sockaddr_in *)(const void *)ifa->ifa_addr)->sin_addr,
			       DOCA_DEVINFO_IPV4_ADDR_SIZE);
		break;
	case AF_INET6:
		if (info->num_ipv6 < SDOCA_DEV_MAX_ADDRS)
			memcpy(info->ipv6[info->num_ipv6++],
			       &((const struct sockaddr_in6 *)(const void *)ifa->ifa_addr)
			                ->sin6_addr,
			       DOCA_DEVINFO_IPV6_ADDR_SIZE);
		break;
	case AF_PACKET: {
		const struct sockaddr_ll *ll =
		        (const struct sockaddr_ll *)(const void *)ifa->ifa_addr;

		info->ifindex = (unsigned int)ll->sll_ifindex;
		if (ll->sll_halen == DOCA_DEVINFO_MAC_ADDR_SIZE) {
			memcpy(info->mac, ll->sll_addr, DOCA_DEVINFO_MAC_ADDR_SIZE);
			info->has_mac = true;
		}
		break;
	}
	default:
		break;
	}
}

static doca_error_t scan_interfaces(struct scan *scan)
{
	struct ifaddrs *list;

	if (getifaddrs(&list) != 0)
		return sdoca_fail(DOCA_ERROR_OPERATING_SYSTEM, "getifaddrs failed: %s",
		                  strerror(errno));
	for (struct ifaddrs *ifa = list; ifa; ifa = ifa->ifa_next) {
		struct doca_devinfo *info;

		if (!ifa->ifa_name || !(ifa->ifa_flags & IFF_UP))
			continue;
		info = scan_find_or_add(scan, ifa->ifa_name);
		if (!info) {
			freeifaddrs(list);
			return DOCA_ERROR_NO_MEMORY;
		}
		info->loopback = (ifa->ifa_flags & IFF_LOOPBACK) != 0;
		if (ifa->ifa_addr)
			scan_address(info, ifa);
	}
	freeifaddrs(list);
	for (size_t i = 0; i < scan->count; i++)
		if (scan->infos[i].ifindex == 0)
			scan->infos[i].ifindex = if_nametoindex(scan->infos[i].iface_name);
	return DOCA_SUCCESS;
}

static bool has_address(const struct doca_devinfo *info)
{
	return info->num_ipv4 + info->num_ipv6 > 0;
}

static int compare_ifindex(const void *a, const void *b)
{
	const struct doca_devinfo *x = a, *y = b;

	return (x->ifindex > y->ifindex) - (x->ifindex < y->ifindex);
}

static void read_sysfs_number(const char *iface, const char *attr, int64_t *value)
{
	char path[PATH_MAX];
	FILE *f;
	long long v;

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", iface, attr);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fscanf(f, "%lld", &v) == 1)
		*value = v;
	fclose(f);
}

static bool is_pci_address(const char *s)
{
	unsigned int d, b, dev, fn;
	char end;

	return strlen(s) == 12 && sscanf(s, "%4x:%2x:%2x.%1x%c", &d, &b, &dev, &fn, &end) == 4;
}

/* The interface's PCI function when it has one; virtual interfaces get a
 * stable synthetic address in domain ffff so that "-p" lookups still work. */
static void fill_pci_address(struct doca_devinfo *info)
{
	char path[PATH_MAX], target[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/class/net/%s/device", info->iface_name);
	n = readlink(path, target, sizeof(target) - 1);
	if (n > 0) {
		const char *base;

		target[n] = '\0';
		base = strrchr(target, '/');
		base = base ? base + 1 : target;
		if (is_pci_address(base)) {
			snprintf(info->pci_addr, sizeof(info->pci_addr), "%.12s", base);
			info->pci_is_real = true;
			return;
		}
	}
	snprintf(info->pci_addr, sizeof(info->pci_addr), "ffff:%02x:00.0", info->ifindex & 0xffu);
}

static void fill_details(struct doca_devinfo *info)
{
	struct ifreq req;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	memset(&req, 0, sizeof(req));
	snprintf(req.ifr_name, sizeof(req.ifr_name), "%.*s", IFNAMSIZ - 1, info->iface_name);
	if (fd >= 0 && ioctl(fd, SIOCGIFMTU, &req) == 0)
		info->mtu = (uint32_t)req.ifr_mtu;
	if (fd >= 0)
		close(fd);
	read_sysfs_number(info->iface_name, "speed", &info->speed_mbps);
	fill_pci_address(info);

	info->num_gids = 0;
	for (uint32_t i = 0; i < info->num_ipv4; i++) {
		uint8_t *gid = info->gids[info->num_gids++].raw;

		memset(gid, 0, DOCA_GID_BYTE_LENGTH);
		gid[10] = 0xff;
		gid[11] = 0xff;
		memcpy(gid + 12, info->ipv4[i], DOCA_DEVINFO_IPV4_ADDR_SIZE);
	}
	for (uint32_t i = 0; i < info->num_ipv6; i++)
		memcpy(info->gids[info->num_gids++].raw, info->ipv6[i], DOCA_GID_BYTE_LENGTH);
	if (info->ibdev_name[0] == '\0')
		snprintf(info->ibdev_name, sizeof(info->ibdev_name), DEV_NAME_PREFIX "%.*s",
		         (int)(sizeof(info->ibdev_name) - sizeof(DEV_NAME_PREFIX)),
		         info->iface_name);
}

/* Applies SOFTDOCA_DEVICES: keeps the listed interfaces, in the listed order,
 * with their aliases. Returns the number of devices left at the front. */
static size_t apply_selection(struct scan *scan, const char *spec)
{
	struct doca_devinfo *chosen = calloc(scan->count ? scan->count : 1, sizeof(*chosen));
	char *copy = strdup(spec), *save = NULL;
	size_t n = 0;

	if (!chosen || !copy) {
		free(chosen);
		free(copy);
		return 0;
	}
	for (char *entry = strtok_r(copy, ", \t", &save); entry;
	     entry = strtok_r(NULL, ", \t", &save)) {
		char *eq = strchr(entry, '=');
		const char *iface = eq ? eq + 1 : entry;
		struct doca_devinfo *found = NULL;

		if (eq && (eq == entry || (size_t)(eq - entry) >= DOCA_DEVINFO_IBDEV_NAME_SIZE)) {
			SDOCA_WARN("SOFTDOCA_DEVICES: ignoring '%s': the device name must be 1..%d "
			           "characters",
			           entry, DOCA_DEVINFO_IBDEV_NAME_SIZE - 1);
			continue;
		}
		for (size_t i = 0; i < scan->count; i++)
			if (strcmp(scan->infos[i].iface_name, iface) == 0)
				found = &scan->infos[i];
		if (!found) {
			SDOCA_WARN("SOFTDOCA_DEVICES: no interface '%s' is up on this machine",
			           iface);
			continue;
		}
		if (n == scan->count)
			break;
		chosen[n] = *found;
		if (eq)
			snprintf(chosen[n].ibdev_name, sizeof(chosen[n].ibdev_name), "%.*s",
			         (int)(eq - entry), entry);
		if (!has_address(&chosen[n]))
			SDOCA_WARN("SOFTDOCA_DEVICES: interface '%s' has no IP address", iface);
		n++;
	}
	memcpy(scan->infos, chosen, n * sizeof(*chosen));
	free(chosen);
	free(copy);
	return n;
}

DOCA_STABLE doca_error_t doca_devinfo_create_list(struct doca_devinfo ***dev_list,
                                                  uint32_t *nb_devs)
{
	struct scan scan = { 0 };
	const char *spec = getenv("SOFTDOCA_DEVICES");
	struct doca_devinfo **list;
	doca_error_t status;
	size_t n = 0;

	if (!sdoca_arg_valid(dev_list) || !sdoca_arg_valid(nb_devs))
		return DOCA_ERROR_INVALID_VALUE;
	status = sdoca_faults_env_check("doca_devinfo_create_list");
	if (status != DOCA_SUCCESS)
		return status;
	status = scan_interfaces(&scan);
	if (status != DOCA_SUCCESS) {
		free(scan.infos);
		return status;
	}
	qsort(scan.infos, scan.count, sizeof(*scan.infos), compare_ifindex);
	if (spec && *spec) {
		n = apply_selection(&scan, spec);
	} else {
		for (size_t i = 0; i < scan.count; i++)
			if (has_address(&scan.infos[i]))
				scan.infos[n++] = scan.infos[i];
	}
	/* A NULL-terminated pointer array; the entries live in one block at list[0]. */
	list = calloc(n + 1, sizeof(*list));
	if (!list) {
		free(scan.infos);
		return DOCA_ERROR_NO_MEMORY;
	}
	if (n == 0) {
		free(scan.infos);
	} else {
		for (size_t i = 0; i < n; i++) {
			fill_details(&scan.infos[i]);
			list[i] = &scan.infos[i];
		}
	}
	*dev_list = list;
	*nb_devs = (uint32_t)n;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_devinfo_destroy_list(struct doca_devinfo **dev_list)
{
	if (!sdoca_arg_valid(dev_list))
		return DOCA_ERROR_INVALID_VALUE;
	free(dev_list[0]);
	free(dev_list);
	return DOCA_SUCCESS;
}

/* Opening the same interface twice returns the same device, counted. */
DOCA_STABLE doca_error_t doca_dev_open(struct doca_devinfo *devinfo, struct doca_dev **dev)
{
	struct doca_dev *d;

	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(dev))
		return DOCA_ERROR_INVALID_VALUE;
	if (sdoca_faults_env_check("doca_dev_open") != DOCA_SUCCESS)
		return DOCA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&devices.lock);
	LIST_FOREACH(d, &devices.open_devs, link)
	if (d->info.ifindex == devinfo->ifindex &&
	    strcmp(d->info.ibdev_name, devinfo->ibdev_name) == 0)
		break;
	if (!d) {
		d = calloc(1, sizeof(*d));
		if (!d) {
			pthread_mutex_unlock(&devices.lock);
			return DOCA_ERROR_NO_MEMORY;
		}
		d->info = *devinfo;
		LIST_INSERT_HEAD(&devices.open_devs, d, link);
		SDOCA_DBG("opened device %s (interface %s)", d->info.ibdev_name,
		          d->info.iface_name);
	}
	d->opens++;
	pthread_mutex_unlock(&devices.lock);
	*dev = d;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_dev_close(struct doca_dev *dev)
{
	doca_error_t status = DOCA_SUCCESS;
	struct doca_dev *d;

	if (!sdoca_arg_valid(dev))
		return DOCA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&devices.lock);
	LIST_FOREACH(d, &devices.open_devs, link)
	if (d == dev)
		break;
	if (!d) {
		status = sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                    "doca_dev_close: %p is not an open device", (void *)dev);
		goto out;
	}
	if (dev->opens == 1 && atomic_load(&dev->users) > 0) {
		int users = atomic_load(&dev->users);

		status = sdoca_fail(
		        DOCA_ERROR_IN_USE,
		        "doca_dev_close: device %s is still used by %d mmap(s)/context(s)",
		        dev->info.ibdev_name, users);
		goto out;
	}
	if (--dev->opens == 0) {
		LIST_REMOVE(dev, link);
		free(dev);
	}
out:
	pthread_mutex_unlock(&devices.lock);
	return status;
}

SDOCA_EXPORT void sdoca_dev_get(struct doca_dev *dev)
{
	atomic_fetch_add(&dev->users, 1);
}

SDOCA_EXPORT void sdoca_dev_put(struct doca_dev *dev)
{
	atomic_fetch_sub(&dev->users, 1);
}

DOCA_STABLE struct doca_devinfo *doca_dev_as_devinfo(const struct doca_dev *dev)
{
	return dev ? (struct doca_devinfo *)&dev->info : NULL;
}

DOCA_EXPERIMENTAL doca_error_t doca_dev_accelerate_resource_reclaim(struct doca_dev *dev)
{
	if (!sdoca_arg_valid(dev))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED("a soft device has no hardware resources to cache");
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_STABLE doca_error_t doca_devinfo_get_pci_addr_str(const struct doca_devinfo *devinfo,
                                                       char *pci_addr_str)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(pci_addr_str))
		return DOCA_ERROR_INVALID_VALUE;
	memcpy(pci_addr_str, devinfo->pci_addr, DOCA_DEVINFO_PCI_ADDR_SIZE);
	return DOCA_SUCCESS;
}

/* Accepts "DDDD:BB:DD.F" and "BB:DD.F" (domain 0000), in any hex case. */
static bool parse_pci(const char *s, unsigned int *dom, unsigned int *bus, unsigned int *dev,
                      unsigned int *fn)
{
	char end;

	if (sscanf(s, "%4x:%2x:%2x.%1x%c", dom, bus, dev, fn, &end) == 4 && strlen(s) == 12)
		return true;
	*dom = 0;
	return sscanf(s, "%2x:%2x.%1x%c", bus, dev, fn, &end) == 3 && strlen(s) == 7;
}

static doca_error_t compare_pci(const char *mine, const char *theirs, uint8_t *is_equal)
{
	unsigned int a[4], b[4];

	if (!parse_pci(theirs, &b[0], &b[1], &b[2], &b[3]))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "'%s' is not a PCI address (expected DDDD:BB:DD.F or BB:DD.F)",
		                  theirs);
	if (!parse_pci(mine, &a[0], &a[1], &a[2], &a[3]))
		return DOCA_ERROR_UNEXPECTED;
	*is_equal = memcmp(a, b, sizeof(a)) == 0;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_devinfo_is_equal_pci_addr(const struct doca_devinfo *devinfo,
                                                        const char *pci_addr_str, uint8_t *is_equal)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(pci_addr_str) ||
	    !sdoca_arg_valid(is_equal))
		return DOCA_ERROR_INVALID_VALUE;
	return compare_pci(devinfo->pci_addr, pci_addr_str, is_equal);
}

DOCA_STABLE doca_error_t doca_devinfo_get_ipv4_addr(const struct doca_devinfo *devinfo,
                                                    uint8_t *ipv4_addr, uint32_t size)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(ipv4_addr) ||
	    !sdoca_arg_valid(size >= DOCA_DEVINFO_IPV4_ADDR_SIZE))
		return DOCA_ERROR_INVALID_VALUE;
	if (devinfo->num_ipv4 == 0)
		return sdoca_fail(DOCA_ERROR_NOT_FOUND, "device %s has no IPv4 address",
		                  devinfo->ibdev_name);
	memcpy(ipv4_addr, devinfo->ipv4[0], DOCA_DEVINFO_IPV4_ADDR_SIZE);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_devinfo_get_ipv6_addr(const struct doca_devinfo *devinfo,
                                                    uint8_t *ipv6_addr, uint32_t size)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(ipv6_addr) ||
	    !sdoca_arg_valid(size >= DOCA_DEVINFO_IPV6_ADDR_SIZE))
		return DOCA_ERROR_INVALID_VALUE;
	if (devinfo->num_ipv6 == 0)
		return sdoca_fail(DOCA_ERROR_NOT_FOUND, "device %s has no IPv6 address",
		                  devinfo->ibdev_name);
	memcpy(ipv6_addr, devinfo->ipv6[0], DOCA_DEVINFO_IPV6_ADDR_SIZE);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_devinfo_get_mac_addr(const struct doca_devinfo *devinfo,
                                                   uint8_t *mac_addr, uint32_t size)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(mac_addr) ||
	    !sdoca_arg_valid(size >= DOCA_DEVINFO_MAC_ADDR_SIZE))
		return DOCA_ERROR_INVALID_VALUE;
	if (!devinfo->has_mac)
		return sdoca_fail(DOCA_ERROR_NOT_SUPPORTED, "interface %s has no Ethernet address",
		                  devinfo->iface_name);
	memcpy(mac_addr, devinfo->mac, DOCA_DEVINFO_MAC_ADDR_SIZE);
	return DOCA_SUCCESS;
}

static doca_error_t copy_name(const char *name, char *out, uint32_t size, uint32_t need)
{
	if (!sdoca_arg_valid(out) || !sdoca_arg_valid(size >= need))
		return DOCA_ERROR_INVALID_VALUE;
	snprintf(out, size, "%s", name);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_devinfo_get_iface_name(const struct doca_devinfo *devinfo,
                                                     char *iface_name, uint32_t size)
{
	if (!sdoca_arg_valid(devinfo))
		return DOCA_ERROR_INVALID_VALUE;
	return copy_name(devinfo->iface_name, iface_name, size, DOCA_DEVINFO_IFACE_NAME_SIZE);
}

DOCA_STABLE doca_error_t doca_devinfo_get_ibdev_name(const struct doca_devinfo *devinfo,
                                                     char *ibdev_name, uint32_t size)
{
	if (!sdoca_arg_valid(devinfo))
		return DOCA_ERROR_INVALID_VALUE;
	return copy_name(devinfo->ibdev_name, ibdev_name, size, DOCA_DEVINFO_IBDEV_NAME_SIZE);
}

DOCA_STABLE doca_error_t doca_devinfo_get_lid(const struct doca_devinfo *devinfo, uint16_t *lid)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(lid))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(
	        "softdoca devices are Ethernet (RoCE-like) ports, which have no LID");
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_devinfo_get_active_rate(const struct doca_devinfo *devinfo,
                                                            uint64_t *active_rate)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(active_rate))
		return DOCA_ERROR_INVALID_VALUE;
	if (devinfo->speed_mbps <= 0)
		return sdoca_fail(DOCA_ERROR_DRIVER, "interface %s does not report a link speed",
		                  devinfo->iface_name);
	*active_rate = (uint64_t)devinfo->speed_mbps * 1000000u;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_devinfo_get_vhca_id(const struct doca_devinfo *devinfo,
                                                        uint16_t *vhca_id)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(vhca_id))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED("softdoca devices are not ConnectX functions and have no VHCA id");
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* An interface of this host, seen as a NIC: a physical function. */
DOCA_EXPERIMENTAL doca_error_t doca_devinfo_get_pci_func_type(
        const struct doca_devinfo *devinfo, enum doca_pci_func_type *pci_func_type)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(pci_func_type))
		return DOCA_ERROR_INVALID_VALUE;
	*pci_func_type = DOCA_PCI_FUNC_TYPE_PF;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_devinfo_get_sf_index(const struct doca_devinfo *devinfo,
                                                         uint32_t *sf_index)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(sf_index))
		return DOCA_ERROR_INVALID_VALUE;
	/* Every softdoca device is a PF (doca_devinfo_get_pci_func_type): it
	 * has no SF index, so there is none to find, as for DOCA's PFs, which
	 * DOCA's samples skip by their function type before asking. */
	return sdoca_fail(
	        DOCA_ERROR_NOT_FOUND,
	        "doca_devinfo_get_sf_index: %s is a physical function, not a sub-function "
	        "(SF); it has no SF index",
	        devinfo->iface_name);
}

DOCA_EXPERIMENTAL doca_error_t doca_devinfo_get_iface_index(const struct doca_devinfo *devinfo,
                                                            uint32_t *iface_index)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(iface_index))
		return DOCA_ERROR_INVALID_VALUE;
	*iface_index = devinfo->ifindex;
	return DOCA_SUCCESS;
}

static doca_error_t cap_false(const struct doca_devinfo *devinfo, uint8_t *cap)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(cap))
		return DOCA_ERROR_INVALID_VALUE;
	*cap = 0;
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t doca_devinfo_cap_is_hotplug_manager_supported(
        const struct doca_devinfo *devinfo, uint8_t *is_hotplug_manager)
{
	return cap_false(devinfo, is_hotplug_manager);
}

DOCA_EXPERIMENTAL doca_error_t doca_devinfo_cap_is_notification_moderation_supported(
        const struct doca_devinfo *devinfo, uint8_t *is_notification_moderation_supported)
{
	return cap_false(devinfo, is_notification_moderation_supported);
}

DOCA_STABLE doca_error_t doca_devinfo_rep_cap_is_filter_all_supported(
        const struct doca_devinfo *devinfo, uint8_t *filter_all_supported)
{
	return cap_false(devinfo, filter_all_supported);
}

DOCA_STABLE doca_error_t doca_devinfo_rep_cap_is_filter_net_supported(
        const struct doca_devinfo *devinfo, uint8_t *filter_net_supported)
{
	return cap_false(devinfo, filter_net_supported);
}

DOCA_STABLE doca_error_t doca_devinfo_rep_cap_is_filter_emulated_supported(
        const struct doca_devinfo *devinfo, uint8_t *filter_emulated_supported)
{
	return cap_false(devinfo, filter_emulated_supported);
}

DOCA_EXPERIMENTAL doca_error_t doca_devinfo_cap_is_accelerate_resource_reclaim_supported(
        const struct doca_devinfo *devinfo, uint8_t *is_accelerate_resource_reclaim)
{
	return cap_false(devinfo, is_accelerate_resource_reclaim);
}
