/*
 * Fuzz target: the soft NIC's message header decoder, on arbitrary bytes.
 *
 * Input: 4 bytes of payload length, then the header. A header the decoder
 * accepts must survive encode + decode unchanged (the decoder reads every
 * field the encoder writes, and nothing else).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <doca_log.h>

#include "core/bytes.h"
#include "nic/wire.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DISABLE);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nic_msg m, again;
	uint8_t out[NIC_WIRE_MAX_HDR];
	size_t payload, len;

	if (size < 4)
		return 0;
	/* The decoder sets every field, not the struct's padding: zero both
	 * copies so the comparison below sees only fields. */
	memset(&m, 0, sizeof(m));
	memset(&again, 0, sizeof(again));
	payload = sdoca_get_le32(data);
	if (nic_wire_decode(data + 4, size - 4, payload, &m) != DOCA_SUCCESS)
		return 0;
	len = nic_wire_encode(&m, out);
	if (len != size - 4 || nic_wire_decode(out, len, payload, &again) != DOCA_SUCCESS ||
	    memcmp(&m, &again, sizeof(m)) != 0)
		abort();
	return 0;
}
