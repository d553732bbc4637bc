/*
 * softdoca DPA examples - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * What the DPA examples' host parts share, written against the public DOCA
 * API only (as a program for a BlueField would be): the device argument,
 * opening a device with DPA, a started DPA running the examples' program,
 * sync events, mmaps and RDMA contexts on the DPA data path, and the
 * exchange of connection blobs through files.
 */
#ifndef DPA_EXAMPLES_COMMON_H_
#define DPA_EXAMPLES_COMMON_H_

#include <stddef.h>
#include <stdint.h>

#include <doca_dev.h>
#include <doca_dpa.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_rdma.h>
#include <doca_sync_event.h>

/* The program dpacc built from the example's device source (--app-name). */
extern struct doca_dpa_app *dpa_sample_app;

#define DPA_DEVICE_NAME_LEN 64
#define DPA_PATH_LEN 1024

/* Every example takes -d DEVICE (IB device or interface name; default:
 * the first device with DPA). */
struct dpa_config {
	char device_name[DPA_DEVICE_NAME_LEN];
	/* the two-process examples: where this side writes its blobs and
	 * where the peer writes its own */
	char local_file[DPA_PATH_LEN];
	char remote_file[DPA_PATH_LEN];
	int server;
};

/* The DOCA objects every example needs. */
struct dpa_resources {
	struct doca_dev *dev;
	struct doca_dpa *dpa;
};

/* Log backends, argp with -d (and -l, -r, -s when files is set), parse. */
doca_error_t dpa_common_init(const char *name, struct dpa_config *cfg, int files, int argc,
                             char **argv);
void dpa_common_fini(void);

/* Opens the device and starts a DPA running dpa_sample_app. */
doca_error_t dpa_resources_create(const struct dpa_config *cfg, struct dpa_resources *res);
doca_error_t dpa_resources_destroy(struct dpa_resources *res);

/* A started sync event: publisher and subscriber are DPA or CPU as asked;
 * its DPA handle in *handle when handle is not NULL. */
enum dpa_location { DPA_LOC_CPU, DPA_LOC_DPA, DPA_LOC_REMOTE_NET };
doca_error_t dpa_sync_event_create(struct dpa_resources *res, enum dpa_location publisher,
                                   enum dpa_location subscriber, struct doca_sync_event **ev,
                                   doca_dpa_dev_sync_event_t *handle);
doca_error_t dpa_sync_event_destroy(struct doca_sync_event *ev);

/* A started mmap over addr (host or DPA memory) with the given access. */
doca_error_t dpa_mmap_create(struct dpa_resources *res, void *addr, size_t len, uint32_t access,
                             struct doca_mmap **mmap, doca_dpa_dev_mmap_t *handle);
doca_error_t dpa_mmap_destroy(struct doca_mmap *mmap);

/* A started RDMA context on the DPA data path whose completions go to
 * comp (a started completion context). */
doca_error_t dpa_rdma_create(struct dpa_resources *res, struct doca_dpa_completion *comp,
                             uint32_t queue_size, uint32_t max_connections, struct doca_rdma **rdma,
                             doca_dpa_dev_rdma_t *handle);
doca_error_t dpa_rdma_destroy(struct doca_rdma *rdma);

/* Connects a (one new connection) to b (another one): both directions. */
doca_error_t dpa_rdma_connect_pair(struct doca_rdma *a, struct doca_rdma *b, uint32_t *a_conn_id,
                                   uint32_t *b_conn_id);

/* Writes data to path (under a temporary name, then renamed). */
doca_error_t dpa_file_write(const char *path, const void *data, size_t len);
/* Waits up to 60 s for path to appear, then reads it whole (free() it). */
doca_error_t dpa_file_wait(const char *path, void **data, size_t *len);

#endif /* DPA_EXAMPLES_COMMON_H_ */
