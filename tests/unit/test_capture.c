/*
 * Unit tests: the traffic capture (src/diag) - RoCEv2 headers byte by byte
 * for known inputs, the invariant CRC, payloads cut at the snap length
 * (never read past), every soft-NIC opcode's RoCE equivalent, pcapng
 * blocks, and softdoca_capture_start/stop's answers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <softdoca.h>

#include "core/bytes.h"
#include "diag/capture_map.h"
#include "diag/pcapng.h"
#include "diag/roce.h"
#include "unit/testing.h"

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void test_crc32(void **state)
{
	(void)state;
	/* the CRC-32 check value */
	assert_int_equal(roce_crc32(0, (const uint8_t *)"123456789", 9), 0xcbf43926u);
}

static struct roce_pkt write_imm_pkt(uint64_t payload_len)
{
	struct roce_pkt p = {
		.src_mac = { 2, 0x53, 0x44, 0, 0, 1 },
		.dst_mac = { 2, 0x53, 0x44, 0, 0, 2 },
		.src_ip = 0x7f000001,
		.dst_ip = 0x7f000002,
		.src_port = 0xc003,
		.opcode = ROCE_RC_WRITE_ONLY_IMM,
		.ack_req = true,
		.dest_qp = 7,
		.psn = 42,
		.ext = ROCE_EXT_RETH | ROCE_EXT_IMM,
		.va = 0x1122334455667788ull,
		.rkey = 0xa1b2c3d4,
		.dma_len = (uint32_t)payload_len,
		.imm = { 0xde, 0xad, 0xbe, 0xef },
		.payload_len = payload_len,
	};
	return p;
}

/* The ICRC as the spec computes it, from the frame as written. */
static uint32_t icrc_of(const uint8_t *frame, size_t len)
{
	uint8_t buf[256] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	size_t n = len - 14 - 4;

	assert_true(8 + n <= sizeof(buf));
	memcpy(buf + 8, frame + 14, n);
	buf[8 + 1] = 0xff;                /* TOS */
	buf[8 + 8] = 0xff;                /* TTL */
	buf[8 + 10] = buf[8 + 11] = 0xff; /* IP checksum */
	buf[8 + 26] = buf[8 + 27] = 0xff; /* UDP checksum */
	buf[8 + 28 + 4] = 0xff;           /* BTH reserved */
	return roce_crc32(0, buf, 8 + n);
}

static void test_write_imm_frame(void **state)
{
	uint8_t payload[16], out[256];
	struct roce_pkt p = write_imm_pkt(sizeof(payload));
	uint64_t wire;
	size_t n;
	uint32_t sum = 0;
	const uint8_t *ip = out + 14, *udp = ip + 20, *bth = udp + 8;
	static const uint8_t bth_want[12] = { 0x0b, 0, 0xff, 0xff, 0, 0, 0, 7, 0x80, 0, 0, 42 };
	static const uint8_t reth_want[16] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		                               0xa1, 0xb2, 0xc3, 0xd4, 0,    0,    0,    16 };

	(void)state;
	for (size_t i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)(0xa0 + i);
	n = roce_frame(&p, payload, sizeof(payload), out, sizeof(out), &wire);
	assert_int_equal(n, 14 + 20 + 8 + 12 + 16 + 4 + 16 + 4);
	assert_int_equal(wire, n);
	/* Ethernet */
	assert_memory_equal(out, p.dst_mac, 6);
	assert_memory_equal(out + 6, p.src_mac, 6);
	assert_int_equal(be16(out + 12), 0x0800);
	/* IPv4: length, UDP, addresses, a checksum that sums to all ones */
	assert_int_equal(ip[0], 0x45);
	assert_int_equal(be16(ip + 2), n - 14);
	assert_int_equal(ip[9], 17);
	assert_int_equal(be32(ip + 12), 0x7f000001);
	assert_int_equal(be32(ip + 16), 0x7f000002);
	for (int i = 0; i < 20; i += 2)
		sum += be16(ip + i);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	assert_int_equal(sum, 0xffff);
	/* UDP */
	assert_int_equal(be16(udp), 0xc003);
	assert_int_equal(be16(udp + 2), 4791);
	assert_int_equal(be16(udp + 4), n - 14 - 20);
	assert_int_equal(be16(udp + 6), 0);
	/* BTH, RETH, ImmDt, payload, ICRC (least significant byte first) */
	assert_memory_equal(bth, bth_want, 12);
	assert_memory_equal(bth + 12, reth_want, 16);
	assert_memory_equal(bth + 28, p.imm, 4);
	assert_memory_equal(bth + 32, payload, sizeof(payload));
	assert_int_equal(sdoca_get_le32(out + n - 4), icrc_of(out, n));
}

static void test_atomic_and_ack_headers(void **state)
{
	struct roce_pkt p = { .opcode = ROCE_RC_COMPARE_SWAP,
		              .ext = ROCE_EXT_ATOMIC,
		              .va = 0x1000,
		              .rkey = 5,
		              .swap_add = 0x0102030405060708ull,
		              .compare = 0x1112131415161718ull };
	static const uint8_t atomic_want[28] = { 0,    0,    0,    0,    0,    0,    0x10,
		                                 0,    0,    0,    0,    5,    1,    2,
		                                 3,    4,    5,    6,    7,    8,    0x11,
		                                 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18 };
	uint8_t out[256];
	uint64_t wire;
	size_t n;

	(void)state;
	n = roce_frame(&p, NULL, 0, out, sizeof(out), &wire);
	assert_int_equal(n, 14 + 20 + 8 + 12 + 28 + 4);
	assert_memory_equal(out + 42 + 12, atomic_want, 28);

	p = (struct roce_pkt){ .opcode = ROCE_RC_ATOMIC_ACKNOWLEDGE,
		               .ext = ROCE_EXT_AETH | ROCE_EXT_ATOMIC_ACK,
		               .psn = 0x123456,
		               .syndrome = ROCE_AETH_ACK,
		               .msn = 0x123457,
		               .orig = 1000 };
	n = roce_frame(&p, NULL, 0, out, sizeof(out), &wire);
	assert_int_equal(n, 14 + 20 + 8 + 12 + 4 + 8 + 4);
	assert_int_equal(out[42 + 8] & 0x80, 0); /* no ack request on an answer */
	assert_int_equal(be32(out + 42 + 8) & 0xffffff, 0x123456);
	assert_int_equal(out[42 + 12], 0x1f);
	assert_int_equal(be32(out + 42 + 12) & 0xffffff, 0x123457);
	assert_int_equal(be32(out + 42 + 16), 0);
	assert_int_equal(be32(out + 42 + 20), 1000);
}

/* A payload cut at the snap length: the datagram carries what was kept,
 * the frame's wire length and the RETH the whole; nothing is read past the
 * bytes given (ASan sees a read past this exact-size allocation). */
static void test_cut_payload(void **state)
{
	uint8_t *kept = malloc(128), out[512];
	struct roce_pkt p = write_imm_pkt(100000);
	uint64_t wire;
	size_t n;

	(void)state;
	memset(kept, 0x5a, 128);
	n = roce_frame(&p, kept, 128, out, sizeof(out), &wire);
	assert_int_equal(n, 14 + 20 + 8 + 32 + 128 + 4);
	assert_int_equal(wire, 14 + 20 + 8 + 32 + 100000 + 4);
	assert_int_equal(be16(out + 14 + 2), n - 14);
	assert_int_equal(be32(out + 42 + 12 + 12), 100000); /* RETH DMA length */
	assert_int_equal(sdoca_get_le32(out + n - 4), icrc_of(out, n));
	/* too small a buffer: nothing written */
	assert_int_equal(roce_frame(&p, kept, 128, out, 100, &wire), 0);
	free(kept);
}

static void test_map(void **state)
{
	static const struct {
		uint8_t op;
		uint8_t roce;
		uint8_t ext;
	} rows[] = {
		{ NIC_OP_WRITE, 0x0a, ROCE_EXT_RETH },
		{ NIC_OP_WRITE_IMM, 0x0b, ROCE_EXT_RETH | ROCE_EXT_IMM },
		{ NIC_OP_SEND, 0x04, 0 },
		{ NIC_OP_SEND_IMM, 0x05, ROCE_EXT_IMM },
		{ NIC_OP_READ, 0x0c, ROCE_EXT_RETH },
		{ NIC_OP_ATOMIC_FA, 0x14, ROCE_EXT_ATOMIC },
		{ NIC_OP_ATOMIC_CS, 0x13, ROCE_EXT_ATOMIC },
		{ NIC_OP_ACK, 0x11, ROCE_EXT_AETH },
		{ NIC_OP_NAK, 0x11, ROCE_EXT_AETH },
		{ NIC_OP_RNR_WAIT, 0x11, ROCE_EXT_AETH },
		{ NIC_OP_READ_RESP, 0x10, ROCE_EXT_AETH },
		{ NIC_OP_ATOMIC_RESP, 0x12, ROCE_EXT_AETH | ROCE_EXT_ATOMIC_ACK },
	};
	static const uint8_t none[] = { NIC_OP_EVENT_GET,  NIC_OP_EVENT_SET, NIC_OP_EVENT_ADD,
		                        NIC_OP_EVENT_RESP, NIC_OP_HELLO,     NIC_OP_DISCONNECT };
	struct capture_end from = { 3, 0x123456 }, to = { 9, 77 };
	struct roce_pkt p;
	char text[256];

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct nic_msg m = { .opcode = rows[i].op,
			             .seq = 0x1000005,
			             .len = 8,
			             .syndrome = NIC_SYN_REMOTE_ACCESS,
			             .imm = { 1, 2, 3, 4 },
			             .key = { .index = 9 },
			             .raddr = 0x4000,
			             .operand1 = 11,
			             .operand2 = 22,
			             .value = 33 };

		assert_true(capture_map(&m, &from, &to, &p));
		assert_int_equal(p.opcode, rows[i].roce);
		assert_int_equal(p.ext, rows[i].ext);
		assert_int_equal(p.psn, 5); /* 24 bits */
		assert_int_equal(p.dest_qp, 9);
		assert_int_equal(p.ack_req, nic_op_is_request(m.opcode));
		assert_int_equal(p.src_ip, 0x7f123456);
		assert_int_equal(p.dst_ip, capture_ip(77));
		if (p.ext & ROCE_EXT_IMM)
			assert_memory_equal(p.imm, m.imm, 4);
		if (p.ext & ROCE_EXT_RETH)
			assert_true(p.va == 0x4000 && p.rkey == 9 && p.dma_len == 8);
	}
	for (size_t i = 0; i < sizeof(none); i++) {
		struct nic_msg m = { .opcode = none[i] };

		assert_false(capture_map(&m, &from, &to, &p));
		assert_non_null(strstr(capture_text(&m, 4, &from, &to, NULL, text, sizeof(text)),
		                       nic_opcode_name(none[i])));
	}
	/* answers: ACK and responses carry MSN = PSN + 1, NAKs their syndrome */
	struct nic_msg m = { .opcode = NIC_OP_ACK, .seq = 6 };
	assert_true(capture_map(&m, &to, &from, &p));
	assert_true(p.syndrome == 0x1f && p.msn == 7);
	m = (struct nic_msg){ .opcode = NIC_OP_NAK, .seq = 6, .syndrome = NIC_SYN_REMOTE_ACCESS };
	assert_true(capture_map(&m, &to, &from, &p) && p.syndrome == 0x62 && p.msn == 6);
	m.syndrome = NIC_SYN_REMOTE_INVALID;
	assert_true(capture_map(&m, &to, &from, &p) && p.syndrome == 0x61);
	m.syndrome = NIC_SYN_REMOTE_OPERATIONAL;
	assert_true(capture_map(&m, &to, &from, &p) && p.syndrome == 0x63);
	m.syndrome = NIC_SYN_RNR_RETRY_EXCEEDED;
	assert_true(capture_map(&m, &to, &from, &p) && (p.syndrome & 0xe0) == 0x20);
	m = (struct nic_msg){ .opcode = NIC_OP_ATOMIC_CS, .operand1 = 11, .operand2 = 22 };
	assert_true(capture_map(&m, &from, &to, &p) && p.compare == 11 && p.swap_add == 22);
	/* the comment names the connection */
	m = (struct nic_msg){ .opcode = NIC_OP_WRITE, .seq = 2, .len = 100 };
	assert_string_equal(capture_text(&m, 4, &from, &to, NULL, text, sizeof(text)),
	                    "softdoca connection 4: QP 3 (pid 1193046) -> QP 9 (pid 77): WRITE seq "
	                    "2 len 100");
	m = (struct nic_msg){
		.opcode = NIC_OP_EVENT_RESP, .seq = 4294967295u, .value = UINT64_MAX, .syndrome = 0
	};
	assert_string_equal(
	        capture_text(&m, 0, &from, &to, "a note", text, sizeof(text)),
	        "softdoca connection 0: QP 3 (pid 1193046) -> QP 9 (pid 77): EVENT_RESP "
	        "seq 4294967295 value 18446744073709551615 status 0 (a note)");
	m = (struct nic_msg){ .opcode = NIC_OP_SEND, .has_ack = true, .ack_seq = 12 };
	assert_non_null(strstr(capture_text(&m, 0, &from, &to, NULL, text, sizeof(text)),
	                       "SEND seq 0 len 0, acknowledges up to seq 12"));
	/* cut to the buffer, always terminated */
	assert_string_equal(capture_text(&m, 0, &from, &to, NULL, text, 10), "softdoca ");
	assert_string_equal(capture_text(&m, 0, &from, &to, NULL, text, 1), "");
}

static void test_pcapng_blocks(void **state)
{
	uint8_t buf[512], frame[61] = { 1, 2, 3 };
	size_t n;

	(void)state;
	n = pcapng_section(buf, sizeof(buf), "softdoca");
	assert_int_equal(sdoca_get_le32(buf), 0x0a0d0d0a);
	assert_int_equal(sdoca_get_le32(buf + 8), 0x1a2b3c4d);
	assert_int_equal(sdoca_get_le32(buf + 4), n);
	assert_int_equal(sdoca_get_le32(buf + n - 4), n);
	n = pcapng_interface(buf, sizeof(buf), "softdoca", NULL);
	assert_int_equal(sdoca_get_le32(buf), 1);
	assert_int_equal(sdoca_get_le16(buf + 8), 1); /* Ethernet */
	assert_int_equal(sdoca_get_le32(buf + n - 4), n);
	n = pcapng_packet(buf, sizeof(buf), 0x0000000100000002ull, frame, sizeof(frame), 4096,
	                  PCAPNG_OUTBOUND, "a comment");
	assert_int_equal(n % 4, 0);
	assert_int_equal(sdoca_get_le32(buf), 6);
	assert_int_equal(sdoca_get_le32(buf + 12), 1); /* timestamp, high word */
	assert_int_equal(sdoca_get_le32(buf + 16), 2);
	assert_int_equal(sdoca_get_le32(buf + 20), sizeof(frame));
	assert_int_equal(sdoca_get_le32(buf + 24), 4096);
	assert_memory_equal(buf + 28, frame, sizeof(frame));
	assert_int_equal(sdoca_get_le16(buf + 28 + 64), 2); /* epb_flags: outbound */
	assert_int_equal(sdoca_get_le32(buf + 28 + 64 + 4), PCAPNG_OUTBOUND);
	assert_int_equal(sdoca_get_le16(buf + 28 + 72), 1); /* comment */
	assert_memory_equal(buf + 28 + 76, "a comment", 9);
	assert_int_equal(sdoca_get_le32(buf + n - 4), n);
	n = pcapng_custom(buf, sizeof(buf), 5, "HELLO");
	assert_int_equal(sdoca_get_le32(buf), 0xbad);
	assert_int_equal(sdoca_get_le32(buf + 8), PCAPNG_CUSTOM_PEN);
	assert_memory_equal(buf + 20, "HELLO", 5);
	assert_int_equal(sdoca_get_le32(buf + n - 4), n);
	/* no room: nothing */
	assert_int_equal(pcapng_packet(buf, 40, 0, frame, sizeof(frame), 61, PCAPNG_INBOUND, NULL),
	                 0);
}

static void test_start_stop(void **state)
{
	char path[64], expanded[80];
	FILE *f;
	long size;

	(void)state;
	assert_doca_err(softdoca_capture_start(NULL, 128), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(softdoca_capture_start("", 128), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(softdoca_capture_start("/tmp/x.pcapng", 70000), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(softdoca_capture_start("/nonexistent-dir/x.pcapng", 128),
	                DOCA_ERROR_IO_FAILED);
	snprintf(path, sizeof(path), "/tmp/sdoca-unit-capture-%%p.pcapng");
	snprintf(expanded, sizeof(expanded), "/tmp/sdoca-unit-capture-%d.pcapng", (int)getpid());
	assert_doca_ok(softdoca_capture_start(path, 0));
	assert_doca_ok(softdoca_capture_start(path, 64)); /* replaces the first */
	assert_doca_ok(softdoca_capture_stop());
	assert_doca_ok(softdoca_capture_stop());
	f = fopen(expanded, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fclose(f);
	unlink(expanded);
	assert_true(size > 28 && size % 4 == 0); /* section and interface, nothing more */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc32),
		cmocka_unit_test(test_write_imm_frame),
		cmocka_unit_test(test_atomic_and_ack_headers),
		cmocka_unit_test(test_cut_payload),
		cmocka_unit_test(test_map),
		cmocka_unit_test(test_pcapng_blocks),
		cmocka_unit_test(test_start_stop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
