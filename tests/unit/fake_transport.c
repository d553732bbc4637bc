/*
 * softdoca tests: an in-process instance of the transport (fake_xport_ops,
 * installed with xport_set_ops_for_tests), so that the soft NIC's protocol
 * can be driven message by message. Messages between the workers of this
 * process are queued and handed over at the receiver's next progress; a test
 * can have the next two messages to a worker handed over in the opposite
 * order, as UCX may under load. Payloads are eager unless a test makes large
 * ones travel by rendezvous: then their receive lands at the receiver's next
 * progress. Every message names its sending worker (xport_rx.sender).
 * Listeners and clients: fake_listen.c.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "unit/fake_internal.h"
#include "unit/fake_transport.h"
struct fake_state fake = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, -1, NULL, 0, NULL, 40000 };

void fake_xport_rndv_from(size_t bytes)
{
	pthread_mutex_lock(&fake.lock);
	fake.rndv_from = bytes;
	pthread_mutex_unlock(&fake.lock);
}

void fake_xport_swap_next(unsigned int worker_index)
{
	pthread_mutex_lock(&fake.lock);
	fake.swap_to = (int)worker_index;
	fake.held = NULL;
	pthread_mutex_unlock(&fake.lock);
}

unsigned int fake_xport_workers_created(void)
{
	unsigned int n;

	pthread_mutex_lock(&fake.lock);
	n = fake.created;
	pthread_mutex_unlock(&fake.lock);
	return n;
}

bool fake_xport_swapped(void)
{
	bool done;

	pthread_mutex_lock(&fake.lock);
	done = fake.swap_to < 0;
	pthread_mutex_unlock(&fake.lock);
	return done;
}

/* The worker created index-th (fake.lock held), or NULL. */
static struct fake_worker *by_index(unsigned int index)
{
	struct fake_worker *w = fake.workers;

	while (w && w->index != index)
		w = w->next;
	return w;
}

unsigned int fake_xport_sent_count(unsigned int worker_index)
{
	struct fake_worker *w;
	unsigned int n;

	pthread_mutex_lock(&fake.lock);
	w = by_index(worker_index);
	n = w ? w->sent_count : 0;
	pthread_mutex_unlock(&fake.lock);
	return n;
}

bool fake_xport_sent(unsigned int worker_index, unsigned int n, struct fake_sent *out)
{
	struct fake_worker *w;
	bool found;

	pthread_mutex_lock(&fake.lock);
	w = by_index(worker_index);
	found = w && n < w->sent_count && w->sent_count - n <= FAKE_SENT_LOG;
	if (found)
		*out = w->sent[n % FAKE_SENT_LOG];
	pthread_mutex_unlock(&fake.lock);
	return found;
}

void fake_xport_pause(unsigned int worker_index, bool paused)
{
	struct fake_worker *w;

	pthread_mutex_lock(&fake.lock);
	w = by_index(worker_index);
	if (w) {
		w->paused = paused;
		if (!paused && w->head)
			fake_wake(w);
	}
	pthread_mutex_unlock(&fake.lock);
}

/* Logs a message w sent (fake.lock held). */
static void log_sent(struct fake_worker *w, const struct fake_msg *m)
{
	struct fake_sent *s = &w->sent[w->sent_count++ % FAKE_SENT_LOG];
	size_t data = m->len < FAKE_SENT_DATA ? m->len : FAKE_SENT_DATA;

	memset(s, 0, sizeof(*s));
	s->hdr_len = m->hdr_len < sizeof(s->hdr) ? m->hdr_len : sizeof(s->hdr);
	memcpy(s->hdr, m->hdr, s->hdr_len);
	s->len = m->len;
	memcpy(s->data, m->data, data);
}

static struct fake_worker *find(uint64_t id)
{
	struct fake_worker *w = fake.workers;

	while (w && w->id != id)
		w = w->next;
	return w;
}

/* Something arrived for w (fake.lock held). */
void fake_wake(struct fake_worker *w)
{
	if (w->armed) {
		uint64_t one = 1;

		w->armed = false;
		if (write(w->fd, &one, sizeof(one)) < 0)
			abort();
	}
}

static void enqueue(struct fake_worker *w, struct fake_msg *m)
{
	m->next = NULL;
	if (w->tail)
		w->tail->next = m;
	else
		w->head = m;
	w->tail = m;
	fake_wake(w);
}

/* A client's outcome, or a connection's failure (fake.lock held): reported
 * at its worker's next progress. */
void fake_tell_ep(struct fake_ep *e, doca_error_t status)
{
	if (e->failed)
		return;
	e->failed = status != DOCA_SUCCESS;
	e->status = status;
	e->news = true;
	fake_wake(e->worker);
}

struct fake_ep *fake_new_ep(struct fake_worker *w, uint64_t peer, xport_ep_error_fn on_error,
                            void *arg)
{
	struct fake_ep *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->super.ops = &fake_xport_ops;
	e->super.peer_id = (uintptr_t)peer; /* messages name their sending worker */
	e->worker = w;
	e->peer = peer;
	e->on_error = on_error;
	e->arg = arg;
	return e;
}

/* Lists e with its worker (fake.lock held). */
void fake_add_ep(struct fake_ep *e)
{
	e->next = e->worker->eps;
	e->worker->eps = e;
}

static doca_error_t worker_create(const char *ifname, xport_recv_fn recv, void *recv_arg,
                                  struct xport_worker **worker)
{
	struct fake_worker *w = calloc(1, sizeof(*w));

	(void)ifname;
	if (!w)
		return DOCA_ERROR_NO_MEMORY;
	atomic_init(&w->super.ops, &fake_xport_ops);
	w->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (w->fd < 0) {
		free(w);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	w->recv = recv;
	w->recv_arg = recv_arg;
	pthread_mutex_lock(&fake.lock);
	w->index = fake.created++;
	w->id = 0x5d0ca000u + w->index;
	w->next = fake.workers;
	fake.workers = w;
	pthread_mutex_unlock(&fake.lock);
	*worker = &w->super;
	return DOCA_SUCCESS;
}

static void worker_destroy(struct xport_worker *xw)
{
	struct fake_worker *worker = fake_to_worker(xw), **link;

	pthread_mutex_lock(&fake.lock);
	for (link = &fake.workers; *link != worker; link = &(*link)->next)
		;
	*link = worker->next;
	pthread_mutex_unlock(&fake.lock);
	while (worker->head) {
		struct fake_msg *m = worker->head;

		worker->head = m->next;
		free(m);
	}
	while (worker->landing) {
		struct fake_op *o = worker->landing;

		worker->landing = o->next;
		free(o->msg);
		free(o);
	}
	close(worker->fd);
	free(worker);
}

/* Hands over connection requests that arrived for w's listeners. */
static unsigned int deliver_requests(struct fake_worker *w)
{
	unsigned int events = 0;

	for (;;) {
		struct fake_request *r = NULL;

		pthread_mutex_lock(&fake.lock);
		for (struct fake_listener *l = fake.listeners; l && !r; l = l->next)
			for (r = l->worker == w ? l->requests : NULL; r && r->delivered;
			     r = r->next)
				;
		if (r)
			r->delivered = true;
		pthread_mutex_unlock(&fake.lock);
		if (!r)
			return events;
		r->listener->on_request(r->listener->arg, &r->super);
		events++;
	}
}

/* Reports clients' outcomes and endpoints' failures. */
static unsigned int deliver_news(struct fake_worker *w)
{
	unsigned int events = 0;

	for (;;) {
		xport_connected_fn connected = NULL;
		void *reply = NULL;
		size_t reply_len = 0;
		struct fake_ep *e;

		pthread_mutex_lock(&fake.lock);
		for (e = w->eps; e && !e->news; e = e->next)
			;
		if (e) {
			e->news = false;
			if (e->connecting) {
				e->connecting = false;
				connected = e->connected;
				reply = e->reply;
				reply_len = e->reply_len;
				e->reply = NULL;
			}
		}
		pthread_mutex_unlock(&fake.lock);
		if (!e)
			return events;
		if (connected)
			connected(e->arg, e->status, reply, reply_len);
		else if (e->on_error)
			e->on_error(e->arg, e->status);
		free(reply);
		events++;
	}
}

/* Whether w has something to hand over (fake.lock held). */
static bool has_events(const struct fake_worker *w)
{
	if (w->head && !w->paused)
		return true;
	for (const struct fake_ep *e = w->eps; e; e = e->next)
		if (e->news)
			return true;
	for (const struct fake_listener *l = fake.listeners; l; l = l->next)
		for (const struct fake_request *r = l->requests; r && l->worker == w; r = r->next)
			if (!r->delivered)
				return true;
	return false;
}

static void worker_address(const struct xport_worker *worker, const void **addr, size_t *len)
{
	*addr = &fake_to_worker(worker)->id;
	*len = sizeof(fake_to_worker(worker)->id);
}

/* The rendezvous receives started before this progress land now. */
static unsigned int land_receives(struct fake_worker *worker)
{
	struct fake_op *o = worker->landing;
	unsigned int events = 0;

	worker->landing = NULL;
	while (o) {
		struct fake_op *next = o->next;

		if (o->super.done)
			xport_copy_to_iov(o->msg->data, o->msg->len, o->iov, o->iovcnt);
		xport_op_done(&o->super, DOCA_SUCCESS);
		free(o->msg);
		free(o);
		o = next;
		events++;
	}
	return events;
}

static unsigned int worker_progress(struct xport_worker *xw)
{
	struct fake_worker *worker = fake_to_worker(xw);
	unsigned int events = land_receives(worker);

	events += deliver_requests(worker);
	events += deliver_news(worker);
	for (;;) {
		struct fake_msg *m;
		struct xport_rx rx = { 0 };
		bool kept;

		pthread_mutex_lock(&fake.lock);
		m = worker->paused ? NULL : worker->head;
		if (m) {
			worker->head = m->next;
			if (!worker->head)
				worker->tail = NULL;
		}
		rx.rndv = m && fake.rndv_from > 0 && m->len >= fake.rndv_from;
		pthread_mutex_unlock(&fake.lock);
		if (!m)
			return events;
		rx.len = m->len;
		rx.sender = (uintptr_t)m->from;
		if (rx.rndv)
			rx.desc = m; /* the payload stays here until received or released */
		else
			rx.data = m->data;
		kept = worker->recv(worker->recv_arg, m->hdr, m->hdr_len, &rx);
		/* A kept eager rx holds its own copy (xport_rx_hold); a rendezvous
		 * one not kept nor received is dropped, as UCX drops it. */
		if (!rx.rndv || (!kept && !m->taken))
			free(m);
		events++;
	}
}

static int worker_fd(const struct xport_worker *worker)
{
	return fake_to_worker(worker)->fd;
}

static bool worker_arm(struct xport_worker *xw)
{
	struct fake_worker *worker = fake_to_worker(xw);
	uint64_t count;
	bool armed;

	pthread_mutex_lock(&fake.lock);
	armed = !has_events(worker);
	worker->armed = armed;
	if (armed && read(worker->fd, &count, sizeof(count)) < 0 && errno != EAGAIN)
		abort();
	pthread_mutex_unlock(&fake.lock);
	return armed;
}

static doca_error_t ep_create(struct xport_worker *worker, const void *addr, size_t len,
                              xport_ep_error_fn on_error, void *arg, struct xport_ep **ep)
{
	struct fake_ep *e;
	uint64_t id;

	if (len != sizeof(id))
		return DOCA_ERROR_INVALID_VALUE;
	memcpy(&id, addr, sizeof(id));
	e = fake_new_ep(fake_to_worker(worker), id, on_error, arg);
	if (!e)
		return DOCA_ERROR_NO_MEMORY;
	pthread_mutex_lock(&fake.lock);
	fake_add_ep(e);
	pthread_mutex_unlock(&fake.lock);
	*ep = &e->super;
	return DOCA_SUCCESS;
}

static void ep_close(struct xport_ep *ep, bool force)
{
	struct fake_ep *e = sdoca_container_of(ep, struct fake_ep, super), **link;

	(void)force;
	pthread_mutex_lock(&fake.lock);
	for (link = &e->worker->eps; *link != e; link = &(*link)->next)
		;
	*link = e->next;
	for (struct fake_listener *l = fake.listeners; l; l = l->next)
		for (struct fake_request *r = l->requests; r; r = r->next)
			if (r->client == e)
				r->client = NULL;
	pthread_mutex_unlock(&fake.lock);
	free(e->reply);
	free(e);
}

static struct fake_msg *new_msg(const void *hdr, size_t hdr_len, const struct xport_iov *iov,
                                size_t iovcnt)
{
	struct fake_msg *m;
	size_t len = 0, at = 0;

	for (size_t i = 0; i < iovcnt; i++)
		len += iov[i].len;
	m = malloc(sizeof(*m) + hdr_len + len);
	if (!m)
		return NULL;
	memcpy(m->hdr, hdr, hdr_len);
	m->taken = false;
	m->from = 0;
	m->hdr_len = hdr_len;
	m->data = m->hdr + hdr_len;
	m->len = len;
	for (size_t i = 0; i < iovcnt; i++) {
		memcpy(m->data + at, iov[i].base, iov[i].len);
		at += iov[i].len;
	}
	return m;
}

bool fake_xport_inject(unsigned int worker_index, int from_index, const void *hdr, size_t hdr_len,
                       const void *payload, size_t len)
{
	struct xport_iov iov = { (void *)(uintptr_t)payload, len };
	struct fake_msg *m = new_msg(hdr, hdr_len, &iov, len ? 1 : 0);
	struct fake_worker *to, *from;

	if (!m)
		return false;
	pthread_mutex_lock(&fake.lock);
	to = by_index(worker_index);
	for (from = fake.workers; from && (int)from->index != from_index; from = from->next)
		;
	m->from = from ? from->id : 0x5d0cbad0u; /* a worker nobody connected to */
	if (to)
		enqueue(to, m);
	pthread_mutex_unlock(&fake.lock);
	if (!to)
		free(m);
	return to != NULL;
}

static doca_error_t ep_send(struct xport_ep *ep, const void *hdr, size_t hdr_len,
                            const struct xport_iov *iov, size_t iovcnt, xport_done_fn done,
                            void *arg, struct xport_op **op)
{
	struct fake_ep *e = sdoca_container_of(ep, struct fake_ep, super);
	struct fake_worker *to;
	struct fake_msg *m;

	(void)done;
	(void)arg;
	if (op)
		*op = NULL;
	m = new_msg(hdr, hdr_len, iov, iovcnt);
	if (!m)
		return DOCA_ERROR_NO_MEMORY;
	pthread_mutex_lock(&fake.lock);
	if (e->connecting) {
		pthread_mutex_unlock(&fake.lock);
		free(m);
		return DOCA_ERROR_NOT_CONNECTED;
	}
	m->from = e->worker->id;
	to = e->failed ? NULL : find(e->peer);
	if (!to) {
		pthread_mutex_unlock(&fake.lock);
		free(m);
		return DOCA_ERROR_CONNECTION_RESET;
	}
	log_sent(e->worker, m);
	if (fake.swap_to == (int)to->index && !fake.held) {
		fake.held = m; /* handed over after the next one */
	} else {
		enqueue(to, m);
		if (fake.swap_to == (int)to->index) {
			enqueue(to, fake.held);
			fake.held = NULL;
			fake.swap_to = -1;
		}
	}
	pthread_mutex_unlock(&fake.lock);
	return DOCA_SUCCESS;
}

static doca_error_t ep_send_now(struct xport_ep *ep, const void *hdr, size_t hdr_len)
{
	return ep_send(ep, hdr, hdr_len, NULL, 0, NULL, NULL, NULL);
}

/* A sender is a worker: another id is another worker. */
static bool ep_same_peer(const struct xport_ep *ep, uintptr_t sender)
{
	(void)ep;
	(void)sender;
	return false;
}

static doca_error_t rx_receive(struct xport_worker *worker, struct xport_rx *rx,
                               const struct xport_iov *iov, size_t iovcnt, xport_done_fn done,
                               void *arg, struct xport_op **op)
{
	struct fake_op *o;

	if (op)
		*op = NULL;
	o = calloc(1, sizeof(*o));
	if (!o || iovcnt > SDOCA_ARRAY_SIZE(o->iov)) {
		free(o);
		xport_rx_release(worker, rx);
		return DOCA_ERROR_NO_MEMORY;
	}
	o->msg = rx->desc;
	o->msg->taken = true;
	memcpy(o->iov, iov, iovcnt * sizeof(*iov));
	o->iovcnt = iovcnt;
	o->super.done = done;
	o->super.arg = arg;
	o->next = fake_to_worker(worker)->landing;
	fake_to_worker(worker)->landing = o;
	rx->desc = NULL;
	if (op)
		*op = &o->super;
	return DOCA_ERROR_IN_PROGRESS;
}

/* A held rendezvous payload: the message it waits in. */
static void rx_release(struct xport_worker *worker, struct xport_rx *rx)
{
	(void)worker;
	free(rx->desc);
}

const struct xport_ops fake_xport_ops = {
	.name = "fake",
	.worker_create = worker_create,
	.worker_destroy = worker_destroy,
	.worker_address = worker_address,
	.worker_progress = worker_progress,
	.worker_fd = worker_fd,
	.worker_arm = worker_arm,
	.ep_create = ep_create,
	.ep_close = ep_close,
	.send = ep_send,
	.send_now = ep_send_now,
	.same_peer = ep_same_peer,
	.rx_receive = rx_receive,
	.rx_release = rx_release,
	.listen = fake_listen,
	.listener_port = fake_listener_port,
	.listener_close = fake_listener_close,
	.accept = fake_accept,
	.reject = fake_reject,
	.connect = fake_connect,
};

int fake_xport_group_use_fake(void **state)
{
	(void)state;
	xport_set_ops_for_tests(&fake_xport_ops);
	return 0;
}

int fake_xport_group_use_shm(void **state)
{
	(void)state;
	xport_set_ops_for_tests(NULL);
	setenv("SOFTDOCA_TRANSPORT", "shm", 1);
	return 0;
}

int fake_xport_group_use_tcp(void **state)
{
	(void)state;
	xport_set_ops_for_tests(NULL);
	setenv("SOFTDOCA_TRANSPORT", "tcp", 1);
	return 0;
}
