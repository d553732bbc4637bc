/*
 * softdoca-perf: the data pattern --check verifies.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The data --check verifies: every byte depends on the message's seed and
 * its position, so a lost, repeated, shifted or stale message is seen.
 *
 * Every pattern byte has its top bit set, so a poisoned byte (0, what
 * perf_pattern_poison leaves) is never one: a destination poisoned before
 * an operation shows every byte the operation did not place. The first
 * eight bytes hold the low 56 bits of (seed + 1) times an odd constant, 7
 * bits a byte: the first k bytes tell apart seeds that differ modulo 2^7k
 * (one byte: seeds one apart always differ).
 */
#include <string.h>

#include "perf.h"

static inline uint8_t byte_at(uint64_t seed, size_t i)
{
	uint64_t x = (seed + 1) * 0x9E3779B97F4A7C15ull;

	if (i >= 8) {
		x += (i >> 3) * 0xBF58476D1CE4E5B9ull;
		x ^= x >> 29;
	}
	return (uint8_t)(0x80 | ((x >> ((i & 7) * 7)) & 0x7f));
}

void perf_pattern_fill(uint8_t *buf, size_t len, uint64_t seed)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = byte_at(seed, i);
}

void perf_pattern_poison(uint8_t *buf, size_t len)
{
	memset(buf, 0, len);
}

size_t perf_pattern_mismatch(const uint8_t *buf, size_t len, uint64_t seed, uint8_t *want)
{
	for (size_t i = 0; i < len; i++)
		if (buf[i] != byte_at(seed, i)) {
			*want = byte_at(seed, i);
			return i;
		}
	return len;
}

bool perf_pattern_ok(const uint8_t *buf, size_t len, uint64_t seed)
{
	uint8_t want;

	return perf_pattern_mismatch(buf, len, seed, &want) == len;
}
