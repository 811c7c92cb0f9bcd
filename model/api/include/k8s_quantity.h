/*
 * k8s_quantity.h: resource.Quantity, as k8s.io/apimachinery/pkg/api/resource does it.
 *
 * A K8sQuantity is a small value type (no heap):
 * copy it by assignment. Like upstream it has two internal forms, and the form is
 * observable (k8s_quantity_as_int64() fails on the slow form, which CEL's
 * quantity.isInteger() reports), so drasim keeps both:
 *   - the fast form: value * 10^scale with a 64-bit value (upstream int64Amount);
 *   - the slow form: an exact decimal (upstream inf.Dec). drasim holds it as a 128-bit
 *     magnitude and a base-10 exponent, so any value with at most 38 significant digits is
 *     exact; parsing a longer one, or arithmetic whose exact result needs more, fails with
 *     K8S_QUANTITY_ERROR_LIMIT (upstream would keep going with a big.Int).
 * No function here allocates, except k8s_quantity_to_string_dup().
 *
 * One upstream quirk is not reproduced: Go's Quantity.Cmp converts both operands to the
 * slow form in place (through a pointer shared by copies), so after comparing a fast
 * quantity with a slow one, AsInt64 of the former fails. k8s_quantity_cmp() takes const
 * pointers and leaves both alone.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
	K8S_QUANTITY_DECIMAL_SI = 0,   /* 12M = 12 * 10^6; also the format of "0" */
	K8S_QUANTITY_BINARY_SI,        /* 12Mi = 12 * 2^20 */
	K8S_QUANTITY_DECIMAL_EXPONENT, /* 12e6 */
} K8sQuantityFormat;

/* Scales (powers of ten) for k8s_quantity_scaled_value() and friends. */
#define K8S_QUANTITY_NANO  (-9)
#define K8S_QUANTITY_MICRO (-6)
#define K8S_QUANTITY_MILLI (-3)

/* Longest text k8s_quantity_to_string() writes, with its NUL. */
#define K8S_QUANTITY_STRING_MAX 64

/*
 * K8sQuantity: treat the fields as private; the zero value is the quantity 0 (DecimalSI).
 */
typedef struct {
	gint64 value;   /* fast form: the value is value * 10^scale */
	guint64 mag_lo; /* slow form: the value is (neg ? -1 : 1) * (mag_hi:mag_lo) * 10^scale */
	guint64 mag_hi;
	gint32 scale;
	gint32 dec_scale;       /* slow form: the inf.Dec scale upstream would hold */
	guint8 format;          /* K8sQuantityFormat */
	guint8 slow;            /* TRUE: slow (inf.Dec) form */
	guint8 neg;             /* slow form: sign */
	guint8 string_is_input; /* upstream's String() returns the parsed text itself */
} K8sQuantity;

#define K8S_QUANTITY_ERROR (k8s_quantity_error_quark())
GQuark k8s_quantity_error_quark(void);

typedef enum {
	K8S_QUANTITY_ERROR_FORMAT,  /* upstream ErrFormatWrong */
	K8S_QUANTITY_ERROR_NUMERIC, /* upstream ErrNumeric */
	K8S_QUANTITY_ERROR_SUFFIX,  /* upstream ErrSuffix */
	K8S_QUANTITY_ERROR_LIMIT,   /* exact but beyond drasim's 38 significant digits */
} K8sQuantityErrorCode;

/*
 * The three parse errors' messages, word for word as resource.ParseQuantity returns them
 * (the API server prefixes them with "quantities must match ..." in its own message).
 */
extern const char k8s_quantity_err_format[];
extern const char k8s_quantity_err_numeric[];
extern const char k8s_quantity_err_suffix[];

/**
 * k8s_quantity_parse:
 * @text: the quantity; @len bytes, or -1 for NUL-terminated. Whitespace is not trimmed
 *   (ParseQuantity rejects " 1"; the JSON decoder trims, see k8s_quantity_parse_json()).
 * @out: (out): the quantity, set to zero on failure
 *
 * Returns: TRUE, or FALSE with @error set (K8S_QUANTITY_ERROR; the message is upstream's).
 */
gboolean k8s_quantity_parse(const char *text, gssize len, K8sQuantity *out, GError **error);

/**
 * k8s_quantity_parse_json:
 * What Quantity.UnmarshalJSON does with a string or number: trims ASCII/Unicode spaces
 * around @text, then parses.
 */
gboolean k8s_quantity_parse_json(const char *text, gssize len, K8sQuantity *out, GError **error);

/* NewQuantity(value, format), NewMilliQuantity(value, format), NewScaledQuantity(value, scale). */
K8sQuantity k8s_quantity_from_int64(gint64 value, K8sQuantityFormat format);
K8sQuantity k8s_quantity_from_milli(gint64 milli, K8sQuantityFormat format);
K8sQuantity k8s_quantity_from_scaled(gint64 value, gint32 scale);

/* Cmp: -1, 0 or 1; exact for every pair of values. Never allocates. */
int k8s_quantity_cmp(const K8sQuantity *a, const K8sQuantity *b);
int k8s_quantity_cmp_int64(const K8sQuantity *q, gint64 y);
int k8s_quantity_sign(const K8sQuantity *q);
gboolean k8s_quantity_is_zero(const K8sQuantity *q);
K8sQuantityFormat k8s_quantity_get_format(const K8sQuantity *q);
/* TRUE for the slow (inf.Dec) form. */
gboolean k8s_quantity_is_slow(const K8sQuantity *q);

/**
 * k8s_quantity_add:
 * @q += @y with upstream's rules: the fast form when the int64 sum and scale alignment do
 * not overflow, else the slow form; a zero @q takes @y's format.
 * Returns: FALSE when the exact sum is beyond drasim's slow form (@q is left unchanged).
 */
gboolean k8s_quantity_add(K8sQuantity *q, const K8sQuantity *y);
gboolean k8s_quantity_sub(K8sQuantity *q, const K8sQuantity *y);
void k8s_quantity_neg(K8sQuantity *q);
/**
 * k8s_quantity_mul:
 * Returns: upstream's result (FALSE when the slow-form result does not fit an int64
 * unscaled value); @overflow (nullable) is set when drasim could not hold the exact product,
 * in which case @q is unchanged.
 */
gboolean k8s_quantity_mul(K8sQuantity *q, gint64 y, gboolean *overflow);
/* RoundUp(scale): rounds away from zero to 10^scale; FALSE when precision was lost. */
gboolean k8s_quantity_round_up(K8sQuantity *q, gint32 scale);

/**
 * k8s_quantity_as_int64:
 * AsInt64: the value when the fast form holds an integer that fits an int64. The slow form
 * always fails, even for an integer such as 1Pi (upstream parses that into inf.Dec).
 */
gboolean k8s_quantity_as_int64(const K8sQuantity *q, gint64 *out);
/* AsApproximateFloat64, bit for bit (Go's float64 product of the unscaled value and Pow10). */
double k8s_quantity_as_approximate_float64(const K8sQuantity *q);
/* Value(), MilliValue(), ScaledValue(scale): ceil away from zero; saturates on overflow. */
gint64 k8s_quantity_value(const K8sQuantity *q);
gint64 k8s_quantity_milli_value(const K8sQuantity *q);
gint64 k8s_quantity_scaled_value(const K8sQuantity *q, gint32 scale);

/**
 * k8s_quantity_to_string:
 * The canonical form (String()): the largest suffix of the quantity's format that keeps the
 * value exact, "0" for zero; BinarySI values that are not whole, or below 1024 in magnitude,
 * print as DecimalSI. Writes at most K8S_QUANTITY_STRING_MAX bytes including the NUL.
 * When k8s_quantity_string_is_input() is TRUE, upstream's String() returns the parsed text
 * itself instead ("+1", "01", "1E3" stay as written); callers with the text print that.
 * Returns: the length written, without the NUL.
 */
gsize k8s_quantity_to_string(const K8sQuantity *q, char buf[K8S_QUANTITY_STRING_MAX]);
/* (transfer full) */
char *k8s_quantity_to_string_dup(const K8sQuantity *q);
gboolean k8s_quantity_string_is_input(const K8sQuantity *q);

G_END_DECLS
