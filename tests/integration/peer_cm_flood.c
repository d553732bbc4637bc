/*
 * softdoca integration tests: real clients get through a listener while
 * another process floods its port with silent connections.
 *
 *   cm_flood  the server listens, starts the cm_flood helper against its
 *             port (connections as fast as one process opens them, never a
 *             byte sent) and, once the flood runs, tells the clients the
 *             port. Every client connects through the listener, times its
 *             handshake (doca_rdma_connect_to_addr -> established), sends a
 *             message on its connection and reports the time. The server
 *             checks that every client got in, with its own message, while
 *             the flood still ran, then stops the flood and prints its rate
 *             and the handshake times.
 */
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "peer.h"

#define FLOOD_SECONDS "60" /* bound; the server stops it sooner */
#define CLIENTS 20
#define MSG_LEN 32

_Static_assert(CLIENTS <= PEER_MAX_CONNS, "a peer's connections");

extern char **environ;

struct flood {
	pid_t pid;
	FILE *out;
};

/* Starts the helper against port; returns once it floods. */
static void flood_start(struct flood *f, uint16_t port)
{
	char port_text[8], line[256];
	char *argv[] = { FLOOD_BIN, port_text, FLOOD_SECONDS, NULL };
	posix_spawn_file_actions_t actions;
	int pipe_fd[2];

	snprintf(port_text, sizeof(port_text), "%u", port);
	EXPECT(pipe(pipe_fd) == 0, "pipe");
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_adddup2(&actions, pipe_fd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&actions, pipe_fd[0]);
	EXPECT(posix_spawn(&f->pid, FLOOD_BIN, &actions, NULL, argv, environ) == 0,
	       "cannot start %s", FLOOD_BIN);
	posix_spawn_file_actions_destroy(&actions);
	close(pipe_fd[1]);
	f->out = fdopen(pipe_fd[0], "r");
	EXPECT(f->out && fgets(line, sizeof(line), f->out) && strncmp(line, "flooding", 8) == 0,
	       "the flood did not start");
	printf("server: %s", line);
}

/* Stops the helper (it must still be running) and prints its report. */
static void flood_stop(struct flood *f)
{
	char line[256];
	int status;

	EXPECT(waitpid(f->pid, &status, WNOHANG) == 0, "the flood ended before the clients got in");
	kill(f->pid, SIGTERM);
	EXPECT(fgets(line, sizeof(line), f->out), "no report from the flood");
	printf("server: %s", line);
	fclose(f->out);
	EXPECT(waitpid(f->pid, &status, 0) == f->pid && WIFEXITED(status) &&
	               WEXITSTATUS(status) == 0,
	       "the flood failed");
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void flood_server(struct peer *p)
{
	const int clients = CLIENTS;
	struct posted_recv recvs[PEER_MAX_CONNS];
	int took_us[PEER_MAX_CONNS];
	bool seen[PEER_MAX_CONNS] = { false };
	struct flood flood;
	char text[32];
	uint16_t port;

	p->cm = true;
	p->max_conns = (uint16_t)clients;
	server_prepare(p, (size_t)clients * MSG_LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	for (int i = 0; i < clients; i++)
		post_recv(p, &recvs[i], local_buf(p, (size_t)i * MSG_LEN, MSG_LEN, 0));
	port = peer_cm_listen(p);
	flood_start(&flood, port);
	for (int i = 0; i < clients; i++) {
		oob_accept(p);
		snprintf(text, sizeof(text), "%u %d", port, i);
		oob_send_str(p->oob[i], text);
	}
	/* Each client's message, on the connection it made. */
	for (int i = 0; i < clients; i++) {
		int id;

		peer_wait(p, &recvs[i].r, WAIT_MS);
		EXPECT(recvs[i].r.status == DOCA_SUCCESS, "a receive failed: %s",
		       doca_error_get_name(recvs[i].r.status));
		EXPECT(sscanf((char *)p->mem + (size_t)i * MSG_LEN, "client %d", &id) == 1 &&
		               id >= 0 && id < clients && !seen[id],
		       "message %d is '%.*s'", i, MSG_LEN, (char *)p->mem + (size_t)i * MSG_LEN);
		seen[id] = true;
	}
	EXPECT(p->cm_established == clients && p->num_cm == clients && p->cm_failed == 0,
	       "%d requests, %d established, %d failed for %d clients", p->num_cm,
	       p->cm_established, p->cm_failed, clients);
	for (int i = 0; i < clients; i++) {
		char *msg = wait_message(p, i);

		EXPECT(sscanf(msg, "in %d", &took_us[i]) == 1, "client %d: %s", i, msg);
		free(msg);
	}
	flood_stop(&flood);
	qsort(took_us, (size_t)clients, sizeof(took_us[0]), cmp_int);
	printf("server: %d of %d clients in during the flood; handshake min %.1f ms, median "
	       "%.1f ms, max %.1f ms\n",
	       clients, clients, took_us[0] / 1000.0, took_us[clients / 2] / 1000.0,
	       took_us[clients - 1] / 1000.0);
	for (int i = 0; i < clients; i++)
		report(p, i, "OK");
	/* The clients hang up: each connection goes down once. */
	for (uint64_t deadline = now_us() + WAIT_MS * 1000ull; p->cm_disconnected < clients;) {
		EXPECT(now_us() < deadline, "%d of %d disconnections", p->cm_disconnected, clients);
		doca_pe_progress(p->pe);
	}
	for (int i = 0; i < clients; i++)
		free_recv(&recvs[i]);
	peer_stop(p);
}

static void flood_client(struct peer *p)
{
	struct doca_rdma_addr *addr;
	struct result sent;
	struct doca_buf *buf;
	uint64_t start_us, took_us;
	unsigned int port;
	char *text, in[32];
	size_t len;
	int id;

	p->cm = true;
	client_prepare(p, MSG_LEN);
	text = oob_recv(p->oob[0], &len, WAIT_MS);
	EXPECT(sscanf(text, "%u %d", &port, &id) == 2, "server said '%s'", text);
	free(text);
	CHECK(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, p->host, (uint16_t)port, &addr));
	start_us = now_us();
	CHECK(doca_rdma_connect_to_addr(p->rdma, addr, (union doca_data){ .u64 = (uint64_t)id }));
	CHECK(doca_rdma_addr_destroy(addr));
	while (p->cm_established == 0) {
		EXPECT(p->cm_failed == 0, "client %d: the connection failed after %.1f ms", id,
		       (double)(now_us() - start_us) / 1000.0);
		EXPECT(now_us() - start_us < WAIT_MS * 1000ull, "client %d: not in after %d ms", id,
		       WAIT_MS);
		doca_pe_progress(p->pe);
	}
	took_us = now_us() - start_us;
	snprintf((char *)p->mem, MSG_LEN, "client %d", id);
	buf = local_buf(p, 0, MSG_LEN, MSG_LEN);
	do_send(p, buf, false, 0, &sent);
	expect_status(&sent, DOCA_SUCCESS, "the message");
	put(buf);
	printf("client %d: in after %.1f ms\n", id, (double)took_us / 1000.0);
	snprintf(in, sizeof(in), "in %llu", (unsigned long long)took_us);
	oob_send_str(p->oob[0], in);
	expect_ok_from_peer(p, 0);
	CHECK(doca_rdma_connection_disconnect(p->conn[0]));
	while (p->cm_disconnected == 0) {
		EXPECT(now_us() - start_us < 2 * WAIT_MS * 1000ull, "no disconnection");
		doca_pe_progress(p->pe);
	}
	peer_stop(p);
}

const struct scenario cm_flood_scenarios[] = {
	{ "cm_flood", flood_server, flood_client },
	{ NULL, NULL, NULL },
};
