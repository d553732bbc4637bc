/*
 * Peers: which host a peer is on, and whether its process still lives.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Peers: this host's identity (boot id and pid namespace, which a
 * connection blob carries, so that a peer knows it shares the host and its
 * pids), and peers on this host watched through their process (a pidfd in
 * the service thread's wait), so that their death shows at once rather than
 * at a timeout. A loss the transport reports, or an exit, fails the QP once
 * the peer's last messages are read.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/sdk_log.h"
#include "nic/nic.h"

SDOCA_LOG_MODULE(peers);

void nic_host_identity(uint8_t boot_id[16], uint64_t *pidns)
{
	char text[64] = "";
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	struct stat st;
	int j = 0;

	memset(boot_id, 0, 16);
	if (f) {
		if (!fgets(text, sizeof(text), f))
			text[0] = '\0';
		fclose(f);
	}
	for (int i = 0; text[i] && j < 32; i++) {
		unsigned int nibble;

		if (sscanf(&text[i], "%1x", &nibble) != 1)
			continue;
		boot_id[j / 2] |= (uint8_t)(nibble << ((j % 2) ? 0 : 4));
		j++;
	}
	*pidns = stat("/proc/self/ns/pid", &st) == 0 ? (uint64_t)st.st_ino : 0;
}

void nic_worker_watch_peer(struct nic_qp *qp)
{
	int fd = (int)syscall(SYS_pidfd_open, (pid_t)qp->peer.pid, 0);

	if (fd < 0) {
		SDOCA_DBG("cannot watch peer process %u: %s", qp->peer.pid, strerror(errno));
		return;
	}
	if (!nic_service_watch_fd(fd)) {
		close(fd);
		return;
	}
	qp->peer.pidfd = fd;
}

void nic_worker_unwatch_peer(struct nic_qp *qp)
{
	if (qp->peer.pidfd < 0)
		return;
	nic_service_unwatch_fd(qp->peer.pidfd);
	close(qp->peer.pidfd);
	qp->peer.pidfd = -1;
}

/* Whether a same-host peer's process has exited (its pidfd is readable). */
static bool peer_exited(const struct nic_qp *qp)
{
	struct pollfd p = { .fd = qp->peer.pidfd, .events = POLLIN };

	return qp->peer.pidfd >= 0 && poll(&p, 1, 0) == 1;
}

void nic_worker_settle_losses(struct nic_worker *w, bool peers)
{
	nic_assert_locked(w);
	/* A pidfd fires or the transport fails the endpoint possibly before the
	 * peer's last messages (an ACK, its goodbye) were read: read them first. */
	while (xport_worker_progress(w->xport))
		;
	/* A connect answered in that progress (an RDMA-CM client's) released
	 * messages: they came before the loss, so they go first. */
	if (w->releases_pending)
		nic_bind_release_due(w);
	w->losses_pending = false;
	for (uint32_t i = 0; i < w->num_qp_slots; i++) {
		struct nic_qp *qp = w->qps[i];

		if (!qp)
			continue;
		if (qp->peer.lost) {
			qp->peer.lost = false;
			nic_qp_peer_lost(qp, "the transport lost it");
		} else if (peers && peer_exited(qp)) {
			nic_qp_peer_lost(qp, "its process exited");
		}
	}
}
