/*
 * libdoca_dpa internals: the registry softdoca-info --pid reads.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libdoca_dpa internals: what softdoca-info --pid shows of the process's
 * DPA objects (docs/dpa.md 2.13). info.c keeps the live objects in a
 * registry and fills the counters snapshot's DPA section from the counters
 * channel's service thread; each object's file reads it under its own lock.
 */
#ifndef SDOCA_DPA_INFO_H_
#define SDOCA_DPA_INFO_H_

#include <stdbool.h>
#include <stdint.h>

#include <softdoca.h>

#include "dpa/dpa.h"

struct doca_dpa_completion;

/* CLOCK_MONOTONIC_COARSE in nanoseconds (resolution: a few ms). */
uint64_t sdoca_dpa_info_now_ns(void);

/* The registry: objects are added at create and removed at destroy, before
 * they are freed. An object that could not be added (no memory) is not
 * shown. None of these may be called with an object's lock held. */
void sdoca_dpa_info_add_dpa(struct doca_dpa *dpa);
void sdoca_dpa_info_remove_dpa(struct doca_dpa *dpa);
/* doca_dpa_start / _stop: its program's name is shown from its start; the
 * first start opens the counters channel (kept until destroy). */
void sdoca_dpa_info_started(struct doca_dpa *dpa, bool started);
void sdoca_dpa_info_add_thread(struct doca_dpa_thread *t);
void sdoca_dpa_info_remove_thread(struct doca_dpa_thread *t);
void sdoca_dpa_info_add_completion(struct doca_dpa_completion *c);
void sdoca_dpa_info_remove_completion(struct doca_dpa_completion *c);

/* The objects' own parts, each read under the object's lock. */
/* thread.c: every field but dpa, completions and the cq_* depths. */
void sdoca_dpa_thread_info(struct doca_dpa_thread *t, struct softdoca_dpa_thread_counters *out);
/* comp.c: its DPA, the thread it is bound to (NULL: polled) and its
 * depth: in the ring unacknowledged, of those unread, held back. */
struct doca_dpa_thread *sdoca_dpa_completion_info(struct doca_dpa_completion *c,
                                                  const struct doca_dpa **dpa, uint64_t *populated,
                                                  uint64_t *unread, uint64_t *held);
/* mem.c: doca_dpa_mem_alloc memory in use. */
void sdoca_dpa_mem_in_use(struct doca_dpa *dpa, uint64_t *bytes, uint32_t *blocks);
/* affinity.c: its EU, or SOFTDOCA_DPA_NO_EU. */
uint32_t sdoca_dpa_affinity_eu(const struct doca_dpa_eu_affinity *affinity);

#endif /* SDOCA_DPA_INFO_H_ */
