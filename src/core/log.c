/*
 * doca_log: sources, backends and level filtering.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Application messages reach the application backends whose range
 * [upper, lower] contains their level; SDK messages (softdoca's own) reach
 * the SDK backends whose level is at least theirs. Until the program creates
 * an SDK backend, SDK messages go to stderr at WARNING (or SOFTDOCA_LOG), so
 * errors are never silent. Every message is written with one write and
 * flushed, so a reader of a pipe sees whole lines as they happen.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "core/sdk_log.h"

#define LOG_MAX_BACKENDS 64
#define LOG_MAX_SOURCE_NAME 255
#define LOG_LINE_MAX 2048

enum backend_kind { BACKEND_FILE, BACKEND_FD, BACKEND_BUF, BACKEND_SYSLOG };

/* The two halves of doca_log_backend_create_standard(). */
enum backend_role { ROLE_CONFIGURABLE, ROLE_STANDARD_OUT, ROLE_STANDARD_ERR };

struct doca_log_backend {
	enum backend_kind kind;
	enum backend_role role;
	bool sdk;
	uint32_t lower; /* most verbose level shown */
	uint32_t upper; /* least verbose level shown */
	bool lower_strict;
	bool upper_strict;
	FILE *file;
	int fd;
	char *buf;
	size_t capacity;
	log_flush_callback flush;
	struct doca_log_backend *next;
};

struct log_source {
	char name[LOG_MAX_SOURCE_NAME + 1];
	bool sdk;
	bool used;
};

static struct {
	pthread_mutex_t lock;
	struct doca_log_backend *backends;
	unsigned int num_backends;
	struct log_source *sources;
	int num_sources;
	int cap_sources;
	uint32_t global_lower;
	uint32_t global_upper;
	uint32_t global_sdk;
	uint32_t implicit_sdk_level; /* stderr fallback while no SDK backend exists */
	bool have_sdk_backend;
} logs = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.global_lower = DOCA_LOG_LEVEL_INFO,
	.global_upper = DOCA_LOG_LEVEL_CRIT,
	.global_sdk = DOCA_LOG_LEVEL_INFO,
	.implicit_sdk_level = DOCA_LOG_LEVEL_WARNING,
};

SDOCA_EXPORT _Atomic uint32_t sdoca_log_sdk_max_level = DOCA_LOG_LEVEL_WARNING;
static _Atomic uint32_t app_max_level = DOCA_LOG_LEVEL_DISABLE;
static pthread_once_t env_once = PTHREAD_ONCE_INIT;

static bool level_is_valid(uint32_t level)
{
	return level >= DOCA_LOG_LEVEL_DISABLE && level <= DOCA_LOG_LEVEL_TRACE && level % 10 == 0;
}

static bool message_level_is_valid(uint32_t level)
{
	return level_is_valid(level) && level != DOCA_LOG_LEVEL_DISABLE;
}

static const char *level_tag(uint32_t level)
{
	switch (level) {
	case DOCA_LOG_LEVEL_CRIT:
		return "CRT";
	case DOCA_LOG_LEVEL_ERROR:
		return "ERR";
	case DOCA_LOG_LEVEL_WARNING:
		return "WRN";
	case DOCA_LOG_LEVEL_INFO:
		return "INF";
	case DOCA_LOG_LEVEL_DEBUG:
		return "DBG";
	default:
		return "TRC";
	}
}

/* SOFTDOCA_LOG=<name|number> sets the level of SDK messages. */
static uint32_t parse_level(const char *text)
{
	static const struct {
		const char *name;
		uint32_t level;
	} names[] = {
		{ "disable", DOCA_LOG_LEVEL_DISABLE }, { "none", DOCA_LOG_LEVEL_DISABLE },
		{ "crit", DOCA_LOG_LEVEL_CRIT },       { "critical", DOCA_LOG_LEVEL_CRIT },
		{ "error", DOCA_LOG_LEVEL_ERROR },     { "err", DOCA_LOG_LEVEL_ERROR },
		{ "warning", DOCA_LOG_LEVEL_WARNING }, { "warn", DOCA_LOG_LEVEL_WARNING },
		{ "info", DOCA_LOG_LEVEL_INFO },       { "debug", DOCA_LOG_LEVEL_DEBUG },
		{ "dbg", DOCA_LOG_LEVEL_DEBUG },       { "trace", DOCA_LOG_LEVEL_TRACE },
	};
	char *end;
	unsigned long n = strtoul(text, &end, 10);

	if (end != text && *end == '\0' && level_is_valid((uint32_t)n))
		return (uint32_t)n;
	for (size_t i = 0; i < SDOCA_ARRAY_SIZE(names); i++)
		if (strcasecmp(text, names[i].name) == 0)
			return names[i].level;
	return 0;
}

static void recompute_max_levels_locked(void)
{
	uint32_t sdk = logs.have_sdk_backend ? DOCA_LOG_LEVEL_DISABLE : logs.implicit_sdk_level;
	uint32_t app = DOCA_LOG_LEVEL_DISABLE;

	for (struct doca_log_backend *b = logs.backends; b; b = b->next) {
		uint32_t lower = b->role == ROLE_CONFIGURABLE ? b->lower : logs.global_lower;

		if (b->sdk) {
			if (lower > sdk)
				sdk = lower;
		} else if (lower > app) {
			app = lower;
		}
	}
	atomic_store(&sdoca_log_sdk_max_level, sdk);
	atomic_store(&app_max_level, app);
}

static void read_environment(void)
{
	const char *env = getenv("SOFTDOCA_LOG");
	uint32_t level = env ? parse_level(env) : 0;

	pthread_mutex_lock(&logs.lock);
	if (level) {
		logs.global_sdk = level;
		logs.implicit_sdk_level = level;
	}
	recompute_max_levels_locked();
	pthread_mutex_unlock(&logs.lock);
	if (env && !level)
		fprintf(stderr,
		        "softdoca: ignoring SOFTDOCA_LOG=%s (expected disable, crit, error, "
		        "warning, info, debug, trace or 10..70)\n",
		        env);
}

static void ensure_environment(void)
{
	pthread_once(&env_once, read_environment);
}

/* The range of levels a backend shows right now. */
static void backend_range(const struct doca_log_backend *b, uint32_t *upper, uint32_t *lower)
{
	switch (b->role) {
	case ROLE_STANDARD_OUT:
		*upper = DOCA_LOG_LEVEL_INFO;
		*lower = logs.global_lower;
		break;
	case ROLE_STANDARD_ERR:
		*upper = logs.global_upper;
		*lower = logs.global_lower < DOCA_LOG_LEVEL_WARNING ? logs.global_lower
		                                                    : DOCA_LOG_LEVEL_WARNING;
		break;
	default:
		*upper = b->upper;
		*lower = b->lower;
	}
}

static void write_all(int fd, const char *text, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, text, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		text += n;
		len -= (size_t)n;
	}
}

static int syslog_priority(uint32_t level)
{
	switch (level) {
	case DOCA_LOG_LEVEL_CRIT:
		return LOG_CRIT;
	case DOCA_LOG_LEVEL_ERROR:
		return LOG_ERR;
	case DOCA_LOG_LEVEL_WARNING:
		return LOG_WARNING;
	case DOCA_LOG_LEVEL_INFO:
		return LOG_INFO;
	default:
		return LOG_DEBUG;
	}
}

static void emit(struct doca_log_backend *b, uint32_t level, char *line, size_t len)
{
	switch (b->kind) {
	case BACKEND_FILE:
		fwrite(line, 1, len, b->file);
		fflush(b->file);
		break;
	case BACKEND_FD:
		write_all(b->fd, line, len);
		break;
	case BACKEND_BUF: {
		size_t n = len < b->capacity ? len : b->capacity - 1;

		memcpy(b->buf, line, n);
		b->buf[n] = '\0';
		b->flush(b->buf);
		break;
	}
	case BACKEND_SYSLOG:
		syslog(syslog_priority(level), "%.*s", (int)len, line);
		break;
	}
}

/* Formats "[HH:MM:SS:usec][tid][DOCA][LVL][file:line][func] message\n".
 * SDK messages carry no function name, as DOCA's own do. */
static size_t format_line(char *line, size_t size, uint32_t level, const char *file, int line_no,
                          const char *func, const char *format, va_list args)
{
	struct timeval tv;
	struct tm tm;
	const char *base = file ? strrchr(file, '/') : NULL;
	int n;
	size_t len;

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	base = base ? base + 1 : (file ? file : "?");
	n = snprintf(line, size, "[%02d:%02d:%02d:%06ld][%d][DOCA][%s][%s:%d]", tm.tm_hour,
	             tm.tm_min, tm.tm_sec, (long)tv.tv_usec, (int)gettid(), level_tag(level), base,
	             line_no);
	len = n > 0 ? (size_t)n : 0;
	if (func && len < size) {
		n = snprintf(line + len, size - len, "[%s]", func);
		len += n > 0 ? (size_t)n : 0;
	}
	if (len < size - 1) {
		line[len++] = ' ';
		n = vsnprintf(line + len, size - len, format, args);
		len += n > 0 ? (size_t)n : 0;
	}
	if (len >= size - 1) { /* truncated: mark it and keep the newline */
		len = size - 2;
		memcpy(line + len - 3, "...", 3);
	}
	line[len++] = '\n';
	line[len] = '\0';
	return len;
}

static void dispatch(bool sdk, uint32_t level, const char *file, int line_no, const char *func,
                     const char *format, va_list args)
{
	char line[LOG_LINE_MAX];
	size_t len = format_line(line, sizeof(line), level, file, line_no, func, format, args);

	pthread_mutex_lock(&logs.lock);
	if (sdk && !logs.have_sdk_backend && level <= logs.implicit_sdk_level) {
		fwrite(line, 1, len, stderr);
		fflush(stderr);
	}
	for (struct doca_log_backend *b = logs.backends; b; b = b->next) {
		uint32_t upper, lower;

		if (b->sdk != sdk)
			continue;
		backend_range(b, &upper, &lower);
		if (level >= upper && level <= lower)
			emit(b, level, line, len);
	}
	pthread_mutex_unlock(&logs.lock);
}

/* DOCA 2.2's doca_log() gives no file: the source's name stands in for it. */
doca_error_t sdoca_log_app_v(uint32_t level, int source, const char *fname, int line,
                             const char *func, const char *format, va_list args)
{
	char name[LOG_MAX_SOURCE_NAME + 1];
	bool known;

	ensure_environment();
	if (!message_level_is_valid(level) || !format)
		return DOCA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&logs.lock);
	known = source >= 0 && source < logs.num_sources && logs.sources[source].used;
	if (known && !fname)
		fname = strcpy(name, logs.sources[source].name);
	pthread_mutex_unlock(&logs.lock);
	if (!known)
		return DOCA_ERROR_INVALID_VALUE;
	if (level > atomic_load_explicit(&app_max_level, memory_order_relaxed))
		return DOCA_SUCCESS;
	dispatch(false, level, fname, line, func, format, args);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_log(uint32_t level, int source, const char *fname, int line,
                                        const char *func, const char *format, ...)
{
	va_list args;
	doca_error_t status;

	va_start(args, format);
	status = sdoca_log_app_v(level, source, fname, line, func, format, args);
	va_end(args);
	return status;
}

SDOCA_EXPORT void sdoca_log_sdk(uint32_t level, int source, const char *file, int line,
                                const char *format, ...)
{
	va_list args;

	(void)source;
	ensure_environment();
	va_start(args, format);
	dispatch(true, level, file, line, NULL, format, args);
	va_end(args);
}

static doca_error_t register_source(const char *name, int *source, bool sdk)
{
	doca_error_t status = DOCA_SUCCESS;
	struct log_source *s;

	if (!name || !source)
		return DOCA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&logs.lock);
	if (logs.num_sources == logs.cap_sources) {
		int cap = logs.cap_sources ? logs.cap_sources * 2 : 32;
		struct log_source *grown = realloc(logs.sources, (size_t)cap * sizeof(*grown));

		if (!grown) {
			status = DOCA_ERROR_NO_MEMORY;
			goto out;
		}
		logs.sources = grown;
		logs.cap_sources = cap;
	}
	s = &logs.sources[logs.num_sources];
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->sdk = sdk;
	s->used = true;
	*source = logs.num_sources++;
out:
	pthread_mutex_unlock(&logs.lock);
	return status;
}

DOCA_EXPERIMENTAL doca_error_t doca_log_register_source(const char *source_name, int *source)
{
	return register_source(source_name, source, false);
}

SDOCA_EXPORT doca_error_t sdoca_log_register_sdk_source(const char *name, int *source)
{
	return register_source(name, source, true);
}

DOCA_EXPERIMENTAL doca_error_t doca_log_unregister_source(int source)
{
	/* Sources stay valid: a destructor of another file may still log. */
	(void)source;
	return DOCA_SUCCESS;
}

static doca_error_t add_backend(struct doca_log_backend *proto, struct doca_log_backend **out)
{
	struct doca_log_backend *b = NULL;
	struct doca_log_backend **tail;

	ensure_environment();
	pthread_mutex_lock(&logs.lock);
	if (logs.num_backends < LOG_MAX_BACKENDS)
		b = malloc(sizeof(*b));
	if (!b)
		goto out;
	*b = *proto;
	b->lower = b->sdk ? logs.global_sdk : logs.global_lower;
	b->upper = logs.global_upper;
	/* Appended so backends print in the order they were created. */
	tail = &logs.backends;
	while (*tail)
		tail = &(*tail)->next;
	b->next = NULL;
	*tail = b;
	logs.num_backends++;
	if (b->sdk)
		logs.have_sdk_backend = true;
	recompute_max_levels_locked();
out:
	pthread_mutex_unlock(&logs.lock);
	if (!b)
		return DOCA_ERROR_NO_MEMORY; /* too many backends, or no memory */
	if (out)
		*out = b;
	return DOCA_SUCCESS;
}

static doca_error_t create_file_backend(FILE *fptr, bool sdk, struct doca_log_backend **backend)
{
	struct doca_log_backend proto = { .kind = BACKEND_FILE, .sdk = sdk, .file = fptr };

	if (!fptr || !backend)
		return DOCA_ERROR_INVALID_VALUE;
	return add_backend(&proto, backend);
}

static doca_error_t create_fd_backend(int fd, bool sdk, struct doca_log_backend **backend)
{
	struct doca_log_backend proto = { .kind = BACKEND_FD, .sdk = sdk, .fd = fd };

	if (fd < 0 || !backend)
		return DOCA_ERROR_INVALID_VALUE;
	return add_backend(&proto, backend);
}

static doca_error_t create_buf_backend(char *buf, size_t capacity, log_flush_callback handler,
                                       bool sdk, struct doca_log_backend **backend)
{
	struct doca_log_backend proto = {
		.kind = BACKEND_BUF, .sdk = sdk, .buf = buf, .capacity = capacity, .flush = handler
	};

	if (!buf || capacity < 2 || !handler || !backend)
		return DOCA_ERROR_INVALID_VALUE;
	return add_backend(&proto, backend);
}

static doca_error_t create_syslog_backend(const char *name, bool sdk,
                                          struct doca_log_backend **backend)
{
	struct doca_log_backend proto = { .kind = BACKEND_SYSLOG, .sdk = sdk };

	if (!name || !backend)
		return DOCA_ERROR_INVALID_VALUE;
	/* openlog keeps the pointer: the name must outlive the backend, as in DOCA. */
	openlog(name, LOG_PID, LOG_USER);
	return add_backend(&proto, backend);
}

DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_file(FILE *fptr,
                                                                 struct doca_log_backend **backend)
{
	return create_file_backend(fptr, false, backend);
}

DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_fd(int fd,
                                                               struct doca_log_backend **backend)
{
	return create_fd_backend(fd, false, backend);
}

DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_buf(char *buf, size_t capacity,
                                                                log_flush_callback handler,
                                                                struct doca_log_backend **backend)
{
	return create_buf_backend(buf, capacity, handler, false, backend);
}

DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_create_with_buffer(char *buffer, size_t capacity, log_flush_callback handler,
                                    struct doca_log_backend **backend)
{
	return create_buf_backend(buffer, capacity, handler, false, backend);
}

DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_create_with_syslog(const char *name, struct doca_log_backend **backend)
{
	return create_syslog_backend(name, false, backend);
}

DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_create_with_file_sdk(FILE *fptr, struct doca_log_backend **backend)
{
	return create_file_backend(fptr, true, backend);
}

DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_create_with_fd_sdk(int fd, struct doca_log_backend **backend)
{
	return create_fd_backend(fd, true, backend);
}

DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_with_buf_sdk(
        char *buf, size_t capacity, log_flush_callback handler, struct doca_log_backend **backend)
{
	return create_buf_backend(buf, capacity, handler, true, backend);
}

DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_create_with_buffer_sdk(char *buffer, size_t capacity, log_flush_callback handler,
                                        struct doca_log_backend **backend)
{
	return create_buf_backend(buffer, capacity, handler, true, backend);
}

DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_create_with_syslog_sdk(const char *name, struct doca_log_backend **backend)
{
	return create_syslog_backend(name, true, backend);
}

/* stdout shows INFO and more verbose, stderr WARNING and more severe. */
DOCA_EXPERIMENTAL doca_error_t doca_log_backend_create_standard(void)
{
	struct doca_log_backend out = { .kind = BACKEND_FILE,
		                        .role = ROLE_STANDARD_OUT,
		                        .file = stdout };
	struct doca_log_backend err = { .kind = BACKEND_FILE,
		                        .role = ROLE_STANDARD_ERR,
		                        .file = stderr };
	doca_error_t status = add_backend(&out, NULL);

	return status == DOCA_SUCCESS ? add_backend(&err, NULL) : status;
}

/* Applies a new lower limit unless a strict flag forbids making it less verbose. */
static doca_error_t set_lower_locked(struct doca_log_backend *b, uint32_t level)
{
	if (b->lower_strict && level < b->lower)
		return DOCA_ERROR_NOT_PERMITTED;
	b->lower = level;
	return DOCA_SUCCESS;
}

static doca_error_t set_upper_locked(struct doca_log_backend *b, uint32_t level)
{
	if (b->upper_strict && level > b->upper)
		return DOCA_ERROR_NOT_PERMITTED;
	b->upper = level;
	return DOCA_SUCCESS;
}

static doca_error_t set_backend_level(struct doca_log_backend *backend, uint32_t level, bool lower,
                                      bool sdk_only)
{
	doca_error_t status;

	if (!backend || !level_is_valid(level))
		return DOCA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&logs.lock);
	if (sdk_only && !backend->sdk)
		status = DOCA_ERROR_NOT_PERMITTED;
	else
		status =
		        lower ? set_lower_locked(backend, level) : set_upper_locked(backend, level);
	recompute_max_levels_locked();
	pthread_mutex_unlock(&logs.lock);
	return status;
}

DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_set_level_lower_limit(struct doca_log_backend *backend, uint32_t level)
{
	return set_backend_level(backend, level, true, false);
}

DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_set_level_upper_limit(struct doca_log_backend *backend, uint32_t upper_limit)
{
	return set_backend_level(backend, upper_limit, false, false);
}

DOCA_EXPERIMENTAL doca_error_t doca_log_backend_set_sdk_level(struct doca_log_backend *backend,
                                                              uint32_t level)
{
	return set_backend_level(backend, level, true, true);
}

DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_set_level_lower_limit_strict(struct doca_log_backend *backend)
{
	if (!backend)
		return DOCA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&logs.lock);
	backend->lower_strict = true;
	pthread_mutex_unlock(&logs.lock);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t
doca_log_backend_set_level_upper_limit_strict(struct doca_log_backend *backend)
{
	if (!backend)
		return DOCA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&logs.lock);
	backend->upper_strict = true;
	pthread_mutex_unlock(&logs.lock);
	return DOCA_SUCCESS;
}

/* Global setters change every backend of the kind except where strict forbids it. */
static doca_error_t set_global(uint32_t level, bool sdk, bool lower)
{
	if (!level_is_valid(level))
		return DOCA_ERROR_INVALID_VALUE;
	ensure_environment();
	pthread_mutex_lock(&logs.lock);
	if (sdk) {
		logs.global_sdk = level;
		logs.implicit_sdk_level = level; /* the stderr fallback is an SDK backend too */
	} else if (lower)
		logs.global_lower = level;
	else
		logs.global_upper = level;
	for (struct doca_log_backend *b = logs.backends; b; b = b->next) {
		if (b->sdk != sdk || b->role != ROLE_CONFIGURABLE)
			continue;
		if (lower)
			(void)set_lower_locked(b, level);
		else
			(void)set_upper_locked(b, level);
	}
	recompute_max_levels_locked();
	pthread_mutex_unlock(&logs.lock);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_log_level_set_global_lower_limit(uint32_t level)
{
	return set_global(level, false, true);
}

DOCA_EXPERIMENTAL doca_error_t doca_log_level_set_global_upper_limit(uint32_t upper_limit)
{
	return set_global(upper_limit, false, false);
}

DOCA_EXPERIMENTAL doca_error_t doca_log_level_set_global_sdk_limit(uint32_t level)
{
	return set_global(level, true, true);
}

static uint32_t get_global(const uint32_t *value)
{
	uint32_t v;

	ensure_environment();
	pthread_mutex_lock(&logs.lock);
	v = *value;
	pthread_mutex_unlock(&logs.lock);
	return v;
}

DOCA_EXPERIMENTAL uint32_t doca_log_level_get_global_lower_limit(void)
{
	return get_global(&logs.global_lower);
}

DOCA_EXPERIMENTAL uint32_t doca_log_level_get_global_upper_limit(void)
{
	return get_global(&logs.global_upper);
}

DOCA_EXPERIMENTAL uint32_t doca_log_level_get_global_sdk_limit(void)
{
	return get_global(&logs.global_sdk);
}
