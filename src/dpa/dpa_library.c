/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libdoca_dpa: the DPA emulation (kernels on host threads) will live here;
 * the library exists so that pkg-config "doca-dpa" links today.
 */
typedef int sdoca_dpa_library_placeholder_t;
