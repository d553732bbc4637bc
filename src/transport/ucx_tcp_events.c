/*
 * Both directions of a socket event, safely, for UCX's TCP transport (a UCX 1.13 defect).
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * UCX 1.13's TCP progress (uct_tcp_iface_progress) waits on its sockets with
 * ucs_event_set_wait, and its handler runs an endpoint's read handler and then
 * its write handler for one event. The read handler may free the endpoint: the
 * receive-only remainder UCX keeps after a forced close, when the peer's close
 * notice arrives. The write handler then runs on freed memory (heap corruption
 * in a resumed target: bench/RESULTS.md, "A resumed peer over TCP"). UCX's
 * current source has the same handler.
 *
 * libuct reaches ucs_event_set_wait and ucs_event_set_del through the dynamic
 * linker, and this library is searched before libucs, so these definitions
 * are the ones libuct calls. An event with both directions reaches libuct's
 * handler in two calls, read first; the write call is left out when this
 * thread removed a socket from an event set since the wait began, which every
 * endpoint destruction does (and UCX does for an endpoint left with no
 * direction to wait for). UCX's TCP sockets are level-triggered, so a write
 * left out is reported again by the next wait while the endpoint still
 * wants it - if there is a next wait: UCX's TCP arm does nothing, and a
 * socket that stays ready gives a sleeping thread no new edge. So a write
 * left out is counted, and the worker's progress (ucx.c) reports it as
 * activity: its caller progresses again before it sleeps. Every other handler (UCX's
 * async thread, an application's) gets its events as they came.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <ucs/sys/event_set.h>

#include "core/compiler.h"
#include "core/sdk_log.h"
#include "transport/ucx_tcp_events.h"

SDOCA_LOG_MODULE(ucx_tcp_events);

_Static_assert(sizeof(ucs_event_set_types_t) == sizeof(uint8_t),
               "ucx_tcp_events.h passes UCX's event bits as uint8_t");
_Static_assert(__builtin_types_compatible_p(ucs_event_set_handler_t, ucx_event_handler_fn),
               "ucx_tcp_events.h's handler is UCX's");

typedef ucs_status_t (*event_set_wait_fn)(ucs_sys_event_set_t *, unsigned *, int,
                                          ucs_event_set_handler_t, void *);
typedef ucs_status_t (*event_set_del_fn)(ucs_sys_event_set_t *, int);

/* Sockets this thread removed from event sets: a handler that destroyed
 * an endpoint did. */
static _Thread_local unsigned long removals;
/* Write calls left for the next wait, by any thread: rare, and read by
 * every progress, where a thread-local read would cost a call in a shared
 * library (another thread's only costs one more progress). */
_Atomic unsigned long ucx_event_writes_left_out_count;

unsigned long ucx_event_removals(void)
{
	return removals;
}

void ucx_deliver_event(ucx_event_handler_fn handler, void *callback_data, uint8_t events, void *arg,
                       unsigned long removals_at_wait)
{
	const uint8_t both = UCS_EVENT_SET_EVREAD | UCS_EVENT_SET_EVWRITE;

	if ((events & both) != both) {
		handler(callback_data, events, arg);
		return;
	}
	handler(callback_data, (uint8_t)(events & ~UCS_EVENT_SET_EVWRITE), arg);
	if (removals == removals_at_wait) {
		handler(callback_data, UCS_EVENT_SET_EVWRITE, arg);
	} else {
		atomic_fetch_add_explicit(&ucx_event_writes_left_out_count, 1,
		                          memory_order_relaxed);
		SDOCA_DBG("a socket was removed since the wait began: its write event waits "
		          "for the next one");
	}
}

static bool file_is_libuct(ucs_event_set_handler_t handler)
{
	Dl_info info;

	return dladdr((void *)(uintptr_t)handler, &info) && info.dli_fname &&
	       strstr(info.dli_fname, "libuct.");
}

/* Whether handler is libuct's, by the file it is in. A process has a few
 * handlers: they are remembered, written under the lock (the answer before
 * the handler), read without it. */
static bool in_libuct(ucs_event_set_handler_t handler)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static struct {
		_Atomic(ucs_event_set_handler_t) handler;
		bool uct;
	} seen[8];
	const unsigned int slots = sizeof(seen) / sizeof(seen[0]);
	bool uct;

	for (unsigned int i = 0; i < slots; i++) {
		ucs_event_set_handler_t h =
		        atomic_load_explicit(&seen[i].handler, memory_order_acquire);

		if (h == handler)
			return seen[i].uct;
		if (!h)
			break;
	}
	uct = file_is_libuct(handler);
	pthread_mutex_lock(&lock);
	for (unsigned int i = 0; i < slots; i++) {
		ucs_event_set_handler_t h =
		        atomic_load_explicit(&seen[i].handler, memory_order_relaxed);

		if (h == handler)
			break;
		if (!h) {
			seen[i].uct = uct;
			atomic_store_explicit(&seen[i].handler, handler, memory_order_release);
			break;
		}
	}
	pthread_mutex_unlock(&lock);
	return uct;
}

struct libuct_call {
	ucs_event_set_handler_t handler;
	void *arg;
	unsigned long removals_at_wait;
};

static void deliver_to_libuct(void *callback_data, ucs_event_set_types_t events, void *arg)
{
	const struct libuct_call *call = arg;

	ucx_deliver_event(call->handler, callback_data, events, call->arg, call->removals_at_wait);
}

/* libucs's definition of name, found once. */
static void *next_definition(void *_Atomic *cache, const char *name)
{
	void *fn = atomic_load_explicit(cache, memory_order_acquire);

	if (!fn) {
		fn = dlsym(RTLD_NEXT, name);
		atomic_store_explicit(cache, fn, memory_order_release);
	}
	return fn;
}

SDOCA_EXPORT ucs_status_t ucs_event_set_wait(ucs_sys_event_set_t *event_set, unsigned *num_events,
                                             int timeout_ms, ucs_event_set_handler_t handler,
                                             void *arg)
{
	static void *_Atomic next;
	event_set_wait_fn wait = (event_set_wait_fn)(uintptr_t)next_definition(&next, __func__);
	struct libuct_call call = { handler, arg, removals };

	if (!wait) /* not reachable: libucs is this library's dependency */
		return UCS_ERR_UNSUPPORTED;
	if (!handler || !in_libuct(handler))
		return wait(event_set, num_events, timeout_ms, handler, arg);
	return wait(event_set, num_events, timeout_ms, deliver_to_libuct, &call);
}

SDOCA_EXPORT ucs_status_t ucs_event_set_del(ucs_sys_event_set_t *event_set, int fd)
{
	static void *_Atomic next;
	event_set_del_fn del = (event_set_del_fn)(uintptr_t)next_definition(&next, __func__);

	removals++;
	return del ? del(event_set, fd) : UCS_ERR_UNSUPPORTED;
}
