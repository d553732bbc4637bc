/*
 * softdoca DPA examples - SPDX-License-Identifier: Apache-2.0
 *
 * dpa_kernel_launch: a kernel of KERNEL_LAUNCH_THREADS threads launched
 * with doca_dpa_kernel_launch_update_set, gated by a sync event the CPU
 * sets (the kernel may not start before) and setting a completion event
 * the CPU waits on. The host checks that nothing ran before the gate
 * opened and every thread's result exactly; exit 1 on any difference.
 */
#include <stdlib.h>
#include <string.h>

#include <doca_dpa.h>
#include <doca_log.h>
#include <doca_sync_event.h>

#include "dpa_common.h"
#include "../dpa_kernel_launch_common.h"

DOCA_LOG_REGISTER(DPA_KERNEL_LAUNCH::SAMPLE);

/* The kernel, in the DPA program dpacc built. */
doca_dpa_func_t hello_kernel;

#define CHECK(call)                                                               \
	do {                                                                      \
		doca_error_t st_ = (call);                                        \
		if (st_ != DOCA_SUCCESS) {                                        \
			DOCA_LOG_ERR("%s: %s", #call, doca_error_get_descr(st_)); \
			return st_;                                               \
		}                                                                 \
	} while (0)

static doca_error_t kernel_launch(struct dpa_resources *res)
{
	const struct hello_args args = { .stamp = 0x5ca1ab1e00000000ull,
		                         .step = 0x100,
		                         .num_writes = KERNEL_LAUNCH_THREADS };
	struct doca_sync_event *wait_ev, *comp_ev;
	uint64_t results[KERNEL_LAUNCH_THREADS];
	doca_dpa_dev_uintptr_t dev_results;
	uint64_t value;
	int wrong = 0;

	/* The CPU opens the gate; the DPA sets the completion event. */
	CHECK(dpa_sync_event_create(res, DPA_LOC_CPU, DPA_LOC_DPA, &wait_ev, NULL));
	CHECK(dpa_sync_event_create(res, DPA_LOC_DPA, DPA_LOC_CPU, &comp_ev, NULL));
	CHECK(doca_dpa_mem_alloc(res->dpa, sizeof(results), &dev_results));
	CHECK(doca_dpa_memset(res->dpa, dev_results, 0, sizeof(results)));

	DOCA_LOG_INFO("Launching a kernel of %d threads, waiting for the wait event to pass 0",
	              KERNEL_LAUNCH_THREADS);
	CHECK(doca_dpa_kernel_launch_update_set(res->dpa, wait_ev, 0, comp_ev, 1,
	                                        KERNEL_LAUNCH_THREADS, &hello_kernel, dev_results,
	                                        args));

	/* Gated: nothing may have run yet. */
	CHECK(doca_sync_event_get(comp_ev, &value));
	CHECK(doca_dpa_d2h_memcpy(res->dpa, results, dev_results, sizeof(results)));
	for (int i = 0; i < KERNEL_LAUNCH_THREADS; i++)
		wrong |= results[i] != 0;
	if (value != 0 || wrong) {
		DOCA_LOG_ERR("the kernel ran before the wait event was set");
		return DOCA_ERROR_BAD_STATE;
	}

	DOCA_LOG_INFO("Setting the wait event to 1");
	CHECK(doca_sync_event_update_set(wait_ev, 1));
	CHECK(doca_sync_event_wait_gt(comp_ev, 0, UINT64_MAX));
	CHECK(doca_sync_event_get(comp_ev, &value));
	DOCA_LOG_INFO("The kernel set the completion event to %lu", (unsigned long)value);

	CHECK(doca_dpa_d2h_memcpy(res->dpa, results, dev_results, sizeof(results)));
	for (int i = 0; i < KERNEL_LAUNCH_THREADS; i++) {
		uint64_t want = args.stamp + (uint64_t)i * args.step;

		if (results[i] != want) {
			DOCA_LOG_ERR("thread %d wrote 0x%016lx, expected 0x%016lx", i,
			             (unsigned long)results[i], (unsigned long)want);
			wrong = 1;
		} else {
			DOCA_LOG_INFO("Thread %d wrote 0x%016lx", i, (unsigned long)results[i]);
		}
	}
	if (value != 1)
		wrong = 1;
	if (doca_dpa_peek_at_last_error(res->dpa) != DOCA_SUCCESS) {
		DOCA_LOG_ERR("the DPA reported an error: %s",
		             doca_error_get_descr(doca_dpa_peek_at_last_error(res->dpa)));
		wrong = 1;
	}

	CHECK(doca_dpa_mem_free(res->dpa, dev_results));
	CHECK(dpa_sync_event_destroy(comp_ev));
	CHECK(dpa_sync_event_destroy(wait_ev));
	return wrong ? DOCA_ERROR_UNEXPECTED : DOCA_SUCCESS;
}

int main(int argc, char **argv)
{
	struct dpa_config cfg;
	struct dpa_resources res;
	doca_error_t st;

	if (dpa_common_init("doca_dpa_kernel_launch", &cfg, 0, argc, argv) != DOCA_SUCCESS)
		return EXIT_FAILURE;
	DOCA_LOG_INFO("Starting the sample");
	st = dpa_resources_create(&cfg, &res);
	if (st == DOCA_SUCCESS) {
		st = kernel_launch(&res);
		doca_error_t st2 = dpa_resources_destroy(&res);
		if (st == DOCA_SUCCESS)
			st = st2;
	}
	dpa_common_fini();
	if (st != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Sample finished with errors: %s", doca_error_get_descr(st));
		return EXIT_FAILURE;
	}
	DOCA_LOG_INFO("Sample finished successfully");
	return EXIT_SUCCESS;
}
