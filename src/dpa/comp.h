/*
 * libdoca_dpa internals: completion contexts as device calls see them.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libdoca_dpa internals: completion contexts and notification completions
 * (comp.c), as the device calls and the RDMA data path (step 3) see them.
 */
#ifndef SDOCA_DPA_COMP_H_
#define SDOCA_DPA_COMP_H_

#include <stdbool.h>
#include <stdint.h>

#include "core/dpa_sink.h"
#include "dpa/dpa.h"

/* Handle tags (docs/dpa.md 2.2). */
#define SDOCA_DPA_TAG_COMPLETION 0xc1u
#define SDOCA_DPA_TAG_NOTIFY 0xc2u

/* Triggers the thread of a started notification completion; false if h
 * names none. */
bool sdoca_dpa_notify(uint64_t h);

/* A completion arrives (any thread): held, populated while armed. */
doca_error_t sdoca_dpa_completion_push(struct doca_dpa_completion *c,
                                       const struct sdoca_dpa_cqe *cqe);
/* The device calls behind doca_dpa_dev_get_completion / _ack /
 * _request_notification; INVALID_VALUE for a handle naming no context. */
int sdoca_dpa_completion_get(uint64_t h, const struct sdoca_dpa_cqe **elem, doca_error_t *err);
doca_error_t sdoca_dpa_completion_ack(uint64_t h, uint64_t num);
doca_error_t sdoca_dpa_completion_request_notification(uint64_t h);

#endif /* SDOCA_DPA_COMP_H_ */
