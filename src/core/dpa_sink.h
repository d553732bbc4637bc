/*
 * What lower layers need of DPA objects without seeing their types.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * What lower layers need of DPA objects without seeing their types
 * (docs/dpa.md 2.1): a completion sink the RDMA data path pushes CQEs into
 * (embedded first in struct doca_dpa_completion), and the mmap handles
 * kernels post with.
 */
#ifndef SDOCA_CORE_DPA_SINK_H_
#define SDOCA_CORE_DPA_SINK_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_error.h>

#include "core/compiler.h"
#include "core/keys.h"

/* One completion element (2.7). */
struct sdoca_dpa_cqe {
	uint32_t type; /* doca_dpa_dev_completion_type_t */
	uint32_t user_data;
	uint32_t immediate;
	uint32_t wr_index;
	uint32_t byte_count;
	uint32_t syndrome;
	uint32_t qpn;
	uint32_t reserved;
};

/* Where completions of an RDMA context on the DPA data path go (any thread,
 * the soft NIC's worker lock held). */
struct sdoca_cq_sink {
	void (*push)(struct sdoca_cq_sink *sink, const struct sdoca_dpa_cqe *cqe);
	/* RDMA contexts attached: the completion context cannot be destroyed
	 * under them (IN_USE). */
	_Atomic unsigned int users;
};

/* What a DPA mmap handle names, copied out under the table's lock. */
struct sdoca_mmap_dpa_view {
	uint8_t *addr;
	size_t len;
	uint32_t access;
	bool from_export;
	struct sdoca_key key; /* from_export: the peer's key */
};

/* The started mmap a doca_dpa_dev_mmap_t names; NOT_FOUND if none. */
SDOCA_EXPORT doca_error_t sdoca_mmap_dpa_lookup(uint32_t handle, struct sdoca_mmap_dpa_view *out);

#endif /* SDOCA_CORE_DPA_SINK_H_ */
