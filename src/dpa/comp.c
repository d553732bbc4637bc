/*
 * libdoca_dpa: completion contexts and notification completions.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libdoca_dpa: completion contexts and notification completions
 * (docs/dpa.md 2.7). A completion context is a queue with arm/ack rules:
 * completions are populated into its ring only while it is armed, the first
 * one populated disarms it and triggers its thread, and request_notification
 * triggers at once while unacknowledged completions are queued. In this step
 * nothing produces completions yet (RDMA on the DPA data path is step 3,
 * which calls sdoca_dpa_completion_push); notification completions trigger
 * their thread from doca_dpa_dev_thread_notify.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/sdk_log.h"
#include "dpa/comp.h"
#include "dpa/info.h"

SDOCA_LOG_MODULE(dpa_comp);

/* Device handles: tag:8 | generation:24 | slot:32 (2.2), one table of
 * both kinds; a stale or foreign value is found out, never dereferenced.
 * A slot's key is its tag:8 | generation:24. Changes take the lock; a
 * completion context's lookup, several per activation of its thread, reads
 * without it (handle_find_lockfree). */
#define HANDLE_SLOTS 1024u

static struct {
	pthread_mutex_t lock;
	_Atomic(void *) obj[HANDLE_SLOTS];
	_Atomic uint32_t key[HANDLE_SLOTS];
} table = { .lock = PTHREAD_MUTEX_INITIALIZER };

static uint32_t handle_key(uint64_t h)
{
	return (uint32_t)(h >> 32);
}

static uint64_t handle_register(uint8_t tag, void *obj)
{
	uint64_t h = 0;
	pthread_mutex_lock(&table.lock);
	for (uint32_t slot = 0; slot < HANDLE_SLOTS; slot++) {
		if (atomic_load_explicit(&table.obj[slot], memory_order_relaxed) == NULL) {
			uint32_t generation =
			        (atomic_load_explicit(&table.key[slot], memory_order_relaxed) + 1) &
			        0xffffffu;
			uint32_t key = (uint32_t)tag << 24 | generation;

			/* The key before the object: a lock-free reader that sees
			 * this object sees this key too (handle_find_lockfree). */
			atomic_store_explicit(&table.key[slot], key, memory_order_release);
			atomic_store_explicit(&table.obj[slot], obj, memory_order_release);
			h = (uint64_t)key << 32 | slot;
			break;
		}
	}
	pthread_mutex_unlock(&table.lock);
	return h;
}

static void handle_unregister(uint64_t h)
{
	pthread_mutex_lock(&table.lock);
	atomic_store_explicit(&table.obj[(uint32_t)h % HANDLE_SLOTS], NULL, memory_order_release);
	pthread_mutex_unlock(&table.lock);
}

/* Caller holds table.lock: objects found stay alive until it is released. */
static void *handle_find_locked(uint8_t tag, uint64_t h)
{
	uint32_t slot = (uint32_t)h;
	if (h >> 56 != tag || slot >= HANDLE_SLOTS ||
	    atomic_load_explicit(&table.key[slot], memory_order_relaxed) != handle_key(h))
		return NULL;
	return atomic_load_explicit(&table.obj[slot], memory_order_relaxed);
}

/* Without the lock: the caller keeps the object alive otherwise. The key
 * read before and after the object brackets it: a slot given to another
 * object in between has another key (the generation), so an object is
 * returned only with the key it was registered with. */
static void *handle_find_lockfree(uint8_t tag, uint64_t h)
{
	uint32_t slot = (uint32_t)h;
	if (h >> 56 != tag || slot >= HANDLE_SLOTS)
		return NULL;
	uint32_t before = atomic_load_explicit(&table.key[slot], memory_order_acquire);
	void *obj = atomic_load_explicit(&table.obj[slot], memory_order_acquire);
	uint32_t after = atomic_load_explicit(&table.key[slot], memory_order_acquire);
	return before == handle_key(h) && after == before ? obj : NULL;
}

/* ---------------------------------------------------------------- notify */

struct doca_dpa_notification_completion {
	struct doca_dpa *dpa;
	struct doca_dpa_thread *thread;
	uint64_t handle; /* 0 unless started */
};

bool sdoca_dpa_notify(uint64_t h)
{
	pthread_mutex_lock(&table.lock);
	struct doca_dpa_notification_completion *nc = handle_find_locked(SDOCA_DPA_TAG_NOTIFY, h);
	if (nc != NULL)
		sdoca_dpa_thread_trigger(nc->thread);
	pthread_mutex_unlock(&table.lock);
	return nc != NULL;
}

DOCA_EXPERIMENTAL doca_error_t
doca_dpa_notification_completion_create(struct doca_dpa *dpa, struct doca_dpa_thread *dpa_thread,
                                        struct doca_dpa_notification_completion **notify_comp)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(dpa_thread) || !sdoca_arg_valid(notify_comp))
		return DOCA_ERROR_INVALID_VALUE;
	if (!sdoca_dpa_thread_of(dpa_thread, dpa))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "%s: the thread is of another DPA",
		                  __func__);
	struct doca_dpa_notification_completion *nc = calloc(1, sizeof(*nc));
	if (nc == NULL)
		return sdoca_fail(DOCA_ERROR_NO_MEMORY, "%s: no memory", __func__);
	nc->dpa = dpa;
	nc->thread = dpa_thread;
	sdoca_dpa_thread_bind(dpa_thread, 1);
	*notify_comp = nc;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t
doca_dpa_notification_completion_start(struct doca_dpa_notification_completion *notify_comp)
{
	if (!sdoca_arg_valid(notify_comp))
		return DOCA_ERROR_INVALID_VALUE;
	if (notify_comp->handle != 0)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: started already", __func__);
	if (!notify_comp->dpa->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: the DPA is not started", __func__);
	notify_comp->handle = handle_register(SDOCA_DPA_TAG_NOTIFY, notify_comp);
	if (notify_comp->handle == 0)
		return sdoca_fail(DOCA_ERROR_FULL, "%s: %u device handles in use", __func__,
		                  HANDLE_SLOTS);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t
doca_dpa_notification_completion_stop(struct doca_dpa_notification_completion *notify_comp)
{
	if (!sdoca_arg_valid(notify_comp))
		return DOCA_ERROR_INVALID_VALUE;
	if (notify_comp->handle == 0)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: not started", __func__);
	handle_unregister(notify_comp->handle);
	notify_comp->handle = 0;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t
doca_dpa_notification_completion_destroy(struct doca_dpa_notification_completion *notify_comp)
{
	if (!sdoca_arg_valid(notify_comp))
		return DOCA_ERROR_INVALID_VALUE;
	/* DOCA's samples destroy started objects: stop first. */
	if (notify_comp->handle != 0)
		handle_unregister(notify_comp->handle);
	sdoca_dpa_thread_bind(notify_comp->thread, -1);
	free(notify_comp);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_notification_completion_get_thread(
        struct doca_dpa_notification_completion *notify_comp, struct doca_dpa_thread **dpa_thread)
{
	if (!sdoca_arg_valid(notify_comp) || !sdoca_arg_valid(dpa_thread))
		return DOCA_ERROR_INVALID_VALUE;
	*dpa_thread = notify_comp->thread;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_notification_completion_get_dpa_handle(
        struct doca_dpa_notification_completion *notify_comp,
        doca_dpa_dev_notification_completion_t *handle)
{
	if (!sdoca_arg_valid(notify_comp) || !sdoca_arg_valid(handle))
		return DOCA_ERROR_INVALID_VALUE;
	if (notify_comp->handle == 0)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: not started", __func__);
	*handle = notify_comp->handle;
	return DOCA_SUCCESS;
}

/* ----------------------------------------------------- completion contexts */

struct doca_dpa_completion {
	struct sdoca_cq_sink sink; /* first: what doca_rdma_dpa_completion_attach keeps */
	struct doca_dpa *dpa;
	struct doca_dpa_thread *thread; /* NULL: polled */
	unsigned int queue_size;
	uint64_t handle; /* 0 unless started */
	pthread_mutex_t lock;
	struct sdoca_dpa_cqe *ring; /* queue_size slots */
	/* completions not populated yet, oldest first (never dropped) */
	struct sdoca_dpa_cqe *held;
	size_t num_held, cap_held;
	/* Written under the lock; read without it by get's empty check. */
	_Atomic uint64_t populated, read;
	uint64_t acked;
	bool armed;
};

/* Caller holds c->lock. Moves held completions into the ring while armed
 * (always for a polled context) and there is room; true if one moved. */
static bool populate(struct doca_dpa_completion *c)
{
	size_t moved = 0;
	uint64_t populated = atomic_load_explicit(&c->populated, memory_order_relaxed);
	while (moved < c->num_held && populated - c->acked < c->queue_size)
		c->ring[populated++ % c->queue_size] = c->held[moved++];
	atomic_store_explicit(&c->populated, populated, memory_order_relaxed);
	if (moved > 0) {
		memmove(c->held, c->held + moved, (c->num_held - moved) * sizeof(*c->held));
		c->num_held -= moved;
	}
	return moved > 0;
}

doca_error_t sdoca_dpa_completion_push(struct doca_dpa_completion *c,
                                       const struct sdoca_dpa_cqe *cqe)
{
	bool trigger = false;
	pthread_mutex_lock(&c->lock);
	if (c->num_held == c->cap_held) {
		size_t cap = c->cap_held ? c->cap_held * 2 : 16;
		struct sdoca_dpa_cqe *held = realloc(c->held, cap * sizeof(*held));
		if (held == NULL) {
			pthread_mutex_unlock(&c->lock);
			return sdoca_fail(DOCA_ERROR_NO_MEMORY,
			                  "DPA completion: no memory to hold a CQE");
		}
		c->held = held;
		c->cap_held = cap;
	}
	c->held[c->num_held++] = *cqe;
	if (c->thread == NULL) {
		populate(c);
	} else if (c->armed && populate(c)) {
		c->armed = false;
		trigger = true;
	}
	pthread_mutex_unlock(&c->lock);
	if (trigger)
		sdoca_dpa_thread_trigger(c->thread);
	return DOCA_SUCCESS;
}

/* The RDMA data path's way in (core/dpa_sink.h). */
static void sink_push(struct sdoca_cq_sink *sink, const struct sdoca_dpa_cqe *cqe)
{
	(void)sdoca_dpa_completion_push((struct doca_dpa_completion *)sink, cqe);
}

/* Resolves a device handle; the caller's thread keeps the context alive
 * (it is bound to it, or a polled context is only destroyed when idle). */
static struct doca_dpa_completion *completion_find(uint64_t h)
{
	return handle_find_lockfree(SDOCA_DPA_TAG_COMPLETION, h);
}

int sdoca_dpa_completion_get(uint64_t h, const struct sdoca_dpa_cqe **elem, doca_error_t *err)
{
	struct doca_dpa_completion *c = completion_find(h);
	*err = DOCA_SUCCESS;
	if (c == NULL) {
		*err = DOCA_ERROR_INVALID_VALUE;
		return 0;
	}
	/* Nothing populated and unread: a thread's context is found empty
	 * without its lock. A completion populated meanwhile is not lost: it
	 * triggers the thread (push while armed) or is seen by the next look.
	 * A kernel's last look of each activation is such a miss, and often
	 * both looks around get_completion's poll. */
	if (c->thread != NULL && atomic_load_explicit(&c->read, memory_order_relaxed) ==
	                                 atomic_load_explicit(&c->populated, memory_order_relaxed))
		return 0;
	int got = 0;
	pthread_mutex_lock(&c->lock);
	if (c->thread == NULL)
		populate(c);
	uint64_t read = atomic_load_explicit(&c->read, memory_order_relaxed);
	if (read < atomic_load_explicit(&c->populated, memory_order_relaxed)) {
		*elem = &c->ring[read % c->queue_size];
		atomic_store_explicit(&c->read, read + 1, memory_order_relaxed);
		got = 1;
	}
	pthread_mutex_unlock(&c->lock);
	return got;
}

doca_error_t sdoca_dpa_completion_ack(uint64_t h, uint64_t num)
{
	struct doca_dpa_completion *c = completion_find(h);
	if (c == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	doca_error_t err = DOCA_SUCCESS;
	pthread_mutex_lock(&c->lock);
	if (num > c->read - c->acked)
		err = DOCA_ERROR_INVALID_VALUE; /* beyond what was read */
	else
		c->acked += num;
	pthread_mutex_unlock(&c->lock);
	return err;
}

doca_error_t sdoca_dpa_completion_request_notification(uint64_t h)
{
	struct doca_dpa_completion *c = completion_find(h);
	if (c == NULL)
		return DOCA_ERROR_INVALID_VALUE;
	bool trigger = false;
	pthread_mutex_lock(&c->lock);
	populate(c);
	if (c->populated > c->acked)
		trigger = c->thread != NULL; /* unacknowledged completions: fire at once */
	else
		c->armed = true;
	pthread_mutex_unlock(&c->lock);
	if (trigger)
		sdoca_dpa_thread_trigger(c->thread);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_completion_create(struct doca_dpa *dpa,
                                                          unsigned int queue_size,
                                                          struct doca_dpa_completion **dpa_comp)
{
	if (!sdoca_arg_valid(dpa) || !sdoca_arg_valid(dpa_comp))
		return DOCA_ERROR_INVALID_VALUE;
	if (queue_size == 0 || queue_size > (1u << 24))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "%s: queue size %u: must be 1..%u",
		                  __func__, queue_size, 1u << 24);
	struct doca_dpa_completion *c = calloc(1, sizeof(*c));
	if (c == NULL)
		return sdoca_fail(DOCA_ERROR_NO_MEMORY, "%s: no memory", __func__);
	c->dpa = dpa;
	c->queue_size = queue_size;
	pthread_mutex_init(&c->lock, NULL);
	c->sink.push = sink_push;
	sdoca_dpa_info_add_completion(c);
	*dpa_comp = c;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_completion_destroy(struct doca_dpa_completion *dpa_comp)
{
	if (!sdoca_arg_valid(dpa_comp))
		return DOCA_ERROR_INVALID_VALUE;
	if (atomic_load(&dpa_comp->sink.users) > 0)
		return sdoca_fail(
		        DOCA_ERROR_IN_USE,
		        "%s: %u RDMA context(s) attached with doca_rdma_dpa_completion_attach "
		        "still exist",
		        __func__, atomic_load(&dpa_comp->sink.users));
	if (dpa_comp->handle != 0)
		handle_unregister(dpa_comp->handle);
	if (dpa_comp->thread != NULL)
		sdoca_dpa_thread_bind(dpa_comp->thread, -1);
	sdoca_dpa_info_remove_completion(dpa_comp);
	pthread_mutex_destroy(&dpa_comp->lock);
	free(dpa_comp->ring);
	free(dpa_comp->held);
	free(dpa_comp);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t
doca_dpa_completion_get_queue_size(struct doca_dpa_completion *dpa_comp, unsigned int *queue_size)
{
	if (!sdoca_arg_valid(dpa_comp) || !sdoca_arg_valid(queue_size))
		return DOCA_ERROR_INVALID_VALUE;
	*queue_size = dpa_comp->queue_size;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_completion_set_thread(struct doca_dpa_completion *dpa_comp,
                                                              struct doca_dpa_thread *dpa_thread)
{
	if (!sdoca_arg_valid(dpa_comp) || !sdoca_arg_valid(dpa_thread))
		return DOCA_ERROR_INVALID_VALUE;
	if (dpa_comp->handle != 0)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: the completion context is started",
		                  __func__);
	if (!sdoca_dpa_thread_of(dpa_thread, dpa_comp->dpa))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "%s: the thread is of another DPA",
		                  __func__);
	if (dpa_comp->thread != NULL)
		sdoca_dpa_thread_bind(dpa_comp->thread, -1);
	pthread_mutex_lock(&dpa_comp->lock); /* softdoca-info reads it */
	dpa_comp->thread = dpa_thread;
	pthread_mutex_unlock(&dpa_comp->lock);
	sdoca_dpa_thread_bind(dpa_thread, 1);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_completion_get_thread(struct doca_dpa_completion *dpa_comp,
                                                              struct doca_dpa_thread **dpa_thread)
{
	if (!sdoca_arg_valid(dpa_comp) || !sdoca_arg_valid(dpa_thread))
		return DOCA_ERROR_INVALID_VALUE;
	if (dpa_comp->thread == NULL)
		return sdoca_fail(DOCA_ERROR_NOT_FOUND, "%s: no thread is set", __func__);
	*dpa_thread = dpa_comp->thread;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_completion_start(struct doca_dpa_completion *dpa_comp)
{
	if (!sdoca_arg_valid(dpa_comp))
		return DOCA_ERROR_INVALID_VALUE;
	struct doca_dpa_completion *c = dpa_comp;
	if (c->handle != 0)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: started already", __func__);
	if (!c->dpa->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: the DPA is not started", __func__);
	c->ring = calloc(c->queue_size, sizeof(*c->ring));
	if (c->ring == NULL)
		return sdoca_fail(DOCA_ERROR_NO_MEMORY, "%s: no memory for %u slots", __func__,
		                  c->queue_size);
	pthread_mutex_lock(&c->lock); /* softdoca-info reads them */
	atomic_store(&c->populated, 0);
	atomic_store(&c->read, 0);
	c->acked = 0;
	c->num_held = 0;
	c->armed = true;
	pthread_mutex_unlock(&c->lock);
	c->handle = handle_register(SDOCA_DPA_TAG_COMPLETION, c);
	if (c->handle == 0) {
		free(c->ring);
		c->ring = NULL;
		return sdoca_fail(DOCA_ERROR_FULL, "%s: %u device handles in use", __func__,
		                  HANDLE_SLOTS);
	}
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_completion_stop(struct doca_dpa_completion *dpa_comp)
{
	if (!sdoca_arg_valid(dpa_comp))
		return DOCA_ERROR_INVALID_VALUE;
	if (dpa_comp->handle == 0)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: not started", __func__);
	handle_unregister(dpa_comp->handle);
	dpa_comp->handle = 0;
	free(dpa_comp->ring);
	dpa_comp->ring = NULL;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_dpa_completion_get_dpa_handle(
        struct doca_dpa_completion *dpa_comp, doca_dpa_dev_completion_t *handle)
{
	if (!sdoca_arg_valid(dpa_comp) || !sdoca_arg_valid(handle))
		return DOCA_ERROR_INVALID_VALUE;
	if (dpa_comp->handle == 0)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: not started", __func__);
	*handle = dpa_comp->handle;
	return DOCA_SUCCESS;
}

struct doca_dpa_thread *sdoca_dpa_completion_info(struct doca_dpa_completion *c,
                                                  const struct doca_dpa **dpa, uint64_t *populated,
                                                  uint64_t *unread, uint64_t *held)
{
	*dpa = c->dpa;
	pthread_mutex_lock(&c->lock);
	struct doca_dpa_thread *t = c->thread;
	*populated = c->populated - c->acked;
	*unread = c->populated - c->read;
	*held = c->num_held;
	pthread_mutex_unlock(&c->lock);
	return t;
}
