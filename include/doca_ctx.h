/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Contexts: the state machine every DOCA library object follows,
 * IDLE -> STARTING -> RUNNING -> STOPPING -> IDLE. DOCA 2.2 programs
 * (SOFTDOCA_API_VERSION=202) see that generation's form: contexts take jobs
 * from a work queue (doca_workq) and post their results to it as events.
 */
#ifndef DOCA_CTX_H_
#define DOCA_CTX_H_

#include <stddef.h>
#include <stdint.h>

#include "doca_compat.h"
#include "doca_error.h"
#include "doca_types.h"

#if SOFTDOCA_API_VERSION == 202
#include "doca_dev.h" /* DOCA 2.2's doca_ctx.h brought it */
#endif

SOFTDOCA_BEGIN_DECLS

struct doca_ctx;
struct doca_devinfo;

enum doca_ctx_states {
	DOCA_CTX_STATE_IDLE = 0,
	DOCA_CTX_STATE_STARTING = 1,
	DOCA_CTX_STATE_RUNNING = 2,
	DOCA_CTX_STATE_STOPPING = 3,
};

typedef void (*doca_ctx_state_changed_callback_t)(const union doca_data user_data,
                                                  struct doca_ctx *ctx,
                                                  enum doca_ctx_states prev_state,
                                                  enum doca_ctx_states next_state);

#if SOFTDOCA_API_VERSION >= 205
#if SOFTDOCA_API_VERSION >= 300
DOCA_STABLE doca_error_t doca_ctx_start(struct doca_ctx *ctx);
#else
/* DOCA 2.5: start of a context that connects later returns IN_PROGRESS. */
DOCA_STABLE doca_error_t doca_ctx_start(struct doca_ctx *ctx) SOFTDOCA_SYMBOL(205, doca_ctx_start);
#endif
DOCA_STABLE doca_error_t doca_ctx_stop(struct doca_ctx *ctx);
DOCA_STABLE doca_error_t doca_ctx_get_num_inflight_tasks(const struct doca_ctx *ctx,
                                                         size_t *num_inflight_tasks);
DOCA_EXPERIMENTAL doca_error_t doca_ctx_set_datapath_on_gpu(struct doca_ctx *ctx,
                                                            struct doca_gpu *gpu_dev);
DOCA_STABLE doca_error_t doca_ctx_set_user_data(struct doca_ctx *ctx, union doca_data user_data);
DOCA_STABLE doca_error_t doca_ctx_get_user_data(const struct doca_ctx *ctx,
                                                union doca_data *user_data);
DOCA_STABLE doca_error_t doca_ctx_set_state_changed_cb(struct doca_ctx *ctx,
                                                       doca_ctx_state_changed_callback_t cb);
DOCA_STABLE doca_error_t doca_ctx_get_state(const struct doca_ctx *ctx,
                                            enum doca_ctx_states *state);
DOCA_EXPERIMENTAL void doca_ctx_flush_tasks(struct doca_ctx *ctx);
DOCA_EXPERIMENTAL doca_error_t doca_ctx_set_datapath_on_dpa(struct doca_ctx *ctx,
                                                            struct doca_dpa *dpa_dev);
DOCA_EXPERIMENTAL doca_error_t doca_ctx_set_completion_vector(struct doca_ctx *ctx,
                                                              uint32_t comp_vector);
DOCA_EXPERIMENTAL doca_error_t doca_ctx_cap_get_num_completion_vectors(
        const struct doca_devinfo *devinfo, uint32_t *num_comp_vectors);
#else
/* DOCA 2.2: a context takes jobs from a work queue (doca_workq) and posts
 * their results to it as events. */
#define DOCA_ACTION_SDK_RANGE 16

/* Job and event types: each library's range starts at its _FIRST value. */
enum doca_action_type {
	DOCA_ACTION_NONE = 0,
	DOCA_ACTION_DMA_FIRST = 1 << DOCA_ACTION_SDK_RANGE,
	DOCA_ACTION_DEVEMU_FIRST = 2 << DOCA_ACTION_SDK_RANGE,
	DOCA_ACTION_DEVEMU_PCI_FIRST = 3 << DOCA_ACTION_SDK_RANGE,
	DOCA_ACTION_VIRTIO_FS_FIRST = 4 << DOCA_ACTION_SDK_RANGE,
	DOCA_ACTION_VBLK_FIRST = 5 << DOCA_ACTION_SDK_RANGE,
	DOCA_ACTION_REGEX_FIRST = 6 << DOCA_ACTION_SDK_RANGE,
	DOCA_ACTION_NVME_FIRST = 7 << DOCA_ACTION_SDK_RANGE,
	DOCA_ACTION_APPSHIELD_FIRST = 8 << DOCA_ACTION_SDK_RANGE,
	DOCA_ACTION_SHA_FIRST = 9 << DOCA_ACTION_SDK_RANGE,
	DOCA_ACTION_COMPRESS_FIRST = 10 << DOCA_ACTION_SDK_RANGE,
	DOCA_ACTION_IPSEC_FIRST = 11 << DOCA_ACTION_SDK_RANGE,
	DOCA_ACTION_RMAX_FIRST = 12 << DOCA_ACTION_SDK_RANGE,
	DOCA_ACTION_RDMA_FIRST = 13 << DOCA_ACTION_SDK_RANGE,
	DOCA_ACTION_GRAPH_FIRST = 14 << DOCA_ACTION_SDK_RANGE,
	DOCA_ACTION_SYNC_EVENT_FIRST = 15 << DOCA_ACTION_SDK_RANGE,
	DOCA_ACTION_DPI_FIRST = 16 << DOCA_ACTION_SDK_RANGE,
	DOCA_ACTION_EC_FIRST = 17 << DOCA_ACTION_SDK_RANGE,
	DOCA_ACTION_NVRD_TRANSPORT_FIRST = 18 << DOCA_ACTION_SDK_RANGE,
};

enum doca_job_flags {
	DOCA_JOB_FLAGS_NONE = 0,
};

/* The head of every library's job structure. */
struct doca_job {
	int type;                  /* the library's job type */
	int flags;                 /* enum doca_job_flags */
	struct doca_ctx *ctx;      /* the context that runs it */
	union doca_data user_data; /* returned in the job's event */
};

/* A completed job. result.ptr points where the library writes its result
 * (for RDMA a struct doca_rdma_result the caller provides). */
struct doca_event {
	int type;
	union doca_data user_data;
	union doca_data result;
};

struct doca_workq;
struct doca_dev;

enum doca_workq_retrieve_flags {
	DOCA_WORKQ_RETRIEVE_FLAGS_NONE,
};

/* A work queue for at most `depth` jobs in flight (submitted, result not yet
 * retrieved). */
DOCA_EXPERIMENTAL doca_error_t doca_workq_create(uint32_t depth, struct doca_workq **workq);
/* IN_USE while the work queue is added to a context. */
DOCA_EXPERIMENTAL doca_error_t doca_workq_destroy(struct doca_workq *workq);
/* BAD_STATE when the job's context is not running (stopped or in error),
 * NOT_FOUND when the work queue is not added to it, NO_MEMORY at depth. */
DOCA_EXPERIMENTAL doca_error_t doca_workq_submit(struct doca_workq *workq,
                                                 struct doca_job const *job);
/* Event-driven mode: the event handle becomes readable once a result is
 * ready; clear it after waking. */
DOCA_EXPERIMENTAL doca_error_t doca_workq_event_handle_arm(struct doca_workq *workq);
DOCA_EXPERIMENTAL doca_error_t doca_workq_event_handle_clear(struct doca_workq *workq,
                                                             doca_event_handle_t handle);
/* One event: SUCCESS, IO_FAILED (the job failed; its library's result says
 * how), or AGAIN when no result is ready yet. */
DOCA_EXPERIMENTAL doca_error_t doca_workq_progress_retrieve(struct doca_workq *workq,
                                                            struct doca_event *ev, int flags);
DOCA_EXPERIMENTAL doca_error_t doca_ctx_get_max_num_ctx(uint32_t *max_num_ctx);
DOCA_EXPERIMENTAL doca_error_t doca_workq_get_depth(const struct doca_workq *workq,
                                                    uint32_t *depth);
DOCA_EXPERIMENTAL doca_error_t doca_workq_get_event_driven_enable(struct doca_workq *workq,
                                                                  uint8_t *enabled);
DOCA_EXPERIMENTAL doca_error_t doca_workq_get_event_handle(struct doca_workq *workq,
                                                           doca_event_handle_t *handle);
/* Before the work queue is added to any context. */
DOCA_EXPERIMENTAL doca_error_t doca_workq_set_event_driven_enable(struct doca_workq *workq,
                                                                  uint8_t enable);
DOCA_EXPERIMENTAL doca_error_t doca_workq_set_event_handle(struct doca_workq *workq,
                                                           doca_event_handle_t event_handle,
                                                           uintptr_t completion_key);
DOCA_EXPERIMENTAL doca_error_t doca_ctx_dev_add(struct doca_ctx *ctx, struct doca_dev *dev);
DOCA_EXPERIMENTAL doca_error_t doca_ctx_dev_rm(struct doca_ctx *ctx, struct doca_dev *dev);
/* Synchronous: the context can export and connect when it returns. */
DOCA_EXPERIMENTAL doca_error_t doca_ctx_start(struct doca_ctx *ctx)
        SOFTDOCA_SYMBOL(202, doca_ctx_start);
/* IN_USE while a work queue is still added. */
DOCA_EXPERIMENTAL doca_error_t doca_ctx_stop(struct doca_ctx *ctx)
        SOFTDOCA_SYMBOL(202, doca_ctx_stop);
/* The context must be started; one work queue per context. */
DOCA_EXPERIMENTAL doca_error_t doca_ctx_workq_add(struct doca_ctx *ctx, struct doca_workq *workq);
/* IN_USE while jobs of the context wait in the work queue. */
DOCA_EXPERIMENTAL doca_error_t doca_ctx_workq_rm(struct doca_ctx *ctx, struct doca_workq *workq);
DOCA_EXPERIMENTAL doca_error_t doca_ctx_get_event_driven_supported(struct doca_ctx *ctx,
                                                                   uint8_t *event_supported);
DOCA_EXPERIMENTAL doca_error_t doca_ctx_set_datapath_on_gpu(struct doca_ctx *ctx,
                                                            struct doca_gpu *gpu_dev);
#endif

SOFTDOCA_END_DECLS

#endif /* DOCA_CTX_H_ */
