/*
 * k8s_validate.c: the validation context, the rules shared by several kinds (object
 * metadata, driver and qualified names, selectors, opaque configuration, taints and
 * tolerations, node selectors), the apiVersion check, and the per-object dispatcher.
 *
 * Messages are the API server's field.Error texts (k8s.io/apimachinery/pkg/util/validation/
 * field/errors.go) so that a user can search for them; the field path goes in brackets.
 */
#include <string.h>

#include <glib.h>

#include "k8s_validate-private.h"

/* ---- reporting ----------------------------------------------------------------------- */

const K8sPos *
vpos(const VCtx *ctx, const K8sPos *pos)
{
	if (pos != NULL && pos->line != 0) {
		return pos;
	}
	return &ctx->obj->pos;
}

static char *
full_path(const VCtx *ctx, const char *child)
{
	const char *prefix = ctx->obj->path_prefix != NULL ? ctx->obj->path_prefix : "";
	const char *sep = child != NULL && ctx->path->len > 0 ? "." : "";

	return g_strconcat(prefix, ctx->path->str, sep, child != NULL ? child : "", NULL);
}

void
verror(VCtx *ctx,
       const K8sPos *pos,
       const char *child,
       K8sFieldErrorType type,
       const char *value,
       const char *detail_fmt,
       ...)
{
	g_autofree char *detail = NULL;
	g_autofree char *body = NULL;
	g_autofree char *path = full_path(ctx, child);
	va_list args;

	if (detail_fmt != NULL) {
		va_start(args, detail_fmt);
		detail = g_strdup_vprintf(detail_fmt, args);
		va_end(args);
	}
	body = k8s_field_error_body(type, value, detail);
	k8s_diag_list_error(ctx->diags, vpos(ctx, pos), path, "%s", body);
}

void
vwarning(VCtx *ctx, const K8sPos *pos, const char *child, const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	g_autofree char *path = full_path(ctx, child);
	va_list args;

	va_start(args, fmt);
	msg = g_strdup_vprintf(fmt, args);
	va_end(args);
	k8s_diag_list_warning(ctx->diags, vpos(ctx, pos), path, "%s", msg);
}

void
vinvalid_str(VCtx *ctx, const K8sPos *pos, const char *child, const char *value, const char *detail)
{
	g_autofree char *q = k8s_field_quote(value != NULL ? value : "");

	verror(ctx, pos, child, K8S_FIELD_INVALID, q, "%s", detail);
}

void
vrequired(VCtx *ctx, const K8sPos *pos, const char *child, const char *detail)
{
	verror(ctx, pos, child, K8S_FIELD_REQUIRED, NULL, "%s", detail != NULL ? detail : "");
}

void
vtoo_many(VCtx *ctx, const K8sPos *pos, const char *child, guint actual, guint max)
{
	char value[16];

	g_snprintf(value, sizeof(value), "%u", actual);
	verror(ctx, pos, child, K8S_FIELD_TOO_MANY, value, "must have at most %u items", max);
}

void
vtoo_long(VCtx *ctx, const K8sPos *pos, const char *child, guint max)
{
	verror(ctx, pos, child, K8S_FIELD_TOO_LONG, NULL, "may not be more than %u bytes", max);
}

void
vduplicate(VCtx *ctx, const K8sPos *pos, const char *value)
{
	g_autofree char *q = k8s_field_quote(value != NULL ? value : "");

	verror(ctx, pos, NULL, K8S_FIELD_DUPLICATE, q, NULL);
}

void
vnot_supported(VCtx *ctx,
               const K8sPos *pos,
               const char *child,
               const char *value,
               const char *const *supported)
{
	g_autofree char *q = k8s_field_quote(value != NULL ? value : "");
	GString *list = g_string_new("supported values: ");

	for (guint i = 0; supported[i] != NULL; i++) {
		g_autofree char *s = k8s_field_quote(supported[i]);
		g_string_append_printf(list, "%s%s", i > 0 ? ", " : "", s);
	}
	verror(ctx, pos, child, K8S_FIELD_NOT_SUPPORTED, q, "%s", list->str);
	g_string_free(list, TRUE);
}

void
vinvalid_msgs(VCtx *ctx, const K8sPos *pos, const char *child, const char *value, GPtrArray *msgs)
{
	if (msgs == NULL) {
		return;
	}
	for (guint i = 0; i < msgs->len; i++) {
		vinvalid_str(ctx, pos, child, value, msgs->pdata[i]);
	}
	g_ptr_array_unref(msgs);
}

/* ---- metadata ------------------------------------------------------------------------ */

void
v_labels(VCtx *ctx, const K8sStringMap *labels, const char *child)
{
	for (guint i = 0; i < labels->n; i++) {
		const K8sStringPair *p = &labels->items[i];
		vinvalid_msgs(ctx, &p->pos, child, p->key, k8s_names_label_key(p->key));
		if (p->value != NULL) {
			vinvalid_msgs(ctx, &p->pos, child, p->value,
			              k8s_names_label_value(p->value));
		}
	}
}

/* ValidateObjectMeta with NameIsDNSSubdomain, the name rule of every kind drasim models. */
void
v_object_meta(VCtx *ctx, gboolean namespaced)
{
	const K8sObjectMeta *m = &ctx->obj->metadata;
	gsize mark = vpath_push(ctx, "metadata");
	const K8sPos *name_pos = m->name_pos.line != 0 ? &m->name_pos : &m->pos;

	if ((m->name == NULL || m->name[0] == '\0') &&
	    (m->generate_name == NULL || m->generate_name[0] == '\0')) {
		vrequired(ctx, name_pos, "name", "name or generateName is required");
	} else if (m->name != NULL && m->name[0] != '\0') {
		vinvalid_msgs(ctx, name_pos, "name", m->name, k8s_names_dns1123_subdomain(m->name));
	}
	if (m->namespace_ != NULL && m->namespace_[0] != '\0') {
		if (!namespaced) {
			/* the API server clears it on create (rest.BeforeCreate), silently */
			vwarning(ctx, &m->namespace_pos, "namespace",
			         "%s is cluster-scoped: the namespace \"%s\" is ignored",
			         ctx->obj->kind_name, m->namespace_);
		} else {
			vinvalid_msgs(ctx, &m->namespace_pos, "namespace", m->namespace_,
			              k8s_names_dns1123_label(m->namespace_));
		}
	}
	v_labels(ctx, &m->labels, "labels");
	vpath_pop(ctx, mark);
}

/* ---- names ----------------------------------------------------------------------------*/

void
v_driver_name(VCtx *ctx, const char *name, const K8sPos *pos, const char *child)
{
	g_autofree char *lower = NULL;

	if (name == NULL || name[0] == '\0') {
		vrequired(ctx, pos, child, NULL);
		return;
	}
	if (strlen(name) > V_DRIVER_NAME_MAX) {
		vtoo_long(ctx, pos, child, V_DRIVER_NAME_MAX);
	}
	/* ValidateCSIDriverName checks the lower-cased name: "GPU.example.com" passes */
	lower = g_ascii_strdown(name, -1);
	vinvalid_msgs(ctx, pos, child, name, k8s_names_dns1123_subdomain(lower));
}

static void
v_c_identifier(VCtx *ctx, const char *id, const K8sPos *pos)
{
	if (strlen(id) > V_DEVICE_MAX_ID) {
		vtoo_long(ctx, pos, NULL, V_DEVICE_MAX_ID);
	}
	vinvalid_msgs(ctx, pos, NULL, id, k8s_names_c_identifier(id));
}

void
v_qualified_name(VCtx *ctx, const char *name, const K8sPos *pos, gboolean full)
{
	const char *slash = strchr(name, '/');

	if (slash == NULL) {
		v_c_identifier(ctx, name, pos);
		if (full) {
			vinvalid_str(ctx, pos, NULL, name,
			             "a fully qualified name must be a domain and a name separated "
			             "by a slash");
		}
		return;
	}
	if (strchr(slash + 1, '/') != NULL) {
		vinvalid_str(ctx, pos, NULL, name, "must not contain more than one slash");
		return;
	}
	if (slash == name) {
		vinvalid_str(ctx, pos, NULL, "", "the domain must not be empty");
	} else {
		g_autofree char *domain = g_strndup(name, (gsize)(slash - name));
		v_driver_name(ctx, domain, pos, NULL);
	}
	if (slash[1] == '\0') {
		vinvalid_str(ctx, pos, NULL, "", "the name must not be empty");
	} else {
		v_c_identifier(ctx, slash + 1, pos);
	}
}

void
v_label_name(VCtx *ctx, const char *name, const K8sPos *pos, const char *child)
{
	const char *n = name != NULL ? name : "";

	vinvalid_msgs(ctx, pos, child, n, k8s_names_label_key(n));
}

/* ---- selectors and configuration ----------------------------------------------------- */

void
v_selector_operator(
        VCtx *ctx, const K8sPos *pos, const char *operator_, guint n_values, gboolean gt_lt)
{
	const char *op = operator_ != NULL ? operator_ : "";

	if (strcmp(op, "In") == 0 || strcmp(op, "NotIn") == 0) {
		if (n_values == 0) {
			vrequired(ctx, pos, "values",
			          "must be specified when `operator` is 'In' or 'NotIn'");
		}
	} else if (strcmp(op, "Exists") == 0 || strcmp(op, "DoesNotExist") == 0) {
		if (n_values > 0) {
			verror(ctx, pos, "values", K8S_FIELD_FORBIDDEN, NULL,
			       "may not be specified when `operator` is 'Exists' or "
			       "'DoesNotExist'");
		}
	} else if (gt_lt && (strcmp(op, "Gt") == 0 || strcmp(op, "Lt") == 0)) {
		if (n_values != 1) {
			vrequired(ctx, pos, "values",
			          "must be specified single value when `operator` is 'Lt' or 'Gt'");
		}
	} else {
		vinvalid_str(ctx, pos, "operator", op, "not a valid selector operator");
	}
}

void
v_selectors(VCtx *ctx, const K8sDeviceSelector *selectors, guint n, const K8sPos *pos)
{
	if (n > V_DEVICE_SELECTORS_MAX) {
		/* the size check short-circuits, as upstream's validateSlice does */
		vtoo_many(ctx, pos, NULL, n, V_DEVICE_SELECTORS_MAX);
		return;
	}
	for (guint i = 0; i < n; i++) {
		const K8sDeviceSelector *s = &selectors[i];
		gsize mark = vpath_index(ctx, i);
		if (s->cel_expression == NULL) {
			vrequired(ctx, &s->pos, "cel", NULL);
		} else if (strlen(s->cel_expression) > V_CEL_EXPRESSION_MAX) {
			vtoo_long(ctx, &s->expression_pos, "cel.expression", V_CEL_EXPRESSION_MAX);
		}
		vpath_pop(ctx, mark);
	}
}

static gsize json_string_size(const char *s);

/* The size of the compact JSON kubectl sends for @node (the RawExtension's Raw). */
static gsize
json_size(const K8sYamlNode *node)
{
	gsize n = 0;

	switch (node->kind) {
	case K8S_YAML_MAPPING:
		n = 2 + (node->map.n > 0 ? node->map.n - 1 : 0);
		for (guint32 i = 0; i < node->map.n; i++) {
			n += json_string_size(node->map.pairs[i].key->scalar.text) + 1 +
			     json_size(node->map.pairs[i].value);
		}
		return n;
	case K8S_YAML_SEQUENCE:
		n = 2 + (node->seq.n > 0 ? node->seq.n - 1 : 0);
		for (guint32 i = 0; i < node->seq.n; i++) {
			n += json_size(node->seq.items[i]);
		}
		return n;
	default:
		switch (k8s_yaml_scalar_type(node)) {
		case K8S_YAML_TYPE_NULL:
			return 4;
		case K8S_YAML_TYPE_BOOL:
			return g_ascii_strcasecmp(node->scalar.text, "true") == 0 ||
			                       g_ascii_strcasecmp(node->scalar.text, "yes") == 0 ||
			                       g_ascii_strcasecmp(node->scalar.text, "on") == 0 ||
			                       g_ascii_strcasecmp(node->scalar.text, "y") == 0
			               ? 4
			               : 5;
		case K8S_YAML_TYPE_INT:
		case K8S_YAML_TYPE_FLOAT:
			return node->scalar.len;
		default:
			return json_string_size(node->scalar.text);
		}
	}
}

static gsize
json_string_size(const char *s)
{
	gsize n = 2;

	for (const guchar *p = (const guchar *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\' || *p == '\n' || *p == '\t' || *p == '\r') {
			n += 2;
		} else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&') {
			n += 6; /* encoding/json escapes these as \u00XX */
		} else {
			n++;
		}
	}
	return n;
}

void
v_opaque(VCtx *ctx, const K8sOpaqueDeviceConfig *opaque)
{
	const K8sYamlNode *params = opaque->parameters.node;

	v_driver_name(ctx, opaque->driver, vpos(ctx, &opaque->driver_pos), "driver");
	if (params == NULL || (params->kind == K8S_YAML_SCALAR &&
	                       k8s_yaml_scalar_type(params) == K8S_YAML_TYPE_NULL)) {
		vrequired(ctx, &opaque->pos, "parameters", NULL);
		return;
	}
	if (json_size(params) > V_OPAQUE_PARAMETERS_MAX) {
		vtoo_long(ctx, &opaque->parameters.pos, "parameters", V_OPAQUE_PARAMETERS_MAX);
		return;
	}
	if (params->kind != K8S_YAML_MAPPING) {
		vinvalid_str(ctx, &opaque->parameters.pos, "parameters", "<value omitted>",
		             "must be a valid JSON object");
	}
}

/* ---- taints and tolerations ---------------------------------------------------------- */

static const char *const device_taint_effects[] = { "NoExecute", "NoSchedule", NULL };

void
v_device_toleration(VCtx *ctx, const K8sDeviceToleration *t)
{
	static const char *const operators[] = { "Equal", "Exists", NULL };

	if (t->key != NULL && t->key[0] != '\0') {
		v_label_name(ctx, t->key, &t->pos, "key");
	}
	/* the operator defaults to Equal */
	if (t->operator_ == NULL || strcmp(t->operator_, "Equal") == 0) {
		const char *v = t->value != NULL ? t->value : "";
		vinvalid_msgs(ctx, &t->pos, "value", v, k8s_names_label_value(v));
	} else if (strcmp(t->operator_, "Exists") == 0) {
		if (t->value != NULL && t->value[0] != '\0') {
			vinvalid_str(ctx, &t->pos, "value", t->value,
			             "must be empty for operator `Exists`");
		}
	} else {
		vnot_supported(ctx, &t->pos, "operator", t->operator_, operators);
	}
	if (t->effect != NULL && t->effect[0] != '\0' && strcmp(t->effect, "NoSchedule") != 0 &&
	    strcmp(t->effect, "NoExecute") != 0) {
		vnot_supported(ctx, &t->pos, "effect", t->effect, device_taint_effects);
	}
}

void
v_device_taint(VCtx *ctx, const K8sDeviceTaint *t)
{
	v_label_name(ctx, t->key, &t->pos, "key");
	if (t->value != NULL && t->value[0] != '\0') {
		vinvalid_msgs(ctx, &t->pos, "value", t->value, k8s_names_label_value(t->value));
	}
	if (t->effect == NULL || t->effect[0] == '\0') {
		vrequired(ctx, &t->pos, "effect", NULL);
	} else if (strcmp(t->effect, "NoSchedule") != 0 && strcmp(t->effect, "NoExecute") != 0) {
		vnot_supported(ctx, &t->pos, "effect", t->effect, device_taint_effects);
	}
}

/* ---- node selectors (corevalidation.ValidateNodeSelector) ---------------------------- */

static void
v_node_selector_requirement(VCtx *ctx, const K8sNodeSelectorRequirement *r, gboolean fields)
{
	v_selector_operator(ctx, &r->pos, r->operator_, r->values.n, TRUE);
	if (fields) {
		if (r->key == NULL || strcmp(r->key, "metadata.name") != 0) {
			vinvalid_str(ctx, &r->pos, "key", r->key, "not a valid field selector key");
		}
	} else {
		v_label_name(ctx, r->key, &r->pos, "key");
	}
}

void
v_node_selector(VCtx *ctx, const K8sNodeSelector *sel)
{
	gsize mark = vpath_push(ctx, "nodeSelectorTerms");

	if (sel->n_terms == 0) {
		vrequired(ctx, &sel->pos, NULL, "must have at least one node selector term");
	}
	for (guint i = 0; i < sel->n_terms; i++) {
		const K8sNodeSelectorTerm *term = &sel->terms[i];
		gsize m1 = vpath_index(ctx, i);
		for (guint j = 0; j < term->n_match_expressions; j++) {
			gsize m2 = vpath_push(ctx, "matchExpressions");
			vpath_index(ctx, j);
			v_node_selector_requirement(ctx, &term->match_expressions[j], FALSE);
			vpath_pop(ctx, m2);
		}
		for (guint j = 0; j < term->n_match_fields; j++) {
			gsize m2 = vpath_push(ctx, "matchFields");
			vpath_index(ctx, j);
			v_node_selector_requirement(ctx, &term->match_fields[j], TRUE);
			vpath_pop(ctx, m2);
		}
		vpath_pop(ctx, m1);
	}
	vpath_pop(ctx, mark);
}

gboolean
v_quantity(VCtx *ctx, const K8sQty *qty, const char *child, K8sQuantity *out)
{
	/* the decoder already reported text that does not parse */
	if (qty->text == NULL || !qty->valid) {
		return FALSE;
	}
	if (out != NULL) {
		*out = qty->value;
	}
	return TRUE;
}

/* ---- apiVersion ---------------------------------------------------------------------- */

static void
v_api_version(VCtx *ctx)
{
	const K8sObject *obj = ctx->obj;
	const char *instead = NULL, *why = NULL;
	K8sServed served = k8s_version_served(obj, &instead, &why);
	const K8sPos *pos = obj->api_version_pos.line != 0 ? &obj->api_version_pos : &obj->pos;
	g_autofree char *path = full_path(ctx, "apiVersion");
	g_autofree char *fix = NULL;

	if (served == K8S_SERVED) {
		return;
	}
	if (instead != NULL && g_strcmp0(instead, obj->api_version) != 0) {
		fix = g_strdup_printf("; write apiVersion: %s", instead);
	} else {
		fix = g_strdup("");
	}
	if (served == K8S_NOT_SERVED) {
		/* kubectl's words first: that is what the user sees from a real cluster */
		k8s_diag_list_error(ctx->diags, pos, path,
		                    "no matches for kind \"%s\" in version \"%s\"%s%s%s",
		                    obj->kind_name, obj->api_version, why != NULL ? ": " : "",
		                    why != NULL ? why : "", fix);
		return;
	}
	k8s_diag_list_warning(ctx->diags, pos, path, "%s in %s: %s%s", obj->kind_name,
	                      obj->api_version,
	                      why != NULL ? why : "not enabled by default in Kubernetes 1.34", fix);
}

/* ---- dispatch ------------------------------------------------------------------------ */

void
k8s_validate_object(const K8sObject *obj, K8sDiagList *diags)
{
	VCtx ctx = {
		.diags = diags,
		.obj = obj,
		.path = g_string_sized_new(128),
		.flat_requests =
		        obj->version == K8S_VERSION_V1BETA1 || obj->version == K8S_VERSION_V1ALPHA3,
		.basic_devices =
		        obj->version == K8S_VERSION_V1BETA1 || obj->version == K8S_VERSION_V1ALPHA3,
	};

	v_api_version(&ctx);
	v_object_meta(&ctx, k8s_kind_is_namespaced(obj->kind));
	switch (obj->kind) {
	case K8S_KIND_DEVICE_CLASS:
		v_device_class(&ctx, (const K8sDeviceClass *)obj);
		break;
	case K8S_KIND_RESOURCE_CLAIM:
		v_resource_claim(&ctx, (const K8sResourceClaim *)obj);
		break;
	case K8S_KIND_RESOURCE_CLAIM_TEMPLATE:
		v_resource_claim_template(&ctx, (const K8sResourceClaimTemplate *)obj);
		break;
	case K8S_KIND_RESOURCE_SLICE:
		v_resource_slice(&ctx, (const K8sResourceSlice *)obj);
		break;
	case K8S_KIND_DEVICE_TAINT_RULE:
		v_device_taint_rule(&ctx, (const K8sDeviceTaintRule *)obj);
		break;
	case K8S_KIND_POD:
		v_pod(&ctx, (const K8sPod *)obj);
		break;
	case K8S_KIND_NODE:
		v_node(&ctx, (const K8sNode *)obj);
		break;
	case K8S_KIND_DEPLOYMENT:
	case K8S_KIND_STATEFUL_SET:
	case K8S_KIND_REPLICA_SET:
	case K8S_KIND_JOB:
		v_workload(&ctx, (const K8sWorkload *)obj);
		break;
	default:
		break;
	}
	g_string_free(ctx.path, TRUE);
}

void
k8s_validate_set(const K8sObjectSet *set, K8sDiagList *diags)
{
	guint n = k8s_object_set_count(set);

	for (guint i = 0; i < n; i++) {
		k8s_validate_object(k8s_object_set_get(set, i), diags);
	}
}

gboolean
k8s_validate_names(const K8sObjectSet *set, K8sDiagList *diags)
{
	gboolean ok = TRUE;

	for (guint i = 0; i < k8s_object_set_count(set); i++) {
		const K8sObject *obj = k8s_object_set_get(set, i);
		const K8sObjectMeta *m = &obj->metadata;
		const K8sPos *pos = m->name_pos.line != 0 ? &m->name_pos
		                    : m->pos.line != 0    ? &m->pos
		                                          : &obj->pos;
		g_autofree char *path = g_strconcat(
		        obj->path_prefix != NULL ? obj->path_prefix : "", "metadata.name", NULL);

		if (m->name != NULL && m->name[0] != '\0')
			continue;
		ok = FALSE;
		if (m->generate_name == NULL || m->generate_name[0] == '\0')
			k8s_diag_list_error(diags, pos, path,
			                    "Required value: name or generateName is required");
		else
			k8s_diag_list_error(
			        diags, pos, path,
			        "Required value: name is required: drasim does not expand "
			        "generateName \"%s\" (the API server does, on create)",
			        m->generate_name);
	}
	return ok;
}
