/*
 * Fuzz target: the two decoders of a connection set-up through a listener,
 * on arbitrary bytes, as from a hostile client on a listening port.
 *
 * Input: one byte; odd: the handshake stream (ucx_cm_parse), arriving in
 * pieces of (byte >> 1) + 1 bytes per recv(): whatever the pieces, the
 * decoder must ask for no more than a message needs, never read past what
 * arrived, and come to the same verdict as on the whole stream at once.
 * Even: the soft NIC's connection data inside (nic_cm_data_parse): what it
 * accepts lies within the input and adds up to it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <doca_log.h>

#include "nic/nic.h"
#include "transport/ucx.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DISABLE);
	return 0;
}

/* Feeds the stream as ucx_cm.c's receive loop does: never more than asked. */
static enum ucx_cm_parsed feed(const uint8_t *stream, size_t size, size_t piece, uint8_t *buf,
                               struct ucx_cm_msg *msg, size_t *have)
{
	enum ucx_cm_parsed verdict;
	size_t need;

	*have = 0;
	for (;;) {
		verdict = ucx_cm_parse(buf, *have, &need, msg);
		if (verdict != UCX_CM_PARTIAL)
			return verdict;
		if (need <= *have || need > UCX_CM_MAX_MSG)
			abort(); /* asked for nothing new, or more than a message holds */
		size_t n = need - *have < piece ? need - *have : piece;

		if (*have + n > size)
			return UCX_CM_PARTIAL; /* the stream ended: still waiting */
		memcpy(buf + *have, stream + *have, n);
		*have += n;
	}
}

static void connection_data(const uint8_t *data, size_t size)
{
	/* An exact-size copy, so that ASan sees a read one byte past the end. */
	uint8_t *copy = malloc(size ? size : 1);
	const uint8_t *info, *pd;
	size_t info_len, pd_len;

	if (!copy)
		return;
	memcpy(copy, data, size);
	if (nic_cm_data_parse(copy, size, &info, &info_len, &pd, &pd_len) == DOCA_SUCCESS &&
	    (info != copy + 4 || 4 + info_len + pd_len != size ||
	     (pd_len && pd != info + info_len) || (!pd_len && pd)))
		abort();
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t buf[UCX_CM_MAX_MSG];
	struct ucx_cm_msg msg, whole;
	enum ucx_cm_parsed verdict, again;
	size_t have, have_whole;

	if (size < 1)
		return 0;
	if (!(data[0] & 1)) {
		connection_data(data + 1, size - 1);
		return 0;
	}
	verdict = feed(data + 1, size - 1, 1 + (size_t)(data[0] >> 1), buf, &msg, &have);
	if (verdict == UCX_CM_WHOLE) {
		if (msg.addr < buf || msg.addr + msg.addr_len > buf + have ||
		    (msg.data && msg.data + msg.data_len > buf + have) ||
		    UCX_CM_HEADER + msg.addr_len + msg.data_len != have ||
		    msg.data_len > XPORT_CONN_DATA_MAX ||
		    (msg.kind == UCX_CM_REJECT) != !msg.addr_len)
			abort();
	}
	/* The same stream in one piece: the same verdict on the same bytes. */
	again = feed(data + 1, size - 1, UCX_CM_MAX_MSG, buf, &whole, &have_whole);
	if (again != verdict || (verdict != UCX_CM_PARTIAL && have != have_whole))
		abort();
	if (verdict == UCX_CM_WHOLE && (whole.kind != msg.kind || whole.addr_len != msg.addr_len ||
	                                whole.data_len != msg.data_len))
		abort();
	return 0;
}
