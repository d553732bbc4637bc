/*
 * DOCA 2.5 forms of the calls whose signature changed in DOCA 3.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The DOCA 2.5 forms of the calls whose signature changed in DOCA 3.
 * A program built with SOFTDOCA_API_VERSION=205 reaches these under the
 * DOCA names (doca_rdma.h binds them). DOCA 2.5 has one implicit
 * connection per context: export makes it, connect connects it, and tasks
 * go through it.
 */
#include "core/sdk_log.h"
#include "rdma/rdma.h"

SDOCA_LOG_MODULE(rdma_v205);

/* Prototypes: these are what doca_rdma.h declares for 2.5 programs. */
doca_error_t softdoca_v205_doca_rdma_export(const struct doca_rdma *rdma, const void **details,
                                            size_t *size);
doca_error_t softdoca_v205_doca_rdma_connect(struct doca_rdma *rdma, const void *details,
                                             size_t size);
doca_error_t softdoca_v205_doca_rdma_get_dpa_handle(struct doca_rdma *rdma,
                                                    struct doca_dpa_dev_rdma **dpa_rdma);
doca_error_t softdoca_v205_doca_rdma_task_send_allocate_init(struct doca_rdma *rdma,
                                                             const struct doca_buf *src_buf,
                                                             union doca_data user_data,
                                                             struct doca_rdma_task_send **task);
doca_error_t softdoca_v205_doca_rdma_task_send_imm_allocate_init(
        struct doca_rdma *rdma, const struct doca_buf *src_buf, doca_be32_t immediate_data,
        union doca_data user_data, struct doca_rdma_task_send_imm **task);
doca_error_t softdoca_v205_doca_rdma_task_read_allocate_init(struct doca_rdma *rdma,
                                                             const struct doca_buf *src_buf,
                                                             struct doca_buf *dst_buf,
                                                             union doca_data user_data,
                                                             struct doca_rdma_task_read **task);
doca_error_t softdoca_v205_doca_rdma_task_write_allocate_init(struct doca_rdma *rdma,
                                                              const struct doca_buf *src_buf,
                                                              struct doca_buf *dst_buf,
                                                              union doca_data user_data,
                                                              struct doca_rdma_task_write **task);
doca_error_t softdoca_v205_doca_rdma_task_write_imm_allocate_init(
        struct doca_rdma *rdma, const struct doca_buf *src_buf, struct doca_buf *dst_buf,
        doca_be32_t immediate_data, union doca_data user_data,
        struct doca_rdma_task_write_imm **task);
doca_error_t softdoca_v205_doca_rdma_task_atomic_cmp_swp_allocate_init(
        struct doca_rdma *rdma, struct doca_buf *dst_buf, struct doca_buf *result_buf,
        uint64_t cmp_data, uint64_t swap_data, union doca_data user_data,
        struct doca_rdma_task_atomic_cmp_swp **task);
doca_error_t softdoca_v205_doca_rdma_task_atomic_fetch_add_allocate_init(
        struct doca_rdma *rdma, struct doca_buf *dst_buf, struct doca_buf *result_buf,
        uint64_t add_data, union doca_data user_data,
        struct doca_rdma_task_atomic_fetch_add **task);
doca_error_t softdoca_v205_doca_rdma_task_remote_net_sync_event_get_allocate_init(
        struct doca_rdma *rdma, const struct doca_sync_event_remote_net *event,
        struct doca_buf *dst_buf, union doca_data user_data,
        struct doca_rdma_task_remote_net_sync_event_get **task);
doca_error_t softdoca_v205_doca_rdma_task_remote_net_sync_event_notify_set_allocate_init(
        struct doca_rdma *rdma, struct doca_sync_event_remote_net *event,
        const struct doca_buf *src_buf, union doca_data user_data,
        struct doca_rdma_task_remote_net_sync_event_notify_set **task);
doca_error_t softdoca_v205_doca_rdma_task_remote_net_sync_event_notify_add_allocate_init(
        struct doca_rdma *rdma, struct doca_sync_event_remote_net *event,
        struct doca_buf *result_buf, uint64_t add_data, union doca_data user_data,
        struct doca_rdma_task_remote_net_sync_event_notify_add **task);

/* Exporting again gives the same connection: 2.5 contexts have one. */
DOCA_EXPERIMENTAL doca_error_t softdoca_v205_doca_rdma_export(const struct doca_rdma *rdma,
                                                              const void **details, size_t *size)
{
	struct doca_rdma *r = (struct doca_rdma *)rdma;
	struct doca_rdma_connection *conn;

	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(details) || !sdoca_arg_valid(size))
		return DOCA_ERROR_INVALID_VALUE;
	conn = rdma_implicit_connection(r);
	if (conn) {
		*details = conn->blob;
		*size = conn->blob_len;
		return DOCA_SUCCESS;
	}
	return rdma_export(r, details, size, NULL);
}

DOCA_EXPERIMENTAL doca_error_t softdoca_v205_doca_rdma_connect(struct doca_rdma *rdma,
                                                               const void *details, size_t size)
{
	struct doca_rdma_connection *conn;

	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(details))
		return DOCA_ERROR_INVALID_VALUE;
	conn = rdma_implicit_connection(rdma);
	if (!conn)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_rdma_connect: call doca_rdma_export first");
	return rdma_conn_connect(rdma, details, size, conn);
}

DOCA_EXPERIMENTAL doca_error_t
softdoca_v205_doca_rdma_get_dpa_handle(struct doca_rdma *rdma, struct doca_dpa_dev_rdma **dpa_rdma)
{
	if (!sdoca_arg_valid(rdma) || !sdoca_arg_valid(dpa_rdma))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED("the DPA emulation is not built yet");
	return DOCA_ERROR_NOT_SUPPORTED;
}

#define IMPLICIT(rdma) ((rdma) ? rdma_implicit_connection(rdma) : NULL)

DOCA_EXPERIMENTAL doca_error_t softdoca_v205_doca_rdma_task_send_allocate_init(
        struct doca_rdma *rdma, const struct doca_buf *src_buf, union doca_data user_data,
        struct doca_rdma_task_send **task)
{
	return doca_rdma_task_send_allocate_init(rdma, IMPLICIT(rdma), src_buf, user_data, task);
}

DOCA_EXPERIMENTAL doca_error_t softdoca_v205_doca_rdma_task_send_imm_allocate_init(
        struct doca_rdma *rdma, const struct doca_buf *src_buf, doca_be32_t immediate_data,
        union doca_data user_data, struct doca_rdma_task_send_imm **task)
{
	return doca_rdma_task_send_imm_allocate_init(rdma, IMPLICIT(rdma), src_buf, immediate_data,
	                                             user_data, task);
}

DOCA_EXPERIMENTAL doca_error_t softdoca_v205_doca_rdma_task_read_allocate_init(
        struct doca_rdma *rdma, const struct doca_buf *src_buf, struct doca_buf *dst_buf,
        union doca_data user_data, struct doca_rdma_task_read **task)
{
	return doca_rdma_task_read_allocate_init(rdma, IMPLICIT(rdma), src_buf, dst_buf, user_data,
	                                         task);
}

DOCA_EXPERIMENTAL doca_error_t softdoca_v205_doca_rdma_task_write_allocate_init(
        struct doca_rdma *rdma, const struct doca_buf *src_buf, struct doca_buf *dst_buf,
        union doca_data user_data, struct doca_rdma_task_write **task)
{
	return doca_rdma_task_write_allocate_init(rdma, IMPLICIT(rdma), src_buf, dst_buf, user_data,
	                                          task);
}

DOCA_EXPERIMENTAL doca_error_t softdoca_v205_doca_rdma_task_write_imm_allocate_init(
        struct doca_rdma *rdma, const struct doca_buf *src_buf, struct doca_buf *dst_buf,
        doca_be32_t immediate_data, union doca_data user_data,
        struct doca_rdma_task_write_imm **task)
{
	return doca_rdma_task_write_imm_allocate_init(rdma, IMPLICIT(rdma), src_buf, dst_buf,
	                                              immediate_data, user_data, task);
}

DOCA_EXPERIMENTAL doca_error_t softdoca_v205_doca_rdma_task_atomic_cmp_swp_allocate_init(
        struct doca_rdma *rdma, struct doca_buf *dst_buf, struct doca_buf *result_buf,
        uint64_t cmp_data, uint64_t swap_data, union doca_data user_data,
        struct doca_rdma_task_atomic_cmp_swp **task)
{
	return doca_rdma_task_atomic_cmp_swp_allocate_init(
	        rdma, IMPLICIT(rdma), dst_buf, result_buf, cmp_data, swap_data, user_data, task);
}

DOCA_EXPERIMENTAL doca_error_t softdoca_v205_doca_rdma_task_atomic_fetch_add_allocate_init(
        struct doca_rdma *rdma, struct doca_buf *dst_buf, struct doca_buf *result_buf,
        uint64_t add_data, union doca_data user_data, struct doca_rdma_task_atomic_fetch_add **task)
{
	return doca_rdma_task_atomic_fetch_add_allocate_init(rdma, IMPLICIT(rdma), dst_buf,
	                                                     result_buf, add_data, user_data, task);
}

DOCA_EXPERIMENTAL doca_error_t softdoca_v205_doca_rdma_task_remote_net_sync_event_get_allocate_init(
        struct doca_rdma *rdma, const struct doca_sync_event_remote_net *event,
        struct doca_buf *dst_buf, union doca_data user_data,
        struct doca_rdma_task_remote_net_sync_event_get **task)
{
	return doca_rdma_task_remote_net_sync_event_get_allocate_init(rdma, IMPLICIT(rdma), event,
	                                                              dst_buf, user_data, task);
}

DOCA_EXPERIMENTAL doca_error_t
softdoca_v205_doca_rdma_task_remote_net_sync_event_notify_set_allocate_init(
        struct doca_rdma *rdma, struct doca_sync_event_remote_net *event,
        const struct doca_buf *src_buf, union doca_data user_data,
        struct doca_rdma_task_remote_net_sync_event_notify_set **task)
{
	return doca_rdma_task_remote_net_sync_event_notify_set_allocate_init(
	        rdma, IMPLICIT(rdma), event, src_buf, user_data, task);
}

DOCA_EXPERIMENTAL doca_error_t
softdoca_v205_doca_rdma_task_remote_net_sync_event_notify_add_allocate_init(
        struct doca_rdma *rdma, struct doca_sync_event_remote_net *event,
        struct doca_buf *result_buf, uint64_t add_data, union doca_data user_data,
        struct doca_rdma_task_remote_net_sync_event_notify_add **task)
{
	return doca_rdma_task_remote_net_sync_event_notify_add_allocate_init(
	        rdma, IMPLICIT(rdma), event, result_buf, add_data, user_data, task);
}
