/*
 * softdoca tests: two RDMA contexts of this process connected over the fake
 * transport, for the tests of the soft NIC's parts (test_responder.c,
 * test_requester.c, test_completer.c). Side A and side B each have their
 * own progress engine, so their own NIC worker and fake transport worker;
 * a test crafts messages as if the other side's worker had sent them, posts
 * work requests straight to a QP, and reads what each worker sent.
 */
#ifndef SDOCA_TESTS_NIC_HARNESS_H_
#define SDOCA_TESTS_NIC_HARNESS_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <doca_pe.h>
#include <doca_rdma.h>
#include <softdoca.h>

#include "nic/nic.h"
#include "unit/fake_transport.h"
#include "unit/testing.h"

#define NH_MEM 4096
#define NH_GUARD 64 /* bytes after each side's mmap: outside every key */
#define NH_MAX_DONE 256

struct nh_side {
	struct doca_pe *pe;
	struct doca_rdma *rdma;
	struct doca_rdma_connection *conn; /* conn->qp: its QP, NULL once dropped */
	const void *blob;
	size_t blob_len;
	struct doca_mmap *mmap; /* mem[0, NH_MEM) with the side's access */
	unsigned int worker;    /* the fake transport's index */
	_Alignas(8) uint8_t mem[NH_MEM + NH_GUARD];
};

/* What nh_setup builds. */
struct nh_config {
	uint32_t access_a, access_b; /* the contexts' and mmaps' access */
	uint32_t send_queue;         /* 0: the default */
	uint32_t timeout_ms;         /* SOFTDOCA_TIMEOUT_MS at create, 0: unset */
};

struct nh {
	struct doca_dev *dev;
	struct nh_side a, b;
	/* Work requests posted with nh_wqe_init, in the order they completed. */
	_Atomic int done;
	struct nic_wqe *order[NH_MAX_DONE];
	doca_error_t status[NH_MAX_DONE];
};
extern struct nh nh;

/* Both sides started, connected, each having heard the other. */
void nh_setup(const struct nh_config *config);
/* Unpauses both sides, stops both contexts (bounded) and destroys all. */
void nh_teardown(void);

/* Progresses both sides' NIC workers a little (not their contexts). */
void nh_progress(void);

static inline double nh_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Progresses both sides until cond holds, failing after 10 s: the service
 * thread may be the one that takes a message in, whenever it looks. */
#define NH_UNTIL(cond)                                                    \
	do {                                                              \
		double nh_until_end_ = nh_now_s() + 10;                   \
		while (!(cond) && nh_now_s() < nh_until_end_)             \
			nh_progress();                                    \
		if (!(cond))                                              \
			fail_msg("still not true after 10 s: %s", #cond); \
	} while (0)

/* The other side. */
static inline struct nh_side *nh_peer(struct nh_side *s)
{
	return s == &nh.a ? &nh.b : &nh.a;
}

/* Hands m to side `to` as if its peer's worker had sent it, with the
 * connection's QP and secret filled in. */
void nh_inject(struct nh_side *to, struct nic_msg *m, const void *payload, size_t len);

/* The n-th message side s sent, decoded (raw too, if not NULL). */
void nh_sent(struct nh_side *s, unsigned int n, struct nic_msg *m, struct fake_sent *raw);
/* The index of the first message of this opcode s sent from the n-th on,
 * -1 if none. */
int nh_find_sent(struct nh_side *s, unsigned int n, uint8_t opcode);
static inline unsigned int nh_sent_count(struct nh_side *s)
{
	return fake_xport_sent_count(s->worker);
}

/* A work request of op on len bytes of buf, recorded in nh.order when done
 * (posted to a QP by nic_post_send, or to a side's receive queue). */
void nh_wqe_init(struct nic_wqe *w, enum nic_wr_op op, void *buf, size_t len);
/* ... naming byte `at` of side s's memory through its mmap. */
void nh_wqe_remote(struct nic_wqe *w, struct nh_side *s, size_t at);
/* A started mmap's key (what a peer's requests name). */
struct sdoca_key nh_mmap_key(struct doca_mmap *mmap);
doca_error_t nh_post_recv(struct nh_side *s, struct nic_wqe *w);
/* Exactly n work requests completed: these, in this order, with these
 * statuses. */
void nh_expect_done(int n, struct nic_wqe *const *order, const doca_error_t *status);
/* The status w completed with; fails if it has not completed. */
doca_error_t nh_status_of(const struct nic_wqe *w);
bool nh_completed(const struct nic_wqe *w);

/* The side's QP, which must still be there (a failed context drops it at
 * its next progress). */
struct nic_qp *nh_qp(struct nh_side *s);
/* Reads of a QP's state under its worker's lock. Failed: in error, or
 * dropped since by its context. */
bool nh_rts(struct nh_side *s);
bool nh_failed(struct nh_side *s);
uint32_t nh_expected_seq(struct nh_side *s);
uint32_t nh_next_seq(struct nh_side *s);

struct softdoca_rdma_counters nh_counters(struct nh_side *s);

#endif /* SDOCA_TESTS_NIC_HARNESS_H_ */
