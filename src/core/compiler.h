/*
 * Small compiler helpers used by every module.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SDOCA_CORE_COMPILER_H_
#define SDOCA_CORE_COMPILER_H_

#include <stddef.h>

/* Marks an internal function that another softdoca library calls.
 * Such functions carry the "sdoca_" prefix so they cannot clash with
 * symbols of the application; everything else stays hidden. */
#define SDOCA_EXPORT __attribute__((visibility("default")))

#define SDOCA_UNUSED __attribute__((unused))
/* For a function on the per-message path that has a second, rare caller. */
#define SDOCA_ALWAYS_INLINE inline __attribute__((always_inline))
#define SDOCA_LIKELY(x) __builtin_expect(!!(x), 1)
#define SDOCA_UNLIKELY(x) __builtin_expect(!!(x), 0)

#define SDOCA_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The object that embeds *ptr as its member. */
#define sdoca_container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr)-offsetof(type, member)))

#endif /* SDOCA_CORE_COMPILER_H_ */
