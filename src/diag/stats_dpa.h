/*
 * The DPA section of the counters snapshot.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The DPA section of the counters snapshot (docs/wire.md, "Counters
 * snapshot"). Layers call only downward and the counters channel lives in
 * src/diag/, below libdoca_dpa: so libdoca_dpa hands it a function that
 * fills the section, and the channel calls it when a reader asks.
 */
#ifndef SDOCA_DIAG_STATS_DPA_H_
#define SDOCA_DIAG_STATS_DPA_H_

#include <doca_error.h>
#include <softdoca.h>

#include "core/compiler.h"

/* The most a snapshot holds (docs/wire.md). */
#define SDOCA_STATS_MAX_DPAS 1024u
#define SDOCA_STATS_MAX_DPA_THREADS 65536u

/* Fills pc's dpas and dpa_threads (malloc'd; nic_stats_free frees them).
 * Runs on the service thread. */
typedef doca_error_t (*sdoca_stats_dpa_fn)(struct softdoca_process_counters *pc);

/* A DPA context started: snapshots get fn's section from now on, and the
 * counters channel is open even without an RDMA context (the service thread
 * starts for it; with SOFTDOCA_STATS=0 it runs without a channel). One
 * detach per attach. */
SDOCA_EXPORT void sdoca_stats_dpa_attach(sdoca_stats_dpa_fn fn);
/* That DPA context went: with the last one, the section and the reason to
 * keep the service thread go (it stops if no RDMA context needs it). Never
 * call it while holding a lock fn takes: it may join the service thread. */
SDOCA_EXPORT void sdoca_stats_dpa_detach(void);

#endif /* SDOCA_DIAG_STATS_DPA_H_ */
