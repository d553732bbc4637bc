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

#endif /* DOCA_COMPAT_H_ */
