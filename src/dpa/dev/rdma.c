/*
 * DPA device calls of doca_dpa_dev_rdma.h and doca_dpa_dev_buf.h.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The device calls of doca_dpa_dev_rdma.h and doca_dpa_dev_buf.h: each
 * post is handed to the RDMA data path (src/rdma/rdma_dpa.c), which checks
 * its handles, connection id and ranges. A bad call is logged naming the
 * kernel and thread and becomes the DPA's last error; then, as on RC
 * hardware (docs/dpa.md 2.12), a bad work request on a valid queue fails
 * there with an error completion, and a post with no queue to fail on
 * stops the calling execution (a DPA thread goes to the error state).
 */
#include <doca_dpa_dev_rdma.h>

#include "core/sdk_log.h"
#include "dpa/comp.h"
#include "dpa/dpa.h"
#include "rdma/rdma_dpa.h"

SDOCA_LOG_MODULE(dpa_dev_rdma);

#define WHY_MAX 256

static const char *const consequences[] = {
	[SDOCA_RDMA_DPA_BAD_WR] = ": it fails with an error completion",
	[SDOCA_RDMA_DPA_BAD_NO_QUEUE] = ": nothing to complete on",
	[SDOCA_RDMA_DPA_BAD_CALL] = "",
};

/* Logged, the DPA's last error; no queue: the execution stops (no return). */
static void bad_post(const char *caller, doca_error_t err, const char *why,
                     enum sdoca_rdma_dpa_bad bad)
{
	sdoca_dpa_bad_call(caller, err, "%s%s", why, consequences[bad]);
	if (bad == SDOCA_RDMA_DPA_BAD_NO_QUEUE)
		sdoca_dpa_exec_fail(caller, err); /* returns only outside a kernel */
}

static void post(const char *caller, doca_dpa_dev_rdma_t rdma, const struct sdoca_rdma_dpa_post *p)
{
	enum sdoca_rdma_dpa_bad bad = SDOCA_RDMA_DPA_BAD_CALL;
	char why[WHY_MAX];
	sdoca_dpa_cancel_point(caller);
	doca_error_t err = sdoca_rdma_dpa_post(rdma, p, &bad, why, sizeof(why));

	if (err != DOCA_SUCCESS)
		bad_post(caller, err, why, bad);
}

/* Buffers are records in DPA memory. A null one reads as an empty record
 * (mmap handle 0, never registered), so its post fails like one naming an
 * unregistered mmap (the log says mmap handle 0x0). */
static const struct doca_dpa_dev_buf null_buf;

static const struct doca_dpa_dev_buf *buf_of(doca_dpa_dev_buf_t buf)
{
	return buf ? (const struct doca_dpa_dev_buf *)(uintptr_t)buf : &null_buf;
}

DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_read(doca_dpa_dev_rdma_t rdma, uint32_t connection_id,
                                                   doca_dpa_dev_mmap_t dst_mmap, uint64_t dst_addr,
                                                   doca_dpa_dev_mmap_t src_mmap, uint64_t src_addr,
                                                   size_t length, uint32_t flags)
{
	post(__func__, rdma,
	     &(struct sdoca_rdma_dpa_post){ .op = SDOCA_RDMA_DPA_READ,
	                                    .conn_id = connection_id,
	                                    .local_mmap = dst_mmap,
	                                    .local_addr = dst_addr,
	                                    .remote_mmap = src_mmap,
	                                    .remote_addr = src_addr,
	                                    .length = length,
	                                    .flags = flags });
}

DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_buf_read(doca_dpa_dev_rdma_t rdma,
                                                       uint32_t connection_id,
                                                       doca_dpa_dev_buf_t dst_buf,
                                                       doca_dpa_dev_buf_t src_buf, uint32_t flags)
{
	const struct doca_dpa_dev_buf *dst = buf_of(dst_buf), *src = buf_of(src_buf);
	post(__func__, rdma,
	     &(struct sdoca_rdma_dpa_post){ .op = SDOCA_RDMA_DPA_READ,
	                                    .conn_id = connection_id,
	                                    .local_mmap = dst->mmap,
	                                    .local_addr = dst->addr,
	                                    .remote_mmap = src->mmap,
	                                    .remote_addr = src->addr,
	                                    .length = src->len,
	                                    .flags = flags });
}

static void write_common(const char *caller, enum sdoca_rdma_dpa_op op, doca_dpa_dev_rdma_t rdma,
                         uint32_t connection_id, doca_dpa_dev_mmap_t dst_mmap, uint64_t dst_addr,
                         doca_dpa_dev_mmap_t src_mmap, uint64_t src_addr, size_t length,
                         uint32_t immediate, uint32_t flags)
{
	post(caller, rdma,
	     &(struct sdoca_rdma_dpa_post){ .op = op,
	                                    .conn_id = connection_id,
	                                    .local_mmap = src_mmap,
	                                    .local_addr = src_addr,
	                                    .remote_mmap = dst_mmap,
	                                    .remote_addr = dst_addr,
	                                    .length = length,
	                                    .immediate = immediate,
	                                    .flags = flags });
}

DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_write(doca_dpa_dev_rdma_t rdma,
                                                    uint32_t connection_id,
                                                    doca_dpa_dev_mmap_t dst_mmap, uint64_t dst_addr,
                                                    doca_dpa_dev_mmap_t src_mmap, uint64_t src_addr,
                                                    size_t length, uint32_t flags)
{
	write_common(__func__, SDOCA_RDMA_DPA_WRITE, rdma, connection_id, dst_mmap, dst_addr,
	             src_mmap, src_addr, length, 0, flags);
}

DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_buf_write(doca_dpa_dev_rdma_t rdma,
                                                        uint32_t connection_id,
                                                        doca_dpa_dev_buf_t dst_buf,
                                                        doca_dpa_dev_buf_t src_buf, uint32_t flags)
{
	const struct doca_dpa_dev_buf *dst = buf_of(dst_buf), *src = buf_of(src_buf);
	write_common(__func__, SDOCA_RDMA_DPA_WRITE, rdma, connection_id, dst->mmap, dst->addr,
	             src->mmap, src->addr, src->len, 0, flags);
}

DOCA_EXPERIMENTAL void
doca_dpa_dev_rdma_post_write_imm(doca_dpa_dev_rdma_t rdma, uint32_t connection_id,
                                 doca_dpa_dev_mmap_t dst_mmap, uint64_t dst_addr,
                                 doca_dpa_dev_mmap_t src_mmap, uint64_t src_addr, size_t length,
                                 uint32_t immediate, uint32_t flags)
{
	write_common(__func__, SDOCA_RDMA_DPA_WRITE_IMM, rdma, connection_id, dst_mmap, dst_addr,
	             src_mmap, src_addr, length, immediate, flags);
}

DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_buf_write_imm(doca_dpa_dev_rdma_t rdma,
                                                            uint32_t connection_id,
                                                            doca_dpa_dev_buf_t dst_buf,
                                                            doca_dpa_dev_buf_t src_buf,
                                                            uint32_t immediate, uint32_t flags)
{
	const struct doca_dpa_dev_buf *dst = buf_of(dst_buf), *src = buf_of(src_buf);
	write_common(__func__, SDOCA_RDMA_DPA_WRITE_IMM, rdma, connection_id, dst->mmap, dst->addr,
	             src->mmap, src->addr, src->len, immediate, flags);
}

static void send_common(const char *caller, enum sdoca_rdma_dpa_op op, doca_dpa_dev_rdma_t rdma,
                        uint32_t connection_id, doca_dpa_dev_mmap_t mmap, uint64_t addr,
                        size_t length, uint32_t immediate, uint32_t flags)
{
	post(caller, rdma,
	     &(struct sdoca_rdma_dpa_post){ .op = op,
	                                    .conn_id = connection_id,
	                                    .local_mmap = mmap,
	                                    .local_addr = addr,
	                                    .length = length,
	                                    .immediate = immediate,
	                                    .flags = flags });
}

DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_send(doca_dpa_dev_rdma_t rdma, uint32_t connection_id,
                                                   doca_dpa_dev_mmap_t mmap, uint64_t addr,
                                                   size_t length, uint32_t flags)
{
	send_common(__func__, SDOCA_RDMA_DPA_SEND, rdma, connection_id, mmap, addr, length, 0,
	            flags);
}

DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_buf_send(doca_dpa_dev_rdma_t rdma,
                                                       uint32_t connection_id,
                                                       doca_dpa_dev_buf_t buf, uint32_t flags)
{
	const struct doca_dpa_dev_buf *b = buf_of(buf);
	send_common(__func__, SDOCA_RDMA_DPA_SEND, rdma, connection_id, b->mmap, b->addr, b->len, 0,
	            flags);
}

DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_send_imm(doca_dpa_dev_rdma_t rdma,
                                                       uint32_t connection_id,
                                                       doca_dpa_dev_mmap_t mmap, uint64_t addr,
                                                       size_t length, uint32_t immediate,
                                                       uint32_t flags)
{
	send_common(__func__, SDOCA_RDMA_DPA_SEND_IMM, rdma, connection_id, mmap, addr, length,
	            immediate, flags);
}

DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_buf_send_imm(doca_dpa_dev_rdma_t rdma,
                                                           uint32_t connection_id,
                                                           doca_dpa_dev_buf_t buf,
                                                           uint32_t immediate, uint32_t flags)
{
	const struct doca_dpa_dev_buf *b = buf_of(buf);
	send_common(__func__, SDOCA_RDMA_DPA_SEND_IMM, rdma, connection_id, b->mmap, b->addr,
	            b->len, immediate, flags);
}

DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_receive(doca_dpa_dev_rdma_t rdma,
                                                      doca_dpa_dev_mmap_t mmap, uint64_t addr,
                                                      size_t length)
{
	enum sdoca_rdma_dpa_bad bad = SDOCA_RDMA_DPA_BAD_CALL;
	char why[WHY_MAX];
	sdoca_dpa_cancel_point(__func__);
	doca_error_t err = sdoca_rdma_dpa_receive(rdma, mmap, addr, length, &bad, why, sizeof(why));

	if (err != DOCA_SUCCESS)
		bad_post(__func__, err, why, bad);
}

DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_buf_receive(doca_dpa_dev_rdma_t rdma,
                                                          doca_dpa_dev_buf_t buf)
{
	const struct doca_dpa_dev_buf *b = buf_of(buf);
	doca_dpa_dev_rdma_post_receive(rdma, b->mmap, b->addr, b->len);
}

DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_receive_ack(doca_dpa_dev_rdma_t rdma, uint32_t num_acked)
{
	enum sdoca_rdma_dpa_bad bad = SDOCA_RDMA_DPA_BAD_CALL;
	char why[WHY_MAX];
	sdoca_dpa_cancel_point(__func__);
	doca_error_t err = sdoca_rdma_dpa_receive_ack(rdma, num_acked, &bad, why, sizeof(why));

	if (err != DOCA_SUCCESS)
		bad_post(__func__, err, why, bad);
}

DOCA_EXPERIMENTAL uint32_t
doca_dpa_dev_rdma_completion_get_wr_index(doca_dpa_dev_completion_element_t comp_element)
{
	if (comp_element == 0) {
		bad_post(__func__, DOCA_ERROR_INVALID_VALUE, "null completion element",
		         SDOCA_RDMA_DPA_BAD_CALL);
		return 0;
	}
	return ((const struct sdoca_dpa_cqe *)(uintptr_t)comp_element)->wr_index;
}

DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_atomic_fetch_add(doca_dpa_dev_rdma_t rdma,
                                                               uint32_t connection_id,
                                                               doca_dpa_dev_mmap_t dst_mmap,
                                                               uint64_t dst_addr, uint64_t value,
                                                               uint32_t flags)
{
	post(__func__, rdma,
	     &(struct sdoca_rdma_dpa_post){ .op = SDOCA_RDMA_DPA_ATOMIC_FA,
	                                    .conn_id = connection_id,
	                                    .remote_mmap = dst_mmap,
	                                    .remote_addr = dst_addr,
	                                    .value = value,
	                                    .flags = flags });
}

DOCA_EXPERIMENTAL void doca_dpa_dev_rdma_post_buf_atomic_fetch_add(doca_dpa_dev_rdma_t rdma,
                                                                   uint32_t connection_id,
                                                                   doca_dpa_dev_buf_t dst_buf,
                                                                   uint64_t value, uint32_t flags)
{
	const struct doca_dpa_dev_buf *dst = buf_of(dst_buf);
	doca_dpa_dev_rdma_post_atomic_fetch_add(rdma, connection_id, dst->mmap, dst->addr, value,
	                                        flags);
}

static void signal_common(const char *caller, enum sdoca_rdma_dpa_op op, doca_dpa_dev_rdma_t rdma,
                          uint32_t connection_id, doca_dpa_dev_sync_event_remote_net_t ev,
                          uint64_t count)
{
	post(caller, rdma,
	     &(struct sdoca_rdma_dpa_post){ .op = op,
	                                    .conn_id = connection_id,
	                                    .remote_event = ev,
	                                    .value = count,
	                                    .flags = SDOCA_RDMA_DPA_FLUSH |
	                                             SDOCA_RDMA_DPA_OPTIMIZE_REPORTS });
}

DOCA_EXPERIMENTAL void
doca_dpa_dev_rdma_signal_set(doca_dpa_dev_rdma_t rdma, uint32_t connection_id,
                             doca_dpa_dev_sync_event_remote_net_t remote_sync_event, uint64_t count)
{
	signal_common(__func__, SDOCA_RDMA_DPA_SIGNAL_SET, rdma, connection_id, remote_sync_event,
	              count);
}

DOCA_EXPERIMENTAL void
doca_dpa_dev_rdma_signal_add(doca_dpa_dev_rdma_t rdma, uint32_t connection_id,
                             doca_dpa_dev_sync_event_remote_net_t remote_sync_event, uint64_t count)
{
	signal_common(__func__, SDOCA_RDMA_DPA_SIGNAL_ADD, rdma, connection_id, remote_sync_event,
	              count);
}

/* Memory is shared: a handle's address is the host address (2.3). */
DOCA_EXPERIMENTAL doca_dpa_dev_uintptr_t doca_dpa_dev_buf_get_external_ptr(doca_dpa_dev_buf_t buf)
{
	if (buf == 0) {
		bad_post(__func__, DOCA_ERROR_INVALID_VALUE, "null buffer handle",
		         SDOCA_RDMA_DPA_BAD_CALL);
		return 0;
	}
	return buf_of(buf)->addr;
}

DOCA_EXPERIMENTAL doca_dpa_dev_uintptr_t
doca_dpa_dev_mmap_get_external_ptr(doca_dpa_dev_mmap_t mmap_handle, uint64_t addr)
{
	struct sdoca_mmap_dpa_view v;

	if (sdoca_mmap_dpa_lookup(mmap_handle, &v) != DOCA_SUCCESS) {
		bad_post(__func__, DOCA_ERROR_INVALID_VALUE, "mmap handle is not registered",
		         SDOCA_RDMA_DPA_BAD_CALL);
		return 0;
	}
	return addr;
}
