/*
 * Unit tests: the memory-key table, including revocation under concurrent
 * lookups (holders) and peeks (inside a section the quiesce hook waits out).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include <doca_types.h>

#include "core/keys.h"
#include "unit/testing.h"

static struct sdoca_key_region region_of(uint64_t addr, uint64_t len)
{
	return (struct sdoca_key_region){ .addr = addr,
		                          .len = len,
		                          .access = DOCA_ACCESS_FLAG_RDMA_WRITE,
		                          .kind = SDOCA_KEY_MMAP };
}

static void test_register_lookup_revoke(void **state)
{
	struct sdoca_key_region r = region_of(0x1000, 64), got;
	struct sdoca_key key, wrong;
	uint32_t before = sdoca_keys_live();
	uint8_t wire[SDOCA_KEY_WIRE_SIZE];

	(void)state;
	assert_doca_ok(sdoca_keys_register(&r, &key));
	assert_int_not_equal(key.index, 0);
	assert_int_equal(sdoca_keys_live(), before + 1);
	assert_doca_ok(sdoca_keys_acquire(&key, &got));
	assert_int_equal(got.addr, 0x1000);
	assert_int_equal(got.len, 64);
	assert_int_equal(got.access, DOCA_ACCESS_FLAG_RDMA_WRITE);
	sdoca_keys_release(&key);

	/* Encoding is 16 bytes and lossless. */
	sdoca_key_encode(&key, wire);
	sdoca_key_decode(wire, &wrong);
	assert_memory_equal(&wrong, &key, sizeof(key));

	/* A guessed tag (one bit off) finds nothing. */
	wrong.tag_lo ^= 1;
	assert_doca_err(sdoca_keys_acquire(&wrong, &got), DOCA_ERROR_NOT_FOUND);
	wrong = key;
	wrong.index = 0;
	assert_doca_err(sdoca_keys_acquire(&wrong, &got), DOCA_ERROR_NOT_FOUND);
	wrong.index = 0x7fffffff;
	assert_doca_err(sdoca_keys_acquire(&wrong, &got), DOCA_ERROR_NOT_FOUND);

	sdoca_keys_revoke(&key);
	assert_int_equal(sdoca_keys_live(), before);
	assert_doca_err(sdoca_keys_acquire(&key, &got), DOCA_ERROR_NOT_FOUND);
	sdoca_keys_revoke(&key); /* twice is harmless */
}

static void test_slot_reuse_changes_tag(void **state)
{
	struct sdoca_key_region r = region_of(0x2000, 8), got;
	struct sdoca_key first, second;

	(void)state;
	assert_doca_ok(sdoca_keys_register(&r, &first));
	sdoca_keys_revoke(&first);
	assert_doca_ok(sdoca_keys_register(&r, &second));
	/* The slot comes back with a fresh tag: the old key stays dead. */
	assert_int_equal(first.index, second.index);
	assert_false(first.tag_lo == second.tag_lo && first.tag_hi == second.tag_hi);
	assert_doca_err(sdoca_keys_acquire(&first, &got), DOCA_ERROR_NOT_FOUND);
	assert_doca_ok(sdoca_keys_acquire(&second, &got));
	sdoca_keys_release(&second);
	sdoca_keys_revoke(&second);
}

static void test_many_keys(void **state)
{
	enum { N = 3000 };
	static struct sdoca_key keys[N];
	struct sdoca_key_region got;

	(void)state;
	for (int i = 0; i < N; i++) {
		struct sdoca_key_region r = region_of((uint64_t)i << 12, 4096);

		assert_doca_ok(sdoca_keys_register(&r, &keys[i]));
	}
	for (int i = 0; i < N; i++) {
		assert_doca_ok(sdoca_keys_acquire(&keys[i], &got));
		assert_int_equal(got.addr, (uint64_t)i << 12);
		sdoca_keys_release(&keys[i]);
	}
	for (int i = 0; i < N; i++)
		sdoca_keys_revoke(&keys[i]);
}

/* Readers hammer one key while it is revoked: once revoke returns, no reader
 * may still be inside its use of the region. */
struct race {
	struct sdoca_key key;
	_Atomic int inside;
	_Atomic bool stop;
	_Atomic long hits;
};

static void *reader(void *arg)
{
	struct race *race = arg;
	struct sdoca_key_region got;

	while (!atomic_load(&race->stop)) {
		if (sdoca_keys_acquire(&race->key, &got) == DOCA_SUCCESS) {
			atomic_fetch_add(&race->inside, 1);
			atomic_fetch_add(&race->hits, 1);
			atomic_fetch_sub(&race->inside, 1);
			sdoca_keys_release(&race->key);
		}
	}
	return NULL;
}

enum { READERS = 3 };

/* Starts READERS threads running fn on race; returns once they have used
 * the key ten more times. */
static void start_readers(struct race *race, void *(*fn)(void *), pthread_t *threads)
{
	long until = atomic_load(&race->hits) + 10;

	atomic_store(&race->stop, false);
	for (int i = 0; i < READERS; i++)
		assert_int_equal(pthread_create(&threads[i], NULL, fn, race), 0);
	while (atomic_load(&race->hits) < until)
		sched_yield();
}

static void stop_readers(struct race *race, pthread_t *threads)
{
	atomic_store(&race->stop, true);
	for (int i = 0; i < READERS; i++)
		pthread_join(threads[i], NULL);
}

static void test_revoke_waits_for_holders(void **state)
{
	enum { ROUNDS = 200 };
	pthread_t threads[READERS];
	struct race race = { 0 };

	(void)state;
	for (int round = 0; round < ROUNDS; round++) {
		struct sdoca_key_region r = region_of(0x3000, 8);

		assert_doca_ok(sdoca_keys_register(&r, &race.key));
		start_readers(&race, reader, threads);
		sdoca_keys_revoke(&race.key);
		assert_int_equal(atomic_load(&race.inside), 0);
		stop_readers(&race, threads);
	}
}

/* Peekers use the region inside a critical section (here a mutex, in the
 * soft NIC a worker's lock) that the quiesce hook waits out: once revoke
 * returns, none is inside, and later peeks find nothing. */
static pthread_mutex_t section = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int quiesced;

static void quiesce_section(void)
{
	pthread_mutex_lock(&section);
	pthread_mutex_unlock(&section);
	atomic_fetch_add(&quiesced, 1);
}

static _Atomic int peeked_wrong;

static void *peeker(void *arg)
{
	struct race *race = arg;

	while (!atomic_load(&race->stop)) {
		const struct sdoca_key_region *got;

		pthread_mutex_lock(&section);
		got = sdoca_keys_peek(&race->key);
		if (got) {
			if (got->addr != 0x4000)
				atomic_fetch_add(&peeked_wrong, 1);
			atomic_fetch_add(&race->inside, 1);
			atomic_fetch_add(&race->hits, 1);
			sched_yield(); /* a long access: the revoke must wait it out */
			atomic_fetch_sub(&race->inside, 1);
		}
		pthread_mutex_unlock(&section);
	}
	return NULL;
}

static void test_revoke_waits_out_peekers(void **state)
{
	enum { ROUNDS = 100 };
	pthread_t threads[READERS];
	struct race race = { 0 };

	(void)state;
	sdoca_keys_set_quiesce(quiesce_section);
	for (int round = 0; round < ROUNDS; round++) {
		struct sdoca_key_region r = region_of(0x4000, 8);
		struct sdoca_key wrong;

		assert_doca_ok(sdoca_keys_register(&r, &race.key));
		wrong = race.key;
		wrong.tag_hi ^= 1;
		assert_null(sdoca_keys_peek(&wrong));
		assert_non_null(sdoca_keys_peek(&race.key));
		start_readers(&race, peeker, threads);
		sdoca_keys_revoke(&race.key);
		assert_int_equal(atomic_load(&race.inside), 0);
		assert_int_equal(atomic_load(&quiesced), round + 1);
		assert_null(sdoca_keys_peek(&race.key));
		stop_readers(&race, threads);
	}
	sdoca_keys_set_quiesce(NULL);
	assert_int_equal(atomic_load(&peeked_wrong), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_register_lookup_revoke),
		cmocka_unit_test(test_slot_reuse_changes_tag),
		cmocka_unit_test(test_many_keys),
		cmocka_unit_test(test_revoke_waits_for_holders),
		cmocka_unit_test(test_revoke_waits_out_peekers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
