/*
 * softdoca integration tests: a target that is stopped (SIGSTOP) while it
 * serves reads and writes, stays stopped past the initiator's timeout, and
 * is continued (SIGCONT) after the initiator failed the connection. The
 * resumed target finds its transport gone under payloads still landing and
 * read responses still leaving; it must clean up without touching freed
 * memory (ASan runs this) and be ready for the next round.
 *
 * What the initiator must accept is what RC does: once the timeout expires
 * the QP is in error and the context leaves RUNNING; requests the target
 * answered before it stopped may still complete with success after that,
 * beside the flushed ones and in any slot order, and no task may be
 * allocated any more. A target slowed past the timeout by a loaded host
 * (not yet stopped) fails the connection the same way: it is stopped and
 * resumed all the same, and the round says so. Every PAUSE_EVERY-th round
 * the initiator makes no progress call for twice the timeout after telling
 * the target to stop, as a loaded host deschedules it: the answers that came
 * before the target stopped then complete beside the failure, in one
 * progress call.
 *
 *   peer resume_target server|client ... [--rounds N]
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "peer.h"

#define RESUME_WINDOW 8
#define RESUME_LEN MiB
#define RESUME_TIMEOUT_MS 400 /* the initiator gives up on the stopped target soon */
#define PAUSE_EVERY 5
/* Small operations between the large ones: some eager, some not. */
static const size_t small_lens[] = { 8, 4096, 20000 };

static void resume_server(struct peer *p)
{
	int rounds = p->rounds ? p->rounds : 1;
	char pid[32];

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	oob_accept(p);
	for (int round = 0; round < rounds; round++) {
		char *word;

		p->rdma_permissions = ALL_RDMA;
		p->rnr_retry = 7;
		peer_alloc_memory(p, 2 * RESUME_WINDOW * RESUME_LEN, ALL_RDMA);
		pattern_fill(p->mem, p->mem_len, 3);
		peer_create_rdma(p);
		peer_start(p);
		peer_connect(p, 0);
		peer_exchange_mmap(p, 0);
		oob_send_str(p->oob[0], pid);
		/* Serving through the service thread until told to stop. */
		word = oob_recv(p->oob[0], &(size_t){ 0 }, WAIT_MS);
		EXPECT(strcmp(word, "stop") == 0, "expected stop, got %s", word);
		free(word);
		raise(SIGSTOP);
		/* Continued: the initiator has failed the connection meanwhile.
		 * Whatever this side notices first (its transport failing, or
		 * nothing on shared memory), it stops cleanly. */
		word = wait_message(p, 0);
		EXPECT(strcmp(word, "next") == 0, "expected next, got %s", word);
		free(word);
		peer_stop(p);
		peer_release(p);
		oob_send_str(p->oob[0], "released");
	}
}

struct stream {
	struct doca_task *task[RESUME_WINDOW];
	struct doca_buf *local[RESUME_WINDOW], *remote[RESUME_WINDOW];
	struct result r[RESUME_WINDOW];
	uint64_t n;
};

/* Slot i alternates reads and writes of various sizes, each in its own
 * part of both sides' memory (the second half: reads land there). */
static void submit(struct peer *p, struct stream *s, int i)
{
	size_t len = (s->n % 4 == 3) ? small_lens[s->n % 3] : RESUME_LEN;
	size_t off = (size_t)i * RESUME_LEN;
	bool read = (s->n++ + (size_t)i) % 2;

	if (s->task[i])
		doca_task_free(s->task[i]);
	put(s->local[i]);
	put(s->remote[i]);
	if (read) {
		struct doca_rdma_task_read *t;

		s->remote[i] = remote_buf(p, off, len, len);
		s->local[i] = local_buf(p, RESUME_WINDOW * RESUME_LEN + off, len, 0);
		CHECK(doca_rdma_task_read_allocate_init(p->rdma, p->conn[0], s->remote[i],
		                                        s->local[i], result_data(&s->r[i]), &t));
		s->task[i] = doca_rdma_task_read_as_task(t);
	} else {
		struct doca_rdma_task_write *t;

		s->local[i] = local_buf(p, off, len, len);
		s->remote[i] = remote_buf(p, off, len, 0);
		CHECK(doca_rdma_task_write_allocate_init(p->rdma, p->conn[0], s->local[i],
		                                         s->remote[i], result_data(&s->r[i]), &t));
		s->task[i] = doca_rdma_task_write_as_task(t);
	}
	if (doca_task_submit(s->task[i]) != DOCA_SUCCESS) {
		doca_task_free(s->task[i]);
		s->task[i] = NULL;
	}
}

/* How a round went, from the initiator's side. */
struct round_outcome {
	uint64_t completed;
	uint64_t late_successes; /* completed with success after the context failed */
	bool stopped_first;      /* the target was told to stop before the failure */
};

/* The initiator's thread kept off the CPU (no progress call) for ms. */
static void descheduled(int ms)
{
	struct timespec t = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };

	while (nanosleep(&t, &t) != 0)
		;
}

/* Streams until the connection fails (the stopped target times out); the
 * target is told to stop after the first few operations, or at the failure
 * if it came first. pause: the descheduled initiator. */
static void stream_until_failure(struct peer *p, bool pause, struct round_outcome *out)
{
	struct stream s = { 0 };
	uint64_t completed = 0, late = 0, deadline = now_ms() + WAIT_MS;
	enum doca_ctx_states state;
	bool stopped = false, failing = false;

	for (int i = 0; i < RESUME_WINDOW; i++)
		submit(p, &s, i);
	for (;;) {
		doca_pe_progress(p->pe);
		/* States change only in progress calls: this one holds for the
		 * completions it delivered. */
		CHECK(doca_ctx_get_state(doca_rdma_as_ctx(p->rdma), &state));
		failing |= state != DOCA_CTX_STATE_RUNNING;
		for (int i = 0; i < RESUME_WINDOW; i++) {
			if (!s.task[i] || !s.r[i].done)
				continue;
			completed++;
			late += failing && s.r[i].status == DOCA_SUCCESS;
			failing |= s.r[i].status != DOCA_SUCCESS;
			if (failing) {
				doca_task_free(s.task[i]);
				s.task[i] = NULL;
			} else {
				submit(p, &s, i);
			}
		}
		if (completed >= 2 * RESUME_WINDOW && !stopped && !failing) {
			oob_send_str(p->oob[0], "stop");
			stopped = true;
			if (pause)
				descheduled(2 * RESUME_TIMEOUT_MS);
		}
		if (state == DOCA_CTX_STATE_IDLE)
			break;
		EXPECT(now_ms() < deadline, "the stopped target was not noticed");
	}
	for (int i = 0; i < RESUME_WINDOW; i++) {
		EXPECT(!s.task[i], "task %d never completed", i);
		put(s.local[i]);
		put(s.remote[i]);
	}
	if (!stopped)
		oob_send_str(p->oob[0], "stop");
	*out = (struct round_outcome){ completed, late, stopped };
}

/* Waits until the process is in the stopped state ('T' in /proc/PID/stat). */
static void wait_stopped(pid_t pid)
{
	uint64_t deadline = now_ms() + WAIT_MS;
	char path[64], stat[256];

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (;;) {
		FILE *f = fopen(path, "r");
		char *end = NULL;

		EXPECT(f, "the target is gone: %s", strerror(errno));
		if (fgets(stat, sizeof(stat), f))
			end = strrchr(stat, ')');
		fclose(f);
		if (end && end[1] == ' ' && end[2] == 'T')
			return;
		EXPECT(now_ms() < deadline, "the target never stopped");
		sched_yield(); /* another process's state: no event to wait on */
	}
}

static void resume_client(struct peer *p)
{
	int rounds = p->rounds ? p->rounds : 1;
	char timeout[16];

	snprintf(timeout, sizeof(timeout), "%d", RESUME_TIMEOUT_MS);
	setenv("SOFTDOCA_TIMEOUT_MS", timeout, 1);
	for (int round = 0; round < rounds; round++) {
		struct round_outcome out;
		pid_t target;
		char *pid;

		client_prepare(p, 2 * RESUME_WINDOW * RESUME_LEN);
		pattern_fill(p->mem, p->mem_len, 5);
		handshake(p, 0);
		pid = oob_recv(p->oob[0], &(size_t){ 0 }, WAIT_MS);
		target = (pid_t)atoi(pid);
		free(pid);
		EXPECT(target > 0, "no target pid");
		stream_until_failure(p, round % PAUSE_EVERY == PAUSE_EVERY - 1, &out);
		/* The target stays stopped until this side has failed: resume it
		 * (once it has stopped: a slow one may not have yet). */
		wait_stopped(target);
		EXPECT(kill(target, SIGCONT) == 0, "cannot continue the target");
		oob_send_str(p->oob[0], "next");
		oob_expect(p->oob[0], "released", WAIT_MS);
		peer_release(p);
		printf("round %d: %lu operations, then the %s target timed out; %lu succeeded "
		       "after the failure\n",
		       round, (unsigned long)out.completed,
		       out.stopped_first ? "stopped" : "slow (not yet stopped)",
		       (unsigned long)out.late_successes);
	}
}

const struct scenario resume_scenarios[] = {
	{ "resume_target", resume_server, resume_client },
	{ NULL, NULL, NULL },
};
