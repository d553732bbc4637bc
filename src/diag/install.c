/*
 * Installing the diagnostics into the soft NIC's hooks.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Installing the diagnostics into the soft NIC's hooks (nic/diag_hooks.h),
 * and starting the capture SOFTDOCA_CAPTURE asks for. An explicit call
 * from the layers above rather than a constructor: a static link keeps
 * only the objects something refers to.
 */
#include <pthread.h>

#include "diag/diag.h"
#include "diag/fault.h"
#include "nic/diag_hooks.h"

static const struct nic_diag_hooks hooks = {
	.fault_attach = diag_fault_attach,
	.fault_detach = diag_fault_detach,
	.fault_message = diag_fault_message,
	.fault_post = diag_fault_post,
	.fault_stopped = diag_fault_stopped,
	.fault_timers = diag_fault_timers,
	.channel_open = diag_channel_open,
	.channel_event = diag_channel_event,
	.channel_timers = diag_channel_timers,
	.channel_close = diag_channel_close,
};

static void install(void)
{
	nic_diag_set(&hooks);
	diag_capture_from_environment();
}

void sdoca_diag_install(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, install);
}
