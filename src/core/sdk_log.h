/*
 * How softdoca's own code logs.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * How softdoca's own code logs. Messages go to the SDK backends of doca_log
 * (and, until the program creates one, to stderr at WARNING; SOFTDOCA_LOG
 * changes that level).
 *
 *   SDOCA_LOG_MODULE(mmap);          once per file
 *   SDOCA_ERR("bad length %zu", n);  then
 */
#ifndef SDOCA_CORE_SDK_LOG_H_
#define SDOCA_CORE_SDK_LOG_H_

#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>

#include <doca_error.h>
#include <doca_log.h>

#include "core/compiler.h"

/* The most verbose level any SDK backend prints; lets callers skip formatting. */
SDOCA_EXPORT extern _Atomic uint32_t sdoca_log_sdk_max_level;

SDOCA_EXPORT doca_error_t sdoca_log_register_sdk_source(const char *name, int *source);
SDOCA_EXPORT void sdoca_log_sdk(uint32_t level, int source, const char *file, int line,
                                const char *format, ...) __attribute__((format(printf, 5, 6)));

/* An application message, as doca_log() and DOCA 2.2's forms of it send
 * (fname NULL: the source's name stands in for the file). */
doca_error_t sdoca_log_app_v(uint32_t level, int source, const char *fname, int line,
                             const char *func, const char *format, va_list args);

#define SDOCA_LOG_MODULE(name)                                                        \
	static int sdoca_log_source = -1;                                             \
	static void __attribute__((constructor(101))) sdoca_log_module_ctor(void)     \
	{                                                                             \
		sdoca_log_register_sdk_source("softdoca::" #name, &sdoca_log_source); \
	}

#define SDOCA_LOG_ENABLED(level) \
	((uint32_t)(level) <= atomic_load_explicit(&sdoca_log_sdk_max_level, memory_order_relaxed))

/* The log call as an expression, for sdoca_fail() and sdoca_arg_valid(). */
#define SDOCA_LOG_EXPR(level, ...)                                                         \
	(SDOCA_LOG_ENABLED(level)                                                          \
	         ? sdoca_log_sdk(level, sdoca_log_source, __FILE__, __LINE__, __VA_ARGS__) \
	         : (void)0)

#define SDOCA_LOG(level, ...)                       \
	do {                                        \
		SDOCA_LOG_EXPR(level, __VA_ARGS__); \
	} while (0)

#define SDOCA_CRIT(...) SDOCA_LOG(DOCA_LOG_LEVEL_CRIT, __VA_ARGS__)
#define SDOCA_ERR(...) SDOCA_LOG(DOCA_LOG_LEVEL_ERROR, __VA_ARGS__)
#define SDOCA_WARN(...) SDOCA_LOG(DOCA_LOG_LEVEL_WARNING, __VA_ARGS__)
#define SDOCA_INFO(...) SDOCA_LOG(DOCA_LOG_LEVEL_INFO, __VA_ARGS__)
#define SDOCA_DBG(...) SDOCA_LOG(DOCA_LOG_LEVEL_DEBUG, __VA_ARGS__)
#define SDOCA_TRACE(...) SDOCA_LOG(DOCA_LOG_LEVEL_TRACE, __VA_ARGS__)

/* Logs at the given level the first time only (e.g. "not supported" notes). */
#define SDOCA_LOG_ONCE(level, ...)                                 \
	do {                                                       \
		static atomic_flag sdoca_once_ = ATOMIC_FLAG_INIT; \
		if (!atomic_flag_test_and_set(&sdoca_once_))       \
			SDOCA_LOG(level, __VA_ARGS__);             \
	} while (0)

/*
 * Error exits. None of these returns: the caller writes its return, so every
 * exit of a function is visible where it happens.
 *
 *   if (!sdoca_arg_valid(buf != NULL))
 *           return DOCA_ERROR_INVALID_VALUE;
 *   if (len > max)
 *           return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "%s: %zu is too long", __func__, len);
 *   SDOCA_LOG_NOT_SUPPORTED("no DPA");
 *   return DOCA_ERROR_NOT_SUPPORTED;
 */

/* Logs the reason at ERROR and evaluates to err. */
#define sdoca_fail(err, ...) (SDOCA_LOG_EXPR(DOCA_LOG_LEVEL_ERROR, __VA_ARGS__), (err))

/* Argument check: evaluates to 1 when cond holds; otherwise logs which
 * argument was wrong and evaluates to 0. */
#define sdoca_arg_valid(cond)  \
	(SDOCA_LIKELY(cond) || \
	 (SDOCA_LOG_EXPR(DOCA_LOG_LEVEL_ERROR, "%s: invalid input: %s", __func__, #cond), 0))

/* A function softdoca does not implement says why, once per call site (a
 * statement: the flag that makes it once is a static). */
#define SDOCA_LOG_NOT_SUPPORTED(why) \
	SDOCA_LOG_ONCE(DOCA_LOG_LEVEL_WARNING, "%s is not supported by softdoca: %s", __func__, why)

#endif /* SDOCA_CORE_SDK_LOG_H_ */
