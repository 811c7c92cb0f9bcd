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
	guint64 cells = 1;

	if (self->seeds->len == 0) {
		k8s_diag_list_error(diags, &self->pos, "spec.seeds",
		                    "no seeds: give them in spec.seeds or with --seeds, like 1-10");
		return FALSE;
	}
	for (guint i = 0; i < self->params->len && cells <= SWEEP_MAX_RUNS; i++)
		cells *= g_array_index(self->params, SweepParam, i).values->len;
	if (cells <= SWEEP_MAX_RUNS && cells * self->seeds->len <= SWEEP_MAX_RUNS)
		return TRUE;
	k8s_diag_list_error(diags, &self->pos, "",
	                    "the grid is too large: %s%" G_GUINT64_FORMAT
	                    " cells x %u seeds; a sweep runs at most %d runs",
	                    cells > SWEEP_MAX_RUNS ? "more than " : "",
	                    MIN(cells, (guint64)SWEEP_MAX_RUNS), self->seeds->len, SWEEP_MAX_RUNS);
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

/* Whether @p's path resolves in the scenario; when not, its error at the path. */
static gboolean
check_path(const SweepSpec *self, const SweepParam *p, K8sDiagList *diags)
{
	/* null fits any node; the decoder's complaints about it are not the path's */
	ScenarioOverride ov = { p->path, "null", p->pos };
	g_autoptr(K8sDiagList) errors = load_with(self, &ov);
	gboolean ok = TRUE;

	for (guint i = 0; i < k8s_diag_list_count(errors); i++) {
		const K8sDiag *d = k8s_diag_list_get(errors, i);

		if (d->severity == K8S_SEVERITY_ERROR && pos_equal(&d->pos, &p->pos)) {
			k8s_diag_list_error(diags, &d->pos, d->path, "%s", d->message);
			ok = FALSE;
		}
	}
	return ok;
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

static void
check_value(const SweepSpec *self, const SweepParam *p, guint v, K8sDiagList *diags)
{
	const char *value = p->values->pdata[v];
	K8sPos pos = g_array_index(p->value_pos, K8sPos, v);
	ScenarioOverride ov = { p->path, value, pos };
	g_autoptr(K8sDiagList) errors = load_with(self, &ov);

	for (guint i = 0; i < k8s_diag_list_count(errors); i++) {
		const K8sDiag *d = k8s_diag_list_get(errors, i);
		g_autofree char *quoted = NULL;

		if (d->severity != K8S_SEVERITY_ERROR)
			continue;
		if (pos_equal(&d->pos, &pos)) { /* about the value itself: said there already */
			k8s_diag_list_error(diags, &d->pos, d->path, "%s", d->message);
			continue;
		}
		quoted = quote_diag(d);
		k8s_diag_list_error(diags, &pos, p->path,
		                    "with %s = %s the scenario does not load: %s", p->path, value,
		                    quoted);
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

		if (!check_path(self, p, diags))
			continue; /* every value would fail alike */
		for (guint v = 0; v < p->values->len; v++)
			check_value(self, p, v, diags);
	}
	return k8s_diag_list_count_errors(diags) == before;
}
