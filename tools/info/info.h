/*
 * softdoca-info internals: what each device offers.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * softdoca-info: what each device offers, asked through the public DOCA
 * calls a program would use (doca_devinfo_*, doca_rdma_cap_*, and softdoca.h
 * where DOCA has no query), printed like ibv_devinfo or as JSON.
 */
#ifndef SDOCA_TOOLS_INFO_H_
#define SDOCA_TOOLS_INFO_H_

#include <stdbool.h>
#include <stdint.h>

#include <doca_dev.h>
#include <doca_rdma.h>
#include <softdoca.h>

#define INFO_MAX_GIDS 16

/* A task type and whether the device supports it. */
struct info_task {
	const char *name;
	bool supported;
};

#define INFO_NUM_TASKS 11

struct info_device {
	char ibdev[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	char iface[DOCA_DEVINFO_IFACE_NAME_SIZE];
	char ipv4[16]; /* empty when the interface has none */
	char ipv6[48]; /* likewise */
	char mac[18];  /* likewise */
	uint32_t num_gids;
	char gids[INFO_MAX_GIDS][48]; /* the GIDs, as IPv6 text */
	uint32_t max_message_size;
	uint32_t max_send_queue;
	uint32_t max_recv_queue;
	uint32_t max_send_buf_list;
	uint32_t max_recv_buf_list;
	uint32_t max_num_connections; /* per context (softdoca.h: DOCA has no query) */
	bool rc;
	bool dc;
	struct info_task tasks[INFO_NUM_TASKS];
};

/* Fills d from the device's answers; false (with a message) on failure. */
bool info_describe(struct doca_devinfo *devinfo, struct info_device *d);

void info_print_text(const struct info_device *devs, int n);
/* 0, or 1 when the JSON could not be built. */
int info_print_json(const struct info_device *devs, int n);

/* Another process's counters (--pid), of every device or only one. */
void info_print_process_text(const struct softdoca_process_counters *pc, const char *only);
int info_print_process_json(const struct softdoca_process_counters *pc, const char *only);
/* Whether it has device ibdev (a device's counters or a DPA context there). */
bool info_process_has_device(const struct softdoca_process_counters *pc, const char *ibdev);

/* Names of operation types, NAK syndromes (from 1) and QP states, as the
 * text and JSON print them; the counters that are one number each. */
extern const char *const info_op_names[SOFTDOCA_NUM_OP_TYPES];
extern const char *const info_syndrome_names[SOFTDOCA_NUM_SYNDROMES];
const char *info_state_name(enum softdoca_qp_state s);
#define INFO_SCALARS(X)       \
	X(requests_posted)    \
	X(requests_completed) \
	X(requests_failed)    \
	X(bytes_sent)         \
	X(bytes_read)         \
	X(requests_served)    \
	X(bytes_placed)       \
	X(rnr_waits)          \
	X(rnr_notices)        \
	X(timeouts)           \
	X(naks_sent)          \
	X(naks_received)      \
	X(strangers_dropped)  \
	X(faults_injected)

struct json_object;
/* c as JSON: counts, or with seconds > 0 rates per second (NULL: no memory). */
struct json_object *info_counters_json(const struct softdoca_rdma_counters *c, double seconds);

/* --watch: snapshots every interval seconds, each printed as rates since
 * the one before; count intervals, or 0 until a signal or the target's end.
 * The exit code: 0 at the end (the target's included), else as --pid's. */
struct info_watch_opts {
	uint32_t pid;
	const char *only;
	bool json;
	double interval;
	uint64_t count;
};
int info_watch(const struct info_watch_opts *o);

/* One interval of --watch: the snapshot read now, the one before it, and
 * the seconds between them (watch_output.c prints it). */
struct info_interval {
	const struct softdoca_process_counters *now;
	const struct softdoca_process_counters *before;
	double seconds;
	uint64_t number;  /* 1, 2, ... */
	double unix_time; /* when now was read */
	double interval;  /* what was asked */
};
void info_watch_print_text(const struct info_interval *iv, const char *only, bool clear);
/* One line of JSON; 0, or 1 when it could not be built. */
int info_watch_print_json(const struct info_interval *iv, const char *only);

/* Its DPA contexts and threads (process_dpa.c), those on device only if
 * not NULL: whether it has one there, the "DPA" text section, and the
 * "dpas" and "dpa_threads" members added to root (false: no memory). */
bool info_dpa_on_device(const struct softdoca_process_counters *pc, const char *ibdev);
void info_print_dpa_text(const struct softdoca_process_counters *pc, const char *only);
bool info_add_dpa_json(struct json_object *root, const struct softdoca_process_counters *pc,
                       const char *only);
/* Whether DPA dpa is shown with -d only (NULL: all); a thread state's name. */
bool info_dpa_shown(const struct softdoca_process_counters *pc, uint32_t dpa, const char *only);
const char *info_dpa_thread_state_name(enum softdoca_dpa_thread_state s);

/* --watch's DPA part (watch_dpa.c): each shown thread's activations per
 * second over the interval and its completion contexts' depth now, as a
 * text table and as "dpas" and "dpa_threads" of the JSON line (false: no
 * memory). */
void info_watch_print_dpa_text(const struct info_interval *iv, const char *only);
bool info_watch_add_dpa_json(struct json_object *root, const struct info_interval *iv,
                             const char *only);

#endif /* SDOCA_TOOLS_INFO_H_ */
