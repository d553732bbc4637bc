/*
 * Fuzz target: the fault specification parser (SOFTDOCA_FAULTS,
 * softdoca_faults_set). The input is the specification text (NUL bytes end
 * it early, as a C string would). Whatever it is, the parser returns either
 * a configuration that holds together - items within bounds, one trigger
 * each, a count only with every or rate, kinds and parameters that go
 * together - or INVALID_VALUE with a reason that fits its buffer; and
 * decisions on a parsed configuration stay deterministic.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/faults.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sdoca_fault_config c;
	char *spec = malloc(size + 1), why[160];
	doca_error_t status;

	if (!spec)
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	status = sdoca_faults_parse(spec, &c, why, sizeof(why));
	free(spec);
	if (status != DOCA_SUCCESS) {
		if (status != DOCA_ERROR_INVALID_VALUE || why[0] == '\0' ||
		    strlen(why) >= sizeof(why) - 1)
			abort(); /* refused without saying why, or cut */
		return 0;
	}
	if (c.n > SDOCA_FAULTS_MAX_ITEMS)
		abort();
	for (uint32_t i = 0; i < c.n; i++) {
		const struct sdoca_fault_item *it = &c.items[i];
		int triggers = (it->nth != 0) + (it->every != 0) + (it->rate != 0);

		if ((unsigned int)it->kind >= SDOCA_FAULT_KINDS || triggers != 1 || it->rate < 0 ||
		    it->rate > 1 || it->ms > 3600000)
			abort();
		if (it->kind >= SDOCA_FAULT_FIRST_PROCESS && it->conn != -1)
			abort(); /* a process fault names no connection */
		if (it->count && it->nth)
			abort(); /* nth fires once: a count contradicts it */
		for (uint64_t pos = 1; pos < 64; pos++)
			if (sdoca_fault_fires(&c, i, 3, pos, 0) !=
			    sdoca_fault_fires(&c, i, 3, pos, 0))
				abort();
	}
	return 0;
}
