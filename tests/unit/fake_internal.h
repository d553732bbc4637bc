/*
 * softdoca tests: what the two files of the fake transport instance share -
 * fake_transport.c (workers, endpoints, messages) and fake_listen.c
 * (listeners, connection requests, clients).
 */
#ifndef SDOCA_TESTS_FAKE_INTERNAL_H_
#define SDOCA_TESTS_FAKE_INTERNAL_H_

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/compiler.h"
#include "transport/xport.h"
#include "unit/fake_transport.h"

struct fake_msg {
	struct fake_msg *next;
	uint64_t from; /* the sending worker's id (0: nobody's, an injected stranger's) */
	bool taken;    /* a rendezvous payload a receive took over */
	size_t hdr_len;
	size_t len;
	uint8_t *data; /* the payload, after the header in the same allocation */
	uint8_t hdr[];
};

/* A rendezvous receive in flight. */
struct fake_op {
	struct xport_op super;
	struct fake_op *next;
	struct fake_msg *msg; /* the payload */
	struct xport_iov iov[16];
	size_t iovcnt;
};

struct fake_worker {
	struct xport_worker super;
	uint64_t id; /* its address */
	unsigned int index;
	xport_recv_fn recv;
	void *recv_arg;
	struct fake_msg *head, *tail;
	struct fake_op *landing; /* receives that land at the next progress (owner's lock) */
	int fd;
	bool armed;
	struct fake_ep *eps; /* to report their failures */
	bool paused;         /* hands over no message (fake_xport_pause) */
	unsigned int sent_count;
	struct fake_sent sent[FAKE_SENT_LOG]; /* the last it sent, by count modulo */
	struct fake_worker *next;
};

struct fake_ep {
	struct xport_ep super;
	struct fake_worker *worker;
	uint64_t peer;
	xport_ep_error_fn on_error;
	xport_connected_fn connected; /* a client's, until it ran */
	void *reply;                  /* ... with the server's data */
	size_t reply_len;
	void *arg;
	bool connecting;     /* a client whose request is not answered yet */
	bool news;           /* status to report at the next progress */
	doca_error_t status; /* a client's outcome, or the failure */
	bool failed;
	struct fake_ep *next;
};

struct fake_request {
	struct xport_conn_request super; /* super.data: the client's, ours */
	struct fake_listener *listener;
	struct fake_ep *client; /* NULL once it closed */
	bool delivered;
	struct fake_request *next;
};

struct fake_listener {
	struct xport_listener super;
	struct fake_worker *worker;
	int family;
	uint16_t port;
	xport_conn_request_fn on_request;
	void *arg;
	struct fake_request *requests; /* not answered yet */
	struct fake_listener *next;
};

/* Workers and their queues: senders and receivers run on different threads
 * (the application's, the service threads). */
struct fake_state {
	pthread_mutex_t lock;
	struct fake_worker *workers;
	unsigned int created;
	int swap_to;           /* the worker whose next two messages swap, or -1 */
	struct fake_msg *held; /* the first of them, until the second came */
	size_t rndv_from;      /* payloads this large travel by rendezvous (0: none) */
	struct fake_listener *listeners;
	uint16_t next_port; /* for port 0 */
};
extern struct fake_state fake;

static inline struct fake_worker *fake_to_worker(const struct xport_worker *w)
{
	return sdoca_container_of(w, struct fake_worker, super);
}

/* fake_transport.c (fake.lock held where they say so) */
void fake_wake(struct fake_worker *w);
void fake_tell_ep(struct fake_ep *e, doca_error_t status);
struct fake_ep *fake_new_ep(struct fake_worker *w, uint64_t peer, xport_ep_error_fn on_error,
                            void *arg);
void fake_add_ep(struct fake_ep *e);

/* fake_listen.c: the listener operations of fake_xport_ops */
doca_error_t fake_listen(struct xport_worker *worker, const struct sockaddr *addr, size_t addr_len,
                         xport_conn_request_fn on_request, void *arg,
                         struct xport_listener **listener);
uint16_t fake_listener_port(const struct xport_listener *listener);
void fake_listener_close(struct xport_listener *listener);
doca_error_t fake_accept(struct xport_conn_request *request, const void *data, size_t len,
                         xport_ep_error_fn on_error, void *arg, struct xport_ep **ep);
void fake_reject(struct xport_conn_request *request, const void *data, size_t len);
doca_error_t fake_connect(struct xport_worker *worker, const struct sockaddr *addr, size_t addr_len,
                          const void *data, size_t len, xport_connected_fn connected,
                          xport_ep_error_fn on_error, void *arg, struct xport_ep **ep);

#endif /* SDOCA_TESTS_FAKE_INTERNAL_H_ */
