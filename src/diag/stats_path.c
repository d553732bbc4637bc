/*
 * Where a process's counters channel lives.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Where a process's counters channel lives: the Unix socket stats-<pid> in
 * a directory only its user can enter. An abstract name (the old
 * "softdoca-stats-<pid>") is predictable and any local user could take it
 * first; a 0700 directory of ours is not: no other user can create, replace
 * or connect to what is inside it.
 *
 * The directory is $XDG_RUNTIME_DIR/softdoca (the user's own runtime
 * directory), else /tmp/softdoca-<uid>, else - another user made that one
 * first - a fresh /tmp/softdoca-<uid>-XXXXXX. Each is used only when it is a
 * real directory (not a symlink) owned by us with no access for others.
 * A reader looks in the same places for the process's user, trusting only
 * directories that pass the same check for that user.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "core/sdk_log.h"
#include "diag/diag.h"
#include "nic/nic.h"

SDOCA_LOG_MODULE(stats_path);

#define SOCKET_PREFIX "stats-"
#define DIR_NAME "softdoca"

/* A directory of uid's, not a symlink, that no one else may enter. */
static bool private_dir(const char *dir, uid_t uid)
{
	struct stat st;

	return lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == uid &&
	       (st.st_mode & 077) == 0;
}

/* Makes dir (0700) if it is not there; whether it is a private one of ours. */
static bool make_private_dir(const char *dir)
{
	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		return false;
	if (private_dir(dir, geteuid()))
		return true;
	SDOCA_WARN("counters channel: %s is not a private directory of user %u (a symlink, "
	           "another user's, or open to others): not used",
	           dir, (unsigned)geteuid());
	return false;
}

static bool fits(const char *dir)
{
	return strlen(dir) + sizeof("/" SOCKET_PREFIX "4294967295") <=
	       sizeof(((struct sockaddr_un *)0)->sun_path);
}

/* A socket in dir whose process is gone (its pid is free, and nothing
 * listens): left by a process that was killed. */
static void remove_stale(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		char *end;
		unsigned long pid;
		int fd, refused;

		if (strncmp(e->d_name, SOCKET_PREFIX, sizeof(SOCKET_PREFIX) - 1) != 0)
			continue;
		pid = strtoul(e->d_name + sizeof(SOCKET_PREFIX) - 1, &end, 10);
		if (*end || pid == 0 || pid > INT32_MAX || pid == (unsigned long)getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path))
			continue;
		/* The pid is free here; a listener means another pid namespace's. */
		memcpy(sa.sun_path, path, strlen(path) + 1);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (fd < 0)
			continue;
		refused = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0 &&
		          errno == ECONNREFUSED;
		close(fd);
		if (refused)
			unlink(path);
	}
	closedir(d);
}

bool diag_stats_path_own(char *path, size_t cap)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
	bool ok = false;

	if (xdg && xdg[0] == '/' &&
	    snprintf(dir, sizeof(dir), "%s/" DIR_NAME, xdg) < (int)sizeof(dir) && fits(dir))
		ok = make_private_dir(dir);
	if (!ok) {
		snprintf(dir, sizeof(dir), "/tmp/" DIR_NAME "-%u", (unsigned)geteuid());
		ok = make_private_dir(dir);
	}
	if (!ok) {
		snprintf(dir, sizeof(dir), "/tmp/" DIR_NAME "-%u-XXXXXX", (unsigned)geteuid());
		ok = mkdtemp(dir) != NULL && private_dir(dir, geteuid());
	}
	if (!ok)
		return false;
	remove_stale(dir);
	snprintf(path, cap, "%s/" SOCKET_PREFIX "%u", dir, (unsigned)getpid());
	/* Ours: a socket of a process that had this pid before. */
	unlink(path);
	return true;
}

/* XDG_RUNTIME_DIR in pid's environment (readable by its user and root). */
static bool environ_runtime_dir(uint32_t pid, char *out, size_t cap)
{
	char file[64], buf[8192];
	size_t n;
	FILE *f;

	snprintf(file, sizeof(file), "/proc/%u/environ", pid);
	f = fopen(file, "re");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	for (size_t at = 0; at < n; at += strlen(buf + at) + 1)
		if (strncmp(buf + at, "XDG_RUNTIME_DIR=/", 17) == 0)
			return snprintf(out, cap, "%s/" DIR_NAME, buf + at + 16) < (int)cap;
	return false;
}

/* Looks for stats-<pid> in dir: SUCCESS (path set), NOT_FOUND, or
 * NOT_PERMITTED (it is there, in a directory this user may not enter). */
static doca_error_t look_in(const char *dir, uid_t uid, uint32_t pid, char *path, size_t cap)
{
	struct stat st;

	if (!private_dir(dir, uid) ||
	    snprintf(path, cap, "%s/" SOCKET_PREFIX "%u", dir, pid) >= (int)cap)
		return DOCA_ERROR_NOT_FOUND;
	if (lstat(path, &st) != 0)
		return errno == EACCES ? DOCA_ERROR_NOT_PERMITTED : DOCA_ERROR_NOT_FOUND;
	return S_ISSOCK(st.st_mode) && st.st_uid == uid ? DOCA_SUCCESS : DOCA_ERROR_NOT_FOUND;
}

/* look_in: true when found there; a directory it may not enter is
 * remembered in *found (NOT_PERMITTED beats NOT_FOUND). */
static bool found_in(const char *dir, uid_t uid, uint32_t pid, char *path, size_t cap,
                     doca_error_t *found)
{
	doca_error_t status = look_in(dir, uid, pid, path, cap);

	if (status == DOCA_ERROR_NOT_PERMITTED)
		*found = status;
	return status == DOCA_SUCCESS;
}

doca_error_t diag_stats_path_find(uint32_t pid, char *path, size_t cap)
{
	char dir[sizeof(((struct sockaddr_un *)0)->sun_path)], proc[32], prefix[48];
	doca_error_t found = DOCA_ERROR_NOT_FOUND;
	bool done = false;
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	uid_t uid = geteuid();
	struct stat st;
	struct dirent *e;
	DIR *d;

	snprintf(proc, sizeof(proc), "/proc/%u", pid);
	if (stat(proc, &st) == 0)
		uid = st.st_uid; /* the process's user: its directories */
	if (environ_runtime_dir(pid, dir, sizeof(dir)) &&
	    found_in(dir, uid, pid, path, cap, &found))
		return DOCA_SUCCESS;
	if (uid == geteuid() && xdg && xdg[0] == '/' &&
	    snprintf(dir, sizeof(dir), "%s/" DIR_NAME, xdg) < (int)sizeof(dir) &&
	    found_in(dir, uid, pid, path, cap, &found))
		return DOCA_SUCCESS;
	snprintf(dir, sizeof(dir), "/run/user/%u/" DIR_NAME, (unsigned)uid);
	if (found_in(dir, uid, pid, path, cap, &found))
		return DOCA_SUCCESS;
	snprintf(dir, sizeof(dir), "/tmp/" DIR_NAME "-%u", (unsigned)uid);
	if (found_in(dir, uid, pid, path, cap, &found))
		return DOCA_SUCCESS;
	/* The fallbacks of a process whose /tmp/softdoca-<uid> was taken. */
	snprintf(prefix, sizeof(prefix), DIR_NAME "-%u-", (unsigned)uid);
	d = opendir("/tmp");
	while (!done && d && (e = readdir(d))) {
		if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 ||
		    snprintf(dir, sizeof(dir), "/tmp/%s", e->d_name) >= (int)sizeof(dir))
			continue;
		done = found_in(dir, uid, pid, path, cap, &found);
	}
	if (d)
		closedir(d);
	return done ? DOCA_SUCCESS : found;
}
