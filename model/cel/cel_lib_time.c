/*
 * cel_lib_time.c: timestamps and durations (cel-go common/types/timestamp.go,
 * duration.go). A timestamp is seconds + nanos in 0001-01-01..9999-12-31 UTC;
 * a duration is Go's time.Duration (int64 nanoseconds), as in cel-go, so
 * results that leave those ranges are "range" errors. Time zones for the
 * accessors come from GTimeZone (IANA names from /usr/share/zoneinfo, or
 * "[+-]HH:MM" offsets), cached by name.
 */
#include <string.h>

#include "cel-private.h"

#define FN(name) static CelValue name(CelActivation *act, const CelValue *a, guint n)

#define MIN_SECONDS (-62135596800LL) /* 0001-01-01T00:00:00Z */
#define MAX_SECONDS (253402300799LL) /* 9999-12-31T23:59:59Z */
#define NS_PER_S    1000000000LL

void cel_time__format_timestamp(GString *out, gint64 seconds, guint32 nanos);
void cel_time__format_duration(GString *out, gint64 nanos);

/* days since 1970-01-01 for a proleptic Gregorian date (H. Hinnant) */
static gint64
days_from_civil(gint64 y, guint m, guint d)
{
	y -= m <= 2;
	gint64 era = (y >= 0 ? y : y - 399) / 400;
	guint yoe = (guint)(y - era * 400);
	guint doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	guint doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (gint64)doe - 719468;
}

static void
civil_from_days(gint64 z, gint64 *y, guint *m, guint *d)
{
	z += 719468;
	gint64 era = (z >= 0 ? z : z - 146096) / 146097;
	guint doe = (guint)(z - era * 146097);
	guint yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	gint64 yy = (gint64)yoe + era * 400;
	guint doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	guint mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = yy + (*m <= 2);
}

static gint64
floor_div(gint64 a, gint64 b)
{
	gint64 q = a / b;
	return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

void
cel_time__format_timestamp(GString *out, gint64 seconds, guint32 nanos)
{
	gint64 days = floor_div(seconds, 86400);
	gint64 rem = seconds - days * 86400;
	gint64 y;
	guint m, d;
	civil_from_days(days, &y, &m, &d);
	g_string_append_printf(out, "%04" G_GINT64_FORMAT "-%02u-%02uT%02d:%02d:%02d", y, m, d,
	                       (int)(rem / 3600), (int)(rem / 60 % 60), (int)(rem % 60));
	if (nanos) {
		char frac[16];
		g_snprintf(frac, sizeof frac, "%09u", nanos);
		int len = 9;
		while (len > 0 && frac[len - 1] == '0') {
			len--;
		}
		g_string_append_printf(out, ".%.*s", len, frac);
	}
	g_string_append_c(out, 'Z');
}

/* strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s" */
void
cel_time__format_duration(GString *out, gint64 nanos)
{
	double s = (double)nanos / 1e9;
	char buf[64];
	for (int prec = 0; prec <= 20; prec++) {
		g_snprintf(buf, sizeof buf, "%.*f", prec, s);
		if (CEL_DOUBLE_EQ(g_ascii_strtod(buf, NULL), s)) {
			break;
		}
	}
	g_string_append(out, buf);
	g_string_append_c(out, 's');
}

static gboolean
digits(const char *s, gsize len, gsize at, int n, int *out)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (at + i >= len || !g_ascii_isdigit(s[at + i])) {
			return FALSE;
		}
		v = v * 10 + (s[at + i] - '0');
	}
	*out = v;
	return TRUE;
}

/* RFC 3339 as Go's time.Parse(time.RFC3339, s) accepts it. */
static gboolean
parse_rfc3339(const char *s, gsize len, gint64 *sec_out, guint32 *nanos_out)
{
	int y, mo, d, h, mi, se;
	if (!digits(s, len, 0, 4, &y) || len < 20 || s[4] != '-' || !digits(s, len, 5, 2, &mo) ||
	    s[7] != '-' || !digits(s, len, 8, 2, &d) || (s[10] != 'T' && s[10] != 't') ||
	    !digits(s, len, 11, 2, &h) || s[13] != ':' || !digits(s, len, 14, 2, &mi) ||
	    s[16] != ':' || !digits(s, len, 17, 2, &se)) {
		return FALSE;
	}
	gsize i = 19;
	guint32 nanos = 0;
	if (i < len && s[i] == '.') {
		i++;
		int nd = 0;
		while (i < len && g_ascii_isdigit(s[i])) {
			if (nd < 9) {
				nanos = nanos * 10 + (guint32)(s[i] - '0');
			}
			nd++;
			i++;
		}
		if (nd == 0) {
			return FALSE;
		}
		for (; nd < 9; nd++) {
			nanos *= 10;
		}
	}
	gint64 offset = 0;
	if (i < len && (s[i] == 'Z' || s[i] == 'z')) {
		i++;
	} else if (i < len && (s[i] == '+' || s[i] == '-')) {
		int oh, om;
		if (!digits(s, len, i + 1, 2, &oh) || i + 3 >= len || s[i + 3] != ':' ||
		    !digits(s, len, i + 4, 2, &om)) {
			return FALSE;
		}
		offset = (oh * 3600 + om * 60) * (s[i] == '-' ? -1 : 1);
		i += 6;
	} else {
		return FALSE;
	}
	if (i != len || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 59) {
		return FALSE;
	}
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	gboolean leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	if (d > mdays[mo - 1] || (mo == 2 && d == 29 && !leap)) {
		return FALSE;
	}
	*sec_out =
	        days_from_civil(y, (guint)mo, (guint)d) * 86400 + h * 3600 + mi * 60 + se - offset;
	*nanos_out = nanos;
	return TRUE;
}

static CelValue
timestamp_checked(gint64 sec, guint32 nanos)
{
	if (sec < MIN_SECONDS || sec > MAX_SECONDS) {
		return cel_value_error("timestamp out of range");
	}
	return cel_value_timestamp(sec, nanos);
}

FN(timestamp_from_string)
{
	gint64 sec;
	guint32 nanos;
	if (!parse_rfc3339(a[0].str, a[0].aux, &sec, &nanos)) {
		return cel_errorf(act, "type conversion error: invalid timestamp '%.*s'",
		                  (int)a[0].aux, a[0].str);
	}
	return timestamp_checked(sec, nanos);
}

FN(timestamp_from_int)
{
	return timestamp_checked(a[0].i, 0);
}

/* Go's time.ParseDuration. */
/* Nanoseconds per unit of Go's time.ParseDuration (ns, us, µs, μs, ms, s, m, h); 0 if none. */
static gint64
duration_unit(const char *u, gsize ul)
{
	static const struct {
		const char *name;
		gint64 ns;
	} units[] = {
		{ "ns", 1 },
		{ "us", 1000 },
		{ "\xc2\xb5s", 1000 }, /* U+00B5 micro sign */
		{ "\xce\xbcs", 1000 }, /* U+03BC Greek mu */
		{ "ms", 1000000 },
		{ "s", NS_PER_S },
		{ "m", 60 * NS_PER_S },
		{ "h", 3600 * NS_PER_S },
	};
	for (guint k = 0; k < G_N_ELEMENTS(units); k++) {
		if (strlen(units[k].name) == ul && memcmp(u, units[k].name, ul) == 0) {
			return units[k].ns;
		}
	}
	return 0;
}

static gboolean
parse_duration(const char *s, gsize len, gint64 *out)
{
	gsize i = 0;
	gboolean neg = FALSE;
	if (i < len && (s[i] == '-' || s[i] == '+')) {
		neg = s[i] == '-';
		i++;
	}
	if (len - i == 1 && s[i] == '0') {
		*out = 0;
		return TRUE;
	}
	if (i == len) {
		return FALSE;
	}
	/* accumulate in 128 bits of nanoseconds (as long double would lose precision) */
	__int128 total = 0;
	while (i < len) {
		__int128 whole = 0;
		gsize start = i;
		while (i < len && g_ascii_isdigit(s[i])) {
			whole = whole * 10 + (s[i] - '0');
			if (whole > ((__int128)1 << 80)) {
				return FALSE;
			}
			i++;
		}
		gboolean had_int = i > start;
		__int128 frac = 0, scale = 1;
		if (i < len && s[i] == '.') {
			i++;
			gsize fs = i;
			while (i < len && g_ascii_isdigit(s[i])) {
				if (scale < (__int128)1000000000000000000LL) {
					frac = frac * 10 + (s[i] - '0');
					scale *= 10;
				}
				i++;
			}
			if (!had_int && i == fs) {
				return FALSE;
			}
		} else if (!had_int) {
			return FALSE;
		}
		gsize us = i;
		while (i < len && s[i] != '.' && !g_ascii_isdigit(s[i])) {
			i++;
		}
		gint64 unit = duration_unit(s + us, i - us);
		if (unit == 0) {
			return FALSE;
		}
		total += whole * unit + frac * unit / scale;
		if (total > (__int128)G_MAXINT64 + 1) {
			return FALSE;
		}
	}
	if (neg) {
		total = -total;
	}
	if (total > G_MAXINT64 || total < G_MININT64) {
		return FALSE;
	}
	*out = (gint64)total;
	return TRUE;
}

FN(duration_from_string)
{
	gint64 ns;
	if (!parse_duration(a[0].str, a[0].aux, &ns)) {
		return cel_errorf(act, "type conversion error: invalid duration '%.*s' (range)",
		                  (int)a[0].aux, a[0].str);
	}
	return cel_value_duration(ns);
}

FN(identity)
{
	return a[0];
}

/* timestamp as total nanoseconds in 128 bits */
static __int128
ts_ns(CelValue t)
{
	return (__int128)t.i * NS_PER_S + t.aux;
}

static CelValue
ts_from_ns(__int128 ns)
{
	__int128 sec = ns / NS_PER_S;
	__int128 rem = ns % NS_PER_S;
	if (rem < 0) {
		rem += NS_PER_S;
		sec -= 1;
	}
	if (sec < MIN_SECONDS || sec > MAX_SECONDS) {
		return cel_value_error("timestamp out of range");
	}
	return cel_value_timestamp((gint64)sec, (guint32)rem);
}

static CelValue
dur_checked(__int128 ns)
{
	if (ns > G_MAXINT64 || ns < G_MININT64) {
		return cel_value_error("duration out of range");
	}
	return cel_value_duration((gint64)ns);
}

FN(add_ts_dur)
{
	return ts_from_ns(ts_ns(a[0]) + a[1].i);
}

FN(add_dur_ts)
{
	return ts_from_ns(ts_ns(a[1]) + a[0].i);
}

FN(add_dur_dur)
{
	return dur_checked((__int128)a[0].i + a[1].i);
}

FN(sub_ts_ts)
{
	return dur_checked(ts_ns(a[0]) - ts_ns(a[1]));
}

FN(sub_ts_dur)
{
	return ts_from_ns(ts_ns(a[0]) - a[1].i);
}

FN(sub_dur_dur)
{
	return dur_checked((__int128)a[0].i - a[1].i);
}

/* --- accessors ---------------------------------------------------------------- */

static GMutex tz_lock;
static GHashTable *tz_cache;

/* Offset in seconds of zone @name at @utc_seconds; FALSE for an unknown zone. */
static gboolean
zone_offset(const char *name, gsize len, gint64 utc_seconds, gint64 *offset)
{
	g_autofree char *z = g_strndup(name, len);
	/* cel-go accepts "[+-]HH:MM" and "HH:MM" */
	int sign = 1;
	const char *p = z;
	if (*p == '+' || *p == '-') {
		sign = *p == '-' ? -1 : 1;
		p++;
	}
	if (strlen(p) == 5 && g_ascii_isdigit(p[0]) && g_ascii_isdigit(p[1]) && p[2] == ':' &&
	    g_ascii_isdigit(p[3]) && g_ascii_isdigit(p[4])) {
		*offset = sign * (((p[0] - '0') * 10 + (p[1] - '0')) * 3600 +
		                  ((p[3] - '0') * 10 + (p[4] - '0')) * 60);
		return TRUE;
	}
	g_mutex_lock(&tz_lock);
	if (tz_cache == NULL) {
		tz_cache = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
		                                 (GDestroyNotify)g_time_zone_unref);
	}
	GTimeZone *tz = g_hash_table_lookup(tz_cache, z);
	if (tz == NULL) {
		tz = g_time_zone_new_identifier(z);
		if (tz != NULL) {
			g_hash_table_insert(tz_cache, g_strdup(z), tz);
		}
	}
	if (tz == NULL) {
		g_mutex_unlock(&tz_lock);
		return FALSE;
	}
	gint interval = g_time_zone_find_interval(tz, G_TIME_TYPE_UNIVERSAL, utc_seconds);
	*offset = interval < 0 ? 0 : g_time_zone_get_offset(tz, interval);
	g_mutex_unlock(&tz_lock);
	return TRUE;
}

typedef enum {
	PART_YEAR,
	PART_MONTH,
	PART_DATE,
	PART_DAY_OF_MONTH,
	PART_DAY_OF_WEEK,
	PART_DAY_OF_YEAR,
	PART_HOURS,
	PART_MINUTES,
	PART_SECONDS,
	PART_MILLIS,
} Part;

static CelValue
ts_part(CelActivation *act, const CelValue *a, guint n, Part part)
{
	gint64 sec = a[0].i;
	if (n == 2) {
		gint64 off;
		if (!zone_offset(a[1].str, a[1].aux, sec, &off)) {
			return cel_errorf(act, "unknown time zone '%.*s'", (int)a[1].aux, a[1].str);
		}
		sec += off;
	}
	gint64 days = floor_div(sec, 86400);
	gint64 rem = sec - days * 86400;
	gint64 y;
	guint m, d;
	civil_from_days(days, &y, &m, &d);
	switch (part) {
	case PART_YEAR:
		return cel_value_int(y);
	case PART_MONTH:
		return cel_value_int(m - 1);
	case PART_DATE:
		return cel_value_int(d);
	case PART_DAY_OF_MONTH:
		return cel_value_int(d - 1);
	case PART_DAY_OF_WEEK:
		return cel_value_int(((days % 7) + 11) % 7); /* 1970-01-01 was a Thursday */
	case PART_DAY_OF_YEAR:
		return cel_value_int(days - days_from_civil(y, 1, 1));
	case PART_HOURS:
		return cel_value_int(rem / 3600);
	case PART_MINUTES:
		return cel_value_int(rem / 60 % 60);
	case PART_SECONDS:
		return cel_value_int(rem % 60);
	case PART_MILLIS:
		return cel_value_int(a[0].aux / 1000000);
	}
	return cel_value_error("invalid part");
}

#define TS_PART(fname, part)                                                                       \
	FN(fname)                                                                                  \
	{                                                                                          \
		return ts_part(act, a, n, part);                                                   \
	}

TS_PART(ts_year, PART_YEAR)
TS_PART(ts_month, PART_MONTH)
TS_PART(ts_date, PART_DATE)
TS_PART(ts_day_of_month, PART_DAY_OF_MONTH)
TS_PART(ts_day_of_week, PART_DAY_OF_WEEK)
TS_PART(ts_day_of_year, PART_DAY_OF_YEAR)
TS_PART(ts_hours, PART_HOURS)
TS_PART(ts_minutes, PART_MINUTES)
TS_PART(ts_seconds, PART_SECONDS)
TS_PART(ts_millis, PART_MILLIS)

FN(dur_hours)
{
	return cel_value_int(a[0].i / (3600 * NS_PER_S));
}

FN(dur_minutes)
{
	return cel_value_int(a[0].i / (60 * NS_PER_S));
}

FN(dur_seconds)
{
	return cel_value_int(a[0].i / NS_PER_S);
}

FN(dur_millis)
{
	return cel_value_int((a[0].i / 1000000) % 1000);
}

#define TS_ROWS(fn, idbase, impl)                                                                  \
	{ fn, "timestamp_to_" idbase, CEL_RECEIVER, "timestamp -> int", impl, NULL },              \
	{                                                                                          \
		fn, "timestamp_to_" idbase "_with_tz", CEL_RECEIVER, "timestamp, string -> int",   \
		        impl, NULL                                                                 \
	}

static const CelOverload time_overloads[] = {
	{ "timestamp", "string_to_timestamp", CEL_GLOBAL, "string -> timestamp",
	  timestamp_from_string, NULL },
	{ "timestamp", "int64_to_timestamp", CEL_GLOBAL, "int -> timestamp", timestamp_from_int,
	  NULL },
	{ "timestamp", "timestamp_to_timestamp", CEL_GLOBAL, "timestamp -> timestamp", identity,
	  NULL },
	{ "duration", "string_to_duration", CEL_GLOBAL, "string -> duration", duration_from_string,
	  NULL },
	{ "duration", "duration_to_duration", CEL_GLOBAL, "duration -> duration", identity, NULL },
	{ "_+_", "add_timestamp_duration", CEL_GLOBAL, "timestamp, duration -> timestamp",
	  add_ts_dur, NULL },
	{ "_+_", "add_duration_timestamp", CEL_GLOBAL, "duration, timestamp -> timestamp",
	  add_dur_ts, NULL },
	{ "_+_", "add_duration_duration", CEL_GLOBAL, "duration, duration -> duration", add_dur_dur,
	  NULL },
	{ "_-_", "subtract_timestamp_timestamp", CEL_GLOBAL, "timestamp, timestamp -> duration",
	  sub_ts_ts, NULL },
	{ "_-_", "subtract_timestamp_duration", CEL_GLOBAL, "timestamp, duration -> timestamp",
	  sub_ts_dur, NULL },
	{ "_-_", "subtract_duration_duration", CEL_GLOBAL, "duration, duration -> duration",
	  sub_dur_dur, NULL },
	TS_ROWS("getFullYear", "year", ts_year),
	TS_ROWS("getMonth", "month", ts_month),
	TS_ROWS("getDate", "day_of_month_1_based", ts_date),
	TS_ROWS("getDayOfMonth", "day_of_month", ts_day_of_month),
	TS_ROWS("getDayOfWeek", "day_of_week", ts_day_of_week),
	TS_ROWS("getDayOfYear", "day_of_year", ts_day_of_year),
	TS_ROWS("getHours", "hours", ts_hours),
	TS_ROWS("getMinutes", "minutes", ts_minutes),
	TS_ROWS("getSeconds", "seconds", ts_seconds),
	TS_ROWS("getMilliseconds", "milliseconds", ts_millis),
	{ "getHours", "duration_to_hours", CEL_RECEIVER, "duration -> int", dur_hours, NULL },
	{ "getMinutes", "duration_to_minutes", CEL_RECEIVER, "duration -> int", dur_minutes, NULL },
	{ "getSeconds", "duration_to_seconds", CEL_RECEIVER, "duration -> int", dur_seconds, NULL },
	{ "getMilliseconds", "duration_to_milliseconds", CEL_RECEIVER, "duration -> int",
	  dur_millis, NULL },
};

void
cel_lib_time_register(CelEnv *env)
{
	cel_env_add_overloads(env, time_overloads, G_N_ELEMENTS(time_overloads));
}
