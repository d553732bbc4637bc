/*
 * The soft NIC's hooks for diagnostics.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The soft NIC's hooks for diagnostics: fault injection and the counters
 * channel live in src/diag/, above the NIC (they look at its QPs and
 * workers), so the NIC calls them through this table, which
 * sdoca_diag_install() (src/diag/diag.h) fills before the first worker or
 * DPA context exists. Until then every hook is a no-op: a QP has no faults,
 * the service thread no channel.
 *
 * The data path pays nothing for them: the fault hooks run only for a QP
 * with faults (qp->fault) or a stopped worker (stop_until_ns), the channel
 * hooks on the service thread's wake-ups. The traffic capture, which sees
 * every message and starts and stops at run time, has its own hook, NULL
 * while off (capture_hook.h); both are defined in diag_hooks.c.
 */
#ifndef SDOCA_NIC_DIAG_HOOKS_H_
#define SDOCA_NIC_DIAG_HOOKS_H_

#include <stdbool.h>
#include <stdint.h>

struct nic_msg;
struct nic_qp;
struct nic_worker;
struct xport_rx;

struct nic_diag_hooks {
	/* --- fault injection (src/diag/fault.c) --- */
	/* The faults that name the QP's connection, if any, at its creation. */
	void (*fault_attach)(struct nic_qp *qp, uint32_t conn_id);
	void (*fault_detach)(struct nic_qp *qp);
	/* A message from the peer: true if a fault took it (*kept: rx kept). */
	bool (*fault_message)(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx,
	                      bool *kept);
	/* This side posts a request (a connected QP): true if the connection
	 * breaks instead. */
	bool (*fault_post)(struct nic_qp *qp);
	/* Whether the worker is stopped now (it goes on once the stop is over). */
	bool (*fault_stopped)(struct nic_worker *w);
	/* Delayed messages due, an RNR over (lock held). */
	void (*fault_timers)(struct nic_qp *qp, uint64_t now_ns, uint64_t *next_ns);

	/* --- the counters channel (src/diag/stats_channel.c), on the service
	 * thread --- */
	/* Opens it and watches it in epoll_fd; its events come tagged tag. */
	void (*channel_open)(int epoll_fd, uint64_t tag);
	/* An event tagged tag. */
	void (*channel_event)(void);
	/* Its next deadline (UINT64_MAX: none), after dropping late readers. */
	uint64_t (*channel_timers)(void);
	/* The service thread stopped. */
	void (*channel_close)(void);
};

/* The hooks in force (no-ops until installed). Atomic because a process
 * may have NIC threads before it installs them (a plain load on x86). */
extern const struct nic_diag_hooks *_Atomic nic_diag;

/* Installs hooks (every member set). Called once (sdoca_diag_install). */
void nic_diag_set(const struct nic_diag_hooks *hooks);

#endif /* SDOCA_NIC_DIAG_HOOKS_H_ */
