/*
 * softdoca tests: DPA ping-pong between two processes (run_pair.sh, shared
 * memory and TCP). Each side has an RDMA context on the DPA data path with
 * one connection to the peer's, its buffer in DPA memory (an mmap over a
 * doca_dpa_mem_alloc block), and a DPA thread bound to the context's
 * completion context that answers every message; PP_ROUNDS round trips
 * (1000; the environment's PP_ROUNDS, the same on both sides, overrides it
 * for profiling) with sequence numbers checked on both sides, no host
 * thread on the data path.
 * badrecv: the server posts a bad receive (docs/dpa.md 2.12); the client's
 * send fails on it across the processes (the server's NAK: SEND_ERR), the
 * client's next send is flushed (SEND_ERR), the server's receive fails
 * (RECV_ERR) and becomes its DPA's last error.
 *
 *   dpa_pingpong_peer pingpong|badrecv server --port-file FILE [--iface IF]
 *   dpa_pingpong_peer pingpong|badrecv client --host IP --port N [--iface IF]
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dpa.h>
#include <doca_mmap.h>
#include <doca_rdma.h>
#include <doca_sync_event.h>

#include "integration/peer_oob.h"
#include "pingpong_common.h"

extern struct doca_dpa_app *pp_test_app;
doca_dpa_func_t pp_rpc_notify;
doca_dpa_func_t pp_kernel;

#define WAIT_MS 30000
#define CHECK(call)                                                                     \
	do {                                                                            \
		doca_error_t st_ = (call);                                              \
		EXPECT(st_ == DOCA_SUCCESS, "%s: %s", #call, doca_error_get_name(st_)); \
	} while (0)

/* The number of round trips: PP_ROUNDS, or the environment's (bench). */
static uint64_t pingpong_rounds(void)
{
	const char *env = getenv("PP_ROUNDS");
	char *end;
	unsigned long long n;

	if (!env || !*env)
		return PP_ROUNDS;
	n = strtoull(env, &end, 10);
	EXPECT(*end == '\0' && n > 0 && n < UINT64_MAX, "PP_ROUNDS=%s: not a count", env);
	return n;
}

static struct doca_dev *open_device(const char *iface)
{
	struct doca_devinfo **list;
	struct doca_dev *dev = NULL;
	uint32_t n;

	CHECK(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && !dev; i++) {
		char name[DOCA_DEVINFO_IFACE_NAME_SIZE];

		CHECK(doca_devinfo_get_iface_name(list[i], name, sizeof(name)));
		if (strcmp(name, iface) == 0)
			CHECK(doca_dev_open(list[i], &dev));
	}
	CHECK(doca_devinfo_destroy_list(list));
	EXPECT(dev, "no device for interface %s", iface);
	return dev;
}

int main(int argc, char **argv)
{
	struct peer_args a;
	struct doca_dpa *dpa;
	struct doca_dpa_thread *thread;
	struct doca_dpa_notification_completion *nc;
	struct doca_dpa_completion *comp;
	struct doca_rdma *rdma;
	struct doca_rdma_connection *conn;
	struct doca_mmap *mmap;
	struct doca_sync_event *done;
	doca_dpa_dev_notification_completion_t nc_handle;
	doca_dpa_dev_uintptr_t storage, buf;
	doca_dpa_dev_mmap_t mmap_handle;
	const void *details;
	size_t details_len, peer_len;
	uint64_t ret;
	int oob;

	setvbuf(stdout, NULL, _IOLBF, 0);
	peer_args_parse(argc, argv, &a);
	bool bad = strcmp(a.scenario, "badrecv") == 0;
	uint64_t rounds = pingpong_rounds();
	if (strcmp(a.scenario, "pingpong") != 0 && !bad)
		peer_usage(argv[0]);
	struct doca_dev *dev = open_device(a.iface);
	if (a.server) {
		EXPECT(a.port_file, "a server needs --port-file");
		oob = oob_accept_fd(oob_listen_fd(a.port_file));
	} else {
		EXPECT(a.port > 0, "a client needs --port");
		oob = oob_connect_fd(a.host, a.port);
	}

	CHECK(doca_dpa_create(dev, &dpa));
	CHECK(doca_dpa_set_app(dpa, pp_test_app));
	CHECK(doca_dpa_start(dpa));
	CHECK(doca_dpa_mem_alloc(dpa, sizeof(struct pp_state), &storage));
	CHECK(doca_dpa_memset(dpa, storage, 0, sizeof(struct pp_state)));
	CHECK(doca_dpa_mem_alloc(dpa, 128, &buf));
	CHECK(doca_dpa_memset(dpa, buf, 0, 128));
	struct pp_state *st = (struct pp_state *)(uintptr_t)storage;

	CHECK(doca_dpa_thread_create(dpa, &thread));
	CHECK(doca_dpa_thread_set_func_arg(thread, &pp_kernel, 0));
	CHECK(doca_dpa_thread_set_local_storage(thread, storage));
	CHECK(doca_dpa_thread_start(thread));
	CHECK(doca_dpa_notification_completion_create(dpa, thread, &nc));
	CHECK(doca_dpa_notification_completion_start(nc));
	CHECK(doca_dpa_notification_completion_get_dpa_handle(nc, &nc_handle));
	CHECK(doca_dpa_completion_create(dpa, 16, &comp));
	CHECK(doca_dpa_completion_set_thread(comp, thread));
	CHECK(doca_dpa_completion_start(comp));
	CHECK(doca_dpa_completion_get_dpa_handle(comp, &st->comp));

	CHECK(doca_mmap_create(&mmap));
	CHECK(doca_mmap_set_dpa_memrange(mmap, dpa, buf, 128));
	CHECK(doca_mmap_add_dev(mmap, dev));
	CHECK(doca_mmap_set_permissions(mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	CHECK(doca_mmap_start(mmap));
	CHECK(doca_mmap_dev_get_dpa_handle(mmap, dev, &mmap_handle));

	CHECK(doca_rdma_create(dev, &rdma));
	CHECK(doca_rdma_set_permissions(rdma, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	CHECK(doca_rdma_set_send_queue_size(rdma, 16));
	CHECK(doca_rdma_set_recv_queue_size(rdma, 16));
	CHECK(doca_ctx_set_datapath_on_dpa(doca_rdma_as_ctx(rdma), dpa));
	CHECK(doca_rdma_dpa_completion_attach(rdma, comp));
	CHECK(doca_ctx_start(doca_rdma_as_ctx(rdma)));
	CHECK(doca_rdma_get_dpa_handle(rdma, &st->rdma));
	CHECK(doca_rdma_export(rdma, &details, &details_len, &conn));
	oob_send(oob, details, details_len);
	void *peer = oob_recv(oob, &peer_len, WAIT_MS);
	CHECK(doca_rdma_connect(rdma, peer, peer_len, conn));
	free(peer);
	CHECK(doca_rdma_connection_get_id(conn, &st->conn));

	CHECK(doca_sync_event_create(&done));
	CHECK(doca_sync_event_add_publisher_location_dpa(done, dpa));
	CHECK(doca_sync_event_add_subscriber_location_cpu(done, dev));
	CHECK(doca_sync_event_start(done));
	CHECK(doca_sync_event_get_dpa_handle(done, dpa, &st->done));
	st->mmap = mmap_handle;
	st->buf = buf;
	st->client = !a.server;
	st->limit = bad ? UINT64_MAX : rounds;
	st->bad = bad;
	CHECK(doca_dpa_thread_run(thread));

	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK(doca_dpa_rpc(dpa, &pp_rpc_notify, &ret, nc_handle));
	CHECK(doca_sync_event_wait_gt(done, 0, UINT64_MAX));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* Both sides done before either tears its connection down. */
	oob_send_str(oob, "done");
	oob_expect(oob, "done", WAIT_MS);
	EXPECT(st->errors == 0, "%llu bad completions or messages", (unsigned long long)st->errors);
	if (bad) {
		EXPECT(st->rounds == 0 && st->sends == 0, "%llu messages, %llu sends went through",
		       (unsigned long long)st->rounds, (unsigned long long)st->sends);
		EXPECT(st->send_errs == (st->client ? 2u : 0u) &&
		               st->recv_errs == (st->client ? 0u : 1u),
		       "%llu SEND_ERR, %llu RECV_ERR", (unsigned long long)st->send_errs,
		       (unsigned long long)st->recv_errs);
		EXPECT(doca_dpa_peek_at_last_error(dpa) ==
		               (st->client ? DOCA_SUCCESS : DOCA_ERROR_INVALID_VALUE),
		       "the DPA's last error is %s",
		       doca_error_get_name(doca_dpa_peek_at_last_error(dpa)));
	} else {
		EXPECT(st->rounds == rounds, "%llu round trips, expected %llu",
		       (unsigned long long)st->rounds, (unsigned long long)rounds);
		EXPECT(doca_dpa_peek_at_last_error(dpa) == DOCA_SUCCESS,
		       "the DPA's last error is set");
	}
	if (st->client && !bad)
		printf("dpa pingpong: %llu round trips, %.2f us each\n", (unsigned long long)rounds,
		       ((double)(t1.tv_sec - t0.tv_sec) * 1e6 +
		        (double)(t1.tv_nsec - t0.tv_nsec) / 1e3) /
		               (double)rounds);

	CHECK(doca_dpa_notification_completion_destroy(nc));
	CHECK(doca_dpa_thread_stop(thread));
	CHECK(doca_ctx_stop(doca_rdma_as_ctx(rdma)));
	CHECK(doca_rdma_destroy(rdma));
	CHECK(doca_dpa_completion_stop(comp));
	CHECK(doca_dpa_completion_destroy(comp));
	CHECK(doca_dpa_thread_destroy(thread));
	CHECK(doca_sync_event_stop(done));
	CHECK(doca_sync_event_destroy(done));
	CHECK(doca_mmap_stop(mmap));
	CHECK(doca_mmap_destroy(mmap));
	CHECK(doca_dpa_mem_free(dpa, buf));
	CHECK(doca_dpa_mem_free(dpa, storage));
	CHECK(doca_dpa_stop(dpa));
	CHECK(doca_dpa_destroy(dpa));
	CHECK(doca_dev_close(dev));
	printf("%s %s: OK\n", argv[1], argv[2]);
	return 0;
}
