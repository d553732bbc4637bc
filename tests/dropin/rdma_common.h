/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The drop-in check: RDMA programs shaped like DOCA 3.x's RDMA samples, built
 * outside softdoca's tree against an installed prefix (pkg-config). Each
 * program is a <name>_main.c (doca_argp and the configuration) and a
 * <name>_sample.c (the DOCA flow: resources, task configuration, the context
 * started and progressed until idle, completion callbacks that free their
 * task and buffers and stop the context, clean-up). This file and
 * rdma_common.c hold what they share, as DOCA's samples share theirs: the
 * parameters, allocate_rdma_resources() / destroy_rdma_resources(), the
 * descriptor files and the state callback that exports and connects once the
 * context is RUNNING.
 *
 * Peers exchange descriptors through files. Where a user of DOCA's samples
 * presses Enter once the peer's file is there, these programs wait (bounded)
 * for the file to appear. A requester whose responder cannot see completion
 * (write, read) creates "<local descriptor path>.done" when it has finished;
 * the responder waits for "<remote descriptor path>.done".
 *
 * Only DOCA headers here and in the *_sample.c files: like programs written
 * for DOCA, they use what DOCA's headers bring (<string.h> and <stdlib.h>
 * with every header, <stdio.h> with doca_log.h, <stdbool.h> with
 * doca_rdma.h; docs/compatibility.md, "Headers").
 */
#ifndef DROPIN_RDMA_COMMON_H_
#define DROPIN_RDMA_COMMON_H_

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>

#define MAX_PARAM_LEN 256      /* longest path or text on the command line, with its NUL */
#define CM_ADDR_SIZE 64        /* longest -sa address, with its NUL */
#define MEMORY_LEN 4096        /* the memory each program registers */
#define TASKS_PER_PROGRAM 1    /* each program runs one task of its kind */
#define NUM_BUFS 4             /* buffers a program's inventory holds */
#define IMMEDIATE_VALUE 0xABCD /* sent as is, compared as is (no byte swap) */
#define DEFAULT_TEXT "Hello from a softdoca drop-in program"

/* What the command line sets. */
struct rdma_params {
	char device_name[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	char local_desc_path[MAX_PARAM_LEN];
	char remote_desc_path[MAX_PARAM_LEN];
	char remote_mmap_desc_path[MAX_PARAM_LEN]; /* the responder's memory descriptor */
	char text[MAX_PARAM_LEN];                  /* -w, -r or -s: written, offered or sent */
	uint32_t gid_index;
	bool gid_index_set;
	/* RDMA-CM (-cm, -lp, -sa, -sat): parsed, refused when used (see allocate). */
	bool use_rdma_cm;
	uint32_t cm_port;
	char cm_addr[CM_ADDR_SIZE];
	enum doca_rdma_addr_type cm_addr_type;
	uint32_t busy_after_submit_ms; /* rdma_send only: the stress test's delay */
};

struct rdma_objects;
/* What a program does once connected, inside the RUNNING state callback. */
typedef doca_error_t (*rdma_step)(struct rdma_objects *objs);

/* What a program holds, from allocate_rdma_resources() to destroy_rdma_resources(). */
struct rdma_objects {
	struct rdma_params *params;
	struct doca_dev *dev;
	char *memrange; /* MEMORY_LEN bytes of heap memory under `mmap` */
	struct doca_mmap *mmap;
	struct doca_mmap *remote_mmap; /* created from the responder's export */
	struct doca_buf_inventory *inventory;
	struct doca_pe *pe;
	struct doca_rdma *rdma;
	struct doca_ctx *ctx;
	struct doca_rdma_connection *connection;
	const void *conn_desc; /* ours, owned by the RDMA context */
	size_t conn_desc_size;
	const void *mmap_desc; /* ours, owned by the mmap */
	size_t mmap_desc_size;
	char *peer_conn_desc; /* read from the peer's files, freed on destroy */
	size_t peer_conn_desc_size;
	char *peer_mmap_desc;
	size_t peer_mmap_desc_size;
	struct doca_buf *src_buf;
	struct doca_buf *dst_buf;
	bool is_requester;   /* the side that imports the memory descriptor */
	bool exchange_mmap;  /* the responder exports its memory (write, read) */
	rdma_step connected; /* the program's step once connected */
	uint32_t tasks_in_flight;
	doca_error_t first_error;
	bool run_pe_progress; /* cleared when the context is back to idle */
};

/* --- command line (rdma_common.c) --- */
void set_default_params(struct rdma_params *params);
/* -d, -ld, -re, -m, -g and the RDMA-CM flags -cm, -lp, -sa, -sat. */
doca_error_t register_connection_params(void);
/* The text of a program: -w/--write-string, -r/--read-string, -s/--send-string. */
doca_error_t register_write_text_param(void);
doca_error_t register_read_text_param(void);
doca_error_t register_send_text_param(void);
/* --busy-after-submit-ms (hidden): rdma_send stays busy after its submit. */
doca_error_t register_busy_after_submit_param(void);
/* Application logs to stdout, the SDK's warnings and errors to stderr. */
doca_error_t create_log_backends(void);

/* --- resources --- */
/* Opens -d (it must pass `check`), registers MEMORY_LEN bytes with
 * `mmap_permissions`, creates the PE and the RDMA context. */
doca_error_t allocate_rdma_resources(struct rdma_params *params, uint32_t mmap_permissions,
                                     uint32_t rdma_permissions,
                                     doca_error_t (*check)(const struct doca_devinfo *),
                                     struct rdma_objects *objs);
doca_error_t destroy_rdma_resources(struct rdma_objects *objs);
doca_error_t create_buf_inventory(struct rdma_objects *objs);
/* Gives back the buffers a failed program still holds, then stops and
 * destroys the inventory. */
doca_error_t destroy_buf_inventory(struct rdma_objects *objs);

/* Every program's state callback: exports, exchanges descriptors and
 * connects in RUNNING, then runs objs->connected. */
void rdma_state_changed_callback(const union doca_data user_data, struct doca_ctx *ctx,
                                 enum doca_ctx_states prev_state, enum doca_ctx_states next_state);
/* Starts the context and progresses the PE until the context is idle;
 * returns the first error any callback recorded. */
doca_error_t run_rdma_context(struct rdma_objects *objs);

/* --- inside callbacks --- */
/* A task of the program ended (`result` is its outcome): the context stops
 * when it was the last. */
void rdma_task_done(struct rdma_objects *objs, doca_error_t result);
/* Releases src_buf and dst_buf, which a finished task no longer uses. */
doca_error_t release_task_bufs(struct rdma_objects *objs);
/* A descriptor written whole (refusing to overwrite a file a previous run
 * left), and the peer's read once it is there (bounded wait; malloc'd). */
doca_error_t write_descriptor_file(const char *path, const void *data, size_t len);
doca_error_t read_peer_file(const char *path, char **data, size_t *len);
/* The requester's "finished" (write, read) and the responder's wait for it. */
doca_error_t signal_peer_done(const struct rdma_params *params);
doca_error_t wait_peer_done(const struct rdma_params *params);
/* Receivers' error callback: logs, frees, stops the context. */
void rdma_receive_error_callback(struct doca_rdma_task_receive *task,
                                 union doca_data task_user_data, union doca_data ctx_user_data);
/* Keeps the CPU busy without progressing anything. */
void busy_wait_ms(uint32_t ms);

/* --- buffers --- */
/* Requester: the mmap from the responder's export and its range. */
doca_error_t import_remote_mmap(struct rdma_objects *objs, void **addr, size_t *len);
/* src_buf = the program's text with its NUL at the start of its memory. */
doca_error_t prepare_text_src_buf(struct rdma_objects *objs);
/* Write requesters: the text in src_buf; dst_buf over the same length at the
 * start of the responder's memory. */
doca_error_t prepare_remote_write_bufs(struct rdma_objects *objs);
/* Receivers and the read requester: dst_buf empty over all of the program's memory. */
doca_error_t prepare_empty_dst_buf(struct rdma_objects *objs);

/* --- receives (run as objs->connected) --- */
/* One receive into all of the program's memory (dst_buf). */
doca_error_t post_receive(struct rdma_objects *objs);
/* One receive without a buffer: for a write with immediate. */
doca_error_t post_receive_without_buffer(struct rdma_objects *objs);

#endif /* DROPIN_RDMA_COMMON_H_ */
