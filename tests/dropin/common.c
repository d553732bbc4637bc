/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Device-opening helpers (see common.h).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <doca_dev.h>
#include <doca_error.h>
#include <doca_log.h>

#include "common.h"

DOCA_LOG_REGISTER(DROPIN::COMMON);

/* Whether `devinfo` is the device the user named by `key`. */
typedef bool (*device_match)(const struct doca_devinfo *devinfo, const void *key);

/* One search for every opener: the first listed device that matches, passes
 * the check and opens. */
static doca_error_t open_matching_device(device_match match, const void *key, device_check check,
                                         struct doca_dev **dev)
{
	struct doca_devinfo **list;
	struct doca_dev *found = NULL;
	uint32_t count;
	doca_error_t result;

	*dev = NULL;
	result = doca_devinfo_create_list(&list, &count);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Cannot list the devices: %s", doca_error_get_descr(result));
		return result;
	}
	for (uint32_t i = 0; i < count && found == NULL; i++) {
		if (!match(list[i], key))
			continue;
		if (check != NULL && check(list[i]) != DOCA_SUCCESS)
			continue;
		result = doca_dev_open(list[i], &found);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_WARN("A matching device does not open: %s",
			              doca_error_get_descr(result));
			found = NULL;
		}
	}
	doca_devinfo_destroy_list(list);
	if (found == NULL) {
		DOCA_LOG_WARN("No matching device that can run this program");
		return DOCA_ERROR_NOT_FOUND;
	}
	*dev = found;
	return DOCA_SUCCESS;
}

static bool ibdev_name_matches(const struct doca_devinfo *devinfo, const void *key)
{
	char name[DOCA_DEVINFO_IBDEV_NAME_SIZE] = { 0 };

	return doca_devinfo_get_ibdev_name(devinfo, name, sizeof(name)) == DOCA_SUCCESS &&
	       strncmp(name, key, sizeof(name)) == 0;
}

static bool pci_addr_matches(const struct doca_devinfo *devinfo, const void *key)
{
	uint8_t equal = 0;

	return doca_devinfo_is_equal_pci_addr(devinfo, key, &equal) == DOCA_SUCCESS && equal;
}

static bool iface_name_matches(const struct doca_devinfo *devinfo, const void *key)
{
	char name[DOCA_DEVINFO_IFACE_NAME_SIZE] = { 0 };

	return doca_devinfo_get_iface_name(devinfo, name, sizeof(name)) == DOCA_SUCCESS &&
	       strncmp(name, key, sizeof(name)) == 0;
}

/* Only a sub-function has an SF index: ask for the function type first. */
static bool sf_index_matches(const struct doca_devinfo *devinfo, const void *key)
{
	enum doca_pci_func_type type;
	uint32_t index;

	if (doca_devinfo_get_pci_func_type(devinfo, &type) != DOCA_SUCCESS ||
	    type != DOCA_PCI_FUNC_TYPE_SF)
		return false;
	return doca_devinfo_get_sf_index(devinfo, &index) == DOCA_SUCCESS &&
	       index == *(const uint32_t *)key;
}

doca_error_t open_device_by_ibdev_name(const char *name, device_check check, struct doca_dev **dev)
{
	if (strnlen(name, DOCA_DEVINFO_IBDEV_NAME_SIZE) == DOCA_DEVINFO_IBDEV_NAME_SIZE) {
		DOCA_LOG_ERR("An IB device name has fewer than %d characters",
		             DOCA_DEVINFO_IBDEV_NAME_SIZE);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return open_matching_device(ibdev_name_matches, name, check, dev);
}

doca_error_t open_device_by_pci_addr(const char *pci_addr, device_check check,
                                     struct doca_dev **dev)
{
	return open_matching_device(pci_addr_matches, pci_addr, check, dev);
}

doca_error_t open_device_by_iface_name(const char *iface_name, device_check check,
                                       struct doca_dev **dev)
{
	return open_matching_device(iface_name_matches, iface_name, check, dev);
}

doca_error_t open_device_by_sf_index(uint32_t sf_index, device_check check, struct doca_dev **dev)
{
	return open_matching_device(sf_index_matches, &sf_index, check, dev);
}

doca_error_t open_representor_by_pci_addr(struct doca_dev *local,
                                          enum doca_devinfo_rep_filter filter, const char *pci_addr,
                                          struct doca_dev_rep **rep)
{
	struct doca_devinfo_rep **list;
	uint32_t count = 0;
	uint8_t equal;
	doca_error_t result;

	*rep = NULL;
	/* Only an eswitch manager (a DPU's Arm side) has representors. */
	result = doca_devinfo_rep_create_list(local, filter, &list, &count);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("No representors on this device: %s", doca_error_get_descr(result));
		return result;
	}
	for (uint32_t i = 0; i < count; i++) {
		equal = 0;
		if (doca_devinfo_rep_is_equal_pci_addr(list[i], pci_addr, &equal) == DOCA_SUCCESS &&
		    equal && doca_dev_rep_open(list[i], rep) == DOCA_SUCCESS)
			break;
		*rep = NULL;
	}
	doca_devinfo_rep_destroy_list(list);
	if (*rep == NULL) {
		DOCA_LOG_WARN("No representor with PCI address %s", pci_addr);
		return DOCA_ERROR_NOT_FOUND;
	}
	return DOCA_SUCCESS;
}
