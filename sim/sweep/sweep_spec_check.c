/*
 * sweep_spec_check.c: what can be known about a sweep before anything runs
 * (sweep_spec_check in sweep.h). The scenario must load as it is; each
 * parameter's path must resolve in it; each value, put there alone, must
 * give a scenario that loads; the grid must be within the bounds. Each
 * problem is reported where the user wrote the parameter or value (the Sweep
 * file, or `--vary N`), quoting the scenario's own message, since that is
 * what has to change. Combinations of values are not tried (a grid can be
 * large): a combination that fails, fails its runs.
 */
#include <string.h>

#include "base.h"
#include "sweep-private.h"
#include "sweep_spec-private.h"

static gboolean
pos_equal(const K8sPos *a, const K8sPos *b)
{
	return g_strcmp0(a->file, b->file) == 0 && a->line == b->line && a->col == b->col;
}

/* The grid's size against the bounds of sweep.h; FALSE with an error beyond them. */
static gboolean
check_bounds(const SweepSpec *self, K8sDiagList *diags)
{
	guint64 max_runs = sweep_max_runs();
	guint64 cells = 1;
	g_autofree char *limit = NULL;

	if (self->seeds->len == 0) {
		k8s_diag_list_error(diags, &self->pos, "spec.seeds",
		                    "no seeds: give them in spec.seeds or with --seeds, like 1-10");
		return FALSE;
	}
	for (guint i = 0; i < self->params->len && cells <= max_runs; i++)
		cells *= g_array_index(self->params, SweepParam, i).values->len;
	if (cells <= max_runs && cells * self->seeds->len <= max_runs)
		return TRUE;
	limit = base_limit_describe(BASE_LIMIT_SWEEP_RUNS);
	k8s_diag_list_error(diags, &self->pos, "",
	                    "the grid is too large: %s%" G_GUINT64_FORMAT
	                    " cells x %u seeds = %s%" G_GUINT64_FORMAT " runs; %s",
	                    cells > max_runs ? "more than " : "", MIN(cells, max_runs),
	                    self->seeds->len, cells > max_runs ? "more than " : "",
	                    MIN(cells, max_runs) * self->seeds->len, limit);
	return FALSE;
}

/* The errors of loading the scenario with the one override @ov. */
static K8sDiagList *
load_with(const SweepSpec *self, const ScenarioOverride *ov)
{
	K8sDiagList *errors = k8s_diag_list_new();
	g_autoptr(Scenario) sc = scenario_load_with(self->scenario, ov, 1, errors);

	return errors;
}

/* Whether @list holds an error equal to @d (message, field path, position). */
static gboolean
has_error(const K8sDiagList *list, const K8sDiag *d)
{
	for (guint i = 0; i < k8s_diag_list_count(list); i++) {
		const K8sDiag *e = k8s_diag_list_get(list, i);

		if (e->severity == K8S_SEVERITY_ERROR && pos_equal(&e->pos, &d->pos) &&
		    strcmp(e->message, d->message) == 0 && g_strcmp0(e->path, d->path) == 0)
			return TRUE;
	}
	return FALSE;
}

/* The errors of @a that @b has too. */
static K8sDiagList *
common_errors(const K8sDiagList *a, const K8sDiagList *b)
{
	K8sDiagList *out = k8s_diag_list_new();

	for (guint i = 0; i < k8s_diag_list_count(a); i++) {
		const K8sDiag *d = k8s_diag_list_get(a, i);

		if (has_error(b, d))
			k8s_diag_list_add(out, K8S_SEVERITY_ERROR, &d->pos, d->path, "%s",
			                  d->message);
	}
	return out;
}

/* The scenario's error @d as quoted in a sweep's message: "FILE:LINE:COL: MESSAGE [path]". */
static char *
quote_diag(const K8sDiag *d)
{
	GString *out = g_string_new(d->pos.file != NULL ? d->pos.file : "drasim");

	if (d->pos.line > 0)
		g_string_append_printf(out, ":%u:%u", d->pos.line, d->pos.col);
	g_string_append_printf(out, ": %s", d->message);
	if (d->path != NULL && d->path[0] != '\0')
		g_string_append_printf(out, " [%s]", d->path);
	return g_string_free(out, FALSE);
}

/* Reports @errors of the override written at @at: an error about the override itself
 * (at @at) as it is, the scenario's quoted after @what, except those in @skip. */
static void
report(K8sDiagList *diags,
       const K8sDiagList *errors,
       const K8sDiagList *skip,
       const SweepParam *p,
       const K8sPos *at,
       const char *what)
{
	for (guint i = 0; i < k8s_diag_list_count(errors); i++) {
		const K8sDiag *d = k8s_diag_list_get(errors, i);
		g_autofree char *quoted = NULL;

		if (d->severity != K8S_SEVERITY_ERROR || (skip != NULL && has_error(skip, d)))
			continue;
		if (pos_equal(&d->pos, at)) {
			k8s_diag_list_error(diags, &d->pos, d->path, "%s", d->message);
			continue;
		}
		quoted = quote_diag(d);
		k8s_diag_list_error(diags, at, p->path, "%s: %s", what, quoted);
	}
}

/*
 * One parameter. The path first, with null (it fits any node): a path that does not
 * resolve is one error at the path, not one per value. Then each value alone; an
 * error every value and null share (an added key the scenario does not know) is the
 * path's too, said once at the path; the rest at the value.
 */
static void
check_param(const SweepSpec *self, const SweepParam *p, K8sDiagList *diags)
{
	ScenarioOverride probe = { p->path, "null", p->pos };
	g_autoptr(K8sDiagList) shared = load_with(self, &probe);
	g_autoptr(GPtrArray) per_value =
	        g_ptr_array_new_with_free_func((GDestroyNotify)k8s_diag_list_free);
	g_autofree char *any =
	        g_strdup_printf("with %s = any value the scenario does not load", p->path);

	for (guint i = 0; i < k8s_diag_list_count(shared); i++) {
		if (pos_equal(&k8s_diag_list_get(shared, i)->pos, &p->pos)) {
			report(diags, shared, NULL, p, &p->pos,
			       any); /* the path does not resolve */
			return;
		}
	}
	for (guint v = 0; v < p->values->len; v++) {
		ScenarioOverride ov = { p->path, p->values->pdata[v],
			                g_array_index(p->value_pos, K8sPos, v) };
		K8sDiagList *errors = load_with(self, &ov);
		K8sDiagList *still = common_errors(shared, errors);

		g_ptr_array_add(per_value, errors);
		k8s_diag_list_free(shared);
		shared = still;
	}
	report(diags, shared, NULL, p, &p->pos, any);
	for (guint v = 0; v < p->values->len; v++) {
		g_autofree char *what = g_strdup_printf("with %s = %s the scenario does not load",
		                                        p->path, (char *)p->values->pdata[v]);

		report(diags, per_value->pdata[v], shared, p,
		       &g_array_index(p->value_pos, K8sPos, v), what);
	}
}

gboolean
sweep_spec_check(const SweepSpec *self, K8sDiagList *diags)
{
	guint before = k8s_diag_list_count_errors(diags);

	if (!check_bounds(self, diags))
		return FALSE; /* no scenario is loaded for a sweep that cannot run */
	{
		/* the scenario as it is first: its own errors are not the parameters' */
		g_autoptr(Scenario) sc = scenario_load(self->scenario, diags);

		if (sc == NULL)
			return FALSE;
	}
	for (guint i = 0; i < self->params->len; i++) {
		const SweepParam *p = &g_array_index(self->params, SweepParam, i);

		check_param(self, p, diags);
	}
	return k8s_diag_list_count_errors(diags) == before;
}
