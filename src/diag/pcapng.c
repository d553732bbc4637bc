/*
 * A pcapng writer (pcapng.h).
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "core/bytes.h"
#include "diag/pcapng.h"

#define BT_SHB 0x0a0d0d0au
#define BT_IDB 0x00000001u
#define BT_EPB 0x00000006u
#define BT_CB 0x00000bad /* custom block, may be copied */
#define LINKTYPE_ETHERNET 1

#define OPT_END 0
#define OPT_COMMENT 1
#define SHB_USERAPPL 4
#define IF_NAME 2
#define IF_DESCRIPTION 3
#define IF_TSRESOL 9
#define EPB_FLAGS 2

static size_t pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/* A block in the making: the writer checks the room once per block. */
struct block {
	uint8_t *buf;
	size_t len;
};

static void put(struct block *b, const void *data, size_t len)
{
	if (len)
		memcpy(b->buf + b->len, data, len);
	b->len += len;
}

static void put32(struct block *b, uint32_t v)
{
	sdoca_put_le32(b->buf + b->len, v);
	b->len += 4;
}

static void put_zero(struct block *b, size_t len)
{
	memset(b->buf + b->len, 0, len);
	b->len += len;
}

static size_t option_size(size_t len)
{
	return 4 + pad4(len);
}

static void put_option(struct block *b, uint16_t code, const void *data, size_t len)
{
	sdoca_put_le16(b->buf + b->len, code);
	sdoca_put_le16(b->buf + b->len + 2, (uint16_t)len);
	b->len += 4;
	put(b, data, len);
	put_zero(b, pad4(len) - len);
}

/* Type and total length at both ends; the room was checked. */
static size_t finish(struct block *b, uint32_t type)
{
	uint32_t total = (uint32_t)(b->len + 4);

	sdoca_put_le32(b->buf, type);
	sdoca_put_le32(b->buf + 4, total);
	put32(b, total);
	return b->len;
}

static size_t text_len(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	return n > 0xfff0 ? 0xfff0 : n; /* an option's length is 16 bits */
}

size_t pcapng_section(uint8_t *buf, size_t cap, const char *application)
{
	size_t app = text_len(application);
	struct block b = { buf, 8 };

	if (cap < 28 + option_size(app) + 4 + 4)
		return 0;
	put32(&b, 0x1a2b3c4d); /* byte-order magic */
	sdoca_put_le16(buf + b.len, 1);
	sdoca_put_le16(buf + b.len + 2, 0);
	b.len += 4;
	put32(&b, 0xffffffff); /* section length unknown */
	put32(&b, 0xffffffff);
	if (app)
		put_option(&b, SHB_USERAPPL, application, app);
	put_option(&b, OPT_END, NULL, 0);
	return finish(&b, BT_SHB);
}

size_t pcapng_interface(uint8_t *buf, size_t cap, const char *name, const char *description)
{
	size_t nl = text_len(name), dl = text_len(description);
	uint8_t tsresol = 9; /* 10^-9 s */
	struct block b = { buf, 8 };

	if (cap < 16 + option_size(nl) + option_size(dl) + option_size(1) + 4 + 4)
		return 0;
	sdoca_put_le16(buf + b.len, LINKTYPE_ETHERNET);
	sdoca_put_le16(buf + b.len + 2, 0);
	b.len += 4;
	put32(&b, 0); /* no snap length: headers are always whole */
	if (nl)
		put_option(&b, IF_NAME, name, nl);
	if (dl)
		put_option(&b, IF_DESCRIPTION, description, dl);
	put_option(&b, IF_TSRESOL, &tsresol, 1);
	put_option(&b, OPT_END, NULL, 0);
	return finish(&b, BT_IDB);
}

size_t pcapng_packet(uint8_t *buf, size_t cap, uint64_t ts_ns, const uint8_t *frame, size_t caplen,
                     uint64_t orig_len, enum pcapng_dir dir, const char *comment)
{
	size_t cl = text_len(comment);
	uint8_t flags[4];
	struct block b = { buf, 8 };

	if (cap < 28 + pad4(caplen) + option_size(4) + option_size(cl) + 4 + 4 ||
	    caplen > UINT32_MAX)
		return 0;
	put32(&b, 0); /* interface 0 */
	put32(&b, (uint32_t)(ts_ns >> 32));
	put32(&b, (uint32_t)ts_ns);
	put32(&b, (uint32_t)caplen);
	put32(&b, orig_len > UINT32_MAX ? UINT32_MAX : (uint32_t)orig_len);
	put(&b, frame, caplen);
	put_zero(&b, pad4(caplen) - caplen);
	sdoca_put_le32(flags, (uint32_t)dir);
	put_option(&b, EPB_FLAGS, flags, 4);
	if (cl)
		put_option(&b, OPT_COMMENT, comment, cl);
	put_option(&b, OPT_END, NULL, 0);
	return finish(&b, BT_EPB);
}

size_t pcapng_custom(uint8_t *buf, size_t cap, uint64_t ts_ns, const char *text)
{
	size_t tl = text_len(text);
	struct block b = { buf, 8 };
	uint8_t ts[8];

	if (cap < 12 + 8 + pad4(tl) + 4)
		return 0;
	put32(&b, PCAPNG_CUSTOM_PEN);
	sdoca_put_le64(ts, ts_ns);
	put(&b, ts, 8);
	put(&b, text, tl);
	put_zero(&b, pad4(tl) - tl);
	return finish(&b, BT_CB);
}

bool pcapng_write(int fd, const uint8_t *block, size_t len)
{
	ssize_t n;

	do
		n = write(fd, block, len);
	while (n < 0 && errno == EINTR);
	return n >= 0 && (size_t)n == len;
}

int pcapng_open(const char *path, const char *application)
{
	uint8_t head[512];
	size_t shb, idb;
	int fd;

	shb = pcapng_section(head, sizeof(head), application);
	idb = pcapng_interface(head + shb, sizeof(head) - shb, "softdoca",
	                       "softdoca soft NIC messages as RoCEv2 packets");
	if (!shb || !idb) {
		errno = EINVAL;
		return -1;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	/* Both blocks at once: a file is never a section without its interface. */
	if (!pcapng_write(fd, head, shb + idb)) {
		int err = errno ? errno : EIO;

		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}
