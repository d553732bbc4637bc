/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * doca_rdma_write_requester [-d DEV] [-ld FILE] [-re FILE] [-m FILE] [-s|-r|-w STRING] [-g N]
 */
#include <doca_error.h>

#include "rdma_common.h"

/* The DOCA flow, in rdma_write_requester_sample.c. */
doca_error_t rdma_write_requester(struct rdma_config *cfg);

int main(int argc, char **argv)
{
	return run_sample(argc, argv, "rdma_write_requester", rdma_write_requester);
}
