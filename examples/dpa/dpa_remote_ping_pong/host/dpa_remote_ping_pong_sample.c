/*
 * softdoca DPA examples - SPDX-License-Identifier: Apache-2.0
 *
 * dpa_remote_ping_pong: two processes (hosts, on hardware), each with an
 * RDMA context on the DPA data path and a DPA thread bound to its
 * completion context, play RPP_ROUNDS round trips of send/receive. The
 * processes exchange their connection blobs through files:
 *
 *   doca_dpa_remote_ping_pong -s -f server.blob -r client.blob &
 *   doca_dpa_remote_ping_pong    -f client.blob -r server.blob
 *
 * Each side checks every message's round and sender; the host checks the
 * counts exactly; exit 1 on any difference. Both sides then write
 * FILE.done and wait for the peer's before tearing the connection down.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_dpa.h>
#include <doca_log.h>

#include "dpa_common.h"
#include "../dpa_remote_ping_pong_common.h"

DOCA_LOG_REGISTER(DPA_REMOTE_PING_PONG::SAMPLE);

doca_dpa_func_t rpp_notify_rpc;
doca_dpa_func_t rpp_kernel;

#define CHECK(call)                                                               \
	do {                                                                      \
		doca_error_t st_ = (call);                                        \
		if (st_ != DOCA_SUCCESS) {                                        \
			DOCA_LOG_ERR("%s: %s", #call, doca_error_get_descr(st_)); \
			return st_;                                               \
		}                                                                 \
	} while (0)

/* Writes PATH.done, then waits for PEER.done. */
static doca_error_t barrier(const struct dpa_config *cfg)
{
	char local[DPA_PATH_LEN + 8], remote[DPA_PATH_LEN + 8];
	void *data;
	size_t len;

	snprintf(local, sizeof(local), "%s.done", cfg->local_file);
	snprintf(remote, sizeof(remote), "%s.done", cfg->remote_file);
	CHECK(dpa_file_write(local, "done", 4));
	CHECK(dpa_file_wait(remote, &data, &len));
	free(data);
	return DOCA_SUCCESS;
}

static doca_error_t remote_ping_pong(const struct dpa_config *cfg, struct dpa_resources *res)
{
	const char *me = cfg->server ? "Server" : "Client";
	struct rpp_state st = { 0 };
	doca_dpa_dev_uintptr_t storage, buf;
	struct doca_dpa_thread *thread;
	struct doca_dpa_completion *comp;
	struct doca_dpa_notification_completion *nc;
	doca_dpa_dev_notification_completion_t nc_handle;
	struct doca_rdma *rdma;
	struct doca_rdma_connection *conn;
	struct doca_mmap *mmap;
	struct doca_sync_event *done;
	const void *blob;
	void *peer_blob;
	size_t blob_len, peer_len;
	struct timespec t0, t1;
	uint64_t ret;

	CHECK(doca_dpa_mem_alloc(res->dpa, sizeof(st), &storage));
	CHECK(doca_dpa_mem_alloc(res->dpa, RPP_BUF_SIZE, &buf));
	CHECK(doca_dpa_memset(res->dpa, buf, 0, RPP_BUF_SIZE));
	CHECK(doca_dpa_thread_create(res->dpa, &thread));
	CHECK(doca_dpa_thread_set_func_arg(thread, &rpp_kernel, 0));
	CHECK(doca_dpa_thread_set_local_storage(thread, storage));
	CHECK(doca_dpa_thread_start(thread));
	CHECK(doca_dpa_completion_create(res->dpa, 16, &comp));
	CHECK(doca_dpa_completion_set_thread(comp, thread));
	CHECK(doca_dpa_completion_start(comp));
	CHECK(doca_dpa_completion_get_dpa_handle(comp, &st.comp));
	CHECK(doca_dpa_notification_completion_create(res->dpa, thread, &nc));
	CHECK(doca_dpa_notification_completion_start(nc));
	CHECK(doca_dpa_notification_completion_get_dpa_handle(nc, &nc_handle));

	CHECK(doca_mmap_create(&mmap));
	CHECK(doca_mmap_set_dpa_memrange(mmap, res->dpa, buf, RPP_BUF_SIZE));
	CHECK(doca_mmap_add_dev(mmap, res->dev));
	CHECK(doca_mmap_set_permissions(mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	CHECK(doca_mmap_start(mmap));
	CHECK(doca_mmap_dev_get_dpa_handle(mmap, res->dev, &st.mmap));
	CHECK(dpa_rdma_create(res, comp, 16, 1, &rdma, &st.rdma));

	/* The connection: this side's blob out, the peer's in. */
	CHECK(doca_rdma_export(rdma, &blob, &blob_len, &conn));
	CHECK(dpa_file_write(cfg->local_file, blob, blob_len));
	CHECK(dpa_file_wait(cfg->remote_file, &peer_blob, &peer_len));
	CHECK(doca_rdma_connect(rdma, peer_blob, peer_len, conn));
	free(peer_blob);
	CHECK(doca_rdma_connection_get_id(conn, &st.conn_id));
	DOCA_LOG_INFO("%s: connected (connection id %u)", me, st.conn_id);

	CHECK(dpa_sync_event_create(res, DPA_LOC_DPA, DPA_LOC_CPU, &done, &st.done));
	st.buf = buf;
	st.client = !cfg->server;
	CHECK(doca_dpa_h2d_memcpy(res->dpa, storage, &st, sizeof(st)));
	CHECK(doca_dpa_thread_run(thread));

	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK(doca_dpa_rpc(res->dpa, &rpp_notify_rpc, &ret, nc_handle));
	CHECK(doca_sync_event_wait_gt(done, 0, UINT64_MAX));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CHECK(doca_dpa_d2h_memcpy(res->dpa, &st, storage, sizeof(st)));

	int wrong = 0;
	uint64_t want_tag = cfg->server ? RPP_TAG_CLIENT : RPP_TAG_SERVER;
	if (st.rounds != RPP_ROUNDS || st.sends != RPP_ROUNDS || st.errors != 0 ||
	    st.last_round != RPP_ROUNDS - 1 || st.last_tag != want_tag) {
		DOCA_LOG_ERR("%s: %lu messages, %lu sends, %lu errors, last round %lu", me,
		             (unsigned long)st.rounds, (unsigned long)st.sends,
		             (unsigned long)st.errors, (unsigned long)st.last_round);
		wrong = 1;
	} else {
		DOCA_LOG_INFO("%s: %d round trips, every message as expected (%.1f us each)", me,
		              RPP_ROUNDS,
		              ((double)(t1.tv_sec - t0.tv_sec) * 1e6 +
		               (double)(t1.tv_nsec - t0.tv_nsec) / 1e3) /
		                      RPP_ROUNDS);
	}
	if (doca_dpa_peek_at_last_error(res->dpa) != DOCA_SUCCESS) {
		DOCA_LOG_ERR("the DPA reported an error: %s",
		             doca_error_get_descr(doca_dpa_peek_at_last_error(res->dpa)));
		wrong = 1;
	}
	/* Neither side disconnects while the other may still need it. */
	CHECK(barrier(cfg));

	CHECK(doca_dpa_notification_completion_stop(nc));
	CHECK(doca_dpa_notification_completion_destroy(nc));
	CHECK(doca_dpa_thread_stop(thread));
	CHECK(dpa_rdma_destroy(rdma));
	CHECK(doca_dpa_completion_stop(comp));
	CHECK(doca_dpa_completion_destroy(comp));
	CHECK(doca_dpa_thread_destroy(thread));
	CHECK(dpa_sync_event_destroy(done));
	CHECK(dpa_mmap_destroy(mmap));
	CHECK(doca_dpa_mem_free(res->dpa, buf));
	CHECK(doca_dpa_mem_free(res->dpa, storage));
	return wrong ? DOCA_ERROR_UNEXPECTED : DOCA_SUCCESS;
}

int main(int argc, char **argv)
{
	struct dpa_config cfg;
	struct dpa_resources res;
	doca_error_t st;

	if (dpa_common_init("doca_dpa_remote_ping_pong", &cfg, 1, argc, argv) != DOCA_SUCCESS)
		return EXIT_FAILURE;
	DOCA_LOG_INFO("Starting the sample (%s)", cfg.server ? "server" : "client");
	st = dpa_resources_create(&cfg, &res);
	if (st == DOCA_SUCCESS) {
		st = remote_ping_pong(&cfg, &res);
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
