/*
 * Unit tests: the soft NIC's message headers (src/nic/wire.c) - every opcode
 * round-trips, a piggybacked ACK rides on requests only, malformed
 * headers are refused before any field is used, and every request's row
 * has all its traits (order, counter slot, execute step, answer).
 */
#include <string.h>

#include <softdoca.h>

#include "core/bytes.h"
#include "nic/wire.h"
#include "unit/testing.h"

static const uint8_t all_opcodes[] = {
	NIC_OP_WRITE,     NIC_OP_WRITE_IMM,   NIC_OP_SEND,      NIC_OP_SEND_IMM,
	NIC_OP_READ,      NIC_OP_ATOMIC_FA,   NIC_OP_ATOMIC_CS, NIC_OP_EVENT_GET,
	NIC_OP_EVENT_SET, NIC_OP_EVENT_ADD,   NIC_OP_ACK,       NIC_OP_NAK,
	NIC_OP_READ_RESP, NIC_OP_ATOMIC_RESP, NIC_OP_RNR_WAIT,  NIC_OP_EVENT_RESP,
	NIC_OP_HELLO,     NIC_OP_DISCONNECT,
};

static bool on_event(uint8_t op)
{
	return op == NIC_OP_EVENT_GET || op == NIC_OP_EVENT_SET || op == NIC_OP_EVENT_ADD;
}

static bool carries_payload(uint8_t op)
{
	return op == NIC_OP_WRITE || op == NIC_OP_WRITE_IMM || op == NIC_OP_SEND ||
	       op == NIC_OP_SEND_IMM || op == NIC_OP_READ_RESP;
}

static struct nic_msg sample(uint8_t op)
{
	struct nic_msg m = {
		.opcode = op,
		.qp = 7,
		.seq = 0xfffffffeu,
		.len = op == NIC_OP_ATOMIC_FA || op == NIC_OP_ATOMIC_CS || on_event(op) ? 8 : 4096,
		.secret = 0x1122334455667788ull,
		.key = { .index = 3, .tag_hi = 9, .tag_lo = 0x0102030405060708ull },
		.raddr = 0xabcdef00ull,
		.imm = { 0xde, 0xad, 0xbe, 0xef },
		.operand1 = 5,
		.operand2 = 6,
		.syndrome = NIC_SYN_REMOTE_ACCESS,
		.value = 42,
	};
	return m;
}

static size_t payload_of(const struct nic_msg *m)
{
	return carries_payload(m->opcode) ? m->len : 0;
}

static void test_round_trip(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(all_opcodes); i++) {
		struct nic_msg in = sample(all_opcodes[i]), out;
		uint8_t hdr[NIC_WIRE_MAX_HDR];
		size_t len = nic_wire_encode(&in, hdr);

		assert_int_equal(len, nic_wire_header_size(in.opcode));
		assert_doca_ok(nic_wire_decode(hdr, len, payload_of(&in), &out));
		assert_int_equal(out.opcode, in.opcode);
		assert_int_equal(out.qp, in.qp);
		assert_int_equal(out.seq, in.seq);
		assert_int_equal(out.secret, in.secret);
		assert_false(out.has_ack);
		if (nic_op_has_rkey(in.opcode)) {
			assert_memory_equal(&out.key, &in.key, sizeof(in.key));
			assert_int_equal(out.raddr, in.raddr);
		}
		if (in.opcode == NIC_OP_WRITE_IMM || in.opcode == NIC_OP_SEND_IMM)
			assert_memory_equal(out.imm, in.imm, sizeof(in.imm));
		if (in.opcode == NIC_OP_ATOMIC_CS) {
			assert_int_equal(out.operand1, 5);
			assert_int_equal(out.operand2, 6);
		}
		if (in.opcode == NIC_OP_NAK)
			assert_int_equal(out.syndrome, NIC_SYN_REMOTE_ACCESS);
		if (in.opcode == NIC_OP_ATOMIC_RESP || in.opcode == NIC_OP_EVENT_RESP)
			assert_int_equal(out.value, 42);
		if (in.opcode == NIC_OP_EVENT_SET || in.opcode == NIC_OP_EVENT_ADD)
			assert_int_equal(out.operand1, 5);
		if (in.opcode == NIC_OP_EVENT_RESP) /* its status */
			assert_int_equal(out.syndrome, NIC_SYN_REMOTE_ACCESS);
		if (on_event(in.opcode))
			assert_int_equal(out.len, 8);
	}
}

/* A request carries an ACK for the receiver's requests in 8 more bytes. */
static void test_piggybacked_ack(void **state)
{
	(void)state;
	for (uint8_t op = NIC_OP_WRITE; op <= NIC_OP_EVENT_ADD; op++) {
		struct nic_msg in = sample(op), out;
		uint8_t hdr[NIC_WIRE_MAX_HDR];
		size_t len;

		in.has_ack = true;
		in.ack_seq = 0x80000001u;
		len = nic_wire_encode(&in, hdr);
		assert_int_equal(len, nic_wire_header_size(op) + 8);
		assert_int_equal(sdoca_get_le16(hdr + 2), NIC_FLAG_ACK);
		assert_doca_ok(nic_wire_decode(hdr, len, payload_of(&in), &out));
		assert_true(out.has_ack);
		assert_int_equal(out.ack_seq, 0x80000001u);
		assert_int_equal(out.seq, in.seq);
		/* The flag says the header is longer: one without the tail is short. */
		assert_doca_err(nic_wire_decode(hdr, len - 8, payload_of(&in), &out),
		                DOCA_ERROR_INVALID_VALUE);
	}
}

/* Answers never carry the flag; encode drops it, decode refuses it. */
static void test_ack_flag_only_on_requests(void **state)
{
	struct nic_msg in = sample(NIC_OP_ACK), out;
	uint8_t hdr[NIC_WIRE_MAX_HDR];
	size_t len;

	(void)state;
	in.has_ack = true;
	len = nic_wire_encode(&in, hdr);
	assert_int_equal(len, nic_wire_header_size(NIC_OP_ACK));
	assert_int_equal(sdoca_get_le16(hdr + 2), 0);

	uint8_t forged[NIC_WIRE_MAX_HDR] = { 0 };

	memcpy(forged, hdr, len);
	sdoca_put_le16(forged + 2, NIC_FLAG_ACK);
	assert_doca_err(nic_wire_decode(forged, len + 8, 0, &out), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(nic_wire_decode(forged, len, 0, &out), DOCA_ERROR_INVALID_VALUE);
}

static void test_malformed(void **state)
{
	struct nic_msg in = sample(NIC_OP_WRITE), out;
	uint8_t hdr[NIC_WIRE_MAX_HDR];
	size_t len = nic_wire_encode(&in, hdr);

	(void)state;
	assert_doca_err(nic_wire_decode(NULL, 0, 0, &out), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(nic_wire_decode(hdr, 23, 0, &out), DOCA_ERROR_INVALID_VALUE);
	/* payload length must match the header */
	assert_doca_err(nic_wire_decode(hdr, len, 4095, &out), DOCA_ERROR_INVALID_VALUE);
	/* unknown flags */
	sdoca_put_le16(hdr + 2, 2);
	assert_doca_err(nic_wire_decode(hdr, len, 4096, &out), DOCA_ERROR_INVALID_VALUE);
	sdoca_put_le16(hdr + 2, 0);
	/* another version, an unknown opcode */
	hdr[0] = NIC_WIRE_VERSION + 1;
	assert_doca_err(nic_wire_decode(hdr, len, 4096, &out), DOCA_ERROR_INVALID_VALUE);
	hdr[0] = NIC_WIRE_VERSION;
	hdr[1] = 99;
	assert_doca_err(nic_wire_decode(hdr, len, 4096, &out), DOCA_ERROR_INVALID_VALUE);
	/* atomics are 8 bytes, messages at most 2 GiB */
	in = sample(NIC_OP_ATOMIC_FA);
	in.len = 4;
	len = nic_wire_encode(&in, hdr);
	assert_doca_err(nic_wire_decode(hdr, len, 0, &out), DOCA_ERROR_INVALID_VALUE);
	in = sample(NIC_OP_READ);
	in.len = NIC_MAX_MESSAGE + 1;
	len = nic_wire_encode(&in, hdr);
	assert_doca_err(nic_wire_decode(hdr, len, 0, &out), DOCA_ERROR_INVALID_VALUE);
	/* a NAK with a syndrome nobody defined, a sync-event answer's status too */
	in = sample(NIC_OP_NAK);
	in.syndrome = 77;
	len = nic_wire_encode(&in, hdr);
	assert_doca_err(nic_wire_decode(hdr, len, 0, &out), DOCA_ERROR_INVALID_VALUE);
	in = sample(NIC_OP_EVENT_RESP);
	in.syndrome = NIC_SYN_REMOTE_OPERATIONAL + 1;
	len = nic_wire_encode(&in, hdr);
	assert_doca_err(nic_wire_decode(hdr, len, 0, &out), DOCA_ERROR_INVALID_VALUE);
	in.syndrome = 0; /* done */
	len = nic_wire_encode(&in, hdr);
	assert_doca_ok(nic_wire_decode(hdr, len, 0, &out));
	assert_int_equal(out.syndrome, 0);
	in = sample(NIC_OP_EVENT_SET);
	in.len = 1;
	len = nic_wire_encode(&in, hdr);
	assert_doca_ok(nic_wire_decode(hdr, len, 0, &out));
	/* a sync event's value is 8 bytes; a set may change its first 1 to 8 */
	for (uint8_t op = NIC_OP_EVENT_GET; op <= NIC_OP_EVENT_ADD; op++) {
		in = sample(op);
		in.len = op == NIC_OP_EVENT_SET ? 0 : 7;
		len = nic_wire_encode(&in, hdr);
		assert_doca_err(nic_wire_decode(hdr, len, 0, &out), DOCA_ERROR_INVALID_VALUE);
		in.len = 9;
		len = nic_wire_encode(&in, hdr);
		assert_doca_err(nic_wire_decode(hdr, len, 0, &out), DOCA_ERROR_INVALID_VALUE);
	}
}

/* The rows a request needs that C cannot check at compile time: each
 * request counts in a public slot of its own (softdoca.h), and has an
 * ordering rule, an execute step and an answer; nothing else has them. */
static void test_request_rows(void **state)
{
	bool slot_taken[SOFTDOCA_NUM_OP_TYPES] = { false };

	(void)state;
	for (unsigned int op = 0; op < NIC_WIRE_OPCODES; op++) {
		const struct nic_opcode_info *row = &nic_opcodes[op];

		if (!nic_op_is_request((uint8_t)op)) {
			assert_int_equal(row->order, NIC_ORDER_NONE);
			assert_int_equal(row->exec, NIC_EXEC_NONE);
			assert_int_equal(row->access, 0);
			continue;
		}
		assert_non_null(row->name);
		assert_true(op < NIC_OP_REQUESTS_END);
		assert_int_not_equal(row->order, NIC_ORDER_NONE);
		assert_int_not_equal(row->exec, NIC_EXEC_NONE);
		assert_int_not_equal(row->answer, 0);
		assert_true(row->counter < SOFTDOCA_NUM_OP_TYPES);
		assert_false(slot_taken[row->counter]);
		slot_taken[row->counter] = true;
		/* RDMA on an mmap and sync events name the access they need */
		if (row->flags & (NIC_OPF_RKEY | NIC_OPF_EVENT))
			assert_int_not_equal(row->access, 0);
	}
	for (int slot = 0; slot < SOFTDOCA_NUM_OP_TYPES; slot++)
		assert_true(slot_taken[slot]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_piggybacked_ack),
		cmocka_unit_test(test_ack_flag_only_on_requests),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_request_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
