/*
 * DOCA 2.2 forms of the Core calls that DOCA 2.5 renamed or changed.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The DOCA 2.2 forms of the Core calls (buffers, inventories, mmaps,
 * devices) that DOCA 2.5 renamed or changed: the headers declare them for
 * SOFTDOCA_API_VERSION=202 and bind the changed ones to softdoca_v202_*
 * symbols. Each is the later call under its old name or signature.
 */
#include <stdbool.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_dev.h>
#include <doca_mmap.h>

#include "core/sdk_log.h"

SDOCA_LOG_MODULE(core_v202);

/* What the headers declare for DOCA 2.2 programs. */
doca_error_t doca_buf_refcount_add(struct doca_buf *buf, uint16_t *refcount);
doca_error_t doca_buf_refcount_rm(struct doca_buf *buf, uint16_t *refcount);
doca_error_t doca_buf_list_next(struct doca_buf *buf, struct doca_buf **next_buf);
doca_error_t doca_buf_list_last(struct doca_buf *buf, struct doca_buf **last_buf);
doca_error_t doca_buf_list_is_last(const struct doca_buf *buf, bool *is_last);
doca_error_t doca_buf_list_is_first(const struct doca_buf *buf, bool *is_first);
doca_error_t doca_buf_list_num_elements(const struct doca_buf *buf, uint32_t *num_elements);
doca_error_t doca_buf_list_chain(struct doca_buf *list1, struct doca_buf *list2);
doca_error_t doca_buf_list_unchain(struct doca_buf *list1, struct doca_buf *list2);
doca_error_t softdoca_v202_doca_buf_inventory_create(const union doca_data *user_data,
                                                     size_t num_elements, uint32_t extensions,
                                                     struct doca_buf_inventory **inventory);
doca_error_t doca_buf_inventory_buf_by_args(struct doca_buf_inventory *inventory,
                                            struct doca_mmap *mmap, void *addr, size_t len,
                                            void *data, size_t data_len, struct doca_buf **buf);
doca_error_t softdoca_v202_doca_mmap_create(const union doca_data *user_data,
                                            struct doca_mmap **mmap);
doca_error_t doca_mmap_dev_add(struct doca_mmap *mmap, struct doca_dev *dev);
doca_error_t doca_mmap_dev_rm(struct doca_mmap *mmap, struct doca_dev *dev);
doca_error_t doca_mmap_export_dpu(struct doca_mmap *mmap, const struct doca_dev *dev,
                                  const void **export_desc, size_t *export_desc_len);
doca_error_t softdoca_v202_doca_mmap_set_dmabuf_memrange(struct doca_mmap *mmap, int dmabuf_fd,
                                                         size_t offset, size_t len);
doca_error_t doca_devinfo_list_create(struct doca_devinfo ***dev_list, uint32_t *nb_devs);
doca_error_t doca_devinfo_list_destroy(struct doca_devinfo **dev_list);
doca_error_t doca_devinfo_rep_list_create(struct doca_dev *dev, int filter,
                                          struct doca_devinfo_rep ***dev_list_rep,
                                          uint32_t *nb_devs_rep);
doca_error_t doca_devinfo_rep_list_destroy(struct doca_devinfo_rep **dev_list_rep);
doca_error_t doca_devinfo_get_is_pci_addr_equal(const struct doca_devinfo *devinfo,
                                                const char *pci_addr_str, uint8_t *is_equal);
doca_error_t doca_devinfo_get_is_hotplug_manager_supported(const struct doca_devinfo *devinfo,
                                                           uint8_t *is_hotplug_manager);
doca_error_t doca_devinfo_get_is_mmap_export_dpu_supported(const struct doca_devinfo *devinfo,
                                                           uint8_t *mmap_export);
doca_error_t doca_devinfo_get_is_mmap_from_export_dpu_supported(const struct doca_devinfo *devinfo,
                                                                uint8_t *from_export);
doca_error_t doca_devinfo_rep_get_is_list_all_supported(const struct doca_devinfo *devinfo,
                                                        uint8_t *all_supported);
doca_error_t doca_devinfo_rep_get_is_list_net_supported(const struct doca_devinfo *devinfo,
                                                        uint8_t *net_supported);
doca_error_t doca_devinfo_rep_get_is_list_emulated_supported(const struct doca_devinfo *devinfo,
                                                             uint8_t *emulated_supported);
doca_error_t doca_devinfo_rep_get_is_pci_addr_equal(const struct doca_devinfo_rep *devinfo_rep,
                                                    const char *pci_addr_str, uint8_t *is_equal);

/* --- buffers --- */

/* DOCA 2.2 said "not supported yet"; softdoca counts the reference. */
DOCA_EXPERIMENTAL doca_error_t doca_buf_refcount_add(struct doca_buf *buf, uint16_t *refcount)
{
	return doca_buf_inc_refcount(buf, refcount);
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_refcount_rm(struct doca_buf *buf, uint16_t *refcount)
{
	return doca_buf_dec_refcount(buf, refcount);
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_list_next(struct doca_buf *buf, struct doca_buf **next_buf)
{
	return doca_buf_get_next_in_list(buf, next_buf);
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_list_last(struct doca_buf *buf, struct doca_buf **last_buf)
{
	return doca_buf_get_last_in_list(buf, last_buf);
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_list_is_last(const struct doca_buf *buf, bool *is_last)
{
	uint8_t v = 0;
	doca_error_t status;

	if (!sdoca_arg_valid(is_last))
		return DOCA_ERROR_INVALID_VALUE;
	status = doca_buf_is_last_in_list(buf, &v);
	*is_last = v != 0;
	return status;
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_list_is_first(const struct doca_buf *buf, bool *is_first)
{
	uint8_t v = 0;
	doca_error_t status;

	if (!sdoca_arg_valid(is_first))
		return DOCA_ERROR_INVALID_VALUE;
	status = doca_buf_is_first_in_list(buf, &v);
	*is_first = v != 0;
	return status;
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_list_num_elements(const struct doca_buf *buf,
                                                          uint32_t *num_elements)
{
	return doca_buf_get_list_len(buf, num_elements);
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_list_chain(struct doca_buf *list1, struct doca_buf *list2)
{
	return doca_buf_chain_list(list1, list2);
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_list_unchain(struct doca_buf *list1, struct doca_buf *list2)
{
	return doca_buf_unchain_list(list1, list2);
}

/* --- inventories --- */

/* DOCA 2.2 knows one extension value, NONE. */
DOCA_EXPERIMENTAL doca_error_t
softdoca_v202_doca_buf_inventory_create(const union doca_data *user_data, size_t num_elements,
                                        uint32_t extensions, struct doca_buf_inventory **inventory)
{
	doca_error_t status;

	if (!sdoca_arg_valid(extensions == 0))
		return DOCA_ERROR_INVALID_VALUE;
	status = doca_buf_inventory_create(num_elements, inventory);
	if (status == DOCA_SUCCESS && user_data)
		status = doca_buf_inventory_set_user_data(*inventory, *user_data);
	return status;
}

DOCA_EXPERIMENTAL doca_error_t doca_buf_inventory_buf_by_args(struct doca_buf_inventory *inventory,
                                                              struct doca_mmap *mmap, void *addr,
                                                              size_t len, void *data,
                                                              size_t data_len,
                                                              struct doca_buf **buf)
{
	return doca_buf_inventory_buf_get_by_args(inventory, mmap, addr, len, data, data_len, buf);
}

/* --- memory maps --- */

DOCA_EXPERIMENTAL doca_error_t softdoca_v202_doca_mmap_create(const union doca_data *user_data,
                                                              struct doca_mmap **mmap)
{
	doca_error_t status = doca_mmap_create(mmap);

	if (status == DOCA_SUCCESS && user_data)
		status = doca_mmap_set_user_data(*mmap, *user_data);
	return status;
}

DOCA_EXPERIMENTAL doca_error_t doca_mmap_dev_add(struct doca_mmap *mmap, struct doca_dev *dev)
{
	return doca_mmap_add_dev(mmap, dev);
}

DOCA_EXPERIMENTAL doca_error_t doca_mmap_dev_rm(struct doca_mmap *mmap, struct doca_dev *dev)
{
	return doca_mmap_rm_dev(mmap, dev);
}

DOCA_EXPERIMENTAL doca_error_t doca_mmap_export_dpu(struct doca_mmap *mmap,
                                                    const struct doca_dev *dev,
                                                    const void **export_desc,
                                                    size_t *export_desc_len)
{
	if (!sdoca_arg_valid(mmap) || !sdoca_arg_valid(dev) || !sdoca_arg_valid(export_desc) ||
	    !sdoca_arg_valid(export_desc_len))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED("there is no DPU to share memory with; use doca_mmap_export_rdma");
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t softdoca_v202_doca_mmap_set_dmabuf_memrange(struct doca_mmap *mmap,
                                                                           int dmabuf_fd,
                                                                           size_t offset,
                                                                           size_t len)
{
	(void)dmabuf_fd;
	(void)offset;
	(void)len;
	if (!sdoca_arg_valid(mmap))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(
	        "softdoca reaches a dmabuf through its mapping, which DOCA 2.2's form "
	        "does not give");
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* --- devices --- */

DOCA_EXPERIMENTAL doca_error_t doca_devinfo_list_create(struct doca_devinfo ***dev_list,
                                                        uint32_t *nb_devs)
{
	return doca_devinfo_create_list(dev_list, nb_devs);
}

DOCA_EXPERIMENTAL doca_error_t doca_devinfo_list_destroy(struct doca_devinfo **dev_list)
{
	return doca_devinfo_destroy_list(dev_list);
}

#define NO_REPRESENTORS "softdoca devices are not eswitch managers: they have no representors"

DOCA_EXPERIMENTAL doca_error_t doca_devinfo_rep_list_create(struct doca_dev *dev, int filter,
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

DOCA_EXPERIMENTAL doca_error_t doca_devinfo_rep_list_destroy(struct doca_devinfo_rep **dev_list_rep)
{
	if (!sdoca_arg_valid(dev_list_rep))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_REPRESENTORS);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_devinfo_rep_get_is_pci_addr_equal(
        const struct doca_devinfo_rep *devinfo_rep, const char *pci_addr_str, uint8_t *is_equal)
{
	if (!sdoca_arg_valid(devinfo_rep) || !sdoca_arg_valid(pci_addr_str) ||
	    !sdoca_arg_valid(is_equal))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_REPRESENTORS);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_devinfo_get_is_pci_addr_equal(
        const struct doca_devinfo *devinfo, const char *pci_addr_str, uint8_t *is_equal)
{
	return doca_devinfo_is_equal_pci_addr(devinfo, pci_addr_str, is_equal);
}

DOCA_EXPERIMENTAL doca_error_t doca_devinfo_get_is_hotplug_manager_supported(
        const struct doca_devinfo *devinfo, uint8_t *is_hotplug_manager)
{
	return doca_devinfo_cap_is_hotplug_manager_supported(devinfo, is_hotplug_manager);
}

DOCA_EXPERIMENTAL doca_error_t doca_devinfo_get_is_mmap_export_dpu_supported(
        const struct doca_devinfo *devinfo, uint8_t *mmap_export)
{
	return doca_mmap_cap_is_export_pci_supported(devinfo, mmap_export);
}

DOCA_EXPERIMENTAL doca_error_t doca_devinfo_get_is_mmap_from_export_dpu_supported(
        const struct doca_devinfo *devinfo, uint8_t *from_export)
{
	return doca_mmap_cap_is_create_from_export_pci_supported(devinfo, from_export);
}

DOCA_EXPERIMENTAL doca_error_t doca_devinfo_rep_get_is_list_all_supported(
        const struct doca_devinfo *devinfo, uint8_t *all_supported)
{
	return doca_devinfo_rep_cap_is_filter_all_supported(devinfo, all_supported);
}

DOCA_EXPERIMENTAL doca_error_t doca_devinfo_rep_get_is_list_net_supported(
        const struct doca_devinfo *devinfo, uint8_t *net_supported)
{
	return doca_devinfo_rep_cap_is_filter_net_supported(devinfo, net_supported);
}

DOCA_EXPERIMENTAL doca_error_t doca_devinfo_rep_get_is_list_emulated_supported(
        const struct doca_devinfo *devinfo, uint8_t *emulated_supported)
{
	return doca_devinfo_rep_cap_is_filter_emulated_supported(devinfo, emulated_supported);
}
