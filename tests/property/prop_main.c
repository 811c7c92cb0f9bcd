/*
 * prop_main.c: `prop-allocator [--seed N] [--cases M | --case I] [--print] [--no-quirks] [--replay
 * FILE]`, the allocator property runner (docs/testing.md, "Allocator properties").
 *
 * Generates M cases from seed N (prop_gen.c), reads each like a file
 * (prop_world.c), runs every property (prop_run.c), and for the first failure
 * prints the case minimised (prop_edit.c) as a replayable file. --replay runs
 * the properties on one such file; --print writes each case out first;
 * --no-quirks switches DraQuirks off (the intended semantics). Ends with counts, exclusions
 * with their reasons, the time taken, and "N passed, N failed, N skipped"; exits 1 when a case
 * failed, 2 on bad arguments or input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "prop_run.h"

#define DEFAULT_SEED  20261207
#define DEFAULT_CASES 6000

typedef struct {
	guint passed;
	guint failed;
	guint complete_checked;
	guint allocated;
	GHashTable *excluded; /* reason -> count */
	gboolean minimised;
	gboolean print; /* --print: each case as a replayable file first */
} Tally;

static void
report_failure(const PropWorld *w, PropVerdict *v, guint salt, Tally *t)
{
	g_autofree char *text = prop_world_write(w, v->property);
	printf("FAIL seed %" G_GUINT64_FORMAT " case %u: %s\n%s  answer: %s\n", w->seed,
	       w->case_index, v->property, v->why->str, v->answer->str);
	if (t->minimised) {
		return; /* one minimised case per run keeps CI output short */
	}
	t->minimised = TRUE;
	guint steps = 0;
	g_autoptr(PropWorld) small = prop_minimise(w, v->property, salt, &steps);
	PropVerdict sv;
	prop_run_world(small, salt, &sv);
	g_autofree char *small_text = prop_world_write(small, v->property);
	printf("minimised in %u steps (replay: prop-allocator --replay FILE):\n%s\n"
	       "# end of case; on it:\n%s  answer: %s\n",
	       steps, small_text, sv.why->str, sv.answer->str);
	prop_verdict_clear(&sv);
}

static void
tally_case(const PropWorld *w, guint salt, Tally *t)
{
	PropVerdict v;
	prop_run_world(w, salt, &v);
	if (v.property != NULL) {
		t->failed++;
		report_failure(w, &v, salt, t);
	} else {
		t->passed++;
	}
	t->complete_checked += v.complete_checked;
	t->allocated += v.outcome == DRA_OUTCOME_ALLOCATED;
	if (v.excluded != NULL) {
		guint n = GPOINTER_TO_UINT(g_hash_table_lookup(t->excluded, v.excluded));
		g_hash_table_insert(t->excluded, (gpointer)v.excluded, GUINT_TO_POINTER(n + 1));
	}
	prop_verdict_clear(&v);
}

static gboolean
run_text(const char *name, const char *text, gsize len, guint salt, Tally *t)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(PropWorld) w = prop_world_read(name, text, len, &error);
	if (w == NULL) {
		fprintf(stderr, "%s\n", error->message);
		return FALSE;
	}
	if (t->print) {
		g_autofree char *again = prop_world_write(w, NULL);
		printf("%s# end of case\n", again);
	}
	tally_case(w, salt, t);
	return TRUE;
}

static void
print_summary(Tally *t, guint cases, gint64 start)
{
	double seconds = (double)(g_get_monotonic_time() - start) / G_USEC_PER_SEC;
	g_autoptr(GList) keys =
	        g_list_sort(g_hash_table_get_keys(t->excluded), (GCompareFunc)strcmp);
	printf("%u cases in %.1f s: %u allocated; completeness checked against the brute force "
	       "on %u\n",
	       cases, seconds, t->allocated, t->complete_checked);
	for (GList *l = keys; l != NULL; l = l->next) {
		printf("  excluded: %s: %u\n", (const char *)l->data,
		       GPOINTER_TO_UINT(g_hash_table_lookup(t->excluded, l->data)));
	}
	printf("%u passed, %u failed, 0 skipped\n", t->passed, t->failed);
}

static gboolean
parse_number(const char *flag, const char *text, guint64 max, guint64 *out)
{
	char *end = NULL;
	guint64 v = text != NULL ? g_ascii_strtoull(text, &end, 10) : 0;
	if (text == NULL || *text == '\0' || *end != '\0' || v > max) {
		fprintf(stderr,
		        "prop-allocator: %s expects a number up to %" G_GUINT64_FORMAT ", got %s\n",
		        flag, max, text != NULL ? text : "nothing");
		return FALSE;
	}
	*out = v;
	return TRUE;
}

static int
usage(void)
{
	fprintf(stderr, "usage: prop-allocator [--seed N] [--cases M | --case I] [--print] "
	                "[--no-quirks] [--replay FILE]\n");
	return 2;
}

int
main(int argc, char **argv)
{
	guint64 seed = DEFAULT_SEED;
	guint64 cases = DEFAULT_CASES;
	guint64 only = G_MAXUINT64;
	const char *replay = NULL;
	Tally t = { 0 };

	for (int i = 1; i < argc; i++) {
		const char *value = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(argv[i], "--seed") == 0 &&
		    parse_number("--seed", value, G_MAXUINT64, &seed)) {
			i++;
		} else if (strcmp(argv[i], "--cases") == 0 &&
		           parse_number("--cases", value, G_MAXUINT32, &cases)) {
			i++;
		} else if (strcmp(argv[i], "--case") == 0 &&
		           parse_number("--case", value, G_MAXUINT32 - 1, &only)) {
			i++;
		} else if (strcmp(argv[i], "--no-quirks") == 0) {
			prop_run_set_quirks(FALSE);
		} else if (strcmp(argv[i], "--print") == 0) {
			t.print = TRUE;
		} else if (strcmp(argv[i], "--replay") == 0 && value != NULL) {
			replay = argv[++i];
		} else {
			return usage();
		}
	}
	t.excluded = g_hash_table_new(g_str_hash, g_str_equal);
	gint64 start = g_get_monotonic_time();
	if (replay != NULL) {
		g_autoptr(GError) error = NULL;
		g_autofree char *data = NULL;
		gsize len = 0;
		if (!base_read_file(replay, &data, &len, &error)) {
			fprintf(stderr, "prop-allocator: %s\n", error->message);
			return 2;
		}
		if (!run_text(replay, data, len, 1, &t)) {
			return 2;
		}
		cases = 1;
	} else {
		guint first = only != G_MAXUINT64 ? (guint)only : 0;
		cases = only != G_MAXUINT64 ? 1 : cases;
		for (guint i = first; i < first + cases; i++) {
			g_autofree char *text = prop_gen_case(seed, i);
			g_autofree char *name =
			        g_strdup_printf("seed-%" G_GUINT64_FORMAT "-case-%u", seed, i);
			if (!run_text(name, text, strlen(text), i + 1, &t)) {
				return 2; /* the generator wrote something the loader refuses */
			}
		}
	}
	print_summary(&t, (guint)cases, start);
	g_hash_table_unref(t.excluded);
	return t.failed > 0 ? 1 : 0;
}
