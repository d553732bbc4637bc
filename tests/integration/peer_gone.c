/*
 * softdoca integration tests: a server that exits right after it sent its
 * connection blob (as one that dies right after accepting). Over shared
 * memory the client's connect then finds the server's segment gone; the
 * error must say that the peer process is gone, not suggest a transport
 * mismatch (SOFTDOCA_TRANSPORT), which sent users looking in the wrong
 * place.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "peer.h"

#define MEM 4096

static void gone_server(struct peer *p)
{
	const void *blob;
	size_t len, peer_len;

	server_prepare(p, MEM, ALL_RDMA);
	oob_accept(p);
	CHECK(doca_rdma_export(p->rdma, &blob, &len, &p->conn[0]));
	oob_send(p->oob[0], blob, len);
	free(oob_recv(p->oob[0], &peer_len, WAIT_MS));
	_exit(0); /* gone, without a word: its memory goes with it */
}

/* Until the server's end of the channel closes: its process has exited
 * (its memory is released before its descriptors). */
static void wait_gone(int fd)
{
	uint64_t deadline = now_ms() + WAIT_MS;
	char byte;

	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		EXPECT(now_ms() < deadline, "the server did not exit");
		if (poll(&pfd, 1, 1000) == 1 && read(fd, &byte, 1) <= 0)
			return;
	}
}

static void gone_client(struct peer *p)
{
	char log_path[] = "/tmp/sdoca-gone-XXXXXX", text[4096];
	const void *blob;
	size_t len, peer_len;
	void *peer_blob;
	doca_error_t status;
	int log_fd, saved;
	ssize_t n;

	client_prepare(p, MEM);
	CHECK(doca_rdma_export(p->rdma, &blob, &len, &p->conn[0]));
	peer_blob = oob_recv(p->oob[0], &peer_len, WAIT_MS);
	oob_send(p->oob[0], blob, len);
	wait_gone(p->oob[0]);
	/* What the library says about it, on stderr. */
	log_fd = mkstemp(log_path);
	EXPECT(log_fd >= 0, "no log file");
	fflush(stderr);
	saved = dup(2);
	dup2(log_fd, 2);
	status = doca_rdma_connect(p->rdma, peer_blob, peer_len, p->conn[0]);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	free(peer_blob);
	n = pread(log_fd, text, sizeof(text) - 1, 0);
	close(log_fd);
	unlink(log_path);
	text[n > 0 ? n : 0] = '\0';
	printf("connect: %s; the library said:\n%s", doca_error_get_name(status), text);
	EXPECT(status == DOCA_ERROR_CONNECTION_RESET, "connect to a gone server: %s",
	       doca_error_get_name(status));
	EXPECT(strstr(text, "shared memory segment is gone") && strstr(text, "exited"),
	       "no word of the peer being gone");
	EXPECT(!strstr(text, "SOFTDOCA_TRANSPORT"), "a misleading transport hint");
	peer_stop(p);
}

const struct scenario gone_scenarios[] = {
	{ "gone_server", gone_server, gone_client },
	{ NULL, NULL, NULL },
};
