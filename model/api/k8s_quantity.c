/*
 * k8s_quantity.c: parsing and printing resource.Quantity.
 *
 * Follows k8s.io/apimachinery/pkg/api/resource (quantity.go, suffix.go): the same
 * scanner, the same suffix table, the same choice between the int64 fast path and the
 * inf.Dec slow path, the same rounding up to 1n of anything smaller, the same cap of
 * BinarySI values at 2^63-1 and the same canonical String(). The slow path is exact up to
 * 38 significant digits (see k8s_quantity.h).
 */
#include <errno.h>
#include <string.h>

#include <glib.h>

#include "k8s_quantity-private.h"

G_DEFINE_QUARK(k8s - quantity - error - quark, k8s_quantity_error)

const char k8s_quantity_err_format[] = "quantities must match the regular expression "
                                       "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const char k8s_quantity_err_numeric[] = "unable to parse numeric part of quantity";
const char k8s_quantity_err_suffix[] = "unable to parse quantity's suffix";

/* What parseQuantityString splits a quantity into; all pointers are into the input. */
typedef struct {
	gboolean positive;
	const char *value; /* sign, digits and point, as inf.Dec.SetString reads them */
	gsize value_len;
	const char *num; /* integer digits without leading zeros ("0" when none) */
	gsize num_len;
	const char *denom; /* fraction digits */
	gsize denom_len;
	const char *suffix;
	gsize suffix_len;
} QtySplit;

static gboolean
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* parseQuantityString, step for step; FALSE is ErrFormatWrong. */
static gboolean
split_quantity(const char *str, gsize end, QtySplit *s)
{
	gsize pos = 0, i, suffix_start;

	memset(s, 0, sizeof(*s));
	s->positive = TRUE;
	s->value = str;
	s->num = "0";
	s->num_len = 1;
	s->denom = "";
	s->suffix = "";
	if (end > 0 && (str[0] == '-' || str[0] == '+')) {
		s->positive = str[0] == '+';
		pos++;
	}
	/* leading zeros; a string of nothing else is 0 */
	while (pos < end && str[pos] == '0') {
		pos++;
	}
	if (pos >= end) {
		s->value = "0";
		s->value_len = 1;
		return TRUE;
	}
	for (i = pos; i < end && is_digit(str[i]); i++) {
	}
	if (i > pos) {
		s->num = str + pos;
		s->num_len = i - pos;
	}
	if (i >= end) {
		s->value_len = end;
		return TRUE;
	}
	pos = i;
	if (str[pos] == '.') {
		pos++;
		for (i = pos; i < end && is_digit(str[i]); i++) {
		}
		s->denom = str + pos;
		s->denom_len = i - pos;
		if (i >= end) {
			s->value_len = end;
			return TRUE;
		}
		pos = i;
	}
	s->value_len = pos;
	suffix_start = pos;
	for (i = pos; i < end && strchr("eEinumkKMGTP", str[i]) != NULL; i++) {
	}
	if (i >= end) {
		s->suffix = str + suffix_start;
		s->suffix_len = end - suffix_start;
		return TRUE;
	}
	pos = i;
	if (str[pos] == '-' || str[pos] == '+') {
		pos++;
	}
	for (i = pos; i < end && is_digit(str[i]); i++) {
	}
	if (i >= end) {
		s->suffix = str + suffix_start;
		s->suffix_len = end - suffix_start;
		return TRUE;
	}
	return FALSE;
}

/* suffixer.interpret: base (10 or 2), exponent and format of a suffix. */
static gboolean
interpret_suffix(const char *s, gsize len, int *base, gint32 *exponent, K8sQuantityFormat *format)
{
	static const struct {
		const char *text;
		int base;
		gint32 exponent;
	} table[] = {
		{ "", 10, 0 },   { "n", 10, -9 }, { "u", 10, -6 }, { "m", 10, -3 },
		{ "k", 10, 3 },  { "M", 10, 6 },  { "G", 10, 9 },  { "T", 10, 12 },
		{ "P", 10, 15 }, { "E", 10, 18 }, { "Ki", 2, 10 }, { "Mi", 2, 20 },
		{ "Gi", 2, 30 }, { "Ti", 2, 40 }, { "Pi", 2, 50 }, { "Ei", 2, 60 },
	};
	char digits[32];
	gint64 parsed;
	char *endp;

	for (guint i = 0; i < G_N_ELEMENTS(table); i++) {
		if (strlen(table[i].text) == len && memcmp(table[i].text, s, len) == 0) {
			*base = table[i].base;
			*exponent = table[i].exponent;
			*format = table[i].base == 2 ? K8S_QUANTITY_BINARY_SI
			                             : K8S_QUANTITY_DECIMAL_SI;
			return TRUE;
		}
	}
	/* "e"/"E" and a strconv.ParseInt integer; the exponent must fit the int32 scale and
	 * its negation ([-MaxInt32, MaxInt32]) rather than being truncated. */
	if (len < 2 || (s[0] != 'e' && s[0] != 'E') || len - 1 >= sizeof(digits)) {
		return FALSE;
	}
	memcpy(digits, s + 1, len - 1);
	digits[len - 1] = '\0';
	if (!(is_digit(digits[0]) ||
	      ((digits[0] == '-' || digits[0] == '+') && is_digit(digits[1])))) {
		return FALSE;
	}
	for (gsize i = 1; digits[i] != '\0'; i++) {
		if (!is_digit(digits[i])) {
			return FALSE;
		}
	}
	errno = 0;
	parsed = g_ascii_strtoll(digits, &endp, 10);
	if (errno != 0 || *endp != '\0' || parsed > G_MAXINT32 || parsed < -G_MAXINT32) {
		return FALSE;
	}
	*base = 10;
	*exponent = (gint32)parsed;
	*format = K8S_QUANTITY_DECIMAL_EXPONENT;
	return TRUE;
}

static void
quantity_zero(K8sQuantity *q, K8sQuantityFormat format)
{
	memset(q, 0, sizeof(*q));
	q->format = format;
}

static gboolean
fail(K8sQuantity *out, GError **error, K8sQuantityErrorCode code, const char *message)
{
	quantity_zero(out, K8S_QUANTITY_DECIMAL_SI);
	g_set_error_literal(error, K8S_QUANTITY_ERROR, code, message);
	return FALSE;
}

/*
 * The int64 fast path of ParseQuantity. Returns TRUE when it produced the quantity, FALSE
 * to fall through to the slow path; *numeric_error is set for ErrNumeric.
 */
static gboolean
parse_fast(const char *str,
           gsize len,
           const QtySplit *s,
           int base,
           gint32 exponent,
           K8sQuantityFormat format,
           K8sQuantity *out,
           gboolean *numeric_error)
{
	gint64 precision, scale = 0, mantissa = 1, value = 0, result;
	char shifted[48];

	*numeric_error = FALSE;
	if (base == 10) {
		scale = exponent;
		precision = 19 - (gint64)(s->num_len + s->denom_len);
	} else if (s->denom_len == 0) {
		mantissa = (gint64)1 << exponent;
		/* 1Mi (2^20) has ~6 digits of decimal precision: exponent*3/10 - 1 */
		precision = 15 - (gint64)s->num_len - exponent * 3 / 10 - 1;
	} else {
		precision = -1;
	}
	if (precision < 0) {
		return FALSE;
	}
	scale -= (gint64)s->denom_len;
	if (scale < K8S_QUANTITY_NANO) {
		return FALSE;
	}
	memcpy(shifted, s->num, s->num_len);
	memcpy(shifted + s->num_len, s->denom, s->denom_len);
	shifted[s->num_len + s->denom_len] = '\0';
	for (gsize i = 0; shifted[i] != '\0'; i++) {
		if (value > (G_MAXINT64 - (shifted[i] - '0')) / 10) {
			/* strconv.ParseInt's range error: 9999999999999999999 is rejected */
			*numeric_error = TRUE;
			return FALSE;
		}
		value = value * 10 + (shifted[i] - '0');
	}
	if (__builtin_mul_overflow(value, mantissa, &result)) {
		return FALSE;
	}
	quantity_zero(out, format);
	out->value = s->positive ? result : -result;
	out->scale = (gint32)scale;
	/* upstream keeps the input as the String() of a quantity it deems canonical */
	if (format == K8S_QUANTITY_BINARY_SI) {
		out->string_is_input = (value & 0x07) != 0;
	} else {
		gsize n = strlen(shifted);
		gboolean zeros3 = n >= 3 && strcmp(shifted + n - 3, "000") == 0;
		out->string_is_input = scale % 3 == 0 && !zeros3 && shifted[0] != '0';
	}
	(void)str;
	(void)len;
	return TRUE;
}

/* ---- the slow path: a tiny bignum, for BinarySI values with fractions ---------------- */

#define BIG_LIMBS      48 /* 1536 bits */
#define BIG_MAX_DIGITS 400

typedef struct {
	guint32 limb[BIG_LIMBS];
	guint n;
} QtyBig;

static gboolean
big_mul_add(QtyBig *b, guint32 mul, guint32 add)
{
	guint64 carry = add;

	for (guint i = 0; i < b->n; i++) {
		guint64 t = (guint64)b->limb[i] * mul + carry;
		b->limb[i] = (guint32)t;
		carry = t >> 32;
	}
	if (carry != 0) {
		if (b->n == BIG_LIMBS) {
			return FALSE;
		}
		b->limb[b->n++] = (guint32)carry;
	}
	return TRUE;
}

static guint32
big_divmod(QtyBig *b, guint32 div)
{
	guint64 rem = 0;

	for (guint i = b->n; i-- > 0;) {
		guint64 cur = (rem << 32) | b->limb[i];
		b->limb[i] = (guint32)(cur / div);
		rem = cur % div;
	}
	while (b->n > 0 && b->limb[b->n - 1] == 0) {
		b->n--;
	}
	return (guint32)rem;
}

/*
 * ParseQuantity's inf.Dec path for base 2: digits * 2^exponent / 10^frac, rounded up to a
 * multiple of 10^-9, capped at 2^63-1. Returns the magnitude in nano units (or the cap).
 */
static gboolean
slow_binary(const char *digits, gsize n, gsize frac, gint32 exponent, QtyDec *out, gboolean *capped)
{
	QtyBig big = { .n = 0 };
	gboolean any_rem = FALSE;
	QtyU128 nano = 0, cap = QTY_INT64_MAX_U * 1000000000u;

	*capped = FALSE;
	for (gsize i = 0; i < n; i++) {
		if (!big_mul_add(&big, 10, (guint32)(digits[i] - '0'))) {
			return FALSE;
		}
	}
	for (gint32 i = 0; i < exponent; i++) {
		if (!big_mul_add(&big, 2, 0)) {
			return FALSE;
		}
	}
	/* to nano units: * 10^(9 - frac), or / 10^(frac - 9) rounded away from zero */
	for (gsize i = frac; i < 9; i++) {
		if (!big_mul_add(&big, 10, 0)) {
			return FALSE;
		}
	}
	for (gsize i = 9; i < frac && big.n > 0; i++) {
		any_rem |= big_divmod(&big, 10) != 0;
	}
	if (big.n > 4) {
		*capped = TRUE;
		return TRUE;
	}
	for (guint i = big.n; i-- > 0;) {
		nano = (nano << 32) | big.limb[i];
	}
	nano += any_rem;
	if (nano > cap) {
		*capped = TRUE;
		return TRUE;
	}
	out->mag = nano;
	out->exp = K8S_QUANTITY_NANO;
	out->neg = FALSE;
	return TRUE;
}

/* ParseQuantity's inf.Dec path for base 10: exact, rounded away from zero to 1n. */
static gboolean
slow_decimal(const char *digits, gsize n, gint64 exp, QtyDec *out)
{
	gboolean round = FALSE;
	gsize keep = n;

	if (exp < K8S_QUANTITY_NANO) {
		guint64 drop = (guint64)(K8S_QUANTITY_NANO - exp);
		keep = drop >= n ? 0 : n - (gsize)drop;
		for (gsize i = keep; i < n; i++) {
			round |= digits[i] != '0';
		}
		exp = K8S_QUANTITY_NANO;
	}
	/* trailing zeros do not count against the 38 digits */
	while (keep > 0 && digits[keep - 1] == '0') {
		keep--;
		exp++;
	}
	if (keep > 39) {
		return FALSE;
	}
	out->mag = 0;
	for (gsize i = 0; i < keep; i++) {
		if (out->mag > (((QtyU128)-1) - 9) / 10) {
			return FALSE;
		}
		out->mag = out->mag * 10 + (QtyU128)(digits[i] - '0');
	}
	if (round) {
		if (out->mag == (QtyU128)-1) {
			return FALSE;
		}
		out->mag++;
	}
	out->exp = exp;
	out->neg = FALSE;
	return TRUE;
}

static gboolean
parse_slow(const QtySplit *s,
           int base,
           gint32 exponent,
           K8sQuantityFormat format,
           K8sQuantity *out,
           GError **error)
{
	g_autofree char *digits = g_malloc(s->value_len + 1);
	gsize n = 0, frac = 0;
	gboolean seen_point = FALSE, seen_digit = FALSE, capped = FALSE;
	QtyDec d = { 0 };

	/* inf.Dec.SetString(value): needs at least one digit */
	for (gsize i = 0; i < s->value_len; i++) {
		char c = s->value[i];
		if (c == '.') {
			seen_point = TRUE;
		} else if (is_digit(c)) {
			seen_digit = TRUE;
			if (seen_point) {
				frac++;
			}
			if (n == 0 && c == '0') {
				continue; /* leading zero */
			}
			digits[n++] = c;
		}
	}
	if (!seen_digit) {
		return fail(out, error, K8S_QUANTITY_ERROR_NUMERIC, k8s_quantity_err_numeric);
	}
	/* leading zeros after the point were skipped but still shift the value */
	if (n == 0) {
		quantity_zero(out, format);
		return TRUE;
	}
	if (base == 10) {
		if (!slow_decimal(digits, n, (gint64)exponent - (gint64)frac, &d)) {
			return fail(out, error, K8S_QUANTITY_ERROR_LIMIT,
			            "quantity has more than 38 significant digits, more than "
			            "drasim holds exactly");
		}
	} else if (n > BIG_MAX_DIGITS || !slow_binary(digits, n, frac, exponent, &d, &capped)) {
		return fail(out, error, K8S_QUANTITY_ERROR_LIMIT,
		            "quantity has too many digits for drasim");
	}
	quantity_zero(out, format);
	if (capped) {
		/* the max is just a simple cap (upstream leaves a cluster-wide quota for later) */
		d.mag = QTY_INT64_MAX_U;
		d.exp = 0;
		d.neg = !s->positive;
		qty_set_slow(out, &d, 0);
		return TRUE;
	}
	if (format == K8S_QUANTITY_BINARY_SI && d.exp < 0) {
		QtyDec one = { .mag = 1, .exp = 0, .neg = FALSE };
		if (qty_dec_cmp(&d, &one) < 0) {
			/* "This avoids rounding and hopefully confusion, too." */
			out->format = K8S_QUANTITY_DECIMAL_SI;
		}
	}
	d.neg = !s->positive;
	if (!qty_set_slow(out, &d, 9)) {
		return fail(out, error, K8S_QUANTITY_ERROR_LIMIT,
		            "quantity exponent is out of range for drasim");
	}
	return TRUE;
}

gboolean
k8s_quantity_parse(const char *text, gssize len_in, K8sQuantity *out, GError **error)
{
	gsize len = len_in < 0 ? strlen(text) : (gsize)len_in;
	K8sQuantityFormat format;
	gboolean numeric_error;
	gint32 exponent;
	QtySplit s;
	int base;

	g_return_val_if_fail(out != NULL, FALSE);
	if (len == 0) {
		return fail(out, error, K8S_QUANTITY_ERROR_FORMAT, k8s_quantity_err_format);
	}
	if (len == 1 && text[0] == '0') {
		quantity_zero(out, K8S_QUANTITY_DECIMAL_SI);
		out->string_is_input = TRUE;
		return TRUE;
	}
	if (!split_quantity(text, len, &s)) {
		return fail(out, error, K8S_QUANTITY_ERROR_FORMAT, k8s_quantity_err_format);
	}
	if (!interpret_suffix(s.suffix, s.suffix_len, &base, &exponent, &format)) {
		return fail(out, error, K8S_QUANTITY_ERROR_SUFFIX, k8s_quantity_err_suffix);
	}
	if (parse_fast(text, len, &s, base, exponent, format, out, &numeric_error)) {
		return TRUE;
	}
	if (numeric_error) {
		return fail(out, error, K8S_QUANTITY_ERROR_NUMERIC, k8s_quantity_err_numeric);
	}
	return parse_slow(&s, base, exponent, format, out, error);
}

static gboolean
is_json_space(const char *p, gsize *width)
{
	gunichar c;

	if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\v' || *p == '\f') {
		*width = 1;
		return TRUE;
	}
	if ((guchar)*p < 0x80) {
		return FALSE;
	}
	c = g_utf8_get_char_validated(p, -1);
	if (c == (gunichar)-1 || c == (gunichar)-2 || !g_unichar_isspace(c)) {
		return FALSE;
	}
	*width = (gsize)(g_utf8_next_char(p) - p);
	return TRUE;
}

gboolean
k8s_quantity_parse_json(const char *text, gssize len_in, K8sQuantity *out, GError **error)
{
	g_autofree char *copy = g_strndup(text, len_in < 0 ? strlen(text) : (gsize)len_in);
	char *start = copy, *end = NULL;
	gsize w;

	/* strings.TrimSpace: Unicode white space at both ends */
	while (*start != '\0' && is_json_space(start, &w)) {
		start += w;
	}
	end = start;
	for (char *p = start; *p != '\0';) {
		if (is_json_space(p, &w)) {
			p += w;
		} else {
			gunichar c = g_utf8_get_char_validated(p, -1);
			/* invalid UTF-8 advances one byte: the parse rejects it anyway */
			p += c == (gunichar)-1 || c == (gunichar)-2 ? 1 : g_utf8_skip[*(guchar *)p];
			end = p;
		}
	}
	return k8s_quantity_parse(start, end - start, out, error);
}

/* ---- constructors -------------------------------------------------------------------- */

K8sQuantity
k8s_quantity_from_int64(gint64 value, K8sQuantityFormat format)
{
	K8sQuantity q;

	quantity_zero(&q, format);
	q.value = value;
	return q;
}

K8sQuantity
k8s_quantity_from_milli(gint64 milli, K8sQuantityFormat format)
{
	K8sQuantity q = k8s_quantity_from_int64(milli, format);

	q.scale = K8S_QUANTITY_MILLI;
	return q;
}

K8sQuantity
k8s_quantity_from_scaled(gint64 value, gint32 scale)
{
	K8sQuantity q = k8s_quantity_from_int64(value, K8S_QUANTITY_DECIMAL_SI);

	q.scale = scale;
	return q;
}

gboolean
k8s_quantity_string_is_input(const K8sQuantity *q)
{
	return q->string_is_input;
}

/* ---- String() ------------------------------------------------------------------------ */

static gsize
append(char *buf, gsize at, const char *s)
{
	gsize n = strlen(s);

	if (at + n >= K8S_QUANTITY_STRING_MAX) {
		n = K8S_QUANTITY_STRING_MAX - 1 - at;
	}
	memcpy(buf + at, s, n);
	buf[at + n] = '\0';
	return at + n;
}

static const char *
decimal_suffix(gint64 exponent)
{
	switch (exponent) {
	case -9:
		return "n";
	case -6:
		return "u";
	case -3:
		return "m";
	case 0:
		return "";
	case 3:
		return "k";
	case 6:
		return "M";
	case 9:
		return "G";
	case 12:
		return "T";
	case 15:
		return "P";
	case 18:
		return "E";
	default:
		return NULL;
	}
}

/* AsCanonicalBytes and the suffix: no factor of ten left in the number but those that
 * bring the exponent down to a multiple of three. */
static gsize
format_decimal(const QtyDec *v, K8sQuantityFormat format, char *buf)
{
	QtyDec d = *v;
	gsize at = 0;
	gint64 e, pad;
	const char *suffix;
	char exp_text[32];

	qty_dec_normalize(&d);
	e = d.exp;
	pad = ((e % 3) + 3) % 3;
	e -= pad;
	if (d.neg) {
		buf[at++] = '-';
	}
	at += qty_u128_format(d.mag, buf + at);
	while (pad-- > 0) {
		buf[at++] = '0';
	}
	buf[at] = '\0';
	suffix = format == K8S_QUANTITY_DECIMAL_SI ? decimal_suffix(e) : NULL;
	if (suffix == NULL) {
		/* DecimalExponent, and the fallback of DecimalSI beyond E or below n (newer
		 * upstream: "1e21" instead of silently printing "1") */
		if (e == 0) {
			return at;
		}
		g_snprintf(exp_text, sizeof(exp_text), "e%" G_GINT64_FORMAT, e);
		suffix = exp_text;
	}
	return append(buf, at, suffix);
}

gsize
k8s_quantity_to_string(const K8sQuantity *q, char buf[K8S_QUANTITY_STRING_MAX])
{
	static const char *const binary[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	K8sQuantityFormat format = (K8sQuantityFormat)q->format;
	QtyDec v = qty_dec_of(q), r;
	gboolean exact;
	guint times = 0;
	gsize at = 0;

	if (v.mag == 0) {
		return append(buf, 0, "0");
	}
	if (format != K8S_QUANTITY_BINARY_SI) {
		return format_decimal(&v,
		                      format == K8S_QUANTITY_DECIMAL_SI
		                              ? K8S_QUANTITY_DECIMAL_SI
		                              : K8S_QUANTITY_DECIMAL_EXPONENT,
		                      buf);
	}
	if (k8s_quantity_cmp_int64(q, -1024) > 0 && k8s_quantity_cmp_int64(q, 1024) < 0) {
		return format_decimal(&v, K8S_QUANTITY_DECIMAL_SI, buf);
	}
	r = qty_dec_round_up(&v, 0, &exact);
	if (!exact) {
		return format_decimal(&v, K8S_QUANTITY_DECIMAL_SI, buf);
	}
	qty_dec_normalize(&r);
	if (!qty_u128_mul_pow10(&r.mag, (guint64)r.exp)) {
		/* beyond 2^128: no binary suffix could fit such a value anyway */
		return format_decimal(&v, K8S_QUANTITY_DECIMAL_EXPONENT, buf);
	}
	r.exp = 0;
	while (r.mag >= 1024 && r.mag % 1024 == 0) {
		r.mag /= 1024;
		times++;
	}
	if (times >= G_N_ELEMENTS(binary)) {
		/* past Ei there is no suffix: exact decimal instead (newer upstream) */
		return format_decimal(&v, K8S_QUANTITY_DECIMAL_EXPONENT, buf);
	}
	if (r.neg) {
		buf[at++] = '-';
	}
	at += qty_u128_format(r.mag, buf + at);
	buf[at] = '\0';
	return append(buf, at, binary[times]);
}

char *
k8s_quantity_to_string_dup(const K8sQuantity *q)
{
	char buf[K8S_QUANTITY_STRING_MAX];

	k8s_quantity_to_string(q, buf);
	return g_strdup(buf);
}
