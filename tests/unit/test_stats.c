/*
 * Unit tests: a process's counters snapshot (src/diag/stats_wire.c) and the
 * channel that answers with it (src/diag/stats_channel.c) - a snapshot
 * round-trips every field, truncated, padded and garbled ones are refused,
 * a snapshot with fewer or more counters than this build's reads, and the
 * channel answers this process, refuses another user, tells a reader it is
 * busy and serves a real one after silent ones, lives where no squatter can
 * take its name, and is off with SOFTDOCA_STATS=0.
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/bytes.h"
#include "diag/diag.h"
#include "nic/nic.h"
#include "unit/testing.h"

#define WORDS (sizeof(struct softdoca_rdma_counters) / sizeof(uint64_t))

/* Every counter different: word i of record r is r * 1000 + i + 1. */
static void fill(struct softdoca_rdma_counters *c, uint64_t r)
{
	uint64_t w[WORDS];

	for (size_t i = 0; i < WORDS; i++)
		w[i] = r * 1000 + i + 1;
	memcpy(c, w, sizeof(w));
}

static struct softdoca_process_counters *sample(uint32_t devs, uint32_t conns)
{
	struct softdoca_process_counters *pc = calloc(1, sizeof(*pc));

	assert_non_null(pc);
	pc->pid = 4242;
	strcpy(pc->softdoca_version, "9.8.7-test");
	pc->faults_injected = 77;
	pc->num_devices = devs;
	pc->devices = calloc(devs ? devs : 1, sizeof(*pc->devices));
	pc->num_connections = conns;
	pc->connections = calloc(conns ? conns : 1, sizeof(*pc->connections));
	assert_true(pc->devices && pc->connections);
	for (uint32_t d = 0; d < devs; d++) {
		snprintf(pc->devices[d].ibdev_name, sizeof(pc->devices[d].ibdev_name), "mlx5_%u",
		         d);
		fill(&pc->devices[d].counters, d);
	}
	for (uint32_t i = 0; i < conns; i++) {
		pc->connections[i] = (struct softdoca_connection_counters){
			.device = i % devs,
			.connection_id = 0x10000u * i + i,
			.qp_number = i + 3,
			.peer_qp_number = i + 5,
			.peer_pid = 1000 + i,
			.state = (enum softdoca_qp_state)(i % 4),
		};
		fill(&pc->connections[i].counters, 100 + i);
	}
	return pc;
}

static void encode(const struct softdoca_process_counters *pc, uint8_t **buf, size_t *len)
{
	assert_doca_ok(diag_stats_encode(pc, buf, len));
}

static void test_round_trip(void **state)
{
	(void)state;
	for (uint32_t devs = 0; devs <= 3; devs++) {
		uint32_t conns = devs ? 5 : 0;
		struct softdoca_process_counters *in = sample(devs, conns), *out;
		uint8_t *buf;
		size_t len;

		encode(in, &buf, &len);
		assert_int_equal(len, DIAG_STATS_HDR_LEN + devs * (64 + 8 * WORDS) +
		                              conns * (24 + 8 * WORDS));
		assert_doca_ok(diag_stats_decode(buf, len, &out));
		assert_int_equal(out->pid, 4242);
		assert_string_equal(out->softdoca_version, "9.8.7-test");
		assert_int_equal(out->faults_injected, 77);
		assert_int_equal(out->num_devices, devs);
		assert_int_equal(out->num_connections, conns);
		for (uint32_t d = 0; d < devs; d++) {
			assert_string_equal(out->devices[d].ibdev_name, in->devices[d].ibdev_name);
			assert_memory_equal(&out->devices[d].counters, &in->devices[d].counters,
			                    sizeof(in->devices[d].counters));
		}
		for (uint32_t i = 0; i < conns; i++)
			assert_memory_equal(&out->connections[i], &in->connections[i],
			                    sizeof(in->connections[i]));
		nic_stats_free(out);
		free(buf);
		nic_stats_free(in);
	}
}

/* Every prefix, and the whole with a byte more, is refused. */
static void test_truncated(void **state)
{
	struct softdoca_process_counters *in = sample(2, 3), *out;
	uint8_t *buf, *longer;
	size_t len;

	(void)state;
	encode(in, &buf, &len);
	for (size_t n = 0; n < len; n++) {
		assert_int_not_equal(diag_stats_decode(buf, n, &out), DOCA_SUCCESS);
		assert_null(out);
	}
	longer = calloc(1, len + 1);
	assert_non_null(longer);
	memcpy(longer, buf, len);
	assert_doca_err(diag_stats_decode(longer, len + 1, &out), DOCA_ERROR_INVALID_VALUE);
	/* ... also when the length field says so: records then do not fill it */
	sdoca_put_le32(longer + 8, (uint32_t)len + 1);
	assert_doca_err(diag_stats_decode(longer, len + 1, &out), DOCA_ERROR_INVALID_VALUE);
	free(longer);
	free(buf);
	nic_stats_free(in);
}

/* One field wrong at a time. */
static void test_garbage(void **state)
{
	struct softdoca_process_counters *in = sample(2, 3), *out;
#define CONN0 (DIAG_STATS_HDR_LEN + 2 * (64 + 8 * WORDS))
	uint8_t *buf, *bad;
	size_t len;
	static const struct {
		size_t off;
		uint8_t value;
		doca_error_t want;
	} cases[] = {
		{ 0, 'X', DOCA_ERROR_INVALID_VALUE },        /* magic */
		{ 4, 3, DOCA_ERROR_NOT_SUPPORTED },          /* version */
		{ 4, 2, DOCA_ERROR_INVALID_VALUE },          /* version 2 without its DPA section */
		{ 6, 0, DOCA_ERROR_INVALID_VALUE },          /* words: changes the length too */
		{ 11, 0x10, DOCA_ERROR_INVALID_VALUE },      /* length past the limit */
		{ 16, 9, DOCA_ERROR_INVALID_VALUE },         /* devices */
		{ 19, 0xff, DOCA_ERROR_INVALID_VALUE },      /* devices past the limit */
		{ 20, 4, DOCA_ERROR_INVALID_VALUE },         /* connections */
		{ 64, 0, DOCA_ERROR_INVALID_VALUE },         /* an empty device name */
		{ CONN0, 2, DOCA_ERROR_INVALID_VALUE },      /* a device not in the snapshot */
		{ CONN0 + 20, 4, DOCA_ERROR_INVALID_VALUE }, /* an unknown state */
		{ CONN0 + 21, 1, DOCA_ERROR_INVALID_VALUE }, /* reserved bytes */
	};

	(void)state;
	encode(in, &buf, &len);
	bad = malloc(len);
	assert_non_null(bad);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memcpy(bad, buf, len);
		bad[cases[i].off] = cases[i].value;
		if (diag_stats_decode(bad, len, &out) != cases[i].want)
			fail_msg("byte %zu = %u: not refused as expected", cases[i].off,
			         cases[i].value);
		assert_null(out);
	}
	/* unterminated strings */
	memcpy(bad, buf, len);
	memset(bad + 32, 'v', 32);
	assert_doca_err(diag_stats_decode(bad, len, &out), DOCA_ERROR_INVALID_VALUE);
	memcpy(bad, buf, len);
	memset(bad + 64, 'd', 64);
	assert_doca_err(diag_stats_decode(bad, len, &out), DOCA_ERROR_INVALID_VALUE);
	/* random bytes behind a valid header only: counters are any numbers */
	memcpy(bad, buf, len);
	srand(7);
	for (size_t i = CONN0 + 24; i < CONN0 + 24 + 8 * WORDS; i++)
		bad[i] = (uint8_t)rand();
	assert_doca_ok(diag_stats_decode(bad, len, &out));
	nic_stats_free(out);
	free(bad);
	free(buf);
	nic_stats_free(in);
}

/* A snapshot of one device and one connection with `words` counters each,
 * word i being i + 1. */
static uint8_t *with_words(uint16_t words, size_t *len)
{
	size_t dev = 64 + 8u * words, conn = 24 + 8u * words;
	uint8_t *b;

	*len = DIAG_STATS_HDR_LEN + dev + conn;
	b = calloc(1, *len);
	assert_non_null(b);
	memcpy(b, DIAG_STATS_MAGIC, 4);
	sdoca_put_le16(b + 4, DIAG_STATS_VERSION_1);
	sdoca_put_le16(b + 6, words);
	sdoca_put_le32(b + 8, (uint32_t)*len);
	sdoca_put_le32(b + 12, 1);
	sdoca_put_le32(b + 16, 1);
	sdoca_put_le32(b + 20, 1);
	strcpy((char *)b + DIAG_STATS_HDR_LEN, "sdoca_lo");
	for (uint16_t i = 0; i < words; i++) {
		sdoca_put_le64(b + DIAG_STATS_HDR_LEN + 64 + 8u * i, i + 1u);
		sdoca_put_le64(b + DIAG_STATS_HDR_LEN + dev + 24 + 8u * i, i + 1u);
	}
	return b;
}

/* An older writer's counters (fewer) read as zero beyond; a newer's extra
 * ones are skipped. */
static void test_other_counter_counts(void **state)
{
	struct softdoca_process_counters *out;
	uint64_t w[WORDS];
	uint8_t *b;
	size_t len;

	(void)state;
	b = with_words(3, &len);
	assert_doca_ok(diag_stats_decode(b, len, &out));
	memcpy(w, &out->connections[0].counters, sizeof(w));
	assert_int_equal(w[0], 1);
	assert_int_equal(w[2], 3);
	for (size_t i = 3; i < WORDS; i++)
		assert_int_equal(w[i], 0);
	nic_stats_free(out);
	free(b);
	b = with_words(WORDS + 5, &len);
	assert_doca_ok(diag_stats_decode(b, len, &out));
	memcpy(w, &out->devices[0].counters, sizeof(w));
	assert_int_equal(w[WORDS - 1], WORDS);
	assert_int_equal(out->connections[0].counters.faults_injected, WORDS - 1);
	assert_int_equal(out->connections[0].counters.receive_queue_depth, WORDS);
	nic_stats_free(out);
	free(b);
}

/* --- the DPA section (version 2) --- */

/* sample() with DPAs and their threads, every field distinct. */
static struct softdoca_process_counters *sample_dpa(uint32_t dpas, uint32_t threads)
{
	struct softdoca_process_counters *pc = sample(1, 2);

	pc->num_dpas = dpas;
	pc->dpas = calloc(dpas ? dpas : 1, sizeof(*pc->dpas));
	pc->num_dpa_threads = threads;
	pc->dpa_threads = calloc(threads ? threads : 1, sizeof(*pc->dpa_threads));
	assert_true(pc->dpas && pc->dpa_threads);
	for (uint32_t i = 0; i < dpas; i++)
		pc->dpas[i] = (struct softdoca_dpa_counters){
			.last_error = (doca_error_t)(i + 1),
			.num_threads = 10 + i,
			.mem_bytes = 0x100000000ull + i,
			.mem_blocks = 20 + i,
			.num_eus = 254 - i,
			.started = (uint8_t)(i % 2),
			.polled_completions = 30 + i,
			.polled_cq_populated = 0x300000000ull + i,
			.polled_cq_unread = 40 + i,
			.polled_cq_held = 50 + i,
		};
	for (uint32_t i = 0; i < dpas; i++) {
		snprintf(pc->dpas[i].app_name, sizeof(pc->dpas[i].app_name), "app_%u", i);
		snprintf(pc->dpas[i].ibdev_name, sizeof(pc->dpas[i].ibdev_name), "mlx5_%u", i);
	}
	for (uint32_t i = 0; i < threads; i++) {
		struct softdoca_dpa_thread_counters *t = &pc->dpa_threads[i];

		*t = (struct softdoca_dpa_thread_counters){
			.dpa = i % dpas,
			.id = i + 1,
			.state = (enum softdoca_dpa_thread_state)(i % 6),
			.trigger_pending = (uint8_t)(i % 2),
			.rank = i % 3,
			.num_ranks = 3,
			.eu = i == 0 ? SOFTDOCA_DPA_NO_EU : 100 + i,
			.activations = 1000000007ull * i,
			.ns_since_activation = i == 0 ? SOFTDOCA_DPA_NEVER : 5000 + i,
			.completions = i,
			.cq_populated = 300 + i,
			.cq_unread = 200 + i,
			.cq_held = 0x200000000ull + i,
		};
		snprintf(t->kernel, sizeof(t->kernel), "kernel_%u", i);
	}
	return pc;
}

#define DPA_SECTION_LEN(d, t) \
	(DIAG_STATS_DPA_HDR_LEN + (d)*DIAG_STATS_DPA_LEN + (t)*DIAG_STATS_DPA_THREAD_LEN)
#define BASE_LEN (DIAG_STATS_HDR_LEN + (64 + 8 * WORDS) + 2 * (24 + 8 * WORDS))

static void same_dpa(const struct softdoca_process_counters *a,
                     const struct softdoca_process_counters *b)
{
	assert_int_equal(a->num_dpas, b->num_dpas);
	assert_int_equal(a->num_dpa_threads, b->num_dpa_threads);
	for (uint32_t i = 0; i < a->num_dpas; i++) {
		const struct softdoca_dpa_counters *x = &a->dpas[i], *y = &b->dpas[i];

		assert_string_equal(x->app_name, y->app_name);
		assert_string_equal(x->ibdev_name, y->ibdev_name);
		assert_int_equal(x->last_error, y->last_error);
		assert_int_equal(x->num_threads, y->num_threads);
		assert_int_equal(x->mem_bytes, y->mem_bytes);
		assert_int_equal(x->mem_blocks, y->mem_blocks);
		assert_int_equal(x->num_eus, y->num_eus);
		assert_int_equal(x->started, y->started);
		assert_int_equal(x->polled_completions, y->polled_completions);
		assert_int_equal(x->polled_cq_populated, y->polled_cq_populated);
		assert_int_equal(x->polled_cq_unread, y->polled_cq_unread);
		assert_int_equal(x->polled_cq_held, y->polled_cq_held);
	}
	for (uint32_t i = 0; i < a->num_dpa_threads; i++) {
		const struct softdoca_dpa_thread_counters *x = &a->dpa_threads[i],
		                                          *y = &b->dpa_threads[i];

		assert_int_equal(x->dpa, y->dpa);
		assert_int_equal(x->id, y->id);
		assert_string_equal(x->kernel, y->kernel);
		assert_int_equal(x->state, y->state);
		assert_int_equal(x->trigger_pending, y->trigger_pending);
		assert_int_equal(x->rank, y->rank);
		assert_int_equal(x->num_ranks, y->num_ranks);
		assert_int_equal(x->eu, y->eu);
		assert_int_equal(x->activations, y->activations);
		assert_int_equal(x->ns_since_activation, y->ns_since_activation);
		assert_int_equal(x->completions, y->completions);
		assert_int_equal(x->cq_populated, y->cq_populated);
		assert_int_equal(x->cq_unread, y->cq_unread);
		assert_int_equal(x->cq_held, y->cq_held);
	}
}

/* Every field of the section survives; without a DPA the writer stays at
 * version 1 (what a reader of version 1 reads). */
static void test_dpa_round_trip(void **state)
{
	struct softdoca_process_counters *in, *out;
	uint8_t *buf;
	size_t len;

	(void)state;
	in = sample_dpa(0, 0);
	encode(in, &buf, &len);
	assert_int_equal(sdoca_get_le16(buf + 4), DIAG_STATS_VERSION_1);
	assert_int_equal(len, BASE_LEN);
	assert_doca_ok(diag_stats_decode(buf, len, &out));
	assert_int_equal(out->num_dpas, 0);
	assert_null(out->dpas);
	nic_stats_free(out);
	free(buf);
	nic_stats_free(in);

	in = sample_dpa(3, 7);
	encode(in, &buf, &len);
	assert_int_equal(sdoca_get_le16(buf + 4), 2);
	assert_int_equal(len, BASE_LEN + DPA_SECTION_LEN(3, 7));
	assert_memory_equal(buf + BASE_LEN, "SDPA", 4);
	assert_doca_ok(diag_stats_decode(buf, len, &out));
	assert_int_equal(out->num_devices, 1);
	assert_int_equal(out->num_connections, 2);
	same_dpa(in, out);
	nic_stats_free(out);
	free(buf);
	nic_stats_free(in);

	/* a DPA without threads is a section too */
	in = sample_dpa(1, 0);
	encode(in, &buf, &len);
	assert_int_equal(sdoca_get_le16(buf + 4), 2);
	assert_doca_ok(diag_stats_decode(buf, len, &out));
	same_dpa(in, out);
	nic_stats_free(out);
	free(buf);
	nic_stats_free(in);
}

/* Every prefix, and a byte more, is refused; so is a section too big. */
static void test_dpa_truncated(void **state)
{
	struct softdoca_process_counters *in = sample_dpa(2, 3), *out;
	uint8_t *buf, *longer;
	size_t len;

	(void)state;
	encode(in, &buf, &len);
	for (size_t n = 0; n < len; n++) {
		assert_int_not_equal(diag_stats_decode(buf, n, &out), DOCA_SUCCESS);
		assert_null(out);
	}
	longer = calloc(1, len + 1);
	assert_non_null(longer);
	memcpy(longer, buf, len);
	sdoca_put_le32(longer + 8, (uint32_t)len + 1);
	assert_doca_err(diag_stats_decode(longer, len + 1, &out), DOCA_ERROR_INVALID_VALUE);
	assert_null(out);
	free(longer);
	free(buf);
	nic_stats_free(in);
	/* more than a snapshot holds is not written */
	in = sample_dpa(1, 0);
	in->num_dpa_threads = DIAG_STATS_MAX_DPA_THREADS + 1;
	assert_doca_err(diag_stats_encode(in, &buf, &len), DOCA_ERROR_TOO_BIG);
	in->num_dpa_threads = 0;
	nic_stats_free(in);
}

/* One field of the section wrong at a time. */
static void test_dpa_garbage(void **state)
{
	struct softdoca_process_counters *in = sample_dpa(2, 3), *out;
#define SEC BASE_LEN
#define DPA0 (SEC + DIAG_STATS_DPA_HDR_LEN)
#define THR0 (DPA0 + 2 * DIAG_STATS_DPA_LEN)
	uint8_t *buf, *bad;
	size_t len;
	static const struct {
		size_t off;
		uint8_t value;
	} cases[] = {
		{ SEC, 'X' },       /* magic */
		{ SEC + 4, 183 },   /* DPA records shorter than version 2's */
		{ SEC + 6, 135 },   /* thread records shorter */
		{ SEC + 5, 1 },     /* longer DPA records: the length no longer fits */
		{ SEC + 8, 3 },     /* DPAs */
		{ SEC + 11, 0x10 }, /* DPAs past the limit */
		{ SEC + 12, 4 },    /* threads */
		{ SEC + 14, 0x10 }, /* threads past the limit */
		{ DPA0 + 129, 1 },  /* an unknown error */
		{ DPA0 + 152, 2 },  /* started neither 0 nor 1 */
		{ DPA0 + 155, 1 },  /* reserved */
		{ DPA0 + 175, 1 },  /* polled: more unread than populated */
		{ THR0, 2 },        /* a DPA not in the snapshot */
		{ THR0 + 72, 6 },   /* an unknown state */
		{ THR0 + 73, 2 },   /* unknown flags */
		{ THR0 + 75, 1 },   /* reserved */
		{ THR0 + 109, 1 },  /* reserved */
		{ THR0 + 76, 3 },   /* rank 3 of 3 */
		{ THR0 + 121, 1 },  /* more unread than populated */
	};

	(void)state;
	encode(in, &buf, &len);
	bad = malloc(len);
	assert_non_null(bad);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memcpy(bad, buf, len);
		bad[cases[i].off] = cases[i].value;
		if (diag_stats_decode(bad, len, &out) != DOCA_ERROR_INVALID_VALUE)
			fail_msg("byte %zu = %u: not refused as expected", cases[i].off,
			         cases[i].value);
		assert_null(out);
	}
	/* threads without a DPA (the lengths made to fit) */
	{
		struct softdoca_process_counters *none = sample_dpa(1, 0);
		uint8_t *b;
		size_t n;

		encode(none, &b, &n);
		sdoca_put_le32(b + SEC + 8, 0);
		sdoca_put_le32(b + SEC + 12, 1);
		sdoca_put_le16(b + SEC + 6, DIAG_STATS_DPA_LEN);
		assert_doca_err(diag_stats_decode(b, n, &out), DOCA_ERROR_INVALID_VALUE);
		free(b);
		nic_stats_free(none);
	}
	/* unterminated names */
	for (size_t off = DPA0; off <= THR0 + 8; off += off == DPA0 + 64 ? THR0 + 8 - off : 64) {
		memcpy(bad, buf, len);
		memset(bad + off, 'n', 64);
		assert_doca_err(diag_stats_decode(bad, len, &out), DOCA_ERROR_INVALID_VALUE);
	}
	/* what follows a name's NUL is not kept */
	memcpy(bad, buf, len);
	memset(bad + THR0 + 8 + 20, 'z', 40);
	assert_doca_ok(diag_stats_decode(bad, len, &out));
	assert_string_equal(out->dpa_threads[0].kernel, "kernel_0");
	assert_int_equal(out->dpa_threads[0].kernel[20], 0);
	nic_stats_free(out);
	free(bad);
	free(buf);
	nic_stats_free(in);
#undef SEC
#undef DPA0
#undef THR0
}

/* A newer writer's longer records: the fields this reader knows are read,
 * the rest skipped. */
static void test_dpa_longer_records(void **state)
{
	struct softdoca_process_counters *in = sample_dpa(2, 3), *out;
	const size_t dpa_len = DIAG_STATS_DPA_LEN + 40, thr_len = DIAG_STATS_DPA_THREAD_LEN + 8;
	uint8_t *buf, *wide, *p;
	size_t len, wide_len;

	(void)state;
	encode(in, &buf, &len);
	wide_len = BASE_LEN + DIAG_STATS_DPA_HDR_LEN + 2 * dpa_len + 3 * thr_len;
	wide = malloc(wide_len);
	assert_non_null(wide);
	memset(wide, 0xee, wide_len); /* the extra bytes: anything */
	memcpy(wide, buf, BASE_LEN + DIAG_STATS_DPA_HDR_LEN);
	sdoca_put_le32(wide + 8, (uint32_t)wide_len);
	sdoca_put_le16(wide + BASE_LEN + 4, (uint16_t)dpa_len);
	sdoca_put_le16(wide + BASE_LEN + 6, (uint16_t)thr_len);
	p = wide + BASE_LEN + DIAG_STATS_DPA_HDR_LEN;
	for (int i = 0; i < 2; i++, p += dpa_len)
		memcpy(p, buf + BASE_LEN + DIAG_STATS_DPA_HDR_LEN + i * DIAG_STATS_DPA_LEN,
		       DIAG_STATS_DPA_LEN);
	for (int i = 0; i < 3; i++, p += thr_len)
		memcpy(p,
		       buf + BASE_LEN + DIAG_STATS_DPA_HDR_LEN + 2 * DIAG_STATS_DPA_LEN +
		               i * DIAG_STATS_DPA_THREAD_LEN,
		       DIAG_STATS_DPA_THREAD_LEN);
	assert_doca_ok(diag_stats_decode(wide, wide_len, &out));
	same_dpa(in, out);
	nic_stats_free(out);
	free(wide);
	free(buf);
	nic_stats_free(in);
}

/* --- the channel, served by a thread of this test standing for the
 * service thread --- */

static struct {
	int epoll_fd;
	int stop_fd[2];
	pthread_t thread;
} svc;

static void *serve(void *arg)
{
	(void)arg;
	for (;;) {
		struct epoll_event ev[4];
		int n = epoll_wait(svc.epoll_fd, ev, 4, 100);

		for (int i = 0; i < n; i++) {
			if (ev[i].data.u64 == 2)
				return NULL;
			diag_channel_event();
		}
		(void)diag_channel_timers();
	}
}

static void channel_start(void)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = 2 };

	svc.epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	assert_true(svc.epoll_fd >= 0);
	assert_int_equal(pipe(svc.stop_fd), 0);
	assert_int_equal(epoll_ctl(svc.epoll_fd, EPOLL_CTL_ADD, svc.stop_fd[0], &ev), 0);
	diag_channel_open(svc.epoll_fd, 1);
	assert_int_equal(pthread_create(&svc.thread, NULL, serve, NULL), 0);
}

static void channel_stop(void)
{
	assert_int_equal(write(svc.stop_fd[1], "x", 1), 1);
	pthread_join(svc.thread, NULL);
	diag_channel_close();
	close(svc.stop_fd[0]);
	close(svc.stop_fd[1]);
	close(svc.epoll_fd);
}

static void test_channel_answers(void **state)
{
	struct softdoca_process_counters *pc;

	(void)state;
	unsetenv("SOFTDOCA_STATS");
	channel_start();
	/* several readers in turn; this process has no device in use yet */
	for (int i = 0; i < 8; i++) {
		assert_doca_ok(diag_stats_query((uint32_t)getpid(), &pc));
		assert_int_equal(pc->pid, getpid());
		assert_string_equal(pc->softdoca_version, softdoca_version());
		assert_int_equal(pc->num_connections, 0);
		nic_stats_free(pc);
	}
	channel_stop();
	/* closed: nothing listens under the name any more */
	assert_doca_err(diag_stats_query((uint32_t)getpid(), &pc), DOCA_ERROR_NOT_FOUND);
	assert_null(pc);
}

static void test_channel_off(void **state)
{
	struct softdoca_process_counters *pc;

	(void)state;
	setenv("SOFTDOCA_STATS", "0", 1);
	channel_start();
	assert_doca_err(diag_stats_query((uint32_t)getpid(), &pc), DOCA_ERROR_NOT_FOUND);
	channel_stop();
	unsetenv("SOFTDOCA_STATS");
}

static void test_query_refused(void **state)
{
	struct softdoca_process_counters *pc;
	pid_t child;
	int status;

	(void)state;
	assert_doca_err(diag_stats_query(0, &pc), DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(diag_stats_query(0x80000000u, &pc), DOCA_ERROR_INVALID_VALUE);
	/* a process that has exited (and been reaped) */
	child = fork();
	assert_true(child >= 0);
	if (child == 0)
		_exit(0);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_doca_err(diag_stats_query((uint32_t)child, &pc), DOCA_ERROR_NOT_FOUND);
	/* a process without softdoca's channel: this one, before it opens it */
	assert_doca_err(diag_stats_query((uint32_t)getpid(), &pc), DOCA_ERROR_NOT_FOUND);
}

/* Another user is refused by both sides: the reader's library says so, and
 * the socket, in a directory of this user's only, cannot be reached. */
static void test_other_user_refused(void **state)
{
	pid_t parent = getpid(), child;
	char path[108];
	int status;

	(void)state;
	if (geteuid() != 0)
		skip();
	channel_start();
	assert_doca_ok(diag_stats_path_find((uint32_t)parent, path, sizeof(path)));
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		struct softdoca_process_counters *pc;
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		int fd;

		if (setgid(65534) != 0 || setuid(65534) != 0)
			_exit(10);
		if (diag_stats_query((uint32_t)parent, &pc) != DOCA_ERROR_NOT_PERMITTED)
			_exit(11);
		strcpy(sa.sun_path, path);
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (fd < 0)
			_exit(12);
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 || errno != EACCES)
			_exit(13);
		_exit(0);
	}
	assert_int_equal(waitpid(child, &status, 0), child);
	channel_stop();
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* A connection to this process's channel that sends nothing. */
static int silent_reader(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	assert_doca_ok(diag_stats_path_find((uint32_t)getpid(), sa.sun_path, sizeof(sa.sun_path)));
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	return fd;
}

/* Readers that never ask hold every slot: another is told the channel is
 * busy (not refused), and a real query still succeeds - the silent ones
 * lose their slots before it gives up. */
static void test_busy(void **state)
{
	struct softdoca_process_counters *pc;
	int silent[4], extra;
	char answer[16];
	ssize_t n, got = 0;

	(void)state;
	unsetenv("SOFTDOCA_STATS");
	channel_start();
	for (int i = 0; i < 4; i++)
		silent[i] = silent_reader();
	/* The fifth: the busy notice, then the end (its request comes too late). */
	extra = silent_reader();
	(void)send(extra, DIAG_STATS_REQUEST, strlen(DIAG_STATS_REQUEST), MSG_NOSIGNAL);
	while ((n = recv(extra, answer + got, sizeof(answer) - (size_t)got, 0)) > 0)
		got += n;
	close(extra);
	assert_int_equal(got, strlen(DIAG_STATS_BUSY));
	assert_memory_equal(answer, DIAG_STATS_BUSY, got);
	/* A real reader waits its turn. */
	assert_doca_ok(diag_stats_query((uint32_t)getpid(), &pc));
	assert_int_equal(pc->pid, getpid());
	nic_stats_free(pc);
	/* The silent ones were dropped: the end, no byte. */
	for (int i = 0; i < 4; i++) {
		assert_int_equal(recv(silent[i], answer, sizeof(answer), 0), 0);
		close(silent[i]);
	}
	channel_stop();
}

/* Squatters: the old abstract name held by someone else, and a runtime
 * directory that is another user's or a symlink, do not stop the channel;
 * it lives in a private directory, and the socket goes when it closes. */
static void test_squatted(void **state)
{
	struct softdoca_process_counters *pc;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char runtime[] = "/tmp/sdoca-test-XXXXXX", sub[64], path[108];
	const char *old_xdg = getenv("XDG_RUNTIME_DIR");
	socklen_t len;
	int squat, n;

	(void)state;
	unsetenv("SOFTDOCA_STATS");
	n = snprintf(sa.sun_path + 1, sizeof(sa.sun_path) - 1, "softdoca-stats-%d", (int)getpid());
	len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
	squat = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_int_equal(bind(squat, (struct sockaddr *)&sa, len), 0);
	assert_int_equal(listen(squat, 1), 0);
	assert_non_null(mkdtemp(runtime));
	setenv("XDG_RUNTIME_DIR", runtime, 1);
	snprintf(sub, sizeof(sub), "%s/softdoca", runtime);
	/* a symlink to a directory someone else chose */
	assert_int_equal(symlink("/tmp", sub), 0);
	channel_start();
	assert_doca_ok(diag_stats_path_find((uint32_t)getpid(), path, sizeof(path)));
	assert_true(strncmp(path, runtime, strlen(runtime)) != 0);
	assert_doca_ok(diag_stats_query((uint32_t)getpid(), &pc));
	nic_stats_free(pc);
	channel_stop();
	assert_int_equal(access(path, F_OK), -1); /* removed */
	unlink(sub);
	/* the runtime directory's own, made private: used */
	channel_start();
	assert_doca_ok(diag_stats_path_find((uint32_t)getpid(), path, sizeof(path)));
	assert_true(strncmp(path, sub, strlen(sub)) == 0);
	assert_doca_ok(diag_stats_query((uint32_t)getpid(), &pc));
	nic_stats_free(pc);
	channel_stop();
	/* another user's, as root can make it: not used */
	if (geteuid() == 0) {
		assert_int_equal(chown(sub, 65534, 65534), 0);
		channel_start();
		assert_doca_ok(diag_stats_path_find((uint32_t)getpid(), path, sizeof(path)));
		assert_true(strncmp(path, runtime, strlen(runtime)) != 0);
		assert_doca_ok(diag_stats_query((uint32_t)getpid(), &pc));
		nic_stats_free(pc);
		channel_stop();
	}
	rmdir(sub);
	rmdir(runtime);
	if (old_xdg)
		setenv("XDG_RUNTIME_DIR", old_xdg, 1);
	else
		unsetenv("XDG_RUNTIME_DIR");
	close(squat);
}

/* A socket a killed process left behind goes when the next channel opens
 * in the directory; one of a live process stays. */
static void test_stale_removed(void **state)
{
	char runtime[] = "/tmp/sdoca-test-XXXXXX", dir[64], stale[128], live[128];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	pid_t dead;
	int fd, keep;

	(void)state;
	unsetenv("SOFTDOCA_STATS");
	assert_non_null(mkdtemp(runtime));
	setenv("XDG_RUNTIME_DIR", runtime, 1);
	snprintf(dir, sizeof(dir), "%s/softdoca", runtime);
	assert_int_equal(mkdir(dir, 0700), 0);
	dead = fork();
	assert_true(dead >= 0);
	if (dead == 0)
		_exit(0);
	assert_int_equal(waitpid(dead, NULL, 0), dead);
	snprintf(stale, sizeof(stale), "%s/stats-%d", dir, (int)dead);
	snprintf(live, sizeof(live), "%s/stats-%d", dir, (int)getppid());
	/* the dead one's: bound, then closed (nothing listens) */
	strcpy(sa.sun_path, stale);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	close(fd);
	/* a live process's (the parent's pid): listening */
	strcpy(sa.sun_path, live);
	keep = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_int_equal(bind(keep, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(listen(keep, 1), 0);
	channel_start();
	assert_int_equal(access(stale, F_OK), -1);
	assert_int_equal(access(live, F_OK), 0);
	channel_stop();
	close(keep);
	unlink(live);
	rmdir(dir);
	rmdir(runtime);
	unsetenv("XDG_RUNTIME_DIR");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_other_counter_counts),
		cmocka_unit_test(test_query_refused),
		cmocka_unit_test(test_channel_answers),
		cmocka_unit_test(test_channel_off),
		cmocka_unit_test(test_other_user_refused),
		cmocka_unit_test(test_busy),
		cmocka_unit_test(test_squatted),
		cmocka_unit_test(test_stale_removed),
		cmocka_unit_test(test_dpa_round_trip),
		cmocka_unit_test(test_dpa_truncated),
		cmocka_unit_test(test_dpa_garbage),
		cmocka_unit_test(test_dpa_longer_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
