/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The drop-in check for DOCA 2.2 programs: RDMA programs laid out like DOCA
 * 2.2's RDMA samples (one directory per program with its <name>_main.c and
 * <name>_sample.c, this rdma_common.c beside them), written for the 2023
 * work-queue and job API and built outside softdoca's tree with meson
 * against the installed prefix's lib/<multiarch>/pkgconfig/doca-2.2/ (one
 * dependency, 'doca'). Every program takes 2.2's flags: -d, -ld, -re, -m,
 * -s, -r, -w and -g.
 *
 * Peers exchange descriptors through files, with the conventions of the 3.x
 * drop-in programs (../rdma_common.h) so that programs of the two
 * generations pair: a program waits (bounded) for the peer's file where a
 * user of DOCA's samples presses Enter; a responder writes its memory
 * descriptor before its connection descriptor; a requester whose responder
 * cannot see completion creates "<local descriptor path>.done".
 *
 * Only DOCA headers here and in the *_sample.c files, as in programs
 * written for DOCA.
 */
#ifndef DROPIN_V22_RDMA_COMMON_H_
#define DROPIN_V22_RDMA_COMMON_H_

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_rdma.h>

#define MAX_USER_ARG_SIZE 256                /* longest path or string, without its NUL */
#define MAX_ARG_SIZE (MAX_USER_ARG_SIZE + 1) /* with it */
#define MEM_RANGE_LEN 4096                   /* the memory each program registers */
#define MAX_BUFF_SIZE 256                    /* what a program sends, reads or receives */
#define WORKQ_DEPTH 8                        /* jobs in flight */
#define INVENTORY_NUM_INITIAL_ELEMENTS 8     /* buffers a program's inventory holds */
#define IMMEDIATE_VALUE 0xABCD               /* sent as is, compared as is */
#define DEFAULT_STRING "Hi from a DOCA 2.2 drop-in program"

/* What the command line sets. */
struct rdma_config {
	char device_name[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	char send_string[MAX_ARG_SIZE];
	char read_string[MAX_ARG_SIZE];
	char write_string[MAX_ARG_SIZE];
	char local_connection_desc_path[MAX_ARG_SIZE];
	char remote_connection_desc_path[MAX_ARG_SIZE];
	char mmap_connection_desc_path[MAX_ARG_SIZE];
	bool is_gid_index_set;
	uint32_t gid_index;
};

/* What a program holds, from allocate_rdma_resources() to destroy_rdma_resources(). */
struct rdma_resources {
	struct doca_dev *doca_device;
	struct doca_mmap *mmap;
	char *mmap_memrange; /* MEM_RANGE_LEN bytes of heap memory under `mmap` */
	struct doca_mmap *remote_mmap;
	char *remote_memrange;
	struct doca_rdma *rdma;
	struct doca_ctx *rdma_ctx;
	struct doca_workq *workq;
	struct doca_buf_inventory *buf_inventory;
	const void *rdma_conn_details; /* ours, owned by the RDMA instance */
	size_t rdma_conn_details_size;
};

/* The program's flow, given the parsed configuration. */
typedef doca_error_t (*rdma_sample)(struct rdma_config *cfg);
/* main() of every program: logs, doca_argp, the sample; the exit status. */
int run_sample(int argc, char **argv, const char *name, rdma_sample sample);

/* Opens -d (or the first device), registers MEM_RANGE_LEN bytes with
 * mmap_permissions, creates and starts the RDMA instance, its work queue and
 * a buffer inventory. */
doca_error_t allocate_rdma_resources(struct rdma_config *cfg, uint32_t mmap_permissions,
                                     uint32_t rdma_permissions, struct rdma_resources *res);
doca_error_t destroy_rdma_resources(struct rdma_resources *res, struct rdma_config *cfg);

/* Hands the descriptors over through files and connects: a responder
 * (export_mmap) writes its memory descriptor first; a requester that
 * imports the peer's memory (import_mmap) reads it after the peer's
 * connection descriptor. */
doca_error_t connect_to_peer(struct rdma_config *cfg, struct rdma_resources *res, bool export_mmap,
                             bool import_mmap);

/* Submits a job and polls the work queue until its event is there; the
 * job's own status is result->result. */
doca_error_t run_rdma_job(struct rdma_resources *res, struct doca_job *job,
                          struct doca_rdma_result *result);

/* Senders and receivers: a send (SEND or SEND_IMM job) of -s's string; a
 * receive into the start of the program's memory, whose string is then at
 * res->mmap_memrange. */
doca_error_t send_string(struct rdma_config *cfg, struct rdma_resources *res, int job_type,
                         doca_be32_t immediate);
doca_error_t receive_string(struct rdma_resources *res, struct doca_rdma_result *result);

/* The requester's "finished" (write, read) and the responder's wait for it. */
doca_error_t signal_peer_done(const struct rdma_config *cfg);
doca_error_t wait_peer_done(const struct rdma_config *cfg);

#endif /* DROPIN_V22_RDMA_COMMON_H_ */
