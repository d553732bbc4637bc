/*
 * softdoca integration tests: sync_refused - a peer's request on a sync
 * event refused for each reason the responder has (an event without the
 * remote-net publisher location, a wrong key, a stopped event, a destroyed
 * one). Each fails that task only, with NOT_PERMITTED; the event's value
 * stays; the connection stays up, and the next request on it, to a good
 * event, succeeds.
 *
 * An event without the remote-net location cannot be exported: the server
 * forges its blob from the key its struct holds, as only a peer that
 * guessed 128 bits could.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_sync_event.h>

#include "core/bytes.h"
#include "core/sync_event.h"
#include "peer.h"
#include "peer_sync.h"

#define BODY 16 /* the blob's body: key at +16, value address at +32 (wire.md) */

/* The good event's blob, naming another event's key and value instead. */
static void send_forged(struct peer *p, struct doca_sync_event *good,
                        const struct doca_sync_event *other)
{
	const uint8_t *data;
	uint8_t *copy;
	size_t sz;

	CHECK(doca_sync_event_export_to_remote_net(good, &data, &sz));
	copy = malloc(sz);
	EXPECT(copy, "out of memory");
	memcpy(copy, data, sz);
	sdoca_key_encode(&other->key, copy + BODY + 16);
	sdoca_put_le64(copy + BODY + 32, (uintptr_t)other->value);
	sync_reseal(copy, sz);
	oob_send(p->oob[0], copy, sz);
	free(copy);
}

void sync_refused_server(struct peer *p)
{
	struct doca_sync_event *good, *plain, *stopped, *destroyed;
	uint64_t *destroyed_value;

	oob_accept(p);
	server_prepare(p, 4096, ALL_RDMA);
	peer_connect(p, 0);
	destroyed_value = (uint64_t *)(void *)(p->mem + 64); /* outlives its event */
	good = sync_new_event(p, true, NULL);
	plain = sync_new_event(p, false, NULL);
	stopped = sync_new_event(p, true, NULL);
	destroyed = sync_new_event(p, true, destroyed_value);
	CHECK(doca_sync_event_update_set(good, 100));
	CHECK(doca_sync_event_update_set(plain, 200));
	CHECK(doca_sync_event_update_set(stopped, 300));
	CHECK(doca_sync_event_update_set(destroyed, 400));
	sync_send_event(p, 0, good);
	send_forged(p, good, plain);
	sync_send_event(p, 0, stopped);
	sync_send_event(p, 0, destroyed);
	oob_expect(p->oob[0], "stop it", WAIT_MS);
	CHECK(doca_sync_event_stop(stopped));
	report(p, 0, "stopped");
	oob_expect(p->oob[0], "destroy it", WAIT_MS);
	CHECK(doca_sync_event_stop(destroyed));
	CHECK(doca_sync_event_destroy(destroyed));
	report(p, 0, "destroyed");
	oob_expect(p->oob[0], "check", WAIT_MS);
	/* 4 good adds of 1, nothing else */
	sync_expect_value("the good event", sync_value(good), 104);
	sync_expect_value("the event without the location", sync_value(plain), 200);
	sync_expect_value("the stopped event", sync_value(stopped), 300);
	sync_expect_value("the destroyed event's memory",
	                  __atomic_load_n(destroyed_value, __ATOMIC_SEQ_CST), 400);
	report(p, 0, "OK");
	oob_expect(p->oob[0], "bye", WAIT_MS);
	CHECK(doca_sync_event_stop(good));
	CHECK(doca_sync_event_destroy(good));
	CHECK(doca_sync_event_stop(plain));
	CHECK(doca_sync_event_destroy(plain));
	CHECK(doca_sync_event_destroy(stopped));
	peer_stop(p);
}

/* Every request on rev is refused; then the good event answers. */
static void expect_refused(struct peer *p, struct doca_sync_event_remote_net *rev,
                           struct doca_sync_event_remote_net *good, uint64_t good_before,
                           const char *what)
{
	uint64_t v = 0, fetched = 0;

	EXPECT(sync_remote_set(p, rev, 7) == DOCA_ERROR_NOT_PERMITTED, "%s: set not refused", what);
	EXPECT(sync_remote_add(p, rev, 7, &fetched) == DOCA_ERROR_NOT_PERMITTED,
	       "%s: add not refused", what);
	EXPECT(sync_remote_get(p, rev, &v) == DOCA_ERROR_NOT_PERMITTED, "%s: get not refused",
	       what);
	/* only that task failed: the connection is up */
	CHECK(sync_remote_add(p, good, 1, &fetched));
	sync_expect_value(what, fetched, good_before);
	printf("refused: %s\n", what);
}

void sync_refused_client(struct peer *p)
{
	struct doca_sync_event_remote_net *good, *plain, *stopped, *destroyed, *wrong;
	uint8_t *blob;
	size_t len;

	client_prepare(p, 4096);
	peer_connect(p, 0);
	blob = oob_recv(p->oob[0], &len, WAIT_MS);
	CHECK(doca_sync_event_remote_net_create_from_export(p->dev, blob, len, &good));
	blob[BODY + 16 + 8] ^= 1; /* the key's tag */
	sync_reseal(blob, len);
	CHECK(doca_sync_event_remote_net_create_from_export(p->dev, blob, len, &wrong));
	free(blob);
	plain = sync_recv_event(p, 0);
	stopped = sync_recv_event(p, 0);
	destroyed = sync_recv_event(p, 0);
	expect_refused(p, wrong, good, 100, "a wrong key");
	expect_refused(p, plain, good, 101, "no remote-net publisher location");
	report(p, 0, "stop it");
	oob_expect(p->oob[0], "stopped", WAIT_MS);
	expect_refused(p, stopped, good, 102, "a stopped event");
	report(p, 0, "destroy it");
	oob_expect(p->oob[0], "destroyed", WAIT_MS);
	expect_refused(p, destroyed, good, 103, "a destroyed event");
	report(p, 0, "check");
	expect_ok_from_peer(p, 0);
	for (int i = 0; i < 5; i++) {
		struct doca_sync_event_remote_net *all[] = { good, plain, stopped, destroyed,
			                                     wrong };

		CHECK(doca_sync_event_remote_net_destroy(all[i]));
	}
	report(p, 0, "bye");
	peer_stop(p);
}
