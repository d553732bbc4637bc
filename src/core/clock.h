/*
 * Monotonic nanosecond clock and the spin pause, for every layer.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The monotonic clock in nanoseconds and the pause of a spinning thread,
 * defined once for every layer.
 */
#ifndef SDOCA_CORE_CLOCK_H_
#define SDOCA_CORE_CLOCK_H_

#include <stdint.h>
#include <time.h>

static inline uint64_t sdoca_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Between two rounds of a spin: lets the sibling hyper-thread run. */
#if defined(__x86_64__) || defined(__i386__)
#define sdoca_cpu_relax() __builtin_ia32_pause()
#else
#define sdoca_cpu_relax() ((void)0)
#endif

#endif /* SDOCA_CORE_CLOCK_H_ */
