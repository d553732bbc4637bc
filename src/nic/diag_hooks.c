/*
 * The diagnostics hooks' table and its no-op defaults.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The diagnostics hooks' table (diag_hooks.h) and what is in it until
 * src/diag/ installs its own: nothing injected, no counters channel.
 */
#include "nic/capture_hook.h"
#include "nic/diag_hooks.h"

static void no_attach(struct nic_qp *qp, uint32_t conn_id)
{
	(void)qp;
	(void)conn_id;
}

static void no_detach(struct nic_qp *qp)
{
	(void)qp;
}

static bool no_message(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx, bool *kept)
{
	(void)qp;
	(void)m;
	(void)rx;
	*kept = false;
	return false;
}

static bool no_post(struct nic_qp *qp)
{
	(void)qp;
	return false;
}

static bool no_stop(struct nic_worker *w)
{
	(void)w;
	return false;
}

static void no_timers(struct nic_qp *qp, uint64_t now_ns, uint64_t *next_ns)
{
	(void)qp;
	(void)now_ns;
	(void)next_ns;
}

static void no_channel_open(int epoll_fd, uint64_t tag)
{
	(void)epoll_fd;
	(void)tag;
}

static void no_channel(void)
{
}

static uint64_t no_deadline(void)
{
	return UINT64_MAX;
}

static const struct nic_diag_hooks none = {
	.fault_attach = no_attach,
	.fault_detach = no_detach,
	.fault_message = no_message,
	.fault_post = no_post,
	.fault_stopped = no_stop,
	.fault_timers = no_timers,
	.channel_open = no_channel_open,
	.channel_event = no_channel,
	.channel_timers = no_deadline,
	.channel_close = no_channel,
};

const struct nic_diag_hooks *_Atomic nic_diag = &none;

void nic_diag_set(const struct nic_diag_hooks *hooks)
{
	nic_diag = hooks;
}

/* Off until a capture starts (capture_hook.h). */
_Atomic(const struct nic_capture_ops *) nic_capture;
