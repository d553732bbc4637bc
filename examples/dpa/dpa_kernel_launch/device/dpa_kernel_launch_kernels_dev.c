/*
 * softdoca DPA examples - SPDX-License-Identifier: Apache-2.0
 *
 * dpa_kernel_launch, device part: every thread of the launch says hello and
 * writes its result into DPA memory the host reads back.
 */
#include <doca_dpa_dev.h>

#include "../dpa_kernel_launch_common.h"

__dpa_global__ void hello_kernel(doca_dpa_dev_uintptr_t results, struct hello_args args)
{
	unsigned int rank = doca_dpa_dev_thread_rank();
	unsigned int num = doca_dpa_dev_num_threads();

	DOCA_DPA_DEV_LOG_INFO("Hello from kernel thread %u of %u\n", rank, num);
	if (rank < args.num_writes)
		((uint64_t *)results)[rank] = args.stamp + (uint64_t)rank * args.step;
}
