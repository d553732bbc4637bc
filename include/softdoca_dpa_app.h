/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The image of a DPA program as the dpacc stand-in (tools/dpacc) builds it:
 * `struct doca_dpa_app *NAME` points at a struct softdoca_dpa_app_image,
 * which lists every kernel and RPC with the code that unpacks its
 * arguments from the caller's `...` and calls it. doca_dpa_set_app checks
 * the magic and the layout before using it.
 */
#ifndef SOFTDOCA_DPA_APP_H_
#define SOFTDOCA_DPA_APP_H_

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define SOFTDOCA_DPA_APP_MAGIC 0x736f667464706131ull /* "softdpa1" */
#define SOFTDOCA_DPA_APP_LAYOUT 1u

enum softdoca_dpa_kernel_kind {
	SOFTDOCA_DPA_KERNEL_GLOBAL = 1, /* __dpa_global__ void f(...): threads and launches */
	SOFTDOCA_DPA_KERNEL_RPC = 2,    /* __dpa_rpc__ uint64_t f(...): doca_dpa_rpc */
};

struct softdoca_dpa_kernel {
	const char *name;
	uint32_t kind; /* enum softdoca_dpa_kernel_kind */
	uint32_t num_args;
	void (*func)(void); /* the kernel itself: what the host's &name is */
	size_t frame_size;  /* its arguments, unpacked */
	size_t frame_align;
	void (*pack)(va_list *args, void *frame); /* reads the arguments with their types */
	uint64_t (*call)(const void *frame);      /* calls the kernel (0 for a global one) */
};

/* The kernels of one device source. */
struct softdoca_dpa_kernel_table {
	const char *source;
	const struct softdoca_dpa_kernel *kernels;
	uint32_t num_kernels;
};

struct softdoca_dpa_app_image {
	uint64_t magic;  /* SOFTDOCA_DPA_APP_MAGIC */
	uint32_t layout; /* SOFTDOCA_DPA_APP_LAYOUT */
	uint32_t num_tables;
	const char *name; /* --app-name */
	const struct softdoca_dpa_kernel_table *tables;
};

#endif /* SOFTDOCA_DPA_APP_H_ */
