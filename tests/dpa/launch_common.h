/*
 * softdoca tests: what the host and the kernels of the launch program share
 * (launch_kernels.c, launch_main.c).
 */
#ifndef SDOCA_TESTS_DPA_LAUNCH_COMMON_H_
#define SDOCA_TESTS_DPA_LAUNCH_COMMON_H_

#include <stdint.h>

#define LAUNCH_MAX_RANKS 64

/* What each rank of rank_kernel writes into DPA memory. */
struct rank_record {
	uint64_t rank; /* doca_dpa_dev_thread_rank() + 1 */
	uint64_t num_threads;
};

/* Passed by value: which slot of a uint64_t array mark_kernel writes. */
struct mark {
	uint32_t index;
	uint64_t value;
};

#endif /* SDOCA_TESTS_DPA_LAUNCH_COMMON_H_ */
