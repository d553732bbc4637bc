/*
 * dpacc's prelude for its AST pass (clang -ast-dump=json).
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * dpacc's prelude for its AST pass (clang -ast-dump=json): the markers
 * become annotations, so the JSON shows which functions are kernels. The
 * first line is __dpa_global__, the second __dpa_rpc__: dpacc tells them
 * apart by the line the annotation was spelled on.
 */
#define __dpa_global__ __attribute__((annotate("softdoca_dpa_global")))
#define __dpa_rpc__ __attribute__((annotate("softdoca_dpa_rpc")))
