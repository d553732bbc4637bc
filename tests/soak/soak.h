/*
 * softdoca soak: two processes, 8 connections on one RDMA context a side,
 * every operation type, sizes 1 B - 64 MiB, injected faults; every byte,
 * every atomic value and every task's completion checked (docs/soak.md).
 *
 * The client initiates everything; the server is the target and checks what
 * consumes its receives. Both sides talk over one out-of-band TCP socket
 * (tests/integration/peer_oob.c): set-up, reconnections, the end.
 */
#ifndef SDOCA_TESTS_SOAK_H_
#define SDOCA_TESTS_SOAK_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <doca_dev.h>
#include <doca_error.h>

#include "peer_oob.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the soak's patterns assume a little-endian host"
#endif

#define SOAK_CONNS 8
#define SOAK_MAX_LEN (64u << 20) /* the largest operation */
#define SOAK_PAGE (64u << 10)    /* allocation unit of the memory arenas */
#define SOAK_MAX_GEN 1024        /* connections a slot may have over a run */
#define SOAK_FA_WORDS 4          /* fetch-add counters per slot */
#define SOAK_CS_WORD 4           /* ... then the compare-swap word */
#define SOAK_WORDS 8             /* 8-byte words per slot in the atomic area */
/* The server's read-only area: what reads read, a pattern of one seed. */
#define SOAK_STATIC_LEN ((size_t)SOAK_MAX_LEN + SOAK_PAGE)
#define SOAK_STATIC_SEED 0x5741544943ull

/* Exit status for a wrong byte or value (anything else that fails: 1). */
#define SOAK_EXIT_DATA 3

#define DATA_FAIL(...)                                                      \
	do {                                                                \
		fprintf(stderr, "FAIL (data) %s:%d: ", __FILE__, __LINE__); \
		fprintf(stderr, __VA_ARGS__);                               \
		fprintf(stderr, "\n");                                      \
		exit(SOAK_EXIT_DATA);                                       \
	} while (0)

#define CHECK(call)                                                                 \
	do {                                                                        \
		doca_error_t check_ = (call);                                       \
		if (check_ != DOCA_SUCCESS)                                         \
			FAIL("%s returned %s", #call, doca_error_get_name(check_)); \
	} while (0)

/* --- patterns: byte i of stream `seed` at absolute position `base + i` --- */

static inline uint64_t soak_mix(uint64_t seed, uint64_t w)
{
	uint64_t x = seed * 0x9E3779B97F4A7C15ull + w * 0xD1B54A32D192ED03ull + 1;

	x ^= x >> 31;
	x *= 0xBF58476D1CE4E5B9ull;
	x ^= x >> 29;
	x *= 0x94D049BB133111EBull;
	return x ^ (x >> 32);
}

/* Fills len bytes, each XORed with flip (0xFF: every byte differs from the
 * pattern - a poison that no delivered byte can be mistaken for). */
void pat_fill(uint8_t *b, size_t len, uint64_t seed, uint64_t base, uint8_t flip);
/* The first byte that differs from the pattern, or -1. */
long pat_check(const uint8_t *b, size_t len, uint64_t seed, uint64_t base);
uint8_t pat_byte(uint64_t seed, uint64_t pos);

/* A length in [1, 64 MiB]: each power of two as likely as the next. */
static inline size_t soak_len(uint64_t r)
{
	unsigned int e = (unsigned int)(r % 27);
	uint64_t len = (1ull << e) + ((r >> 8) % (1ull << e));

	return len > SOAK_MAX_LEN ? SOAK_MAX_LEN : (size_t)len;
}

/* What consumes the server's receives: the k-th such operation of a slot's
 * connection `gen` is a function of the run's seed, so the server knows what
 * to expect without being told. */
enum soak_recv_kind { RK_SEND, RK_SEND_IMM, RK_WRITE_IMM };

struct soak_recv_spec {
	enum soak_recv_kind kind;
	size_t len;
	uint32_t imm;
	uint64_t seed; /* the payload's pattern */
};

static inline struct soak_recv_spec soak_recv_spec(uint64_t seed, int slot, uint32_t gen,
                                                   uint32_t k)
{
	uint64_t h = soak_mix(seed ^ 0x52454356ull,
	                      (uint64_t)slot << 56 ^ (uint64_t)gen << 32 ^ (uint64_t)k);
	struct soak_recv_spec s = {
		.kind = (enum soak_recv_kind)(h % 3),
		.len = soak_len(soak_mix(h, 1)),
		.imm = (uint32_t)soak_mix(h, 2),
		.seed = soak_mix(h, 3),
	};
	return s;
}

/* --- out-of-band messages: a header, then what the type says --- */

enum soak_msg_type {
	MSG_PARAMS = 'P', /* client -> server: struct soak_params */
	MSG_CONN = 'C',   /* a connection blob for (slot, gen), both ways */
	MSG_MMAP = 'M',   /* server -> client: the exported memory */
	MSG_EVENT = 'E',  /* server -> client: slot's sync event */
	MSG_DEAD = 'D',   /* client -> server: (slot, gen) failed, disconnect it */
	MSG_GONE = 'G',   /* server -> client: done; the blob of (slot, gen + 1) */
	MSG_END = 'Z',    /* client -> server: struct soak_tally; the run is over */
	MSG_FINAL = 'F',  /* server -> client: struct soak_final */
};

struct soak_msg {
	uint8_t type;
	uint8_t slot;
	uint16_t pad;
	uint32_t gen;
};

struct soak_params {
	uint64_t seed;
	uint32_t arena_mb; /* the client's arena, the server's write area */
	uint32_t nrecv;    /* receives of 64 MiB the server keeps posted */
	uint32_t report_s;
	uint32_t seconds;
	double rss_growth_mb;
	char server_faults[512];
};

/* Receive-consuming operations per (slot, connection generation). */
struct soak_tally {
	uint32_t max_gen; /* generations used: 0..max_gen */
	uint32_t ok[SOAK_CONNS][SOAK_MAX_GEN];
	uint32_t failed[SOAK_CONNS][SOAK_MAX_GEN];
};

struct soak_final {
	uint64_t words[SOAK_CONNS][SOAK_WORDS]; /* the atomic area */
	uint64_t events[SOAK_CONNS];            /* the sync events' values */
	uint32_t verified[SOAK_CONNS][SOAK_MAX_GEN];
	uint64_t faults_injected;
	uint64_t receives;
	uint64_t bytes_received;
};

void soak_send(int fd, enum soak_msg_type type, int slot, uint32_t gen, const void *body,
               size_t len);
/* The next message (malloc'ed; *body and *len its payload); fails after
 * timeout_ms, or when the peer is gone. */
void *soak_recv(int fd, struct soak_msg *hdr, const void **body, size_t *len, int timeout_ms);

/* --- process samples: RSS, fds, threads; drift checks --- */

struct soak_proc {
	uint64_t start_ms, warm_ms;
	double rss_mb, peak_mb;
	double warm_peak_mb; /* peak RSS by the end of the warm-up */
	int fds, threads, warm_fds, warm_threads, max_fds, max_threads;
	double growth_mb; /* allowed growth of RSS after the warm-up */
	int samples;
};

void soak_proc_init(struct soak_proc *p, uint64_t duration_ms, double growth_mb);
void soak_proc_sample(struct soak_proc *p);
/* Prints the verdict; false when RSS, fds or threads grew past the bounds. */
bool soak_proc_verdict(const struct soak_proc *p, const char *who);

struct doca_dev *soak_open_dev(const char *iface);
uint64_t soak_now_ms(void);

int soak_server(int argc, char **argv);
int soak_client(int argc, char **argv);

#endif /* SDOCA_TESTS_SOAK_H_ */
