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

/* Its DPA contexts and threads (process_dpa.c), those on device only if
 * not NULL: whether it has one there, the "DPA" text section, and the
 * "dpas" and "dpa_threads" members added to root (false: no memory). */
struct json_object;
bool info_dpa_on_device(const struct softdoca_process_counters *pc, const char *ibdev);
void info_print_dpa_text(const struct softdoca_process_counters *pc, const char *only);
bool info_add_dpa_json(struct json_object *root, const struct softdoca_process_counters *pc,
                       const char *only);

#endif /* SDOCA_TOOLS_INFO_H_ */
