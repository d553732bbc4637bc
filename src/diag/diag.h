/*
 * Diagnostics: fault injection, the counters channel and snapshot.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Diagnostics sit above the soft NIC and out of its data path: the NIC
 * calls them only through its hooks (nic/diag_hooks.h), which
 * sdoca_diag_install() fills. What the layers above use: installing them,
 * and the counters snapshot (softdoca-info, softdoca_process_counters_get).
 */
#ifndef SDOCA_DIAG_DIAG_H_
#define SDOCA_DIAG_DIAG_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>
#include <softdoca.h>

#include "diag/stats_dpa.h"

/* Gives the soft NIC its fault injection and counters channel; the first
 * call does it, the others nothing. Before the first worker exists (the
 * RDMA context's creation, a DPA context's start). */
void sdoca_diag_install(void);

/* Starts the traffic capture SOFTDOCA_CAPTURE names, if any (capture.c);
 * sdoca_diag_install calls it. */
void diag_capture_from_environment(void);

/* Every device's and live connection's counters and, while a DPA context
 * lives, its section (stats_dpa.h); free with nic_stats_free(). */
doca_error_t diag_stats_collect(struct softdoca_process_counters **out);

/* --- stats_wire.c: a process's counters as bytes (docs/wire.md) --- */
#define DIAG_STATS_MAGIC "SDCT"
#define DIAG_STATS_VERSION 2   /* with the DPA section */
#define DIAG_STATS_VERSION_1 1 /* without: what a process with no DPA sends */
#define DIAG_STATS_HDR_LEN 64u
#define DIAG_STATS_MAX_LEN (64u << 20)
#define DIAG_STATS_MAX_DEVICES 1024u
#define DIAG_STATS_MAX_CONNS (1u << 20)
#define DIAG_STATS_DPA_MAGIC "SDPA"
#define DIAG_STATS_DPA_HDR_LEN 16u
#define DIAG_STATS_DPA_LEN 184u        /* a DPA record's fields (version 2) */
#define DIAG_STATS_DPA_THREAD_LEN 136u /* a DPA thread record's */
#define DIAG_STATS_MAX_DPAS SDOCA_STATS_MAX_DPAS
#define DIAG_STATS_MAX_DPA_THREADS SDOCA_STATS_MAX_DPA_THREADS
/* A snapshot of pc (malloc'd). */
doca_error_t diag_stats_encode(const struct softdoca_process_counters *pc, uint8_t **out,
                               size_t *out_len);
/* Checks a snapshot's header (its first DIAG_STATS_HDR_LEN bytes of len) and
 * gives the snapshot's whole length. */
doca_error_t diag_stats_check_header(const uint8_t *hdr, size_t len, uint32_t *total);
/* Checks and reads a snapshot from outside; logs what is wrong. */
doca_error_t diag_stats_decode(const uint8_t *buf, size_t len,
                               struct softdoca_process_counters **out);

/* --- stats_path.c: where the channel's socket is --- */
/* Makes this process's socket path (a private directory of this user's,
 * stale sockets of dead processes removed); false if there is none. */
bool diag_stats_path_own(char *path, size_t cap);
/* Finds process pid's socket: NOT_FOUND, or NOT_PERMITTED when it is in a
 * directory this user may not enter. Logs nothing. */
doca_error_t diag_stats_path_find(uint32_t pid, char *path, size_t cap);

/* --- stats_channel.c: the read-only channel that answers with them --- */
/* What a reader sends, and what a channel with every slot taken answers
 * (docs/wire.md, "Counters snapshot"). */
#define DIAG_STATS_REQUEST "SDCTASK1"
#define DIAG_STATS_BUSY "SDCTBUSY"
/* Opens the process's channel (unless SOFTDOCA_STATS=0) and watches it in
 * the service thread's epoll set; events come back tagged tag. */
void diag_channel_open(int epoll_fd, uint64_t tag);
/* An event tagged tag: accepts readers, sends what is pending (service thread). */
void diag_channel_event(void);
/* Drops readers past their deadline; returns the next deadline (UINT64_MAX: none). */
uint64_t diag_channel_timers(void);
/* Closes it and every reader (the service thread stopped). */
void diag_channel_close(void);
/* Asks process pid for its counters (any thread); logs why it failed. */
doca_error_t diag_stats_query(uint32_t pid, struct softdoca_process_counters **out);

#endif /* SDOCA_DIAG_DIAG_H_ */
