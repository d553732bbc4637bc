/*
 * Encoding and validating decoding of soft-NIC message headers.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Encoding and validating decoding of soft-NIC message headers (wire.h).
 */
#include <string.h>

#include <doca_types.h>
#include <softdoca.h>

#include "core/bytes.h"
#include "core/sdk_log.h"
#include "nic/wire.h"

SDOCA_LOG_MODULE(wire);

#define READ DOCA_ACCESS_FLAG_RDMA_READ
#define WRITE DOCA_ACCESS_FLAG_RDMA_WRITE
#define ATOMIC DOCA_ACCESS_FLAG_RDMA_ATOMIC
#define REQ NIC_OPF_REQUEST

/* One row per opcode: adding an opcode is a row here and, for a request,
 * its execute step in the responder (docs/design.md). */
const struct nic_opcode_info nic_opcodes[NIC_WIRE_OPCODES] = {
	/* requests */
	[NIC_OP_WRITE] = { .name = "WRITE",
	                   .size = NIC_WIRE_RDMA_EXT,
	                   .flags = REQ | NIC_OPF_RKEY | NIC_OPF_PAYLOAD,
	                   .answer = NIC_OP_ACK,
	                   .exec = NIC_EXEC_WRITE,
	                   .access = WRITE,
	                   .order = NIC_ORDER_WRITE,
	                   .counter = SOFTDOCA_OP_WRITE },
	[NIC_OP_WRITE_IMM] = { .name = "WRITE_IMM",
	                       .size = NIC_WIRE_RDMA_EXT + 8,
	                       .flags = REQ | NIC_OPF_RKEY | NIC_OPF_PAYLOAD | NIC_OPF_RECV,
	                       .imm_at = NIC_WIRE_RDMA_EXT,
	                       .answer = NIC_OP_ACK,
	                       .exec = NIC_EXEC_WRITE,
	                       .recv_kind = NIC_RECV_WRITE_IMM,
	                       .access = WRITE,
	                       .order = NIC_ORDER_TARGET,
	                       .counter = SOFTDOCA_OP_WRITE_IMM },
	[NIC_OP_SEND] = { .name = "SEND",
	                  .size = NIC_WIRE_COMMON,
	                  .flags = REQ | NIC_OPF_PAYLOAD | NIC_OPF_RECV,
	                  .answer = NIC_OP_ACK,
	                  .exec = NIC_EXEC_SEND,
	                  .recv_kind = NIC_RECV_SEND,
	                  .order = NIC_ORDER_PAYLOADS,
	                  .counter = SOFTDOCA_OP_SEND },
	[NIC_OP_SEND_IMM] = { .name = "SEND_IMM",
	                      .size = NIC_WIRE_COMMON + 8,
	                      .flags = REQ | NIC_OPF_PAYLOAD | NIC_OPF_RECV,
	                      .imm_at = NIC_WIRE_COMMON,
	                      .answer = NIC_OP_ACK,
	                      .exec = NIC_EXEC_SEND,
	                      .recv_kind = NIC_RECV_SEND_IMM,
	                      .order = NIC_ORDER_PAYLOADS,
	                      .counter = SOFTDOCA_OP_SEND_IMM },
	[NIC_OP_READ] = { .name = "READ",
	                  .size = NIC_WIRE_RDMA_EXT,
	                  .flags = REQ | NIC_OPF_RKEY,
	                  .answer = NIC_OP_READ_RESP,
	                  .exec = NIC_EXEC_READ,
	                  .access = READ,
	                  .order = NIC_ORDER_READ,
	                  .counter = SOFTDOCA_OP_READ },
	[NIC_OP_ATOMIC_FA] = { .name = "ATOMIC_FA",
	                       .size = NIC_WIRE_RDMA_EXT + 8,
	                       .flags = REQ | NIC_OPF_RKEY | NIC_OPF_ATOMIC,
	                       .operands = 1,
	                       .answer = NIC_OP_ATOMIC_RESP,
	                       .exec = NIC_EXEC_ATOMIC,
	                       .access = ATOMIC,
	                       .order = NIC_ORDER_TARGET,
	                       .counter = SOFTDOCA_OP_ATOMIC_FA },
	[NIC_OP_ATOMIC_CS] = { .name = "ATOMIC_CS",
	                       .size = NIC_WIRE_RDMA_EXT + 16,
	                       .flags = REQ | NIC_OPF_RKEY | NIC_OPF_ATOMIC,
	                       .operands = 2,
	                       .answer = NIC_OP_ATOMIC_RESP,
	                       .exec = NIC_EXEC_ATOMIC,
	                       .access = ATOMIC,
	                       .order = NIC_ORDER_TARGET,
	                       .counter = SOFTDOCA_OP_ATOMIC_CS },
	/* on a sync event: the key and address of its value (docs/wire.md) */
	[NIC_OP_EVENT_GET] = { .name = "EVENT_GET",
	                       .size = NIC_WIRE_RDMA_EXT,
	                       .flags = REQ | NIC_OPF_EVENT,
	                       .answer = NIC_OP_EVENT_RESP,
	                       .exec = NIC_EXEC_EVENT,
	                       .access = READ,
	                       .order = NIC_ORDER_PAYLOADS,
	                       .counter = SOFTDOCA_OP_SYNC_EVENT_GET },
	[NIC_OP_EVENT_SET] = { .name = "EVENT_SET",
	                       .size = NIC_WIRE_RDMA_EXT + 8,
	                       .flags = REQ | NIC_OPF_EVENT,
	                       .operands = 1,
	                       .answer = NIC_OP_EVENT_RESP,
	                       .exec = NIC_EXEC_EVENT,
	                       .access = WRITE,
	                       .order = NIC_ORDER_PAYLOADS,
	                       .counter = SOFTDOCA_OP_SYNC_EVENT_SET },
	[NIC_OP_EVENT_ADD] = { .name = "EVENT_ADD",
	                       .size = NIC_WIRE_RDMA_EXT + 8,
	                       .flags = REQ | NIC_OPF_EVENT,
	                       .operands = 1,
	                       .answer = NIC_OP_EVENT_RESP,
	                       .exec = NIC_EXEC_EVENT,
	                       .access = ATOMIC,
	                       .order = NIC_ORDER_PAYLOADS,
	                       .counter = SOFTDOCA_OP_SYNC_EVENT_ADD },
	/* answers */
	[NIC_OP_ACK] = { .name = "ACK", .size = NIC_WIRE_COMMON },
	[NIC_OP_NAK] = { .name = "NAK",
	                 .size = NIC_WIRE_COMMON + 8,
	                 .flags = NIC_OPF_SYNDROME,
	                 .syndrome_at = NIC_WIRE_COMMON,
	                 .min_syndrome = NIC_SYN_REMOTE_ACCESS },
	[NIC_OP_READ_RESP] = { .name = "READ_RESP",
	                       .size = NIC_WIRE_COMMON,
	                       .flags = NIC_OPF_PAYLOAD },
	[NIC_OP_ATOMIC_RESP] = { .name = "ATOMIC_RESP",
	                         .size = NIC_WIRE_COMMON + 8,
	                         .flags = NIC_OPF_VALUE },
	[NIC_OP_RNR_WAIT] = { .name = "RNR_WAIT", .size = NIC_WIRE_COMMON },
	[NIC_OP_EVENT_RESP] = { .name = "EVENT_RESP",
	                        .size = NIC_WIRE_COMMON + 16,
	                        .flags = NIC_OPF_VALUE | NIC_OPF_SYNDROME,
	                        .syndrome_at = NIC_WIRE_COMMON + 8 },
	/* connection */
	[NIC_OP_HELLO] = { .name = "HELLO", .size = NIC_WIRE_COMMON },
	[NIC_OP_DISCONNECT] = { .name = "DISCONNECT", .size = NIC_WIRE_COMMON },
};

#undef READ
#undef WRITE
#undef ATOMIC
#undef REQ

/* The public counters (softdoca.h) have one slot per request opcode, the
 * one its row names (.counter): a request added without a slot of its own
 * fails here, and tests/unit/test_wire.c checks that the rows name every
 * slot once. */
_Static_assert(NIC_OP_REQUESTS_END - 1 == SOFTDOCA_NUM_OP_TYPES,
               "one operation type in enum softdoca_op_type per request opcode");
_Static_assert(NIC_OP_REQUESTS_END <= NIC_OP_ACK, "requests come before answers");
_Static_assert(SOFTDOCA_NUM_OP_TYPES <= UINT8_MAX, "a row's counter is a uint8_t");

_Static_assert(NIC_WIRE_RDMA_EXT + 16 + NIC_WIRE_ACK_EXT <= NIC_WIRE_MAX_HDR,
               "largest header must fit NIC_WIRE_MAX_HDR");

static const struct nic_opcode_info *layout_of(uint8_t opcode)
{
	if (opcode >= NIC_WIRE_OPCODES || !nic_opcodes[opcode].name)
		return NULL;
	return &nic_opcodes[opcode];
}

size_t nic_wire_header_size(uint8_t opcode)
{
	const struct nic_opcode_info *l = layout_of(opcode);

	return l ? l->size : 0;
}

const char *nic_opcode_name(uint8_t opcode)
{
	const struct nic_opcode_info *l = layout_of(opcode);

	return l ? l->name : "UNKNOWN";
}

doca_error_t nic_wire_decode(const void *hdr, size_t hdr_len, size_t payload_len, struct nic_msg *m)
{
	const uint8_t *p = hdr;
	const struct nic_opcode_info *l;
	uint16_t flags;
	size_t size;

	if (!hdr || hdr_len < NIC_WIRE_COMMON)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "message header too short (%zu bytes)",
		                  hdr_len);
	if (p[0] != NIC_WIRE_VERSION)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "message of protocol version %u (expected %u)", p[0],
		                  NIC_WIRE_VERSION);
	l = layout_of(p[1]);
	if (!l)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "message with unknown opcode %u", p[1]);
	flags = sdoca_get_le16(p + 2);
	if (flags != 0 && (flags != NIC_FLAG_ACK || !(l->flags & NIC_OPF_REQUEST)))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "%s header with unknown flags 0x%x",
		                  l->name, flags);
	size = l->size + (flags ? NIC_WIRE_ACK_EXT : 0);
	if (hdr_len != size)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "%s header of %zu bytes (expected %zu)",
		                  l->name, hdr_len, size);
	/* Each field set from the header or zeroed: no memset of the whole
	 * message first, on every message's path. */
	m->has_ack = flags != 0;
	m->ack_seq = flags ? sdoca_get_le32(p + l->size) : 0;
	m->opcode = p[1];
	m->qp = sdoca_get_le32(p + 4);
	m->seq = sdoca_get_le32(p + 8);
	m->len = sdoca_get_le32(p + 12);
	m->secret = sdoca_get_le64(p + 16);
	if (m->len > NIC_MAX_MESSAGE)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "%s of %u bytes exceeds the 2 GiB limit", l->name, m->len);
	if ((l->flags & NIC_OPF_PAYLOAD) ? payload_len != m->len : payload_len != 0)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "%s declares %u bytes but carries a payload of %zu", l->name,
		                  m->len, payload_len);
	/* Atomics are 8 bytes; a set of a sync event's value 1 to 8, its get and add 8. */
	if ((l->flags & (NIC_OPF_ATOMIC | NIC_OPF_EVENT)) &&
	    (m->len > 8 || m->len < (m->opcode == NIC_OP_EVENT_SET ? 1u : 8u)))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "%s on %u bytes", l->name, m->len);

	if (l->flags & (NIC_OPF_RKEY | NIC_OPF_EVENT)) {
		sdoca_key_decode(p + NIC_WIRE_COMMON, &m->key);
		m->raddr = sdoca_get_le64(p + NIC_WIRE_COMMON + SDOCA_KEY_WIRE_SIZE);
	} else {
		m->key = (struct sdoca_key){ 0 };
		m->raddr = 0;
	}
	if (l->imm_at)
		memcpy(m->imm, p + l->imm_at, sizeof(m->imm));
	else
		memset(m->imm, 0, sizeof(m->imm));
	m->operand1 = l->operands >= 1 ? sdoca_get_le64(p + NIC_WIRE_RDMA_EXT) : 0;
	m->operand2 = l->operands == 2 ? sdoca_get_le64(p + NIC_WIRE_RDMA_EXT + 8) : 0;
	m->syndrome = 0;
	m->value = 0;
	if (l->flags & NIC_OPF_SYNDROME) {
		m->syndrome = sdoca_get_le32(p + l->syndrome_at);
		if (m->syndrome < l->min_syndrome || m->syndrome > NIC_SYN_REMOTE_OPERATIONAL)
			return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "%s with unknown syndrome %u",
			                  l->name, m->syndrome);
	}
	if (l->flags & NIC_OPF_VALUE)
		m->value = sdoca_get_le64(p + NIC_WIRE_COMMON);
	return DOCA_SUCCESS;
}
