/*
 * Device representors: none exist, every call says so.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Device representors: softdoca devices are not eswitch managers, so there
 * are none; every representor call says so (the capability queries that
 * ask are in dev.c and answer 0).
 */
#include <doca_dev.h>

#include "core/dev.h"
#include "core/sdk_log.h"

SDOCA_LOG_MODULE(dev_rep);

/* Representors belong to BlueField/ConnectX eswitch managers; softdoca has none,
 * so no representor object can ever exist. */
#define NO_REPRESENTORS "softdoca devices are not eswitch managers and have no representors"

DOCA_STABLE doca_error_t doca_devinfo_rep_create_list(struct doca_dev *dev, int filter,
                                                      struct doca_devinfo_rep ***dev_list_rep,
                                                      uint32_t *nb_devs_rep)
{
	(void)filter;
	if (!sdoca_arg_valid(dev) || !sdoca_arg_valid(dev_list_rep) ||
	    !sdoca_arg_valid(nb_devs_rep))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_REPRESENTORS);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_STABLE doca_error_t doca_devinfo_rep_destroy_list(struct doca_devinfo_rep **dev_list_rep)
{
	if (!sdoca_arg_valid(dev_list_rep))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_REPRESENTORS);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_STABLE doca_error_t doca_dev_rep_open(struct doca_devinfo_rep *devinfo,
                                           struct doca_dev_rep **dev_rep)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(dev_rep))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_REPRESENTORS);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_STABLE doca_error_t doca_dev_rep_close(struct doca_dev_rep *dev)
{
	if (!sdoca_arg_valid(dev))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_REPRESENTORS);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_STABLE struct doca_devinfo_rep *doca_dev_rep_as_devinfo(struct doca_dev_rep *dev_rep)
{
	(void)dev_rep;
	SDOCA_LOG_ONCE(DOCA_LOG_LEVEL_WARNING, "%s: %s", __func__, NO_REPRESENTORS);
	return NULL;
}

DOCA_STABLE doca_error_t doca_devinfo_rep_get_vuid(const struct doca_devinfo_rep *devinfo_rep,
                                                   char *rep_vuid, uint32_t size)
{
	(void)size;
	if (!sdoca_arg_valid(devinfo_rep) || !sdoca_arg_valid(rep_vuid))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_REPRESENTORS);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_STABLE doca_error_t
doca_devinfo_rep_get_pci_addr_str(const struct doca_devinfo_rep *devinfo_rep, char *pci_addr_str)
{
	if (!sdoca_arg_valid(devinfo_rep) || !sdoca_arg_valid(pci_addr_str))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_REPRESENTORS);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_STABLE doca_error_t doca_devinfo_rep_get_pci_func_type(
        const struct doca_devinfo_rep *devinfo_rep, enum doca_pci_func_type *pci_func_type)
{
	if (!sdoca_arg_valid(devinfo_rep) || !sdoca_arg_valid(pci_func_type))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_REPRESENTORS);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_STABLE doca_error_t doca_devinfo_rep_get_is_hotplug(const struct doca_devinfo_rep *devinfo_rep,
                                                         uint8_t *is_hotplug)
{
	if (!sdoca_arg_valid(devinfo_rep) || !sdoca_arg_valid(is_hotplug))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_REPRESENTORS);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t
doca_devinfo_rep_get_sf_index(const struct doca_devinfo_rep *devinfo_rep, uint32_t *sf_index)
{
	if (!sdoca_arg_valid(devinfo_rep) || !sdoca_arg_valid(sf_index))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_REPRESENTORS);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_devinfo_rep_get_iface_name(
        const struct doca_devinfo_rep *devinfo_rep, char *iface_name, uint32_t size)
{
	(void)size;
	if (!sdoca_arg_valid(devinfo_rep) || !sdoca_arg_valid(iface_name))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_REPRESENTORS);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t
doca_devinfo_rep_get_vhca_id(const struct doca_devinfo_rep *devinfo_rep, uint16_t *vhca_id)
{
	if (!sdoca_arg_valid(devinfo_rep) || !sdoca_arg_valid(vhca_id))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_REPRESENTORS);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_STABLE doca_error_t doca_devinfo_rep_is_equal_pci_addr(
        const struct doca_devinfo_rep *devinfo_rep, const char *pci_addr_str, uint8_t *is_equal)
{
	if (!sdoca_arg_valid(pci_addr_str) || !sdoca_arg_valid(devinfo_rep) ||
	    !sdoca_arg_valid(is_equal))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_REPRESENTORS);
	return DOCA_ERROR_NOT_SUPPORTED;
}
