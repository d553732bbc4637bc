/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * DOCA DPA, device side: what a kernel or RPC calls. softdoca compiles the
 * device sources for the host (tools/dpacc) and runs them on host threads;
 * these calls live in libdoca_dpa (docs/dpa.md, 2.1).
 *
 * Built so far: the log and trace calls, the device selection and rank
 * queries (DPA thread groups and kernel launches), yield, the DPA-thread
 * calls (local storage, reschedule, finish, notify) and the
 * completion-context calls. The hash-table calls are declared and
 * log "not supported" once (docs/compatibility.md).
 */
#ifndef DOCA_DPA_DEV_H_
#define DOCA_DPA_DEV_H_

#ifndef DOCA_DPA_DEVICE
#define DOCA_DPA_DEVICE
#endif

#include <stdint.h>
#include <stddef.h>

#include "doca_compat.h"
#include "softdoca_dpa_types.h"

SOFTDOCA_BEGIN_DECLS

#ifndef __forceinline
#define __forceinline static inline __attribute__((always_inline))
#endif
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

/* A completion element: where a completion context's entry is. */
__dpa_global__ typedef uint64_t doca_dpa_dev_completion_element_t;

__dpa_global__ typedef enum doca_dpa_dev_completion_type {
	DOCA_DPA_DEV_COMP_SEND = 0x0,
	DOCA_DPA_DEV_COMP_RECV_RDMA_WRITE_IMM = 0x1,
	DOCA_DPA_DEV_COMP_RECV_SEND = 0x2,
	DOCA_DPA_DEV_COMP_RECV_SEND_IMM = 0x3,
	DOCA_DPA_DEV_COMP_SEND_ERR = 0xD,
	DOCA_DPA_DEV_COMP_RECV_ERR = 0xE,
} doca_dpa_dev_completion_type_t;

/* Flags of device posts. */
__dpa_global__ enum doca_dpa_dev_submit_flag {
	DOCA_DPA_DEV_SUBMIT_FLAG_NONE = 0,
	DOCA_DPA_DEV_SUBMIT_FLAG_FLUSH = (1 << 0),
	DOCA_DPA_DEV_SUBMIT_FLAG_OPTIMIZE_REPORTS = (1 << 1),
};

/* Selects the DPA (0: the calling kernel's own) later calls act on. */
DOCA_EXPERIMENTAL void doca_dpa_dev_device_set(doca_dpa_dev_t dpa_handle);

/* Rank (0..N-1) and count of the threads of a kernel launch or thread group. */
DOCA_EXPERIMENTAL unsigned int doca_dpa_dev_thread_rank(void);
DOCA_EXPERIMENTAL unsigned int doca_dpa_dev_num_threads(void);

/* DPA threads. */
DOCA_EXPERIMENTAL doca_dpa_dev_uintptr_t doca_dpa_dev_thread_get_local_storage(void);
DOCA_EXPERIMENTAL void doca_dpa_dev_yield(void);
DOCA_EXPERIMENTAL void doca_dpa_dev_thread_reschedule(void) __attribute__((noreturn));
DOCA_EXPERIMENTAL void doca_dpa_dev_thread_finish(void) __attribute__((noreturn));
DOCA_EXPERIMENTAL void
doca_dpa_dev_thread_notify(doca_dpa_dev_notification_completion_t notification_handle);

/* The program's log: a printf-style line at a level, printed on stdout (or
 * the DPA's log file) when the level is enabled. */
DOCA_EXPERIMENTAL void doca_dpa_dev_log(doca_dpa_dev_log_level_t log_level, const char *format, ...)
        __attribute__((format(printf, 2, 3)));
/* DOCA 2.5's form: a line whatever the level. */
DOCA_EXPERIMENTAL void doca_dpa_dev_printf(const char *format, ...)
        __attribute__((format(printf, 1, 2)));

#define DOCA_DPA_DEV_LOG_ERR(...) doca_dpa_dev_log(DOCA_DPA_DEV_LOG_LEVEL_ERROR, __VA_ARGS__)
#define DOCA_DPA_DEV_LOG_WARN(...) doca_dpa_dev_log(DOCA_DPA_DEV_LOG_LEVEL_WARNING, __VA_ARGS__)
#define DOCA_DPA_DEV_LOG_INFO(...) doca_dpa_dev_log(DOCA_DPA_DEV_LOG_LEVEL_INFO, __VA_ARGS__)
#define DOCA_DPA_DEV_LOG_DBG(...) doca_dpa_dev_log(DOCA_DPA_DEV_LOG_LEVEL_DEBUG, __VA_ARGS__)

/* Five values to the trace file (or stdout). */
DOCA_EXPERIMENTAL void doca_dpa_dev_trace(uint64_t arg1, uint64_t arg2, uint64_t arg3,
                                          uint64_t arg4, uint64_t arg5);
DOCA_EXPERIMENTAL void doca_dpa_dev_trace_flush(void);

/* Hash tables. */
DOCA_EXPERIMENTAL void doca_dpa_dev_hash_table_add(doca_dpa_dev_hash_table_t ht_handle,
                                                   uint32_t key, uint64_t value);
DOCA_EXPERIMENTAL void doca_dpa_dev_hash_table_remove(doca_dpa_dev_hash_table_t ht_handle,
                                                      uint32_t key);
DOCA_EXPERIMENTAL int doca_dpa_dev_hash_table_find(doca_dpa_dev_hash_table_t ht_handle,
                                                   uint32_t key, uint64_t *value);

/* Completion contexts. */
DOCA_EXPERIMENTAL int doca_dpa_dev_get_completion(doca_dpa_dev_completion_t dpa_comp_handle,
                                                  doca_dpa_dev_completion_element_t *comp_element);
DOCA_EXPERIMENTAL doca_dpa_dev_completion_type_t
doca_dpa_dev_get_completion_type(doca_dpa_dev_completion_element_t comp_element);
DOCA_EXPERIMENTAL uint32_t
doca_dpa_dev_get_completion_user_data(doca_dpa_dev_completion_element_t comp_element);
DOCA_EXPERIMENTAL uint32_t
doca_dpa_dev_get_completion_immediate(doca_dpa_dev_completion_element_t comp_element);
DOCA_EXPERIMENTAL void doca_dpa_dev_completion_ack(doca_dpa_dev_completion_t dpa_comp_handle,
                                                   uint64_t num_comp);
DOCA_EXPERIMENTAL void
doca_dpa_dev_completion_request_notification(doca_dpa_dev_completion_t dpa_comp_handle);

SOFTDOCA_END_DECLS

#endif /* DOCA_DPA_DEV_H_ */
