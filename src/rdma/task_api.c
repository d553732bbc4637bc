/*
 * The public functions of each RDMA task type.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The public functions of each RDMA task type: capability, configuration,
 * allocation, and the setters and getters of what a task carries. They are
 * the same for every type but for names and fields, so most come from the
 * macro family in rdma.h, one call per function; the path they lead to is
 * tasks.c.
 */
#include "core/sdk_log.h"
#include "rdma/rdma.h"

SDOCA_LOG_MODULE(rdma_task_api);

/* ========================= receive ========================= */

RDMA_CAP_SUPPORTED(doca_rdma_cap_task_receive_is_supported)

DOCA_EXPERIMENTAL doca_error_t doca_rdma_cap_task_receive_get_max_dst_buf_list_len(
        const struct doca_devinfo *devinfo, enum doca_rdma_transport_type transport_type,
        uint32_t *max_buf_list_len)
{
	if (!sdoca_arg_valid(devinfo) || !sdoca_arg_valid(max_buf_list_len))
		return DOCA_ERROR_INVALID_VALUE;
	if (transport_type != DOCA_RDMA_TRANSPORT_TYPE_RC)
		return DOCA_ERROR_NOT_SUPPORTED;
	*max_buf_list_len = RDMA_MAX_BUF_LIST_LEN;
	return DOCA_SUCCESS;
}

RDMA_TASK_SET_CONF(doca_rdma_task_receive_set_conf, receive, RDMA_TASK_RECEIVE)

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_receive_set_dst_buf_list_len(struct doca_rdma *rdma,
                                                                           uint32_t buf_list_len)
{
	if (!sdoca_arg_valid(rdma) ||
	    !sdoca_arg_valid(buf_list_len > 0 && buf_list_len <= RDMA_MAX_BUF_LIST_LEN))
		return DOCA_ERROR_INVALID_VALUE;
	if (rdma->ctx.state != DOCA_CTX_STATE_IDLE)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "the context is not IDLE");
	rdma->recv_buf_list_len = buf_list_len;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t
doca_rdma_task_receive_get_dst_buf_list_len(const struct doca_rdma *rdma, uint32_t *buf_list_len)
{
	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(buf_list_len))
		return DOCA_ERROR_INVALID_VALUE;
	*buf_list_len = rdma->recv_buf_list_len;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_receive_allocate_init(
        struct doca_rdma *rdma, struct doca_buf *dst_buf, union doca_data user_data,
        struct doca_rdma_task_receive **task)
{
	return RDMA_TASK_ALLOCATE(RDMA_TASK_RECEIVE, rdma, user_data, task, .dst = dst_buf);
}

RDMA_TASK_AS_TASK(doca_rdma_task_receive_as_task, receive)
RDMA_TASK_SETTER(doca_rdma_task_receive_set_dst_buf, receive, struct doca_buf *, args.dst)
RDMA_TASK_GETTER(doca_rdma_task_receive_get_dst_buf, receive, struct doca_buf *, args.dst)
RDMA_TASK_GETTER(doca_rdma_task_receive_get_result_opcode, receive, enum doca_rdma_opcode,
                 result_opcode)
RDMA_TASK_GETTER(doca_rdma_task_receive_get_result_len, receive, uint32_t, result_len)
RDMA_TASK_GETTER(doca_rdma_task_receive_get_result_length, receive, uint32_t, result_len)
RDMA_TASK_GETTER(doca_rdma_task_receive_get_result_immediate_data, receive, doca_be32_t, result_imm)
RDMA_TASK_GETTER(doca_rdma_task_receive_get_result_rdma_connection, receive,
                 const struct doca_rdma_connection *, result_conn)

/* ========================= send / send with immediate ========================= */

RDMA_CAP_SUPPORTED(doca_rdma_cap_task_send_is_supported)
RDMA_TASK_SET_CONF(doca_rdma_task_send_set_conf, send, RDMA_TASK_SEND)

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_send_allocate_init(struct doca_rdma *rdma,
                                                                 struct doca_rdma_connection *conn,
                                                                 const struct doca_buf *src_buf,
                                                                 union doca_data user_data,
                                                                 struct doca_rdma_task_send **task)
{
	return RDMA_TASK_ALLOCATE(RDMA_TASK_SEND, rdma, user_data, task, .conn = conn,
	                          .src = src_buf);
}

RDMA_TASK_AS_TASK(doca_rdma_task_send_as_task, send)
RDMA_TASK_SETTER(doca_rdma_task_send_set_src_buf, send, const struct doca_buf *, args.src)
RDMA_TASK_GETTER(doca_rdma_task_send_get_src_buf, send, const struct doca_buf *, args.src)
RDMA_TASK_SETTER(doca_rdma_task_send_set_rdma_connection, send, struct doca_rdma_connection *,
                 args.conn)
RDMA_TASK_GETTER(doca_rdma_task_send_get_rdma_connection, send, const struct doca_rdma_connection *,
                 args.conn)

RDMA_CAP_SUPPORTED(doca_rdma_cap_task_send_imm_is_supported)
RDMA_TASK_SET_CONF(doca_rdma_task_send_imm_set_conf, send_imm, RDMA_TASK_SEND_IMM)

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_send_imm_allocate_init(
        struct doca_rdma *rdma, struct doca_rdma_connection *conn, const struct doca_buf *src_buf,
        doca_be32_t immediate_data, union doca_data user_data,
        struct doca_rdma_task_send_imm **task)
{
	return RDMA_TASK_ALLOCATE(RDMA_TASK_SEND_IMM, rdma, user_data, task, .conn = conn,
	                          .src = src_buf, .imm = immediate_data);
}

RDMA_TASK_AS_TASK(doca_rdma_task_send_imm_as_task, send_imm)
RDMA_TASK_SETTER(doca_rdma_task_send_imm_set_src_buf, send_imm, const struct doca_buf *, args.src)
RDMA_TASK_GETTER(doca_rdma_task_send_imm_get_src_buf, send_imm, const struct doca_buf *, args.src)
RDMA_TASK_SETTER(doca_rdma_task_send_imm_set_immediate_data, send_imm, doca_be32_t, args.imm)
RDMA_TASK_GETTER(doca_rdma_task_send_imm_get_immediate_data, send_imm, doca_be32_t, args.imm)
RDMA_TASK_SETTER(doca_rdma_task_send_imm_set_rdma_connection, send_imm,
                 struct doca_rdma_connection *, args.conn)
RDMA_TASK_GETTER(doca_rdma_task_send_imm_get_rdma_connection, send_imm,
                 const struct doca_rdma_connection *, args.conn)

/* ========================= read ========================= */

RDMA_CAP_SUPPORTED(doca_rdma_cap_task_read_is_supported)
RDMA_TASK_SET_CONF(doca_rdma_task_read_set_conf, read, RDMA_TASK_READ)

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_read_allocate_init(
        struct doca_rdma *rdma, struct doca_rdma_connection *conn, const struct doca_buf *src_buf,
        struct doca_buf *dst_buf, union doca_data user_data, struct doca_rdma_task_read **task)
{
	return RDMA_TASK_ALLOCATE(RDMA_TASK_READ, rdma, user_data, task, .conn = conn,
	                          .src = src_buf, .dst = dst_buf);
}

RDMA_TASK_AS_TASK(doca_rdma_task_read_as_task, read)
RDMA_TASK_SETTER(doca_rdma_task_read_set_src_buf, read, const struct doca_buf *, args.src)
RDMA_TASK_GETTER(doca_rdma_task_read_get_src_buf, read, const struct doca_buf *, args.src)
RDMA_TASK_SETTER(doca_rdma_task_read_set_dst_buf, read, struct doca_buf *, args.dst)
RDMA_TASK_GETTER(doca_rdma_task_read_get_dst_buf, read, struct doca_buf *, args.dst)
RDMA_TASK_GETTER(doca_rdma_task_read_get_result_len, read, uint32_t, result_len)
RDMA_TASK_GETTER(doca_rdma_task_read_get_result_length, read, uint32_t, result_len)
RDMA_TASK_SETTER(doca_rdma_task_read_set_rdma_connection, read, struct doca_rdma_connection *,
                 args.conn)
RDMA_TASK_GETTER(doca_rdma_task_read_get_rdma_connection, read, const struct doca_rdma_connection *,
                 args.conn)

/* ========================= write / write with immediate ========================= */

RDMA_CAP_SUPPORTED(doca_rdma_cap_task_write_is_supported)
RDMA_TASK_SET_CONF(doca_rdma_task_write_set_conf, write, RDMA_TASK_WRITE)

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_write_allocate_init(
        struct doca_rdma *rdma, struct doca_rdma_connection *conn, const struct doca_buf *src_buf,
        struct doca_buf *dst_buf, union doca_data user_data, struct doca_rdma_task_write **task)
{
	return RDMA_TASK_ALLOCATE(RDMA_TASK_WRITE, rdma, user_data, task, .conn = conn,
	                          .src = src_buf, .dst = dst_buf);
}

RDMA_TASK_AS_TASK(doca_rdma_task_write_as_task, write)
RDMA_TASK_SETTER(doca_rdma_task_write_set_src_buf, write, const struct doca_buf *, args.src)
RDMA_TASK_GETTER(doca_rdma_task_write_get_src_buf, write, const struct doca_buf *, args.src)
RDMA_TASK_SETTER(doca_rdma_task_write_set_dst_buf, write, struct doca_buf *, args.dst)
RDMA_TASK_GETTER(doca_rdma_task_write_get_dst_buf, write, struct doca_buf *, args.dst)
RDMA_TASK_SETTER(doca_rdma_task_write_set_rdma_connection, write, struct doca_rdma_connection *,
                 args.conn)
RDMA_TASK_GETTER(doca_rdma_task_write_get_rdma_connection, write,
                 const struct doca_rdma_connection *, args.conn)

RDMA_CAP_SUPPORTED(doca_rdma_cap_task_write_imm_is_supported)
RDMA_TASK_SET_CONF(doca_rdma_task_write_imm_set_conf, write_imm, RDMA_TASK_WRITE_IMM)

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_write_imm_allocate_init(
        struct doca_rdma *rdma, struct doca_rdma_connection *conn, const struct doca_buf *src_buf,
        struct doca_buf *dst_buf, doca_be32_t immediate_data, union doca_data user_data,
        struct doca_rdma_task_write_imm **task)
{
	return RDMA_TASK_ALLOCATE(RDMA_TASK_WRITE_IMM, rdma, user_data, task, .conn = conn,
	                          .src = src_buf, .dst = dst_buf, .imm = immediate_data);
}

RDMA_TASK_AS_TASK(doca_rdma_task_write_imm_as_task, write_imm)
RDMA_TASK_SETTER(doca_rdma_task_write_imm_set_src_buf, write_imm, const struct doca_buf *, args.src)
RDMA_TASK_GETTER(doca_rdma_task_write_imm_get_src_buf, write_imm, const struct doca_buf *, args.src)
RDMA_TASK_SETTER(doca_rdma_task_write_imm_set_dst_buf, write_imm, struct doca_buf *, args.dst)
RDMA_TASK_GETTER(doca_rdma_task_write_imm_get_dst_buf, write_imm, struct doca_buf *, args.dst)
RDMA_TASK_SETTER(doca_rdma_task_write_imm_set_immediate_data, write_imm, doca_be32_t, args.imm)
RDMA_TASK_GETTER(doca_rdma_task_write_imm_get_immediate_data, write_imm, doca_be32_t, args.imm)
RDMA_TASK_SETTER(doca_rdma_task_write_imm_set_rdma_connection, write_imm,
                 struct doca_rdma_connection *, args.conn)
RDMA_TASK_GETTER(doca_rdma_task_write_imm_get_rdma_connection, write_imm,
                 const struct doca_rdma_connection *, args.conn)

/* ========================= atomics ========================= */

RDMA_CAP_SUPPORTED(doca_rdma_cap_task_atomic_cmp_swp_is_supported)
RDMA_TASK_SET_CONF(doca_rdma_task_atomic_cmp_swp_set_conf, atomic_cmp_swp, RDMA_TASK_ATOMIC_CMP_SWP)

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_atomic_cmp_swp_allocate_init(
        struct doca_rdma *rdma, struct doca_rdma_connection *conn, struct doca_buf *dst_buf,
        struct doca_buf *result_buf, uint64_t cmp_data, uint64_t swap_data,
        union doca_data user_data, struct doca_rdma_task_atomic_cmp_swp **task)
{
	return RDMA_TASK_ALLOCATE(RDMA_TASK_ATOMIC_CMP_SWP, rdma, user_data, task, .conn = conn,
	                          .dst = dst_buf, .result = result_buf, .operand1 = cmp_data,
	                          .operand2 = swap_data);
}

RDMA_TASK_AS_TASK(doca_rdma_task_atomic_cmp_swp_as_task, atomic_cmp_swp)
RDMA_TASK_SETTER(doca_rdma_task_atomic_cmp_swp_set_dst_buf, atomic_cmp_swp, struct doca_buf *,
                 args.dst)
RDMA_TASK_GETTER(doca_rdma_task_atomic_cmp_swp_get_dst_buf, atomic_cmp_swp, struct doca_buf *,
                 args.dst)
RDMA_TASK_SETTER(doca_rdma_task_atomic_cmp_swp_set_result_buf, atomic_cmp_swp, struct doca_buf *,
                 args.result)
RDMA_TASK_GETTER(doca_rdma_task_atomic_cmp_swp_get_result_buf, atomic_cmp_swp, struct doca_buf *,
                 args.result)
RDMA_TASK_SETTER(doca_rdma_task_atomic_cmp_swp_set_cmp_data, atomic_cmp_swp, uint64_t,
                 args.operand1)
RDMA_TASK_GETTER(doca_rdma_task_atomic_cmp_swp_get_cmp_data, atomic_cmp_swp, uint64_t,
                 args.operand1)
RDMA_TASK_SETTER(doca_rdma_task_atomic_cmp_swp_set_swap_data, atomic_cmp_swp, uint64_t,
                 args.operand2)
RDMA_TASK_GETTER(doca_rdma_task_atomic_cmp_swp_get_swap_data, atomic_cmp_swp, uint64_t,
                 args.operand2)
RDMA_TASK_SETTER(doca_rdma_task_atomic_cmp_swp_set_rdma_connection, atomic_cmp_swp,
                 struct doca_rdma_connection *, args.conn)
RDMA_TASK_GETTER(doca_rdma_task_atomic_cmp_swp_get_rdma_connection, atomic_cmp_swp,
                 const struct doca_rdma_connection *, args.conn)

RDMA_CAP_SUPPORTED(doca_rdma_cap_task_atomic_fetch_add_is_supported)
RDMA_TASK_SET_CONF(doca_rdma_task_atomic_fetch_add_set_conf, atomic_fetch_add,
                   RDMA_TASK_ATOMIC_FETCH_ADD)

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_atomic_fetch_add_allocate_init(
        struct doca_rdma *rdma, struct doca_rdma_connection *conn, struct doca_buf *dst_buf,
        struct doca_buf *result_buf, uint64_t add_data, union doca_data user_data,
        struct doca_rdma_task_atomic_fetch_add **task)
{
	return RDMA_TASK_ALLOCATE(RDMA_TASK_ATOMIC_FETCH_ADD, rdma, user_data, task, .conn = conn,
	                          .dst = dst_buf, .result = result_buf, .operand1 = add_data);
}

RDMA_TASK_AS_TASK(doca_rdma_task_atomic_fetch_add_as_task, atomic_fetch_add)
RDMA_TASK_SETTER(doca_rdma_task_atomic_fetch_add_set_dst_buf, atomic_fetch_add, struct doca_buf *,
                 args.dst)
RDMA_TASK_GETTER(doca_rdma_task_atomic_fetch_add_get_dst_buf, atomic_fetch_add, struct doca_buf *,
                 args.dst)
RDMA_TASK_SETTER(doca_rdma_task_atomic_fetch_add_set_result_buf, atomic_fetch_add,
                 struct doca_buf *, args.result)
RDMA_TASK_GETTER(doca_rdma_task_atomic_fetch_add_get_result_buf, atomic_fetch_add,
                 struct doca_buf *, args.result)
RDMA_TASK_SETTER(doca_rdma_task_atomic_fetch_add_set_add_data, atomic_fetch_add, uint64_t,
                 args.operand1)
RDMA_TASK_GETTER(doca_rdma_task_atomic_fetch_add_get_add_data, atomic_fetch_add, uint64_t,
                 args.operand1)
RDMA_TASK_SETTER(doca_rdma_task_atomic_fetch_add_set_rdma_connection, atomic_fetch_add,
                 struct doca_rdma_connection *, args.conn)
RDMA_TASK_GETTER(doca_rdma_task_atomic_fetch_add_get_rdma_connection, atomic_fetch_add,
                 const struct doca_rdma_connection *, args.conn)

/* ========================= remote sync events ========================= */

RDMA_CAP_SUPPORTED(doca_rdma_cap_task_remote_net_sync_event_get_is_supported)
RDMA_TASK_SET_CONF(doca_rdma_task_remote_net_sync_event_get_set_conf, remote_net_sync_event_get,
                   RDMA_TASK_SYNC_EVENT_GET)

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_remote_net_sync_event_get_allocate_init(
        struct doca_rdma *rdma, struct doca_rdma_connection *conn,
        const struct doca_sync_event_remote_net *event, struct doca_buf *dst_buf,
        union doca_data user_data, struct doca_rdma_task_remote_net_sync_event_get **task)
{
	return RDMA_TASK_ALLOCATE(RDMA_TASK_SYNC_EVENT_GET, rdma, user_data, task, .conn = conn,
	                          .event = event, .dst = dst_buf);
}

RDMA_TASK_AS_TASK(doca_rdma_task_remote_net_sync_event_get_as_task, remote_net_sync_event_get)
RDMA_TASK_SETTER(doca_rdma_task_remote_net_sync_event_get_set_sync_event, remote_net_sync_event_get,
                 const struct doca_sync_event_remote_net *, args.event)
RDMA_TASK_GETTER(doca_rdma_task_remote_net_sync_event_get_get_sync_event, remote_net_sync_event_get,
                 const struct doca_sync_event_remote_net *, args.event)
RDMA_TASK_SETTER(doca_rdma_task_remote_net_sync_event_get_set_dst_buf, remote_net_sync_event_get,
                 struct doca_buf *, args.dst)
RDMA_TASK_GETTER(doca_rdma_task_remote_net_sync_event_get_get_dst_buf, remote_net_sync_event_get,
                 struct doca_buf *, args.dst)
RDMA_TASK_GETTER(doca_rdma_task_remote_net_sync_event_get_get_result_len, remote_net_sync_event_get,
                 uint32_t, result_len)
RDMA_TASK_GETTER(doca_rdma_task_remote_net_sync_event_get_get_result_length,
                 remote_net_sync_event_get, uint32_t, result_len)
RDMA_TASK_SETTER(doca_rdma_task_remote_net_sync_event_get_set_rdma_connection,
                 remote_net_sync_event_get, struct doca_rdma_connection *, args.conn)
RDMA_TASK_GETTER(doca_rdma_task_remote_net_sync_event_get_get_rdma_connection,
                 remote_net_sync_event_get, const struct doca_rdma_connection *, args.conn)

RDMA_CAP_SUPPORTED(doca_rdma_cap_task_remote_net_sync_event_notify_set_is_supported)
RDMA_TASK_SET_CONF(doca_rdma_task_remote_net_sync_event_notify_set_set_conf,
                   remote_net_sync_event_notify_set, RDMA_TASK_SYNC_EVENT_NOTIFY_SET)

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_remote_net_sync_event_notify_set_allocate_init(
        struct doca_rdma *rdma, struct doca_rdma_connection *conn,
        struct doca_sync_event_remote_net *event, const struct doca_buf *src_buf,
        union doca_data user_data, struct doca_rdma_task_remote_net_sync_event_notify_set **task)
{
	return RDMA_TASK_ALLOCATE(RDMA_TASK_SYNC_EVENT_NOTIFY_SET, rdma, user_data, task,
	                          .conn = conn, .event = event, .src = src_buf);
}

RDMA_TASK_AS_TASK(doca_rdma_task_remote_net_sync_event_notify_set_as_task,
                  remote_net_sync_event_notify_set)
RDMA_TASK_SETTER(doca_rdma_task_remote_net_sync_event_notify_set_set_sync_event,
                 remote_net_sync_event_notify_set, struct doca_sync_event_remote_net *, args.event)
RDMA_TASK_GETTER(doca_rdma_task_remote_net_sync_event_notify_set_get_sync_event,
                 remote_net_sync_event_notify_set, struct doca_sync_event_remote_net *,
                 args.mutable_event)
RDMA_TASK_SETTER(doca_rdma_task_remote_net_sync_event_notify_set_set_src_buf,
                 remote_net_sync_event_notify_set, const struct doca_buf *, args.src)
RDMA_TASK_GETTER(doca_rdma_task_remote_net_sync_event_notify_set_get_src_buf,
                 remote_net_sync_event_notify_set, const struct doca_buf *, args.src)
RDMA_TASK_SETTER(doca_rdma_task_remote_net_sync_event_notify_set_set_rdma_connection,
                 remote_net_sync_event_notify_set, struct doca_rdma_connection *, args.conn)
RDMA_TASK_GETTER(doca_rdma_task_remote_net_sync_event_notify_set_get_rdma_connection,
                 remote_net_sync_event_notify_set, const struct doca_rdma_connection *, args.conn)

RDMA_CAP_SUPPORTED(doca_rdma_cap_task_remote_net_sync_event_notify_add_is_supported)
RDMA_TASK_SET_CONF(doca_rdma_task_remote_net_sync_event_notify_add_set_conf,
                   remote_net_sync_event_notify_add, RDMA_TASK_SYNC_EVENT_NOTIFY_ADD)

DOCA_EXPERIMENTAL doca_error_t doca_rdma_task_remote_net_sync_event_notify_add_allocate_init(
        struct doca_rdma *rdma, struct doca_rdma_connection *conn,
        struct doca_sync_event_remote_net *event, struct doca_buf *result_buf, uint64_t add_data,
        union doca_data user_data, struct doca_rdma_task_remote_net_sync_event_notify_add **task)
{
	return RDMA_TASK_ALLOCATE(RDMA_TASK_SYNC_EVENT_NOTIFY_ADD, rdma, user_data, task,
	                          .conn = conn, .event = event, .result = result_buf,
	                          .operand1 = add_data);
}

RDMA_TASK_AS_TASK(doca_rdma_task_remote_net_sync_event_notify_add_as_task,
                  remote_net_sync_event_notify_add)
RDMA_TASK_SETTER(doca_rdma_task_remote_net_sync_event_notify_add_set_sync_event,
                 remote_net_sync_event_notify_add, struct doca_sync_event_remote_net *, args.event)
RDMA_TASK_GETTER(doca_rdma_task_remote_net_sync_event_notify_add_get_sync_event,
                 remote_net_sync_event_notify_add, struct doca_sync_event_remote_net *,
                 args.mutable_event)
RDMA_TASK_SETTER(doca_rdma_task_remote_net_sync_event_notify_add_set_result_buf,
                 remote_net_sync_event_notify_add, struct doca_buf *, args.result)
RDMA_TASK_GETTER(doca_rdma_task_remote_net_sync_event_notify_add_get_result_buf,
                 remote_net_sync_event_notify_add, struct doca_buf *, args.result)
RDMA_TASK_SETTER(doca_rdma_task_remote_net_sync_event_notify_add_set_add_data,
                 remote_net_sync_event_notify_add, uint64_t, args.operand1)
RDMA_TASK_GETTER(doca_rdma_task_remote_net_sync_event_notify_add_get_add_data,
                 remote_net_sync_event_notify_add, uint64_t, args.operand1)
RDMA_TASK_SETTER(doca_rdma_task_remote_net_sync_event_notify_add_set_rdma_connection,
                 remote_net_sync_event_notify_add, struct doca_rdma_connection *, args.conn)
RDMA_TASK_GETTER(doca_rdma_task_remote_net_sync_event_notify_add_get_rdma_connection,
                 remote_net_sync_event_notify_add, const struct doca_rdma_connection *, args.conn)
