/*
 * Contexts and tasks: the framework every softdoca library builds on.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * A library context (doca_rdma, doca_sync_event, ...) embeds struct doca_ctx
 * and gives it a table of operations. Each task type is described once by a
 * struct sdoca_task_type; the library's task object embeds struct doca_task
 * first, so allocate/submit/complete/free exist once for every type.
 *
 * Threads: a context is used from its PE's thread. The one exception is
 * sdoca_task_complete() (and sdoca_ctx_start_ready()), which a library's
 * service thread may call: completions travel to the PE through its
 * completion queue and run their callbacks inside doca_pe_progress().
 */
#ifndef SDOCA_CORE_CTX_H_
#define SDOCA_CORE_CTX_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include <doca_ctx.h>
#include <doca_pe.h>

#include "core/compiler.h"

struct doca_dev;
struct doca_pe;

/* How a library's start went. */
enum sdoca_start {
	SDOCA_START_DONE,     /* RUNNING now, inside doca_ctx_start() */
	SDOCA_START_DEFERRED, /* STARTING now, RUNNING at the next doca_pe_progress() */
	SDOCA_START_PENDING,  /* STARTING; IN_PROGRESS until sdoca_ctx_start_ready() */
};

struct doca_job;
struct doca_event;
struct doca_task;

/* What a library that takes DOCA 2.2 jobs (through a doca_workq) gives. */
struct sdoca_job_ops {
	/* doca_ctx_workq_add(): room for `depth` jobs in flight. */
	doca_error_t (*attach)(struct doca_ctx *ctx, uint32_t depth);
	/* Checks a job and submits it as a task whose type's invoke is
	 * sdoca_workq_job_done. */
	doca_error_t (*submit)(struct doca_ctx *ctx, const struct doca_job *job);
	/* Fills the event (and the library's result) of a completed task, frees
	 * the task; SUCCESS, or IO_FAILED when the job failed. */
	doca_error_t (*retrieve)(struct doca_task *task, struct doca_event *ev);
};

struct sdoca_ctx_ops {
	const char *name;
	/* Prepares resources; on error the context stays IDLE. */
	doca_error_t (*start)(struct doca_ctx *ctx, enum sdoca_start *how);
	/* Whether a stop has work that ends in a later doca_pe_progress() (the
	 * context has connections to tear down, as a NIC's flush takes time);
	 * NULL: only tasks and events keep the context STOPPING. */
	bool (*stop_needs_progress)(struct doca_ctx *ctx);
	/* Stops executing and completes every submitted task (flush). */
	void (*stop)(struct doca_ctx *ctx);
	/* Called once the context is IDLE again, to release start's resources. */
	void (*stopped)(struct doca_ctx *ctx);
	/* Polls the library's queues from doca_pe_progress(); returns true if it did work. */
	bool (*progress)(struct doca_ctx *ctx);
	/* The application will sleep on the PE's notification handle. */
	void (*request_notification)(struct doca_ctx *ctx);
	/* DOCA 2.2 jobs; NULL when the library takes none. */
	const struct sdoca_job_ops *jobs;
};

/* Calls a type's completion callback with its own task type (no cast of
 * function pointers between incompatible types). */
typedef void (*sdoca_generic_cb_t)(void);
typedef void (*sdoca_task_invoke_t)(sdoca_generic_cb_t cb, struct doca_task *task,
                                    union doca_data task_user_data, union doca_data ctx_user_data);

struct sdoca_task_type {
	const char *name;
	size_t size; /* of the library's task object */
	sdoca_task_invoke_t invoke;
	/* Checks and posts a task; only called while the context is RUNNING. */
	doca_error_t (*submit)(struct doca_task *task);
};

/* Defines an invoke function for a task type T whose callback type is CB_T
 * and which embeds struct doca_task as member (a member path, e.g. t.base). */
#define SDOCA_TASK_INVOKER(fn, T, member, CB_T)                                           \
	static void fn(sdoca_generic_cb_t cb, struct doca_task *task, union doca_data ud, \
	               union doca_data cud)                                               \
	{                                                                                 \
		((CB_T)cb)(sdoca_container_of(task, T, member), ud, cud);                 \
	}

enum sdoca_task_state {
	SDOCA_TASK_FREE,
	SDOCA_TASK_ALLOCATED, /* owned by the application */
	SDOCA_TASK_SUBMITTED, /* owned by the library */
	SDOCA_TASK_COMPLETED, /* queued for its callback */
};

struct sdoca_task_pool;

struct doca_task {
	struct doca_ctx *ctx;
	struct sdoca_task_pool *pool;
	union doca_data user_data;
	doca_error_t status;
	enum sdoca_task_state state;
	/* doca_task_free() came while the library owned it: back to the pool
	 * once its callback ran, so that a stop never waits for it. */
	bool free_requested;
	struct doca_task *next;  /* free list or completion queue */
	struct doca_task *qnext; /* for the library's own queues */
};

/* The tasks of one type in one context. */
struct sdoca_task_pool {
	const struct sdoca_task_type *type;
	sdoca_generic_cb_t success_cb;
	sdoca_generic_cb_t error_cb;
	uint32_t capacity;
	uint32_t allocated;
	uint8_t *objects;
	struct doca_task *free;
};

#define SDOCA_CTX_MAX_TASK_TYPES 16

struct doca_ctx {
	const struct sdoca_ctx_ops *ops;
	struct doca_dev *dev;
	struct doca_pe *pe;
	enum doca_ctx_states state;
	union doca_data user_data;
	doca_ctx_state_changed_callback_t state_cb;
	struct sdoca_task_pool *pools[SDOCA_CTX_MAX_TASK_TYPES];
	uint32_t num_pools;
	size_t inflight;          /* submitted, callback not yet run */
	size_t allocated;         /* allocated and not freed */
	_Atomic size_t events;    /* library events queued and not yet run */
	_Atomic bool start_ready; /* STARTING -> RUNNING at the next progress */
	_Atomic bool failed;      /* fatal error: STOPPING at the next progress */
	bool stop_logged;
	/* The PE's progress count when STOPPING began: IDLE comes from a later
	 * doca_pe_progress() than the one whose callback stopped it. */
	uint64_t stop_epoch;
	uint16_t api_version;         /* the DOCA generation the program was built for */
	LIST_ENTRY(doca_ctx) pe_link; /* in its PE's contexts */
	/* doca_ctx_set_datapath_on_dpa: started and stopped synchronously on a
	 * PE of its own (v202.own_pe), its data path driven by DPA kernels. */
	struct doca_dpa *dpa;
	/* DOCA 2.2 (doca_workq): started by its doca_ctx_start (RUNNING, or in
	 * ERROR after a failure) until its doca_ctx_stop; the PE softdoca made
	 * for it; its work queue and its jobs there (submitted, not retrieved). */
	struct {
		bool started;
		struct doca_pe *own_pe;
		struct doca_workq *workq;
		uint32_t jobs;
		LIST_ENTRY(doca_ctx) workq_link;
	} v202;
};

/* Library side of a context's life. dev may be NULL. */
SDOCA_EXPORT void sdoca_ctx_init(struct doca_ctx *ctx, const struct sdoca_ctx_ops *ops,
                                 struct doca_dev *dev);
/* Refuses (BAD_STATE) unless the context is IDLE; frees pools, leaves the PE. */
SDOCA_EXPORT doca_error_t sdoca_ctx_fini(struct doca_ctx *ctx);

/* A *_set_conf(): (re)configures the pool of one task type while IDLE. */
SDOCA_EXPORT doca_error_t sdoca_task_pool_configure(
        struct doca_ctx *ctx, struct sdoca_task_pool *pool, const struct sdoca_task_type *type,
        sdoca_generic_cb_t success_cb, sdoca_generic_cb_t error_cb, uint32_t num_tasks);
/* A pool whose tasks the library allocates and submits itself (DOCA 2.2
 * jobs): any state, no callbacks (the type's invoke is its completion). */
SDOCA_EXPORT doca_error_t sdoca_task_pool_setup(struct doca_ctx *ctx, struct sdoca_task_pool *pool,
                                                const struct sdoca_task_type *type,
                                                uint32_t num_tasks);
/* A *_allocate_init(): a task from the pool (RUNNING only; NO_MEMORY when empty). */
SDOCA_EXPORT doca_error_t sdoca_task_alloc(struct doca_ctx *ctx, struct sdoca_task_pool *pool,
                                           union doca_data user_data, struct doca_task **task);

/* Finishes a submitted task: its callback runs in the next doca_pe_progress().
 * Safe to call from the library's service thread. */
SDOCA_EXPORT void sdoca_task_complete(struct doca_task *task, doca_error_t status);

/* A library's event for the application (a connection's state changed):
 * run() is called inside doca_pe_progress(), in order with the task
 * completions queued before and after it. Until it ran the context does not
 * become IDLE, so the event may point into the library's context. */
struct sdoca_event {
	struct doca_task task; /* first; its NULL pool tells an event from a task */
	void (*run)(struct sdoca_event *event);
};

/* Queues an event; any thread. An event is queued at most once until it ran. */
SDOCA_EXPORT void sdoca_event_push(struct doca_ctx *ctx, struct sdoca_event *event);

/* A PENDING start finished: RUNNING at the next doca_pe_progress(). Any thread. */
SDOCA_EXPORT void sdoca_ctx_start_ready(struct doca_ctx *ctx);

/* Moves the context to STOPPING on a fatal error, as doca_ctx_stop() would. */
SDOCA_EXPORT void sdoca_ctx_fail(struct doca_ctx *ctx);

/* doca_ctx_start() as DOCA 2.5 programs (SOFTDOCA_API_VERSION=205) see it. */
DOCA_STABLE doca_error_t softdoca_v205_doca_ctx_start(struct doca_ctx *ctx);
/* doca_ctx_start() and doca_ctx_stop() as DOCA 2.2 programs see them. */
DOCA_EXPERIMENTAL doca_error_t softdoca_v202_doca_ctx_start(struct doca_ctx *ctx);
DOCA_EXPERIMENTAL doca_error_t softdoca_v202_doca_ctx_stop(struct doca_ctx *ctx);

/* The invoke of a job task type: queues the completed job on its context's
 * work queue (in doca_pe_progress(), which the work queue's retrieve calls). */
SDOCA_EXPORT void sdoca_workq_job_done(sdoca_generic_cb_t cb, struct doca_task *task,
                                       union doca_data task_user_data,
                                       union doca_data ctx_user_data);

/* Core only: the state changes doca_pe_progress() performs. True if any happened. */
bool sdoca_ctx_advance(struct doca_ctx *ctx);

static inline bool sdoca_ctx_is_running(const struct doca_ctx *ctx)
{
	return ctx->state == DOCA_CTX_STATE_RUNNING;
}

#endif /* SDOCA_CORE_CTX_H_ */
