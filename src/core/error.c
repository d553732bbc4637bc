/*
 * Names and descriptions of doca_error_t values.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <doca_error.h>

#include "core/compiler.h"

struct error_text {
	const char *name;
	const char *descr;
};

#define ERROR_TEXT(code, text) [code] = { #code, text }

static const struct error_text error_texts[] = {
	ERROR_TEXT(DOCA_SUCCESS, "Success"),
	ERROR_TEXT(DOCA_ERROR_UNKNOWN, "Unknown error"),
	ERROR_TEXT(DOCA_ERROR_NOT_PERMITTED, "Operation not permitted"),
	ERROR_TEXT(DOCA_ERROR_IN_USE, "Resource in use"),
	ERROR_TEXT(DOCA_ERROR_NOT_SUPPORTED, "Operation not supported"),
	ERROR_TEXT(DOCA_ERROR_AGAIN, "Resource temporarily unavailable, try again"),
	ERROR_TEXT(DOCA_ERROR_INVALID_VALUE, "Invalid input"),
	ERROR_TEXT(DOCA_ERROR_NO_MEMORY, "Memory or pool exhausted"),
	ERROR_TEXT(DOCA_ERROR_INITIALIZATION, "Initialization failed"),
	ERROR_TEXT(DOCA_ERROR_TIME_OUT, "Timed out"),
	ERROR_TEXT(DOCA_ERROR_SHUTDOWN, "Shut down"),
	ERROR_TEXT(DOCA_ERROR_CONNECTION_RESET, "Connection reset by peer"),
	ERROR_TEXT(DOCA_ERROR_CONNECTION_ABORTED, "Connection aborted"),
	ERROR_TEXT(DOCA_ERROR_CONNECTION_INPROGRESS, "Connection in progress"),
	ERROR_TEXT(DOCA_ERROR_NOT_CONNECTED, "Not connected"),
	ERROR_TEXT(DOCA_ERROR_NO_LOCK, "Could not acquire a lock"),
	ERROR_TEXT(DOCA_ERROR_NOT_FOUND, "Not found"),
	ERROR_TEXT(DOCA_ERROR_IO_FAILED, "Input/output operation failed"),
	ERROR_TEXT(DOCA_ERROR_BAD_STATE, "Object is in the wrong state for this call"),
	ERROR_TEXT(DOCA_ERROR_UNSUPPORTED_VERSION, "Unsupported version"),
	ERROR_TEXT(DOCA_ERROR_OPERATING_SYSTEM, "Operating system call failed"),
	ERROR_TEXT(DOCA_ERROR_DRIVER, "Device driver call failed"),
	ERROR_TEXT(DOCA_ERROR_UNEXPECTED, "Unexpected condition"),
	ERROR_TEXT(DOCA_ERROR_ALREADY_EXIST, "Already exists"),
	ERROR_TEXT(DOCA_ERROR_FULL, "No space left"),
	ERROR_TEXT(DOCA_ERROR_EMPTY, "Nothing available"),
	ERROR_TEXT(DOCA_ERROR_IN_PROGRESS, "Operation in progress"),
	ERROR_TEXT(DOCA_ERROR_TOO_BIG, "Too large"),
	ERROR_TEXT(DOCA_ERROR_AUTHENTICATION, "Authentication failed"),
	ERROR_TEXT(DOCA_ERROR_BAD_CONFIG, "Invalid configuration"),
	ERROR_TEXT(DOCA_ERROR_SKIPPED, "Result valid, but some earlier results were skipped"),
	ERROR_TEXT(DOCA_ERROR_DEVICE_FATAL_ERROR, "Device encountered a fatal error"),
};

static const char unrecognized[] = "unrecognized error code";

DOCA_STABLE const char *doca_error_get_name(doca_error_t error)
{
	if ((unsigned int)error >= SDOCA_ARRAY_SIZE(error_texts))
		return unrecognized;
	return error_texts[error].name;
}

DOCA_STABLE const char *doca_error_get_descr(doca_error_t error)
{
	if ((unsigned int)error >= SDOCA_ARRAY_SIZE(error_texts))
		return unrecognized;
	return error_texts[error].descr;
}

DOCA_EXPERIMENTAL const char *doca_get_error_name(doca_error_t error)
{
	return doca_error_get_name(error);
}

DOCA_EXPERIMENTAL const char *doca_get_error_string(doca_error_t error)
{
	return doca_error_get_descr(error);
}
