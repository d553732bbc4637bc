/*
 * softdoca-info --pid P --watch: a running process, live.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Reads the target's counters every interval through the same channel as
 * --pid (softdoca_process_counters_get: its user or root only) and prints
 * each interval's rates (watch_output.c), as perfquery or `rdma statistic`
 * users compute them by hand: the deltas of two consecutive snapshots over
 * the time between them. Ends after --count intervals, on SIGINT/SIGTERM, or
 * when the target exits or closes its channel (exit 0: the natural end of
 * watching a program that finishes).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <doca_log.h>

#include "info.h"

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static double now_s(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Sleeps until the monotonic time deadline, or a stop signal: they are
 * blocked but while ppoll waits, so one that comes just before is not
 * lost. */
static void sleep_until(double deadline, const sigset_t *waiting_mask)
{
	while (!stop_signal) {
		double left = deadline - now_s(CLOCK_MONOTONIC);
		struct timespec ts;

		if (left <= 0)
			return;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		(void)ppoll(NULL, 0, &ts, waiting_mask);
	}
}

/* Why the target no longer answers, for the message that ends the watch. */
static bool target_gone(doca_error_t status)
{
	return status == DOCA_ERROR_NOT_FOUND || status == DOCA_ERROR_CONNECTION_RESET;
}

static void say_gone(uint32_t pid, uint64_t intervals)
{
	if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
		fprintf(stderr, "softdoca-info: process %u exited; watched %lu intervals\n", pid,
		        (unsigned long)intervals);
	else
		fprintf(stderr,
		        "softdoca-info: process %u closed its counters channel (its RDMA "
		        "contexts stopped, or it is exiting); watched %lu intervals\n",
		        pid, (unsigned long)intervals);
}

static int read_failed(uint32_t pid, doca_error_t status)
{
	const char *why = status == DOCA_ERROR_AGAIN
	                          ? "its counters channel is busy with other readers; try again"
	                  : status == DOCA_ERROR_NOT_PERMITTED
	                          ? "it runs as another user (only that user or root may read "
	                            "its counters)"
	                          : doca_error_get_descr(status);

	fprintf(stderr, "softdoca-info: cannot read the counters of process %u: %s\n", pid, why);
	return status == DOCA_ERROR_AGAIN ? 75 : 1; /* EX_TEMPFAIL: try again */
}

static int watch_loop(const struct info_watch_opts *o, const sigset_t *waiting_mask)
{
	struct softdoca_process_counters *before = NULL, *now = NULL;
	bool clear = !o->json && isatty(STDOUT_FILENO);
	double before_t, deadline;
	uint64_t done = 0;
	uint32_t sdk_limit;
	doca_error_t status;
	int rc = 0;

	/* The first snapshot: the base of the first interval. Failing here
	 * other than by a time-out is failing as --pid does (no such
	 * process, another user's). */
	status = softdoca_process_counters_get(o->pid, &before);
	while (status == DOCA_ERROR_TIME_OUT && !stop_signal) {
		/* Stopped or starved: a watch waits for it (each try takes
		 * the reader's 2 s; Ctrl-C ends it). */
		fprintf(stderr, "softdoca-info: process %u does not answer yet; trying again\n",
		        o->pid);
		status = softdoca_process_counters_get(o->pid, &before);
	}
	if (stop_signal) {
		if (status == DOCA_SUCCESS)
			softdoca_process_counters_destroy(before);
		return 0;
	}
	if (status != DOCA_SUCCESS)
		return read_failed(o->pid, status);
	if (o->only && !info_process_has_device(before, o->only)) {
		fprintf(stderr, "softdoca-info: process %u has no device '%s'\n", o->pid, o->only);
		softdoca_process_counters_destroy(before);
		return 1;
	}
	/* From here on a failed read is the tool's to tell (the target's end,
	 * an interval without an answer): the library's ERROR line for it
	 * would only say it twice, less clearly. */
	sdk_limit = doca_log_level_get_global_sdk_limit();
	(void)doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_CRIT);
	before_t = now_s(CLOCK_MONOTONIC);
	deadline = before_t + o->interval;
	while (!stop_signal && (o->count == 0 || done < o->count)) {
		struct info_interval iv;

		sleep_until(deadline, waiting_mask);
		if (stop_signal)
			break;
		/* The next one due an interval after this one was, not after
		 * its reading and printing ended: no drift. */
		deadline += o->interval;
		if (kill((pid_t)o->pid, 0) != 0 && errno == ESRCH) {
			say_gone(o->pid, done);
			break;
		}
		status = softdoca_process_counters_get(o->pid, &now);
		if (target_gone(status)) {
			say_gone(o->pid, done);
			break;
		}
		if (status != DOCA_SUCCESS) {
			/* Busy or stopped (SIGSTOP) for now: the next interval
			 * spans this one too. */
			fprintf(stderr,
			        "softdoca-info: process %u did not answer this interval: %s\n",
			        o->pid,
			        status == DOCA_ERROR_TIME_OUT
			                ? "no answer within 2 s (busy or stopped)"
			        : status == DOCA_ERROR_AGAIN
			                ? "its channel is busy with other readers"
			                : doca_error_get_descr(status));
			continue;
		}
		iv = (struct info_interval){
			.now = now,
			.before = before,
			.seconds = now_s(CLOCK_MONOTONIC) - before_t,
			.number = ++done,
			.unix_time = now_s(CLOCK_REALTIME),
			.interval = o->interval,
		};
		before_t += iv.seconds;
		if (o->json)
			rc = info_watch_print_json(&iv, o->only);
		else
			info_watch_print_text(&iv, o->only, clear);
		fflush(stdout);
		softdoca_process_counters_destroy(before);
		before = now;
		now = NULL;
		if (rc)
			break;
		/* A slow reading (a busy target) would leave the next interval
		 * short and its rates noisy: at least half an interval each. */
		if (deadline < before_t + o->interval / 2)
			deadline = before_t + o->interval;
	}
	softdoca_process_counters_destroy(before);
	(void)doca_log_level_set_global_sdk_limit(sdk_limit);
	return rc;
}

int info_watch(const struct info_watch_opts *o)
{
	struct sigaction sa = { .sa_handler = on_stop }, old_int, old_term;
	sigset_t stops, waiting_mask;
	int rc;

	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigprocmask(SIG_BLOCK, &stops, &waiting_mask);
	sigdelset(&waiting_mask, SIGINT);
	sigdelset(&waiting_mask, SIGTERM);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	rc = watch_loop(o, &waiting_mask);
	if (stop_signal && !o->json && isatty(STDOUT_FILENO))
		printf("\n");
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigprocmask(SIG_UNBLOCK, &stops, NULL);
	return rc;
}
