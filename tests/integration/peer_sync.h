/*
 * softdoca integration tests: what the sync-event scenarios (peer_sync.c,
 * peer_sync_refused.c, peer_sync_v25.c) share.
 */
#ifndef SDOCA_TESTS_PEER_SYNC_H_
#define SDOCA_TESTS_PEER_SYNC_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>

struct peer;
struct doca_sync_event;
struct doca_sync_event_remote_net;

/* An event of this process: CPU subscriber, the remote-net publisher
 * location if asked, the value at addr if not NULL; started. */
struct doca_sync_event *sync_new_event(struct peer *p, bool remote_net, uint64_t *addr);
uint64_t sync_value(struct doca_sync_event *ev);
void sync_expect_value(const char *what, uint64_t got, uint64_t want);
/* The event's export over oob[i], and its import on the other side. */
void sync_send_event(struct peer *p, int i, struct doca_sync_event *ev);
struct doca_sync_event_remote_net *sync_recv_event(struct peer *p, int i);
/* Seals a forged export blob again (its CRC-32, docs/wire.md). */
void sync_reseal(uint8_t *blob, size_t len);

/* One remote task on connection 0, waited for: its status. The buffers are
 * the first 24 bytes of the peer's memory. */
doca_error_t sync_remote_set(struct peer *p, struct doca_sync_event_remote_net *rev, uint64_t v);
doca_error_t sync_remote_add(struct peer *p, struct doca_sync_event_remote_net *rev, uint64_t add,
                             uint64_t *fetched);
doca_error_t sync_remote_get(struct peer *p, struct doca_sync_event_remote_net *rev,
                             uint64_t *value);
/* The same in the DOCA 2.5 forms (peer_sync_v25.c): an add, then a get. */
doca_error_t sync_v25_add_get(struct peer *p, struct doca_sync_event_remote_net *rev, uint64_t add,
                              uint64_t *fetched, uint64_t *value);

void sync_refused_server(struct peer *p);
void sync_refused_client(struct peer *p);

#endif /* SDOCA_TESTS_PEER_SYNC_H_ */
