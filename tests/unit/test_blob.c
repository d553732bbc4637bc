/*
 * Unit tests: the export-blob envelope refuses every malformed blob.
 */
#include <string.h>

#include "core/blob.h"
#include "core/bytes.h"
#include "unit/testing.h"

#define BODY 24

static void make_blob(uint8_t *blob, enum sdoca_blob_kind kind)
{
	for (int i = 0; i < BODY; i++)
		blob[SDOCA_BLOB_HEADER_SIZE + i] = (uint8_t)(i * 7);
	sdoca_blob_seal(blob, kind, BODY);
}

static void test_round_trip(void **state)
{
	uint8_t blob[SDOCA_BLOB_HEADER_SIZE + BODY];
	const uint8_t *body;
	size_t len;

	(void)state;
	make_blob(blob, SDOCA_BLOB_MMAP);
	assert_memory_equal(blob, "SDCA", 4);
	assert_doca_ok(sdoca_blob_open(blob, sizeof(blob), SDOCA_BLOB_MMAP, &body, &len));
	assert_int_equal(len, BODY);
	assert_ptr_equal(body, blob + SDOCA_BLOB_HEADER_SIZE);
	assert_int_equal(body[3], 21);
}

static void test_refusals(void **state)
{
	uint8_t blob[SDOCA_BLOB_HEADER_SIZE + BODY + 1];
	const uint8_t *body;
	size_t len, n = SDOCA_BLOB_HEADER_SIZE + BODY;

	(void)state;
	make_blob(blob, SDOCA_BLOB_MMAP);
	assert_doca_err(sdoca_blob_open(NULL, n, SDOCA_BLOB_MMAP, &body, &len),
	                DOCA_ERROR_INVALID_VALUE);
	for (size_t short_len = 0; short_len < n; short_len++)
		assert_doca_err(sdoca_blob_open(blob, short_len, SDOCA_BLOB_MMAP, &body, &len),
		                DOCA_ERROR_INVALID_VALUE);
	assert_doca_err(sdoca_blob_open(blob, n + 1, SDOCA_BLOB_MMAP, &body, &len),
	                DOCA_ERROR_INVALID_VALUE);
	/* Another kind of blob. */
	assert_doca_err(sdoca_blob_open(blob, n, SDOCA_BLOB_SYNC_EVENT, &body, &len),
	                DOCA_ERROR_INVALID_VALUE);
	/* Every flipped byte is caught: magic, length, checksum or body. */
	for (size_t i = 0; i < n; i++) {
		if (i == 4 || i == 5)
			continue; /* version bytes: tested below */
		blob[i] ^= 0x40;
		assert_doca_err(sdoca_blob_open(blob, n, SDOCA_BLOB_MMAP, &body, &len),
		                DOCA_ERROR_INVALID_VALUE);
		blob[i] ^= 0x40;
	}
	/* A future format version is "not supported", not "invalid". */
	sdoca_put_le16(blob + 4, SDOCA_BLOB_VERSION + 1);
	assert_doca_err(sdoca_blob_open(blob, n, SDOCA_BLOB_MMAP, &body, &len),
	                DOCA_ERROR_NOT_SUPPORTED);
	/* A huge declared body is refused before any arithmetic on it. */
	make_blob(blob, SDOCA_BLOB_MMAP);
	sdoca_put_le32(blob + 8, 0xffffffffu);
	assert_doca_err(sdoca_blob_open(blob, n, SDOCA_BLOB_MMAP, &body, &len),
	                DOCA_ERROR_INVALID_VALUE);
}

static void test_node_id(void **state)
{
	(void)state;
	assert_true(sdoca_node_id() != 0);
	assert_true(sdoca_node_id() == sdoca_node_id());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_node_id),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
