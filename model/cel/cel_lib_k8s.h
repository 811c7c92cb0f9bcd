/*
 * cel_lib_k8s.h: the value-level core of the Kubernetes CEL libraries (semver, URL, regex,
 * named formats), independent of the CEL value representation.
 *
 * Internal to model/cel. Every function here works on borrowed byte ranges and writes
 * error text into a caller-supplied buffer, so the evaluator can call them on a hot path
 * without touching the heap. The CEL bindings live in cel_lib_k8s_*.c beside this header.
 */
#pragma once

#include <stdint.h>

#include <glib.h>

#include "cel-private.h"
#include "k8s_quantity.h"

G_BEGIN_DECLS

/* Room for one runtime error message; messages longer than this are truncated. */
#define CEL_K8S_ERRBUF 256

/*
 * cel_k8s_go_quote:
 * Appends Go's strconv.Quote form of @s (upstream messages print inputs with %q) to @out,
 * which holds @size bytes and stays NUL-terminated. Returns the length written.
 */
gsize cel_k8s_go_quote(char *out, gsize size, const char *s, gsize len);

/* ---- semver (k8s.io/apiserver/pkg/cel/library/semverlib.go over blang/semver/v4) ---- */

/**
 * CelSemver:
 * A parsed semantic version. @suffix points at the "-pre+build" tail of the parsed text
 * (borrowed: it lives as long as the string that was parsed, or the normalisation buffer);
 * @pre_len bytes of it after the '-' are the prerelease, the rest is build metadata, which
 * never takes part in comparisons (semver 2.0.0 rule 10).
 */
typedef struct {
	guint64 major;
	guint64 minor;
	guint64 patch;
	const char *suffix; /* "-rc.1+build.5", "+b", or "" */
	guint32 suffix_len;
	guint32 pre_len; /* bytes of the prerelease, without the '-'; 0 when there is none */
} CelSemver;

/*
 * cel_semver_parse:
 * Parses @s (@len bytes) as blang semver.Parse does. With @normalize, first applies the k8s
 * normaliser (strip one leading "v", strip leading zeros, fill "1" -> "1.0.0"); the
 * normalised text is written to @norm_buf (at least @len + 8 bytes), which must then
 * outlive @out. On failure returns FALSE with blang's message (e.g. "No Major.Minor.Patch
 * elements found") in @err (CEL_K8S_ERRBUF bytes).
 */
gboolean cel_semver_parse(
        CelSemver *out, const char *s, gsize len, gboolean normalize, char *norm_buf, char *err);

/* Precedence order as blang Version.Compare: -1, 0 or 1. Build metadata is ignored. */
int cel_semver_compare(const CelSemver *a, const CelSemver *b);

/* Writes blang's Version.String() form into @out (@size bytes). Returns the length. */
gsize cel_semver_format(const CelSemver *v, char *out, gsize size);

/* ---- URL (k8s.io/apiserver/pkg/cel/library/urls.go over Go net/url) ---- */

/*
 * CelUrl: the parts of a Go url.URL that the k8s url library exposes, as byte ranges of
 * the parsed text (borrowed). A part that is absent has len 0. @path is the escaped path
 * as written (the k8s getEscapedPath returns EscapedPath(), which equals RawPath or the
 * written path when it is a valid encoding).
 */
typedef struct {
	const char *scheme;
	guint32 scheme_len;
	const char *host; /* host[:port], as written, after any userinfo */
	guint32 host_len;
	const char *path;
	guint32 path_len;
	const char *query; /* after '?', without the fragment */
	guint32 query_len;
	gboolean has_query;
} CelUrl;

/*
 * cel_url_parse:
 * Parses @s as Go's url.ParseRequestURI (the form the k8s url() and isURL() use): an
 * absolute URI or an absolute path, no fragment. Returns FALSE with Go's message in @err.
 */
gboolean cel_url_parse(CelUrl *out, const char *s, gsize len, char *err);

/* getHostname(): host without port and without IPv6 brackets. */
void cel_url_hostname(const CelUrl *url, const char **ptr, gsize *len);
/* getPort(): the port after the last ':' of the host, or empty. */
void cel_url_port(const CelUrl *url, const char **ptr, gsize *len);

/*
 * cel_url_escaped_path:
 * getEscapedPath(): Go's URL.EscapedPath() into @out (at least 3 * path_len + 1 bytes).
 * Returns the length.
 */
gsize cel_url_escaped_path(const CelUrl *url, char *out);

/*
 * cel_url_unescape:
 * Go url.QueryUnescape of @s into @out (at least @len bytes). Returns FALSE on a bad escape.
 */
gboolean cel_url_unescape(const char *s, gsize len, char *out, gsize *out_len);

/* ---- regular expressions with RE2 syntax and semantics (re2_shim.cc) ---- */

typedef struct CelRegex CelRegex;

/*
 * cel_regex_compile:
 * Compiles @pattern with Go regexp (RE2) syntax. On failure returns NULL with Go's message,
 * "error parsing regexp: <what>: `<fragment>`", in @err.
 * Returns: (transfer full) (nullable): free with cel_regex_free().
 */
CelRegex *cel_regex_compile(const char *pattern, gsize len, char *err);
void cel_regex_free(CelRegex *re);
/* Unanchored search, as Go regexp.MatchString (CEL `matches`). */
gboolean cel_regex_match(const CelRegex *re, const char *text, gsize len);
/*
 * cel_regex_find:
 * Finds the leftmost match at or after byte @from, with the whole @text as context for ^,
 * $ and \b. Returns FALSE when there is none; else sets [*start, *end).
 */
gboolean cel_regex_find(
        const CelRegex *re, const char *text, gsize len, gsize from, gsize *start, gsize *end);

/*
 * CelRegexMatchFn: receives each match of cel_regex_find_all(); return FALSE to stop.
 */
typedef gboolean (*CelRegexMatchFn)(const char *match, gsize len, gpointer user_data);

/*
 * cel_regex_find_all:
 * Go's FindAllString(text, n): successive non-overlapping matches; an empty match right
 * after the previous match is skipped. @limit < 0 means no limit. Returns the count.
 */
gint64 cel_regex_find_all(const CelRegex *re,
                          const char *text,
                          gsize len,
                          gint64 limit,
                          CelRegexMatchFn fn,
                          gpointer user_data);

/* ---- named formats (k8s.io/apiserver/pkg/cel/library/format.go) ---- */

typedef enum {
	CEL_FORMAT_DNS1123_LABEL,
	CEL_FORMAT_DNS1123_SUBDOMAIN,
	CEL_FORMAT_DNS1035_LABEL,
	CEL_FORMAT_QUALIFIED_NAME,
	CEL_FORMAT_DNS1123_LABEL_PREFIX,
	CEL_FORMAT_DNS1123_SUBDOMAIN_PREFIX,
	CEL_FORMAT_DNS1035_LABEL_PREFIX,
	CEL_FORMAT_LABEL_VALUE,
	CEL_FORMAT_URI,
	CEL_FORMAT_UUID,
	CEL_FORMAT_BYTE,
	CEL_FORMAT_DATE,
	CEL_FORMAT_DATETIME,
	CEL_FORMAT__COUNT,
} CelFormatKind;

/* The CEL name of a format, e.g. "dns1123Label" (as in format.dns1123Label()). */
const char *cel_format_name(CelFormatKind kind);
/* Looks up a format by its CEL name; returns FALSE when unknown. */
gboolean cel_format_lookup(const char *name, gsize len, CelFormatKind *out);

/*
 * CelFormatErrorFn: receives each validation message, in upstream order.
 */
typedef void (*CelFormatErrorFn)(const char *message, gpointer user_data);

/*
 * cel_format_validate:
 * Runs the validator behind format.<name>().validate(@s). Each message is passed to @fn
 * (which may be NULL). Returns the number of messages: 0 means valid.
 */
guint cel_format_validate(
        CelFormatKind kind, const char *s, gsize len, CelFormatErrorFn fn, gpointer user_data);

/* ---- CEL bindings (cel_lib_k8s_*.c), on top of cel-private.h ---- */

/* kubernetes.Semver values. */
typedef struct {
	CelObject base; /* klass: &cel_semver_class */
	CelSemver v;
} CelSemverObj;
extern const CelObjectClass cel_semver_class;

/* kubernetes.Quantity values; the K8sQuantity is held by value (no heap). */
typedef struct {
	CelObject base; /* klass: &cel_quantity_class */
	K8sQuantity q;
} CelQuantityObj;
extern const CelObjectClass cel_quantity_class;

CelValue cel_semver_value(CelActivation *act, const CelSemver *v);
/* The semver in @v, or NULL when @v is not a kubernetes.Semver. */
const CelSemver *cel_semver_of(CelValue v);
CelValue cel_quantity_value(CelActivation *act, const K8sQuantity *q);
const K8sQuantity *cel_quantity_of(CelValue v);

/* Registration of each library into an environment. */
void cel_lib_k8s_semver_register(CelEnv *env, guint version);
void cel_lib_k8s_quantity_register(CelEnv *env);
void cel_lib_k8s_urls_register(CelEnv *env);
void cel_lib_k8s_format_register(CelEnv *env);
void cel_lib_k8s_lists_register(CelEnv *env);
void cel_lib_k8s_sets_register(CelEnv *env);
void cel_lib_k8s_ip_register(CelEnv *env);
void cel_lib_regex_register(CelEnv *env);
/* `matches` (global and receiver), for environments whose core lacks it. */
void cel_lib_regex_register_matches(CelEnv *env);
/* Rewrite hook part: a call of matches/find/findAll with a constant pattern becomes a host
 * node holding the compiled pattern. Returns @node or its replacement. */
CelAst *cel_regex_rewrite(CelAst *node, BaseArena *arena);
gboolean cel_regex_host_is(const CelAst *node);
/* For a prepared `matches` host node: its text operand, pattern and regex cost factor. */
gboolean cel_regex_host_matches(const CelAst *node,
                                const CelAst **text,
                                const CelRegex **re,
                                guint64 *regex_cost);
/* cel-go ValidateRegexLiterals: "invalid matches argument" at the constant's position. */
gboolean cel_regex_validate(const CelAstTree *tree, const CelAst *node, GError **error);

G_END_DECLS
