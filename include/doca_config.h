/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Build configuration: softdoca always runs on the host CPU.
 */
#ifndef DOCA_CONFIG_H_
#define DOCA_CONFIG_H_

#include <stddef.h>
#include <string.h>

#include "doca_version.h"

#define DOCA_ARCH_HOST 1
#if defined(__x86_64__) || defined(__i386__)
#define DOCA_ARCH_X86 1
#endif
#define DOCA_ARCH_DPU_BF2 0

#ifndef DOCA_DPA_DEVICE
#define DOCA_COMPAT_HELPERS 1
#endif

#ifdef DOCA_COMPAT_HELPERS
/* Versioned-struct helpers: a struct that starts with DOCA_STRUCT_START
 * records the API version it was built against. */
#define DOCA_STRUCT_START size_t __doca_api_version
#define DOCA_STRUCT_GET_VERSION(_X_) (_X_)->__doca_api_version
#define DOCA_STRUCT_CTOR(_X_) (_X_).__doca_api_version = DOCA_VERSION_EXACT
#define DOCA_STRUCT_PTR_CTOR(_X_) DOCA_STRUCT_CTOR(*(_X_))
#define DOCA_STRUCT_MEMSET_CTOR(_X_)            \
	do {                                    \
		memset(&(_X_), 0, sizeof(_X_)); \
		DOCA_STRUCT_CTOR(_X_);          \
	} while (0)
#define DOCA_STRUCT_PTR_MEMSET_CTOR(_X_) DOCA_STRUCT_MEMSET_CTOR(*(_X_))
#define DOCA_STRUCT_CTOR_LIST_START .__doca_api_version = DOCA_VERSION_EXACT
#define DOCA_STRUCT_DEF(__st__, __name__) \
	struct __st__ __name__ = { .__doca_api_version = DOCA_VERSION_EXACT }
#endif

#endif /* DOCA_CONFIG_H_ */
