/*
 * celeval.c: the CEL family of `drasim bench`: DRA selector evaluation over N
 * synthetic devices, a fixed number of passes per selector.
 *
 * Unlike tools/bench/cel/bench_cel.c (the peer comparison, which by default runs
 * each selector for at least 300 ms), the work here is fixed: one warm-up pass,
 * then exactly --passes timed passes, so the instruction count is the same on
 * every run. Under callgrind the counters are zeroed before the timed passes
 * and dumped after them (client requests; no-ops outside valgrind), one dump
 * per selector, so the harness reads the instructions of the evaluations
 * alone, without device generation or compilation.
 *
 * Output: one JSON line per selector:
 *   {"name": "cel_startswith", "evals_per_pass": N, "pass_ns": [t1, ...]}
 * The selector set is the one of issue 3 (the same expressions bench_cel uses).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <glib.h>
#ifdef HAVE_VALGRIND_CALLGRIND_H
#include <valgrind/callgrind.h>
#else /* without valgrind's headers the harness counts the whole process */
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_DUMP_STATS_AT(name) ((void)(name))
#endif

#include "../cel/cel_bench_devices.h"

static gint64
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (gint64)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Runs one selector: warm-up, then `passes` timed passes; prints its JSON line. */
static gboolean
run_selector(CelDraEnv *env,
             CelDraEval *ev,
             CelDraDevice **devs,
             guint n,
             gint64 *pass_ns,
             guint passes,
             guint s)
{
	CelDraDiag *diag = NULL;
	CelDraSelector *sel = cel_dra_selector_compile(env, cel_bench_selectors[s].expr, &diag);
	guint errors = 0;

	if (sel == NULL) {
		fprintf(stderr, "celeval: %s: %s\n", cel_bench_selectors[s].bench_name, diag->text);
		return FALSE;
	}
	for (guint i = 0; i < n; i++) { /* warm-up: the evaluator's arenas reach steady size */
		errors += cel_dra_selector_eval(sel, ev, devs[i], NULL) == CEL_DRA_ERROR;
	}
	/* The pass times are printed after the dump: printf's cost depends on the digits. */
	CALLGRIND_ZERO_STATS;
	for (guint p = 0; p < passes; p++) {
		gint64 start = now_ns();

		for (guint i = 0; i < n; i++) {
			errors += cel_dra_selector_eval(sel, ev, devs[i], NULL) == CEL_DRA_ERROR;
		}
		pass_ns[p] = now_ns() - start;
	}
	CALLGRIND_DUMP_STATS_AT(cel_bench_selectors[s].bench_name);
	printf("{\"name\": \"%s\", \"evals_per_pass\": %u, \"pass_ns\": [",
	       cel_bench_selectors[s].bench_name, n);
	for (guint p = 0; p < passes; p++) {
		printf("%s%" G_GINT64_FORMAT, p ? ", " : "", pass_ns[p]);
	}
	printf("]}\n");
	cel_dra_selector_free(sel);
	if (errors > 0) {
		fprintf(stderr, "celeval: %s: %u evaluation errors\n",
		        cel_bench_selectors[s].bench_name, errors);
	}
	return errors == 0;
}

int
main(int argc, char **argv)
{
	gint devices = 100000, passes = 5;
	GOptionEntry entries[] = {
		{ "devices", 'n', 0, G_OPTION_ARG_INT, &devices, "synthetic devices (100000)",
		  "N" },
		{ "passes", 'p', 0, G_OPTION_ARG_INT, &passes, "timed passes per selector (5)",
		  "P" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("- CEL selector evaluation benchmark");
	g_autoptr(GError) error = NULL;
	gboolean ok = TRUE;

	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &error) || devices <= 0 || passes <= 0) {
		fprintf(stderr, "celeval: %s\n",
		        error ? error->message : "--devices and --passes must be positive");
		return 2;
	}

	CelDraOptions o = CEL_DRA_OPTIONS_INIT;
	CelDraEnv *env = cel_dra_env_new(&o);
	CelDraEval *ev = cel_dra_eval_new(env);
	CelDraDevice **devs = g_new(CelDraDevice *, devices);
	g_autofree gint64 *pass_ns = g_new0(gint64, passes);

	for (gint i = 0; i < devices; i++) {
		devs[i] = cel_bench_device_new((guint)i, FALSE);
	}
	for (guint s = 0; s < G_N_ELEMENTS(cel_bench_selectors) && ok; s++) {
		ok = run_selector(env, ev, devs, (guint)devices, pass_ns, (guint)passes, s);
	}
	for (gint i = 0; i < devices; i++) {
		cel_dra_device_free(devs[i]);
	}
	g_free(devs);
	cel_dra_eval_free(ev);
	cel_dra_env_unref(env);
	return ok ? 0 : 1;
}
