/*
 * softdoca integration tests: after the first fatal completion on a
 * connection nothing later succeeds, as on an RC QP, which a fatal error
 * moves to the error state and whose later work requests are all flushed.
 *
 * Each round the initiator submits FLUSH_TASKS tasks at once (reads and
 * writes alternating, or sends) on a fresh connection with a fault set to
 * fire near task FLUSH_NTH; one task then fails with the fault's fatal
 * status, every one before it succeeds and every one after it completes with
 * the flush status, in submission order. Answers that arrive for the later
 * tasks before the failure (a lost read response among later ones that came)
 * or after it (a delayed one, a resumed target's) must not make them
 * succeed. Rounds repeat to catch the race.
 *
 *   peer flush_<kind> server|client ... [--rounds N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <softdoca.h>

#include "peer.h"

#define FLUSH_NTH 4                 /* the fault fires about here */
#define FLUSH_TASKS (FLUSH_NTH + 8) /* tasks submitted at once */
#define FLUSH_CHUNK 4096
#define FLUSH_MEM (2 * FLUSH_TASKS * FLUSH_CHUNK)
#define FLUSH_TIMEOUT_MS "300"

struct flush_case {
	const char *name;
	const char *server_faults;
	const char *client_faults;
	enum { MIXED, READS, SENDS } tasks;
	bool may_miss;      /* a round may see no failure (the fault came too late) */
	doca_error_t fatal; /* the failed task's status */
	doca_error_t flush; /* every later task's */
};

/* A client's messages: the peer's HELLO, then one answer per read (writes'
 * ACKs are cumulative: a lost one may be covered by the next). The server
 * may take every request before its stop begins. */
static const struct flush_case flush_cases[] = {
	{ "flush_drop", NULL, "drop:nth=4", READS, false, DOCA_ERROR_TIME_OUT,
	  DOCA_ERROR_CONNECTION_ABORTED },
	{ "flush_delay", NULL, "delay:nth=4,ms=1000", READS, false, DOCA_ERROR_TIME_OUT,
	  DOCA_ERROR_CONNECTION_ABORTED },
	{ "flush_vanish", NULL, "vanish:nth=4", READS, false, DOCA_ERROR_TIME_OUT,
	  DOCA_ERROR_CONNECTION_ABORTED },
	{ "flush_break", NULL, "break:nth=5", MIXED, false, DOCA_ERROR_TIME_OUT,
	  DOCA_ERROR_CONNECTION_ABORTED },
	{ "flush_stop", "stop:nth=2,ms=1000", NULL, MIXED, true, DOCA_ERROR_TIME_OUT,
	  DOCA_ERROR_CONNECTION_ABORTED },
	{ "flush_rnr", "rnr:nth=4,ms=3000", NULL, SENDS, false, DOCA_ERROR_TIME_OUT,
	  DOCA_ERROR_CONNECTION_ABORTED },
};

static const struct flush_case *flush_case(const struct peer *p)
{
	for (size_t i = 0; i < sizeof(flush_cases) / sizeof(flush_cases[0]); i++)
		if (strcmp(flush_cases[i].name, p->scenario) == 0)
			return &flush_cases[i];
	FAIL("no flush case %s", p->scenario);
}

static void flush_server(struct peer *p)
{
	const struct flush_case *c = flush_case(p);
	int rounds = p->rounds ? p->rounds : 1;

	if (c->server_faults)
		CHECK(softdoca_faults_set(c->server_faults));
	oob_accept(p);
	for (int round = 0; round < rounds; round++) {
		struct posted_recv recv[FLUSH_TASKS];
		char *msg;

		server_prepare(p, FLUSH_MEM, ALL_RDMA);
		handshake(p, 0);
		if (c->tasks == SENDS)
			for (int i = 0; i < FLUSH_TASKS; i++)
				post_recv(p, &recv[i],
				          local_buf(p, (size_t)i * FLUSH_CHUNK, FLUSH_CHUNK, 0));
		oob_send_str(p->oob[0], "ready");
		msg = wait_message(p, 0); /* serving meanwhile (a stopped NIC goes on) */
		EXPECT(strcmp(msg, "done") == 0, "expected done, got %s", msg);
		free(msg);
		/* Stopping flushes the receives left; IDLE once they are freed. */
		if (c->tasks == SENDS)
			(void)doca_ctx_stop(doca_rdma_as_ctx(p->rdma));
		if (c->tasks == SENDS)
			for (int i = 0; i < FLUSH_TASKS; i++) {
				peer_wait(p, &recv[i].r, WAIT_MS);
				free_recv(&recv[i]);
			}
		peer_stop(p);
		peer_release(p);
		oob_send_str(p->oob[0], "released");
	}
}

struct flush_task {
	struct doca_task *task;
	struct doca_buf *local, *remote;
	struct result r;
};

static void submit_one(struct peer *p, const struct flush_case *c, struct flush_task *t, int i)
{
	size_t off = (size_t)i * FLUSH_CHUNK;

	t->remote = NULL;
	if (c->tasks == SENDS) {
		struct doca_rdma_task_send *s;

		t->local = local_buf(p, off, 64, 64);
		CHECK(doca_rdma_task_send_allocate_init(p->rdma, p->conn[0], t->local,
		                                        result_data(&t->r), &s));
		t->task = doca_rdma_task_send_as_task(s);
	} else if (c->tasks == READS || i % 2 == 0) {
		struct doca_rdma_task_read *rd;

		t->remote = remote_buf(p, off, FLUSH_CHUNK, FLUSH_CHUNK);
		t->local = local_buf(p, FLUSH_MEM / 2 + off, FLUSH_CHUNK, 0);
		CHECK(doca_rdma_task_read_allocate_init(p->rdma, p->conn[0], t->remote, t->local,
		                                        result_data(&t->r), &rd));
		t->task = doca_rdma_task_read_as_task(rd);
	} else {
		struct doca_rdma_task_write *wr;

		t->local = local_buf(p, off, FLUSH_CHUNK, FLUSH_CHUNK);
		t->remote = remote_buf(p, off, FLUSH_CHUNK, 0);
		CHECK(doca_rdma_task_write_allocate_init(p->rdma, p->conn[0], t->local, t->remote,
		                                         result_data(&t->r), &wr));
		t->task = doca_rdma_task_write_as_task(wr);
	}
	CHECK(doca_task_submit(t->task));
}

/* One round: the tasks' statuses in submission order follow the rule;
 * whether one failed. */
static bool flush_round(struct peer *p, const struct flush_case *c, int round)
{
	struct flush_task t[FLUSH_TASKS];
	uint64_t deadline = now_ms() + WAIT_MS;
	int failed = -1, done;

	/* A first request, waited for: the connection is set up (UCX's wire-up
	 * done) before a break closes it. */
	if (strcmp(c->name, "flush_break") == 0) {
		struct doca_buf *src = local_buf(p, 0, 64, 64), *dst = remote_buf(p, 0, 64, 0);
		struct result r;

		do_write(p, src, dst, &r);
		expect_status(&r, DOCA_SUCCESS, "the first write");
		put(src);
		put(dst);
	}
	p->completions = 0;
	for (int i = 0; i < FLUSH_TASKS; i++)
		submit_one(p, c, &t[i], i);
	do {
		doca_pe_progress(p->pe);
		done = 0;
		for (int i = 0; i < FLUSH_TASKS; i++)
			done += t[i].r.done;
		EXPECT(now_ms() < deadline, "round %d: %d of %d tasks completed", round, done,
		       FLUSH_TASKS);
	} while (done < FLUSH_TASKS);
	for (int i = 0; i < FLUSH_TASKS; i++) {
		doca_error_t st = t[i].r.status;

		EXPECT(t[i].r.order == i + 1, "round %d: task %d completed as number %d", round, i,
		       t[i].r.order);
		if (failed < 0 && st != DOCA_SUCCESS) {
			failed = i;
			EXPECT(st == c->fatal,
			       "round %d: task %d, the first to fail, failed with %s, "
			       "expected %s",
			       round, i, doca_error_get_name(st), doca_error_get_name(c->fatal));
		} else if (failed >= 0) {
			EXPECT(st == c->flush,
			       "round %d: task %d after the failed task %d completed with %s, "
			       "expected the flush status %s",
			       round, i, failed, doca_error_get_name(st),
			       doca_error_get_name(c->flush));
		}
	}
	EXPECT(c->may_miss || (failed >= 0 && failed < FLUSH_TASKS - 1),
	       "round %d: the fault failed no task, or only the last (%d)", round, failed);
	if (failed >= 0)
		printf("round %d: tasks 0..%d succeeded, %d failed with %s, %d flushed\n", round,
		       failed - 1, failed, doca_error_get_name(c->fatal), FLUSH_TASKS - 1 - failed);
	for (int i = 0; i < FLUSH_TASKS; i++) {
		doca_task_free(t[i].task);
		put(t[i].local);
		put(t[i].remote);
	}
	/* A stop (may_miss) may begin only after the target answered all but
	 * the last request (TCP hands it the whole batch at once): the last
	 * one's TIME_OUT is still the fault, with nothing after it to flush. */
	return failed >= 0 && (c->may_miss || failed < FLUSH_TASKS - 1);
}

static void flush_client(struct peer *p)
{
	const struct flush_case *c = flush_case(p);
	int rounds = p->rounds ? p->rounds : 1, failing = 0;

	if (c->client_faults)
		CHECK(softdoca_faults_set(c->client_faults));
	setenv("SOFTDOCA_TIMEOUT_MS", FLUSH_TIMEOUT_MS, 1);
	p->num_tasks = 2 * FLUSH_TASKS;
	for (int round = 0; round < rounds; round++) {
		p->rnr_retry = c->tasks == SENDS ? 1 : 7;
		client_prepare(p, FLUSH_MEM);
		handshake(p, 0);
		oob_expect(p->oob[0], "ready", WAIT_MS);
		failing += flush_round(p, c, round);
		peer_stop(p); /* IDLE already if a task failed, as on RC */
		oob_send_str(p->oob[0], "done");
		oob_expect(p->oob[0], "released", WAIT_MS);
		peer_release(p);
	}
	printf("%s: %d of %d rounds failed a task\n", c->name, failing, rounds);
	/* A stop may begin after the target took every request. */
	EXPECT(c->may_miss ? failing > 0 : failing == rounds,
	       "the fault failed a task in %d rounds of %d", failing, rounds);
}

const struct scenario flush_scenarios[] = {
	{ "flush_drop", flush_server, flush_client },
	{ "flush_delay", flush_server, flush_client },
	{ "flush_vanish", flush_server, flush_client },
	{ "flush_break", flush_server, flush_client },
	{ "flush_stop", flush_server, flush_client },
	{ "flush_rnr", flush_server, flush_client },
	{ NULL, NULL, NULL },
};
