/*
 * Fuzz target: what the soft NIC does with the messages a peer sends - the
 * responder's checks and execution, the completer's matching of answers,
 * ACKs, requests out of turn - over the in-process fake transport
 * (tests/unit/fake_transport.c).
 *
 * Input: messages, each [flags u8][header length u8][payload length u16 le]
 * [header][payload], handed to the target's worker as if its peer had sent
 * them. Flag 1 writes the target QP's wire id and the connection's secret
 * into the header (without them a message is for nobody, or a stranger's);
 * flag 16 sends it from a worker the target never connected to (a stranger
 * holding both connection blobs: it must be dropped); flag 2 writes the
 * target mmap's key and an address inside it into an RDMA request; flag 8
 * writes the key and value address of the target's sync event instead (its
 * get, set and add requests); flag 4 has payloads
 * travel by rendezvous until the next message (landing a progress later,
 * with the landings, ACK and NAK ordering that brings). A fresh pair of
 * connected contexts per input. The target exports only the first half of
 * its buffer: the second half must come out unchanged.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_rdma.h>
#include <doca_sync_event.h>

#include "core/bytes.h"
#include "core/mmap.h"
#include "core/keys.h"
#include "core/sync_event.h"
#include "nic/nic.h"
#include "rdma/rdma.h"
#include "unit/fake_transport.h"

#include "fuzz_dev.h"

#define EXPORTED 4096
#define GUARD 0xA5
#define ACCESS                                                            \
	(DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | \
	 DOCA_ACCESS_FLAG_RDMA_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC)
#define MAX_MESSAGES 64

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct side {
	struct doca_pe *pe;
	struct doca_rdma *rdma;
	struct doca_rdma_connection *conn;
	const void *blob;
	size_t blob_len;
};

static struct doca_dev *dev;
static uint8_t target_mem[2 * EXPORTED] __attribute__((aligned(64)));

static void ok(doca_error_t status)
{
	if (status != DOCA_SUCCESS)
		abort(); /* the harness itself failed: not what is being fuzzed */
}

static void noop_cb(struct doca_rdma_task_receive *t, union doca_data ud, union doca_data cud)
{
	(void)ud;
	(void)cud;
	doca_task_free(doca_rdma_task_receive_as_task(t));
}

static void side_start(struct side *s)
{
	ok(doca_pe_create(&s->pe));
	ok(doca_rdma_create(dev, &s->rdma));
	ok(doca_rdma_set_permissions(s->rdma, ACCESS));
	ok(doca_rdma_task_receive_set_conf(s->rdma, noop_cb, noop_cb, 4));
	ok(doca_pe_connect_ctx(s->pe, doca_rdma_as_ctx(s->rdma)));
	ok(doca_ctx_start(doca_rdma_as_ctx(s->rdma)));
	ok(doca_rdma_export(s->rdma, &s->blob, &s->blob_len, &s->conn));
}

static void progress(struct side *a, struct side *b, int times)
{
	for (int i = 0; i < times; i++) {
		doca_pe_progress(a->pe);
		doca_pe_progress(b->pe);
	}
}

static void stop_and_destroy(struct side *a, struct side *b)
{
	struct side *s[2] = { a, b };

	for (int k = 0; k < 2; k++)
		(void)doca_ctx_stop(doca_rdma_as_ctx(s[k]->rdma));
	for (int i = 0; i < 100000; i++) {
		enum doca_ctx_states sa, sb;

		progress(a, b, 1);
		ok(doca_ctx_get_state(doca_rdma_as_ctx(a->rdma), &sa));
		ok(doca_ctx_get_state(doca_rdma_as_ctx(b->rdma), &sb));
		if (sa == DOCA_CTX_STATE_IDLE && sb == DOCA_CTX_STATE_IDLE)
			break;
	}
	for (int k = 0; k < 2; k++) {
		ok(doca_rdma_destroy(s[k]->rdma));
		ok(doca_pe_destroy(s[k]->pe));
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	xport_set_ops_for_tests(&fake_xport_ops);
	dev = fuzz_open_dev(); /* any: the fake transport needs no network */
	return 0;
}

/* Puts the target's QP (and, for an RDMA request, its key and an address in
 * the exported range) into a header the fuzzer wrote. */
static void aim(uint8_t *hdr, size_t len, uint8_t flags, const struct nic_qp *qp,
                const struct sdoca_key *key, const struct doca_sync_event *ev)
{
	if ((flags & 1) && len >= NIC_WIRE_COMMON) {
		sdoca_put_le32(hdr + 4, qp->wire_id);
		sdoca_put_le64(hdr + 16, qp->rx_secret);
	}
	if ((flags & 2) && len >= NIC_WIRE_RDMA_EXT) {
		uint64_t at =
		        sdoca_get_le64(hdr + NIC_WIRE_COMMON + SDOCA_KEY_WIRE_SIZE) % EXPORTED;

		sdoca_key_encode(key, hdr + NIC_WIRE_COMMON);
		sdoca_put_le64(hdr + NIC_WIRE_COMMON + SDOCA_KEY_WIRE_SIZE,
		               (uint64_t)(uintptr_t)target_mem + at);
	}
	if ((flags & 8) && len >= NIC_WIRE_RDMA_EXT) {
		sdoca_key_encode(&ev->key, hdr + NIC_WIRE_COMMON);
		sdoca_put_le64(hdr + NIC_WIRE_COMMON + SDOCA_KEY_WIRE_SIZE,
		               (uint64_t)(uintptr_t)ev->value);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct side a = { 0 }, b = { 0 };
	struct doca_mmap *mmap;
	struct doca_sync_event *ev;
	unsigned int worker_b;
	uint8_t hdr[256];

	memset(target_mem, 0, EXPORTED);
	memset(target_mem + EXPORTED, GUARD, EXPORTED);
	worker_b = fake_xport_workers_created() + 1;
	side_start(&a);
	side_start(&b);
	ok(doca_rdma_connect(a.rdma, b.blob, b.blob_len, a.conn));
	ok(doca_rdma_connect(b.rdma, a.blob, a.blob_len, b.conn));
	ok(doca_mmap_create(&mmap));
	ok(doca_mmap_set_memrange(mmap, target_mem, EXPORTED));
	ok(doca_mmap_set_permissions(mmap, ACCESS));
	ok(doca_mmap_add_dev(mmap, dev));
	ok(doca_mmap_start(mmap));
	ok(doca_sync_event_create(&ev));
	ok(doca_sync_event_add_publisher_location_remote_net(ev));
	ok(doca_sync_event_start(ev));
	progress(&a, &b, 10);
	for (int k = 0; k < MAX_MESSAGES && size >= 4; k++) {
		uint8_t flags = data[0];
		size_t hdr_len = data[1], len = sdoca_get_le16(data + 2);
		enum doca_ctx_states state;

		/* A connection failed: the context stopped and freed its connections. */
		ok(doca_ctx_get_state(doca_rdma_as_ctx(b.rdma), &state));
		if (state != DOCA_CTX_STATE_RUNNING)
			break;

		data += 4;
		size -= 4;
		if (hdr_len > size)
			hdr_len = size;
		if (len > size - hdr_len)
			len = size - hdr_len;
		memcpy(hdr, data, hdr_len);
		aim(hdr, hdr_len, flags, b.conn->qp, &mmap->key, ev);
		fake_xport_rndv_from((flags & 4) ? 1 : 0);
		if (!fake_xport_inject(worker_b, (flags & 16) ? -1 : (int)worker_b - 1, hdr,
		                       hdr_len, data + hdr_len, len))
			abort();
		data += hdr_len + len;
		size -= hdr_len + len;
		progress(&a, &b, 2);
	}
	progress(&a, &b, 10);
	fake_xport_rndv_from(0);
	stop_and_destroy(&a, &b);
	ok(doca_mmap_destroy(mmap));
	ok(doca_sync_event_destroy(ev));
	for (size_t i = EXPORTED; i < sizeof(target_mem); i++)
		if (target_mem[i] != GUARD)
			abort(); /* a message wrote outside the exported range */
	return 0;
}
