/*
 * softdoca tests: the soft NIC's responder (responder.c, resp_queue.c), one
 * case per check in its order - check_opcode, check_resources (RNR),
 * check_length, check_rkey, execute - and the sequence rule, driven by
 * requests crafted by hand and handed to side B as if its peer A had sent
 * them (nic_harness.c). A is paused: B's answers wait there unread, and the
 * test reads them from what B's worker sent. Every refusal is asserted by
 * its NAK and syndrome, the counters and the target bytes, which it must
 * leave untouched.
 */
#include <string.h>

#include <doca_mmap.h>

#include "unit/nic_harness.h"
#include "unit/rdma_side.h"

#define ALL_ACCESS                                                        \
	(DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | \
	 DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC)
#define LEN 16

static uint32_t next_seq; /* the sequence of the next request made here */
static struct nic_wqe recv_wqe;
static uint8_t recv_buf[64];

static int setup_with(uint32_t access_b)
{
	struct nh_config config = { .access_a = ALL_ACCESS, .access_b = access_b };

	nh_setup(&config);
	fake_xport_pause(nh.a.worker, true);
	next_seq = nh_expected_seq(&nh.b);
	memset(recv_buf, 0x77, sizeof(recv_buf));
	return 0;
}

static int setup(void **state)
{
	(void)state;
	return setup_with(ALL_ACCESS);
}

/* B's context allows remote writes and atomics, not reads. */
static int setup_no_read(void **state)
{
	(void)state;
	return setup_with(ALL_ACCESS & ~DOCA_ACCESS_FLAG_RDMA_READ);
}

static int teardown(void **state)
{
	(void)state;
	nh_teardown();
	return 0;
}

/* A request of opcode on byte `at` of B's memory, under key, with the next
 * sequence number; returns that number. */
static uint32_t request_with_key(uint8_t opcode, struct sdoca_key key, size_t at,
                                 const void *payload, uint32_t len, struct nic_msg *extra)
{
	struct nic_msg m = extra ? *extra : (struct nic_msg){ 0 };

	m.opcode = opcode;
	m.seq = next_seq++;
	m.len = len;
	m.key = key;
	m.raddr = (uint64_t)(uintptr_t)(nh.b.mem + at);
	nh_inject(&nh.b, &m, payload, nic_op_has_payload(opcode) ? len : 0);
	return m.seq;
}

static uint32_t request(uint8_t opcode, size_t at, const void *payload, uint32_t len)
{
	return request_with_key(opcode, nh_mmap_key(nh.b.mmap), at, payload, len, NULL);
}

/* Whether B sent an answer of opcode to request seq (then *out, *raw). */
static bool answered(uint8_t opcode, uint32_t seq, struct nic_msg *out, struct fake_sent *raw)
{
	unsigned int count = nh_sent_count(&nh.b);

	for (unsigned int n = 0; n < count; n++) {
		nh_sent(&nh.b, n, out, raw);
		if (out->opcode == opcode && out->seq == seq)
			return true;
	}
	return false;
}

static struct nic_msg await_answer(uint8_t opcode, uint32_t seq, struct fake_sent *raw)
{
	struct nic_msg m;
	struct fake_sent copy;

	NH_UNTIL(answered(opcode, seq, &m, raw ? raw : &copy));
	return m;
}

/* B refused request seq with this syndrome: a NAK, counted, and its
 * connection failed; no other answer to it. */
static void expect_nak(uint32_t seq, uint32_t syndrome)
{
	struct nic_msg m = await_answer(NIC_OP_NAK, seq, NULL), other;
	struct softdoca_rdma_counters c;

	assert_int_equal(m.syndrome, syndrome);
	NH_UNTIL(nh_failed(&nh.b));
	c = nh_counters(&nh.b);
	assert_int_equal(c.naks_sent, 1);
	assert_int_equal(c.naks_sent_by_syndrome[syndrome], 1);
	assert_int_equal(c.requests_served, 0);
	assert_false(answered(NIC_OP_ACK, seq, &other, NULL));
	assert_false(answered(NIC_OP_READ_RESP, seq, &other, NULL));
	assert_false(answered(NIC_OP_ATOMIC_RESP, seq, &other, NULL));
}

static void fill(uint8_t *p, size_t len, uint8_t seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(seed + i * 13);
}

/* --- check_opcode --- */

/* A read on a connection that allows no remote read: refused before its key
 * is looked at, nothing leaves B's memory. */
static void check_opcode_read_not_allowed(void **state)
{
	uint32_t seq;

	(void)state;
	seq = request(NIC_OP_READ, 0, NULL, LEN);
	expect_nak(seq, NIC_SYN_REMOTE_ACCESS);
}

/* --- check_rkey --- */

/* A write running past the end of the key's range: refused, and neither the
 * bytes inside the range nor those after it change. */
static void check_rkey_write_outside_range(void **state)
{
	uint8_t payload[LEN], before[LEN];
	uint32_t seq;

	(void)state;
	memset(payload, 0xee, sizeof(payload));
	fill(nh.b.mem + NH_MEM - LEN / 2, LEN, 3);
	memcpy(before, nh.b.mem + NH_MEM - LEN / 2, LEN);
	seq = request(NIC_OP_WRITE, NH_MEM - LEN / 2, payload, LEN);
	expect_nak(seq, NIC_SYN_REMOTE_ACCESS);
	assert_memory_equal(nh.b.mem + NH_MEM - LEN / 2, before, LEN);
}

/* A write under a key that grants remote reads only: refused, bytes kept. */
static void check_rkey_write_without_permission(void **state)
{
	struct doca_mmap *read_only;
	uint8_t payload[LEN], before[LEN];
	uint32_t seq;

	(void)state;
	read_only =
	        rdma_started_mmap(nh.dev, nh.b.mem + 1024, 1024,
	                          DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ);
	memset(payload, 0xee, sizeof(payload));
	fill(nh.b.mem + 1024, LEN, 5);
	memcpy(before, nh.b.mem + 1024, LEN);
	seq = request_with_key(NIC_OP_WRITE, nh_mmap_key(read_only), 1024, payload, LEN, NULL);
	expect_nak(seq, NIC_SYN_REMOTE_ACCESS);
	assert_memory_equal(nh.b.mem + 1024, before, LEN);
	assert_doca_ok(doca_mmap_destroy(read_only));
}

/* An atomic on an address that is not 8-byte aligned: refused as invalid,
 * the bytes around it unchanged. */
static void check_rkey_atomic_misaligned(void **state)
{
	struct nic_msg ops = { .operand1 = 1 };
	uint8_t before[LEN];
	uint32_t seq;

	(void)state;
	fill(nh.b.mem, LEN, 7);
	memcpy(before, nh.b.mem, LEN);
	seq = request_with_key(NIC_OP_ATOMIC_FA, nh_mmap_key(nh.b.mmap), 4, NULL, 8, &ops);
	expect_nak(seq, NIC_SYN_REMOTE_INVALID);
	assert_memory_equal(nh.b.mem, before, LEN);
}

/* --- check_length --- */

/* A send longer than the receive posted: refused as invalid, and the
 * receive it would have consumed completes with TOO_BIG, its buffer
 * untouched. */
static void check_length_send_longer_than_receive(void **state)
{
	uint8_t payload[2 * 8];
	uint32_t seq;

	(void)state;
	nh_wqe_init(&recv_wqe, NIC_WR_RECV, recv_buf, 8);
	assert_doca_ok(nh_post_recv(&nh.b, &recv_wqe));
	memset(payload, 0xee, sizeof(payload));
	seq = request(NIC_OP_SEND, 0, payload, sizeof(payload));
	expect_nak(seq, NIC_SYN_REMOTE_INVALID);
	assert_int_equal(nh_status_of(&recv_wqe), DOCA_ERROR_TOO_BIG);
	for (size_t i = 0; i < sizeof(recv_buf); i++)
		assert_int_equal(recv_buf[i], 0x77);
}

/* --- check_resources --- */

/* A send with no receive posted waits (RNR: counted, and the requester told
 * it is not lost), then executes once a receive is posted. */
static void check_resources_rnr_then_execute(void **state)
{
	uint8_t payload[LEN];
	struct softdoca_rdma_counters c;
	uint32_t seq;

	(void)state;
	fill(payload, sizeof(payload), 9);
	seq = request(NIC_OP_SEND, 0, payload, LEN);
	await_answer(NIC_OP_RNR_WAIT, seq, NULL);
	c = nh_counters(&nh.b);
	assert_int_equal(c.rnr_waits, 1);
	assert_int_equal(c.served[SOFTDOCA_OP_SEND], 0);
	assert_false(nh_completed(&recv_wqe));

	nh_wqe_init(&recv_wqe, NIC_WR_RECV, recv_buf, sizeof(recv_buf));
	assert_doca_ok(nh_post_recv(&nh.b, &recv_wqe));
	NH_UNTIL(nh_completed(&recv_wqe));
	assert_doca_ok(nh_status_of(&recv_wqe));
	assert_int_equal(recv_wqe.result_len, LEN);
	assert_int_equal(recv_wqe.result_kind, NIC_RECV_SEND);
	assert_memory_equal(recv_buf, payload, LEN);
	assert_int_equal(recv_buf[LEN], 0x77);
	await_answer(NIC_OP_ACK, seq, NULL);
	c = nh_counters(&nh.b);
	assert_int_equal(c.rnr_waits, 1);
	assert_int_equal(c.served[SOFTDOCA_OP_SEND], 1);
	assert_int_equal(c.served_bytes[SOFTDOCA_OP_SEND], LEN);
	assert_true(nh_rts(&nh.b));
}

/* --- the sequence --- */

/* A request ahead of its turn waits for the one before it: two writes of
 * the same bytes, the later first, leave the later's bytes. */
static void sequence_early_request_waits(void **state)
{
	uint8_t first[LEN], second[LEN];
	uint32_t seq0 = next_seq;

	(void)state;
	memset(first, 0x11, sizeof(first));
	memset(second, 0x22, sizeof(second));
	next_seq = seq0 + 1;
	request(NIC_OP_WRITE, 0, second, LEN);
	NH_UNTIL(nh_expected_seq(&nh.b) == seq0 && nh_counters(&nh.b).requests_served == 0);
	next_seq = seq0;
	request(NIC_OP_WRITE, 0, first, LEN);
	NH_UNTIL(nh_counters(&nh.b).requests_served == 2);
	assert_memory_equal(nh.b.mem, second, LEN);
	assert_int_equal(nh_expected_seq(&nh.b), seq0 + 2);
	await_answer(NIC_OP_ACK, seq0 + 1, NULL); /* cumulative: both */
	assert_true(nh_rts(&nh.b));
}

/* A request with a sequence number already used (a duplicate) breaks the
 * connection; it is not executed again and not NAKed. */
static void sequence_duplicate_fails(void **state)
{
	uint8_t first[LEN], again[LEN];
	uint32_t seq;

	(void)state;
	memset(first, 0x33, sizeof(first));
	memset(again, 0x44, sizeof(again));
	seq = request(NIC_OP_WRITE, 64, first, LEN);
	NH_UNTIL(nh_counters(&nh.b).requests_served == 1);
	next_seq = seq;
	request(NIC_OP_WRITE, 64, again, LEN);
	NH_UNTIL(nh_failed(&nh.b));
	assert_memory_equal(nh.b.mem + 64, first, LEN);
	assert_int_equal(nh_counters(&nh.b).requests_served, 1);
	assert_int_equal(nh_counters(&nh.b).naks_sent, 0);
}

/* --- execute: each opcode's bytes --- */

static void expect_served(enum softdoca_op_type type, uint64_t bytes)
{
	struct softdoca_rdma_counters c = nh_counters(&nh.b);

	assert_int_equal(c.requests_served, 1);
	assert_int_equal(c.served[type], 1);
	assert_int_equal(c.served_bytes[type], bytes);
	assert_int_equal(c.naks_sent, 0);
	assert_true(nh_rts(&nh.b));
}

static void execute_write(void **state)
{
	uint8_t payload[LEN];
	uint32_t seq;

	(void)state;
	fill(payload, sizeof(payload), 21);
	seq = request(NIC_OP_WRITE, 128, payload, LEN);
	await_answer(NIC_OP_ACK, seq, NULL);
	assert_memory_equal(nh.b.mem + 128, payload, LEN);
	assert_int_equal(nh.b.mem[128 + LEN], 0);
	assert_int_equal(nh.b.mem[127], 0);
	expect_served(SOFTDOCA_OP_WRITE, LEN);
}

static void execute_write_imm(void **state)
{
	struct nic_msg imm = { .imm = { 1, 2, 3, 4 } };
	uint8_t payload[LEN];
	uint32_t seq;

	(void)state;
	nh_wqe_init(&recv_wqe, NIC_WR_RECV, recv_buf, sizeof(recv_buf));
	assert_doca_ok(nh_post_recv(&nh.b, &recv_wqe));
	fill(payload, sizeof(payload), 23);
	seq = request_with_key(NIC_OP_WRITE_IMM, nh_mmap_key(nh.b.mmap), 256, payload, LEN, &imm);
	await_answer(NIC_OP_ACK, seq, NULL);
	assert_memory_equal(nh.b.mem + 256, payload, LEN);
	NH_UNTIL(nh_completed(&recv_wqe));
	assert_doca_ok(nh_status_of(&recv_wqe));
	assert_int_equal(recv_wqe.result_kind, NIC_RECV_WRITE_IMM);
	assert_memory_equal(recv_wqe.result_imm, imm.imm, 4);
	assert_int_equal(recv_buf[0], 0x77); /* the payload went to the target */
	expect_served(SOFTDOCA_OP_WRITE_IMM, LEN);
}

/* A send (with immediate or not) lands in the receive it consumes. */
static void run_send(uint8_t opcode, const uint8_t imm[4], enum nic_recv_kind kind,
                     enum softdoca_op_type type)
{
	struct nic_msg extra = { 0 };
	uint8_t payload[LEN];
	uint32_t seq;

	memcpy(extra.imm, imm, sizeof(extra.imm));
	nh_wqe_init(&recv_wqe, NIC_WR_RECV, recv_buf, sizeof(recv_buf));
	assert_doca_ok(nh_post_recv(&nh.b, &recv_wqe));
	fill(payload, sizeof(payload), 25);
	seq = request_with_key(opcode, nh_mmap_key(nh.b.mmap), 0, payload, LEN, &extra);
	await_answer(NIC_OP_ACK, seq, NULL);
	NH_UNTIL(nh_completed(&recv_wqe));
	assert_doca_ok(nh_status_of(&recv_wqe));
	assert_int_equal(recv_wqe.result_len, LEN);
	assert_int_equal(recv_wqe.result_kind, kind);
	if (opcode == NIC_OP_SEND_IMM)
		assert_memory_equal(recv_wqe.result_imm, imm, 4);
	assert_memory_equal(recv_buf, payload, LEN);
	assert_int_equal(recv_buf[LEN], 0x77);
	expect_served(type, LEN);
}

static void execute_send(void **state)
{
	(void)state;
	run_send(NIC_OP_SEND, (const uint8_t[4]){ 0 }, NIC_RECV_SEND, SOFTDOCA_OP_SEND);
}

static void execute_send_imm(void **state)
{
	(void)state;
	run_send(NIC_OP_SEND_IMM, (const uint8_t[4]){ 9, 8, 7, 6 }, NIC_RECV_SEND_IMM,
	         SOFTDOCA_OP_SEND_IMM);
}

static void execute_read(void **state)
{
	struct fake_sent raw;
	struct nic_msg m;
	uint32_t seq;

	(void)state;
	fill(nh.b.mem + 512, LEN, 29);
	seq = request(NIC_OP_READ, 512, NULL, LEN);
	m = await_answer(NIC_OP_READ_RESP, seq, &raw);
	assert_int_equal(m.len, LEN);
	assert_int_equal(raw.len, LEN);
	assert_memory_equal(raw.data, nh.b.mem + 512, LEN);
	expect_served(SOFTDOCA_OP_READ, LEN);
}

static uint64_t *word(size_t at)
{
	return (uint64_t *)(void *)(nh.b.mem + at);
}

static void execute_atomic_fetch_add(void **state)
{
	struct nic_msg ops = { .operand1 = 5 };
	struct nic_msg m;
	uint32_t seq;

	(void)state;
	*word(1024) = 1000;
	seq = request_with_key(NIC_OP_ATOMIC_FA, nh_mmap_key(nh.b.mmap), 1024, NULL, 8, &ops);
	m = await_answer(NIC_OP_ATOMIC_RESP, seq, NULL);
	assert_int_equal(m.value, 1000);
	assert_int_equal(*word(1024), 1005);
	assert_int_equal(*word(1032), 0);
	expect_served(SOFTDOCA_OP_ATOMIC_FA, 8);
}

/* Compare-and-swap: swapped when the compare matches; answered with the
 * original value either way. */
static void execute_atomic_compare_swap(void **state)
{
	struct nic_msg match = { .operand1 = 7, .operand2 = 70 };
	struct nic_msg miss = { .operand1 = 7, .operand2 = 700 };
	struct nic_msg m;
	uint32_t seq;

	(void)state;
	*word(1024) = 7;
	seq = request_with_key(NIC_OP_ATOMIC_CS, nh_mmap_key(nh.b.mmap), 1024, NULL, 8, &match);
	m = await_answer(NIC_OP_ATOMIC_RESP, seq, NULL);
	assert_int_equal(m.value, 7);
	assert_int_equal(*word(1024), 70);
	seq = request_with_key(NIC_OP_ATOMIC_CS, nh_mmap_key(nh.b.mmap), 1024, NULL, 8, &miss);
	m = await_answer(NIC_OP_ATOMIC_RESP, seq, NULL);
	assert_int_equal(m.value, 70);
	assert_int_equal(*word(1024), 70);
	assert_int_equal(nh_counters(&nh.b).served[SOFTDOCA_OP_ATOMIC_CS], 2);
	assert_true(nh_rts(&nh.b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(check_opcode_read_not_allowed, setup_no_read,
		                                teardown),
		cmocka_unit_test_setup_teardown(check_rkey_write_outside_range, setup, teardown),
		cmocka_unit_test_setup_teardown(check_rkey_write_without_permission, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(check_rkey_atomic_misaligned, setup, teardown),
		cmocka_unit_test_setup_teardown(check_length_send_longer_than_receive, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(check_resources_rnr_then_execute, setup, teardown),
		cmocka_unit_test_setup_teardown(sequence_early_request_waits, setup, teardown),
		cmocka_unit_test_setup_teardown(sequence_duplicate_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(execute_write, setup, teardown),
		cmocka_unit_test_setup_teardown(execute_write_imm, setup, teardown),
		cmocka_unit_test_setup_teardown(execute_send, setup, teardown),
		cmocka_unit_test_setup_teardown(execute_send_imm, setup, teardown),
		cmocka_unit_test_setup_teardown(execute_read, setup, teardown),
		cmocka_unit_test_setup_teardown(execute_atomic_fetch_add, setup, teardown),
		cmocka_unit_test_setup_teardown(execute_atomic_compare_swap, setup, teardown),
	};

	xport_set_ops_for_tests(&fake_xport_ops);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
