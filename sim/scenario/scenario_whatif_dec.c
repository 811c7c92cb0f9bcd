/*
 * scenario_whatif_dec.c: the what-if keys of a mode on an imported cluster
 * (docs/import.md, "What-if modes"): addNodes [{like, count}], removeNodes and
 * drainNodes [NODE...], and mig: keyed by an imported node besides a pool.
 * Decoding only checks their form; once the inventory (spec.cluster.objects)
 * is loaded, scenario_mode_check_nodes() checks every name against its Nodes,
 * and sim/world's world_inventory__build() calls it again before editing.
 */
#include <string.h>

#include "base.h"
#include "base_strict.h"
#include "scenario-private.h"

#define MAX_CLONES 10000u

/* removeNodes / drainNodes: a list of node names, with their positions. */
static void
decode_names(
        ScenarioDec *dec, const K8sYamlNode *v, const char *path, GPtrArray **names, GArray **pos)
{
	if (!scenario_dec__seq(dec, v, path))
		return;
	*names = g_ptr_array_new_with_free_func(g_free);
	*pos = g_array_new(FALSE, TRUE, sizeof(K8sPos));
	for (guint i = 0; i < v->seq.n; i++) {
		g_autofree char *field = g_strdup_printf("%s[%u]", path, i);
		char *name = scenario_dec__string(dec, v->seq.items[i], field);
		K8sPos at = scenario_dec__pos(dec, v->seq.items[i]);

		if (name == NULL)
			continue;
		g_ptr_array_add(*names, name);
		g_array_append_val(*pos, at);
	}
}

/* addNodes: [{like: NODE, count: N}], N in [1, 10000]. */
static void
decode_clones(ScenarioDec *dec, const K8sYamlNode *v, const char *path, ScenarioMode *m)
{
	static const char *const known[] = { "like", "count", NULL };

	if (!scenario_dec__seq(dec, v, path))
		return;
	m->add_nodes = g_array_new(FALSE, TRUE, sizeof(ScenarioNodeClone));
	for (guint i = 0; i < v->seq.n; i++) {
		const K8sYamlNode *item = v->seq.items[i];
		g_autofree char *field = g_strdup_printf("%s[%u]", path, i);
		g_autofree char *f_like = g_strdup_printf("%s.like", field);
		g_autofree char *f_count = g_strdup_printf("%s.count", field);
		const K8sYamlNode *like, *count;
		ScenarioNodeClone c = { NULL, 1, scenario_dec__pos(dec, item) };
		guint64 n;

		if (!scenario_dec__map(dec, item, field))
			continue;
		scenario_dec__check_keys(dec, item, field, known);
		like = k8s_yaml_map_lookup(item, "like");
		count = k8s_yaml_map_lookup(item, "count");
		if (like == NULL) {
			scenario_dec__error(dec, item, f_like,
			                    "expected the name of an imported node");
			continue;
		}
		c.like = scenario_dec__string(dec, like, f_like);
		c.pos = scenario_dec__pos(dec, like);
		if (count != NULL && scenario_dec__uint(dec, count, f_count, MAX_CLONES, &n)) {
			if (n == 0)
				scenario_dec__error(dec, count, f_count,
				                    "expected a count >= 1, got 0");
			c.count = (guint)n;
		}
		if (c.like != NULL)
			g_array_append_val(m->add_nodes, c);
	}
}

void
scenario_whatif__decode(ScenarioDec *dec,
                        const K8sYamlNode *mode,
                        const char *path,
                        ScenarioMode *m)
{
	const K8sYamlNode *v;
	g_autofree char *f_add = g_strdup_printf("%s.addNodes", path);
	g_autofree char *f_remove = g_strdup_printf("%s.removeNodes", path);
	g_autofree char *f_drain = g_strdup_printf("%s.drainNodes", path);

	if ((v = k8s_yaml_map_lookup(mode, "addNodes")) != NULL)
		decode_clones(dec, v, f_add, m);
	if ((v = k8s_yaml_map_lookup(mode, "removeNodes")) != NULL)
		decode_names(dec, v, f_remove, &m->remove_nodes, &m->remove_pos);
	if ((v = k8s_yaml_map_lookup(mode, "drainNodes")) != NULL)
		decode_names(dec, v, f_drain, &m->drain_nodes, &m->drain_pos);
}

void
scenario_whatif__clear(ScenarioMode *m)
{
	for (guint i = 0; m->add_nodes != NULL && i < m->add_nodes->len; i++)
		g_free(g_array_index(m->add_nodes, ScenarioNodeClone, i).like);
	g_clear_pointer(&m->add_nodes, g_array_unref);
	g_clear_pointer(&m->remove_nodes, g_ptr_array_unref);
	g_clear_pointer(&m->drain_nodes, g_ptr_array_unref);
	g_clear_pointer(&m->remove_pos, g_array_unref);
	g_clear_pointer(&m->drain_pos, g_array_unref);
}

/* What a name must be, for its error message and its list of valid names. */
typedef enum {
	NAME_IMPORTED,         /* an imported node */
	NAME_POOL_OR_IMPORTED, /* mig: a node pool or an imported node */
	NAME_NODE,             /* an event's node: a pool's <pool>-<k> or an imported node */
} NameKind;

/* The valid names for @kind: the pools' (or their nodes'), then the imported
 * nodes (Nodes, then nodes known only from their slices' nodeName); @strings
 * holds the pool nodes' names. NULL-terminated. */
static GPtrArray *
valid_names(const Scenario *self, NameKind kind, GStringChunk *strings)
{
	GPtrArray *out = g_ptr_array_new();
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
	const K8sKind kinds[] = { K8S_KIND_NODE, K8S_KIND_RESOURCE_SLICE };

	for (guint i = 0; kind != NAME_IMPORTED && self->pools != NULL && i < self->pools->len;
	     i++) {
		const ScenarioPool *p = &g_array_index(self->pools, ScenarioPool, i);

		if (kind == NAME_POOL_OR_IMPORTED)
			g_ptr_array_add(out, p->name);
		for (guint k = 0; kind == NAME_NODE && k < p->count; k++) {
			g_autofree char *node = g_strdup_printf("%s-%u", p->name, k);

			g_ptr_array_add(out, g_string_chunk_insert(strings, node));
		}
	}
	for (guint k = 0; self->inventory != NULL && k < G_N_ELEMENTS(kinds); k++) {
		for (guint i = 0; i < k8s_object_set_count_kind(self->inventory, kinds[k]); i++) {
			K8sObject *obj = k8s_object_set_get_kind(self->inventory, kinds[k], i);
			const K8sResourceSlice *s = k8s_object_as_resource_slice(obj);
			const char *name = s != NULL ? s->spec.node_name : obj->metadata.name;

			if (name != NULL && g_hash_table_add(seen, (gpointer)name))
				g_ptr_array_add(out, (gpointer)name);
		}
	}
	g_ptr_array_add(out, NULL);
	return out;
}

/* "\"n\" is no KIND (valid: a, b, c (and N more)); did you mean \"x\"?" (transfer full) */
static char *
unknown_name(const Scenario *self, const char *name, NameKind kind)
{
	static const char *const what[] = { "imported node", "node pool or imported node",
		                            "node of a pool or imported node" };
	GStringChunk *strings = g_string_chunk_new(256);
	g_autoptr(GPtrArray) names = valid_names(self, kind, strings);
	const char *closest = base_strict_closest(name, (const char *const *)names->pdata);
	GString *out = g_string_new(NULL);
	guint n = names->len - 1;

	g_string_printf(out, "\"%s\" is no %s (valid: ", name,
	                kind == NAME_NODE && self->inventory_paths == NULL ? "node of a pool"
	                                                                   : what[kind]);
	for (guint i = 0; i < n && i < 8; i++)
		g_string_append_printf(out, "%s%s", i > 0 ? ", " : "",
		                       (const char *)names->pdata[i]);
	if (n > 8)
		g_string_append_printf(out, " (and %u more)", n - 8);
	g_string_append(out, n == 0 ? "none)" : ")");
	if (closest != NULL)
		g_string_append_printf(out, "; did you mean \"%s\"?", closest);
	g_string_chunk_free(strings);
	return g_string_free(out, FALSE);
}

static void
name_error(const Scenario *self,
           K8sDiagList *diags,
           const K8sPos *pos,
           const char *field,
           const char *name,
           NameKind kind)
{
	g_autofree char *message = unknown_name(self, name, kind);

	k8s_diag_list_error(diags, pos, field, "%s", message);
}

char *
scenario_whatif__unknown_node(const Scenario *self, const char *name)
{
	return unknown_name(self, name, NAME_NODE);
}

/* A Node of the inventory, or (@inferred) a node only its slices' nodeName names. */
static gboolean
is_node(const Scenario *self, const char *name, gboolean inferred)
{
	if (self->inventory == NULL)
		return FALSE;
	if (k8s_object_set_lookup(self->inventory, K8S_KIND_NODE, NULL, name) != NULL)
		return TRUE;
	for (guint i = 0;
	     inferred && i < k8s_object_set_count_kind(self->inventory, K8S_KIND_RESOURCE_SLICE);
	     i++) {
		const K8sResourceSlice *s = k8s_object_as_resource_slice(
		        k8s_object_set_get_kind(self->inventory, K8S_KIND_RESOURCE_SLICE, i));

		if (g_strcmp0(s->spec.node_name, name) == 0)
			return TRUE;
	}
	return FALSE;
}

/* removeNodes (@drain FALSE) or drainNodes: cordoning sets a Node's
 * spec.unschedulable, so a node known only from slices cannot be drained. */
static guint
check_list(const Scenario *self,
           const GPtrArray *names,
           const GArray *pos,
           const char *path,
           gboolean drain,
           K8sDiagList *diags)
{
	guint bad = 0;

	for (guint i = 0; names != NULL && i < names->len; i++) {
		g_autofree char *field = g_strdup_printf("%s[%u]", path, i);
		const char *name = g_ptr_array_index(names, i);
		const K8sPos *at = &g_array_index(pos, K8sPos, i);

		if (!is_node(self, name, TRUE) && ++bad)
			name_error(self, diags, at, field, name, NAME_IMPORTED);
		else if (drain && !is_node(self, name, FALSE) && ++bad)
			k8s_diag_list_error(diags, at, field,
			                    "node %s is known only from its slices' nodeName: "
			                    "draining cordons a Node (spec.unschedulable); give "
			                    "its Node object in spec.cluster.objects, or use "
			                    "removeNodes",
			                    name);
	}
	return bad;
}

gboolean
scenario_mode_check_nodes(const Scenario *self,
                          const ScenarioMode *mode,
                          guint index,
                          K8sDiagList *diags)
{
	g_autofree char *f_remove = g_strdup_printf("spec.modes[%u].removeNodes", index);
	g_autofree char *f_drain = g_strdup_printf("spec.modes[%u].drainNodes", index);
	guint bad = check_list(self, mode->remove_nodes, mode->remove_pos, f_remove, FALSE, diags) +
	            check_list(self, mode->drain_nodes, mode->drain_pos, f_drain, TRUE, diags);

	for (guint i = 0; mode->add_nodes != NULL && i < mode->add_nodes->len; i++) {
		const ScenarioNodeClone *c = &g_array_index(mode->add_nodes, ScenarioNodeClone, i);
		g_autofree char *field =
		        g_strdup_printf("spec.modes[%u].addNodes[%u].like", index, i);

		if (!is_node(self, c->like, TRUE) && ++bad)
			name_error(self, diags, &c->pos, field, c->like, NAME_IMPORTED);
	}
	for (guint i = 0; mode->layouts != NULL && i < mode->layouts->len; i++) {
		const ScenarioPoolLayout *l = &g_array_index(mode->layouts, ScenarioPoolLayout, i);
		g_autofree char *field = g_strdup_printf("spec.modes[%u].mig.%s", index, l->pool);

		if (scenario_lookup_pool(self, l->pool) == NULL && !is_node(self, l->pool, TRUE) &&
		    ++bad)
			name_error(self, diags, &l->pos, field, l->pool, NAME_POOL_OR_IMPORTED);
	}
	return bad == 0;
}

/* The first position of a what-if key of @m, or NULL when it has none. */
static const K8sPos *
first_whatif(const ScenarioMode *m, const char **key)
{
	if (m->add_nodes != NULL && m->add_nodes->len > 0) {
		*key = "addNodes";
		return &g_array_index(m->add_nodes, ScenarioNodeClone, 0).pos;
	}
	if (m->remove_pos != NULL && m->remove_pos->len > 0) {
		*key = "removeNodes";
		return &g_array_index(m->remove_pos, K8sPos, 0);
	}
	if (m->drain_pos != NULL && m->drain_pos->len > 0) {
		*key = "drainNodes";
		return &g_array_index(m->drain_pos, K8sPos, 0);
	}
	return NULL;
}

void
scenario_whatif__check(const Scenario *self, K8sDiagList *diags)
{
	for (guint i = 0; i < self->modes->len; i++) {
		const ScenarioMode *m = &g_array_index(self->modes, ScenarioMode, i);
		const char *key = NULL;
		const K8sPos *pos = first_whatif(m, &key);

		if (self->inventory_paths == NULL && pos != NULL) {
			g_autofree char *field = g_strdup_printf("spec.modes[%u].%s", i, key);

			k8s_diag_list_error(diags, pos, field,
			                    "%s needs an imported cluster (spec.cluster.objects); "
			                    "this scenario's nodes come from nodePools",
			                    key);
		} else if (self->inventory_paths != NULL) {
			scenario_mode_check_nodes(self, m, i, diags);
		}
	}
}

/* Does some mode's addNodes make node @name, "<like>-clone-<k>" (numbered across
 * a mode's entries for one node, world_inventory.c)? */
static gboolean
some_mode_adds(const Scenario *self, const char *name)
{
	const char *mark = g_strrstr(name, "-clone-");
	g_autofree char *like = mark != NULL ? g_strndup(name, (gsize)(mark - name)) : NULL;
	char *end = NULL;
	guint64 k;

	if (mark == NULL || !g_ascii_isdigit(mark[7]))
		return FALSE;
	k = g_ascii_strtoull(mark + 7, &end, 10);
	if (*end != '\0' || (mark[7] == '0' && mark[8] != '\0'))
		return FALSE;
	for (guint i = 0; i < self->modes->len; i++) {
		const ScenarioMode *m = &g_array_index(self->modes, ScenarioMode, i);
		guint64 total = 0;

		for (guint c = 0; m->add_nodes != NULL && c < m->add_nodes->len; c++) {
			const ScenarioNodeClone *clone =
			        &g_array_index(m->add_nodes, ScenarioNodeClone, c);

			if (strcmp(clone->like, like) == 0)
				total += clone->count;
		}
		if (k < total)
			return TRUE;
	}
	return FALSE;
}

void
scenario_whatif__check_events(const Scenario *self, K8sDiagList *diags)
{
	if (self->inventory_paths == NULL)
		return; /* the pools' node names were checked when decoding */
	for (guint i = 0; i < self->events->len; i++) {
		const ScenarioEvent *e = &g_array_index(self->events, ScenarioEvent, i);
		g_autofree char *field = g_strdup_printf("spec.events[%u].node", i);

		if (e->node == NULL || scenario_lookup_node_pool(self, e->node) != NULL)
			continue;
		if (!is_node(self, e->node, TRUE) && !some_mode_adds(self, e->node))
			name_error(self, diags, &e->node_pos, field, e->node, NAME_NODE);
		else if (e->action == SCENARIO_EVENT_MIG_RECONFIGURE)
			/* Object slices are the driver's: drasim has no model of this
			 * driver's republication to replay after mig-manager. */
			k8s_diag_list_error(
			        diags, &e->node_pos, field,
			        "mig-reconfigure cannot target %s: it is an imported node, whose "
			        "ResourceSlices are its driver's as published, and drasim cannot "
			        "republish them after a mig-manager step; compare MIG layouts with "
			        "a mode's `mig: {%s: LAYOUT}` instead (docs/import.md section 3)",
			        e->node, e->node);
	}
}

/* The error at the pool or addNodes entry (or the imported cluster) whose nodes pass
 * DRASIM_MAX_NODES: @what is "this pool brings", "this addNodes entry brings" or "the
 * imported cluster brings". */
static void
nodes_over_limit(
        K8sDiagList *diags, const K8sPos *pos, const char *field, const char *what, guint64 total)
{
	g_autofree char *sentence = base_limit_describe(BASE_LIMIT_NODES);

	k8s_diag_list_error(diags, pos, field, "%s the nodes to %" G_GUINT64_FORMAT "; %s", what,
	                    total, sentence);
}

/* Pools (count each), imported Nodes, then each mode's addNodes clones: every node is
 * built for a run, so their sum per mode is bounded before anything is made. */
gboolean
scenario_whatif__check_node_count(const Scenario *self, K8sDiagList *diags)
{
	guint64 limit = base_limit_get(BASE_LIMIT_NODES);
	g_autoptr(GPtrArray) imported = valid_names(self, NAME_IMPORTED, NULL); /* NULL-ended */
	guint64 cluster = imported->len - 1;

	if (cluster > limit) {
		K8sPos pos = { self->file, 1, 1 };

		nodes_over_limit(diags, &pos, "spec.cluster.objects", "the imported cluster brings",
		                 cluster);
		return FALSE;
	}
	for (guint i = 0; i < self->pools->len; i++) {
		const ScenarioPool *p = &g_array_index(self->pools, ScenarioPool, i);
		g_autofree char *field = g_strdup_printf("spec.cluster.nodePools[%u].count", i);

		if ((cluster += p->count) > limit) {
			nodes_over_limit(diags, &p->pos, field, "this pool brings", cluster);
			return FALSE;
		}
	}
	for (guint i = 0; i < self->modes->len; i++) {
		const ScenarioMode *m = &g_array_index(self->modes, ScenarioMode, i);
		guint64 total = cluster;

		for (guint c = 0; m->add_nodes != NULL && c < m->add_nodes->len; c++) {
			const ScenarioNodeClone *clone =
			        &g_array_index(m->add_nodes, ScenarioNodeClone, c);
			g_autofree char *field =
			        g_strdup_printf("spec.modes[%u].addNodes[%u].count", i, c);

			if ((total += clone->count) > limit) {
				nodes_over_limit(diags, &clone->pos, field,
				                 "this addNodes entry brings", total);
				return FALSE;
			}
		}
	}
	return TRUE;
}
