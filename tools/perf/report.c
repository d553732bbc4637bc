/*
 * softdoca-perf's report: perftest's look and JSON.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * perftest's look: a banner, one row per size, and the same as JSON.
 */
#include <stdio.h>
#include <stdlib.h>

#include <softdoca.h>

#include "perf.h"

#define RULE                                                                                      \
	"---------------------------------------------------------------------------------------" \
	"\n"

static const char *const titles[PERF_NUM_OPS] = {
	[PERF_WRITE] = "RDMA_Write",
	[PERF_WRITE_IMM] = "RDMA_Write_Imm",
	[PERF_READ] = "RDMA_Read",
	[PERF_SEND] = "Send",
	[PERF_SEND_IMM] = "Send_Imm",
	[PERF_ATOMIC_FA] = "Atomic FETCH_AND_ADD",
	[PERF_ATOMIC_CS] = "Atomic CMP_AND_SWAP",
	[PERF_SYNC_SET] = "Remote sync event NOTIFY_SET",
	[PERF_SYNC_ADD] = "Remote sync event NOTIFY_ADD",
};

void perf_report_banner(const struct perf_opts *o, const struct perf_ep *ep)
{
	char ibdev[DOCA_DEVINFO_IBDEV_NAME_SIZE] = "?";
	const char *transport = getenv("SOFTDOCA_TRANSPORT");

	doca_devinfo_get_ibdev_name(doca_dev_as_devinfo(ep->dev), ibdev, sizeof(ibdev));
	printf(RULE);
	printf("                    %s %s Test\n", titles[o->op],
	       o->mode == PERF_BW ? "BW" : "Latency");
	printf(" Device         : %-16s Transport      : %s\n", ibdev,
	       transport ? transport : "auto (softdoca)");
	printf(" Number of qps  : %-16u Transport type : RC (soft NIC over UCX)\n",
	       o->mode == PERF_BW ? o->conns : 1);
	printf(" Connection type: RC               Using SRQ      : OFF\n");
	printf(" TX depth       : %-16u Data ex. method: %s\n", o->mode == PERF_BW ? o->depth : 1,
	       ep->params.cm ? "rdma_cm" : "TCP socket");
	/* What the connections took to set up, from the first asked to all up. */
	if (ep->params.cm)
		printf(" Set-up time    : %.3f ms, %u connection%s through the listener on port "
		       "%u\n"
		       "                  (doca_rdma_connect_to_addr -> all established)\n",
		       (double)ep->setup_ns / 1e6, ep->num_conns, ep->num_conns == 1 ? "" : "s",
		       ep->cm_port);
	else
		printf(" Set-up time    : %.3f ms, %u connection%s by blobs over the TCP socket\n"
		       "                  (first doca_rdma_export -> context RUNNING)\n",
		       (double)ep->setup_ns / 1e6, ep->num_conns, ep->num_conns == 1 ? "" : "s");
	if (o->mode == PERF_LAT && perf_op_is_sync(o->op))
		printf(" Latency        : notify-set to the server's waiter waking (same host\n"
		       "                  clock), and whole operations, one in flight%s\n",
		       o->gap_us ? ", a gap between" : "");
	else if (o->mode == PERF_LAT)
		printf(" Latency        : %s\n", perf_op_is_pingpong(o->op)
		                                         ? "half of a ping-pong round trip"
		                                         : "the whole operation (one in flight)");
	if (o->check)
		printf(" Data check     : %s\n", perf_check_what(o));
	else if (o->mode == PERF_BW)
		printf(" Buffers        : one, shared by all operations in flight (as perftest)\n");
	printf(" softdoca       : %-16s DOCA API       : %s\n", softdoca_version(),
	       o->api == 202 ? "2.2 (doca_workq, jobs)" : "3.x (doca_pe, tasks)");
	printf(RULE);
	if (o->mode == PERF_BW)
		printf(" #bytes     #iterations    BW peak[%s]    BW average[%s]   MsgRate[Mpps]\n",
		       o->gbits ? "Gb/sec" : "MiB/sec", o->gbits ? "Gb/sec" : "MiB/sec");
	else
		printf(" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    "
		       "t_avg[usec]    t_stdev[usec]   99%% percentile[usec]   99.9%% "
		       "percentile[usec]\n");
	fflush(stdout);
}

static double bw_unit(const struct perf_opts *o, double bytes_per_s)
{
	return o->gbits ? bytes_per_s * 8 / 1e9 : bytes_per_s / (1024.0 * 1024.0);
}

void perf_report_row(const struct perf_opts *o, const struct perf_result *r)
{
	if (r->label)
		printf(" %s:\n", r->label);
	if (o->mode == PERF_BW)
		printf(" %-10lu %-10lu       %-9.2f          %-9.2f          %-9.6f\n",
		       (unsigned long)r->size, (unsigned long)r->iters, bw_unit(o, r->bw_peak),
		       bw_unit(o, r->bw_avg), r->msg_rate / 1e6);
	else
		printf(" %-7lu %-10lu %-7.2f        %-7.2f      %-7.2f          %-7.2f        "
		       "%-7.2f          %-7.2f                %-7.2f\n",
		       (unsigned long)r->size, (unsigned long)r->iters, r->t_min, r->t_max,
		       r->t_typical, r->t_avg, r->t_stdev, r->t_p99, r->t_p999);
	fflush(stdout);
}

void perf_report_footer(const struct perf_opts *o)
{
	(void)o;
	printf(RULE);
}

int perf_report_json(const struct perf_opts *o, const struct perf_ep *ep,
                     const struct perf_result *r, size_t n)
{
	FILE *f = fopen(o->json, "w");
	const char *transport = getenv("SOFTDOCA_TRANSPORT");

	if (!f) {
		perror(o->json);
		return -1;
	}
	fprintf(f, "{\n  \"test\": \"%s\",\n  \"mode\": \"%s\",\n  \"transport\": \"%s\",\n",
	        perf_op_name(o->op), o->mode == PERF_BW ? "bw" : "lat",
	        transport ? transport : "auto");
	fprintf(f, "  \"tx_depth\": %u,\n  \"checked\": %s,\n", o->mode == PERF_BW ? o->depth : 1,
	        o->check ? "true" : "false");
	fprintf(f,
	        "  \"connections\": %u,\n  \"setup\": \"%s\",\n  \"setup_ms\": %.3f,\n"
	        "  \"results\": [\n",
	        ep->num_conns, ep->params.cm ? "rdma_cm" : "blobs", (double)ep->setup_ns / 1e6);
	for (size_t i = 0; i < n; i++) {
		fprintf(f,
		        "    { \"bytes\": %lu, \"iterations\": %lu, \"verified\": %lu, \"bad\": "
		        "%lu",
		        (unsigned long)r[i].size, (unsigned long)r[i].iters,
		        (unsigned long)r[i].verified, (unsigned long)r[i].bad);
		if (r[i].label)
			fprintf(f, ", \"label\": \"%s\"", r[i].label);
		if (o->mode == PERF_BW)
			fprintf(f,
			        ", \"bw_peak_mib_s\": %.3f, \"bw_avg_mib_s\": %.3f, "
			        "\"msg_rate_mpps\": %.6f",
			        r[i].bw_peak / 1048576.0, r[i].bw_avg / 1048576.0,
			        r[i].msg_rate / 1e6);
		else
			fprintf(f,
			        ", \"t_min_us\": %.3f, \"t_max_us\": %.3f, \"t_typical_us\": %.3f, "
			        "\"t_avg_us\": %.3f, \"t_stdev_us\": %.3f, \"t_p99_us\": %.3f, "
			        "\"t_p999_us\": %.3f",
			        r[i].t_min, r[i].t_max, r[i].t_typical, r[i].t_avg, r[i].t_stdev,
			        r[i].t_p99, r[i].t_p999);
		fprintf(f, " }%s\n", i + 1 < n ? "," : "");
	}
	fprintf(f, "  ]\n}\n");
	return fclose(f) == 0 ? 0 : -1;
}
