/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * softdoca's own extensions: things real DOCA hardware does not offer but a
 * software implementation can (introspection, counters, fault injection).
 * Programs that want to stay portable to real DOCA guard their use with
 * #ifdef SOFTDOCA.
 */
#ifndef SOFTDOCA_H_
#define SOFTDOCA_H_

#include <stdint.h>

#include "doca_compat.h"
#include "doca_error.h"
#include "doca_pe.h"
#include "doca_types.h"
#include "doca_version.h"

/* Defined when the DOCA headers in use are softdoca's. */
#define SOFTDOCA 1

SOFTDOCA_BEGIN_DECLS

/* softdoca's release, e.g. "0.1.0" (doca_version_runtime() gives the DOCA API level). */
DOCA_STABLE const char *softdoca_version(void);

/* Memory keys registered in this process: one per started local mmap and per
 * started sync event. A key disappears when its mmap or event is stopped or
 * destroyed (useful in leak checks). */
DOCA_STABLE uint32_t softdoca_num_memory_keys(void);

struct doca_devinfo;
struct doca_rdma_connection;
struct doca_dev;

/* The most connections one RDMA context on this device can hold: the largest
 * value doca_rdma_set_max_num_connections() accepts (1024 on every softdoca
 * device). DOCA has no capability query for it. */
DOCA_STABLE doca_error_t softdoca_rdma_cap_get_max_num_connections(
        const struct doca_devinfo *devinfo, uint32_t *max_num_connections);

/* The operation types counters split by, in the order of the wire's opcodes
 * (docs/wire.md): index = opcode - 1. */
enum softdoca_op_type {
	SOFTDOCA_OP_WRITE,
	SOFTDOCA_OP_WRITE_IMM,
	SOFTDOCA_OP_SEND,
	SOFTDOCA_OP_SEND_IMM,
	SOFTDOCA_OP_READ,
	SOFTDOCA_OP_ATOMIC_FA,
	SOFTDOCA_OP_ATOMIC_CS,
	SOFTDOCA_OP_SYNC_EVENT_GET, /* doca_rdma_task_remote_net_sync_event_get */
	SOFTDOCA_OP_SYNC_EVENT_SET, /* ..._notify_set */
	SOFTDOCA_OP_SYNC_EVENT_ADD, /* ..._notify_add */
	SOFTDOCA_NUM_OP_TYPES
};

/* NAK syndromes, as on the wire (docs/wire.md); counters index by them (0 unused). */
enum softdoca_syndrome {
	SOFTDOCA_SYN_REMOTE_ACCESS = 1,      /* key, range, permission or alignment */
	SOFTDOCA_SYN_REMOTE_INVALID = 2,     /* misaligned atomic, longer than the receive */
	SOFTDOCA_SYN_RNR_RETRY_EXCEEDED = 3, /* no receive within the RNR retries */
	SOFTDOCA_SYN_REMOTE_OPERATIONAL = 4, /* the responder could not execute it */
	SOFTDOCA_NUM_SYNDROMES = 5
};

/* What one RDMA connection (or every connection of a device) did, as seen
 * from this side. The totals are the sums of the arrays after them. */
struct softdoca_rdma_counters {
	uint64_t requests_posted;    /* sends, writes, reads, atomics submitted */
	uint64_t requests_completed; /* ... and completed, with success or error */
	uint64_t bytes_sent;         /* payload of sends and writes */
	uint64_t bytes_read;         /* payload of read responses received */
	uint64_t requests_served;    /* the peer's requests executed here */
	uint64_t bytes_placed;       /* payload the peer wrote or sent here */
	uint64_t rnr_waits;          /* the peer's requests that waited for a receive */
	uint64_t rnr_notices;        /* this side's requests the peer made wait */
	uint64_t naks_sent;          /* the peer's requests refused here */
	uint64_t naks_received;      /* this side's requests the peer refused */
	uint64_t timeouts;           /* requests failed for want of an answer */
	/* By operation type: this side's requests and their bytes (payload, or
	 * bytes a read asks for; 8 for atomics), and the peer's requests served
	 * here and their bytes (placed, or read from here). */
	uint64_t posted[SOFTDOCA_NUM_OP_TYPES];
	uint64_t posted_bytes[SOFTDOCA_NUM_OP_TYPES];
	uint64_t served[SOFTDOCA_NUM_OP_TYPES];
	uint64_t served_bytes[SOFTDOCA_NUM_OP_TYPES];
	/* NAKs by syndrome (enum softdoca_syndrome) */
	uint64_t naks_sent_by_syndrome[SOFTDOCA_NUM_SYNDROMES];
	uint64_t naks_received_by_syndrome[SOFTDOCA_NUM_SYNDROMES];
	uint64_t requests_failed;   /* this side's requests completed with an error */
	uint64_t strangers_dropped; /* messages from anyone but the peer, dropped unread */
	uint64_t faults_injected;   /* faults injected on this connection (SOFTDOCA_FAULTS) */
	/* A level, not a count: receive tasks the connection's context has
	 * posted that no message took yet (its receive queue, which the
	 * context's connections share); read with a connection's counters,
	 * 0 in a device's. */
	uint64_t receive_queue_depth;
};

/* Injects faults in this process from now on, as a specification in the
 * syntax of SOFTDOCA_FAULTS (README.md, "Fault injection"), replacing what
 * was set before (the environment's too); NULL or "" injects none. Faults of
 * connections apply to connections exported afterwards. INVALID_VALUE, with
 * a log line saying what is wrong, and nothing changes, for a specification
 * that does not parse. */
DOCA_STABLE doca_error_t softdoca_faults_set(const char *spec);

/* Faults injected in this process so far (each is also logged at INFO). */
DOCA_STABLE uint64_t softdoca_faults_injected(void);

/* Writes every message this process's soft NIC sends or receives from now
 * on to the pcapng file `path` ("%p" in it becomes the process id), as the
 * RoCEv2 packet a NIC would send, which Wireshark and tshark decode
 * (README.md, "Traffic capture"); payloads are cut after `snaplen` bytes
 * (at most 65000). SOFTDOCA_CAPTURE and SOFTDOCA_CAPTURE_SNAPLEN start the
 * same at the first doca_rdma_create (or DPA start). A capture running is
 * replaced. INVALID_VALUE for
 * no path or a longer snap length, IO_FAILED if the file cannot be written,
 * each with a log line. */
DOCA_STABLE doca_error_t softdoca_capture_start(const char *path, uint32_t snaplen);

/* Ends the capture (if one runs) and closes its file. */
DOCA_STABLE doca_error_t softdoca_capture_stop(void);

/* Reads the counters of a connection (any thread), from its export or
 * request until its context is IDLE, or until the callback that reported its
 * end returned (softdoca_dev_get_counters keeps its counts). */
DOCA_STABLE doca_error_t
softdoca_rdma_connection_get_counters(const struct doca_rdma_connection *rdma_connection,
                                      struct softdoca_rdma_counters *counters);

/* The private data the peer gave when the connection was set up through a
 * listener: the server's doca_rdma_connection_accept() data, on the client
 * (DOCA has no call to read it). NULL and 0 if it gave none. */
DOCA_STABLE doca_error_t
softdoca_rdma_connection_get_private_data(const struct doca_rdma_connection *rdma_connection,
                                          const void **private_data, uint8_t *private_data_len);

/* Reads the counters of every connection this process had on a device, past
 * and present, with the messages for no connection of the device that were
 * dropped as strangers' (any thread). */
DOCA_STABLE doca_error_t softdoca_dev_get_counters(const struct doca_dev *dev,
                                                   struct softdoca_rdma_counters *counters);

/* The state of a connection's queue pair, as another process's counters
 * report it. */
enum softdoca_qp_state {
	SOFTDOCA_QP_INIT,   /* exported or connecting: the peer not heard from yet */
	SOFTDOCA_QP_RTS,    /* connected */
	SOFTDOCA_QP_CLOSED, /* the peer disconnected */
	SOFTDOCA_QP_ERROR,  /* failed */
};

/* A device of another process, with the counters of every connection that
 * process had on it (softdoca_dev_get_counters there). */
struct softdoca_device_counters {
	char ibdev_name[64];
	struct softdoca_rdma_counters counters;
};

/* A live connection of another process. */
struct softdoca_connection_counters {
	uint32_t device;         /* its index in softdoca_process_counters.devices */
	uint32_t connection_id;  /* doca_rdma_connection_get_id() in that process */
	uint32_t qp_number;      /* the QP's number on its worker (docs/wire.md) */
	uint32_t peer_qp_number; /* the peer's, once known (else 0) */
	uint32_t peer_pid;       /* the peer's process, once known (else 0) */
	enum softdoca_qp_state state;
	struct softdoca_rdma_counters counters;
};

/* A DPA context (doca_dpa) of another process, from its doca_dpa_create to
 * its doca_dpa_destroy, once any DPA of that process has been started. */
struct softdoca_dpa_counters {
	char app_name[64];       /* its program's name (dpacc --app-name) */
	char ibdev_name[64];     /* the device it was created on */
	doca_error_t last_error; /* doca_dpa_peek_at_last_error() there */
	uint32_t num_threads;    /* its doca_dpa_thread objects */
	uint64_t mem_bytes;      /* doca_dpa_mem_alloc() memory in use */
	uint32_t mem_blocks;     /* ... in that many blocks */
	uint32_t num_eus;        /* doca_dpa_get_total_num_eus_available() */
	uint8_t started;         /* 1 between doca_dpa_start and doca_dpa_stop */
	/* Its completion contexts bound to no thread (kernels poll them), and
	 * their depth summed as a thread's below. */
	uint32_t polled_completions;
	uint64_t polled_cq_populated;
	uint64_t polled_cq_unread;
	uint64_t polled_cq_held;
};

/* Where a DPA thread is (docs/dpa.md 2.6). */
enum softdoca_dpa_thread_state {
	SOFTDOCA_DPA_THREAD_CREATED,  /* not started, or stopped */
	SOFTDOCA_DPA_THREAD_STARTED,  /* started; activations wait for doca_dpa_thread_run */
	SOFTDOCA_DPA_THREAD_RUNNABLE, /* waiting for an activation (notify, a completion) */
	SOFTDOCA_DPA_THREAD_RUNNING,  /* its kernel runs now */
	SOFTDOCA_DPA_THREAD_FINISHED, /* the kernel called doca_dpa_dev_thread_finish */
	SOFTDOCA_DPA_THREAD_DETACHED, /* stopped while its kernel never left: leaked */
};

#define SOFTDOCA_DPA_NO_EU UINT32_MAX /* a thread without an EU affinity */
#define SOFTDOCA_DPA_NEVER UINT64_MAX /* a thread never activated */

/* A DPA thread of another process, and its completion contexts' depth. */
struct softdoca_dpa_thread_counters {
	uint32_t dpa;    /* its index in softdoca_process_counters.dpas */
	uint32_t id;     /* doca_dpa_thread_get_id() */
	char kernel[64]; /* its kernel's name ("" before doca_dpa_thread_set_func_arg) */
	enum softdoca_dpa_thread_state state;
	uint8_t trigger_pending;      /* 1: an activation is due (a notify not consumed yet) */
	uint32_t rank;                /* doca_dpa_dev_thread_rank() in its activations */
	uint32_t num_ranks;           /* doca_dpa_dev_num_threads(): its group's size, 1 alone,
	                               * 0 before its first start */
	uint32_t eu;                  /* its EU affinity's EU, or SOFTDOCA_DPA_NO_EU */
	uint64_t activations;         /* activations begun */
	uint64_t ns_since_activation; /* since the last one began, or SOFTDOCA_DPA_NEVER */
	uint32_t completions;         /* completion contexts bound to it */
	/* Summed over them: completions in their rings not acknowledged yet,
	 * those of them not read yet (doca_dpa_dev_get_completion), and those
	 * arrived but held back (the context not armed, or its ring full). */
	uint64_t cq_populated;
	uint64_t cq_unread;
	uint64_t cq_held;
};

/* Another process's counters at one moment. */
struct softdoca_process_counters {
	uint32_t pid;
	char softdoca_version[32]; /* that process's softdoca_version() */
	uint64_t faults_injected;  /* its softdoca_faults_injected() */
	uint32_t num_devices;
	struct softdoca_device_counters *devices;
	uint32_t num_connections;
	struct softdoca_connection_counters *connections;
	/* Its DPA contexts and their threads: none from a process without a
	 * started DPA context, or whose softdoca predates them. */
	uint32_t num_dpas;
	struct softdoca_dpa_counters *dpas;
	uint32_t num_dpa_threads;
	struct softdoca_dpa_thread_counters *dpa_threads;
};

/* Reads the counters of the softdoca process pid (on this host, in this
 * mount and PID namespace, of this user or read by root) while it has an
 * RDMA context or a DPA context started, through the read-only channel its
 * soft NIC's service thread answers on (docs/design.md, "Reading another
 * process's counters"; SOFTDOCA_STATS=0 there turns it off). NOT_FOUND: no such process, or one
 * without the channel; NOT_PERMITTED: another user's; AGAIN: the channel
 * stayed busy with other readers for 3 s; TIME_OUT: no answer in 2 s;
 * CONNECTION_RESET: it closed without answering (stopping);
 * INVALID_VALUE or NOT_SUPPORTED: an answer malformed or of another
 * format version. Each failure also logs why. Free the result with
 * softdoca_process_counters_destroy(). */
DOCA_STABLE doca_error_t softdoca_process_counters_get(uint32_t pid,
                                                       struct softdoca_process_counters **counters);
DOCA_STABLE void softdoca_process_counters_destroy(struct softdoca_process_counters *counters);

struct doca_buf_arr;

/* Element `index` of a started buffer array (doca_buf_array.h) on the CPU:
 * its address and, when len is not NULL, its size - what a DPA or GPU
 * kernel gets by index on hardware. BAD_STATE before doca_buf_arr_start,
 * INVALID_VALUE for an index past the end. */
DOCA_STABLE doca_error_t softdoca_buf_arr_get_elem(const struct doca_buf_arr *buf_arr,
                                                   uint64_t index, void **addr, size_t *len);

/*
 * RDMA task batches. DOCA's task batches (doca_task_batch_* in doca_pe.h)
 * come from a library's allocator, and DOCA has one only for its Ethernet
 * send queue; softdoca gives RDMA contexts one of the same shape for sends,
 * writes and reads on one connection. A batch is configured before the
 * context starts, allocated while it runs, filled through the arrays the
 * allocation returns (entry i: source, destination, user data), submitted
 * with doca_task_batch_submit() and freed with doca_task_batch_free(). Its
 * tasks are posted in order, as that many tasks would be; the batch
 * completes once all of them did: the success callback when every one
 * succeeded, else the error callback, with each task's status
 * (doca_task_batch_get_status() is the first failure).
 */
struct doca_rdma;
struct doca_buf;
struct doca_task_batch;

enum softdoca_rdma_batch_op {
	SOFTDOCA_RDMA_BATCH_SEND,  /* src: local source; no dst */
	SOFTDOCA_RDMA_BATCH_WRITE, /* src: local source; dst: remote destination */
	SOFTDOCA_RDMA_BATCH_READ,  /* src: remote source; dst: local destination */
	SOFTDOCA_RDMA_BATCH_OPS
};

typedef void (*softdoca_rdma_task_batch_completion_cb_t)(
        struct doca_task_batch *task_batch, uint16_t tasks_num, union doca_data ctx_user_data,
        union doca_data task_batch_user_data, union doca_data *task_user_data_array,
        struct doca_buf **src_array, struct doca_buf **dst_array, doca_error_t *status_array);

/* num_task_batches batches of up to max_tasks_number tasks of one
 * operation; the context must be IDLE, as for a task type's *_set_conf. */
DOCA_EXPERIMENTAL doca_error_t softdoca_rdma_task_batch_set_conf(
        struct doca_rdma *rdma, enum softdoca_rdma_batch_op op,
        enum doca_task_batch_max_tasks_number max_tasks_number, uint16_t num_task_batches,
        softdoca_rdma_task_batch_completion_cb_t success_cb,
        softdoca_rdma_task_batch_completion_cb_t error_cb);

/* A batch of tasks_num tasks on conn (RUNNING; NO_MEMORY when every batch
 * is in use). *dst_array is NULL for sends (dst_array may be NULL then). */
DOCA_EXPERIMENTAL doca_error_t softdoca_rdma_task_batch_allocate(
        struct doca_rdma *rdma, enum softdoca_rdma_batch_op op, struct doca_rdma_connection *conn,
        uint16_t tasks_num, union doca_data task_batch_user_data, struct doca_buf ***src_array,
        struct doca_buf ***dst_array, union doca_data **task_user_data_array,
        struct doca_task_batch **task_batch);

SOFTDOCA_END_DECLS

#endif /* SOFTDOCA_H_ */
