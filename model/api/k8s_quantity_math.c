/*
 * k8s_quantity_math.c: comparison, arithmetic and conversions of K8sQuantity.
 *
 * The fast form follows upstream's int64Amount (k8s.io/apimachinery/pkg/api/resource,
 * amount.go and math.go) operation by operation, because which form a result lands in is
 * observable. The slow form is an exact 128-bit decimal standing in for inf.Dec. Nothing
 * here allocates: CEL compares quantities on its hot path.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "k8s_quantity-private.h"

/* ---- 128-bit helpers ----------------------------------------------------------------- */

guint
qty_u128_digits(QtyU128 v)
{
	guint n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

gboolean
qty_u128_mul_pow10(QtyU128 *mag, guint64 n)
{
	QtyU128 m = *mag;

	if (m == 0) {
		return TRUE;
	}
	for (guint64 i = 0; i < n; i++) {
		if (m > ((QtyU128)-1) / 10) {
			return FALSE;
		}
		m *= 10;
	}
	*mag = m;
	return TRUE;
}

guint
qty_u128_format(QtyU128 v, char *out)
{
	char tmp[48];
	guint n = 0;

	do {
		tmp[n++] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v != 0);
	for (guint i = 0; i < n; i++) {
		out[i] = tmp[n - 1 - i];
	}
	return n;
}

static QtyU128
u128_abs_i64(gint64 v)
{
	return v < 0 ? (QtyU128)(0 - (guint64)v) : (QtyU128)(guint64)v;
}

/* ---- the exact decimal --------------------------------------------------------------- */

QtyDec
qty_dec_of(const K8sQuantity *q)
{
	QtyDec d;

	if (q->slow) {
		d.mag = ((QtyU128)q->mag_hi << 64) | q->mag_lo;
		d.neg = q->neg && d.mag != 0;
	} else {
		d.mag = u128_abs_i64(q->value);
		d.neg = q->value < 0;
	}
	d.exp = q->scale;
	return d;
}

void
qty_dec_normalize(QtyDec *d)
{
	if (d->mag == 0) {
		d->exp = 0;
		d->neg = FALSE;
		return;
	}
	while (d->mag % 10 == 0) {
		d->mag /= 10;
		d->exp++;
	}
}

static int
mag_cmp(const QtyDec *a, const QtyDec *b)
{
	gint64 ax, bx;
	QtyU128 am = a->mag, bm = b->mag;

	if (am == 0 || bm == 0) {
		return (am != 0) - (bm != 0);
	}
	/* Settle by magnitude first, so 1e2000000000 never gets written out in digits
	 * (the same short cut as upstream's cmpDec). */
	ax = (gint64)qty_u128_digits(am) + a->exp;
	bx = (gint64)qty_u128_digits(bm) + b->exp;
	if (ax != bx) {
		return ax > bx ? 1 : -1;
	}
	if (a->exp > b->exp && !qty_u128_mul_pow10(&am, (guint64)(a->exp - b->exp))) {
		return 1;
	}
	if (b->exp > a->exp && !qty_u128_mul_pow10(&bm, (guint64)(b->exp - a->exp))) {
		return -1;
	}
	return am == bm ? 0 : (am > bm ? 1 : -1);
}

int
qty_dec_cmp(const QtyDec *a, const QtyDec *b)
{
	int sa = a->mag == 0 ? 0 : (a->neg ? -1 : 1);
	int sb = b->mag == 0 ? 0 : (b->neg ? -1 : 1);

	if (sa != sb) {
		return sa > sb ? 1 : -1;
	}
	if (sa == 0) {
		return 0;
	}
	return sa * mag_cmp(a, b);
}

/* a + b exactly; FALSE when the aligned magnitudes do not fit 128 bits. */
static gboolean
dec_add(const QtyDec *a_in, const QtyDec *b_in, QtyDec *out)
{
	QtyDec a = *a_in, b = *b_in;

	if (a.mag == 0) {
		*out = b;
		qty_dec_normalize(out);
		return TRUE;
	}
	if (b.mag == 0) {
		*out = a;
		qty_dec_normalize(out);
		return TRUE;
	}
	qty_dec_normalize(&a);
	qty_dec_normalize(&b);
	if (a.exp > b.exp) {
		if (!qty_u128_mul_pow10(&a.mag, (guint64)(a.exp - b.exp))) {
			return FALSE;
		}
		a.exp = b.exp;
	} else if (b.exp > a.exp) {
		if (!qty_u128_mul_pow10(&b.mag, (guint64)(b.exp - a.exp))) {
			return FALSE;
		}
		b.exp = a.exp;
	}
	out->exp = a.exp;
	if (a.neg == b.neg) {
		if (a.mag > ((QtyU128)-1) - b.mag) {
			return FALSE;
		}
		out->mag = a.mag + b.mag;
		out->neg = a.neg;
	} else if (a.mag >= b.mag) {
		out->mag = a.mag - b.mag;
		out->neg = a.neg;
	} else {
		out->mag = b.mag - a.mag;
		out->neg = b.neg;
	}
	qty_dec_normalize(out);
	return TRUE;
}

QtyDec
qty_dec_round_up(const QtyDec *d, gint64 scale, gboolean *exact)
{
	QtyDec r = *d;
	QtyU128 div = 1, rem;
	gint64 k;

	*exact = TRUE;
	if (d->mag == 0 || d->exp >= scale) {
		return r;
	}
	k = scale - d->exp;
	r.exp = scale;
	if (k >= 39) {
		/* 10^39 exceeds every magnitude: what is left is the rounding unit */
		r.mag = 1;
		*exact = FALSE;
		return r;
	}
	qty_u128_mul_pow10(&div, (guint64)k);
	rem = d->mag % div;
	r.mag = d->mag / div + (rem != 0);
	*exact = rem == 0;
	return r;
}

gboolean
qty_set_slow(K8sQuantity *q, const QtyDec *d_in, gint32 dec_scale)
{
	QtyDec d = *d_in;

	qty_dec_normalize(&d);
	if (d.exp < G_MININT32 + 1 || d.exp > G_MAXINT32) {
		return FALSE;
	}
	q->slow = TRUE;
	q->value = 0;
	q->mag_lo = (guint64)d.mag;
	q->mag_hi = (guint64)(d.mag >> 64);
	q->neg = d.neg;
	q->scale = (gint32)d.exp;
	q->dec_scale = dec_scale;
	q->string_is_input = FALSE;
	return TRUE;
}

/* The inf.Dec scale upstream's AsDec() gives a quantity (ToDec of int64Amount: -scale). */
static gint32
dec_scale_of(const K8sQuantity *q)
{
	if (q->slow) {
		return q->dec_scale;
	}
	return q->scale == G_MININT32 ? G_MAXINT32 : -q->scale;
}

/* ---- int64Amount (upstream math.go / amount.go) -------------------------------------- */

/* positiveScaleInt64: base * 10^scale, saturating to base's sign on overflow. */
static gboolean
positive_scale(gint64 base, gint64 scale, gint64 *out)
{
	gint64 r = base;

	if (base == 0) {
		*out = 0;
		return TRUE;
	}
	for (gint64 i = 0; i < scale; i++) {
		if (__builtin_mul_overflow(r, (gint64)10, &r)) {
			*out = base < 0 ? G_MININT64 : G_MAXINT64;
			return FALSE;
		}
	}
	*out = r;
	return TRUE;
}

/* negativeScaleInt64: base / 10^scale, rounded away from zero; @exact reports no loss. */
static gint64
negative_scale(gint64 base, gint64 scale, gboolean *exact)
{
	gint64 value = base;
	gboolean fraction = FALSE;

	*exact = TRUE;
	for (gint64 i = 0; i < scale; i++) {
		if (!fraction && value % 10 != 0) {
			fraction = TRUE;
		}
		value /= 10;
		if (value == 0) {
			*exact = !fraction;
			return fraction ? (base > 0 ? 1 : -1) : 0;
		}
	}
	if (fraction) {
		value += base > 0 ? 1 : -1;
	}
	*exact = !fraction;
	return value;
}

/* int64Amount.Add: FALSE (and @q untouched) when the fast form would overflow. */
static gboolean
amount_add(K8sQuantity *q, gint64 bv, gint32 bs)
{
	gint64 c;

	if (bv == 0) {
		return TRUE;
	}
	if (q->value == 0) {
		q->value = bv;
		q->scale = bs;
		return TRUE;
	}
	if (q->scale == bs) {
		if (__builtin_add_overflow(q->value, bv, &c)) {
			return FALSE;
		}
		q->value = c;
	} else if (q->scale > bs) {
		if (!positive_scale(q->value, (gint64)q->scale - bs, &c) ||
		    __builtin_add_overflow(c, bv, &c)) {
			return FALSE;
		}
		q->scale = bs;
		q->value = c;
	} else {
		if (!positive_scale(bv, (gint64)bs - q->scale, &c) ||
		    __builtin_add_overflow(q->value, c, &c)) {
			return FALSE;
		}
		q->value = c;
	}
	return TRUE;
}

static gboolean
can_align(gint32 a, gint32 b)
{
	gint64 delta = (gint64)a - b;

	return a != G_MININT32 && b != G_MININT32 && delta >= -G_MAXINT32 && delta <= G_MAXINT32;
}

/* ---- public: comparison -------------------------------------------------------------- */

int
k8s_quantity_cmp(const K8sQuantity *a, const K8sQuantity *b)
{
	QtyDec da, db;

	if (!a->slow && !b->slow && a->scale == b->scale) {
		return a->value == b->value ? 0 : (a->value < b->value ? -1 : 1);
	}
	da = qty_dec_of(a);
	db = qty_dec_of(b);
	return qty_dec_cmp(&da, &db);
}

int
k8s_quantity_cmp_int64(const K8sQuantity *q, gint64 y)
{
	K8sQuantity other = k8s_quantity_from_int64(y, K8S_QUANTITY_DECIMAL_SI);

	return k8s_quantity_cmp(q, &other);
}

int
k8s_quantity_sign(const K8sQuantity *q)
{
	if (q->slow) {
		return (q->mag_lo | q->mag_hi) == 0 ? 0 : (q->neg ? -1 : 1);
	}
	return q->value == 0 ? 0 : (q->value < 0 ? -1 : 1);
}

gboolean
k8s_quantity_is_zero(const K8sQuantity *q)
{
	return k8s_quantity_sign(q) == 0;
}

K8sQuantityFormat
k8s_quantity_get_format(const K8sQuantity *q)
{
	return (K8sQuantityFormat)q->format;
}

gboolean
k8s_quantity_is_slow(const K8sQuantity *q)
{
	return q->slow;
}

/* ---- public: arithmetic -------------------------------------------------------------- */

/* inf.Dec.Add/Sub: the exact result at the larger inf.Dec scale of the two. */
static gboolean
slow_add(K8sQuantity *q, const K8sQuantity *y, gboolean negate_y)
{
	QtyDec a = qty_dec_of(q), b = qty_dec_of(y), sum;
	gint32 sa = dec_scale_of(q), sb = dec_scale_of(y);

	if (negate_y && b.mag != 0) {
		b.neg = !b.neg;
	}
	if (!dec_add(&a, &b, &sum)) {
		return FALSE;
	}
	return qty_set_slow(q, &sum, MAX(sa, sb));
}

gboolean
k8s_quantity_add(K8sQuantity *q, const K8sQuantity *y)
{
	K8sQuantity saved = *q;

	q->string_is_input = FALSE;
	if (!q->slow && !y->slow) {
		if (q->value == 0) {
			q->format = y->format;
		}
		if (amount_add(q, y->value, y->scale)) {
			return TRUE;
		}
	} else if (k8s_quantity_is_zero(q)) {
		q->format = y->format;
	}
	if (!slow_add(q, y, FALSE)) {
		*q = saved;
		return FALSE;
	}
	return TRUE;
}

gboolean
k8s_quantity_sub(K8sQuantity *q, const K8sQuantity *y)
{
	K8sQuantity saved = *q;

	q->string_is_input = FALSE;
	if (k8s_quantity_is_zero(q)) {
		q->format = y->format;
	}
	if (!q->slow && !y->slow) {
		/* int64Amount.Sub: -mostNegative does not fit, so that case goes to inf.Dec
		 * when the decimal can align the scales; otherwise it keeps the wrapped value. */
		if (y->value != G_MININT64 || !can_align(q->scale, y->scale)) {
			gint64 negated = (gint64)(0 - (guint64)y->value);
			if (amount_add(q, negated, y->scale)) {
				return TRUE;
			}
		}
	}
	if (k8s_quantity_is_zero(q)) {
		/* 0 - y is -y at y's own scale (upstream keeps the subtrahend's scale) */
		K8sQuantityFormat format = (K8sQuantityFormat)q->format;
		QtyDec d = qty_dec_of(y);
		if (d.mag != 0) {
			d.neg = !d.neg;
		}
		if (!qty_set_slow(q, &d, dec_scale_of(y))) {
			*q = saved;
			return FALSE;
		}
		q->format = format;
		return TRUE;
	}
	if (!slow_add(q, y, TRUE)) {
		*q = saved;
		return FALSE;
	}
	return TRUE;
}

void
k8s_quantity_neg(K8sQuantity *q)
{
	q->string_is_input = FALSE;
	if (q->slow) {
		if ((q->mag_lo | q->mag_hi) != 0) {
			q->neg = !q->neg;
		}
		return;
	}
	if (q->value == G_MININT64) {
		/* 2^63 does not fit the fast form: promote, keeping the scale */
		if (q->scale != G_MININT32) {
			QtyDec d = { .mag = (QtyU128)1 << 63, .exp = q->scale, .neg = FALSE };
			qty_set_slow(q, &d, -q->scale);
		}
		return;
	}
	q->value = -q->value;
}

gboolean
k8s_quantity_mul(K8sQuantity *q, gint64 y, gboolean *overflow)
{
	QtyDec d;
	QtyU128 m, unscaled;
	gint64 c, shift;
	gboolean exact;
	gint32 ds;

	if (overflow != NULL) {
		*overflow = FALSE;
	}
	q->string_is_input = FALSE;
	if (!q->slow) {
		/* int64Amount.Mul */
		if (q->value == 0) {
			return TRUE;
		}
		if (y == 0) {
			q->value = 0;
			q->scale = 0;
			return TRUE;
		}
		if (!__builtin_mul_overflow(q->value, y, &c)) {
			gint64 ignored;
			if (q->scale == 0 ||
			    (q->scale > 0 && positive_scale(c, q->scale, &ignored)) ||
			    (q->scale < 0 &&
			     (negative_scale(c, -(gint64)q->scale, &exact), exact))) {
				q->value = c;
				return TRUE;
			}
		}
	}
	ds = dec_scale_of(q);
	d = qty_dec_of(q);
	m = u128_abs_i64(y);
	if (d.mag != 0 && m != 0 && d.mag > ((QtyU128)-1) / m) {
		if (overflow != NULL) {
			*overflow = TRUE;
		}
		return FALSE;
	}
	d.mag *= m;
	d.neg = d.mag != 0 && (d.neg != (y < 0));
	if (!qty_set_slow(q, &d, ds)) {
		if (overflow != NULL) {
			*overflow = TRUE;
		}
		return FALSE;
	}
	/* upstream: UnscaledBig().IsInt64() at the unchanged inf.Dec scale */
	qty_dec_normalize(&d);
	shift = d.exp + ds;
	unscaled = d.mag;
	if (shift < 0 || !qty_u128_mul_pow10(&unscaled, (guint64)shift)) {
		return FALSE;
	}
	return d.neg ? unscaled <= QTY_INT64_MAX_U + 1 : unscaled <= QTY_INT64_MAX_U;
}

gboolean
k8s_quantity_round_up(K8sQuantity *q, gint32 scale)
{
	gboolean exact;

	if (q->slow) {
		QtyDec d = qty_dec_of(q);
		QtyDec r = qty_dec_round_up(&d, scale, &exact);
		qty_set_slow(q, &r, -scale);
		return exact;
	}
	if (q->scale >= scale) {
		return TRUE;
	}
	q->string_is_input = FALSE;
	q->value = negative_scale(q->value, (gint64)scale - q->scale, &exact);
	q->scale = scale;
	return exact;
}

/* ---- public: conversions ------------------------------------------------------------- */

gboolean
k8s_quantity_as_int64(const K8sQuantity *q, gint64 *out)
{
	gint64 v = 0;
	gboolean ok;

	if (q->slow || q->scale < 0) {
		ok = FALSE;
	} else {
		ok = positive_scale(q->value, q->scale, &v);
	}
	if (out != NULL) {
		*out = ok ? v : 0;
	}
	return ok;
}

/* Go's math.Pow10, table for table, so products round as they do upstream. */
static double
go_pow10(gint64 n)
{
	static const double tab[32] = {
		1e00, 1e01, 1e02, 1e03, 1e04, 1e05, 1e06, 1e07, 1e08, 1e09, 1e10,
		1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21,
		1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31,
	};
	static const double pos32[] = {
		1e00, 1e32, 1e64, 1e96, 1e128, 1e160, 1e192, 1e224, 1e256, 1e288,
	};
	static const double neg32[] = {
		1e-00, 1e-32, 1e-64, 1e-96, 1e-128, 1e-160, 1e-192, 1e-224, 1e-256, 1e-288, 1e-320,
	};

	if (n >= 0 && n <= 308) {
		return pos32[n / 32] * tab[n % 32];
	}
	if (n < 0 && n >= -323) {
		return neg32[-n / 32] / tab[-n % 32];
	}
	return n > 0 ? (double)INFINITY : 0.0;
}

double
k8s_quantity_as_approximate_float64(const K8sQuantity *q)
{
	char buf[96];
	QtyDec d;
	gint64 shift;
	guint n;
	double base;

	if (!q->slow) {
		if (q->value == 0) {
			return 0.0;
		}
		base = (double)q->value;
		return q->scale == 0 ? base : base * go_pow10(q->scale);
	}
	d = qty_dec_of(q);
	if (d.mag == 0) {
		return 0.0;
	}
	/* big.Float(unscaled).Float64() is the correctly rounded value of the inf.Dec's
	 * unscaled integer, mag * 10^(exp + scale); glibc's strtod rounds correctly too. */
	shift = d.exp + q->dec_scale;
	n = 0;
	if (d.neg) {
		buf[n++] = '-';
	}
	n += qty_u128_format(d.mag, buf + n);
	g_snprintf(buf + n, sizeof(buf) - n, "e%" G_GINT64_FORMAT, shift);
	base = g_ascii_strtod(buf, NULL);
	return q->dec_scale == 0 ? base : base * go_pow10(-(gint64)q->dec_scale);
}

gint64
k8s_quantity_scaled_value(const K8sQuantity *q, gint32 scale)
{
	QtyDec d, r;
	gboolean exact;
	gint64 delta, out;

	if (!q->slow) {
		/* int64Amount.AsScaledInt64 */
		if (q->value == 0) {
			return 0;
		}
		delta = (gint64)q->scale - scale;
		if (delta < 0) {
			if (-delta >= 19) {
				return q->value < 0 ? -1 : 1;
			}
			return negative_scale(q->value, -delta, &exact);
		}
		if (delta >= 19) {
			return q->value < 0 ? G_MININT64 : G_MAXINT64;
		}
		positive_scale(q->value, delta, &out);
		return out;
	}
	/* Rounds away from zero for negative values too (upstream #110653). Where upstream's
	 * big.Int path wraps on overflow, drasim saturates. */
	d = qty_dec_of(q);
	if (d.mag == 0) {
		return 0;
	}
	r = qty_dec_round_up(&d, scale, &exact);
	if (r.exp > scale && !qty_u128_mul_pow10(&r.mag, (guint64)(r.exp - scale))) {
		return r.neg ? G_MININT64 : G_MAXINT64;
	}
	if (r.neg) {
		return r.mag > QTY_INT64_MAX_U + 1 ? G_MININT64 : (gint64)(0 - (guint64)r.mag);
	}
	return r.mag > QTY_INT64_MAX_U ? G_MAXINT64 : (gint64)r.mag;
}

gint64
k8s_quantity_value(const K8sQuantity *q)
{
	return k8s_quantity_scaled_value(q, 0);
}

gint64
k8s_quantity_milli_value(const K8sQuantity *q)
{
	return k8s_quantity_scaled_value(q, K8S_QUANTITY_MILLI);
}
