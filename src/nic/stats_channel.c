/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The counters channel: how softdoca-info --pid reads another process's
 * counters (docs/design.md, "Reading another process's counters").
 *
 * While its service thread runs, a process listens on the Unix stream
 * socket "softdoca-stats-<pid>" in the abstract namespace: no file, so
 * nothing is left behind when the process exits or is killed. A reader
 * connects and is answered with one snapshot (stats_wire.c), then the
 * socket is closed; the channel reads nothing from its readers. Only a
 * reader of the same user, or root, is answered (SO_PEERCRED); others are
 * closed at once. The service thread accepts and writes without blocking,
 * at most MAX_READERS at a time, each for at most READER_MS; the data path
 * pays nothing (the counters are read under each worker's lock when asked).
 * SOFTDOCA_STATS=0 turns it off.
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
#include <unistd.h>

#include "core/sdk_log.h"
#include "nic/nic.h"

SDOCA_LOG_MODULE(stats_channel);

#define MAX_READERS 4
#define READER_MS 2000u
#define QUERY_MS 2000

struct reader {
	int fd; /* -1: a free slot */
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
	struct reader readers[MAX_READERS];
	int active;              /* readers[] in use */
	uint64_t refused;        /* readers of another user refused since the last log line */
	uint64_t refused_log_ns; /* ... when it was written */
} chan = { .fd = -1, .epoll_fd = -1 };

/* The socket's abstract name; returns the address length. */
static socklen_t channel_addr(uint32_t pid, struct sockaddr_un *sa)
{
	int n;

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	/* sun_path[0] stays '\0': the abstract namespace */
	n = snprintf(sa->sun_path + 1, sizeof(sa->sun_path) - 1, "softdoca-stats-%u", pid);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
}

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

void nic_stats_channel_open(int epoll_fd, uint64_t tag)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = tag };
	struct sockaddr_un sa;
	socklen_t len = channel_addr((uint32_t)getpid(), &sa);
	int fd;

	for (int i = 0; i < MAX_READERS; i++)
		chan.readers[i].fd = -1;
	chan.active = 0;
	if (!enabled())
		return;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, len) != 0 || listen(fd, MAX_READERS) != 0 ||
	    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &ev) != 0) {
		/* EADDRINUSE: someone took this pid's name; readers then find it
		 * is not this process (they check) */
		SDOCA_WARN("no counters channel (softdoca-info --pid): %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	chan.fd = fd;
	chan.epoll_fd = epoll_fd;
	chan.tag = tag;
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
	struct epoll_event ev = { .events = EPOLLOUT, .data.u64 = chan.tag };
	struct softdoca_process_counters *pc;
	struct reader *r = NULL;
	doca_error_t status;

	for (int i = 0; i < MAX_READERS && !r; i++)
		if (chan.readers[i].fd < 0)
			r = &chan.readers[i];
	if (!r || !allowed(fd)) {
		close(fd); /* busy: the reader sees the end at once and may try again */
		return;
	}
	status = nic_stats_collect(&pc);
	if (status == DOCA_SUCCESS) {
		status = nic_stats_encode(pc, &r->buf, &r->len);
		nic_stats_free(pc);
	}
	if (status != DOCA_SUCCESS) {
		SDOCA_WARN("counters channel: no snapshot: %s", doca_error_get_descr(status));
		close(fd);
		return;
	}
	r->fd = fd;
	r->sent = 0;
	chan.active++;
	r->deadline_ns = nic_now_ns() + READER_MS * 1000000ull;
	if (epoll_ctl(chan.epoll_fd, EPOLL_CTL_ADD, fd, &ev) != 0) {
		reader_close(r);
		return;
	}
	reader_send(r);
}

void nic_stats_channel_event(void)
{
	int fd;

	if (chan.fd < 0)
		return;
	while ((fd = accept4(chan.fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0)
		accept_one(fd);
	for (int i = 0; i < MAX_READERS; i++)
		if (chan.readers[i].fd >= 0)
			reader_send(&chan.readers[i]);
}

uint64_t nic_stats_channel_timers(void)
{
	uint64_t next = UINT64_MAX, now_ns;

	if (chan.active == 0)
		return next; /* the common case: no clock read */
	now_ns = nic_now_ns();
	for (int i = 0; i < MAX_READERS; i++) {
		struct reader *r = &chan.readers[i];

		if (r->fd < 0)
			continue;
		if (now_ns >= r->deadline_ns)
			reader_close(r); /* it does not read: its time is up */
		else if (r->deadline_ns < next)
			next = r->deadline_ns;
	}
	return next;
}

void nic_stats_channel_close(void)
{
	if (chan.fd < 0)
		return;
	for (int i = 0; i < MAX_READERS; i++)
		if (chan.readers[i].fd >= 0)
			reader_close(&chan.readers[i]);
	epoll_ctl(chan.epoll_fd, EPOLL_CTL_DEL, chan.fd, NULL);
	close(chan.fd);
	chan.fd = chan.epoll_fd = -1;
}

/* --- the reader's side --- */

/* Reads len bytes of pid's answer by the deadline; says what went wrong. */
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
		if (n < 0) {
			SDOCA_ERR("counters of process %u: %s", pid, strerror(errno));
			return DOCA_ERROR_OPERATING_SYSTEM;
		}
		if (n == 0 && before + got == 0) {
			SDOCA_ERR("counters of process %u: it closed the channel without an answer "
			          "(refused, busy, out of memory or stopping)",
			          pid);
			return DOCA_ERROR_NOT_PERMITTED;
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

/* Connects to pid's channel and checks that pid holds it. */
static doca_error_t connect_to(uint32_t pid, int *out)
{
	struct sockaddr_un sa;
	socklen_t len = channel_addr(pid, &sa), clen;
	struct ucred cred;
	int fd;

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		SDOCA_ERR("counters of process %u: no socket: %s", pid, strerror(errno));
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	/* A Unix socket connects at once or not at all (a full backlog:
	 * EAGAIN, the process is busy with other readers). */
	if (connect(fd, (struct sockaddr *)&sa, len) != 0) {
		int err = errno;

		close(fd);
		if (err == EAGAIN) {
			SDOCA_ERR("counters of process %u: its channel is busy, try again", pid);
			return DOCA_ERROR_AGAIN;
		}
		SDOCA_ERR("process %u has no softdoca counters channel (%s): it is not a softdoca "
		          "program with an RDMA context started, it runs with SOFTDOCA_STATS=0, or "
		          "in "
		          "another network namespace",
		          pid, strerror(err));
		return DOCA_ERROR_NOT_FOUND;
	}
	clen = sizeof(cred);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) != 0 || cred.pid != (pid_t)pid) {
		SDOCA_ERR("counters of process %u: its channel's name is held by process %d, not "
		          "by it",
		          pid, (int)cred.pid);
		close(fd);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	if (geteuid() != 0 && cred.uid != geteuid()) {
		SDOCA_ERR("counters of process %u: it runs as user %u; only that user or root may "
		          "read "
		          "them",
		          pid, (unsigned)cred.uid);
		close(fd);
		return DOCA_ERROR_NOT_PERMITTED;
	}
	*out = fd;
	return DOCA_SUCCESS;
}

doca_error_t nic_stats_query(uint32_t pid, struct softdoca_process_counters **out)
{
	uint64_t deadline = nic_now_ns() + QUERY_MS * 1000000ull;
	uint8_t hdr[NIC_STATS_HDR_LEN], *buf;
	doca_error_t status;
	uint32_t total;
	int fd;

	*out = NULL;
	if (pid == 0 || pid > (uint32_t)INT32_MAX) {
		SDOCA_ERR("counters of process %u: not a process id", pid);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (kill((pid_t)pid, 0) != 0 && errno == ESRCH) {
		SDOCA_ERR("counters of process %u: there is no such process", pid);
		return DOCA_ERROR_NOT_FOUND;
	}
	status = connect_to(pid, &fd);
	if (status != DOCA_SUCCESS)
		return status;
	status = read_all(pid, fd, hdr, sizeof(hdr), 0, deadline);
	if (status == DOCA_SUCCESS)
		status = nic_stats_check_header(hdr, sizeof(hdr), &total);
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
		status = nic_stats_decode(buf, total, out);
	free(buf);
	if (status == DOCA_SUCCESS && (*out)->pid != pid) {
		SDOCA_ERR("counters of process %u: the answer is process %u's", pid, (*out)->pid);
		nic_stats_free(*out);
		*out = NULL;
		status = DOCA_ERROR_INVALID_VALUE;
	}
	return status;
}
