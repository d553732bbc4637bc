/*
 * softdoca tests: the in-process transport of fake_transport.c.
 */
#ifndef SDOCA_TESTS_FAKE_TRANSPORT_H_
#define SDOCA_TESTS_FAKE_TRANSPORT_H_

#include <stdbool.h>

/* The next two messages to the worker created index-th (from 0) are handed
 * over in the opposite order. */
void fake_xport_swap_next(unsigned int worker_index);
/* How many workers were created so far (the next one's index). */
unsigned int fake_xport_workers_created(void);
/* Whether the swap asked for has happened. */
bool fake_xport_swapped(void);

#endif /* SDOCA_TESTS_FAKE_TRANSPORT_H_ */
