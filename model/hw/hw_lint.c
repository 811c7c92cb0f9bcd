/*
 * hw_lint.c: `drasim lint --shape/--cluster`: selectors and opaque configs checked
 * against what the modelled drivers actually publish; opaque configs against what
 * the NVIDIA driver accepts (apiVersion, kind, and GpuConfig contents: hw_gpu_config.c).
 *
 * A selector that reads a key the device does not have fails at scheduling time
 * with "no such key" (cel-go map access; the allocator turns a CEL error into a
 * failed claim), so those are errors. The target holds published slices; the
 * checks read the selectors with hw_lint_expr.c and compare names and literal
 * values with the published devices, naming the device each finding was checked
 * against and the closest published name.
 */
#include <string.h>

#include "hw-lint-private.h"
#include "hw_api.h"
#include "k8s_validate.h"

typedef struct {
	const HwSlice *slice;
	const HwDevice *device;
} LintDevice;

struct HwLintTarget {
	GPtrArray *slices; /* HwSlice*, owned */
	GArray *devices;   /* LintDevice, in publication order */
};

HwLintTarget *
hw_lint_target_new(void)
{
	HwLintTarget *self = g_new0(HwLintTarget, 1);

	self->slices = g_ptr_array_new_with_free_func((GDestroyNotify)hw_slice_free);
	self->devices = g_array_new(FALSE, TRUE, sizeof(LintDevice));
	return self;
}

void
hw_lint_target_free(HwLintTarget *self)
{
	if (self == NULL) {
		return;
	}
	g_ptr_array_unref(self->slices);
	g_array_unref(self->devices);
	g_free(self);
}

void
hw_lint_target_add_slice(HwLintTarget *self, HwSlice *slice)
{
	g_ptr_array_add(self->slices, slice);
	for (guint i = 0; i < slice->devices->len; i++) {
		LintDevice d = { slice, g_ptr_array_index(slice->devices, i) };
		g_array_append_val(self->devices, d);
	}
}

static gboolean
add_node(HwLintTarget *self,
         const HwNodeShape *shape,
         const char *name,
         const char *layout,
         gboolean dynamic,
         GError **error)
{
	g_autoptr(HwNode) node = hw_node_new(shape, name);
	g_autoptr(GPtrArray) slices = NULL;
	HwPublishOptions options;
	HwSlice *nics;

	if (!hw_node_apply_layout(node, layout, error)) {
		return FALSE;
	}
	hw_publish_options_init(&options);
	options.dynamic_mig = dynamic;
	slices = hw_publish_nvidia(node, &options);
	while (slices->len > 0) {
		hw_lint_target_add_slice(self, g_ptr_array_steal_index(slices, 0));
	}
	nics = hw_publish_dranet(node);
	if (nics != NULL) {
		hw_lint_target_add_slice(self, nics);
	}
	return TRUE;
}

gboolean
hw_lint_target_add_shape(HwLintTarget *self,
                         const HwNodeShape *shape,
                         const char *layout,
                         GError **error)
{
	g_autofree char *name = g_strdup_printf("%s-0", shape->id);

	/* DynamicMIG publishes the full GPU and every (profile, placement): the widest
	 * view of what the driver can publish for this hardware. */
	return add_node(self, shape, name, layout ? layout : "all-disabled", layout == NULL, error);
}

gboolean
hw_lint_target_add_pools(HwLintTarget *self, const HwCatalog *catalog, GError **error)
{
	const GPtrArray *pools = hw_catalog_get_pools(catalog);

	for (guint i = 0; i < pools->len; i++) {
		const HwNodePool *pool = g_ptr_array_index(pools, i);
		g_autofree char *name = g_strdup_printf("%s-0", pool->name);

		if (pool->count > 0 &&
		    !add_node(self, pool->shape, name, pool->layout, pool->dynamic_mig, error)) {
			return FALSE;
		}
	}
	return TRUE;
}

/* ---- device lookups ---- */

/* Splits a published key: "resource.kubernetes.io/pcieRoot" or "type" (the driver's). */
static gboolean
key_matches(const char *key, const char *driver, const char *domain, const char *name)
{
	const char *slash = strchr(key, '/');

	if (slash == NULL) {
		return strcmp(driver, domain) == 0 && strcmp(key, name) == 0;
	}
	return strlen(domain) == (gsize)(slash - key) &&
	       strncmp(key, domain, strlen(domain)) == 0 && strcmp(slash + 1, name) == 0;
}

static const HwAttr *
device_attr(const LintDevice *d, const char *domain, const char *name)
{
	for (guint i = 0; i < d->device->attrs->len; i++) {
		const HwAttr *a = &g_array_index(d->device->attrs, HwAttr, i);

		if (key_matches(a->name, d->slice->driver, domain, name)) {
			return a;
		}
	}
	return NULL;
}

static const HwQty *
device_cap(const LintDevice *d, const char *domain, const char *name)
{
	for (guint i = 0; i < d->device->capacity->len; i++) {
		const HwQty *q = &g_array_index(d->device->capacity, HwQty, i);

		if (key_matches(q->name, d->slice->driver, domain, name)) {
			return q;
		}
	}
	return NULL;
}

static gboolean
device_has(const LintDevice *d, HwRefKind kind, const char *domain, const char *name)
{
	return kind == HW_REF_ATTRIBUTE ? device_attr(d, domain, name) != NULL
	                                : device_cap(d, domain, name) != NULL;
}

/* TRUE: the condition holds; FALSE: it is false; the third state (key missing, a CEL
 * error) counts as "not false" for candidates and "not true" for matching. */
typedef enum {
	COND_TRUE,
	COND_FALSE,
	COND_ERROR,
} CondValue;

static CondValue
cond_eval(const LintDevice *d, const HwCond *c)
{
	const HwAttr *a;

	switch (c->kind) {
	case HW_COND_DRIVER:
		return strcmp(d->slice->driver, c->str) == 0 ? COND_TRUE : COND_FALSE;
	case HW_COND_HAS:
		return device_has(d, c->ref_kind, c->domain, c->name) ? COND_TRUE : COND_FALSE;
	case HW_COND_EQUAL:
		if (c->ref_kind != HW_REF_ATTRIBUTE) {
			return COND_ERROR; /* a quantity compared with ==: not judged here */
		}
		a = device_attr(d, c->domain, c->name);
		if (a == NULL) {
			return COND_ERROR;
		}
		if (c->type == HW_ATTR_STRING) {
			return (a->type == HW_ATTR_STRING || a->type == HW_ATTR_VERSION) &&
			                       strcmp(a->str, c->str) == 0
			               ? COND_TRUE
			               : COND_FALSE;
		}
		return (a->type == c->type && a->num == c->num) ? COND_TRUE : COND_FALSE;
	}
	return COND_ERROR;
}

/* ---- suggestions ---- */

static guint
edit_distance(const char *a, const char *b)
{
	gsize la = strlen(a), lb = strlen(b);
	g_autofree guint *row = g_new(guint, lb + 1);

	for (gsize j = 0; j <= lb; j++) {
		row[j] = (guint)j;
	}
	for (gsize i = 1; i <= la; i++) {
		guint diag = row[0];

		row[0] = (guint)i;
		for (gsize j = 1; j <= lb; j++) {
			guint up = row[j];
			guint cost = g_ascii_tolower(a[i - 1]) == g_ascii_tolower(b[j - 1]) ? 0 : 1;

			row[j] = MIN(MIN(row[j] + 1, row[j - 1] + 1), diag + cost);
			diag = up;
		}
	}
	return row[lb];
}

/* The published name of @kind in @domain closest to @name, or NULL. */
static const char *
closest_name(const GArray *candidates, HwRefKind kind, const char *domain, const char *name)
{
	const char *best = NULL;
	guint best_score = G_MAXUINT;

	for (guint i = 0; i < candidates->len; i++) {
		const LintDevice *d = &g_array_index(candidates, LintDevice, i);
		GArray *items = kind == HW_REF_ATTRIBUTE ? d->device->attrs : d->device->capacity;
		gsize size = kind == HW_REF_ATTRIBUTE ? sizeof(HwAttr) : sizeof(HwQty);

		for (guint k = 0; k < items->len; k++) {
			/* Both record types start with their name. */
			const char *key = *(const char **)(void *)(items->data + k * size);
			const char *slash = strchr(key, '/');
			const char *bare = slash ? slash + 1 : key;
			guint score;

			if (!key_matches(key, d->slice->driver, domain, bare)) {
				continue;
			}
			score = edit_distance(name, bare);
			/* "migProfile" contains "profile": a likely intent, score it close. */
			if (strstr(name, bare) != NULL || strstr(bare, name) != NULL) {
				score = MIN(score, 2);
			}
			if (score < best_score) {
				best_score = score;
				best = bare;
			}
		}
	}
	return best_score <= MAX(2u, (guint)strlen(name) / 3) ? best : NULL;
}

static const char *
kind_word(HwRefKind kind)
{
	return kind == HW_REF_ATTRIBUTE ? "attributes" : "capacity";
}

/* A hint for a key @d lacks: the other map, another domain, or a close name. */
static char *
suggest(const GArray *candidates, const LintDevice *d, const HwRef *ref)
{
	HwRefKind other = ref->kind == HW_REF_ATTRIBUTE ? HW_REF_CAPACITY : HW_REF_ATTRIBUTE;
	static const char *const domains[] = { "resource.kubernetes.io", "gpu.nvidia.com",
		                               "dra.net" };
	const char *close;

	if (device_has(d, other, ref->domain, ref->name)) {
		return g_strdup_printf(
		        "%s is %s, not %s: use device.%s[\"%s\"].%s%s", ref->name,
		        other == HW_REF_CAPACITY ? "a capacity" : "an attribute",
		        other == HW_REF_CAPACITY ? "an attribute" : "a capacity", kind_word(other),
		        ref->domain, ref->name,
		        other == HW_REF_CAPACITY
		                ? " (a quantity: compare with .compareTo(quantity(\"40Gi\")) >= 0)"
		                : "");
	}
	for (guint i = 0; i < G_N_ELEMENTS(domains); i++) {
		if (strcmp(domains[i], ref->domain) != 0 &&
		    device_has(d, ref->kind, domains[i], ref->name)) {
			return g_strdup_printf("did you mean device.%s[\"%s\"].%s?",
			                       kind_word(ref->kind), domains[i], ref->name);
		}
	}
	close = closest_name(candidates, ref->kind, ref->domain, ref->name);
	if (close != NULL && strcmp(close, ref->name) != 0) {
		return g_strdup_printf("did you mean device.%s[\"%s\"].%s?", kind_word(ref->kind),
		                       ref->domain, close);
	}
	if (close != NULL) {
		return g_strdup("other candidate devices publish it: restrict the request's "
		                "class or guard the access with has()");
	}
	return NULL;
}

/* ---- checks ---- */

typedef struct {
	const HwLintTarget *target;
	const K8sObjectSet *set;
	K8sDiagList *diags;
} Lint;

static K8sPos
ref_pos(const K8sDeviceSelector *selector, gsize offset)
{
	if (selector->expression_style == K8S_YAML_STYLE_PLAIN ||
	    selector->expression_style == K8S_YAML_STYLE_SINGLE_QUOTED ||
	    selector->expression_style == K8S_YAML_STYLE_DOUBLE_QUOTED) {
		return k8s_pos_advance(selector->expression_pos, selector->cel_expression, offset);
	}
	return selector->expression_pos;
}

static void
scan_class(Lint *lint, const char *class_name, HwSelectorScan *scan)
{
	K8sObject *obj;
	const HwDeviceClass *builtin;

	if (class_name == NULL) {
		return;
	}
	obj = k8s_object_set_lookup(lint->set, K8S_KIND_DEVICE_CLASS, NULL, class_name);
	if (obj != NULL) {
		const K8sDeviceClass *klass = k8s_object_as_device_class(obj);

		for (guint i = 0; i < klass->spec.n_selectors; i++) {
			if (klass->spec.selectors[i].cel_expression != NULL) {
				hw_selector_scan(scan, klass->spec.selectors[i].cel_expression,
				                 FALSE);
			}
		}
		return;
	}
	for (builtin = hw_nvidia_device_classes(); builtin->name != NULL; builtin++) {
		if (strcmp(builtin->name, class_name) == 0) {
			hw_selector_scan(scan, builtin->expression, FALSE);
		}
	}
}

static gboolean
seen_before(const HwSelectorScan *scan, guint index)
{
	const HwRef *ref = &g_array_index(scan->refs, HwRef, index);

	for (guint i = 0; i < index; i++) {
		const HwRef *other = &g_array_index(scan->refs, HwRef, i);

		if (other->kind == ref->kind && strcmp(other->domain, ref->domain) == 0 &&
		    strcmp(other->name, ref->name) == 0) {
			return TRUE;
		}
	}
	return FALSE;
}

static void
check_refs(Lint *lint, const K8sCelSite *site, const HwSelectorScan *scan, const GArray *candidates)
{
	const GArray *all = lint->target->devices;

	for (guint r = 0; r < scan->refs->len; r++) {
		const HwRef *ref = &g_array_index(scan->refs, HwRef, r);
		const GArray *pool = scan->has_top_level_or ? all : candidates;
		const LintDevice *missing = NULL;
		gboolean anywhere = FALSE;
		g_autofree char *hint = NULL;
		K8sPos pos;

		if (ref->guarded || seen_before(scan, r)) {
			continue;
		}
		for (guint i = 0; i < pool->len; i++) {
			const LintDevice *d = &g_array_index(pool, LintDevice, i);
			gboolean has = device_has(d, ref->kind, ref->domain, ref->name);

			anywhere = anywhere || has;
			if (!has && missing == NULL) {
				missing = d;
			}
		}
		/* With a top-level ||, another branch may avoid the access: only a name that
		 * no device publishes at all is certain to be wrong. */
		if (missing == NULL || (scan->has_top_level_or && anywhere)) {
			continue;
		}
		hint = suggest(pool, missing, ref);
		pos = ref_pos(site->selector, ref->offset);
		k8s_diag_list_error(
		        lint->diags, &pos, site->path,
		        "device.%s[\"%s\"].%s: %s does not publish it on device %s (node "
		        "%s), so the selector fails with \"no such key: %s\"%s%s",
		        kind_word(ref->kind), ref->domain, ref->name, missing->slice->driver,
		        missing->device->name, missing->slice->node_name, ref->name,
		        hint ? "; " : "", hint ? hint : "");
	}
}

static char *
published_values(const GArray *devices, const HwCond *cond)
{
	g_autoptr(GPtrArray) seen = g_ptr_array_new();
	GString *text = g_string_new(NULL);

	for (guint i = 0; i < devices->len && seen->len < 8; i++) {
		const HwAttr *a = device_attr(&g_array_index(devices, LintDevice, i), cond->domain,
		                              cond->name);
		gboolean dup = FALSE;

		if (a == NULL || a->str == NULL) {
			continue;
		}
		for (guint k = 0; k < seen->len; k++) {
			dup = dup || strcmp(seen->pdata[k], a->str) == 0;
		}
		if (!dup) {
			g_ptr_array_add(seen, a->str);
			g_string_append_printf(text, "%s\"%s\"", seen->len > 1 ? ", " : "", a->str);
		}
	}
	return g_string_free(text, FALSE);
}

/* No published device meets every equality/has() condition: a warning naming the
 * first condition that rules out all the others' survivors. */
static void
check_matches(Lint *lint, const K8sCelSite *site, const HwSelectorScan *scan)
{
	const GArray *all = lint->target->devices;
	g_autoptr(GArray) alive = g_array_new(FALSE, TRUE, sizeof(LintDevice));

	if (scan->has_top_level_or || scan->conds->len == 0) {
		return;
	}
	g_array_append_vals(alive, all->data, all->len);
	for (guint c = 0; c < scan->conds->len; c++) {
		const HwCond *cond = &g_array_index(scan->conds, HwCond, c);
		g_autoptr(GArray) next = g_array_new(FALSE, TRUE, sizeof(LintDevice));

		for (guint i = 0; i < alive->len; i++) {
			const LintDevice *d = &g_array_index(alive, LintDevice, i);

			if (cond_eval(d, cond) == COND_TRUE) {
				g_array_append_vals(next, d, 1);
			}
		}
		g_autofree char *values =
		        cond->kind == HW_COND_EQUAL && cond->type == HW_ATTR_STRING
		                ? published_values(alive, cond)
		                : NULL;
		/* A key no remaining device has is a "no such key" error (check_refs). */
		if (next->len == 0 && values != NULL && *values != '\0') {
			k8s_diag_list_warning(lint->diags, &site->selector->expression_pos,
			                      site->path,
			                      "can match no device: no device published as %s has "
			                      "%s == \"%s\"; published values: %s",
			                      g_array_index(alive, LintDevice, 0).slice->driver,
			                      cond->name, cond->str, values);
			return;
		}
		if (next->len == 0) {
			/* The class and this condition exclude each other, or the driver/key is
			 * published nowhere (reported by check_refs when read). */
			if (cond->kind == HW_COND_DRIVER) {
				k8s_diag_list_warning(
				        lint->diags, &site->selector->expression_pos, site->path,
				        "can match no device: no modelled node publishes "
				        "devices of driver \"%s\"",
				        cond->str);
			}
			return;
		}
		g_array_set_size(alive, 0);
		g_array_append_vals(alive, next->data, next->len);
	}
}

static void
check_site(const K8sCelSite *site, gpointer data)
{
	Lint *lint = data;
	HwSelectorScan scan;
	g_autoptr(GArray) candidates = g_array_new(FALSE, TRUE, sizeof(LintDevice));
	const GArray *all = lint->target->devices;

	if (site->selector->cel_expression == NULL ||
	    site->obj->kind == K8S_KIND_DEVICE_TAINT_RULE) {
		return;
	}
	hw_selector_scan_init(&scan);
	scan_class(lint, site->device_class_name, &scan);
	hw_selector_scan(&scan, site->selector->cel_expression, TRUE);
	for (guint i = 0; i < all->len; i++) {
		const LintDevice *d = &g_array_index(all, LintDevice, i);
		gboolean ruled_out = FALSE;

		for (guint c = 0; c < scan.conds->len && !ruled_out; c++) {
			ruled_out =
			        cond_eval(d, &g_array_index(scan.conds, HwCond, c)) == COND_FALSE;
		}
		if (!ruled_out) {
			g_array_append_vals(candidates, d, 1);
		}
	}
	check_refs(lint, site, &scan, candidates);
	check_matches(lint, site, &scan);
	hw_selector_scan_clear(&scan);
}

/* ---- opaque configuration (nvidia-hw.md 1.6) ---- */

static const struct {
	const char *driver;
	const char *kinds[4];
} known_configs[] = {
	{ "gpu.nvidia.com", { "GpuConfig", "MigDeviceConfig", "VfioDeviceConfig", NULL } },
	{ "compute-domain.nvidia.com",
	  { "ComputeDomainChannelConfig", "ComputeDomainDaemonConfig", NULL, NULL } },
};

#define NVIDIA_CONFIG_API "resource.nvidia.com/v1beta1"

typedef void (*CheckOpaque)(K8sDiagList *diags,
                            const K8sObject *obj,
                            const K8sOpaqueDeviceConfig *opaque,
                            const char *path);

/* The contents: GpuConfig and MigDeviceConfig sharing (hw_gpu_config.c). */
static void
check_contents(K8sDiagList *diags,
               const K8sObject *obj,
               const K8sOpaqueDeviceConfig *opaque,
               const char *path)
{
	g_autofree char *full = g_strdup_printf("%s%s", obj->path_prefix, path);

	hw_gpu_config_read(opaque, full, diags, NULL);
}

static void
check_opaque(K8sDiagList *diags,
             const K8sObject *obj,
             const K8sOpaqueDeviceConfig *opaque,
             const char *path)
{
	const K8sYamlNode *params = opaque->parameters.node;
	const K8sYamlNode *api, *kind;
	const char *file = opaque->parameters.pos.file;
	g_autofree char *api_path =
	        g_strdup_printf("%s%s.parameters.apiVersion", obj->path_prefix, path);
	g_autofree char *kind_path =
	        g_strdup_printf("%s%s.parameters.kind", obj->path_prefix, path);

	for (guint i = 0; i < G_N_ELEMENTS(known_configs); i++) {
		gboolean kind_known = FALSE;
		g_autofree char *kinds = NULL;
		K8sPos pos;

		if (opaque->driver == NULL ||
		    strcmp(opaque->driver, known_configs[i].driver) != 0 || params == NULL ||
		    params->kind != K8S_YAML_MAPPING) {
			continue;
		}
		kinds = g_strjoinv(", ", (char **)known_configs[i].kinds);
		api = k8s_yaml_map_lookup(params, "apiVersion");
		kind = k8s_yaml_map_lookup(params, "kind");
		if (api != NULL && api->kind == K8S_YAML_SCALAR &&
		    strcmp(api->scalar.text, NVIDIA_CONFIG_API) != 0) {
			pos = k8s_yaml_node_pos(api, file);
			k8s_diag_list_error(diags, &pos, api_path,
			                    "%s does not know apiVersion \"%s\" for opaque config: "
			                    "use %s (kinds %s)",
			                    opaque->driver, api->scalar.text, NVIDIA_CONFIG_API,
			                    kinds);
		}
		for (guint k = 0; kind != NULL && kind->kind == K8S_YAML_SCALAR &&
		                  known_configs[i].kinds[k] != NULL;
		     k++) {
			kind_known = kind_known ||
			             strcmp(kind->scalar.text, known_configs[i].kinds[k]) == 0;
		}
		if (kind != NULL && kind->kind == K8S_YAML_SCALAR && !kind_known) {
			pos = k8s_yaml_node_pos(kind, file);
			k8s_diag_list_error(diags, &pos, kind_path,
			                    "%s does not know kind \"%s\" for opaque config (it "
			                    "knows %s)",
			                    opaque->driver, kind->scalar.text, kinds);
		}
	}
	check_contents(diags, obj, opaque, path);
}

static void
check_claim_configs(CheckOpaque check,
                    K8sDiagList *diags,
                    const K8sObject *obj,
                    const K8sResourceClaimSpec *spec,
                    const char *prefix)
{
	for (guint i = 0; i < spec->n_config; i++) {
		g_autofree char *path = g_strdup_printf("%sdevices.config[%u].opaque", prefix, i);

		if (spec->config[i].has_opaque) {
			check(diags, obj, &spec->config[i].opaque, path);
		}
	}
}

/* @check on every opaque config of a DeviceClass, ResourceClaim or template. */
static void
walk_configs(const K8sObjectSet *set, CheckOpaque check, K8sDiagList *diags)
{
	for (guint i = 0; i < k8s_object_set_count(set); i++) {
		K8sObject *obj = k8s_object_set_get(set, i);

		if (obj->kind == K8S_KIND_DEVICE_CLASS) {
			const K8sDeviceClass *klass = k8s_object_as_device_class(obj);

			for (guint c = 0; c < klass->spec.n_config; c++) {
				g_autofree char *path =
				        g_strdup_printf("spec.config[%u].opaque", c);

				if (klass->spec.config[c].has_opaque) {
					check(diags, obj, &klass->spec.config[c].opaque, path);
				}
			}
		} else if (obj->kind == K8S_KIND_RESOURCE_CLAIM) {
			check_claim_configs(check, diags, obj,
			                    &k8s_object_as_resource_claim(obj)->spec, "spec.");
		} else if (obj->kind == K8S_KIND_RESOURCE_CLAIM_TEMPLATE) {
			check_claim_configs(check, diags, obj,
			                    &k8s_object_as_resource_claim_template(obj)->spec,
			                    "spec.spec.");
		}
	}
}

void
hw_lint_configs(const K8sObjectSet *set, K8sDiagList *diags)
{
	walk_configs(set, check_opaque, diags);
}

void
hw_check_gpu_configs(const K8sObjectSet *set, K8sDiagList *diags)
{
	walk_configs(set, check_contents, diags);
}

void
hw_lint_selectors(const HwLintTarget *target, const K8sObjectSet *set, K8sDiagList *diags)
{
	Lint lint = { target, set, diags };

	k8s_foreach_cel_expression(set, check_site, &lint);
	hw_lint_configs(set, diags);
}

gboolean
hw_lint_run(const char *const *shapes,
            const char *const *cluster_files,
            const K8sObjectSet *set,
            K8sDiagList *diags,
            GError **error)
{
	g_autoptr(HwCatalog) catalog = hw_catalog_new_builtin(error);
	g_autoptr(HwLintTarget) target = hw_lint_target_new();

	if (catalog == NULL) {
		return FALSE;
	}
	for (guint i = 0; cluster_files != NULL && cluster_files[i] != NULL; i++) {
		if (!hw_catalog_load_file(catalog, cluster_files[i], error)) {
			return FALSE;
		}
	}
	for (guint i = 0; shapes != NULL && shapes[i] != NULL; i++) {
		const HwNodeShape *shape = hw_catalog_lookup_shape(catalog, shapes[i]);

		if (shape == NULL) {
			g_autofree char *msg = hw_catalog_unknown_shape(catalog, shapes[i]);

			g_set_error(error, HW_ERROR, HW_ERROR_INVALID, "%s", msg);
			return FALSE;
		}
		if (!hw_lint_target_add_shape(target, shape, NULL, error)) {
			return FALSE;
		}
	}
	if (!hw_lint_target_add_pools(target, catalog, error)) {
		return FALSE;
	}
	hw_lint_selectors(target, set, diags);
	return TRUE;
}
