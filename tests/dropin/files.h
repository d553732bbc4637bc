/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The descriptor files the drop-in programs of every DOCA generation hand
 * over (the 3.x programs here, the 2.2 ones in v22/): written whole under a
 * temporary name and renamed; waited for (bounded) where a user of DOCA's
 * samples copies the file and presses Enter; "<descriptor path>.done" when
 * a requester whose responder cannot see completion has finished. And the
 * copy of a string parameter both generations' argp callbacks make.
 */
#ifndef DROPIN_FILES_H_
#define DROPIN_FILES_H_

#include <stddef.h>

#include <doca_error.h>

/* Refuses to overwrite a file a previous run left, as DOCA's samples do. */
doca_error_t write_descriptor_file(const char *path, const void *data, size_t len);
doca_error_t wait_for_file(const char *path);
/* Waits for `path`, then reads it whole into a malloc'd buffer. */
doca_error_t read_peer_file(const char *path, char **data, size_t *len);
doca_error_t signal_done_file(const char *local_desc_path);
doca_error_t wait_done_file(const char *remote_desc_path);
/* Copies a string parameter into a field of `size` bytes, refusing one that
 * does not fit rather than cutting it (`what` names it in the error). */
doca_error_t copy_param(char *field, size_t size, const char *value, const char *what);

#endif /* DROPIN_FILES_H_ */
