/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * rdma_write_requester -d sdoca_lo -ld req.desc -re resp.desc -m mmap.desc [-s STRING]
 */
#include "rdma_common.h"

int main(int argc, char **argv)
{
	return rdma_sample_main(argc, argv, &rdma_write_requester_sample);
}
