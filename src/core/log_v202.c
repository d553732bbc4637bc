/*
 * DOCA 2.2's log API over log.c.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * DOCA 2.2's log API over log.c: its names for the same backends, sources
 * and limits (its struct doca_logger_backend is doca_log_backend), doca_log()
 * without file and function, developer messages, and rate-limited messages
 * counted per bucket. doca_log.h declares these for SOFTDOCA_API_VERSION=202.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "core/sdk_log.h"

SDOCA_LOG_MODULE(log_v202);

/* What doca_log.h declares for DOCA 2.2 programs. */
struct doca_logger_backend;
uint16_t doca_log_get_bucket_time(void);
void doca_log_set_bucket_time(uint16_t bucket_time);
uint16_t doca_log_get_quantity(void);
void doca_log_set_quantity(uint16_t quantity);
doca_error_t doca_log_backend_level_set(struct doca_logger_backend *logger, uint32_t level);
doca_error_t doca_log_backend_set_upper_level_limit(struct doca_logger_backend *logger,
                                                    uint32_t upper_level_limit);
doca_error_t doca_log_backend_set_lower_level_immutable(struct doca_logger_backend *logger);
doca_error_t doca_log_backend_set_upper_level_immutable(struct doca_logger_backend *logger);
doca_error_t doca_log_global_level_set(uint32_t level);
doca_error_t doca_log_global_set_upper_level_limit(uint32_t upper_level_limit);
uint32_t doca_log_global_level_get(void);
doca_error_t doca_log_source_register(const char *source_name, int *source);
doca_error_t doca_log_source_destroy(int source);
doca_error_t doca_log_rate_bucket_register(int source, int *bucket);
doca_error_t doca_log_create_file_backend(FILE *fptr, struct doca_logger_backend **backend);
doca_error_t doca_log_create_fd_backend(int fd, struct doca_logger_backend **backend);
doca_error_t doca_log_create_buffer_backend(char *buffer, size_t capacity,
                                            log_flush_callback handler,
                                            struct doca_logger_backend **backend);
doca_error_t doca_log_create_syslog_backend(const char *name, struct doca_logger_backend **backend);
doca_error_t doca_log_create_standard_backend(void);
doca_error_t softdoca_v202_doca_log(uint32_t level, int source, int line, const char *format, ...)
        __attribute__((format(printf, 4, 5)));
doca_error_t doca_log_developer(uint32_t level, int source, int line, const char *format, ...)
        __attribute__((format(printf, 4, 5)));
doca_error_t doca_log_rate_limit(uint32_t level, int source, int line, int bucket,
                                 const char *format, ...) __attribute__((format(printf, 5, 6)));

/* The 2.2 backend is the same object under its old name. */
#define BACKEND(logger) ((struct doca_log_backend *)(void *)(logger))
#define OUT_BACKEND(backend) ((struct doca_log_backend **)(void *)(backend))

DOCA_EXPERIMENTAL doca_error_t doca_log_backend_level_set(struct doca_logger_backend *logger,
                                                          uint32_t level)
{
	return doca_log_backend_set_level_lower_limit(BACKEND(logger), level);
}

DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_set_upper_level_limit(struct doca_logger_backend *logger, uint32_t upper)
{
	return doca_log_backend_set_level_upper_limit(BACKEND(logger), upper);
}

DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_set_lower_level_immutable(struct doca_logger_backend *logger)
{
	return doca_log_backend_set_level_lower_limit_strict(BACKEND(logger));
}

DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_set_upper_level_immutable(struct doca_logger_backend *logger)
{
	return doca_log_backend_set_level_upper_limit_strict(BACKEND(logger));
}

DOCA_EXPERIMENTAL doca_error_t doca_log_global_level_set(uint32_t level)
{
	return doca_log_level_set_global_lower_limit(level);
}

DOCA_EXPERIMENTAL doca_error_t doca_log_global_set_upper_level_limit(uint32_t upper_level_limit)
{
	return doca_log_level_set_global_upper_limit(upper_level_limit);
}

DOCA_EXPERIMENTAL uint32_t doca_log_global_level_get(void)
{
	return doca_log_level_get_global_lower_limit();
}

DOCA_EXPERIMENTAL doca_error_t doca_log_source_register(const char *source_name, int *source)
{
	return doca_log_register_source(source_name, source);
}

DOCA_EXPERIMENTAL doca_error_t doca_log_source_destroy(int source)
{
	return doca_log_unregister_source(source);
}

DOCA_EXPERIMENTAL doca_error_t doca_log_create_file_backend(FILE *fptr,
                                                            struct doca_logger_backend **backend)
{
	return doca_log_backend_create_with_file(fptr, OUT_BACKEND(backend));
}

DOCA_EXPERIMENTAL doca_error_t doca_log_create_fd_backend(int fd,
                                                          struct doca_logger_backend **backend)
{
	return doca_log_backend_create_with_fd(fd, OUT_BACKEND(backend));
}

DOCA_EXPERIMENTAL doca_error_t doca_log_create_buffer_backend(char *buffer, size_t capacity,
                                                              log_flush_callback handler,
                                                              struct doca_logger_backend **backend)
{
	return doca_log_backend_create_with_buf(buffer, capacity, handler, OUT_BACKEND(backend));
}

DOCA_EXPERIMENTAL doca_error_t doca_log_create_syslog_backend(const char *name,
                                                              struct doca_logger_backend **backend)
{
	return doca_log_backend_create_with_syslog(name, OUT_BACKEND(backend));
}

DOCA_EXPERIMENTAL doca_error_t doca_log_create_standard_backend(void)
{
	return doca_log_backend_create_standard();
}

DOCA_EXPERIMENTAL doca_error_t softdoca_v202_doca_log(uint32_t level, int source, int line,
                                                      const char *format, ...)
{
	va_list args;
	doca_error_t status;

	va_start(args, format);
	status = sdoca_log_app_v(level, source, NULL, line, NULL, format, args);
	va_end(args);
	return status;
}

/* Developer messages are ordinary ones once compiled in (DOCA_LOGGING_ALLOW_DLOG). */
DOCA_EXPERIMENTAL doca_error_t doca_log_developer(uint32_t level, int source, int line,
                                                  const char *format, ...)
{
	va_list args;
	doca_error_t status;

	va_start(args, format);
	status = sdoca_log_app_v(level, source, NULL, line, NULL, format, args);
	va_end(args);
	return status;
}

/* --- rate limiting: at most `quantity` messages per bucket every `bucket_time` seconds --- */

#define MAX_BUCKETS 1024

static struct {
	pthread_mutex_t lock;
	uint16_t bucket_time; /* seconds */
	uint16_t quantity;
	int num_buckets;
	struct {
		uint64_t window_start_ns;
		uint32_t count;
	} buckets[MAX_BUCKETS];
} rate = { .lock = PTHREAD_MUTEX_INITIALIZER, .bucket_time = 1, .quantity = 10 };

DOCA_EXPERIMENTAL uint16_t doca_log_get_bucket_time(void)
{
	return rate.bucket_time;
}

DOCA_EXPERIMENTAL void doca_log_set_bucket_time(uint16_t bucket_time)
{
	rate.bucket_time = bucket_time;
}

DOCA_EXPERIMENTAL uint16_t doca_log_get_quantity(void)
{
	return rate.quantity;
}

DOCA_EXPERIMENTAL void doca_log_set_quantity(uint16_t quantity)
{
	rate.quantity = quantity;
}

DOCA_EXPERIMENTAL doca_error_t doca_log_rate_bucket_register(int source, int *bucket)
{
	doca_error_t status = DOCA_ERROR_NO_MEMORY; /* every bucket is taken */

	(void)source;
	if (!sdoca_arg_valid(bucket))
		return DOCA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&rate.lock);
	if (rate.num_buckets < MAX_BUCKETS) {
		*bucket = rate.num_buckets++;
		status = DOCA_SUCCESS;
	}
	pthread_mutex_unlock(&rate.lock);
	return status;
}

/* Whether a message of the bucket may go out now (and counts it). */
static bool rate_allows(int bucket)
{
	struct timespec now;
	uint64_t now_ns, window_ns = (uint64_t)rate.bucket_time * 1000000000ull;
	bool allowed;

	clock_gettime(CLOCK_MONOTONIC, &now);
	now_ns = (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
	pthread_mutex_lock(&rate.lock);
	if (now_ns - rate.buckets[bucket].window_start_ns >= window_ns) {
		rate.buckets[bucket].window_start_ns = now_ns;
		rate.buckets[bucket].count = 0;
	}
	allowed = rate.buckets[bucket].count < rate.quantity;
	if (allowed)
		rate.buckets[bucket].count++;
	pthread_mutex_unlock(&rate.lock);
	return allowed;
}

DOCA_EXPERIMENTAL doca_error_t doca_log_rate_limit(uint32_t level, int source, int line, int bucket,
                                                   const char *format, ...)
{
	va_list args;
	doca_error_t status;

	if (bucket < 0 || bucket >= rate.num_buckets)
		return DOCA_ERROR_INVALID_VALUE;
	if (!rate_allows(bucket))
		return DOCA_SUCCESS;
	va_start(args, format);
	status = sdoca_log_app_v(level, source, NULL, line, NULL, format, args);
	va_end(args);
	return status;
}
