/*
 * softdoca tests: an in-process stand-in for the UCX transport (the whole of
 * transport/xport.h), so that the soft NIC's protocol can be driven message
 * by message. Messages between the workers of this process are queued and
 * handed over at the receiver's next progress; a test can have the next two
 * messages to a worker handed over in the opposite order, as UCX may under
 * load. Payloads are eager unless a test makes large ones travel by
 * rendezvous: then their receive lands at the receiver's next progress.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "transport/xport.h"
#include "unit/fake_transport.h"

struct fake_msg {
	struct fake_msg *next;
	size_t hdr_len;
	size_t len;
	uint8_t *data; /* the payload, after the header in the same allocation */
	uint8_t hdr[];
};

/* A rendezvous receive in flight (an xport_op). */
struct fake_op {
	struct fake_op *next;
	struct fake_msg *msg; /* the payload */
	struct xport_iov iov[16];
	size_t iovcnt;
	xport_done_fn done; /* NULL once abandoned */
	void *arg;
};

struct xport_worker {
	uint64_t id; /* its address */
	unsigned int index;
	xport_recv_fn recv;
	void *recv_arg;
	struct fake_msg *head, *tail;
	struct fake_op *ops; /* receives that land at the next progress (owner's lock) */
	int fd;
	bool armed;
	struct xport_worker *next;
};

struct xport_ep {
	uint64_t peer;
};

/* Workers and their queues: senders and receivers run on different threads
 * (the application's, the service threads). */
static struct {
	pthread_mutex_t lock;
	struct xport_worker *workers;
	unsigned int created;
	int swap_to;           /* the worker whose next two messages swap, or -1 */
	struct fake_msg *held; /* the first of them, until the second came */
	size_t rndv_from;      /* payloads this large travel by rendezvous (0: none) */
} fake = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, -1, NULL, 0 };

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

static struct xport_worker *find(uint64_t id)
{
	struct xport_worker *w = fake.workers;

	while (w && w->id != id)
		w = w->next;
	return w;
}

static void enqueue(struct xport_worker *w, struct fake_msg *m)
{
	m->next = NULL;
	if (w->tail)
		w->tail->next = m;
	else
		w->head = m;
	w->tail = m;
	if (w->armed) {
		uint64_t one = 1;

		w->armed = false;
		if (write(w->fd, &one, sizeof(one)) < 0)
			abort();
	}
}

doca_error_t xport_mode_from_env(enum xport_mode *mode)
{
	*mode = XPORT_AUTO;
	return DOCA_SUCCESS;
}

doca_error_t xport_worker_create(const char *ifname, enum xport_mode mode, xport_recv_fn recv,
                                 void *recv_arg, struct xport_worker **worker)
{
	struct xport_worker *w = calloc(1, sizeof(*w));

	(void)ifname;
	(void)mode;
	if (!w)
		return DOCA_ERROR_NO_MEMORY;
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
	*worker = w;
	return DOCA_SUCCESS;
}

void xport_worker_destroy(struct xport_worker *worker)
{
	struct xport_worker **link;

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
	while (worker->ops) {
		struct fake_op *o = worker->ops;

		worker->ops = o->next;
		free(o->msg);
		free(o);
	}
	close(worker->fd);
	free(worker);
}

void xport_worker_address(const struct xport_worker *worker, const void **addr, size_t *len)
{
	*addr = &worker->id;
	*len = sizeof(worker->id);
}

/* Scatters len bytes from src over iov. */
static void copy_out(const uint8_t *src, size_t len, const struct xport_iov *iov, size_t iovcnt)
{
	for (size_t i = 0; i < iovcnt && len > 0; i++) {
		size_t n = iov[i].len < len ? iov[i].len : len;

		memcpy(iov[i].base, src, n);
		src += n;
		len -= n;
	}
}

/* The rendezvous receives started before this progress land now. */
static unsigned int land_receives(struct xport_worker *worker)
{
	struct fake_op *o = worker->ops;
	unsigned int events = 0;

	worker->ops = NULL;
	while (o) {
		struct fake_op *next = o->next;

		if (o->done) {
			copy_out(o->msg->data, o->msg->len, o->iov, o->iovcnt);
			o->done(o->arg, DOCA_SUCCESS);
		}
		free(o->msg);
		free(o);
		o = next;
		events++;
	}
	return events;
}

unsigned int xport_worker_progress(struct xport_worker *worker)
{
	unsigned int events = land_receives(worker);

	for (;;) {
		struct fake_msg *m;
		struct xport_rx rx = { 0 };

		pthread_mutex_lock(&fake.lock);
		m = worker->head;
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
		if (rx.rndv)
			rx.desc = m; /* the payload stays here until received or released */
		else
			rx.data = m->data;
		(void)worker->recv(worker->recv_arg, m->hdr, m->hdr_len, &rx);
		if (!rx.rndv)
			free(m); /* a kept rx holds its own copy (xport_rx_hold) */
		events++;
	}
}

int xport_worker_fd(const struct xport_worker *worker)
{
	return worker->fd;
}

bool xport_worker_arm(struct xport_worker *worker)
{
	uint64_t count;
	bool armed;

	pthread_mutex_lock(&fake.lock);
	armed = worker->head == NULL;
	worker->armed = armed;
	if (armed && read(worker->fd, &count, sizeof(count)) < 0 && errno != EAGAIN)
		abort();
	pthread_mutex_unlock(&fake.lock);
	return armed;
}

doca_error_t xport_ep_create(struct xport_worker *worker, const void *addr, size_t len,
                             xport_ep_error_fn on_error, void *arg, struct xport_ep **ep)
{
	struct xport_ep *e;
	uint64_t id;

	(void)worker;
	(void)on_error;
	(void)arg;
	if (len != sizeof(id))
		return DOCA_ERROR_INVALID_VALUE;
	memcpy(&id, addr, sizeof(id));
	e = malloc(sizeof(*e));
	if (!e)
		return DOCA_ERROR_NO_MEMORY;
	e->peer = id;
	*ep = e;
	return DOCA_SUCCESS;
}

void xport_ep_close(struct xport_ep *ep, bool force)
{
	(void)force;
	free(ep);
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
	m->hdr_len = hdr_len;
	m->data = m->hdr + hdr_len;
	m->len = len;
	for (size_t i = 0; i < iovcnt; i++) {
		memcpy(m->data + at, iov[i].base, iov[i].len);
		at += iov[i].len;
	}
	return m;
}

bool fake_xport_inject(unsigned int worker_index, const void *hdr, size_t hdr_len,
                       const void *payload, size_t len)
{
	struct xport_iov iov = { (void *)(uintptr_t)payload, len };
	struct fake_msg *m = new_msg(hdr, hdr_len, &iov, len ? 1 : 0);
	struct xport_worker *to;

	if (!m)
		return false;
	pthread_mutex_lock(&fake.lock);
	for (to = fake.workers; to && to->index != worker_index; to = to->next)
		;
	if (to)
		enqueue(to, m);
	pthread_mutex_unlock(&fake.lock);
	if (!to)
		free(m);
	return to != NULL;
}

doca_error_t xport_send(struct xport_ep *ep, const void *hdr, size_t hdr_len,
                        const struct xport_iov *iov, size_t iovcnt, xport_done_fn done, void *arg,
                        struct xport_op **op)
{
	struct xport_worker *to;
	struct fake_msg *m;

	(void)done;
	(void)arg;
	if (op)
		*op = NULL;
	m = new_msg(hdr, hdr_len, iov, iovcnt);
	if (!m)
		return DOCA_ERROR_NO_MEMORY;
	pthread_mutex_lock(&fake.lock);
	to = find(ep->peer);
	if (!to) {
		pthread_mutex_unlock(&fake.lock);
		free(m);
		return DOCA_ERROR_CONNECTION_RESET;
	}
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

doca_error_t xport_send_now(struct xport_ep *ep, const void *hdr, size_t hdr_len)
{
	return xport_send(ep, hdr, hdr_len, NULL, 0, NULL, NULL, NULL);
}

bool xport_rx_hold(struct xport_rx *rx)
{
	void *copy;

	if (rx->held)
		return true;
	if (rx->rndv) { /* the payload waits in its message */
		rx->held = true;
		return true;
	}
	copy = rx->len ? malloc(rx->len) : NULL;
	if (rx->len && !copy)
		return false;
	if (copy)
		memcpy(copy, rx->data, rx->len);
	rx->data = copy;
	rx->desc = copy;
	rx->held = true;
	return true;
}

void xport_rx_copy(struct xport_worker *worker, struct xport_rx *rx, const struct xport_iov *iov,
                   size_t iovcnt)
{
	copy_out(rx->data, rx->len, iov, iovcnt);
	xport_rx_release(worker, rx);
}

doca_error_t xport_rx_receive(struct xport_worker *worker, struct xport_rx *rx,
                              const struct xport_iov *iov, size_t iovcnt, xport_done_fn done,
                              void *arg, struct xport_op **op)
{
	struct fake_op *o;

	if (op)
		*op = NULL;
	if (!rx->rndv) {
		xport_rx_copy(worker, rx, iov, iovcnt);
		return DOCA_SUCCESS;
	}
	o = calloc(1, sizeof(*o));
	if (!o || iovcnt > 16) {
		free(o);
		xport_rx_release(worker, rx);
		return DOCA_ERROR_NO_MEMORY;
	}
	o->msg = rx->desc;
	memcpy(o->iov, iov, iovcnt * sizeof(*iov));
	o->iovcnt = iovcnt;
	o->done = done;
	o->arg = arg;
	o->next = worker->ops;
	worker->ops = o;
	rx->desc = NULL;
	if (op)
		*op = (struct xport_op *)o;
	return DOCA_ERROR_IN_PROGRESS;
}

void xport_op_abandon(struct xport_op *op)
{
	/* A send completes at once (no op); a receive lands with nobody told. */
	((struct fake_op *)(void *)op)->done = NULL;
}

void xport_rx_release(struct xport_worker *worker, struct xport_rx *rx)
{
	(void)worker;
	if (rx->held || rx->rndv) /* our copy, or the message the payload waits in */
		free(rx->desc);
	rx->desc = NULL;
}
