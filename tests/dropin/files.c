/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Descriptor files between the drop-in programs of every DOCA generation
 * (see files.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <doca_error.h>
#include <doca_log.h>

#include "files.h"

DOCA_LOG_REGISTER(DROPIN::FILES);

#define PEER_WAIT_SECONDS 60       /* how long a program waits for its peer's files */
#define FILE_POLL_NS (1000 * 1000) /* how often it looks for them */
#define DONE_SUFFIX ".done"
#define MAX_PATH_LEN 4096

/* Writes `path` whole under a temporary name and renames it, so a peer that
 * polls for it never reads half a file. Like DOCA's samples, refuses to
 * overwrite a file a previous run left. */
doca_error_t write_descriptor_file(const char *path, const void *data, size_t len)
{
	char tmp[MAX_PATH_LEN + 16];
	FILE *file;
	int ok;

	if (access(path, F_OK) == 0) {
		DOCA_LOG_ERR("%s exists already: remove it before running the program", path);
		return DOCA_ERROR_IO_FAILED;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	file = fopen(tmp, "wb");
	if (file == NULL) {
		DOCA_LOG_ERR("Cannot create %s: %s", tmp, strerror(errno));
		return DOCA_ERROR_IO_FAILED;
	}
	ok = fwrite(data, 1, len, file) == len;
	ok = fclose(file) == 0 && ok;
	if (!ok || rename(tmp, path) != 0) {
		DOCA_LOG_ERR("Cannot write %s: %s", path, strerror(errno));
		(void)remove(tmp);
		return DOCA_ERROR_IO_FAILED;
	}
	return DOCA_SUCCESS;
}

/* Waits (bounded) until the peer has created `path`: where a user of DOCA's
 * samples copies the file and presses Enter. */
doca_error_t wait_for_file(const char *path)
{
	const struct timespec poll = { .tv_sec = 0, .tv_nsec = FILE_POLL_NS };
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	while (access(path, F_OK) != 0) {
		if (errno != ENOENT) {
			DOCA_LOG_ERR("Cannot look for %s: %s", path, strerror(errno));
			return DOCA_ERROR_IO_FAILED;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec >= PEER_WAIT_SECONDS) {
			DOCA_LOG_ERR("The peer did not create %s within %d seconds", path,
			             PEER_WAIT_SECONDS);
			return DOCA_ERROR_TIME_OUT;
		}
		nanosleep(&poll, NULL);
	}
	return DOCA_SUCCESS;
}

/* Waits for `path`, then reads it whole into a malloc'd buffer. */
doca_error_t read_peer_file(const char *path, char **data, size_t *len)
{
	FILE *file;
	long size;
	doca_error_t result;

	result = wait_for_file(path);
	if (result != DOCA_SUCCESS)
		return result;
	file = fopen(path, "rb");
	if (file == NULL) {
		DOCA_LOG_ERR("Cannot open %s: %s", path, strerror(errno));
		return DOCA_ERROR_IO_FAILED;
	}
	*data = NULL;
	if (fseek(file, 0, SEEK_END) == 0 && (size = ftell(file)) > 0 &&
	    fseek(file, 0, SEEK_SET) == 0 && (*data = malloc((size_t)size)) != NULL &&
	    fread(*data, 1, (size_t)size, file) == (size_t)size) {
		*len = (size_t)size;
		fclose(file);
		return DOCA_SUCCESS;
	}
	DOCA_LOG_ERR("Cannot read %s", path);
	free(*data);
	*data = NULL;
	fclose(file);
	return DOCA_ERROR_IO_FAILED;
}

static void done_path(const char *descriptor_path, char *path, size_t size)
{
	snprintf(path, size, "%s" DONE_SUFFIX, descriptor_path);
}

doca_error_t signal_done_file(const char *local_desc_path)
{
	char path[MAX_PATH_LEN + sizeof(DONE_SUFFIX)];

	done_path(local_desc_path, path, sizeof(path));
	return write_descriptor_file(path, "done\n", 5);
}

doca_error_t wait_done_file(const char *remote_desc_path)
{
	char path[MAX_PATH_LEN + sizeof(DONE_SUFFIX)];

	done_path(remote_desc_path, path, sizeof(path));
	DOCA_LOG_INFO("Waiting for the requester to finish (%s)", path);
	return wait_for_file(path);
}

doca_error_t copy_param(char *field, size_t size, const char *value, const char *what)
{
	size_t len = strnlen(value, size);

	if (len == size) {
		DOCA_LOG_ERR("%s is longer than %zu characters", what, size - 1);
		return DOCA_ERROR_INVALID_VALUE;
	}
	memcpy(field, value, len + 1);
	return DOCA_SUCCESS;
}
