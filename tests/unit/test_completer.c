/*
 * softdoca tests: the soft NIC's completer (completer.c). Side A posts work
 * requests straight to its QP while side B is paused, so B never answers;
 * the answers are crafted here and handed to A as if B had sent them
 * (nic_harness.c): ACKs complete requests up to their sequence in order, a
 * NAK fails the request it names after those before it succeeded, a read
 * response places its data, an answer for no request in flight breaks the
 * connection while a repeated ACK is no news, and silence past the timeout
 * fails the oldest request with TIME_OUT.
 */
#include <string.h>

#include "unit/nic_harness.h"

#define ACCESS                                                            \
	(DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | \
	 DOCA_ACCESS_FLAG_RDMA_WRITE)
#define LEN 16
#define TIMEOUT_MS 50

static struct nic_wqe w[4];

static int setup_with(uint32_t timeout_ms)
{
	struct nh_config config = { .access_a = ACCESS,
		                    .access_b = ACCESS,
		                    .timeout_ms = timeout_ms };

	nh_setup(&config);
	fake_xport_pause(nh.b.worker, true);
	return 0;
}

static int setup(void **state)
{
	(void)state;
	return setup_with(0);
}

static int setup_short_timeout(void **state)
{
	(void)state;
	return setup_with(TIMEOUT_MS);
}

static int teardown(void **state)
{
	(void)state;
	nh_teardown();
	return 0;
}

/* n writes from A, in flight (B is paused). */
static void post_writes(int n)
{
	for (int i = 0; i < n; i++) {
		nh_wqe_init(&w[i], NIC_WR_WRITE, nh.a.mem + i * LEN, LEN);
		nh_wqe_remote(&w[i], &nh.b, (size_t)i * LEN);
		assert_doca_ok(nic_post_send(nh_qp(&nh.a), &w[i]));
	}
}

/* An answer to A, as if from B. */
static void answer(uint8_t opcode, uint32_t seq, uint32_t syndrome, const void *payload,
                   uint32_t len)
{
	struct nic_msg m = { .opcode = opcode, .seq = seq, .syndrome = syndrome, .len = len };

	nh_inject(&nh.a, &m, payload, len);
}

/* A cumulative ACK completes every request up to its sequence, in order,
 * and none after; the same ACK again changes nothing. */
static void ack_completes_up_to_its_seq(void **state)
{
	(void)state;
	post_writes(3);
	answer(NIC_OP_ACK, w[1].seq, 0, NULL, 0);
	NH_UNTIL(atomic_load(&nh.done) == 2);
	nh_expect_done(2, (struct nic_wqe *[]){ &w[0], &w[1] },
	               (doca_error_t[]){ DOCA_SUCCESS, DOCA_SUCCESS });
	assert_int_equal(w[0].result_len, LEN);
	/* Repeated (an older one, then the same): no news. The next ACK, handed
	 * over after them, shows they were read. */
	answer(NIC_OP_ACK, w[0].seq, 0, NULL, 0);
	answer(NIC_OP_ACK, w[1].seq, 0, NULL, 0);
	answer(NIC_OP_ACK, w[2].seq, 0, NULL, 0);
	NH_UNTIL(atomic_load(&nh.done) == 3);
	nh_expect_done(3, (struct nic_wqe *[]){ &w[0], &w[1], &w[2] },
	               (doca_error_t[]){ DOCA_SUCCESS, DOCA_SUCCESS, DOCA_SUCCESS });
	assert_true(nh_rts(&nh.a));
	assert_int_equal(nh_counters(&nh.a).requests_completed, 3);
	assert_int_equal(nh_counters(&nh.a).requests_failed, 0);
}

/* A NAK fails the request it names with its syndrome's status; those
 * before it (which it acknowledges) succeed, those after are flushed. */
static void nak_fails_named_request(void **state)
{
	struct softdoca_rdma_counters c;

	(void)state;
	post_writes(3);
	answer(NIC_OP_NAK, w[1].seq, NIC_SYN_REMOTE_ACCESS, NULL, 0);
	NH_UNTIL(atomic_load(&nh.done) == 3);
	nh_expect_done(3, (struct nic_wqe *[]){ &w[0], &w[1], &w[2] },
	               (doca_error_t[]){ DOCA_SUCCESS, DOCA_ERROR_NOT_PERMITTED,
	                                 DOCA_ERROR_CONNECTION_ABORTED });
	assert_true(nh_failed(&nh.a));
	c = nh_counters(&nh.a);
	assert_int_equal(c.naks_received, 1);
	assert_int_equal(c.naks_received_by_syndrome[NIC_SYN_REMOTE_ACCESS], 1);
	assert_int_equal(c.requests_failed, 2);
	/* What every syndrome reports. */
	assert_int_equal(nic_syndrome_status(NIC_SYN_REMOTE_INVALID), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(nic_syndrome_status(NIC_SYN_RNR_RETRY_EXCEEDED), DOCA_ERROR_TIME_OUT);
	assert_int_equal(nic_syndrome_status(NIC_SYN_REMOTE_OPERATIONAL), DOCA_ERROR_IO_FAILED);
}

/* A read response's payload lands in the read's local buffer. */
static void read_response_places_data(void **state)
{
	uint8_t payload[2 * LEN];

	(void)state;
	for (size_t i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)(0x30 + i);
	memset(nh.a.mem + 1024, 0x77, sizeof(payload) + 1);
	nh_wqe_init(&w[0], NIC_WR_READ, nh.a.mem + 1024, sizeof(payload));
	nh_wqe_remote(&w[0], &nh.b, 0);
	assert_doca_ok(nic_post_send(nh_qp(&nh.a), &w[0]));
	answer(NIC_OP_READ_RESP, w[0].seq, 0, payload, sizeof(payload));
	NH_UNTIL(atomic_load(&nh.done) == 1);
	nh_expect_done(1, (struct nic_wqe *[]){ &w[0] }, (doca_error_t[]){ DOCA_SUCCESS });
	assert_memory_equal(nh.a.mem + 1024, payload, sizeof(payload));
	assert_int_equal(nh.a.mem[1024 + sizeof(payload)], 0x77);
	assert_int_equal(w[0].result_len, sizeof(payload));
	assert_int_equal(nh_counters(&nh.a).bytes_read, sizeof(payload));
	assert_true(nh_rts(&nh.a));
}

/* An ACK for a request never sent: the peer is broken, the connection
 * fails and the request in flight is flushed with it. */
static void ack_for_unsent_request_fails(void **state)
{
	(void)state;
	post_writes(1);
	answer(NIC_OP_ACK, w[0].seq + 1, 0, NULL, 0);
	NH_UNTIL(atomic_load(&nh.done) == 1);
	nh_expect_done(1, (struct nic_wqe *[]){ &w[0] },
	               (doca_error_t[]){ DOCA_ERROR_CONNECTION_RESET });
	assert_true(nh_failed(&nh.a));
}

/* A read response for a request that is not a read in flight (one that
 * completed already): the connection fails, no byte is placed. */
static void stale_read_response_fails(void **state)
{
	uint8_t payload[LEN];

	(void)state;
	memset(payload, 0xee, sizeof(payload));
	post_writes(2);
	answer(NIC_OP_ACK, w[0].seq, 0, NULL, 0);
	NH_UNTIL(atomic_load(&nh.done) == 1);
	answer(NIC_OP_READ_RESP, w[0].seq, 0, payload, sizeof(payload));
	NH_UNTIL(atomic_load(&nh.done) == 2);
	nh_expect_done(2, (struct nic_wqe *[]){ &w[0], &w[1] },
	               (doca_error_t[]){ DOCA_SUCCESS, DOCA_ERROR_CONNECTION_RESET });
	assert_true(nh_failed(&nh.a));
	assert_int_equal(nh_counters(&nh.a).bytes_read, 0);
	for (size_t i = 0; i < 2 * LEN; i++)
		assert_int_not_equal(nh.a.mem[i], 0xee);
}

/* No answer within the timeout: the oldest request fails with TIME_OUT (not
 * before the timeout), the next is flushed, the connection fails. */
static void timeout_fails_oldest(void **state)
{
	double start = nh_now_s();

	(void)state;
	post_writes(2);
	NH_UNTIL(atomic_load(&nh.done) == 2);
	assert_true(nh_now_s() - start >= TIMEOUT_MS / 1000.0);
	nh_expect_done(2, (struct nic_wqe *[]){ &w[0], &w[1] },
	               (doca_error_t[]){ DOCA_ERROR_TIME_OUT, DOCA_ERROR_CONNECTION_ABORTED });
	assert_true(nh_failed(&nh.a));
	assert_int_equal(nh_counters(&nh.a).timeouts, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(ack_completes_up_to_its_seq, setup, teardown),
		cmocka_unit_test_setup_teardown(nak_fails_named_request, setup, teardown),
		cmocka_unit_test_setup_teardown(read_response_places_data, setup, teardown),
		cmocka_unit_test_setup_teardown(ack_for_unsent_request_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(stale_read_response_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(timeout_fails_oldest, setup_short_timeout,
		                                teardown),
	};

	xport_set_ops_for_tests(&fake_xport_ops);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
