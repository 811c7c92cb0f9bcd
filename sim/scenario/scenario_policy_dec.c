/*
 * scenario_policy_dec.c: a mode's `policy:`, the score policy and its
 * arguments, decoded into sim/cluster's ClusterScorePolicyConfig and checked
 * as kube-scheduler checks its plugin arguments
 * (pkg/scheduler/apis/config/validation/validation_pluginargs.go, defaults
 * from pkg/scheduler/apis/config/v1/defaults.go). A name alone, or
 * {name, resources: [{name, weight}], shape: [{utilization, score}]}.
 */
#include <string.h>

#include "k8s_names.h"
#include "scenario-private.h"

/* The policy names a scenario mode takes ("A, B, C or D"): sim/cluster's
 * table, kube-scheduler's four and the paper's six. */
static char *
mode_policy_names(void)
{
	const char *const *names = cluster_sched_score_policy_names();
	GString *out = g_string_new(NULL);
	guint n = 0;

	while (names[n] != NULL)
		n++;
	for (guint i = 0; i < n; i++)
		g_string_append_printf(out, "%s%s",
		                       i == 0      ? ""
		                       : i + 1 < n ? ", "
		                                   : " or ",
		                       names[i]);
	return g_string_free(out, FALSE);
}

/* The policy named by @node, from sim/cluster's table; NULL after an error
 * (an unknown name lists the valid ones). */
static const char *
decode_name(ScenarioDec *dec, const K8sYamlNode *node, const char *path)
{
	const char *const *names = cluster_sched_score_policy_names();
	g_autofree char *name = scenario_dec__string(dec, node, path);
	g_autofree char *valid = NULL;

	if (name == NULL)
		return NULL; /* not a string: scenario_dec__string said so */
	for (guint i = 0; names[i] != NULL; i++) {
		if (strcmp(names[i], name) == 0)
			return names[i];
	}
	valid = mode_policy_names();
	scenario_dec__error(dec, node, path, "expected %s, got \"%s\"", valid, name);
	return NULL;
}

/* A resource name scoring can read: the node's cpu, memory, ephemeral-storage,
 * or an extended resource (v1helper.IsExtendedResourceName). */
static gboolean
valid_resource_name(const char *name)
{
	return strcmp(name, "cpu") == 0 || strcmp(name, "memory") == 0 ||
	       strcmp(name, "ephemeral-storage") == 0 || k8s_names_is_extended_resource_name(name);
}

static void
decode_resource(ScenarioDec *dec,
                const K8sYamlNode *node,
                const char *path,
                ClusterScorePolicyConfig *config)
{
	static const char *const known[] = { "name", "weight", NULL };
	ClusterPolicyResource res = { NULL, 1 };
	const K8sYamlNode *weight = NULL;
	gboolean named = FALSE;

	if (!scenario_dec__map(dec, node, path))
		return;
	scenario_dec__check_keys(dec, node, path, known);
	for (guint i = 0; i < node->map.n; i++) {
		const char *key = node->map.pairs[i].key->scalar.text;
		const K8sYamlNode *v = node->map.pairs[i].value;
		g_autofree char *field = g_strdup_printf("%s.%s", path, key);
		guint64 w;

		named = named || strcmp(key, "name") == 0;
		if (strcmp(key, "name") == 0 && (res.name = scenario_dec__string(dec, v, field)) &&
		    !valid_resource_name(res.name))
			scenario_dec__error(
			        dec, v, field,
			        "expected cpu, memory, ephemeral-storage or an extended "
			        "resource name (domain/name, e.g. nvidia.com/gpu), got \"%s\"",
			        res.name);
		/* validateResources: (0, 100]; 0 or unset is 1 (SetDefaults_*Args) */
		if (strcmp(key, "weight") == 0 &&
		    scenario_dec__uint(dec, v, field, CLUSTER_MAX_RESOURCE_WEIGHT, &w)) {
			res.weight = w == 0 ? 1 : (gint64)w;
			weight = v;
		}
	}
	if (res.name == NULL) {
		if (!named)
			scenario_dec__error(dec, node, path,
			                    "expected a name (e.g. cpu or nvidia.com/gpu)");
		return;
	}
	/* ValidateNodeResourcesBalancedAllocationArgs: weights must be 1, names once */
	if (weight != NULL && res.weight != 1 &&
	    cluster_score_policy_balanced_resources(config->name)) {
		g_autofree char *field = g_strdup_printf("%s.weight", path);

		scenario_dec__error(dec, weight, field,
		                    "must be 1: BalancedAllocation weighs every resource alike "
		                    "(NodeResourcesBalancedAllocationArgs), got %" G_GINT64_FORMAT,
		                    res.weight);
	}
	for (guint i = 0; i < config->n_resources; i++) {
		if (cluster_score_policy_balanced_resources(config->name) &&
		    strcmp(config->resources[i].name, res.name) == 0)
			scenario_dec__error(
			        dec, node, path,
			        "duplicate resource \"%s\" (BalancedAllocation lists each "
			        "resource once)",
			        res.name);
	}
	config->resources[config->n_resources++] = res;
}

static void
decode_resources(ScenarioDec *dec,
                 const K8sYamlNode *node,
                 const char *path,
                 ClusterScorePolicyConfig *config)
{
	if (!scenario_dec__seq(dec, node, path))
		return;
	if (node->seq.n > CLUSTER_RES_MAX) {
		scenario_dec__error(dec, node, path, "expected at most %d resources, got %u",
		                    CLUSTER_RES_MAX, node->seq.n);
		return;
	}
	for (guint i = 0; i < node->seq.n; i++) {
		g_autofree char *item = g_strdup_printf("%s[%u]", path, i);

		decode_resource(dec, node->seq.items[i], item, config);
	}
}

static void
decode_point(ScenarioDec *dec,
             const K8sYamlNode *node,
             const char *path,
             guint index,
             ClusterScorePolicyConfig *config)
{
	static const char *const known[] = { "utilization", "score", NULL };
	ClusterShapePoint *p = &config->shape[index];
	const K8sYamlNode *util = NULL;
	guint64 n;

	if (!scenario_dec__map(dec, node, path))
		return;
	scenario_dec__check_keys(dec, node, path, known);
	for (guint i = 0; i < node->map.n; i++) {
		const char *key = node->map.pairs[i].key->scalar.text;
		const K8sYamlNode *v = node->map.pairs[i].value;
		g_autofree char *field = g_strdup_printf("%s.%s", path, key);

		/* validateFunctionShape: utilization in [0, 100], score in [0, 10] */
		if (strcmp(key, "utilization") == 0 && scenario_dec__uint(dec, v, field, 100, &n)) {
			p->utilization = (gint64)n;
			util = v;
		} else if (strcmp(key, "score") == 0 &&
		           scenario_dec__uint(dec, v, field, CLUSTER_MAX_CUSTOM_PRIORITY_SCORE,
		                              &n)) {
			p->score = (gint64)n;
		}
	}
	if (util != NULL && index > 0 && p->utilization <= config->shape[index - 1].utilization) {
		g_autofree char *field = g_strdup_printf("%s.utilization", path);

		scenario_dec__error(dec, util, field,
		                    "values must be sorted in increasing order: %" G_GINT64_FORMAT
		                    " follows %" G_GINT64_FORMAT,
		                    p->utilization, config->shape[index - 1].utilization);
	}
}

static void
decode_shape(ScenarioDec *dec,
             const K8sYamlNode *node,
             const char *path,
             ClusterScorePolicyConfig *config)
{
	if (!cluster_score_policy_takes_shape(config->name)) {
		/* ValidateNodeResourcesFitArgs: forbidden unless the type is RTCR */
		scenario_dec__error(
		        dec, node, path,
		        "only RequestedToCapacityRatio takes a shape; %s takes resources",
		        config->name);
		return;
	}
	if (!scenario_dec__seq(dec, node, path))
		return;
	if (node->seq.n == 0 || node->seq.n > CLUSTER_MAX_SHAPE_POINTS) {
		scenario_dec__error(dec, node, path, "expected 1 to %d points, got %u",
		                    CLUSTER_MAX_SHAPE_POINTS, node->seq.n);
		return;
	}
	for (guint i = 0; i < node->seq.n; i++) {
		g_autofree char *item = g_strdup_printf("%s[%u]", path, i);

		decode_point(dec, node->seq.items[i], item, i, config);
	}
	config->n_shape = node->seq.n;
}

static void
decode_mapping(ScenarioDec *dec,
               const K8sYamlNode *node,
               const char *path,
               ClusterScorePolicyConfig *config)
{
	static const char *const known[] = { "name", "resources", "shape", NULL };
	const K8sYamlNode *name = NULL, *resources = NULL, *shape = NULL;

	scenario_dec__check_keys(dec, node, path, known);
	for (guint i = 0; i < node->map.n; i++) {
		const char *key = node->map.pairs[i].key->scalar.text;
		const K8sYamlNode *v = node->map.pairs[i].value;

		if (strcmp(key, "name") == 0)
			name = v;
		else if (strcmp(key, "resources") == 0)
			resources = v;
		else if (strcmp(key, "shape") == 0)
			shape = v;
	}
	if (name == NULL) {
		g_autofree char *valid = mode_policy_names();

		scenario_dec__error(dec, node, path, "expected a name: %s", valid);
		return;
	}
	g_autofree char *field = g_strdup_printf("%s.name", path);

	config->name = decode_name(dec, name, field);
	if (config->name == NULL)
		return;
	if (resources != NULL) {
		g_autofree char *rpath = g_strdup_printf("%s.resources", path);

		if (cluster_sched_score_policy_needs_gpushare(config->name))
			scenario_dec__error(dec, resources, rpath,
			                    "%s takes no resources: it scores CPU and GPUs as the "
			                    "FGD paper defines it",
			                    config->name);
		else
			decode_resources(dec, resources, rpath, config);
	}
	if (shape != NULL) {
		g_autofree char *spath = g_strdup_printf("%s.shape", path);

		decode_shape(dec, shape, spath, config);
	}
}

void
scenario_spec__policy(ScenarioDec *dec,
                      const K8sYamlNode *node,
                      const char *path,
                      ClusterScorePolicyConfig *config,
                      K8sPos *pos)
{
	*pos = scenario_dec__pos(dec, node);
	if (node->kind == K8S_YAML_MAPPING) {
		decode_mapping(dec, node, path, config);
	} else {
		const char *name = decode_name(dec, node, path);

		if (name != NULL)
			config->name = name;
	}
	if (config->name == NULL)
		config->name = cluster_sched_score_policy_names()[0];
}

/*
 * `devicePick: production|policy` (docs/research/scenario-policies.md section
 * 5): production (the default) leaves the GPUs to the device plugin or the
 * DRA allocator's first fit; policy lets one of the paper's six pick them
 * (cluster_gpushare_pick), beyond production, so a kube-scheduler policy,
 * which picks no GPU, cannot take it.
 */
static void
decode_device_pick(ScenarioDec *dec,
                   const K8sYamlNode *mode,
                   const char *mode_path,
                   ScenarioMode *m)
{
	static const char *const names[] = { "production", "policy" };
	const K8sYamlNode *node = k8s_yaml_map_lookup(mode, "devicePick");
	g_autofree char *path = g_strdup_printf("%s.devicePick", mode_path);
	guint i;

	if (node == NULL || !scenario_dec__choice(dec, node, path, names, 2, &i) || i == 0)
		return;
	if (!cluster_sched_score_policy_needs_gpushare(m->policy.name)) {
		scenario_dec__error(dec, node, path,
		                    "devicePick policy needs a policy that picks GPUs: Random, "
		                    "DotProd, GpuClustering, GpuPacking, BestFit or FGD (policy is "
		                    "%s); with it, the valid value is production",
		                    m->policy.name);
		return;
	}
	m->device_pick_policy = TRUE;
}

/*
 * The paper's six score each GPU's free share (docs/research/scenario-policies.md):
 * whole GPUs in either world (nvidia.com/gpu devices, or the DRA driver's GPU
 * devices and the claims' allocations). A time-sliced or MPS replica is an
 * advertised unit, not a measured share of a GPU; the DRA world's GpuConfig
 * sharing and MIG are refused when the run meets them (world_gpushare.c).
 */
void
scenario_spec__check_policy_world(ScenarioDec *dec,
                                  const K8sYamlNode *mode,
                                  const char *mode_path,
                                  ScenarioMode *m)
{
	const K8sYamlNode *node = k8s_yaml_map_lookup(mode, "policy");
	g_autofree char *path = g_strdup_printf("%s.policy", mode_path);

	decode_device_pick(dec, mode, mode_path, m);
	if (node == NULL || !cluster_sched_score_policy_needs_gpushare(m->policy.name))
		return;
	if (m->world == SCENARIO_WORLD_EXTENDED && m->xr.sharing != XR_SHARING_NONE)
		scenario_dec__error(dec, node, path,
		                    "score policy %s reads each GPU's free share, which a "
		                    "time-sliced or MPS replica is not: use it with sharing "
		                    "strategy none (docs/research/scenario-policies.md)",
		                    m->policy.name);
}
