/*
 * k8s_validate_slice.c: validation of a ResourceSlice: its pool, devices (attributes,
 * capacity and its request policy, counters they consume, binding conditions, node
 * selection) and shared counter sets.
 *
 * Follows pkg/apis/resource/validation/validation.go rule by rule (Kubernetes 1.34,
 * default feature gates), like k8s_validate_resource.c, including its order and its
 * short cuts for lists over their size limit.
 */
#include <string.h>

#include <glib.h>

#include "k8s_validate-private.h"

/* ---- ResourceSlice ------------------------------------------------------------------- */

static void
v_pool(VCtx *ctx, const K8sResourcePool *pool)
{
	gsize mark = vpath_push(ctx, "pool");
	char value[32];

	if (pool->name == NULL || pool->name[0] == '\0') {
		vrequired(ctx, &pool->pos, "name", NULL);
	} else {
		g_auto(GStrv) parts = g_strsplit(pool->name, "/", -1);
		if (strlen(pool->name) > V_POOL_NAME_MAX) {
			vtoo_long(ctx, &pool->pos, "name", V_POOL_NAME_MAX);
		}
		for (guint i = 0; parts[i] != NULL; i++) {
			vinvalid_msgs(ctx, &pool->pos, "name", parts[i],
			              k8s_names_dns1123_subdomain(parts[i]));
		}
	}
	if (!pool->has_resource_slice_count || pool->resource_slice_count <= 0) {
		g_snprintf(value, sizeof(value), "%" G_GINT64_FORMAT,
		           pool->has_resource_slice_count ? pool->resource_slice_count : 0);
		verror(ctx, &pool->pos, "resourceSliceCount", K8S_FIELD_INVALID, value,
		       "must be greater than zero");
	}
	if (pool->has_generation && pool->generation < 0) {
		g_snprintf(value, sizeof(value), "%" G_GINT64_FORMAT, pool->generation);
		verror(ctx, &pool->pos, "generation", K8S_FIELD_INVALID, value,
		       "must be greater than or equal to zero");
	}
	vpath_pop(ctx, mark);
}

/* semver.org 2.0.0, the regular expression upstream uses for version attributes */
static gboolean
match_numeric_id(const char **p)
{
	const char *s = *p;

	if (*s == '0') {
		*p = s + 1;
		return TRUE;
	}
	if (*s < '1' || *s > '9') {
		return FALSE;
	}
	while (g_ascii_isdigit(*s)) {
		s++;
	}
	*p = s;
	return TRUE;
}

static gboolean
match_ident_chars(const char **p, gboolean pre_release)
{
	const char *s = *p, *start = s;
	gboolean non_digit = FALSE;

	while (g_ascii_isalnum(*s) || *s == '-') {
		non_digit |= !g_ascii_isdigit(*s);
		s++;
	}
	if (s == start) {
		return FALSE;
	}
	/* a numeric pre-release identifier has no leading zero */
	if (pre_release && !non_digit && *start == '0' && s - start > 1) {
		return FALSE;
	}
	*p = s;
	return TRUE;
}

static gboolean
is_semver(const char *v)
{
	const char *p = v;

	for (int i = 0; i < 3; i++) {
		if (!match_numeric_id(&p) || (i < 2 && *p++ != '.')) {
			return FALSE;
		}
	}
	if (*p == '-') {
		do {
			p++;
			if (!match_ident_chars(&p, TRUE)) {
				return FALSE;
			}
		} while (*p == '.');
	}
	if (*p == '+') {
		do {
			p++;
			if (!match_ident_chars(&p, FALSE)) {
				return FALSE;
			}
		} while (*p == '.');
	}
	return *p == '\0';
}

static void
v_attribute(VCtx *ctx, const K8sDeviceAttribute *a)
{
	gsize mark = vpath_key(ctx, a->name != NULL ? a->name : "");

	if (a->n_values == 0 || a->type == K8S_ATTR_NONE) {
		vinvalid_str(ctx, &a->pos, NULL, "", "exactly one value must be specified");
	} else if (a->n_values > 1) {
		verror(ctx, &a->pos, NULL, K8S_FIELD_INVALID, NULL,
		       "exactly one value must be specified");
	} else if (a->type == K8S_ATTR_STRING && a->string_value != NULL &&
	           strlen(a->string_value) > V_ATTRIBUTE_VALUE_MAX) {
		vtoo_long(ctx, &a->value_pos, "string", V_ATTRIBUTE_VALUE_MAX);
	} else if (a->type == K8S_ATTR_VERSION && a->string_value != NULL) {
		if (!is_semver(a->string_value)) {
			vinvalid_str(ctx, &a->value_pos, "version", a->string_value,
			             "must be a string compatible with semver.org spec 2.0.0");
		}
		if (strlen(a->string_value) > V_ATTRIBUTE_VALUE_MAX) {
			vtoo_long(ctx, &a->value_pos, "version", V_ATTRIBUTE_VALUE_MAX);
		}
	}
	vpath_pop(ctx, mark);
}

static void
v_request_policy(VCtx *ctx, const K8sDeviceCapacity *cap)
{
	const K8sCapacityRequestPolicy *p = cap->request_policy;
	K8sQuantity max, def, v, prev;
	g_autofree char *max_s = NULL;
	gboolean found = FALSE;

	if (p->n_valid_values > 0 && p->has_valid_range) {
		verror(ctx, &p->pos, NULL, K8S_FIELD_FORBIDDEN, NULL,
		       "exactly one policy can be specified, cannot specify \"validValues\" and "
		       "\"validRange\" at the same time");
		return;
	}
	if (p->n_valid_values == 0 && !p->has_valid_range) {
		return;
	}
	if (!p->has_default || p->default_.text == NULL) {
		vrequired(ctx, &p->pos, "default",
		          p->n_valid_values > 0 ? "required when validValues is defined"
		                                : "required when validRange is defined");
		return;
	}
	if (!v_quantity(ctx, &cap->value, NULL, &max) ||
	    !v_quantity(ctx, &p->default_, NULL, &def)) {
		return;
	}
	max_s = k8s_quantity_to_string_dup(&max);
	if (p->n_valid_values > 0) {
		gsize m = vpath_push(ctx, "validValues");
		for (guint i = 0; i < p->n_valid_values; i++) {
			g_autofree char *vs = NULL;
			if (!v_quantity(ctx, &p->valid_values[i], NULL, &v)) {
				continue;
			}
			vs = k8s_field_quote(p->valid_values[i].text);
			gsize m2 = vpath_index(ctx, i);
			if (i > 0 && k8s_quantity_cmp(&prev, &v) > 0) {
				verror(ctx, &p->valid_values[i].pos, NULL, K8S_FIELD_INVALID, vs,
				       "values must be sorted in ascending order");
			}
			if (k8s_quantity_cmp(&v, &max) > 0) {
				verror(ctx, &p->valid_values[i].pos, NULL, K8S_FIELD_INVALID, vs,
				       "option is larger than capacity value: %s", max_s);
			}
			found |= k8s_quantity_cmp(&v, &def) == 0;
			prev = v;
			vpath_pop(ctx, m2);
		}
		if (!found) {
			g_autofree char *ds = k8s_field_quote(p->default_.text);
			verror(ctx, &p->default_.pos, NULL, K8S_FIELD_INVALID, ds,
			       "default value is not valid according to the requestPolicy");
		}
		vpath_pop(ctx, m);
		return;
	}
	gsize m = vpath_push(ctx, "validRange");
	if (p->range_min.text == NULL) {
		vrequired(ctx, &p->pos, "min", "required when validRange is defined");
	} else if (v_quantity(ctx, &p->range_min, NULL, &v)) {
		g_autofree char *mins = k8s_field_quote(p->range_min.text);
		if (k8s_quantity_cmp(&v, &max) > 0) {
			verror(ctx, &p->range_min.pos, "min", K8S_FIELD_INVALID, mins,
			       "min is larger than capacity value: %s", max_s);
		}
		if (k8s_quantity_cmp(&def, &v) < 0) {
			g_autofree char *ds = k8s_field_quote(p->default_.text);
			verror(ctx, &p->default_.pos, "default", K8S_FIELD_INVALID, ds,
			       "default is less than min: %s", p->range_min.text);
		}
	}
	if (p->range_step.text != NULL && v_quantity(ctx, &p->range_step, NULL, &v) &&
	    k8s_quantity_sign(&v) <= 0) {
		g_autofree char *ss = k8s_field_quote(p->range_step.text);
		verror(ctx, &p->range_step.pos, "step", K8S_FIELD_INVALID, ss,
		       "must be greater than zero");
	}
	vpath_pop(ctx, m);
}

/*
 * A device capacity or a counter is an amount drasim accounts (GPU memory, MIG slices,
 * counters consumed by partitions): a negative one would give memory back or let
 * partitions overlap. Kubernetes 1.34 checks no sign here (validateDeviceCounter
 * accepts "any parsed quantity", validateSingleAllocatableDeviceCapacity only looks at
 * requestPolicy; pkg/apis/resource/validation/validation.go), so this is drasim's own
 * rule, and the message says so.
 */
static void
v_non_negative(VCtx *ctx, const K8sQty *qty, const K8sPos *at, const char *key)
{
	K8sQuantity v;
	gsize m;
	g_autofree char *q = NULL;

	if (!v_quantity(ctx, qty, NULL, &v) || k8s_quantity_sign(&v) >= 0) {
		return;
	}
	m = vpath_key(ctx, key != NULL ? key : "");
	q = k8s_field_quote(qty->text);
	verror(ctx, qty->pos.line != 0 ? &qty->pos : at, "value", K8S_FIELD_INVALID, q,
	       "must be greater than or equal to zero (drasim's rule: a capacity or counter is "
	       "an amount; Kubernetes 1.34 does not check the sign)");
	vpath_pop(ctx, m);
}

static void
v_capacity(VCtx *ctx, const K8sDevice *d)
{
	gboolean multi = d->has_allow_multiple_allocations && d->allow_multiple_allocations;
	gsize mark = vpath_push(ctx, "capacity");

	for (guint i = 0; i < d->n_capacity; i++) {
		const K8sDeviceCapacity *c = &d->capacity[i];
		v_qualified_name(ctx, c->name, &c->pos, FALSE);
		v_non_negative(ctx, &c->value, &c->pos, c->name);
		if (c->request_policy == NULL) {
			continue;
		}
		gsize m = vpath_key(ctx, c->name);
		if (!multi) {
			verror(ctx, &c->request_policy->pos, "requestPolicy", K8S_FIELD_FORBIDDEN,
			       NULL, "allowMultipleAllocations must be true");
		} else {
			gsize m2 = vpath_push(ctx, "requestPolicy");
			v_request_policy(ctx, c);
			vpath_pop(ctx, m2);
		}
		vpath_pop(ctx, m);
	}
	vpath_pop(ctx, mark);
}

static void
v_label_name_list(VCtx *ctx, const K8sStringList *list, const char *child)
{
	gsize mark = vpath_push(ctx, child);

	if (list->n > V_BINDING_CONDITIONS_MAX) {
		vtoo_many(ctx, &list->pos, NULL, list->n, V_BINDING_CONDITIONS_MAX);
		vpath_pop(ctx, mark);
		return;
	}
	for (guint i = 0; i < list->n; i++) {
		gsize m = vpath_index(ctx, i);
		const K8sPos *pos = list->item_pos != NULL ? &list->item_pos[i] : &list->pos;
		v_label_name(ctx, list->items[i], pos, NULL);
		for (guint j = 0; j < i; j++) {
			if (strcmp(list->items[j], list->items[i]) == 0) {
				vduplicate(ctx, pos, list->items[i]);
				break;
			}
		}
		vpath_pop(ctx, m);
	}
	vpath_pop(ctx, mark);
}

static void
v_binding(VCtx *ctx, const K8sDevice *d)
{
	const K8sStringList *bc = &d->binding_conditions, *bf = &d->binding_failure_conditions;

	v_label_name_list(ctx, bc, "bindingConditions");
	v_label_name_list(ctx, bf, "bindingFailureConditions");
	for (guint i = 0; i < bf->n && bc->n <= V_BINDING_CONDITIONS_MAX; i++) {
		for (guint j = 0; j < bc->n; j++) {
			if (strcmp(bf->items[i], bc->items[j]) == 0) {
				g_autofree char *child =
				        g_strdup_printf("bindingFailureConditions[%u]", i);
				vinvalid_str(ctx, &bf->pos, child, bf->items[i],
				             "bindingFailureConditions must not overlap with "
				             "bindingConditions");
			}
		}
	}
	if (bc->n == 0 && bf->n > 0) {
		verror(ctx, &bf->pos, "bindingConditions", K8S_FIELD_INVALID, "[]string(nil)",
		       "bindingConditions are required to use bindingFailureConditions");
	}
	if (bf->n == 0 && bc->n > 0) {
		verror(ctx, &bc->pos, "bindingFailureConditions", K8S_FIELD_INVALID,
		       "[]string(nil)",
		       "bindingFailureConditions are required to use bindingConditions");
	}
}

static const K8sCounterSet *
find_counter_set(const K8sResourceSliceSpec *spec, const char *name)
{
	for (guint i = 0; i < spec->n_shared_counters; i++) {
		if (spec->shared_counters[i].name != NULL &&
		    strcmp(spec->shared_counters[i].name, name) == 0) {
			return &spec->shared_counters[i];
		}
	}
	return NULL;
}

static void
v_counter_names(VCtx *ctx, const K8sCounter *counters, guint n, const K8sPos *pos)
{
	gsize mark = vpath_push(ctx, "counters");

	if (n == 0) {
		vrequired(ctx, pos, NULL, NULL);
	}
	for (guint i = 0; i < n; i++) {
		const char *name = counters[i].name != NULL ? counters[i].name : "";
		vinvalid_msgs(ctx, &counters[i].pos, NULL, name, k8s_names_dns1123_label(name));
		v_non_negative(ctx, &counters[i].value, &counters[i].pos, name);
	}
	vpath_pop(ctx, mark);
}

static guint
v_consumes_counters(VCtx *ctx, const K8sResourceSliceSpec *spec, const K8sDevice *d)
{
	gsize mark = vpath_push(ctx, "consumesCounters");
	guint total = 0;

	for (guint i = 0; i < d->n_consumes_counters; i++) {
		const K8sDeviceCounterConsumption *c = &d->consumes_counters[i];
		const K8sCounterSet *set = NULL;
		gsize m = vpath_index(ctx, i);
		total += c->n_counters;
		if (c->counter_set == NULL || c->counter_set[0] == '\0') {
			vrequired(ctx, &c->pos, "counterSet", NULL);
		} else {
			vinvalid_msgs(ctx, &c->pos, "counterSet", c->counter_set,
			              k8s_names_dns1123_label(c->counter_set));
			set = find_counter_set(spec, c->counter_set);
			if (set == NULL) {
				vinvalid_str(ctx, &c->pos, "counterSet", c->counter_set,
				             "must reference a counterSet defined in the "
				             "ResourceSlice sharedCounters");
			}
			for (guint j = 0; j < i; j++) {
				const char *other = d->consumes_counters[j].counter_set;
				if (other != NULL && strcmp(other, c->counter_set) == 0) {
					vduplicate(ctx, &c->pos, c->counter_set);
					break;
				}
			}
		}
		v_counter_names(ctx, c->counters, c->n_counters, &c->pos);
		for (guint j = 0; set != NULL && j < c->n_counters; j++) {
			gboolean known = FALSE;
			for (guint k = 0; k < set->n_counters && !known; k++) {
				known = g_strcmp0(set->counters[k].name, c->counters[j].name) == 0;
			}
			if (!known) {
				g_autofree char *child =
				        g_strdup_printf("counters[%s]", c->counters[j].name);
				vinvalid_str(
				        ctx, &c->counters[j].pos, child, c->counters[j].name,
				        "must reference a counter defined in the ResourceSlice "
				        "sharedCounters");
			}
		}
		vpath_pop(ctx, m);
	}
	if (total > V_COUNTERS_PER_DEVICE_MAX) {
		vtoo_many(ctx, &d->pos, NULL, total, V_COUNTERS_PER_DEVICE_MAX);
	}
	vpath_pop(ctx, mark);
	return total;
}

static void
v_device_node_selection(VCtx *ctx, const K8sResourceSliceSpec *spec, const K8sDevice *d)
{
	static const char need[] = "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is "
	                           "required when `perDeviceNodeSelection` is set to true in the "
	                           "ResourceSlice spec";
	gboolean per_device =
	        spec->has_per_device_node_selection && spec->per_device_node_selection;
	GPtrArray *set = NULL;

	if (!per_device) {
		if (d->node_name != NULL || d->node_selector != NULL || d->has_all_nodes) {
			verror(ctx, &d->pos, NULL, K8S_FIELD_INVALID, "\"null\"",
			       "`nodeName`, `nodeSelector` and `allNodes` can only be set if "
			       "`perDeviceNodeSelection` is set to true in the ResourceSlice spec");
		}
		return;
	}
	set = g_ptr_array_new();
	if (d->node_name != NULL) {
		if (d->node_name[0] != '\0') {
			g_ptr_array_add(set, (gpointer) "`nodeName`");
			vinvalid_msgs(ctx, &d->pos, "nodeName", d->node_name,
			              k8s_names_dns1123_subdomain(d->node_name));
		} else {
			vinvalid_str(ctx, &d->pos, "nodeName", "", "must not be empty");
		}
	}
	if (d->node_selector != NULL) {
		gsize m = vpath_push(ctx, "nodeSelector");
		g_ptr_array_add(set, (gpointer) "`nodeSelector`");
		v_node_selector(ctx, d->node_selector);
		vpath_pop(ctx, m);
	}
	if (d->has_all_nodes) {
		if (d->all_nodes) {
			g_ptr_array_add(set, (gpointer) "`allNodes`");
		} else {
			verror(ctx, &d->pos, "allNodes", K8S_FIELD_INVALID, "false",
			       "must be either unset or set to true");
		}
	}
	if (set->len == 0) {
		vrequired(ctx, &d->pos, NULL, need);
	} else if (set->len > 1) {
		g_ptr_array_add(set, NULL);
		g_autofree char *joined = g_strjoinv(", ", (char **)set->pdata);
		g_autofree char *value = g_strdup_printf("{%s}", joined);
		g_autofree char *q = k8s_field_quote(value);
		verror(ctx, &d->pos, NULL, K8S_FIELD_INVALID, q, "%s", need);
	}
	g_ptr_array_free(set, TRUE);
}

static guint
v_device(VCtx *ctx, const K8sResourceSliceSpec *spec, const K8sDevice *d)
{
	guint n_attr_cap = d->n_attributes + d->n_capacity, counters;
	gsize m;

	v_request_name(ctx, d->name, &d->name_pos, "name");
	m = ctx->basic_devices ? vpath_push(ctx, "basic") : ctx->path->len;
	if (n_attr_cap > V_ATTRS_AND_CAPACITIES_MAX) {
		char value[16];
		g_snprintf(value, sizeof(value), "%u", n_attr_cap);
		verror(ctx, &d->pos, NULL, K8S_FIELD_INVALID, value,
		       "the total number of attributes and capacities must not exceed %d",
		       V_ATTRS_AND_CAPACITIES_MAX);
	}
	gsize ma = vpath_push(ctx, "attributes");
	for (guint i = 0; i < d->n_attributes; i++) {
		v_qualified_name(ctx, d->attributes[i].name, &d->attributes[i].pos, FALSE);
		v_attribute(ctx, &d->attributes[i]);
	}
	vpath_pop(ctx, ma);
	v_capacity(ctx, d);
	ma = vpath_push(ctx, "taints");
	if (d->n_taints > V_DEVICE_TAINTS_MAX) {
		vtoo_many(ctx, &d->pos, NULL, d->n_taints, V_DEVICE_TAINTS_MAX);
	} else {
		for (guint i = 0; i < d->n_taints; i++) {
			gsize mi = vpath_index(ctx, i);
			v_device_taint(ctx, &d->taints[i]);
			vpath_pop(ctx, mi);
		}
	}
	vpath_pop(ctx, ma);
	counters = v_consumes_counters(ctx, spec, d);
	v_device_node_selection(ctx, spec, d);
	v_binding(ctx, d);
	vpath_pop(ctx, m);
	return counters;
}

static void
v_slice_node_selection(VCtx *ctx, const K8sResourceSliceSpec *spec)
{
	static const char need[] = "exactly one of `nodeName`, `nodeSelector`, `allNodes`, "
	                           "`perDeviceNodeSelection` is required";
	/* v1beta1 has plain nodeName/allNodes fields: "" and false mean unset there */
	gboolean plain = ctx->basic_devices;
	const char *set[4];
	guint n = 0;

	if (spec->node_name != NULL) {
		if (spec->node_name[0] != '\0') {
			set[n++] = "`nodeName`";
			vinvalid_msgs(ctx, &spec->node_name_pos, "nodeName", spec->node_name,
			              k8s_names_dns1123_subdomain(spec->node_name));
		} else if (!plain) {
			vinvalid_str(ctx, &spec->node_name_pos, "nodeName", "",
			             "must be either unset or set to a non-empty string");
		}
	}
	if (spec->node_selector != NULL) {
		gsize m = vpath_push(ctx, "nodeSelector");
		set[n++] = "`nodeSelector`";
		v_node_selector(ctx, spec->node_selector);
		if (spec->node_selector->n_terms != 1) {
			verror(ctx, &spec->node_selector->pos, "nodeSelectorTerms",
			       K8S_FIELD_INVALID, NULL, "must have exactly one node selector term");
		}
		vpath_pop(ctx, m);
	}
	if (spec->has_all_nodes) {
		if (spec->all_nodes) {
			set[n++] = "`allNodes`";
		} else if (!plain) {
			verror(ctx, &spec->pos, "allNodes", K8S_FIELD_INVALID, "false",
			       "must be either unset or set to true");
		}
	}
	if (spec->has_per_device_node_selection) {
		if (spec->per_device_node_selection) {
			set[n++] = "`perDeviceNodeSelection`";
		} else {
			verror(ctx, &spec->pos, "perDeviceNodeSelection", K8S_FIELD_INVALID,
			       "false", "must be either unset or set to true");
		}
	}
	if (n == 0) {
		vrequired(ctx, &spec->pos, NULL, need);
	} else if (n > 1) {
		GString *v = g_string_new("{");
		for (guint i = 0; i < n; i++) {
			g_string_append_printf(v, "%s%s", i > 0 ? ", " : "", set[i]);
		}
		g_string_append_c(v, '}');
		g_autofree char *q = k8s_field_quote(v->str);
		verror(ctx, &spec->pos, NULL, K8S_FIELD_INVALID, q,
		       "%s, but multiple fields are set", need);
		g_string_free(v, TRUE);
	}
}

static void
v_shared_counters(VCtx *ctx, const K8sResourceSliceSpec *spec)
{
	gsize mark = vpath_push(ctx, "sharedCounters");
	guint total = 0;

	for (guint i = 0; i < spec->n_shared_counters; i++) {
		total += spec->shared_counters[i].n_counters;
	}
	if (spec->n_shared_counters > V_SHARED_COUNTERS_MAX || total > V_SHARED_COUNTERS_MAX) {
		vtoo_many(ctx, &spec->pos, NULL, MAX(total, spec->n_shared_counters),
		          V_SHARED_COUNTERS_MAX);
		vpath_pop(ctx, mark);
		return;
	}
	for (guint i = 0; i < spec->n_shared_counters; i++) {
		const K8sCounterSet *cs = &spec->shared_counters[i];
		gsize m = vpath_index(ctx, i);
		if (cs->name == NULL || cs->name[0] == '\0') {
			vrequired(ctx, &cs->pos, "name", NULL);
		} else {
			vinvalid_msgs(ctx, &cs->pos, "name", cs->name,
			              k8s_names_dns1123_label(cs->name));
			for (guint j = 0; j < i; j++) {
				if (g_strcmp0(spec->shared_counters[j].name, cs->name) == 0) {
					vduplicate(ctx, &cs->pos, cs->name);
					break;
				}
			}
		}
		v_counter_names(ctx, cs->counters, cs->n_counters, &cs->pos);
		vpath_pop(ctx, m);
	}
	vpath_pop(ctx, mark);
}

static gboolean
slice_has_advanced_devices(const K8sResourceSliceSpec *spec)
{
	for (guint i = 0; i < spec->n_devices; i++) {
		if (spec->devices[i].n_taints > 0 || spec->devices[i].n_consumes_counters > 0) {
			return TRUE;
		}
	}
	return FALSE;
}

void
v_resource_slice(VCtx *ctx, const K8sResourceSlice *slice)
{
	const K8sResourceSliceSpec *spec = &slice->spec;
	guint max = slice_has_advanced_devices(spec) ? V_SLICE_MAX_DEVICES_ADVANCED
	                                             : V_SLICE_MAX_DEVICES;
	gsize mark = vpath_push(ctx, "spec");
	guint counters = 0;

	v_driver_name(ctx, spec->driver, vpos(ctx, &spec->driver_pos), "driver");
	v_pool(ctx, &spec->pool);
	v_slice_node_selection(ctx, spec);

	gsize m = vpath_push(ctx, "devices");
	if (spec->n_devices > max) {
		vtoo_many(ctx, &spec->pos, NULL, spec->n_devices, max);
	} else {
		for (guint i = 0; i < spec->n_devices; i++) {
			const K8sDevice *d = &spec->devices[i];
			gsize mi = vpath_index(ctx, i);
			counters += v_device(ctx, spec, d);
			for (guint j = 0; j < i && d->name != NULL; j++) {
				if (g_strcmp0(spec->devices[j].name, d->name) == 0) {
					vduplicate(ctx, &d->name_pos, d->name);
					break;
				}
			}
			vpath_pop(ctx, mi);
		}
	}
	if (counters > V_DEVICE_COUNTERS_PER_SLICE) {
		vtoo_many(ctx, &spec->pos, NULL, counters, V_DEVICE_COUNTERS_PER_SLICE);
	}
	vpath_pop(ctx, m);
	v_shared_counters(ctx, spec);
	vpath_pop(ctx, mark);
}
