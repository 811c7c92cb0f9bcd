/*
 * sweep_manifest.c: a sweep expanded to what runs. The grid is the product
 * of the parameters' values (the last parameter varies fastest); each cell
 * runs every seed, so run k is cell k / n_seeds with seed k % n_seeds. The
 * manifest is saved in the output folder as JSON and is all that run-task,
 * merge and a resumed sweep read: the same manifest, the same runs, the
 * same ids, whatever runs them.
 */
#include <string.h>

#include "base.h"
#include "sweep-private.h"

struct SweepManifest {
	SweepSpec *spec;        /* owned copy */
	GPtrArray *cell_values; /* per cell: a NULL-terminated char*[] (one per parameter) */
	GArray *runs;           /* SweepRun */
	GStringChunk *strings;  /* ids and override texts */
	char *origin;           /* the overrides' origin file */
};

static SweepSpec *
spec_copy(const SweepSpec *spec)
{
	SweepSpec *copy = sweep_spec_new(spec->name, spec->scenario);

	copy->file = g_strdup(spec->file);
	copy->horizon = spec->horizon;
	copy->pos = spec->pos;
	g_array_append_vals(copy->seeds, spec->seeds->data, spec->seeds->len);
	for (guint i = 0; i < spec->params->len; i++) {
		const SweepParam *p = &g_array_index(spec->params, SweepParam, i);
		SweepParam q = { .path = g_strdup(p->path), .pos = p->pos };

		q.values = g_ptr_array_new_with_free_func(g_free);
		for (guint v = 0; v < p->values->len; v++)
			g_ptr_array_add(q.values, g_strdup(p->values->pdata[v]));
		q.value_pos = g_array_new(FALSE, TRUE, sizeof(K8sPos));
		if (p->value_pos != NULL)
			g_array_append_vals(q.value_pos, p->value_pos->data, p->value_pos->len);
		g_array_append_val(copy->params, q);
	}
	return copy;
}

guint64
sweep_max_runs(void)
{
	return MIN(base_limit_get(BASE_LIMIT_SWEEP_RUNS), (guint64)G_MAXINT);
}

/* The grid's size, or 0 with @error when it is beyond the documented bounds. */
static guint
grid_cells(const SweepSpec *spec, GError **error)
{
	guint64 max_runs = sweep_max_runs();
	guint64 cells = 1;

	if (spec->params->len > SWEEP_MAX_PARAMS) {
		g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_INPUT,
		            "%u parameters: a sweep varies at most %d", spec->params->len,
		            SWEEP_MAX_PARAMS);
		return 0;
	}
	for (guint i = 0; i < spec->params->len; i++) {
		const SweepParam *p = &g_array_index(spec->params, SweepParam, i);

		if (p->values->len == 0 || p->values->len > SWEEP_MAX_VALUES) {
			g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_INPUT,
			            "%s: %u values; a parameter takes 1 to %d", p->path,
			            p->values->len, SWEEP_MAX_VALUES);
			return 0;
		}
		cells *= p->values->len;
		if (cells > max_runs)
			break;
	}
	if (spec->seeds->len == 0 || cells * spec->seeds->len > max_runs) {
		g_autofree char *limit = base_limit_describe(BASE_LIMIT_SWEEP_RUNS);

		g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_INPUT,
		            "%" G_GUINT64_FORMAT
		            " cells x %u seeds: a sweep runs 1 to %" G_GUINT64_FORMAT " runs; %s",
		            cells, spec->seeds->len, max_runs, limit);
		return 0;
	}
	return (guint)cells;
}

/* Seed 0 means "the scenario's own seed" to scenario_run(), so a sweep cannot name it. */
static gboolean
seeds_valid(const SweepSpec *spec, GError **error)
{
	for (guint i = 0; i < spec->seeds->len; i++) {
		if (g_array_index(spec->seeds, guint64, i) == 0) {
			g_set_error_literal(
			        error, SWEEP_ERROR, SWEEP_ERROR_INPUT,
			        "seed 0 is not valid in a sweep (drasim run reads 0 as the "
			        "scenario's own seed); seeds start at 1");
			return FALSE;
		}
	}
	return TRUE;
}

static void
expand_cells(SweepManifest *self, guint n_cells)
{
	const SweepSpec *spec = self->spec;
	guint n_params = spec->params->len;

	for (guint c = 0; c < n_cells; c++) {
		const char **values = g_new0(const char *, n_params + 1);
		guint rest = c;

		/* Mixed radix, last parameter fastest. */
		for (guint i = n_params; i-- > 0;) {
			const SweepParam *p = &g_array_index(spec->params, SweepParam, i);

			values[i] = p->values->pdata[rest % p->values->len];
			rest /= p->values->len;
		}
		g_ptr_array_add(self->cell_values, values);
	}
}

static void
expand_runs(SweepManifest *self)
{
	const SweepSpec *spec = self->spec;
	guint n_params = spec->params->len;

	for (guint c = 0; c < self->cell_values->len; c++) {
		const char *const *values = self->cell_values->pdata[c];

		for (guint s = 0; s < spec->seeds->len; s++) {
			SweepRun run = { .cell = c,
				         .seed = g_array_index(spec->seeds, guint64, s) };
			char id[64];

			g_snprintf(id, sizeof id, "c%04u-seed%" G_GUINT64_FORMAT, c, run.seed);
			run.id = g_string_chunk_insert(self->strings, id);
			run.n_overrides = n_params;
			run.overrides = g_new0(ScenarioOverride, n_params + 1);
			for (guint i = 0; i < n_params; i++) {
				const SweepParam *p = &g_array_index(spec->params, SweepParam, i);

				run.overrides[i].path = p->path;
				run.overrides[i].value = values[i];
				run.overrides[i].origin = (K8sPos){ self->origin, 0, 0 };
			}
			g_array_append_val(self->runs, run);
		}
	}
}

static void
run_clear(gpointer data)
{
	SweepRun *run = data;

	g_free(run->overrides);
}

SweepManifest *
sweep_manifest_new(const SweepSpec *spec, GError **error)
{
	SweepManifest *self;
	guint n_cells;

	if (!seeds_valid(spec, error) || (n_cells = grid_cells(spec, error)) == 0)
		return NULL;
	self = g_new0(SweepManifest, 1);
	self->spec = spec_copy(spec);
	self->cell_values = g_ptr_array_new_with_free_func(g_free);
	self->runs = g_array_new(FALSE, TRUE, sizeof(SweepRun));
	g_array_set_clear_func(self->runs, run_clear);
	self->strings = g_string_chunk_new(4096);
	self->origin = g_strdup(spec->file != NULL ? spec->file : "--vary");
	expand_cells(self, n_cells);
	expand_runs(self);
	return self;
}

void
sweep_manifest_free(SweepManifest *self)
{
	if (self == NULL)
		return;
	g_array_unref(self->runs);
	g_ptr_array_unref(self->cell_values);
	sweep_spec_free(self->spec);
	g_string_chunk_free(self->strings);
	g_free(self->origin);
	g_free(self);
}

const SweepSpec *
sweep_manifest_get_spec(const SweepManifest *self)
{
	return self->spec;
}

guint
sweep_manifest_get_n_cells(const SweepManifest *self)
{
	return self->cell_values->len;
}

const char *const *
sweep_manifest_cell_values(const SweepManifest *self, guint cell)
{
	g_return_val_if_fail(cell < self->cell_values->len, NULL);
	return self->cell_values->pdata[cell];
}

guint
sweep_manifest_get_n_runs(const SweepManifest *self)
{
	return self->runs->len;
}

const SweepRun *
sweep_manifest_get_run(const SweepManifest *self, guint index)
{
	g_return_val_if_fail(index < self->runs->len, NULL);
	return &g_array_index(self->runs, SweepRun, index);
}
