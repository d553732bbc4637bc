/*
 * A DOCA 2.2 program, as written for DOCA 2.2 (work queue and jobs): its
 * source and its build files name no softdoca macro. install_pkgconfig.sh
 * builds it against an installed softdoca through the modules of
 * lib/<multiarch>/pkgconfig/doca-2.2/, which select DOCA 2.2's API; through
 * the other modules it must not compile. Two RDMA instances of this process
 * connect, one writes into the other's memory with a write job; exits 0
 * when that worked as in DOCA 2.2.
 */
#ifndef DOCA_ALLOW_EXPERIMENTAL_API
#define DOCA_ALLOW_EXPERIMENTAL_API
#endif

#include <stdio.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_rdma.h>
#include <doca_version.h>

#define CHECK(call)                                                                    \
	do {                                                                           \
		doca_error_t r_ = (call);                                              \
		if (r_ != DOCA_SUCCESS) {                                              \
			fprintf(stderr, "%s: %s\n", #call, doca_get_error_string(r_)); \
			return 1;                                                      \
		}                                                                      \
	} while (0)

struct instance {
	struct doca_rdma *rdma;
	struct doca_ctx *ctx;
	struct doca_workq *workq;
	const void *details;
	size_t details_size;
};

static int start(struct doca_dev *dev, struct instance *in)
{
	enum doca_rdma_state state;

	CHECK(doca_rdma_create(&in->rdma));
	in->ctx = doca_rdma_as_ctx(in->rdma);
	CHECK(doca_ctx_dev_add(in->ctx, dev));
	CHECK(doca_rdma_set_permissions(in->rdma,
	                                DOCA_ACCESS_LOCAL_READ_WRITE | DOCA_ACCESS_RDMA_WRITE));
	CHECK(doca_ctx_start(in->ctx));
	CHECK(doca_rdma_get_state(in->rdma, &state));
	if (state != DOCA_RDMA_STATE_INIT)
		return 1;
	CHECK(doca_rdma_export(in->rdma, &in->details, &in->details_size));
	CHECK(doca_workq_create(4, &in->workq));
	return doca_ctx_workq_add(in->ctx, in->workq) != DOCA_SUCCESS;
}

static int stop(struct doca_dev *dev, struct instance *in)
{
	CHECK(doca_ctx_workq_rm(in->ctx, in->workq));
	CHECK(doca_workq_destroy(in->workq));
	CHECK(doca_ctx_stop(in->ctx));
	CHECK(doca_ctx_dev_rm(in->ctx, dev));
	CHECK(doca_rdma_destroy(in->rdma));
	return 0;
}

int main(void)
{
	static char memory[64], target[64];
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	struct instance a, b;
	struct doca_mmap *local, *exported, *remote;
	struct doca_buf_inventory *inv;
	struct doca_buf *src, *dst;
	struct doca_rdma_job_read_write job = { 0 };
	struct doca_rdma_result result;
	struct doca_event event = { 0 };
	const void *desc;
	size_t desc_len;
	uint32_t n;
	doca_error_t status;

	CHECK(doca_devinfo_list_create(&list, &n));
	if (n == 0)
		return 1;
	CHECK(doca_dev_open(list[0], &dev));
	CHECK(doca_devinfo_list_destroy(list));
	if (start(dev, &a) || start(dev, &b))
		return 1;
	CHECK(doca_rdma_connect(a.rdma, b.details, b.details_size));
	CHECK(doca_rdma_connect(b.rdma, a.details, a.details_size));

	CHECK(doca_mmap_create(NULL, &local));
	CHECK(doca_mmap_set_memrange(local, memory, sizeof(memory)));
	CHECK(doca_mmap_set_permissions(local, DOCA_ACCESS_LOCAL_READ_WRITE));
	CHECK(doca_mmap_dev_add(local, dev));
	CHECK(doca_mmap_start(local));
	CHECK(doca_mmap_create(NULL, &exported));
	CHECK(doca_mmap_set_memrange(exported, target, sizeof(target)));
	CHECK(doca_mmap_set_permissions(exported,
	                                DOCA_ACCESS_LOCAL_READ_WRITE | DOCA_ACCESS_RDMA_WRITE));
	CHECK(doca_mmap_dev_add(exported, dev));
	CHECK(doca_mmap_start(exported));
	CHECK(doca_mmap_export_rdma(exported, dev, &desc, &desc_len));
	CHECK(doca_mmap_create_from_export(NULL, desc, desc_len, dev, &remote));
	CHECK(doca_buf_inventory_create(NULL, 2, 0, &inv));
	CHECK(doca_buf_inventory_start(inv));
	snprintf(memory, sizeof(memory), "%s", DOCA_VER_STRING);
	CHECK(doca_buf_inventory_buf_by_data(inv, local, memory, sizeof(memory), &src));
	CHECK(doca_buf_inventory_buf_by_addr(inv, remote, target, sizeof(target), &dst));

	job.base.type = DOCA_RDMA_JOB_WRITE;
	job.base.flags = DOCA_JOB_FLAGS_NONE;
	job.base.ctx = a.ctx;
	job.src_buff = src;
	job.dst_buff = dst;
	CHECK(doca_workq_submit(a.workq, &job.base));
	event.result.ptr = &result;
	do
		status = doca_workq_progress_retrieve(a.workq, &event,
		                                      DOCA_WORKQ_RETRIEVE_FLAGS_NONE);
	while (status == DOCA_ERROR_AGAIN);
	CHECK(status);
	CHECK(result.result);

	CHECK(doca_buf_refcount_rm(src, NULL));
	CHECK(doca_buf_refcount_rm(dst, NULL));
	CHECK(doca_buf_inventory_destroy(inv));
	CHECK(doca_mmap_destroy(remote));
	CHECK(doca_mmap_destroy(exported));
	CHECK(doca_mmap_destroy(local));
	if (stop(dev, &a) || stop(dev, &b))
		return 1;
	CHECK(doca_dev_close(dev));
	printf("DOCA %s program: %s\n", DOCA_VER_STRING,
	       event.type == DOCA_RDMA_JOB_WRITE && strcmp(target, DOCA_VER_STRING) == 0
	               ? "OK"
	               : "FAILED");
	return 0;
}
