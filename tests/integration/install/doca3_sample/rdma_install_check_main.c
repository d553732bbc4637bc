/*
 * A DOCA 3.x sample, built by install_meson.sh from <prefix>/samples/doca_rdma/
 * with DOCA's 3.x sample build file. It includes <samples/common.h> through
 * the DOCA root, as 3.x samples do (the test puts a stand-in there, as a user
 * copies DOCA's in), and runs a doca_rdma context the 3.x way. Prints the DOCA
 * version it was compiled for; exits 0 when the context behaved as in 3.x.
 */
#include <stdio.h>

#include <doca_argp.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_pe.h>
#include <doca_rdma.h>
#include <doca_version.h>

#include <samples/common.h>

#ifndef SDOCA_SAMPLES_COMMON_STAND_IN
#error "<samples/common.h> is not the stand-in install_meson.sh put in the tree"
#endif

#define CHECK(call, expected)                                                               \
	do {                                                                                \
		doca_error_t r_ = (call);                                                   \
		if (r_ != (expected)) {                                                     \
			fprintf(stderr, "%s: %s, not %s\n", #call, doca_error_get_name(r_), \
			        doca_error_get_name(expected));                             \
			return 1;                                                           \
		}                                                                           \
	} while (0)

/* Progresses PE until CTX is in state WANT (bounded). */
static doca_error_t wait_state(struct doca_pe *pe, struct doca_ctx *ctx, enum doca_ctx_states want)
{
	enum doca_ctx_states state;

	for (int rounds = 0; rounds < 1000000; rounds++) {
		doca_error_t status = doca_ctx_get_state(ctx, &state);

		if (status != DOCA_SUCCESS || state == want)
			return status;
		doca_pe_progress(pe);
	}
	return DOCA_ERROR_TIME_OUT;
}

int main(void)
{
	struct doca_devinfo **list;
	struct doca_dev *dev;
	struct doca_rdma *rdma;
	struct doca_pe *pe;
	struct doca_ctx *ctx;
	doca_error_t status;
	uint32_t n;

	CHECK(doca_devinfo_create_list(&list, &n), DOCA_SUCCESS);
	if (n == 0) {
		fprintf(stderr, "no device\n");
		return 1;
	}
	CHECK(doca_dev_open(list[0], &dev), DOCA_SUCCESS);
	CHECK(doca_devinfo_destroy_list(list), DOCA_SUCCESS);
	CHECK(doca_rdma_create(dev, &rdma), DOCA_SUCCESS);
	ctx = doca_rdma_as_ctx(rdma);
	CHECK(doca_pe_create(&pe), DOCA_SUCCESS);
	CHECK(doca_pe_connect_ctx(pe, ctx), DOCA_SUCCESS);

	/* DOCA 3.x: start succeeds, RUNNING at the next progress. */
	CHECK(doca_ctx_start(ctx), DOCA_SUCCESS);
	CHECK(wait_state(pe, ctx, DOCA_CTX_STATE_RUNNING), DOCA_SUCCESS);

	status = doca_ctx_stop(ctx);
	if (status == DOCA_ERROR_IN_PROGRESS)
		status = wait_state(pe, ctx, DOCA_CTX_STATE_IDLE);
	CHECK(status, DOCA_SUCCESS);
	CHECK(doca_rdma_destroy(rdma), DOCA_SUCCESS);
	CHECK(doca_pe_destroy(pe), DOCA_SUCCESS);
	CHECK(doca_dev_close(dev), DOCA_SUCCESS);
	printf("DOCA %s sample: OK\n", doca_version());
	return 0;
}
