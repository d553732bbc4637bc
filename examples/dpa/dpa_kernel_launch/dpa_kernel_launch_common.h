/*
 * softdoca DPA examples - SPDX-License-Identifier: Apache-2.0
 *
 * dpa_kernel_launch: what the host and the kernel share.
 */
#ifndef DPA_KERNEL_LAUNCH_COMMON_H_
#define DPA_KERNEL_LAUNCH_COMMON_H_

#include <stdint.h>

#define KERNEL_LAUNCH_THREADS 4

/* Passed by value to the kernel (through doca_dpa_kernel_launch_update_set). */
struct hello_args {
	uint64_t stamp; /* each thread writes stamp + rank * step */
	uint32_t step;
	uint32_t num_writes; /* how many results the host expects */
};

#endif /* DPA_KERNEL_LAUNCH_COMMON_H_ */
