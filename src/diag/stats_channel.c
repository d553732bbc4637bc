/*
 * The counters channel softdoca-info --pid reads.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The counters channel: how softdoca-info --pid reads another process's
 * counters (docs/design.md, "Reading another process's counters").
 *
 * While its service thread runs, a process listens on the Unix stream
 * socket stats-<pid> in a directory only its user can enter (stats_path.c;
 * removed when it closes, and a killed process's by the next one). A reader
 * connects and sends a request (DIAG_STATS_REQUEST); it is answered with one
 * snapshot (stats_wire.c), then the socket is closed. Only a reader of the
 * same user, or root, is answered (SO_PEERCRED, on top of the directory's
 * permissions); others are closed at once. The service thread accepts and
 * writes without blocking, at most MAX_READERS at a time: a reader gets
 * REQUEST_MS to ask and READER_MS to take the answer, and when every slot is
 * taken a reader is told so (DIAG_STATS_BUSY) and tries again - longer than
 * a reader that never asks keeps its slot. The data path pays nothing (the
 * counters are read under each worker's lock when asked). SOFTDOCA_STATS=0
 * turns it off.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "core/sdk_log.h"
#include "diag/diag.h"
#include "nic/nic.h"

SDOCA_LOG_MODULE(stats_channel);

#define MAX_READERS 4
#define REQUEST_MS 250u     /* to send the request after connecting */
#define READER_MS 1000u     /* to take the answer */
#define QUERY_MS 2000       /* a reader's wait for one answer */
#define BUSY_WAIT_MS 3000   /* a reader's retries while the channel is busy: > REQUEST_MS */
#define RETRY_MIN_MS 1000u  /* opening again after it failed, doubling ... */
#define RETRY_MAX_MS 60000u /* ... up to this */

_Static_assert(BUSY_WAIT_MS > REQUEST_MS + READER_MS,
               "a legitimate reader outwaits one that holds a slot");

enum reader_state { READER_ASKING, READER_ANSWERED };

struct reader {
	int fd; /* -1: a free slot */
	enum reader_state state;
	uint8_t request[sizeof(DIAG_STATS_REQUEST) - 1];
	size_t got; /* bytes of the request */
	uint8_t *buf;
	size_t len;
	size_t sent;
	uint64_t deadline_ns;
};

/* Touched by the service thread only (open and close: while it does not run). */
static struct {
	int fd;
	int epoll_fd;
	uint64_t tag;
	pid_t pid; /* whose socket path is; a forked child's is not its own */
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	uint64_t retry_ns; /* when to try opening again (0: not failed) */
	uint32_t retry_ms;
	struct reader readers[MAX_READERS];
	int active;              /* readers[] in use */
	uint64_t refused;        /* readers of another user refused since the last log line */
	uint64_t refused_log_ns; /* ... when it was written */
} chan = { .fd = -1, .epoll_fd = -1 };

static bool enabled(void)
{
	const char *env = getenv("SOFTDOCA_STATS");

	if (!env || strcmp(env, "1") == 0)
		return true;
	if (strcmp(env, "0") != 0)
		SDOCA_WARN("SOFTDOCA_STATS='%s' is neither 0 nor 1: the counters channel stays on",
		           env);
	return strcmp(env, "0") != 0;
}

static void remove_socket_file(void)
{
	if (chan.path[0] && chan.pid == getpid())
		unlink(chan.path);
	chan.path[0] = '\0';
}

/* A process that exits without stopping its contexts leaves no socket. */
static void __attribute__((destructor)) channel_at_exit(void)
{
	remove_socket_file();
}

/* Binds and listens; on failure tries again later (the timers). */
static void try_open(void)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = chan.tag };
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = -1;

	if (!diag_stats_path_own(sa.sun_path, sizeof(sa.sun_path))) {
		errno = EACCES;
		goto fail;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0)
		goto fail;
	chan.pid = getpid();
	memcpy(chan.path, sa.sun_path, sizeof(chan.path));
	if (listen(fd, MAX_READERS) != 0 || epoll_ctl(chan.epoll_fd, EPOLL_CTL_ADD, fd, &ev) != 0)
		goto fail;
	chan.fd = fd;
	chan.retry_ns = 0;
	SDOCA_DBG("counters channel at %s", chan.path);
	return;
fail:
	chan.retry_ms = chan.retry_ms ? chan.retry_ms * 2 : RETRY_MIN_MS;
	if (chan.retry_ms > RETRY_MAX_MS)
		chan.retry_ms = RETRY_MAX_MS;
	SDOCA_WARN("no counters channel (softdoca-info --pid) yet: %s; trying again in %u s",
	           strerror(errno), chan.retry_ms / 1000);
	if (fd >= 0)
		close(fd);
	remove_socket_file();
	chan.retry_ns = nic_now_ns() + chan.retry_ms * 1000000ull;
}

void diag_channel_open(int epoll_fd, uint64_t tag)
{
	for (int i = 0; i < MAX_READERS; i++)
		chan.readers[i].fd = -1;
	chan.active = 0;
	chan.retry_ns = 0;
	chan.retry_ms = 0;
	chan.epoll_fd = epoll_fd;
	chan.tag = tag;
	if (!enabled())
		return;
	try_open();
}

static void reader_close(struct reader *r)
{
	epoll_ctl(chan.epoll_fd, EPOLL_CTL_DEL, r->fd, NULL);
	close(r->fd);
	free(r->buf);
	*r = (struct reader){ .fd = -1 };
	chan.active--;
}

/* Writes what the socket takes; closes the reader when all went or it failed. */
static void reader_send(struct reader *r)
{
	while (r->sent < r->len) {
		ssize_t n = send(r->fd, r->buf + r->sent, r->len - r->sent, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return; /* EPOLLOUT says when it takes more */
		if (n <= 0)
			break; /* the reader went */
		r->sent += (size_t)n;
	}
	reader_close(r);
}

/* The request came: the snapshot goes. */
static void reader_answer(struct reader *r)
{
	struct epoll_event ev = { .events = EPOLLOUT, .data.u64 = chan.tag };
	struct softdoca_process_counters *pc;
	doca_error_t status;

	if (memcmp(r->request, DIAG_STATS_REQUEST, sizeof(r->request)) != 0) {
		SDOCA_DBG("counters channel: a reader sent no request it knows");
		reader_close(r);
		return;
	}
	status = diag_stats_collect(&pc);
	if (status == DOCA_SUCCESS) {
		status = diag_stats_encode(pc, &r->buf, &r->len);
		nic_stats_free(pc);
	}
	if (status != DOCA_SUCCESS || epoll_ctl(chan.epoll_fd, EPOLL_CTL_MOD, r->fd, &ev) != 0) {
		SDOCA_WARN("counters channel: no snapshot: %s", doca_error_get_descr(status));
		reader_close(r);
		return;
	}
	r->state = READER_ANSWERED;
	r->deadline_ns = nic_now_ns() + READER_MS * 1000000ull;
	reader_send(r);
}

/* Reads what came of the request; answers once it is whole. */
static void reader_ask(struct reader *r)
{
	while (r->got < sizeof(r->request)) {
		ssize_t n = recv(r->fd, r->request + r->got, sizeof(r->request) - r->got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			reader_close(r); /* it went without asking */
			return;
		}
		r->got += (size_t)n;
	}
	reader_answer(r);
}

static void reader_step(struct reader *r)
{
	if (r->state == READER_ASKING)
		reader_ask(r);
	else
		reader_send(r);
}

/* Whether the connecting process may read this one's counters. */
static bool allowed(int fd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0)
		return false;
	if (cred.uid == 0 || cred.uid == getuid() || cred.uid == geteuid())
		return true;
	chan.refused++;
	if (chan.refused_log_ns == 0 || nic_now_ns() - chan.refused_log_ns >= 1000000000u) {
		/* at most a line a second, whoever keeps trying */
		SDOCA_WARN(
		        "counters channel: refused %lu reader(s), the last process %d of user %u "
		        "(only user %u or root may read)",
		        (unsigned long)chan.refused, (int)cred.pid, (unsigned)cred.uid,
		        (unsigned)geteuid());
		chan.refused_log_ns = nic_now_ns();
		chan.refused = 0;
	}
	return false;
}

static void accept_one(int fd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = chan.tag };
	struct reader *r = NULL;

	if (!allowed(fd)) {
		close(fd);
		return;
	}
	for (int i = 0; i < MAX_READERS && !r; i++)
		if (chan.readers[i].fd < 0)
			r = &chan.readers[i];
	if (!r) {
		uint8_t request[sizeof(DIAG_STATS_REQUEST)];

		/* A fresh socket takes these few bytes at once: the reader
		 * learns it is busy, not refused, and tries again. Its request
		 * is read first: closing on unread bytes would reset the
		 * connection, and the notice with it. */
		(void)recv(fd, request, sizeof(request), MSG_DONTWAIT);
		(void)send(fd, DIAG_STATS_BUSY, sizeof(DIAG_STATS_BUSY) - 1,
		           MSG_NOSIGNAL | MSG_DONTWAIT);
		close(fd);
		return;
	}
	*r = (struct reader){ .fd = fd, .state = READER_ASKING };
	chan.active++;
	r->deadline_ns = nic_now_ns() + REQUEST_MS * 1000000ull;
	if (epoll_ctl(chan.epoll_fd, EPOLL_CTL_ADD, fd, &ev) != 0) {
		reader_close(r);
		return;
	}
	reader_ask(r); /* the request may be there already */
}

void diag_channel_event(void)
{
	int fd;

	if (chan.fd < 0)
		return;
	while ((fd = accept4(chan.fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0)
		accept_one(fd);
	for (int i = 0; i < MAX_READERS; i++)
		if (chan.readers[i].fd >= 0)
			reader_step(&chan.readers[i]);
}

uint64_t diag_channel_timers(void)
{
	uint64_t next = UINT64_MAX, now_ns;

	if (chan.active == 0 && chan.retry_ns == 0)
		return next; /* the common case: no clock read */
	now_ns = nic_now_ns();
	if (chan.retry_ns && now_ns >= chan.retry_ns)
		try_open();
	if (chan.retry_ns)
		next = chan.retry_ns;
	for (int i = 0; i < MAX_READERS; i++) {
		struct reader *r = &chan.readers[i];

		if (r->fd < 0)
			continue;
		if (now_ns >= r->deadline_ns)
			reader_close(r); /* it does not ask, or does not read: its time is up */
		else if (r->deadline_ns < next)
			next = r->deadline_ns;
	}
	return next;
}

void diag_channel_close(void)
{
	chan.retry_ns = 0;
	if (chan.fd < 0)
		return;
	for (int i = 0; i < MAX_READERS; i++)
		if (chan.readers[i].fd >= 0)
			reader_close(&chan.readers[i]);
	epoll_ctl(chan.epoll_fd, EPOLL_CTL_DEL, chan.fd, NULL);
	close(chan.fd);
	remove_socket_file();
	chan.fd = chan.epoll_fd = -1;
}

/* --- the reader's side --- */

/* Reads len bytes of pid's answer by the deadline; says what went wrong.
 * The first read may find the busy notice instead: DOCA_ERROR_AGAIN, not
 * logged (the caller tries again). */
static doca_error_t read_all(uint32_t pid, int fd, uint8_t *buf, size_t len, size_t before,
                             uint64_t deadline_ns)
{
	size_t got = 0;

	while (got < len) {
		uint64_t now = nic_now_ns();
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;
		int ready;

		if (now >= deadline_ns) {
			SDOCA_ERR("counters of process %u: no whole answer within %d ms (%zu bytes "
			          "came)",
			          pid, QUERY_MS, before + got);
			return DOCA_ERROR_TIME_OUT;
		}
		ready = poll(&pfd, 1, (int)((deadline_ns - now + 999999) / 1000000));
		if (ready <= 0)
			continue; /* EINTR, or the deadline: looked at above */
		n = recv(fd, buf + got, len - got, 0);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		/* Closed busy before it read the request: the reset may come
		 * before, or after (part of) the busy notice. */
		if (n < 0 && errno == ECONNRESET && before == 0 &&
		    got <= sizeof(DIAG_STATS_BUSY) - 1 && memcmp(buf, DIAG_STATS_BUSY, got) == 0)
			return DOCA_ERROR_AGAIN;
		if (n < 0) {
			SDOCA_ERR("counters of process %u: %s", pid, strerror(errno));
			return DOCA_ERROR_OPERATING_SYSTEM;
		}
		if (n == 0 && before == 0 && got == sizeof(DIAG_STATS_BUSY) - 1 &&
		    memcmp(buf, DIAG_STATS_BUSY, got) == 0)
			return DOCA_ERROR_AGAIN;
		if (n == 0 && before + got == 0) {
			SDOCA_ERR("counters of process %u: it closed the channel without an answer "
			          "(it is stopping, or out of memory)",
			          pid);
			return DOCA_ERROR_CONNECTION_RESET;
		}
		if (n == 0) {
			SDOCA_ERR("counters of process %u: the answer ended after %zu bytes", pid,
			          before + got);
			return DOCA_ERROR_INVALID_VALUE;
		}
		got += (size_t)n;
	}
	return DOCA_SUCCESS;
}

/* Connects to pid's channel and checks that pid holds it. AGAIN (not
 * logged): its backlog is full. */
static doca_error_t connect_to(uint32_t pid, int *out)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct ucred cred;
	socklen_t clen;
	doca_error_t status;
	int fd, err;

	status = diag_stats_path_find(pid, sa.sun_path, sizeof(sa.sun_path));
	if (status == DOCA_ERROR_NOT_PERMITTED) {
		SDOCA_ERR("counters of process %u: it runs as another user; only that user or root "
		          "may read them",
		          pid);
		return status;
	}
	if (status != DOCA_SUCCESS) {
		SDOCA_ERR("process %u has no softdoca counters channel: it is not a softdoca "
		          "program with an RDMA or DPA context started, it runs with "
		          "SOFTDOCA_STATS=0, or in another mount namespace",
		          pid);
		return DOCA_ERROR_NOT_FOUND;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		SDOCA_ERR("counters of process %u: no socket: %s", pid, strerror(errno));
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	/* A Unix socket connects at once or not at all (a full backlog:
	 * EAGAIN, the process is busy with other readers). */
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		err = errno;
		close(fd);
		if (err == EAGAIN)
			return DOCA_ERROR_AGAIN;
		if (err == EACCES || err == EPERM) {
			SDOCA_ERR("counters of process %u: %s: %s (only its user or root may read "
			          "them)",
			          pid, sa.sun_path, strerror(err));
			return DOCA_ERROR_NOT_PERMITTED;
		}
		SDOCA_ERR("process %u has no softdoca counters channel (%s: %s): it has stopped "
		          "its RDMA and DPA contexts, or was killed",
		          pid, sa.sun_path, strerror(err));
		return DOCA_ERROR_NOT_FOUND;
	}
	clen = sizeof(cred);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) != 0 || cred.pid != (pid_t)pid) {
		SDOCA_ERR("counters of process %u: its channel %s is held by process %d, not by it",
		          pid, sa.sun_path, (int)cred.pid);
		close(fd);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (geteuid() != 0 && cred.uid != geteuid()) {
		SDOCA_ERR("counters of process %u: it runs as user %u; only that user or root may "
		          "read them",
		          pid, (unsigned)cred.uid);
		close(fd);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	*out = fd;
	return DOCA_SUCCESS;
}

/* One request and its answer; AGAIN (not logged) when the channel is busy. */
static doca_error_t query_once(uint32_t pid, struct softdoca_process_counters **out)
{
	uint64_t deadline = nic_now_ns() + QUERY_MS * 1000000ull;
	uint8_t hdr[DIAG_STATS_HDR_LEN], *buf;
	doca_error_t status;
	uint32_t total;
	int fd;

	status = connect_to(pid, &fd);
	if (status != DOCA_SUCCESS)
		return status;
	/* A fresh socket takes the few bytes at once. */
	if (send(fd, DIAG_STATS_REQUEST, sizeof(DIAG_STATS_REQUEST) - 1, MSG_NOSIGNAL) !=
	    (ssize_t)sizeof(DIAG_STATS_REQUEST) - 1) {
		/* It may have closed it, busy: its notice tells. */
		status = read_all(pid, fd, hdr, sizeof(DIAG_STATS_BUSY) - 1, 0, deadline);
		close(fd);
		if (status == DOCA_ERROR_AGAIN ||
		    (status == DOCA_SUCCESS &&
		     memcmp(hdr, DIAG_STATS_BUSY, sizeof(DIAG_STATS_BUSY) - 1) == 0))
			return DOCA_ERROR_AGAIN;
		SDOCA_ERR("counters of process %u: the request did not go: %s", pid,
		          strerror(errno));
		return DOCA_ERROR_CONNECTION_RESET;
	}
	status = read_all(pid, fd, hdr, sizeof(hdr), 0, deadline);
	if (status == DOCA_SUCCESS)
		status = diag_stats_check_header(hdr, sizeof(hdr), &total);
	if (status != DOCA_SUCCESS) {
		close(fd);
		return status;
	}
	buf = malloc(total);
	if (!buf) {
		close(fd);
		SDOCA_ERR("counters of process %u: no memory for %u bytes", pid, total);
		return DOCA_ERROR_NO_MEMORY;
	}
	memcpy(buf, hdr, sizeof(hdr));
	status = read_all(pid, fd, buf + sizeof(hdr), total - sizeof(hdr), sizeof(hdr), deadline);
	close(fd);
	if (status == DOCA_SUCCESS)
		status = diag_stats_decode(buf, total, out);
	free(buf);
	if (status == DOCA_SUCCESS && (*out)->pid != pid) {
		SDOCA_ERR("counters of process %u: the answer is process %u's", pid, (*out)->pid);
		nic_stats_free(*out);
		*out = NULL;
		status = DOCA_ERROR_INVALID_VALUE;
	}
	return status;
}

doca_error_t diag_stats_query(uint32_t pid, struct softdoca_process_counters **out)
{
	uint64_t give_up = nic_now_ns() + BUSY_WAIT_MS * 1000000ull;
	long pause_ms = 5;
	doca_error_t status;

	*out = NULL;
	if (pid == 0 || pid > (uint32_t)INT32_MAX) {
		SDOCA_ERR("counters of process %u: not a process id", pid);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (kill((pid_t)pid, 0) != 0 && errno == ESRCH) {
		SDOCA_ERR("counters of process %u: there is no such process", pid);
		return DOCA_ERROR_NOT_FOUND;
	}
	/* Busy: other readers hold every slot. One that never asks loses it
	 * within REQUEST_MS, one that does not read within READER_MS: waiting
	 * longer than both gets a turn unless readers keep coming. */
	while ((status = query_once(pid, out)) == DOCA_ERROR_AGAIN && nic_now_ns() < give_up) {
		struct timespec pause = { .tv_nsec = pause_ms * 1000000 };

		nanosleep(&pause, NULL);
		if (pause_ms < 100)
			pause_ms *= 2;
	}
	if (status == DOCA_ERROR_AGAIN)
		SDOCA_ERR("counters of process %u: its channel stayed busy with other readers for "
		          "%d ms; try again",
		          pid, BUSY_WAIT_MS);
	return status;
}
