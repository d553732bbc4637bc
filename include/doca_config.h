/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Build configuration. As in DOCA, host programs get the compatibility
 * helpers of doca_compat.h (and with them <string.h>, <stdlib.h>, ...);
 * DPA device code does not.
 */
#ifndef DOCA_CONFIG_H_
#define DOCA_CONFIG_H_

#include "doca_build_config.h"

#define DOCA_ARCH_DPU_BF2 0

#define DOCA_COMPAT_HELPERS
#ifdef DOCA_DPA_DEVICE
#undef DOCA_COMPAT_HELPERS
#endif

#endif /* DOCA_CONFIG_H_ */
