/*
 * cel_lib_convert.c: type conversions int(), uint(), double(), string(),
 * bytes(), bool(), with cel-go's range checks (common/types
 * ConvertToType): out-of-range conversions are "range error" values.
 */
#include <math.h>
#include <string.h>

#include "cel-private.h"

#define FN(name) static CelValue name(CelActivation *act, const CelValue *a, guint n)

/* Formats a timestamp as Go's time.RFC3339Nano in UTC (cel_lib_time.c). */
void cel_time__format_timestamp(GString *out, gint64 seconds, guint32 nanos);
void cel_time__format_duration(GString *out, gint64 nanos);

static CelValue
range_error(void)
{
	return cel_value_error("range error");
}

/* strconv.ParseInt(s, 10, 64) / ParseUint: optional sign, decimal digits. */
static gboolean
parse_decimal(const char *s, gsize len, gboolean allow_sign, gboolean *neg, guint64 *mag)
{
	gsize i = 0;
	*neg = FALSE;
	if (allow_sign && len > 0 && (s[0] == '+' || s[0] == '-')) {
		*neg = s[0] == '-';
		i++;
	}
	if (i == len) {
		return FALSE;
	}
	guint64 v = 0;
	for (; i < len; i++) {
		if (!g_ascii_isdigit(s[i])) {
			return FALSE;
		}
		guint d = (guint)(s[i] - '0');
		if (v > (G_MAXUINT64 - d) / 10) {
			return FALSE;
		}
		v = v * 10 + d;
	}
	*mag = v;
	return TRUE;
}

FN(int_from_uint)
{
	if (a[0].u > G_MAXINT64) {
		return range_error();
	}
	return cel_value_int((gint64)a[0].u);
}

FN(int_from_double)
{
	double d = a[0].d;
	if (isnan(d) || d <= -9223372036854775808.0 || d >= 9223372036854775807.0) {
		return range_error();
	}
	return cel_value_int((gint64)d);
}

FN(int_from_string)
{
	gboolean neg;
	guint64 mag;
	if (!parse_decimal(a[0].str, a[0].aux, TRUE, &neg, &mag) ||
	    mag > (guint64)G_MAXINT64 + (neg ? 1 : 0)) {
		return cel_value_error("invalid integer");
	}
	return cel_value_int(neg ? (gint64)(0 - mag) : (gint64)mag);
}

FN(int_from_timestamp)
{
	return cel_value_int(a[0].i);
}

FN(int_from_duration)
{
	return cel_value_int(a[0].i); /* nanoseconds, as cel-go */
}

FN(uint_from_int)
{
	if (a[0].i < 0) {
		return range_error();
	}
	return cel_value_uint((guint64)a[0].i);
}

FN(uint_from_double)
{
	double d = a[0].d;
	if (isnan(d) || d < 0 || d >= 18446744073709551615.0) {
		return range_error();
	}
	return cel_value_uint((guint64)d);
}

FN(uint_from_string)
{
	gboolean neg;
	guint64 mag;
	if (!parse_decimal(a[0].str, a[0].aux, FALSE, &neg, &mag)) {
		return cel_value_error("invalid unsigned integer");
	}
	return cel_value_uint(mag);
}

FN(double_from_int)
{
	return cel_value_double((double)a[0].i);
}

FN(double_from_uint)
{
	return cel_value_double((double)a[0].u);
}

FN(double_from_string)
{
	char buf[128];
	if (a[0].aux == 0 || a[0].aux >= sizeof buf) {
		return cel_value_error("invalid double");
	}
	memcpy(buf, a[0].str, a[0].aux);
	buf[a[0].aux] = '\0';
	char *end = NULL;
	double d = g_ascii_strtod(buf, &end);
	if (end == buf || *end != '\0') {
		return cel_value_error("invalid double");
	}
	return cel_value_double(d);
}

static CelValue
gstring_value(CelActivation *act, GString *s)
{
	CelValue v = cel_string_new(act, s->str, s->len);
	g_string_free(s, TRUE);
	return v;
}

FN(string_from_int)
{
	char buf[32];
	int len = g_snprintf(buf, sizeof buf, "%" G_GINT64_FORMAT, a[0].i);
	return cel_string_new(act, buf, (gsize)len);
}

FN(string_from_uint)
{
	char buf[32];
	int len = g_snprintf(buf, sizeof buf, "%" G_GUINT64_FORMAT, a[0].u);
	return cel_string_new(act, buf, (gsize)len);
}

FN(string_from_double)
{
	GString *s = g_string_new(NULL);
	cel_format_double(s, a[0].d);
	return gstring_value(act, s);
}

FN(string_from_bytes)
{
	if (!cel_utf8_validate(a[0].str, a[0].aux, NULL)) {
		return cel_value_error("invalid UTF-8 in bytes, cannot convert to string");
	}
	return cel_value_string(a[0].str, a[0].aux);
}

FN(string_from_bool)
{
	return a[0].b ? cel_value_string("true", 4) : cel_value_string("false", 5);
}

FN(string_from_timestamp)
{
	GString *s = g_string_new(NULL);
	cel_time__format_timestamp(s, a[0].i, a[0].aux);
	return gstring_value(act, s);
}

FN(string_from_duration)
{
	GString *s = g_string_new(NULL);
	cel_time__format_duration(s, a[0].i);
	return gstring_value(act, s);
}

FN(bytes_from_string)
{
	return cel_value_bytes(a[0].str, a[0].aux);
}

FN(bool_from_string)
{
	/* strconv.ParseBool */
	static const char *const t[] = { "1", "t", "T", "true", "TRUE", "True" };
	static const char *const f[] = { "0", "f", "F", "false", "FALSE", "False" };
	for (guint i = 0; i < G_N_ELEMENTS(t); i++) {
		if (a[0].aux == strlen(t[i]) && memcmp(a[0].str, t[i], a[0].aux) == 0) {
			return cel_value_bool(TRUE);
		}
		if (a[0].aux == strlen(f[i]) && memcmp(a[0].str, f[i], a[0].aux) == 0) {
			return cel_value_bool(FALSE);
		}
	}
	return cel_value_error("type conversion error from 'string' to 'bool'");
}

FN(identity)
{
	return a[0];
}

static const CelOverload convert_overloads[] = {
	{ "int", "int64_to_int64", CEL_GLOBAL, "int -> int", identity, NULL },
	{ "int", "uint64_to_int64", CEL_GLOBAL, "uint -> int", int_from_uint, NULL },
	{ "int", "double_to_int64", CEL_GLOBAL, "double -> int", int_from_double, NULL },
	{ "int", "string_to_int64", CEL_GLOBAL, "string -> int", int_from_string, NULL },
	{ "int", "timestamp_to_int64", CEL_GLOBAL, "timestamp -> int", int_from_timestamp, NULL },
	{ "int", "duration_to_int64", CEL_GLOBAL, "duration -> int", int_from_duration, NULL },
	{ "uint", "uint64_to_uint64", CEL_GLOBAL, "uint -> uint", identity, NULL },
	{ "uint", "int64_to_uint64", CEL_GLOBAL, "int -> uint", uint_from_int, NULL },
	{ "uint", "double_to_uint64", CEL_GLOBAL, "double -> uint", uint_from_double, NULL },
	{ "uint", "string_to_uint64", CEL_GLOBAL, "string -> uint", uint_from_string, NULL },
	{ "double", "double_to_double", CEL_GLOBAL, "double -> double", identity, NULL },
	{ "double", "int64_to_double", CEL_GLOBAL, "int -> double", double_from_int, NULL },
	{ "double", "uint64_to_double", CEL_GLOBAL, "uint -> double", double_from_uint, NULL },
	{ "double", "string_to_double", CEL_GLOBAL, "string -> double", double_from_string, NULL },
	{ "string", "string_to_string", CEL_GLOBAL, "string -> string", identity, NULL },
	{ "string", "int64_to_string", CEL_GLOBAL, "int -> string", string_from_int, NULL },
	{ "string", "uint64_to_string", CEL_GLOBAL, "uint -> string", string_from_uint, NULL },
	{ "string", "double_to_string", CEL_GLOBAL, "double -> string", string_from_double, NULL },
	{ "string", "bytes_to_string", CEL_GLOBAL, "bytes -> string", string_from_bytes, NULL },
	{ "string", "bool_to_string", CEL_GLOBAL, "bool -> string", string_from_bool, NULL },
	{ "string", "timestamp_to_string", CEL_GLOBAL, "timestamp -> string", string_from_timestamp,
	  NULL },
	{ "string", "duration_to_string", CEL_GLOBAL, "duration -> string", string_from_duration,
	  NULL },
	{ "bytes", "bytes_to_bytes", CEL_GLOBAL, "bytes -> bytes", identity, NULL },
	{ "bytes", "string_to_bytes", CEL_GLOBAL, "string -> bytes", bytes_from_string, NULL },
	{ "bool", "bool_to_bool", CEL_GLOBAL, "bool -> bool", identity, NULL },
	{ "bool", "string_to_bool", CEL_GLOBAL, "string -> bool", bool_from_string, NULL },
};

void cel_lib_convert_register(CelEnv *env);

void
cel_lib_convert_register(CelEnv *env)
{
	cel_env_add_overloads(env, convert_overloads, G_N_ELEMENTS(convert_overloads));
}
