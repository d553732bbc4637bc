/*
 * Fuzz target: the reader of another process's counters snapshot
 * (src/diag/stats_wire.c; softdoca-info --pid), on arbitrary bytes.
 *
 * A snapshot the reader accepts must survive encode + decode unchanged
 * (what it kept of it: the counters it knows, the names up to their NUL,
 * the DPA section's fields of version 2 whatever the writer's record sizes).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <doca_log.h>

#include "diag/diag.h"
#include "nic/nic.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	doca_log_level_set_global_sdk_limit(DOCA_LOG_LEVEL_DISABLE);
	return 0;
}

static void same(const struct softdoca_process_counters *a,
                 const struct softdoca_process_counters *b)
{
	if (a->pid != b->pid || a->faults_injected != b->faults_injected ||
	    strcmp(a->softdoca_version, b->softdoca_version) != 0 ||
	    a->num_devices != b->num_devices || a->num_connections != b->num_connections)
		abort();
	for (uint32_t i = 0; i < a->num_devices; i++)
		if (strcmp(a->devices[i].ibdev_name, b->devices[i].ibdev_name) != 0 ||
		    memcmp(&a->devices[i].counters, &b->devices[i].counters,
		           sizeof(a->devices[i].counters)) != 0)
			abort();
	if (a->num_connections &&
	    memcmp(a->connections, b->connections, a->num_connections * sizeof(*a->connections)))
		abort();
	/* the DPA section (version 2): decoded records are calloc'd, so whole
	 * structs compare */
	if (a->num_dpas != b->num_dpas || a->num_dpa_threads != b->num_dpa_threads)
		abort();
	if (a->num_dpas && memcmp(a->dpas, b->dpas, a->num_dpas * sizeof(*a->dpas)))
		abort();
	if (a->num_dpa_threads &&
	    memcmp(a->dpa_threads, b->dpa_threads, a->num_dpa_threads * sizeof(*a->dpa_threads)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct softdoca_process_counters *pc, *again;
	uint32_t total;
	uint8_t *out;
	size_t len;

	/* the reader's first look, at the header alone */
	(void)diag_stats_check_header(data, size, &total);
	if (diag_stats_decode(data, size, &pc) != DOCA_SUCCESS) {
		if (pc)
			abort();
		return 0;
	}
	if (diag_stats_encode(pc, &out, &len) != DOCA_SUCCESS ||
	    diag_stats_decode(out, len, &again) != DOCA_SUCCESS)
		abort();
	same(pc, again);
	nic_stats_free(again);
	nic_stats_free(pc);
	free(out);
	return 0;
}
