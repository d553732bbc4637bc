/*
 * softdoca-info --watch: one interval's rates, as a table or a JSON line.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * A connection is the same one in two snapshots when its device, QP number
 * and connection id are; one seen first now counts from 0 (it was made
 * during the interval). Counters only grow; one that fell (a connection
 * replaced by another of the same numbers) counts from 0 too.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "info.h"

#define MIB (1024.0 * 1024.0)

static uint64_t grown(uint64_t now, uint64_t before)
{
	return now >= before ? now - before : now;
}

/* What happened between before (NULL: nothing) and now. */
static void counters_delta(const struct softdoca_rdma_counters *now,
                           const struct softdoca_rdma_counters *before,
                           struct softdoca_rdma_counters *d)
{
	static const struct softdoca_rdma_counters zero;

	if (!before)
		before = &zero;
#define DELTA(name) d->name = grown(now->name, before->name);
	INFO_SCALARS(DELTA)
#undef DELTA
	for (int op = 0; op < SOFTDOCA_NUM_OP_TYPES; op++) {
		d->posted[op] = grown(now->posted[op], before->posted[op]);
		d->posted_bytes[op] = grown(now->posted_bytes[op], before->posted_bytes[op]);
		d->served[op] = grown(now->served[op], before->served[op]);
		d->served_bytes[op] = grown(now->served_bytes[op], before->served_bytes[op]);
	}
	for (int s = 0; s < SOFTDOCA_NUM_SYNDROMES; s++) {
		d->naks_sent_by_syndrome[s] =
		        grown(now->naks_sent_by_syndrome[s], before->naks_sent_by_syndrome[s]);
		d->naks_received_by_syndrome[s] = grown(now->naks_received_by_syndrome[s],
		                                        before->naks_received_by_syndrome[s]);
	}
}

static const char *device_name(const struct softdoca_process_counters *pc, uint32_t dev)
{
	return dev < pc->num_devices ? pc->devices[dev].ibdev_name : "?";
}

static const struct softdoca_device_counters *device_before(const struct info_interval *iv,
                                                            const char *name)
{
	for (uint32_t d = 0; d < iv->before->num_devices; d++)
		if (strcmp(iv->before->devices[d].ibdev_name, name) == 0)
			return &iv->before->devices[d];
	return NULL;
}

static const struct softdoca_connection_counters *
connection_before(const struct info_interval *iv, const struct softdoca_connection_counters *c)
{
	const char *name = device_name(iv->now, c->device);

	for (uint32_t i = 0; i < iv->before->num_connections; i++) {
		const struct softdoca_connection_counters *b = &iv->before->connections[i];

		if (b->qp_number == c->qp_number && b->connection_id == c->connection_id &&
		    strcmp(device_name(iv->before, b->device), name) == 0)
			return b;
	}
	return NULL;
}

static bool shown(const char *ibdev, const char *only)
{
	return !only || strcmp(ibdev, only) == 0;
}

/* Requests posted and not completed yet: the send queue's depth. */
static uint64_t in_flight(const struct softdoca_rdma_counters *c)
{
	return c->requests_posted > c->requests_completed
	               ? c->requests_posted - c->requests_completed
	               : 0;
}

static void print_row(const char *id, const char *ibdev, const char *qpn, const char *peer,
                      const char *state, const char *rq, const struct softdoca_rdma_counters *now,
                      const struct softdoca_rdma_counters *d, double s)
{
	printf("%-10s %-16s %6s %8s %-6s %7" PRIu64 " %6s %10.0f %10.0f %10.2f %10.2f %10.2f "
	       "%7.0f %7.0f %6.0f %6.0f\n",
	       id, ibdev, qpn, peer, state, in_flight(now), rq, (double)d->requests_posted / s,
	       (double)d->requests_served / s, (double)d->bytes_sent / MIB / s,
	       (double)d->bytes_read / MIB / s, (double)d->bytes_placed / MIB / s,
	       (double)(d->rnr_waits + d->rnr_notices) / s,
	       (double)(d->naks_sent + d->naks_received) / s, (double)d->timeouts / s,
	       (double)d->requests_failed / s);
}

/* A connection's operations and NAKs of this interval, a line each. */
static void print_detail(const char *id, const struct softdoca_rdma_counters *d, double s)
{
	for (int op = 0; op < SOFTDOCA_NUM_OP_TYPES; op++)
		if (d->posted[op] || d->served[op])
			printf("  %-10s %-16s posted %10.0f/s %10.2f MiB/s   served %10.0f/s "
			       "%10.2f "
			       "MiB/s\n",
			       id, info_op_names[op], (double)d->posted[op] / s,
			       (double)d->posted_bytes[op] / MIB / s, (double)d->served[op] / s,
			       (double)d->served_bytes[op] / MIB / s);
	for (int syn = 1; syn < SOFTDOCA_NUM_SYNDROMES; syn++)
		if (d->naks_sent_by_syndrome[syn] || d->naks_received_by_syndrome[syn])
			printf("  %-10s nak %-20s sent %8.0f/s   received %8.0f/s\n", id,
			       info_syndrome_names[syn], (double)d->naks_sent_by_syndrome[syn] / s,
			       (double)d->naks_received_by_syndrome[syn] / s);
}

/* The connections' rows of the table, or (detail) their operations and
 * NAKs, over the interval. */
static void print_connections(const struct info_interval *iv, const char *only, bool detail)
{
	const struct softdoca_process_counters *pc = iv->now;
	struct softdoca_rdma_counters d;
	char id[16], qpn[16], peer[16], rq[24];

	for (uint32_t i = 0; i < pc->num_connections; i++) {
		const struct softdoca_connection_counters *c = &pc->connections[i], *b;

		if (!shown(device_name(pc, c->device), only))
			continue;
		b = connection_before(iv, c);
		counters_delta(&c->counters, b ? &b->counters : NULL, &d);
		snprintf(id, sizeof(id), "0x%08x", c->connection_id);
		if (detail) {
			print_detail(id, &d, iv->seconds);
			continue;
		}
		snprintf(qpn, sizeof(qpn), "%u", c->qp_number);
		snprintf(peer, sizeof(peer), "%u", c->peer_pid);
		snprintf(rq, sizeof(rq), "%" PRIu64, c->counters.receive_queue_depth);
		print_row(id, device_name(pc, c->device), qpn, peer, info_state_name(c->state), rq,
		          &c->counters, &d, iv->seconds);
	}
}

void info_watch_print_text(const struct info_interval *iv, const char *only, bool clear)
{
	const struct softdoca_process_counters *pc = iv->now;
	struct softdoca_rdma_counters d;
	time_t when = (time_t)iv->unix_time;
	char stamp[32];
	struct tm tm;

	strftime(stamp, sizeof(stamp), "%H:%M:%S", gmtime_r(&when, &tm));
	if (clear)
		printf("\033[H\033[2J"); /* home and erase, as watch(1) redraws */
	printf("softdoca-info --watch: pid %u, interval %" PRIu64 " (%.3f s to %s UTC)\n", pc->pid,
	       iv->number, iv->seconds, stamp);
	printf("%-10s %-16s %6s %8s %-6s %7s %6s %10s %10s %10s %10s %10s %7s %7s %6s %6s\n",
	       "conn_id", "hca_id", "qpn", "peer_pid", "state", "inflght", "rq", "posted/s",
	       "served/s", "sent_MiB/s", "read_MiB/s", "plcd_MiB/s", "rnr/s", "naks/s", "t/o/s",
	       "fail/s");
	for (uint32_t i = 0; i < pc->num_devices; i++) {
		const struct softdoca_device_counters *dev = &pc->devices[i], *b;

		if (!shown(dev->ibdev_name, only))
			continue;
		b = device_before(iv, dev->ibdev_name);
		counters_delta(&dev->counters, b ? &b->counters : NULL, &d);
		print_row("all", dev->ibdev_name, "-", "-", "-", "-", &dev->counters, &d,
		          iv->seconds);
	}
	print_connections(iv, only, false);
	print_connections(iv, only, true);
	info_watch_print_dpa_text(iv, only);
	if (!clear)
		printf("\n"); /* intervals apart, in a file or a pipe */
}

/* "counters" (totals now), "rates" (per second over the interval) and
 * "in_flight" of one device or connection, added to o. */
static bool add_numbers(json_object *o, const struct softdoca_rdma_counters *now,
                        const struct softdoca_rdma_counters *before, double seconds)
{
	struct softdoca_rdma_counters d;
	json_object *totals = info_counters_json(now, 0), *rates;

	counters_delta(now, before, &d);
	rates = info_counters_json(&d, seconds);
	json_object_object_add(o, "in_flight", json_object_new_int64((int64_t)in_flight(now)));
	json_object_object_add(o, "counters", totals);
	json_object_object_add(o, "rates", rates);
	return totals && rates;
}

int info_watch_print_json(const struct info_interval *iv, const char *only)
{
	const struct softdoca_process_counters *pc = iv->now;
	json_object *root = json_object_new_object(), *devs = json_object_new_array(),
	            *conns = json_object_new_array();
	bool ok = root && devs && conns;
	char text[40];
	const char *line;

	if (!ok) {
		json_object_put(root);
		json_object_put(devs);
		json_object_put(conns);
		return 1;
	}
	json_object_object_add(root, "pid", json_object_new_int64(pc->pid));
	json_object_object_add(root, "interval", json_object_new_int64((int64_t)iv->number));
	snprintf(text, sizeof(text), "%.6f", iv->seconds);
	json_object_object_add(root, "seconds", json_object_new_double_s(iv->seconds, text));
	snprintf(text, sizeof(text), "%.3f", iv->unix_time);
	json_object_object_add(root, "time", json_object_new_double_s(iv->unix_time, text));
	json_object_object_add(root, "softdoca_version",
	                       json_object_new_string(pc->softdoca_version));
	for (uint32_t i = 0; ok && i < pc->num_devices; i++) {
		const struct softdoca_device_counters *dev = &pc->devices[i], *b;
		json_object *o;

		if (!shown(dev->ibdev_name, only))
			continue;
		o = json_object_new_object();
		ok = o != NULL;
		if (!ok)
			break;
		b = device_before(iv, dev->ibdev_name);
		json_object_object_add(o, "ibdev_name", json_object_new_string(dev->ibdev_name));
		json_object_array_add(devs, o);
		ok = add_numbers(o, &dev->counters, b ? &b->counters : NULL, iv->seconds);
	}
	for (uint32_t i = 0; ok && i < pc->num_connections; i++) {
		const struct softdoca_connection_counters *c = &pc->connections[i], *b;
		json_object *o;

		if (!shown(device_name(pc, c->device), only))
			continue;
		o = json_object_new_object();
		ok = o != NULL;
		if (!ok)
			break;
		b = connection_before(iv, c);
		json_object_array_add(conns, o);
		json_object_object_add(o, "id", json_object_new_int64(c->connection_id));
		json_object_object_add(o, "ibdev_name",
		                       json_object_new_string(device_name(pc, c->device)));
		json_object_object_add(o, "qp_number", json_object_new_int64(c->qp_number));
		json_object_object_add(o, "peer_pid", json_object_new_int64(c->peer_pid));
		json_object_object_add(o, "peer_qp_number",
		                       json_object_new_int64(c->peer_qp_number));
		json_object_object_add(o, "state",
		                       json_object_new_string(info_state_name(c->state)));
		json_object_object_add(o, "new", json_object_new_boolean(b == NULL));
		json_object_object_add(
		        o, "receive_queue_depth",
		        json_object_new_int64((int64_t)c->counters.receive_queue_depth));
		ok = add_numbers(o, &c->counters, b ? &b->counters : NULL, iv->seconds);
	}
	json_object_object_add(root, "devices", devs);
	json_object_object_add(root, "connections", conns);
	ok = ok && info_watch_add_dpa_json(root, iv, only);
	line = ok ? json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN |
	                                                         JSON_C_TO_STRING_NOSLASHESCAPE)
	          : NULL;
	if (line)
		printf("%s\n", line);
	json_object_put(root);
	return line ? 0 : 1;
}
