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

#define SDOCA_LOG(level, ...)                                                                    \
	do {                                                                                     \
		if (SDOCA_LOG_ENABLED(level))                                                    \
			sdoca_log_sdk(level, sdoca_log_source, __FILE__, __LINE__, __VA_ARGS__); \
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

/* A function softdoca does not implement: says why once, returns NOT_SUPPORTED. */
#define SDOCA_NOT_SUPPORTED(why)                                                              \
	do {                                                                                  \
		SDOCA_LOG_ONCE(DOCA_LOG_LEVEL_WARNING, "%s is not supported by softdoca: %s", \
		               __func__, why);                                                \
		return DOCA_ERROR_NOT_SUPPORTED;                                              \
	} while (0)

/* Argument check: logs which argument was wrong and returns INVALID_VALUE. */
#define SDOCA_CHECK_ARG(cond)                                                \
	do {                                                                 \
		if (SDOCA_UNLIKELY(!(cond))) {                               \
			SDOCA_ERR("%s: invalid input: %s", __func__, #cond); \
			return DOCA_ERROR_INVALID_VALUE;                     \
		}                                                            \
	} while (0)

/* Logs the reason and returns the error. */
#define SDOCA_FAIL(err, ...)            \
	do {                            \
		SDOCA_ERR(__VA_ARGS__); \
		return (err);           \
	} while (0)

#endif /* SDOCA_CORE_SDK_LOG_H_ */
