/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * DOCA logging: sources, levels and backends.
 *
 * A message of level L reaches a backend when upper_limit <= L <= lower_limit
 * (numerically; CRIT = 20 is the least verbose, TRACE = 70 the most).
 * Application messages (DOCA_LOG_* in the program) and SDK messages (from the
 * libraries) go to separate sets of backends.
 */
#ifndef DOCA_LOG_H_
#define DOCA_LOG_H_

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "doca_compat.h"
#include "doca_error.h"

SOFTDOCA_BEGIN_DECLS

enum doca_log_level {
	DOCA_LOG_LEVEL_DISABLE = 10,
	DOCA_LOG_LEVEL_CRIT = 20,
	DOCA_LOG_LEVEL_ERROR = 30,
	DOCA_LOG_LEVEL_WARNING = 40,
	DOCA_LOG_LEVEL_INFO = 50,
	DOCA_LOG_LEVEL_DEBUG = 60,
	DOCA_LOG_LEVEL_TRACE = 70,
};

struct doca_log_backend;

/* Called with the formatted message for a buffer backend. */
typedef void (*log_flush_callback)(char *buf);

#if SOFTDOCA_API_VERSION >= 205
DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_set_level_lower_limit(struct doca_log_backend *backend, uint32_t level);
DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_set_level_upper_limit(struct doca_log_backend *backend, uint32_t upper_limit);
/* A strict limit is no longer changed by the global setters. */
DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_set_level_lower_limit_strict(struct doca_log_backend *backend);
DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_set_level_upper_limit_strict(struct doca_log_backend *backend);
DOCA_EXPERIMENTAL doca_error_t doca_log_level_set_global_lower_limit(uint32_t level);
DOCA_EXPERIMENTAL doca_error_t doca_log_level_set_global_upper_limit(uint32_t upper_limit);
DOCA_EXPERIMENTAL uint32_t doca_log_level_get_global_lower_limit(void);
DOCA_EXPERIMENTAL uint32_t doca_log_level_get_global_upper_limit(void);

DOCA_EXPERIMENTAL doca_error_t doca_log_register_source(const char *source_name, int *source);
DOCA_EXPERIMENTAL doca_error_t doca_log_unregister_source(int source);

/* Backends for application messages. */
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_file(FILE *fptr,
                                                                 struct doca_log_backend **backend);
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_fd(int fd,
                                                               struct doca_log_backend **backend);
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_buf(char *buf, size_t capacity,
                                                                log_flush_callback handler,
                                                                struct doca_log_backend **backend);
DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_create_with_syslog(const char *name, struct doca_log_backend **backend);

/* Backends for SDK messages. */
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_set_sdk_level(struct doca_log_backend *backend,
                                                              uint32_t level);
DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_create_with_file_sdk(FILE *fptr, struct doca_log_backend **backend);
DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_create_with_fd_sdk(int fd, struct doca_log_backend **backend);
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_buf_sdk(
        char *buf, size_t capacity, log_flush_callback handler, struct doca_log_backend **backend);
DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_create_with_syslog_sdk(const char *name, struct doca_log_backend **backend);
DOCA_EXPERIMENTAL doca_error_t doca_log_level_set_global_sdk_limit(uint32_t level);
DOCA_EXPERIMENTAL uint32_t doca_log_level_get_global_sdk_limit(void);

/* Application messages to stdout (the usual first call of a DOCA program). */
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_standard(void);

/* DOCA 2.5 names of the buffer backends. */
DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_create_with_buffer(char *buffer, size_t capacity, log_flush_callback handler,
                                    struct doca_log_backend **backend);
DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_create_with_buffer_sdk(char *buffer, size_t capacity, log_flush_callback handler,
                                        struct doca_log_backend **backend);

DOCA_EXPERIMENTAL doca_error_t doca_log(uint32_t level, int source, const char *fname, int line,
                                        const char *func, const char *format, ...)
        __attribute__((format(printf, 6, 7)));
#else
/* DOCA 2.2's log API: its backend type, its names, and doca_log() without the
 * file and function. */
struct doca_logger_backend;

DOCA_EXPERIMENTAL uint16_t doca_log_get_bucket_time(void);
DOCA_EXPERIMENTAL void doca_log_set_bucket_time(uint16_t bucket_time);
DOCA_EXPERIMENTAL uint16_t doca_log_get_quantity(void);
DOCA_EXPERIMENTAL void doca_log_set_quantity(uint16_t quantity);
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_level_set(struct doca_logger_backend *logger,
                                                          uint32_t level);
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_set_upper_level_limit(
        struct doca_logger_backend *logger, uint32_t upper_level_limit);
DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_set_lower_level_immutable(struct doca_logger_backend *logger);
DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_set_upper_level_immutable(struct doca_logger_backend *logger);
DOCA_EXPERIMENTAL doca_error_t doca_log_global_level_set(uint32_t level);
DOCA_EXPERIMENTAL doca_error_t doca_log_global_set_upper_level_limit(uint32_t upper_level_limit);
DOCA_EXPERIMENTAL uint32_t doca_log_global_level_get(void);
DOCA_EXPERIMENTAL doca_error_t doca_log_source_register(const char *source_name, int *source);
DOCA_EXPERIMENTAL doca_error_t doca_log_source_destroy(int source);
DOCA_EXPERIMENTAL doca_error_t doca_log_rate_bucket_register(int source, int *bucket);
DOCA_EXPERIMENTAL doca_error_t doca_log_create_file_backend(FILE *fptr,
                                                            struct doca_logger_backend **backend);
DOCA_EXPERIMENTAL doca_error_t doca_log_create_fd_backend(int fd,
                                                          struct doca_logger_backend **backend);
DOCA_EXPERIMENTAL doca_error_t doca_log_create_buffer_backend(char *buffer, size_t capacity,
                                                              log_flush_callback handler,
                                                              struct doca_logger_backend **backend);
DOCA_EXPERIMENTAL doca_error_t doca_log_create_syslog_backend(const char *name,
                                                              struct doca_logger_backend **backend);
DOCA_EXPERIMENTAL doca_error_t doca_log_create_standard_backend(void);
DOCA_EXPERIMENTAL doca_error_t doca_log(uint32_t level, int source, int line, const char *format,
                                        ...) SOFTDOCA_SYMBOL(202, doca_log)
        __attribute__((format(printf, 4, 5)));
/* A message of a DOCA_DLOG_* macro (compiled in with DOCA_LOGGING_ALLOW_DLOG). */
DOCA_EXPERIMENTAL doca_error_t doca_log_developer(uint32_t level, int source, int line,
                                                  const char *format, ...)
        __attribute__((format(printf, 4, 5)));
/* A message of a DOCA_LOG_RATE_LIMIT_* macro: at most doca_log_get_quantity()
 * messages of the bucket per doca_log_get_bucket_time() seconds. */
DOCA_EXPERIMENTAL doca_error_t doca_log_rate_limit(uint32_t level, int source, int line, int bucket,
                                                   const char *format, ...)
        __attribute__((format(printf, 5, 6)));
#endif

#define SOFTDOCA_LOG_CONCAT2_(a, b) a##b
#define SOFTDOCA_LOG_CONCAT_(a, b) SOFTDOCA_LOG_CONCAT2_(a, b)

#if SOFTDOCA_API_VERSION >= 205
/* Registers the file's log source before main() runs. The name may contain
 * characters that are not identifiers (DOCA samples use "APP::MAIN"). */
#define DOCA_LOG_REGISTER(SOURCE)                                   \
	static int log_source;                                      \
	static void __attribute__((constructor(101), used))         \
	SOFTDOCA_LOG_CONCAT_(doca_log_source_ctor_, __LINE__)(void) \
	{                                                           \
		doca_log_register_source(#SOURCE, &log_source);     \
	}
#else
/* DOCA 2.2: registered before main(), destroyed after it. */
#define DOCA_LOG_REGISTER(SOURCE)                                   \
	static int log_source;                                      \
	static void __attribute__((constructor(101), used))         \
	SOFTDOCA_LOG_CONCAT_(doca_log_source_ctor_, __LINE__)(void) \
	{                                                           \
		doca_log_source_register(#SOURCE, &log_source);     \
	}                                                           \
	static void __attribute__((destructor(101), used))          \
	SOFTDOCA_LOG_CONCAT_(doca_log_source_dtor_, __LINE__)(void) \
	{                                                           \
		doca_log_source_destroy(log_source);                \
	}
#endif

#if SOFTDOCA_API_VERSION >= 300
#define DOCA_LOG(level, format, ...) \
	doca_log(level, log_source, __FILE__, __LINE__, __func__, format, ##__VA_ARGS__)
#define DOCA_LOG_CRIT(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_CRIT, format, ##__VA_ARGS__)
#define DOCA_LOG_ERR(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_ERROR, format, ##__VA_ARGS__)
#define DOCA_LOG_WARN(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_WARNING, format, ##__VA_ARGS__)
#define DOCA_LOG_INFO(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_INFO, format, ##__VA_ARGS__)
#define DOCA_LOG_DBG(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_DEBUG, format, ##__VA_ARGS__)
#define SOFTDOCA_LOG_TRC_(format, ...) DOCA_LOG(DOCA_LOG_LEVEL_TRACE, format, ##__VA_ARGS__)
#else
/* DOCA 2.x: the level is the suffix of the enumerator. */
#if SOFTDOCA_API_VERSION >= 205
#define DOCA_LOG(level, format, ...)                                                       \
	doca_log(DOCA_LOG_LEVEL_##level, log_source, __FILE__, __LINE__, __func__, format, \
	         ##__VA_ARGS__)
#else
#define DOCA_LOG(level, format, ...) \
	doca_log(DOCA_LOG_LEVEL_##level, log_source, __LINE__, format, ##__VA_ARGS__)
#endif
#define DOCA_LOG_CRIT(format, ...) DOCA_LOG(CRIT, format, ##__VA_ARGS__)
#define DOCA_LOG_ERR(format, ...) DOCA_LOG(ERROR, format, ##__VA_ARGS__)
#define DOCA_LOG_WARN(format, ...) DOCA_LOG(WARNING, format, ##__VA_ARGS__)
#define DOCA_LOG_INFO(format, ...) DOCA_LOG(INFO, format, ##__VA_ARGS__)
#define DOCA_LOG_DBG(format, ...) DOCA_LOG(DEBUG, format, ##__VA_ARGS__)
#define SOFTDOCA_LOG_TRC_(format, ...) DOCA_LOG(TRACE, format, ##__VA_ARGS__)
#endif

#if SOFTDOCA_API_VERSION == 202
/* A bucket per call site, registered at its first message. */
#define DOCA_LOG_RATE_LIMIT(level, format, ...)                                                \
	do {                                                                                   \
		static int log_bucket_ = -1;                                                   \
		if (log_bucket_ == -1)                                                         \
			doca_log_rate_bucket_register(log_source, &log_bucket_);               \
		doca_log_rate_limit(DOCA_LOG_LEVEL_##level, log_source, __LINE__, log_bucket_, \
		                    format, ##__VA_ARGS__);                                    \
	} while (0)
#define DOCA_LOG_RATE_LIMIT_CRIT(format, ...) DOCA_LOG_RATE_LIMIT(CRIT, format, ##__VA_ARGS__)
#define DOCA_LOG_RATE_LIMIT_ERR(format, ...) DOCA_LOG_RATE_LIMIT(ERROR, format, ##__VA_ARGS__)
#define DOCA_LOG_RATE_LIMIT_WARN(format, ...) DOCA_LOG_RATE_LIMIT(WARNING, format, ##__VA_ARGS__)
#define DOCA_LOG_RATE_LIMIT_INFO(format, ...) DOCA_LOG_RATE_LIMIT(INFO, format, ##__VA_ARGS__)
#define DOCA_LOG_RATE_LIMIT_DBG(format, ...) DOCA_LOG_RATE_LIMIT(DEBUG, format, ##__VA_ARGS__)

/* Developer messages: compiled in with DOCA_LOGGING_ALLOW_DLOG, otherwise
 * only type-checked. */
#ifdef DOCA_LOGGING_ALLOW_DLOG
#define DOCA_DLOG(level, format, ...) \
	doca_log_developer(DOCA_LOG_LEVEL_##level, log_source, __LINE__, format, ##__VA_ARGS__)
#else
#define DOCA_DLOG(level, format, ...)                                                            \
	do {                                                                                     \
		if (0)                                                                           \
			doca_log_developer(DOCA_LOG_LEVEL_##level, log_source, __LINE__, format, \
			                   ##__VA_ARGS__);                                       \
	} while (0)
#endif
#define DOCA_DLOG_CRIT(format, ...) DOCA_DLOG(CRIT, format, ##__VA_ARGS__)
#define DOCA_DLOG_ERR(format, ...) DOCA_DLOG(ERROR, format, ##__VA_ARGS__)
#define DOCA_DLOG_WARN(format, ...) DOCA_DLOG(WARNING, format, ##__VA_ARGS__)
#define DOCA_DLOG_INFO(format, ...) DOCA_DLOG(INFO, format, ##__VA_ARGS__)
#define DOCA_DLOG_DBG(format, ...) DOCA_DLOG(DEBUG, format, ##__VA_ARGS__)
#endif

#ifdef DOCA_LOGGING_ALLOW_TRACE
#define DOCA_LOG_TRC(format, ...) SOFTDOCA_LOG_TRC_(format, ##__VA_ARGS__)
#else
/* Compiled out, but the arguments are still type-checked and "used". */
#define DOCA_LOG_TRC(format, ...)                                 \
	do {                                                      \
		if (0)                                            \
			SOFTDOCA_LOG_TRC_(format, ##__VA_ARGS__); \
	} while (0)
#endif

SOFTDOCA_END_DECLS

#endif /* DOCA_LOG_H_ */
