/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The shared part of the per-operation examples (see example.h).
 */
#include "example.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

DOCA_LOG_REGISTER(EXAMPLE);

/* How long a program waits for its peer's files before giving up. */
#define EXAMPLE_WAIT_S 60

void example_die(const char *what, doca_error_t status)
{
	DOCA_LOG_ERR("%s: %s (%s)", what, doca_error_get_descr(status),
	             doca_error_get_name(status));
	exit(1);
}

void example_task_finished(struct doca_task *task, union doca_data ctx_user_data)
{
	struct example *ex = ctx_user_data.ptr;

	ex->task_status = doca_task_get_status(task);
	ex->task_done = true;
}

void example_parse(struct example *ex, int argc, char **argv, const char *usage)
{
	int opt;

	*ex = (struct example){ .device = "lo", .text = "Hello from softdoca" };
	while ((opt = getopt(argc, argv, "d:l:r:m:t:v:c:h")) != -1) {
		switch (opt) {
		case 'd':
			ex->device = optarg;
			break;
		case 'l':
			ex->local_file = optarg;
			break;
		case 'r':
			ex->remote_file = optarg;
			break;
		case 'm':
			ex->mmap_file = optarg;
			break;
		case 't':
			ex->text = optarg;
			break;
		case 'v':
			ex->value = strtoull(optarg, NULL, 0);
			break;
		case 'c':
			ex->compare = strtoull(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: %s %s\n", argv[0], usage);
			exit(opt == 'h' ? 0 : 2);
		}
	}
	if (!ex->local_file || !ex->remote_file) {
		fprintf(stderr, "usage: %s %s\n", argv[0], usage);
		exit(2);
	}
	if (strlen(ex->text) >= EXAMPLE_MEM_SIZE / 2) {
		fprintf(stderr, "%s: -t TEXT is limited to %d bytes\n", argv[0],
		        EXAMPLE_MEM_SIZE / 2 - 1);
		exit(2);
	}
	/* Files this program writes start absent, so the peer never reads an old one. */
	unlink(ex->local_file);
}

void example_open_device(struct example *ex)
{
	struct doca_devinfo **list;
	uint32_t n;

	EXAMPLE_CHECK(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && !ex->dev; i++) {
		char iface[DOCA_DEVINFO_IFACE_NAME_SIZE];
		char ibdev[DOCA_DEVINFO_IBDEV_NAME_SIZE];

		EXAMPLE_CHECK(doca_devinfo_get_iface_name(list[i], iface, sizeof(iface)));
		EXAMPLE_CHECK(doca_devinfo_get_ibdev_name(list[i], ibdev, sizeof(ibdev)));
		if (strcmp(iface, ex->device) == 0 || strcmp(ibdev, ex->device) == 0)
			EXAMPLE_CHECK(doca_dev_open(list[i], &ex->dev));
	}
	EXAMPLE_CHECK(doca_devinfo_destroy_list(list));
	if (!ex->dev) {
		DOCA_LOG_ERR("no device named %s", ex->device);
		exit(1);
	}
}

void example_open(struct example *ex, uint32_t access)
{
	union doca_data ud = { .ptr = ex };

	example_open_device(ex);
	ex->mem = mmap(NULL, EXAMPLE_MEM_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	               -1, 0);
	if (ex->mem == MAP_FAILED) {
		DOCA_LOG_ERR("mmap: %s", strerror(errno));
		exit(1);
	}
	EXAMPLE_CHECK(doca_mmap_create(&ex->mmap));
	EXAMPLE_CHECK(doca_mmap_set_memrange(ex->mmap, ex->mem, EXAMPLE_MEM_SIZE));
	EXAMPLE_CHECK(doca_mmap_set_permissions(ex->mmap, access));
	EXAMPLE_CHECK(doca_mmap_add_dev(ex->mmap, ex->dev));
	EXAMPLE_CHECK(doca_mmap_start(ex->mmap));
	EXAMPLE_CHECK(doca_buf_inventory_create(4, &ex->inv));
	EXAMPLE_CHECK(doca_buf_inventory_start(ex->inv));
	EXAMPLE_CHECK(doca_pe_create(&ex->pe));
	EXAMPLE_CHECK(doca_rdma_create(ex->dev, &ex->rdma));
	EXAMPLE_CHECK(doca_rdma_set_permissions(ex->rdma, access));
	EXAMPLE_CHECK(doca_ctx_set_user_data(doca_rdma_as_ctx(ex->rdma), ud));
	EXAMPLE_CHECK(doca_pe_connect_ctx(ex->pe, doca_rdma_as_ctx(ex->rdma)));
}

/* Written under a temporary name, then renamed: the reader sees all or nothing. */
void example_write_file(const char *path, const void *data, size_t len)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0 || rename(tmp, path) != 0) {
		DOCA_LOG_ERR("cannot write %s: %s", path, strerror(errno));
		exit(1);
	}
}

/* Waits (bounded) for the peer to create `path`, then reads it whole. */
void *example_wait_file(const char *path, size_t *len)
{
	const struct timespec tick = { .tv_nsec = 10 * 1000 * 1000 };
	FILE *f;
	char *data;
	long size;

	for (int i = 0; !(f = fopen(path, "rb")); i++) {
		if (errno != ENOENT || i >= EXAMPLE_WAIT_S * 100) {
			DOCA_LOG_ERR("waited for %s: %s", path, strerror(errno));
			exit(1);
		}
		nanosleep(&tick, NULL);
	}
	if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
		size = -1;
	data = size >= 0 ? malloc((size_t)size + 1) : NULL;
	if (!data || fread(data, 1, (size_t)size, f) != (size_t)size) {
		DOCA_LOG_ERR("cannot read %s", path);
		exit(1);
	}
	fclose(f);
	*len = (size_t)size;
	return data;
}

void example_start_and_connect(struct example *ex)
{
	enum doca_ctx_states state;
	const void *blob;
	size_t len;
	void *peer;

	EXAMPLE_CHECK(doca_ctx_start(doca_rdma_as_ctx(ex->rdma)));
	EXAMPLE_CHECK(doca_rdma_export(ex->rdma, &blob, &len, &ex->conn));
	example_write_file(ex->local_file, blob, len);
	printf("connection blob written to %s (%zu bytes), waiting for %s\n", ex->local_file, len,
	       ex->remote_file);
	peer = example_wait_file(ex->remote_file, &len);
	EXAMPLE_CHECK(doca_rdma_connect(ex->rdma, peer, len, ex->conn));
	free(peer);
	do {
		doca_pe_progress(ex->pe);
		EXAMPLE_CHECK(doca_ctx_get_state(doca_rdma_as_ctx(ex->rdma), &state));
	} while (state != DOCA_CTX_STATE_RUNNING);
	printf("connected\n");
}

void example_export_memory(struct example *ex)
{
	const void *blob;
	size_t len;

	if (!ex->mmap_file) {
		DOCA_LOG_ERR("-m FILE is needed for the memory blob");
		exit(2);
	}
	EXAMPLE_CHECK(doca_mmap_export_rdma(ex->mmap, ex->dev, &blob, &len));
	example_write_file(ex->mmap_file, blob, len);
}

void example_import_memory(struct example *ex)
{
	void *blob, *addr;
	size_t len;

	if (!ex->mmap_file) {
		DOCA_LOG_ERR("-m FILE is needed for the memory blob");
		exit(2);
	}
	blob = example_wait_file(ex->mmap_file, &len);
	EXAMPLE_CHECK(doca_mmap_create_from_export(NULL, blob, len, ex->dev, &ex->remote_mmap));
	free(blob);
	EXAMPLE_CHECK(doca_mmap_get_memrange(ex->remote_mmap, &addr, &len));
	ex->remote_mem = addr;
}

static struct doca_buf *buf_over(struct example *ex, struct doca_mmap *mmap, char *mem,
                                 size_t offset, size_t len, size_t data_len)
{
	struct doca_buf *buf;

	EXAMPLE_CHECK(doca_buf_inventory_buf_get_by_args(ex->inv, mmap, mem + offset, len,
	                                                 mem + offset, data_len, &buf));
	return buf;
}

struct doca_buf *example_local_buf(struct example *ex, size_t offset, size_t len, size_t data_len)
{
	return buf_over(ex, ex->mmap, ex->mem, offset, len, data_len);
}

struct doca_buf *example_remote_buf(struct example *ex, size_t offset, size_t len, size_t data_len)
{
	return buf_over(ex, ex->remote_mmap, ex->remote_mem, offset, len, data_len);
}

void example_submit(struct example *ex, struct doca_task *task)
{
	ex->task_done = false;
	EXAMPLE_CHECK(doca_task_submit(task));
}

doca_error_t example_wait_task(struct example *ex)
{
	while (!ex->task_done)
		doca_pe_progress(ex->pe);
	return ex->task_status;
}

doca_error_t example_run_task(struct example *ex, struct doca_task *task)
{
	example_submit(ex, task);
	return example_wait_task(ex);
}

static const char *done_file(const char *blob_file, char *out, size_t size)
{
	snprintf(out, size, "%s.done", blob_file);
	return out;
}

void example_signal_done(struct example *ex)
{
	char path[4096];

	example_write_file(done_file(ex->local_file, path, sizeof(path)), "done", 4);
}

void example_wait_peer_done(struct example *ex)
{
	char path[4096];
	size_t len;

	printf("waiting for the requester (%s)\n", done_file(ex->remote_file, path, sizeof(path)));
	/* No progress calls while waiting: the soft NIC serves the peer on its own. */
	free(example_wait_file(path, &len));
}

void example_close(struct example *ex)
{
	enum doca_ctx_states state;

	if (doca_ctx_stop(doca_rdma_as_ctx(ex->rdma)) == DOCA_ERROR_IN_PROGRESS) {
		do {
			doca_pe_progress(ex->pe);
			EXAMPLE_CHECK(doca_ctx_get_state(doca_rdma_as_ctx(ex->rdma), &state));
		} while (state != DOCA_CTX_STATE_IDLE);
	}
	EXAMPLE_CHECK(doca_rdma_destroy(ex->rdma));
	EXAMPLE_CHECK(doca_pe_destroy(ex->pe));
	if (ex->remote_mmap)
		EXAMPLE_CHECK(doca_mmap_destroy(ex->remote_mmap));
	EXAMPLE_CHECK(doca_buf_inventory_destroy(ex->inv));
	EXAMPLE_CHECK(doca_mmap_destroy(ex->mmap));
	EXAMPLE_CHECK(doca_dev_close(ex->dev));
	munmap(ex->mem, EXAMPLE_MEM_SIZE);
}
