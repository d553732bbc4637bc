/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The DOCA version softdoca is compatible with, and softdoca's own version.
 */
#ifndef DOCA_VERSION_H_
#define DOCA_VERSION_H_

#include <stddef.h>

#include "doca_compat.h"

/* softdoca's own release. CMake reads these three lines. */
#define SOFTDOCA_VERSION_MAJOR 0
#define SOFTDOCA_VERSION_MINOR 1
#define SOFTDOCA_VERSION_PATCH 0
#define SOFTDOCA_VERSION_STRING "0.1.0"

#if SOFTDOCA_API_VERSION >= 300

/* The DOCA 3.3 API (docs/compatibility.md says how far public material
 * establishes it); the build number of the 3.3.0 release is not public. */
#define DOCA_VERSION_MAJOR 3
#define DOCA_VERSION_MINOR 3
#define DOCA_VERSION_PATCH 0
#define DOCA_VERSION_STRING "3.3.0000"

#define DOCA_VERSION_CALC_EXACT(major, minor, patch) \
	((size_t)((major) << 24 | (minor) << 16 | (patch)))
#define DOCA_VERSION_EXACT \
	DOCA_VERSION_CALC_EXACT(DOCA_VERSION_MAJOR, DOCA_VERSION_MINOR, DOCA_VERSION_PATCH)
#define DOCA_VERSION_CALC(major, minor, patch) \
	((size_t)((major) << 24 | (minor) << 16 | ((patch)*1000)))
#define DOCA_VERSION_OFFICIAL \
	DOCA_VERSION_CALC(DOCA_VERSION_MAJOR, DOCA_VERSION_MINOR, DOCA_VERSION_PATCH)
#define DOCA_VERSION_EQ_CURRENT(major, minor, patch) \
	(DOCA_VERSION_CALC(major, minor, patch) == DOCA_VERSION_OFFICIAL)
#define DOCA_VERSION_LTE_CURRENT(major, minor, patch) \
	(DOCA_VERSION_CALC(major, minor, patch) <= DOCA_VERSION_OFFICIAL)

#else /* DOCA 2.x spelling */

#define DOCA_VER_MAJOR 2
#if SOFTDOCA_API_VERSION >= 205
#define DOCA_VER_MINOR 5
#define DOCA_VER_PATCH 108
#define DOCA_VER_STRING "2.5.0108"
#else
#define DOCA_VER_MINOR 2
#define DOCA_VER_PATCH 80
#define DOCA_VER_STRING "2.2.0080"
#endif
#define DOCA_VERSION_NUM(major, minor, patch) ((size_t)((major) << 24 | (minor) << 16 | (patch)))
#define DOCA_CURRENT_VERSION_NUM DOCA_VERSION_NUM(DOCA_VER_MAJOR, DOCA_VER_MINOR, DOCA_VER_PATCH)
#define DOCA_VERSION_EQ_CURRENT(major, minor, patch) \
	(DOCA_VERSION_NUM(major, minor, patch) == DOCA_CURRENT_VERSION_NUM)
#define DOCA_VERSION_LTE_CURRENT(major, minor, patch) \
	(DOCA_VERSION_NUM(major, minor, patch) <= DOCA_CURRENT_VERSION_NUM)
#define DOCA_VERSION_STRING DOCA_VER_STRING
#define DOCA_VERSION_EXACT DOCA_CURRENT_VERSION_NUM

#endif

SOFTDOCA_BEGIN_DECLS

/* The DOCA version the program was compiled against. */
static inline const char *doca_version(void)
{
	return DOCA_VERSION_STRING;
}

/* The DOCA version the library implements. */
DOCA_EXPERIMENTAL const char *doca_version_runtime(void);

SOFTDOCA_END_DECLS

#endif /* DOCA_VERSION_H_ */
