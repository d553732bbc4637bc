/*
 * RDMA on the DPA data path: what the DPA device calls post through.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * RDMA on the DPA data path (docs/dpa.md 2.8): what libdoca_dpa's device
 * calls post through. A context marked with doca_ctx_set_datapath_on_dpa
 * gets send and receive slots at start; kernels post by device handle,
 * connection id and mmap handles; completions go to the attached DPA
 * completion context through its sink (core/dpa_sink.h).
 */
#ifndef SDOCA_RDMA_RDMA_DPA_H_
#define SDOCA_RDMA_RDMA_DPA_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>

#include "core/compiler.h"

struct doca_rdma;

enum sdoca_rdma_dpa_op {
	SDOCA_RDMA_DPA_WRITE,
	SDOCA_RDMA_DPA_WRITE_IMM,
	SDOCA_RDMA_DPA_READ,
	SDOCA_RDMA_DPA_SEND,
	SDOCA_RDMA_DPA_SEND_IMM,
	SDOCA_RDMA_DPA_ATOMIC_FA,
	SDOCA_RDMA_DPA_SIGNAL_SET,
	SDOCA_RDMA_DPA_SIGNAL_ADD,
};

/* Submit flags (doca_dpa_dev.h's values). */
#define SDOCA_RDMA_DPA_FLUSH 1u
#define SDOCA_RDMA_DPA_OPTIMIZE_REPORTS 2u

/* One device post. local: source (write, send) or destination (read);
 * remote: an mmap created from an export (write, read, atomic). */
struct sdoca_rdma_dpa_post {
	enum sdoca_rdma_dpa_op op;
	uint32_t conn_id;
	uint32_t local_mmap;
	uint64_t local_addr;
	uint32_t remote_mmap;
	uint64_t remote_addr;
	uint64_t length;
	uint32_t immediate;
	uint64_t value;        /* atomic add, signal set/add */
	uint64_t remote_event; /* signals: a remote-net event's DPA handle */
	uint32_t flags;
};

/* How a bad post is handled (the error returned, why filled), as on RC
 * hardware (docs/dpa.md 2.12). */
enum sdoca_rdma_dpa_bad {
	/* Its queue is valid, its work request is not (an mmap handle, a
	 * range, a flag, a length): the request fails in its turn with an
	 * error completion (SEND_ERR, and the connection goes to error; a
	 * receive: RECV_ERR when a message consumes it). */
	SDOCA_RDMA_DPA_BAD_WR,
	/* Nothing to complete on (the RDMA handle, the connection id, a full
	 * queue): nothing posted; the calling execution must stop. */
	SDOCA_RDMA_DPA_BAD_NO_QUEUE,
	/* Only reported: nothing happens (receive_ack beyond what completed). */
	SDOCA_RDMA_DPA_BAD_CALL,
};

/* Post; DOCA_SUCCESS, or a bad post's error with *bad and why filled. */
SDOCA_EXPORT doca_error_t sdoca_rdma_dpa_post(uint64_t rdma_handle,
                                              const struct sdoca_rdma_dpa_post *post,
                                              enum sdoca_rdma_dpa_bad *bad, char *why,
                                              size_t why_len);
SDOCA_EXPORT doca_error_t sdoca_rdma_dpa_receive(uint64_t rdma_handle, uint32_t mmap, uint64_t addr,
                                                 uint64_t length, enum sdoca_rdma_dpa_bad *bad,
                                                 char *why, size_t why_len);
SDOCA_EXPORT doca_error_t sdoca_rdma_dpa_receive_ack(uint64_t rdma_handle, uint32_t num,
                                                     enum sdoca_rdma_dpa_bad *bad, char *why,
                                                     size_t why_len);

/* rdma.c's start and stop of a context on the DPA data path. */
doca_error_t rdma_dpa_start(struct doca_rdma *rdma);
void rdma_dpa_stop(struct doca_rdma *rdma);
void rdma_dpa_stopped(struct doca_rdma *rdma);
/* Lets the attached completion context go (destroy, re-attach). */
void rdma_dpa_detach(struct doca_rdma *rdma);

#endif /* SDOCA_RDMA_RDMA_DPA_H_ */
