/*
 * The UCX transport instance (xport_ucx_ops): workers and endpoints.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The transport instance over UCX 1.13 active messages (xport_ucx_ops):
 * workers and endpoints; requests and the data path are in ucx_op.c,
 * connection set-up through a listener in ucx_cm.c. What it does follows
 * measurements of UCX 1.13.1 on Debian 12:
 *
 *  - one UCP context per network interface (it fixes the devices UCX may
 *    use) and transport mode (SOFTDOCA_TRANSPORT); workers in SERIALIZED
 *    mode (the soft NIC locks);
 *  - endpoints with peer error handling, which on shared memory needs
 *    MM_ERROR_HANDLING=y, or UCX silently falls back to TCP;
 *  - completion records live in the space UCX reserves in each request
 *    (ucx_op.c: what UCX completes inside a call waits for the next
 *    progress);
 *  - libucs installs SIGSEGV/SIGBUS/SIGILL/SIGFPE and SIGHUP handlers when
 *    it loads; a program's signal handling is its own, so UCX is told to
 *    give them back (hand_signals_back);
 *  - UCX's own warnings are turned down to errors (see configure_globals);
 *  - a peer's worker address is read with bounds (ucx_address.c) before UCX
 *    reads it without;
 *  - peer error handling also drops UCX's single-copy (CMA) lane on shared
 *    memory unless CMA_MEMORY_INVALIDATE=y, which only the environment can
 *    set: without it large payloads take two copies through the FIFO.
 *
 * UCX's memory hooks (libucm) are set up when libucm loads, from the
 * environment; ThreadSanitizer runs need UCX_MEM_MMAP_HOOK_MODE=none (run.sh
 * sets it), as its madvise hook crashes inside TSan's interceptors.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ucs/config/global_opts.h>
#include <ucs/debug/debug.h>

#include "core/sdk_log.h"
#include "transport/ucx.h"
#include "transport/ucx_address.h"
#include "transport/ucx_tcp_events.h"

SDOCA_LOG_MODULE(ucx);

_Static_assert(sizeof(struct xport_iov) == sizeof(ucp_dt_iov_t) &&
                       offsetof(struct xport_iov, base) == offsetof(ucp_dt_iov_t, buffer) &&
                       offsetof(struct xport_iov, len) == offsetof(ucp_dt_iov_t, length),
               "struct xport_iov must have the layout of ucp_dt_iov_t");

enum mode {
	MODE_AUTO, /* shared memory on one host, TCP between hosts */
	MODE_SHM,  /* shared memory only */
	MODE_TCP,  /* TCP only, even on one host */
};

struct context {
	struct context *next;
	char ifname[64];
	enum mode mode;
	ucp_context_h ucp;
	unsigned int users;
};

static struct {
	pthread_mutex_t lock;
	struct context *contexts;
} global = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* A user who names one of these chose UCX's signal handling. */
static bool user_set(const char *const *names)
{
	for (; *names; names++)
		if (getenv(*names))
			return true;
	return false;
}

/* libucs installs handlers when it loads, before any softdoca code runs: for
 * the crash signals (UCX_ERROR_SIGNALS, a backtrace under UCX_HANDLE_ERRORS)
 * and for SIGHUP (UCX_DEBUG_SIGNO), which then no longer ends the program. A
 * DOCA program's signals are its own: they go back to what they were before
 * UCX, through UCX's own call (which also stops UCX from intercepting later
 * sigaction() calls for them), unless the user set those variables. Runs
 * after libucs's constructor: this library depends on it. */
static void __attribute__((constructor)) hand_signals_back(void)
{
	static const char *const error_vars[] = { "UCX_ERROR_SIGNALS", "UCX_HANDLE_ERRORS", NULL };
	static const char *const debug_vars[] = { "UCX_DEBUG_SIGNO", NULL };
	const unsigned int installs = UCS_BIT(UCS_HANDLE_ERROR_BACKTRACE) |
	                              UCS_BIT(UCS_HANDLE_ERROR_FREEZE) |
	                              UCS_BIT(UCS_HANDLE_ERROR_DEBUG);

	if (!user_set(error_vars) && (ucs_global_opts.handle_errors & installs))
		for (unsigned int i = 0; i < ucs_global_opts.error_signals.count; i++)
			ucs_debug_disable_signal(ucs_global_opts.error_signals.signals[i]);
	if (!user_set(debug_vars) && ucs_global_opts.debug_signo > 0)
		ucs_debug_disable_signal(ucs_global_opts.debug_signo);
	/* A memory-domain setting that ucp_config_modify() does not carry to
	 * memory domains (UCX 1.13 warns "invalid configuration" at worker
	 * creation): UCX reads it from the environment at ucp_init(). Set here,
	 * before the program has threads that could read the environment. Large
	 * shm transfers need it (see configure). The user's value wins. */
	setenv("UCX_CMA_MEMORY_INVALIDATE", "y", 0);
}

static doca_error_t mode_from_env(enum mode *mode)
{
	const char *env = getenv("SOFTDOCA_TRANSPORT");

	if (!env || !*env || strcmp(env, "auto") == 0)
		*mode = MODE_AUTO;
	else if (strcmp(env, "shm") == 0)
		*mode = MODE_SHM;
	else if (strcmp(env, "tcp") == 0)
		*mode = MODE_TCP;
	else
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "SOFTDOCA_TRANSPORT=%s: expected auto, shm or tcp", env);
	return DOCA_SUCCESS;
}

static doca_error_t modify(ucp_config_t *config, const char *name, const char *value)
{
	ucs_status_t status = ucp_config_modify(config, name, value);

	if (status != UCS_OK)
		return sdoca_fail(DOCA_ERROR_INITIALIZATION, "UCX refused %s=%s: %s", name, value,
		                  ucs_status_string(status));
	return DOCA_SUCCESS;
}

static doca_error_t configure(ucp_config_t *config, const char *ifname, enum mode mode)
{
	static const char *const tls[] = {
		[MODE_AUTO] = "self,sm,tcp",
		[MODE_SHM] = "self,sm",
		[MODE_TCP] = "self,tcp",
	};
	doca_error_t status;

	/* An explicit UCX_TLS / UCX_NET_DEVICES from the user wins. */
	if (!getenv("UCX_TLS") && (status = modify(config, "TLS", tls[mode])) != DOCA_SUCCESS)
		return status;
	if (!getenv("UCX_NET_DEVICES") &&
	    (status = modify(config, "NET_DEVICES", ifname)) != DOCA_SUCCESS)
		return status;
	/* Without it, shared memory cannot report a dead peer and UCX falls back to TCP. */
	if ((status = modify(config, "MM_ERROR_HANDLING", "y")) != DOCA_SUCCESS)
		return status;
	/* The one worker-address layout ucx_address.c checks peers' addresses
	 * against, whatever the environment says. */
	if ((status = modify(config, "ADDRESS_VERSION", "v1")) != DOCA_SUCCESS ||
	    (status = modify(config, "UNIFIED_MODE", "n")) != DOCA_SUCCESS ||
	    (status = modify(config, "ADDRESS_DEBUG_INFO", "n")) != DOCA_SUCCESS)
		return status;
	/* UCX's async thread (TCP connection events) and the application's
	 * share a lock: a spinning waiter burns its CPU's time slice, a
	 * connection set-up over TCP took 9x UCX's own, 1.3x with a mutex; the
	 * data path does not take it (bench/RESULTS.md). The user's value wins. */
	if (!getenv("UCX_USE_MT_MUTEX") &&
	    (status = modify(config, "USE_MT_MUTEX", "y")) != DOCA_SUCCESS)
		return status;
	return modify(config, "WARN_UNUSED_ENV_VARS", "n");
}

/* UCX's own warnings (e.g. requests a dead peer left behind, reported at
 * shutdown) are for UCX developers; softdoca reports those events itself.
 * UCX_LOG_LEVEL brings them back. */
static void configure_globals(void)
{
	if (!getenv("UCX_LOG_LEVEL") && ucs_global_opts_set_value("LOG_LEVEL", "error") != UCS_OK)
		SDOCA_DBG("UCX refused LOG_LEVEL=error; its warnings stay on");
}

static doca_error_t context_get(const char *ifname, enum mode mode, struct context **out)
{
	ucp_params_t params = {
		.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_REQUEST_SIZE |
		              UCP_PARAM_FIELD_REQUEST_INIT,
		.features = UCP_FEATURE_AM | UCP_FEATURE_WAKEUP,
		/* the operation record lives in front of every request handle */
		.request_size = sizeof(struct ucx_op),
		.request_init = ucx_request_init,
	};
	struct context *c;
	ucp_config_t *config;
	ucs_status_t st;
	doca_error_t status;

	pthread_mutex_lock(&global.lock);
	for (c = global.contexts; c; c = c->next)
		if (c->mode == mode && strcmp(c->ifname, ifname) == 0)
			break;
	if (c) {
		c->users++;
		pthread_mutex_unlock(&global.lock);
		*out = c;
		return DOCA_SUCCESS;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		pthread_mutex_unlock(&global.lock);
		return DOCA_ERROR_NO_MEMORY;
	}
	snprintf(c->ifname, sizeof(c->ifname), "%s", ifname);
	c->mode = mode;
	if (!global.contexts)
		configure_globals();
	st = ucp_config_read(NULL, NULL, &config);
	if (st != UCS_OK) {
		free(c);
		pthread_mutex_unlock(&global.lock);
		return sdoca_fail(DOCA_ERROR_INITIALIZATION, "UCX configuration: %s",
		                  ucs_status_string(st));
	}
	status = configure(config, ifname, mode);
	if (status == DOCA_SUCCESS) {
		st = ucp_init(&params, config, &c->ucp);
		if (st != UCS_OK) {
			SDOCA_ERR("UCX initialisation on %s failed: %s", ifname,
			          ucs_status_string(st));
			status = DOCA_ERROR_INITIALIZATION;
		}
	}
	ucp_config_release(config);
	if (status != DOCA_SUCCESS) {
		free(c);
		pthread_mutex_unlock(&global.lock);
		return status;
	}
	c->users = 1;
	c->next = global.contexts;
	global.contexts = c;
	pthread_mutex_unlock(&global.lock);
	*out = c;
	return DOCA_SUCCESS;
}

static void context_put(struct context *c)
{
	struct context **link;

	pthread_mutex_lock(&global.lock);
	if (--c->users == 0) {
		for (link = &global.contexts; *link != c; link = &(*link)->next)
			;
		*link = c->next;
		ucp_cleanup(c->ucp);
		free(c);
	}
	pthread_mutex_unlock(&global.lock);
}

static ucs_status_t am_handler(void *arg, const void *header, size_t header_length, void *data,
                               size_t length, const ucp_am_recv_param_t *param)
{
	struct ucx_worker *w = arg;
	bool rndv = (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) != 0;
	/* What UCX keeps for us past the callback if asked; xport_rx_hold copies the rest. */
	bool keeps = rndv || (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_DATA);
	struct xport_rx rx = {
		.data = rndv ? NULL : data,
		.len = length,
		.rndv = rndv,
		.desc = keeps ? data : NULL,
		/* Every softdoca message is sent with UCP_AM_SEND_FLAG_REPLY: UCX
		 * names this worker's endpoint to the sender (an endpoint to a
		 * stranger's worker is none of the soft NIC's). */
		.sender = (param->recv_attr & UCP_AM_RECV_ATTR_FIELD_REPLY_EP)
		                  ? (uintptr_t)param->reply_ep
		                  : 0,
	};
	bool hold = w->recv(w->recv_arg, header, header_length, &rx);

	return hold && keeps ? UCS_INPROGRESS : UCS_OK;
}

static doca_error_t worker_create(const char *ifname, xport_recv_fn recv, void *recv_arg,
                                  struct xport_worker **worker)
{
	ucp_worker_params_t wparams = {
		.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
		.thread_mode = UCS_THREAD_MODE_SERIALIZED,
	};
	ucp_am_handler_param_t am = {
		.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB |
		              UCP_AM_HANDLER_PARAM_FIELD_ARG | UCP_AM_HANDLER_PARAM_FIELD_FLAGS,
		.id = XPORT_AM_ID,
		.cb = am_handler,
		/* Not UCP_AM_FLAG_PERSISTENT_DATA: on shared memory UCX then copies
		 * every eager message into a descriptor; the few held ones are
		 * copied by us. */
		.flags = UCP_AM_FLAG_WHOLE_MSG,
	};
	struct ucx_worker *w;
	ucp_address_t *address;
	doca_error_t status;
	enum mode mode;
	ucs_status_t st;

	status = mode_from_env(&mode);
	if (status != DOCA_SUCCESS)
		return status;
	w = calloc(1, sizeof(*w));
	if (!w)
		return DOCA_ERROR_NO_MEMORY;
	atomic_init(&w->super.ops, &xport_ucx_ops);
	status = context_get(ifname, mode, &w->ctx);
	if (status != DOCA_SUCCESS) {
		free(w);
		return status;
	}
	st = ucp_worker_create(w->ctx->ucp, &wparams, &w->ucp);
	if (st != UCS_OK) {
		SDOCA_ERR("UCX worker creation failed: %s", ucs_status_string(st));
		goto fail_ctx;
	}
	w->recv = recv;
	w->recv_arg = recv_arg;
	w->deferred_tail = &w->deferred;
	am.arg = w;
	st = ucp_worker_set_am_recv_handler(w->ucp, &am);
	if (st == UCS_OK)
		st = ucp_worker_get_efd(w->ucp, &w->fd);
	if (st == UCS_OK)
		st = ucp_worker_get_address(w->ucp, &address, &w->address_len);
	if (st != UCS_OK) {
		SDOCA_ERR("UCX worker set-up failed: %s", ucs_status_string(st));
		goto fail_worker;
	}
	w->address = malloc(w->address_len);
	if (w->address)
		memcpy(w->address, address, w->address_len);
	ucp_worker_release_address(w->ucp, address);
	if (!w->address)
		goto fail_worker;
	*worker = &w->super;
	return DOCA_SUCCESS;

fail_worker:
	ucp_worker_destroy(w->ucp);
fail_ctx:
	context_put(w->ctx);
	free(w);
	return DOCA_ERROR_INITIALIZATION;
}

static void flushed(void *request, ucs_status_t status, void *user_data)
{
	(void)request;
	(void)status;
	*(bool *)user_data = true;
}

/* Progresses until *done, or 2 s passed (false). */
static void close_now(struct ucx_ep *ep, bool force);

/* What UCX's progress left to do outside its callbacks: the completions
 * that came inside a call, the closes asked for inside it. */
static void after_progress(struct ucx_worker *worker)
{
	struct ucx_ep *ep;

	ucx_deliver_deferred(worker);
	while ((ep = worker->to_close)) {
		worker->to_close = ep->next_to_close;
		worker->closing--;
		close_now(ep, ep->close_force);
	}
}

/* The UCX worker's progress, no endpoint closed inside it. */
static unsigned int ucp_progress(struct ucx_worker *worker)
{
	unsigned long left_out = ucx_event_writes_left_out();
	unsigned int events;

	worker->progressing++;
	events = ucp_worker_progress(worker->ucp);
	worker->progressing--;
	/* A socket's write left for the next wait (ucx_tcp_events.c) happens
	 * only if there is one: activity, so that the caller progresses again
	 * rather than arm (a no-op for TCP) and sleep with the write pending. */
	if (SDOCA_UNLIKELY(ucx_event_writes_left_out() != left_out) && events == 0)
		events = 1;
	return events;
}

static bool progress_until(struct ucx_worker *worker, const bool *done, const unsigned int *count)
{
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		after_progress(worker);
		if ((done && *done) || (count && *count == 0))
			return true;
		ucp_progress(worker);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec > 2)
			return false;
	}
}

/* UCX must not destroy a worker while endpoints are still closing, nor
 * while the transport lanes of closed ones are still being discarded: a
 * discard that had to wait for resources sits in the lane's pending queue,
 * and destroying the worker then asserts (seen on shared memory after a
 * peer was resumed, bench/RESULTS.md "A resumed peer"). A worker flush
 * waits for those too. */
static void worker_destroy(struct xport_worker *xw)
{
	struct ucx_worker *worker = to_worker(xw);
	ucp_request_param_t param = {
		.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
		.cb.send = flushed,
	};
	bool done = false;
	void *request;

	ucx_cm_close_all(worker);
	if (!progress_until(worker, NULL, &worker->closing))
		SDOCA_WARN("%u transport endpoint(s) did not close in 2 s", worker->closing);
	param.user_data = &done;
	request = ucp_worker_flush_nbx(worker->ucp, &param);
	if (UCS_PTR_IS_PTR(request)) {
		if (!progress_until(worker, &done, NULL))
			SDOCA_WARN("the transport worker did not flush in 2 s");
		ucp_request_free(request);
	}
	ucx_deliver_deferred(worker);
	ucp_worker_destroy(worker->ucp);
	context_put(worker->ctx);
	free(worker->address);
	free(worker);
}

static void worker_address(const struct xport_worker *worker, const void **addr, size_t *len)
{
	*addr = to_worker(worker)->address;
	*len = to_worker(worker)->address_len;
}

static unsigned int worker_progress(struct xport_worker *xw)
{
	struct ucx_worker *worker = to_worker(xw);
	unsigned int events = ucp_progress(worker);

	if (SDOCA_UNLIKELY(worker->deferred != NULL || worker->to_close != NULL)) {
		after_progress(worker);
		events++;
	}
	return events;
}

static bool worker_arm(struct xport_worker *worker)
{
	return ucp_worker_arm(to_worker(worker)->ucp) == UCS_OK;
}

/* The same while the worker listens or sets connections up (cm_ops). */
static unsigned int worker_progress_cm(struct xport_worker *xw)
{
	struct ucx_worker *worker = to_worker(xw);
	unsigned int events = worker_progress(xw);

	/* Set by UCX's async thread, which then also signals the fd; while
	 * handshakes wait for their first message, their deadline too. */
	if (atomic_load_explicit(&worker->cm_ready, memory_order_relaxed) || worker->waiting)
		events += ucx_cm_progress(worker);
	return events;
}

static bool worker_arm_cm(struct xport_worker *worker)
{
	return !atomic_load(&to_worker(worker)->cm_ready) && worker_arm(worker);
}

static int worker_fd(const struct xport_worker *worker)
{
	return to_worker(worker)->fd;
}

static void ep_error(void *arg, ucp_ep_h ep, ucs_status_t status)
{
	struct ucx_ep *e = arg;

	(void)ep;
	if (e->state == UCX_EP_FAILED)
		return;
	e->state = UCX_EP_FAILED;
	SDOCA_DBG("transport endpoint %p failed: %s", (void *)e, ucs_status_string(status));
	if (e->on_error)
		e->on_error(e->arg, ucx_doca_status(status));
}

struct ucx_ep *ucx_ep_new(struct ucx_worker *worker, xport_ep_error_fn on_error, void *arg)
{
	struct ucx_ep *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->super.ops = &xport_ucx_ops;
	e->worker = worker;
	e->on_error = on_error;
	e->arg = arg;
	e->next = worker->eps;
	if (e->next)
		e->next->prev = &e->next;
	e->prev = &worker->eps;
	worker->eps = e;
	return e;
}

void ucx_ep_free(struct ucx_ep *e)
{
	if (!e)
		return;
	*e->prev = e->next;
	if (e->next)
		e->next->prev = e->prev;
	free(e);
}

/* A sender that is not e's own UCX endpoint: another of this worker's
 * endpoints to the same peer worker is the peer too. UCX pairs the two
 * processes' endpoints by creation order per peer, so two connections
 * between the same workers made in different orders cross. */
static bool ep_same_peer(const struct xport_ep *xep, uintptr_t sender)
{
	const struct ucx_ep *ep = to_ep(xep), *e;

	for (e = ep->worker->eps; e; e = e->next)
		if ((uintptr_t)e->ucp == sender)
			return ep->peer_uuid != 0 && e->peer_uuid == ep->peer_uuid;
	return false;
}

doca_error_t ucx_ep_connect(struct ucx_ep *e, const void *addr, size_t len)
{
	ucp_ep_params_t params = {
		.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS |
		              UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE | UCP_EP_PARAM_FIELD_ERR_HANDLER,
		.address = addr,
		.err_mode = UCP_ERR_HANDLING_MODE_PEER,
		.err_handler = { .cb = ep_error, .arg = e },
	};
	doca_error_t status;
	ucs_status_t st;

	/* UCX reads the address without a length and trusts every byte. */
	status = xport_address_check(e->worker->address, e->worker->address_len, addr, len);
	if (status != DOCA_SUCCESS)
		return status;
	st = ucp_ep_create(e->worker->ucp, &params, &e->ucp);
	/* The segment its address names is gone: the peer process exited (a
	 * server that died right after accepting), not a transport mismatch. */
	if (st == UCS_ERR_SHMEM_SEGMENT)
		return sdoca_fail(
		        DOCA_ERROR_CONNECTION_RESET,
		        "cannot reach the peer: its shared memory segment is gone - the peer "
		        "process has exited (or is exiting) since it sent its address");
	if (st != UCS_OK)
		return sdoca_fail(
		        st == UCS_ERR_UNREACHABLE ? DOCA_ERROR_NOT_CONNECTED
		                                  : DOCA_ERROR_CONNECTION_RESET,
		        "cannot reach the peer's transport address: %s (is SOFTDOCA_TRANSPORT the "
		        "same on both sides, and is the peer on this host for shm?)",
		        ucs_status_string(st));
	/* The worker id follows the address's header (xport_address_check). */
	if (len > sizeof(e->peer_uuid))
		memcpy(&e->peer_uuid, (const uint8_t *)addr + 1, sizeof(e->peer_uuid));
	e->super.peer_id = (uintptr_t)e->ucp;
	e->state = UCX_EP_READY;
	return DOCA_SUCCESS;
}

static doca_error_t ep_create(struct xport_worker *worker, const void *addr, size_t len,
                              xport_ep_error_fn on_error, void *arg, struct xport_ep **ep)
{
	struct ucx_ep *e = ucx_ep_new(to_worker(worker), on_error, arg);
	doca_error_t status;

	if (!e)
		return DOCA_ERROR_NO_MEMORY;
	status = ucx_ep_connect(e, addr, len);
	if (status != DOCA_SUCCESS) {
		ucx_ep_free(e);
		return status;
	}
	*ep = &e->super;
	return DOCA_SUCCESS;
}

/* May run inside ucp_ep_close_nbx: ep_close counted the close first. */
static void ep_closed(void *request, ucs_status_t status, void *user_data)
{
	struct ucx_ep *ep = user_data;

	(void)status;
	ucp_request_free(request);
	ep->worker->closing--;
	ucx_ep_free(ep);
}

/* Destroys the endpoint's transport connections at once. A forced close
 * completes the endpoint's requests inside the call: they wait for the next
 * progress (see struct ucx_op). ep_closed may free ep inside it too: nothing
 * touches ep after the call but this. */
static void force_close(struct ucx_ep *ep)
{
	struct ucx_worker *worker = ep->worker;
	ucp_request_param_t param = {
		.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS | UCP_OP_ATTR_FIELD_CALLBACK |
		                UCP_OP_ATTR_FIELD_USER_DATA,
		.flags = UCP_EP_CLOSE_FLAG_FORCE,
		.cb.send = ep_closed,
		.user_data = ep,
	};
	void *request;

	worker->closing++;
	worker->calls++;
	request = ucp_ep_close_nbx(ep->ucp, &param);
	worker->calls--;
	if (request == NULL || UCS_PTR_IS_ERR(request)) {
		worker->closing--;
		ucx_ep_free(ep);
	}
}

/* Closes ep at the end of the progress (after_progress). */
static void close_later(struct ucx_ep *ep, bool force)
{
	ep->close_force = force;
	ep->next_to_close = ep->worker->to_close;
	ep->worker->to_close = ep;
	ep->worker->closing++;
}

/* Maybe inside UCX's handling of the endpoint's failure. */
static void ep_flushed(void *request, ucs_status_t status, void *user_data)
{
	struct ucx_ep *ep = user_data;

	(void)status;
	ucp_request_free(request);
	ep->worker->closing--;
	close_later(ep, true);
}

/* A graceful close is a flush, then a forced close: with peer failure
 * handling, UCX's own graceful close returns at once and keeps the
 * connections (TCP sockets) until the peer breaks them, a leak per
 * connection a long-lived worker closes (bench/RESULTS.md). Not inside
 * UCX's progress (see ucx_worker.progressing). */
static void close_now(struct ucx_ep *ep, bool force)
{
	struct ucx_worker *worker = ep->worker;
	ucp_request_param_t param = {
		.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
		.cb.send = ep_flushed,
		.user_data = ep,
	};
	void *request;

	if (force || ep->state == UCX_EP_FAILED) {
		force_close(ep);
		return;
	}
	/* As in force_close: ep_flushed may run inside the call. */
	worker->closing++;
	worker->calls++;
	request = ucp_ep_flush_nbx(ep->ucp, &param);
	worker->calls--;
	if (request == NULL || UCS_PTR_IS_ERR(request)) {
		worker->closing--;
		force_close(ep);
	}
}

static void ep_close(struct xport_ep *xep, bool force)
{
	struct ucx_ep *ep = to_ep(xep);

	ep->on_error = NULL;
	if (ep->conn)
		ucx_cm_abandon(ep);
	if (!ep->ucp) { /* a client that never connected */
		ucx_ep_free(ep);
		return;
	}
	/* A completion or failure callback of UCX's progress closing it (the
	 * soft NIC failing a connection whose receive failed): later. */
	if (ep->worker->progressing)
		close_later(ep, force);
	else
		close_now(ep, force);
}

#define UCX_OPS                                                                                    \
	.name = "ucx", .worker_create = worker_create, .worker_destroy = worker_destroy,           \
	.worker_address = worker_address, .worker_fd = worker_fd, .ep_create = ep_create,          \
	.ep_close = ep_close, .send = ucx_ep_send, .send_now = ucx_ep_send_now,                    \
	.same_peer = ep_same_peer, .rx_receive = ucx_rx_receive, .rx_release = ucx_rx_release,     \
	.listen = ucx_cm_listen, .listener_port = ucx_cm_listener_port,                            \
	.listener_close = ucx_cm_listener_close, .accept = ucx_cm_accept, .reject = ucx_cm_reject, \
	.connect = ucx_cm_connect

const struct xport_ops xport_ucx_ops = {
	UCX_OPS,
	.worker_progress = worker_progress,
	.worker_arm = worker_arm,
};

/* A worker's ops while it has sockets of connection set-up: progress looks
 * at them too. Other workers' progress pays nothing for them. */
static const struct xport_ops cm_ops = {
	UCX_OPS,
	.worker_progress = worker_progress_cm,
	.worker_arm = worker_arm_cm,
};

void ucx_cm_active(struct ucx_worker *worker)
{
	atomic_store_explicit(&worker->super.ops,
	                      worker->listeners || worker->conns ? &cm_ops : &xport_ucx_ops,
	                      memory_order_relaxed);
}
