/*
 * One direction per socket event for UCX's TCP transport (ucx_tcp_events.c).
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef SDOCA_TRANSPORT_UCX_TCP_EVENTS_H_
#define SDOCA_TRANSPORT_UCX_TCP_EVENTS_H_

#include <stdint.h>

/* The events of one socket event to hand a handler: both read and write
 * become one of them, by turn (*turn counts); anything else is unchanged.
 * events and the result are UCX's ucs_event_set_types_t. */
uint8_t ucx_one_direction(uint8_t events, unsigned *turn);

#endif
