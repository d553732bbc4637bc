/*
 * dpacc's prelude for compiling device sources for the host.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * dpacc's prelude for compiling device sources for the host: the markers
 * mean nothing there (doca_compat.h defines them the same way).
 */
#define __dpa_global__
#define __dpa_rpc__
