/*
 * The clean-up orders DOCA accepts. DOCA's RDMA programming guide calls the
 * order of its clean-up steps non-binding (buffers and inventory, memory
 * maps, the RDMA context), and DOCA's samples stop an imported mmap before
 * they destroy it. Every order of those groups, with and without the
 * optional stops, must succeed after real traffic and leave no memory key
 * behind; the device is closed last, as DOCA's samples do.
 */
#include <stdio.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_mmap.h>
#include <softdoca.h>

#include "unit/rdma_side.h"

enum group { INVENTORY, LOCAL_MMAP, REMOTE_MMAP, CONTEXTS, NUM_GROUPS };

struct setup {
	struct doca_dev *dev;
	struct doca_pe *pe;
	struct rdma_side a, b;
	struct doca_mmap *local;  /* b's memory, exported */
	struct doca_mmap *source; /* a's memory */
	struct doca_mmap *remote; /* a's import of b's memory */
	struct doca_buf_inventory *inv;
	char target[64];
	char text[64];
};

struct write_result {
	bool done;
	doca_error_t status;
};

static void write_done(struct doca_rdma_task_write *task, union doca_data task_data,
                       union doca_data ctx_data)
{
	struct write_result *r = task_data.ptr;

	(void)ctx_data;
	r->done = true;
	r->status = doca_task_get_status(doca_rdma_task_write_as_task(task));
	doca_task_free(doca_rdma_task_write_as_task(task));
}

/* Two connected contexts, b's memory imported by a, and one write of a's
 * text into it, checked; every buffer is released again afterwards. */
static void set_up(struct setup *s)
{
	struct write_result result = { 0 };
	struct doca_rdma_task_write *task;
	struct doca_buf *src, *dst;
	const void *blob;
	size_t blob_len;

	memset(s->target, 0, sizeof(s->target));
	snprintf(s->text, sizeof(s->text), "clean-up order test");
	assert_doca_ok(doca_pe_create(&s->pe));
	/* a writes: its write task is configured before it starts */
	assert_doca_ok(doca_rdma_create(s->dev, &s->a.rdma));
	assert_doca_ok(doca_rdma_task_write_set_conf(s->a.rdma, write_done, write_done, 4));
	assert_doca_ok(doca_pe_connect_ctx(s->pe, doca_rdma_as_ctx(s->a.rdma)));
	assert_doca_ok(doca_ctx_start(doca_rdma_as_ctx(s->a.rdma)));
	assert_doca_ok(doca_rdma_export(s->a.rdma, &s->a.blob, &s->a.len, &s->a.conn));
	rdma_side_start(s->dev, s->pe, &s->b); /* b allows writes */
	assert_doca_ok(doca_rdma_connect(s->a.rdma, s->b.blob, s->b.len, s->a.conn));
	assert_doca_ok(doca_rdma_connect(s->b.rdma, s->a.blob, s->a.len, s->b.conn));

	s->local =
	        rdma_started_mmap(s->dev, s->target, sizeof(s->target),
	                          DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_WRITE);
	s->source = rdma_started_mmap(s->dev, s->text, sizeof(s->text),
	                              DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	assert_doca_ok(doca_mmap_export_rdma(s->local, s->dev, &blob, &blob_len));
	assert_doca_ok(doca_mmap_create_from_export(NULL, blob, blob_len, s->dev, &s->remote));
	assert_doca_ok(doca_buf_inventory_create(4, &s->inv));
	assert_doca_ok(doca_buf_inventory_start(s->inv));

	for (int i = 0; i < 1000000 && !(rdma_running(s->a.rdma) && rdma_running(s->b.rdma)); i++)
		doca_pe_progress(s->pe);
	assert_doca_ok(doca_buf_inventory_buf_get_by_data(s->inv, s->source, s->text,
	                                                  strlen(s->text) + 1, &src));
	assert_doca_ok(doca_buf_inventory_buf_get_by_addr(s->inv, s->remote, s->target,
	                                                  sizeof(s->target), &dst));
	assert_doca_ok(doca_rdma_task_write_allocate_init(
	        s->a.rdma, s->a.conn, src, dst, (union doca_data){ .ptr = &result }, &task));
	assert_doca_ok(doca_task_submit(doca_rdma_task_write_as_task(task)));
	for (int i = 0; i < 10000000 && !result.done; i++)
		doca_pe_progress(s->pe);
	assert_true(result.done);
	assert_doca_ok(result.status);
	assert_string_equal(s->target, s->text);
	assert_doca_ok(doca_buf_dec_refcount(src, NULL));
	assert_doca_ok(doca_buf_dec_refcount(dst, NULL));
}

static void tear_down_group(struct setup *s, enum group g, bool with_stops)
{
	switch (g) {
	case INVENTORY:
		if (with_stops)
			assert_doca_ok(doca_buf_inventory_stop(s->inv));
		assert_doca_ok(doca_buf_inventory_destroy(s->inv));
		break;
	case LOCAL_MMAP:
		if (with_stops) {
			assert_doca_ok(doca_mmap_stop(s->local));
			assert_doca_ok(doca_mmap_stop(s->source));
		}
		assert_doca_ok(doca_mmap_destroy(s->local));
		assert_doca_ok(doca_mmap_destroy(s->source));
		break;
	case REMOTE_MMAP:
		if (with_stops)
			assert_doca_ok(doca_mmap_stop(s->remote));
		assert_doca_ok(doca_mmap_destroy(s->remote));
		break;
	case CONTEXTS:
		rdma_side_stop(s->pe, &s->a);
		rdma_side_stop(s->pe, &s->b);
		assert_doca_ok(doca_pe_destroy(s->pe));
		break;
	default:
		fail();
	}
}

/* The 24 orders of four groups: the base-4 numbers of four distinct digits. */
static bool order_from(unsigned int code, enum group order[NUM_GROUPS])
{
	unsigned int seen = 0;

	for (int i = 0; i < NUM_GROUPS; i++, code /= NUM_GROUPS) {
		order[i] = (enum group)(code % NUM_GROUPS);
		if (seen & (1u << order[i]))
			return false;
		seen |= 1u << order[i];
	}
	return true;
}

static void test_every_order(void **state)
{
	struct doca_devinfo **list;
	uint32_t n;
	unsigned int keys = softdoca_num_memory_keys(), orders = 0;

	(void)state;
	for (unsigned int code = 0; code < NUM_GROUPS * NUM_GROUPS * NUM_GROUPS * NUM_GROUPS;
	     code++) {
		enum group order[NUM_GROUPS];

		if (!order_from(code, order))
			continue;
		for (int with_stops = 0; with_stops < 2; with_stops++) {
			struct setup s = { 0 };

			assert_doca_ok(doca_devinfo_create_list(&list, &n));
			assert_true(n > 0);
			assert_doca_ok(doca_dev_open(list[0], &s.dev));
			assert_doca_ok(doca_devinfo_destroy_list(list));
			set_up(&s);
			for (int i = 0; i < NUM_GROUPS; i++)
				tear_down_group(&s, order[i], with_stops);
			assert_doca_ok(doca_dev_close(s.dev));
			assert_int_equal(softdoca_num_memory_keys(), keys);
		}
		orders++;
	}
	assert_int_equal(orders, 24);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
