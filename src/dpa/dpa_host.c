/*
 * libdoca_dpa: host calls not built yet, and DOCA 2.5's forms.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libdoca_dpa, host side: the calls not built yet (hash tables, extended
 * DPAs, UAR ids), which answer NOT_SUPPORTED, and DOCA 2.5's forms. The
 * context is in dpa.c, the program in app.c, memory in mem.c, RPCs in
 * rpc.c, kernel launches in launch.c, EU affinities in affinity.c.
 */
#include <stddef.h>
#include <stdint.h>

#include <doca_dpa.h>

#include "core/sdk_log.h"

SDOCA_LOG_MODULE(dpa_host);

#define NO_DPA "not built yet in the DPA emulation"

/* Prototypes: the DOCA 2.5 forms doca_dpa.h declares for SOFTDOCA_API_VERSION below 300. */
doca_error_t softdoca_v205_doca_dpa_create(struct doca_dev *dev, struct doca_dpa_app *app,
                                           struct doca_dpa **dpa);
doca_error_t doca_dpa_app_name_get(struct doca_dpa_app *app, char *app_name, size_t *app_name_len);
doca_error_t doca_devinfo_get_is_dpa_supported(const struct doca_devinfo *devinfo);

DOCA_EXPERIMENTAL doca_error_t doca_dpa_device_extend(struct doca_dpa *dpa,
                                                      struct doca_dev *other_dev,
                                                      struct doca_dpa **extended_dpa)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(other_dev) || !sdoca_arg_valid(extended_dpa))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_DPA);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_uar_id(const struct doca_dpa *dpa, uint32_t *uar_id)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(uar_id))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_DPA);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_hash_table_create(struct doca_dpa *dpa,
                                                          unsigned int num_entries,
                                                          struct doca_dpa_hash_table **ht)
{
	(void)num_entries;
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(ht))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_DPA);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_hash_table_destroy(struct doca_dpa_hash_table *ht)
{
	if (!sdoca_arg_valid(ht))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_DPA);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_hash_table_get_dpa_handle(
        struct doca_dpa_hash_table *ht, doca_dpa_dev_hash_table_t *ht_handle)
{
	if (!sdoca_arg_valid(ht) || !sdoca_arg_valid(ht_handle))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_DPA);
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* DOCA 2.5 forms. */

DOCA_EXPERIMENTAL doca_error_t softdoca_v205_doca_dpa_create(struct doca_dev *dev,
                                                             struct doca_dpa_app *app,
                                                             struct doca_dpa **dpa)
{
	if (!sdoca_arg_valid(dev) || !sdoca_arg_valid(app) || !sdoca_arg_valid(dpa))
		return DOCA_ERROR_INVALID_VALUE;
	struct doca_dpa *d;
	doca_error_t err = doca_dpa_create(dev, &d);
	if (err != DOCA_SUCCESS)
		return err;
	err = doca_dpa_set_app(d, app);
	if (err != DOCA_SUCCESS) {
		doca_dpa_destroy(d);
		return err;
	}
	*dpa = d;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_app_name_get(struct doca_dpa_app *app, char *app_name,
                                                     size_t *app_name_len)
{
	if (!sdoca_arg_valid(app) || !sdoca_arg_valid(app_name) || !sdoca_arg_valid(app_name_len))
		return DOCA_ERROR_INVALID_VALUE;
	uint32_t len = *app_name_len > UINT32_MAX ? UINT32_MAX : (uint32_t)*app_name_len;
	doca_error_t err = doca_dpa_app_get_name(app, app_name, &len);
	*app_name_len = len;
	return err;
}

DOCA_EXPERIMENTAL doca_error_t doca_devinfo_get_is_dpa_supported(const struct doca_devinfo *devinfo)
{
	return doca_dpa_cap_is_supported(devinfo);
}
