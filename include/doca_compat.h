/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Symbol attributes and the API-generation switch.
 *
 * Programs select the DOCA generation they were written for with
 * SOFTDOCA_API_VERSION: 300 (DOCA 3.x, the default), 205 (DOCA 2.5 progress
 * engine API) or 202 (the 2023 workq/job API). Where one name has a
 * different signature or behaviour in an older generation, the header binds
 * the name to a distinct exported symbol, so one library serves every
 * generation.
 */
#ifndef DOCA_COMPAT_H_
#define DOCA_COMPAT_H_

#include "doca_config.h"

#ifndef SOFTDOCA_API_VERSION
#define SOFTDOCA_API_VERSION 300
#endif

#if SOFTDOCA_API_VERSION != 300 && SOFTDOCA_API_VERSION != 205 && SOFTDOCA_API_VERSION != 202
#error "SOFTDOCA_API_VERSION must be 300 (DOCA 3.x), 205 (DOCA 2.5) or 202 (DOCA 2.2 workq API)"
#endif

#define DOCA_USED __attribute__((used))
#define DOCA_STABLE __attribute__((visibility("default")))

#ifdef DOCA_ALLOW_EXPERIMENTAL_API
#define DOCA_EXPERIMENTAL __attribute__((visibility("default")))
#else
#define DOCA_EXPERIMENTAL \
	__attribute__((visibility("default"), deprecated("Symbol is defined as experimental")))
#endif

#ifdef DOCA_ALLOW_DEPRECATED_API
#define DOCA_DEPRECATED __attribute__((visibility("default")))
#else
#define DOCA_DEPRECATED \
	__attribute__((visibility("default"), deprecated("Symbol is defined as deprecated")))
#endif

/* The DPA compiler's markers of kernels (__dpa_global__) and RPCs
 * (__dpa_rpc__), which DOCA's headers also put before device types. A DPA
 * program's sources are compiled for the host here (tools/dpacc), so they
 * mark nothing: `} __dpa_global__;` declares no variable. */
#ifndef __dpa_global__
#define __dpa_global__
#endif
#ifndef __dpa_rpc__
#define __dpa_rpc__
#endif

/* 2.2 spellings of the same attributes. */
#define DOCA_EXPORTED DOCA_STABLE
#define __DOCA_EXPERIMENTAL DOCA_EXPERIMENTAL

/* Binds a declaration to the exported symbol of another generation. */
#define SOFTDOCA_SYMBOL_(s) __asm__(#s)
#define SOFTDOCA_SYMBOL(gen, name) SOFTDOCA_SYMBOL_(softdoca_v##gen##_##name)

#ifdef __cplusplus
#define SOFTDOCA_BEGIN_DECLS extern "C" {
#define SOFTDOCA_END_DECLS }
#else
#define SOFTDOCA_BEGIN_DECLS
#define SOFTDOCA_END_DECLS
#endif

/* Host builds: the versioned-struct helpers, and the standard headers
 * DOCA's doca_compat.h brings along with them. Programs written for DOCA
 * call memset, strlen, strnlen, malloc, exit, assert ... having included
 * only DOCA headers (docs/compatibility.md, "Headers"). */
#ifdef DOCA_COMPAT_HELPERS
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "doca_version.h"

/* A struct that starts with DOCA_STRUCT_START records the API version it
 * was built against. */
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
#endif /* DOCA_COMPAT_HELPERS */

#endif /* DOCA_COMPAT_H_ */
