/*
 * cel_dra.c: the DRA selector environment, compilation and evaluation.
 *
 * Follows k8s.io/dynamic-resource-allocation/cel/compile.go: the Kubernetes base environment
 * plus cel.bind and `device` (driver, attributes, capacity, and allowMultipleAllocations
 * with DRAConsumableCapacity), `includes` with DRAListTypeAttributes, the result-type rule,
 * the cost estimate with the DRA size estimator, and DeviceMatches' error texts. After
 * checking, `device.attributes["d"].id` chains with constant keys are replaced by host nodes
 * that search the device view by interned pointers, so evaluation neither hashes nor
 * allocates.
 */
#include <stdlib.h>
#include <string.h>

#include "cel-dra-private.h"
#include "cel_cost.h"
#include "cel_lib_k8s_env.h"

/* resource.k8s.io/v1 limits used by the DRA size estimator (compile.go). */
#define DRA_MAX_DOMAIN       63 /* DeviceMaxDomainLength */
#define DRA_MAX_ID           32 /* DeviceMaxIDLength */
#define DRA_MAX_DRIVER       63 /* DriverNameMaxLength */
#define DRA_MAX_ENTRIES      32 /* ResourceSliceMaxAttributesAndCapacitiesPerDevice */
#define DRA_MAX_VALUE_LENGTH 64 /* DeviceAttributeMaxValueLength */
#define DRA_MAX_LIST_VALUES  48 /* ResourceSliceMaxAttributeValuesPerDevice */

struct CelDraEnv {
	gint ref_count;
	CelDraOptions options;
	gboolean consumable_capacity;  /* effective: gate, or StoredExpressions */
	gboolean list_type_attributes; /* effective */
	CelEnv *env;
	guint device_slot;
	const char *f_driver, *f_attributes, *f_capacity, *f_multi; /* interned field names */
};

struct CelDraSelector {
	CelDraEnv *env;
	CelProgram *program;
	CelDraFast *fast; /* NULL when the selector needs the generic evaluator */
	char *expression;
	guint64 max_cost;
	gboolean reads_node_values; /* sticky: cel_dra_selector_reads_node_values() */
};

_Thread_local gboolean cel_dra__read_node_value;

struct CelDraEval {
	CelDraEnv *env;
	CelActivation *act;
	/* The last evaluation took the fast path; its cost is computed on request. */
	const CelDraSelector *fast_sel;
	const CelDraDevice *fast_dev;
	CelDraHint hints[CEL_DRA_FAST_HINTS]; /* the fast path's lookup hints (cel_dra_fast_test) */
};

/* ---- host nodes for device lookups ---- */

static inline const CelDraView *
host_view(CelActivation *act, guint slot)
{
	return ((const CelDraDeviceObj *)act->vars[slot].obj)->view;
}

static CelValue
dra_host_eval(CelActivation *act, const CelAst *self)
{
	const CelDraHost *h = self->host.data;
	const CelDraView *dev = host_view(act, h->slot);
	const CelDraTable *table = h->capacity ? &dev->capacity : &dev->attributes;

	act->cost += h->cost;
	switch (h->kind) {
	case CEL_DRA_HOST_DRIVER:
		return cel_value_string(dev->driver, dev->driver_len);
	case CEL_DRA_HOST_MULTI:
		return cel_value_bool(dev->allow_multiple_allocations);
	case CEL_DRA_HOST_TABLE:
		return cel_value_map(&table->outer.base);
	case CEL_DRA_HOST_DOMAIN: {
		const CelDraDomainMap *dm = cel_dra_table_domain(table, h->domain);
		return cel_value_map(dm != NULL ? &dm->base : &cel_dra_empty_map);
	}
	case CEL_DRA_HOST_IN: {
		/*
		 * compile.go's map wrapper overrides Find (the default empty map) but not
		 * Contains, so `"x" in device.attributes` is false for a missing domain.
		 */
		CelValue key = cel_eval_node(act, h->key);
		if (cel_value_is_error(key)) {
			return key;
		}
		if (key.kind != CEL_KIND_STRING) {
			return cel_value_bool(FALSE);
		}
		for (guint i = 0; i < table->ndomains; i++) {
			const char *d = table->domains[i].domain;
			if (strlen(d) == key.aux && memcmp(d, key.str, key.aux) == 0) {
				return cel_value_bool(TRUE);
			}
		}
		return cel_value_bool(FALSE);
	}
	case CEL_DRA_HOST_ENTRY:
	default: {
		const CelValue *v = cel_dra_table_lookup(table, h->domain, h->id);
		return v != NULL ? *v : cel_value_error(h->missing);
	}
	}
}

const CelDraHost *
cel_dra_host_of(const CelAst *node)
{
	return node->kind == CEL_AST_HOST && node->host.eval == dra_host_eval ? node->host.data
	                                                                      : NULL;
}

static CelAst *
make_host(CelAst *node, BaseArena *arena, const CelDraHost *proto)
{
	CelDraHost *h = base_arena_alloc(arena, sizeof *h);
	*h = *proto;
	if (h->kind == CEL_DRA_HOST_ENTRY) {
		char *msg = base_arena_alloc(arena, 14 + strlen(h->id));
		memcpy(msg, "no such key: ", 13);
		strcpy(msg + 13, h->id);
		h->missing = msg;
	}
	CelAst *host = base_arena_alloc(arena, sizeof *host);
	*host = *node;
	host->kind = CEL_AST_HOST;
	host->host.eval = dra_host_eval;
	host->host.data = h;
	host->host.original = node;
	return host;
}

static const char *
const_key(const CelAst *node)
{
	if (node->kind != CEL_AST_CONST || node->constant.kind != CEL_KIND_STRING) {
		return NULL;
	}
	if (memchr(node->constant.str, '\0', node->constant.aux) != NULL) {
		return NULL;
	}
	g_autofree char *s = g_strndup(node->constant.str, node->constant.aux);
	return g_intern_string(s);
}

/* Bottom-up: each call sees its children already rewritten. */
static CelAst *
dra_rewrite(CelEnv *env, CelAst *node, BaseArena *arena, gpointer data)
{
	const CelDraEnv *self = data;
	CelDraHost h = { 0 };
	h.slot = self->device_slot;

	if (node->kind == CEL_AST_SELECT && !node->select.test_only) {
		const CelAst *op = node->select.operand;
		const CelDraHost *inner = cel_dra_host_of(op);
		if (op->kind == CEL_AST_IDENT && op->ident.ref == CEL_REF_VAR &&
		    op->ident.index == self->device_slot) {
			const char *f = node->select.field;
			h.cost = 2;
			if (f == self->f_driver) {
				h.kind = CEL_DRA_HOST_DRIVER;
			} else if (f == self->f_multi) {
				h.kind = CEL_DRA_HOST_MULTI;
			} else if (f == self->f_attributes || f == self->f_capacity) {
				h.kind = CEL_DRA_HOST_TABLE;
				h.capacity = f == self->f_capacity;
			} else {
				return node;
			}
			return make_host(node, arena, &h);
		}
		if (inner != NULL && inner->kind == CEL_DRA_HOST_DOMAIN) {
			h = *inner;
			h.kind = CEL_DRA_HOST_ENTRY;
			h.id = node->select.field;
			h.cost = inner->cost + 1;
			return make_host(node, arena, &h);
		}
		return node;
	}
	if (node->kind == CEL_AST_CALL && node->call.special == CEL_SPECIAL_IN &&
	    node->call.nargs == 2) {
		const CelDraHost *inner = cel_dra_host_of(node->call.args[1]);
		if (inner == NULL || inner->kind != CEL_DRA_HOST_TABLE) {
			return node;
		}
		h = *inner;
		h.kind = CEL_DRA_HOST_IN;
		h.key = node->call.args[0];
		h.cost = inner->cost + 1; /* in_map costs 1 */
		return make_host(node, arena, &h);
	}
	if (node->kind == CEL_AST_CALL && node->call.special == CEL_SPECIAL_INDEX &&
	    node->call.nargs == 2) {
		const CelDraHost *inner = cel_dra_host_of(node->call.args[0]);
		const char *key = const_key(node->call.args[1]);
		if (inner == NULL || key == NULL) {
			return node;
		}
		h = *inner;
		h.cost = inner->cost + 1;
		if (inner->kind == CEL_DRA_HOST_TABLE) {
			h.kind = CEL_DRA_HOST_DOMAIN;
			h.domain = key;
		} else if (inner->kind == CEL_DRA_HOST_DOMAIN) {
			h.kind = CEL_DRA_HOST_ENTRY;
			h.id = key;
		} else {
			return node;
		}
		return make_host(node, arena, &h);
	}
	return node;
}

/* ---- includes() (DRAListTypeAttributes) ---- */

static CelValue
dra_includes(CelActivation *act, const CelValue *args, guint nargs)
{
	if (args[0].kind == CEL_KIND_LIST) {
		const CelList *list = args[0].list;
		if (list->len > DRA_MAX_LIST_VALUES) {
			return cel_value_error("'includes' function cannot be applied to lists "
			                       "longer than 48 values");
		}
		for (guint i = 0; i < list->len; i++) {
			if (cel_value_equal(cel_list_get(list, i, act), args[1], act)) {
				return cel_value_bool(TRUE);
			}
		}
		return cel_value_bool(FALSE);
	}
	return cel_value_bool(cel_value_equal(args[0], args[1], act));
}

static const CelOverload dra_includes_overload[] = {
	{ "includes", "dra_includes_dyn_dyn", CEL_RECEIVER, "dyn, dyn -> bool", dra_includes,
	  NULL },
};

/* ---- environment ---- */

static const CelType *
dra_device_type(gboolean with_multi, const CelType *attr)
{
	const CelType *str = cel_type_string();
	const CelType *qty = cel_type_lookup_named(cel_quantity_class.type_name);
	CelField fields[4];
	guint n = 0;

	fields[n++] = (CelField){ g_intern_string("driver"), str };
	fields[n++] = (CelField){ g_intern_string("attributes"),
		                  cel_type_map(str, cel_type_map(str, attr)) };
	fields[n++] = (CelField){ g_intern_string("capacity"),
		                  cel_type_map(str, cel_type_map(str, qty)) };
	if (with_multi) {
		fields[n++] =
		        (CelField){ g_intern_string("allowMultipleAllocations"), cel_type_bool() };
	}
	/*
	 * Every shape is kubernetes.DRADevice upstream; the process-wide type registry needs a
	 * distinct name per shape (with or without allowMultipleAllocations, any or dyn values).
	 */
	const char *name = with_multi
	                           ? (attr->kind == CEL_TYPE_DYN ? "kubernetes.DRADevice"
	                                                         : "kubernetes.DRADevice.any")
	                           : (attr->kind == CEL_TYPE_DYN ? "kubernetes.DRADevice.v131"
	                                                         : "kubernetes.DRADevice.v131.any");
	return cel_type_register_object(name, fields, n, &cel_dra_device_class);
}

CelDraEnv *
cel_dra_env_new(const CelDraOptions *options)
{
	CelDraOptions defaults = CEL_DRA_OPTIONS_INIT;
	CelDraEnv *self = g_new0(CelDraEnv, 1);
	gboolean stored;

	self->ref_count = 1;
	self->options = options != NULL ? *options : defaults;
	if (self->options.cost_limit == 0) {
		self->options.cost_limit = CEL_DRA_MAX_COST;
	}
	/* StoredExpressions ignores feature gates: everything the version knows is there. */
	stored = self->options.env_type == CEL_DRA_STORED_EXPRESSIONS;
	self->consumable_capacity = stored || self->options.consumable_capacity;
	self->list_type_attributes = stored || self->options.list_type_attributes;
	self->f_driver = g_intern_string("driver");
	self->f_attributes = g_intern_string("attributes");
	self->f_capacity = g_intern_string("capacity");
	self->f_multi = g_intern_string("allowMultipleAllocations");

	CelK8sEnvOptions k8s = {
		.homogeneous = TRUE,
		.base_libraries = TRUE,
		.semver = TRUE,
		.semver_version = 1,
		.cost_limit = self->options.cost_limit,
	};
	self->env = cel_k8s_env_new_full(&k8s, dra_rewrite, self);
	/* The attribute value: any, or dyn so macros and includes() apply to list values. */
	const CelType *attr = self->list_type_attributes ? cel_type_dyn() : cel_type_any();
	self->device_slot = cel_env_declare_var(self->env, "device",
	                                        dra_device_type(self->consumable_capacity, attr));
	if (self->list_type_attributes) {
		cel_env_add_overloads(self->env, dra_includes_overload,
		                      G_N_ELEMENTS(dra_includes_overload));
	}
	return self;
}

CelDraEnv *
cel_dra_env_ref(CelDraEnv *self)
{
	g_atomic_int_inc(&self->ref_count);
	return self;
}

void
cel_dra_env_unref(CelDraEnv *self)
{
	if (self == NULL || !g_atomic_int_dec_and_test(&self->ref_count)) {
		return;
	}
	cel_env_unref(self->env);
	g_free(self);
}

/* ---- the DRA size estimator (compile.go sizeEstimator over the device DeclTypes) ---- */

typedef enum {
	DECL_DEVICE,
	DECL_DRIVER,
	DECL_MULTI,
	DECL_OUTER_ATTRS,
	DECL_INNER_ATTRS,
	DECL_ATTR_VALUE,
	DECL_OUTER_CAPS,
	DECL_INNER_CAPS,
	DECL_QUANTITY,
	DECL_DOMAIN,
	DECL_ID,
} DeclNode;

static gboolean
decl_max(DeclNode n, guint64 *max)
{
	switch (n) {
	case DECL_DRIVER:
		*max = DRA_MAX_DRIVER;
		return TRUE;
	case DECL_MULTI:
		*max = 1;
		return TRUE;
	case DECL_OUTER_ATTRS:
	case DECL_INNER_ATTRS:
	case DECL_OUTER_CAPS:
	case DECL_INNER_CAPS:
		*max = DRA_MAX_ENTRIES;
		return TRUE;
	case DECL_ATTR_VALUE:
		*max = MAX(DRA_MAX_VALUE_LENGTH, DRA_MAX_LIST_VALUES);
		return TRUE;
	case DECL_DOMAIN:
		*max = DRA_MAX_DOMAIN;
		return TRUE;
	case DECL_ID:
		*max = DRA_MAX_ID;
		return TRUE;
	default:
		*max = 0; /* object and simple types: MaxElements unset */
		return TRUE;
	}
}

static gboolean
dra_size(const char *const *path, guint len, CelCostRange *out, gpointer data)
{
	const CelDraEnv *self = data;
	DeclNode cur = DECL_DEVICE;

	if (len == 0 || strcmp(path[0], "device") != 0) {
		return FALSE;
	}
	for (guint i = 1; i < len; i++) {
		const char *name = path[i];
		gboolean items = strcmp(name, "@items") == 0 || strcmp(name, "@values") == 0;
		gboolean keys = strcmp(name, "@keys") == 0;
		switch (cur) {
		case DECL_DEVICE:
			if (items || keys) {
				return FALSE;
			}
			if (strcmp(name, "driver") == 0) {
				cur = DECL_DRIVER;
			} else if (strcmp(name, "attributes") == 0) {
				cur = DECL_OUTER_ATTRS;
			} else if (strcmp(name, "capacity") == 0) {
				cur = DECL_OUTER_CAPS;
			} else if (strcmp(name, "allowMultipleAllocations") == 0 &&
			           self->consumable_capacity) {
				cur = DECL_MULTI;
			} else {
				return FALSE;
			}
			break;
		case DECL_OUTER_ATTRS:
		case DECL_OUTER_CAPS:
			if (keys) {
				cur = DECL_DOMAIN;
			} else if (items) {
				cur = cur == DECL_OUTER_ATTRS ? DECL_INNER_ATTRS : DECL_INNER_CAPS;
			} else {
				return FALSE;
			}
			break;
		case DECL_INNER_ATTRS:
			/* A field name on an attribute map is an attribute of known size. */
			cur = keys ? DECL_ID : DECL_ATTR_VALUE;
			break;
		case DECL_INNER_CAPS:
			if (keys) {
				cur = DECL_ID;
			} else if (items) {
				cur = DECL_QUANTITY;
			} else {
				return FALSE;
			}
			break;
		default:
			/* Scalars, strings and the attribute value have no further structure. */
			return FALSE;
		}
	}
	guint64 max;
	decl_max(cur, &max);
	*out = (CelCostRange){ 0, max };
	return TRUE;
}

/* ---- compilation ---- */

void
cel_dra_diag_free(CelDraDiag *diag)
{
	if (diag == NULL) {
		return;
	}
	g_free(diag->message);
	g_free(diag->text);
	g_free(diag);
}

/* Byte offset of 1-based (line, column-in-code-points) in @src. */
static guint
offset_of(const char *src, guint line, guint column)
{
	const char *p = src;
	for (guint l = 1; l < line && *p != '\0'; p++) {
		if (*p == '\n') {
			l++;
		}
	}
	for (guint c = 1; c < column && *p != '\0'; c++) {
		p = g_utf8_next_char(p);
	}
	return (guint)(p - src);
}

/* Splits cel-go's "ERROR: <input>:L:C: message\n | ..." into a diagnostic. */
static CelDraDiag *
diag_from_text(const char *src, const char *text)
{
	CelDraDiag *d = g_new0(CelDraDiag, 1);
	const char *p = strstr(text, "<input>:");
	d->text = g_strdup(text);
	d->line = 1;
	d->column = 1;
	if (p != NULL) {
		char *end = NULL;
		d->line = (guint)strtoul(p + 8, &end, 10);
		if (end != NULL && *end == ':') {
			d->column = (guint)strtoul(end + 1, &end, 10);
		}
		if (end != NULL && g_str_has_prefix(end, ": ")) {
			const char *nl = strchr(end + 2, '\n');
			d->message = nl != NULL ? g_strndup(end + 2, (gsize)(nl - end - 2))
			                        : g_strdup(end + 2);
		}
	}
	if (d->message == NULL) {
		d->message = g_strdup(text);
	}
	d->offset = offset_of(src, MAX(d->line, 1), MAX(d->column, 1));
	return d;
}

static CelDraDiag *
diag_at(const CelDraSelector *sel, const CelAst *node, const char *message)
{
	CelDraDiag *d = g_new0(CelDraDiag, 1);
	guint32 off = node != NULL ? node->offset : 0;
	cel_ast_tree_position(&sel->program->tree, off, &d->line, &d->column);
	d->offset = off;
	d->message = g_strdup(message);
	d->text = g_strdup(message);
	return d;
}

/* compile.go accepts bool, the unknown type (any), and dyn when list attributes are on. */
static gboolean
result_type_ok(const CelDraEnv *env, const CelType *t)
{
	return t->kind == CEL_TYPE_BOOL || t->kind == CEL_TYPE_ANY ||
	       (env->list_type_attributes && t->kind == CEL_TYPE_DYN);
}

CelDraSelector *
cel_dra_selector_compile(CelDraEnv *env, const char *expression, CelDraDiag **diag)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *msg = NULL;
	CelDraSelector *self = g_new0(CelDraSelector, 1);

	self->env = cel_dra_env_ref(env);
	self->expression = g_strdup(expression);
	self->max_cost = G_MAXUINT64;
	self->program = cel_program_compile(env->env, expression, &error);
	if (self->program == NULL) {
		if (diag != NULL) {
			g_autofree char *text =
			        g_strdup_printf("compilation failed: %s", error->message);
			*diag = diag_from_text(expression, text);
			/* Keep the upstream prefix in the message too. */
			g_autofree char *m = (*diag)->message;
			(*diag)->message = g_strdup_printf("compilation failed: %s", m);
		}
		cel_dra_selector_free(self);
		return NULL;
	}
	const CelAst *root = cel_program_get_ast(self->program);
	if (!cel_regex_validate(&self->program->tree, root, &error)) {
		if (diag != NULL) {
			g_autofree char *text =
			        g_strdup_printf("compilation failed: %s", error->message);
			*diag = diag_from_text(expression, text);
		}
		cel_dra_selector_free(self);
		return NULL;
	}
	const CelType *t = cel_program_get_type(self->program);
	if (!result_type_ok(env, t)) {
		msg = g_strdup_printf("must evaluate to bool or the unknown type, not %s",
		                      cel_type_get_name(t));
		if (diag != NULL) {
			*diag = diag_at(self, root, msg);
		}
		cel_dra_selector_free(self);
		return NULL;
	}
	/* The fast path counts no cost as it goes: its leaf tests stay far below upstream's
	 * limit, not below a lowered one, which only the generic evaluator enforces. */
	if (env->options.cost_limit >= CEL_DRA_MAX_COST)
		self->fast = cel_dra_fast_compile(root, &self->program->tree.arena);
	if (!env->options.skip_cost_estimate) {
		CelCostModel model = { dra_size, env, env->list_type_attributes };
		self->max_cost = cel_cost_estimate(root, self->program->tree.next_id, &model).max;
	}
	return self;
}

void
cel_dra_selector_free(CelDraSelector *self)
{
	if (self == NULL) {
		return;
	}
	cel_program_free(self->program);
	cel_dra_env_unref(self->env);
	g_free(self->expression);
	g_free(self);
}

const char *
cel_dra_selector_get_expression(const CelDraSelector *self)
{
	return self->expression;
}

guint64
cel_dra_selector_get_max_cost(const CelDraSelector *self)
{
	return self->max_cost;
}

/* ---- evaluation ---- */

CelDraEval *
cel_dra_eval_new(CelDraEnv *env)
{
	CelDraEval *self = g_new0(CelDraEval, 1);
	self->env = cel_dra_env_ref(env);
	self->act = cel_activation_new(env->env);
	return self;
}

void
cel_dra_eval_free(CelDraEval *self)
{
	if (self == NULL) {
		return;
	}
	cel_activation_free(self->act);
	cel_dra_env_unref(self->env);
	g_free(self);
}

guint64
cel_dra_eval_get_cost(const CelDraEval *self)
{
	if (self->fast_sel != NULL) {
		CelValue r;
		guint64 cost = 0;
		cel_dra_fast_eval(self->fast_sel->fast, self->fast_dev->view, &r, &cost);
		return cost;
	}
	return cel_activation_get_cost(self->act);
}

/* cel-go TypeName() of a result that is not a bool, for DeviceMatches' message. */
static const char *
result_type_name(CelValue v)
{
	switch (v.kind) {
	case CEL_KIND_NULL:
		return "null_type";
	case CEL_KIND_INT:
		return "int";
	case CEL_KIND_UINT:
		return "uint";
	case CEL_KIND_DOUBLE:
		return "double";
	case CEL_KIND_STRING:
		return "string";
	case CEL_KIND_BYTES:
		return "bytes";
	case CEL_KIND_LIST:
		return "list";
	case CEL_KIND_MAP:
		return "map";
	case CEL_KIND_TYPE:
		return "type";
	case CEL_KIND_TIMESTAMP:
		return "google.protobuf.Timestamp";
	case CEL_KIND_DURATION:
		return "google.protobuf.Duration";
	case CEL_KIND_OPTIONAL:
		return "optional_type";
	case CEL_KIND_OBJECT:
		return v.obj->klass->type_name;
	default:
		return "unknown";
	}
}

/* Everything off the fast path: the generic evaluator; kept apart so the fast path is lean. */
G_GNUC_NO_INLINE static CelDraResult
selector_eval_generic(const CelDraSelector *self,
                      CelDraEval *eval,
                      const CelDraDevice *device,
                      const char **error_message)
{
	CelActivation *act = eval->act;
	CelValue r;

	eval->fast_sel = NULL;
	cel_activation_reset(act);
	cel_activation_set(act, self->env->device_slot,
	                   cel_value_object(&device->view->object.base));
	r = cel_program_eval(self->program, act);
	if (r.kind == CEL_KIND_BOOL) {
		return r.b ? CEL_DRA_TRUE : CEL_DRA_FALSE;
	}
	if (error_message != NULL) {
		if (r.kind == CEL_KIND_ERROR) {
			*error_message = r.str;
		} else {
			const char *t = result_type_name(r);
			CelValue e = cel_errorf(act,
			                        "CEL result of type %s could not be converted to "
			                        "bool: type conversion error from %s to 'bool'",
			                        t, t);
			*error_message = e.str;
		}
	}
	return CEL_DRA_ERROR;
}

/* The fast path when it takes the device, else the generic evaluator. */
static CelDraResult
selector_eval_any(const CelDraSelector *self,
                  CelDraEval *eval,
                  const CelDraDevice *device,
                  const char **error_message)
{
	/* The cost limit cannot be reached on the fast path: its trees are a few nodes. */
	if (G_LIKELY(self->fast != NULL)) {
		int r = cel_dra_fast_test(self->fast, device, eval->hints);
		if (G_LIKELY(r >= 0)) {
			eval->fast_sel = self;
			eval->fast_dev = device;
			return r ? CEL_DRA_TRUE : CEL_DRA_FALSE;
		}
	}
	return selector_eval_generic(self, eval, device, error_message);
}

CelDraResult
cel_dra_selector_eval(const CelDraSelector *self,
                      CelDraEval *eval,
                      const CelDraDevice *device,
                      const char **error_message)
{
	CelDraResult r;

	cel_dra_device__fresh(device);
	cel_dra__read_node_value = FALSE;
	r = selector_eval_any(self, eval, device, error_message);
	if (G_UNLIKELY(cel_dra__read_node_value)) {
		/* a flag of the compiled selector, not of its value: const to callers */
		((CelDraSelector *)self)->reads_node_values = TRUE;
	}
	return r;
}

gboolean
cel_dra_selector_reads_node_values(const CelDraSelector *self)
{
	return self->reads_node_values;
}
