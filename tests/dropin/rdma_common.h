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
 * descriptor files, the RDMA-CM callbacks and the state callback that
 * connects once the context is RUNNING.
 *
 * Two ways to connect, as in DOCA's samples:
 *
 * Out of band (the default): peers exchange descriptors through files.
 * Where a user of DOCA's samples presses Enter once the peer's file is
 * there, these programs wait (bounded) for the file to appear. A requester
 * whose responder cannot see completion (write, read) creates "<local
 * descriptor path>.done" when it has finished; the responder waits for
 * "<remote descriptor path>.done".
 *
 * RDMA-CM (-cm): the side given a server address (-sa, -sat, -lp) is the
 * client and connects to it; the other is the server and listens on -lp. The
 * server accepts in its connection request callback; each side goes on from
 * its connection established callback. No files: the side that owns the
 * memory or the event (write, read and sync-event responders) sends its
 * doca_mmap_export_rdma() or doca_sync_event_export_to_remote_net() blob
 * with a send task on the new connection, and the requester, which posts a
 * receive for it once the connection is up (a send that comes sooner waits
 * for it: RNR), creates the remote mmap or event from what arrived. A
 * requester that has finished a write or read disconnects, and its
 * responder takes the disconnection for the Enter a user of DOCA's samples
 * presses once the requester is done. Where such a user starts the client
 * once the server listens, the client tries again (bounded) while nobody
 * listens yet; a CM program gives up after PEER_WAIT_SECONDS.
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
#define NUM_BUFS 4             /* buffers a program's inventory holds, per connection */
#define MAX_CONNECTIONS 16     /* -nc: connections of a multi-connection program */
#define IMMEDIATE_VALUE 0xABCD /* sent as is, compared as is (no byte swap) */
#define DEFAULT_TEXT "Hello from a softdoca drop-in program"

/* What the command line sets. */
struct rdma_params {
	char device_name[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	char local_desc_path[MAX_PARAM_LEN];
	char remote_desc_path[MAX_PARAM_LEN];
	char remote_mmap_desc_path[MAX_PARAM_LEN]; /* the responder's memory or event descriptor */
	char text[MAX_PARAM_LEN];                  /* -w, -r or -s: written, offered or sent */
	uint32_t gid_index;
	bool gid_index_set;
	/* RDMA-CM (-cm, -lp, -sa, -sat): a client when -sa is given. */
	bool use_rdma_cm;
	uint16_t cm_port;
	char cm_addr[CM_ADDR_SIZE];
	enum doca_rdma_addr_type cm_addr_type;
	uint32_t num_connections;      /* -nc: multi-connection programs only */
	uint32_t busy_after_submit_ms; /* rdma_send only: the stress test's delay */
};

struct rdma_objects;
/* What a program does once connected: inside the RUNNING state callback
 * (out of band) or once the connection is established and the memory
 * descriptor exchanged (RDMA-CM). */
typedef doca_error_t (*rdma_step)(struct rdma_objects *objs);
/* A multi-connection program's step for each connection as it comes up;
 * `index` is its place in the order of connecting (0 for the first). */
typedef doca_error_t (*rdma_connection_step)(struct rdma_objects *objs,
                                             struct doca_rdma_connection *connection,
                                             uint32_t index);
/* The responder's export of what the requester works on: a blob the
 * export's owner keeps, copied by the caller. */
typedef doca_error_t (*rdma_export_step)(struct rdma_objects *objs, const void **desc, size_t *len);

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
	struct doca_rdma_connection *connection; /* the connection (the first of several) */
	const void *conn_desc;                   /* ours, owned by the RDMA context */
	size_t conn_desc_size;
	const void *mmap_desc; /* ours, owned by the mmap (or the export's owner) */
	size_t mmap_desc_size;
	/* What the responder exports: its mmap unless set (the sync-event
	 * responder exports its event). */
	rdma_export_step export_resource;
	char *peer_conn_desc; /* read from the peer's files, freed on destroy */
	size_t peer_conn_desc_size;
	char *peer_mmap_desc; /* from a file, or (RDMA-CM) the receive's memory */
	size_t peer_mmap_desc_size;
	/* RDMA-CM */
	bool is_client;                 /* -sa given: connects; else listens */
	struct doca_rdma_addr *cm_addr; /* the client's server address */
	struct doca_mmap *desc_mmap;    /* over the descriptor sent or received */
	char *sent_desc;                /* the responder's copy of what it sends */
	bool cm_retry;                  /* the client connects again once the time comes */
	uint32_t cm_attempts;           /* connect_to_addr calls so far */
	long long cm_retry_at_ms;
	long long cm_give_up_at_ms; /* PEER_WAIT_SECONDS after the start */
	rdma_step peer_done;        /* responders: once the requester has disconnected */
	bool peer_disconnected;     /* a disconnection callback came */
	uint32_t num_requests;      /* server: requests accepted (their user data) */
	struct doca_rdma_connection *requested[MAX_CONNECTIONS]; /* by user data */
	/* Every program: its connections in the order they came up. */
	uint32_t expected_connections; /* 1, or -nc */
	uint32_t num_connections;
	struct doca_rdma_connection *connections[MAX_CONNECTIONS];
	bool connection_down[MAX_CONNECTIONS];
	rdma_connection_step connection_ready; /* multi-connection programs */
	struct doca_buf *src_buf;
	struct doca_buf *dst_buf;
	bool is_requester;   /* the side that imports the responder's descriptor */
	bool exchange_mmap;  /* the responder exports its memory or event (not send) */
	bool multi_conn;     /* descriptor files are named "<path>-<index>" */
	rdma_step connected; /* the program's step once connected (all of them) */
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
/* -nc/--num-connections: the multi-connection programs. */
doca_error_t register_num_connections_param(void);
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

/* With -cm: the four connection callbacks, and the send (responder) or
 * receive (requester) tasks that carry the resource descriptor. Before the
 * context starts. */
doca_error_t config_rdma_cm_callbacks_and_negotiation(struct rdma_objects *objs,
                                                      bool need_send_task, bool need_recv_task);
/* Every program's state callback: in RUNNING, exports, exchanges
 * descriptors and connects, then runs objs->connected (out of band), or
 * listens or connects to the server (RDMA-CM, which goes on in the
 * connection callbacks). */
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
/* The requester's "finished" (write, read): the ".done" file, or (RDMA-CM)
 * it disconnects. */
doca_error_t signal_peer_done(struct rdma_objects *objs);
/* The responder's wait for it, then `then`: blocks for the file, or
 * (RDMA-CM) runs `then` from the disconnection callback. */
doca_error_t wait_peer_done(struct rdma_objects *objs, rdma_step then);
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
