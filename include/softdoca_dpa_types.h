/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The DPA types that both the host header (doca_dpa.h) and the device
 * header (doca_dpa_dev.h) define, in one place so a source including both
 * compiles (an enum may not be defined twice).
 */
#ifndef SOFTDOCA_DPA_TYPES_H_
#define SOFTDOCA_DPA_TYPES_H_

#include <stdint.h>

#include "doca_compat.h"

/* What the DPA program's own log prints. */
__dpa_global__ typedef enum doca_dpa_dev_log_level {
	DOCA_DPA_DEV_LOG_LEVEL_DISABLE = 10,
	DOCA_DPA_DEV_LOG_LEVEL_ERROR = 30,
	DOCA_DPA_DEV_LOG_LEVEL_WARNING = 40,
	DOCA_DPA_DEV_LOG_LEVEL_INFO = 50,
	DOCA_DPA_DEV_LOG_LEVEL_DEBUG = 60,
} doca_dpa_dev_log_level_t;

/* Device-side handles and addresses: 64-bit values a kernel receives. */
__dpa_global__ typedef uint64_t doca_dpa_dev_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_uintptr_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_hash_table_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_completion_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_async_ops_t;
__dpa_global__ typedef uint64_t doca_dpa_dev_notification_completion_t;

#endif /* SOFTDOCA_DPA_TYPES_H_ */
