/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The drop-in check: RDMA programs laid out like DOCA's published samples
 * (a *_main.c, a *_sample.c with the RDMA logic, and this shared part: the
 * doca_argp command line, logging, resources, the state callback, descriptor
 * files), built outside softdoca's tree against an installed prefix through
 * pkg-config, with meson or CMake. What differs between the samples is one
 * struct rdma_sample each.
 *
 * Peers exchange descriptors through files, as DOCA's samples do, except
 * that a program waits (bounded) for its peer's file to appear instead of
 * for the user to press Enter. A requester whose operation its responder
 * cannot see complete (write) creates "<local descriptor path>.done" when
 * it has finished; the responder waits for "<remote descriptor path>.done".
 */
#ifndef DROPIN_RDMA_COMMON_H_
#define DROPIN_RDMA_COMMON_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>

#define MAX_ARG_SIZE 256               /* longest file path or text on the command line */
#define MEM_RANGE_LEN 4096             /* memory each program registers */
#define DEFAULT_STRING "Hi DOCA RDMA!" /* what a requester writes or sends by default */
#define FILE_WAIT_SECONDS 60           /* how long a program waits for its peer's files */

struct rdma_config {
	char device_name[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	char local_connection_desc_path[MAX_ARG_SIZE];
	char remote_connection_desc_path[MAX_ARG_SIZE];
	char remote_resource_desc_path[MAX_ARG_SIZE]; /* the responder's mmap descriptor */
	char text[MAX_ARG_SIZE];                      /* written or sent by the requester */
	uint32_t gid_index;
	bool is_gid_index_set;
};

struct rdma_sample;

struct rdma_resources {
	struct rdma_config *cfg;
	struct doca_dev *doca_device;
	char *mmap_memrange; /* MEM_RANGE_LEN bytes of heap memory */
	struct doca_mmap *mmap;
	struct doca_mmap *remote_mmap;
	struct doca_buf_inventory *buf_inventory;
	struct doca_pe *pe;
	struct doca_rdma *rdma;
	struct doca_ctx *rdma_ctx;
	struct doca_rdma_connection *connection;
	struct doca_buf *src_buf;
	struct doca_buf *dst_buf;
	const struct rdma_sample *sample;
	doca_error_t first_encountered_error;
	bool run_pe_progress; /* cleared when the context is back to idle */
};

/* Checks that a device can run the sample's task; NULL checks nothing. */
typedef doca_error_t (*task_check)(const struct doca_devinfo *);
/* A step of a sample, on its resources. */
typedef doca_error_t (*rdma_step)(struct rdma_resources *resources);

/* What makes one sample different from the others. */
struct rdma_sample {
	const char *name;         /* for the log */
	const char *string_param; /* -s/--<string_param> (requesters), or NULL */
	const char *string_param_help;
	bool needs_mmap_descriptor; /* -m is mandatory */
	uint32_t mmap_permissions;
	uint32_t rdma_permissions;
	task_check check;          /* the device must run the sample's task */
	rdma_step configure_tasks; /* *_set_conf before start, or NULL */
	rdma_step on_running;      /* inside the RUNNING state callback */
};

/* -d, -ld, -re, -m, -g: every sample's parameters. */
doca_error_t register_rdma_common_params(void);
/* -s/--<name>: the text a requester writes or sends. */
doca_error_t register_rdma_string_param(const char *long_name, const char *description);

/* A sample's whole main(): logging, command line, the sample, exit status. */
int rdma_sample_main(int argc, char **argv, const struct rdma_sample *sample);

/* Opens the device named by -d (after checking it), memory, an inventory, a
 * progress engine and an RDMA context as the sample says, runs the progress
 * engine until the context is idle again, and frees everything. */
doca_error_t rdma_run_sample(struct rdma_config *cfg, const struct rdma_sample *sample);
/* Exports this side's connection descriptor to -ld, waits for the peer's at
 * -re and connects to it. */
doca_error_t rdma_export_and_connect(struct rdma_resources *resources);
/* Writes this side's mmap descriptor to -m (responder). */
doca_error_t rdma_export_mmap(struct rdma_resources *resources);
/* Waits for the responder's mmap descriptor at -m and imports it (requester). */
doca_error_t rdma_import_remote_mmap(struct rdma_resources *resources);

/* "<path>.done": the requester's "finished" and the responder's wait for it. */
doca_error_t signal_done(const char *descriptor_path);
doca_error_t wait_peer_done(const char *descriptor_path);

/* Records the first error and stops the context (from any callback). */
void rdma_fail(struct rdma_resources *resources, doca_error_t error);

/* The samples, one per program. */
extern const struct rdma_sample rdma_write_requester_sample;
extern const struct rdma_sample rdma_write_responder_sample;
extern const struct rdma_sample rdma_send_sample;
extern const struct rdma_sample rdma_receive_sample;

#endif /* DROPIN_RDMA_COMMON_H_ */
