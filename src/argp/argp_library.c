/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libdoca_argp: doca_argp, the command-line parser of DOCA programs, will
 * live here; the library exists so that pkg-config "doca-argp" links today.
 */
typedef int sdoca_argp_library_placeholder_t;
