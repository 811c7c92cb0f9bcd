/*
 * k8s_validate_workload.c: validation of pods, nodes and the workloads that stamp out pods
 * (apps/v1 Deployment, StatefulSet, ReplicaSet; batch/v1 Job).
 *
 * Follows pkg/apis/core/validation (ValidatePodSpec: resource claims, containers and their
 * resources, tolerations, node selection), pkg/apis/apps/validation (selector required and
 * matching the template's labels, restartPolicy Always) and pkg/apis/batch/validation
 * (restartPolicy OnFailure or Never), with 1.34's defaults applied first (an unset
 * restartPolicy is Always).
 */
#include <string.h>

#include <glib.h>

#include "k8s_validate-private.h"

/* ---- resource claims (validatePodResourceClaims, validateResourceClaimNames) -------- */

static gboolean
pod_has_claim(const K8sPodSpec *spec, const char *name)
{
	for (guint i = 0; i < spec->n_resource_claims; i++) {
		if (g_strcmp0(spec->resource_claims[i].name, name) == 0) {
			return TRUE;
		}
	}
	return FALSE;
}

static void
v_pod_resource_claims(VCtx *ctx, const K8sPodSpec *spec)
{
	gsize mark = vpath_push(ctx, "resourceClaims");

	for (guint i = 0; i < spec->n_resource_claims; i++) {
		const K8sPodResourceClaim *c = &spec->resource_claims[i];
		gsize m = vpath_index(ctx, i);
		gboolean dup = FALSE;

		for (guint j = 0; j < i && c->name != NULL; j++) {
			dup |= g_strcmp0(spec->resource_claims[j].name, c->name) == 0;
		}
		if (c->name == NULL || c->name[0] == '\0') {
			vrequired(ctx, &c->pos, "name", NULL);
		} else if (dup) {
			g_autofree char *q = k8s_field_quote(c->name);
			verror(ctx, &c->pos, "name", K8S_FIELD_DUPLICATE, q, NULL);
		} else {
			vinvalid_msgs(ctx, &c->pos, "name", c->name,
			              k8s_names_dns1123_label(c->name));
		}
		if (c->resource_claim_name == NULL && c->resource_claim_template_name == NULL) {
			vinvalid_str(ctx, &c->pos, NULL, "",
			             "must specify one of: `resourceClaimName`, "
			             "`resourceClaimTemplateName`");
		} else if (c->resource_claim_name != NULL &&
		           c->resource_claim_template_name != NULL) {
			vinvalid_str(ctx, &c->pos, NULL, "",
			             "at most one of `resourceClaimName` or "
			             "`resourceClaimTemplateName` may be specified");
		} else if (c->resource_claim_name != NULL) {
			vinvalid_msgs(ctx, &c->resource_claim_name_pos, "resourceClaimName",
			              c->resource_claim_name,
			              k8s_names_dns1123_subdomain(c->resource_claim_name));
		} else {
			vinvalid_msgs(ctx, &c->resource_claim_template_name_pos,
			              "resourceClaimTemplateName", c->resource_claim_template_name,
			              k8s_names_dns1123_subdomain(c->resource_claim_template_name));
		}
		vpath_pop(ctx, m);
	}
	vpath_pop(ctx, mark);
}

static int
cmp_strp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void
v_container_claims(VCtx *ctx, const K8sPodSpec *spec, const K8sResourceRequirements *res)
{
	gsize mark = vpath_push(ctx, "claims");

	for (guint i = 0; i < res->n_claims; i++) {
		const K8sContainerClaim *c = &res->claims[i];
		gsize m = vpath_index(ctx, i);

		if (c->name == NULL || c->name[0] == '\0') {
			vrequired(ctx, &c->pos, NULL, NULL);
			vpath_pop(ctx, m);
			continue;
		}
		for (guint j = 0; j < i; j++) {
			if (g_strcmp0(res->claims[j].name, c->name) == 0 &&
			    g_strcmp0(res->claims[j].request, c->request) == 0) {
				vduplicate(ctx, &c->pos, c->name);
				break;
			}
		}
		if (!pod_has_claim(spec, c->name)) {
			GString *detail = g_string_new("must be one of the names in "
			                               "pod.spec.resourceClaims");
			g_autofree char *q = k8s_field_quote(c->name);
			g_autoptr(GPtrArray) names = g_ptr_array_new();
			for (guint j = 0; j < spec->n_resource_claims; j++) {
				if (spec->resource_claims[j].name != NULL) {
					g_ptr_array_add(names,
					                (gpointer)spec->resource_claims[j].name);
				}
			}
			if (names->len == 0) {
				g_string_append(detail, " which is empty");
			} else {
				g_ptr_array_sort(names, cmp_strp); /* sets.List sorts */
				g_string_append(detail, ": ");
				for (guint j = 0; j < names->len; j++) {
					g_string_append_printf(detail, "%s%s", j > 0 ? ", " : "",
					                       (const char *)names->pdata[j]);
				}
			}
			verror(ctx, &c->pos, NULL, K8S_FIELD_NOT_FOUND, q, "%s", detail->str);
			g_string_free(detail, TRUE);
		}
		vpath_pop(ctx, m);
	}
	vpath_pop(ctx, mark);
}

/* ---- container resources (ValidateResourceRequirements) ------------------------------- */

static gboolean
is_native_resource(const char *name)
{
	return strchr(name, '/') == NULL || strstr(name, "kubernetes.io/") != NULL;
}

static const K8sQtyPair *
qty_lookup(const K8sQtyMap *map, const char *key)
{
	for (guint i = 0; i < map->n; i++) {
		if (g_strcmp0(map->items[i].key, key) == 0) {
			return &map->items[i];
		}
	}
	return NULL;
}

static void
v_resource_list(VCtx *ctx, const K8sQtyMap *map, const char *child)
{
	gsize mark = vpath_push(ctx, child);

	for (guint i = 0; i < map->n; i++) {
		const K8sQtyPair *p = &map->items[i];
		K8sQuantity q;
		gsize m = vpath_key(ctx, p->key);

		if (!v_quantity(ctx, &p->value, NULL, &q)) {
			vpath_pop(ctx, m);
			continue;
		}
		if (k8s_quantity_sign(&q) < 0) {
			g_autofree char *s = k8s_field_quote(p->value.text);
			verror(ctx, &p->value.pos, NULL, K8S_FIELD_INVALID, s,
			       "must be greater than or equal to 0");
		}
		/* extended resources (and hugepages) count whole devices */
		if (!is_native_resource(p->key) && !k8s_quantity_as_int64(&q, NULL) &&
		    k8s_quantity_cmp_int64(&q, k8s_quantity_value(&q)) != 0) {
			g_autofree char *s = k8s_field_quote(p->value.text);
			verror(ctx, &p->value.pos, NULL, K8S_FIELD_INVALID, s,
			       "must be an integer");
		}
		vpath_pop(ctx, m);
	}
	vpath_pop(ctx, mark);
}

static void
v_requirements(VCtx *ctx, const K8sPodSpec *spec, const K8sResourceRequirements *res)
{
	gsize mark = vpath_push(ctx, "resources");

	v_resource_list(ctx, &res->limits, "limits");
	v_resource_list(ctx, &res->requests, "requests");
	for (guint i = 0; i < res->requests.n; i++) {
		const K8sQtyPair *req = &res->requests.items[i];
		const K8sQtyPair *lim = qty_lookup(&res->limits, req->key);
		K8sQuantity rq, lq;
		gboolean extended = !is_native_resource(req->key);
		g_autofree char *child = g_strdup_printf("requests[%s]", req->key);

		if (!v_quantity(ctx, &req->value, NULL, &rq)) {
			continue;
		}
		if (lim == NULL) {
			if (extended) {
				g_autofree char *lchild = g_strdup_printf("limits[%s]", req->key);
				vrequired(ctx, &req->pos, lchild,
				          "Limit must be set for non overcommitable resources");
			}
			continue;
		}
		if (!v_quantity(ctx, &lim->value, NULL, &lq)) {
			continue;
		}
		g_autofree char *rs = k8s_quantity_to_string_dup(&rq);
		g_autofree char *ls = k8s_quantity_to_string_dup(&lq);
		g_autofree char *q = k8s_field_quote(rs);
		if (extended && k8s_quantity_cmp(&rq, &lq) != 0) {
			verror(ctx, &req->value.pos, child, K8S_FIELD_INVALID, q,
			       "must be equal to %s limit of %s", req->key, ls);
		} else if (k8s_quantity_cmp(&rq, &lq) > 0) {
			verror(ctx, &req->value.pos, child, K8S_FIELD_INVALID, q,
			       "must be less than or equal to %s limit of %s", req->key, ls);
		}
	}
	v_container_claims(ctx, spec, res);
	vpath_pop(ctx, mark);
}

static void
v_containers(VCtx *ctx,
             const K8sPodSpec *spec,
             const K8sContainer *cs,
             guint n,
             const char *child,
             gboolean required)
{
	gsize mark = vpath_push(ctx, child);

	if (n == 0 && required) {
		vrequired(ctx, &spec->pos, NULL, NULL);
	}
	for (guint i = 0; i < n; i++) {
		const K8sContainer *c = &cs[i];
		gsize m = vpath_index(ctx, i);
		if (c->name == NULL || c->name[0] == '\0') {
			vrequired(ctx, &c->pos, "name", NULL);
		} else {
			vinvalid_msgs(ctx, &c->pos, "name", c->name,
			              k8s_names_dns1123_label(c->name));
			for (guint j = 0; j < i; j++) {
				if (g_strcmp0(cs[j].name, c->name) == 0) {
					g_autofree char *q = k8s_field_quote(c->name);
					verror(ctx, &c->pos, "name", K8S_FIELD_DUPLICATE, q, NULL);
					break;
				}
			}
		}
		if (c->image == NULL || c->image[0] == '\0') {
			vrequired(ctx, &c->pos, "image", NULL);
		}
		v_requirements(ctx, spec, &c->resources);
		vpath_pop(ctx, m);
	}
	vpath_pop(ctx, mark);
}

/* ---- tolerations (validateTolerations) ----------------------------------------------- */

static void
v_tolerations(VCtx *ctx, const K8sToleration *ts, guint n)
{
	static const char *const operators[] = { "Equal", "Exists", NULL };
	static const char *const effects[] = { "NoSchedule", "PreferNoSchedule", "NoExecute",
		                               NULL };
	gsize mark = vpath_push(ctx, "tolerations");

	for (guint i = 0; i < n; i++) {
		const K8sToleration *t = &ts[i];
		const char *op = t->operator_ != NULL ? t->operator_ : "Equal";
		gsize m = vpath_index(ctx, i);

		if (t->key != NULL && t->key[0] != '\0') {
			v_label_name(ctx, t->key, &t->pos, "key");
		} else if (strcmp(op, "Exists") != 0) {
			vinvalid_str(ctx, &t->pos, "operator", op,
			             "operator must be Exists when `key` is empty, which means "
			             "\"match all values and all keys\"");
		}
		if (t->has_toleration_seconds && g_strcmp0(t->effect, "NoExecute") != 0) {
			vinvalid_str(ctx, &t->pos, "effect", t->effect,
			             "effect must be 'NoExecute' when `tolerationSeconds` is set");
		}
		if (strcmp(op, "Equal") == 0) {
			const char *v = t->value != NULL ? t->value : "";
			vinvalid_msgs(ctx, &t->pos, "value", v, k8s_names_label_value(v));
		} else if (strcmp(op, "Exists") == 0) {
			if (t->value != NULL && t->value[0] != '\0') {
				vinvalid_str(ctx, &t->pos, "operator", t->value,
				             "value must be empty when `operator` is 'Exists'");
			}
		} else {
			vnot_supported(ctx, &t->pos, "operator", op, operators);
		}
		if (t->effect != NULL && t->effect[0] != '\0' &&
		    !g_strv_contains((const char *const *)effects, t->effect)) {
			vnot_supported(ctx, &t->pos, "effect", t->effect, effects);
		}
		vpath_pop(ctx, m);
	}
	vpath_pop(ctx, mark);
}

/* ---- pod spec ------------------------------------------------------------------------ */

static void
v_pod_spec(VCtx *ctx, const K8sPodSpec *spec)
{
	gsize mark = vpath_push(ctx, "spec");

	v_pod_resource_claims(ctx, spec);
	v_containers(ctx, spec, spec->containers, spec->n_containers, "containers", TRUE);
	v_containers(ctx, spec, spec->init_containers, spec->n_init_containers, "initContainers",
	             FALSE);
	v_labels(ctx, &spec->node_selector, "nodeSelector");
	if (spec->required_node_affinity != NULL) {
		gsize m = vpath_push(ctx, "affinity.nodeAffinity."
		                          "requiredDuringSchedulingIgnoredDuringExecution");
		v_node_selector(ctx, spec->required_node_affinity);
		vpath_pop(ctx, m);
	}
	v_tolerations(ctx, spec->tolerations, spec->n_tolerations);
	if (spec->restart_policy != NULL && strcmp(spec->restart_policy, "Always") != 0 &&
	    strcmp(spec->restart_policy, "OnFailure") != 0 &&
	    strcmp(spec->restart_policy, "Never") != 0) {
		static const char *const policies[] = { "Always", "OnFailure", "Never", NULL };
		vnot_supported(ctx, &spec->pos, "restartPolicy", spec->restart_policy, policies);
	}
	vpath_pop(ctx, mark);
}

void
v_pod(VCtx *ctx, const K8sPod *pod)
{
	v_pod_spec(ctx, &pod->spec);
}

void
v_node(VCtx *ctx, const K8sNode *node)
{
	static const char *const effects[] = { "NoSchedule", "PreferNoSchedule", "NoExecute",
		                               NULL };
	gsize mark = vpath_push(ctx, "spec.taints");

	for (guint i = 0; i < node->n_taints; i++) {
		const K8sTaint *t = &node->taints[i];
		gsize m = vpath_index(ctx, i);
		v_label_name(ctx, t->key, &t->pos, "key");
		if (t->value != NULL && t->value[0] != '\0') {
			vinvalid_msgs(ctx, &t->pos, "value", t->value,
			              k8s_names_label_value(t->value));
		}
		if (t->effect == NULL || t->effect[0] == '\0') {
			vrequired(ctx, &t->pos, "effect", NULL);
		} else if (!g_strv_contains((const char *const *)effects, t->effect)) {
			vnot_supported(ctx, &t->pos, "effect", t->effect, effects);
		}
		vpath_pop(ctx, m);
	}
	vpath_pop(ctx, mark);
	mark = vpath_push(ctx, "status");
	v_resource_list(ctx, &node->capacity, "capacity");
	v_resource_list(ctx, &node->allocatable, "allocatable");
	vpath_pop(ctx, mark);
}

/* ---- workloads ----------------------------------------------------------------------- */

/* ValidateLabelSelector: matchLabels as labels, matchExpressions' keys and operators. */
static void
v_label_selector(VCtx *ctx, const K8sLabelSelector *sel)
{
	gsize mark = vpath_push(ctx, "selector");

	v_labels(ctx, &sel->match_labels, "matchLabels");
	for (guint i = 0; i < sel->n_match_expressions; i++) {
		const K8sLabelSelectorRequirement *r = &sel->match_expressions[i];
		gsize m = vpath_push(ctx, "matchExpressions");

		vpath_index(ctx, i);
		v_selector_operator(ctx, &r->pos, r->operator_, r->values.n, FALSE);
		v_label_name(ctx, r->key, &r->pos, "key");
		for (guint j = 0; j < r->values.n; j++) {
			vinvalid_msgs(ctx, &r->pos, "values", r->values.items[j],
			              k8s_names_label_value(r->values.items[j]));
		}
		vpath_pop(ctx, m);
	}
	vpath_pop(ctx, mark);
}

/* Whether metav1.LabelSelectorAsSelector accepts @sel (upstream skips the template check
 * when it does not). */
static gboolean
selector_is_valid(const K8sLabelSelector *sel)
{
	for (guint i = 0; i < sel->n_match_expressions; i++) {
		const K8sLabelSelectorRequirement *r = &sel->match_expressions[i];
		const char *op = r->operator_ != NULL ? r->operator_ : "";
		gboolean set_op = strcmp(op, "In") == 0 || strcmp(op, "NotIn") == 0;
		gboolean exist_op = strcmp(op, "Exists") == 0 || strcmp(op, "DoesNotExist") == 0;

		if ((!set_op && !exist_op) || (set_op && r->values.n == 0) ||
		    (exist_op && r->values.n > 0)) {
			return FALSE;
		}
	}
	return TRUE;
}

/* labels.Selector.Matches on the template's labels (metav1.LabelSelectorAsSelector). */
static gboolean
selector_matches(const K8sLabelSelector *sel, const K8sStringMap *labels)
{
	for (guint i = 0; i < sel->match_labels.n; i++) {
		const K8sStringPair *want = &sel->match_labels.items[i];
		gboolean found = FALSE;
		for (guint j = 0; j < labels->n && !found; j++) {
			found = g_strcmp0(labels->items[j].key, want->key) == 0 &&
			        g_strcmp0(labels->items[j].value, want->value) == 0;
		}
		if (!found) {
			return FALSE;
		}
	}
	for (guint i = 0; i < sel->n_match_expressions; i++) {
		const K8sLabelSelectorRequirement *r = &sel->match_expressions[i];
		const char *value = NULL;
		gboolean has = FALSE, in = FALSE;
		for (guint j = 0; j < labels->n && !has; j++) {
			if (g_strcmp0(labels->items[j].key, r->key) == 0) {
				has = TRUE;
				value = labels->items[j].value;
			}
		}
		for (guint j = 0; has && j < r->values.n && !in; j++) {
			in = g_strcmp0(r->values.items[j], value) == 0;
		}
		if ((g_strcmp0(r->operator_, "In") == 0 && !in) ||
		    (g_strcmp0(r->operator_, "NotIn") == 0 && in) ||
		    (g_strcmp0(r->operator_, "Exists") == 0 && !has) ||
		    (g_strcmp0(r->operator_, "DoesNotExist") == 0 && has)) {
			return FALSE;
		}
	}
	return TRUE;
}

/* Go's %#v of a map[string]string, the value upstream prints for template labels. */
static char *
go_map_repr(const K8sStringMap *labels)
{
	GString *s;
	g_autoptr(GPtrArray) keys = NULL;

	if (labels->n == 0) {
		return g_strdup("map[string]string(nil)");
	}
	s = g_string_new("map[string]string{");
	keys = g_ptr_array_new();
	for (guint i = 0; i < labels->n; i++) {
		g_ptr_array_add(keys, (gpointer)&labels->items[i]);
	}
	for (guint i = 0; i < keys->len; i++) {
		/* Go prints map keys sorted */
		for (guint j = i + 1; j < keys->len; j++) {
			const K8sStringPair *a = keys->pdata[i], *b = keys->pdata[j];
			if (strcmp(a->key, b->key) > 0) {
				keys->pdata[i] = (gpointer)b;
				keys->pdata[j] = (gpointer)a;
			}
		}
		const K8sStringPair *p = keys->pdata[i];
		g_autofree char *k = k8s_field_quote(p->key);
		g_autofree char *v = k8s_field_quote(p->value != NULL ? p->value : "");
		g_string_append_printf(s, "%s%s:%s", i > 0 ? ", " : "", k, v);
	}
	g_string_append_c(s, '}');
	return g_string_free(s, FALSE);
}

static void
v_nonnegative(VCtx *ctx, gboolean has, gint64 value, const char *child)
{
	char v[32];

	if (has && value < 0) {
		g_snprintf(v, sizeof(v), "%" G_GINT64_FORMAT, value);
		verror(ctx, &ctx->obj->pos, child, K8S_FIELD_INVALID, v,
		       "must be greater than or equal to 0");
	}
}

void
v_workload(VCtx *ctx, const K8sWorkload *w)
{
	const K8sPodTemplateSpec *tmpl = &w->template_;
	gboolean is_job = w->obj.kind == K8S_KIND_JOB;
	const K8sPos *spec_pos = w->spec_pos.line != 0 ? &w->spec_pos : &w->obj.pos;
	const char *restart = tmpl->spec.restart_policy != NULL ? tmpl->spec.restart_policy
	                                                        : "Always"; /* the default */
	gsize mark = vpath_push(ctx, "spec");

	v_nonnegative(ctx, w->has_replicas, w->replicas, "replicas");
	v_nonnegative(ctx, w->has_parallelism, w->parallelism, "parallelism");
	v_nonnegative(ctx, w->has_completions, w->completions, "completions");
	if (!is_job) {
		/* apps/v1: the selector is required and must select the template's pods. A
		 * missing selector matches nothing, so both errors appear together. */
		if (w->selector == NULL) {
			vrequired(ctx, spec_pos, "selector", NULL);
		} else if (w->selector->match_labels.n + w->selector->n_match_expressions == 0) {
			g_autofree char *kind = g_ascii_strdown(w->obj.kind_name, -1);
			verror(ctx, &w->selector->pos, "selector", K8S_FIELD_INVALID,
			       "&v1.LabelSelector{MatchLabels:map[string]string(nil), "
			       "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}",
			       "empty selector is invalid for %s", kind);
		} else {
			v_label_selector(ctx, w->selector);
		}
		if (w->selector == NULL ||
		    (w->selector->match_labels.n + w->selector->n_match_expressions > 0 &&
		     selector_is_valid(w->selector) &&
		     !selector_matches(w->selector, &tmpl->metadata.labels))) {
			g_autofree char *v = go_map_repr(&tmpl->metadata.labels);
			const K8sPos *pos =
			        tmpl->metadata.pos.line != 0 ? &tmpl->metadata.pos : &tmpl->pos;
			verror(ctx, pos, "template.metadata.labels", K8S_FIELD_INVALID, v,
			       "`selector` does not match template `labels`");
		}
		if (strcmp(restart, "Always") != 0) {
			static const char *const always[] = { "Always", NULL };
			vnot_supported(ctx, &tmpl->spec.pos, "template.spec.restartPolicy", restart,
			               always);
		}
	} else if (strcmp(restart, "OnFailure") != 0 && strcmp(restart, "Never") != 0) {
		static const char *const job[] = { "OnFailure", "Never", NULL };
		const K8sPos *pos = tmpl->spec.pos.line != 0 ? &tmpl->spec.pos : spec_pos;
		vnot_supported(ctx, pos, "template.spec.restartPolicy", restart, job);
	}
	gsize m = vpath_push(ctx, "template");
	gsize m2 = vpath_push(ctx, "metadata");
	v_labels(ctx, &tmpl->metadata.labels, "labels");
	vpath_pop(ctx, m2);
	v_pod_spec(ctx, &tmpl->spec);
	vpath_pop(ctx, m);
	vpath_pop(ctx, mark);
}
