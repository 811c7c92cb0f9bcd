/*
 * cel_value.c: value constructors, equality, ordering and printing.
 *
 * Equality and ordering follow cel-go with heterogeneous numeric comparison
 * (Kubernetes enables CrossTypeNumericComparisons): 1 == 1u == 1.0, and
 * values of different kinds are simply unequal, never an error.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cel-private.h"

G_DEFINE_QUARK(cel - error - quark, cel_error)

CelValue
cel_value_null(void)
{
	return (CelValue){ .kind = CEL_KIND_NULL };
}

CelValue
cel_value_bool(gboolean b)
{
	return (CelValue){ .kind = CEL_KIND_BOOL, .b = b != 0 };
}

CelValue
cel_value_int(gint64 i)
{
	return (CelValue){ .kind = CEL_KIND_INT, .i = i };
}

CelValue
cel_value_uint(guint64 u)
{
	return (CelValue){ .kind = CEL_KIND_UINT, .u = u };
}

CelValue
cel_value_double(double d)
{
	return (CelValue){ .kind = CEL_KIND_DOUBLE, .d = d };
}

CelValue
cel_value_string(const char *str, gsize len)
{
	return (CelValue){ .kind = CEL_KIND_STRING, .aux = (guint32)len, .str = str };
}

CelValue
cel_value_bytes(const char *data, gsize len)
{
	return (CelValue){ .kind = CEL_KIND_BYTES, .aux = (guint32)len, .str = data };
}

CelValue
cel_value_error(const char *message)
{
	return (CelValue){ .kind = CEL_KIND_ERROR, .str = message };
}

CelValue
cel_value_list(const CelList *list)
{
	return (CelValue){ .kind = CEL_KIND_LIST, .list = list };
}

CelValue
cel_value_map(const CelMap *map)
{
	return (CelValue){ .kind = CEL_KIND_MAP, .map = map };
}

CelValue
cel_value_type(const CelType *type)
{
	return (CelValue){ .kind = CEL_KIND_TYPE, .type = type };
}

CelValue
cel_value_object(const CelObject *obj)
{
	return (CelValue){ .kind = CEL_KIND_OBJECT, .obj = obj };
}

CelValue
cel_value_timestamp(gint64 seconds, guint32 nanos)
{
	return (CelValue){ .kind = CEL_KIND_TIMESTAMP, .aux = nanos, .i = seconds };
}

CelValue
cel_value_duration(gint64 nanos)
{
	return (CelValue){ .kind = CEL_KIND_DURATION, .i = nanos };
}

CelValue
cel_value_optional_none(void)
{
	return (CelValue){ .kind = CEL_KIND_OPTIONAL, .opt = NULL };
}

CelValue
cel_value_optional_of(CelActivation *act, CelValue inner)
{
	CelValue *box = cel_activation_alloc(act, sizeof(CelValue));
	*box = inner;
	return (CelValue){ .kind = CEL_KIND_OPTIONAL, .opt = box };
}

CelValue
cel_string_new(CelActivation *act, const char *str, gsize len)
{
	char *p = cel_activation_alloc(act, len + 1);
	memcpy(p, str, len);
	return cel_value_string(p, len);
}

CelValue
cel_bytes_new(CelActivation *act, const char *data, gsize len)
{
	char *p = cel_activation_alloc(act, len + 1);
	memcpy(p, data, len);
	return cel_value_bytes(p, len);
}

CelValue
cel_errorf(CelActivation *act, const char *format, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, format);
	int n = g_vsnprintf(buf, sizeof buf, format, ap);
	va_end(ap);
	if (n < 0) {
		return cel_value_error("error");
	}
	gsize len = MIN((gsize)n, sizeof buf - 1);
	char *msg = cel_activation_alloc(act, len + 1);
	memcpy(msg, buf, len);
	return cel_value_error(msg);
}

CelList *
cel_list_new(CelActivation *act, guint n)
{
	CelList *l = cel_activation_alloc(act, sizeof(CelList));
	l->cap = n;
	l->items = n ? cel_activation_alloc(act, n * sizeof(CelValue)) : NULL;
	return l;
}

CelMap *
cel_map_new(CelActivation *act, guint n)
{
	CelMap *m = cel_activation_alloc(act, sizeof(CelMap));
	m->cap = n;
	if (n) {
		m->keys = cel_activation_alloc(act, n * sizeof(CelValue));
		m->values = cel_activation_alloc(act, n * sizeof(CelValue));
	}
	return m;
}

CelValue
cel_list_get(const CelList *list, guint index, CelActivation *act)
{
	if (list->klass != NULL) {
		return list->klass->get(list, index, act);
	}
	return list->items[index];
}

void
cel_map_entry(const CelMap *map, guint index, CelValue *key, CelValue *value, CelActivation *act)
{
	if (map->klass != NULL) {
		map->klass->entry(map, index, key, value, act);
		return;
	}
	*key = map->keys[index];
	*value = map->values[index];
}

static inline gboolean
str_eq(CelValue a, CelValue b)
{
	return a.aux == b.aux && (a.str == b.str || memcmp(a.str, b.str, a.aux) == 0);
}

/* Numeric key equality across int/uint/double (cel-go map lookups). */
static gboolean
key_equal(CelValue k, CelValue key)
{
	if (k.kind == key.kind) {
		switch ((CelKind)k.kind) {
		case CEL_KIND_STRING:
			return str_eq(k, key);
		case CEL_KIND_INT:
			return k.i == key.i;
		case CEL_KIND_UINT:
			return k.u == key.u;
		case CEL_KIND_BOOL:
			return k.b == key.b;
		default:
			return FALSE;
		}
	}
	if ((k.kind == CEL_KIND_INT || k.kind == CEL_KIND_UINT || k.kind == CEL_KIND_DOUBLE) &&
	    (key.kind == CEL_KIND_INT || key.kind == CEL_KIND_UINT ||
	     key.kind == CEL_KIND_DOUBLE)) {
		return cel_value_compare(k, key) == 0;
	}
	return FALSE;
}

gboolean
cel_map_lookup(const CelMap *map, CelValue key, CelValue *out, CelActivation *act)
{
	if (map->klass != NULL) {
		return map->klass->lookup(map, key, out, act);
	}
	for (guint i = 0; i < map->len; i++) {
		if (key_equal(map->keys[i], key)) {
			*out = map->values[i];
			return TRUE;
		}
	}
	return FALSE;
}

static gboolean
is_number(CelValue v)
{
	return v.kind == CEL_KIND_INT || v.kind == CEL_KIND_UINT || v.kind == CEL_KIND_DOUBLE;
}

static int
cmp_int_uint(gint64 i, guint64 u)
{
	if (i < 0) {
		return -1;
	}
	return (guint64)i < u ? -1 : (guint64)i > u;
}

static int
cmp_double(double a, double b)
{
	if (isnan(a) || isnan(b)) {
		return 2;
	}
	return a < b ? -1 : a > b;
}

/* int/uint vs double: cel-go converts the integer to double (lossy on purpose). */
static int
cmp_int_double(gint64 i, double d)
{
	return cmp_double((double)i, d);
}

static int
cmp_uint_double(guint64 u, double d)
{
	return cmp_double((double)u, d);
}

static int
cmp_bytes(CelValue a, CelValue b)
{
	gsize n = MIN(a.aux, b.aux);
	int c = memcmp(a.str, b.str, n);
	if (c != 0) {
		return c < 0 ? -1 : 1;
	}
	return a.aux < b.aux ? -1 : a.aux > b.aux;
}

int
cel_value_compare(CelValue a, CelValue b)
{
	if (is_number(a) && is_number(b)) {
		switch (a.kind * 16 + b.kind) {
		case CEL_KIND_INT * 16 + CEL_KIND_INT:
			return a.i < b.i ? -1 : a.i > b.i;
		case CEL_KIND_UINT * 16 + CEL_KIND_UINT:
			return a.u < b.u ? -1 : a.u > b.u;
		case CEL_KIND_DOUBLE * 16 + CEL_KIND_DOUBLE:
			return cmp_double(a.d, b.d);
		case CEL_KIND_INT * 16 + CEL_KIND_UINT:
			return cmp_int_uint(a.i, b.u);
		case CEL_KIND_UINT * 16 + CEL_KIND_INT:
			return -cmp_int_uint(b.i, a.u);
		case CEL_KIND_INT * 16 + CEL_KIND_DOUBLE:
			return cmp_int_double(a.i, b.d);
		case CEL_KIND_DOUBLE * 16 + CEL_KIND_INT: {
			int c = cmp_int_double(b.i, a.d);
			return c == 2 ? 2 : -c;
		}
		case CEL_KIND_UINT * 16 + CEL_KIND_DOUBLE:
			return cmp_uint_double(a.u, b.d);
		case CEL_KIND_DOUBLE * 16 + CEL_KIND_UINT: {
			int c = cmp_uint_double(b.u, a.d);
			return c == 2 ? 2 : -c;
		}
		}
	}
	if (a.kind != b.kind) {
		return 3;
	}
	switch ((CelKind)a.kind) {
	case CEL_KIND_BOOL:
		return (int)a.b - (int)b.b;
	case CEL_KIND_STRING:
	case CEL_KIND_BYTES:
		return cmp_bytes(a, b);
	case CEL_KIND_TIMESTAMP:
		if (a.i != b.i) {
			return a.i < b.i ? -1 : 1;
		}
		return a.aux < b.aux ? -1 : a.aux > b.aux;
	case CEL_KIND_DURATION:
		return a.i < b.i ? -1 : a.i > b.i;
	default:
		return 3;
	}
}

gboolean
cel_value_equal(CelValue a, CelValue b, CelActivation *act)
{
	if (is_number(a) && is_number(b)) {
		return cel_value_compare(a, b) == 0;
	}
	if (a.kind != b.kind) {
		return FALSE;
	}
	switch ((CelKind)a.kind) {
	case CEL_KIND_NULL:
		return TRUE;
	case CEL_KIND_BOOL:
		return a.b == b.b;
	case CEL_KIND_STRING:
	case CEL_KIND_BYTES:
		return str_eq(a, b);
	case CEL_KIND_TIMESTAMP:
		return a.i == b.i && a.aux == b.aux;
	case CEL_KIND_DURATION:
		return a.i == b.i;
	case CEL_KIND_TYPE:
		return a.type == b.type || strcmp(a.type->name, b.type->name) == 0;
	case CEL_KIND_OPTIONAL:
		if (a.opt == NULL || b.opt == NULL) {
			return a.opt == b.opt;
		}
		return cel_value_equal(*(const CelValue *)a.opt, *(const CelValue *)b.opt, act);
	case CEL_KIND_LIST: {
		if (a.list->len != b.list->len) {
			return FALSE;
		}
		for (guint i = 0; i < a.list->len; i++) {
			if (!cel_value_equal(cel_list_get(a.list, i, act),
			                     cel_list_get(b.list, i, act), act)) {
				return FALSE;
			}
		}
		return TRUE;
	}
	case CEL_KIND_MAP: {
		if (a.map->len != b.map->len) {
			return FALSE;
		}
		for (guint i = 0; i < a.map->len; i++) {
			CelValue k, v, w;
			cel_map_entry(a.map, i, &k, &v, act);
			if (!cel_map_lookup(b.map, k, &w, act) || !cel_value_equal(v, w, act)) {
				return FALSE;
			}
		}
		return TRUE;
	}
	case CEL_KIND_OBJECT:
		if (a.obj->klass != b.obj->klass) {
			return FALSE;
		}
		if (a.obj->klass->equal != NULL) {
			return a.obj->klass->equal(a.obj, b.obj);
		}
		return a.obj == b.obj;
	default:
		return FALSE;
	}
}

gboolean
cel_utf8_validate(const char *s, gsize len, const char **bad)
{
	const char *p = s, *end = s + len;
	while (p < end) {
		const char *nul = memchr(p, '\0', (gsize)(end - p));
		const char *stop = nul ? nul : end;
		const char *where = NULL;
		if (!g_utf8_validate_len(p, (gsize)(stop - p), &where)) {
			if (bad) {
				*bad = where;
			}
			return FALSE;
		}
		p = nul ? nul + 1 : end;
	}
	return TRUE;
}

gsize
cel_utf8_length(const char *s, gsize len)
{
	gsize n = 0;
	for (gsize i = 0; i < len; i++) {
		if (((guchar)s[i] & 0xC0) != 0x80) {
			n++;
		}
	}
	return n;
}

/*
 * Go's strconv.FormatFloat(d, 'g', -1, 64), which cel-go's string(double)
 * uses: the shortest digits that round trip; exponent form when the decimal
 * exponent is < -4 or >= 6 (Go fixes eprec at 6 for the shortest form).
 */
void
cel_format_double(GString *out, double d)
{
	if (isnan(d)) {
		g_string_append(out, "NaN");
		return;
	}
	if (isinf(d)) {
		g_string_append(out, d > 0 ? "+Inf" : "-Inf");
		return;
	}
	char buf[64];
	int prec;
	for (prec = 1; prec <= 17; prec++) {
		g_snprintf(buf, sizeof buf, "%.*e", prec - 1, d);
		if (CEL_DOUBLE_EQ(strtod(buf, NULL), d)) {
			break;
		}
	}
	/* buf = [-]D.DDDDe[+-]XX; extract digits and exponent */
	const char *p = buf;
	gboolean neg = FALSE;
	if (*p == '-') {
		neg = TRUE;
		p++;
	}
	char digits[32];
	int nd = 0;
	while (*p && *p != 'e') {
		if (g_ascii_isdigit(*p)) {
			digits[nd++] = *p;
		}
		p++;
	}
	int exp = atoi(p + 1);
	/* strip trailing zeros */
	while (nd > 1 && digits[nd - 1] == '0') {
		nd--;
	}
	if (CEL_DOUBLE_EQ(d, 0.0)) {
		nd = 1;
		exp = 0;
	}
	int dp = exp + 1; /* decimal point position */
	if (neg) {
		g_string_append_c(out, '-');
	}
	/* Go's shortest 'g' uses %e when the exponent is < -4 or >= 6 */
	if (exp < -4 || exp >= 6) {
		g_string_append_c(out, digits[0]);
		if (nd > 1) {
			g_string_append_c(out, '.');
			g_string_append_len(out, digits + 1, nd - 1);
		}
		g_string_append_printf(out, "e%c%02d", exp < 0 ? '-' : '+', ABS(exp));
		return;
	}
	if (dp <= 0) {
		g_string_append(out, "0.");
		for (int i = 0; i < -dp; i++) {
			g_string_append_c(out, '0');
		}
		g_string_append_len(out, digits, nd);
		return;
	}
	for (int i = 0; i < dp; i++) {
		g_string_append_c(out, i < nd ? digits[i] : '0');
	}
	if (nd > dp) {
		g_string_append_c(out, '.');
		g_string_append_len(out, digits + dp, nd - dp);
	}
}

static void
print_string(GString *out, const char *s, gsize len, char quote)
{
	g_string_append_c(out, quote);
	for (gsize i = 0; i < len; i++) {
		char c = s[i];
		if (c == quote || c == '\\') {
			g_string_append_c(out, '\\');
			g_string_append_c(out, c);
		} else if (c == '\n') {
			g_string_append(out, "\\n");
		} else if ((guchar)c < 0x20) {
			g_string_append_printf(out, "\\x%02x", (guchar)c);
		} else {
			g_string_append_c(out, c);
		}
	}
	g_string_append_c(out, quote);
}

static void
print_list(GString *out, const CelList *list)
{
	g_string_append_c(out, '[');
	for (guint i = 0; i < list->len; i++) {
		if (i) {
			g_string_append(out, ", ");
		}
		cel_value_print(out, cel_list_get(list, i, NULL));
	}
	g_string_append_c(out, ']');
}

static void
print_map(GString *out, const CelMap *map)
{
	g_string_append_c(out, '{');
	for (guint i = 0; i < map->len; i++) {
		CelValue k, val;
		cel_map_entry(map, i, &k, &val, NULL);
		if (i) {
			g_string_append(out, ", ");
		}
		cel_value_print(out, k);
		g_string_append(out, ": ");
		cel_value_print(out, val);
	}
	g_string_append_c(out, '}');
}

static void
print_optional(GString *out, CelValue v)
{
	if (v.opt == NULL) {
		g_string_append(out, "optional.none()");
	} else {
		g_string_append(out, "optional.of(");
		cel_value_print(out, *(const CelValue *)v.opt);
		g_string_append_c(out, ')');
	}
}

static void
print_object(GString *out, CelValue v)
{
	if (v.obj->klass->print != NULL) {
		v.obj->klass->print(out, v.obj);
	} else {
		g_string_append_printf(out, "<%s>", v.obj->klass->type_name);
	}
}

void
cel_value_print(GString *out, CelValue v)
{
	switch ((CelKind)v.kind) {
	case CEL_KIND_NULL:
		g_string_append(out, "null");
		break;
	case CEL_KIND_BOOL:
		g_string_append(out, v.b ? "true" : "false");
		break;
	case CEL_KIND_INT:
		g_string_append_printf(out, "%" G_GINT64_FORMAT, v.i);
		break;
	case CEL_KIND_UINT:
		g_string_append_printf(out, "%" G_GUINT64_FORMAT "u", v.u);
		break;
	case CEL_KIND_DOUBLE:
		cel_format_double(out, v.d);
		if (isfinite(v.d) && CEL_DOUBLE_EQ(v.d, floor(v.d)) && fabs(v.d) < 1e21) {
			g_string_append(out, ".0");
		}
		break;
	case CEL_KIND_STRING:
		print_string(out, v.str, v.aux, '"');
		break;
	case CEL_KIND_BYTES:
		g_string_append_c(out, 'b');
		print_string(out, v.str, v.aux, '"');
		break;
	case CEL_KIND_LIST:
		print_list(out, v.list);
		break;
	case CEL_KIND_MAP:
		print_map(out, v.map);
		break;
	case CEL_KIND_TYPE:
		g_string_append(out, cel_type_get_name(v.type));
		break;
	case CEL_KIND_TIMESTAMP:
		g_string_append_printf(out, "timestamp(%" G_GINT64_FORMAT "s+%uns)", v.i, v.aux);
		break;
	case CEL_KIND_DURATION:
		g_string_append_printf(out, "duration(%" G_GINT64_FORMAT "ns)", v.i);
		break;
	case CEL_KIND_OPTIONAL:
		print_optional(out, v);
		break;
	case CEL_KIND_OBJECT:
		print_object(out, v);
		break;
	case CEL_KIND_ERROR:
		g_string_append_printf(out, "error: %s", v.str);
		break;
	case CEL_KIND__COUNT:
		break;
	}
}
