/*
 * Counters of connections and devices.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Counters of connections and devices (stats.c).
 */
#ifndef SDOCA_NIC_STATS_H_
#define SDOCA_NIC_STATS_H_

#include <stdint.h>

#include <doca_error.h>
#include <softdoca.h>

struct nic_worker;

/* to += from, every counter. */
void nic_counters_add(struct softdoca_rdma_counters *to, const struct softdoca_rdma_counters *from);
/* Fills the totals from the arrays they sum. */
void nic_counters_finish(struct softdoca_rdma_counters *c);
/* A QP goes: its device keeps what it counted (lock held). */
void nic_stats_retire(const struct nic_worker *w, const struct softdoca_rdma_counters *c);
/* The counters of every connection the process had on a device. */
void nic_dev_counters(const char *ibdev_name, struct softdoca_rdma_counters *out);

/* The most a collection holds (the counters snapshot's limits, diag.h). */
#define NIC_STATS_MAX_DEVICES 1024u
#define NIC_STATS_MAX_CONNS (1u << 20)
/* Every device's counters and every live connection's, now (the lock of
 * each worker taken in turn); free with nic_stats_free(). */
doca_error_t nic_stats_collect(struct softdoca_process_counters **out);

void nic_stats_free(struct softdoca_process_counters *pc);

#endif /* SDOCA_NIC_STATS_H_ */
