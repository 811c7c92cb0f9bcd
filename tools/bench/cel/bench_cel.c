/*
 * bench_cel.c: DRA selector evaluation speed and heap use, over 100,000 synthetic devices.
 *
 * Each selector is compiled once, run over every device once to warm up, then timed over
 * several passes (at least 7 and 300 ms); the figure is the median pass, which a busy machine
 * disturbs less than the mean (peers.mjs does the same). malloc/calloc/realloc are interposed (this
 * executable defines them and forwards to glibc's __libc_* entry points), so every heap allocation
 * made during the timed passes, by drasim or by GLib, is counted. Output: one tab-separated line
 * per selector: name, ns per evaluation, allocations per evaluation, number of devices matched. The
 * device generator is mirrored in peers.mjs so the Node.js peers see the same devices.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glib.h>

#include "cel_bench_devices.h"

/* ---- allocation counting ---- */

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void __libc_free(void *p);

static volatile gsize alloc_count;

void *
malloc(size_t size)
{
	alloc_count++;
	return __libc_malloc(size);
}

void *
calloc(size_t n, size_t size)
{
	alloc_count++;
	return __libc_calloc(n, size);
}

void *
realloc(void *p, size_t size)
{
	alloc_count++;
	return __libc_realloc(p, size);
}

void
free(void *p)
{
	__libc_free(p);
}

/* ---- synthetic devices: cel_bench_devices.h (keep in step with peers.mjs) ---- */

#define N_DEVICES 100000

#define MAX_PASSES 1024

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : (x > y ? 1 : 0);
}

static gint64
now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (gint64)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int
main(int argc, char **argv)
{
	guint n = argc > 1 ? (guint)atoi(argv[1]) : N_DEVICES;
	int only = argc > 2 ? atoi(argv[2]) : -1; /* run one selector (for profiling) */
	/* a fixed number of timed passes (for callgrind: evaluations = n * (1 + passes)) */
	guint fixed_passes = argc > 3 ? (guint)atoi(argv[3]) : 0;
	CelDraOptions o = CEL_DRA_OPTIONS_INIT;
	CelDraEnv *env = cel_dra_env_new(&o);
	CelDraEval *ev = cel_dra_eval_new(env);
	CelDraDevice **devs = g_new(CelDraDevice *, n);

	for (guint i = 0; i < n; i++) {
		devs[i] = cel_bench_device_new(i, TRUE);
	}
	printf("# selector\tns/eval\tallocs/eval\tmatched\n");
	for (guint s = 0; s < G_N_ELEMENTS(cel_bench_selectors); s++) {
		if (only >= 0 && (guint)only != s) {
			continue;
		}
		CelDraDiag *diag = NULL;
		CelDraSelector *sel =
		        cel_dra_selector_compile(env, cel_bench_selectors[s].expr, &diag);
		if (sel == NULL) {
			fprintf(stderr, "%s: %s\n", cel_bench_selectors[s].peer_name, diag->text);
			return 1;
		}
		guint matched = 0, errors = 0;
		for (guint i = 0; i < n; i++) { /* warm-up: arenas reach their steady size */
			matched += cel_dra_selector_eval(sel, ev, devs[i], NULL) == CEL_DRA_TRUE;
		}
		static double pass_ns[MAX_PASSES]; /* per evaluation, one entry per pass */
		guint passes = 0;
		gsize allocs_before = alloc_count;
		gint64 start = now_ns(), elapsed;
		do {
			gint64 t0 = now_ns();
			for (guint i = 0; i < n; i++) {
				errors += cel_dra_selector_eval(sel, ev, devs[i], NULL) ==
				          CEL_DRA_ERROR;
			}
			pass_ns[passes++] = (double)(now_ns() - t0) / n;
			elapsed = now_ns() - start;
		} while (fixed_passes > 0
		                 ? passes < fixed_passes
		                 : passes < MAX_PASSES && (passes < 7 || elapsed < 300000000));
		gsize allocs = alloc_count - allocs_before;
		double evals = (double)passes * n;
		qsort(pass_ns, passes, sizeof pass_ns[0], cmp_double);
		printf("%s\t%.1f\t%.4f\t%u%s\n", cel_bench_selectors[s].peer_name,
		       pass_ns[passes / 2], (double)allocs / evals, matched,
		       errors > 0 ? "\t(errors!)" : "");
		cel_dra_selector_free(sel);
	}
	for (guint i = 0; i < n; i++) {
		cel_dra_device_free(devs[i]);
	}
	g_free(devs);
	cel_dra_eval_free(ev);
	cel_dra_env_unref(env);
	return 0;
}
