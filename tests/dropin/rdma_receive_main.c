/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * rdma_receive -d sdoca_lo -ld recv.desc -re send.desc
 */
#include "rdma_common.h"

int main(int argc, char **argv)
{
	return rdma_sample_main(argc, argv, &rdma_receive_sample);
}
