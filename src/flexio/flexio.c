/*
 * libflexio: version check and calls meaningless on an emulated DPA.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * libflexio's version check and the FlexIO calls that have no meaning on an
 * emulated DPA: a DOCA DPA program runs its kernels through doca_dpa, never
 * through FlexIO processes or event handlers, so these answer
 * FLEXIO_STATUS_FAILED and say why once each on stderr (libflexio has no
 * DOCA log of its own; docs/compatibility.md lists them).
 */
#include <stdatomic.h>
#include <stdio.h>

#include <libflexio/flexio.h>

#define FLEXIO_EXPORT __attribute__((visibility("default")))

static void unsupported_once(atomic_flag *said, const char *func)
{
	if (!atomic_flag_test_and_set(said))
		fprintf(stderr,
		        "libflexio: %s is not supported by softdoca (DPA programs run through "
		        "doca_dpa; FlexIO processes do not exist here)\n",
		        func);
}

/* Says once per function that it is not supported; the caller returns
 * FLEXIO_STATUS_FAILED. */
#define NOTE_UNSUPPORTED()                                  \
	do {                                                \
		static atomic_flag said = ATOMIC_FLAG_INIT; \
		unsupported_once(&said, __func__);          \
	} while (0)

FLEXIO_EXPORT flexio_status flexio_version_set(uint64_t version)
{
	if (version > (uint64_t)FLEXIO_VER_LATEST) {
		fprintf(stderr,
		        "libflexio: flexio_version_set: 0x%llx is above FLEXIO_VER_LATEST\n",
		        (unsigned long long)version);
		return FLEXIO_STATUS_FAILED;
	}
	return FLEXIO_STATUS_SUCCESS;
}

FLEXIO_EXPORT flexio_status flexio_process_create(struct ibv_context *ibv_ctx,
                                                  struct flexio_app *app,
                                                  const struct flexio_process_attr *process_attr,
                                                  struct flexio_process **process_ptr)
{
	(void)ibv_ctx;
	(void)app;
	(void)process_attr;
	(void)process_ptr;
	NOTE_UNSUPPORTED();
	return FLEXIO_STATUS_FAILED;
}

FLEXIO_EXPORT flexio_status flexio_process_destroy(struct flexio_process *process)
{
	if (!process)
		return FLEXIO_STATUS_SUCCESS;
	NOTE_UNSUPPORTED();
	return FLEXIO_STATUS_FAILED;
}

FLEXIO_EXPORT flexio_status flexio_process_call(struct flexio_process *process,
                                                flexio_func_t *host_func, uint64_t *func_ret, ...)
{
	(void)process;
	(void)host_func;
	(void)func_ret;
	NOTE_UNSUPPORTED();
	return FLEXIO_STATUS_FAILED;
}

FLEXIO_EXPORT flexio_status
flexio_event_handler_create(struct flexio_process *process, struct flexio_event_handler_attr *fattr,
                            struct flexio_event_handler **event_handler_ptr)
{
	(void)process;
	(void)fattr;
	(void)event_handler_ptr;
	NOTE_UNSUPPORTED();
	return FLEXIO_STATUS_FAILED;
}

FLEXIO_EXPORT flexio_status flexio_event_handler_run(struct flexio_event_handler *event_handler,
                                                     uint64_t user_arg)
{
	(void)event_handler;
	(void)user_arg;
	NOTE_UNSUPPORTED();
	return FLEXIO_STATUS_FAILED;
}

FLEXIO_EXPORT flexio_status flexio_event_handler_destroy(struct flexio_event_handler *event_handler)
{
	if (!event_handler)
		return FLEXIO_STATUS_SUCCESS;
	NOTE_UNSUPPORTED();
	return FLEXIO_STATUS_FAILED;
}
