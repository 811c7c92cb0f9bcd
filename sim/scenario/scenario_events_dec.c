/*
 * scenario_events_dec.c: spec.events, the timed node and device events of a
 * scenario, decoded strictly to plain values (ScenarioEvent): node failure
 * and restore, drain, cordon and uncordon, node taints, DRA device taints and
 * the NVIDIA mig-manager's reconfiguration, a node's NotReady flap, a
 * node's DRA driver unavailable, a driver republishing its pool (devices
 * removed or renamed), a pool incomplete for a while, a kubelet restart. Targets are checked
 * against the node pools here, and against the imported nodes once the inventory is loaded
 * (scenario_whatif_dec.c). sim/world replays them (world_events.c).
 */
#include <string.h>

#include "k8s_names.h"
#include "scenario-private.h"

static const char *const action_names[] = {
	"fail",
	"restore",
	"drain",
	"cordon",
	"uncordon",
	"taint",
	"untaint",
	"device-taint",
	"device-untaint",
	"mig-reconfigure",
	"not-ready",
	"driver-unavailable",
	"republish",
	"device-remove",
	"pool-incomplete",
	"kubelet-restart",
	NULL,
};

G_STATIC_ASSERT(G_N_ELEMENTS(action_names) == SCENARIO_N_EVENT_ACTIONS + 1);

const char *
scenario_event_action_get_name(ScenarioEventAction action)
{
	g_return_val_if_fail(action < SCENARIO_N_EVENT_ACTIONS, "?");
	return action_names[action];
}

void
scenario_event__clear(gpointer data)
{
	ScenarioEvent *e = data;

	g_free(e->node);
	g_free(e->pool);
	g_free(e->taint_key);
	g_free(e->taint_value);
	g_strfreev(e->devices);
	g_strfreev(e->renames);
	g_free(e->mig_config);
}

/* ============================================================ decoding */

static gboolean
is_taint_action(ScenarioEventAction a)
{
	return a == SCENARIO_EVENT_TAINT || a == SCENARIO_EVENT_UNTAINT ||
	       a == SCENARIO_EVENT_DEVICE_TAINT || a == SCENARIO_EVENT_DEVICE_UNTAINT;
}

gboolean
scenario_event_action_is_device(ScenarioEventAction a)
{
	return a == SCENARIO_EVENT_DEVICE_TAINT || a == SCENARIO_EVENT_DEVICE_UNTAINT;
}

const ScenarioPool *
scenario_lookup_node_pool(const Scenario *self, const char *node)
{
	for (guint i = 0; i < self->pools->len; i++) {
		const ScenarioPool *p = &g_array_index(self->pools, ScenarioPool, i);
		gsize len = strlen(p->name);
		char *end = NULL;
		guint64 k;

		if (strncmp(node, p->name, len) != 0 || node[len] != '-' ||
		    !g_ascii_isdigit(node[len + 1]))
			continue;
		k = g_ascii_strtoull(node + len + 1, &end, 10);
		if (*end == '\0' && k < p->count && (k == 0 || node[len + 1] != '0'))
			return p;
	}
	return NULL;
}

static void
decode_taint(ScenarioDec *dec, const K8sYamlNode *node, const char *path, ScenarioEvent *e)
{
	static const char *const known[] = { "key", "value", "effect", NULL };
	gboolean device = scenario_event_action_is_device(e->action);
	const K8sYamlNode *v;

	if (!scenario_dec__map(dec, node, path))
		return;
	scenario_dec__check_keys(dec, node, path, known);
	if ((v = k8s_yaml_map_lookup(node, "value")) != NULL) {
		g_autofree char *field = g_strdup_printf("%s.value", path);

		e->taint_value = scenario_dec__string(dec, v, field);
	}
	if ((v = k8s_yaml_map_lookup(node, "key")) != NULL) {
		g_autofree char *field = g_strdup_printf("%s.key", path);

		e->taint_key = scenario_dec__string(dec, v, field);
		if (e->taint_key != NULL && e->taint_key[0] == '\0')
			scenario_dec__error(dec, v, field, "expected a non-empty taint key");
	} else {
		g_autofree char *field = g_strdup_printf("%s.key", path);

		scenario_dec__error(dec, node, field, "expected the taint's key");
	}
	v = k8s_yaml_map_lookup(node, "effect");
	if (v == NULL) {
		g_autofree char *field = g_strdup_printf("%s.effect", path);

		scenario_dec__error(dec, node, field, "expected the taint's effect");
	} else {
		static const char *const names[] = { "NoSchedule", "PreferNoSchedule",
			                             "NoExecute" };
		static const ClusterTaintEffect effects[] = { CLUSTER_EFFECT_NO_SCHEDULE,
			                                      CLUSTER_EFFECT_PREFER_NO_SCHEDULE,
			                                      CLUSTER_EFFECT_NO_EXECUTE };
		/* DeviceTaint effects in resource.k8s.io 1.34: NoSchedule, NoExecute */
		static const char *const device_names[] = { "NoSchedule", "NoExecute" };
		static const ClusterTaintEffect device_effects[] = { CLUSTER_EFFECT_NO_SCHEDULE,
			                                             CLUSTER_EFFECT_NO_EXECUTE };
		g_autofree char *field = g_strdup_printf("%s.effect", path);
		guint i;

		if (!device && scenario_dec__choice(dec, v, field, names, 3, &i))
			e->taint_effect = effects[i];
		else if (device && scenario_dec__choice(dec, v, field, device_names, 2, &i))
			e->taint_effect = device_effects[i];
	}
}

static void
decode_devices(ScenarioDec *dec, const K8sYamlNode *node, const char *path, ScenarioEvent *e)
{
	g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func(g_free);

	if (!scenario_dec__seq(dec, node, path))
		return;
	if (node->seq.n == 0)
		scenario_dec__error(dec, node, path,
		                    "expected at least one device name (leave the field out for "
		                    "every device of the node)");
	for (guint i = 0; i < node->seq.n; i++) {
		g_autofree char *field = g_strdup_printf("%s[%u]", path, i);
		char *s = scenario_dec__string(dec, node->seq.items[i], field);

		if (s != NULL)
			g_ptr_array_add(list, s);
	}
	g_ptr_array_add(list, NULL);
	e->devices = (char **)g_ptr_array_steal(list, NULL);
}

static void
decode_action(ScenarioDec *dec, const K8sYamlNode *node, const char *path, ScenarioEvent *e)
{
	g_autofree char *field = g_strdup_printf("%s.action", path);
	const K8sYamlNode *v = k8s_yaml_map_lookup(node, "action");
	g_autofree char *s = NULL;

	e->action = SCENARIO_N_EVENT_ACTIONS;
	if (v == NULL) {
		scenario_dec__error(dec, node, field,
		                    "expected an action: fail, restore, drain, cordon, uncordon, "
		                    "taint, untaint, device-taint, device-untaint, "
		                    "mig-reconfigure, not-ready, driver-unavailable, republish, "
		                    "device-remove, pool-incomplete or kubelet-restart");
		return;
	}
	s = scenario_dec__string(dec, v, field);
	for (guint i = 0; s != NULL && action_names[i] != NULL; i++)
		if (strcmp(s, action_names[i]) == 0)
			e->action = (ScenarioEventAction)i;
	if (s != NULL && e->action == SCENARIO_N_EVENT_ACTIONS)
		scenario_dec__error(dec, v, field,
		                    "expected fail, restore, drain, cordon, uncordon, taint, "
		                    "untaint, device-taint, device-untaint, mig-reconfigure, "
		                    "not-ready, driver-unavailable, republish, device-remove, "
		                    "pool-incomplete or kubelet-restart, got \"%s\"",
		                    s);
}

/* A field that only some actions take. */
static void
reject_field(ScenarioDec *dec,
             const K8sYamlNode *node,
             const char *path,
             const char *key,
             const ScenarioEvent *e,
             const char *who)
{
	const K8sYamlNode *v = k8s_yaml_map_lookup(node, key);

	if (v != NULL) {
		g_autofree char *field = g_strdup_printf("%s.%s", path, key);

		scenario_dec__error(dec, v, field, "%s applies to %s only, not to %s", key, who,
		                    action_names[e->action]);
	}
}

/* node, or nodePool with index and count. */
static void
decode_target(Scenario *self,
              ScenarioDec *dec,
              const K8sYamlNode *node,
              const char *path,
              ScenarioEvent *e)
{
	const K8sYamlNode *n = k8s_yaml_map_lookup(node, "node");
	const K8sYamlNode *p = k8s_yaml_map_lookup(node, "nodePool");
	const K8sYamlNode *idx = k8s_yaml_map_lookup(node, "index");
	const K8sYamlNode *cnt = k8s_yaml_map_lookup(node, "count");
	const ScenarioPool *pool = NULL;
	guint64 v;

	if ((n == NULL) == (p == NULL)) {
		g_autofree char *field = g_strdup_printf("%s.node", path);

		scenario_dec__error(dec, n != NULL ? n : node, field,
		                    "expected exactly one of node and nodePool");
		return;
	}
	if (n != NULL) {
		g_autofree char *field = g_strdup_printf("%s.node", path);

		e->node = scenario_dec__string(dec, n, field);
		e->node_pos = scenario_dec__pos(dec, n);
		/* imported nodes are known once the inventory is loaded (scenario_load.c) */
		if (e->node != NULL && self->inventory_paths == NULL &&
		    scenario_lookup_node_pool(self, e->node) == NULL) {
			g_autofree char *message = scenario_whatif__unknown_node(self, e->node);

			scenario_dec__error(dec, n, field,
			                    "%s (nodes are named <pool>-<k>, k from 0 to the "
			                    "pool's count - 1)",
			                    message);
		}
		if (idx != NULL || cnt != NULL) {
			g_autofree char *f2 =
			        g_strdup_printf("%s.%s", path, idx != NULL ? "index" : "count");

			scenario_dec__error(
			        dec, idx != NULL ? idx : cnt, f2,
			        "index and count select nodes of a nodePool, not of node");
		}
		return;
	}
	{
		g_autofree char *field = g_strdup_printf("%s.nodePool", path);

		e->pool = scenario_dec__string(dec, p, field);
		pool = e->pool != NULL ? scenario_lookup_pool(self, e->pool) : NULL;
		if (e->pool != NULL && pool == NULL)
			scenario_dec__error(dec, p, field, "no node pool \"%s\" in spec.cluster",
			                    e->pool);
	}
	if (idx != NULL) {
		g_autofree char *field = g_strdup_printf("%s.index", path);

		if (scenario_dec__uint(dec, idx, field, 100000, &v)) {
			e->index = (guint)v;
			if (pool != NULL && e->index >= pool->count)
				scenario_dec__error(dec, idx, field,
				                    "expected an index below the pool's count %u",
				                    pool->count);
		}
	}
	if (cnt != NULL) {
		g_autofree char *field = g_strdup_printf("%s.count", path);

		if (scenario_dec__uint(dec, cnt, field, 100000, &v)) {
			e->count = (guint)v;
			if (v == 0)
				scenario_dec__error(dec, cnt, field, "expected count >= 1");
			else if (pool != NULL && (guint64)e->index + v > pool->count)
				scenario_dec__error(
				        dec, cnt, field,
				        "index %u + count %u is past the pool's %u nodes", e->index,
				        e->count, pool->count);
		}
	}
}

/* The node pool the event reaches (@pool) and its catalog shape, or NULL. */
static const HwNodeShape *
event_shape(const Scenario *self, const ScenarioEvent *e, const ScenarioPool **pool)
{
	*pool = e->pool != NULL
	                ? scenario_lookup_pool(self, e->pool)
	                : (e->node != NULL ? scenario_lookup_node_pool(self, e->node) : NULL);
	return *pool != NULL && (*pool)->shape != NULL
	               ? hw_catalog_lookup_shape(self->catalog, (*pool)->shape)
	               : NULL;
}

/* migConfig must apply to the GPU model of every pool the event reaches. */
static void
check_mig_config(Scenario *self,
                 ScenarioDec *dec,
                 const K8sYamlNode *v,
                 const char *field,
                 const ScenarioEvent *e)
{
	const ScenarioPool *pool;
	const HwNodeShape *shape = event_shape(self, e, &pool);
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) inst = NULL;
	gboolean on = FALSE;

	if (strcmp(e->mig_config, "dynamic") == 0) {
		scenario_dec__error(dec, v, field,
		                    "expected a MIG layout; \"dynamic\" is a pool setting "
		                    "(spec.cluster.nodePools[].mig), not a mig-manager config");
		return;
	}
	if (shape == NULL)
		return;
	inst = hw_mig_layout_parse(shape->gpu_model, e->mig_config, &on, &error);
	if (inst == NULL)
		scenario_dec__error(dec, v, field, "%s", error->message);
}

/* mig-reconfigure: how long mig-manager takes; not-ready, driver-unavailable: how long. */
static void
decode_duration(ScenarioDec *dec, const K8sYamlNode *node, const char *path, ScenarioEvent *e)
{
	const K8sYamlNode *v = k8s_yaml_map_lookup(node, "duration");
	g_autofree char *field = g_strdup_printf("%s.duration", path);

	if (v != NULL && scenario_dec__duration(dec, v, field, &e->duration) && e->duration < 0)
		scenario_dec__error(dec, v, field, "expected a duration >= 0");
}

/* devices: optional for device-(un)taint and republish, required for
 * device-remove and pool-incomplete, refused elsewhere. */
static void
decode_event_devices(ScenarioDec *dec, const K8sYamlNode *node, const char *path, ScenarioEvent *e)
{
	g_autofree char *field = g_strdup_printf("%s.devices", path);
	const K8sYamlNode *v = k8s_yaml_map_lookup(node, "devices");
	gboolean required = e->action == SCENARIO_EVENT_DEVICE_REMOVE ||
	                    e->action == SCENARIO_EVENT_POOL_INCOMPLETE;

	if (!scenario_event_action_is_device(e->action) && e->action != SCENARIO_EVENT_REPUBLISH &&
	    !required)
		reject_field(dec, node, path, "devices", e,
		             "device-taint, device-untaint, republish, device-remove and "
		             "pool-incomplete");
	else if (v != NULL)
		decode_devices(dec, v, field, e);
	else if (required)
		scenario_dec__error(dec, node, field,
		                    "expected the names of the devices %s (as the node's "
		                    "ResourceSlices name them, e.g. gpu-0)",
		                    e->action == SCENARIO_EVENT_DEVICE_REMOVE
		                            ? "the driver stops publishing"
		                            : "of the slice published late");
}

/* The gpu.nvidia.com device names a node of the event's pool publishes
 * (its MIG layout applied), or NULL when the target is not a catalog pool. */
static GPtrArray *
published_gpu_names(Scenario *self, const ScenarioEvent *e)
{
	const ScenarioPool *pool;
	const HwNodeShape *shape = event_shape(self, e, &pool);
	g_autoptr(HwNode) hw = shape != NULL ? hw_node_new(shape, pool->name) : NULL;
	g_autoptr(GPtrArray) slices = NULL;
	GPtrArray *names;
	HwPublishOptions opts;

	if (hw == NULL || (pool->mig != NULL && strcmp(pool->mig, "dynamic") != 0 &&
	                   !hw_node_apply_layout(hw, pool->mig, NULL)))
		return NULL;
	hw_publish_options_init(&opts);
	slices = hw_publish_nvidia(hw, &opts);
	names = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < slices->len; i++) {
		const HwSlice *sl = slices->pdata[i];

		for (guint d = 0; d < sl->devices->len; d++)
			g_ptr_array_add(names, g_strdup(((HwDevice *)sl->devices->pdata[d])->name));
	}
	return names;
}

/* One old: new pair of renames, appended to @out (the pairs so far). */
static void
decode_rename(ScenarioDec *dec,
              const K8sYamlPair *pair,
              const char *path,
              GPtrArray *published,
              const ScenarioEvent *e,
              GPtrArray *out)
{
	const char *old_name = pair->key->scalar.text;
	g_autofree char *field = g_strdup_printf("%s.%s", path, old_name);
	g_autofree char *new_name = scenario_dec__string(dec, pair->value, field);
	g_autoptr(GPtrArray) bad = new_name != NULL ? k8s_names_dns1123_label(new_name) : NULL;

	if (published != NULL &&
	    !g_ptr_array_find_with_equal_func(published, old_name, g_str_equal, NULL)) {
		g_autoptr(GString) valid = g_string_new(NULL);

		for (guint i = 0; i < published->len; i++)
			g_string_append_printf(valid, "%s%s", i > 0 ? ", " : "",
			                       (const char *)published->pdata[i]);

		scenario_dec__error(dec, pair->key, field,
		                    "the node publishes no device %s; its gpu.nvidia.com "
		                    "devices: %s",
		                    old_name, valid->str);
	} else if (e->devices != NULL &&
	           g_strv_contains((const char *const *)e->devices, old_name)) {
		scenario_dec__error(dec, pair->key, field,
		                    "%s is in devices (left out): a device is left out or renamed, "
		                    "not both",
		                    old_name);
	}
	if (new_name == NULL)
		return;
	if (bad != NULL)
		scenario_dec__error(dec, pair->value, field,
		                    "expected a device name (a DNS-1123 label, e.g. gpu-8): %s",
		                    (const char *)bad->pdata[0]);
	else if ((published != NULL &&
	          g_ptr_array_find_with_equal_func(published, new_name, g_str_equal, NULL)) ||
	         g_ptr_array_find_with_equal_func(out, new_name, g_str_equal, NULL))
		scenario_dec__error(dec, pair->value, field,
		                    "%s is already a device name of the pool: expected a new name",
		                    new_name);
	g_ptr_array_add(out, g_strdup(old_name));
	g_ptr_array_add(out, g_steal_pointer(&new_name));
}

/* renames (republish only): {old-name: new-name, ...}, into e->renames as
 * old, new pairs. */
static void
decode_renames(Scenario *self,
               ScenarioDec *dec,
               const K8sYamlNode *node,
               const char *path,
               ScenarioEvent *e)
{
	g_autofree char *field = g_strdup_printf("%s.renames", path);
	const K8sYamlNode *v = k8s_yaml_map_lookup(node, "renames");
	g_autoptr(GPtrArray) published = NULL;
	g_autoptr(GPtrArray) pairs = NULL;

	if (e->action != SCENARIO_EVENT_REPUBLISH) {
		reject_field(dec, node, path, "renames", e, "republish");
		return;
	}
	if (v == NULL || !scenario_dec__map(dec, v, field))
		return;
	if (v->map.n == 0)
		scenario_dec__error(dec, v, field,
		                    "expected at least one old-name: new-name pair (leave the "
		                    "field out to rename nothing)");
	published = published_gpu_names(self, e);
	pairs = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < v->map.n; i++)
		decode_rename(dec, &v->map.pairs[i], field, published, e, pairs);
	g_ptr_array_add(pairs, NULL);
	e->renames = (char **)g_ptr_array_steal(pairs, NULL);
}

static void
decode_event(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node, const char *path)
{
	static const char *const known[] = { "at",        "action",   "node",    "nodePool",
		                             "index",     "count",    "taint",   "devices",
		                             "migConfig", "duration", "renames", NULL };
	ScenarioEvent e = { .duration = -1 };
	const K8sYamlNode *v;

	if (!scenario_dec__map(dec, node, path))
		return;
	e.pos = scenario_dec__pos(dec, node);
	scenario_dec__check_keys(dec, node, path, known);
	if ((v = k8s_yaml_map_lookup(node, "at")) != NULL) {
		g_autofree char *field = g_strdup_printf("%s.at", path);

		if (scenario_dec__duration(dec, v, field, &e.at) && e.at < 0)
			scenario_dec__error(dec, v, field, "expected a time >= 0");
	} else {
		g_autofree char *field = g_strdup_printf("%s.at", path);

		scenario_dec__error(dec, node, field,
		                    "expected the time of the event (a duration from the start)");
	}
	decode_action(dec, node, path, &e);
	decode_target(self, dec, node, path, &e);
	if (e.action == SCENARIO_N_EVENT_ACTIONS) {
		scenario_event__clear(&e);
		return;
	}
	if (is_taint_action(e.action)) {
		g_autofree char *field = g_strdup_printf("%s.taint", path);

		if ((v = k8s_yaml_map_lookup(node, "taint")) != NULL)
			decode_taint(dec, v, field, &e);
		else
			scenario_dec__error(dec, node, field, "expected the taint: key, effect");
	} else {
		reject_field(dec, node, path, "taint", &e, "taint actions");
	}
	decode_event_devices(dec, node, path, &e);
	decode_renames(self, dec, node, path, &e);
	if (e.action == SCENARIO_EVENT_MIG_RECONFIGURE) {
		g_autofree char *field = g_strdup_printf("%s.migConfig", path);

		if ((v = k8s_yaml_map_lookup(node, "migConfig")) == NULL)
			scenario_dec__error(dec, node, field,
			                    "expected the MIG layout to install (the value of "
			                    "nvidia.com/mig.config), e.g. all-1g.10gb");
		else if ((e.mig_config = scenario_dec__string(dec, v, field)) != NULL)
			check_mig_config(self, dec, v, field, &e);
	} else {
		reject_field(dec, node, path, "migConfig", &e, "mig-reconfigure");
	}
	if (e.action == SCENARIO_EVENT_MIG_RECONFIGURE || e.action == SCENARIO_EVENT_NOT_READY ||
	    e.action == SCENARIO_EVENT_DRIVER_DOWN || e.action == SCENARIO_EVENT_POOL_INCOMPLETE ||
	    e.action == SCENARIO_EVENT_KUBELET_RESTART)
		decode_duration(dec, node, path, &e);
	else
		reject_field(dec, node, path, "duration", &e,
		             "mig-reconfigure, not-ready, driver-unavailable, pool-incomplete and "
		             "kubelet-restart");
	g_array_append_val(self->events, e);
}

void
scenario_events__decode(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node)
{
	if (!scenario_dec__seq(dec, node, "spec.events"))
		return;
	/* Spec order is kept: events at the same time apply in that order. */
	for (guint i = 0; i < node->seq.n; i++) {
		g_autofree char *path = g_strdup_printf("spec.events[%u]", i);

		decode_event(self, dec, node->seq.items[i], path);
	}
}
