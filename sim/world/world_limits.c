/*
 * world_limits.c: the run-size limits of base.h applied to a scenario:
 * pods (checked as the workload expands, before a pod past the limit is
 * made) and sampled values (samples x series, checked before a run with a
 * horizon starts, and sample by sample without one). docs/scenario.md,
 * "Limits".
 */
#include "base.h"
#include "world-private.h"

gboolean
scenario_limits__pods(
        guint64 have, guint64 adding, const K8sPos *pos, const char *field, K8sDiagList *diags)
{
	g_autofree char *limit = NULL;

	if (have + adding <= base_limit_get(BASE_LIMIT_PODS))
		return TRUE;
	limit = base_limit_describe(BASE_LIMIT_PODS);
	k8s_diag_list_error(diags, pos, field,
	                    "the workload makes more than %" G_GUINT64_FORMAT
	                    " pods (%" G_GUINT64_FORMAT " so far, %" G_GUINT64_FORMAT
	                    " more here): %s",
	                    base_limit_get(BASE_LIMIT_PODS), have, adding, limit);
	return FALSE;
}

/* Values stored per sample: pending pods, allocation ratio, fragmentation,
 * occupancy and one per heat-map node (measure_sample.c). */
guint64
scenario_limits__series(const Scenario *sc)
{
	guint64 nodes = 0;

	for (guint p = 0; p < sc->pools->len; p++)
		nodes += g_array_index(sc->pools, ScenarioPool, p).count;
	return 4 + MIN(nodes, SCENARIO_SAMPLE_MAX_NODES);
}

/* Samples a run may take: the sampled values limit over the series. */
guint64
scenario_limits__max_samples(const Scenario *sc)
{
	return MAX(base_limit_get(BASE_LIMIT_SAMPLES) / scenario_limits__series(sc), 1);
}

gboolean
scenario_limits__samples(const Scenario *sc, SimTime horizon, GError **error)
{
	guint64 samples, series = scenario_limits__series(sc);
	g_autofree char *h = NULL, *s = NULL, *limit = NULL;

	if (horizon == SIM_TIME_NEVER)
		return TRUE;
	/* t = 0, every interval up to the horizon, and the horizon itself */
	samples = (guint64)(horizon / sc->sampling) + 1 + (horizon % sc->sampling != 0);
	if (samples <= scenario_limits__max_samples(sc))
		return TRUE;
	h = sim_time_format(horizon);
	s = sim_time_format(sc->sampling);
	limit = base_limit_describe(BASE_LIMIT_SAMPLES);
	g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_BUILD,
	            "horizon %s / sampling %s: %" G_GUINT64_FORMAT " samples x %" G_GUINT64_FORMAT
	            " series: %s; raise spec.sampling or shorten the horizon",
	            h, s, samples, series, limit);
	return FALSE;
}

gboolean
scenario_limits__samples_ran_out(const Scenario *sc, SimTime now, GError **error)
{
	g_autofree char *at = sim_time_format(now);
	g_autofree char *s = sim_time_format(sc->sampling);
	g_autofree char *limit = base_limit_describe(BASE_LIMIT_SAMPLES);

	g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_BUILD,
	            "no horizon: at %s the run needs more than %" G_GUINT64_FORMAT
	            " samples (sampling %s) x %" G_GUINT64_FORMAT
	            " series: %s; set spec.horizon or raise spec.sampling",
	            at, scenario_limits__max_samples(sc), s, scenario_limits__series(sc), limit);
	return FALSE;
}
