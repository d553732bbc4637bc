/*
 * softdoca DPA examples - SPDX-License-Identifier: Apache-2.0
 *
 * dpa_all_to_all: N ranks started by mpirun, each with a DPA, connect to
 * every rank, themselves included: one RDMA context on the DPA data path
 * per peer, connection blobs, memory and events exchanged with
 * MPI_Allgather. Each round every rank launches a kernel of N threads;
 * thread j writes this rank's block for rank j into rank j's receive
 * buffer, then signals rank j's events (signal_set on the event for this
 * source, signal_add on its arrivals). Each rank waits for its arrivals
 * and checks its row of the data matrix and every source's event exactly;
 * exit 1 on any difference.
 *
 *   mpirun -np 4 doca_dpa_all_to_all
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include <doca_dpa.h>
#include <doca_log.h>

#include "dpa_common.h"
#include "../dpa_all_to_all_common.h"

DOCA_LOG_REGISTER(DPA_ALL_TO_ALL::SAMPLE);

doca_dpa_func_t all_to_all_kernel;

#define CHECK(call)                                                                              \
	do {                                                                                     \
		doca_error_t st_ = (call);                                                       \
		if (st_ != DOCA_SUCCESS) {                                                       \
			DOCA_LOG_ERR("rank %d: %s: %s", rank, #call, doca_error_get_descr(st_)); \
			return st_;                                                              \
		}                                                                                \
	} while (0)

static int rank, num_ranks;

/* Every rank's count blobs, gathered: out[(r * count + i)] is rank r's
 * blob i, of length lens[...]. Free *all. */
static doca_error_t allgather_blobs(const void *const *blobs, const size_t *lens, int count,
                                    uint8_t **all, size_t *slot, const uint8_t ***out,
                                    size_t **out_lens)
{
	unsigned long max_len = 0, local_max = 0;
	uint8_t *mine;

	for (int i = 0; i < count; i++)
		if (lens[i] > local_max)
			local_max = lens[i];
	MPI_Allreduce(&local_max, &max_len, 1, MPI_UNSIGNED_LONG, MPI_MAX, MPI_COMM_WORLD);
	*slot = sizeof(uint64_t) + max_len;
	mine = calloc((size_t)count, *slot);
	*all = calloc((size_t)count * (size_t)num_ranks, *slot);
	*out = calloc((size_t)count * (size_t)num_ranks, sizeof(**out));
	*out_lens = calloc((size_t)count * (size_t)num_ranks, sizeof(**out_lens));
	if (!mine || !*all || !*out || !*out_lens) {
		free(mine);
		return DOCA_ERROR_NO_MEMORY;
	}
	for (int i = 0; i < count; i++) {
		uint64_t len = lens[i];

		memcpy(mine + (size_t)i * *slot, &len, sizeof(len));
		memcpy(mine + (size_t)i * *slot + sizeof(len), blobs[i], lens[i]);
	}
	MPI_Allgather(mine, (int)(*slot * (size_t)count), MPI_BYTE, *all,
	              (int)(*slot * (size_t)count), MPI_BYTE, MPI_COMM_WORLD);
	free(mine);
	for (int i = 0; i < count * num_ranks; i++) {
		uint64_t len;

		memcpy(&len, *all + (size_t)i * *slot, sizeof(len));
		(*out)[i] = *all + (size_t)i * *slot + sizeof(len);
		(*out_lens)[i] = (size_t)len;
	}
	return DOCA_SUCCESS;
}

struct a2a {
	struct dpa_resources *res;
	struct a2a_config cfg; /* copied to the DPA */
	doca_dpa_dev_uintptr_t dev_cfg;
	uint64_t *send_buf, *recv_buf;
	struct doca_mmap *send_mmap, *recv_mmap;
	struct doca_mmap *remote_mmap[A2A_MAX_RANKS];
	struct doca_dpa_completion *comp[A2A_MAX_RANKS];
	struct doca_rdma *rdma[A2A_MAX_RANKS];
	struct doca_sync_event *arrivals, *from[A2A_MAX_RANKS], *launch_done;
	struct doca_sync_event_remote_net *remote_arrivals[A2A_MAX_RANKS];
	struct doca_sync_event_remote_net *remote_from[A2A_MAX_RANKS];
};

/* One RDMA context per peer, each connected to the peer's context for
 * this rank. */
static doca_error_t connect_all(struct a2a *a)
{
	const void *blobs[A2A_MAX_RANKS];
	size_t lens[A2A_MAX_RANKS], slot, *all_lens;
	struct doca_rdma_connection *conns[A2A_MAX_RANKS];
	const uint8_t **all_blobs;
	uint8_t *all;

	for (int j = 0; j < num_ranks; j++) {
		CHECK(doca_dpa_completion_create(a->res->dpa, 16, &a->comp[j]));
		CHECK(doca_dpa_completion_start(a->comp[j]));
		CHECK(doca_dpa_completion_get_dpa_handle(a->comp[j], &a->cfg.peers[j].comp));
		CHECK(dpa_rdma_create(a->res, a->comp[j], 16, 1, &a->rdma[j],
		                      &a->cfg.peers[j].rdma));
		CHECK(doca_rdma_export(a->rdma[j], &blobs[j], &lens[j], &conns[j]));
	}
	CHECK(allgather_blobs(blobs, lens, num_ranks, &all, &slot, &all_blobs, &all_lens));
	for (int j = 0; j < num_ranks; j++) {
		/* rank j's context for this rank */
		int from = j * num_ranks + rank;

		CHECK(doca_rdma_connect(a->rdma[j], all_blobs[from], all_lens[from], conns[j]));
		CHECK(doca_rdma_connection_get_id(conns[j], &a->cfg.peers[j].conn_id));
	}
	free(all);
	free(all_blobs);
	free(all_lens);
	return DOCA_SUCCESS;
}

/* Every rank's receive buffer, imported; its address rides along. */
static doca_error_t import_buffers(struct a2a *a)
{
	const void *desc;
	size_t len, slot, *all_lens;
	const uint8_t **all_blobs;
	uint8_t *all;
	uint8_t *blob;
	uint64_t addr = (uintptr_t)a->recv_buf;

	CHECK(doca_mmap_export_rdma(a->recv_mmap, a->res->dev, &desc, &len));
	blob = malloc(sizeof(addr) + len);
	if (!blob)
		return DOCA_ERROR_NO_MEMORY;
	memcpy(blob, &addr, sizeof(addr));
	memcpy(blob + sizeof(addr), desc, len);
	len += sizeof(addr);
	const void *blobs[1] = { blob };
	CHECK(allgather_blobs(blobs, &len, 1, &all, &slot, &all_blobs, &all_lens));
	free(blob);
	for (int j = 0; j < num_ranks; j++) {
		memcpy(&a->cfg.peers[j].remote_recv, all_blobs[j], sizeof(uint64_t));
		CHECK(doca_mmap_create_from_export(NULL, all_blobs[j] + sizeof(uint64_t),
		                                   all_lens[j] - sizeof(uint64_t), a->res->dev,
		                                   &a->remote_mmap[j]));
		CHECK(doca_mmap_dev_get_dpa_handle(a->remote_mmap[j], a->res->dev,
		                                   &a->cfg.peers[j].remote_mmap));
	}
	free(all);
	free(all_blobs);
	free(all_lens);
	return DOCA_SUCCESS;
}

/* This rank's events (arrivals, one per source) exported; each peer's
 * arrivals and its event for this rank imported. */
static doca_error_t import_events(struct a2a *a)
{
	const void *blobs[A2A_MAX_RANKS + 1];
	size_t lens[A2A_MAX_RANKS + 1], slot, *all_lens;
	const uint8_t **all_blobs;
	uint8_t *all;
	const int count = num_ranks + 1;

	CHECK(dpa_sync_event_create(a->res, DPA_LOC_REMOTE_NET, DPA_LOC_CPU, &a->arrivals, NULL));
	CHECK(doca_sync_event_export_to_remote_net(a->arrivals, (const uint8_t **)&blobs[0],
	                                           &lens[0]));
	for (int j = 0; j < num_ranks; j++) {
		CHECK(dpa_sync_event_create(a->res, DPA_LOC_REMOTE_NET, DPA_LOC_CPU, &a->from[j],
		                            NULL));
		CHECK(doca_sync_event_export_to_remote_net(
		        a->from[j], (const uint8_t **)&blobs[1 + j], &lens[1 + j]));
	}
	CHECK(allgather_blobs(blobs, lens, count, &all, &slot, &all_blobs, &all_lens));
	for (int j = 0; j < num_ranks; j++) {
		int arr = j * count, mine = j * count + 1 + rank;

		CHECK(doca_sync_event_remote_net_create_from_export(
		        a->res->dev, all_blobs[arr], all_lens[arr], &a->remote_arrivals[j]));
		CHECK(doca_sync_event_remote_net_get_dpa_handle(a->remote_arrivals[j], a->res->dpa,
		                                                &a->cfg.peers[j].arrivals));
		CHECK(doca_sync_event_remote_net_create_from_export(
		        a->res->dev, all_blobs[mine], all_lens[mine], &a->remote_from[j]));
		CHECK(doca_sync_event_remote_net_get_dpa_handle(a->remote_from[j], a->res->dpa,
		                                                &a->cfg.peers[j].from_me));
	}
	free(all);
	free(all_blobs);
	free(all_lens);
	return DOCA_SUCCESS;
}

/* This rank's row of the matrix after round r, and every source's event. */
static int check_round(struct a2a *a, uint32_t r)
{
	int wrong = 0;

	for (int src = 0; src < num_ranks; src++) {
		uint64_t value = 0;

		for (uint32_t k = 0; k < A2A_ELEMS; k++) {
			uint64_t got = a->recv_buf[(size_t)src * A2A_ELEMS + k];
			uint64_t want = A2A_VALUE(r, (uint64_t)src, (uint64_t)rank, k);

			if (got != want) {
				if (!wrong)
					DOCA_LOG_ERR("rank %d round %u: from rank %d, value %u is "
					             "0x%016lx, expected 0x%016lx",
					             rank, r, src, k, (unsigned long)got,
					             (unsigned long)want);
				wrong = 1;
			}
		}
		if (doca_sync_event_get(a->from[src], &value) != DOCA_SUCCESS || value != r + 1) {
			DOCA_LOG_ERR("rank %d round %u: rank %d's event holds %lu, expected %u",
			             rank, r, src, (unsigned long)value, r + 1);
			wrong = 1;
		}
	}
	return wrong;
}

static doca_error_t all_to_all(struct dpa_resources *res)
{
	const uint32_t access = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE;
	const size_t buf_len = (size_t)num_ranks * A2A_BLOCK;
	struct a2a *a = calloc(1, sizeof(*a));
	int wrong = 0;

	if (!a)
		return DOCA_ERROR_NO_MEMORY;
	a->res = res;
	a->send_buf = aligned_alloc(64, buf_len);
	a->recv_buf = aligned_alloc(64, buf_len);
	if (!a->send_buf || !a->recv_buf)
		return DOCA_ERROR_NO_MEMORY;
	memset(a->send_buf, 0, buf_len);
	memset(a->recv_buf, 0, buf_len);
	CHECK(dpa_mmap_create(res, a->send_buf, buf_len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE,
	                      &a->send_mmap, &a->cfg.send_mmap));
	CHECK(dpa_mmap_create(res, a->recv_buf, buf_len, access, &a->recv_mmap, NULL));
	CHECK(connect_all(a));
	CHECK(import_buffers(a));
	CHECK(import_events(a));
	CHECK(dpa_sync_event_create(res, DPA_LOC_DPA, DPA_LOC_CPU, &a->launch_done, NULL));
	a->cfg.send_buf = (uintptr_t)a->send_buf;
	a->cfg.rank = (uint32_t)rank;
	a->cfg.num_ranks = (uint32_t)num_ranks;
	CHECK(doca_dpa_mem_alloc(res->dpa, sizeof(a->cfg), &a->dev_cfg));
	CHECK(doca_dpa_h2d_memcpy(res->dpa, a->dev_cfg, &a->cfg, sizeof(a->cfg)));
	if (rank == 0)
		DOCA_LOG_INFO("%d ranks connected to each other (and themselves), %d rounds of "
		              "%zu bytes to every rank",
		              num_ranks, A2A_ROUNDS, A2A_BLOCK);

	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (uint32_t r = 0; r < A2A_ROUNDS && !wrong; r++) {
		/* Every rank checked the last round before anyone overwrites it. */
		MPI_Barrier(MPI_COMM_WORLD);
		CHECK(doca_dpa_kernel_launch_update_add(res->dpa, NULL, 0, a->launch_done, 1,
		                                        (unsigned int)num_ranks, &all_to_all_kernel,
		                                        a->dev_cfg, r));
		/* This rank's writes done, then every rank's (the arrivals). */
		CHECK(doca_sync_event_wait_gt(a->launch_done, r, UINT64_MAX));
		CHECK(doca_sync_event_wait_gt(a->arrivals, (uint64_t)(r + 1) * num_ranks - 1,
		                              UINT64_MAX));
		wrong = check_round(a, r);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);

	uint64_t errors;
	CHECK(doca_dpa_d2h_memcpy(res->dpa, &errors,
	                          a->dev_cfg + offsetof(struct a2a_config, errors),
	                          sizeof(errors)));
	if (errors || doca_dpa_peek_at_last_error(res->dpa) != DOCA_SUCCESS) {
		DOCA_LOG_ERR("rank %d: %lu bad completions, the DPA's last error: %s", rank,
		             (unsigned long)errors,
		             doca_error_get_descr(doca_dpa_peek_at_last_error(res->dpa)));
		wrong = 1;
	}
	if (!wrong) {
		printf("Rank %d received:", rank);
		for (int src = 0; src < num_ranks; src++)
			printf(" 0x%016lx", (unsigned long)a->recv_buf[(size_t)src * A2A_ELEMS]);
		printf("\n");
		fflush(stdout);
	}
	/* All ranks done before anyone disconnects. */
	int all_wrong = 0;
	MPI_Allreduce(&wrong, &all_wrong, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (rank == 0 && !all_wrong)
		DOCA_LOG_INFO("All-to-all of %d ranks: the %dx%d data matrix is exact after %d "
		              "rounds (%.3f ms)",
		              num_ranks, num_ranks, num_ranks, A2A_ROUNDS,
		              (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
		                      (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);

	for (int j = 0; j < num_ranks; j++) {
		CHECK(dpa_rdma_destroy(a->rdma[j]));
		CHECK(doca_dpa_completion_stop(a->comp[j]));
		CHECK(doca_dpa_completion_destroy(a->comp[j]));
		CHECK(doca_mmap_destroy(a->remote_mmap[j]));
		CHECK(doca_sync_event_remote_net_destroy(a->remote_arrivals[j]));
		CHECK(doca_sync_event_remote_net_destroy(a->remote_from[j]));
		CHECK(dpa_sync_event_destroy(a->from[j]));
	}
	CHECK(dpa_sync_event_destroy(a->arrivals));
	CHECK(dpa_sync_event_destroy(a->launch_done));
	CHECK(dpa_mmap_destroy(a->send_mmap));
	CHECK(dpa_mmap_destroy(a->recv_mmap));
	CHECK(doca_dpa_mem_free(res->dpa, a->dev_cfg));
	free(a->send_buf);
	free(a->recv_buf);
	free(a);
	return all_wrong ? DOCA_ERROR_UNEXPECTED : DOCA_SUCCESS;
}

int main(int argc, char **argv)
{
	struct dpa_config cfg;
	struct dpa_resources res;
	doca_error_t st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &num_ranks);
	if (dpa_common_init("doca_dpa_all_to_all", &cfg, 0, argc, argv) != DOCA_SUCCESS) {
		MPI_Abort(MPI_COMM_WORLD, 1);
		return EXIT_FAILURE;
	}
	if (num_ranks > A2A_MAX_RANKS) {
		DOCA_LOG_ERR("at most %d ranks", A2A_MAX_RANKS);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (rank == 0)
		DOCA_LOG_INFO("Starting the sample with %d ranks", num_ranks);
	st = dpa_resources_create(&cfg, &res);
	if (st != DOCA_SUCCESS)
		MPI_Abort(MPI_COMM_WORLD, 1);
	st = all_to_all(&res);
	if (st != DOCA_SUCCESS && st != DOCA_ERROR_UNEXPECTED)
		MPI_Abort(MPI_COMM_WORLD, 1); /* the peers may wait for this rank */
	doca_error_t st2 = dpa_resources_destroy(&res);
	if (st == DOCA_SUCCESS)
		st = st2;
	dpa_common_fini();
	MPI_Finalize();
	if (st != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Rank %d: sample finished with errors: %s", rank,
		             doca_error_get_descr(st));
		return EXIT_FAILURE;
	}
	if (rank == 0)
		DOCA_LOG_INFO("Sample finished successfully");
	return EXIT_SUCCESS;
}
