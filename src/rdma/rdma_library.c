/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libdoca_rdma: the DOCA RDMA API over the soft NIC. Its contexts, tasks and
 * connections arrive with the soft-NIC work; until then the library exists
 * so that programs and pkg-config modules can already link against it.
 */
typedef int sdoca_rdma_library_placeholder_t;
