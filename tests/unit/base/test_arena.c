/*
 * test_arena.c: base's one arena (base_arena.h): zeroed, aligned memory; chunk
 * sizes that start where the owner says and double; a reset that keeps every
 * chunk so the next round mallocs nothing; and, with -Darena_debug=true, one
 * malloc per object of exactly the size asked (so ASan sees a one-byte overrun).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base_arena.h"

#if defined(DRASIM_ARENA_DEBUG) && DRASIM_ARENA_DEBUG
#define DEBUG_MODE 1
#else
#define DEBUG_MODE 0
#endif

static gboolean
all_zero(const char *p, gsize n)
{
	for (gsize i = 0; i < n; i++) {
		if (p[i] != 0) {
			return FALSE;
		}
	}
	return TRUE;
}

/* Every allocation is zeroed and 16-aligned, also memory handed out again after a reset. */
static void
test_arena__zeroed_and_aligned(void **state)
{
	BaseArena arena;

	base_arena_init(&arena, 256);
	for (int round = 0; round < 2; round++) {
		for (gsize size = 0; size < 40; size++) {
			char *p = base_arena_alloc(&arena, size);

			assert_non_null(p);
			assert_int_equal((guintptr)p % 16, 0);
			assert_true(all_zero(p, size));
			memset(p, 0xff, size); /* dirty it for the next round */
		}
		base_arena_reset(&arena);
	}
	base_arena_clear(&arena);
}

/* dup copies, returns NULL for nothing; strndup keeps NULs inside and ends with one. */
static void
test_arena__dup_and_strndup(void **state)
{
	g_autoptr(BaseArena) arena = base_arena_new();
	const char src[] = { 'a', '\0', 'b' };

	assert_null(base_arena_dup(arena, src, 0));
	char *copy = base_arena_dup(arena, src, sizeof src);
	assert_memory_equal(copy, src, sizeof src);
	char *s = base_arena_strndup(arena, src, sizeof src);
	assert_memory_equal(s, src, sizeof src);
	assert_int_equal(s[3], '\0');
}

/*
 * Chunk sizes. Init at 100 bytes: allocations of 16 bytes fill the first chunk
 * 6 times (96 of 100); the 7th takes a new chunk of twice the size, 200, so the
 * capacity is 100 + 200 = 300. A 1,008-byte request (a multiple of 16, so no
 * rounding) fits no chunk: it gets a chunk of its own size (more than the 400
 * that was next), 300 + 1,008 = 1,308. A reset keeps all three chunks: seven
 * 16-byte and one 1,008-byte allocation again add nothing. In debug mode every
 * object is its own chunk of exactly its size: 7 x 16 + 1,008 = 1,120, and a
 * reset frees them all (0).
 */
static void
test_arena__chunks_double_and_reset_keeps_them(void **state)
{
	BaseArena arena;

	/* [round][after the 16-byte ones, after the 1,008, after the reset] */
	static const gsize want[2][3] = {
		{ DEBUG_MODE ? 7 * 16 : 300, DEBUG_MODE ? 1120 : 1308, DEBUG_MODE ? 0 : 1308 },
		{ DEBUG_MODE ? 7 * 16 : 1308, DEBUG_MODE ? 1120 : 1308, DEBUG_MODE ? 0 : 1308 },
	};

	base_arena_init(&arena, 100);
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < 7; i++) {
			base_arena_alloc(&arena, 16);
		}
		assert_int_equal(base_arena_capacity(&arena), want[round][0]);
		base_arena_alloc(&arena, 1008);
		assert_int_equal(base_arena_capacity(&arena), want[round][1]);
		base_arena_reset(&arena);
		assert_int_equal(base_arena_capacity(&arena), want[round][2]);
	}
	base_arena_clear(&arena);
	assert_int_equal(base_arena_capacity(&arena), 0);
}

/* Outside debug mode a reset hands out the same memory again, in the same order.
 * In debug mode it frees every object (so ASan reports a use after the reset). */
static void
test_arena__reset_reuses_memory(void **state)
{
	BaseArena arena;
	gpointer first[3];

	base_arena_init(&arena, 64);
	for (int i = 0; i < 3; i++) {
		first[i] = base_arena_alloc(&arena, 48);
	}
	base_arena_reset(&arena);
	if (DEBUG_MODE) {
		assert_int_equal(base_arena_capacity(&arena), 0);
	} else {
		for (int i = 0; i < 3; i++) {
			assert_ptr_equal(base_arena_alloc(&arena, 48), first[i]);
		}
	}
	base_arena_clear(&arena);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arena__zeroed_and_aligned),
		cmocka_unit_test(test_arena__dup_and_strndup),
		cmocka_unit_test(test_arena__chunks_double_and_reset_keeps_them),
		cmocka_unit_test(test_arena__reset_reuses_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
