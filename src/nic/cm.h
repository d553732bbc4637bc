/*
 * Connecting QPs through a listening port, as RDMA-CM does.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Connecting QPs through a listening port, as RDMA-CM does (cm.c).
 */
#ifndef SDOCA_NIC_CM_H_
#define SDOCA_NIC_CM_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>

struct nic_qp;
struct nic_worker;
struct sockaddr;

struct nic_listener;
/* A client's request to connect, until accepted or rejected. */
struct nic_cm_request;
/* A request came (lock held, any thread), with the client's private data
 * (valid during the call) and address. False refuses it at once; true
 * keeps it until nic_qp_accept() or nic_cm_reject(). */
typedef bool (*nic_request_fn)(void *arg, struct nic_cm_request *request, const void *private_data,
                               size_t len, const struct sockaddr *peer, size_t peer_len);

/* Listens on addr (port 0: any free one) of the worker's host. */
doca_error_t nic_listen(struct nic_worker *worker, const struct sockaddr *addr, size_t addr_len,
                        nic_request_fn on_request, void *arg, struct nic_listener **listener);
uint16_t nic_listener_port(const struct nic_listener *listener);
/* Stops listening; requests not answered yet are refused (and freed: the
 * owner must forget them). Lock not held. */
void nic_listener_close(struct nic_listener *listener);
/* Connects a new QP to the requesting client, answering with this side's
 * connection info and private_data. Consumes the request, also on failure
 * (the client then hears a refusal). Lock not held. */
doca_error_t nic_qp_accept(struct nic_qp *qp, struct nic_cm_request *request,
                           const void *private_data, size_t len);
/* Refuses a request and frees it. Lock not held. */
void nic_cm_reject(struct nic_worker *worker, struct nic_cm_request *request);
/* Connects a new QP to the listener at addr, sending private_data; the QP
 * is up (events.up, with the server's private data) when the server
 * accepted, or down (NIC_DOWN_UNREACHED) when it refused, nobody listens,
 * or no answer came within timeout_ms. Lock not held. */
doca_error_t nic_qp_connect_to(struct nic_qp *qp, const struct sockaddr *addr, size_t addr_len,
                               const void *private_data, size_t len, uint32_t timeout_ms);
/* A connecting QP's deadline (lock held). */
void nic_cm_timers(struct nic_qp *qp, uint64_t now_ns, uint64_t *next_ns);
/* The connection data each way: the QP's connection info and the private
 * data. Checks data from outside; points into it. */
doca_error_t nic_cm_data_parse(const uint8_t *data, size_t len, const uint8_t **info,
                               size_t *info_len, const uint8_t **private_data, size_t *private_len);

#endif /* SDOCA_NIC_CM_H_ */
