/*
 * cel_lib_strings_format.c: string.format() as strings extension version 2
 * has it, i.e. cel-go's pre-v4 formatter (ext/formatting.go stringFormatter,
 * parseFormatString). Kubernetes 1.34 pins cel-go v0.26.0 with version 2, so
 * this is production behaviour even where cel-spec (written against the v4
 * formatter) expects otherwise; docs/cel.md lists the differences:
 *  - %s of lists/maps quotes strings ("abc"), prints doubles as %.6f, uses
 *    "key:value" in maps and timestamp("...")/duration("...") for those;
 *  - %f/%e accept only doubles (or the strings "NaN"/"Infinity"/"-Infinity")
 *    and print Go's NaN/+Inf/-Inf; %e uses the precision as a field width;
 *  - %d accepts only integers.
 * drasim's own bound: a precision above CEL_FORMAT_MAX_PRECISION is an error (cel-go
 * would print that many digits, a string of gigabytes for "%.2000000000f").
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cel-private.h"

/* The largest precision (digits after the point, or the %e field width) format() prints. */
#define CEL_FORMAT_MAX_PRECISION 1000

CelValue cel_strings__format(CelActivation *act, CelValue fmt, CelValue args);
void cel_strings__go_quote(GString *out, const char *s, gsize len);
const char *cel_strings__escape(gunichar c);
void cel_time__format_timestamp(GString *out, gint64 seconds, guint32 nanos);
void cel_time__format_duration(GString *out, gint64 nanos);

/*
 * The backslash escapes that Go's strconv.Quote and cel-go's strings.quote both use: the
 * escape of @c, or NULL. (They differ elsewhere: invalid UTF-8 and unprintable characters.)
 */
const char *
cel_strings__escape(gunichar c)
{
	switch (c) {
	case '\a':
		return "\\a";
	case '\b':
		return "\\b";
	case '\f':
		return "\\f";
	case '\n':
		return "\\n";
	case '\r':
		return "\\r";
	case '\t':
		return "\\t";
	case '\v':
		return "\\v";
	case '\\':
		return "\\\\";
	case '"':
		return "\\\"";
	default:
		return NULL;
	}
}

/* Go's strconv.Quote. */
void
cel_strings__go_quote(GString *out, const char *s, gsize len)
{
	const char *p = s, *end = s + len;
	g_string_append_c(out, '"');
	while (p < end) {
		gunichar c = g_utf8_get_char_validated(p, end - p);
		if (c == (gunichar)-1 || c == (gunichar)-2) {
			g_string_append_printf(out, "\\x%02x", (guchar)*p);
			p++;
			continue;
		}
		const char *esc = cel_strings__escape(c);
		if (esc != NULL) {
			g_string_append(out, esc);
		} else if (c < 0x20 || c == 0x7f) {
			g_string_append_printf(out, "\\x%02x", c);
		} else if (c >= 0x80 && !g_unichar_isprint(c)) {
			g_string_append_printf(out, c < 0x10000 ? "\\u%04x" : "\\U%08x", c);
		} else {
			g_string_append_unichar(out, c);
		}
		p = g_utf8_next_char(p);
	}
	g_string_append_c(out, '"');
}

static const char *
type_name(CelValue v)
{
	return cel_type_get_name(cel_type_of_value(v));
}

/* Go's fmt for NaN/Inf with %f/%e */
static gboolean
nonfinite(GString *out, double d)
{
	if (isnan(d)) {
		g_string_append(out, "NaN");
	} else if (isinf(d)) {
		g_string_append(out, d > 0 ? "+Inf" : "-Inf");
	} else {
		return FALSE;
	}
	return TRUE;
}

static gboolean format_string(GString *out, CelValue v, CelActivation *act, GString *err);

/* Go %d/%b/%o/%x of an integer: sign then magnitude */
static void
format_radix(GString *out, CelValue v, int radix, gboolean upper)
{
	guint64 mag;
	if (v.kind == CEL_KIND_INT) {
		if (v.i < 0) {
			g_string_append_c(out, '-');
			mag = (guint64)0 - (guint64)v.i;
		} else {
			mag = (guint64)v.i;
		}
	} else {
		mag = v.u;
	}
	char buf[72];
	int k = 0;
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	do {
		buf[k++] = digits[mag % (guint64)radix];
		mag /= (guint64)radix;
	} while (mag);
	while (k > 0) {
		g_string_append_c(out, buf[--k]);
	}
}

/* clauseForType + quoteForCEL, for list elements and map values */
static gboolean
format_member(GString *out, CelValue v, CelActivation *act, GString *err)
{
	switch ((CelKind)v.kind) {
	case CEL_KIND_INT:
	case CEL_KIND_UINT:
		format_radix(out, v, 10, FALSE);
		return TRUE;
	case CEL_KIND_STRING:
		cel_strings__go_quote(out, v.str, v.aux);
		return TRUE;
	case CEL_KIND_BYTES:
		g_string_append_c(out, 'b');
		cel_strings__go_quote(out, v.str, v.aux);
		return TRUE;
	case CEL_KIND_TIMESTAMP:
	case CEL_KIND_DURATION: {
		g_autoptr(GString) s = g_string_new(NULL);
		if (v.kind == CEL_KIND_TIMESTAMP) {
			cel_time__format_timestamp(s, v.i, v.aux);
		} else {
			cel_time__format_duration(s, v.i);
		}
		g_string_append(out, v.kind == CEL_KIND_TIMESTAMP ? "timestamp(" : "duration(");
		cel_strings__go_quote(out, s->str, s->len);
		g_string_append_c(out, ')');
		return TRUE;
	}
	case CEL_KIND_DOUBLE: {
		g_autoptr(GString) s = g_string_new(NULL);
		if (nonfinite(s, v.d)) {
			cel_strings__go_quote(out, s->str, s->len);
		} else {
			g_string_append_printf(out, "%.6f", v.d);
		}
		return TRUE;
	}
	case CEL_KIND_BOOL:
	case CEL_KIND_NULL:
	case CEL_KIND_TYPE:
	case CEL_KIND_LIST:
	case CEL_KIND_MAP:
		return format_string(out, v, act, err);
	default:
		g_string_printf(err, "no formatting function for %s", type_name(v));
		return FALSE;
	}
}

typedef struct {
	char *key;
	char *value;
} Pair;

static gint
pair_cmp(gconstpointer a, gconstpointer b)
{
	return strcmp(((const Pair *)a)->key, ((const Pair *)b)->key);
}

static gboolean
format_map(GString *out, const CelMap *m, CelActivation *act, GString *err)
{
	g_autoptr(GArray) pairs = g_array_new(FALSE, FALSE, sizeof(Pair));
	gboolean ok = TRUE;
	for (guint i = 0; i < m->len && ok; i++) {
		CelValue k, v;
		cel_map_entry(m, i, &k, &v, act);
		GString *ks = g_string_new(NULL), *vs = g_string_new(NULL);
		if (k.kind == CEL_KIND_STRING) {
			cel_strings__go_quote(ks, k.str, k.aux);
		} else if (k.kind == CEL_KIND_BOOL || k.kind == CEL_KIND_INT ||
		           k.kind == CEL_KIND_UINT) {
			ok = format_member(ks, k, act, err);
		} else {
			g_string_printf(err, "no formatting function for map key of type %s",
			                type_name(k));
			ok = FALSE;
		}
		ok = ok && format_member(vs, v, act, err);
		Pair p = { g_string_free(ks, FALSE), g_string_free(vs, FALSE) };
		g_array_append_val(pairs, p);
	}
	g_array_sort(pairs, pair_cmp); /* sort.SliceStable on the key text */
	g_string_append_c(out, '{');
	for (guint i = 0; i < pairs->len; i++) {
		Pair *p = &g_array_index(pairs, Pair, i);
		g_string_append_printf(out, "%s%s:%s", i ? ", " : "", p->key, p->value);
		g_free(p->key);
		g_free(p->value);
	}
	g_string_append_c(out, '}');
	return ok;
}

/* FormatString: the %s clause */
static gboolean
format_string(GString *out, CelValue v, CelActivation *act, GString *err)
{
	switch ((CelKind)v.kind) {
	case CEL_KIND_LIST:
		g_string_append_c(out, '[');
		for (guint i = 0; i < v.list->len; i++) {
			if (i) {
				g_string_append(out, ", ");
			}
			if (!format_member(out, cel_list_get(v.list, i, act), act, err)) {
				return FALSE;
			}
		}
		g_string_append_c(out, ']');
		return TRUE;
	case CEL_KIND_MAP:
		return format_map(out, v.map, act, err);
	case CEL_KIND_INT:
	case CEL_KIND_UINT:
		format_radix(out, v, 10, FALSE);
		return TRUE;
	case CEL_KIND_DOUBLE:
		cel_format_double(out, v.d);
		return TRUE;
	case CEL_KIND_BOOL:
		g_string_append(out, v.b ? "true" : "false");
		return TRUE;
	case CEL_KIND_STRING:
	case CEL_KIND_BYTES:
		g_string_append_len(out, v.str, v.aux);
		return TRUE;
	case CEL_KIND_TIMESTAMP:
		cel_time__format_timestamp(out, v.i, v.aux);
		return TRUE;
	case CEL_KIND_DURATION:
		cel_time__format_duration(out, v.i);
		return TRUE;
	case CEL_KIND_TYPE:
		g_string_append(out, cel_type_get_name(v.type));
		return TRUE;
	case CEL_KIND_NULL:
		g_string_append(out, "null");
		return TRUE;
	default:
		g_string_printf(
		        err,
		        "string clause can only be used on strings, bools, bytes, ints, "
		        "doubles, maps, lists, types, durations, and timestamps, was given %s",
		        type_name(v));
		return FALSE;
	}
}

/* value as a double for %f/%e: doubles, or the strings NaN/Infinity/-Infinity */
static gboolean
float_arg(CelValue v, double *d)
{
	if (v.kind == CEL_KIND_DOUBLE) {
		*d = v.d;
		return TRUE;
	}
	if (v.kind == CEL_KIND_STRING) {
		if (v.aux == 3 && memcmp(v.str, "NaN", 3) == 0) {
			*d = NAN;
			return TRUE;
		}
		if (v.aux == 8 && memcmp(v.str, "Infinity", 8) == 0) {
			*d = INFINITY;
			return TRUE;
		}
		if (v.aux == 9 && memcmp(v.str, "-Infinity", 9) == 0) {
			*d = -INFINITY;
			return TRUE;
		}
	}
	return FALSE;
}

/* %.Nf through golang.org/x/text/message with en_US: grouped thousands */
static void
format_fixed(GString *out, double d, int prec)
{
	if (nonfinite(out, d)) {
		return;
	}
	/* a double's 309 integer digits, sign, point and at most the largest precision */
	char buf[CEL_FORMAT_MAX_PRECISION + 320];
	g_snprintf(buf, sizeof buf, "%.*f", prec, d);
	const char *p = buf;
	if (*p == '-') {
		g_string_append_c(out, '-');
		p++;
	}
	const char *dot = strchr(p, '.');
	gsize ilen = dot ? (gsize)(dot - p) : strlen(p);
	for (gsize i = 0; i < ilen; i++) {
		if (i > 0 && (ilen - i) % 3 == 0) {
			g_string_append_c(out, ',');
		}
		g_string_append_c(out, p[i]);
	}
	if (dot) {
		g_string_append(out, dot);
	}
}

/* %e: cel-go builds "%<precision>e", a width, with Go's default precision. */
static gboolean
format_scientific(GString *out, int prec, gboolean has_prec, CelValue v, GString *err)
{
	double d;
	if (!float_arg(v, &d)) {
		g_string_printf(err, "scientific clause can only be used on doubles, was given %s",
		                type_name(v));
		return FALSE;
	}
	if (isnan(d) || isinf(d)) {
		g_autoptr(GString) s = g_string_new(NULL);
		nonfinite(s, d);
		g_string_append_printf(out, "%*s", has_prec ? prec : 6, s->str);
	} else {
		g_string_append_printf(out, "%*e", has_prec ? prec : 6, d);
	}
	return TRUE;
}

/* %x, %X: integers in base 16, strings and bytes byte by byte. */
static gboolean
format_hex(GString *out, gboolean upper, CelValue v, GString *err)
{
	if (v.kind == CEL_KIND_STRING || v.kind == CEL_KIND_BYTES) {
		for (guint i = 0; i < v.aux; i++) {
			g_string_append_printf(out, upper ? "%02X" : "%02x", (guchar)v.str[i]);
		}
		return TRUE;
	}
	if (v.kind != CEL_KIND_INT && v.kind != CEL_KIND_UINT) {
		g_string_printf(err,
		                "only integers, byte buffers, and strings can be formatted as "
		                "hex, was given %s",
		                type_name(v));
		return FALSE;
	}
	format_radix(out, v, 16, upper);
	return TRUE;
}

/* %d, %o, %b: an integer in @base; otherwise "<@wrong_kind>, was given <type>". */
static gboolean
radix_clause(GString *out, CelValue v, int base, const char *wrong_kind, GString *err)
{
	if (v.kind != CEL_KIND_INT && v.kind != CEL_KIND_UINT) {
		g_string_printf(err, "%s, was given %s", wrong_kind, type_name(v));
		return FALSE;
	}
	format_radix(out, v, base, FALSE);
	return TRUE;
}

static gboolean
apply_clause(GString *out,
             char verb,
             int prec,
             gboolean has_prec,
             CelValue v,
             CelActivation *act,
             GString *err)
{
	double d;
	switch (verb) {
	case 's':
		return format_string(out, v, act, err);
	case 'd':
		return radix_clause(out, v, 10, "decimal clause can only be used on integers", err);
	case 'f':
		if (!float_arg(v, &d)) {
			g_string_printf(
			        err, "fixed-point clause can only be used on doubles, was given %s",
			        type_name(v));
			return FALSE;
		}
		format_fixed(out, d, has_prec ? prec : 6);
		return TRUE;
	case 'e':
		return format_scientific(out, prec, has_prec, v, err);
	case 'b':
		if (v.kind == CEL_KIND_BOOL) {
			g_string_append_c(out, v.b ? '1' : '0');
			return TRUE;
		}
		return radix_clause(out, v, 2, "only integers and bools can be formatted as binary",
		                    err);
	case 'x':
	case 'X':
		return format_hex(out, verb == 'X', v, err);
	case 'o':
		return radix_clause(out, v, 8, "octal clause can only be used on integers", err);
	default:
		return FALSE;
	}
}

CelValue
cel_strings__format(CelActivation *act, CelValue fmt, CelValue args)
{
	g_autoptr(GString) out = g_string_new(NULL);
	g_autoptr(GString) err = g_string_new(NULL);
	const char *s = fmt.str;
	gsize len = fmt.aux, i = 0;
	guint arg = 0;
	while (i < len) {
		if (s[i] != '%') {
			g_string_append_c(out, s[i++]);
			continue;
		}
		if (i + 1 < len && s[i + 1] == '%') {
			g_string_append_c(out, '%');
			i += 2;
			continue;
		}
		if (arg >= args.list->len) {
			return cel_errorf(act, "index %u out of range", arg);
		}
		if (i + 1 >= len) {
			return cel_value_error("unexpected end of string");
		}
		CelValue v = cel_list_get(args.list, arg, act);
		gsize j = i + 1;
		int prec = 0;
		gboolean has_prec = FALSE;
		if (s[j] == '.') {
			has_prec = TRUE;
			j++;
			while (j < len && g_ascii_isdigit(s[j])) {
				prec = prec * 10 + (s[j] - '0');
				j++;
				if (prec > CEL_FORMAT_MAX_PRECISION) {
					return cel_errorf(act,
					                  "could not parse formatting clause: "
					                  "precision exceeds drasim's limit of %d",
					                  CEL_FORMAT_MAX_PRECISION);
				}
			}
			if (j >= len) {
				return cel_value_error(
				        "could not parse formatting clause: error while "
				        "parsing precision: could not find end of "
				        "precision specifier");
			}
		}
		char verb = s[j];
		if (strchr("sdfebxXo", verb) == NULL) {
			return cel_errorf(
			        act,
			        "could not parse formatting clause: unrecognized formatting "
			        "clause \"%c\"",
			        verb);
		}
		if (!apply_clause(out, verb, prec, has_prec, v, act, err)) {
			return cel_errorf(act, "error during formatting: %s", err->str);
		}
		i = j + 1;
		arg++;
	}
	return cel_string_new(act, out->str, out->len);
}
