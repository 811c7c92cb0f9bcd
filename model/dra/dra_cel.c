/*
 * dra_cel.c: DraSelectorOps over model/cel's DRA environment (cel_dra.h).
 *
 * A selector is compiled once per expression (the allocator caches handles by
 * expression text); the CelDraDevice view of a device is built on its first
 * evaluation and kept in the allocator's per-device slot, so later evaluations
 * only read arrays.
 */
#include <string.h>

#include "cel_dra.h"
#include "dra_k8s.h"

struct DraCel {
	CelDraEnv *env;
	CelDraEval *eval;
};

DraCel *
dra_cel_new(const DraFeatures *features)
{
	CelDraOptions opts = CEL_DRA_OPTIONS_INIT;
	DraCel *self = g_new0(DraCel, 1);

	/* the scheduler's cache compiles stored expressions without cost estimation */
	opts.env_type = CEL_DRA_STORED_EXPRESSIONS;
	opts.consumable_capacity = features->consumable_capacity;
	opts.skip_cost_estimate = TRUE;
	self->env = cel_dra_env_new(&opts);
	self->eval = cel_dra_eval_new(self->env);
	return self;
}

void
dra_cel_free(DraCel *self)
{
	if (self == NULL) {
		return;
	}
	cel_dra_eval_free(self->eval);
	cel_dra_env_unref(self->env);
	g_free(self);
}

static gpointer
cel_compile(gpointer data, const char *expression, GError **error)
{
	DraCel *self = data;
	g_autoptr(CelDraDiag) diag = NULL;
	CelDraSelector *sel = cel_dra_selector_compile(self->env, expression, &diag);

	if (sel == NULL) {
		g_set_error(error, DRA_ERROR, DRA_ERROR_SELECTOR, "compilation failed: %s",
		            diag != NULL ? (diag->text != NULL ? diag->text : diag->message)
		                         : "unknown error");
	}
	return sel;
}

static void
add_attribute(CelDraDevice *view, const DraAttribute *a)
{
	switch (a->kind) {
	case DRA_ATTR_INT:
		cel_dra_device_add_int(view, a->name, a->int_value);
		break;
	case DRA_ATTR_BOOL:
		cel_dra_device_add_bool(view, a->name, a->bool_value);
		break;
	case DRA_ATTR_STRING:
		cel_dra_device_add_string(view, a->name,
		                          a->string_value != NULL ? a->string_value : "", -1);
		break;
	case DRA_ATTR_VERSION:
		/* an invalid version is left out, as the API would reject it */
		cel_dra_device_add_version(
		        view, a->name, a->string_value != NULL ? a->string_value : "", -1, NULL);
		break;
	}
}

static CelDraDevice *
build_view(const DraDevice *device, const char *driver)
{
	CelDraDevice *view = cel_dra_device_new(driver);

	cel_dra_device_set_allow_multiple_allocations(view, device->allow_multiple_allocations);
	/* in the published (name) order, which dra_k8s.c kept when it split them: where
	 * "d/id" and "id" name one entry, the later one is the view's */
	for (guint i = 0, k = 0; i < device->n_attributes || k < device->n_node_attributes;) {
		gboolean own =
		        k < device->n_node_attributes &&
		        (i == device->n_attributes ||
		         strcmp(device->node_attributes[k].name, device->attributes[i].name) < 0);

		const DraAttribute *a =
		        own ? &device->node_attributes[k++] : &device->attributes[i++];

		add_attribute(view, a);
		/* uuid, mac: the device's own, so a selector reading it is node-specific */
		if (own) {
			cel_dra_device_mark_node_value(view, a->name);
		}
	}
	for (guint i = 0; i < device->n_capacity; i++) {
		const DraCapacity *c = &device->capacity[i];
		K8sQuantity q;
		if (c->text == NULL || !k8s_quantity_parse(c->text, -1, &q, NULL)) {
			q = k8s_quantity_from_milli(c->value, K8S_QUANTITY_DECIMAL_SI);
		}
		cel_dra_device_add_capacity(view, c->name, &q);
	}
	cel_dra_device_seal(view); /* one compact record for the CEL fast path (cel_dra.h) */
	return view;
}

static DraMatch
cel_eval(gpointer data,
         gpointer program,
         const DraDevice *device,
         const char *driver,
         gpointer *view,
         const char **message)
{
	DraCel *self = data;

	if (*view == NULL) {
		*view = build_view(device, driver);
	}
	switch (cel_dra_selector_eval(program, self->eval, *view, message)) {
	case CEL_DRA_TRUE:
		return DRA_MATCH_TRUE;
	case CEL_DRA_FALSE:
		return DRA_MATCH_FALSE;
	default:
		return DRA_MATCH_ERROR;
	}
}

static void
cel_free_program(gpointer data, gpointer program)
{
	cel_dra_selector_free(program);
}

static void
cel_free_view(gpointer data, gpointer view)
{
	cel_dra_device_free(view);
}

static gboolean
cel_reads_node_values(gpointer data, gpointer program)
{
	return cel_dra_selector_reads_node_values(program);
}

static const DraSelectorOps cel_ops = {
	cel_compile, cel_eval, cel_free_program, cel_free_view, cel_reads_node_values,
};

const DraSelectorOps *
dra_cel_get_ops(void)
{
	return &cel_ops;
}
