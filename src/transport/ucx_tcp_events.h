/*
 * Both directions of a socket event, safely, for UCX's TCP transport (ucx_tcp_events.c).
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SDOCA_TRANSPORT_UCX_TCP_EVENTS_H_
#define SDOCA_TRANSPORT_UCX_TCP_EVENTS_H_

#include <stdatomic.h>
#include <stdint.h>

/* UCX's event handler type (ucs_event_set_handler_t; events are UCX's
 * ucs_event_set_types_t bits). */
typedef void (*ucx_event_handler_fn)(void *callback_data, uint8_t events, void *arg);

/* Hands one socket event to a libuct handler: an event with both directions
 * as two calls, read first, and the write one only if this thread removed
 * no socket from an event set since removals_at_wait (the read handler may
 * have destroyed the endpoint). */
void ucx_deliver_event(ucx_event_handler_fn handler, void *callback_data, uint8_t events, void *arg,
                       unsigned long removals_at_wait);

/* How many sockets this thread has removed from event sets (through
 * ucs_event_set_del, which every endpoint destruction calls). */
unsigned long ucx_event_removals(void);

/* How many write calls have been left for the next wait (any thread): a
 * caller that sees it grow must wait (progress) again before it sleeps.
 * Read inline: every progress reads it twice. */
extern _Atomic unsigned long ucx_event_writes_left_out_count;

static inline unsigned long ucx_event_writes_left_out(void)
{
	return atomic_load_explicit(&ucx_event_writes_left_out_count, memory_order_relaxed);
}

#endif
