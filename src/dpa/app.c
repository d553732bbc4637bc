/*
 * libdoca_dpa: the DPA program and finding its kernels.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libdoca_dpa: the DPA program (the image tools/dpacc builds) and finding
 * a kernel by the address the host names it with.
 */
#include <string.h>

#include "core/sdk_log.h"
#include "dpa/dpa.h"

SDOCA_LOG_MODULE(dpa_app);

static doca_error_t image_check(const struct softdoca_dpa_app_image *img, const char *caller)
{
	if (img->magic != SOFTDOCA_DPA_APP_MAGIC)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "%s: not a DPA program built by softdoca's dpacc (bad magic)",
		                  caller);
	if (img->layout != SOFTDOCA_DPA_APP_LAYOUT)
		return sdoca_fail(
		        DOCA_ERROR_UNSUPPORTED_VERSION,
		        "%s: DPA program image layout %u, this library reads %u: rebuild it with "
		        "this softdoca's dpacc",
		        caller, img->layout, SOFTDOCA_DPA_APP_LAYOUT);
	if (img->name == NULL || (img->num_tables != 0 && img->tables == NULL))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "%s: the DPA program image is malformed", caller);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_set_app(struct doca_dpa *dpa, struct doca_dpa_app *app)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(app))
		return DOCA_ERROR_INVALID_VALUE;
	if (dpa->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "doca_dpa_set_app: the DPA is started");
	const struct softdoca_dpa_app_image *img = (const struct softdoca_dpa_app_image *)app;
	doca_error_t err = image_check(img, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	dpa->app = img;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_get_app(struct doca_dpa *dpa, struct doca_dpa_app **app)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(app))
		return DOCA_ERROR_INVALID_VALUE;
	if (dpa->app == NULL)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "doca_dpa_get_app: no program was set");
	*app = (struct doca_dpa_app *)(uintptr_t)dpa->app;
	return DOCA_SUCCESS;
}

/* *len: the buffer's size in, the bytes written (with the NUL) out. */
DOCA_EXPERIMENTAL doca_error_t doca_dpa_app_get_name(struct doca_dpa_app *app, char *app_name,
                                                     uint32_t *app_name_len)
{
	if (!sdoca_arg_valid(app) || !sdoca_arg_valid(app_name) || !sdoca_arg_valid(app_name_len))
		return DOCA_ERROR_INVALID_VALUE;
	const struct softdoca_dpa_app_image *img = (const struct softdoca_dpa_app_image *)app;
	doca_error_t err = image_check(img, __func__);
	if (err != DOCA_SUCCESS)
		return err;
	size_t need = strlen(img->name) + 1;
	if (*app_name_len < need) {
		SDOCA_ERR("doca_dpa_app_get_name: the buffer has %u bytes, the name needs %zu",
		          *app_name_len, need);
		*app_name_len = (uint32_t)need;
		return DOCA_ERROR_INVALID_VALUE;
	}
	memcpy(app_name, img->name, need);
	*app_name_len = (uint32_t)need;
	return DOCA_SUCCESS;
}

static const char *kind_name(uint32_t kind)
{
	return kind == SOFTDOCA_DPA_KERNEL_RPC ? "an RPC (__dpa_rpc__)"
	                                       : "a kernel (__dpa_global__)";
}

const struct softdoca_dpa_kernel *sdoca_dpa_find_kernel(const struct doca_dpa *dpa,
                                                        doca_dpa_func_t *func, uint32_t kind,
                                                        const char *caller)
{
	const struct softdoca_dpa_app_image *img = dpa->app;
	for (uint32_t t = 0; img != NULL && t < img->num_tables; t++) {
		const struct softdoca_dpa_kernel_table *tab = &img->tables[t];
		for (uint32_t k = 0; k < tab->num_kernels; k++) {
			const struct softdoca_dpa_kernel *kern = &tab->kernels[k];
			if (kern->func != func)
				continue;
			if (kern->kind != kind) {
				SDOCA_ERR("%s: '%s' is %s, not %s", caller, kern->name,
				          kind_name(kern->kind), kind_name(kind));
				return NULL;
			}
			return kern;
		}
	}
	SDOCA_ERR("%s: function %p is not %s of the DPA program '%s'", caller, (void *)func,
	          kind_name(kind), img != NULL ? img->name : "(none)");
	return NULL;
}
