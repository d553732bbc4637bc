/*
 * A sync event's value: reads, updates and waiting for a condition.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * A sync event's value: reads, updates, a peer's updates (the responder's
 * execute step), and waiting for a condition on it.
 *
 * A waiter spins first, for up to WAIT_SPIN_NS: each round checks the value
 * and lets the soft NIC progress (the poll hook), so a peer's set or add
 * reaches it without any other thread, in about a transport hop. The
 * _yield forms give the CPU up between rounds (sched_yield), as DOCA
 * documents them; so does any round in which the soft NIC was busy in
 * another thread. Then it sleeps on a futex - a 32-bit word of the event's,
 * wake_seq, not the value, which is 64 bits wide and may live in the
 * program's memory - after handing the soft NIC to its service thread (the
 * sleeping hook), which applies what peers send and wakes it.
 *
 * No lost wake-up: a sleeper counts itself in `sleepers`, then reads
 * wake_seq, then the value, then sleeps unless wake_seq moved; a changer
 * writes the value, then reads `sleepers` and, if any, bumps wake_seq and
 * wakes them. Every step is sequentially consistent, so either the changer
 * sees the sleeper or the sleeper sees the new value. The common case, a
 * change with nobody asleep, costs the changer one load.
 *
 * An update counts itself in `updaters` from before its store to after its
 * wake-ups; stop and destroy wait for none to be left (sdoca_se_quiesce),
 * so a waiter may destroy the event as soon as it saw the value.
 *
 * A sleeper also looks again every WAIT_RECHECK_NS: a value that the
 * program stores into its own memory (set_addr) without softdoca is seen
 * that late, never missed.
 */
#define SOFTDOCA_API_VERSION 205

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/pe.h"
#include "core/sdk_log.h"
#include "core/sync_event.h"

SDOCA_LOG_MODULE(sync_event_wait);

#define WAIT_SPIN_NS 50000u       /* as long as the service thread polls on after traffic */
#define WAIT_RECHECK_NS 10000000u /* a sleeper looks at the value at least this often */

static _Atomic(sdoca_waiter_poll_fn) hook_poll;
static _Atomic(sdoca_waiter_sleeping_fn) hook_sleeping;
static __thread uint64_t wakes; /* sleepers woken by this thread's changes */

SDOCA_EXPORT void sdoca_waiter_set_hooks(sdoca_waiter_poll_fn poll,
                                         sdoca_waiter_sleeping_fn sleeping)
{
	atomic_store(&hook_poll, poll);
	atomic_store(&hook_sleeping, sleeping);
}

SDOCA_EXPORT bool sdoca_waiter_poll(void)
{
	sdoca_waiter_poll_fn poll = atomic_load_explicit(&hook_poll, memory_order_acquire);

	return poll && poll();
}

SDOCA_EXPORT void sdoca_waiter_sleeps(void)
{
	sdoca_waiter_sleeping_fn sleeping =
	        atomic_load_explicit(&hook_sleeping, memory_order_acquire);

	if (sleeping)
		sleeping();
}

SDOCA_EXPORT uint64_t sdoca_sync_event_wakes(void)
{
	return wakes;
}

static void futex_wake_all(_Atomic uint32_t *word)
{
	syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

void sdoca_se_changed(struct doca_sync_event *ev)
{
	if (atomic_load(&ev->sleepers)) {
		atomic_fetch_add(&ev->wake_seq, 1);
		futex_wake_all(&ev->wake_seq);
		wakes++;
	}
	/* Attention first: a PE arming its notification right now then sees
	 * work (doca_pe_request_notification) if it missed the wake. */
	if (atomic_load(&ev->task_waits)) {
		atomic_store(&ev->ctx.pe->attention, true);
		sdoca_pe_wake(ev->ctx.pe);
	}
}

/* The first len bytes of the value (its low-order bytes here) become those
 * of the operand; the rest stay, as an RDMA write of len bytes leaves them. */
static uint64_t set_bytes(uint64_t *value, uint64_t operand, uint32_t len)
{
	uint64_t old = __atomic_load_n(value, __ATOMIC_SEQ_CST), next;

	if (len >= sizeof(uint64_t))
		return __atomic_exchange_n(value, operand, __ATOMIC_SEQ_CST);
	do {
		next = old;
		memcpy(&next, &operand, len);
	} while (!__atomic_compare_exchange_n(value, &old, next, false, __ATOMIC_SEQ_CST,
	                                      __ATOMIC_SEQ_CST));
	return old;
}

SDOCA_EXPORT uint64_t sdoca_sync_event_remote_op(void *owner, enum sdoca_se_op op, uint64_t operand,
                                                 uint32_t len)
{
	struct doca_sync_event *ev = owner;

	if (op == SDOCA_SE_OP_GET)
		return sdoca_se_load(ev);
	if (op == SDOCA_SE_OP_ADD)
		return __atomic_fetch_add(ev->value, operand, __ATOMIC_SEQ_CST);
	return set_bytes(ev->value, operand, len);
}

SDOCA_EXPORT void sdoca_sync_event_remote_changed(void *owner)
{
	sdoca_se_changed(owner);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_get(struct doca_sync_event *event, uint64_t *value)
{
	if (!sdoca_arg_valid(event) || !sdoca_arg_valid(value))
		return DOCA_ERROR_INVALID_VALUE;
	*value = sdoca_se_load(event);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_update_add(struct doca_sync_event *event,
                                                          uint64_t value, uint64_t *fetched)
{
	uint64_t old;

	if (!sdoca_arg_valid(event) || !sdoca_arg_valid(fetched))
		return DOCA_ERROR_INVALID_VALUE;
	atomic_fetch_add(&event->updaters, 1);
	old = __atomic_fetch_add(event->value, value, __ATOMIC_SEQ_CST);
	sdoca_se_changed(event);
	atomic_fetch_sub(&event->updaters, 1); /* the last touch of the event */
	*fetched = old;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_update_set(struct doca_sync_event *event,
                                                          uint64_t value)
{
	if (!sdoca_arg_valid(event))
		return DOCA_ERROR_INVALID_VALUE;
	atomic_fetch_add(&event->updaters, 1);
	__atomic_store_n(event->value, value, __ATOMIC_SEQ_CST);
	sdoca_se_changed(event);
	atomic_fetch_sub(&event->updaters, 1);
	return DOCA_SUCCESS;
}

/* A waiter that saw an update's value may stop and destroy the event while
 * the updating thread (e.g. a kernel launch signalling its completion
 * event) is still waking the others: wait for it to be done. Counted
 * before the value changes, so whoever saw the value sees the count. */
void sdoca_se_quiesce(struct doca_sync_event *ev)
{
	while (atomic_load(&ev->updaters))
		sched_yield();
}

static bool holds(const struct doca_sync_event *ev, enum sdoca_se_cond cond, uint64_t wait_val,
                  uint64_t mask)
{
	return sdoca_se_holds(sdoca_se_load(ev), cond, wait_val, mask);
}

/* Spins up to WAIT_SPIN_NS, progressing the soft NIC; true once it holds.
 * A round that could not progress it (the service thread has it) gives the
 * CPU up: on a shared CPU the thread that holds it, or the one that will
 * change the value, runs then. */
static bool spin(const struct doca_sync_event *ev, enum sdoca_se_cond cond, uint64_t wait_val,
                 uint64_t mask, bool yield)
{
	uint64_t start = sdoca_now_ns();

	for (;;) {
		bool polled = sdoca_waiter_poll();

		if (holds(ev, cond, wait_val, mask))
			return true;
		if (sdoca_now_ns() - start >= WAIT_SPIN_NS)
			return false;
		if (yield || !polled)
			sched_yield();
		else
			sdoca_cpu_relax();
	}
}

static void sleep_until(struct doca_sync_event *ev, enum sdoca_se_cond cond, uint64_t wait_val,
                        uint64_t mask)
{
	const struct timespec recheck = { .tv_sec = 0, .tv_nsec = WAIT_RECHECK_NS };

	sdoca_waiter_sleeps();
	for (;;) {
		uint32_t seq;
		bool done;

		atomic_fetch_add(&ev->sleepers, 1);
		seq = atomic_load(&ev->wake_seq);
		done = holds(ev, cond, wait_val, mask);
		if (!done)
			syscall(SYS_futex, (uint32_t *)&ev->wake_seq, FUTEX_WAIT_PRIVATE, seq,
			        &recheck, NULL, 0);
		atomic_fetch_sub(&ev->sleepers, 1);
		if (done || holds(ev, cond, wait_val, mask))
			return;
	}
}

SDOCA_EXPORT bool sdoca_sync_event_sleep(struct doca_sync_event *ev, enum sdoca_se_cond cond,
                                         uint64_t wait_val, uint64_t mask, uint64_t timeout_ns,
                                         bool first)
{
	sdoca_waiter_sleeping_fn sleeping =
	        atomic_load_explicit(&hook_sleeping, memory_order_acquire);
	struct timespec ts = { .tv_sec = (time_t)(timeout_ns / 1000000000u),
		               .tv_nsec = (long)(timeout_ns % 1000000000u) };
	uint32_t seq;
	bool done;

	if (holds(ev, cond, wait_val, mask))
		return true;
	/* Whatever a peer sends must reach the event while this thread sleeps. */
	if (sleeping && first)
		sleeping();
	atomic_fetch_add(&ev->sleepers, 1);
	seq = atomic_load(&ev->wake_seq);
	done = holds(ev, cond, wait_val, mask);
	if (!done && timeout_ns > 0)
		syscall(SYS_futex, (uint32_t *)&ev->wake_seq, FUTEX_WAIT_PRIVATE, seq, &ts, NULL,
		        0);
	atomic_fetch_sub(&ev->sleepers, 1);
	return done || holds(ev, cond, wait_val, mask);
}

SDOCA_EXPORT void sdoca_sync_event_wake_all(struct doca_sync_event *ev)
{
	atomic_fetch_add(&ev->wake_seq, 1);
	futex_wake_all(&ev->wake_seq);
}

static doca_error_t wait_for(struct doca_sync_event *ev, enum sdoca_se_cond cond, uint64_t wait_val,
                             uint64_t mask, bool yield)
{
	if (!sdoca_arg_valid(ev))
		return DOCA_ERROR_INVALID_VALUE;
	if (holds(ev, cond, wait_val, mask))
		return DOCA_SUCCESS;
	if (!spin(ev, cond, wait_val, mask, yield))
		sleep_until(ev, cond, wait_val, mask);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_wait_gt(struct doca_sync_event *event,
                                                       uint64_t value, uint64_t mask)
{
	return wait_for(event, SDOCA_SE_GT, value, mask, false);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_wait_gt_yield(struct doca_sync_event *event,
                                                             uint64_t value, uint64_t mask)
{
	return wait_for(event, SDOCA_SE_GT, value, mask, true);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_wait_eq(struct doca_sync_event *event,
                                                       uint64_t value, uint64_t mask)
{
	return wait_for(event, SDOCA_SE_EQ, value, mask, false);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_wait_eq_yield(struct doca_sync_event *event,
                                                             uint64_t value, uint64_t mask)
{
	return wait_for(event, SDOCA_SE_EQ, value, mask, true);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_wait_neq(struct doca_sync_event *event,
                                                        uint64_t value, uint64_t mask)
{
	return wait_for(event, SDOCA_SE_NEQ, value, mask, false);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_wait_neq_yield(struct doca_sync_event *event,
                                                              uint64_t value, uint64_t mask)
{
	return wait_for(event, SDOCA_SE_NEQ, value, mask, true);
}
