/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * softdoca's own extensions: things real DOCA hardware does not offer but a
 * software implementation can (introspection, counters, fault injection).
 * Programs that want to stay portable to real DOCA guard their use with
 * #ifdef SOFTDOCA.
 */
#ifndef SOFTDOCA_H_
#define SOFTDOCA_H_

#include <stdint.h>

#include "doca_compat.h"
#include "doca_error.h"
#include "doca_version.h"

/* Defined when the DOCA headers in use are softdoca's. */
#define SOFTDOCA 1

SOFTDOCA_BEGIN_DECLS

/* softdoca's release, e.g. "0.1.0" (doca_version_runtime() gives the DOCA API level). */
DOCA_STABLE const char *softdoca_version(void);

/* Memory keys registered in this process: one per started local mmap. A key
 * disappears when its mmap is stopped or destroyed (useful in leak checks). */
DOCA_STABLE uint32_t softdoca_num_memory_keys(void);

SOFTDOCA_END_DECLS

#endif /* SOFTDOCA_H_ */
