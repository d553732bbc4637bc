/*
 * doca_sync_event: life cycle, locations, export and import.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * doca_sync_event: life cycle, locations, where the value lives, and the
 * export to a network peer (docs/wire.md, kind 3) and its import.
 *
 * Life: create -> locations, set_addr / set_doca_buf -> either
 * doca_sync_event_start (a stand-alone event) or doca_ctx_start on
 * doca_sync_event_as_ctx (an event used through tasks) -> export ->
 * stop -> destroy. Both starts register the event's memory key; both stops
 * revoke it, so a peer's later requests are refused and change nothing.
 *
 * Locations softdoca has: CPU publishers and subscribers, a publisher on
 * the network (a peer's RDMA tasks), and DPA publishers and subscribers
 * (kernels in this process, through device handles: sync_event_dpa.c). GPU
 * and PCI-peer locations are NOT_SUPPORTED (no GPU, no PCI peer).
 *
 * The value, the waits and the task forms are in sync_event_wait.c and
 * sync_event_task.c. This file sees the DOCA 2.5 view of the header: it
 * declares every DOCA 3 function too plus the 2.5 names, so one file
 * defines both generations against the header's own prototypes.
 */
#define SOFTDOCA_API_VERSION 205

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <doca_sync_event.h>

#include "core/blob.h"
#include "core/buf.h"
#include "core/bytes.h"
#include "core/dev.h"
#include "core/mmap.h"
#include "core/sdk_log.h"
#include "core/sync_event.h"

SDOCA_LOG_MODULE(sync_event);

#define NO_DPA "the DPA emulation is not built yet"
#define NO_GPU "softdoca has no GPU"
#define NO_PCI "there is no PCI peer (DPU/host) to share an event with; use the network export"

#define RDMA_ALL \
	(DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC)

/* Configuration happens before either kind of start: false (logged) after. */
static bool configurable(const struct doca_sync_event *ev, const char *what)
{
	if (ev->keyed || ev->ctx.state != DOCA_CTX_STATE_IDLE) {
		SDOCA_ERR("%s: the sync event is started (configured before, and started once)",
		          what);
		return false;
	}
	return true;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_create(struct doca_sync_event **event)
{
	struct doca_sync_event *ev;

	if (!sdoca_arg_valid(event))
		return DOCA_ERROR_INVALID_VALUE;
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return DOCA_ERROR_NO_MEMORY;
	/* A sync event context has no device (DOCA attaches none to it). */
	sdoca_ctx_init(&ev->ctx, &sdoca_se_ctx_ops, NULL);
	ev->value = &ev->own_value;
	*event = ev;
	return DOCA_SUCCESS;
}

doca_error_t sdoca_se_activate(struct doca_sync_event *ev)
{
	struct sdoca_key_region region = {
		.addr = (uintptr_t)ev->value,
		.len = sizeof(uint64_t),
		.access = (ev->locations & SDOCA_SE_PUB_REMOTE_NET) ? RDMA_ALL : 0,
		.kind = SDOCA_KEY_SYNC_EVENT,
		.owner = ev,
	};
	doca_error_t status = sdoca_keys_register(&region, &ev->key);

	ev->keyed = status == DOCA_SUCCESS;
	return status;
}

void sdoca_se_deactivate(struct doca_sync_event *ev)
{
	if (!ev->keyed)
		return;
	sdoca_se_dpa_forget(ev);
	sdoca_keys_revoke(&ev->key); /* returns once no responder uses it */
	memset(&ev->key, 0, sizeof(ev->key));
	ev->keyed = false;
	free(ev->blob);
	ev->blob = NULL;
	ev->blob_len = 0;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_destroy(struct doca_sync_event *event)
{
	doca_error_t status;

	if (!sdoca_arg_valid(event))
		return DOCA_ERROR_INVALID_VALUE;
	status = sdoca_ctx_fini(&event->ctx); /* BAD_STATE unless the context is IDLE */
	if (status != DOCA_SUCCESS)
		return status;
	sdoca_se_deactivate(event); /* destroyed without a stop */
	sdoca_se_quiesce(event);
	free(event);
	return DOCA_SUCCESS;
}

static doca_error_t add_location(struct doca_sync_event *ev, uint32_t location, const char *what)
{
	if (!sdoca_arg_valid(ev))
		return DOCA_ERROR_INVALID_VALUE;
	if (!configurable(ev, what))
		return DOCA_ERROR_BAD_STATE;
	ev->locations |= location;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_publisher_location_cpu(struct doca_sync_event *event, struct doca_dev *dev)
{
	if (!sdoca_arg_valid(dev))
		return DOCA_ERROR_INVALID_VALUE;
	return add_location(event, SDOCA_SE_PUB_CPU, __func__);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_publisher_location_dpa(struct doca_sync_event *event, struct doca_dpa *dpa)
{
	if (!sdoca_arg_valid(event) || !sdoca_arg_valid(dpa))
		return DOCA_ERROR_INVALID_VALUE;
	/* DPA kernels run in this process: they update the value in place. */
	return add_location(event, SDOCA_SE_PUB_DPA, __func__);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_publisher_location_gpu(struct doca_sync_event *event, struct doca_gpu *gpu)
{
	if (!sdoca_arg_valid(event) || !sdoca_arg_valid(gpu))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_GPU);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_publisher_location_remote_pci(struct doca_sync_event *event)
{
	if (!sdoca_arg_valid(event))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_PCI);
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* A peer may read, set and add to the value over RDMA once it is exported. */
DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_publisher_location_remote_net(struct doca_sync_event *event)
{
	return add_location(event, SDOCA_SE_PUB_REMOTE_NET, __func__);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_subscriber_location_cpu(struct doca_sync_event *event, struct doca_dev *dev)
{
	if (!sdoca_arg_valid(dev))
		return DOCA_ERROR_INVALID_VALUE;
	return add_location(event, SDOCA_SE_SUB_CPU, __func__);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_subscriber_location_dpa(struct doca_sync_event *event, struct doca_dpa *dpa)
{
	if (!sdoca_arg_valid(event) || !sdoca_arg_valid(dpa))
		return DOCA_ERROR_INVALID_VALUE;
	return add_location(event, SDOCA_SE_SUB_DPA, __func__);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_subscriber_location_gpu(struct doca_sync_event *event, struct doca_gpu *gpu)
{
	if (!sdoca_arg_valid(event) || !sdoca_arg_valid(gpu))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_GPU);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_subscriber_location_remote_pci(struct doca_sync_event *event)
{
	if (!sdoca_arg_valid(event))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_PCI);
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* The value lives in the program's memory: 8 aligned bytes, so that the
 * CPU's 64-bit atomics (local and a peer's) work on it. */
static doca_error_t set_value_addr(struct doca_sync_event *ev, uint64_t *addr, const char *what)
{
	if (!sdoca_arg_valid(ev))
		return DOCA_ERROR_INVALID_VALUE;
	if (!configurable(ev, what))
		return DOCA_ERROR_BAD_STATE;
	if ((uintptr_t)addr % sizeof(uint64_t) != 0)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "%s: the value's address %p is not 8-byte aligned", what,
		                  (void *)addr);
	ev->value = addr;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_set_addr(struct doca_sync_event *event,
                                                        uint64_t *addr)
{
	if (!sdoca_arg_valid(addr))
		return DOCA_ERROR_INVALID_VALUE;
	return set_value_addr(event, addr, __func__);
}

/* The value is the 8 bytes at the buffer's data address (the buffer must
 * stay valid while the event lives). */
DOCA_EXPERIMENTAL doca_error_t doca_sync_event_set_doca_buf(struct doca_sync_event *event,
                                                            struct doca_buf *buf)
{
	if (!sdoca_arg_valid(buf))
		return DOCA_ERROR_INVALID_VALUE;
	if (buf->mmap->from_export)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "%s: the buffer comes from a remote (imported) mmap", __func__);
	if ((size_t)(buf->head + buf->len - buf->data) < sizeof(uint64_t))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "%s: the buffer has fewer than 8 bytes from its data address",
		                  __func__);
	return set_value_addr(event, (uint64_t *)(void *)buf->data, __func__);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_start(struct doca_sync_event *event)
{
	doca_error_t status;

	if (!sdoca_arg_valid(event))
		return DOCA_ERROR_INVALID_VALUE;
	if (!configurable(event, __func__))
		return DOCA_ERROR_BAD_STATE;
	status = sdoca_se_activate(event);
	if (status == DOCA_SUCCESS)
		event->started = true;
	return status;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_stop(struct doca_sync_event *event)
{
	if (!sdoca_arg_valid(event))
		return DOCA_ERROR_INVALID_VALUE;
	if (!event->started)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_sync_event_stop: the event was not started with "
		                  "doca_sync_event_start%s",
		                  event->keyed ? " (a started context stops with doca_ctx_stop)"
		                               : "");
	sdoca_se_deactivate(event);
	sdoca_se_quiesce(event);
	event->started = false;
	return DOCA_SUCCESS;
}

/* An event started on its own cannot become a context (and the other way
 * round: doca_sync_event_start refuses a started context). */
DOCA_EXPERIMENTAL struct doca_ctx *doca_sync_event_as_ctx(struct doca_sync_event *event)
{
	if (!event) {
		SDOCA_ERR("doca_sync_event_as_ctx: event is NULL");
		return NULL;
	}
	if (event->started) {
		SDOCA_ERR(
		        "doca_sync_event_as_ctx: the event was started with doca_sync_event_start "
		        "and cannot be used as a context");
		return NULL;
	}
	return &event->ctx;
}

/* --- export to a network peer, and its import --- */

static doca_error_t build_export(struct doca_sync_event *ev)
{
	size_t len = SDOCA_BLOB_HEADER_SIZE + SDOCA_SE_BLOB_BODY;
	uint8_t *blob = calloc(1, len), *body;

	if (!blob)
		return DOCA_ERROR_NO_MEMORY;
	body = blob + SDOCA_BLOB_HEADER_SIZE;
	sdoca_put_le64(body, sdoca_node_id());
	sdoca_put_le32(body + 8, (uint32_t)getpid());
	sdoca_key_encode(&ev->key, body + 16);
	sdoca_put_le64(body + 32, (uintptr_t)ev->value);
	sdoca_blob_seal(blob, SDOCA_BLOB_SYNC_EVENT, SDOCA_SE_BLOB_BODY);
	ev->blob = blob;
	ev->blob_len = len;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_export_to_remote_net(struct doca_sync_event *event,
                                                                    const uint8_t **data,
                                                                    size_t *sz)
{
	doca_error_t status;

	if (!sdoca_arg_valid(event) || !sdoca_arg_valid(data) || !sdoca_arg_valid(sz))
		return DOCA_ERROR_INVALID_VALUE;
	if (!(event->locations & SDOCA_SE_PUB_REMOTE_NET))
		return sdoca_fail(
		        DOCA_ERROR_NOT_PERMITTED,
		        "doca_sync_event_export_to_remote_net: the event has no remote-net "
		        "publisher (doca_sync_event_add_publisher_location_remote_net)");
	if (!event->keyed)
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "doca_sync_event_export_to_remote_net: the event is not started");
	if (!event->blob && (status = build_export(event)) != DOCA_SUCCESS)
		return status;
	*data = event->blob;
	*sz = event->blob_len;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_is_export_to_remote_net_supported(const struct doca_devinfo *devinfo)
{
	if (!sdoca_arg_valid(devinfo))
		return DOCA_ERROR_INVALID_VALUE;
	return DOCA_SUCCESS;
}

/* Every field of a blob from outside is checked before anything is allocated. */
static doca_error_t decode_export(const uint8_t *body, size_t body_len,
                                  struct doca_sync_event_remote_net *out)
{
	if (body_len != SDOCA_SE_BLOB_BODY)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "sync event export blob has a %zu-byte body, expected %d",
		                  body_len, SDOCA_SE_BLOB_BODY);
	out->peer_node = sdoca_get_le64(body);
	out->peer_pid = sdoca_get_le32(body + 8);
	sdoca_key_decode(body + 16, &out->key);
	out->addr = sdoca_get_le64(body + 32);
	if (out->peer_node == 0)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "sync event export blob has no node id");
	if (sdoca_get_le32(body + 12) != 0)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "sync event export blob has a non-zero reserved field");
	if (out->key.index == 0)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "sync event export blob has an invalid memory key");
	if (out->addr == 0 || out->addr % sizeof(uint64_t) != 0)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "sync event export blob has an invalid value address 0x%llx",
		                  (unsigned long long)out->addr);
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_remote_net_create_from_export(struct doca_dev *dev, const uint8_t *data, size_t sz,
                                              struct doca_sync_event_remote_net **event)
{
	struct doca_sync_event_remote_net parsed = { 0 }, *rev;
	const uint8_t *body;
	size_t body_len;
	doca_error_t status;

	if (!sdoca_arg_valid(dev) || !sdoca_arg_valid(data) || !sdoca_arg_valid(event))
		return DOCA_ERROR_INVALID_VALUE;
	status = sdoca_blob_open(data, sz, SDOCA_BLOB_SYNC_EVENT, &body, &body_len);
	if (status == DOCA_SUCCESS)
		status = decode_export(body, body_len, &parsed);
	if (status != DOCA_SUCCESS)
		return status;
	rev = malloc(sizeof(*rev));
	if (!rev)
		return DOCA_ERROR_NO_MEMORY;
	*rev = parsed;
	rev->dev = dev;
	sdoca_dev_get(dev);
	*event = rev;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_remote_net_is_create_from_export_supported(const struct doca_devinfo *devinfo)
{
	if (!sdoca_arg_valid(devinfo))
		return DOCA_ERROR_INVALID_VALUE;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_remote_net_destroy(struct doca_sync_event_remote_net *event)
{
	if (!sdoca_arg_valid(event))
		return DOCA_ERROR_INVALID_VALUE;
	sdoca_se_remote_dpa_forget(event);
	sdoca_dev_put(event->dev);
	free(event);
	return DOCA_SUCCESS;
}

/* --- exports softdoca has no peer for: PCI, DPA, GPU --- */

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_create_from_export(struct doca_dev *dev,
                                                                  const uint8_t *data, size_t sz,
                                                                  struct doca_sync_event **event)
{
	(void)sz;
	if (!sdoca_arg_valid(dev) || !sdoca_arg_valid(data) || !sdoca_arg_valid(event))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_PCI);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_is_create_from_export_supported(const struct doca_devinfo *devinfo)
{
	if (!sdoca_arg_valid(devinfo))
		return DOCA_ERROR_INVALID_VALUE;
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_export_to_remote_pci(struct doca_sync_event *event,
                                                                    struct doca_dev *dev,
                                                                    const uint8_t **data,
                                                                    size_t *sz)
{
	if (!sdoca_arg_valid(event) || !sdoca_arg_valid(dev) || !sdoca_arg_valid(data) ||
	    !sdoca_arg_valid(sz))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_PCI);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_is_export_to_remote_pci_supported(const struct doca_devinfo *devinfo)
{
	if (!sdoca_arg_valid(devinfo))
		return DOCA_ERROR_INVALID_VALUE;
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_get_dpa_handle(struct doca_sync_event *event, struct doca_dpa *dpa,
                               doca_dpa_dev_sync_event_t *dpa_dev_se_handle)
{
	if (!sdoca_arg_valid(event) || !sdoca_arg_valid(dpa) || !sdoca_arg_valid(dpa_dev_se_handle))
		return DOCA_ERROR_INVALID_VALUE;
	if (!(event->locations & (SDOCA_SE_PUB_DPA | SDOCA_SE_SUB_DPA)))
		return sdoca_fail(DOCA_ERROR_BAD_STATE,
		                  "%s: the event has no DPA publisher or subscriber location",
		                  __func__);
	if (!event->keyed)
		return sdoca_fail(DOCA_ERROR_BAD_STATE, "%s: the event is not started", __func__);
	return sdoca_se_dpa_handle(event, dpa_dev_se_handle);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_is_export_to_dpa_supported(const struct doca_devinfo *devinfo)
{
	if (!sdoca_arg_valid(devinfo))
		return DOCA_ERROR_INVALID_VALUE;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_get_gpu_handle(
        struct doca_sync_event *event, struct doca_gpu *gpu, doca_gpu_dev_sync_event_t **gpu_dev_se)
{
	if (!sdoca_arg_valid(event) || !sdoca_arg_valid(gpu) || !sdoca_arg_valid(gpu_dev_se))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_GPU);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_is_export_to_gpu_supported(const struct doca_devinfo *devinfo)
{
	if (!sdoca_arg_valid(devinfo))
		return DOCA_ERROR_INVALID_VALUE;
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_remote_net_get_dpa_handle(
        struct doca_sync_event_remote_net *event, struct doca_dpa *dpa,
        doca_dpa_dev_sync_event_remote_net_t *dpa_remote_event)
{
	if (!sdoca_arg_valid(event) || !sdoca_arg_valid(dpa) || !sdoca_arg_valid(dpa_remote_event))
		return DOCA_ERROR_INVALID_VALUE;
	return sdoca_se_remote_dpa_handle(event, dpa_remote_event);
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_remote_net_is_export_to_dpa_supported(const struct doca_devinfo *devinfo)
{
	if (!sdoca_arg_valid(devinfo))
		return DOCA_ERROR_INVALID_VALUE;
	return DOCA_SUCCESS;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_remote_net_get_gpu_handle(
        struct doca_sync_event_remote_net *event, struct doca_gpu *gpu,
        doca_gpu_dev_sync_event_remote_net_t *gpu_remote_event)
{
	if (!sdoca_arg_valid(event) || !sdoca_arg_valid(gpu) || !sdoca_arg_valid(gpu_remote_event))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_GPU);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_remote_net_is_export_to_gpu_supported(const struct doca_devinfo *devinfo)
{
	if (!sdoca_arg_valid(devinfo))
		return DOCA_ERROR_INVALID_VALUE;
	return DOCA_ERROR_NOT_SUPPORTED;
}

/* DOCA 2.5 names (declared for SOFTDOCA_API_VERSION below 300). */

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_publisher_location_dpu(struct doca_sync_event *event)
{
	if (!sdoca_arg_valid(event))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_PCI);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_add_subscriber_location_dpu(struct doca_sync_event *event)
{
	if (!sdoca_arg_valid(event))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_PCI);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_export_to_dpu(struct doca_sync_event *event,
                                                             struct doca_dev *dev,
                                                             const uint8_t **data, size_t *sz)
{
	if (!sdoca_arg_valid(event) || !sdoca_arg_valid(dev) || !sdoca_arg_valid(data) ||
	    !sdoca_arg_valid(sz))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_PCI);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_cap_is_export_to_dpu_supported(const struct doca_devinfo *devinfo)
{
	if (!sdoca_arg_valid(devinfo))
		return DOCA_ERROR_INVALID_VALUE;
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t
doca_sync_event_export_to_dpa(struct doca_sync_event *event, struct doca_dpa *dpa,
                              doca_dpa_dev_sync_event_t *dpa_dev_se_handle)
{
	/* The older name of doca_sync_event_get_dpa_handle. */
	return doca_sync_event_get_dpa_handle(event, dpa, dpa_dev_se_handle);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_export_to_gpu(struct doca_sync_event *event,
                                                             struct doca_gpu *gpu,
                                                             doca_gpu_dev_sync_event_t **gpu_dev_se)
{
	if (!sdoca_arg_valid(event) || !sdoca_arg_valid(gpu) || !sdoca_arg_valid(gpu_dev_se))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_GPU);
	return DOCA_ERROR_NOT_SUPPORTED;
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_remote_net_export_to_dpa(
        struct doca_sync_event_remote_net *event, struct doca_dpa *dpa,
        doca_dpa_dev_sync_event_remote_net_t *dpa_remote_event)
{
	if (!sdoca_arg_valid(event) || !sdoca_arg_valid(dpa) || !sdoca_arg_valid(dpa_remote_event))
		return DOCA_ERROR_INVALID_VALUE;
	return sdoca_se_remote_dpa_handle(event, dpa_remote_event);
}

DOCA_EXPERIMENTAL doca_error_t doca_sync_event_remote_net_export_to_gpu(
        struct doca_sync_event_remote_net *event, struct doca_gpu *gpu,
        doca_gpu_dev_sync_event_remote_net_t *gpu_remote_event)
{
	if (!sdoca_arg_valid(event) || !sdoca_arg_valid(gpu) || !sdoca_arg_valid(gpu_remote_event))
		return DOCA_ERROR_INVALID_VALUE;
	SDOCA_LOG_NOT_SUPPORTED(NO_GPU);
	return DOCA_ERROR_NOT_SUPPORTED;
}
