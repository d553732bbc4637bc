/*
 * softdoca tests: the in-process transport instance of fake_transport.c and
 * the knobs tests turn on it.
 */
#ifndef SDOCA_TESTS_FAKE_TRANSPORT_H_
#define SDOCA_TESTS_FAKE_TRANSPORT_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "transport/xport.h"

/* A message a worker sent, as the transport carried it (the log of
 * fake_xport_sent): its header, its payload's length and first bytes. */
#define FAKE_SENT_LOG 64
#define FAKE_SENT_DATA 64
struct fake_sent {
	uint8_t hdr[96];
	size_t hdr_len;
	size_t len;
	uint8_t data[FAKE_SENT_DATA];
};

/* Install with xport_set_ops_for_tests(&fake_xport_ops) before any worker. */
extern const struct xport_ops fake_xport_ops;

/* The next two messages to the worker created index-th (from 0) are handed
 * over in the opposite order. */
void fake_xport_swap_next(unsigned int worker_index);
/* How many workers were created so far (the next one's index). */
unsigned int fake_xport_workers_created(void);
/* Queues a message to the worker created index-th as if the worker created
 * from_index-th had sent it (-1: a worker nobody connected to, a stranger).
 * False: no such worker, or out of memory. */
bool fake_xport_inject(unsigned int worker_index, int from_index, const void *hdr, size_t hdr_len,
                       const void *payload, size_t len);
/* Whether the swap asked for has happened. */
bool fake_xport_swapped(void);
/* Payloads of at least this many bytes travel by rendezvous: received into
 * their destination at the receiver's next progress, as UCX fetches them
 * later (0, the default: every payload is eager). */
void fake_xport_rndv_from(size_t bytes);

/* How many messages the worker created index-th has sent so far. */
unsigned int fake_xport_sent_count(unsigned int worker_index);
/* Its n-th message (from 0), while among its last FAKE_SENT_LOG: false if
 * not (or no such worker). */
bool fake_xport_sent(unsigned int worker_index, unsigned int n, struct fake_sent *out);
/* While paused, the worker created index-th is handed no message (they
 * queue, in order): its peers see a silent side whatever thread progresses. */
void fake_xport_pause(unsigned int worker_index, bool paused);

/* cmocka group setups for tests that run their cases once per transport:
 * the fake instance, or UCX over shared memory or TCP. */
int fake_xport_group_use_fake(void **state);
int fake_xport_group_use_shm(void **state);
int fake_xport_group_use_tcp(void **state);

#endif /* SDOCA_TESTS_FAKE_TRANSPORT_H_ */
