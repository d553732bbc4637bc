/*
 * Soft-NIC messages as RoCEv2 packets (what the capture writes).
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Each request and answer of the soft NIC has a RoCEv2 RC equivalent: the
 * BTH opcode, the message's sequence as PSN, the receiver's QP number, and
 * the extended headers of that operation (docs/capture.md has the table).
 * Sync-event requests and answers, and the connection's HELLO and
 * DISCONNECT, have none: the capture writes them as text (a custom block).
 * Addresses name processes, not hosts: 127.a.b.c and MAC 02:53:44:a:b:c,
 * with a.b.c the process id, so both ends' captures agree on them.
 */
#ifndef SDOCA_DIAG_CAPTURE_MAP_H_
#define SDOCA_DIAG_CAPTURE_MAP_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag/roce.h"
#include "nic/wire.h"

/* One end of a connection, as the capture names it. */
struct capture_end {
	uint32_t qp;  /* its QP number (wire id) */
	uint32_t pid; /* its process */
};

/* The RNR timer code of the soft NIC's RNR period (10 ms): 20, 10.24 ms. */
#define CAPTURE_RNR_TIMER 20

/* Fills p for m, sent by `from` to `to`; false if m has no RoCEv2
 * equivalent (then capture_text describes it). */
bool capture_map(const struct nic_msg *m, const struct capture_end *from,
                 const struct capture_end *to, struct roce_pkt *p);

/* Reads a header this process encoded (nic_wire_encode) into m; false if
 * it is too short or of no known opcode. Not nic_wire_decode: a second
 * caller of it would keep LTO from inlining it into the receive path. */
bool capture_read_header(const uint8_t *hdr, size_t len, struct nic_msg *m);

/* One line on m for a packet's comment or a custom block; returns buf. */
const char *capture_text(const struct nic_msg *m, uint32_t conn_id, const struct capture_end *from,
                         const struct capture_end *to, const char *note, char *buf, size_t cap);

/* The address of a process, as capture_map uses it. */
uint32_t capture_ip(uint32_t pid);

#endif /* SDOCA_DIAG_CAPTURE_MAP_H_ */
