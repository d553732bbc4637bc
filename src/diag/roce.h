/*
 * RoCEv2 frames: Ethernet / IPv4 / UDP 4791 / BTH and extended headers.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The bytes a RoCEv2 NIC would put on the wire for one packet, as the
 * InfiniBand Architecture Specification (annex A17, RoCEv2) lays them out:
 * what the capture (capture.c) writes for each soft-NIC message, so that
 * Wireshark's InfiniBand dissector reads softdoca's traffic. Big-endian, as
 * on the wire. Knows nothing of the soft NIC: capture_map.c translates.
 */
#ifndef SDOCA_DIAG_ROCE_H_
#define SDOCA_DIAG_ROCE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ROCE_UDP_PORT 4791

/* BTH opcodes of the reliable-connected transport (IBA table 38). */
enum roce_opcode {
	ROCE_RC_SEND_ONLY = 0x04,
	ROCE_RC_SEND_ONLY_IMM = 0x05,
	ROCE_RC_WRITE_ONLY = 0x0a,
	ROCE_RC_WRITE_ONLY_IMM = 0x0b,
	ROCE_RC_READ_REQUEST = 0x0c,
	ROCE_RC_READ_RESPONSE_ONLY = 0x10,
	ROCE_RC_ACKNOWLEDGE = 0x11,
	ROCE_RC_ATOMIC_ACKNOWLEDGE = 0x12,
	ROCE_RC_COMPARE_SWAP = 0x13,
	ROCE_RC_FETCH_ADD = 0x14,
};

/* The extended headers after the BTH, in this order on the wire. */
enum roce_ext {
	ROCE_EXT_RETH = 1 << 0,       /* virtual address, rkey, DMA length (16 bytes) */
	ROCE_EXT_ATOMIC = 1 << 1,     /* AtomicETH: address, rkey, swap/add, compare (28) */
	ROCE_EXT_IMM = 1 << 2,        /* ImmDt (4) */
	ROCE_EXT_AETH = 1 << 3,       /* syndrome, MSN (4) */
	ROCE_EXT_ATOMIC_ACK = 1 << 4, /* AtomicAckETH: the original value (8) */
};

/* AETH syndromes (IBA 9.7.5.1.1): bits 7..5 say what it is. */
#define ROCE_AETH_ACK 0x1f           /* ACK, credit count "invalid" (no end-to-end credits) */
#define ROCE_AETH_RNR_NAK 0x20       /* | RNR timer code */
#define ROCE_AETH_NAK_SEQ 0x60       /* PSN sequence error */
#define ROCE_AETH_NAK_INVALID 0x61   /* invalid request */
#define ROCE_AETH_NAK_ACCESS 0x62    /* remote access error */
#define ROCE_AETH_NAK_OPERATION 0x63 /* remote operational error */

struct roce_pkt {
	uint8_t src_mac[6];
	uint8_t dst_mac[6];
	uint32_t src_ip; /* IPv4, host order */
	uint32_t dst_ip;
	uint16_t src_port; /* UDP source port (the destination is 4791) */
	/* BTH */
	uint8_t opcode;
	bool ack_req;
	uint32_t dest_qp; /* 24 bits */
	uint32_t psn;     /* 24 bits */
	/* extended headers: which (enum roce_ext), and their fields */
	uint8_t ext;
	uint64_t va;
	uint32_t rkey;
	uint32_t dma_len;
	uint64_t swap_add; /* AtomicETH: swap data, or what fetch-add adds */
	uint64_t compare;
	uint8_t imm[4]; /* as on the wire */
	uint8_t syndrome;
	uint32_t msn;         /* 24 bits */
	uint64_t orig;        /* AtomicAckETH */
	uint64_t payload_len; /* the packet's payload (its bytes may be cut short) */
};

/* Headers of the largest packet: Ethernet, IPv4, UDP, BTH, AtomicETH. */
#define ROCE_MAX_HEADERS (14 + 20 + 8 + 12 + 28 + 4 + 4 + 8)
#define ROCE_ICRC_LEN 4

/* Writes p's frame into out (cap bytes): its headers, `captured` bytes of
 * payload from `payload` (all of p->payload_len, or its first bytes), the
 * ICRC. The IPv4 and UDP lengths and the ICRC are those of the datagram
 * written, so that a dissector reads a payload cut short as a whole packet
 * (Wireshark's InfiniBand dissector calls a payload that was not captured
 * whole malformed); the RETH's DMA length keeps the message's. Returns the
 * bytes written, or 0 if cap is too small or the datagram beyond 65535
 * bytes; *wire_len is the frame's length with the whole payload. Reads
 * nothing past payload + captured. */
size_t roce_frame(const struct roce_pkt *p, const uint8_t *payload, size_t captured, uint8_t *out,
                  size_t cap, uint64_t *wire_len);

/* The header bytes after the UDP header for p (BTH and extensions). */
size_t roce_transport_headers_len(const struct roce_pkt *p);

/* CRC-32 (IEEE 802.3, reflected), continuing from crc (0 to start). */
uint32_t roce_crc32(uint32_t crc, const uint8_t *data, size_t len);

#endif /* SDOCA_DIAG_ROCE_H_ */
