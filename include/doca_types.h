/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Types shared by every DOCA library.
 */
#ifndef DOCA_TYPES_H_
#define DOCA_TYPES_H_

#include <stdint.h>

#include "doca_compat.h"

#ifdef __linux__
#include <linux/types.h>
#endif

SOFTDOCA_BEGIN_DECLS

#ifdef __linux__
/* An event handle is a file descriptor, usable with poll/epoll. */
typedef int doca_event_handle_t;
#define doca_event_invalid_handle -1
#else
typedef void *doca_event_handle_t;
#define doca_event_invalid_handle ((void *)-1)
#endif

typedef doca_event_handle_t doca_notification_handle_t;

#define DOCA_GID_BYTE_LENGTH 16

/* User data attached to DOCA objects; passed by value. */
union doca_data {
	void *ptr;
	uint64_t u64;
};

/* One element of a gather list. */
struct doca_gather_list {
	void *addr;
	uint64_t len;
	struct doca_gather_list *next;
};

#ifdef __linux__
typedef __be16 doca_be16_t;
typedef __be32 doca_be32_t;
typedef __be64 doca_be64_t;
#else
typedef uint16_t doca_be16_t;
typedef uint32_t doca_be32_t;
typedef uint64_t doca_be64_t;
#endif

#if SOFTDOCA_API_VERSION >= 205
/* Memory access permissions of an mmap or an RDMA context. */
enum doca_access_flag {
	DOCA_ACCESS_FLAG_LOCAL_READ_ONLY = 0,
	DOCA_ACCESS_FLAG_LOCAL_READ_WRITE = (1 << 0),
	DOCA_ACCESS_FLAG_RDMA_READ = (1 << 1),
	DOCA_ACCESS_FLAG_RDMA_WRITE = (1 << 2),
	DOCA_ACCESS_FLAG_RDMA_ATOMIC = (1 << 3),
	DOCA_ACCESS_FLAG_PCI_READ_ONLY = (1 << 4),
	DOCA_ACCESS_FLAG_PCI_READ_WRITE = (1 << 5),
	DOCA_ACCESS_FLAG_PCI_RELAXED_ORDERING = (1 << 6),
};

enum doca_pci_func_type {
	DOCA_PCI_FUNC_TYPE_PF = 0,
	DOCA_PCI_FUNC_TYPE_VF = 1,
	DOCA_PCI_FUNC_TYPE_SF = 2,
};

enum doca_gpu_mem_type {
	DOCA_GPU_MEM_TYPE_GPU = 0,
	DOCA_GPU_MEM_TYPE_GPU_CPU = 1,
	DOCA_GPU_MEM_TYPE_CPU_GPU = 2,
};

enum doca_eth_wait_on_time_type {
	DOCA_ETH_WAIT_ON_TIME_TYPE_NONE = 0,
	DOCA_ETH_WAIT_ON_TIME_TYPE_NATIVE = 1,
	DOCA_ETH_WAIT_ON_TIME_TYPE_DPDK = 2,
};
#else
/* DOCA 2.2 spelling, same bit values. */
enum doca_access_flags {
	DOCA_ACCESS_LOCAL_READ_ONLY = 0,
	DOCA_ACCESS_LOCAL_READ_WRITE = (1 << 0),
	DOCA_ACCESS_RDMA_READ = (1 << 1),
	DOCA_ACCESS_RDMA_WRITE = (1 << 2),
	DOCA_ACCESS_RDMA_ATOMIC = (1 << 3),
	DOCA_ACCESS_DPU_READ_ONLY = (1 << 4),
	DOCA_ACCESS_DPU_READ_WRITE = (1 << 5),
};

enum doca_pci_func_type {
	DOCA_PCI_FUNC_PF = 0,
	DOCA_PCI_FUNC_VF = 1,
	DOCA_PCI_FUNC_SF = 2,
};

enum doca_gpu_mem_type {
	DOCA_GPU_MEM_GPU = 0,
	DOCA_GPU_MEM_GPU_CPU = 1,
	DOCA_GPU_MEM_CPU = 2,
	DOCA_GPU_MEM_CPU_GPU = 3,
};

enum doca_eth_wait_on_time {
	DOCA_ETH_WAIT_ON_TIME_NONE = 0,
	DOCA_ETH_WAIT_ON_TIME_NATIVE = 1,
	DOCA_ETH_WAIT_ON_TIME_DPDK = 2,
};
#endif

enum doca_mtu_size {
	DOCA_MTU_SIZE_256_BYTES = 0,
	DOCA_MTU_SIZE_512_BYTES = 1,
	DOCA_MTU_SIZE_1K_BYTES = 2,
	DOCA_MTU_SIZE_2K_BYTES = 3,
	DOCA_MTU_SIZE_4K_BYTES = 4,
	DOCA_MTU_SIZE_RAW_ETHERNET = 5,
};

/* Objects of other DOCA libraries that Core functions mention. */
struct doca_gpu;
struct doca_dpa;

SOFTDOCA_END_DECLS

#endif /* DOCA_TYPES_H_ */
