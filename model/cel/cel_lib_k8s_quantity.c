/*
 * cel_lib_k8s_quantity.c: the Kubernetes quantity CEL library (kubernetes.Quantity).
 *
 * Function set and overload ids of k8s.io/apiserver/pkg/cel/library/quantity.go as of
 * Kubernetes 1.34: quantity, isQuantity, sign, isGreaterThan, isLessThan, compareTo, add,
 * sub, asInteger, isInteger, asApproximateFloat. Arithmetic works on a copy: older upstream
 * add()/sub() changed the receiver, a bug fixed later (case add_does_not_mutate_receiver);
 * drasim follows the fix. The numeric work is model/api's K8sQuantity.
 */
#include "cel_lib_k8s.h"

static gboolean
quantity_obj_equal(const CelObject *a, const CelObject *b)
{
	return k8s_quantity_cmp(&((const CelQuantityObj *)a)->q, &((const CelQuantityObj *)b)->q) ==
	       0;
}

static void
quantity_obj_print(GString *out, const CelObject *self)
{
	char buf[K8S_QUANTITY_STRING_MAX];
	k8s_quantity_to_string(&((const CelQuantityObj *)self)->q, buf);
	g_string_append_printf(out, "quantity(\"%s\")", buf);
}

const CelObjectClass cel_quantity_class = {
	.type_name = "kubernetes.Quantity",
	.select = NULL,
	.equal = quantity_obj_equal,
	.print = quantity_obj_print,
	.go_type_name = "cel.Quantity",
};

CelValue
cel_quantity_value(CelActivation *act, const K8sQuantity *q)
{
	CelQuantityObj *obj = cel_activation_alloc(act, sizeof *obj);
	obj->base.klass = &cel_quantity_class;
	obj->q = *q;
	return cel_value_object(&obj->base);
}

const K8sQuantity *
cel_quantity_of(CelValue v)
{
	if (v.kind != CEL_KIND_OBJECT || v.obj->klass != &cel_quantity_class) {
		return NULL;
	}
	return &((const CelQuantityObj *)v.obj)->q;
}

static CelValue
quantity_from_string(CelActivation *act, const CelValue *args, guint nargs)
{
	K8sQuantity q;
	g_autoptr(GError) error = NULL;

	/* The GError exists only on the failure path. */
	if (!k8s_quantity_parse(args[0].str, args[0].aux, &q, &error)) {
		return cel_errorf(act, "%s", error->message);
	}
	return cel_quantity_value(act, &q);
}

static CelValue
quantity_is_quantity(CelActivation *act, const CelValue *args, guint nargs)
{
	K8sQuantity q;
	return cel_value_bool(k8s_quantity_parse(args[0].str, args[0].aux, &q, NULL));
}

static CelValue
quantity_sign(CelActivation *act, const CelValue *args, guint nargs)
{
	return cel_value_int(k8s_quantity_sign(cel_quantity_of(args[0])));
}

static int
quantity_cmp_args(const CelValue *args)
{
	return k8s_quantity_cmp(cel_quantity_of(args[0]), cel_quantity_of(args[1]));
}

static CelValue
quantity_is_greater_than(CelActivation *act, const CelValue *args, guint nargs)
{
	return cel_value_bool(quantity_cmp_args(args) == 1);
}

static CelValue
quantity_is_less_than(CelActivation *act, const CelValue *args, guint nargs)
{
	return cel_value_bool(quantity_cmp_args(args) == -1);
}

static CelValue
quantity_compare_to(CelActivation *act, const CelValue *args, guint nargs)
{
	return cel_value_int(quantity_cmp_args(args));
}

static CelValue
quantity_as_float(CelActivation *act, const CelValue *args, guint nargs)
{
	return cel_value_double(k8s_quantity_as_approximate_float64(cel_quantity_of(args[0])));
}

static CelValue
quantity_as_integer(CelActivation *act, const CelValue *args, guint nargs)
{
	gint64 v;
	if (!k8s_quantity_as_int64(cel_quantity_of(args[0]), &v)) {
		return cel_value_error("cannot convert value to integer");
	}
	return cel_value_int(v);
}

static CelValue
quantity_is_integer(CelActivation *act, const CelValue *args, guint nargs)
{
	gint64 v;
	return cel_value_bool(k8s_quantity_as_int64(cel_quantity_of(args[0]), &v));
}

/* The operand of add/sub: a quantity, or an int as NewQuantity(i, DecimalExponent). */
static K8sQuantity
quantity_operand(CelValue v)
{
	if (v.kind == CEL_KIND_INT) {
		return k8s_quantity_from_int64(v.i, K8S_QUANTITY_DECIMAL_EXPONENT);
	}
	return *cel_quantity_of(v);
}

static CelValue
quantity_arith(CelActivation *act, const CelValue *args, gboolean subtract)
{
	K8sQuantity sum = *cel_quantity_of(args[0]);
	K8sQuantity y = quantity_operand(args[1]);
	gboolean ok = subtract ? k8s_quantity_sub(&sum, &y) : k8s_quantity_add(&sum, &y);

	if (!ok) {
		/* Upstream's inf.Dec has no bound; drasim's exact form keeps 38 digits. */
		return cel_value_error("quantity arithmetic result exceeds 38 significant digits "
		                       "(drasim limit)");
	}
	return cel_quantity_value(act, &sum);
}

static CelValue
quantity_add(CelActivation *act, const CelValue *args, guint nargs)
{
	return quantity_arith(act, args, FALSE);
}

static CelValue
quantity_sub(CelActivation *act, const CelValue *args, guint nargs)
{
	return quantity_arith(act, args, TRUE);
}

/*
 * Upstream declares sign with cel.Overload (a global function), so `sign(q)` checks and
 * `q.sign()` does not, although its doc comment shows the receiver form. drasim does the same.
 */
static const CelOverload quantity_overloads[] = {
	{ "quantity", "string_to_quantity", CEL_GLOBAL, "string -> kubernetes.Quantity",
	  quantity_from_string, NULL },
	{ "isQuantity", "is_quantity_string", CEL_GLOBAL, "string -> bool", quantity_is_quantity,
	  NULL },
	{ "sign", "quantity_sign", CEL_GLOBAL, "kubernetes.Quantity -> int", quantity_sign, NULL },
	{ "isGreaterThan", "quantity_is_greater_than", CEL_RECEIVER,
	  "kubernetes.Quantity, kubernetes.Quantity -> bool", quantity_is_greater_than, NULL },
	{ "isLessThan", "quantity_is_less_than", CEL_RECEIVER,
	  "kubernetes.Quantity, kubernetes.Quantity -> bool", quantity_is_less_than, NULL },
	{ "compareTo", "quantity_compare_to", CEL_RECEIVER,
	  "kubernetes.Quantity, kubernetes.Quantity -> int", quantity_compare_to, NULL },
	{ "asApproximateFloat", "quantity_get_float", CEL_RECEIVER, "kubernetes.Quantity -> double",
	  quantity_as_float, NULL },
	{ "asInteger", "quantity_get_int", CEL_RECEIVER, "kubernetes.Quantity -> int",
	  quantity_as_integer, NULL },
	{ "isInteger", "quantity_is_integer", CEL_RECEIVER, "kubernetes.Quantity -> bool",
	  quantity_is_integer, NULL },
	{ "add", "quantity_add", CEL_RECEIVER,
	  "kubernetes.Quantity, kubernetes.Quantity -> kubernetes.Quantity", quantity_add, NULL },
	{ "add", "quantity_add_int", CEL_RECEIVER,
	  "kubernetes.Quantity, int -> kubernetes.Quantity", quantity_add, NULL },
	{ "sub", "quantity_sub", CEL_RECEIVER,
	  "kubernetes.Quantity, kubernetes.Quantity -> kubernetes.Quantity", quantity_sub, NULL },
	{ "sub", "quantity_sub_int", CEL_RECEIVER,
	  "kubernetes.Quantity, int -> kubernetes.Quantity", quantity_sub, NULL },
};

void
cel_lib_k8s_quantity_register(CelEnv *env)
{
	cel_type_register_opaque(cel_quantity_class.type_name, &cel_quantity_class);
	cel_env_add_overloads(env, quantity_overloads, G_N_ELEMENTS(quantity_overloads));
}
