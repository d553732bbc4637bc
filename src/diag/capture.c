/*
 * Traffic capture: the soft NIC's messages as RoCEv2 packets in pcapng.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * SOFTDOCA_CAPTURE=FILE (read when the diagnostics are installed) or
 * softdoca_capture_start() opens FILE and installs the NIC's capture hook
 * (nic/capture_hook.h); every message a QP sends or dispatches is then
 * written as one packet (capture_map.c, roce.c) in one pcapng block
 * (pcapng.c), with a comment naming the connection, or as a custom block
 * of text when RoCE has no such packet. One lock serialises the writers
 * (the NIC calls in with a worker lock held; this lock is always inner).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <softdoca.h>

#include "core/sdk_log.h"
#include "diag/capture_map.h"
#include "diag/diag.h"
#include "diag/pcapng.h"
#include "nic/capture_hook.h"
#include "nic/nic.h"

SDOCA_LOG_MODULE(capture);

#define DEFAULT_SNAPLEN 128u
#define MAX_SNAPLEN 65000u /* the datagram stays within IPv4's 65535 bytes */
#define COMMENT_MAX 256

static struct {
	pthread_mutex_t lock;
	int fd; /* -1: not capturing */
	uint32_t snaplen;
	uint8_t *payload; /* snaplen bytes: the captured part of a payload */
	uint8_t *frame;   /* a frame's captured bytes */
	uint8_t *block;   /* the block around it */
	size_t frame_cap, block_cap;
	uint64_t blocks_lost; /* writes that failed (disk full): counted, logged once */
} cap = { .lock = PTHREAD_MUTEX_INITIALIZER, .fd = -1 };

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void write_block(size_t len)
{
	if (len && pcapng_write(cap.fd, cap.block, len))
		return;
	if (cap.blocks_lost++ == 0)
		SDOCA_ERR("capture: a block could not be written (%s); later ones may be lost too",
		          strerror(errno));
}

/* Writes m (lock held, capturing): a packet, or a custom block of text. */
static void capture_one(const struct nic_qp *qp, const struct nic_msg *m, bool sent,
                        size_t captured, const char *note)
{
	struct capture_end self = { qp->wire_id, (uint32_t)getpid() };
	struct capture_end peer = { qp->peer.wire_id, qp->peer.pid };
	const struct capture_end *from = sent ? &self : &peer, *to = sent ? &peer : &self;
	char text[COMMENT_MAX];
	struct roce_pkt p;
	uint64_t frame_len;
	size_t n;

	capture_text(m, qp->attr.conn_id, from, to, note, text, sizeof(text));
	if (!capture_map(m, from, to, &p)) {
		write_block(pcapng_custom(cap.block, cap.block_cap, now_ns(), text));
		return;
	}
	n = roce_frame(&p, cap.payload, captured, cap.frame, cap.frame_cap, &frame_len);
	write_block(pcapng_packet(cap.block, cap.block_cap, now_ns(), cap.frame, n, frame_len,
	                          sent ? PCAPNG_OUTBOUND : PCAPNG_INBOUND, text));
}

static void on_sent(const struct nic_qp *qp, const void *hdr, size_t hdr_len,
                    const struct xport_iov *iov, size_t iovcnt)
{
	struct nic_msg m;
	size_t payload, captured = 0;

	pthread_mutex_lock(&cap.lock);
	if (cap.fd < 0 || !capture_read_header(hdr, hdr_len, &m))
		goto out;
	payload = nic_op_has_payload(m.opcode) ? m.len : 0;
	/* The first snaplen bytes, never past the payload or its pieces. */
	for (size_t i = 0; i < iovcnt && captured < cap.snaplen && captured < payload; i++) {
		size_t take = iov[i].len;

		if (take > cap.snaplen - captured)
			take = cap.snaplen - captured;
		if (take > payload - captured)
			take = payload - captured;
		if (take)
			memcpy(cap.payload + captured, iov[i].base, take);
		captured += take;
	}
	capture_one(qp, &m, true, captured, NULL);
out:
	pthread_mutex_unlock(&cap.lock);
}

static void on_received(const struct nic_qp *qp, const struct nic_msg *m, const struct xport_rx *rx)
{
	size_t captured = 0;
	const char *note = NULL;

	pthread_mutex_lock(&cap.lock);
	if (cap.fd < 0)
		goto out;
	if (nic_op_has_payload(m->opcode) && m->len) {
		if (rx->data && !rx->rndv) {
			captured = rx->len < cap.snaplen ? rx->len : cap.snaplen;
			memcpy(cap.payload, rx->data, captured);
		} else {
			/* still at the sender: it lands after this */
			note = "payload by rendezvous, not captured here";
		}
	}
	capture_one(qp, m, false, captured, note);
out:
	pthread_mutex_unlock(&cap.lock);
}

static const struct nic_capture_ops capture_ops = {
	.sent = on_sent,
	.received = on_received,
};

/* path with every "%p" replaced by the process id (peers of one test may
 * share one setting); NULL if it does not fit. */
static char *expand_path(const char *path)
{
	char pid[16], *out;
	size_t len = strlen(path), n = 0;

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	out = malloc(len * strlen(pid) + 1);
	if (!out)
		return NULL;
	for (const char *s = path; *s; s++) {
		if (s[0] == '%' && s[1] == 'p') {
			memcpy(out + n, pid, strlen(pid));
			n += strlen(pid);
			s++;
		} else {
			out[n++] = *s;
		}
	}
	out[n] = '\0';
	return out;
}

static void close_locked(void)
{
	if (cap.fd >= 0)
		close(cap.fd);
	cap.fd = -1;
	free(cap.payload);
	free(cap.frame);
	free(cap.block);
	cap.payload = cap.frame = cap.block = NULL;
}

DOCA_STABLE doca_error_t softdoca_capture_start(const char *path, uint32_t snaplen)
{
	uint8_t *payload, *frame, *block;
	size_t frame_cap, block_cap;
	char *file;
	int fd;

	if (!path || !*path)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "capture: no file name");
	if (snaplen > MAX_SNAPLEN)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "capture: snap length %" PRIu32 " beyond %u bytes", snaplen,
		                  MAX_SNAPLEN);
	frame_cap = ROCE_MAX_HEADERS + snaplen + ROCE_ICRC_LEN;
	block_cap = frame_cap + COMMENT_MAX + 64;
	file = expand_path(path);
	payload = malloc(snaplen ? snaplen : 1);
	frame = malloc(frame_cap);
	block = malloc(block_cap);
	if (!file || !payload || !frame || !block) {
		free(file);
		free(payload);
		free(frame);
		free(block);
		return sdoca_fail(DOCA_ERROR_NO_MEMORY, "capture: no memory");
	}
	fd = pcapng_open(file, "softdoca");
	if (fd < 0) {
		doca_error_t status =
		        sdoca_fail(DOCA_ERROR_IO_FAILED, "capture: cannot write %s: %s", file,
		                   strerror(errno));

		free(file);
		free(payload);
		free(frame);
		free(block);
		return status;
	}
	pthread_mutex_lock(&cap.lock);
	close_locked(); /* a new capture replaces the one running */
	cap.fd = fd;
	cap.snaplen = snaplen;
	cap.payload = payload;
	cap.frame = frame;
	cap.block = block;
	cap.frame_cap = frame_cap;
	cap.block_cap = block_cap;
	cap.blocks_lost = 0;
	pthread_mutex_unlock(&cap.lock);
	atomic_store_explicit(&nic_capture, &capture_ops, memory_order_release);
	SDOCA_INFO("capturing messages to %s (payloads cut at %" PRIu32 " bytes)", file, snaplen);
	free(file);
	return DOCA_SUCCESS;
}

DOCA_STABLE doca_error_t softdoca_capture_stop(void)
{
	/* A NIC thread that loaded the hook before this finds no file. */
	atomic_store_explicit(&nic_capture, NULL, memory_order_release);
	pthread_mutex_lock(&cap.lock);
	close_locked();
	pthread_mutex_unlock(&cap.lock);
	return DOCA_SUCCESS;
}

/* SOFTDOCA_CAPTURE and SOFTDOCA_CAPTURE_SNAPLEN, when the diagnostics are
 * installed (sdoca_diag_install: before the first worker exists). */
void diag_capture_from_environment(void)
{
	const char *path = getenv("SOFTDOCA_CAPTURE");
	const char *snap = getenv("SOFTDOCA_CAPTURE_SNAPLEN");
	unsigned long snaplen = DEFAULT_SNAPLEN;

	if (!path || !*path)
		return;
	if (snap && *snap) {
		char *end;

		errno = 0;
		snaplen = strtoul(snap, &end, 10);
		if (errno || *end || snap[0] == '-' || snaplen > MAX_SNAPLEN) {
			SDOCA_ERR("SOFTDOCA_CAPTURE_SNAPLEN=%s is no length of 0 to %u bytes: not "
			          "capturing",
			          snap, MAX_SNAPLEN);
			return;
		}
	}
	softdoca_capture_start(path, (uint32_t)snaplen);
}
