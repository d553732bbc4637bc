/*
 * A DOCA 2.5 program, as written for DOCA 2.5: its source and its build
 * files name no softdoca macro. install_pkgconfig.sh and install_meson.sh
 * build it against an installed softdoca through the pkg-config module
 * "doca" (DOCA 2.x's single module) or the per-library modules of
 * lib/<multiarch>/pkgconfig/doca-2.5/, which select DOCA 2.5's API; through
 * the 3.x modules it must not compile (the tasks' 2.5 signatures). Exits 0
 * when the context behaved as in DOCA 2.5.
 */
#ifndef DOCA_ALLOW_EXPERIMENTAL_API
#define DOCA_ALLOW_EXPERIMENTAL_API
#endif

#include <stdio.h>

#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_pe.h>
#include <doca_rdma.h>
#include <doca_version.h>

#define CHECK(call, expected)                                                               \
	do {                                                                                \
		doca_error_t r_ = (call);                                                   \
		if (r_ != (expected)) {                                                     \
			fprintf(stderr, "%s: %s, not %s\n", #call, doca_error_get_name(r_), \
			        doca_error_get_name(expected));                             \
			return 1;                                                           \
		}                                                                           \
	} while (0)

static void read_done(struct doca_rdma_task_read *task, union doca_data task_user_data,
                      union doca_data ctx_user_data)
{
	(void)task_user_data;
	(void)ctx_user_data;
	doca_task_free(doca_rdma_task_read_as_task(task));
}

int main(void)
{
	struct doca_devinfo **list;
	struct doca_dev *dev;
	struct doca_rdma *rdma;
	struct doca_rdma_task_read *task;
	struct doca_pe *pe;
	struct doca_ctx *ctx;
	union doca_data user_data = { .u64 = 25 };
	enum doca_ctx_states state;
	const void *blob;
	size_t blob_len;
	doca_error_t status;
	uint32_t n;
	int rounds;

	CHECK(doca_devinfo_create_list(&list, &n), DOCA_SUCCESS);
	if (n == 0) {
		fprintf(stderr, "no device\n");
		return 1;
	}
	CHECK(doca_dev_open(list[0], &dev), DOCA_SUCCESS);
	CHECK(doca_devinfo_destroy_list(list), DOCA_SUCCESS);
	CHECK(doca_rdma_create(dev, &rdma), DOCA_SUCCESS);
	ctx = doca_rdma_as_ctx(rdma);
	CHECK(doca_rdma_task_read_set_conf(rdma, read_done, read_done, 4), DOCA_SUCCESS);
	CHECK(doca_pe_create(&pe), DOCA_SUCCESS);
	CHECK(doca_pe_connect_ctx(pe, ctx), DOCA_SUCCESS);

	/* DOCA 2.5: the context waits for its one connection. */
	CHECK(doca_ctx_start(ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(doca_rdma_export(rdma, &blob, &blob_len), DOCA_SUCCESS);
	/*
	 * The 2.5 form, without a connection argument; refused (and logged)
	 * while the context is STARTING, as DOCA allocates tasks in RUNNING.
	 */
	CHECK(doca_rdma_task_read_allocate_init(rdma, NULL, NULL, user_data, &task),
	      DOCA_ERROR_BAD_STATE);

	status = doca_ctx_stop(ctx);
	for (rounds = 0; status == DOCA_ERROR_IN_PROGRESS && rounds < 1000000; rounds++) {
		doca_pe_progress(pe);
		CHECK(doca_ctx_get_state(ctx, &state), DOCA_SUCCESS);
		if (state == DOCA_CTX_STATE_IDLE)
			status = DOCA_SUCCESS;
	}
	CHECK(status, DOCA_SUCCESS);
	CHECK(doca_rdma_destroy(rdma), DOCA_SUCCESS);
	CHECK(doca_pe_destroy(pe), DOCA_SUCCESS);
	CHECK(doca_dev_close(dev), DOCA_SUCCESS);
	printf("DOCA %s program: OK (connection blob %zu bytes)\n", doca_version(), blob_len);
	return 0;
}
