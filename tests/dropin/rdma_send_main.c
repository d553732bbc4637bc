/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * rdma_send -d sdoca_lo -ld send.desc -re recv.desc [-s STRING]
 */
#include "rdma_common.h"

int main(int argc, char **argv)
{
	return rdma_sample_main(argc, argv, &rdma_send_sample);
}
