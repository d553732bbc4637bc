/*
 * Version queries and the softdoca.h introspection calls of Core.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <doca_version.h>
#include <softdoca.h>

#include "core/keys.h"

DOCA_EXPERIMENTAL const char *doca_version_runtime(void)
{
	return DOCA_VERSION_STRING;
}

DOCA_STABLE const char *softdoca_version(void)
{
	return SOFTDOCA_VERSION_STRING;
}

DOCA_STABLE uint32_t softdoca_num_memory_keys(void)
{
	return sdoca_keys_live();
}
