/*
 * softdoca integration tests: one side of a two-process test written for
 * DOCA 2.2 (work queue and jobs; built with SOFTDOCA_API_VERSION=202).
 *
 *   peer_v202 <scenario> server --port-file FILE [--iface IF]
 *   peer_v202 <scenario> client --host IP --port N [--iface IF]
 *
 * The scenarios are the two code snippets of DOCA's 2023 RDMA programming
 * guide, step for step: a write in polling mode, and a send with immediate
 * received in polling mode and sent in event-driven mode with epoll (each
 * also with the other mode), after the preparations the guide describes;
 * and an idle armed program that must use no CPU until its result is ready.
 * The server is the guide's receiving side. Exits 0 when every check passed.
 */
#include <assert.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_rdma.h>

#include "peer_oob.h"

#define MEM_LEN 4096
#define WORKQ_DEPTH 16
#define WAIT_MS 60000
#define IDLE_MS 2000      /* how long the idle program waits armed */
#define IDLE_CPU_MAX 0.02 /* of one core, over that time */

#define CHECK(call)                                                                 \
	do {                                                                        \
		doca_error_t check_ = (call);                                       \
		if (check_ != DOCA_SUCCESS)                                         \
			FAIL("%s returned %s", #call, doca_get_error_name(check_)); \
	} while (0)

/* What the guide's snippets presume prepared. */
struct side {
	bool server;
	int oob;
	struct doca_dev *dev;
	struct doca_buf_inventory *buf_inventory;
	struct doca_workq *workq;
	struct doca_rdma *rdma;
	struct doca_ctx *rdma_ctx;
	struct doca_mmap *local_mmap;
	struct doca_mmap *remote_mmap;
	char *local_mmap_memrange;
	void *remote_addr;
};

static void open_device(struct side *s, const char *iface)
{
	struct doca_devinfo **list;
	uint32_t n;

	CHECK(doca_devinfo_list_create(&list, &n));
	for (uint32_t i = 0; i < n && !s->dev; i++) {
		char name[DOCA_DEVINFO_IFACE_NAME_SIZE];

		CHECK(doca_devinfo_get_iface_name(list[i], name, sizeof(name)));
		if (strcmp(name, iface) == 0)
			CHECK(doca_dev_open(list[i], &s->dev));
	}
	CHECK(doca_devinfo_list_destroy(list));
	EXPECT(s->dev, "no device for interface %s", iface);
}

/* Device, memory, RDMA instance connected to the peer's, work queue (added
 * here unless the scenario sets event-driven mode first), inventory; the
 * server exports its memory, the client imports it. */
static void prepare(struct side *s, bool add_workq)
{
	const uint32_t access = DOCA_ACCESS_LOCAL_READ_WRITE | DOCA_ACCESS_RDMA_WRITE;
	const void *details;
	size_t details_size, len;
	void *peer;

	s->local_mmap_memrange = calloc(1, MEM_LEN);
	CHECK(doca_mmap_create(NULL, &s->local_mmap));
	CHECK(doca_mmap_set_permissions(s->local_mmap, access));
	CHECK(doca_mmap_set_memrange(s->local_mmap, s->local_mmap_memrange, MEM_LEN));
	CHECK(doca_mmap_dev_add(s->local_mmap, s->dev));
	CHECK(doca_mmap_start(s->local_mmap));
	CHECK(doca_rdma_create(&s->rdma));
	s->rdma_ctx = doca_rdma_as_ctx(s->rdma);
	CHECK(doca_ctx_dev_add(s->rdma_ctx, s->dev));
	CHECK(doca_rdma_set_permissions(s->rdma, access));
	CHECK(doca_ctx_start(s->rdma_ctx));
	CHECK(doca_rdma_export(s->rdma, &details, &details_size));
	CHECK(doca_workq_create(WORKQ_DEPTH, &s->workq));
	if (add_workq)
		CHECK(doca_ctx_workq_add(s->rdma_ctx, s->workq));
	oob_send(s->oob, details, details_size);
	peer = oob_recv(s->oob, &len, WAIT_MS);
	CHECK(doca_rdma_connect(s->rdma, peer, len));
	free(peer);
	if (s->server) {
		CHECK(doca_mmap_export_rdma(s->local_mmap, s->dev, &details, &details_size));
		oob_send(s->oob, details, details_size);
	} else {
		peer = oob_recv(s->oob, &len, WAIT_MS);
		CHECK(doca_mmap_create_from_export(NULL, peer, len, s->dev, &s->remote_mmap));
		CHECK(doca_mmap_get_memrange(s->remote_mmap, &s->remote_addr, &len));
		free(peer);
	}
	CHECK(doca_buf_inventory_create(NULL, 8, 0, &s->buf_inventory));
	CHECK(doca_buf_inventory_start(s->buf_inventory));
}

/* The guide's clean-up, in its order: buffers are released by the
 * snippets, then inventory, memory maps, work queue, context. */
static void clean_up(struct side *s)
{
	CHECK(doca_buf_inventory_destroy(s->buf_inventory));
	if (s->remote_mmap)
		CHECK(doca_mmap_destroy(s->remote_mmap));
	CHECK(doca_mmap_destroy(s->local_mmap));
	CHECK(doca_ctx_workq_rm(s->rdma_ctx, s->workq));
	CHECK(doca_workq_destroy(s->workq));
	CHECK(doca_ctx_stop(s->rdma_ctx));
	CHECK(doca_rdma_destroy(s->rdma));
	free(s->local_mmap_memrange);
}

/* Event-driven mode as the guide's send snippet sets it up: before the work
 * queue joins the context. Returns the epoll instance. */
static int event_driven(struct side *s)
{
	doca_event_handle_t workq_fd;
	struct epoll_event events_in = { .events = EPOLLIN };
	int epfd;

	CHECK(doca_workq_set_event_driven_enable(s->workq, 1));
	CHECK(doca_workq_get_event_handle(s->workq, &workq_fd));
	epfd = epoll_create1(0);
	EXPECT(epfd >= 0 && epoll_ctl(epfd, EPOLL_CTL_ADD, workq_fd, &events_in) == 0,
	       "epoll set-up failed");
	CHECK(doca_ctx_workq_add(s->rdma_ctx, s->workq));
	return epfd;
}

/* The guide's two ways to wait for a job's result. */
static doca_error_t wait_polling(struct side *s, struct doca_event *event)
{
	doca_error_t status;

	do {
		status = doca_workq_progress_retrieve(s->workq, event,
		                                      DOCA_WORKQ_RETRIEVE_FLAGS_NONE);
	} while (status == DOCA_ERROR_AGAIN);
	return status;
}

static doca_error_t wait_epoll(struct side *s, int epfd, struct doca_event *event)
{
	static const int no_timeout = -1;
	struct epoll_event handle_event;
	doca_error_t status;

	status = doca_workq_progress_retrieve(s->workq, event, DOCA_WORKQ_RETRIEVE_FLAGS_NONE);
	while (status == DOCA_ERROR_AGAIN) {
		doca_workq_event_handle_arm(s->workq);
		epoll_wait(epfd, &handle_event, /*maxevents=*/1, no_timeout);
		doca_workq_event_handle_clear(s->workq, /*handle=*/0);
		status = doca_workq_progress_retrieve(s->workq, event,
		                                      DOCA_WORKQ_RETRIEVE_FLAGS_NONE);
	}
	return status;
}

/* A side's set-up, event-driven or polling: its epoll instance, or -1. */
static int begin(struct side *s, bool event_mode)
{
	prepare(s, !event_mode);
	return event_mode ? event_driven(s) : -1;
}

static doca_error_t wait_result(struct side *s, int epfd, struct doca_event *event)
{
	return epfd >= 0 ? wait_epoll(s, epfd, event) : wait_polling(s, event);
}

/* --- the write snippet --- */

static void write_server(struct side *s, bool epoll_mode)
{
	(void)epoll_mode;
	prepare(s, true);
	/* The target does not help: it waits, making no DOCA call. */
	oob_expect(s->oob, "written", WAIT_MS);
	EXPECT(strcmp(s->local_mmap_memrange, "Hello World!") == 0, "the memory holds '%s'",
	       s->local_mmap_memrange);
	oob_send_str(s->oob, "ok");
	clean_up(s);
}

static void write_client(struct side *s, bool epoll_mode)
{
	int epfd = begin(s, epoll_mode);

	/* Step #1 - Declare and initiate structures */
	doca_error_t status;
	struct doca_buf *src_buf;
	struct doca_buf *dst_buf;
	struct doca_rdma_result rdma_result;
	struct doca_event event = { 0 };
	struct doca_rdma_job_read_write job_write = { 0 };

	memset(&rdma_result, 0, sizeof(rdma_result));
	event.result.ptr = (void *)(&rdma_result);
	/* Step #2 - a source buffer from the local mmap, and its data */
	const char *string = "Hello World!";
	size_t string_len = strlen(string) + 1;

	CHECK(doca_buf_inventory_buf_by_data(s->buf_inventory, s->local_mmap,
	                                     s->local_mmap_memrange, string_len, &src_buf));
	strcpy(s->local_mmap_memrange, string);
	/* Step #3 - a destination buffer from the imported mmap */
	CHECK(doca_buf_inventory_buf_by_data(s->buf_inventory, s->remote_mmap, s->remote_addr,
	                                     string_len, &dst_buf));
	/* Step #4 - prepare and submit the job */
	job_write.base.ctx = s->rdma_ctx;
	job_write.base.flags = DOCA_JOB_FLAGS_NONE;
	job_write.base.type = DOCA_RDMA_JOB_WRITE;
	job_write.src_buff = src_buf;
	job_write.dst_buff = dst_buf;
	CHECK(doca_workq_submit(s->workq, (struct doca_job *)(&job_write)));
	/* Step #5 - check for the job's result */
	status = wait_result(s, epfd, &event);
	EXPECT(status == DOCA_SUCCESS, "retrieve: %s", doca_get_error_name(status));
	EXPECT(rdma_result.result == DOCA_SUCCESS, "write: %s",
	       doca_get_error_name(rdma_result.result));

	CHECK(doca_buf_refcount_rm(src_buf, NULL));
	CHECK(doca_buf_refcount_rm(dst_buf, NULL));
	oob_send_str(s->oob, "written");
	oob_expect(s->oob, "ok", WAIT_MS);
	clean_up(s);
}

/* --- the send-with-immediate snippet: the server receives --- */

static void send_imm_server(struct side *s, bool epoll_mode)
{
	int epfd = begin(s, epoll_mode);

	/* Step #1 - Declare and initiate structures */
	doca_error_t status;
	struct doca_buf *dst_buf;
	struct doca_rdma_result rdma_result;
	struct doca_event event = { 0 };
	struct doca_rdma_job_recv job_recv = { 0 };
	size_t data_len = 64; /* an upper limit of what arrives */

	memset(&rdma_result, 0, sizeof(rdma_result));
	event.result.ptr = (void *)(&rdma_result);
	/* Step #2 - a destination buffer from the local mmap */
	CHECK(doca_buf_inventory_buf_by_data(s->buf_inventory, s->local_mmap,
	                                     s->local_mmap_memrange, data_len, &dst_buf));
	/* Step #3 - prepare and submit the job */
	job_recv.base.ctx = s->rdma_ctx;
	job_recv.base.flags = DOCA_JOB_FLAGS_NONE;
	job_recv.base.type = DOCA_RDMA_JOB_RECV;
	job_recv.dst_buff = dst_buf;
	CHECK(doca_workq_submit(s->workq, (struct doca_job *)(&job_recv)));
	oob_send_str(s->oob, "posted");
	/* Step #4 - check for the job's result */
	status = wait_result(s, epfd, &event);
	EXPECT(status == DOCA_SUCCESS, "retrieve: %s", doca_get_error_name(status));
	EXPECT(rdma_result.result == DOCA_SUCCESS, "receive: %s",
	       doca_get_error_name(rdma_result.result));
	EXPECT(rdma_result.immediate_data == 0xDEADBEEF, "immediate 0x%x",
	       (unsigned int)rdma_result.immediate_data);
	EXPECT(strcmp(s->local_mmap_memrange, "Hello World!") == 0, "received '%s'",
	       s->local_mmap_memrange);
	EXPECT(rdma_result.opcode == DOCA_RDMA_OPCODE_RECV_SEND_WITH_IMM &&
	               rdma_result.length == strlen("Hello World!") + 1,
	       "opcode %d, length %u", (int)rdma_result.opcode, rdma_result.length);

	CHECK(doca_buf_refcount_rm(dst_buf, NULL));
	oob_send_str(s->oob, "received");
	clean_up(s);
}

/* The guide's sending side is event-driven; "epoll_mode" swaps the modes
 * of the two sides, so this one polls. */
static void send_imm_client(struct side *s, bool epoll_mode)
{
	int epfd = begin(s, !epoll_mode);

	/* Step #2 - Declare and initiate structures */
	doca_error_t status;
	struct doca_buf *src_buf;
	struct doca_rdma_result rdma_result;
	struct doca_event event = { 0 };
	struct doca_rdma_job_send job_send = { 0 };

	memset(&rdma_result, 0, sizeof(rdma_result));
	event.result.ptr = (void *)(&rdma_result);
	/* Step #3 - a source buffer from the local mmap, and its data */
	const char *string = "Hello World!";
	size_t string_len = strlen(string) + 1;

	CHECK(doca_buf_inventory_buf_by_data(s->buf_inventory, s->local_mmap,
	                                     s->local_mmap_memrange, string_len, &src_buf));
	strcpy(s->local_mmap_memrange, string);
	/* Step #4 - prepare and submit the job (sometimes before the receiver
	 * posted its receive: it waits, as on RC) */
	job_send.base.ctx = s->rdma_ctx;
	job_send.base.flags = DOCA_JOB_FLAGS_NONE;
	job_send.base.type = DOCA_RDMA_JOB_SEND_IMM;
	job_send.src_buff = src_buf;
	job_send.immediate_data = 0xDEADBEEF;
	CHECK(doca_workq_submit(s->workq, (struct doca_job *)(&job_send)));
	/* Step #5 - check for the job's result */
	status = wait_result(s, epfd, &event);
	EXPECT(status == DOCA_SUCCESS, "retrieve: %s", doca_get_error_name(status));
	EXPECT(rdma_result.result == DOCA_SUCCESS, "send: %s",
	       doca_get_error_name(rdma_result.result));

	CHECK(doca_buf_refcount_rm(src_buf, NULL));
	oob_expect(s->oob, "posted", WAIT_MS);
	oob_expect(s->oob, "received", WAIT_MS);
	clean_up(s);
}

/* --- an idle armed program uses no CPU; its handle wakes it for a result --- */

static double cpu_seconds(void)
{
	struct rusage u;

	getrusage(RUSAGE_SELF, &u);
	return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
	       (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

static void idle_client(struct side *s, bool unused)
{
	struct doca_rdma_result result;
	struct doca_event event = { .result.ptr = &result };
	struct doca_rdma_job_recv recv = { .base = { .type = DOCA_RDMA_JOB_RECV } };
	struct epoll_event ready;
	struct doca_buf *dst;
	double before, used;
	int epfd, n;

	(void)unused;
	prepare(s, false);
	epfd = event_driven(s);
	CHECK(doca_buf_inventory_buf_by_addr(s->buf_inventory, s->local_mmap,
	                                     s->local_mmap_memrange, MEM_LEN, &dst));
	recv.base.ctx = s->rdma_ctx;
	recv.dst_buff = dst;
	CHECK(doca_workq_submit(s->workq, &recv.base));
	EXPECT(doca_workq_progress_retrieve(s->workq, &event, 0) == DOCA_ERROR_AGAIN,
	       "a result before anything was sent");
	CHECK(doca_workq_event_handle_arm(s->workq));
	before = cpu_seconds();
	n = epoll_wait(epfd, &ready, 1, IDLE_MS);
	used = cpu_seconds() - before;
	printf("idle and armed for %d ms: %.4f s of CPU (%.2f%% of one core)\n", IDLE_MS, used,
	       100.0 * used / (IDLE_MS / 1000.0));
	EXPECT(n == 0, "the handle became readable with no result ready");
	EXPECT(used <= IDLE_CPU_MAX * IDLE_MS / 1000.0, "the idle armed program used CPU");

	oob_send_str(s->oob, "send");
	n = epoll_wait(epfd, &ready, 1, WAIT_MS);
	EXPECT(n == 1, "the handle did not become readable for the result");
	CHECK(doca_workq_event_handle_clear(s->workq, 0));
	CHECK(doca_workq_progress_retrieve(s->workq, &event, 0));
	CHECK(result.result);
	EXPECT(strcmp(s->local_mmap_memrange, "wake up") == 0, "received '%s'",
	       s->local_mmap_memrange);
	CHECK(doca_buf_refcount_rm(dst, NULL));
	oob_send_str(s->oob, "done");
	clean_up(s);
}

static void idle_server(struct side *s, bool unused)
{
	struct doca_rdma_result result;
	struct doca_event event = { .result.ptr = &result };
	struct doca_rdma_job_send send = { .base = { .type = DOCA_RDMA_JOB_SEND } };
	struct doca_buf *src;

	(void)unused;
	prepare(s, true);
	strcpy(s->local_mmap_memrange, "wake up");
	CHECK(doca_buf_inventory_buf_by_data(s->buf_inventory, s->local_mmap,
	                                     s->local_mmap_memrange, 8, &src));
	oob_expect(s->oob, "send", WAIT_MS);
	send.base.ctx = s->rdma_ctx;
	send.src_buff = src;
	CHECK(doca_workq_submit(s->workq, &send.base));
	CHECK(wait_polling(s, &event));
	CHECK(result.result);
	CHECK(doca_buf_refcount_rm(src, NULL));
	oob_expect(s->oob, "done", WAIT_MS);
	clean_up(s);
}

struct scenario {
	const char *name;
	void (*server)(struct side *s, bool epoll_mode);
	void (*client)(struct side *s, bool epoll_mode);
	bool epoll_mode;
};

static const struct scenario scenarios[] = {
	{ "snippet_write", write_server, write_client, false },
	{ "snippet_write_epoll", write_server, write_client, true },
	{ "snippet_send_imm", send_imm_server, send_imm_client, false },
	{ "snippet_send_imm_swapped", send_imm_server, send_imm_client, true },
	{ "idle_cpu", idle_server, idle_client, false },
	{ NULL, NULL, NULL, false },
};

int main(int argc, char **argv)
{
	const struct scenario *sc = scenarios;
	struct side s = { 0 };
	struct peer_args a;

	setvbuf(stdout, NULL, _IOLBF, 0);
	peer_args_parse(argc, argv, &a);
	while (sc->name && strcmp(sc->name, a.scenario) != 0)
		sc++;
	if (!sc->name)
		peer_usage(argv[0]);
	s.server = a.server;
	doca_log_create_standard_backend();
	open_device(&s, a.iface);
	if (s.server) {
		EXPECT(a.port_file, "a server needs --port-file");
		s.oob = oob_accept_fd(oob_listen_fd(a.port_file));
		sc->server(&s, sc->epoll_mode);
	} else {
		EXPECT(a.port > 0, "a client needs --port");
		s.oob = oob_connect_fd(a.host, a.port);
		sc->client(&s, sc->epoll_mode);
	}
	CHECK(doca_dev_close(s.dev));
	printf("%s %s: OK\n", argv[1], argv[2]);
	return 0;
}
