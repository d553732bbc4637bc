/*
 * Fault injection on connections: the soft NIC's fault hooks.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Fault injection on connections: what fault.c gives the soft NIC's hooks
 * (nic/diag_hooks.h says what each one does).
 */
#ifndef SDOCA_DIAG_FAULT_H_
#define SDOCA_DIAG_FAULT_H_

#include <stdbool.h>
#include <stdint.h>

struct nic_msg;
struct nic_qp;
struct nic_worker;
struct xport_rx;

void diag_fault_attach(struct nic_qp *qp, uint32_t conn_id);
void diag_fault_detach(struct nic_qp *qp);
bool diag_fault_message(struct nic_qp *qp, const struct nic_msg *m, struct xport_rx *rx,
                        bool *kept);
bool diag_fault_post(struct nic_qp *qp);
bool diag_fault_stopped(struct nic_worker *w);
void diag_fault_timers(struct nic_qp *qp, uint64_t now_ns, uint64_t *next_ns);

#endif /* SDOCA_DIAG_FAULT_H_ */
