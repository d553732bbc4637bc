/*
 * Fault injection: the SOFTDOCA_FAULTS specification, parser, faults.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Fault injection: the specification (SOFTDOCA_FAULTS, read when the library
 * loads; softdoca_faults_set), its parser, and the process's faults - a
 * memory registration, task allocation or submission that fails. The data
 * path pays one relaxed load per call while none is set (faults.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <softdoca.h>

#include "core/faults.h"
#include "core/sdk_log.h"

SDOCA_LOG_MODULE(faults);

#define MAX_MS 3600000u

static const char *const kind_names[SDOCA_FAULT_KINDS] = {
	[SDOCA_FAULT_DELAY] = "delay",
	[SDOCA_FAULT_DROP] = "drop",
	[SDOCA_FAULT_RNR] = "rnr",
	[SDOCA_FAULT_BREAK] = "break",
	[SDOCA_FAULT_VANISH] = "vanish",
	[SDOCA_FAULT_STOP] = "stop",
	[SDOCA_FAULT_EMPTY_READ] = "empty_read",
	[SDOCA_FAULT_FAIL_MMAP] = "fail_mmap",
	[SDOCA_FAULT_FAIL_ALLOC] = "fail_alloc",
	[SDOCA_FAULT_FAIL_SUBMIT] = "fail_submit",
};

_Atomic bool sdoca_faults_process;
static _Atomic uint64_t injected;

/* The current specification and the process's events. */
static struct {
	pthread_mutex_t lock;
	struct sdoca_fault_config cfg;
	uint64_t calls[SDOCA_FAULT_KINDS];
	uint64_t fired[SDOCA_FAULTS_MAX_ITEMS];
} current = { .lock = PTHREAD_MUTEX_INITIALIZER, .cfg = { .seed = 1 } };

SDOCA_EXPORT const char *sdoca_fault_kind_name(enum sdoca_fault_kind kind)
{
	return (unsigned int)kind < SDOCA_FAULT_KINDS ? kind_names[kind] : "?";
}

/* --- parsing --- */

struct parser {
	char *why;
	size_t why_len;
};

/* The offending text shown in a reason: enough to find it, never so much
 * that a log line is cut before the reason. */
#define SHOWN_CHARS 40

/* Says why, then what: reason first, the text cut to SHOWN_CHARS. */
static doca_error_t bad(struct parser *p, const char *reason, const char *what, size_t len)
{
	if (p->why && p->why_len)
		snprintf(p->why, p->why_len, "%s: '%.*s%s'", reason,
		         (int)(len < SHOWN_CHARS ? len : SHOWN_CHARS), what,
		         len > SHOWN_CHARS ? "..." : "");
	return DOCA_ERROR_INVALID_VALUE;
}

/* A decimal number of [s, e) no larger than max, without leading zeros
 * (010 may mean 8 to a reader). */
static bool number(const char *s, const char *e, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (s == e || e - s > 20 || (*s == '0' && e - s > 1))
		return false;
	for (; s < e; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (v > max)
		return false;
	*out = v;
	return true;
}

/* A probability in (0, 1]. */
static bool probability(const char *s, const char *e, double *out)
{
	char buf[32], *end;
	double v;

	if (s == e || (size_t)(e - s) >= sizeof(buf))
		return false;
	memcpy(buf, s, (size_t)(e - s));
	buf[e - s] = '\0';
	for (char *c = buf; *c; c++)
		if (!((*c >= '0' && *c <= '9') || *c == '.' || *c == 'e' || *c == 'E' || *c == '-'))
			return false;
	errno = 0;
	v = strtod(buf, &end);
	if (errno || *end || !isfinite(v) || v <= 0 || v > 1)
		return false;
	*out = v;
	return true;
}

static bool error_name(const char *s, const char *e, doca_error_t *out)
{
	size_t len = (size_t)(e - s);

	if (len > 11 && strncmp(s, "DOCA_ERROR_", 11) == 0) {
		s += 11;
		len -= 11;
	}
	for (int code = 1; code < 64; code++) {
		const char *name = doca_error_get_name((doca_error_t)code);

		if (strncmp(name, "DOCA_ERROR_", 11) != 0)
			continue;
		if (strlen(name + 11) == len && strncmp(name + 11, s, len) == 0) {
			*out = (doca_error_t)code;
			return true;
		}
	}
	return false;
}

static bool connection_kind(enum sdoca_fault_kind k)
{
	return k < SDOCA_FAULT_FIRST_PROCESS;
}

static bool timed_kind(enum sdoca_fault_kind k)
{
	return k == SDOCA_FAULT_DELAY || k == SDOCA_FAULT_RNR || k == SDOCA_FAULT_STOP ||
	       k == SDOCA_FAULT_VANISH;
}

/* The parameters of an item, each at most once. */
enum param_bit {
	P_NTH = 1u << 0,
	P_EVERY = 1u << 1,
	P_RATE = 1u << 2,
	P_COUNT = 1u << 3,
	P_MS = 1u << 4,
	P_CONN = 1u << 5,
	P_ERR = 1u << 6,
};

/* One "key=value" of an item; *seen collects the keys given. */
static doca_error_t param(struct parser *p, struct sdoca_fault_item *it, const char *s,
                          const char *e, unsigned int *seen)
{
	const char *eq = memchr(s, '=', (size_t)(e - s)), *v;
	size_t len = (size_t)(e - s), klen;
	unsigned int bit;
	uint64_t n;

	if (!eq)
		return bad(p, "a parameter is key=value", s, len);
	klen = (size_t)(eq - s);
	v = eq + 1;
#define KEY(name) (klen == sizeof(name) - 1 && strncmp(s, name, klen) == 0)
	bit = KEY("nth")     ? P_NTH
	      : KEY("every") ? P_EVERY
	      : KEY("rate")  ? P_RATE
	      : KEY("count") ? P_COUNT
	      : KEY("ms")    ? P_MS
	      : KEY("conn")  ? P_CONN
	      : KEY("err")   ? P_ERR
	                     : 0;
#undef KEY
	if (!bit)
		return bad(p, "unknown parameter (nth, every, rate, count, ms, conn, err)", s, len);
	if (*seen & bit)
		return bad(p, "a parameter given twice", s, len);
	*seen |= bit;
	switch (bit) {
	case P_NTH:
	case P_EVERY:
	case P_COUNT:
		if (!number(v, e, UINT64_MAX, &n) || n == 0)
			return bad(p, "expected a number from 1, without leading zeros", s, len);
		if (bit == P_COUNT)
			it->count = n;
		else if (bit == P_NTH)
			it->nth = n;
		else
			it->every = n;
		break;
	case P_RATE:
		if (!probability(v, e, &it->rate))
			return bad(p, "expected a probability in (0, 1]", s, len);
		break;
	case P_MS:
		if (!timed_kind(it->kind) || !number(v, e, MAX_MS, &n))
			return bad(p,
			           "ms is 0..3600000 without leading zeros, for delay, rnr, stop "
			           "and vanish",
			           s, len);
		it->ms = (uint32_t)n;
		break;
	case P_CONN:
		if (!connection_kind(it->kind) || !number(v, e, UINT32_MAX, &n))
			return bad(p, "conn is a connection id, for a connection's fault", s, len);
		it->conn = (int64_t)n;
		break;
	default:
		if (connection_kind(it->kind) || !error_name(v, e, &it->err))
			return bad(p, "err is a DOCA error name, for fail_* faults", s, len);
		break;
	}
	return DOCA_SUCCESS;
}

static doca_error_t item(struct parser *p, struct sdoca_fault_config *c, const char *s,
                         const char *e)
{
	const char *colon = memchr(s, ':', (size_t)(e - s)), *name_end = colon ? colon : e;
	struct sdoca_fault_item *it;
	unsigned int seen = 0, triggers;
	int kind;

	if ((size_t)(e - s) >= 5 && strncmp(s, "seed=", 5) == 0) {
		if (!number(s + 5, e, UINT64_MAX, &c->seed))
			return bad(p, "the seed is a number, without leading zeros", s,
			           (size_t)(e - s));
		return DOCA_SUCCESS;
	}
	for (kind = 0; kind < SDOCA_FAULT_KINDS; kind++)
		if (strlen(kind_names[kind]) == (size_t)(name_end - s) &&
		    strncmp(kind_names[kind], s, (size_t)(name_end - s)) == 0)
			break;
	if (kind == SDOCA_FAULT_KINDS)
		return bad(p, "unknown fault", s, (size_t)(name_end - s));
	if (c->n == SDOCA_FAULTS_MAX_ITEMS)
		return bad(p, "more than 16 faults", s, (size_t)(e - s));
	if (colon && colon + 1 == e)
		return bad(p, "no parameters after ':'", s, (size_t)(e - s));
	it = &c->items[c->n];
	*it = (struct sdoca_fault_item){ .kind = (enum sdoca_fault_kind)kind,
		                         .conn = -1,
		                         .err = DOCA_ERROR_NO_MEMORY,
		                         .ms = kind == SDOCA_FAULT_DELAY ? 10
		                               : kind == SDOCA_FAULT_RNR ? 100
		                                                         : 0 };
	/* Each comma ends a parameter: "a,", "a,,b" have an empty one. */
	for (const char *at = colon ? colon + 1 : e; colon && at <= e;) {
		const char *comma = memchr(at, ',', (size_t)(e - at)), *end = comma ? comma : e;
		doca_error_t status;

		if (at == end)
			return bad(p, "an empty parameter (a ',' too many)", s, (size_t)(e - s));
		status = param(p, it, at, end, &seen);
		if (status != DOCA_SUCCESS)
			return status;
		if (!comma)
			break;
		at = comma + 1;
	}
	triggers = !!(seen & P_NTH) + !!(seen & P_EVERY) + !!(seen & P_RATE);
	if (triggers > 1)
		return bad(p, "give one of nth, every and rate", s, (size_t)(e - s));
	if ((seen & P_COUNT) && !(seen & (P_EVERY | P_RATE)))
		return bad(p, "count limits every or rate (nth fires once)", s, (size_t)(e - s));
	if (triggers == 0)
		it->nth = 1;
	c->n++;
	return DOCA_SUCCESS;
}

SDOCA_EXPORT doca_error_t sdoca_faults_parse(const char *spec, struct sdoca_fault_config *out,
                                             char *why, size_t why_len)
{
	struct parser p = { why, why_len };
	size_t len = spec ? strnlen(spec, SDOCA_FAULTS_MAX_SPEC + 1) : 0;

	*out = (struct sdoca_fault_config){ .seed = 1 };
	if (why && why_len)
		why[0] = '\0';
	if (len > SDOCA_FAULTS_MAX_SPEC)
		return bad(&p, "longer than 1024 characters", spec, len);
	for (const char *s = spec, *e = spec + len; s && s < e;) {
		const char *semi = memchr(s, ';', (size_t)(e - s)), *end = semi ? semi : e;
		const char *a = s, *b = end;
		doca_error_t status;

		while (a < b && (*a == ' ' || *a == '\t'))
			a++;
		while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		if (a < b && (status = item(&p, out, a, b)) != DOCA_SUCCESS)
			return status;
		s = semi ? semi + 1 : e;
	}
	return DOCA_SUCCESS;
}

/* --- decisions --- */

static uint64_t mix(uint64_t x)
{
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

SDOCA_EXPORT bool sdoca_fault_fires(const struct sdoca_fault_config *c, uint32_t i, uint64_t conn,
                                    uint64_t position, uint64_t fired)
{
	const struct sdoca_fault_item *it = &c->items[i];
	uint64_t h;

	if (it->count && fired >= it->count)
		return false;
	if (it->nth)
		return position == it->nth;
	if (it->every)
		return position % it->every == 0;
	h = mix(c->seed + 0x9e3779b97f4a7c15ull * (i + 1)) ^ mix(conn + 1) ^ position;
	return (double)(mix(h) >> 11) * 0x1.0p-53 < it->rate;
}

SDOCA_EXPORT void sdoca_faults_count(void)
{
	atomic_fetch_add_explicit(&injected, 1, memory_order_relaxed);
}

SDOCA_EXPORT bool sdoca_faults_for_conn(uint32_t conn, struct sdoca_fault_config *out)
{
	pthread_mutex_lock(&current.lock);
	*out = (struct sdoca_fault_config){ .seed = current.cfg.seed };
	for (uint32_t i = 0; i < current.cfg.n; i++) {
		const struct sdoca_fault_item *it = &current.cfg.items[i];

		if (connection_kind(it->kind) && (it->conn < 0 || it->conn == (int64_t)conn))
			out->items[out->n++] = *it;
	}
	pthread_mutex_unlock(&current.lock);
	return out->n > 0;
}

SDOCA_EXPORT doca_error_t sdoca_faults_process_call(enum sdoca_fault_kind kind, const char *what)
{
	doca_error_t status = DOCA_SUCCESS;
	uint64_t position;

	pthread_mutex_lock(&current.lock);
	position = ++current.calls[kind];
	for (uint32_t i = 0; i < current.cfg.n && status == DOCA_SUCCESS; i++) {
		if (current.cfg.items[i].kind != kind ||
		    !sdoca_fault_fires(&current.cfg, i, 0, position, current.fired[i]))
			continue;
		current.fired[i]++;
		status = current.cfg.items[i].err;
		sdoca_faults_count();
		SDOCA_INFO("fault injected: %s (fault %u, seed %" PRIu64 ", position %" PRIu64
		           "): %s fails with %s",
		           kind_names[kind], i + 1, current.cfg.seed, position, what,
		           doca_error_get_name(status));
	}
	pthread_mutex_unlock(&current.lock);
	return status;
}

/* --- the public calls --- */

/* Why SOFTDOCA_FAULTS did not parse ("" when it did, or was replaced). */
static char env_refusal[256];
static _Atomic bool env_refused;

static doca_error_t set_spec(const char *spec, char *why, size_t why_len)
{
	struct sdoca_fault_config cfg;
	bool process = false;

	if (sdoca_faults_parse(spec, &cfg, why, why_len) != DOCA_SUCCESS)
		return DOCA_ERROR_INVALID_VALUE;
	for (uint32_t i = 0; i < cfg.n; i++)
		process |= !connection_kind(cfg.items[i].kind);
	pthread_mutex_lock(&current.lock);
	current.cfg = cfg;
	memset(current.calls, 0, sizeof(current.calls));
	memset(current.fired, 0, sizeof(current.fired));
	atomic_store(&sdoca_faults_process, process);
	pthread_mutex_unlock(&current.lock);
	/* The program chose its faults: the environment's refusal is over. */
	atomic_store(&env_refused, false);
	if (cfg.n)
		SDOCA_INFO("injecting %u fault(s), seed %" PRIu64 ": %.*s%s", cfg.n, cfg.seed,
		           SHOWN_CHARS * 4, spec, strlen(spec) > SHOWN_CHARS * 4 ? "..." : "");
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t softdoca_faults_set(const char *spec)
{
	char why[160];

	if (set_spec(spec, why, sizeof(why)) != DOCA_SUCCESS)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "fault specification refused: %s", why);
	return DOCA_SUCCESS;
}

SDOCA_EXPORT doca_error_t sdoca_faults_env_check(const char *call)
{
	if (SDOCA_LIKELY(!atomic_load_explicit(&env_refused, memory_order_relaxed)))
		return DOCA_SUCCESS;
	/* Whatever the log level: a run without the faults asked for would pass
	 * for one that survived them. */
	fprintf(stderr, "softdoca: %s fails: SOFTDOCA_FAULTS does not parse: %s\n", call,
	        env_refusal);
	fflush(stderr);
	SDOCA_ERR("%s: SOFTDOCA_FAULTS does not parse: %s", call, env_refusal);
	return DOCA_ERROR_INVALID_VALUE;
}

DOCA_STABLE uint64_t softdoca_faults_injected(void)
{
	return atomic_load(&injected);
}

SDOCA_EXPORT void sdoca_faults_from_env(const char *spec)
{
	if (spec && *spec && set_spec(spec, env_refusal, sizeof(env_refusal)) != DOCA_SUCCESS)
		atomic_store(&env_refused, true);
}

/* SOFTDOCA_FAULTS, before the program's first DOCA call. */
static void __attribute__((constructor)) faults_from_environment(void)
{
	sdoca_faults_from_env(getenv("SOFTDOCA_FAULTS"));
}
