/*
 * libdoca_dpa: what every execution (thread, launch, RPC) shares.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libdoca_dpa: what every execution (DPA thread activation, launch
 * instance, RPC) shares: its name in log lines, its deadline, and the
 * cancellation points device calls pass through (docs/dpa.md 2.12). A
 * cancelled kernel never returns into its code: the point siglongjmps to
 * the execution's entry, as reschedule and finish do; so does a device
 * call that stops the execution (a post with no queue to fail on).
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "core/sdk_log.h"
#include "dpa/dpa.h"

SDOCA_LOG_MODULE(dpa_exec);

uint64_t sdoca_dpa_deadline(const struct doca_dpa *dpa)
{
	return sdoca_now_ns() + dpa->max_run_s * 1000000000ull;
}

const char *sdoca_dpa_exec_where(const struct sdoca_dpa_exec *exec, char *buf, size_t len)
{
	if (exec->thread != NULL)
		snprintf(buf, len, "thread %u", exec->thread_id);
	else if (exec->launch_id != 0)
		snprintf(buf, len, "launch %u, rank %u", exec->launch_id, exec->rank);
	else
		snprintf(buf, len, "RPC");
	return buf;
}

void sdoca_dpa_cancel_point(const char *caller)
{
	struct sdoca_dpa_exec *exec = sdoca_dpa_exec;
	char where[48];

	if (exec == NULL)
		return;
	if (exec->thread != NULL) {
		sdoca_dpa_thread_cancel_point(exec->thread); /* no deadline (2.12) */
		return;
	}
	if (exec->stop_epoch != NULL &&
	    atomic_load_explicit(exec->stop_epoch, memory_order_relaxed) != exec->epoch) {
		SDOCA_WARN("DPA kernel '%s' (%s): %s: cancelled: the DPA stops", exec->kernel->name,
		           sdoca_dpa_exec_where(exec, where, sizeof(where)), caller);
		exec->abort_error = DOCA_ERROR_SHUTDOWN;
		siglongjmp(exec->entry, 1);
	}
	if (exec->deadline_ns != 0 && sdoca_now_ns() >= exec->deadline_ns) {
		SDOCA_ERR("DPA kernel '%s' (%s): %s: ran longer than the kernel max run time (%llu "
		          "s): cancelled",
		          exec->kernel->name, sdoca_dpa_exec_where(exec, where, sizeof(where)),
		          caller, exec->dpa->max_run_s);
		sdoca_dpa_set_error(exec->dpa, DOCA_ERROR_TIME_OUT);
		exec->abort_error = DOCA_ERROR_TIME_OUT;
		siglongjmp(exec->entry, 1);
	}
}

void sdoca_dpa_bad_call(const char *caller, doca_error_t err, const char *fmt, ...)
{
	struct sdoca_dpa_exec *exec = sdoca_dpa_exec;
	char what[320], where[48];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (exec == NULL) {
		SDOCA_ERR("%s (outside a DPA kernel): %s", caller, what);
		return;
	}
	SDOCA_ERR("DPA kernel '%s' (%s): %s: %s", exec->kernel->name,
	          sdoca_dpa_exec_where(exec, where, sizeof(where)), caller, what);
	sdoca_dpa_set_error(exec->dpa, err);
}

void sdoca_dpa_exec_fail(const char *caller, doca_error_t err)
{
	struct sdoca_dpa_exec *exec = sdoca_dpa_exec;
	char where[48];

	if (exec == NULL)
		return;
	sdoca_dpa_exec_where(exec, where, sizeof(where));
	if (exec->thread != NULL) {
		SDOCA_ERR("DPA kernel '%s' (%s): %s: the DPA thread stops in the error state",
		          exec->kernel->name, where, caller);
		sdoca_dpa_thread_leave(exec->thread, SDOCA_DPA_LEAVE_ERROR);
	}
	SDOCA_ERR("DPA kernel '%s' (%s): %s: the %s ends with %s", exec->kernel->name, where,
	          caller, exec->launch_id != 0 ? "launch instance" : "RPC",
	          doca_error_get_name(err));
	exec->abort_error = err;
	siglongjmp(exec->entry, 1);
}
