/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The DOCA 2.x forms of doca_rdma.h, which includes this file for
 * SOFTDOCA_API_VERSION 205 (DOCA 2.5) and 202 (DOCA 2.2). Both have one
 * implicit connection per context, made by export and connect. DOCA 2.5
 * allocates tasks without a connection argument; DOCA 2.2 submits jobs to a
 * doca_workq (doca_ctx.h) and reads their results from its events, and names
 * the instance's states and capability queries its own way. Programs
 * include doca_rdma.h.
 */
#ifndef SOFTDOCA_RDMA_V2_H_
#define SOFTDOCA_RDMA_V2_H_

#include "doca_rdma.h"

#if SOFTDOCA_API_VERSION < 300

SOFTDOCA_BEGIN_DECLS

DOCA_EXPERIMENTAL doca_error_t doca_rdma_export(const struct doca_rdma *rdma,
                                                const void **local_rdma_conn_details,
                                                size_t *local_rdma_conn_details_size)
        SOFTDOCA_SYMBOL(205, doca_rdma_export);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_connect(struct doca_rdma *rdma,
                                                 const void *remote_rdma_conn_details,
                                                 size_t remote_rdma_conn_details_size)
        SOFTDOCA_SYMBOL(205, doca_rdma_connect);

#if SOFTDOCA_API_VERSION == 205
DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_dpa_handle(struct doca_rdma *rdma,
                                                        struct doca_dpa_dev_rdma **dpa_rdma)
        SOFTDOCA_SYMBOL(205, doca_rdma_get_dpa_handle);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_send_allocate_init(struct doca_rdma *rdma,
                                                                 const struct doca_buf *src_buf,
                                                                 union doca_data user_data,
                                                                 struct doca_rdma_task_send **task)
        SOFTDOCA_SYMBOL(205, doca_rdma_task_send_allocate_init);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_send_imm_allocate_init(
        struct doca_rdma *rdma, const struct doca_buf *src_buf, doca_be32_t immediate_data,
        union doca_data user_data, struct doca_rdma_task_send_imm **task)
        SOFTDOCA_SYMBOL(205, doca_rdma_task_send_imm_allocate_init);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_read_allocate_init(struct doca_rdma *rdma,
                                                                 const struct doca_buf *src_buf,
                                                                 struct doca_buf *dst_buf,
                                                                 union doca_data user_data,
                                                                 struct doca_rdma_task_read **task)
        SOFTDOCA_SYMBOL(205, doca_rdma_task_read_allocate_init);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_write_allocate_init(
        struct doca_rdma *rdma, const struct doca_buf *src_buf, struct doca_buf *dst_buf,
        union doca_data user_data, struct doca_rdma_task_write **task)
        SOFTDOCA_SYMBOL(205, doca_rdma_task_write_allocate_init);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_write_imm_allocate_init(
        struct doca_rdma *rdma, const struct doca_buf *src_buf, struct doca_buf *dst_buf,
        doca_be32_t immediate_data, union doca_data user_data,
        struct doca_rdma_task_write_imm **task)
        SOFTDOCA_SYMBOL(205, doca_rdma_task_write_imm_allocate_init);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_atomic_cmp_swp_allocate_init(
        struct doca_rdma *rdma, struct doca_buf *dst_buf, struct doca_buf *result_buf,
        uint64_t cmp_data, uint64_t swap_data, union doca_data user_data,
        struct doca_rdma_task_atomic_cmp_swp **task)
        SOFTDOCA_SYMBOL(205, doca_rdma_task_atomic_cmp_swp_allocate_init);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_atomic_fetch_add_allocate_init(
        struct doca_rdma *rdma, struct doca_buf *dst_buf, struct doca_buf *result_buf,
        uint64_t add_data, union doca_data user_data, struct doca_rdma_task_atomic_fetch_add **task)
        SOFTDOCA_SYMBOL(205, doca_rdma_task_atomic_fetch_add_allocate_init);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_remote_net_sync_event_get_allocate_init(
        struct doca_rdma *rdma, const struct doca_sync_event_remote_net *event,
        struct doca_buf *dst_buf, union doca_data user_data,
        struct doca_rdma_task_remote_net_sync_event_get **task)
        SOFTDOCA_SYMBOL(205, doca_rdma_task_remote_net_sync_event_get_allocate_init);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_remote_net_sync_event_notify_set_allocate_init(
        struct doca_rdma *rdma, struct doca_sync_event_remote_net *event,
        const struct doca_buf *src_buf, union doca_data user_data,
        struct doca_rdma_task_remote_net_sync_event_notify_set **task)
        SOFTDOCA_SYMBOL(205, doca_rdma_task_remote_net_sync_event_notify_set_allocate_init);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_remote_net_sync_event_notify_add_allocate_init(
        struct doca_rdma *rdma, struct doca_sync_event_remote_net *event,
        struct doca_buf *result_buf, uint64_t add_data, union doca_data user_data,
        struct doca_rdma_task_remote_net_sync_event_notify_add **task)
        SOFTDOCA_SYMBOL(205, doca_rdma_task_remote_net_sync_event_notify_add_allocate_init);
/* DOCA 2.5 names of the result-length getters. */
DOCA_EXPERIMENTAL uint32_t
doca_rdma_task_receive_get_result_length(const struct doca_rdma_task_receive *task);
DOCA_EXPERIMENTAL uint32_t
doca_rdma_task_read_get_result_length(const struct doca_rdma_task_read *task);
DOCA_EXPERIMENTAL uint32_t doca_rdma_task_remote_net_sync_event_get_get_result_length(
        const struct doca_rdma_task_remote_net_sync_event_get *task);
#else /* DOCA 2.2 */

#define doca_rdma_opcode_t doca_rdma_opcode /* DOCA 2.2's name of the type */

/* RESET until doca_ctx_start, INIT until connected; ERROR after a failed
 * job, until doca_ctx_stop (then start, export and connect again). */
enum doca_rdma_state {
	DOCA_RDMA_STATE_RESET = 0,
	DOCA_RDMA_STATE_INIT,
	DOCA_RDMA_STATE_CONNECTED,
	DOCA_RDMA_STATE_ERROR,
};

enum doca_rdma_job_types {
	DOCA_RDMA_JOB_RECV = DOCA_ACTION_RDMA_FIRST + 1,
	DOCA_RDMA_JOB_SEND,
	DOCA_RDMA_JOB_SEND_IMM,
	DOCA_RDMA_JOB_READ,
	DOCA_RDMA_JOB_WRITE,
	DOCA_RDMA_JOB_WRITE_IMM,
	DOCA_RDMA_JOB_ATOMIC_CMP_SWP,
	DOCA_RDMA_JOB_ATOMIC_FETCH_ADD,
};

/* Takes one incoming send, send with immediate or write with immediate.
 * What arrives lands after the data section of dst_buff (a list: filled in
 * order, at most recv_buf_chain_len buffers), whose data length grows; NULL
 * for a write with immediate or an empty message. */
struct doca_rdma_job_recv {
	struct doca_job base;
	struct doca_buf *dst_buff;
};

/* DOCA_RDMA_JOB_SEND and DOCA_RDMA_JOB_SEND_IMM: the data sections of
 * src_buff (NULL: an empty message); immediate_data (big endian) with
 * SEND_IMM only. rdma_peer_addr is not used (RC transport). */
struct doca_rdma_job_send {
	struct doca_job base;
	struct doca_buf const *src_buff;
	doca_be32_t immediate_data;
	struct doca_rdma_addr const *rdma_peer_addr;
};

/* DOCA_RDMA_JOB_READ: src_buff's data section (remote) lands after dst_buff's
 * (local). DOCA_RDMA_JOB_WRITE and _WRITE_IMM: src_buff's data sections
 * (local) land after dst_buff's (remote); immediate_data with WRITE_IMM.
 * NULL buffers: zero bytes. */
struct doca_rdma_job_read_write {
	struct doca_job base;
	struct doca_buf *dst_buff;
	struct doca_buf const *src_buff;
	doca_be32_t immediate_data;
	struct doca_rdma_addr const *rdma_peer_addr;
};

/* The 8 bytes at cmp_or_add_dest_buff's data address (remote, 8-byte
 * aligned); the value they held lands at result_buff's data address. */
struct doca_rdma_job_atomic {
	struct doca_job base;
	struct doca_buf *cmp_or_add_dest_buff;
	struct doca_buf *result_buff;
	uint64_t swap_or_add_data;
	uint64_t cmp_data;
	struct doca_rdma_addr const *rdma_peer_addr;
};

/* Written where the event's result.ptr points when the job's event is
 * retrieved. opcode, length and immediate_data describe a receive; length
 * also a read (0 for the other jobs). */
struct doca_rdma_result {
	doca_error_t result;
	enum doca_rdma_opcode_t opcode;
	uint32_t length;
	struct doca_rdma_addr *rdma_peer_addr;
	doca_be32_t immediate_data;
};

DOCA_EXPERIMENTAL doca_error_t doca_rdma_create(struct doca_rdma **rdma)
        SOFTDOCA_SYMBOL(202, doca_rdma_create);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_job_get_supported(const struct doca_devinfo *devinfo,
                                                           enum doca_rdma_job_types job_type);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_max_recv_queue_size(const struct doca_devinfo *devinfo,
                                                                 uint32_t *max_recv_queue_size);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_max_send_queue_size(const struct doca_devinfo *devinfo,
                                                                 uint32_t *max_send_queue_size);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_max_message_size(const struct doca_devinfo *devinfo,
                                                              uint32_t *max_message_size);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_max_buf_chain_len(
        const struct doca_devinfo *devinfo, enum doca_rdma_job_types job_type,
        enum doca_rdma_transport_type transport_type, uint32_t *max_buf_chain_len);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_gid_table_size(struct doca_devinfo *devinfo,
                                                            uint32_t *gid_table_size);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_gid(struct doca_devinfo *devinfo, uint32_t start_index,
                                                 uint32_t num_entries,
                                                 struct doca_rdma_gid *gid_array);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_transport_type_supported(
        const struct doca_devinfo *devinfo, enum doca_rdma_transport_type transport_type);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_set_recv_buf_chain_len(struct doca_rdma *rdma,
                                                                uint32_t recv_buf_chain_len);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_recv_buf_chain_len(const struct doca_rdma *rdma,
                                                                uint32_t *recv_buf_chain_len);
DOCA_EXPERIMENTAL doca_error_t doca_rdma_get_state(const struct doca_rdma *rdma,
                                                   enum doca_rdma_state *state);
#endif

SOFTDOCA_END_DECLS

#endif /* SOFTDOCA_API_VERSION < 300 */

#endif /* SOFTDOCA_RDMA_V2_H_ */
