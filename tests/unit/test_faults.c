/*
 * softdoca tests: fault injection's specification (SOFTDOCA_FAULTS and
 * softdoca_faults_set) - what parses, what is refused and why - its
 * deterministic decisions, and the faults of the process's own calls: a
 * memory registration, a task allocation, a submission that fails.
 */
#include <stdlib.h>
#include <string.h>

#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>
#include <softdoca.h>

#include "core/faults.h"
#include "unit/testing.h"

static void test_parse(void **state)
{
	struct sdoca_fault_config c;
	char why[160];

	(void)state;
	assert_doca_ok(sdoca_faults_parse("", &c, why, sizeof(why)));
	assert_int_equal(c.n, 0);
	assert_doca_ok(sdoca_faults_parse(NULL, &c, why, sizeof(why)));
	assert_doca_ok(sdoca_faults_parse(" seed=42 ; delay:rate=0.25,ms=5,conn=3; drop:nth=7 ;"
	                                  "fail_submit:every=3,count=2,err=AGAIN;rnr;stop:ms=0",
	                                  &c, why, sizeof(why)));
	assert_int_equal(c.seed, 42);
	assert_int_equal(c.n, 5);
	assert_int_equal(c.items[0].kind, SDOCA_FAULT_DELAY);
	assert_true(c.items[0].rate == 0.25);
	assert_int_equal(c.items[0].ms, 5);
	assert_int_equal(c.items[0].conn, 3);
	assert_int_equal(c.items[1].nth, 7);
	assert_int_equal(c.items[1].conn, -1);
	assert_int_equal(c.items[2].every, 3);
	assert_int_equal(c.items[2].count, 2);
	assert_int_equal(c.items[2].err, DOCA_ERROR_AGAIN);
	assert_int_equal(c.items[3].kind, SDOCA_FAULT_RNR);
	assert_int_equal(c.items[3].nth, 1);  /* no trigger: the first event */
	assert_int_equal(c.items[3].ms, 100); /* rnr's default */
	assert_doca_ok(sdoca_faults_parse("fail_mmap:err=DOCA_ERROR_IO_FAILED", &c, NULL, 0));
	assert_int_equal(c.items[0].err, DOCA_ERROR_IO_FAILED);
}

static void test_refused(void **state)
{
	static const char *const bad[] = {
		"explode",                           /* unknown fault */
		"delay:nth",                         /* not key=value */
		"delay:nth=0",                       /* from 1 */
		"delay:nth=1,rate=0.5",              /* one trigger */
		"delay:rate=1.5",                    /* a probability */
		"delay:rate=nan",                    /* likewise */
		"drop:ms=5",                         /* ms is not drop's */
		"delay:ms=3600001",                  /* at most an hour */
		"fail_alloc:conn=1",                 /* a process fault has no connection */
		"drop:err=AGAIN",                    /* err is fail_*'s */
		"fail_submit:err=NOPE",              /* no such error */
		"seed=x",                            /* a number */
		"delay:nth=99999999999999999999999", /* too large */
		"delay:colour=red",                  /* unknown parameter */
		"delay:",                            /* ':' and no parameter */
		"drop:nth=2,",                       /* a trailing comma */
		"drop:,nth=2",                       /* a leading one */
		"delay:nth=2,,ms=5",                 /* an empty parameter */
		"delay:ms=010",                      /* a leading zero */
		"drop:nth=03",                       /* likewise */
		"seed=007",                          /* likewise */
		"seed=",                             /* no seed */
		"drop:nth=3,count=2",                /* nth fires once: count contradicts */
		"drop:count=2",                      /* count with the default nth=1 */
		"delay:ms=5,ms=6",                   /* a parameter twice */
		"drop:nth=2,nth=3",                  /* likewise */
	};
	struct sdoca_fault_config c;
	char why[160];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(sdoca_faults_parse(bad[i], &c, why, sizeof(why)),
		                 DOCA_ERROR_INVALID_VALUE);
		assert_true(why[0] != '\0'); /* it says what is wrong */
	}
	char many[400] = "";
	for (int i = 0; i < 17; i++)
		strcat(many, "drop;");
	assert_int_equal(sdoca_faults_parse(many, &c, why, sizeof(why)), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(softdoca_faults_set("explode"), DOCA_ERROR_INVALID_VALUE);
	/* "0" alone is a number; ms=0 is "for good" */
	assert_doca_ok(sdoca_faults_parse("seed=0;stop:ms=0", &c, why, sizeof(why)));
}

/* The reason comes first and the offending text is cut: an over-long
 * specification's message still says what is wrong. */
static void test_reason_first(void **state)
{
	struct sdoca_fault_config c;
	char spec[2048], why[160];

	(void)state;
	assert_int_equal(sdoca_faults_parse("drop:nth=2,", &c, why, sizeof(why)),
	                 DOCA_ERROR_INVALID_VALUE);
	assert_non_null(strstr(why, "empty parameter"));
	memset(spec, 'x', sizeof(spec) - 1);
	spec[sizeof(spec) - 1] = '\0';
	assert_int_equal(sdoca_faults_parse(spec, &c, why, sizeof(why)), DOCA_ERROR_INVALID_VALUE);
	assert_true(strncmp(why, "longer than 1024 characters", 27) == 0);
	assert_true(strlen(why) < 100); /* the text is cut */
	/* a long unknown parameter: reason first, text cut */
	strcpy(spec, "delay:");
	memset(spec + 6, 'k', 900);
	strcpy(spec + 906, "=1");
	assert_int_equal(sdoca_faults_parse(spec, &c, why, sizeof(why)), DOCA_ERROR_INVALID_VALUE);
	assert_true(strncmp(why, "unknown parameter", 17) == 0);
	assert_non_null(strstr(why, "...'"));
	assert_true(strlen(why) < 140);
}

/* SOFTDOCA_FAULTS that does not parse: the calls that start a program fail
 * (with a line on stderr) until the program sets its own faults. */
static void test_env_refused(void **state)
{
	struct doca_devinfo **list;
	struct doca_mmap *mmap;
	struct doca_pe *pe;
	uint32_t n;

	(void)state;
	sdoca_faults_from_env("drop:nth=2,");
	assert_int_equal(doca_devinfo_create_list(&list, &n), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_pe_create(&pe), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(doca_mmap_create(&mmap), DOCA_ERROR_INVALID_VALUE);
	assert_int_equal(sdoca_faults_env_check("a call"), DOCA_ERROR_INVALID_VALUE);
	/* a specification of the program's own replaces it */
	assert_doca_ok(softdoca_faults_set(""));
	assert_doca_ok(sdoca_faults_env_check("a call"));
	assert_doca_ok(doca_devinfo_create_list(&list, &n));
	assert_doca_ok(doca_devinfo_destroy_list(list));
	/* an empty one, or a good one, refuses nothing */
	sdoca_faults_from_env("");
	sdoca_faults_from_env(NULL);
	assert_doca_ok(sdoca_faults_env_check("a call"));
}

/* The same seed picks the same positions; another seed others; about the
 * rate of them. */
static void test_deterministic(void **state)
{
	struct sdoca_fault_config a, b;
	int same = 0, fired = 0;

	(void)state;
	assert_doca_ok(sdoca_faults_parse("seed=5;drop:rate=0.1", &a, NULL, 0));
	assert_doca_ok(sdoca_faults_parse("seed=6;drop:rate=0.1", &b, NULL, 0));
	for (uint64_t pos = 1; pos <= 10000; pos++) {
		bool x = sdoca_fault_fires(&a, 0, 2, pos, 0);

		assert_int_equal(x, sdoca_fault_fires(&a, 0, 2, pos, 0));
		same += x == sdoca_fault_fires(&b, 0, 2, pos, 0);
		fired += x;
	}
	assert_in_range(fired, 800, 1200);
	assert_true(same < 10000 - 100);
	/* count caps it; nth and every are positions */
	assert_doca_ok(sdoca_faults_parse("drop:every=4,count=2", &a, NULL, 0));
	assert_true(sdoca_fault_fires(&a, 0, 0, 8, 1));
	assert_false(sdoca_fault_fires(&a, 0, 0, 8, 2));
	assert_false(sdoca_fault_fires(&a, 0, 0, 7, 0));
}

static void noop_send(struct doca_rdma_task_send *t, union doca_data ud, union doca_data cud)
{
	(void)t;
	(void)ud;
	(void)cud;
}

static void wait_state(struct doca_pe *pe, struct doca_rdma *rdma, enum doca_ctx_states want)
{
	enum doca_ctx_states state;

	for (int i = 0; i < 100000; i++) {
		assert_doca_ok(doca_ctx_get_state(doca_rdma_as_ctx(rdma), &state));
		if (state == want)
			return;
		doca_pe_progress(pe);
	}
	fail_msg("context state %d, not %d", state, want);
}

/* The Nth registration, allocation and submission fail, with the status
 * asked for, and are counted; the calls around them succeed. */
static void test_process_faults(void **state)
{
	struct doca_dev *dev = open_loopback_dev();
	struct doca_rdma_task_send *task[3];
	struct doca_mmap *mmap[3];
	static uint8_t mem[4096];
	struct doca_rdma_connection *conn;
	struct doca_rdma *rdma;
	struct doca_pe *pe;
	const void *blob;
	doca_error_t st;
	size_t len;
	uint64_t before = softdoca_faults_injected();

	(void)state;
	assert_doca_ok(softdoca_faults_set(
	        "fail_mmap:nth=2;fail_alloc:nth=2,err=AGAIN;fail_submit:nth=1,err=IO_FAILED"));
	for (int i = 0; i < 3; i++) {
		assert_doca_ok(doca_mmap_create(&mmap[i]));
		assert_doca_ok(doca_mmap_set_memrange(mmap[i], mem, sizeof(mem)));
		assert_doca_ok(doca_mmap_add_dev(mmap[i], dev));
		if (i == 1)
			assert_doca_err(doca_mmap_start(mmap[i]), DOCA_ERROR_NO_MEMORY);
		else
			assert_doca_ok(doca_mmap_start(mmap[i]));
	}
	assert_doca_ok(doca_pe_create(&pe));
	assert_doca_ok(doca_rdma_create(dev, &rdma));
	assert_doca_ok(doca_rdma_task_send_set_conf(rdma, noop_send, noop_send, 4));
	assert_doca_ok(doca_pe_connect_ctx(pe, doca_rdma_as_ctx(rdma)));
	assert_doca_ok(doca_ctx_start(doca_rdma_as_ctx(rdma)));
	wait_state(pe, rdma, DOCA_CTX_STATE_RUNNING);
	assert_doca_ok(doca_rdma_export(rdma, &blob, &len, &conn));
	for (int i = 0; i < 3; i++) {
		st = doca_rdma_task_send_allocate_init(rdma, conn, NULL, (union doca_data){ 0 },
		                                       &task[i]);

		assert_int_equal(st, i == 1 ? DOCA_ERROR_AGAIN : DOCA_SUCCESS);
	}
	/* Not connected: refused anyway, but the injected failure comes first. */
	assert_doca_err(doca_task_submit(doca_rdma_task_send_as_task(task[0])),
	                DOCA_ERROR_IO_FAILED);
	assert_int_equal(softdoca_faults_injected() - before, 3);
	assert_doca_ok(softdoca_faults_set(NULL));
	doca_task_free(doca_rdma_task_send_as_task(task[0]));
	doca_task_free(doca_rdma_task_send_as_task(task[2]));
	st = doca_ctx_stop(doca_rdma_as_ctx(rdma));
	assert_true(st == DOCA_SUCCESS || st == DOCA_ERROR_IN_PROGRESS);
	wait_state(pe, rdma, DOCA_CTX_STATE_IDLE);
	assert_doca_ok(doca_rdma_destroy(rdma));
	assert_doca_ok(doca_pe_destroy(pe));
	for (int i = 0; i < 3; i++)
		assert_doca_ok(doca_mmap_destroy(mmap[i]));
	assert_doca_ok(doca_dev_close(dev));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),         cmocka_unit_test(test_refused),
		cmocka_unit_test(test_reason_first),  cmocka_unit_test(test_env_refused),
		cmocka_unit_test(test_deterministic), cmocka_unit_test(test_process_faults),
	};

	setenv("SOFTDOCA_DEVICES", "lo", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
