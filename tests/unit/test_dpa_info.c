/*
 * softdoca tests: the counters snapshot's DPA section as libdoca_dpa fills
 * it (src/dpa/info.c, docs/dpa.md 2.13), with a hand-made program image:
 * a DPA's program, device, last error and memory; a thread's state,
 * pending trigger, EU and activations; a completion context's depth
 * (populated, unread, held) from completions pushed as the RDMA path
 * pushes them; what survives the wire; the counters channel opening for a
 * DPA alone and closing with it; and snapshots taken while a DPA thread is
 * activated over and over (ThreadSanitizer runs this: label `threads`).
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "unit/testing.h"

#include <doca_dpa.h>
#include <doca_dpa_dev.h>
#include <softdoca.h>
#include <softdoca_dpa_app.h>

#include "dpa/comp.h"
#include "dpa/dpa.h"
#include "diag/diag.h"
#include "nic/nic.h"

static sem_t activated;

static void tkernel(uint64_t arg)
{
	(void)arg;
	sem_post(&activated);
	doca_dpa_dev_thread_reschedule();
}

static void tkernel_pack(va_list *ap, void *frame)
{
	*(uint64_t *)frame = va_arg(*ap, uint64_t);
}

static uint64_t tkernel_call(const void *frame)
{
	tkernel(*(const uint64_t *)frame);
	return 0;
}

static const struct softdoca_dpa_kernel kernels[] = {
	{ "info_kernel", SOFTDOCA_DPA_KERNEL_GLOBAL, 1, (void (*)(void))tkernel, sizeof(uint64_t),
	  _Alignof(uint64_t), tkernel_pack, tkernel_call },
};
static const struct softdoca_dpa_kernel_table tables[] = { { "i.c", kernels, 1 } };
static const struct softdoca_dpa_app_image image = { SOFTDOCA_DPA_APP_MAGIC,
	                                             SOFTDOCA_DPA_APP_LAYOUT, 1, "info_app",
	                                             tables };
#define APP ((struct doca_dpa_app *)(void *)&image)
#define TKERNEL ((doca_dpa_func_t *)(void (*)(void))tkernel)

struct fixture {
	struct doca_dev *dev;
	struct doca_dpa *dpa;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	f->dev = open_loopback_dev();
	assert_doca_ok(doca_dpa_create(f->dev, &f->dpa));
	assert_doca_ok(doca_dpa_set_app(f->dpa, APP));
	assert_doca_ok(doca_dpa_start(f->dpa));
	sem_init(&activated, 0, 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	assert_doca_ok(doca_dpa_destroy(f->dpa));
	assert_doca_ok(doca_dev_close(f->dev));
	sem_destroy(&activated);
	free(f);
	return 0;
}

/* Waits for one activation, at most 10 s (a hang fails). */
static void wait_activation(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 10;
	assert_int_equal(sem_timedwait(&activated, &ts), 0);
}

static struct doca_dpa_thread *thread_of_kernel(struct doca_dpa *dpa)
{
	struct doca_dpa_thread *t;
	assert_doca_ok(doca_dpa_thread_create(dpa, &t));
	assert_doca_ok(doca_dpa_thread_set_func_arg(t, TKERNEL, 1));
	return t;
}

static const struct softdoca_dpa_thread_counters *
find_thread(const struct softdoca_process_counters *pc, struct doca_dpa_thread *t)
{
	uint32_t id;
	assert_doca_ok(doca_dpa_thread_get_id(t, &id));
	for (uint32_t i = 0; i < pc->num_dpa_threads; i++)
		if (pc->dpa_threads[i].id == id)
			return &pc->dpa_threads[i];
	fail_msg("thread %u is not in the snapshot", id);
	return NULL;
}

static struct softdoca_process_counters *snapshot(void)
{
	struct softdoca_process_counters *pc;
	assert_doca_ok(diag_stats_collect(&pc));
	return pc;
}

static void push(struct doca_dpa_completion *c, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		struct sdoca_dpa_cqe cqe = { .type = 0, .user_data = i };
		assert_doca_ok(sdoca_dpa_completion_push(c, &cqe));
	}
}

/* Every field of a DPA and of its threads, read from the live objects,
 * and the same after the wire. */
static void test_fields(void **state)
{
	struct fixture *f = *state;
	struct doca_dpa_eu_affinity *aff;
	struct doca_dpa_completion *bound, *polled;
	struct doca_dpa_notification_completion *nc;
	doca_dpa_dev_completion_t h;
	doca_dpa_dev_uintptr_t mem;
	char ibdev[DOCA_DEVINFO_IBDEV_NAME_SIZE];

	assert_doca_ok(
	        doca_devinfo_get_ibdev_name(doca_dev_as_devinfo(f->dev), ibdev, sizeof(ibdev)));
	assert_doca_ok(doca_dpa_mem_alloc(f->dpa, 100, &mem));
	struct doca_dpa_thread *t = thread_of_kernel(f->dpa), *bare;
	assert_doca_ok(doca_dpa_thread_create(f->dpa, &bare));
	assert_doca_ok(doca_dpa_eu_affinity_create(f->dpa, &aff));
	assert_doca_ok(doca_dpa_eu_affinity_set(aff, 9));
	assert_doca_ok(doca_dpa_thread_set_affinity(t, aff));
	assert_doca_ok(doca_dpa_completion_create(f->dpa, 4, &bound));
	assert_doca_ok(doca_dpa_completion_set_thread(bound, t));
	assert_doca_ok(doca_dpa_completion_start(bound));
	assert_doca_ok(doca_dpa_completion_get_dpa_handle(bound, &h));
	assert_doca_ok(doca_dpa_completion_create(f->dpa, 4, &polled));
	assert_doca_ok(doca_dpa_completion_start(polled));
	assert_doca_ok(doca_dpa_notification_completion_create(f->dpa, t, &nc));
	assert_doca_ok(doca_dpa_thread_start(t));
	/* Armed at start: the first populates and disarms (a trigger, kept
	 * until run); the other two are held until it is armed again. */
	push(bound, 3);
	push(polled, 2);
	sdoca_dpa_set_error(f->dpa, DOCA_ERROR_BAD_STATE);

	struct softdoca_process_counters *pc = snapshot();
	assert_int_equal(pc->num_dpas, 1);
	const struct softdoca_dpa_counters *d = &pc->dpas[0];
	assert_string_equal(d->app_name, "info_app");
	assert_string_equal(d->ibdev_name, ibdev);
	assert_int_equal(d->last_error, DOCA_ERROR_BAD_STATE);
	assert_int_equal(d->num_threads, 2);
	assert_int_equal(d->mem_bytes, 100);
	assert_int_equal(d->mem_blocks, 1);
	assert_int_equal(d->started, 1);
	/* the polled context: populated as they come, while they fit */
	assert_int_equal(d->polled_completions, 1);
	assert_int_equal(d->polled_cq_populated, 2);
	assert_int_equal(d->polled_cq_unread, 2);
	assert_int_equal(d->polled_cq_held, 0);
	assert_int_equal(pc->num_dpa_threads, 2);
	const struct softdoca_dpa_thread_counters *c = find_thread(pc, t);
	assert_int_equal(c->dpa, 0);
	assert_string_equal(c->kernel, "info_kernel");
	assert_int_equal(c->state, SOFTDOCA_DPA_THREAD_STARTED);
	assert_int_equal(c->trigger_pending, 1);
	assert_int_equal(c->rank, 0);
	assert_int_equal(c->num_ranks, 1);
	assert_int_equal(c->eu, 9);
	assert_int_equal(c->activations, 0);
	assert_int_equal(c->ns_since_activation, SOFTDOCA_DPA_NEVER);
	assert_int_equal(c->completions, 1); /* the notification completion is none */
	assert_int_equal(c->cq_populated, 1);
	assert_int_equal(c->cq_unread, 1);
	assert_int_equal(c->cq_held, 2);
	c = find_thread(pc, bare);
	assert_string_equal(c->kernel, "");
	assert_int_equal(c->state, SOFTDOCA_DPA_THREAD_CREATED);
	assert_int_equal(c->num_ranks, 0);
	assert_int_equal(c->eu, SOFTDOCA_DPA_NO_EU);
	assert_int_equal(c->completions, 0);

	/* the wire keeps all of it */
	uint8_t *buf;
	size_t len;
	struct softdoca_process_counters *back;
	assert_doca_ok(diag_stats_encode(pc, &buf, &len));
	assert_doca_ok(diag_stats_decode(buf, len, &back));
	assert_int_equal(back->num_dpas, 1);
	assert_int_equal(back->num_dpa_threads, 2);
	assert_memory_equal(back->dpas, pc->dpas, sizeof(*pc->dpas));
	for (uint32_t i = 0; i < 2; i++)
		assert_memory_equal(&back->dpa_threads[i], &pc->dpa_threads[i],
		                    sizeof(pc->dpa_threads[i]));
	free(buf);
	nic_stats_free(back);
	nic_stats_free(pc);

	/* Run: the kept trigger activates it once; the kernel reads nothing,
	 * so the depth stays; arming again populates the held two. */
	assert_doca_ok(doca_dpa_thread_run(t));
	wait_activation();
	/* unacknowledged completions: arming triggers at once */
	assert_doca_ok(sdoca_dpa_completion_request_notification(h));
	wait_activation();
	pc = snapshot();
	c = find_thread(pc, t);
	assert_int_equal(c->activations, 2);
	assert_true(c->ns_since_activation < 10000000000ull);
	assert_int_equal(c->cq_populated, 3);
	assert_int_equal(c->cq_held, 0);
	nic_stats_free(pc);

	/* Stopped: shown as such until destroyed; destroyed threads go. */
	assert_doca_ok(doca_dpa_notification_completion_destroy(nc));
	assert_doca_ok(doca_dpa_completion_destroy(bound));
	assert_doca_ok(doca_dpa_completion_destroy(polled));
	assert_doca_ok(doca_dpa_thread_stop(t));
	assert_doca_ok(doca_dpa_thread_destroy(t));
	assert_doca_ok(doca_dpa_thread_destroy(bare));
	assert_doca_ok(doca_dpa_eu_affinity_destroy(aff));
	assert_doca_ok(doca_dpa_mem_free(f->dpa, mem));
	assert_doca_ok(doca_dpa_stop(f->dpa));
	pc = snapshot();
	assert_int_equal(pc->num_dpas, 1);
	assert_int_equal(pc->dpas[0].started, 0);
	assert_int_equal(pc->dpas[0].mem_bytes, 0);
	assert_int_equal(pc->num_dpa_threads, 0);
	nic_stats_free(pc);
}

/* A DPA alone opens the counters channel and its destroy closes it: a DPA
 * program without RDMA can be looked at. */
static void test_channel_for_dpa(void **state)
{
	struct fixture *f = *state;
	struct softdoca_process_counters *pc;

	assert_doca_ok(diag_stats_query((uint32_t)getpid(), &pc));
	assert_int_equal(pc->num_dpas, 1);
	assert_string_equal(pc->dpas[0].app_name, "info_app");
	nic_stats_free(pc);
	/* a second DPA, destroyed: the first keeps the channel */
	struct doca_dpa *other;
	assert_doca_ok(doca_dpa_create(f->dev, &other));
	assert_doca_ok(doca_dpa_set_app(other, APP));
	assert_doca_ok(doca_dpa_start(other));
	assert_doca_ok(diag_stats_query((uint32_t)getpid(), &pc));
	assert_int_equal(pc->num_dpas, 2);
	nic_stats_free(pc);
	assert_doca_ok(doca_dpa_destroy(other));
	assert_doca_ok(diag_stats_query((uint32_t)getpid(), &pc));
	assert_int_equal(pc->num_dpas, 1);
	nic_stats_free(pc);
	/* the last one gone (teardown's DPA is a new one) */
	assert_doca_ok(doca_dpa_destroy(f->dpa));
	assert_doca_err(diag_stats_query((uint32_t)getpid(), &pc), DOCA_ERROR_NOT_FOUND);
	assert_doca_ok(doca_dpa_create(f->dev, &f->dpa));
	/* created, not started: no channel yet */
	assert_doca_err(diag_stats_query((uint32_t)getpid(), &pc), DOCA_ERROR_NOT_FOUND);
}

struct notifier {
	doca_dpa_dev_notification_completion_t handle;
	atomic_bool stop;
};

static void *notify_loop(void *arg)
{
	struct notifier *n = arg;
	while (!atomic_load(&n->stop)) {
		doca_dpa_dev_thread_notify(n->handle);
		sched_yield();
	}
	return NULL;
}

/* Snapshots while a DPA thread is activated from another thread: every
 * object is read under its lock (TSan), activations only grow. */
static void test_snapshots_while_running(void **state)
{
	struct fixture *f = *state;
	struct doca_dpa_notification_completion *nc;
	struct notifier n = { 0 };
	pthread_t notifier;

	struct doca_dpa_thread *t = thread_of_kernel(f->dpa);
	assert_doca_ok(doca_dpa_notification_completion_create(f->dpa, t, &nc));
	assert_doca_ok(doca_dpa_thread_start(t));
	assert_doca_ok(doca_dpa_notification_completion_start(nc));
	assert_doca_ok(doca_dpa_notification_completion_get_dpa_handle(nc, &n.handle));
	assert_doca_ok(doca_dpa_thread_run(t));
	assert_int_equal(pthread_create(&notifier, NULL, notify_loop, &n), 0);
	wait_activation();
	uint64_t last = 1;
	for (int i = 0; i < 200; i++) {
		struct softdoca_process_counters *pc;
		assert_doca_ok(diag_stats_query((uint32_t)getpid(), &pc));
		const struct softdoca_dpa_thread_counters *c = find_thread(pc, t);
		assert_true(c->activations >= last);
		assert_true(c->state == SOFTDOCA_DPA_THREAD_RUNNABLE ||
		            c->state == SOFTDOCA_DPA_THREAD_RUNNING);
		last = c->activations;
		nic_stats_free(pc);
	}
	atomic_store(&n.stop, true);
	pthread_join(notifier, NULL);
	assert_doca_ok(doca_dpa_notification_completion_destroy(nc));
	assert_doca_ok(doca_dpa_thread_stop(t));
	assert_doca_ok(doca_dpa_thread_destroy(t));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fields, setup, teardown),
		cmocka_unit_test_setup_teardown(test_channel_for_dpa, setup, teardown),
		cmocka_unit_test_setup_teardown(test_snapshots_while_running, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
