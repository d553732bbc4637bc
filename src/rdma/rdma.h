/*
 * doca_rdma internals: the context, its connections and its tasks.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Every RDMA task type has the same object, struct rdma_task (a doca_task,
 * the soft-NIC work request and the DOCA-level fields); the public task
 * types are thin wrappers of it. One row per type (struct rdma_task_type,
 * the table in tasks.c) carries what differs: its work request, its builder
 * and the results its completion fills in; allocate/submit/complete exist
 * once.
 *
 * A new task type: its kind below and its RDMA_PUBLIC_TASK; in tasks.c its
 * INVOKER line, its row and its builder (and a results function if its
 * completion gives more than a length); in task_api.c its public
 * functions, one RDMA_TASK_* line each but allocate_init.
 */
#ifndef SDOCA_RDMA_RDMA_H_
#define SDOCA_RDMA_RDMA_H_

#include <string.h>

#include <doca_rdma.h>
#include <softdoca.h>

#include "core/ctx.h"
#include "core/sync_event.h"
#include "nic/nic.h"

enum rdma_task_kind {
	RDMA_TASK_RECEIVE,
	RDMA_TASK_SEND,
	RDMA_TASK_SEND_IMM,
	RDMA_TASK_READ,
	RDMA_TASK_WRITE,
	RDMA_TASK_WRITE_IMM,
	RDMA_TASK_ATOMIC_CMP_SWP,
	RDMA_TASK_ATOMIC_FETCH_ADD,
	RDMA_TASK_SYNC_EVENT_GET,
	RDMA_TASK_SYNC_EVENT_NOTIFY_SET,
	RDMA_TASK_SYNC_EVENT_NOTIFY_ADD,
	RDMA_TASK_KINDS,
};

/* Capabilities of every softdoca device. */
#define RDMA_MAX_QUEUE_SIZE NIC_MAX_QUEUE
#define RDMA_DEFAULT_QUEUE_SIZE 4096
#define RDMA_MAX_BUF_LIST_LEN NIC_MAX_SGE
#define RDMA_MAX_MESSAGE_SIZE NIC_MAX_MESSAGE
#define RDMA_MAX_CONNECTIONS 1024
#define RDMA_DEFAULT_TIMEOUT_MS 2000
/* No answer from a listener in this long: the attempt fails. */
#define RDMA_DEFAULT_CM_TIMEOUT_MS 5000

/*
 * A connection's life (connection.c; docs/design.md "Connections"):
 *
 *   FREE -> REQUESTED (a client asks this server)   -> CONNECTING (accepted)
 *   FREE -> CONNECTING (exported, or connect_to_addr) -> ESTABLISHED
 *   CONNECTING / ESTABLISHED -> CLOSED (disconnected, by either side)
 *                            -> FAILED (refused, unreachable, an error)
 *   CLOSED / FAILED -> FREE once the application heard it (its callback ran)
 *
 * The soft NIC's QP reports up and down with the worker lock held, from any
 * thread; the application hears of it through events queued on its PE
 * (connection_request, established, failure, disconnection callbacks), in
 * order with the task completions. A slot goes back to FREE only when none
 * of its events is queued, behind RDMA_CONN_QUARANTINE other free slots, with
 * its generation bumped: a stale id is refused, and so is a stale handle
 * until that many connections came after it.
 *
 * Connections that fail alone: when the context has connection callbacks or
 * more than one connection, a connection that goes down flushes its own
 * tasks and the context stays RUNNING. A DOCA 2.5 context, or a 3.x one
 * with one connection and no callbacks, goes to STOPPING as on hardware.
 */
enum rdma_conn_state {
	RDMA_CONN_FREE,
	RDMA_CONN_REQUESTED,
	RDMA_CONN_CONNECTING,
	RDMA_CONN_ESTABLISHED,
	RDMA_CONN_CLOSED,
	RDMA_CONN_FAILED,
};

#define RDMA_CONN_QUARANTINE 64
#define RDMA_PRIVATE_DATA_MAX 255 /* DOCA's private data length is a uint8_t */

/* An RDMA-CM style address (rdma_cm.c). */
struct doca_rdma_addr {
	enum doca_rdma_addr_type type;
	char text[64]; /* the address as doca_rdma_addr_get_params gives it */
	uint16_t port;
	_Alignas(8) unsigned char sockaddr[128]; /* a struct sockaddr_storage */
	size_t sockaddr_len;
};

enum rdma_conn_event_kind {
	RDMA_EVENT_REQUEST,
	RDMA_EVENT_UP,
	RDMA_EVENT_DOWN,
	RDMA_EVENT_KINDS,
};

struct rdma_conn_event {
	struct sdoca_event base;
	struct doca_rdma_connection *conn;
	enum rdma_conn_event_kind kind;
};

struct rdma_listener;
struct rdma_dpa;
struct sdoca_cq_sink;

struct doca_rdma_connection {
	struct doca_rdma *rdma;
	uint16_t index; /* in the context's table */
	uint16_t generation;
	/* Not FREE: read without the lock by the checks of handles from outside. */
	_Atomic bool in_use;
	/* The fields below change with the worker lock held. */
	enum rdma_conn_state state;
	bool via_cm;                    /* made through a listener (either side) */
	bool local_close;               /* this side disconnected */
	bool reported_up;               /* the application heard it is established */
	bool finished;                  /* back to FREE once no event is queued */
	bool connected;                 /* doca_rdma_connect() connected it (out of band) */
	uint8_t queued;                 /* its events queued and not yet run */
	struct nic_cm_request *request; /* REQUESTED: the client's request */
	struct rdma_listener *listener; /* ... which came to this listener */
	union doca_data user_data;
	struct nic_qp *qp; /* set and cleared by the application's thread */
	uint8_t *blob;
	size_t blob_len;
	struct doca_rdma_addr peer;                  /* via_cm: the other side's address */
	uint8_t private_data[RDMA_PRIVATE_DATA_MAX]; /* the peer's, if it gave any */
	uint8_t private_len;
	struct rdma_conn_event events[RDMA_EVENT_KINDS];
	struct softdoca_rdma_counters final_counters; /* kept when the QP goes */
};

typedef void (*rdma_conn_cb)(struct doca_rdma_connection *conn, union doca_data conn_data,
                             union doca_data ctx_data);

struct doca_rdma {
	struct doca_ctx ctx;
	/* properties (set while IDLE) */
	uint32_t permissions;
	uint32_t send_queue_size;
	uint32_t recv_queue_size;
	uint32_t max_send_buf_list_len;
	uint32_t recv_buf_list_len;
	enum doca_rdma_transport_type transport_type;
	enum doca_mtu_size mtu;
	uint8_t grh_enabled;
	uint32_t gid_index;
	uint32_t sl;
	uint16_t connection_request_timeout;
	uint16_t max_num_connections;
	uint8_t rnr_retry_count;
	uint32_t timeout_ms;
	struct sdoca_task_pool pools[RDMA_TASK_KINDS];
	struct sdoca_task_pool job_pool; /* DOCA 2.2 jobs of every kind (api_v202.c) */
	/* Task batches (task_batch.c), one pool per operation; the type's
	 * object size follows the configured maximum of tasks per batch. */
	struct rdma_batch_pool {
		struct sdoca_task_pool pool;
		struct sdoca_task_type type;
		uint16_t max_tasks;
	} batches[SOFTDOCA_RDMA_BATCH_OPS];
	/* The connection callbacks (DOCA 3.x types, spelt out: the DOCA 2.2
	 * and 2.5 generations of doca_rdma.h do not declare them). */
	void (*request_cb)(struct doca_rdma_connection *conn, union doca_data ctx_data);
	rdma_conn_cb established_cb;
	rdma_conn_cb failure_cb;
	rdma_conn_cb disconnect_cb;
	/* while started */
	struct nic_worker *worker;
	struct nic_srq srq;
	bool isolated;                      /* a connection that goes down fails alone (above) */
	struct doca_rdma_connection *conns; /* the table: max + quarantine slots */
	uint32_t num_slots;
	uint16_t *free_slots; /* a ring, oldest freed first */
	uint32_t free_head;
	uint32_t num_free;
	uint32_t live;                         /* slots not FREE */
	struct doca_rdma_connection *implicit; /* the first exported (DOCA 2.5) */
	struct rdma_listener *listeners;
	/* the DPA data path (rdma_dpa.c) */
	struct sdoca_cq_sink *dpa_sink; /* doca_rdma_dpa_completion_attach */
	struct rdma_dpa *dpa_path;      /* while started on the DPA data path */
	uint64_t dpa_handle;            /* doca_rdma_get_dpa_handle's, 0 = none */
};

/* What the application gives a task: *_allocate_init and the setters. */
struct rdma_task_args {
	struct doca_rdma_connection *conn;
	const struct doca_buf *src; /* send/write: local source; read: remote source */
	struct doca_buf *dst;       /* write/atomics: remote; read/receive: local */
	struct doca_buf *result;    /* atomics, sync-event add: where the value before lands */
	union { /* the remote sync-event tasks' event (set and add hand it back non-const) */
		const struct doca_sync_event_remote_net *event;
		struct doca_sync_event_remote_net *mutable_event;
	};
	doca_be32_t imm;
	uint64_t operand1; /* compare, or the value to add */
	uint64_t operand2; /* swap */
};

struct rdma_task_type;

struct rdma_task {
	struct doca_task base;
	struct nic_wqe wqe;
	const struct rdma_task_type *type; /* its row in the table (tasks.c) */
	struct rdma_task_args args;
	/* results */
	uint32_t result_len;
	enum doca_rdma_opcode result_opcode;
	doca_be32_t result_imm;
	struct doca_rdma_connection *result_conn;
};

/* The public task types are the common task under their own name. */
#define RDMA_PUBLIC_TASK(name)         \
	struct doca_rdma_task_##name { \
		struct rdma_task t;    \
	}
RDMA_PUBLIC_TASK(receive);
RDMA_PUBLIC_TASK(send);
RDMA_PUBLIC_TASK(send_imm);
RDMA_PUBLIC_TASK(read);
RDMA_PUBLIC_TASK(write);
RDMA_PUBLIC_TASK(write_imm);
RDMA_PUBLIC_TASK(atomic_cmp_swp);
RDMA_PUBLIC_TASK(atomic_fetch_add);
RDMA_PUBLIC_TASK(remote_net_sync_event_get);
RDMA_PUBLIC_TASK(remote_net_sync_event_notify_set);
RDMA_PUBLIC_TASK(remote_net_sync_event_notify_add);

/*
 * The public functions every task type has, one macro call each that names
 * the function in full (so a search finds it; tests/headers/
 * check_compatibility.py reads such a call as the definition), e.g.
 *
 *   RDMA_TASK_SET_CONF(doca_rdma_task_write_set_conf, write, RDMA_TASK_WRITE)
 *   RDMA_TASK_AS_TASK(doca_rdma_task_write_as_task, write)
 *   RDMA_TASK_SETTER(doca_rdma_task_write_set_dst_buf, write, struct doca_buf *, args.dst)
 *   RDMA_TASK_GETTER(doca_rdma_task_write_get_dst_buf, write, struct doca_buf *, args.dst)
 *
 * name is the type's part of the public names; a field is a member path in
 * struct rdma_task. Setters and getters trust the task, as DOCA's do.
 */
#define RDMA_TASK_SET_CONF(fn, name, kind)                                          \
	DOCA_EXPERIMENTAL doca_error_t fn(                                          \
	        struct doca_rdma *rdma, doca_rdma_task_##name##_completion_cb_t ok, \
	        doca_rdma_task_##name##_completion_cb_t err, uint32_t num_tasks)    \
	{                                                                           \
		return rdma_task_set_conf(rdma, kind, (sdoca_generic_cb_t)ok,       \
		                          (sdoca_generic_cb_t)err, num_tasks);      \
	}
#define RDMA_TASK_AS_TASK(fn, name)                                                \
	DOCA_EXPERIMENTAL struct doca_task *fn(struct doca_rdma_task_##name *task) \
	{                                                                          \
		return task ? &task->t.base : NULL;                                \
	}
#define RDMA_TASK_SETTER(fn, name, type, field)                                   \
	DOCA_EXPERIMENTAL void fn(struct doca_rdma_task_##name *task, type value) \
	{                                                                         \
		task->t.field = value;                                            \
	}
#define RDMA_TASK_GETTER(fn, name, type, field)                             \
	DOCA_EXPERIMENTAL type fn(const struct doca_rdma_task_##name *task) \
	{                                                                   \
		return task->t.field;                                       \
	}

/* Every softdoca device has every CPU data-path task. */
#define RDMA_CAP_SUPPORTED(fn)                                                \
	DOCA_EXPERIMENTAL doca_error_t fn(const struct doca_devinfo *devinfo) \
	{                                                                     \
		if (!sdoca_arg_valid(devinfo))                                \
			return DOCA_ERROR_INVALID_VALUE;                      \
		return DOCA_SUCCESS;                                          \
	}

/* What a public *_allocate_init returns: a task of the kind with the given
 * arguments (designated initializers of struct rdma_task_args), stored in
 * *task (a struct doca_rdma_task_<kind> *). The argument is checked here,
 * so that the log names the public function. */
#define RDMA_TASK_ALLOCATE(kind, rdma, user_data, task, ...)                                 \
	(sdoca_arg_valid(task)                                                               \
	         ? rdma_task_allocate((rdma), (kind), (user_data),                           \
	                              &(const struct rdma_task_args){ __VA_ARGS__ }, (task)) \
	         : DOCA_ERROR_INVALID_VALUE)

static inline struct doca_rdma *rdma_of(struct doca_ctx *ctx)
{
	return sdoca_container_of(ctx, struct doca_rdma, ctx);
}

/* DOCA 2.5 names of the result-length getters (doca_rdma.h declares them for
 * SOFTDOCA_API_VERSION=205 programs only). */
uint32_t doca_rdma_task_receive_get_result_length(const struct doca_rdma_task_receive *task);
uint32_t doca_rdma_task_read_get_result_length(const struct doca_rdma_task_read *task);
uint32_t doca_rdma_task_remote_net_sync_event_get_get_result_length(
        const struct doca_rdma_task_remote_net_sync_event_get *task);

/* DOCA 2.2's doca_rdma_create (doca_rdma.h binds it for 202 programs). */
DOCA_EXPERIMENTAL doca_error_t softdoca_v202_doca_rdma_create(struct doca_rdma **rdma);

/* tasks.c: the one path (task_api.c has each type's public functions) */
doca_error_t rdma_task_set_conf(struct doca_rdma *rdma, enum rdma_task_kind kind,
                                sdoca_generic_cb_t ok, sdoca_generic_cb_t err, uint32_t num_tasks);
doca_error_t rdma_task_alloc(struct doca_rdma *rdma, enum rdma_task_kind kind,
                             union doca_data user_data, const struct rdma_task_args *args,
                             struct rdma_task **task);
/* rdma_task_alloc into task_out, a public task type's pointer (every struct
 * pointer has the same representation, C11 6.2.5: copied, not aliased). */
static inline doca_error_t rdma_task_allocate(struct doca_rdma *rdma, enum rdma_task_kind kind,
                                              union doca_data user_data,
                                              const struct rdma_task_args *args, void *task_out)
{
	struct rdma_task *t;
	doca_error_t status = rdma_task_alloc(rdma, kind, user_data, args, &t);

	if (status == DOCA_SUCCESS)
		memcpy(task_out, &t, sizeof(t));
	return status;
}

/* A task that is not the application's (a batch's entry): its row, its
 * checks and work request with `done` to call when the soft NIC finishes it
 * (nothing posted yet); then posting it, and filling in its results from
 * `done`. */
doca_error_t rdma_task_prepare(struct rdma_task *t, enum rdma_task_kind kind,
                               void (*done)(struct nic_wqe *wqe, doca_error_t status));
doca_error_t rdma_task_post(struct rdma_task *t);
void rdma_task_results(struct rdma_task *t, const struct nic_wqe *wqe, doca_error_t status);

/* DOCA 2.2 jobs: tasks of every kind from rdma->job_pool, sized at
 * doca_ctx_workq_add(); their completion goes to the work queue. */
doca_error_t rdma_jobs_setup(struct doca_rdma *rdma, uint32_t depth);
/* A job's task of `kind` (its args to set), NULL when all are in use. */
struct rdma_task *rdma_job_take(struct doca_rdma *rdma, enum rdma_task_kind kind,
                                union doca_data user_data);
/* Submits it as doca_task_submit() would; back to the pool if refused. */
doca_error_t rdma_job_post(struct rdma_task *t);
enum rdma_task_kind rdma_task_kind_of(const struct rdma_task *t);
/* api_v202.c: the job operations doca_workq calls */
extern const struct sdoca_job_ops rdma_job_ops;

/* connection.c */
doca_error_t rdma_connections_start(struct doca_rdma *rdma);
doca_error_t rdma_export(struct doca_rdma *rdma, const void **blob, size_t *len,
                         struct doca_rdma_connection **conn);
doca_error_t rdma_conn_connect(struct doca_rdma *rdma, const void *blob, size_t len,
                               struct doca_rdma_connection *conn);
/* Opens a connection blob from outside (envelope and body) and points at the
 * QP connection info inside, which nic_qp_connect() checks. */
doca_error_t rdma_conn_blob_check(const void *blob, size_t len, const uint8_t **info,
                                  size_t *info_len);
/* A connection that never got going goes back (lock not held). */
void rdma_conn_abandon(struct doca_rdma_connection *conn);
/* Checks a handle from outside for function fn: a live connection. */
doca_error_t rdma_conn_check(const struct doca_rdma_connection *conn, const char *fn);
/* The connection a DOCA 2.5 program means (it has exactly one). */
struct doca_rdma_connection *rdma_implicit_connection(struct doca_rdma *rdma);
/* Whether conn is a live connection of rdma (a handle from outside). */
bool rdma_conn_valid(const struct doca_rdma *rdma, const struct doca_rdma_connection *conn);
/* A free slot as a new connection in state (lock held); NULL when all
 * max_num_connections are used. */
struct doca_rdma_connection *rdma_conn_alloc(struct doca_rdma *rdma, enum rdma_conn_state state);
/* The connection ended (lock held): FREE once its events ran. */
void rdma_conn_finish(struct doca_rdma_connection *conn);
/* A QP for the connection (lock not held). */
doca_error_t rdma_conn_create_qp(struct doca_rdma_connection *conn);
/* Queues one of the connection's events (lock held). */
void rdma_conn_push(struct doca_rdma_connection *conn, enum rdma_conn_event_kind kind);
void rdma_connections_stop(struct doca_rdma *rdma);
void rdma_connections_free(struct doca_rdma *rdma);

/* rdma_cm.c */
void rdma_listeners_close(struct doca_rdma *rdma);

#endif /* SDOCA_RDMA_RDMA_H_ */
