/*
 * softdoca tests: what the host and the DPA threads of the thread program
 * share (thread_kernels.c, thread_main.c): each thread's local storage.
 */
#ifndef SDOCA_TESTS_DPA_THREAD_COMMON_H_
#define SDOCA_TESTS_DPA_THREAD_COMMON_H_

#include <stdint.h>

#define THREAD_ARG_MAGIC 0x5eed0000cafeull

/* In DPA memory; a thread's local storage points at its own. */
struct thread_state {
	uint64_t count;    /* activations seen by the kernel */
	uint64_t limit;    /* when to finish / report */
	uint64_t peer;     /* the other thread's notification completion */
	uint64_t self;     /* the own notification completion */
	uint64_t done;     /* a sync event's DPA handle */
	uint64_t rank;     /* doca_dpa_dev_thread_rank() + 1 seen last */
	uint64_t bad_arg;  /* activations whose argument was not THREAD_ARG_MAGIC */
	uint64_t fault_at; /* the wild pointer fault_kernel writes to */
};

#endif /* SDOCA_TESTS_DPA_THREAD_COMMON_H_ */
