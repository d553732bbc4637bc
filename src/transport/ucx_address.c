/*
 * Bounds-checked reading of a peer's UCX worker address.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The peer's UCX worker address, read with bounds before UCX reads it
 * without. The layout is UCX's address format version 1 as UCX 1.13 packs a
 * worker address (ucx.c forces that format on both peers):
 *
 *   header    1 byte: format version (low 4 bits), flags (high 4 bits)
 *   uuid      8 bytes, when the header has the worker-uuid flag
 *   then per device:
 *     md        1 byte: md index (5 bits), alloc/reg flags, 0x80 = no transports
 *     dev len   1 byte: length (5 bits), 0x80 = last device,
 *               0x40 = a path-count byte follows, 0x20 = a system-device byte follows
 *     [paths] [sys dev] device address
 *     then per transport, unless the device has none:
 *       name checksum 2 bytes (crc16 of the transport's name)
 *       attributes    16 bytes: overhead, bandwidth, latency (floats), priority
 *                     and capability flags (32 bits)
 *       iface len     1 byte: length (6 bits), 0x80 = last transport of the
 *                     device, 0x40 = endpoint addresses follow (never in a
 *                     worker address)
 *       iface address
 *
 * Measured with byte flips of real addresses (tests/integration/test_peer_address.c):
 * without this check UCX asserts on a negative overhead, crashes on a TCP
 * interface address shorter than a port, and reads past the end when a
 * length runs past it.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include <ucs/algorithm/crc.h>

#include "core/sdk_log.h"
#include "transport/ucx_address.h"

SDOCA_LOG_MODULE(ucx_address);

#define HDR_VERSION_MASK 0x0fu
#define HDR_FLAG_WORKER_UUID 0x20u /* flag bit 1, in the high nibble */

#define MD_FLAG_EMPTY 0x80u

#define DEV_FLAG_LAST 0x80u
#define DEV_FLAG_NUM_PATHS 0x40u
#define DEV_FLAG_SYS_DEVICE 0x20u
#define DEV_LEN_MASK 0x1fu

#define IFACE_FLAG_LAST 0x80u
#define IFACE_FLAG_EP_ADDR 0x40u
#define IFACE_LEN_MASK 0x3fu

#define ATTR_SIZE 16
#define MAX_TLS 64 /* UCX's limit on resources per context */

/* UCX's TCP device address: flags, address family, then the IP address, or
 * for a loopback device 16 bytes that name the host and network namespace. */
#define TCP_DEV_FLAG_LOOPBACK 0x01u
#define TCP_DEV_LOOPBACK_LEN 18

struct tl_entry {
	uint16_t csum;
	uint8_t dev_len;
	uint8_t iface_len;
	const uint8_t *dev_addr;
	float overhead, bandwidth, latency;
	uint32_t prio_cap_flags;
};

struct parsed {
	uint8_t header;
	unsigned int n;
	struct tl_entry tl[MAX_TLS];
};

struct cursor {
	const uint8_t *p;
	size_t left;
};

static const uint8_t *take(struct cursor *c, size_t n)
{
	const uint8_t *at = c->p;

	if (n > c->left)
		return NULL;
	c->p += n;
	c->left -= n;
	return at;
}

static float float_at(const uint8_t *p)
{
	float f;

	memcpy(&f, p, sizeof(f));
	return f;
}

/* Reads one transport of a device; NULL or the reason it is malformed. */
static const char *parse_tl(struct cursor *c, struct tl_entry *tl, bool *last)
{
	const uint8_t *csum = take(c, 2 + ATTR_SIZE + 1), *attr, *len;

	if (!csum)
		return "a transport entry runs past the end";
	attr = csum + 2;
	len = attr + ATTR_SIZE;
	memcpy(&tl->csum, csum, 2);
	tl->overhead = float_at(attr);
	tl->bandwidth = float_at(attr + 4);
	tl->latency = float_at(attr + 8);
	memcpy(&tl->prio_cap_flags, attr + 12, 4);
	if (*len & IFACE_FLAG_EP_ADDR)
		return "it carries endpoint addresses, which a worker address never has";
	tl->iface_len = *len & IFACE_LEN_MASK;
	*last = *len & IFACE_FLAG_LAST;
	if (!take(c, tl->iface_len))
		return "an interface address runs past the end";
	return NULL;
}

/* Reads one device and its transports into out->tl. */
static const char *parse_device(struct cursor *c, struct parsed *out, bool *last_dev)
{
	const uint8_t *md = take(c, 2), *dev, *dev_addr;
	uint8_t dev_len;
	bool last = false;

	if (!md)
		return "a device entry runs past the end";
	dev = md + 1;
	*last_dev = *dev & DEV_FLAG_LAST;
	dev_len = *dev & DEV_LEN_MASK;
	if (*dev & DEV_FLAG_NUM_PATHS) {
		const uint8_t *paths = take(c, 1);

		if (!paths || *paths == 0)
			return "a device names no paths";
	}
	if ((*dev & DEV_FLAG_SYS_DEVICE) && !take(c, 1))
		return "a device entry runs past the end";
	dev_addr = take(c, dev_len);
	if (!dev_addr)
		return "a device address runs past the end";
	if (*md & MD_FLAG_EMPTY)
		return NULL;
	while (!last) {
		struct tl_entry *tl;
		const char *why;

		if (out->n == MAX_TLS)
			return "it lists more transports than UCX allows";
		tl = &out->tl[out->n++];
		tl->dev_addr = dev_addr;
		tl->dev_len = dev_len;
		if ((why = parse_tl(c, tl, &last)))
			return why;
	}
	return NULL;
}

static const char *parse(const uint8_t *addr, size_t len, struct parsed *out)
{
	struct cursor c = { addr, len };
	const uint8_t *header = take(&c, 1);
	bool last_dev = false;

	out->n = 0;
	if (!header)
		return "it is empty";
	out->header = *header;
	if ((*header & ~HDR_VERSION_MASK) != HDR_FLAG_WORKER_UUID)
		return "its header flags are not those of a worker address";
	if (!take(&c, 8))
		return "it ends inside the worker id";
	while (!last_dev) {
		const char *why = parse_device(&c, out, &last_dev);

		if (why)
			return why;
	}
	if (c.left != 0)
		return "bytes follow the last device";
	if (out->n == 0)
		return "it lists no transports";
	return NULL;
}

static const struct tl_entry *find(const struct parsed *a, uint16_t csum)
{
	for (unsigned int i = 0; i < a->n; i++)
		if (a->tl[i].csum == csum)
			return &a->tl[i];
	return NULL;
}

static const char *check_tcp_device(const struct tl_entry *tl)
{
	uint8_t flags, family;

	if (tl->dev_len < 2)
		return "a TCP device address is too short";
	flags = tl->dev_addr[0];
	family = tl->dev_addr[1];
	if (flags & ~TCP_DEV_FLAG_LOOPBACK)
		return "a TCP device address has unknown flags";
	if (family != AF_INET && family != AF_INET6)
		return "a TCP device address is neither IPv4 nor IPv6";
	if (flags & TCP_DEV_FLAG_LOOPBACK)
		return tl->dev_len == TCP_DEV_LOOPBACK_LEN
		               ? NULL
		               : "a TCP loopback address has the wrong length";
	if (tl->dev_len != 2 + (family == AF_INET ? 4 : 16))
		return "a TCP device address has the wrong length for its family";
	return NULL;
}

/* A transport this worker also has: UCX will use it, so its addresses must
 * be of the form this UCX gives them, and its figures usable. */
static const char *check_known_tl(const struct tl_entry *peer, const struct tl_entry *ours)
{
	if (peer->iface_len != ours->iface_len)
		return "an interface address has the wrong length";
	if (peer->csum == ucs_crc16_string("tcp")) {
		const char *why = check_tcp_device(peer);

		if (why)
			return why;
	} else if (peer->dev_len != ours->dev_len) {
		return "a device address has the wrong length";
	}
	if (!isfinite(peer->overhead) || peer->overhead < 0 || !isfinite(peer->latency) ||
	    peer->latency < 0 || !isfinite(peer->bandwidth) || peer->bandwidth == 0)
		return "a transport's performance figures are out of range";
	return NULL;
}

doca_error_t xport_address_check(const void *ours, size_t ours_len, const void *peer,
                                 size_t peer_len)
{
	struct parsed own, theirs;
	const char *why;

	if (peer_len == 0)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "the peer's transport address is empty");
	if (ours_len == 0)
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE, "this worker has no transport address");
	if ((((const uint8_t *)peer)[0] & HDR_VERSION_MASK) !=
	    (((const uint8_t *)ours)[0] & HDR_VERSION_MASK))
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "the peer's transport address has UCX address format %u, this UCX "
		        "packs %u",
		        ((const uint8_t *)peer)[0] & HDR_VERSION_MASK,
		        ((const uint8_t *)ours)[0] & HDR_VERSION_MASK);
	if ((why = parse(ours, ours_len, &own))) {
		SDOCA_LOG_ONCE(DOCA_LOG_LEVEL_WARNING,
		               "this UCX packs worker addresses in a layout softdoca does not "
		               "know (%s): peers' addresses go to UCX unchecked",
		               why);
		return DOCA_SUCCESS;
	}
	if ((why = parse(peer, peer_len, &theirs)))
		return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
		                  "the peer's transport address is malformed: %s", why);
	if (theirs.header != own.header)
		return sdoca_fail(
		        DOCA_ERROR_INVALID_VALUE,
		        "the peer's transport address has header 0x%02x, this UCX packs 0x%02x",
		        theirs.header, own.header);
	for (unsigned int i = 0; i < theirs.n; i++) {
		const struct tl_entry *mine = find(&own, theirs.tl[i].csum);

		if (mine && (why = check_known_tl(&theirs.tl[i], mine)))
			return sdoca_fail(DOCA_ERROR_INVALID_VALUE,
			                  "the peer's transport address is malformed: %s", why);
	}
	return DOCA_SUCCESS;
}
