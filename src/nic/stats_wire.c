/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * A process's counters as bytes (docs/wire.md, "Counters snapshot"): what
 * the counters channel (stats_channel.c) answers, and what its reader
 * checks. The reader takes bytes from another process: every length,
 * count, index and enum is checked against what the snapshot holds before
 * it is used.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/sdk_log.h"
#include "nic/nic.h"

SDOCA_LOG_MODULE(stats_wire);

#define OUR_WORDS (sizeof(struct softdoca_rdma_counters) / sizeof(uint64_t))
#define NAME_LEN 64
#define VERSION_LEN 32
#define CONN_FIXED 24

_Static_assert(sizeof(((struct softdoca_device_counters *)0)->ibdev_name) == NAME_LEN,
               "a device's name is 64 bytes on the wire");
_Static_assert(sizeof(((struct softdoca_process_counters *)0)->softdoca_version) == VERSION_LEN,
               "the version is 32 bytes on the wire");
_Static_assert(NIC_STATS_HDR_LEN == 32 + VERSION_LEN, "the header's layout");

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

doca_error_t nic_stats_encode(const struct softdoca_process_counters *pc, uint8_t **out,
                              size_t *out_len)
{
	size_t dev_len = record_len(NAME_LEN, OUR_WORDS),
	       conn_len = record_len(CONN_FIXED, OUR_WORDS);
	size_t len;
	uint8_t *buf, *p;

	if (pc->num_devices > NIC_STATS_MAX_DEVICES || pc->num_connections > NIC_STATS_MAX_CONNS)
		return DOCA_ERROR_TOO_BIG;
	len = NIC_STATS_HDR_LEN + pc->num_devices * dev_len + pc->num_connections * conn_len;
	if (len > NIC_STATS_MAX_LEN)
		return DOCA_ERROR_TOO_BIG;
	buf = calloc(1, len);
	if (!buf)
		return DOCA_ERROR_NO_MEMORY;
	memcpy(buf, NIC_STATS_MAGIC, 4);
	sdoca_put_le16(buf + 4, NIC_STATS_VERSION);
	sdoca_put_le16(buf + 6, (uint16_t)OUR_WORDS);
	sdoca_put_le32(buf + 8, (uint32_t)len);
	sdoca_put_le32(buf + 12, pc->pid);
	sdoca_put_le32(buf + 16, pc->num_devices);
	sdoca_put_le32(buf + 20, pc->num_connections);
	sdoca_put_le64(buf + 24, pc->faults_injected);
	/* NUL-padded, and at least one NUL */
	memcpy(buf + 32, pc->softdoca_version, strnlen(pc->softdoca_version, VERSION_LEN - 1));
	p = buf + NIC_STATS_HDR_LEN;
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
	*out = buf;
	*out_len = len;
	return DOCA_SUCCESS;
}

doca_error_t nic_stats_check_header(const uint8_t *hdr, size_t len, uint32_t *total)
{
	uint16_t version;

	if (len < NIC_STATS_HDR_LEN) {
		SDOCA_ERR("counters snapshot: %zu bytes, shorter than its %u-byte header", len,
		          NIC_STATS_HDR_LEN);
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (memcmp(hdr, NIC_STATS_MAGIC, 4) != 0) {
		SDOCA_ERR("counters snapshot: not one (bad magic)");
		return DOCA_ERROR_INVALID_VALUE;
	}
	version = sdoca_get_le16(hdr + 4);
	if (version != NIC_STATS_VERSION) {
		SDOCA_ERR("counters snapshot: format version %u, this softdoca reads version %u",
		          version, NIC_STATS_VERSION);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	*total = sdoca_get_le32(hdr + 8);
	if (*total < NIC_STATS_HDR_LEN || *total > NIC_STATS_MAX_LEN) {
		SDOCA_ERR("counters snapshot: a length of %u bytes (%u..%u allowed)", *total,
		          NIC_STATS_HDR_LEN, NIC_STATS_MAX_LEN);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

/* A NUL-terminated string of at most cap - 1 characters at p. */
static bool terminated(const uint8_t *p, size_t cap)
{
	return memchr(p, '\0', cap) != NULL;
}

static doca_error_t bad(const char *what, unsigned long a, unsigned long b)
{
	SDOCA_ERR("counters snapshot: %s (%lu, %lu)", what, a, b);
	return DOCA_ERROR_INVALID_VALUE;
}

doca_error_t nic_stats_decode(const uint8_t *buf, size_t len,
                              struct softdoca_process_counters **out)
{
	struct softdoca_process_counters *pc;
	uint32_t total, words, num_dev, num_conn;
	size_t dev_len, conn_len;
	const uint8_t *p;
	doca_error_t status;

	*out = NULL;
	status = nic_stats_check_header(buf, len, &total);
	if (status != DOCA_SUCCESS)
		return status;
	if (total != len)
		return bad("its length says otherwise than the bytes received", total, len);
	words = sdoca_get_le16(buf + 6);
	num_dev = sdoca_get_le32(buf + 16);
	num_conn = sdoca_get_le32(buf + 20);
	if (words == 0)
		return bad("records without counters", words, 0);
	if (num_dev > NIC_STATS_MAX_DEVICES || num_conn > NIC_STATS_MAX_CONNS)
		return bad("more devices or connections than a snapshot holds", num_dev, num_conn);
	if (num_conn > 0 && num_dev == 0)
		return bad("connections without a device", num_conn, num_dev);
	dev_len = record_len(NAME_LEN, words);
	conn_len = record_len(CONN_FIXED, words);
	/* each factor is bounded above: no overflow */
	if (NIC_STATS_HDR_LEN + num_dev * dev_len + num_conn * conn_len != len)
		return bad("its records do not fill its length",
		           num_dev * dev_len + num_conn * conn_len, len - NIC_STATS_HDR_LEN);
	if (!terminated(buf + 32, VERSION_LEN))
		return bad("an unterminated version string", VERSION_LEN, 0);

	pc = calloc(1, sizeof(*pc));
	if (!pc || (num_dev && !(pc->devices = calloc(num_dev, sizeof(*pc->devices)))) ||
	    (num_conn && !(pc->connections = calloc(num_conn, sizeof(*pc->connections))))) {
		nic_stats_free(pc);
		SDOCA_ERR("counters snapshot: out of memory for %u devices and %u connections",
		          num_dev, num_conn);
		return DOCA_ERROR_NO_MEMORY;
	}
	pc->pid = sdoca_get_le32(buf + 12);
	pc->faults_injected = sdoca_get_le64(buf + 24);
	memcpy(pc->softdoca_version, buf + 32, VERSION_LEN);
	pc->num_devices = num_dev;
	pc->num_connections = num_conn;
	p = buf + NIC_STATS_HDR_LEN;
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
	*out = pc;
	return DOCA_SUCCESS;
fail:
	nic_stats_free(pc);
	return status;
}

void nic_stats_free(struct softdoca_process_counters *pc)
{
	if (!pc)
		return;
	free(pc->devices);
	free(pc->connections);
	free(pc);
}
