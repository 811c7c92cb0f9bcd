/*
 * world_xlate_dra.c: `drasim convert --to dra`, the extended world's translation
 * (world_xlate.c) read backwards with the same table (world_xlate_map.c). A pod
 * that asks the device plugin for nvidia.com/gpu: N or nvidia.com/mig-<profile>: N
 * gets a pod resourceClaims entry from a new ResourceClaimTemplate asking N devices
 * of gpu.nvidia.com (or mig.nvidia.com with profile == "<profile>"); a GFD
 * nvidia.com/gpu.product node selector, or a required node affinity `In` on it,
 * becomes a CEL selector on productName in each of those requests. Everything else
 * stays as written, and the report says what could not be carried over (the
 * renamed time-slicing resources, other GFD labels, affinity with several terms).
 */
#include <string.h>

#include "hw.h"
#include "k8s_quantity.h"
#include "world-xlate.h"

typedef struct {
	K8sObjectSet *set;
	GString *yaml;        /* the templates, loaded into a set at the end */
	GHashTable *names;    /* "namespace/name" of every template, old and new */
	GPtrArray *report;    /* char* lines */
	HwCatalog *catalog;   /* product names behind GFD label values */
	const char *object;   /* "Deployment default/notebook" */
	GPtrArray *selectors; /* char* CEL expressions for every GPU request of the pod */
} Convert;

static void report(Convert *c, const char *format, ...) G_GNUC_PRINTF(2, 3);

static void
report(Convert *c, const char *format, ...)
{
	va_list args;
	g_autofree char *text = NULL;

	va_start(args, format);
	text = g_strdup_vprintf(format, args);
	va_end(args);
	g_ptr_array_add(c->report, g_strdup_printf("%s: %s", c->object, text));
}

/* The product name whose GFD label value is @value, from the catalog; else @value. */
static char *
product_for_label(Convert *c, const WorldXlateLabel *row, const char *value, gboolean *known)
{
	const GPtrArray *gpus = c->catalog != NULL ? hw_catalog_get_gpus(c->catalog) : NULL;

	for (guint i = 0; gpus != NULL && i < gpus->len; i++) {
		const HwGpuModel *m = gpus->pdata[i];
		g_autofree char *label = world_xlate_label_value(row, m->product_name);

		if (strcmp(label, value) == 0) {
			*known = TRUE;
			return g_strdup(m->product_name);
		}
	}
	*known = FALSE;
	return g_strdup(value);
}

static char *
attribute_equals(const char *attribute, const char *value)
{
	return g_strdup_printf("device.attributes[\"gpu.nvidia.com\"].%s == \"%s\"", attribute,
	                       value);
}

/* nodeSelector entries on table labels become selectors; the rest stays. */
static void
take_node_selector(Convert *c, K8sStringMap *map)
{
	guint kept = 0;

	for (guint i = 0; i < map->n; i++) {
		const K8sStringPair *p = &map->items[i];
		const WorldXlateLabel *row = world_xlate_label_for_key(p->key);
		gboolean known;
		g_autofree char *product = NULL;

		if (row == NULL || p->value == NULL) {
			if (g_str_has_prefix(p->key, "nvidia.com/"))
				report(c,
				       "nodeSelector %s=%s: not carried over: no device attribute "
				       "of the table; kept as a node selector (DRA nodes have it "
				       "only "
				       "where GFD runs)",
				       p->key, p->value ? p->value : "");
			map->items[kept++] = *p;
			continue;
		}
		product = product_for_label(c, row, p->value, &known);
		g_ptr_array_add(c->selectors, attribute_equals(row->attribute, product));
		report(c, "nodeSelector %s=%s -> selector %s == \"%s\"%s", p->key, p->value,
		       row->attribute, product,
		       known ? "" : " (no catalog GPU has this label value: kept as written)");
	}
	map->n = kept;
}

/* One required term's `In` requirements on table labels become selectors. */
static gboolean
take_affinity(Convert *c, K8sNodeSelector *affinity)
{
	K8sNodeSelectorTerm *term;
	guint kept = 0;

	if (affinity == NULL || affinity->n_terms == 0)
		return FALSE;
	if (affinity->n_terms > 1) {
		report(c,
		       "required node affinity with %u terms: not carried over: the terms are "
		       "ORed, which one claim's selectors cannot say; kept as node affinity",
		       affinity->n_terms);
		return FALSE;
	}
	term = &affinity->terms[0];
	for (guint i = 0; i < term->n_match_expressions; i++) {
		K8sNodeSelectorRequirement *r = &term->match_expressions[i];
		const WorldXlateLabel *row = world_xlate_label_for_key(r->key);
		g_autoptr(GString) list = g_string_new(NULL);
		g_autofree char *cond = NULL;

		if (row == NULL || g_strcmp0(r->operator_, "In") != 0 || r->values.n == 0) {
			term->match_expressions[kept++] = *r;
			continue;
		}
		for (guint v = 0; v < r->values.n; v++) {
			gboolean known;
			g_autofree char *product =
			        product_for_label(c, row, r->values.items[v], &known);

			g_string_append_printf(list, "%s\"%s\"", v > 0 ? ", " : "", product);
		}
		cond = r->values.n == 1 ? g_strdup_printf("== %s", list->str)
		                        : g_strdup_printf("in [%s]", list->str);
		g_ptr_array_add(c->selectors,
		                g_strdup_printf("device.attributes[\"gpu.nvidia.com\"].%s %s",
		                                row->attribute, cond));
		report(c, "node affinity %s In [%s] -> selector %s %s", r->key, list->str,
		       row->attribute, cond);
	}
	term->n_match_expressions = kept;
	return kept == 0 && term->n_match_fields == 0;
}

/* @name, or @name-2, -3... so that no template of @ns has it yet. */
static char *
unique_name(Convert *c, const char *ns, const char *name)
{
	char *candidate = g_strdup(name);

	for (guint i = 2; g_hash_table_contains(c->names, candidate); i++) {
		g_free(candidate);
		candidate = g_strdup_printf("%s-%u", name, i);
	}
	g_hash_table_add(c->names, candidate);
	return g_strdup(candidate + strlen(ns) + 1);
}

/* A DNS label from a resource's rest: "1g.10gb" -> "1g-10gb". */
static char *
dns_part(const char *text)
{
	char *s = g_ascii_strdown(text, -1);

	for (char *p = s; *p != '\0'; p++)
		if (!g_ascii_isalnum(*p))
			*p = '-';
	return s;
}

/* Appends one ResourceClaimTemplate to the text: @count devices of @row, @rest its value. */
static void
write_template(Convert *c,
               const K8sObject *obj,
               const char *name,
               const WorldXlateResource *row,
               const char *rest,
               gint64 count)
{
	g_autofree char *request = g_strndup(row->device_class, strcspn(row->device_class, "."));

	g_string_append_printf(c->yaml,
	                       "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\n"
	                       "metadata:\n  name: %s\n",
	                       name);
	if (obj->metadata.namespace_ != NULL)
		g_string_append_printf(c->yaml, "  namespace: %s\n", obj->metadata.namespace_);
	g_string_append_printf(c->yaml,
	                       "spec:\n  spec:\n    devices:\n      requests:\n      - name: %s\n"
	                       "        exactly:\n          deviceClassName: %s\n",
	                       request, row->device_class);
	if (count != 1)
		g_string_append_printf(c->yaml, "          count: %" G_GINT64_FORMAT "\n", count);
	if (rest == NULL && c->selectors->len == 0)
		return;
	g_string_append(c->yaml, "          selectors:\n");
	if (rest != NULL) {
		g_autofree char *e = attribute_equals(row->attribute, rest);

		g_string_append_printf(c->yaml, "          - cel: {expression: '%s'}\n", e);
	}
	for (guint i = 0; i < c->selectors->len; i++)
		g_string_append_printf(c->yaml, "          - cel: {expression: '%s'}\n",
		                       (char *)c->selectors->pdata[i]);
}

/* Drops @key from @map. */
static void
drop_key(K8sQtyMap *map, const char *key)
{
	guint kept = 0;

	for (guint i = 0; i < map->n; i++)
		if (strcmp(map->items[i].key, key) != 0)
			map->items[kept++] = map->items[i];
	map->n = kept;
}

/* Adds pod claim @claim (from template @tmpl) to @spec and to container @ct. */
static void
add_claim(Convert *c, K8sPodSpec *spec, K8sContainer *ct, const char *claim, const char *tmpl)
{
	K8sPodResourceClaim *pcs =
	        k8s_object_set_alloc(c->set, sizeof(*pcs) * (spec->n_resource_claims + 1));
	K8sContainerClaim *ccs =
	        k8s_object_set_alloc(c->set, sizeof(*ccs) * (ct->resources.n_claims + 1));

	if (spec->n_resource_claims > 0)
		memcpy(pcs, spec->resource_claims, sizeof(*pcs) * spec->n_resource_claims);
	memset(&pcs[spec->n_resource_claims], 0, sizeof(*pcs));
	pcs[spec->n_resource_claims].name = k8s_object_set_intern(c->set, claim);
	pcs[spec->n_resource_claims].resource_claim_template_name =
	        k8s_object_set_intern(c->set, tmpl);
	spec->resource_claims = pcs;
	spec->n_resource_claims++;
	if (ct->resources.n_claims > 0)
		memcpy(ccs, ct->resources.claims, sizeof(*ccs) * ct->resources.n_claims);
	memset(&ccs[ct->resources.n_claims], 0, sizeof(*ccs));
	ccs[ct->resources.n_claims].name = k8s_object_set_intern(c->set, claim);
	ct->resources.claims = ccs;
	ct->resources.n_claims++;
}

/* The GPU resources of one container, each into a claim. Returns: how many. */
static guint
convert_container(
        Convert *c, const K8sObject *obj, K8sPodSpec *spec, K8sContainer *ct, gboolean many)
{
	K8sQtyMap *limits = &ct->resources.limits;
	guint done = 0;

	for (guint i = 0; i < limits->n;) {
		const char *key = limits->items[i].key, *rest = NULL;
		const WorldXlateResource *row = world_xlate_resource_for_name(key, &rest);
		gint64 count = 0;
		g_autofree char *short_name = NULL, *claim = NULL, *base = NULL, *tmpl = NULL;

		if (row == NULL || !limits->items[i].value.valid ||
		    !k8s_quantity_as_int64(&limits->items[i].value.value, &count) || count < 1) {
			i++;
			continue;
		}
		{
			g_autofree char *part = rest != NULL ? dns_part(rest) : NULL;
			const char *kind = row->attribute != NULL ? "mig" : "gpu";

			short_name = part != NULL ? g_strdup_printf("%s-%s", kind, part)
			                          : g_strdup(kind);
		}
		claim = many ? g_strdup_printf("%s-%s", ct->name, short_name)
		             : g_strdup(short_name);
		base = g_strdup_printf("%s/%s-%s", k8s_object_namespace(obj), obj->metadata.name,
		                       claim);
		tmpl = unique_name(c, k8s_object_namespace(obj), base);
		write_template(c, obj, tmpl, row, rest, count);
		{
			g_autofree char *which =
			        rest != NULL
			                ? g_strdup_printf(", %s == \"%s\"", row->attribute, rest)
			                : g_strdup("");

			report(c,
			       "container %s %s: %" G_GINT64_FORMAT " -> claim %s from "
			       "ResourceClaimTemplate %s (%s, count %" G_GINT64_FORMAT "%s)",
			       ct->name, key, count, claim, tmpl, row->device_class, count, which);
		}
		drop_key(&ct->resources.requests, key);
		drop_key(limits, key);
		add_claim(c, spec, ct, claim, tmpl);
		done++;
	}
	return done;
}

/* TRUE when container @ct asks a resource of the table. */
static gboolean
asks_gpus(const K8sContainer *ct)
{
	for (guint i = 0; i < ct->resources.limits.n; i++) {
		const char *rest;

		if (world_xlate_resource_for_name(ct->resources.limits.items[i].key, &rest) != NULL)
			return TRUE;
	}
	return FALSE;
}

/* Reports the nvidia.com/ resources of @ct the table has no row for (kept as written). */
static void
note_untranslated(Convert *c, const K8sContainer *ct)
{
	for (guint i = 0; i < ct->resources.limits.n; i++) {
		const char *key = ct->resources.limits.items[i].key, *rest;

		if (g_str_has_prefix(key, "nvidia.com/") &&
		    world_xlate_resource_for_name(key, &rest) == NULL)
			report(c,
			       "container %s %s: not carried over: no DRA request of the table "
			       "asks it (a renamed time-slicing or MPS replica has no per-pod "
			       "form; see docs/sharing.md); kept as written",
			       ct->name, key);
	}
}

/* One Pod or pod template: its GFD selectors, then each container's GPUs. */
static gboolean
convert_spec(Convert *c, const K8sObject *obj, K8sPodSpec *spec)
{
	guint asking = 0, done = 0;

	for (guint i = 0; i < spec->n_containers; i++)
		asking += asks_gpus(&spec->containers[i]);
	for (guint i = 0; i < spec->n_init_containers; i++)
		asking += asks_gpus(&spec->init_containers[i]);
	for (guint i = 0; i < spec->n_init_containers; i++)
		note_untranslated(c, &spec->init_containers[i]);
	for (guint i = 0; i < spec->n_containers; i++)
		note_untranslated(c, &spec->containers[i]);
	if (asking == 0)
		return FALSE;
	g_ptr_array_set_size(c->selectors, 0);
	take_node_selector(c, &spec->node_selector);
	if (take_affinity(c, spec->required_node_affinity))
		spec->required_node_affinity = NULL;
	for (guint i = 0; i < spec->n_init_containers; i++)
		done += convert_container(c, obj, spec, &spec->init_containers[i], asking > 1);
	for (guint i = 0; i < spec->n_containers; i++)
		done += convert_container(c, obj, spec, &spec->containers[i], asking > 1);
	return done > 0;
}

guint
world_convert_to_dra(K8sObjectSet *set,
                     K8sObjectSet *templates,
                     GPtrArray *report_lines,
                     K8sDiagList *diags)
{
	g_autoptr(GHashTable) names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autoptr(GPtrArray) selectors = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GString) yaml = g_string_new(NULL);
	g_autoptr(HwCatalog) catalog = hw_catalog_new_builtin(NULL);
	Convert c = { set, yaml, names, report_lines, catalog, NULL, selectors };
	guint rewritten = 0;

	for (guint i = 0; i < k8s_object_set_count_kind(set, K8S_KIND_RESOURCE_CLAIM_TEMPLATE);
	     i++) {
		const K8sObject *t =
		        k8s_object_set_get_kind(set, K8S_KIND_RESOURCE_CLAIM_TEMPLATE, i);

		g_hash_table_add(
		        names, g_strdup_printf("%s/%s", k8s_object_namespace(t), t->metadata.name));
	}
	for (guint i = 0; i < k8s_object_set_count(set); i++) {
		K8sObject *obj = k8s_object_set_get(set, i);
		g_autofree char *object = NULL;
		K8sPodSpec *spec;

		if (obj->kind == K8S_KIND_POD)
			spec = &k8s_object_as_pod(obj)->spec;
		else if (k8s_object_as_workload(obj) != NULL)
			spec = &k8s_object_as_workload(obj)->template_.spec;
		else
			continue;
		object = g_strdup_printf("%s %s/%s", k8s_kind_name(obj->kind),
		                         k8s_object_namespace(obj), obj->metadata.name);
		c.object = object;
		rewritten += convert_spec(&c, obj, spec);
	}
	/* The text is ours; a name the input got past a lenient load could still fail. */
	if (yaml->len > 0)
		k8s_load_data("<convert --to dra>", yaml->str, yaml->len, K8S_LOAD_DEFAULT,
		              templates, diags);
	return rewritten;
}
