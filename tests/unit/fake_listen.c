/*
 * softdoca tests: connection set-up of the fake transport instance.
 * Listeners are a table of (family, port); a connection request reaches the
 * listener's worker at its next progress, and its answer the client's.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "unit/fake_internal.h"
#include "unit/fake_transport.h"

static struct fake_listener *to_listener(const struct xport_listener *l)
{
	return sdoca_container_of(l, struct fake_listener, super);
}

static struct fake_listener *find_listener(int family, uint16_t port)
{
	struct fake_listener *l = fake.listeners;

	while (l && (l->family != family || l->port != port))
		l = l->next;
	return l;
}

doca_error_t fake_listen(struct xport_worker *worker, const struct sockaddr *addr, size_t addr_len,
                         xport_conn_request_fn on_request, void *arg,
                         struct xport_listener **listener)
{
	struct fake_listener *l;
	uint16_t port = xport_sockaddr_port(addr);

	(void)addr_len;
	if (addr->sa_family != AF_INET && addr->sa_family != AF_INET6)
		return DOCA_ERROR_INVALID_VALUE;
	l = calloc(1, sizeof(*l));
	if (!l)
		return DOCA_ERROR_NO_MEMORY;
	l->super.ops = &fake_xport_ops;
	l->worker = fake_to_worker(worker);
	l->family = addr->sa_family;
	l->on_request = on_request;
	l->arg = arg;
	pthread_mutex_lock(&fake.lock);
	while (port == 0 && find_listener(l->family, fake.next_port))
		fake.next_port++;
	l->port = port ? port : fake.next_port++;
	if (find_listener(l->family, l->port)) {
		pthread_mutex_unlock(&fake.lock);
		free(l);
		return DOCA_ERROR_IN_USE;
	}
	l->next = fake.listeners;
	fake.listeners = l;
	pthread_mutex_unlock(&fake.lock);
	*listener = &l->super;
	return DOCA_SUCCESS;
}

uint16_t fake_listener_port(const struct xport_listener *listener)
{
	return to_listener(listener)->port;
}

/* Takes r off its listener (fake.lock held). */
static void unlink_request(struct fake_request *r)
{
	struct fake_request **link = &r->listener->requests;

	while (*link != r)
		link = &(*link)->next;
	*link = r->next;
}

void fake_reject(struct xport_conn_request *request)
{
	struct fake_request *r = sdoca_container_of(request, struct fake_request, super);

	pthread_mutex_lock(&fake.lock);
	unlink_request(r);
	if (r->client)
		fake_tell_ep(r->client, DOCA_ERROR_CONNECTION_RESET);
	pthread_mutex_unlock(&fake.lock);
	free(r);
}

void fake_listener_close(struct xport_listener *listener)
{
	struct fake_listener *l = to_listener(listener), **link;

	while (l->requests)
		fake_reject(&l->requests->super);
	pthread_mutex_lock(&fake.lock);
	for (link = &fake.listeners; *link != l; link = &(*link)->next)
		;
	*link = l->next;
	pthread_mutex_unlock(&fake.lock);
	free(l);
}

doca_error_t fake_accept(struct xport_conn_request *request, xport_ep_error_fn on_error, void *arg,
                         struct xport_ep **ep)
{
	struct fake_request *r = sdoca_container_of(request, struct fake_request, super);
	struct fake_worker *w = r->listener->worker;
	struct fake_ep *e = NULL, *client;
	doca_error_t status = DOCA_SUCCESS;

	pthread_mutex_lock(&fake.lock);
	unlink_request(r);
	client = r->client;
	if (!client)
		status = DOCA_ERROR_CONNECTION_RESET; /* it gave up already */
	else if (!(e = fake_new_ep(w, client->worker->id, on_error, arg)))
		status = DOCA_ERROR_NO_MEMORY;
	if (status == DOCA_SUCCESS) {
		fake_add_ep(e);
		fake_tell_ep(client, DOCA_SUCCESS);
		*ep = &e->super;
	} else if (client) {
		fake_tell_ep(client, DOCA_ERROR_CONNECTION_RESET);
	}
	pthread_mutex_unlock(&fake.lock);
	free(r);
	return status;
}

doca_error_t fake_connect(struct xport_worker *worker, const struct sockaddr *addr, size_t addr_len,
                          xport_done_fn connected, xport_ep_error_fn on_error, void *arg,
                          struct xport_ep **ep)
{
	struct fake_ep *e = fake_new_ep(fake_to_worker(worker), 0, on_error, arg);
	struct fake_request *r = calloc(1, sizeof(*r));
	struct fake_listener *l;

	(void)addr_len;
	if (!e || !r) {
		free(e);
		free(r);
		return DOCA_ERROR_NO_MEMORY;
	}
	r->super.ops = &fake_xport_ops;
	r->client = e;
	e->connecting = true;
	e->connected = connected;
	pthread_mutex_lock(&fake.lock);
	fake_add_ep(e);
	l = find_listener(addr->sa_family, xport_sockaddr_port(addr));
	if (l) {
		e->peer = l->worker->id;
		e->super.peer_id = (uintptr_t)e->peer;
		struct fake_request **link = &l->requests;

		while (*link) /* in the order they came */
			link = &(*link)->next;
		r->listener = l;
		*link = r;
		fake_wake(l->worker);
	} else {
		fake_tell_ep(e, DOCA_ERROR_CONNECTION_RESET); /* nobody listens: refused */
		free(r);
	}
	pthread_mutex_unlock(&fake.lock);
	*ep = &e->super;
	return DOCA_SUCCESS;
}
