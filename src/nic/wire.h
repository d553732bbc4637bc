/*
 * The soft NIC's messages: header layout, little-endian.
 * softdoca - an open implementation of the DOCA RDMA API.
 * SPDX-License-Identifier: Apache-2.0
 *
 * The soft NIC's messages: one small header per message, little-endian,
 * followed by a payload for writes, sends and read responses.
 *
 * Common part (24 bytes):
 *   0 u8  version       4 u32 destination QP (the receiver's wire id)
 *   1 u8  opcode        8 u32 sequence (a request's, or the one a reply answers)
 *   2 u16 flags        12 u32 length (payload, or bytes asked for by a read)
 *                      16 u64 secret of the connection (both ends' tokens mixed)
 * then, by opcode: remote key (16) + remote address (8) for RDMA and sync-event
 * requests; immediate (4 + 4 pad); atomic and sync-event operands (8 or 16);
 * NAK syndrome (4 + 4 pad); atomic original value (8); a sync-event answer's
 * value (8) and status (4 + 4 pad). A request with flag NIC_FLAG_ACK carries 8 more
 * bytes at its end: a u32 acknowledging the receiver's own requests up to
 * that sequence (a piggybacked ACK) and 4 of padding. Every header size is
 * fixed per opcode and flags, and the largest is 72 bytes, so small
 * operations stay in UCX's shortest path.
 *
 * Headers come from other processes and hosts: nic_wire_decode() checks
 * version, opcode, exact size, flags, lengths and syndromes before any field
 * is used. docs/wire.md has the tables.
 */
#ifndef SDOCA_NIC_WIRE_H_
#define SDOCA_NIC_WIRE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <doca_error.h>

#include "core/bytes.h"
#include "core/keys.h"

/* 2: the secret both connection blobs contribute to, and messages only from
 * the transport connection to the peer (version 1 carried the receiver's
 * token, which anyone holding its blob knew). */
#define NIC_WIRE_VERSION 2
#define NIC_WIRE_MAX_HDR 72
#define NIC_MAX_MESSAGE (1u << 31) /* 2 GiB, DOCA's cap */

enum nic_opcode {
	/* requests */
	NIC_OP_WRITE = 1,
	NIC_OP_WRITE_IMM = 2,
	NIC_OP_SEND = 3,
	NIC_OP_SEND_IMM = 4,
	NIC_OP_READ = 5,
	NIC_OP_ATOMIC_FA = 6,
	NIC_OP_ATOMIC_CS = 7,
	NIC_OP_EVENT_GET = 8, /* a sync event's value: get, set (its first len bytes), add */
	NIC_OP_EVENT_SET = 9,
	NIC_OP_EVENT_ADD = 10,
	NIC_OP_REQUESTS_END, /* a request is added above: one more public counter (wire.c) */
	/* replies */
	NIC_OP_ACK = 16,
	NIC_OP_NAK = 17,
	NIC_OP_READ_RESP = 18,
	NIC_OP_ATOMIC_RESP = 19,
	NIC_OP_RNR_WAIT = 20,   /* the request waits for a receive; the responder is alive */
	NIC_OP_EVENT_RESP = 21, /* a sync-event request's value, or its refusal (status) */
	/* connection */
	NIC_OP_HELLO = 32,      /* first message on a connection: sets the transport up */
	NIC_OP_DISCONNECT = 33, /* the peer closed its end on purpose */
};

/* Header flags. */
enum nic_flags {
	NIC_FLAG_ACK = 1, /* a request also acknowledges up to ack_seq (requests only) */
};

/* Why a responder refused a request (and what the requester reports). */
enum nic_syndrome {
	NIC_SYN_REMOTE_ACCESS = 1,      /* key, range, permission or alignment */
	NIC_SYN_REMOTE_INVALID = 2,     /* longer than the receive, bad request */
	NIC_SYN_RNR_RETRY_EXCEEDED = 3, /* no receive posted within the RNR retries */
	NIC_SYN_REMOTE_OPERATIONAL = 4, /* the responder could not execute it */
};

/* A decoded header; which fields mean something depends on the opcode. */
struct nic_msg {
	uint8_t opcode;
	uint32_t qp;
	uint32_t seq;
	uint32_t len;
	uint64_t secret; /* the connection's, towards its receiver (nic_conn_secret) */
	struct sdoca_key key;
	uint64_t raddr;
	uint8_t imm[4];    /* a doca_be32_t, carried as bytes */
	uint64_t operand1; /* fetch-add: add; compare-swap: compare */
	uint64_t operand2; /* compare-swap: swap */
	uint32_t syndrome; /* NAK; a sync-event answer's status (0: done) */
	uint64_t value;    /* atomic and sync-event answers: the value before */
	bool has_ack;      /* NIC_FLAG_ACK: ack_seq is meaningful */
	uint32_t ack_seq;
};

#define NIC_WIRE_COMMON 24                                            /* common part */
#define NIC_WIRE_RDMA_EXT (NIC_WIRE_COMMON + SDOCA_KEY_WIRE_SIZE + 8) /* + key, address */
#define NIC_WIRE_ACK_EXT 8 /* a piggybacked ACK: sequence + padding */
#define NIC_WIRE_OPCODES (NIC_OP_DISCONNECT + 1)

/* What an opcode is (an opcode that is no request, nor HELLO or
 * DISCONNECT, answers one). */
enum nic_op_flags {
	NIC_OPF_REQUEST = 1 << 0,  /* a requester sends it, the responder executes it */
	NIC_OPF_EVENT = 1 << 1,    /* a request on a sync event: its key and value address */
	NIC_OPF_RKEY = 1 << 2,     /* carries a remote key and address */
	NIC_OPF_PAYLOAD = 1 << 3,  /* the length field is that of a payload that follows */
	NIC_OPF_ATOMIC = 1 << 4,   /* 8 aligned bytes, changed with CPU atomics */
	NIC_OPF_RECV = 1 << 5,     /* consumes a posted receive */
	NIC_OPF_SYNDROME = 1 << 6, /* carries a syndrome (a NAK's) or a status (0: done) */
	NIC_OPF_VALUE = 1 << 7,    /* carries an atomic's or sync event's value */
};

/* How the responder executes a request (after its checks). */
enum nic_exec {
	NIC_EXEC_NONE,
	NIC_EXEC_WRITE,  /* the payload lands at the remote address */
	NIC_EXEC_SEND,   /* the payload lands in the receive it consumes */
	NIC_EXEC_READ,   /* target bytes leave in a read response */
	NIC_EXEC_ATOMIC, /* fetch-add or compare-swap, answered with the original value */
	NIC_EXEC_EVENT,  /* a sync event's get, set or add, answered with value and status */
};

/* What a request waits for while transfers of the requests before it are
 * still moving (landing.c): the responder's ordering rule. */
enum nic_order {
	NIC_ORDER_NONE,     /* not a request */
	NIC_ORDER_PAYLOADS, /* payloads still landing (a send: into its own receive) */
	NIC_ORDER_WRITE,    /* a write: those, or only the bytes it meets (rendezvous) */
	NIC_ORDER_TARGET,   /* payloads landing, or a transfer meeting its target bytes */
	NIC_ORDER_READ,     /* payloads landing, or too many read responses leaving */
};

/* What a receive reports when a request consumed it. */
enum nic_recv_kind {
	NIC_RECV_SEND,
	NIC_RECV_SEND_IMM,
	NIC_RECV_WRITE_IMM,
};

/* Everything about an opcode, in one row of nic_opcodes[] (wire.c): its
 * header layout, its traits, and for a request what answers it, how the
 * responder orders and executes it, what access it needs and where it
 * counts. The requester, responder, completer, decoder and counters read
 * their rules here; only answers and control messages are told apart by
 * opcode (completer.c, worker.c), as in rxe. */
struct nic_opcode_info {
	const char *name;     /* for logs and traces; NULL: no such opcode */
	uint8_t size;         /* header bytes without a piggybacked ACK */
	uint8_t flags;        /* enum nic_op_flags */
	uint8_t imm_at;       /* offset of the immediate data, 0: none */
	uint8_t operands;     /* atomic operands after the RDMA extension */
	uint8_t answer;       /* request: the answer that completes it */
	uint8_t exec;         /* request: enum nic_exec */
	uint8_t recv_kind;    /* NIC_OPF_RECV: enum nic_recv_kind */
	uint8_t syndrome_at;  /* NIC_OPF_SYNDROME: its offset */
	uint8_t min_syndrome; /* ... and its least value (a NAK's is never 0) */
	uint8_t order;        /* request: enum nic_order */
	uint8_t counter;      /* request: enum softdoca_op_type, its slot in the counters */
	/* request: the DOCA_ACCESS_FLAG_RDMA_* it needs (0: none) of the key
	 * it names and, with NIC_OPF_RKEY (RDMA on an mmap), of the connection */
	uint32_t access;
};

extern const struct nic_opcode_info nic_opcodes[NIC_WIRE_OPCODES];

/* The opcode's row; op must be an opcode this side sent or decoded. */
static inline const struct nic_opcode_info *nic_op(uint8_t op)
{
	return &nic_opcodes[op];
}

static inline bool nic_op_is_request(uint8_t op)
{
	return (nic_opcodes[op].flags & NIC_OPF_REQUEST) != 0;
}

/* Carries a key and a remote address (an RDMA or a sync-event request). */
static inline bool nic_op_has_rkey(uint8_t op)
{
	return (nic_opcodes[op].flags & (NIC_OPF_RKEY | NIC_OPF_EVENT)) != 0;
}

static inline bool nic_op_has_payload(uint8_t op)
{
	return (nic_opcodes[op].flags & NIC_OPF_PAYLOAD) != 0;
}

/* Encodes m (a valid opcode: this side's own message) into out; returns the
 * header size. Inline because every request is encoded on the submit path:
 * the caller's message then is no copy in memory. */
static inline size_t nic_wire_encode(const struct nic_msg *m, uint8_t out[NIC_WIRE_MAX_HDR])
{
	const struct nic_opcode_info *l = nic_op(m->opcode);
	bool ack = m->has_ack && (l->flags & NIC_OPF_REQUEST);

	/* The whole buffer, a constant size: a few vector stores, no call. */
	memset(out, 0, NIC_WIRE_MAX_HDR);
	out[0] = NIC_WIRE_VERSION;
	out[1] = m->opcode;
	if (ack) {
		sdoca_put_le16(out + 2, NIC_FLAG_ACK);
		sdoca_put_le32(out + l->size, m->ack_seq);
	}
	sdoca_put_le32(out + 4, m->qp);
	sdoca_put_le32(out + 8, m->seq);
	sdoca_put_le32(out + 12, m->len);
	sdoca_put_le64(out + 16, m->secret);
	if (l->flags & (NIC_OPF_RKEY | NIC_OPF_EVENT)) {
		sdoca_key_encode(&m->key, out + NIC_WIRE_COMMON);
		sdoca_put_le64(out + NIC_WIRE_COMMON + SDOCA_KEY_WIRE_SIZE, m->raddr);
	}
	if (l->imm_at)
		memcpy(out + l->imm_at, m->imm, sizeof(m->imm));
	if (l->operands >= 1)
		sdoca_put_le64(out + NIC_WIRE_RDMA_EXT, m->operand1);
	if (l->operands == 2)
		sdoca_put_le64(out + NIC_WIRE_RDMA_EXT + 8, m->operand2);
	if (l->flags & NIC_OPF_SYNDROME)
		sdoca_put_le32(out + l->syndrome_at, m->syndrome);
	if (l->flags & NIC_OPF_VALUE)
		sdoca_put_le64(out + NIC_WIRE_COMMON, m->value);
	return l->size + (ack ? NIC_WIRE_ACK_EXT : 0);
}

/* Decodes and validates a header and the size of the payload that came with it.
 * INVALID_VALUE (with a log line) for anything malformed. */
doca_error_t nic_wire_decode(const void *hdr, size_t hdr_len, size_t payload_len,
                             struct nic_msg *m);

/* The secret of the messages to the side whose connection blob carried
 * `to_token`, from the side whose blob carried `from_token`: neither blob
 * alone tells it (a mix, one-way per direction). */
static inline uint64_t nic_conn_secret(uint64_t to_token, uint64_t from_token)
{
	uint64_t x = to_token ^ (from_token * 0x9e3779b97f4a7c15ull);

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* Header size of an opcode, 0 if unknown. */
size_t nic_wire_header_size(uint8_t opcode);

const char *nic_opcode_name(uint8_t opcode);

#endif /* SDOCA_NIC_WIRE_H_ */
