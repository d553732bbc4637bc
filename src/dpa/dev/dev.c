/*
 * DPA device calls of doca_dpa_dev.h: log, trace, device, rank.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The device calls of doca_dpa_dev.h that kernels and RPCs make: log,
 * trace, device selection, rank. They run on the host thread executing the
 * kernel and act on its DPA (sdoca_dpa_exec); DPA threads' calls (local
 * storage, reschedule, finish, notify), yield, and completion contexts'
 * calls. Most are cancellation points (exec.c): a stop or a launch's or
 * RPC's deadline ends the kernel there. The
 * hash-table calls are not built: each logs that once and records
 * NOT_SUPPORTED as the DPA's last error.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <doca_dpa_dev.h>
#include <dpaintrin.h>

#include "core/sdk_log.h"
#include "core/sync_event.h"
#include "dpa/comp.h"
#include "dpa/dpa.h"

SDOCA_LOG_MODULE(dpa_dev);

/* A line longer than this is cut (and still ends the line). */
#define DEV_LINE_MAX 4096

/* One write() per line, so lines of concurrent kernels never interleave;
 * stdout's own buffer goes first so host and device lines keep their order. */
static void write_line(int fd, const char *line, size_t len)
{
	if (fd < 0) {
		fflush(stdout);
		fd = STDOUT_FILENO;
	}
	while (len > 0) {
		ssize_t n = write(fd, line, len);
		if (n <= 0)
			return; /* lines may be lost, as on hardware under load */
		line += n;
		len -= (size_t)n;
	}
}

static void dev_vlog(int level, const char *format, va_list args)
{
	struct sdoca_dpa_exec *exec = sdoca_dpa_exec;
	int enabled = exec ? atomic_load(&exec->dpa->log_level) : DOCA_DPA_DEV_LOG_LEVEL_INFO;
	if (level > enabled || enabled == DOCA_DPA_DEV_LOG_LEVEL_DISABLE)
		return;
	char line[DEV_LINE_MAX];
	int n = vsnprintf(line, sizeof(line), format, args);
	if (n < 0)
		return;
	size_t len = (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1;
	if (len == sizeof(line) - 1 && line[len - 1] != '\n')
		line[len - 1] = '\n';
	write_line(exec ? exec->dpa->log_fd : -1, line, len);
}

DOCA_EXPERIMENTAL void doca_dpa_dev_log(doca_dpa_dev_log_level_t log_level, const char *format, ...)
{
	sdoca_dpa_cancel_point(__func__);
	va_list args;
	va_start(args, format);
	dev_vlog((int)log_level, format, args);
	va_end(args);
}

DOCA_EXPERIMENTAL void doca_dpa_dev_printf(const char *format, ...)
{
	sdoca_dpa_cancel_point(__func__);
	va_list args;
	va_start(args, format);
	dev_vlog(DOCA_DPA_DEV_LOG_LEVEL_ERROR, format, args);
	va_end(args);
}

DOCA_EXPERIMENTAL void doca_dpa_dev_trace(uint64_t arg1, uint64_t arg2, uint64_t arg3,
                                          uint64_t arg4, uint64_t arg5)
{
	sdoca_dpa_cancel_point(__func__);
	struct sdoca_dpa_exec *exec = sdoca_dpa_exec;
	char line[128];
	int n = snprintf(line, sizeof(line), "0x%lx 0x%lx 0x%lx 0x%lx 0x%lx\n", (unsigned long)arg1,
	                 (unsigned long)arg2, (unsigned long)arg3, (unsigned long)arg4,
	                 (unsigned long)arg5);
	if (n > 0 && (size_t)n < sizeof(line))
		write_line(exec ? exec->dpa->trace_fd : -1, line, (size_t)n);
}

DOCA_STABLE uint64_t softdoca_dpa_time_ns(void)
{
	return sdoca_now_ns();
}

DOCA_EXPERIMENTAL void doca_dpa_dev_trace_flush(void)
{
	/* Every trace line is written at once. */
}

/* A device call made outside any kernel or RPC (host code calling it). */
static struct sdoca_dpa_exec *exec_or_log(const char *caller)
{
	struct sdoca_dpa_exec *exec = sdoca_dpa_exec;
	if (exec == NULL)
		SDOCA_LOG_ONCE(DOCA_LOG_LEVEL_ERROR, "%s: called outside a DPA kernel or RPC",
		               caller);
	return exec;
}

DOCA_EXPERIMENTAL void doca_dpa_dev_device_set(doca_dpa_dev_t dpa_handle)
{
	struct sdoca_dpa_exec *exec = exec_or_log(__func__);
	if (exec == NULL)
		return;
	if (dpa_handle == 0) {
		exec->selected = exec->dpa;
		return;
	}
	struct doca_dpa *dpa = sdoca_dpa_from_handle(dpa_handle);
	if (dpa == NULL) {
		SDOCA_ERR("DPA kernel '%s': doca_dpa_dev_device_set: 0x%lx is not a DPA handle",
		          exec->kernel->name, (unsigned long)dpa_handle);
		sdoca_dpa_set_error(exec->dpa, DOCA_ERROR_INVALID_VALUE);
		return;
	}
	exec->selected = dpa;
}

DOCA_EXPERIMENTAL unsigned int doca_dpa_dev_thread_rank(void)
{
	struct sdoca_dpa_exec *exec = exec_or_log(__func__);
	return exec ? exec->rank : 0;
}

DOCA_EXPERIMENTAL unsigned int doca_dpa_dev_num_threads(void)
{
	struct sdoca_dpa_exec *exec = exec_or_log(__func__);
	return exec ? exec->num_threads : 1;
}

/* Not built yet: says so once, and the DPA's last error records it. */
#define DEV_NOT_BUILT()                                                                     \
	do {                                                                                \
		SDOCA_LOG_ONCE(DOCA_LOG_LEVEL_WARNING,                                      \
		               "%s is not supported by softdoca yet (DPA threads and "      \
		               "completions are not built)",                                \
		               __func__);                                                   \
		if (sdoca_dpa_exec != NULL)                                                 \
			sdoca_dpa_set_error(sdoca_dpa_exec->dpa, DOCA_ERROR_NOT_SUPPORTED); \
	} while (0)

/* Calls that never return: on a DPA thread they end the activation; in a
 * launch, finish ends the instance and reschedule is a bad call that ends
 * it; inside an RPC both abort it (BAD_STATE). */
static void __attribute__((noreturn)) leave_execution(const char *caller, enum sdoca_dpa_leave how)
{
	struct sdoca_dpa_exec *exec = sdoca_dpa_exec;
	if (exec == NULL) {
		SDOCA_CRIT("%s: called outside a DPA kernel: nowhere to return to", caller);
		abort();
	}
	if (exec->thread != NULL)
		sdoca_dpa_thread_leave(exec->thread, how);
	if (exec->launch_id != 0 && how == SDOCA_DPA_LEAVE_FINISH)
		siglongjmp(exec->entry, 1); /* ends the launch instance, as a return does */
	char where[48];
	SDOCA_ERR("DPA kernel '%s' (%s): %s is for DPA threads only", exec->kernel->name,
	          sdoca_dpa_exec_where(exec, where, sizeof(where)), caller);
	sdoca_dpa_set_error(exec->dpa, DOCA_ERROR_BAD_STATE);
	exec->abort_error = DOCA_ERROR_BAD_STATE;
	siglongjmp(exec->entry, 1);
}

DOCA_EXPERIMENTAL void doca_dpa_dev_thread_reschedule(void)
{
	leave_execution(__func__, SDOCA_DPA_LEAVE_RESCHEDULE);
}

DOCA_EXPERIMENTAL void doca_dpa_dev_thread_finish(void)
{
	leave_execution(__func__, SDOCA_DPA_LEAVE_FINISH);
}

/* A bad device call: logged (rate-limited by the log), recorded as the
 * DPA's last error, and otherwise nothing happens (2.12). */
static void bad_call(const char *caller, doca_error_t err, const char *what, uint64_t value)
{
	sdoca_dpa_bad_call(caller, err, "%s 0x%lx", what, (unsigned long)value);
}

DOCA_EXPERIMENTAL doca_dpa_dev_uintptr_t doca_dpa_dev_thread_get_local_storage(void)
{
	struct sdoca_dpa_exec *exec = exec_or_log(__func__);
	if (exec == NULL)
		return 0;
	if (exec->thread == NULL) {
		bad_call(__func__, DOCA_ERROR_BAD_STATE, "not on a DPA thread; kernel id", 0);
		return 0;
	}
	return sdoca_dpa_thread_local_storage(exec->thread);
}

DOCA_EXPERIMENTAL void doca_dpa_dev_yield(void)
{
	sdoca_dpa_cancel_point(__func__);
	sched_yield();
}

/* From a thread, an RPC, a launch, or host code (exec NULL). */
DOCA_EXPERIMENTAL void
doca_dpa_dev_thread_notify(doca_dpa_dev_notification_completion_t notification_handle)
{
	sdoca_dpa_cancel_point(__func__);
	if (!sdoca_dpa_notify(notification_handle))
		bad_call(__func__, DOCA_ERROR_INVALID_VALUE,
		         "not a started notification completion:", notification_handle);
}

DOCA_EXPERIMENTAL void doca_dpa_dev_hash_table_add(doca_dpa_dev_hash_table_t ht_handle,
                                                   uint32_t key, uint64_t value)
{
	(void)ht_handle;
	(void)key;
	(void)value;
	DEV_NOT_BUILT();
}

DOCA_EXPERIMENTAL void doca_dpa_dev_hash_table_remove(doca_dpa_dev_hash_table_t ht_handle,
                                                      uint32_t key)
{
	(void)ht_handle;
	(void)key;
	DEV_NOT_BUILT();
}

DOCA_EXPERIMENTAL int doca_dpa_dev_hash_table_find(doca_dpa_dev_hash_table_t ht_handle,
                                                   uint32_t key, uint64_t *value)
{
	(void)ht_handle;
	(void)key;
	(void)value;
	DEV_NOT_BUILT();
	return 0;
}

DOCA_EXPERIMENTAL int doca_dpa_dev_get_completion(doca_dpa_dev_completion_t dpa_comp_handle,
                                                  doca_dpa_dev_completion_element_t *comp_element)
{
	const struct sdoca_dpa_cqe *elem = NULL;
	doca_error_t err;
	sdoca_dpa_cancel_point(__func__); /* kernels poll here */
	int got = sdoca_dpa_completion_get(dpa_comp_handle, &elem, &err);
	/* Nothing yet: the soft NIC progresses on this thread (2.6), so a
	 * kernel polling here produces its completions itself. */
	if (!got && err == DOCA_SUCCESS && sdoca_waiter_poll())
		got = sdoca_dpa_completion_get(dpa_comp_handle, &elem, &err);
	if (err != DOCA_SUCCESS) {
		bad_call(__func__, err, "not a started completion context:", dpa_comp_handle);
		return 0;
	}
	if (got)
		*comp_element = (doca_dpa_dev_completion_element_t)(uintptr_t)elem;
	return got;
}

/* An element is the address of its slot, valid until acknowledged (2.2). */
static const struct sdoca_dpa_cqe *element(doca_dpa_dev_completion_element_t e, const char *caller)
{
	if (e == 0) {
		bad_call(caller, DOCA_ERROR_INVALID_VALUE, "null completion element", e);
		return NULL;
	}
	return (const struct sdoca_dpa_cqe *)(uintptr_t)e;
}

DOCA_EXPERIMENTAL doca_dpa_dev_completion_type_t
doca_dpa_dev_get_completion_type(doca_dpa_dev_completion_element_t comp_element)
{
	const struct sdoca_dpa_cqe *c = element(comp_element, __func__);
	return c ? (doca_dpa_dev_completion_type_t)c->type : DOCA_DPA_DEV_COMP_SEND_ERR;
}

DOCA_EXPERIMENTAL uint32_t
doca_dpa_dev_get_completion_user_data(doca_dpa_dev_completion_element_t comp_element)
{
	const struct sdoca_dpa_cqe *c = element(comp_element, __func__);
	return c ? c->user_data : 0;
}

DOCA_EXPERIMENTAL uint32_t
doca_dpa_dev_get_completion_immediate(doca_dpa_dev_completion_element_t comp_element)
{
	const struct sdoca_dpa_cqe *c = element(comp_element, __func__);
	return c ? c->immediate : 0;
}

DOCA_EXPERIMENTAL void doca_dpa_dev_completion_ack(doca_dpa_dev_completion_t dpa_comp_handle,
                                                   uint64_t num_comp)
{
	sdoca_dpa_cancel_point(__func__);
	doca_error_t err = sdoca_dpa_completion_ack(dpa_comp_handle, num_comp);
	if (err != DOCA_SUCCESS)
		bad_call(__func__, err,
		         "unknown completion context, or more acknowledged than read; count",
		         num_comp);
}

DOCA_EXPERIMENTAL void
doca_dpa_dev_completion_request_notification(doca_dpa_dev_completion_t dpa_comp_handle)
{
	sdoca_dpa_cancel_point(__func__);
	doca_error_t err = sdoca_dpa_completion_request_notification(dpa_comp_handle);
	if (err != DOCA_SUCCESS)
		bad_call(__func__, err, "not a started completion context:", dpa_comp_handle);
}
