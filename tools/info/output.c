/*
 * The two ways softdoca-info prints: ibv_devinfo's look and JSON.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The two ways softdoca-info prints: ibv_devinfo's look, and JSON (json-c).
 */
#include <stdio.h>

#include <json-c/json.h>

#include <doca_version.h>

#include "info.h"

static const char *or_none(const char *s)
{
	return s[0] ? s : "-";
}

void info_print_text(const struct info_device *devs, int n)
{
	for (int i = 0; i < n; i++) {
		const struct info_device *d = &devs[i];

		printf("hca_id:\t%s\n", d->ibdev);
		printf("\tinterface:\t\t\t%s\n", d->iface);
		printf("\tipv4:\t\t\t\t%s\n", or_none(d->ipv4));
		printf("\tipv6:\t\t\t\t%s\n", or_none(d->ipv6));
		printf("\tmac:\t\t\t\t%s\n", or_none(d->mac));
		for (uint32_t g = 0; g < d->num_gids; g++)
			printf("\tGID[%2u]:\t\t\t%s\n", g, d->gids[g]);
		printf("\ttransport:\t\t\tRC%s\n", d->dc ? ", DC" : "");
		printf("\tmax_message_size:\t\t%u\n", d->max_message_size);
		printf("\tmax_send_queue_size:\t\t%u\n", d->max_send_queue);
		printf("\tmax_recv_queue_size:\t\t%u\n", d->max_recv_queue);
		printf("\tmax_send_buf_list_len:\t\t%u\n", d->max_send_buf_list);
		printf("\tmax_recv_buf_list_len:\t\t%u\n", d->max_recv_buf_list);
		printf("\tmax_num_connections:\t\t%u\n", d->max_num_connections);
		printf("\ttasks:\n");
		for (int t = 0; t < INFO_NUM_TASKS; t++)
			printf("\t\t%-34s%s\n", d->tasks[t].name,
			       d->tasks[t].supported ? "supported" : "not supported");
		if (i + 1 < n)
			printf("\n");
	}
}

/* json-c takes ownership of what is added; a NULL anywhere fails the whole. */
static json_object *device_json(const struct info_device *d)
{
	json_object *o = json_object_new_object(), *gids = json_object_new_array(),
	            *tasks = json_object_new_object(), *transports = json_object_new_array();

	if (!o || !gids || !tasks || !transports) {
		json_object_put(o);
		json_object_put(gids);
		json_object_put(tasks);
		json_object_put(transports);
		return NULL;
	}
	json_object_object_add(o, "ibdev_name", json_object_new_string(d->ibdev));
	json_object_object_add(o, "interface", json_object_new_string(d->iface));
	json_object_object_add(o, "ipv4", d->ipv4[0] ? json_object_new_string(d->ipv4) : NULL);
	json_object_object_add(o, "ipv6", d->ipv6[0] ? json_object_new_string(d->ipv6) : NULL);
	json_object_object_add(o, "mac", d->mac[0] ? json_object_new_string(d->mac) : NULL);
	for (uint32_t g = 0; g < d->num_gids; g++)
		json_object_array_add(gids, json_object_new_string(d->gids[g]));
	json_object_object_add(o, "gids", gids);
	if (d->rc)
		json_object_array_add(transports, json_object_new_string("RC"));
	if (d->dc)
		json_object_array_add(transports, json_object_new_string("DC"));
	json_object_object_add(o, "transport_types", transports);
	json_object_object_add(o, "max_message_size", json_object_new_int64(d->max_message_size));
	json_object_object_add(o, "max_send_queue_size", json_object_new_int64(d->max_send_queue));
	json_object_object_add(o, "max_recv_queue_size", json_object_new_int64(d->max_recv_queue));
	json_object_object_add(o, "max_send_buf_list_len",
	                       json_object_new_int64(d->max_send_buf_list));
	json_object_object_add(o, "max_recv_buf_list_len",
	                       json_object_new_int64(d->max_recv_buf_list));
	json_object_object_add(o, "max_num_connections",
	                       json_object_new_int64(d->max_num_connections));
	for (int t = 0; t < INFO_NUM_TASKS; t++)
		json_object_object_add(tasks, d->tasks[t].name,
		                       json_object_new_boolean(d->tasks[t].supported));
	json_object_object_add(o, "tasks", tasks);
	return o;
}

int info_print_json(const struct info_device *devs, int n)
{
	json_object *root = json_object_new_object(), *list = json_object_new_array();
	const char *text;

	if (!root || !list) {
		json_object_put(root);
		json_object_put(list);
		return 1;
	}
	json_object_object_add(root, "softdoca_version",
	                       json_object_new_string(SOFTDOCA_VERSION_STRING));
	json_object_object_add(root, "doca_api_version",
	                       json_object_new_string(doca_version_runtime()));
	for (int i = 0; i < n; i++) {
		json_object *d = device_json(&devs[i]);

		if (!d) {
			json_object_put(root);
			json_object_put(list);
			return 1;
		}
		json_object_array_add(list, d);
	}
	json_object_object_add(root, "devices", list);
	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
	                                                    JSON_C_TO_STRING_NOSLASHESCAPE);
	if (text)
		printf("%s\n", text);
	json_object_put(root);
	return text ? 0 : 1;
}
