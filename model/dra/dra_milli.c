/*
 * dra_milli.c: Kubernetes quantities as signed milli-units.
 *
 * The allocator compares and adds capacities, counters and requests; doing it
 * in exact integer milli-units keeps "2" == "2000m" == "0.002k" true without
 * floating point. Values below one milli round up, as Quantity.MilliValue().
 */
#include <string.h>

#include "dra-private.h"

typedef struct {
	const char *suffix;
	int base;  /* 2 or 10 */
	int power; /* exponent of base */
} Suffix;

/* longest first so "Ki" wins over "k"-like prefixes */
static const Suffix suffixes[] = {
	{ "Ki", 2, 10 }, { "Mi", 2, 20 }, { "Gi", 2, 30 }, { "Ti", 2, 40 }, { "Pi", 2, 50 },
	{ "Ei", 2, 60 }, { "n", 10, -9 }, { "u", 10, -6 }, { "m", 10, -3 }, { "k", 10, 3 },
	{ "M", 10, 6 },  { "G", 10, 9 },  { "T", 10, 12 }, { "P", 10, 15 }, { "E", 10, 18 },
};

#define LIMIT ((__int128)G_MAXINT64)

/*
 * The digits of a quantity: *@mant holds them all (integer and fraction), the
 * last *@frac_digits of them after the point. Returns where the suffix starts,
 * or NULL when there are no digits or the integer part overflows.
 */
static const char *
parse_digits(const char *p, __int128 *mant, int *frac_digits)
{
	int digits = 0;

	*mant = 0;
	*frac_digits = 0;
	for (; *p >= '0' && *p <= '9'; p++, digits++) {
		if (*mant < LIMIT * 1000) {
			*mant = *mant * 10 + (*p - '0');
		} else {
			return NULL;
		}
	}
	if (*p == '.') {
		p++;
		for (; *p >= '0' && *p <= '9'; p++, digits++) {
			if (*frac_digits < 30) {
				*mant = *mant * 10 + (*p - '0');
				(*frac_digits)++;
			}
		}
	}
	return digits == 0 ? NULL : p;
}

/* The suffix: a decimal exponent (e3), a binary (Ki) or decimal (k) SI suffix, or none. */
static gboolean
parse_suffix(const char *p, int *base, int *power)
{
	*base = 10;
	*power = 0;
	if (*p == 'e' || *p == 'E') {
		char *end = NULL;
		long e = strtol(p + 1, &end, 10);
		if (end == p + 1 || *end != '\0' || e > 30 || e < -30) {
			return FALSE;
		}
		*power = (int)e;
		return TRUE;
	}
	if (*p == '\0') {
		return TRUE;
	}
	for (guint i = 0; i < G_N_ELEMENTS(suffixes); i++) {
		if (strcmp(p, suffixes[i].suffix) == 0) {
			*base = suffixes[i].base;
			*power = suffixes[i].power;
			return TRUE;
		}
	}
	return FALSE;
}

gboolean
dra_milli_parse(const char *text, DraMilli *out)
{
	const char *p = text;
	gboolean negative = FALSE;
	__int128 mant;
	int frac_digits;
	int base;
	int power;

	if (text == NULL) {
		return FALSE;
	}
	if (*p == '+' || *p == '-') {
		negative = *p == '-';
		p++;
	}
	p = parse_digits(p, &mant, &frac_digits);
	if (p == NULL || !parse_suffix(p, &base, &power)) {
		return FALSE;
	}

	/* value = mant * 10^-frac_digits * base^power * 1000 */
	__int128 num = mant;
	__int128 den = 1;
	for (int i = 0; i < frac_digits; i++) {
		den *= 10;
	}
	if (base == 2) {
		num <<= power;
	} else if (power >= 0) {
		for (int i = 0; i < power; i++) {
			num *= 10;
			if (num > LIMIT * den * 10) {
				return FALSE;
			}
		}
	} else {
		for (int i = 0; i < -power; i++) {
			den *= 10;
		}
	}
	num *= 1000;
	__int128 q = num / den;
	if (num % den != 0) {
		q++; /* round up, as MilliValue */
	}
	if (q > LIMIT) {
		return FALSE;
	}
	*out = negative ? -(DraMilli)q : (DraMilli)q;
	return TRUE;
}

char *
dra_milli_format(DraMilli value)
{
	static const char *const bin[] = { "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };

	if (value % 1000 != 0) {
		return g_strdup_printf("%" G_GINT64_FORMAT "m", value);
	}
	gint64 v = value / 1000;
	if (v != 0 && v % 1024 == 0) {
		int i = -1;
		while (v % 1024 == 0 && i < 5) {
			v /= 1024;
			i++;
		}
		return g_strdup_printf("%" G_GINT64_FORMAT "%s", v, bin[i]);
	}
	return g_strdup_printf("%" G_GINT64_FORMAT, v);
}
