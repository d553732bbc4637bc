/*
 * softdoca DPA examples - SPDX-License-Identifier: Apache-2.0
 *
 * dpa_ping_pong: two DPA threads play PING_PONG_ROUNDS round trips over
 * two RDMA contexts on the DPA data path connected to each other in one
 * process. Each round the ping thread writes the round's value into the
 * pong thread's buffer with an immediate; the pong thread checks it and
 * writes it back. Each thread is bound to its context's completion context
 * and runs once per completion (re-arm, reschedule). The host checks both
 * threads' counts and the last values exactly; exit 1 on any difference.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_dpa.h>
#include <doca_log.h>

#include "dpa_common.h"
#include "../dpa_ping_pong_common.h"

DOCA_LOG_REGISTER(DPA_PING_PONG::SAMPLE);

doca_dpa_func_t ping_pong_start_rpc;
doca_dpa_func_t ping_pong_kernel;

#define CHECK(call)                                                               \
	do {                                                                      \
		doca_error_t st_ = (call);                                        \
		if (st_ != DOCA_SUCCESS) {                                        \
			DOCA_LOG_ERR("%s: %s", #call, doca_error_get_descr(st_)); \
			return st_;                                               \
		}                                                                 \
	} while (0)

struct side {
	struct ping_pong_state st; /* filled, then copied to the DPA */
	doca_dpa_dev_uintptr_t storage, buf;
	struct doca_dpa_thread *thread;
	struct doca_dpa_completion *comp;
	struct doca_dpa_notification_completion *nc;
	doca_dpa_dev_notification_completion_t nc_handle;
	struct doca_rdma *rdma;
	struct doca_mmap *mmap, *remote_mmap;
};

static doca_error_t side_create(struct dpa_resources *res, struct side *s, int is_ping)
{
	const uint32_t access = DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE;

	memset(s, 0, sizeof(*s));
	s->st.is_ping = (uint32_t)is_ping;
	CHECK(doca_dpa_mem_alloc(res->dpa, sizeof(s->st), &s->storage));
	/* 64 bytes the peer writes into, 32 received into, 8 written from */
	CHECK(doca_dpa_mem_alloc(res->dpa, 128, &s->buf));
	CHECK(doca_dpa_memset(res->dpa, s->buf, 0, 128));
	CHECK(doca_dpa_thread_create(res->dpa, &s->thread));
	CHECK(doca_dpa_thread_set_func_arg(s->thread, &ping_pong_kernel, 0));
	CHECK(doca_dpa_thread_set_local_storage(s->thread, s->storage));
	CHECK(doca_dpa_thread_start(s->thread));
	CHECK(doca_dpa_completion_create(res->dpa, 16, &s->comp));
	CHECK(doca_dpa_completion_set_thread(s->comp, s->thread));
	CHECK(doca_dpa_completion_start(s->comp));
	CHECK(doca_dpa_completion_get_dpa_handle(s->comp, &s->st.comp));
	CHECK(doca_dpa_notification_completion_create(res->dpa, s->thread, &s->nc));
	CHECK(doca_dpa_notification_completion_start(s->nc));
	CHECK(doca_dpa_notification_completion_get_dpa_handle(s->nc, &s->nc_handle));
	CHECK(dpa_rdma_create(res, s->comp, 16, 1, &s->rdma, &s->st.rdma));

	CHECK(doca_mmap_create(&s->mmap));
	CHECK(doca_mmap_set_dpa_memrange(s->mmap, res->dpa, s->buf, 128));
	CHECK(doca_mmap_add_dev(s->mmap, res->dev));
	CHECK(doca_mmap_set_permissions(s->mmap, access));
	CHECK(doca_mmap_start(s->mmap));
	CHECK(doca_mmap_dev_get_dpa_handle(s->mmap, res->dev, &s->st.local_mmap));
	s->st.local_buf = s->buf;
	s->st.src_buf = s->buf + 96;
	return DOCA_SUCCESS;
}

/* b's buffer as a remote mmap a can write into. */
static doca_error_t import_peer(struct dpa_resources *res, struct side *a, struct side *b)
{
	const void *desc;
	size_t len;

	CHECK(doca_mmap_export_rdma(b->mmap, res->dev, &desc, &len));
	CHECK(doca_mmap_create_from_export(NULL, desc, len, res->dev, &a->remote_mmap));
	CHECK(doca_mmap_dev_get_dpa_handle(a->remote_mmap, res->dev, &a->st.remote_mmap));
	a->st.remote_buf = b->buf;
	return DOCA_SUCCESS;
}

static doca_error_t side_destroy(struct dpa_resources *res, struct side *s)
{
	CHECK(doca_dpa_notification_completion_stop(s->nc));
	CHECK(doca_dpa_notification_completion_destroy(s->nc));
	CHECK(doca_dpa_thread_stop(s->thread));
	CHECK(dpa_rdma_destroy(s->rdma));
	CHECK(doca_dpa_completion_stop(s->comp));
	CHECK(doca_dpa_completion_destroy(s->comp));
	CHECK(doca_dpa_thread_destroy(s->thread));
	CHECK(doca_mmap_destroy(s->remote_mmap));
	CHECK(dpa_mmap_destroy(s->mmap));
	CHECK(doca_dpa_mem_free(res->dpa, s->buf));
	CHECK(doca_dpa_mem_free(res->dpa, s->storage));
	return DOCA_SUCCESS;
}

static int check_side(const char *name, const struct ping_pong_state *st)
{
	uint64_t want = PING_PONG_VALUE(PING_PONG_ROUNDS - 1);

	if (st->rounds != PING_PONG_ROUNDS || st->errors != 0 || st->last_value != want) {
		DOCA_LOG_ERR("%s thread: %lu rounds, %lu errors, last value 0x%lx (expected %d "
		             "rounds, 0x%lx)",
		             name, (unsigned long)st->rounds, (unsigned long)st->errors,
		             (unsigned long)st->last_value, PING_PONG_ROUNDS, (unsigned long)want);
		return 1;
	}
	DOCA_LOG_INFO("%s thread: %d rounds, every value as expected", name, PING_PONG_ROUNDS);
	return 0;
}

static doca_error_t ping_pong(struct dpa_resources *res)
{
	struct side ping, pong;
	struct doca_sync_event *done;
	doca_dpa_dev_sync_event_t done_handle;
	struct timespec t0, t1;
	uint64_t ret;

	CHECK(side_create(res, &ping, 1));
	CHECK(side_create(res, &pong, 0));
	CHECK(dpa_rdma_connect_pair(ping.rdma, pong.rdma, &ping.st.conn_id, &pong.st.conn_id));
	CHECK(import_peer(res, &ping, &pong));
	CHECK(import_peer(res, &pong, &ping));
	CHECK(dpa_sync_event_create(res, DPA_LOC_DPA, DPA_LOC_CPU, &done, &done_handle));
	ping.st.done = pong.st.done = done_handle;
	CHECK(doca_dpa_h2d_memcpy(res->dpa, ping.storage, &ping.st, sizeof(ping.st)));
	CHECK(doca_dpa_h2d_memcpy(res->dpa, pong.storage, &pong.st, sizeof(pong.st)));
	CHECK(doca_dpa_thread_run(ping.thread));
	CHECK(doca_dpa_thread_run(pong.thread));

	DOCA_LOG_INFO("Starting %d round trips between the ping and the pong thread",
	              PING_PONG_ROUNDS);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK(doca_dpa_rpc(res->dpa, &ping_pong_start_rpc, &ret, pong.nc_handle, ping.nc_handle));
	CHECK(doca_sync_event_wait_gt(done, 1, UINT64_MAX)); /* both threads */
	clock_gettime(CLOCK_MONOTONIC, &t1);

	CHECK(doca_dpa_d2h_memcpy(res->dpa, &ping.st, ping.storage, sizeof(ping.st)));
	CHECK(doca_dpa_d2h_memcpy(res->dpa, &pong.st, pong.storage, sizeof(pong.st)));
	int wrong = check_side("Ping", &ping.st) | check_side("Pong", &pong.st);
	DOCA_LOG_INFO("%d round trips in %.3f ms", PING_PONG_ROUNDS,
	              (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
	                      (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
	if (doca_dpa_peek_at_last_error(res->dpa) != DOCA_SUCCESS) {
		DOCA_LOG_ERR("the DPA reported an error: %s",
		             doca_error_get_descr(doca_dpa_peek_at_last_error(res->dpa)));
		wrong = 1;
	}
	CHECK(side_destroy(res, &ping));
	CHECK(side_destroy(res, &pong));
	CHECK(dpa_sync_event_destroy(done));
	return wrong ? DOCA_ERROR_UNEXPECTED : DOCA_SUCCESS;
}

int main(int argc, char **argv)
{
	struct dpa_config cfg;
	struct dpa_resources res;
	doca_error_t st;

	if (dpa_common_init("doca_dpa_ping_pong", &cfg, 0, argc, argv) != DOCA_SUCCESS)
		return EXIT_FAILURE;
	DOCA_LOG_INFO("Starting the sample");
	st = dpa_resources_create(&cfg, &res);
	if (st == DOCA_SUCCESS) {
		st = ping_pong(&res);
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
