/*
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libflexio, the part DOCA DPA programs use (docs/dpa.md 1.9, 2.14): the
 * status codes, the version check, and the DPA resources file that gives an
 * application its execution units (EUs) and EU groups, which programs turn
 * into doca_dpa_eu_affinity objects. FlexIO's own DPA programming model
 * (processes, event handlers, queues) has no meaning on an emulated DPA: the
 * few entry points declared for it answer FLEXIO_STATUS_FAILED and say so
 * once on stderr (docs/compatibility.md). Unlike NVIDIA's header this one
 * needs no rdma-core headers.
 */
#ifndef SOFTDOCA_LIBFLEXIO_FLEXIO_H_
#define SOFTDOCA_LIBFLEXIO_FLEXIO_H_

#include <stddef.h>
#include <stdint.h>

#include "flexio_ver.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef FLEXIO_VER_USED
#define FLEXIO_VER_USED FLEXIO_VER_LATEST
#endif

/* The DPA's shape (the values NVIDIA's header gives): 16 cores of 16 EUs,
 * 2 of them kept by the DPA's OS. */
#define FLEXIO_PHY_CORES_NUM 16
#define FLEXIO_EUS_PER_CORE 16
#define FLEXIO_EUS_LIMIT (FLEXIO_PHY_CORES_NUM * FLEXIO_EUS_PER_CORE)

typedef enum {
	FLEXIO_STATUS_SUCCESS = 0,
	FLEXIO_STATUS_FAILED = 1,
	FLEXIO_STATUS_TIMEOUT = 2,
	FLEXIO_STATUS_FATAL_ERR = 3,
} flexio_status;

typedef uint64_t flexio_uintptr_t;
typedef void(flexio_func_t)(void);

/* The resources an application key names in a DPA resources file. */
struct flexio_resource;

/* Opaque FlexIO objects (never created here). */
struct flexio_app;
struct flexio_process;
struct flexio_process_attr;
struct flexio_event_handler;
struct flexio_event_handler_attr;
struct ibv_context;

/* Declares the FlexIO version the program was written for: any version up
 * to FLEXIO_VER_LATEST is accepted. */
flexio_status flexio_version_set(uint64_t version);

/*
 * Parses the DPA resources file's contents, buf[0, buf_len) (no NUL needed),
 * and keeps what app_key names. The file is the YAML subset of
 * docs/dpa.md 2.14: an application key's mapping holds `eus` and
 * `eu_groups` lists of numbers. Bad input: FLEXIO_STATUS_FAILED, one line on
 * stderr, *res untouched.
 */
flexio_status flexio_resources_create(const char *app_key, char *buf, size_t buf_len,
                                      struct flexio_resource **res);
/* NULL is accepted. */
void flexio_resources_destroy(struct flexio_resource *res);
uint32_t flexio_resources_get_eus_num(struct flexio_resource *res);
/* res's array (valid until it is destroyed), NULL when it has none. */
uint32_t *flexio_resources_get_eus(struct flexio_resource *res);
int flexio_resources_get_eugs_num(struct flexio_resource *res);
uint32_t *flexio_resources_get_eugs(struct flexio_resource *res);

/* FlexIO processes and event handlers: FLEXIO_STATUS_FAILED (logged once). */
flexio_status flexio_process_create(struct ibv_context *ibv_ctx, struct flexio_app *app,
                                    const struct flexio_process_attr *process_attr,
                                    struct flexio_process **process_ptr);
/* NULL is accepted (SUCCESS). */
flexio_status flexio_process_destroy(struct flexio_process *process);
flexio_status flexio_process_call(struct flexio_process *process, flexio_func_t *host_func,
                                  uint64_t *func_ret, ...);
flexio_status flexio_event_handler_create(struct flexio_process *process,
                                          struct flexio_event_handler_attr *fattr,
                                          struct flexio_event_handler **event_handler_ptr);
flexio_status flexio_event_handler_run(struct flexio_event_handler *event_handler,
                                       uint64_t user_arg);
/* NULL is accepted (SUCCESS). */
flexio_status flexio_event_handler_destroy(struct flexio_event_handler *event_handler);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_LIBFLEXIO_FLEXIO_H_ */
