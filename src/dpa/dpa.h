/*
 * libdoca_dpa internals: the DPA context and the running execution.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libdoca_dpa internals: the DPA context, its allocations, and the state of
 * the kernel or RPC the calling thread runs (docs/dpa.md, part 2).
 */
#ifndef SDOCA_DPA_DPA_H_
#define SDOCA_DPA_DPA_H_

#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_dpa.h>
#include <softdoca_dpa_app.h>

#include "core/clock.h"

/* How long a stop or destroy waits for a kernel (thread or launch) that does
 * not leave before it detaches it (2.12). */
#define SDOCA_DPA_JOIN_TIMEOUT_S 2

/* FlexIO's constants: 16 cores of 16 EUs, 2 kept by the DPA's OS. */
#define SDOCA_DPA_CORES 16u
#define SDOCA_DPA_EUS_PER_CORE 16u
#define SDOCA_DPA_EUS_RESERVED 2u
#define SDOCA_DPA_MAX_RUN_S 5ull
#define SDOCA_DPA_MEM_ALIGN 64u

/* One doca_dpa_mem_alloc block: device memory is host memory. */
struct sdoca_dpa_alloc {
	uintptr_t addr;
	size_t size;
};

struct doca_dpa {
	struct doca_dev *dev;
	bool started;
	doca_dpa_dev_t handle;
	const struct softdoca_dpa_app_image *app;
	_Atomic int log_level;     /* doca_dpa_dev_log_level_t */
	char log_path[PATH_MAX];   /* "" = stdout */
	char trace_path[PATH_MAX]; /* "" = stdout */
	int log_fd;                /* -1 = stdout */
	int trace_fd;              /* -1 = stdout */
	_Atomic int last_error;    /* first device-side error, doca_error_t */
	unsigned int total_eus;
	unsigned long long max_run_s;
	_Atomic unsigned int affinities; /* live doca_dpa_eu_affinity objects */
	_Atomic unsigned int threads;    /* live doca_dpa_thread objects */
	_Atomic uint32_t next_thread_id;
	/* launch.c: made at the first launch (two first launches race for it) */
	struct sdoca_dpa_launcher *_Atomic launcher;
	_Atomic unsigned int leaked_threads; /* detached: their kernels never left */
	pthread_mutex_t mem_lock;
	struct sdoca_dpa_alloc *allocs; /* sorted by addr */
	size_t num_allocs;
	size_t cap_allocs;
};

struct doca_dpa_thread;
struct sdoca_dpa_launcher;

/* What the calling thread runs: set around every kernel and RPC. */
struct sdoca_dpa_exec {
	struct doca_dpa *dpa;           /* whose kernel */
	struct doca_dpa_thread *thread; /* NULL in an RPC or a launch */
	uint32_t thread_id;             /* 0 in an RPC or a launch */
	uint32_t launch_id;             /* 1, 2, ... per DPA in a launch; else 0 */
	struct doca_dpa *selected;      /* doca_dpa_dev_device_set */
	const struct softdoca_dpa_kernel *kernel;
	unsigned int rank;
	unsigned int num_threads;
	uint64_t deadline_ns; /* CLOCK_MONOTONIC; 0 = none (DPA threads) */
	/* a launch: cancelled (doca_dpa_stop) once *stop_epoch moves past epoch */
	const _Atomic uint32_t *stop_epoch;
	uint32_t epoch;
	sigjmp_buf entry; /* where a call that never returns goes */
	doca_error_t abort_error;
};

/* Read by every device call (its cancellation point): initial-exec, so a
 * read in the shared library is one load, not a __tls_get_addr call (3-5%
 * of a DPA thread's samples in the ping-pong). One pointer: it fits the
 * static TLS glibc keeps for libraries loaded with dlopen. */
extern _Thread_local struct sdoca_dpa_exec *sdoca_dpa_exec
        __attribute__((tls_model("initial-exec")));

/* Where a stop or the run-time limit ends the calling kernel (2.12), called
 * at the entry of device calls and between the sleeps of waits (never with
 * a lock held): a DPA thread being stopped leaves its activation; a launch
 * being stopped, or a launch or RPC past its deadline, is cancelled (the
 * latter logged, TIME_OUT as the DPA's last error). Otherwise returns. */
void sdoca_dpa_cancel_point(const char *caller);
/* A device call found nothing to act on that could report its failure (a
 * post with no queue to complete on, docs/dpa.md 2.12): the calling
 * execution stops (never returns): a DPA thread goes to the error state
 * (activated no more; stop and destroy still work), a launch instance or
 * an RPC ends with err (doca_dpa_rpc returns it). The caller logged the
 * call and recorded err as the DPA's last error. Outside any kernel it
 * returns. */
void sdoca_dpa_exec_fail(const char *caller, doca_error_t err);
/* The execution's deadline for a kernel starting now (max run time). */
/* A bad device call: logged naming the kernel and where it runs (or "outside
 * a DPA kernel"), and the DPA's last error (2.12). Returns. */
void sdoca_dpa_bad_call(const char *caller, doca_error_t err, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
uint64_t sdoca_dpa_deadline(const struct doca_dpa *dpa);
/* "thread 3", "launch 2, rank 1" or "RPC", for log lines. */
const char *sdoca_dpa_exec_where(const struct sdoca_dpa_exec *exec, char *buf, size_t len);

/* Kernel launches (launch.c). Stop cancels queued and running launches and
 * waits up to 2 s for them to leave; false when some did not (they still
 * use the DPA, which must then not be freed). */
bool sdoca_dpa_launch_stop(struct doca_dpa *dpa, const char *caller);
/* Frees the launcher (destroy); false when launches still run (leaked). */
bool sdoca_dpa_launch_fini(struct doca_dpa *dpa);

/* Records a device-side error: the first one stays (peek_at_last_error). */
void sdoca_dpa_set_error(struct doca_dpa *dpa, doca_error_t err);

/* The live DPA a handle names, or NULL. */
struct doca_dpa *sdoca_dpa_from_handle(doca_dpa_dev_t handle);

/* The kernel of the DPA's program whose function is func, of the kind, or
 * NULL (logged). */
const struct softdoca_dpa_kernel *sdoca_dpa_find_kernel(const struct doca_dpa *dpa,
                                                        doca_dpa_func_t *func, uint32_t kind,
                                                        const char *caller);

/* Allocation table (mem.c). */
doca_error_t sdoca_dpa_mem_check(struct doca_dpa *dpa, uintptr_t addr, size_t size,
                                 const char *caller);
void sdoca_dpa_mem_release_all(struct doca_dpa *dpa);

/* How an activation of a DPA thread ended (thread.c). */
enum sdoca_dpa_leave {
	SDOCA_DPA_LEAVE_RETURN,     /* the kernel returned: counts as a reschedule */
	SDOCA_DPA_LEAVE_RESCHEDULE, /* doca_dpa_dev_thread_reschedule */
	SDOCA_DPA_LEAVE_FINISH,     /* doca_dpa_dev_thread_finish */
	SDOCA_DPA_LEAVE_ERROR,      /* a device call it cannot go on from (exec fail) */
};

/* Ends the calling thread's activation (never returns). */
void sdoca_dpa_thread_leave(struct doca_dpa_thread *t, enum sdoca_dpa_leave how)
        __attribute__((noreturn));
/* Where a kernel's device calls let a stop end its activation (2.12): leaves
 * as a reschedule when the thread is being stopped, else returns. */
void sdoca_dpa_thread_cancel_point(struct doca_dpa_thread *t);
doca_dpa_dev_uintptr_t sdoca_dpa_thread_local_storage(const struct doca_dpa_thread *t);
/* An activation request (notify, an armed completion): coalesces while the
 * thread runs, kept until doca_dpa_thread_run, dropped once finished. */
void sdoca_dpa_thread_trigger(struct doca_dpa_thread *t);
/* Whether t belongs to dpa (checks made by the completion objects). */
bool sdoca_dpa_thread_of(const struct doca_dpa_thread *t, const struct doca_dpa *dpa);
/* Counts the objects bound to t: a thread cannot be destroyed under them. */
void sdoca_dpa_thread_bind(struct doca_dpa_thread *t, int delta);

/* Activations so far and the state's name (tests, observability). */
uint64_t sdoca_dpa_thread_activations(struct doca_dpa_thread *t, const char **state);

/* SIGSEGV/SIGBUS inside a kernel: named on stderr, then the default action. */
void sdoca_dpa_fault_install(void);

#endif /* SDOCA_DPA_DPA_H_ */
