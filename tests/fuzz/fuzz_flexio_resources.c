/*
 * Fuzz target: libflexio's DPA resources file parser (src/flexio/
 * resources.c) on arbitrary bytes, as a program passes a file's contents:
 * exactly the input (no NUL after it, so ASan sees any read past it). The
 * first line of the input, up to 64 bytes, is the application key; the rest
 * is the file. A success must give ids in range, each listed once.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include <libflexio/flexio.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Refusals are expected by the thousand: their stderr lines go to
 * /dev/null around each call (libFuzzer reports on stderr too). */
static int null_fd = -1, stderr_fd = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	null_fd = open("/dev/null", O_WRONLY);
	stderr_fd = dup(STDERR_FILENO);
	if (null_fd < 0 || stderr_fd < 0)
		abort();
	return 0;
}

static void check_ids(const uint32_t *ids, uint32_t n, uint32_t limit)
{
	if (n > 256 || (n > 0) != (ids != NULL))
		abort();
	for (uint32_t i = 0; i < n; i++) {
		if (ids[i] > limit)
			abort();
		for (uint32_t j = 0; j < i; j++)
			if (ids[i] == ids[j])
				abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nl = memchr(data, '\n', size < 65 ? size : 65);
	char key[65];
	size_t key_len = nl ? (size_t)(nl - data) : 0;
	size_t file_len = nl ? size - key_len - 1 : size;
	char *file = malloc(file_len ? file_len : 1);
	struct flexio_resource *res = NULL;

	if (!file)
		abort();
	memcpy(key, data, key_len);
	key[key_len] = '\0';
	memcpy(file, nl ? nl + 1 : data, file_len);
	dup2(null_fd, STDERR_FILENO);
	flexio_status st = flexio_resources_create(key_len ? key : "app", file, file_len, &res);
	dup2(stderr_fd, STDERR_FILENO);
	if (st == FLEXIO_STATUS_SUCCESS) {
		int eugs = flexio_resources_get_eugs_num(res);

		if (eugs < 0)
			abort();
		check_ids(flexio_resources_get_eus(res), flexio_resources_get_eus_num(res), 255);
		check_ids(flexio_resources_get_eugs(res), (uint32_t)eugs, 0xffff);
		flexio_resources_destroy(res);
	} else if (res != NULL) {
		abort();
	}
	free(file);
	return 0;
}
