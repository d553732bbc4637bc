/*
 * softdoca-perf: timestamps for samples.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Timestamps for samples. perftest and ucx_perftest read the CPU's cycle
 * counter; so does this tool where that counter is steady (constant and
 * non-stop TSC): on a VM with kvm-clock, clock_gettime() costs ~28 ns and
 * the counter ~11 ns (measured), which a 0.3 us latency sample notices.
 * Elsewhere, CLOCK_MONOTONIC.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "perf.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

static struct {
	bool tsc;
	uint64_t mono0_ns;
	uint64_t tsc0;
	double ns_per_tick;
} clk;

uint64_t perf_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__)
static bool steady_tsc(void)
{
	char line[4096];
	bool constant = false, nonstop = false;
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "flags", 5) == 0) {
			constant = strstr(line, " constant_tsc") != NULL;
			nonstop = strstr(line, " nonstop_tsc") != NULL;
			break;
		}
	fclose(f);
	return constant && nonstop;
}
#endif

void perf_clock_init(void)
{
#if defined(__x86_64__)
	uint64_t t0, t1, c0, c1;

	if (!steady_tsc())
		return;
	/* Calibrated against CLOCK_MONOTONIC over 20 ms. */
	t0 = perf_mono_ns();
	c0 = __rdtsc();
	do
		t1 = perf_mono_ns();
	while (t1 - t0 < 20000000u);
	c1 = __rdtsc();
	if (c1 <= c0)
		return;
	clk.ns_per_tick = (double)(t1 - t0) / (double)(c1 - c0);
	clk.mono0_ns = t1;
	clk.tsc0 = c1;
	clk.tsc = true;
#endif
}

uint64_t perf_now_ns(void)
{
#if defined(__x86_64__)
	if (clk.tsc)
		return clk.mono0_ns + (uint64_t)((double)(__rdtsc() - clk.tsc0) * clk.ns_per_tick);
#endif
	return perf_mono_ns();
}
