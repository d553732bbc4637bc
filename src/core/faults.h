/*
 * Fault injection (SOFTDOCA_FAULTS, softdoca_faults_set) interface.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Fault injection (SOFTDOCA_FAULTS, softdoca_faults_set): the specification,
 * its parser, and the faults of DOCA Core's own calls (memory registration,
 * task allocation, submission). The soft NIC injects the faults of
 * connections (src/diag/fault.c) from the same specification.
 *
 * A specification is items separated by ';':
 *
 *   seed=N                         the seed of every decision (default 1)
 *   KIND[:PARAM[,PARAM...]]        a fault
 *
 * KIND: delay, drop, rnr, break, vanish, stop, empty_read (a connection's),
 * fail_mmap, fail_alloc, fail_submit (the process's). PARAM: nth=N (the Nth
 * event only), every=N, rate=P (each event with probability P), count=N (at
 * most N injections), ms=N, conn=N (a connection id of this side), err=NAME
 * (a doca_error_t name). README.md, "Fault injection", says what each does.
 *
 * Decisions are deterministic: whether an item fires at an event depends on
 * the seed, the item, the connection and the event's position only, so a run
 * replays; each injected fault is logged at INFO with them.
 */
#ifndef SDOCA_CORE_FAULTS_H_
#define SDOCA_CORE_FAULTS_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>

#include "core/compiler.h"

#define SDOCA_FAULTS_MAX_ITEMS 16
#define SDOCA_FAULTS_MAX_SPEC 1024 /* characters */

enum sdoca_fault_kind {
	/* a connection's (src/diag/fault.c) */
	SDOCA_FAULT_DELAY,      /* a message received is handed over ms later */
	SDOCA_FAULT_DROP,       /* a message received is lost */
	SDOCA_FAULT_RNR,        /* the receive queue looks empty for ms */
	SDOCA_FAULT_BREAK,      /* the connection breaks as when RC retries run out */
	SDOCA_FAULT_VANISH,     /* the peer's messages stop arriving (for ms, or for good) */
	SDOCA_FAULT_STOP,       /* this process's soft NIC stops for ms (as SIGSTOP) */
	SDOCA_FAULT_EMPTY_READ, /* a read succeeds with nothing placed (tests checkers) */
	/* the process's (here) */
	SDOCA_FAULT_FAIL_MMAP,   /* doca_mmap_start fails */
	SDOCA_FAULT_FAIL_ALLOC,  /* a task allocation fails */
	SDOCA_FAULT_FAIL_SUBMIT, /* doca_task_submit fails */
	SDOCA_FAULT_KINDS
};

#define SDOCA_FAULT_FIRST_PROCESS SDOCA_FAULT_FAIL_MMAP

struct sdoca_fault_item {
	enum sdoca_fault_kind kind;
	uint64_t nth;   /* fire at this event only (0: not given) */
	uint64_t every; /* fire at every every-th event (0: not given) */
	double rate;    /* fire with this probability per event (0: not given) */
	uint64_t count; /* fire at most this often (0: no limit) */
	uint32_t ms;
	int64_t conn; /* -1: any connection */
	doca_error_t err;
};

struct sdoca_fault_config {
	uint64_t seed;
	uint32_t n;
	struct sdoca_fault_item items[SDOCA_FAULTS_MAX_ITEMS];
};

/* Parses a specification. INVALID_VALUE with a message in why (when not
 * NULL) saying where and what is wrong. An empty one injects nothing. */
SDOCA_EXPORT doca_error_t sdoca_faults_parse(const char *spec, struct sdoca_fault_config *out,
                                             char *why, size_t why_len);

/* DOCA_SUCCESS, or INVALID_VALUE with a line on stderr (whatever the log
 * level) when SOFTDOCA_FAULTS did not parse and softdoca_faults_set has
 * not replaced it: the calls that start a program (opening devices,
 * creating a PE or mmap) refuse to run without the faults asked for. */
SDOCA_EXPORT doca_error_t sdoca_faults_env_check(const char *call);

/* Takes SOFTDOCA_FAULTS's text (called when the library loads): one that
 * does not parse makes sdoca_faults_env_check fail from then on. */
SDOCA_EXPORT void sdoca_faults_from_env(const char *spec);

/* The kind's name in a specification. */
SDOCA_EXPORT const char *sdoca_fault_kind_name(enum sdoca_fault_kind kind);

/* Whether item i fires at the event at `position` (1-based) of connection
 * `conn` (0 for the process's), given how often it fired already. */
SDOCA_EXPORT bool sdoca_fault_fires(const struct sdoca_fault_config *c, uint32_t i, uint64_t conn,
                                    uint64_t position, uint64_t fired);

/* The items of the current specification for connection conn (a
 * connection's kinds only): false when there are none. */
SDOCA_EXPORT bool sdoca_faults_for_conn(uint32_t conn, struct sdoca_fault_config *out);

/* Counts an injected fault (the process's total). */
SDOCA_EXPORT void sdoca_faults_count(void);

/* Whether any process fault is set: one load on the calls it may fail
 * (hidden: those calls are in this library, the load is direct). */
extern _Atomic bool sdoca_faults_process;

/* The process fault of this kind at this call, if one fires: its status. */
SDOCA_EXPORT doca_error_t sdoca_faults_process_call(enum sdoca_fault_kind kind, const char *what);

static inline doca_error_t sdoca_faults_check(enum sdoca_fault_kind kind, const char *what)
{
	if (SDOCA_LIKELY(!atomic_load_explicit(&sdoca_faults_process, memory_order_relaxed)))
		return DOCA_SUCCESS;
	return sdoca_faults_process_call(kind, what);
}

#endif /* SDOCA_CORE_FAULTS_H_ */
