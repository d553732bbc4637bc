/*
 * softdoca integration tests: connections through a listener (RDMA-CM
 * style), many clients on one server context.
 *
 *   cm_traffic  8 clients connect through the server's listening port and,
 *               all at once, send numbered messages, write their own slice
 *               of the server's memory and read it back; the server checks
 *               that every message arrived once, in order, attributed to the
 *               connection its sender made, and every slice's bytes.
 *   cm_kill     4 clients; one of them SIGKILLs itself in the middle of its
 *               traffic. The server hears a disconnection for that
 *               connection only: its own sends to that client fail, the
 *               others' traffic completes with its data checked, and the
 *               context stays RUNNING.
 *
 * The out-of-band socket of the other scenarios carries only the listening
 * port, the server's mmap export and the verdicts: the RDMA connections are
 * made with doca_rdma_connect_to_addr and accepted in the server's
 * connection request callback.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "peer.h"

#define SLICE (256 * 1024u)
#define MSGS 32
#define MSG_LEN 32
#define SERVER_SENDS 8 /* per client, which survivors receive */

/* --- connection callbacks (the server's and the clients') --- */

static void cm_request(struct doca_rdma_connection *conn, union doca_data ctx_ud)
{
	struct peer *p = ctx_ud.ptr;
	union doca_data ud = { .u64 = (uint64_t)p->num_cm };

	EXPECT(p->num_cm < PEER_MAX_CONNS, "more requests than clients");
	CHECK(doca_rdma_connection_accept(conn, NULL, 0));
	CHECK(doca_rdma_connection_set_user_data(conn, ud));
	p->cm_conns[p->num_cm++] = conn;
}

static void cm_established(struct doca_rdma_connection *conn, union doca_data conn_ud,
                           union doca_data ctx_ud)
{
	struct peer *p = ctx_ud.ptr;

	(void)conn_ud;
	if (!p->server)
		p->conn[0] = conn;
	p->cm_established++;
}

static void cm_failure(struct doca_rdma_connection *conn, union doca_data conn_ud,
                       union doca_data ctx_ud)
{
	struct peer *p = ctx_ud.ptr;

	(void)conn;
	(void)conn_ud;
	p->cm_failed++;
}

static void cm_disconnect(struct doca_rdma_connection *conn, union doca_data conn_ud,
                          union doca_data ctx_ud)
{
	struct peer *p = ctx_ud.ptr;

	p->cm_disconnected++;
	p->cm_last_down = conn_ud.u64;
	/* As DOCA's samples do: disconnecting again is harmless. */
	CHECK(doca_rdma_connection_disconnect(conn));
}

void peer_cm_callbacks(struct peer *p)
{
	CHECK(doca_rdma_set_connection_state_callbacks(p->rdma, cm_request, cm_established,
	                                               cm_failure, cm_disconnect));
}

/* Progresses until *count reaches want (fails after WAIT_MS). */
static void wait_count(struct peer *p, const int *count, int want, const char *what)
{
	uint64_t deadline = now_ms() + WAIT_MS;

	while (*count < want) {
		EXPECT(now_ms() < deadline, "%s: %d of %d within %d ms", what, *count, want,
		       WAIT_MS);
		doca_pe_progress(p->pe);
	}
}

/* Listens on a port nobody else uses (tried until one is free). */
uint16_t peer_cm_listen(struct peer *p)
{
	for (int attempt = 0; attempt < 100; attempt++) {
		uint16_t port = (uint16_t)(20000 + (getpid() * 7 + attempt * 131) % 40000);
		doca_error_t st = doca_rdma_start_listen_to_port(p->rdma, port);

		if (st == DOCA_SUCCESS)
			return port;
		EXPECT(st == DOCA_ERROR_IN_USE, "listen: %s", doca_error_get_name(st));
	}
	FAIL("no free port to listen on");
}

/* --- the server --- */

struct inbox {
	struct posted_recv recvs[PEER_MAX_CONNS * (MSGS + 1)];
	int count;
};

/* How many of the messages that arrived are the survivors' (ids from
 * victims on); the receives complete in posting order. */
static int survivors_arrived(struct peer *p, const struct inbox *in, size_t inbox_off, int victims)
{
	int n = 0;

	for (int i = 0; i < in->count && in->recvs[i].r.done; i++) {
		int id, seq;

		if (in->recvs[i].r.status == DOCA_SUCCESS &&
		    sscanf((char *)p->mem + inbox_off + (size_t)i * MSG_LEN, "%d:%d", &id, &seq) ==
		            2 &&
		    id >= victims)
			n++;
	}
	return n;
}

/* Progresses until every survivor's messages arrived (fails after WAIT_MS).
 * A survivor's "done" says its sends completed, not that the receives here
 * did: the ACK of a send leaves before its receive completes (as on RC). */
static void wait_survivors(struct peer *p, const struct inbox *in, size_t inbox_off, int clients,
                           int victims)
{
	uint64_t deadline = now_ms() + WAIT_MS;
	int want = (clients - victims) * MSGS, n;

	while ((n = survivors_arrived(p, in, inbox_off, victims)) < want) {
		EXPECT(now_ms() < deadline, "%d of the survivors' %d messages within %d ms", n,
		       want, WAIT_MS);
		doca_pe_progress(p->pe);
	}
}

static void cm_server(struct peer *p, int clients, int victims)
{
	static struct inbox in;
	struct result sends[PEER_MAX_CONNS][SERVER_SENDS];
	struct doca_rdma_task_send *send_tasks[PEER_MAX_CONNS][SERVER_SENDS];
	struct doca_buf *send_bufs[PEER_MAX_CONNS][SERVER_SENDS];
	int sender_of[PEER_MAX_CONNS]; /* arrival index -> client id */
	int next_msg[PEER_MAX_CONNS];  /* client id -> the message it sends next */
	const size_t inbox_off = (size_t)clients * SLICE;
	const void *blob;
	size_t blob_len;
	char text[64];
	uint16_t port;

	p->cm = true;
	p->max_conns = (uint16_t)clients;
	p->num_tasks = 512;
	server_prepare(p, inbox_off + 2 * sizeof(in.recvs) / sizeof(in.recvs[0]) * MSG_LEN,
	               ALL_RDMA);
	port = peer_cm_listen(p);
	CHECK(doca_mmap_export_rdma(p->mmap, p->dev, &blob, &blob_len));
	/* Every message every client sends has a receive waiting. */
	in.count = clients * (MSGS + 1);
	for (int i = 0; i < in.count; i++)
		post_recv(p, &in.recvs[i],
		          local_buf(p, inbox_off + (size_t)i * MSG_LEN, MSG_LEN, 0));
	for (int i = 0; i < clients; i++) {
		oob_accept(p);
		snprintf(text, sizeof(text), "%u %d %s", port, i, i < victims ? "victim" : "live");
		oob_send_str(p->oob[i], text);
		oob_send(p->oob[i], blob, blob_len);
		sender_of[i] = -1;
		next_msg[i] = 0;
	}
	wait_count(p, &p->cm_established, clients, "connections established");
	EXPECT(p->num_cm == clients, "%d requests for %d clients", p->num_cm, clients);
	/* Sends to every client: the survivors receive them; a victim never
	 * posts a receive, so they wait for it until it dies. */
	for (int c = 0; c < clients; c++)
		for (int k = 0; k < SERVER_SENDS; k++) {
			size_t off = inbox_off + ((size_t)in.count + (size_t)c) * MSG_LEN;

			snprintf((char *)p->mem + off, MSG_LEN, "server to %d", c);
			send_bufs[c][k] = local_buf(p, off, MSG_LEN, MSG_LEN);
			CHECK(doca_rdma_task_send_allocate_init(
			        p->rdma, p->cm_conns[c], send_bufs[c][k], result_data(&sends[c][k]),
			        &send_tasks[c][k]));
			CHECK(doca_task_submit(doca_rdma_task_send_as_task(send_tasks[c][k])));
		}
	/* Only now may the clients go: a victim dies with these in flight. */
	for (int i = 0; i < clients; i++)
		report(p, i, "go");
	/* The survivors say they are done; the victims' connections go down. */
	for (int i = victims; i < clients; i++) {
		char *msg = wait_message(p, i);

		EXPECT(strcmp(msg, "done") == 0, "client %d: %s", i, msg);
		free(msg);
	}
	wait_count(p, &p->cm_disconnected, victims, "victims' disconnections");
	wait_survivors(p, &in, inbox_off, clients, victims);
	/* Every message that arrived: once, in order, on its sender's
	 * connection. Receives complete in posting order. */
	int arrived = 0;

	for (int i = 0; i < in.count && in.recvs[i].r.done; i++) {
		struct posted_recv *pr = &in.recvs[i];
		const struct doca_rdma_connection *conn;
		union doca_data ud;
		int id, seq;

		/* A receive a victim's message was landing in when the victim died
		 * fails (a flushed receive of the shared queue, as on RC); the
		 * receives after it still carry the survivors' messages. */
		if (pr->r.status != DOCA_SUCCESS)
			continue;
		conn = doca_rdma_task_receive_get_result_rdma_connection(pr->task);
		/* By handle, not by its user data: a victim's connection has ended
		 * by now, and an ended connection's handle is refused. */
		for (ud.u64 = 0; ud.u64 < (uint64_t)clients && p->cm_conns[ud.u64] != conn;
		     ud.u64++)
			;
		EXPECT(ud.u64 < (uint64_t)clients, "a message on an unknown connection");
		EXPECT(sscanf((char *)p->mem + inbox_off + (size_t)i * MSG_LEN, "%d:%d", &id,
		              &seq) == 2 &&
		               id >= 0 && id < clients,
		       "message %d is '%.*s'", i, MSG_LEN,
		       (char *)p->mem + inbox_off + (size_t)i * MSG_LEN);
		if (sender_of[ud.u64] < 0)
			sender_of[ud.u64] = id;
		EXPECT(sender_of[ud.u64] == id,
		       "connection %lu carried messages of clients %d and %d",
		       (unsigned long)ud.u64, sender_of[ud.u64], id);
		EXPECT(seq == next_msg[id], "client %d: message %d came when %d was due", id, seq,
		       next_msg[id]);
		next_msg[id]++;
		arrived++;
	}
	for (int id = victims; id < clients; id++)
		EXPECT(next_msg[id] == MSGS, "client %d: %d of %d messages", id, next_msg[id],
		       MSGS);
	/* Each survivor's slice holds its pattern; the victims' sends failed,
	 * the survivors' completed. */
	for (int c = 0; c < clients; c++) {
		/* The user data of connection c is c (cm_request); a victim may
		 * have died before any of its messages arrived. */
		int id = sender_of[c];

		for (int k = 0; k < SERVER_SENDS; k++) {
			peer_wait(p, &sends[c][k], WAIT_MS);
			if (id >= victims)
				expect_status(&sends[c][k], DOCA_SUCCESS, "send to a survivor");
			else
				EXPECT(sends[c][k].status != DOCA_SUCCESS,
				       "a send to the killed client succeeded");
			doca_task_free(doca_rdma_task_send_as_task(send_tasks[c][k]));
			put(send_bufs[c][k]);
		}
	}
	for (int id = victims; id < clients; id++)
		expect_pattern(p->mem + (size_t)id * SLICE, SLICE, (uint32_t)id + 1, "a slice");
	EXPECT(p->cm_failed == 0, "%d connection failures", p->cm_failed);
	peer_wait_state(p, DOCA_CTX_STATE_RUNNING, 1000);
	printf("server: %d connections, %d messages checked, %d killed client(s) "
	       "disconnected alone\n",
	       clients, arrived, victims);
	for (int i = victims; i < clients; i++)
		report(p, i, "OK");
	for (int i = victims; i < clients; i++)
		oob_expect(p->oob[i], "bye", WAIT_MS);
	/* The receives the victims never used are flushed by the stop, then
	 * freed: the context is IDLE once none is left. */
	EXPECT(doca_ctx_stop(doca_rdma_as_ctx(p->rdma)) == DOCA_ERROR_IN_PROGRESS ||
	               arrived == in.count,
	       "stop with receives posted");
	for (int i = 0; i < in.count; i++) {
		peer_wait(p, &in.recvs[i].r, WAIT_MS);
		free_recv(&in.recvs[i]);
	}
	peer_stop(p);
}

/* --- a client --- */

static void cm_client(struct peer *p)
{
	struct result msgs[MSGS], wr, rd, got[SERVER_SENDS];
	struct posted_recv recvs[SERVER_SENDS];
	struct doca_buf *msg_bufs[MSGS], *src, *dst, *back, *remote;
	struct doca_rdma_task_send *msg_tasks[MSGS];
	struct doca_rdma_addr *addr;
	char role[16], *text;
	unsigned int port;
	size_t blob_len;
	void *blob;
	int id;
	const size_t msg_off = 2 * SLICE;

	p->cm = true;
	client_prepare(p, msg_off + (MSGS + SERVER_SENDS) * MSG_LEN);
	text = oob_recv(p->oob[0], &blob_len, WAIT_MS);
	EXPECT(sscanf(text, "%u %d %15s", &port, &id, role) == 3, "server said '%s'", text);
	free(text);
	blob = oob_recv(p->oob[0], &blob_len, WAIT_MS);
	CHECK(doca_mmap_create_from_export(NULL, blob, blob_len, p->dev, &p->remote[0]));
	CHECK(doca_mmap_get_memrange(p->remote[0], &p->remote_addr[0], &p->remote_len[0]));
	free(blob);
	bool victim = strcmp(role, "victim") == 0;

	if (!victim)
		for (int k = 0; k < SERVER_SENDS; k++)
			post_recv(p, &recvs[k],
			          local_buf(p, msg_off + (size_t)(MSGS + k) * MSG_LEN, MSG_LEN, 0));
	CHECK(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, p->host, (uint16_t)port, &addr));
	CHECK(doca_rdma_connect_to_addr(p->rdma, addr, (union doca_data){ .u64 = (uint64_t)id }));
	CHECK(doca_rdma_addr_destroy(addr));
	wait_count(p, &p->cm_established, 1, "connection established");
	oob_expect(p->oob[0], "go", WAIT_MS);
	/* Everything at once: the messages, a write of its slice, then a read
	 * of it back (RC keeps a connection's requests in order). */
	for (int j = 0; j < MSGS; j++) {
		snprintf((char *)p->mem + msg_off + (size_t)j * MSG_LEN, MSG_LEN, "%d:%d", id, j);
		msg_bufs[j] = local_buf(p, msg_off + (size_t)j * MSG_LEN, MSG_LEN, MSG_LEN);
		CHECK(doca_rdma_task_send_allocate_init(p->rdma, p->conn[0], msg_bufs[j],
		                                        result_data(&msgs[j]), &msg_tasks[j]));
		CHECK(doca_task_submit(doca_rdma_task_send_as_task(msg_tasks[j])));
	}
	pattern_fill(p->mem, SLICE, (uint32_t)id + 1);
	src = local_buf(p, 0, SLICE, SLICE);
	dst = remote_buf(p, (size_t)id * SLICE, SLICE, 0);
	struct doca_rdma_task_write *w;

	CHECK(doca_rdma_task_write_allocate_init(p->rdma, p->conn[0], src, dst, result_data(&wr),
	                                         &w));
	CHECK(doca_task_submit(doca_rdma_task_write_as_task(w)));
	if (victim) {
		/* Dies with its requests in flight. */
		printf("client %d: killing itself in the middle of its traffic\n", id);
		raise(SIGKILL);
	}
	remote = remote_buf(p, (size_t)id * SLICE, SLICE, SLICE);
	back = local_buf(p, SLICE, SLICE, 0);
	struct doca_rdma_task_read *r;

	CHECK(doca_rdma_task_read_allocate_init(p->rdma, p->conn[0], remote, back, result_data(&rd),
	                                        &r));
	CHECK(doca_task_submit(doca_rdma_task_read_as_task(r)));
	peer_wait(p, &rd, WAIT_MS);
	for (int j = 0; j < MSGS; j++) {
		peer_wait(p, &msgs[j], WAIT_MS);
		expect_status(&msgs[j], DOCA_SUCCESS, "a message");
	}
	expect_status(&wr, DOCA_SUCCESS, "the write");
	expect_status(&rd, DOCA_SUCCESS, "the read");
	expect_pattern(p->mem + SLICE, SLICE, (uint32_t)id + 1, "the slice read back");
	for (int k = 0; k < SERVER_SENDS; k++) {
		peer_wait(p, &recvs[k].r, WAIT_MS);
		check_recv(&recvs[k], DOCA_RDMA_OPCODE_RECV_SEND, MSG_LEN, false, 0,
		           "the server's message");
		snprintf(role, sizeof(role), "server to");
		EXPECT(strncmp((char *)p->mem + msg_off + (size_t)(MSGS + k) * MSG_LEN, role,
		               strlen(role)) == 0,
		       "the server's message is '%s'",
		       (char *)p->mem + msg_off + (size_t)(MSGS + k) * MSG_LEN);
		got[k] = recvs[k].r;
		free_recv(&recvs[k]);
	}
	(void)got;
	oob_send_str(p->oob[0], "done");
	expect_ok_from_peer(p, 0);
	oob_send_str(p->oob[0], "bye");
	doca_task_free(doca_rdma_task_write_as_task(w));
	doca_task_free(doca_rdma_task_read_as_task(r));
	put(src);
	put(dst);
	put(remote);
	put(back);
	for (int j = 0; j < MSGS; j++) {
		doca_task_free(doca_rdma_task_send_as_task(msg_tasks[j]));
		put(msg_bufs[j]);
	}
	CHECK(doca_rdma_connection_disconnect(p->conn[0]));
	wait_count(p, &p->cm_disconnected, 1, "its own disconnection");
	peer_stop(p);
}

static void traffic_server(struct peer *p)
{
	cm_server(p, 8, 0);
}

static void kill_server(struct peer *p)
{
	cm_server(p, 4, 1);
}

const struct scenario cm_scenarios[] = {
	{ "cm_traffic", traffic_server, cm_client },
	{ "cm_kill", kill_server, cm_client },
	{ NULL, NULL, NULL },
};
