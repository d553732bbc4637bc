/*
 * softdoca soak, the server: the target of every operation. It exports one
 * memory range (a write area, a read-only area of a known pattern, the
 * atomic words), a sync event per slot, and keeps receives of 64 MiB
 * posted. Each receive that completes is checked against the client's
 * schedule for that connection (soak_recv_spec: kind, length, immediate,
 * every byte of a send) in the order RC delivers them, poisoned and posted
 * again. When the client says a connection failed it disconnects it and
 * offers the next one. At the end it sends its memory's atomic words, the
 * events' values and how many receives it verified per connection.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>
#include <doca_sync_event.h>
#include <softdoca.h>

#include "soak.h"

struct srv_slot {
	struct doca_rdma_connection *conn;
	uint32_t gen;
	bool down; /* its failure or disconnection callback ran */
};

struct srv_recv {
	struct doca_rdma_task_receive *task;
	struct doca_buf *buf;
	uint8_t *mem;
	bool posted;
};

struct server {
	struct soak_params prm;
	int fd;
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct doca_rdma *rdma;
	struct doca_buf_inventory *inv;
	struct doca_mmap *mmap;
	uint8_t *mem;
	size_t mem_len, write_off, static_off, atom_off, recv_off;
	struct doca_sync_event *events[SOAK_CONNS];
	struct srv_slot slots[SOAK_CONNS];
	struct srv_recv *recvs;
	bool stopping;
	/* per (slot, generation): receives checked, in order */
	uint32_t next_k[SOAK_CONNS][SOAK_MAX_GEN];
	uint64_t receives, bytes, conn_failures, conn_disconnects, conn_established;
	uint64_t deaths, recv_failed;
	struct soak_proc proc;
};

static struct server S;

static union doca_data ud_slot(int slot, uint32_t gen)
{
	union doca_data d = { .u64 = (uint64_t)gen << 8 | (uint64_t)slot };

	return d;
}

static void post_recv(struct srv_recv *r)
{
	union doca_data ud = { .ptr = r };
	doca_error_t st;

	CHECK(doca_buf_reset_data_len(r->buf));
	CHECK(doca_rdma_task_receive_allocate_init(S.rdma, r->buf, ud, &r->task));
	st = doca_task_submit(doca_rdma_task_receive_as_task(r->task));
	EXPECT(st == DOCA_SUCCESS, "posting a receive: %s", doca_error_get_name(st));
	r->posted = true;
}

static const char *kind_name(enum soak_recv_kind k)
{
	return k == RK_SEND ? "send" : k == RK_SEND_IMM ? "send_imm" : "write_imm";
}

/* A receive completed: it must be the next the connection's schedule says. */
static void recv_done(struct doca_rdma_task_receive *task, union doca_data ud, union doca_data cud)
{
	struct srv_recv *r = ud.ptr;
	doca_error_t st = doca_task_get_status(doca_rdma_task_receive_as_task(task));
	const struct doca_rdma_connection *conn;
	union doca_data cd;
	struct soak_recv_spec spec;
	enum doca_rdma_opcode want_op;
	uint32_t len, k;
	size_t data_len;
	int slot;
	uint32_t gen;
	long at;

	(void)cud;
	EXPECT(r->posted && r->task == task, "a receive completed twice (or one never posted)");
	r->posted = false;
	if (st != DOCA_SUCCESS) {
		/* Flushed when the context stops; or taken by a connection's
		 * message that never finished arriving, as the connection failed
		 * (which connection the task does not say: counted, bounded at
		 * the end). */
		doca_task_free(doca_rdma_task_receive_as_task(task));
		r->task = NULL;
		if (S.stopping)
			return;
		S.recv_failed++;
		printf("server: a receive failed with %s (connections ended so far: %" PRIu64 ")\n",
		       doca_error_get_name(st), S.deaths + S.conn_failures + S.conn_disconnects);
		post_recv(r);
		return;
	}
	conn = doca_rdma_task_receive_get_result_rdma_connection(task);
	EXPECT(conn, "a receive completed without its connection");
	CHECK(doca_rdma_connection_get_user_data(conn, &cd));
	slot = (int)(cd.u64 & 0xff);
	gen = (uint32_t)(cd.u64 >> 8);
	EXPECT(slot < SOAK_CONNS && gen < SOAK_MAX_GEN, "a receive on an unknown connection");
	k = S.next_k[slot][gen]++;
	spec = soak_recv_spec(S.prm.seed, slot, gen, k);
	want_op = spec.kind == RK_SEND       ? DOCA_RDMA_OPCODE_RECV_SEND
	          : spec.kind == RK_SEND_IMM ? DOCA_RDMA_OPCODE_RECV_SEND_WITH_IMM
	                                     : DOCA_RDMA_OPCODE_RECV_WRITE_WITH_IMM;
	len = doca_rdma_task_receive_get_result_len(task);
	if (doca_rdma_task_receive_get_result_opcode(task) != want_op)
		DATA_FAIL("slot %d gen %u receive %u: opcode %d, expected %s", slot, gen, k,
		          doca_rdma_task_receive_get_result_opcode(task), kind_name(spec.kind));
	if (len != spec.len)
		DATA_FAIL("slot %d gen %u receive %u (%s): length %u, expected %zu", slot, gen, k,
		          kind_name(spec.kind), len, spec.len);
	if (spec.kind != RK_SEND &&
	    doca_rdma_task_receive_get_result_immediate_data(task) != (doca_be32_t)spec.imm)
		DATA_FAIL("slot %d gen %u receive %u (%s): immediate 0x%x, expected 0x%x", slot,
		          gen, k, kind_name(spec.kind),
		          (unsigned)doca_rdma_task_receive_get_result_immediate_data(task),
		          spec.imm);
	CHECK(doca_buf_get_data_len(r->buf, &data_len));
	if (spec.kind != RK_WRITE_IMM) {
		if (data_len != spec.len)
			DATA_FAIL("slot %d gen %u receive %u: the buffer holds %zu bytes, not %zu",
			          slot, gen, k, data_len, spec.len);
		at = pat_check(r->mem, spec.len, spec.seed, 0);
		if (at >= 0)
			DATA_FAIL("slot %d gen %u receive %u (%s, %zu bytes): byte %ld is 0x%02x, "
			          "expected 0x%02x",
			          slot, gen, k, kind_name(spec.kind), spec.len, at, r->mem[at],
			          pat_byte(spec.seed, (uint64_t)at));
		/* Poisoned: a later send that delivers less is caught. */
		memset(r->mem, 0xA5, spec.len);
		S.bytes += spec.len;
	}
	/* A write with immediate places its bytes at its remote address (the
	 * client reads them back); softdoca still advances the receive
	 * buffer's data length by them, which is not checked here. */
	S.receives++;
	doca_task_free(doca_rdma_task_receive_as_task(task));
	r->task = NULL;
	if (!S.stopping)
		post_recv(r);
}

static void conn_established(struct doca_rdma_connection *c, union doca_data ud,
                             union doca_data cud)
{
	(void)c;
	(void)ud;
	(void)cud;
	S.conn_established++;
}

static void conn_gone(struct doca_rdma_connection *c, union doca_data ud, bool failed)
{
	int slot = (int)(ud.u64 & 0xff);
	uint32_t gen = (uint32_t)(ud.u64 >> 8);

	(void)c;
	if (failed)
		S.conn_failures++;
	else
		S.conn_disconnects++;
	if (slot < SOAK_CONNS && S.slots[slot].gen == gen)
		S.slots[slot].down = true;
}

static void conn_failed(struct doca_rdma_connection *c, union doca_data ud, union doca_data cud)
{
	(void)cud;
	conn_gone(c, ud, true);
}

static void conn_disconnected(struct doca_rdma_connection *c, union doca_data ud,
                              union doca_data cud)
{
	(void)cud;
	conn_gone(c, ud, false);
}

static void setup(const char *iface)
{
	size_t write_len = (size_t)S.prm.arena_mb << 20;
	union doca_data ud = { .ptr = &S };

	S.dev = soak_open_dev(iface);
	CHECK(doca_buf_inventory_create(64, &S.inv));
	CHECK(doca_buf_inventory_start(S.inv));
	S.write_off = 0;
	S.static_off = write_len;
	S.atom_off = S.static_off + SOAK_STATIC_LEN;
	S.recv_off = S.atom_off + SOAK_PAGE;
	S.mem_len = S.recv_off + (size_t)S.prm.nrecv * SOAK_MAX_LEN;
	S.mem = mmap(NULL, S.mem_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	EXPECT(S.mem != MAP_FAILED, "cannot map %zu bytes", S.mem_len);
	/* Touched now: RSS is flat from here on unless something grows. */
	memset(S.mem, 0x5A, S.mem_len);
	pat_fill(S.mem + S.static_off, SOAK_STATIC_LEN, SOAK_STATIC_SEED, 0, 0);
	memset(S.mem + S.atom_off, 0, SOAK_PAGE);
	CHECK(doca_mmap_create(&S.mmap));
	CHECK(doca_mmap_set_memrange(S.mmap, S.mem, S.mem_len));
	CHECK(doca_mmap_set_permissions(
	        S.mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ |
	                        DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC));
	CHECK(doca_mmap_add_dev(S.mmap, S.dev));
	CHECK(doca_mmap_start(S.mmap));

	CHECK(doca_pe_create(&S.pe));
	CHECK(doca_rdma_create(S.dev, &S.rdma));
	CHECK(doca_rdma_set_permissions(
	        S.rdma, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ |
	                        DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC));
	/* 8 at a time, and room for one being replaced while its old one goes. */
	CHECK(doca_rdma_set_max_num_connections(S.rdma, 2 * SOAK_CONNS));
	CHECK(doca_rdma_task_receive_set_conf(S.rdma, recv_done, recv_done, S.prm.nrecv));
	CHECK(doca_rdma_set_connection_state_callbacks(S.rdma, NULL, conn_established, conn_failed,
	                                               conn_disconnected));
	CHECK(doca_ctx_set_user_data(doca_rdma_as_ctx(S.rdma), ud));
	CHECK(doca_pe_connect_ctx(S.pe, doca_rdma_as_ctx(S.rdma)));
	CHECK(doca_ctx_start(doca_rdma_as_ctx(S.rdma)));
	for (uint64_t t0 = now_ms();;) {
		enum doca_ctx_states st;

		CHECK(doca_ctx_get_state(doca_rdma_as_ctx(S.rdma), &st));
		if (st == DOCA_CTX_STATE_RUNNING)
			break;
		EXPECT(now_ms() - t0 < 10000, "the context did not start");
		doca_pe_progress(S.pe);
	}
	for (int i = 0; i < SOAK_CONNS; i++) {
		CHECK(doca_sync_event_create(&S.events[i]));
		CHECK(doca_sync_event_add_publisher_location_remote_net(S.events[i]));
		CHECK(doca_sync_event_add_subscriber_location_cpu(S.events[i], S.dev));
		CHECK(doca_sync_event_start(S.events[i]));
	}
}

/* Exports (slot, gen) and sends its blob as `type`. */
static void offer(int slot, uint32_t gen, enum soak_msg_type type)
{
	const void *blob;
	size_t len;

	CHECK(doca_rdma_export(S.rdma, &blob, &len, &S.slots[slot].conn));
	CHECK(doca_rdma_connection_set_user_data(S.slots[slot].conn, ud_slot(slot, gen)));
	S.slots[slot].gen = gen;
	S.slots[slot].down = false;
	soak_send(S.fd, type, slot, gen, blob, len);
}

static void connect_slot(int slot, uint32_t gen, const void *blob, size_t len)
{
	EXPECT(S.slots[slot].gen == gen, "the client connects slot %d gen %u, offered %u", slot,
	       gen, S.slots[slot].gen);
	CHECK(doca_rdma_connect(S.rdma, blob, len, S.slots[slot].conn));
}

static void report_stats(const char *when)
{
	struct softdoca_rdma_counters c;

	CHECK(softdoca_dev_get_counters(S.dev, &c));
	soak_proc_sample(&S.proc);
	printf("server %s: %.0f s, %" PRIu64 " receives checked (%.1f MiB), requests served "
	       "%" PRIu64 ", RNR waits %" PRIu64 ", faults injected %" PRIu64
	       ", receives failed with their connection %" PRIu64 ", connections failed %" PRIu64
	       " / disconnected %" PRIu64 ", RSS %.1f MiB "
	       "(peak %.1f), fds %d, threads %d\n",
	       when, (double)(now_ms() - S.proc.start_ms) / 1000.0, S.receives,
	       (double)S.bytes / 1048576.0, c.requests_served, c.rnr_waits,
	       softdoca_faults_injected(), S.recv_failed, S.conn_failures, S.conn_disconnects,
	       S.proc.rss_mb, S.proc.peak_mb, S.proc.fds, S.proc.threads);
}

/* The end: wait until every receive the client saw complete was checked
 * here too, then send what the client checks. */
static void finish(const struct soak_tally *t)
{
	struct soak_final *f = calloc(1, sizeof(*f));
	uint64_t deadline = now_ms() + 60000;

	EXPECT(f, "out of memory");
	EXPECT(t->max_gen < SOAK_MAX_GEN, "bad tally");
	/* A failing connection can have taken each posted receive, no more. */
	EXPECT(S.recv_failed <= S.deaths * S.prm.nrecv,
	       "%" PRIu64 " receives failed, with %" PRIu64 " connections failed", S.recv_failed,
	       S.deaths);
	for (;;) {
		bool behind = false;

		for (int s = 0; s < SOAK_CONNS; s++)
			for (uint32_t g = 0; g <= t->max_gen; g++)
				if (S.next_k[s][g] < t->ok[s][g])
					behind = true;
		if (!behind)
			break;
		EXPECT(now_ms() < deadline,
		       "receives the client saw complete did not complete here within 60 s");
		doca_pe_progress(S.pe);
	}
	for (int s = 0; s < SOAK_CONNS; s++) {
		for (int w = 0; w < SOAK_WORDS; w++)
			f->words[s][w] = __atomic_load_n((uint64_t *)(void *)(S.mem + S.atom_off) +
			                                         s * SOAK_WORDS + w,
			                                 __ATOMIC_ACQUIRE);
		CHECK(doca_sync_event_get(S.events[s], &f->events[s]));
		for (uint32_t g = 0; g < SOAK_MAX_GEN; g++)
			f->verified[s][g] = S.next_k[s][g];
	}
	f->faults_injected = softdoca_faults_injected();
	f->receives = S.receives;
	f->bytes_received = S.bytes;
	soak_send(S.fd, MSG_FINAL, 0, 0, f, sizeof(*f));
	free(f);
}

static void teardown(void)
{
	enum doca_ctx_states st;
	uint64_t t0 = now_ms();

	S.stopping = true;
	(void)doca_ctx_stop(doca_rdma_as_ctx(S.rdma));
	for (;;) {
		CHECK(doca_ctx_get_state(doca_rdma_as_ctx(S.rdma), &st));
		if (st == DOCA_CTX_STATE_IDLE)
			break;
		EXPECT(now_ms() - t0 < 30000, "the context did not stop");
		doca_pe_progress(S.pe);
	}
	for (uint32_t i = 0; i < S.prm.nrecv; i++) {
		EXPECT(!S.recvs[i].posted, "receive %u was not flushed", i);
		CHECK(doca_buf_dec_refcount(S.recvs[i].buf, NULL));
	}
	free(S.recvs);
	for (int i = 0; i < SOAK_CONNS; i++) {
		CHECK(doca_sync_event_stop(S.events[i]));
		CHECK(doca_sync_event_destroy(S.events[i]));
	}
	CHECK(doca_rdma_destroy(S.rdma));
	CHECK(doca_pe_destroy(S.pe));
	CHECK(doca_mmap_destroy(S.mmap));
	CHECK(doca_buf_inventory_destroy(S.inv));
	CHECK(doca_dev_close(S.dev));
	munmap(S.mem, S.mem_len);
}

int soak_server(int argc, char **argv)
{
	const char *iface = "lo", *port_file = NULL;
	struct soak_msg hdr;
	const void *body;
	size_t len;
	void *m;
	int listen_fd;
	uint64_t next_report, next_sample = 0, limit;
	bool ok;

	for (int i = 0; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--iface") == 0)
			iface = argv[i + 1];
		else if (strcmp(argv[i], "--port-file") == 0)
			port_file = argv[i + 1];
		else
			FAIL("unknown option %s", argv[i]);
	}
	EXPECT(port_file, "the server needs --port-file");
	listen_fd = oob_listen_fd(port_file);
	S.fd = oob_accept_fd(listen_fd);
	m = soak_recv(S.fd, &hdr, &body, &len, 30000);
	EXPECT(hdr.type == MSG_PARAMS && len == sizeof(S.prm), "expected the parameters");
	memcpy(&S.prm, body, sizeof(S.prm));
	free(m);
	S.prm.server_faults[sizeof(S.prm.server_faults) - 1] = '\0';
	EXPECT(S.prm.nrecv >= 1 && S.prm.nrecv <= 16 && S.prm.arena_mb >= 128, "bad parameters");
	printf("server: seed %" PRIu64 ", faults '%s', %u receives of 64 MiB\n", S.prm.seed,
	       S.prm.server_faults, S.prm.nrecv);
	/* The faults of connections apply to those exported afterwards. */
	CHECK(softdoca_faults_set(S.prm.server_faults));
	setup(iface);
	soak_proc_init(&S.proc, (uint64_t)S.prm.seconds * 1000u, S.prm.rss_growth_mb);

	{
		const void *blob;

		CHECK(doca_mmap_export_rdma(S.mmap, S.dev, &blob, &len));
		soak_send(S.fd, MSG_MMAP, 0, 0, blob, len);
	}
	for (int i = 0; i < SOAK_CONNS; i++) {
		const uint8_t *blob;

		CHECK(doca_sync_event_export_to_remote_net(S.events[i], &blob, &len));
		soak_send(S.fd, MSG_EVENT, i, 0, blob, len);
	}
	S.recvs = calloc(S.prm.nrecv, sizeof(*S.recvs));
	EXPECT(S.recvs, "out of memory");
	for (uint32_t i = 0; i < S.prm.nrecv; i++) {
		struct srv_recv *r = &S.recvs[i];

		r->mem = S.mem + S.recv_off + (size_t)i * SOAK_MAX_LEN;
		CHECK(doca_buf_inventory_buf_get_by_args(S.inv, S.mmap, r->mem, SOAK_MAX_LEN,
		                                         r->mem, 0, &r->buf));
		post_recv(r);
	}
	for (int i = 0; i < SOAK_CONNS; i++)
		offer(i, 0, MSG_CONN);

	/* The client runs for prm.seconds, then drains and reconnects what it
	 * must: a bounded wait either way. */
	limit = now_ms() + (uint64_t)S.prm.seconds * 1000u + 300000u;
	next_report = now_ms() + S.prm.report_s * 1000u;
	for (;;) {
		uint64_t t;

		doca_pe_progress(S.pe);
		t = now_ms();
		EXPECT(t < limit, "the client never ended the run");
		if (t >= next_sample) {
			soak_proc_sample(&S.proc);
			next_sample = t + 1000;
		}
		if (t >= next_report) {
			report_stats("at");
			next_report = t + S.prm.report_s * 1000u;
		}
		if (!oob_ready(S.fd))
			continue;
		m = soak_recv(S.fd, &hdr, &body, &len, 30000);
		EXPECT(hdr.slot < SOAK_CONNS && hdr.gen < SOAK_MAX_GEN, "a bad message");
		if (hdr.type == MSG_CONN) {
			connect_slot(hdr.slot, hdr.gen, body, len);
		} else if (hdr.type == MSG_DEAD) {
			struct srv_slot *s = &S.slots[hdr.slot];

			EXPECT(s->gen == hdr.gen, "the client failed slot %u gen %u, not %u",
			       hdr.slot, hdr.gen, s->gen);
			S.deaths++;
			if (!s->down)
				CHECK(doca_rdma_connection_disconnect(s->conn));
			EXPECT(hdr.gen + 1 < SOAK_MAX_GEN, "too many reconnections");
			offer(hdr.slot, hdr.gen + 1, MSG_GONE);
		} else if (hdr.type == MSG_END) {
			EXPECT(len == sizeof(struct soak_tally), "a bad tally");
			finish(body);
			free(m);
			break;
		} else {
			FAIL("unexpected message '%c'", hdr.type);
		}
		free(m);
	}
	report_stats("end");
	ok = soak_proc_verdict(&S.proc, "server");
	teardown();
	close(S.fd);
	close(listen_fd);
	printf("server: %s\n", ok ? "PASS" : "FAIL");
	return ok ? 0 : 1;
}
