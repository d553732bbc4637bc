/*
 * softdoca-perf --check: verifying each operation's data.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * --check, operation by operation. Each operation carries content of its
 * own (a pattern seeded by its iteration, pattern.c) or a value only it can
 * return, and what it brings lands in a destination poisoned before it, so
 * that an operation which completes but places nothing, places part, or
 * places another's bytes is counted wrong:
 *
 *   write --bw      each write, once complete and before its slot carries
 *                   the next, is read back from the target into a poisoned
 *                   buffer and compared with its pattern (a slot's writes
 *                   differ from the one before: the seed counts the slot's
 *                   rounds); the target checks each slot's last write too.
 *   write_imm --bw  the same; the target checks each immediate, in order.
 *   write --lat     the peer checks each write's bytes when its flag (the
 *                   last byte) arrives, then poisons them for the next.
 *   write_imm --lat the peer checks each write's bytes and immediate on its
 *                   receive, then poisons them.
 *   read            each read lands in a buffer poisoned before it and is
 *                   compared with what the target holds (its slot's pattern).
 *   send, send_imm  the receiver posts each receive poisoned and checks the
 *                   message's length, bytes (and immediate) against the
 *                   iteration it must carry.
 *   atomic_fa       each result lands poisoned and must be a count below
 *                   the operations posted that no other result was; the
 *                   target's counter ends at the number of operations.
 *   atomic_cs       each result lands poisoned and must be what the
 *                   compare-swap before it left; the target ends at the count.
 *
 * None of this runs without --check (perf_ep_submit and perf_op_done test
 * ep->check once), nor do the checked runs share buffers between operations.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf.h"

#define POISON_RESULT UINT64_MAX /* what no fetch-add or compare-swap returns here */
#define BAD_SAID 5               /* wrong results told on stderr, at most */

static bool is_write(enum perf_op op)
{
	return op == PERF_WRITE || op == PERF_WRITE_IMM;
}

int perf_check_empty_op(const struct perf_opts *o, uint64_t *iteration)
{
	const char *v = getenv("SOFTDOCA_PERF_TEST_EMPTY_OP");
	uint64_t n;
	char *end;

	if (!v || !*v || !o->host)
		return 0;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno || *end || *v == '-') {
		fprintf(stderr, "softdoca-perf: SOFTDOCA_PERF_TEST_EMPTY_OP=%s: not an iteration\n",
		        v);
		return -1;
	}
	/* The peer would wait for a message that never comes. */
	if (!o->check || o->op == PERF_WRITE_IMM || o->op == PERF_SEND || o->op == PERF_SEND_IMM ||
	    perf_op_is_sync(o->op) || (o->mode == PERF_LAT && perf_op_is_pingpong(o->op))) {
		fprintf(stderr, "softdoca-perf: SOFTDOCA_PERF_TEST_EMPTY_OP: for --check of write "
		                "--bw, read and atomics\n");
		return -1;
	}
	if (iteration)
		*iteration = n;
	return 1;
}

const char *perf_check_what(const struct perf_opts *o)
{
	bool bw = o->mode == PERF_BW;

	switch (o->op) {
	case PERF_WRITE:
		return bw ? "each write's bytes (its own), read back from the target into a\n"
		            "                  poisoned buffer before its slot is reused; each "
		            "slot's last, by the target"
		          : "each write's bytes (its own), by the peer when the flag arrives";
	case PERF_WRITE_IMM:
		return bw ? "each write's bytes (its own), read back from the target into a\n"
		            "                  poisoned buffer before its slot is reused; each "
		            "immediate, by the target"
		          : "each write's bytes (its own) and immediate, by the peer on its "
		            "receive";
	case PERF_READ:
		return "each read's bytes against the target's, in a buffer poisoned before it";
	case PERF_SEND:
		return "each message's length and bytes (its own), by the receiver, in a\n"
		       "                  buffer poisoned before it";
	case PERF_SEND_IMM:
		return "each message's length, bytes (its own) and immediate, by the\n"
		       "                  receiver, in a buffer poisoned before it";
	case PERF_ATOMIC_FA:
		return "each result (poisoned before) a count no other returned, below the\n"
		       "                  operations posted; the target's final count";
	case PERF_ATOMIC_CS:
		return "each result (poisoned before) what the compare-swap before it left;\n"
		       "                  the target's final value";
	case PERF_SYNC_SET:
		return bw ? "the event's final value and the target's fetch-add count"
		          : "each set woke the waiter, to its value; the target's fetch-add\n"
		            "                  count (not the writes' bytes)";
	default:
		return "the event's final value (the notify-adds) and the target's fetch-add "
		       "count";
	}
}

uint64_t perf_check_seed(const struct perf_ep *ep, uint64_t seq)
{
	uint64_t slots;

	/* Slot k of a write --bw carries iterations k, k + slots, ...: seeded
	 * by its round (then by the slot), each write differs from the one
	 * it replaces at the target even in a 1-byte message. */
	if (!is_write((enum perf_op)ep->params.op) || ep->params.mode != PERF_BW)
		return seq;
	slots = perf_num_slots(ep->size, ep->params.depth);
	return seq / slots + ((seq % slots) << 32);
}

bool perf_check_reads_back(const struct perf_ep *ep, const struct perf_slot *s)
{
	return ep->check && !s->receive && ep->params.mode == PERF_BW &&
	       is_write((enum perf_op)ep->params.op) && ep->size > 0;
}

void perf_check_bad(struct perf_ep *ep, const char *fmt, ...)
{
	static unsigned said;
	va_list ap;

	ep->bad++;
	if (said++ >= BAD_SAID)
		return;
	fprintf(stderr, "softdoca-perf: data check: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
}

/* len bytes at buf against seed's pattern; counted either way. */
static void check_bytes(struct perf_ep *ep, const char *what, uint64_t seq, const uint8_t *buf,
                        size_t len, uint64_t seed)
{
	uint8_t want;
	size_t at = perf_pattern_mismatch(buf, len, seed, &want);

	if (at == len)
		ep->verified++;
	else
		perf_check_bad(ep, "%s %lu: byte %zu of %zu is 0x%02x, not 0x%02x%s", what,
		               (unsigned long)seq, at, len, buf[at], want,
		               buf[at] ? "" : " (nothing placed there)");
}

bool perf_check_before(struct perf_slot *s)
{
	struct perf_ep *ep = s->ep;
	enum perf_op op = (enum perf_op)ep->params.op;
	uint8_t *local;

	if (s->receive) {
		if (s->local)
			perf_pattern_poison(ep->mem + perf_slot_offset(ep, s->index, true),
			                    ep->size);
		return false;
	}
	local = ep->mem + perf_slot_offset(ep, s->index, false);
	ep->posted++;
	switch (op) {
	case PERF_WRITE:
		if (ep->params.mode == PERF_LAT)
			break; /* the ping-pong fills it, with its flag (run.c) */
		               /* fall through */
	case PERF_WRITE_IMM:
	case PERF_SEND:
	case PERF_SEND_IMM:
		perf_pattern_fill(local, ep->size, perf_check_seed(ep, s->seq));
		break;
	case PERF_READ:
		perf_pattern_poison(local, ep->size);
		break;
	default: {
		uint64_t poison = POISON_RESULT;

		memcpy(local, &poison, sizeof(poison));
		break;
	}
	}
	return ep->empty_op_set && s->seq == ep->empty_op;
}

/* A fetch-add's result: below the operations posted, and no other's. */
static void fetch_add_result(struct perf_ep *ep, uint64_t seq, uint64_t v)
{
	size_t byte = (size_t)(v / 8);
	uint8_t bit = (uint8_t)(1u << (v % 8));

	if (v >= ep->posted) {
		perf_check_bad(ep,
		               "fetch-add %lu returned %#lx, not a count below the %lu posted%s",
		               (unsigned long)seq, (unsigned long)v, (unsigned long)ep->posted,
		               v == POISON_RESULT ? " (nothing placed)" : "");
		return;
	}
	if (byte >= ep->fa_seen_len) {
		size_t len = ep->fa_seen_len ? ep->fa_seen_len : 4096;
		uint8_t *seen;

		while (len <= byte)
			len *= 2;
		seen = realloc(ep->fa_seen, len);
		if (!seen) {
			fprintf(stderr, "softdoca-perf: out of memory for --check\n");
			exit(1);
		}
		memset(seen + ep->fa_seen_len, 0, len - ep->fa_seen_len);
		ep->fa_seen = seen;
		ep->fa_seen_len = len;
	}
	if (ep->fa_seen[byte] & bit) {
		perf_check_bad(ep, "fetch-add %lu returned %lu, as another did", (unsigned long)seq,
		               (unsigned long)v);
		return;
	}
	ep->fa_seen[byte] |= bit;
	ep->verified++;
}

void perf_check_readback_done(struct perf_slot *s, doca_error_t status)
{
	struct perf_ep *ep = s->ep;

	s->reading_back = false;
	s->busy = false;
	if (status == DOCA_SUCCESS)
		check_bytes(ep, "write", s->seq, ep->mem + perf_slot_offset(ep, s->index, true),
		            ep->size, perf_check_seed(ep, s->seq));
}

bool perf_check_done(struct perf_slot *s)
{
	struct perf_ep *ep = s->ep;
	const uint8_t *local = ep->mem + perf_slot_offset(ep, s->index, false);
	uint64_t result;
	doca_error_t e;

	switch (ep->params.op) {
	case PERF_READ:
		check_bytes(ep, "read", s->seq, local, ep->size, s->index);
		return false;
	case PERF_ATOMIC_FA:
		memcpy(&result, local, sizeof(result));
		fetch_add_result(ep, s->seq, result);
		return false;
	case PERF_ATOMIC_CS:
		memcpy(&result, local, sizeof(result));
		if (result == s->seq)
			ep->verified++;
		else
			perf_check_bad(ep, "compare-swap %lu returned %#lx, not %lu%s",
			               (unsigned long)s->seq, (unsigned long)result,
			               (unsigned long)s->seq,
			               result == POISON_RESULT ? " (nothing placed)" : "");
		return false;
	default:
		break;
	}
	if (!s->readback)
		return false; /* sends, ping-pong writes: the peer checks them */
	perf_pattern_poison(ep->mem + perf_slot_offset(ep, s->index, true), ep->size);
	PERF_CHECK(doca_buf_reset_data_len(s->readback_local));
	s->reading_back = true;
	e = perf_ep_post_readback(s);
	if (e != DOCA_SUCCESS) {
		s->reading_back = false;
		perf_count_failure(ep, e);
		return false;
	}
	return true;
}

/* The iteration a connection's k-th message carries: iteration i leaves
 * from slot i % num_ops, and slot s on connection s % num_conns (RC keeps
 * each connection's order; across connections there is none). */
static uint64_t iteration_of(struct perf_ep *ep, uint32_t c)
{
	/* the client's operation slots (a receiving server has none of its own) */
	uint32_t n = ep->num_conns,
	         ops = ep->params.mode == PERF_BW ? perf_num_slots(ep->size, ep->params.depth) : 1;
	uint64_t k = ep->received_on[c]++, per_round = ops / n + (c < ops % n ? 1 : 0);

	return (k / per_round) * ops + c + (k % per_round) * n;
}

void perf_check_receive(struct perf_slot *s, uint32_t conn, uint32_t len, doca_be32_t imm)
{
	struct perf_ep *ep = s->ep;
	enum perf_op op = (enum perf_op)ep->params.op;
	uint64_t seq = iteration_of(ep, conn);

	if ((op == PERF_SEND_IMM || op == PERF_WRITE_IMM) && ntohl(imm) != (uint32_t)seq) {
		perf_check_bad(ep, "message %lu carried the immediate %u", (unsigned long)seq,
		               ntohl(imm));
		return;
	}
	if (op == PERF_WRITE_IMM && ep->params.mode == PERF_LAT) {
		/* the ping-pong's writes land in slot 1; the next comes after our reply */
		perf_check_arrival(ep, ep->mem + ep->stride, ep->size, seq);
	} else if (op == PERF_SEND || op == PERF_SEND_IMM) {
		if (len != ep->size)
			perf_check_bad(ep, "message %lu: %u bytes, not %lu", (unsigned long)seq,
			               len, (unsigned long)ep->size);
		else
			check_bytes(ep, "message", seq,
			            ep->mem + perf_slot_offset(ep, s->index, true), ep->size, seq);
	} else {
		ep->verified++; /* write_imm --bw: its immediate (its bytes are read back) */
	}
}

void perf_check_arrival(struct perf_ep *ep, uint8_t *buf, size_t len, uint64_t seq)
{
	check_bytes(ep, "write", seq, buf, len, seq);
	perf_pattern_poison(buf, len);
}
