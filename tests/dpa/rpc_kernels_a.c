/*
 * softdoca tests: device source 1 of the RPC program dpacc builds (with
 * rpc_kernels_b.c): RPCs taking integers, pointers, handles and a struct
 * by value, a static one, a device helper named like a host function, and
 * a struct type marked as DOCA's headers mark them.
 */
#include <doca_dpa_dev.h>
#include <dpaintrin.h>

#include "rpc_common.h"

struct local_only {
	int x;
} __dpa_global__; /* declares no variable on the host */

/* Named like a host function of rpc_main.c: both must link. */
uint64_t helper(uint64_t v)
{
	return v * 2;
}

__dpa_rpc__ uint64_t rpc_add(int a, int64_t b, unsigned char c, short d)
{
	DOCA_DPA_DEV_LOG_INFO("rpc_add: %d %ld %u %d\n", a, (long)b, c, d);
	return (uint64_t)(a + b + c + d);
}

/* Writes a pattern to device memory; the host reads it back with d2h. */
__dpa_rpc__ uint64_t rpc_fill(doca_dpa_dev_uintptr_t dst, uint32_t n, uint8_t first)
{
	uint64_t t0 = __dpa_thread_time(), c0 = __dpa_thread_cycles();
	uint8_t *p = (uint8_t *)dst;
	for (uint32_t i = 0; i < n; i++)
		p[i] = (uint8_t)(first + i);
	__dpa_thread_memory_writeback();
	/* The clocks do not go back (else the host sees a wrong result). */
	return helper(n) + (__dpa_thread_time() >= t0 && __dpa_thread_cycles() >= c0 ? 0 : 1000);
}

/* A struct by value, a float, a pointer to a struct and a handle. */
__dpa_rpc__ uint64_t rpc_struct(struct rpc_args args, float scale, struct rpc_result *res,
                                doca_dpa_dev_t dpa)
{
	doca_dpa_dev_device_set(dpa);
	res->sum = args.a + args.b + args.c[0] + args.c[1] + args.c[2];
	res->scaled = (uint64_t)(args.a * scale);
	res->handle = dpa;
	return args.tag;
}

/* Reached by name from the host although static. */
__dpa_rpc__ static uint64_t rpc_static(const uint64_t v)
{
	return ~v;
}

__dpa_global__ void kernel_noop(uint64_t arg)
{
	(void)arg;
}
