/*
 * cel_lib_k8s_semver.c: semantic versions as the Kubernetes semver CEL library sees them.
 *
 * Parsing and precedence follow blang/semver/v4 (Parse, Version.Compare), which
 * k8s.io/apiserver/pkg/cel/library/semverlib.go calls; the optional normaliser is that
 * file's normalizeAndParse. Messages are blang's, word for word, because users match on
 * them. No heap: parts are byte ranges of the parsed text.
 */
#include <string.h>

#include "cel_lib_k8s.h"

static const char semver_alphanum[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-"
                                      "0123456789";

static gboolean
only_digits(const char *s, gsize len)
{
	for (gsize i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9') {
			return FALSE;
		}
	}
	return TRUE;
}

static gboolean
only_alphanum(const char *s, gsize len)
{
	for (gsize i = 0; i < len; i++) {
		if (s[i] == '\0' || strchr(semver_alphanum, s[i]) == NULL) {
			return FALSE;
		}
	}
	return TRUE;
}

static gboolean
leading_zero(const char *s, gsize len)
{
	return len > 1 && s[0] == '0';
}

/* strconv.ParseUint(s, 10, 64) on a digits-only string; Go's messages. */
static gboolean
parse_u64(const char *s, gsize len, guint64 *out, char *err)
{
	char quoted[CEL_K8S_ERRBUF / 2];
	guint64 v = 0;

	if (len == 0) {
		cel_k8s_go_quote(quoted, sizeof quoted, s, len);
		g_snprintf(err, CEL_K8S_ERRBUF, "strconv.ParseUint: parsing %s: invalid syntax",
		           quoted);
		return FALSE;
	}
	for (gsize i = 0; i < len; i++) {
		guint digit = (guint)(s[i] - '0');
		if (v > (G_MAXUINT64 - digit) / 10) {
			cel_k8s_go_quote(quoted, sizeof quoted, s, len);
			g_snprintf(err, CEL_K8S_ERRBUF,
			           "strconv.ParseUint: parsing %s: value out of range", quoted);
			return FALSE;
		}
		v = v * 10 + digit;
	}
	*out = v;
	return TRUE;
}

static gboolean
number_part(const char *s, gsize len, const char *what, const char *What, guint64 *out, char *err)
{
	char quoted[CEL_K8S_ERRBUF / 2];

	if (!only_digits(s, len)) {
		cel_k8s_go_quote(quoted, sizeof quoted, s, len);
		g_snprintf(err, CEL_K8S_ERRBUF, "Invalid character(s) found in %s number %s", what,
		           quoted);
		return FALSE;
	}
	if (leading_zero(s, len)) {
		cel_k8s_go_quote(quoted, sizeof quoted, s, len);
		g_snprintf(err, CEL_K8S_ERRBUF, "%s number must not contain leading zeroes %s",
		           What, quoted);
		return FALSE;
	}
	return parse_u64(s, len, out, err);
}

/* blang's "<message> <quoted text>" error; returns FALSE for the caller to pass on. */
static gboolean
fail_quoted(char *err, const char *message, const char *s, gsize len)
{
	char quoted[CEL_K8S_ERRBUF / 2];

	cel_k8s_go_quote(quoted, sizeof quoted, s, len);
	g_snprintf(err, CEL_K8S_ERRBUF, "%s %s", message, quoted);
	return FALSE;
}

/* One prerelease identifier, as blang NewPRVersion validates it. */
static gboolean
check_prerelease(const char *s, gsize len, char *err)
{
	guint64 ignored;

	if (len == 0) {
		g_strlcpy(err, "Prerelease is empty", CEL_K8S_ERRBUF);
		return FALSE;
	}
	if (only_digits(s, len)) {
		if (leading_zero(s, len)) {
			return fail_quoted(
			        err, "Numeric PreRelease version must not contain leading zeroes",
			        s, len);
		}
		return parse_u64(s, len, &ignored, err);
	}
	return only_alphanum(s, len) ||
	       fail_quoted(err, "Invalid character(s) found in prerelease", s, len);
}

static gboolean
check_build(const char *s, gsize len, char *err)
{
	if (len == 0) {
		g_strlcpy(err, "Build meta data is empty", CEL_K8S_ERRBUF);
		return FALSE;
	}
	return only_alphanum(s, len) ||
	       fail_quoted(err, "Invalid character(s) found in build meta data", s, len);
}

/* Calls @check on each '.'-separated field of [s, s+len). */
static gboolean
each_field(const char *s, gsize len, gboolean (*check)(const char *, gsize, char *), char *err)
{
	gsize start = 0;
	for (gsize i = 0; i <= len; i++) {
		if (i == len || s[i] == '.') {
			if (!check(s + start, i - start, err)) {
				return FALSE;
			}
			start = i + 1;
		}
	}
	return TRUE;
}

static const char *
memchr_or_end(const char *s, char c, gsize len)
{
	const char *p = memchr(s, c, len);
	return p != NULL ? p : s + len;
}

/* blang semver.Parse. */
static gboolean
semver_parse_strict(CelSemver *out, const char *s, gsize len, char *err)
{
	const char *end = s + len;

	if (len == 0) {
		g_strlcpy(err, "Version string empty", CEL_K8S_ERRBUF);
		return FALSE;
	}
	const char *dot1 = memchr_or_end(s, '.', len);
	const char *dot2 = dot1 < end ? memchr_or_end(dot1 + 1, '.', (gsize)(end - dot1 - 1)) : end;
	if (dot1 == end || dot2 == end) {
		g_strlcpy(err, "No Major.Minor.Patch elements found", CEL_K8S_ERRBUF);
		return FALSE;
	}
	if (!number_part(s, (gsize)(dot1 - s), "major", "Major", &out->major, err) ||
	    !number_part(dot1 + 1, (gsize)(dot2 - dot1 - 1), "minor", "Minor", &out->minor, err)) {
		return FALSE;
	}

	/* The third part is patch[-pre][+build]; '+' is found first, as blang does. */
	const char *rest = dot2 + 1;
	const char *plus = memchr_or_end(rest, '+', (gsize)(end - rest));
	const char *dash = memchr_or_end(rest, '-', (gsize)(plus - rest));
	if (!number_part(rest, (gsize)(dash - rest), "patch", "Patch", &out->patch, err)) {
		return FALSE;
	}
	if (dash < plus && !each_field(dash + 1, (gsize)(plus - dash - 1), check_prerelease, err)) {
		return FALSE;
	}
	if (plus < end && !each_field(plus + 1, (gsize)(end - plus - 1), check_build, err)) {
		return FALSE;
	}
	out->suffix = dash;
	out->suffix_len = (guint32)(end - dash);
	out->pre_len = dash < plus ? (guint32)(plus - dash - 1) : 0;
	return TRUE;
}

/* Appends one normalised part (semverlib.go normalizeAndParse) to @buf at *pos. */
static void
normalize_part(const char *p, gsize len, char *buf, gsize *pos)
{
	if (len > 1) {
		gsize skip = 0;
		while (skip < len && p[skip] == '0') {
			skip++;
		}
		if (skip == len || p[skip] < '0' || p[skip] > '9') {
			buf[(*pos)++] = '0';
		}
		p += skip;
		len -= skip;
	}
	memcpy(buf + *pos, p, len);
	*pos += len;
}

gboolean
cel_semver_parse(
        CelSemver *out, const char *s, gsize len, gboolean normalize, char *norm_buf, char *err)
{
	g_return_val_if_fail(out != NULL && err != NULL, FALSE);
	if (!normalize) {
		return semver_parse_strict(out, s, len, err);
	}
	g_return_val_if_fail(norm_buf != NULL, FALSE);

	if (len > 0 && s[0] == 'v') {
		s++;
		len--;
	}
	/* Split into at most three parts: major, minor, and the rest. */
	const char *parts[3];
	gsize lens[3];
	guint n = 0;
	const char *end = s + len;
	const char *p = s;
	while (n < 2) {
		const char *dot = memchr_or_end(p, '.', (gsize)(end - p));
		parts[n] = p;
		lens[n] = (gsize)(dot - p);
		n++;
		if (dot == end) {
			break;
		}
		p = dot + 1;
	}
	if (n == 2 && parts[1] + lens[1] < end) {
		parts[2] = parts[1] + lens[1] + 1;
		lens[2] = (gsize)(end - parts[2]);
		n = 3;
	}

	gsize pos = 0;
	for (guint i = 0; i < n; i++) {
		if (i > 0) {
			norm_buf[pos++] = '.';
		}
		gsize before = pos;
		normalize_part(parts[i], lens[i], norm_buf, &pos);
		if (i == n - 1 && n < 3 &&
		    (memchr(norm_buf + before, '+', pos - before) != NULL ||
		     memchr(norm_buf + before, '-', pos - before) != NULL)) {
			g_strlcpy(err, "short version cannot contain PreRelease/Build meta data",
			          CEL_K8S_ERRBUF);
			return FALSE;
		}
	}
	for (guint i = n; i < 3; i++) {
		memcpy(norm_buf + pos, ".0", 2);
		pos += 2;
	}
	norm_buf[pos] = '\0';
	return semver_parse_strict(out, norm_buf, pos, err);
}

/* Compares one prerelease identifier each (blang PRVersion.Compare). */
static int
compare_identifier(const char *a, gsize alen, const char *b, gsize blen)
{
	gboolean anum = only_digits(a, alen);
	gboolean bnum = only_digits(b, blen);

	if (anum != bnum) {
		return anum ? -1 : 1;
	}
	if (anum) {
		/* No leading zeros (checked at parse), so the longer number is larger. */
		if (alen != blen) {
			return alen < blen ? -1 : 1;
		}
		int c = memcmp(a, b, alen);
		return c < 0 ? -1 : c > 0;
	}
	int c = memcmp(a, b, MIN(alen, blen));
	if (c != 0) {
		return c < 0 ? -1 : 1;
	}
	return alen == blen ? 0 : (alen < blen ? -1 : 1);
}

static int
compare_u64(guint64 a, guint64 b)
{
	return a == b ? 0 : (a < b ? -1 : 1);
}

int
cel_semver_compare(const CelSemver *a, const CelSemver *b)
{
	int c = compare_u64(a->major, b->major);
	if (c == 0) {
		c = compare_u64(a->minor, b->minor);
	}
	if (c == 0) {
		c = compare_u64(a->patch, b->patch);
	}
	if (c != 0) {
		return c;
	}
	if (a->pre_len == 0 || b->pre_len == 0) {
		/* A version without prerelease ranks above one with it. */
		return a->pre_len == b->pre_len ? 0 : (a->pre_len == 0 ? 1 : -1);
	}

	const char *pa = a->suffix + 1, *ea = pa + a->pre_len;
	const char *pb = b->suffix + 1, *eb = pb + b->pre_len;
	for (;;) {
		const char *da = memchr_or_end(pa, '.', (gsize)(ea - pa));
		const char *db = memchr_or_end(pb, '.', (gsize)(eb - pb));
		c = compare_identifier(pa, (gsize)(da - pa), pb, (gsize)(db - pb));
		if (c != 0) {
			return c;
		}
		gboolean a_done = da == ea, b_done = db == eb;
		if (a_done || b_done) {
			/* The one with more identifiers ranks higher. */
			return a_done == b_done ? 0 : (a_done ? -1 : 1);
		}
		pa = da + 1;
		pb = db + 1;
	}
}

gsize
cel_semver_format(const CelSemver *v, char *out, gsize size)
{
	int n = g_snprintf(out, size,
	                   "%" G_GUINT64_FORMAT ".%" G_GUINT64_FORMAT ".%" G_GUINT64_FORMAT "%.*s",
	                   v->major, v->minor, v->patch, (int)v->suffix_len, v->suffix);
	return n < 0 ? 0 : MIN((gsize)n, size > 0 ? size - 1 : 0);
}

/* ---- the CEL binding: kubernetes.Semver values and the semver library's overloads ---- */

static gboolean
semver_obj_equal(const CelObject *a, const CelObject *b)
{
	return cel_semver_compare(&((const CelSemverObj *)a)->v, &((const CelSemverObj *)b)->v) ==
	       0;
}

static void
semver_obj_print(GString *out, const CelObject *self)
{
	char buf[CEL_K8S_ERRBUF];
	cel_semver_format(&((const CelSemverObj *)self)->v, buf, sizeof buf);
	g_string_append_printf(out, "semver(\"%s\")", buf);
}

const CelObjectClass cel_semver_class = {
	.type_name = "kubernetes.Semver",
	.select = NULL,
	.equal = semver_obj_equal,
	.print = semver_obj_print,
	.go_type_name = "cel.Semver",
};

CelValue
cel_semver_value(CelActivation *act, const CelSemver *v)
{
	CelSemverObj *obj = cel_activation_alloc(act, sizeof *obj);
	obj->base.klass = &cel_semver_class;
	obj->v = *v;
	return cel_value_object(&obj->base);
}

const CelSemver *
cel_semver_of(CelValue v)
{
	if (v.kind != CEL_KIND_OBJECT || v.obj->klass != &cel_semver_class) {
		return NULL;
	}
	return &((const CelSemverObj *)v.obj)->v;
}

/* Parses the argument of semver() or isSemver(), normalising when the second one says so. */
static gboolean
parse_argument(CelActivation *act, const CelValue *args, guint nargs, CelSemver *v, char *err)
{
	gboolean normalize = nargs > 1 && args[1].b;
	gsize len = args[0].aux;
	char *buf = normalize ? cel_activation_alloc(act, len + 8) : NULL;

	return cel_semver_parse(v, args[0].str, len, normalize, buf, err);
}

/*
 * semver(s[, normalize]): the value borrows the argument's text (which lives at least as long
 * as the evaluation, or the program for a folded constant); normalising writes a new text.
 */
static CelValue
semver_from_string(CelActivation *act, const CelValue *args, guint nargs)
{
	char err[CEL_K8S_ERRBUF];
	CelSemver v;

	if (!parse_argument(act, args, nargs, &v, err)) {
		return cel_errorf(act, "%s", err);
	}
	return cel_semver_value(act, &v);
}

static CelValue
semver_is_semver(CelActivation *act, const CelValue *args, guint nargs)
{
	char err[CEL_K8S_ERRBUF];
	CelSemver v;

	return cel_value_bool(parse_argument(act, args, nargs, &v, err));
}

static CelValue
semver_compare_to(CelActivation *act, const CelValue *args, guint nargs)
{
	return cel_value_int(cel_semver_compare(cel_semver_of(args[0]), cel_semver_of(args[1])));
}

static CelValue
semver_is_greater_than(CelActivation *act, const CelValue *args, guint nargs)
{
	return cel_value_bool(cel_semver_compare(cel_semver_of(args[0]), cel_semver_of(args[1])) ==
	                      1);
}

static CelValue
semver_is_less_than(CelActivation *act, const CelValue *args, guint nargs)
{
	return cel_value_bool(cel_semver_compare(cel_semver_of(args[0]), cel_semver_of(args[1])) ==
	                      -1);
}

/* blang keeps uint64 parts; upstream converts with types.Int(v.Major), which wraps. */
static CelValue
semver_major(CelActivation *act, const CelValue *args, guint nargs)
{
	return cel_value_int((gint64)cel_semver_of(args[0])->major);
}

static CelValue
semver_minor(CelActivation *act, const CelValue *args, guint nargs)
{
	return cel_value_int((gint64)cel_semver_of(args[0])->minor);
}

static CelValue
semver_patch(CelActivation *act, const CelValue *args, guint nargs)
{
	return cel_value_int((gint64)cel_semver_of(args[0])->patch);
}

/* Overload ids are upstream's (semverlib.go); the cost model keys on function names. */
static const CelOverload semver_overloads_v0[] = {
	{ "semver", "string_to_semver", CEL_GLOBAL, "string -> kubernetes.Semver",
	  semver_from_string, NULL },
	{ "isSemver", "is_semver_string", CEL_GLOBAL, "string -> bool", semver_is_semver, NULL },
	{ "isGreaterThan", "semver_is_greater_than", CEL_RECEIVER,
	  "kubernetes.Semver, kubernetes.Semver -> bool", semver_is_greater_than, NULL },
	{ "isLessThan", "semver_is_less_than", CEL_RECEIVER,
	  "kubernetes.Semver, kubernetes.Semver -> bool", semver_is_less_than, NULL },
	{ "compareTo", "semver_compare_to", CEL_RECEIVER,
	  "kubernetes.Semver, kubernetes.Semver -> int", semver_compare_to, NULL },
	{ "major", "semver_major", CEL_RECEIVER, "kubernetes.Semver -> int", semver_major, NULL },
	{ "minor", "semver_minor", CEL_RECEIVER, "kubernetes.Semver -> int", semver_minor, NULL },
	{ "patch", "semver_patch", CEL_RECEIVER, "kubernetes.Semver -> int", semver_patch, NULL },
};

static const CelOverload semver_overloads_v1[] = {
	{ "semver", "string_bool_to_semver", CEL_GLOBAL, "string, bool -> kubernetes.Semver",
	  semver_from_string, NULL },
	{ "isSemver", "is_semver_string_bool", CEL_GLOBAL, "string, bool -> bool", semver_is_semver,
	  NULL },
};

void
cel_lib_k8s_semver_register(CelEnv *env, guint version)
{
	cel_type_register_opaque(cel_semver_class.type_name, &cel_semver_class);
	cel_env_add_overloads(env, semver_overloads_v0, G_N_ELEMENTS(semver_overloads_v0));
	if (version >= 1) {
		cel_env_add_overloads(env, semver_overloads_v1, G_N_ELEMENTS(semver_overloads_v1));
	}
}
