/*
 * libdoca_dpa: EU affinity objects.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libdoca_dpa: EU affinity objects. The EU id is checked against the DPA's
 * EUs and kept for the thread it is given to; host threads are not pinned
 * (docs/dpa.md 2.6).
 */
#include <stdlib.h>

#include "core/sdk_log.h"
#include "dpa/dpa.h"
#include "dpa/info.h"

SDOCA_LOG_MODULE(dpa_affinity);

#define NO_EU UINT32_MAX

struct doca_dpa_eu_affinity {
	struct doca_dpa *dpa;
	uint32_t eu_id; /* NO_EU when cleared */
};

DOCA_EXPERIMENTAL doca_error_t doca_dpa_eu_affinity_create(struct doca_dpa *dpa,
                                                           struct doca_dpa_eu_affinity **affinity)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(affinity))
		return DOCA_ERROR_INVALID_VALUE;
	struct doca_dpa_eu_affinity *a = calloc(1, sizeof(*a));
	if (a == NULL)
		return sdoca_fail(DOCA_ERROR_NO_MEMORY,
		                  "doca_dpa_eu_affinity_create: out of memory");
	a->dpa = dpa;
	a->eu_id = NO_EU;
	atomic_fetch_add(&dpa->affinities, 1);
	*affinity = a;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_eu_affinity_destroy(struct doca_dpa_eu_affinity *affinity)
{
	if (!sdoca_arg_valid(affinity))
		return DOCA_ERROR_INVALID_VALUE;
	atomic_fetch_sub(&affinity->dpa->affinities, 1);
	free(affinity);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_eu_affinity_set(struct doca_dpa_eu_affinity *affinity,
                                                        unsigned int eu_id)
{
	if (!sdoca_arg_valid(affinity))
		return DOCA_ERROR_INVALID_VALUE;
	if (eu_id >= affinity->dpa->total_eus)
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "doca_dpa_eu_affinity_set: EU %u does not exist (the DPA has EUs 0..%u)",
		        eu_id, affinity->dpa->total_eus - 1);
	affinity->eu_id = eu_id;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_eu_affinity_clear(struct doca_dpa_eu_affinity *affinity)
{
	if (!sdoca_arg_valid(affinity))
		return DOCA_ERROR_INVALID_VALUE;
	affinity->eu_id = NO_EU;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_eu_affinity_get(struct doca_dpa_eu_affinity *affinity,
                                                        unsigned int *eu_id)
{
	if (!sdoca_arg_valid(affinity) || !sdoca_arg_valid(eu_id))
		return DOCA_ERROR_INVALID_VALUE;
	if (affinity->eu_id == NO_EU)
		return sdoca_fail(DOCA_ERROR_NOT_FOUND, "doca_dpa_eu_affinity_get: no EU is set");
	*eu_id = affinity->eu_id;
	return DOCA_SUCCESS;
}

uint32_t sdoca_dpa_affinity_eu(const struct doca_dpa_eu_affinity *affinity)
{
	return affinity->eu_id == NO_EU ? SOFTDOCA_DPA_NO_EU : affinity->eu_id;
}
