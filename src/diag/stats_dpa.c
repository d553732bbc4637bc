/*
 * The snapshot the counters channel answers with, DPA section included.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The snapshot the counters channel answers with: the soft NIC's counters
 * (nic_stats_collect) and, while a DPA context lives, libdoca_dpa's section,
 * which libdoca_dpa fills through the function it attaches (stats_dpa.h).
 */
#include <pthread.h>

#include "core/compiler.h"
#include "diag/diag.h"
#include "nic/nic.h"

/* libdoca_dpa's part (stats_dpa.h): set while a DPA context lives. */
static struct {
	pthread_mutex_t lock;
	sdoca_stats_dpa_fn fn;
	unsigned int users;
} dpa_section = { .lock = PTHREAD_MUTEX_INITIALIZER };

SDOCA_EXPORT void sdoca_stats_dpa_attach(sdoca_stats_dpa_fn fn)
{
	pthread_mutex_lock(&dpa_section.lock);
	dpa_section.fn = fn;
	dpa_section.users++;
	pthread_mutex_unlock(&dpa_section.lock);
	sdoca_diag_install(); /* the channel, for a process with no RDMA context */
	nic_service_hold();
}

SDOCA_EXPORT void sdoca_stats_dpa_detach(void)
{
	pthread_mutex_lock(&dpa_section.lock);
	if (dpa_section.users > 0 && --dpa_section.users == 0)
		dpa_section.fn = NULL;
	pthread_mutex_unlock(&dpa_section.lock);
	nic_service_release();
}

/* The DPA section, if a DPA context lives. The lock is held across the call
 * so that a detach does not return while it runs. */
static doca_error_t collect_dpa(struct softdoca_process_counters *pc)
{
	doca_error_t status = DOCA_SUCCESS;

	pthread_mutex_lock(&dpa_section.lock);
	if (dpa_section.fn)
		status = dpa_section.fn(pc);
	pthread_mutex_unlock(&dpa_section.lock);
	return status;
}

doca_error_t diag_stats_collect(struct softdoca_process_counters **out)
{
	doca_error_t status = nic_stats_collect(out);

	if (status == DOCA_SUCCESS)
		status = collect_dpa(*out);
	if (status != DOCA_SUCCESS) {
		nic_stats_free(*out);
		*out = NULL;
	}
	return status;
}
