/*
 * softdoca-info --pid P: another process's counters.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * softdoca-info --pid P: another process's counters (softdoca.h's
 * softdoca_process_counters_get), per device and per live connection, as
 * `rdma statistic` and perftest's counters show a hardware port's; its DPA
 * contexts and threads in process_dpa.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "info.h"

const char *const info_op_names[SOFTDOCA_NUM_OP_TYPES] = {
	[SOFTDOCA_OP_WRITE] = "write",
	[SOFTDOCA_OP_WRITE_IMM] = "write_imm",
	[SOFTDOCA_OP_SEND] = "send",
	[SOFTDOCA_OP_SEND_IMM] = "send_imm",
	[SOFTDOCA_OP_READ] = "read",
	[SOFTDOCA_OP_ATOMIC_FA] = "atomic_fa",
	[SOFTDOCA_OP_ATOMIC_CS] = "atomic_cs",
	[SOFTDOCA_OP_SYNC_EVENT_GET] = "sync_event_get",
	[SOFTDOCA_OP_SYNC_EVENT_SET] = "sync_event_set",
	[SOFTDOCA_OP_SYNC_EVENT_ADD] = "sync_event_add",
};

const char *const info_syndrome_names[SOFTDOCA_NUM_SYNDROMES] = {
	[SOFTDOCA_SYN_REMOTE_ACCESS] = "remote_access",
	[SOFTDOCA_SYN_REMOTE_INVALID] = "remote_invalid",
	[SOFTDOCA_SYN_RNR_RETRY_EXCEEDED] = "rnr_retry_exceeded",
	[SOFTDOCA_SYN_REMOTE_OPERATIONAL] = "remote_operational",
};

static const char *const state_names[] = {
	[SOFTDOCA_QP_INIT] = "INIT",
	[SOFTDOCA_QP_RTS] = "RTS",
	[SOFTDOCA_QP_CLOSED] = "CLOSED",
	[SOFTDOCA_QP_ERROR] = "ERROR",
};

const char *info_state_name(enum softdoca_qp_state s)
{
	return (unsigned)s < sizeof(state_names) / sizeof(state_names[0]) ? state_names[s] : "?";
}

static void print_counters(const struct softdoca_rdma_counters *c)
{
	bool any = false;

#define PRINT_SCALAR(name) printf("\t%-24s%" PRIu64 "\n", #name ":", c->name);
	INFO_SCALARS(PRINT_SCALAR)
#undef PRINT_SCALAR
	for (int s = 1; s < SOFTDOCA_NUM_SYNDROMES; s++)
		if (c->naks_sent_by_syndrome[s] || c->naks_received_by_syndrome[s])
			printf("\tnaks[%s]:%*s sent %" PRIu64 ", received %" PRIu64 "\n",
			       info_syndrome_names[s], 18 - (int)strlen(info_syndrome_names[s]), "",
			       c->naks_sent_by_syndrome[s], c->naks_received_by_syndrome[s]);
	for (int op = 0; op < SOFTDOCA_NUM_OP_TYPES; op++) {
		if (!c->posted[op] && !c->served[op] && !c->posted_bytes[op] &&
		    !c->served_bytes[op])
			continue;
		if (!any)
			printf("\t%-16s%14s%16s%14s%16s\n", "operation", "posted", "posted_bytes",
			       "served", "served_bytes");
		any = true;
		printf("\t%-16s%14" PRIu64 "%16" PRIu64 "%14" PRIu64 "%16" PRIu64 "\n",
		       info_op_names[op], c->posted[op], c->posted_bytes[op], c->served[op],
		       c->served_bytes[op]);
	}
	if (!any)
		printf("\t(no operations)\n");
}

static bool shown(const struct softdoca_process_counters *pc, uint32_t dev, const char *only)
{
	return !only || strcmp(pc->devices[dev].ibdev_name, only) == 0;
}

static void print_connections(const struct softdoca_process_counters *pc, const char *only);

bool info_process_has_device(const struct softdoca_process_counters *pc, const char *ibdev)
{
	for (uint32_t d = 0; d < pc->num_devices; d++)
		if (strcmp(pc->devices[d].ibdev_name, ibdev) == 0)
			return true;
	return info_dpa_on_device(pc, ibdev);
}

void info_print_process_text(const struct softdoca_process_counters *pc, const char *only)
{
	uint32_t conns = 0;

	for (uint32_t i = 0; i < pc->num_connections; i++)
		conns += shown(pc, pc->connections[i].device, only);
	printf("pid:\t%u\n", pc->pid);
	printf("\tsoftdoca_version:\t%s\n", pc->softdoca_version);
	printf("\tfaults_injected:\t%" PRIu64 "\n", pc->faults_injected);
	printf("\tconnections:\t\t%u\n", conns);
	for (uint32_t d = 0; d < pc->num_devices; d++) {
		if (!shown(pc, d, only))
			continue;
		printf("\nhca_id:\t%s (every connection, past and present)\n",
		       pc->devices[d].ibdev_name);
		print_counters(&pc->devices[d].counters);
	}
	if (conns > 0)
		print_connections(pc, only);
	info_print_dpa_text(pc, only);
}

/* One line each, then each one's counters in full. */
static void print_connections(const struct softdoca_process_counters *pc, const char *only)
{
	printf("\n%-10s %-16s %6s %8s %8s %-6s %10s %14s %10s %14s %6s %6s %6s %6s %6s %6s\n",
	       "conn_id", "hca_id", "qpn", "peer_pid", "peer_qpn", "state", "posted", "bytes_sent",
	       "served", "bytes_placed", "rq", "rnr", "t/o", "naks", "strgr", "fault");
	for (uint32_t i = 0; i < pc->num_connections; i++) {
		const struct softdoca_connection_counters *c = &pc->connections[i];
		const struct softdoca_rdma_counters *k = &c->counters;

		if (!shown(pc, c->device, only))
			continue;
		printf("0x%08x %-16s %6u %8u %8u %-6s %10" PRIu64 " %14" PRIu64 " %10" PRIu64
		       " %14" PRIu64 " %6" PRIu64 " %6" PRIu64 " %6" PRIu64 " %6" PRIu64
		       " %6" PRIu64 " %6" PRIu64 "\n",
		       c->connection_id, pc->devices[c->device].ibdev_name, c->qp_number,
		       c->peer_pid, c->peer_qp_number, info_state_name(c->state),
		       k->requests_posted, k->bytes_sent, k->requests_served, k->bytes_placed,
		       k->receive_queue_depth, k->rnr_waits + k->rnr_notices, k->timeouts,
		       k->naks_sent + k->naks_received, k->strangers_dropped, k->faults_injected);
	}
	for (uint32_t i = 0; i < pc->num_connections; i++) {
		const struct softdoca_connection_counters *c = &pc->connections[i];

		if (!shown(pc, c->device, only))
			continue;
		printf("\nconnection 0x%08x (hca_id %s, qpn %u, peer pid %u qpn %u, %s)\n",
		       c->connection_id, pc->devices[c->device].ibdev_name, c->qp_number,
		       c->peer_pid, c->peer_qp_number, info_state_name(c->state));
		printf("\t%-24s%" PRIu64 "\n",
		       "receive_queue_depth:", c->counters.receive_queue_depth);
		print_counters(&c->counters);
	}
}

/* A count, or a rate per second with 3 decimals (json-c would print 17). */
static json_object *value_json(uint64_t v, double seconds)
{
	char text[40];

	if (seconds <= 0)
		return json_object_new_int64((int64_t)v);
	snprintf(text, sizeof(text), "%.3f", (double)v / seconds);
	return json_object_new_double_s((double)v / seconds, text);
}

static json_object *by_name(const uint64_t *values, const char *const *names, int first, int n,
                            double seconds)
{
	json_object *o = json_object_new_object();

	for (int i = first; o && i < n; i++)
		json_object_object_add(o, names[i], value_json(values[i], seconds));
	return o;
}

json_object *info_counters_json(const struct softdoca_rdma_counters *c, double seconds)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
#define JSON_SCALAR(name) json_object_object_add(o, #name, value_json(c->name, seconds));
	INFO_SCALARS(JSON_SCALAR)
#undef JSON_SCALAR
	json_object_object_add(
	        o, "posted", by_name(c->posted, info_op_names, 0, SOFTDOCA_NUM_OP_TYPES, seconds));
	json_object_object_add(
	        o, "posted_bytes",
	        by_name(c->posted_bytes, info_op_names, 0, SOFTDOCA_NUM_OP_TYPES, seconds));
	json_object_object_add(
	        o, "served", by_name(c->served, info_op_names, 0, SOFTDOCA_NUM_OP_TYPES, seconds));
	json_object_object_add(
	        o, "served_bytes",
	        by_name(c->served_bytes, info_op_names, 0, SOFTDOCA_NUM_OP_TYPES, seconds));
	json_object_object_add(o, "naks_sent_by_syndrome",
	                       by_name(c->naks_sent_by_syndrome, info_syndrome_names, 1,
	                               SOFTDOCA_NUM_SYNDROMES, seconds));
	json_object_object_add(o, "naks_received_by_syndrome",
	                       by_name(c->naks_received_by_syndrome, info_syndrome_names, 1,
	                               SOFTDOCA_NUM_SYNDROMES, seconds));
	return o;
}

int info_print_process_json(const struct softdoca_process_counters *pc, const char *only)
{
	json_object *root = json_object_new_object(), *devs = json_object_new_array(),
	            *conns = json_object_new_array();
	const char *text;

	if (!root || !devs || !conns) {
		json_object_put(root);
		json_object_put(devs);
		json_object_put(conns);
		return 1;
	}
	json_object_object_add(root, "pid", json_object_new_int64(pc->pid));
	json_object_object_add(root, "softdoca_version",
	                       json_object_new_string(pc->softdoca_version));
	json_object_object_add(root, "faults_injected",
	                       json_object_new_int64((int64_t)pc->faults_injected));
	for (uint32_t d = 0; d < pc->num_devices; d++) {
		json_object *o = json_object_new_object();

		if (!shown(pc, d, only) || !o) {
			json_object_put(o);
			continue;
		}
		json_object_object_add(o, "ibdev_name",
		                       json_object_new_string(pc->devices[d].ibdev_name));
		json_object_object_add(o, "counters",
		                       info_counters_json(&pc->devices[d].counters, 0));
		json_object_array_add(devs, o);
	}
	for (uint32_t i = 0; i < pc->num_connections; i++) {
		const struct softdoca_connection_counters *c = &pc->connections[i];
		json_object *o = json_object_new_object();

		if (!shown(pc, c->device, only) || !o) {
			json_object_put(o);
			continue;
		}
		json_object_object_add(o, "id", json_object_new_int64(c->connection_id));
		json_object_object_add(o, "ibdev_name",
		                       json_object_new_string(pc->devices[c->device].ibdev_name));
		json_object_object_add(o, "qp_number", json_object_new_int64(c->qp_number));
		json_object_object_add(o, "peer_pid", json_object_new_int64(c->peer_pid));
		json_object_object_add(o, "peer_qp_number",
		                       json_object_new_int64(c->peer_qp_number));
		json_object_object_add(o, "state",
		                       json_object_new_string(info_state_name(c->state)));
		json_object_object_add(
		        o, "receive_queue_depth",
		        json_object_new_int64((int64_t)c->counters.receive_queue_depth));
		json_object_object_add(o, "counters", info_counters_json(&c->counters, 0));
		json_object_array_add(conns, o);
	}
	json_object_object_add(root, "devices", devs);
	json_object_object_add(root, "connections", conns);
	if (!info_add_dpa_json(root, pc, only)) {
		json_object_put(root);
		return 1;
	}
	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
	                                                    JSON_C_TO_STRING_NOSLASHESCAPE);
	if (text)
		printf("%s\n", text);
	json_object_put(root);
	return text ? 0 : 1;
}
