/*
 * softdoca tests: what the host and the DPA thread of the RDMA program
 * share (rdma_kernels.c, rdma_main.c): handles, addresses, the command the
 * host asks for and the completions the thread saw.
 */
#ifndef SDOCA_TESTS_DPA_RDMA_COMMON_H_
#define SDOCA_TESTS_DPA_RDMA_COMMON_H_

#include <stdint.h>

enum rdma_cmd {
	CMD_NONE,
	CMD_RECEIVES,   /* target: 2 receives; initiator: 1 (for the loopback) */
	CMD_OPS,        /* write, read, send_imm, write_imm, atomic; a loopback send_imm */
	CMD_OPTIMIZE,   /* 4 writes with OPTIMIZE_REPORTS, held, then one with FLUSH */
	CMD_SIGNAL,     /* signal_set 40 then signal_add 2 to the target's event */
	CMD_BUFS,       /* a _buf_ write and read through buffer arrays on the DPA */
	CMD_HOLD,       /* a write without FLUSH: held */
	CMD_FLUSH,      /* a write with FLUSH: sends the held one and itself */
	CMD_ZERO_SEND,  /* the target posts a receive, the initiator sends 0 bytes into it */
	CMD_REMOTE_ERR, /* a write the peer's mmap does not allow: SEND_ERR */
	CMD_BAD_WR,     /* on bad_conn[bad_kind]: a held write, bad post bad_kind, a write */
	CMD_BAD_RECV,   /* bad receive bad_kind, then a send on bad_conn[bad_kind] */
};

/* The bad work requests of CMD_BAD_WR / CMD_BAD_RECV, one connection each
 * (a bad one fails its connection). */
enum bad_kind {
	BAD_LOCAL_MMAP,   /* write: a local mmap handle never registered */
	BAD_REMOTE_KIND,  /* write: a local mmap's handle as the remote one */
	BAD_REMOTE_RANGE, /* write: past the end of the remote mmap */
	BAD_READ_RO,      /* read into a read-only local mmap */
	BAD_LENGTH,       /* send: over the 2 GiB limit */
	BAD_FLAGS,        /* write: unknown flag bits */
	BAD_SIGNAL,       /* signal_add to a handle that is no remote-net event */
	BAD_NULL_BUF,     /* buf write: a null source buffer */
	NUM_BAD_WR,
	BAD_RECV_MMAP = NUM_BAD_WR, /* receive: a mmap handle never registered */
	BAD_RECV_RO,                /* receive into a read-only mmap */
	BAD_RECV_RANGE,             /* receive: past the end of its mmap */
	NUM_BAD,
};

/* What the victim thread's kernel does: a post with no queue to fail on,
 * which stops the thread (error state). */
enum victim_cmd {
	VICTIM_BAD_HANDLE, /* an RDMA handle that names nothing */
	VICTIM_BAD_CONN,   /* a connection id out of range */
	VICTIM_RECV_FULL,  /* one receive more than the receive queue holds */
	NUM_VICTIM,
};

/* Offsets in the target's buffer and the initiator's. */
#define TGT_WRITE_AT 0       /* 64 bytes written */
#define TGT_READ_AT 128      /* 64 bytes read back */
#define TGT_RECV_AT 1024     /* two 64-byte receives */
#define TGT_WRITE_IMM_AT 256 /* 16 bytes with an immediate */
#define TGT_ATOMIC_AT 512    /* a counter */
#define TGT_OPT_AT 2048      /* 5 x 64 bytes of the OPTIMIZE_REPORTS batch */
#define INIT_SRC_AT 0        /* 64 bytes of pattern */
#define INIT_READ_AT 256     /* where the read lands */
#define INIT_SEND_AT 512     /* 32 bytes sent, overwritten after the post */
#define INIT_LOOP_SEND_AT 640
#define INIT_LOOP_RECV_AT 768
#define BUF_SIZE 4096
#define RO_AT 3072            /* the read-only (for peers) KiB of init_buf */
#define TGT_HOLD_AT 3072      /* the held write, then the flushing one */
#define TGT_ZERO_RECV_AT 1536 /* the receive a 0-byte send lands in */
#define BAD_DONE_AT 1792      /* init_buf: a CMD_BAD_WR's held write lands here ... */
#define BAD_FLUSHED_AT 1856   /* ... its flushed one would land here (never) */
#define BAD_RECV_QUEUE 4      /* the bad context's receive queue */
#define ARR_ELEM 64
#define BUF_WRITE_SRC 0  /* initiator element written ... */
#define BUF_WRITE_DST 40 /* ... to this target element */
#define BUF_READ_SRC 2   /* target element read ... */
#define BUF_READ_DST 50  /* ... into this initiator element */

#define IMM_SEND 0xabcd0001u
#define IMM_WRITE 0x1234u
#define IMM_LOOP 0x77u

struct cqe_record {
	uint32_t type;
	uint32_t user_data;
	uint32_t immediate;
	uint32_t wr_index;
	uint32_t source; /* 0: the initiator's completion context, 1: the target's */
	uint32_t pad;
};

#define MAX_RECORDS 64

/* In DPA memory; the thread's local storage points at it. */
struct rdma_state {
	uint64_t init_rdma, tgt_rdma;
	uint64_t init_comp, tgt_comp;
	uint64_t done;      /* sync event: records so far */
	uint64_t signal;    /* the target's event, imported as a remote-net event */
	uint32_t conn0;     /* initiator's connection to the target */
	uint32_t conn_loop; /* initiator's connection to its own export */
	uint32_t init_mmap, init_remote_mmap; /* local, and its own export imported */
	uint32_t tgt_mmap, tgt_remote_mmap;   /* the target's local, and imported */
	uint32_t heap_mmap;                   /* over a DPA heap allocation */
	uint32_t pad;
	uint32_t ro_remote_mmap; /* init_buf's last KiB, exported without RDMA write */
	uint32_t pad2;
	uint64_t init_arr, tgt_remote_arr; /* 64-byte elements over init_buf and the target's */
	uint64_t init_buf, tgt_buf, heap_buf;
	uint64_t cmd, cmd_done;
	uint64_t seq, seq_done; /* a command runs once per seq (the same one again too) */
	/* the bad-post context (its completions are source 2) and its loopback
	 * connections, one per bad kind */
	uint64_t bad_rdma, bad_comp;
	uint32_t bad_conn[NUM_BAD];
	uint32_t bad_kind;
	uint32_t ro_local_mmap; /* a local mmap without LOCAL_READ_WRITE */
	uint64_t ro_local_buf;
	/* the victim thread */
	uint64_t victim_cmd;
	uint64_t victim_runs;  /* activations */
	uint64_t victim_after; /* the kernel went on after its bad post (never) */
	uint64_t num_records;
	struct cqe_record records[MAX_RECORDS];
};

#endif /* SDOCA_TESTS_DPA_RDMA_COMMON_H_ */
