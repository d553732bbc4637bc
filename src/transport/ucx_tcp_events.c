/*
 * One direction per socket event for UCX's TCP transport (a UCX 1.13 defect).
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
 * libuct reaches ucs_event_set_wait through the dynamic linker, and this
 * library is searched before libucs, so this definition is the one libuct
 * calls. It hands libuct's handlers one direction of an event that has both,
 * alternating, so nothing runs after a handler that may have freed its
 * endpoint; UCX's TCP sockets are level-triggered, so the other direction is
 * reported again by the next wait while the endpoint still wants it. Every
 * other handler (UCX's async thread, an application's) gets its events as
 * they came.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <ucs/sys/event_set.h>

#include "core/compiler.h"
#include "transport/ucx_tcp_events.h"

_Static_assert(sizeof(ucs_event_set_types_t) == sizeof(uint8_t),
               "ucx_tcp_events.h passes UCX's event bits as uint8_t");

typedef ucs_status_t (*event_set_wait_fn)(ucs_sys_event_set_t *, unsigned *, int,
                                          ucs_event_set_handler_t, void *);

uint8_t ucx_one_direction(uint8_t events, unsigned *turn)
{
	const ucs_event_set_types_t both = UCS_EVENT_SET_EVREAD | UCS_EVENT_SET_EVWRITE;

	if ((events & both) != both)
		return events;
	return (uint8_t)(events & ~((*turn)++ % 2 ? UCS_EVENT_SET_EVREAD : UCS_EVENT_SET_EVWRITE));
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

struct one_direction_call {
	ucs_event_set_handler_t handler;
	void *arg;
};

static void deliver_one_direction(void *callback_data, ucs_event_set_types_t events, void *arg)
{
	static _Thread_local unsigned turn;
	const struct one_direction_call *call = arg;

	call->handler(callback_data, ucx_one_direction(events, &turn), call->arg);
}

SDOCA_EXPORT ucs_status_t ucs_event_set_wait(ucs_sys_event_set_t *event_set, unsigned *num_events,
                                             int timeout_ms, ucs_event_set_handler_t handler,
                                             void *arg)
{
	static _Atomic(event_set_wait_fn) next;
	event_set_wait_fn wait = atomic_load_explicit(&next, memory_order_acquire);
	struct one_direction_call call = { handler, arg };

	if (!wait) {
		wait = (event_set_wait_fn)(uintptr_t)dlsym(RTLD_NEXT, "ucs_event_set_wait");
		if (!wait) /* not reachable: libucs is this library's dependency */
			return UCS_ERR_UNSUPPORTED;
		atomic_store_explicit(&next, wait, memory_order_release);
	}
	if (!handler || !in_libuct(handler))
		return wait(event_set, num_events, timeout_ms, handler, arg);
	return wait(event_set, num_events, timeout_ms, deliver_one_direction, &call);
}
