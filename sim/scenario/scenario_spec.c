/*
 * scenario_spec.c: decodes spec.workload (manifests, defaults, entries with
 * arrivals, durations and demands, the trace), spec.modes and spec.run, each
 * field checked with its position and path.
 */
#include <string.h>

#include "cluster_sched.h"
#include "dra.h"
#include "scenario-private.h"

/* Iterates a mapping's pairs as (KEY, VAL); IDX names the index so loops can nest. */
#define FOREACH_PAIR_I(node, IDX, KEY, VAL)                                                        \
	for (guint IDX = 0; IDX < (node)->map.n; IDX++)                                            \
		for (const char *KEY = (node)->map.pairs[IDX].key->scalar.text; KEY != NULL;       \
		     KEY = NULL)                                                                   \
			for (const K8sYamlNode *VAL = (node)->map.pairs[IDX].value; VAL != NULL;   \
			     VAL = NULL)
#define FOREACH_PAIR(node, KEY, VAL) FOREACH_PAIR_I(node, pair_i_, KEY, VAL)

void
scenario_spec__dist(ScenarioDec *dec, const K8sYamlNode *node, const char *path, WorkloadDist *out)
{
	static const char *const known[] = { "distribution", "value", "mean", "mu",  "sigma",
		                             "lo",           "hi",    "min",  "max", NULL };
	g_autofree char *kind = NULL;
	const K8sYamlNode *k;
	g_autoptr(GError) error = NULL;

	memset(out, 0, sizeof(*out));
	if (node->kind == K8S_YAML_SCALAR) {
		SimTime t;

		out->kind = WORKLOAD_DIST_FIXED;
		if (scenario_dec__duration(dec, node, path, &t))
			out->value = sim_time_to_seconds(t);
		return;
	}
	if (!scenario_dec__map(dec, node, path))
		return;
	scenario_dec__check_keys(dec, node, path, known);
	k = k8s_yaml_map_lookup(node, "distribution");
	if (k == NULL) {
		scenario_dec__error(dec, node, path,
		                    "expected distribution: fixed, exponential, "
		                    "lognormal or uniform");
		return;
	}
	kind = scenario_dec__string(dec, k, path);
	if (kind == NULL)
		return;
	if (strcmp(kind, "fixed") == 0)
		out->kind = WORKLOAD_DIST_FIXED;
	else if (strcmp(kind, "exponential") == 0)
		out->kind = WORKLOAD_DIST_EXPONENTIAL;
	else if (strcmp(kind, "lognormal") == 0)
		out->kind = WORKLOAD_DIST_LOGNORMAL;
	else if (strcmp(kind, "uniform") == 0)
		out->kind = WORKLOAD_DIST_UNIFORM;
	else {
		scenario_dec__error(dec, k, path,
		                    "expected fixed, exponential, lognormal or "
		                    "uniform, got \"%s\"",
		                    kind);
		return;
	}
	FOREACH_PAIR(node, key, v)
	{
		g_autofree char *field = g_strdup_printf("%s.%s", path, key);
		SimTime t = 0;

		if (strcmp(key, "mu") == 0)
			scenario_dec__double(dec, v, field, &out->mu);
		else if (strcmp(key, "sigma") == 0)
			scenario_dec__double(dec, v, field, &out->sigma);
		else if (strcmp(key, "distribution") != 0 &&
		         scenario_dec__duration(dec, v, field, &t)) {
			double s = sim_time_to_seconds(t);

			if (strcmp(key, "value") == 0)
				out->value = s;
			else if (strcmp(key, "mean") == 0)
				out->mean = s;
			else if (strcmp(key, "lo") == 0)
				out->lo = s;
			else if (strcmp(key, "hi") == 0)
				out->hi = s;
			else if (strcmp(key, "min") == 0)
				out->min = s;
			else if (strcmp(key, "max") == 0)
				out->max = s;
		}
	}
	if (!workload_dist_check(out, path, &error))
		scenario_dec__error(dec, node, path, "%s", error->message);
}

/* One process parameter into its field of @a (sim/workload's table gives both). */
static void
decode_arrival_param(ScenarioDec *dec,
                     const K8sYamlNode *v,
                     const char *field,
                     const WorkloadArrivalParam *p,
                     WorkloadArrival *a)
{
	char *at = (char *)a + p->offset;
	guint64 n;

	switch (p->type) {
	case WORKLOAD_PARAM_NUMBER:
		scenario_dec__double(dec, v, field, (double *)(void *)at);
		break;
	case WORKLOAD_PARAM_COUNT:
		if (scenario_dec__uint(dec, v, field, 1000000, &n))
			*(guint *)(void *)at = (guint)n;
		break;
	case WORKLOAD_PARAM_DURATION:
		scenario_dec__duration(dec, v, field, (SimTime *)(void *)at);
		break;
	case WORKLOAD_PARAM_RATE:
		scenario_dec__rate(dec, v, field, (double *)(void *)at);
		break;
	}
}

/*
 * `arrival:` with sim/workload's processes and parameters read from its tables
 * (workload_arrival.c), so a new process needs no change here.
 */
static void
decode_arrival(ScenarioDec *dec, const K8sYamlNode *node, const char *path, ScenarioEntry *e)
{
	const WorkloadArrivalParam *params = workload_arrival_params();
	const char *const *names = workload_arrival_names();
	const char *known[32] = { "at", "process", "start", "end" };
	guint n_known = 4;
	const K8sYamlNode *proc;

	if (!scenario_dec__map(dec, node, path))
		return;
	for (guint k = 0; params[k].key != NULL && n_known + 1 < G_N_ELEMENTS(known); k++)
		known[n_known++] = params[k].key;
	scenario_dec__check_keys(dec, node, path, known);
	proc = k8s_yaml_map_lookup(node, "process");
	e->arrival_kind = proc != NULL ? SCENARIO_ARRIVAL_PROCESS : SCENARIO_ARRIVAL_AT;
	if (proc != NULL) {
		g_autofree char *field = g_strdup_printf("%s.process", path);
		guint kind;

		if (scenario_dec__choice(dec, proc, field, names, g_strv_length((char **)names),
		                         &kind))
			e->process.kind = (WorkloadArrivalKind)kind;
	}
	FOREACH_PAIR(node, key, v)
	{
		g_autofree char *field = g_strdup_printf("%s.%s", path, key);

		if (strcmp(key, "at") == 0)
			scenario_dec__duration(dec, v, field, &e->at);
		else if (strcmp(key, "start") == 0)
			scenario_dec__duration(dec, v, field, &e->start);
		else if (strcmp(key, "end") == 0)
			scenario_dec__duration(dec, v, field, &e->end);
		for (guint k = 0; params[k].key != NULL; k++) {
			if (strcmp(key, params[k].key) == 0)
				decode_arrival_param(dec, v, field, &params[k], &e->process);
		}
	}
}

/* A second entry for one object used to replace the first silently: it is an error. */
static void
check_entry_unique(Scenario *self,
                   ScenarioDec *dec,
                   const K8sYamlNode *node,
                   const char *path,
                   const ScenarioEntry *e)
{
	for (guint i = 0; i < self->entries->len; i++) {
		const ScenarioEntry *first = &g_array_index(self->entries, ScenarioEntry, i);
		const K8sYamlNode *name;
		g_autofree char *field = NULL;

		if (g_strcmp0(first->kind, e->kind) != 0 || g_strcmp0(first->name, e->name) != 0)
			continue;
		name = k8s_yaml_map_lookup(node, "name");
		field = g_strdup_printf("%s.name", path);
		scenario_dec__error(dec, name != NULL ? name : node, field,
		                    "a second entry for %s %s (first at line %u): one entry per "
		                    "object; use count for copies",
		                    e->kind, e->name, first->pos.line);
		return;
	}
}

static void
decode_entry(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node, const char *path)
{
	static const char *const known[] = { "kind",    "name",   "count",   "arrival", "duration",
		                             "compute", "memory", "service", NULL };
	ScenarioEntry e = { .count = 1, .end = SIM_TIME_NEVER };

	if (!scenario_dec__map(dec, node, path))
		return;
	e.pos = scenario_dec__pos(dec, node);
	e.duration.kind = WORKLOAD_DIST_FIXED;
	e.duration.value = sim_time_to_seconds(self->default_duration);
	e.compute = self->default_compute;
	e.memory = self->default_memory;
	scenario_dec__check_keys(dec, node, path, known);
	FOREACH_PAIR(node, key, v)
	{
		g_autofree char *field = g_strdup_printf("%s.%s", path, key);
		guint64 n;

		if (strcmp(key, "kind") == 0)
			e.kind = scenario_dec__string(dec, v, field);
		else if (strcmp(key, "name") == 0)
			e.name = scenario_dec__string(dec, v, field);
		else if (strcmp(key, "count") == 0 &&
		         scenario_dec__uint(dec, v, field, 10000000, &n))
			e.count = (guint)n;
		else if (strcmp(key, "arrival") == 0)
			decode_arrival(dec, v, field, &e);
		else if (strcmp(key, "duration") == 0)
			scenario_spec__dist(dec, v, field, &e.duration);
		else if (strcmp(key, "compute") == 0)
			scenario_dec__double(dec, v, field, &e.compute);
		else if (strcmp(key, "memory") == 0)
			scenario_dec__bytes(dec, v, field, &e.memory);
		else if (strcmp(key, "service") == 0)
			scenario_dec__bool(dec, v, field, &e.service);
	}
	if (e.kind == NULL || e.name == NULL) {
		g_autofree char *field = g_strdup_printf("%s.%s", path, e.kind ? "name" : "kind");

		scenario_dec__error(dec, node, field,
		                    "expected the kind and name of a Pod, "
		                    "Deployment, StatefulSet, ReplicaSet or Job of the manifests");
	} else {
		check_entry_unique(self, dec, node, path, &e);
	}
	g_array_append_val(self->entries, e);
}

static void
decode_defaults(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node)
{
	static const char *const known[] = { "duration", "compute", "memory", NULL };
	const char *path = "spec.workload.defaults";

	if (!scenario_dec__map(dec, node, path))
		return;
	scenario_dec__check_keys(dec, node, path, known);
	FOREACH_PAIR(node, key, v)
	{
		g_autofree char *field = g_strdup_printf("%s.%s", path, key);

		if (strcmp(key, "duration") == 0)
			scenario_dec__duration(dec, v, field, &self->default_duration);
		else if (strcmp(key, "compute") == 0)
			scenario_dec__double(dec, v, field, &self->default_compute);
		else if (strcmp(key, "memory") == 0)
			scenario_dec__bytes(dec, v, field, &self->default_memory);
	}
}

static char *
resolve(const Scenario *self, const char *path)
{
	if (g_path_is_absolute(path))
		return g_strdup(path);
	return g_build_filename(self->dir, path, NULL);
}

/* gpuModels: {T4: t4-16gb, G2: h100-sxm5-80gb}: trace code -> catalog GPU id. */
static void
decode_gpu_models(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node)
{
	const char *path = "spec.workload.trace.gpuModels";

	if (!scenario_dec__map(dec, node, path))
		return;
	g_clear_pointer(&self->trace.gpu_models, g_ptr_array_unref);
	g_clear_pointer(&self->trace.gpu_model_pos, g_array_unref);
	self->trace.gpu_models = g_ptr_array_new_with_free_func(g_free);
	self->trace.gpu_model_pos = g_array_new(FALSE, FALSE, sizeof(K8sPos));
	FOREACH_PAIR(node, key, v)
	{
		g_autofree char *field = g_strdup_printf("%s.%s", path, key);
		char *id = scenario_dec__string(dec, v, field);
		K8sPos pos = scenario_dec__pos(dec, v);

		if (id == NULL)
			continue;
		g_ptr_array_add(self->trace.gpu_models, g_strdup(key));
		g_ptr_array_add(self->trace.gpu_models, id);
		g_array_append_val(self->trace.gpu_model_pos, pos);
	}
}

void
scenario_spec__check_gpu_models(Scenario *self, ScenarioDec *dec)
{
	GPtrArray *m = self->trace.gpu_models;

	for (guint i = 0; m != NULL && i + 1 < m->len; i += 2) {
		if (hw_catalog_lookup_gpu(self->catalog, m->pdata[i + 1]) != NULL)
			continue;
		g_autofree char *field =
		        g_strdup_printf("spec.workload.trace.gpuModels.%s", (char *)m->pdata[i]);
		k8s_diag_list_error(dec->diags,
		                    &g_array_index(self->trace.gpu_model_pos, K8sPos, i / 2), field,
		                    "expected a GPU model of the catalog (built-in or "
		                    "spec.cluster.catalog), got \"%s\"",
		                    (char *)m->pdata[i + 1]);
	}
}

const ScenarioPool *
scenario_lookup_pool(const Scenario *self, const char *name)
{
	for (guint i = 0; i < self->pools->len; i++) {
		const ScenarioPool *p = &g_array_index(self->pools, ScenarioPool, i);

		if (g_strcmp0(p->name, name) == 0)
			return p;
	}
	return NULL;
}

/*
 * spec.modes[].mig: {POOL: LAYOUT} overrides a pool's layout in one mode. Checked after
 * the cluster, with the pool's GPU: an unknown pool was ignored and a bad layout only
 * failed when the mode ran, without a position.
 */
void
scenario_spec__check_mode_layouts(Scenario *self, ScenarioDec *dec)
{
	for (guint m = 0; m < self->modes->len; m++) {
		const ScenarioMode *mode = &g_array_index(self->modes, ScenarioMode, m);

		for (guint i = 0; i < mode->layouts->len; i++) {
			const ScenarioPoolLayout *l =
			        &g_array_index(mode->layouts, ScenarioPoolLayout, i);
			const ScenarioPool *pool = scenario_lookup_pool(self, l->pool);
			const HwNodeShape *shape =
			        pool != NULL && pool->shape != NULL
			                ? hw_catalog_lookup_shape(self->catalog, pool->shape)
			                : NULL;
			g_autofree char *field =
			        g_strdup_printf("spec.modes[%u].mig.%s", m, l->pool);
			g_autoptr(GError) error = NULL;
			g_autoptr(GArray) inst = NULL;
			gboolean on = FALSE;

			if (pool == NULL && self->inventory_paths != NULL)
				continue; /* an imported node: scenario_whatif__check() */
			if (pool == NULL) {
				k8s_diag_list_error(dec->diags, &l->pos, field,
				                    "expected the name of a pool of "
				                    "spec.cluster.nodePools, got \"%s\"",
				                    l->pool);
				continue;
			}
			if (shape == NULL || l->mig == NULL || strcmp(l->mig, "dynamic") == 0)
				continue;
			inst = hw_mig_layout_parse(shape->gpu_model, l->mig, &on, &error);
			if (inst == NULL)
				k8s_diag_list_error(dec->diags, &l->pos, field, "%s",
				                    error->message);
		}
	}
}

static void
decode_trace(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node)
{
	static const char *const known[] = { "path", "limit", "gpuModels", NULL };
	const char *path = "spec.workload.trace";

	if (!scenario_dec__map(dec, node, path))
		return;
	scenario_dec__check_keys(dec, node, path, known);
	self->trace.pos = scenario_dec__pos(dec, node);
	FOREACH_PAIR(node, key, v)
	{
		g_autofree char *field = g_strdup_printf("%s.%s", path, key);
		guint64 n;

		if (strcmp(key, "path") == 0) {
			g_autofree char *p = scenario_dec__string(dec, v, field);

			if (p != NULL) {
				self->trace.path = resolve(self, p);
				if (!g_file_test(self->trace.path, G_FILE_TEST_IS_REGULAR))
					scenario_dec__error(
					        dec, v, field,
					        "expected a trace CSV file, no file at %s",
					        self->trace.path);
			}
		} else if (strcmp(key, "limit") == 0 &&
		           scenario_dec__uint(dec, v, field, G_MAXUINT32, &n)) {
			self->trace.limit = (guint)n;
		} else if (strcmp(key, "gpuModels") == 0) {
			decode_gpu_models(self, dec, v);
		}
	}
	if (self->trace.path == NULL)
		scenario_dec__error(dec, node, "spec.workload.trace.path", "expected a path");
}

void
scenario_spec__workload(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node)
{
	static const char *const known[] = { "manifests", "defaults", "entries",
		                             "trace",     "imported", NULL };
	const K8sYamlNode *v;

	if (!scenario_dec__map(dec, node, "spec.workload"))
		return;
	scenario_dec__check_keys(dec, node, "spec.workload", known);
	/* Defaults first: entries take them. */
	if ((v = k8s_yaml_map_lookup(node, "defaults")) != NULL)
		decode_defaults(self, dec, v);
	if ((v = k8s_yaml_map_lookup(node, "manifests")) != NULL &&
	    scenario_dec__seq(dec, v, "spec.workload.manifests")) {
		for (guint i = 0; i < v->seq.n; i++) {
			g_autofree char *field = g_strdup_printf("spec.workload.manifests[%u]", i);
			g_autofree char *p = scenario_dec__string(dec, v->seq.items[i], field);
			g_autofree char *full = NULL;

			if (p == NULL)
				continue;
			full = resolve(self, p);
			if (!g_file_test(full, G_FILE_TEST_EXISTS))
				scenario_dec__error(
				        dec, v->seq.items[i], field,
				        "expected a manifest file or folder, nothing at %s", full);
			else
				g_ptr_array_add(self->manifests, g_steal_pointer(&full));
		}
	}
	if ((v = k8s_yaml_map_lookup(node, "entries")) != NULL &&
	    scenario_dec__seq(dec, v, "spec.workload.entries")) {
		for (guint i = 0; i < v->seq.n; i++) {
			g_autofree char *field = g_strdup_printf("spec.workload.entries[%u]", i);

			decode_entry(self, dec, v->seq.items[i], field);
		}
	}
	if ((v = k8s_yaml_map_lookup(node, "trace")) != NULL)
		decode_trace(self, dec, v);
	if ((v = k8s_yaml_map_lookup(node, "imported")) != NULL)
		scenario_objects__imported(self, dec, v);
}

static void
decode_sharing(ScenarioDec *dec, const K8sYamlNode *node, const char *path, ScenarioMode *m)
{
	static const char *const known[] = { "strategy", "replicas", "renameByDefault",
		                             "failRequestsGreaterThanOne", NULL };

	if (!scenario_dec__map(dec, node, path))
		return;
	scenario_dec__check_keys(dec, node, path, known);
	FOREACH_PAIR(node, key, v)
	{
		g_autofree char *field = g_strdup_printf("%s.%s", path, key);
		guint64 n;

		if (strcmp(key, "strategy") == 0) {
			g_autofree char *s = scenario_dec__string(dec, v, field);

			if (s != NULL && !xr_sharing_parse(s, &m->xr.sharing))
				scenario_dec__error(dec, v, field,
				                    "expected none, time-slicing or "
				                    "mps, got \"%s\"",
				                    s);
		} else if (strcmp(key, "replicas") == 0 &&
		           scenario_dec__uint(dec, v, field, 1024, &n)) {
			if (n == 0)
				scenario_dec__error(dec, v, field, "expected replicas >= 1");
			m->xr.replicas = (guint)MAX(n, 1);
		} else if (strcmp(key, "renameByDefault") == 0) {
			scenario_dec__bool(dec, v, field, &m->xr.rename_by_default);
		} else if (strcmp(key, "failRequestsGreaterThanOne") == 0) {
			scenario_dec__bool(dec, v, field, &m->xr.fail_requests_greater_than_one);
		}
	}
}

static void
decode_gates(ScenarioDec *dec, const K8sYamlNode *node, const char *path, ScenarioMode *m)
{
	static const char *const known[] = { "DRAExtendedResource", "DynamicMIG", "DRADeviceTaints",
		                             "DRASchedulerFilterTimeout", NULL };

	if (!scenario_dec__map(dec, node, path))
		return;
	scenario_dec__check_keys(dec, node, path, known);
	FOREACH_PAIR(node, key, v)
	{
		g_autofree char *field = g_strdup_printf("%s.%s", path, key);
		gboolean on;

		if (strcmp(key, "DRAExtendedResource") == 0)
			scenario_dec__bool(dec, v, field, &m->extended_resource_gate);
		else if (strcmp(key, "DynamicMIG") == 0)
			scenario_dec__bool(dec, v, field, &m->dynamic_mig);
		else if (strcmp(key, "DRADeviceTaints") == 0)
			scenario_dec__bool(dec, v, field, &m->device_taints_gate);
		else if (strcmp(key, "DRASchedulerFilterTimeout") == 0 &&
		         scenario_dec__bool(dec, v, field, &on))
			m->filter_timeout_gate_off = !on;
	}
}

/*
 * filterTimeout (DynamicResourcesArgs): a duration >= 0, 0 = no timeout, and
 * only with DRASchedulerFilterTimeout on (ValidateDynamicResourcesArgs).
 */
static void
decode_filter_timeout(ScenarioDec *dec, const K8sYamlNode *mode, const char *path, ScenarioMode *m)
{
	const K8sYamlNode *v = k8s_yaml_map_lookup(mode, "filterTimeout");
	g_autofree char *field = g_strdup_printf("%s.filterTimeout", path);

	if (v == NULL || !scenario_dec__duration(dec, v, field, &m->filter_timeout))
		return;
	m->filter_timeout_set = TRUE;
	if (m->filter_timeout_gate_off)
		scenario_dec__error(dec, v, field,
		                    "Forbidden: the DRASchedulerFilterTimeout feature gate is "
		                    "disabled (remove filterTimeout or turn the gate on)");
}

gint64
scenario_mode_filter_timeout(const ScenarioMode *m)
{
	if (m->filter_timeout_gate_off)
		return 0;
	return m->filter_timeout_set ? m->filter_timeout : DRA_FILTER_TIMEOUT_DEFAULT;
}

/* spec.modes[].mig: per-pool MIG layouts overriding the pools'. */
static void
decode_mode_layouts(ScenarioDec *dec, const K8sYamlNode *node, const char *path, ScenarioMode *m)
{
	FOREACH_PAIR_I(node, layout_i, pool, layout)
	{
		ScenarioPoolLayout l = { g_strdup(pool), NULL, scenario_dec__pos(dec, layout) };
		g_autofree char *f2 = g_strdup_printf("%s.%s", path, pool);

		l.mig = scenario_dec__string(dec, layout, f2);
		g_array_append_val(m->layouts, l);
	}
}

/* spec.modes[].world; without it a mode named "extended" is the extended world. */
static void
decode_mode_world(ScenarioDec *dec, const K8sYamlNode *node, const char *path, ScenarioMode *m)
{
	const K8sYamlNode *world = k8s_yaml_map_lookup(node, "world");

	if (world != NULL) {
		static const char *const names[] = { "dra", "extended" };
		static const ScenarioWorld worlds[] = { SCENARIO_WORLD_DRA,
			                                SCENARIO_WORLD_EXTENDED };
		g_autofree char *field = g_strdup_printf("%s.world", path);
		guint i;

		if (scenario_dec__choice(dec, world, field, names, 2, &i))
			m->world = worlds[i];
	} else if (g_strcmp0(m->name, "extended") == 0) {
		m->world = SCENARIO_WORLD_EXTENDED;
	}
}

static void
decode_mode(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node, const char *path)
{
	static const char *const known[] = {
		"name",         "world",         "migStrategy", "sharing",
		"mig",          "policy",        "score",       "percentageOfNodesToScore",
		"featureGates", "filterTimeout", "addNodes",    "removeNodes",
		"drainNodes",   "devicePick",    NULL
	};
	ScenarioMode m = { .extended_resource_gate = TRUE };

	cluster_score_policy_config_init(&m.policy);
	xr_config_init(&m.xr);
	m.xr.mig_strategy = XR_MIG_MIXED;
	m.layouts = g_array_new(FALSE, TRUE, sizeof(ScenarioPoolLayout));
	m.pos = scenario_dec__pos(dec, node);
	if (!scenario_dec__map(dec, node, path)) {
		g_array_unref(m.layouts);
		return;
	}
	scenario_dec__check_keys(dec, node, path, known);
	FOREACH_PAIR_I(node, pair, key, v)
	{
		g_autofree char *field = g_strdup_printf("%s.%s", path, key);
		guint64 n;

		if (strcmp(key, "name") == 0) {
			m.name = scenario_dec__string(dec, v, field);
			if (m.name != NULL && scenario_lookup_mode(self, m.name) != NULL)
				scenario_dec__error(dec, v, field, "duplicate mode \"%s\"", m.name);
		} else if (strcmp(key, "migStrategy") == 0) {
			g_autofree char *s = scenario_dec__string(dec, v, field);

			if (s != NULL && !xr_mig_strategy_parse(s, &m.xr.mig_strategy))
				scenario_dec__error(dec, v, field,
				                    "expected none, single or mixed, "
				                    "got \"%s\"",
				                    s);
		} else if (strcmp(key, "sharing") == 0) {
			decode_sharing(dec, v, field, &m);
		} else if (strcmp(key, "mig") == 0 && scenario_dec__map(dec, v, field)) {
			decode_mode_layouts(dec, v, field, &m);
		} else if (strcmp(key, "policy") == 0) {
			scenario_spec__policy(dec, v, field, &m.policy, &m.policy_pos);
		} else if (strcmp(key, "score") == 0) {
			/* the key before issue 15: a clear error, not "unknown field" */
			scenario_dec__error(dec, node->map.pairs[pair].key, field,
			                    "score: is now policy: (write policy: %s; it takes a "
			                    "name or {name, resources, shape}, docs/scenario.md)",
			                    v->kind == K8S_YAML_SCALAR ? v->scalar.text : "NAME");
		} else if (strcmp(key, "percentageOfNodesToScore") == 0 &&
		           scenario_dec__uint(dec, v, field, 100, &n)) {
			m.percentage_of_nodes_to_score = (guint)n;
		} else if (strcmp(key, "featureGates") == 0) {
			decode_gates(dec, v, field, &m);
		}
	}
	decode_filter_timeout(dec, node, path, &m);
	scenario_whatif__decode(dec, node, path, &m);
	decode_mode_world(dec, node, path, &m);
	scenario_spec__check_policy_world(dec, node, path, &m);
	if (m.name == NULL)
		m.name = g_strdup(m.world == SCENARIO_WORLD_DRA ? "dra" : "extended");
	g_array_append_val(self->modes, m);
}

void
scenario_spec__modes(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node)
{
	if (node == NULL) {
		/* The default pair: the same workload in both worlds. */
		static const char *const names[] = { "dra", "extended" };

		for (guint i = 0; i < 2; i++) {
			ScenarioMode m = { .name = g_strdup(names[i]),
				           .world = i == 0 ? SCENARIO_WORLD_DRA
				                           : SCENARIO_WORLD_EXTENDED,
				           .extended_resource_gate = TRUE };

			cluster_score_policy_config_init(&m.policy);
			xr_config_init(&m.xr);
			m.xr.mig_strategy = XR_MIG_MIXED;
			m.layouts = g_array_new(FALSE, TRUE, sizeof(ScenarioPoolLayout));
			g_array_append_val(self->modes, m);
		}
		return;
	}
	if (!scenario_dec__seq(dec, node, "spec.modes"))
		return;
	if (node->seq.n == 0)
		scenario_dec__error(dec, node, "spec.modes", "expected at least one mode");
	for (guint i = 0; i < node->seq.n; i++) {
		g_autofree char *path = g_strdup_printf("spec.modes[%u]", i);

		decode_mode(self, dec, node->seq.items[i], path);
	}
}

void
scenario_spec__run(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node)
{
	static const char *const known[] = { "contextSwitch",         "timeSlice",
		                             "restartBackoffInitial", "restartBackoffMax",
		                             "restartKeepsProgress",  NULL };
	static const char *const slices[] = { "default", "short", "medium", "long", NULL };

	if (!scenario_dec__map(dec, node, "spec.run"))
		return;
	scenario_dec__check_keys(dec, node, "spec.run", known);
	FOREACH_PAIR(node, key, v)
	{
		g_autofree char *field = g_strdup_printf("spec.run.%s", key);

		if (strcmp(key, "contextSwitch") == 0)
			scenario_dec__duration(dec, v, field, &self->run.context_switch);
		else if (strcmp(key, "restartBackoffInitial") == 0)
			scenario_dec__duration(dec, v, field, &self->run.restart_backoff_initial);
		else if (strcmp(key, "restartBackoffMax") == 0)
			scenario_dec__duration(dec, v, field, &self->run.restart_backoff_max);
		else if (strcmp(key, "restartKeepsProgress") == 0)
			scenario_dec__bool(dec, v, field, &self->run.restart_keeps_progress);
		else if (strcmp(key, "timeSlice") == 0 && scenario_dec__map(dec, v, field)) {
			scenario_dec__check_keys(dec, v, field, slices);
			for (guint i = 0; slices[i] != NULL; i++) {
				const K8sYamlNode *s = k8s_yaml_map_lookup(v, slices[i]);
				g_autofree char *f2 = g_strdup_printf("%s.%s", field, slices[i]);

				if (s != NULL)
					scenario_dec__duration(dec, s, f2,
					                       &self->run.time_slice[i]);
			}
		}
	}
}
