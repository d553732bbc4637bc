/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * rdma_write_responder -d sdoca_lo -ld resp.desc -re req.desc -m mmap.desc
 */
#include "rdma_common.h"

int main(int argc, char **argv)
{
	return rdma_sample_main(argc, argv, &rdma_write_responder_sample);
}
