/*
 * Sync events inside softdoca: what their three source files share.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Sync events inside softdoca: what sync_event.c (life cycle, export),
 * sync_event_wait.c (the value, waiters) and sync_event_task.c (the event
 * as a context) share, and what the soft NIC's responder calls.
 *
 * The value is 64 bits in the event or in the program's memory. Every change
 * softdoca makes (a local update, a task, a peer's remote set or add) is a
 * sequentially consistent atomic followed by sdoca_se_changed(), which wakes
 * sleeping waiters (a futex on wake_seq) and a PE with wait tasks pending.
 *
 * A started event owns a memory key (kind SDOCA_KEY_SYNC_EVENT, 8 bytes at
 * the value); its access flags say what a peer may do: RDMA_READ|WRITE|ATOMIC
 * with the remote-net publisher location, nothing without. Stopping or
 * destroying the event revokes the key, which waits out every responder
 * that may be using it.
 */
#ifndef SDOCA_CORE_SYNC_EVENT_H_
#define SDOCA_CORE_SYNC_EVENT_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <doca_sync_event.h>

#include "core/compiler.h"
#include "core/ctx.h"
#include "core/keys.h"

/* Body of a sync-event export blob, format version 1 (docs/wire.md). */
#define SDOCA_SE_BLOB_BODY 40

/* Where publishers and subscribers are (the locations softdoca offers). */
enum sdoca_se_location {
	SDOCA_SE_PUB_CPU = 1 << 0,
	SDOCA_SE_PUB_REMOTE_NET = 1 << 1,
	SDOCA_SE_SUB_CPU = 1 << 2,
	SDOCA_SE_PUB_DPA = 1 << 3,
	SDOCA_SE_SUB_DPA = 1 << 4,
};

enum sdoca_se_task_kind {
	SDOCA_SE_TASK_GET,
	SDOCA_SE_TASK_NOTIFY_SET,
	SDOCA_SE_TASK_NOTIFY_ADD,
	SDOCA_SE_TASK_WAIT_EQ,
	SDOCA_SE_TASK_WAIT_NEQ,
	SDOCA_SE_TASK_WAIT_GT, /* DOCA 2.5 */
	SDOCA_SE_TASK_KINDS,
};

/* A wait's condition on (value & mask) against the wait value. */
enum sdoca_se_cond {
	SDOCA_SE_EQ,
	SDOCA_SE_NEQ,
	SDOCA_SE_GT,
};

struct doca_sync_event {
	struct doca_ctx ctx; /* doca_sync_event_as_ctx() */
	uint64_t *value;     /* own_value, or the program's memory */
	uint64_t own_value;
	uint32_t locations; /* enum sdoca_se_location */
	bool started;       /* by doca_sync_event_start (not as a context) */
	bool keyed;         /* key registered: started either way */
	struct sdoca_key key;
	uint64_t dpa_handle; /* doca_sync_event_get_dpa_handle's, 0 = none */
	uint8_t *blob;       /* the remote-net export, freed when the key goes */
	size_t blob_len;
	/* waiters (any thread) */
	_Atomic uint32_t wake_seq;    /* the futex word: bumped when sleepers may need waking */
	_Atomic uint32_t sleepers;    /* threads about to sleep or asleep on wake_seq */
	_Atomic uint32_t task_waits;  /* wait tasks pending: a change wakes the PE */
	_Atomic uint32_t dpa_waiters; /* kernels between a handle lookup and their wake-up */
	_Atomic uint32_t updaters;    /* host updates between their store and their wake-ups */
	/* the context's tasks (its PE's thread) */
	struct sdoca_task_pool pools[SDOCA_SE_TASK_KINDS];
	struct doca_task *pending; /* wait tasks not satisfied yet, linked by qnext */
};

/* What a peer imported: the exporter's key and value address. */
struct doca_sync_event_remote_net {
	struct doca_dev *dev;
	struct sdoca_key key;
	uint64_t addr;
	uint64_t peer_node;
	uint32_t peer_pid;
	uint64_t dpa_handle; /* doca_sync_event_remote_net_get_dpa_handle's, 0 = none */
};

/* An operation of a peer's on an event (the responder's execute step). */
enum sdoca_se_op {
	SDOCA_SE_OP_GET,
	SDOCA_SE_OP_SET, /* the first len bytes of the value (1..8) */
	SDOCA_SE_OP_ADD,
};

/* Applies op to the event that owns a live key and returns the value before
 * it (the value read, for GET); then sdoca_sync_event_remote_changed()
 * wakes what waits on it, once the answer has left (the requester's
 * completion does not wait for a wake-up). The caller checked the key, its
 * kind and its permission, and holds off its revocation. */
SDOCA_EXPORT uint64_t sdoca_sync_event_remote_op(void *owner, enum sdoca_se_op op, uint64_t operand,
                                                 uint32_t len);
SDOCA_EXPORT void sdoca_sync_event_remote_changed(void *owner);

/* How a blocked waiter helps the soft NIC: poll() progresses it while the
 * waiter spins (so a peer's change needs no other thread) and says whether
 * it could (false: another thread holds it, or there is none); sleeping()
 * hands it to the service thread before the waiter sleeps. The soft NIC
 * sets them once; NULL when there is none. */
typedef bool (*sdoca_waiter_poll_fn)(void);
typedef void (*sdoca_waiter_sleeping_fn)(void);
SDOCA_EXPORT void sdoca_waiter_set_hooks(sdoca_waiter_poll_fn poll,
                                         sdoca_waiter_sleeping_fn sleeping);
/* The same two steps for other blocked threads (DPA threads waiting for an
 * activation): progress the soft NIC once (false: nothing to progress, or
 * another thread had it), and hand it over before sleeping. */
SDOCA_EXPORT bool sdoca_waiter_poll(void);
SDOCA_EXPORT void sdoca_waiter_sleeps(void);
/* How many times the calling thread's changes woke sleeping waiters: the
 * service thread gives its CPU up when its own count moved, so that a
 * waiter it woke on that CPU runs at once (other threads' changes are none
 * of its business). */
SDOCA_EXPORT uint64_t sdoca_sync_event_wakes(void);

/* What a DPA kernel does to an event through its device handle (the
 * libdoca_dpa device calls): op as sdoca_sync_event_remote_op, waking
 * waiters on a change; NOT_FOUND for a handle naming no started event. */
SDOCA_EXPORT doca_error_t sdoca_sync_event_dpa_op(uint64_t handle, enum sdoca_se_op op,
                                                  uint64_t operand, uint64_t *value);

/* One bounded sleep of a kernel's wait on the event a device handle names
 * (doca_dpa_dev_sync_event_wait_gt): SUCCESS once cond holds, AGAIN when
 * timeout_ns passed (or a wake came) first, NOT_FOUND for a handle naming no
 * started event. It never spins: the caller checks its stop and deadline
 * between sleeps. The event cannot be freed while a kernel sleeps on it:
 * its stop or destroy wakes such sleepers and waits until they left. */
SDOCA_EXPORT doca_error_t sdoca_sync_event_dpa_wait(uint64_t handle, enum sdoca_se_cond cond,
                                                    uint64_t wait_val, uint64_t mask,
                                                    uint64_t timeout_ns, bool first);
/* The same on an event the caller keeps alive (a kernel launch's wait
 * event): true once cond holds, false after at most timeout_ns. first: the
 * first sleep of a wait, which hands the soft NIC to the service thread
 * (so a peer's change reaches the event); later slices need not again. */
SDOCA_EXPORT bool sdoca_sync_event_sleep(struct doca_sync_event *ev, enum sdoca_se_cond cond,
                                         uint64_t wait_val, uint64_t mask, uint64_t timeout_ns,
                                         bool first);
/* Wakes every thread asleep on the event, changed or not (a stop that wants
 * a waiter to look at its own flags now). */
SDOCA_EXPORT void sdoca_sync_event_wake_all(struct doca_sync_event *ev);

/* --- inside libdoca_common --- */

/* The event's device handle, registered on first use (sync_event_dpa.c). */
doca_error_t sdoca_se_dpa_handle(struct doca_sync_event *ev, uint64_t *handle);
/* Unregisters it (stop, destroy). */
void sdoca_se_dpa_forget(struct doca_sync_event *ev);
/* The same for imported remote-net events (the RDMA data path signals them). */
doca_error_t sdoca_se_remote_dpa_handle(struct doca_sync_event_remote_net *ev, uint64_t *handle);
void sdoca_se_remote_dpa_forget(struct doca_sync_event_remote_net *ev);
SDOCA_EXPORT doca_error_t sdoca_sync_event_remote_dpa_lookup(uint64_t handle, struct sdoca_key *key,
                                                             uint64_t *addr);

/* The value changed: wake sleepers and a PE with pending wait tasks. */
void sdoca_se_changed(struct doca_sync_event *ev);
/* Returns once no doca_sync_event_update_* of another thread is still
 * inside the event (stop and destroy call it). */
void sdoca_se_quiesce(struct doca_sync_event *ev);
/* Whether (value & mask) satisfies cond against wait_val. */
static inline bool sdoca_se_holds(uint64_t value, enum sdoca_se_cond cond, uint64_t wait_val,
                                  uint64_t mask)
{
	uint64_t v = value & mask;

	return cond == SDOCA_SE_EQ    ? v == wait_val
	       : cond == SDOCA_SE_NEQ ? v != wait_val
	                              : v > wait_val;
}
static inline uint64_t sdoca_se_load(const struct doca_sync_event *ev)
{
	return __atomic_load_n(ev->value, __ATOMIC_SEQ_CST);
}
/* Registers the event's key (both kinds of start). */
doca_error_t sdoca_se_activate(struct doca_sync_event *ev);
/* Revokes the key and frees the export (both kinds of stop, destroy). */
void sdoca_se_deactivate(struct doca_sync_event *ev);
/* The context's operations (sync_event_task.c). */
extern const struct sdoca_ctx_ops sdoca_se_ctx_ops;

#endif /* SDOCA_CORE_SYNC_EVENT_H_ */
