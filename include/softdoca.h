/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * softdoca's own extensions: things real DOCA hardware does not offer but a
 * software implementation can (introspection, counters, fault injection).
 * Programs that want to stay portable to real DOCA guard their use with
 * #ifdef SOFTDOCA.
 */
#ifndef SOFTDOCA_H_
#define SOFTDOCA_H_

#include <stdint.h>

#include "doca_compat.h"
#include "doca_error.h"
#include "doca_version.h"

/* Defined when the DOCA headers in use are softdoca's. */
#define SOFTDOCA 1

SOFTDOCA_BEGIN_DECLS

/* softdoca's release, e.g. "0.1.0" (doca_version_runtime() gives the DOCA API level). */
DOCA_STABLE const char *softdoca_version(void);

/* Memory keys registered in this process: one per started local mmap and per
 * started sync event. A key disappears when its mmap or event is stopped or
 * destroyed (useful in leak checks). */
DOCA_STABLE uint32_t softdoca_num_memory_keys(void);

struct doca_devinfo;
struct doca_rdma_connection;

/* The most connections one RDMA context on this device can hold: the largest
 * value doca_rdma_set_max_num_connections() accepts (1024 on every softdoca
 * device). DOCA has no capability query for it. */
DOCA_STABLE doca_error_t softdoca_rdma_cap_get_max_num_connections(
        const struct doca_devinfo *devinfo, uint32_t *max_num_connections);

/* What one RDMA connection did, as seen from this side. */
struct softdoca_rdma_counters {
	uint64_t requests_posted;    /* sends, writes, reads, atomics submitted */
	uint64_t requests_completed; /* ... and completed, with success or error */
	uint64_t bytes_sent;         /* payload of sends and writes */
	uint64_t bytes_read;         /* payload of read responses received */
	uint64_t requests_served;    /* the peer's requests executed here */
	uint64_t bytes_placed;       /* payload the peer wrote or sent here */
	uint64_t rnr_waits;          /* the peer's requests that waited for a receive */
	uint64_t rnr_notices;        /* this side's requests the peer made wait */
	uint64_t naks_sent;          /* the peer's requests refused here */
	uint64_t naks_received;      /* this side's requests the peer refused */
	uint64_t timeouts;           /* requests failed for want of an answer */
};

/* Reads the counters of a connection (any thread), from its export or
 * request until its context stops, or until the callback that reported its
 * end returned. */
DOCA_STABLE doca_error_t
softdoca_rdma_connection_get_counters(const struct doca_rdma_connection *rdma_connection,
                                      struct softdoca_rdma_counters *counters);

/* The private data the peer gave when the connection was set up through a
 * listener: the server's doca_rdma_connection_accept() data, on the client
 * (DOCA has no call to read it). NULL and 0 if it gave none. */
DOCA_STABLE doca_error_t
softdoca_rdma_connection_get_private_data(const struct doca_rdma_connection *rdma_connection,
                                          const void **private_data, uint8_t *private_data_len);

SOFTDOCA_END_DECLS

#endif /* SOFTDOCA_H_ */
