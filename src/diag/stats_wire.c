/*
 * A process's counters as bytes (the counters snapshot).
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * A process's counters as bytes (docs/wire.md, "Counters snapshot"): what
 * the counters channel (stats_channel.c) answers, and what its reader
 * checks. The reader takes bytes from another process: every length,
 * count, index and enum is checked against what the snapshot holds before
 * it is used.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/sdk_log.h"
#include "diag/diag.h"
#include "nic/nic.h"

SDOCA_LOG_MODULE(stats_wire);

_Static_assert(DIAG_STATS_MAX_DEVICES == NIC_STATS_MAX_DEVICES &&
                       DIAG_STATS_MAX_CONNS == NIC_STATS_MAX_CONNS,
               "a snapshot holds whatever the NIC collects");

#define OUR_WORDS (sizeof(struct softdoca_rdma_counters) / sizeof(uint64_t))
#define NAME_LEN 64
#define VERSION_LEN 32
#define CONN_FIXED 24

_Static_assert(sizeof(((struct softdoca_device_counters *)0)->ibdev_name) == NAME_LEN,
               "a device's name is 64 bytes on the wire");
_Static_assert(sizeof(((struct softdoca_process_counters *)0)->softdoca_version) == VERSION_LEN,
               "the version is 32 bytes on the wire");
_Static_assert(DIAG_STATS_HDR_LEN == 32 + VERSION_LEN, "the header's layout");

static size_t record_len(size_t fixed, uint32_t words)
{
	return fixed + (size_t)words * sizeof(uint64_t);
}

static void put_counters(uint8_t *p, const struct softdoca_rdma_counters *c)
{
	uint64_t words[OUR_WORDS];

	memcpy(words, c, sizeof(words));
	for (size_t i = 0; i < OUR_WORDS; i++)
		sdoca_put_le64(p + i * 8, words[i]);
}

/* Words beyond ours (a newer writer's) are skipped; ours beyond its, zero. */
static void get_counters(const uint8_t *p, uint32_t words, struct softdoca_rdma_counters *c)
{
	uint64_t out[OUR_WORDS] = { 0 };

	for (size_t i = 0; i < OUR_WORDS && i < words; i++)
		out[i] = sdoca_get_le64(p + i * 8);
	memcpy(c, out, sizeof(out));
}

/* A NUL-padded string field of cap bytes, at least one NUL. */
static void put_string(uint8_t *p, const char *s, size_t cap)
{
	memcpy(p, s, strnlen(s, cap - 1));
}

/* The DPA section (version 2) at p; the buffer is zeroed. */
static void put_dpa_section(uint8_t *p, const struct softdoca_process_counters *pc)
{
	memcpy(p, DIAG_STATS_DPA_MAGIC, 4);
	sdoca_put_le16(p + 4, DIAG_STATS_DPA_LEN);
	sdoca_put_le16(p + 6, DIAG_STATS_DPA_THREAD_LEN);
	sdoca_put_le32(p + 8, pc->num_dpas);
	sdoca_put_le32(p + 12, pc->num_dpa_threads);
	p += DIAG_STATS_DPA_HDR_LEN;
	for (uint32_t i = 0; i < pc->num_dpas; i++, p += DIAG_STATS_DPA_LEN) {
		const struct softdoca_dpa_counters *d = &pc->dpas[i];

		put_string(p, d->app_name, NAME_LEN);
		put_string(p + 64, d->ibdev_name, NAME_LEN);
		sdoca_put_le32(p + 128, (uint32_t)d->last_error);
		sdoca_put_le32(p + 132, d->num_threads);
		sdoca_put_le64(p + 136, d->mem_bytes);
		sdoca_put_le32(p + 144, d->mem_blocks);
		sdoca_put_le32(p + 148, d->num_eus);
		p[152] = d->started ? 1 : 0;
		sdoca_put_le32(p + 156, d->polled_completions);
		sdoca_put_le64(p + 160, d->polled_cq_populated);
		sdoca_put_le64(p + 168, d->polled_cq_unread);
		sdoca_put_le64(p + 176, d->polled_cq_held);
	}
	for (uint32_t i = 0; i < pc->num_dpa_threads; i++, p += DIAG_STATS_DPA_THREAD_LEN) {
		const struct softdoca_dpa_thread_counters *t = &pc->dpa_threads[i];

		sdoca_put_le32(p, t->dpa);
		sdoca_put_le32(p + 4, t->id);
		put_string(p + 8, t->kernel, NAME_LEN);
		p[72] = (uint8_t)t->state;
		p[73] = t->trigger_pending ? 1 : 0;
		sdoca_put_le32(p + 76, t->rank);
		sdoca_put_le32(p + 80, t->num_ranks);
		sdoca_put_le32(p + 84, t->eu);
		sdoca_put_le64(p + 88, t->activations);
		sdoca_put_le64(p + 96, t->ns_since_activation);
		sdoca_put_le32(p + 104, t->completions);
		sdoca_put_le64(p + 112, t->cq_populated);
		sdoca_put_le64(p + 120, t->cq_unread);
		sdoca_put_le64(p + 128, t->cq_held);
	}
}

doca_error_t diag_stats_encode(const struct softdoca_process_counters *pc, uint8_t **out,
                               size_t *out_len)
{
	size_t dev_len = record_len(NAME_LEN, OUR_WORDS),
	       conn_len = record_len(CONN_FIXED, OUR_WORDS);
	size_t len;
	uint8_t *buf, *p;

	bool dpa = pc->num_dpas > 0 || pc->num_dpa_threads > 0;

	if (pc->num_devices > DIAG_STATS_MAX_DEVICES ||
	    pc->num_connections > DIAG_STATS_MAX_CONNS || pc->num_dpas > DIAG_STATS_MAX_DPAS ||
	    pc->num_dpa_threads > DIAG_STATS_MAX_DPA_THREADS)
		return DOCA_ERROR_TOO_BIG;
	len = DIAG_STATS_HDR_LEN + pc->num_devices * dev_len + pc->num_connections * conn_len;
	if (dpa)
		len += DIAG_STATS_DPA_HDR_LEN + (size_t)pc->num_dpas * DIAG_STATS_DPA_LEN +
		       (size_t)pc->num_dpa_threads * DIAG_STATS_DPA_THREAD_LEN;
	if (len > DIAG_STATS_MAX_LEN)
		return DOCA_ERROR_TOO_BIG;
	buf = calloc(1, len);
	if (!buf)
		return DOCA_ERROR_NO_MEMORY;
	memcpy(buf, DIAG_STATS_MAGIC, 4);
	/* Version 1 while there is nothing of version 2's: a reader of version
	 * 1 still reads every process without a DPA. */
	sdoca_put_le16(buf + 4, dpa ? DIAG_STATS_VERSION : DIAG_STATS_VERSION_1);
	sdoca_put_le16(buf + 6, (uint16_t)OUR_WORDS);
	sdoca_put_le32(buf + 8, (uint32_t)len);
	sdoca_put_le32(buf + 12, pc->pid);
	sdoca_put_le32(buf + 16, pc->num_devices);
	sdoca_put_le32(buf + 20, pc->num_connections);
	sdoca_put_le64(buf + 24, pc->faults_injected);
	/* NUL-padded, and at least one NUL */
	memcpy(buf + 32, pc->softdoca_version, strnlen(pc->softdoca_version, VERSION_LEN - 1));
	p = buf + DIAG_STATS_HDR_LEN;
	for (uint32_t i = 0; i < pc->num_devices; i++, p += dev_len) {
		memcpy(p, pc->devices[i].ibdev_name,
		       strnlen(pc->devices[i].ibdev_name, NAME_LEN - 1));
		put_counters(p + NAME_LEN, &pc->devices[i].counters);
	}
	for (uint32_t i = 0; i < pc->num_connections; i++, p += conn_len) {
		const struct softdoca_connection_counters *c = &pc->connections[i];

		sdoca_put_le32(p, c->device);
		sdoca_put_le32(p + 4, c->connection_id);
		sdoca_put_le32(p + 8, c->qp_number);
		sdoca_put_le32(p + 12, c->peer_qp_number);
		sdoca_put_le32(p + 16, c->peer_pid);
		p[20] = (uint8_t)c->state;
		put_counters(p + CONN_FIXED, &c->counters);
	}
	if (dpa)
		put_dpa_section(p, pc);
	*out = buf;
	*out_len = len;
	return DOCA_SUCCESS;
}

doca_error_t diag_stats_check_header(const uint8_t *hdr, size_t len, uint32_t *total)
{
	uint16_t version;

	if (len < DIAG_STATS_HDR_LEN) {
		SDOCA_ERR("counters snapshot: %zu bytes, shorter than its %u-byte header", len,
		          DIAG_STATS_HDR_LEN);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (memcmp(hdr, DIAG_STATS_MAGIC, 4) != 0) {
		SDOCA_ERR("counters snapshot: not one (bad magic)");
		return DOCA_ERROR_INVALID_VALUE;
	}
	version = sdoca_get_le16(hdr + 4);
	if (version != DIAG_STATS_VERSION && version != DIAG_STATS_VERSION_1) {
		SDOCA_ERR("counters snapshot: format version %u, this softdoca reads versions "
		          "%u and %u",
		          version, DIAG_STATS_VERSION_1, DIAG_STATS_VERSION);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	*total = sdoca_get_le32(hdr + 8);
	if (*total < DIAG_STATS_HDR_LEN || *total > DIAG_STATS_MAX_LEN) {
		SDOCA_ERR("counters snapshot: a length of %u bytes (%u..%u allowed)", *total,
		          DIAG_STATS_HDR_LEN, DIAG_STATS_MAX_LEN);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

/* A NUL-terminated string of at most cap - 1 characters at p. */
static bool terminated(const uint8_t *p, size_t cap)
{
	return memchr(p, '\0', cap) != NULL;
}

/* A terminated name field into a zeroed buffer: up to its NUL only, so
 * what follows it on the wire is not kept. */
static void get_string(char *dst, const uint8_t *p)
{
	memcpy(dst, p, strnlen((const char *)p, NAME_LEN));
}

static bool zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static doca_error_t bad(const char *what, unsigned long a, unsigned long b)
{
	SDOCA_ERR("counters snapshot: %s (%lu, %lu)", what, a, b);
	return DOCA_ERROR_INVALID_VALUE;
}

/* The DPA section's header, checked against the bytes that remain. */
struct dpa_section {
	bool present;
	uint32_t dpa_len, thread_len; /* the writer's record sizes */
	uint32_t num_dpas, num_threads;
};

static doca_error_t check_dpa_section(const uint8_t *p, size_t left, struct dpa_section *s)
{
	uint64_t need;

	if (left < DIAG_STATS_DPA_HDR_LEN || memcmp(p, DIAG_STATS_DPA_MAGIC, 4) != 0)
		return bad("version 2 without its DPA section", left, DIAG_STATS_DPA_HDR_LEN);
	s->present = true;
	s->dpa_len = sdoca_get_le16(p + 4);
	s->thread_len = sdoca_get_le16(p + 6);
	s->num_dpas = sdoca_get_le32(p + 8);
	s->num_threads = sdoca_get_le32(p + 12);
	/* a writer may add fields at the end of a record, never drop one */
	if (s->dpa_len < DIAG_STATS_DPA_LEN || s->thread_len < DIAG_STATS_DPA_THREAD_LEN)
		return bad("DPA records shorter than version 2's", s->dpa_len, s->thread_len);
	if (s->num_dpas > DIAG_STATS_MAX_DPAS || s->num_threads > DIAG_STATS_MAX_DPA_THREADS)
		return bad("more DPAs or DPA threads than a snapshot holds", s->num_dpas,
		           s->num_threads);
	if (s->num_threads > 0 && s->num_dpas == 0)
		return bad("DPA threads without a DPA", s->num_threads, 0);
	/* each factor is bounded above (16-bit sizes, counts checked): no overflow */
	need = DIAG_STATS_DPA_HDR_LEN + (uint64_t)s->num_dpas * s->dpa_len +
	       (uint64_t)s->num_threads * s->thread_len;
	if (need != left)
		return bad("its DPA records do not fill its length", (unsigned long)need, left);
	return DOCA_SUCCESS;
}

/* Reads the section checked above into pc (its arrays allocated). */
static doca_error_t get_dpa_section(const uint8_t *p, const struct dpa_section *s,
                                    struct softdoca_process_counters *pc)
{
	pc->num_dpas = s->num_dpas;
	pc->num_dpa_threads = s->num_threads;
	p += DIAG_STATS_DPA_HDR_LEN;
	for (uint32_t i = 0; i < s->num_dpas; i++, p += s->dpa_len) {
		struct softdoca_dpa_counters *d = &pc->dpas[i];
		uint32_t err = sdoca_get_le32(p + 128);

		if (!terminated(p, NAME_LEN) || !terminated(p + 64, NAME_LEN))
			return bad("a DPA with an unterminated name", i, NAME_LEN);
		if (err > 255 || p[152] > 1 || !zero(p + 153, 3))
			return bad("a DPA with an unknown error, state or reserved bytes set", i,
			           err);
		get_string(d->app_name, p);
		get_string(d->ibdev_name, p + 64);
		d->last_error = (doca_error_t)err;
		d->num_threads = sdoca_get_le32(p + 132);
		d->mem_bytes = sdoca_get_le64(p + 136);
		d->mem_blocks = sdoca_get_le32(p + 144);
		d->num_eus = sdoca_get_le32(p + 148);
		d->started = p[152];
		d->polled_completions = sdoca_get_le32(p + 156);
		d->polled_cq_populated = sdoca_get_le64(p + 160);
		d->polled_cq_unread = sdoca_get_le64(p + 168);
		d->polled_cq_held = sdoca_get_le64(p + 176);
		if (d->polled_cq_unread > d->polled_cq_populated)
			return bad("a DPA with more completions unread than populated",
			           (unsigned long)d->polled_cq_unread,
			           (unsigned long)d->polled_cq_populated);
	}
	for (uint32_t i = 0; i < s->num_threads; i++, p += s->thread_len) {
		struct softdoca_dpa_thread_counters *t = &pc->dpa_threads[i];

		t->dpa = sdoca_get_le32(p);
		if (t->dpa >= s->num_dpas)
			return bad("a DPA thread of a DPA not in the snapshot", i, t->dpa);
		if (!terminated(p + 8, NAME_LEN))
			return bad("a DPA thread with an unterminated kernel name", i, NAME_LEN);
		if (p[72] > SOFTDOCA_DPA_THREAD_DETACHED || p[73] > 1 || !zero(p + 74, 2) ||
		    !zero(p + 108, 4))
			return bad("a DPA thread with an unknown state or reserved bytes set", i,
			           p[72]);
		t->id = sdoca_get_le32(p + 4);
		get_string(t->kernel, p + 8);
		t->state = (enum softdoca_dpa_thread_state)p[72];
		t->trigger_pending = p[73];
		t->rank = sdoca_get_le32(p + 76);
		t->num_ranks = sdoca_get_le32(p + 80);
		t->eu = sdoca_get_le32(p + 84);
		t->activations = sdoca_get_le64(p + 88);
		t->ns_since_activation = sdoca_get_le64(p + 96);
		t->completions = sdoca_get_le32(p + 104);
		t->cq_populated = sdoca_get_le64(p + 112);
		t->cq_unread = sdoca_get_le64(p + 120);
		t->cq_held = sdoca_get_le64(p + 128);
		if (t->num_ranks ? t->rank >= t->num_ranks : t->rank != 0)
			return bad("a DPA thread's rank outside its group", t->rank, t->num_ranks);
		if (t->cq_unread > t->cq_populated)
			return bad("a DPA thread with more completions unread than populated",
			           (unsigned long)t->cq_unread, (unsigned long)t->cq_populated);
	}
	return DOCA_SUCCESS;
}

doca_error_t diag_stats_decode(const uint8_t *buf, size_t len,
                               struct softdoca_process_counters **out)
{
	struct softdoca_process_counters *pc;
	uint32_t total, words, num_dev, num_conn;
	size_t dev_len, conn_len, base_len;
	struct dpa_section dpa = { 0 };
	const uint8_t *p;
	doca_error_t status;

	*out = NULL;
	status = diag_stats_check_header(buf, len, &total);
	if (status != DOCA_SUCCESS)
		return status;
	if (total != len)
		return bad("its length says otherwise than the bytes received", total, len);
	words = sdoca_get_le16(buf + 6);
	num_dev = sdoca_get_le32(buf + 16);
	num_conn = sdoca_get_le32(buf + 20);
	if (words == 0)
		return bad("records without counters", words, 0);
	if (num_dev > DIAG_STATS_MAX_DEVICES || num_conn > DIAG_STATS_MAX_CONNS)
		return bad("more devices or connections than a snapshot holds", num_dev, num_conn);
	if (num_conn > 0 && num_dev == 0)
		return bad("connections without a device", num_conn, num_dev);
	dev_len = record_len(NAME_LEN, words);
	conn_len = record_len(CONN_FIXED, words);
	/* each factor is bounded above: no overflow */
	base_len = DIAG_STATS_HDR_LEN + num_dev * dev_len + num_conn * conn_len;
	if (sdoca_get_le16(buf + 4) == DIAG_STATS_VERSION_1 ? base_len != len : base_len > len)
		return bad("its records do not fill its length",
		           num_dev * dev_len + num_conn * conn_len, len - DIAG_STATS_HDR_LEN);
	if (!terminated(buf + 32, VERSION_LEN))
		return bad("an unterminated version string", VERSION_LEN, 0);
	if (sdoca_get_le16(buf + 4) == DIAG_STATS_VERSION) {
		status = check_dpa_section(buf + base_len, len - base_len, &dpa);
		if (status != DOCA_SUCCESS)
			return status;
	}

	pc = calloc(1, sizeof(*pc));
	if (!pc || (num_dev && !(pc->devices = calloc(num_dev, sizeof(*pc->devices)))) ||
	    (num_conn && !(pc->connections = calloc(num_conn, sizeof(*pc->connections)))) ||
	    (dpa.num_dpas && !(pc->dpas = calloc(dpa.num_dpas, sizeof(*pc->dpas)))) ||
	    (dpa.num_threads &&
	     !(pc->dpa_threads = calloc(dpa.num_threads, sizeof(*pc->dpa_threads))))) {
		nic_stats_free(pc);
		SDOCA_ERR("counters snapshot: out of memory for %u devices, %u connections, %u "
		          "DPAs and %u DPA threads",
		          num_dev, num_conn, dpa.num_dpas, dpa.num_threads);
		return DOCA_ERROR_NO_MEMORY;
	}
	pc->pid = sdoca_get_le32(buf + 12);
	pc->faults_injected = sdoca_get_le64(buf + 24);
	memcpy(pc->softdoca_version, buf + 32, VERSION_LEN);
	pc->num_devices = num_dev;
	pc->num_connections = num_conn;
	p = buf + DIAG_STATS_HDR_LEN;
	for (uint32_t i = 0; i < num_dev; i++, p += dev_len) {
		if (!terminated(p, NAME_LEN) || p[0] == '\0') {
			status = bad("a device without a proper name", i, NAME_LEN);
			goto fail;
		}
		memcpy(pc->devices[i].ibdev_name, p, NAME_LEN);
		get_counters(p + NAME_LEN, words, &pc->devices[i].counters);
	}
	for (uint32_t i = 0; i < num_conn; i++, p += conn_len) {
		struct softdoca_connection_counters *c = &pc->connections[i];

		c->device = sdoca_get_le32(p);
		if (c->device >= num_dev) {
			status = bad("a connection on a device not in the snapshot", i, c->device);
			goto fail;
		}
		if (p[20] > SOFTDOCA_QP_ERROR || p[21] || p[22] || p[23]) {
			status = bad("a connection with an unknown state or reserved bytes set", i,
			             p[20]);
			goto fail;
		}
		c->connection_id = sdoca_get_le32(p + 4);
		c->qp_number = sdoca_get_le32(p + 8);
		c->peer_qp_number = sdoca_get_le32(p + 12);
		c->peer_pid = sdoca_get_le32(p + 16);
		c->state = (enum softdoca_qp_state)p[20];
		get_counters(p + CONN_FIXED, words, &c->counters);
	}
	if (dpa.present) {
		status = get_dpa_section(p, &dpa, pc);
		if (status != DOCA_SUCCESS)
			goto fail;
	}
	*out = pc;
	return DOCA_SUCCESS;
fail:
	nic_stats_free(pc);
	return status;
}
