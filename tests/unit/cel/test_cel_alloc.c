/*
 * test_cel_alloc.c: evaluation allocates nothing in steady state.
 *
 * Two independent counters: the activation arena's capacity must not grow
 * after a warm-up evaluation, and (outside sanitizer builds, on glibc) a
 * malloc/calloc/realloc interposer counts heap calls during the measured
 * evaluations, which must be zero. Also prints ns per evaluation.
 */
#include <setjmp.h> /* cmocka 1.x needs these four before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cel-private.h"

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
#define COUNT_MALLOC 1
static volatile gsize heap_calls;
static volatile gboolean counting;

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t m);
void *__libc_realloc(void *p, size_t n);

void *
malloc(size_t n)
{
	if (counting) {
		heap_calls++;
	}
	return __libc_malloc(n);
}

void *
calloc(size_t n, size_t m)
{
	if (counting) {
		heap_calls++;
	}
	return __libc_calloc(n, m);
}

void *
realloc(void *p, size_t n)
{
	if (counting) {
		heap_calls++;
	}
	return __libc_realloc(p, n);
}
#endif

static const char *const exprs[] = {
	"x.driver == 'gpu.nvidia.com' && x.attrs['gpu.nvidia.com'].type == 'gpu'",
	"x.attrs['gpu.nvidia.com'].productName.startsWith('NVIDIA H100')",
	"x.mem >= 40 * 1024 && [1, 2, 3].exists(i, i == x.count)",
	"x.attrs['gpu.nvidia.com'].productName in ['A100', 'NVIDIA H100 80GB HBM3']",
	"[1, 2, 3].map(v, v * x.count).filter(v, v > 2).size() == 2",
	"x.attrs.missing.type == 'gpu' || true",
};

static CelValue
str(const char *s)
{
	return cel_value_string(s, strlen(s));
}

static void
test_alloc__steady_state_is_zero(void **state)
{
	g_autoptr(CelEnv) env = cel_env_new();
	guint slot = cel_env_declare_var(env, "x", cel_type_dyn());

	/* x = {driver, count, mem, attrs: {gpu.nvidia.com: {type, productName}}} */
	CelValue gk[2] = { str("type"), str("productName") };
	CelValue gv[2] = { str("gpu"), str("NVIDIA H100 80GB HBM3") };
	CelMap gpu = { NULL, 2, 2, gk, gv };
	CelValue ak[1] = { str("gpu.nvidia.com") };
	CelValue av[1] = { cel_value_map(&gpu) };
	CelMap attrs = { NULL, 1, 1, ak, av };
	CelValue xk[4] = { str("driver"), str("count"), str("mem"), str("attrs") };
	CelValue xv[4] = { str("gpu.nvidia.com"), cel_value_int(2), cel_value_int(81920),
		           cel_value_map(&attrs) };
	CelMap x = { NULL, 4, 4, xk, xv };

	g_autoptr(CelActivation) act = cel_activation_new(env);
	cel_activation_set(act, slot, cel_value_map(&x));
	for (guint e = 0; e < G_N_ELEMENTS(exprs); e++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(CelProgram) p = cel_program_compile(env, exprs[e], &error);
		assert_non_null(p);
		CelValue warm = cel_program_eval(p, act); /* grows the arena once */
		assert_int_equal(warm.kind, CEL_KIND_BOOL);
		assert_true(warm.b);
		cel_activation_reset(act);
		gsize cap = base_arena_capacity(&act->scratch);
		const guint n = 20000;
		gint64 t0 = g_get_monotonic_time();
#ifdef COUNT_MALLOC
		heap_calls = 0;
		counting = TRUE;
#endif
		for (guint i = 0; i < n; i++) {
			CelValue v = cel_program_eval(p, act);
			if (v.kind != CEL_KIND_BOOL || !v.b) {
				fail_msg("%s gave a different result", exprs[e]);
			}
			cel_activation_reset(act);
		}
#ifdef COUNT_MALLOC
		counting = FALSE;
		assert_int_equal(heap_calls, 0);
#endif
		gint64 t1 = g_get_monotonic_time();
		assert_int_equal(base_arena_capacity(&act->scratch), cap);
		printf("# %7.1f ns/eval  %s\n", (double)(t1 - t0) * 1000.0 / n, exprs[e]);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc__steady_state_is_zero),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
