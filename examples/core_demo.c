/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * A tour of DOCA Core on softdoca: devices, a registered memory range and
 * its export blob, the remote view of it, buffers and buffer lists.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_dev.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_version.h>
#include <softdoca.h>

DOCA_LOG_REGISTER(CORE_DEMO);

#define CHECK(call)                                                                     \
	do {                                                                            \
		doca_error_t r_ = (call);                                               \
		if (r_ != DOCA_SUCCESS) {                                               \
			DOCA_LOG_ERR("%s failed: %s", #call, doca_error_get_descr(r_)); \
			return 1;                                                       \
		}                                                                       \
	} while (0)

static void print_devices(struct doca_devinfo **list, uint32_t n)
{
	printf("%-16s %-12s %-16s %s\n", "device", "interface", "IPv4", "PCI");
	for (uint32_t i = 0; i < n; i++) {
		char ibdev[DOCA_DEVINFO_IBDEV_NAME_SIZE], iface[DOCA_DEVINFO_IFACE_NAME_SIZE];
		char pci[DOCA_DEVINFO_PCI_ADDR_SIZE], ip[INET_ADDRSTRLEN] = "-";
		uint8_t v4[4];

		doca_devinfo_get_ibdev_name(list[i], ibdev, sizeof(ibdev));
		doca_devinfo_get_iface_name(list[i], iface, sizeof(iface));
		doca_devinfo_get_pci_addr_str(list[i], pci);
		if (doca_devinfo_get_ipv4_addr(list[i], v4, sizeof(v4)) == DOCA_SUCCESS)
			inet_ntop(AF_INET, v4, ip, sizeof(ip));
		printf("%-16s %-12s %-16s %s\n", ibdev, iface, ip, pci);
	}
}

int main(void)
{
	static char memory[4096] = "written by the exporter";
	struct doca_devinfo **list;
	struct doca_dev *dev;
	struct doca_mmap *mmap, *remote;
	struct doca_buf_inventory *inv;
	struct doca_buf *a, *b;
	const void *blob;
	size_t blob_len, len;
	void *addr;
	uint32_t n, elements;

	CHECK(doca_log_backend_create_standard());
	printf("softdoca %s implementing DOCA %s\n\n", softdoca_version(), doca_version_runtime());

	CHECK(doca_devinfo_create_list(&list, &n));
	print_devices(list, n);
	if (n == 0) {
		DOCA_LOG_ERR("no network interface is up");
		return 1;
	}
	CHECK(doca_dev_open(list[0], &dev));
	CHECK(doca_devinfo_destroy_list(list));

	CHECK(doca_mmap_create(&mmap));
	CHECK(doca_mmap_set_memrange(mmap, memory, sizeof(memory)));
	CHECK(doca_mmap_set_permissions(mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE |
	                                              DOCA_ACCESS_FLAG_RDMA_READ |
	                                              DOCA_ACCESS_FLAG_RDMA_WRITE));
	CHECK(doca_mmap_add_dev(mmap, dev));
	CHECK(doca_mmap_start(mmap));
	CHECK(doca_mmap_export_rdma(mmap, dev, &blob, &blob_len));
	printf("\nmmap %p + %zu exported: %zu-byte blob, %u memory key(s) live\n", (void *)memory,
	       sizeof(memory), blob_len, softdoca_num_memory_keys());

	CHECK(doca_mmap_create_from_export(NULL, blob, blob_len, dev, &remote));
	CHECK(doca_mmap_get_memrange(remote, &addr, &len));
	printf("imported as a remote mmap: %p + %zu\n", addr, len);

	CHECK(doca_buf_inventory_create(4, &inv));
	CHECK(doca_buf_inventory_start(inv));
	CHECK(doca_buf_inventory_buf_get_by_data(inv, mmap, memory, 10, &a));
	CHECK(doca_buf_inventory_buf_get_by_addr(inv, remote, memory + 1024, 2048, &b));
	CHECK(doca_buf_chain_list(a, b));
	CHECK(doca_buf_get_list_len(a, &elements));
	printf("a buffer list of %u elements (local data + remote range)\n", elements);
	CHECK(doca_buf_dec_refcount(a, NULL));
	CHECK(doca_buf_inventory_get_num_free_elements(inv, &elements));
	printf("released: %u of 4 inventory elements free\n", elements);

	CHECK(doca_buf_inventory_destroy(inv));
	CHECK(doca_mmap_destroy(remote));
	CHECK(doca_mmap_destroy(mmap));
	printf("mmap destroyed: %u memory key(s) live\n", softdoca_num_memory_keys());
	CHECK(doca_dev_close(dev));
	DOCA_LOG_INFO("Core demo done");
	return 0;
}
