/*
 * One device's facts, from the calls a DOCA program makes.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include <doca_error.h>
#include <softdoca.h>

#include "info.h"

static void ip_text(int family, const uint8_t *addr, char *out, socklen_t len)
{
	if (!inet_ntop(family, addr, out, len))
		out[0] = '\0';
}

static void addresses(struct doca_devinfo *devinfo, struct info_device *d)
{
	uint8_t v4[DOCA_DEVINFO_IPV4_ADDR_SIZE], v6[DOCA_DEVINFO_IPV6_ADDR_SIZE];
	uint8_t mac[DOCA_DEVINFO_MAC_ADDR_SIZE];

	if (doca_devinfo_get_ipv4_addr(devinfo, v4, sizeof(v4)) == DOCA_SUCCESS)
		ip_text(AF_INET, v4, d->ipv4, sizeof(d->ipv4));
	if (doca_devinfo_get_ipv6_addr(devinfo, v6, sizeof(v6)) == DOCA_SUCCESS)
		ip_text(AF_INET6, v6, d->ipv6, sizeof(d->ipv6));
	if (doca_devinfo_get_mac_addr(devinfo, mac, sizeof(mac)) == DOCA_SUCCESS)
		snprintf(d->mac, sizeof(d->mac), "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1],
		         mac[2], mac[3], mac[4], mac[5]);
}

static void gids(struct doca_devinfo *devinfo, struct info_device *d)
{
	struct doca_rdma_gid table[INFO_MAX_GIDS];
	uint32_t size = 0;

	if (doca_rdma_cap_get_gid_table_size(devinfo, &size) != DOCA_SUCCESS || size == 0)
		return;
	if (size > INFO_MAX_GIDS)
		size = INFO_MAX_GIDS;
	if (doca_rdma_cap_get_gid(devinfo, 0, size, table) != DOCA_SUCCESS)
		return;
	for (uint32_t i = 0; i < size; i++)
		ip_text(AF_INET6, table[i].raw, d->gids[i], sizeof(d->gids[i]));
	d->num_gids = size;
}

static void tasks(struct doca_devinfo *devinfo, struct info_device *d)
{
	static const struct {
		const char *name;
		doca_error_t (*is_supported)(const struct doca_devinfo *);
	} kinds[INFO_NUM_TASKS] = {
		{ "receive", doca_rdma_cap_task_receive_is_supported },
		{ "send", doca_rdma_cap_task_send_is_supported },
		{ "send_imm", doca_rdma_cap_task_send_imm_is_supported },
		{ "write", doca_rdma_cap_task_write_is_supported },
		{ "write_imm", doca_rdma_cap_task_write_imm_is_supported },
		{ "read", doca_rdma_cap_task_read_is_supported },
		{ "atomic_cmp_swp", doca_rdma_cap_task_atomic_cmp_swp_is_supported },
		{ "atomic_fetch_add", doca_rdma_cap_task_atomic_fetch_add_is_supported },
		{ "remote_net_sync_event_get",
		  doca_rdma_cap_task_remote_net_sync_event_get_is_supported },
		{ "remote_net_sync_event_notify_set",
		  doca_rdma_cap_task_remote_net_sync_event_notify_set_is_supported },
		{ "remote_net_sync_event_notify_add",
		  doca_rdma_cap_task_remote_net_sync_event_notify_add_is_supported },
	};

	for (int i = 0; i < INFO_NUM_TASKS; i++) {
		d->tasks[i].name = kinds[i].name;
		d->tasks[i].supported = kinds[i].is_supported(devinfo) == DOCA_SUCCESS;
	}
}

bool info_describe(struct doca_devinfo *devinfo, struct info_device *d)
{
	doca_error_t status;

	memset(d, 0, sizeof(*d));
	status = doca_devinfo_get_ibdev_name(devinfo, d->ibdev, sizeof(d->ibdev));
	if (status == DOCA_SUCCESS)
		status = doca_devinfo_get_iface_name(devinfo, d->iface, sizeof(d->iface));
	if (status != DOCA_SUCCESS) {
		fprintf(stderr, "softdoca-info: a device without a name: %s\n",
		        doca_error_get_descr(status));
		return false;
	}
	addresses(devinfo, d);
	gids(devinfo, d);
	/* Each of these answers for every softdoca device; 0 would mean "unknown". */
	(void)doca_rdma_cap_get_max_message_size(devinfo, &d->max_message_size);
	(void)doca_rdma_cap_get_max_send_queue_size(devinfo, &d->max_send_queue);
	(void)doca_rdma_cap_get_max_recv_queue_size(devinfo, &d->max_recv_queue);
	(void)doca_rdma_cap_get_max_send_buf_list_len(devinfo, &d->max_send_buf_list);
	(void)doca_rdma_cap_task_receive_get_max_dst_buf_list_len(
	        devinfo, DOCA_RDMA_TRANSPORT_TYPE_RC, &d->max_recv_buf_list);
	/* The most doca_rdma_set_max_num_connections() takes (src/rdma's
	 * RDMA_MAX_CONNECTIONS): DOCA has no capability query for it, softdoca.h
	 * has one. */
	(void)softdoca_rdma_cap_get_max_num_connections(devinfo, &d->max_num_connections);
	d->rc = doca_rdma_cap_transport_type_is_supported(devinfo, DOCA_RDMA_TRANSPORT_TYPE_RC) ==
	        DOCA_SUCCESS;
	d->dc = doca_rdma_cap_transport_type_is_supported(devinfo, DOCA_RDMA_TRANSPORT_TYPE_DC) ==
	        DOCA_SUCCESS;
	tasks(devinfo, d);
	return true;
}
