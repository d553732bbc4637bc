/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * What the per-operation example programs share: the command line, opening
 * a device, memory, a progress engine and an RDMA context, and the exchange
 * of export blobs through files, the way DOCA's samples exchange descriptors.
 *
 * Every program takes
 *   -d DEVICE   ibdev name (sdoca_lo) or interface name (lo); default lo
 *   -l FILE     where this program writes its connection blob
 *   -r FILE     where the peer writes its connection blob (waited for)
 *   -m FILE     the memory blob: written by a responder, read by a requester
 *   -t TEXT     the text a program sends or writes
 *   -v N, -c N  numbers for the atomics
 * A requester whose operation the responder cannot see complete (write, read,
 * atomics) creates "<-l FILE>.done" when it has finished; its responder
 * waits for "<-r FILE>.done" before it prints what arrived.
 */
#ifndef SOFTDOCA_EXAMPLE_H_
#define SOFTDOCA_EXAMPLE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>

#define EXAMPLE_MEM_SIZE 4096

struct example {
	/* from the command line */
	const char *device;
	const char *local_file;
	const char *remote_file;
	const char *mmap_file;
	const char *text;
	uint64_t value;
	uint64_t compare;
	/* the DOCA objects */
	struct doca_dev *dev;
	struct doca_mmap *mmap;        /* this program's memory */
	struct doca_mmap *remote_mmap; /* the peer's, from -m */
	struct doca_buf_inventory *inv;
	struct doca_pe *pe;
	struct doca_rdma *rdma;
	struct doca_rdma_connection *conn;
	char *mem; /* EXAMPLE_MEM_SIZE bytes, registered in mmap */
	char *remote_mem;
	/* the one task in flight */
	bool task_done;
	doca_error_t task_status;
	/* DOCA 2.2 programs: the context and its work queue (no progress engine) */
	struct doca_ctx *ctx;
	struct doca_workq *workq;
};

/* Exits with a message when a DOCA call fails: examples stay short. */
#define EXAMPLE_CHECK(call)                     \
	do {                                    \
		doca_error_t e_ = (call);       \
		if (e_ != DOCA_SUCCESS)         \
			example_die(#call, e_); \
	} while (0)

/* A completion callback (success and error alike) for task type `type` that
 * records the task's status in the example passed as the context user data. */
#define EXAMPLE_TASK_CALLBACK(type)                                                           \
	static void example_on_##type(struct doca_rdma_task_##type *task, union doca_data ud, \
	                              union doca_data ctx_ud)                                 \
	{                                                                                     \
		(void)ud;                                                                     \
		example_task_finished(doca_rdma_task_##type##_as_task(task), ctx_ud);         \
	}

void example_die(const char *what, doca_error_t status);
void example_task_finished(struct doca_task *task, union doca_data ctx_user_data);

/* Parses the command line; `usage` names the options this program uses. */
void example_parse(struct example *ex, int argc, char **argv, const char *usage);
/* Opens -d. */
void example_open_device(struct example *ex);
/* Device, memory (with `access`), inventory, progress engine, RDMA context
 * (not started: the program configures its task types next). */
void example_open(struct example *ex, uint32_t access);
/* Starts the context, exchanges connection blobs through -l/-r, connects. */
void example_start_and_connect(struct example *ex);
/* Responder: writes the memory blob to -m. Requester: reads it. */
void example_export_memory(struct example *ex);
void example_import_memory(struct example *ex);
/* A buffer of `len` bytes at `offset` in this program's (or the peer's)
 * memory, whose data section is its first `data_len` bytes: a source holds
 * its data there, a destination receives after it. */
struct doca_buf *example_local_buf(struct example *ex, size_t offset, size_t len, size_t data_len);
struct doca_buf *example_remote_buf(struct example *ex, size_t offset, size_t len, size_t data_len);
/* Submits `task`; progresses until it completes and returns its status. */
void example_submit(struct example *ex, struct doca_task *task);
doca_error_t example_wait_task(struct example *ex);
doca_error_t example_run_task(struct example *ex, struct doca_task *task); /* both */
/* The requester's "<-l>.done" and the responder's wait for the peer's. */
void example_signal_done(struct example *ex);
void example_wait_peer_done(struct example *ex);
/* Stops the context (flushing what is left) and destroys everything. */
void example_close(struct example *ex);

/* Blob files: written whole under a temporary name, then renamed; waited
 * for (bounded) and read whole. */
void example_write_file(const char *path, const void *data, size_t len);
void *example_wait_file(const char *path, size_t *len);

/* For DOCA 2.2 programs (example_v22.c; they build with
 * SOFTDOCA_API_VERSION=202): the same objects, a work queue in place of the
 * progress engine. With event_driven the work queue is in event-driven mode,
 * set before it joins the context (as DOCA 2.2 requires). */
void example_v22_open(struct example *ex, uint32_t access);
void example_v22_start_and_connect(struct example *ex, bool event_driven);
void example_v22_close(struct example *ex);

#endif /* SOFTDOCA_EXAMPLE_H_ */
