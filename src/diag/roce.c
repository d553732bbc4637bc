/*
 * RoCEv2 frames for the capture (roce.h).
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <limits.h>
#include <string.h>

#include <zlib.h>

#include "diag/roce.h"

#define ETH_LEN 14
#define IPV4_LEN 20
#define UDP_LEN 8
#define BTH_LEN 12

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put_be24(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 16);
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)v;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	put_be16(p, (uint16_t)(v >> 16));
	put_be16(p + 2, (uint16_t)v);
}

static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}

uint32_t roce_crc32(uint32_t crc, const uint8_t *data, size_t len)
{
	/* zlib's CRC-32 is this one (and fast); its length is a uInt */
	while (len > 0) {
		uInt n = len > UINT_MAX ? UINT_MAX : (uInt)len;

		crc = (uint32_t)crc32(crc, data, n);
		data += n;
		len -= n;
	}
	return crc;
}

size_t roce_transport_headers_len(const struct roce_pkt *p)
{
	size_t n = BTH_LEN;

	if (p->ext & ROCE_EXT_RETH)
		n += 16;
	if (p->ext & ROCE_EXT_ATOMIC)
		n += 28;
	if (p->ext & ROCE_EXT_IMM)
		n += 4;
	if (p->ext & ROCE_EXT_AETH)
		n += 4;
	if (p->ext & ROCE_EXT_ATOMIC_ACK)
		n += 8;
	return n;
}

static size_t put_transport_headers(const struct roce_pkt *p, uint8_t *o)
{
	uint8_t *start = o;

	/* BTH: no solicited event, no migration, no pad, version 0, the
	 * default partition key; the reserved byte, then the QP; ack request. */
	o[0] = p->opcode;
	o[1] = 0;
	put_be16(o + 2, 0xffff);
	o[4] = 0;
	put_be24(o + 5, p->dest_qp);
	o[8] = p->ack_req ? 0x80 : 0;
	put_be24(o + 9, p->psn);
	o += BTH_LEN;
	if (p->ext & ROCE_EXT_RETH) {
		put_be64(o, p->va);
		put_be32(o + 8, p->rkey);
		put_be32(o + 12, p->dma_len);
		o += 16;
	}
	if (p->ext & ROCE_EXT_ATOMIC) {
		put_be64(o, p->va);
		put_be32(o + 8, p->rkey);
		put_be64(o + 12, p->swap_add);
		put_be64(o + 20, p->compare);
		o += 28;
	}
	if (p->ext & ROCE_EXT_IMM) {
		memcpy(o, p->imm, 4);
		o += 4;
	}
	if (p->ext & ROCE_EXT_AETH) {
		o[0] = p->syndrome;
		put_be24(o + 1, p->msn);
		o += 4;
	}
	if (p->ext & ROCE_EXT_ATOMIC_ACK) {
		put_be64(o, p->orig);
		o += 8;
	}
	return (size_t)(o - start);
}

static uint16_t ipv4_checksum(const uint8_t *h)
{
	uint32_t sum = 0;

	for (int i = 0; i < IPV4_LEN; i += 2)
		sum += (uint32_t)(h[i] << 8 | h[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* The invariant CRC (IBA annex A17.3.3): CRC-32 over 64 one bits (for the
 * LRH a RoCEv2 packet lacks), the IP and UDP headers with their variant
 * fields set to ones, the BTH with its reserved byte set to ones, the rest
 * of the headers and the payload; sent least significant byte first. */
static void put_icrc(const uint8_t *ip, size_t transport_len, const uint8_t *payload,
                     size_t payload_len, uint8_t *out)
{
	static const uint8_t ones[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	uint8_t masked[IPV4_LEN + UDP_LEN + BTH_LEN];
	uint32_t crc;

	memcpy(masked, ip, sizeof(masked));
	masked[1] = 0xff;               /* type of service */
	masked[8] = 0xff;               /* time to live */
	masked[10] = masked[11] = 0xff; /* header checksum */
	masked[IPV4_LEN + 6] = 0xff;    /* UDP checksum */
	masked[IPV4_LEN + 7] = 0xff;
	masked[IPV4_LEN + UDP_LEN + 4] = 0xff; /* BTH reserved byte */
	crc = roce_crc32(0, ones, sizeof(ones));
	crc = roce_crc32(crc, masked, sizeof(masked));
	crc = roce_crc32(crc, ip + sizeof(masked), transport_len - BTH_LEN);
	crc = roce_crc32(crc, payload, payload_len);
	out[0] = (uint8_t)crc;
	out[1] = (uint8_t)(crc >> 8);
	out[2] = (uint8_t)(crc >> 16);
	out[3] = (uint8_t)(crc >> 24);
}

size_t roce_frame(const struct roce_pkt *p, const uint8_t *payload, size_t captured, uint8_t *out,
                  size_t cap, uint64_t *wire_len)
{
	size_t transport_len = roce_transport_headers_len(p);
	size_t ip_len, n;
	uint8_t *ip, *udp;

	if (captured > p->payload_len)
		captured = (size_t)p->payload_len;
	ip_len = IPV4_LEN + UDP_LEN + transport_len + captured + ROCE_ICRC_LEN;
	n = ETH_LEN + ip_len;
	if (n > cap || ip_len > 0xffff)
		return 0;
	*wire_len = ETH_LEN + IPV4_LEN + UDP_LEN + transport_len + p->payload_len + ROCE_ICRC_LEN;

	memcpy(out, p->dst_mac, 6);
	memcpy(out + 6, p->src_mac, 6);
	put_be16(out + 12, 0x0800);
	ip = out + ETH_LEN;
	ip[0] = 0x45; /* version 4, 5 words */
	ip[1] = 0;
	put_be16(ip + 2, (uint16_t)ip_len);
	put_be16(ip + 4, 0);
	put_be16(ip + 6, 0x4000); /* don't fragment */
	ip[8] = 64;
	ip[9] = 17; /* UDP */
	put_be16(ip + 10, 0);
	put_be32(ip + 12, p->src_ip);
	put_be32(ip + 16, p->dst_ip);
	put_be16(ip + 10, ipv4_checksum(ip));
	udp = ip + IPV4_LEN;
	put_be16(udp, p->src_port);
	put_be16(udp + 2, ROCE_UDP_PORT);
	put_be16(udp + 4, (uint16_t)(ip_len - IPV4_LEN));
	put_be16(udp + 6, 0); /* no checksum, as RoCEv2 sends it */
	put_transport_headers(p, udp + UDP_LEN);
	if (captured)
		memcpy(udp + UDP_LEN + transport_len, payload, captured);
	put_icrc(ip, transport_len, payload, captured, udp + UDP_LEN + transport_len + captured);
	return n;
}
