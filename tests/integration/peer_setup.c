/*
 * softdoca integration tests: DOCA set-up shared by every scenario, written
 * the way DOCA RDMA programs are.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "peer.h"

#define TASKS_PER_TYPE 256

void pattern_fill(void *buf, size_t len, uint32_t seed)
{
	uint8_t *p = buf;

	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 131u + seed * 7u + (i >> 10) + (i >> 20));
}

long pattern_check(const void *buf, size_t len, uint32_t seed)
{
	const uint8_t *p = buf;

	for (size_t i = 0; i < len; i++)
		if (p[i] != (uint8_t)(i * 131u + seed * 7u + (i >> 10) + (i >> 20)))
			return (long)i;
	return -1;
}

union doca_data result_data(struct result *r)
{
	union doca_data d = { .ptr = r };

	memset(r, 0, sizeof(*r));
	return d;
}

/* Every task type reports through the same place. */
static void record(struct doca_task *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct result *r = task_ud.ptr;
	struct peer *p = ctx_ud.ptr;

	r->status = doca_task_get_status(task);
	r->order = ++p->completions;
	r->done = true;
	if (r->stop_ctx) {
		struct doca_ctx *ctx = doca_task_get_ctx(task);

		doca_task_free(task);
		(void)doca_ctx_stop(ctx);
	}
}

#define CALLBACK(type)                                                             \
	static void cb_##type(struct doca_rdma_task_##type *t, union doca_data ud, \
	                      union doca_data cud)                                 \
	{                                                                          \
		record(doca_rdma_task_##type##_as_task(t), ud, cud);               \
	}
CALLBACK(receive)
CALLBACK(send)
CALLBACK(send_imm)
CALLBACK(read)
CALLBACK(write)
CALLBACK(write_imm)
CALLBACK(atomic_cmp_swp)
CALLBACK(atomic_fetch_add)
CALLBACK(remote_net_sync_event_get)
CALLBACK(remote_net_sync_event_notify_set)
CALLBACK(remote_net_sync_event_notify_add)

void peer_open(struct peer *p, const char *iface)
{
	struct doca_devinfo **list;
	uint32_t n;

	CHECK(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n && !p->dev; i++) {
		char name[DOCA_DEVINFO_IFACE_NAME_SIZE];

		CHECK(doca_devinfo_get_iface_name(list[i], name, sizeof(name)));
		if (strcmp(name, iface) == 0)
			CHECK(doca_dev_open(list[i], &p->dev));
	}
	CHECK(doca_devinfo_destroy_list(list));
	EXPECT(p->dev, "no device for interface %s", iface);
	CHECK(doca_buf_inventory_create(1024, &p->inv));
	CHECK(doca_buf_inventory_start(p->inv));
}

void peer_alloc_memory(struct peer *p, size_t len, uint32_t access)
{
	p->mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	EXPECT(p->mem != MAP_FAILED, "cannot map %zu bytes", len);
	p->mem_len = len;
	CHECK(doca_mmap_create(&p->mmap));
	CHECK(doca_mmap_set_memrange(p->mmap, p->mem, len));
	CHECK(doca_mmap_set_permissions(p->mmap, access));
	CHECK(doca_mmap_add_dev(p->mmap, p->dev));
	CHECK(doca_mmap_start(p->mmap));
}

void peer_create_rdma(struct peer *p)
{
	uint32_t n = p->num_tasks ? p->num_tasks : TASKS_PER_TYPE;
	union doca_data ud = { .ptr = p };

	CHECK(doca_pe_create(&p->pe));
	CHECK(doca_rdma_create(p->dev, &p->rdma));
	CHECK(doca_rdma_set_permissions(p->rdma, p->rdma_permissions));
	CHECK(doca_rdma_set_max_num_connections(p->rdma, p->max_conns ? p->max_conns : 1));
	CHECK(doca_rdma_set_rnr_retry_count(p->rdma, p->rnr_retry));
	CHECK(doca_rdma_task_receive_set_conf(p->rdma, cb_receive, cb_receive, n));
	CHECK(doca_rdma_task_send_set_conf(p->rdma, cb_send, cb_send, n));
	CHECK(doca_rdma_task_send_imm_set_conf(p->rdma, cb_send_imm, cb_send_imm, n));
	CHECK(doca_rdma_task_read_set_conf(p->rdma, cb_read, cb_read, n));
	CHECK(doca_rdma_task_write_set_conf(p->rdma, cb_write, cb_write, n));
	CHECK(doca_rdma_task_write_imm_set_conf(p->rdma, cb_write_imm, cb_write_imm, n));
	CHECK(doca_rdma_task_atomic_cmp_swp_set_conf(p->rdma, cb_atomic_cmp_swp, cb_atomic_cmp_swp,
	                                             n));
	CHECK(doca_rdma_task_atomic_fetch_add_set_conf(p->rdma, cb_atomic_fetch_add,
	                                               cb_atomic_fetch_add, n));
	if (p->cm)
		peer_cm_callbacks(p);
	CHECK(doca_rdma_task_remote_net_sync_event_get_set_conf(
	        p->rdma, cb_remote_net_sync_event_get, cb_remote_net_sync_event_get, n));
	CHECK(doca_rdma_task_remote_net_sync_event_notify_set_set_conf(
	        p->rdma, cb_remote_net_sync_event_notify_set, cb_remote_net_sync_event_notify_set,
	        n));
	CHECK(doca_rdma_task_remote_net_sync_event_notify_add_set_conf(
	        p->rdma, cb_remote_net_sync_event_notify_add, cb_remote_net_sync_event_notify_add,
	        n));
	CHECK(doca_ctx_set_user_data(doca_rdma_as_ctx(p->rdma), ud));
	CHECK(doca_pe_connect_ctx(p->pe, doca_rdma_as_ctx(p->rdma)));
}

void peer_wait_state(struct peer *p, enum doca_ctx_states want, int timeout_ms)
{
	uint64_t deadline = now_ms() + (uint64_t)timeout_ms;
	enum doca_ctx_states state;

	for (;;) {
		CHECK(doca_ctx_get_state(doca_rdma_as_ctx(p->rdma), &state));
		if (state == want)
			return;
		EXPECT(now_ms() < deadline, "context state %d, not %d, after %d ms", state, want,
		       timeout_ms);
		doca_pe_progress(p->pe);
	}
}

/* DOCA 3.x: start returns SUCCESS; RUNNING comes from progress. */
void peer_start(struct peer *p)
{
	CHECK(doca_ctx_start(doca_rdma_as_ctx(p->rdma)));
	peer_wait_state(p, DOCA_CTX_STATE_RUNNING, 10000);
}

void peer_connect(struct peer *p, int i)
{
	const void *blob;
	size_t len, peer_len;
	void *peer_blob;

	CHECK(doca_rdma_export(p->rdma, &blob, &len, &p->conn[i]));
	oob_send(p->oob[i], blob, len);
	peer_blob = oob_recv(p->oob[i], &peer_len, 30000);
	CHECK(doca_rdma_connect(p->rdma, peer_blob, peer_len, p->conn[i]));
	free(peer_blob);
}

/* Servers export their mmap; clients import the peer's. */
void peer_exchange_mmap(struct peer *p, int i)
{
	size_t len;

	if (p->server) {
		const void *blob;

		CHECK(doca_mmap_export_rdma(p->mmap, p->dev, &blob, &len));
		oob_send(p->oob[i], blob, len);
	} else {
		void *blob = oob_recv(p->oob[i], &len, 30000);

		CHECK(doca_mmap_create_from_export(NULL, blob, len, p->dev, &p->remote[i]));
		CHECK(doca_mmap_get_memrange(p->remote[i], &p->remote_addr[i], &p->remote_len[i]));
		free(blob);
	}
}

void peer_wait(struct peer *p, struct result *r, int timeout_ms)
{
	uint64_t deadline = now_ms() + (uint64_t)timeout_ms;

	while (!r->done) {
		EXPECT(now_ms() < deadline, "a task did not complete within %d ms", timeout_ms);
		doca_pe_progress(p->pe);
	}
}

void peer_stop(struct peer *p)
{
	enum doca_ctx_states state;

	CHECK(doca_ctx_get_state(doca_rdma_as_ctx(p->rdma), &state));
	if (state != DOCA_CTX_STATE_IDLE) {
		doca_error_t st = doca_ctx_stop(doca_rdma_as_ctx(p->rdma));

		EXPECT(st == DOCA_SUCCESS || st == DOCA_ERROR_IN_PROGRESS, "stop: %s",
		       doca_error_get_name(st));
	}
	peer_wait_state(p, DOCA_CTX_STATE_IDLE, 10000);
}

void peer_release(struct peer *p)
{
	if (p->rdma)
		CHECK(doca_rdma_destroy(p->rdma));
	if (p->pe)
		CHECK(doca_pe_destroy(p->pe));
	for (int i = 0; i < PEER_MAX_CONNS; i++)
		if (p->remote[i])
			CHECK(doca_mmap_destroy(p->remote[i]));
	if (p->mmap)
		CHECK(doca_mmap_destroy(p->mmap));
	if (p->mem)
		munmap(p->mem, p->mem_len);
	p->rdma = NULL;
	p->pe = NULL;
	p->mmap = NULL;
	p->mem = NULL;
	memset(p->remote, 0, sizeof(p->remote));
	memset(p->conn, 0, sizeof(p->conn));
	p->completions = 0;
}

void peer_close(struct peer *p)
{
	peer_release(p);
	CHECK(doca_buf_inventory_destroy(p->inv));
	CHECK(doca_dev_close(p->dev));
}

struct doca_buf *peer_buf(struct peer *p, struct doca_mmap *mmap, void *addr, size_t len,
                          size_t data_len)
{
	struct doca_buf *buf;

	CHECK(doca_buf_inventory_buf_get_by_args(p->inv, mmap, addr, len, addr, data_len, &buf));
	return buf;
}
