/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The DPA compiler's intrinsics, for device code compiled for the host
 * (docs/dpa.md, 2.5): fences are full host fences whatever the space, the
 * cycle and instruction counters read the time-stamp counter, the timer is
 * monotonic nanoseconds, fixed point is plain C (Q16.16).
 */
#ifndef DPAINTRIN_H_
#define DPAINTRIN_H_

#include <stdint.h>

#include "doca_compat.h"

SOFTDOCA_BEGIN_DECLS

/* CLOCK_MONOTONIC in nanoseconds (libdoca_dpa; strict C11 has no clock_gettime). */
DOCA_STABLE uint64_t softdoca_dpa_time_ns(void);

#ifndef DPA_INTRIN_VERSION
#define DPA_INTRIN_VERSION(major, minor) ((major)*100 + (minor))
#endif
/* Every version is accepted: the host forms do not change between them. */
#ifndef DPA_INTRIN_VERSION_USED
#define DPA_INTRIN_VERSION_USED DPA_INTRIN_VERSION(1, 3)
#endif

/* Memory spaces and orderings of __dpa_thread_fence. */
#define __DPA_HEAP 0
#define __DPA_MEMORY 1
#define __DPA_MMIO 2
#define __DPA_SYSTEM 3
#define __DPA_R 1
#define __DPA_W 2
#define __DPA_RW 3

#define __dpa_thread_fence(space, pred, succ) \
	((void)(space), (void)(pred), (void)(succ), __atomic_thread_fence(__ATOMIC_SEQ_CST))
#define __dpa_thread_memory_fence(pred, succ) __dpa_thread_fence(__DPA_MEMORY, pred, succ)
#define __dpa_thread_outbox_fence(pred, succ) __dpa_thread_fence(__DPA_MMIO, pred, succ)
#define __dpa_thread_window_fence(pred, succ) __dpa_thread_fence(__DPA_MMIO, pred, succ)
#define __dpa_thread_system_fence() __dpa_thread_fence(__DPA_SYSTEM, __DPA_RW, __DPA_RW)
#define __dpa_thread_window_read_inv() __dpa_thread_fence(__DPA_MMIO, __DPA_R, __DPA_R)
#define __dpa_thread_window_writeback() __dpa_thread_fence(__DPA_MMIO, __DPA_W, __DPA_W)
#define __dpa_thread_memory_writeback() __dpa_thread_fence(__DPA_MEMORY, __DPA_W, __DPA_W)
#define __dpa_compiler_barrier() __asm__ __volatile__("" ::: "memory")
#define __dpa_data_ignore(addr) ((void)(addr))

static inline uint64_t sdoca_dpa_intrin_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
	uint32_t lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
#elif defined(__aarch64__)
	uint64_t v;
	__asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
	return v;
#else
	return softdoca_dpa_time_ns();
#endif
}

static inline uint64_t __dpa_thread_cycles(void)
{
	return sdoca_dpa_intrin_ticks();
}

static inline uint64_t __dpa_thread_inst_ret(void)
{
	return sdoca_dpa_intrin_ticks();
}

/* Nanoseconds of CLOCK_MONOTONIC. */
static inline uint64_t __dpa_thread_time(void)
{
	return softdoca_dpa_time_ns();
}

/* Q16.16 fixed point: 1/n, 2^n and log2(n). */
static inline int __dpa_fxp_rcp(int n)
{
	return n == 0 ? INT32_MAX : (int)(((int64_t)1 << 32) / n);
}

static inline int __dpa_fxp_pow2(int n)
{
	/* 2^(i + f) = 2^i * 2^f, 2^f by its first-order expansion refined once. */
	int i = n >> 16;
	double f = (double)(n & 0xffff) / 65536.0;
	double p =
	        1.0 + f * (0.6931471805599453 + f * (0.2402265069591007 + f * 0.0555041086648216));
	double r = p * 65536.0;
	for (; i > 0; i--)
		r *= 2.0;
	for (; i < 0; i++)
		r /= 2.0;
	return r > (double)INT32_MAX ? INT32_MAX : (int)r;
}

static inline int __dpa_fxp_log2(int n)
{
	if (n <= 0)
		return INT32_MIN;
	int e = 0;
	double m = (double)n / 65536.0;
	while (m >= 2.0) {
		m /= 2.0;
		e++;
	}
	while (m < 1.0) {
		m *= 2.0;
		e--;
	}
	/* log2(m) for m in [1, 2) by bisection on squares: 16 fraction bits. */
	int frac = 0;
	for (int b = 15; b >= 0; b--) {
		m *= m;
		if (m >= 2.0) {
			m /= 2.0;
			frac |= 1 << b;
		}
	}
	return e * 65536 + frac;
}

SOFTDOCA_END_DECLS

#endif /* DPAINTRIN_H_ */
