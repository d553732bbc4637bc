/*
 * Soft-NIC messages as RoCEv2 packets (capture_map.h).
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include "core/bytes.h"
#include "diag/capture_map.h"

#define MASK24 0xffffffu

uint32_t capture_ip(uint32_t pid)
{
	return 127u << 24 | (pid & MASK24);
}

static void mac_of(uint32_t pid, uint8_t mac[6])
{
	/* locally administered, unicast; "SD" for softdoca */
	mac[0] = 0x02;
	mac[1] = 0x53;
	mac[2] = 0x44;
	mac[3] = (uint8_t)(pid >> 16);
	mac[4] = (uint8_t)(pid >> 8);
	mac[5] = (uint8_t)pid;
}

static uint8_t nak_syndrome(uint32_t syndrome)
{
	switch (syndrome) {
	case NIC_SYN_REMOTE_ACCESS:
		return ROCE_AETH_NAK_ACCESS;
	case NIC_SYN_REMOTE_INVALID:
		return ROCE_AETH_NAK_INVALID;
	case NIC_SYN_RNR_RETRY_EXCEEDED:
		/* The soft NIC's responder gives up after the RNR retries; on
		 * RoCE the requester does, after RNR NAKs like this one. */
		return ROCE_AETH_RNR_NAK | CAPTURE_RNR_TIMER;
	default:
		return ROCE_AETH_NAK_OPERATION;
	}
}

static void rdma_ext(const struct nic_msg *m, struct roce_pkt *p)
{
	p->ext |= ROCE_EXT_RETH;
	p->va = m->raddr;
	p->rkey = m->key.index; /* the memory key's slot (the key is 128 bits) */
	p->dma_len = m->len;
}

bool capture_map(const struct nic_msg *m, const struct capture_end *from,
                 const struct capture_end *to, struct roce_pkt *p)
{
	memset(p, 0, sizeof(*p));
	mac_of(from->pid, p->src_mac);
	mac_of(to->pid, p->dst_mac);
	p->src_ip = capture_ip(from->pid);
	p->dst_ip = capture_ip(to->pid);
	/* RoCEv2 spreads flows over UDP source ports by QP */
	p->src_port = (uint16_t)(0xc000 | (from->qp & 0x3fff));
	p->dest_qp = to->qp & MASK24;
	p->psn = m->seq & MASK24;
	switch (m->opcode) {
	case NIC_OP_WRITE:
		p->opcode = ROCE_RC_WRITE_ONLY;
		rdma_ext(m, p);
		p->payload_len = m->len;
		break;
	case NIC_OP_WRITE_IMM:
		p->opcode = ROCE_RC_WRITE_ONLY_IMM;
		rdma_ext(m, p);
		p->ext |= ROCE_EXT_IMM;
		memcpy(p->imm, m->imm, sizeof(p->imm));
		p->payload_len = m->len;
		break;
	case NIC_OP_SEND:
		p->opcode = ROCE_RC_SEND_ONLY;
		p->payload_len = m->len;
		break;
	case NIC_OP_SEND_IMM:
		p->opcode = ROCE_RC_SEND_ONLY_IMM;
		p->ext |= ROCE_EXT_IMM;
		memcpy(p->imm, m->imm, sizeof(p->imm));
		p->payload_len = m->len;
		break;
	case NIC_OP_READ:
		p->opcode = ROCE_RC_READ_REQUEST;
		rdma_ext(m, p);
		break;
	case NIC_OP_ATOMIC_FA:
	case NIC_OP_ATOMIC_CS:
		p->opcode =
		        m->opcode == NIC_OP_ATOMIC_FA ? ROCE_RC_FETCH_ADD : ROCE_RC_COMPARE_SWAP;
		p->ext |= ROCE_EXT_ATOMIC;
		p->va = m->raddr;
		p->rkey = m->key.index;
		p->swap_add = m->opcode == NIC_OP_ATOMIC_FA ? m->operand1 : m->operand2;
		p->compare = m->opcode == NIC_OP_ATOMIC_FA ? 0 : m->operand1;
		break;
	case NIC_OP_ACK:
	case NIC_OP_READ_RESP:
	case NIC_OP_ATOMIC_RESP:
		/* MSN: the requests done, the one answered included (the
		 * soft NIC's sequence starts at 0) */
		p->opcode = m->opcode == NIC_OP_ACK         ? ROCE_RC_ACKNOWLEDGE
		            : m->opcode == NIC_OP_READ_RESP ? ROCE_RC_READ_RESPONSE_ONLY
		                                            : ROCE_RC_ATOMIC_ACKNOWLEDGE;
		p->ext |= ROCE_EXT_AETH;
		p->syndrome = ROCE_AETH_ACK;
		p->msn = (m->seq + 1) & MASK24;
		if (m->opcode == NIC_OP_READ_RESP)
			p->payload_len = m->len;
		if (m->opcode == NIC_OP_ATOMIC_RESP) {
			p->ext |= ROCE_EXT_ATOMIC_ACK;
			p->orig = m->value;
		}
		break;
	case NIC_OP_NAK:
	case NIC_OP_RNR_WAIT:
		/* the refused (or waiting) request's PSN; MSN: those before it */
		p->opcode = ROCE_RC_ACKNOWLEDGE;
		p->ext |= ROCE_EXT_AETH;
		p->syndrome = m->opcode == NIC_OP_NAK ? nak_syndrome(m->syndrome)
		                                      : ROCE_AETH_RNR_NAK | CAPTURE_RNR_TIMER;
		p->msn = m->seq & MASK24;
		break;
	default: /* sync events, HELLO, DISCONNECT */
		return false;
	}
	p->ack_req = nic_op_is_request(m->opcode);
	return true;
}

bool capture_read_header(const uint8_t *h, size_t len, struct nic_msg *m)
{
	const struct nic_opcode_info *l;

	if (len < NIC_WIRE_COMMON || h[1] >= NIC_WIRE_OPCODES || !nic_opcodes[h[1]].name)
		return false;
	l = nic_op(h[1]);
	if (len < l->size)
		return false;
	memset(m, 0, sizeof(*m));
	m->opcode = h[1];
	m->qp = sdoca_get_le32(h + 4);
	m->seq = sdoca_get_le32(h + 8);
	m->len = sdoca_get_le32(h + 12);
	m->secret = sdoca_get_le64(h + 16);
	m->has_ack =
	        (sdoca_get_le16(h + 2) & NIC_FLAG_ACK) && len >= (size_t)l->size + NIC_WIRE_ACK_EXT;
	if (m->has_ack)
		m->ack_seq = sdoca_get_le32(h + l->size);
	if (nic_op_has_rkey(m->opcode)) {
		sdoca_key_decode(h + NIC_WIRE_COMMON, &m->key);
		m->raddr = sdoca_get_le64(h + NIC_WIRE_COMMON + SDOCA_KEY_WIRE_SIZE);
	}
	if (l->imm_at)
		memcpy(m->imm, h + l->imm_at, sizeof(m->imm));
	if (l->operands >= 1)
		m->operand1 = sdoca_get_le64(h + NIC_WIRE_RDMA_EXT);
	if (l->operands == 2)
		m->operand2 = sdoca_get_le64(h + NIC_WIRE_RDMA_EXT + 8);
	if (l->flags & NIC_OPF_SYNDROME)
		m->syndrome = sdoca_get_le32(h + l->syndrome_at);
	if (l->flags & NIC_OPF_VALUE)
		m->value = sdoca_get_le64(h + NIC_WIRE_COMMON);
	return true;
}

/* A line being written: snprintf cost ~4,000 instructions per packet, most
 * of the capture's (bench/RESULTS.md), so the line is put together here. */
struct line {
	char *buf;
	size_t cap, len; /* len < cap: room for the terminating NUL */
};

static void add_str(struct line *l, const char *s)
{
	while (*s && l->len + 1 < l->cap)
		l->buf[l->len++] = *s++;
	l->buf[l->len] = '\0';
}

static void add_u64(struct line *l, uint64_t v)
{
	char digits[21];
	size_t i = sizeof(digits) - 1;

	digits[i] = '\0';
	do
		digits[--i] = (char)('0' + v % 10);
	while (v /= 10);
	add_str(l, digits + i);
}

const char *capture_text(const struct nic_msg *m, uint32_t conn_id, const struct capture_end *from,
                         const struct capture_end *to, const char *note, char *buf, size_t cap)
{
	struct line l = { buf, cap, 0 };

	if (cap == 0)
		return buf;
	buf[0] = '\0';
	add_str(&l, "softdoca connection ");
	add_u64(&l, conn_id);
	add_str(&l, ": QP ");
	add_u64(&l, from->qp);
	add_str(&l, " (pid ");
	add_u64(&l, from->pid);
	add_str(&l, ") -> QP ");
	add_u64(&l, to->qp);
	add_str(&l, " (pid ");
	add_u64(&l, to->pid);
	add_str(&l, "): ");
	add_str(&l, nic_opcode_name(m->opcode));
	add_str(&l, " seq ");
	add_u64(&l, m->seq);
	if (nic_op_has_payload(m->opcode) || nic_op_has_rkey(m->opcode)) {
		add_str(&l, " len ");
		add_u64(&l, m->len);
	}
	if (m->opcode == NIC_OP_EVENT_SET || m->opcode == NIC_OP_EVENT_ADD) {
		add_str(&l, " operand ");
		add_u64(&l, m->operand1);
	}
	if (m->opcode == NIC_OP_EVENT_RESP) {
		add_str(&l, " value ");
		add_u64(&l, m->value);
		add_str(&l, " status ");
		add_u64(&l, m->syndrome);
	}
	if (m->has_ack) {
		add_str(&l, ", acknowledges up to seq ");
		add_u64(&l, m->ack_seq);
	}
	if (note) {
		add_str(&l, " (");
		add_str(&l, note);
		add_str(&l, ")");
	}
	return buf;
}
