/*
 * softdoca tests: the soft NIC's requester (requester.c). Work requests are
 * posted straight to side A's QP (nic_post_send) and the test reads what A's
 * worker handed the fake transport: sequence numbers, the send queue's
 * limit, posts to a QP in error, a request refused before it was sent
 * (nic_post_send_refused) and an ACK riding on a request. Side B is the real
 * responder; pausing it keeps requests in flight, whichever thread
 * progresses.
 */
#include <string.h>

#include "rdma/rdma.h"
#include "unit/nic_harness.h"

#define ACCESS                                                            \
	(DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | \
	 DOCA_ACCESS_FLAG_RDMA_WRITE)
#define SEND_QUEUE 4
#define LEN 16

static struct nic_wqe w[8];

static int setup(void **state)
{
	struct nh_config config = { .access_a = ACCESS,
		                    .access_b = ACCESS,
		                    .send_queue = SEND_QUEUE };

	(void)state;
	nh_setup(&config);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	nh_teardown();
	return 0;
}

static void fill(uint8_t *p, size_t len, uint8_t seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(seed + i * 11);
}

/* A write of LEN bytes of A's memory at i * LEN to the same place in B's. */
static void write_wqe(struct nic_wqe *x, int i)
{
	fill(nh.a.mem + i * LEN, LEN, (uint8_t)(i + 1));
	nh_wqe_init(x, NIC_WR_WRITE, nh.a.mem + i * LEN, LEN);
	nh_wqe_remote(x, &nh.b, (size_t)i * LEN);
}

/* The next message of this opcode A sent from the n-th on: its index. */
static unsigned int sent_op(unsigned int n, uint8_t opcode, struct nic_msg *m,
                            struct fake_sent *raw)
{
	int at = nh_find_sent(&nh.a, n, opcode);

	assert_true(at >= 0);
	nh_sent(&nh.a, (unsigned int)at, m, raw);
	return (unsigned int)at;
}

/* Each request takes the next sequence number and leaves at once, carrying
 * its payload. */
static void sequence_numbers_increase(void **state)
{
	uint32_t base = nh_next_seq(&nh.a);
	unsigned int n = nh_sent_count(&nh.a);
	struct fake_sent raw;
	struct nic_msg m;

	(void)state;
	for (int i = 0; i < 3; i++) {
		write_wqe(&w[i], i);
		assert_doca_ok(nic_post_send(nh_qp(&nh.a), &w[i]));
		assert_int_equal(w[i].seq, base + (uint32_t)i);
	}
	assert_int_equal(nh_next_seq(&nh.a), base + 3);
	for (int i = 0; i < 3; i++) {
		n = sent_op(n, NIC_OP_WRITE, &m, &raw) + 1;
		assert_int_equal(m.seq, base + (uint32_t)i);
		assert_int_equal(m.len, LEN);
		assert_int_equal(m.raddr, (uint64_t)(uintptr_t)(nh.b.mem + i * LEN));
		assert_int_equal(raw.len, LEN);
		assert_memory_equal(raw.data, nh.a.mem + i * LEN, LEN);
	}
	NH_UNTIL(atomic_load(&nh.done) == 3);
	nh_expect_done(3, (struct nic_wqe *[]){ &w[0], &w[1], &w[2] },
	               (doca_error_t[]){ DOCA_SUCCESS, DOCA_SUCCESS, DOCA_SUCCESS });
	assert_memory_equal(nh.b.mem, nh.a.mem, 3 * LEN);
	assert_int_equal(nh_counters(&nh.a).posted[SOFTDOCA_OP_WRITE], 3);
}

/* A post beyond the send queue is refused (AGAIN) and sends nothing; once
 * the requests in flight completed it goes through. */
static void send_queue_limit(void **state)
{
	uint32_t base = nh_next_seq(&nh.a);
	unsigned int sent;
	struct nic_msg m;

	(void)state;
	fake_xport_pause(nh.b.worker, true);
	for (int i = 0; i < SEND_QUEUE; i++) {
		write_wqe(&w[i], i);
		assert_doca_ok(nic_post_send(nh_qp(&nh.a), &w[i]));
	}
	sent = nh_sent_count(&nh.a);
	write_wqe(&w[SEND_QUEUE], SEND_QUEUE);
	assert_doca_err(nic_post_send(nh_qp(&nh.a), &w[SEND_QUEUE]), DOCA_ERROR_AGAIN);
	assert_int_equal(nh_sent_count(&nh.a), sent);
	assert_int_equal(nh_next_seq(&nh.a), base + SEND_QUEUE);
	assert_int_equal(atomic_load(&nh.done), 0);

	fake_xport_pause(nh.b.worker, false);
	NH_UNTIL(atomic_load(&nh.done) == SEND_QUEUE);
	for (int i = 0; i < SEND_QUEUE; i++) {
		assert_ptr_equal(nh.order[i], &w[i]);
		assert_doca_ok(nh.status[i]);
	}
	assert_doca_ok(nic_post_send(nh_qp(&nh.a), &w[SEND_QUEUE]));
	sent_op(sent, NIC_OP_WRITE, &m, NULL);
	assert_int_equal(m.seq, base + SEND_QUEUE);
	NH_UNTIL(atomic_load(&nh.done) == SEND_QUEUE + 1);
	assert_doca_ok(nh_status_of(&w[SEND_QUEUE]));
	assert_memory_equal(nh.b.mem, nh.a.mem, (SEND_QUEUE + 1) * LEN);
}

/* A post to a QP in error is taken and flushed behind what was in flight,
 * with the QP's error; nothing is sent. */
static void post_on_error_flushes(void **state)
{
	struct nic_msg bad = { .opcode = NIC_OP_ACK };
	unsigned int sent;

	(void)state;
	fake_xport_pause(nh.b.worker, true);
	write_wqe(&w[0], 0);
	assert_doca_ok(nic_post_send(nh_qp(&nh.a), &w[0]));
	/* An ACK for a request A never sent breaks the connection. */
	bad.seq = nh_next_seq(&nh.a) + 5;
	nh_inject(&nh.a, &bad, NULL, 0);
	NH_UNTIL(nh_failed(&nh.a));
	sent = nh_sent_count(&nh.a);
	write_wqe(&w[1], 1);
	assert_doca_ok(nic_post_send(nh_qp(&nh.a), &w[1]));
	nh_expect_done(
	        2, (struct nic_wqe *[]){ &w[0], &w[1] },
	        (doca_error_t[]){ DOCA_ERROR_CONNECTION_RESET, DOCA_ERROR_CONNECTION_RESET });
	assert_int_equal(nh_sent_count(&nh.a), sent);
}

/* A request refused before it was sent completes with its status once the
 * ones before it completed; one posted after it is flushed, never sent; the
 * QP then goes to error. */
static void refused_post_completes_in_order(void **state)
{
	unsigned int sent;

	(void)state;
	fake_xport_pause(nh.b.worker, true);
	for (int i = 0; i < 2; i++) {
		write_wqe(&w[i], i);
		assert_doca_ok(nic_post_send(nh_qp(&nh.a), &w[i]));
	}
	sent = nh_sent_count(&nh.a);
	write_wqe(&w[2], 2);
	assert_doca_ok(nic_post_send_refused(nh_qp(&nh.a), &w[2], DOCA_ERROR_NOT_PERMITTED,
	                                     "test: a bad key"));
	write_wqe(&w[3], 3);
	assert_doca_ok(nic_post_send(nh_qp(&nh.a), &w[3]));
	assert_int_equal(atomic_load(&nh.done), 0); /* behind the two in flight */
	assert_int_equal(nh_sent_count(&nh.a), sent);

	fake_xport_pause(nh.b.worker, false);
	NH_UNTIL(atomic_load(&nh.done) == 4);
	nh_expect_done(4, (struct nic_wqe *[]){ &w[0], &w[1], &w[2], &w[3] },
	               (doca_error_t[]){ DOCA_SUCCESS, DOCA_SUCCESS, DOCA_ERROR_NOT_PERMITTED,
	                                 DOCA_ERROR_CONNECTION_ABORTED });
	assert_true(nh_failed(&nh.a));
	assert_memory_equal(nh.b.mem, nh.a.mem, 2 * LEN);
	assert_int_equal(nh.b.mem[2 * LEN], 0);
	assert_true(nh_find_sent(&nh.a, sent, NIC_OP_WRITE) < 0); /* neither left */
}

static bool a_has(size_t at, const uint8_t *bytes, size_t len)
{
	return memcmp(nh.a.mem + at, bytes, len) == 0;
}

/* One attempt: B writes to A; A, right after placing it, posts a write of
 * its own. True when A's ACK of B's write rode on it (NIC_FLAG_ACK with
 * B's sequence); false when it left alone first - the service thread looks
 * every millisecond, and a loaded host can deschedule this thread longer. */
static bool piggyback_attempt(struct nic_wqe *wb, struct nic_wqe *wa, uint8_t seed)
{
	unsigned int n = nh_sent_count(&nh.a);
	double end = nh_now_s() + 10;
	struct nic_msg m;
	uint8_t want[LEN];

	fill(nh.b.mem + 2048, LEN, seed);
	memcpy(want, nh.b.mem + 2048, LEN);
	nh_wqe_init(wb, NIC_WR_WRITE, nh.b.mem + 2048, LEN);
	nh_wqe_remote(wb, &nh.a, 2048);
	assert_doca_ok(nic_post_send(nh_qp(&nh.b), wb));
	while (!a_has(2048, want, LEN) && nh_now_s() < end)
		nic_worker_progress(nh.a.rdma->worker);
	assert_true(a_has(2048, want, LEN));
	write_wqe(wa, 5);
	assert_doca_ok(nic_post_send(nh_qp(&nh.a), wa));
	n = sent_op(n, NIC_OP_WRITE, &m, NULL);
	NH_UNTIL(nh_completed(wb) && nh_completed(wa));
	assert_doca_ok(nh_status_of(wb));
	assert_doca_ok(nh_status_of(wa));
	if (!m.has_ack)
		return false;
	assert_int_equal(m.ack_seq, wb->seq);
	return true;
}

/* The ACK of the peer's request rides on this side's next request. */
static void piggybacked_ack(void **state)
{
	static struct nic_wqe wb[20], wa[20];
	int i = 0;

	(void)state;
	while (!piggyback_attempt(&wb[i], &wa[i], (uint8_t)(i + 40))) {
		print_message("the ACK went alone (attempt %d): again\n", i + 1);
		assert_true(++i < 20);
	}
	assert_true(nh_rts(&nh.a) && nh_rts(&nh.b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(sequence_numbers_increase, setup, teardown),
		cmocka_unit_test_setup_teardown(send_queue_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(post_on_error_flushes, setup, teardown),
		cmocka_unit_test_setup_teardown(refused_post_completes_in_order, setup, teardown),
		cmocka_unit_test_setup_teardown(piggybacked_ack, setup, teardown),
	};

	xport_set_ops_for_tests(&fake_xport_ops);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
