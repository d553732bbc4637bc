/*
 * softdoca tests: connection set-up of the fake transport instance.
 * Listeners are a table of (family, port); a connection request reaches the
 * listener's worker at its next progress, and its answer the client's.
 */
#include <netinet/in.h>
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

/* A copy of connection data (NULL for none; false: out of memory). */
static bool copy_data(const void *data, size_t len, void **out, size_t *out_len)
{
	*out = NULL;
	*out_len = 0;
	if (!len)
		return true;
	*out = malloc(len);
	if (!*out)
		return false;
	memcpy(*out, data, len);
	*out_len = len;
	return true;
}

static void free_request(struct fake_request *r)
{
	free((void *)r->super.data);
	free(r);
}

/* Takes r off its listener (fake.lock held). */
static void unlink_request(struct fake_request *r)
{
	struct fake_request **link = &r->listener->requests;

	while (*link != r)
		link = &(*link)->next;
	*link = r->next;
}

void fake_reject(struct xport_conn_request *request, const void *data, size_t len)
{
	struct fake_request *r = sdoca_container_of(request, struct fake_request, super);

	pthread_mutex_lock(&fake.lock);
	unlink_request(r);
	if (r->client) {
		copy_data(data, len, &r->client->reply, &r->client->reply_len);
		fake_tell_ep(r->client, DOCA_ERROR_CONNECTION_ABORTED);
	}
	pthread_mutex_unlock(&fake.lock);
	free_request(r);
}

void fake_listener_close(struct xport_listener *listener)
{
	struct fake_listener *l = to_listener(listener), **link;

	while (l->requests)
		fake_reject(&l->requests->super, NULL, 0);
	pthread_mutex_lock(&fake.lock);
	for (link = &fake.listeners; *link != l; link = &(*link)->next)
		;
	*link = l->next;
	pthread_mutex_unlock(&fake.lock);
	free(l);
}

doca_error_t fake_accept(struct xport_conn_request *request, const void *data, size_t len,
                         xport_ep_error_fn on_error, void *arg, struct xport_ep **ep)
{
	struct fake_request *r = sdoca_container_of(request, struct fake_request, super);
	struct fake_worker *w = r->listener->worker;
	struct fake_ep *e = NULL, *client;
	doca_error_t status = DOCA_SUCCESS;

	pthread_mutex_lock(&fake.lock);
	unlink_request(r);
	client = r->client;
	if (len > XPORT_CONN_DATA_MAX)
		status = DOCA_ERROR_INVALID_VALUE;
	else if (!client)
		status = DOCA_ERROR_CONNECTION_RESET; /* it gave up already */
	else if (!(e = fake_new_ep(w, client->worker->id, on_error, arg)) ||
	         !copy_data(data, len, &client->reply, &client->reply_len))
		status = DOCA_ERROR_NO_MEMORY;
	if (status == DOCA_SUCCESS) {
		fake_add_ep(e);
		fake_tell_ep(client, DOCA_SUCCESS);
		*ep = &e->super;
	} else {
		free(e);
		if (client)
			fake_tell_ep(client, DOCA_ERROR_CONNECTION_ABORTED);
	}
	pthread_mutex_unlock(&fake.lock);
	free_request(r);
	return status;
}

doca_error_t fake_connect(struct xport_worker *worker, const struct sockaddr *addr, size_t addr_len,
                          const void *data, size_t len, xport_connected_fn connected,
                          xport_ep_error_fn on_error, void *arg, struct xport_ep **ep)
{
	struct fake_ep *e = fake_new_ep(fake_to_worker(worker), 0, on_error, arg);
	struct fake_request *r = calloc(1, sizeof(*r));
	struct fake_listener *l;
	void *copy = NULL;

	(void)addr_len;
	if (len > XPORT_CONN_DATA_MAX) {
		free(e);
		free(r);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!e || !r || !copy_data(data, len, &copy, &r->super.data_len)) {
		free(e);
		free(r);
		return DOCA_ERROR_NO_MEMORY;
	}
	r->super.data = copy;
	r->super.ops = &fake_xport_ops;
	/* The client's address: loopback, as far as the fake knows. */
	if (addr->sa_family == AF_INET6) {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)r->super.peer;

		in6->sin6_family = AF_INET6;
		in6->sin6_addr = in6addr_loopback;
		r->super.peer_len = sizeof(*in6);
	} else {
		struct sockaddr_in *in = (struct sockaddr_in *)r->super.peer;

		in->sin_family = AF_INET;
		in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		r->super.peer_len = sizeof(*in);
	}
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
		fake_tell_ep(e, DOCA_ERROR_CONNECTION_ABORTED); /* nobody listens: refused */
		free_request(r);
	}
	pthread_mutex_unlock(&fake.lock);
	*ep = &e->super;
	return DOCA_SUCCESS;
}
