/*
 * libdoca_dpa: doca_dpa_rpc on the calling thread.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libdoca_dpa: doca_dpa_rpc. The RPC runs on the calling thread (the call
 * blocks anyway, docs/dpa.md 2.10): its arguments are unpacked from the
 * caller's `...` by the code dpacc generated for it, with its parameter
 * types, then it is called as rank 0 of 1.
 */
#include <stdalign.h>
#include <stdlib.h>

#include "core/sdk_log.h"
#include "dpa/dpa.h"

SDOCA_LOG_MODULE(dpa_rpc);

/* Frames up to this size live on the stack. */
#define RPC_STACK_FRAME 512

struct rpc_run {
	struct sdoca_dpa_exec exec;
	const struct softdoca_dpa_kernel *kernel;
	void *frame;
	uint64_t ret;
};

/* Kept out of doca_dpa_rpc so the state sigsetjmp must survive is in *run,
 * never in locals the jump could clobber. */
static doca_error_t rpc_call(struct rpc_run *run)
{
	struct sdoca_dpa_exec *outer = sdoca_dpa_exec;
	run->exec.abort_error = DOCA_SUCCESS;
	sdoca_dpa_exec = &run->exec;
	if (sigsetjmp(run->exec.entry, 0) == 0)
		run->ret = run->kernel->call(run->frame);
	sdoca_dpa_exec = outer;
	return run->exec.abort_error;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_rpc(struct doca_dpa *dpa, doca_dpa_func_t *func,
                                            uint64_t *retval, ...)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(func) || !sdoca_arg_valid(retval))
		return DOCA_ERROR_INVALID_VALUE;
	if (!dpa->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "doca_dpa_rpc: the DPA is not started");
	const struct softdoca_dpa_kernel *k =
	        sdoca_dpa_find_kernel(dpa, func, SOFTDOCA_DPA_KERNEL_RPC, __func__);
	if (k == NULL)
		return DOCA_ERROR_INVALID_VALUE;

	alignas(max_align_t) unsigned char stack_frame[RPC_STACK_FRAME];
	struct rpc_run run = {
		.exec = { .dpa = dpa,
		          .selected = dpa,
		          .kernel = k,
		          .rank = 0,
		          .num_threads = 1,
		          .deadline_ns = sdoca_dpa_deadline(dpa) },
		.kernel = k,
		.frame = stack_frame,
	};
	if (k->frame_size > sizeof(stack_frame) || k->frame_align > alignof(max_align_t)) {
		size_t align = k->frame_align > alignof(max_align_t) ? k->frame_align
		                                                     : alignof(max_align_t);
		run.frame = aligned_alloc(align, (k->frame_size + align - 1) / align * align);
		if (run.frame == NULL)
			return sdoca_fail(DOCA_ERROR_NO_MEMORY,
			                  "doca_dpa_rpc: no memory for the arguments of '%s'",
			                  k->name);
	}
	va_list args;
	va_start(args, retval);
	k->pack(&args, run.frame);
	va_end(args);

	doca_error_t err = rpc_call(&run);
	if (run.frame != stack_frame)
		free(run.frame);
	if (err != DOCA_SUCCESS) {
		sdoca_dpa_set_error(dpa, err);
		SDOCA_ERR("doca_dpa_rpc: RPC '%s' was aborted: %s", k->name,
		          doca_error_get_name(err));
		return err;
	}
	*retval = run.ret;
	return DOCA_SUCCESS;
}
