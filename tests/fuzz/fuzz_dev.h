/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * What the fuzz targets that need a device do once: logs off (refusals are
 * expected by the thousand) and the first device opened.
 */
#ifndef SDOCA_FUZZ_DEV_H_
#define SDOCA_FUZZ_DEV_H_

#include <stdlib.h>

#include <doca_dev.h>
#include <doca_log.h>

static inline struct doca_dev *fuzz_open_dev(void)
{
	struct doca_devinfo **list;
	struct doca_dev *dev;
	uint32_t n;

	doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DISABLE);
	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS || n == 0 ||
	    doca_dev_open(list[0], &dev) != DOCA_SUCCESS)
		abort();
	doca_devinfo_destroy_list(list);
	return dev;
}

#endif /* SDOCA_FUZZ_DEV_H_ */
