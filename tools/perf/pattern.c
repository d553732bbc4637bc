/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The data --check verifies: every byte depends on the message's seed and
 * its position, so a lost, repeated, shifted or stale message is seen.
 */
#include "perf.h"

static inline uint8_t byte_at(uint64_t seed, size_t i)
{
	uint64_t x = (seed + 1) * 0x9E3779B97F4A7C15ull + (i >> 3) * 0xBF58476D1CE4E5B9ull;

	return (uint8_t)((x ^ (x >> 29)) >> ((i & 7) * 8));
}

void perf_pattern_fill(uint8_t *buf, size_t len, uint64_t seed)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = byte_at(seed, i);
}

bool perf_pattern_ok(const uint8_t *buf, size_t len, uint64_t seed)
{
	for (size_t i = 0; i < len; i++)
		if (buf[i] != byte_at(seed, i))
			return false;
	return true;
}
