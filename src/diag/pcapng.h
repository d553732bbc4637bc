/*
 * A pcapng writer: whole blocks, each in one write().
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The PCAP Next Generation format (IETF draft-ietf-opsawg-pcapng): a
 * section header, one Ethernet interface with nanosecond timestamps, then
 * enhanced packet blocks (with a direction flag and a comment) and custom
 * blocks. Each block is built in memory and handed to one write() on a
 * descriptor opened with O_APPEND: a process killed at any moment leaves
 * a file that ends after a whole block, which every reader opens.
 */
#ifndef SDOCA_DIAG_PCAPNG_H_
#define SDOCA_DIAG_PCAPNG_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>

/* IANA's enterprise number for documentation and examples (RFC 5612): the
 * custom blocks' text is softdoca's, for people, not for a dissector. */
#define PCAPNG_CUSTOM_PEN 32473u

enum pcapng_dir {
	PCAPNG_INBOUND = 1,
	PCAPNG_OUTBOUND = 2,
};

/* Builds blocks into buf (cap bytes) and returns their length, 0 if cap is
 * too small. */
size_t pcapng_section(uint8_t *buf, size_t cap, const char *application);
size_t pcapng_interface(uint8_t *buf, size_t cap, const char *name, const char *description);
/* An enhanced packet block on interface 0: frame (caplen bytes of a frame
 * of orig_len), timestamp in ns, direction, comment (NULL: none). */
size_t pcapng_packet(uint8_t *buf, size_t cap, uint64_t ts_ns, const uint8_t *frame, size_t caplen,
                     uint64_t orig_len, enum pcapng_dir dir, const char *comment);
/* A custom block (copyable) of PCAPNG_CUSTOM_PEN: the timestamp in ns
 * (8 bytes, little-endian), then the text. */
size_t pcapng_custom(uint8_t *buf, size_t cap, uint64_t ts_ns, const char *text);

/* Opens path for a new capture (created or truncated, O_APPEND) and writes
 * the section and interface blocks; the descriptor or -1 (errno set). */
int pcapng_open(const char *path, const char *application);
/* Writes one block with one write(); false if it did not go whole. */
bool pcapng_write(int fd, const uint8_t *block, size_t len);

#endif /* SDOCA_DIAG_PCAPNG_H_ */
