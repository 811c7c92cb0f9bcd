/*
 * cel_lib_k8s_url.c: URL parsing for the Kubernetes url() CEL library.
 *
 * k8s.io/apiserver/pkg/cel/library/urls.go accepts a string when Go's url.ParseRequestURI
 * does, then reads the parts from url.Parse (which splits off the fragment). This file
 * follows net/url's parse(), parseAuthority() and parseHost() closely enough to accept
 * and reject the same strings, with the same messages ("parse %q: invalid URI for request").
 */
#include <string.h>

#include "cel_lib_k8s.h"

static gboolean
is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static gboolean
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int
unhex(char c)
{
	if (is_digit(c)) {
		return c - '0';
	}
	if (c >= 'a' && c <= 'f') {
		return c - 'a' + 10;
	}
	if (c >= 'A' && c <= 'F') {
		return c - 'A' + 10;
	}
	return -1;
}

/* Wraps @what as net/url's *url.Error: `parse "<url>": <what>`. */
static gboolean
fail(char *err, const char *s, gsize len, const char *what)
{
	char quoted[CEL_K8S_ERRBUF / 2];
	cel_k8s_go_quote(quoted, sizeof quoted, s, len);
	g_snprintf(err, CEL_K8S_ERRBUF, "parse %s: %s", quoted, what);
	return FALSE;
}

/* Characters a host may hold unescaped (net/url shouldEscape, encodeHost). */
static gboolean
host_char_ok(char c)
{
	return is_alpha(c) || is_digit(c) || strchr("-_.~!$&'()*+,;=:[]<>\"", c) != NULL;
}

static gboolean
userinfo_ok(const char *s, gsize len)
{
	for (gsize i = 0; i < len; i++) {
		char c = s[i];
		if (!is_alpha(c) && !is_digit(c) && strchr("-._:~!$&'()*+,;=%@", c) == NULL) {
			return FALSE;
		}
	}
	return TRUE;
}

/* validOptionalPort: empty, or ':' followed by digits only. */
static gboolean
port_ok(const char *s, gsize len)
{
	if (len == 0) {
		return TRUE;
	}
	if (s[0] != ':') {
		return FALSE;
	}
	for (gsize i = 1; i < len; i++) {
		if (!is_digit(s[i])) {
			return FALSE;
		}
	}
	return TRUE;
}

/* Percent escapes in a host (net/url unescape, encodeHost): only for non-ASCII or %25. */
static gboolean
host_escapes_ok(const char *s, gsize len, char *what)
{
	for (gsize i = 0; i < len; i++) {
		if (s[i] == '%') {
			if (i + 2 >= len || unhex(s[i + 1]) < 0 || unhex(s[i + 2]) < 0 ||
			    (unhex(s[i + 1]) < 8 && strncmp(s + i, "%25", 3) != 0)) {
				char quoted[32];
				cel_k8s_go_quote(quoted, sizeof quoted, s + i, MIN(3, len - i));
				g_snprintf(what, CEL_K8S_ERRBUF / 2, "invalid URL escape %s",
				           quoted);
				return FALSE;
			}
			i += 2;
		} else if ((guchar)s[i] < 0x80 && !host_char_ok(s[i])) {
			char quoted[16];
			cel_k8s_go_quote(quoted, sizeof quoted, s + i, 1);
			g_snprintf(what, CEL_K8S_ERRBUF / 2, "invalid character %s in host name",
			           quoted);
			return FALSE;
		}
	}
	return TRUE;
}

/* net/url parseHost: validates [v6]:port or name:port. */
static gboolean
host_ok(const char *h, gsize len, char *what)
{
	char quoted[CEL_K8S_ERRBUF / 4];

	if (len > 0 && h[0] == '[') {
		const char *close = memchr(h, ']', len);
		if (close == NULL) {
			g_strlcpy(what, "missing ']' in host", CEL_K8S_ERRBUF / 2);
			return FALSE;
		}
		gsize after = (gsize)(close + 1 - h);
		if (!port_ok(close + 1, len - after)) {
			cel_k8s_go_quote(quoted, sizeof quoted, close + 1, len - after);
			g_snprintf(what, CEL_K8S_ERRBUF / 2, "invalid port %s after host", quoted);
			return FALSE;
		}
		return TRUE;
	}
	const char *colon = g_strrstr_len(h, (gssize)len, ":");
	if (colon != NULL) {
		gsize off = (gsize)(colon - h);
		if (!port_ok(colon, len - off)) {
			cel_k8s_go_quote(quoted, sizeof quoted, colon, len - off);
			g_snprintf(what, CEL_K8S_ERRBUF / 2, "invalid port %s after host", quoted);
			return FALSE;
		}
	}
	return host_escapes_ok(h, len, what);
}

/* Percent escapes anywhere else must be well formed (net/url unescape). */
static gboolean
escapes_ok(const char *s, gsize len, char *what)
{
	for (gsize i = 0; i < len; i++) {
		if (s[i] != '%') {
			continue;
		}
		if (i + 2 >= len || unhex(s[i + 1]) < 0 || unhex(s[i + 2]) < 0) {
			char quoted[32];
			cel_k8s_go_quote(quoted, sizeof quoted, s + i, MIN(3, len - i));
			g_snprintf(what, CEL_K8S_ERRBUF / 2, "invalid URL escape %s", quoted);
			return FALSE;
		}
		i += 2;
	}
	return TRUE;
}

/*
 * Scheme per net/url getScheme: letters first, then letters, digits, "+-."; ends at ':'.
 * Returns the scheme length, 0 when there is none, -1 for "missing protocol scheme".
 */
static gssize
scheme_length(const char *s, gsize len)
{
	for (gsize i = 0; i < len; i++) {
		char c = s[i];
		if (is_alpha(c)) {
			continue;
		}
		if (is_digit(c) || c == '+' || c == '-' || c == '.') {
			if (i == 0) {
				return 0;
			}
			continue;
		}
		if (c == ':') {
			return i == 0 ? -1 : (gssize)i;
		}
		return 0; /* an invalid character: no scheme, the whole string is a path */
	}
	return 0;
}

/*
 * One pass of net/url parse(@s, viaRequest). Fills @out (with viaRequest FALSE, @s has no
 * fragment any more).
 */
/*
 * The authority after "//" at *rest ([userinfo@]host[:port]): validated, the host kept in
 * @out, *rest moved past it to the path.
 */
static gboolean
parse_authority(CelUrl *out,
                const char **rest,
                gsize *rest_len,
                const char *orig,
                gsize orig_len,
                char *err)
{
	char what[CEL_K8S_ERRBUF / 2];
	const char *auth = *rest + 2;
	const char *slash = memchr(auth, '/', *rest_len - 2);
	gsize auth_len = slash != NULL ? (gsize)(slash - auth) : *rest_len - 2;
	const char *at = g_strrstr_len(auth, (gssize)auth_len, "@");
	const char *host = auth;
	gsize host_len = auth_len;
	if (at != NULL) {
		if (!userinfo_ok(auth, (gsize)(at - auth))) {
			return fail(err, orig, orig_len, "net/url: invalid userinfo");
		}
		host = at + 1;
		host_len = auth_len - (gsize)(host - auth);
	}
	if (!host_ok(host, host_len, what)) {
		return fail(err, orig, orig_len, what);
	}
	out->host = host;
	out->host_len = (guint32)host_len;
	*rest = auth + auth_len;
	*rest_len -= auth_len + 2;
	return TRUE;
}

static gboolean
parse_uri(CelUrl *out,
          const char *orig,
          gsize orig_len,
          const char *s,
          gsize len,
          gboolean via_request,
          char *err)
{
	char what[CEL_K8S_ERRBUF / 2];

	/* Absent parts are empty ranges, never NULL. */
	memset(out, 0, sizeof *out);
	out->scheme = out->host = out->path = out->query = s;
	for (gsize i = 0; i < len; i++) {
		if ((guchar)s[i] < 0x20 || s[i] == 0x7f) {
			return fail(err, orig, orig_len,
			            "net/url: invalid control character in URL");
		}
	}
	if (len == 0 && via_request) {
		return fail(err, orig, orig_len, "empty url");
	}
	if (len == 1 && s[0] == '*') {
		out->path = s;
		out->path_len = 1;
		return TRUE;
	}
	gssize scheme_len = scheme_length(s, len);
	if (scheme_len < 0) {
		return fail(err, orig, orig_len, "missing protocol scheme");
	}
	out->scheme = s;
	out->scheme_len = (guint32)scheme_len;
	const char *rest = s + (scheme_len > 0 ? scheme_len + 1 : 0);
	gsize rest_len = len - (gsize)(scheme_len > 0 ? scheme_len + 1 : 0);

	const char *q = memchr(rest, '?', rest_len);
	if (q != NULL) {
		out->has_query = TRUE;
		out->query = q + 1;
		out->query_len = (guint32)(rest + rest_len - q - 1);
		rest_len = (gsize)(q - rest);
	}
	if (rest_len == 0 || rest[0] != '/') {
		if (scheme_len > 0) {
			/* An opaque URI such as mailto:x; its path stays empty. */
			return TRUE;
		}
		if (via_request) {
			return fail(err, orig, orig_len, "invalid URI for request");
		}
		const char *colon = memchr(rest, ':', rest_len);
		const char *slash = memchr(rest, '/', rest_len);
		if (colon != NULL && (slash == NULL || colon < slash)) {
			return fail(err, orig, orig_len,
			            "first path segment in URL cannot contain colon");
		}
	}
	if ((scheme_len > 0 || !via_request) && rest_len >= 2 && rest[0] == '/' && rest[1] == '/' &&
	    !(scheme_len == 0 && rest_len >= 3 && rest[2] == '/')) {
		if (!parse_authority(out, &rest, &rest_len, orig, orig_len, err)) {
			return FALSE;
		}
	}
	if (!escapes_ok(rest, rest_len, what)) {
		return fail(err, orig, orig_len, what);
	}
	out->path = rest;
	out->path_len = (guint32)rest_len;
	return TRUE;
}

gboolean
cel_url_parse(CelUrl *out, const char *s, gsize len, char *err)
{
	g_return_val_if_fail(out != NULL && err != NULL, FALSE);

	/* ParseRequestURI decides; url.Parse then gives the parts without the fragment. */
	if (!parse_uri(out, s, len, s, len, TRUE, err)) {
		return FALSE;
	}
	const char *hash = memchr(s, '#', len);
	if (hash == NULL) {
		return TRUE;
	}
	return parse_uri(out, s, len, s, (gsize)(hash - s), FALSE, err);
}

static void
split_host_port(
        const CelUrl *url, const char **host, gsize *host_len, const char **port, gsize *port_len)
{
	const char *h = url->host;
	gsize len = url->host_len;
	const char *colon = len > 0 ? g_strrstr_len(h, (gssize)len, ":") : NULL;

	*port = h + len;
	*port_len = 0;
	if (colon != NULL && port_ok(colon, len - (gsize)(colon - h))) {
		*port = colon + 1;
		*port_len = len - (gsize)(colon - h) - 1;
		len = (gsize)(colon - h);
	}
	if (len >= 2 && h[0] == '[' && h[len - 1] == ']') {
		h++;
		len -= 2;
	}
	*host = h;
	*host_len = len;
}

void
cel_url_hostname(const CelUrl *url, const char **ptr, gsize *len)
{
	const char *port;
	gsize port_len;
	split_host_port(url, ptr, len, &port, &port_len);
}

void
cel_url_port(const CelUrl *url, const char **ptr, gsize *len)
{
	const char *host;
	gsize host_len;
	split_host_port(url, &host, &host_len, ptr, len);
}

gboolean
cel_url_unescape(const char *s, gsize len, char *out, gsize *out_len)
{
	gsize n = 0;
	for (gsize i = 0; i < len; i++) {
		if (s[i] == '%') {
			if (i + 2 >= len || unhex(s[i + 1]) < 0 || unhex(s[i + 2]) < 0) {
				return FALSE;
			}
			out[n++] = (char)(unhex(s[i + 1]) * 16 + unhex(s[i + 2]));
			i += 2;
		} else if (s[i] == '+') {
			out[n++] = ' ';
		} else {
			out[n++] = s[i];
		}
	}
	*out_len = n;
	return TRUE;
}

/* net/url shouldEscape(c, encodePath). */
static gboolean
path_should_escape(guchar c)
{
	if (is_alpha((char)c) || is_digit((char)c)) {
		return FALSE;
	}
	return strchr("-_.~$&+,/:;=@", c) == NULL || c == '\0';
}

gsize
cel_url_escaped_path(const CelUrl *url, char *out)
{
	const char *p = url->path;
	gsize len = url->path_len;
	gboolean valid = TRUE;

	/* EscapedPath(): a written path that is a valid encoding is returned as written. */
	for (gsize i = 0; i < len && valid; i++) {
		guchar c = (guchar)p[i];
		valid = c == '%' || strchr("!$&'()*+,;=:@[]", c) != NULL ? c != '\0'
		                                                         : !path_should_escape(c);
	}
	if (valid || (len == 1 && p[0] == '*')) {
		memcpy(out, p, len);
		return len;
	}
	gsize n = 0;
	for (gsize i = 0; i < len; i++) {
		guchar c = (guchar)p[i];
		if (c == '%' && i + 2 < len && unhex(p[i + 1]) >= 0 && unhex(p[i + 2]) >= 0) {
			c = (guchar)(unhex(p[i + 1]) * 16 + unhex(p[i + 2]));
			i += 2;
		}
		if (path_should_escape(c)) {
			g_snprintf(out + n, 4, "%%%02X", c);
			n += 3;
		} else {
			out[n++] = (char)c;
		}
	}
	return n;
}

/* ---- the CEL binding: kubernetes.URL values and the url library's overloads ---- */

typedef struct {
	CelObject base;
	CelUrl url;
} CelUrlObj;

static void
url_obj_print(GString *out, const CelObject *self)
{
	const CelUrl *u = &((const CelUrlObj *)self)->url;
	g_string_append_printf(out, "url(scheme=\"%.*s\", host=\"%.*s\", path=\"%.*s\")",
	                       (int)u->scheme_len, u->scheme, (int)u->host_len, u->host,
	                       (int)u->path_len, u->path);
}

static const CelObjectClass cel_url_class = {
	.type_name = "kubernetes.URL",
	.select = NULL,
	.equal = NULL,
	.print = url_obj_print,
	.go_type_name = "cel.URL",
};

static const CelUrl *
url_of(CelValue v)
{
	return &((const CelUrlObj *)v.obj)->url;
}

static CelValue
url_from_string(CelActivation *act, const CelValue *args, guint nargs)
{
	char err[CEL_K8S_ERRBUF];
	CelUrlObj *obj = cel_activation_alloc(act, sizeof *obj);

	if (!cel_url_parse(&obj->url, args[0].str, args[0].aux, err)) {
		return cel_errorf(act, "URL parse error during conversion from string: %s", err);
	}
	obj->base.klass = &cel_url_class;
	return cel_value_object(&obj->base);
}

static CelValue
url_is_url(CelActivation *act, const CelValue *args, guint nargs)
{
	char err[CEL_K8S_ERRBUF];
	CelUrl u;
	return cel_value_bool(cel_url_parse(&u, args[0].str, args[0].aux, err));
}

static CelValue
url_get_scheme(CelActivation *act, const CelValue *args, guint nargs)
{
	const CelUrl *u = url_of(args[0]);
	/* net/url lower-cases the scheme. */
	char *s = cel_activation_alloc(act, u->scheme_len + 1);
	for (guint i = 0; i < u->scheme_len; i++) {
		s[i] = g_ascii_tolower(u->scheme[i]);
	}
	return cel_value_string(s, u->scheme_len);
}

static CelValue
url_get_host(CelActivation *act, const CelValue *args, guint nargs)
{
	const CelUrl *u = url_of(args[0]);
	return cel_value_string(u->host, u->host_len);
}

/* A getter whose part of the URL @split finds (a slice of the URL's own text). */
#define URL_SPLIT_GETTER(name, split)                                                              \
	static CelValue name(CelActivation *act, const CelValue *args, guint nargs)                \
	{                                                                                          \
		const char *p;                                                                     \
		gsize n;                                                                           \
		split(url_of(args[0]), &p, &n);                                                    \
		return cel_value_string(p, n);                                                     \
	}
URL_SPLIT_GETTER(url_get_hostname, cel_url_hostname)
URL_SPLIT_GETTER(url_get_port, cel_url_port)
#undef URL_SPLIT_GETTER

static CelValue
url_get_escaped_path(CelActivation *act, const CelValue *args, guint nargs)
{
	const CelUrl *u = url_of(args[0]);
	char *out = cel_activation_alloc(act, 3 * (gsize)u->path_len + 1);
	gsize n = cel_url_escaped_path(u, out);
	return cel_value_string(out, n);
}

/* url.Values: key -> values in order of appearance (Go ParseQuery, bad pairs skipped). */
static CelValue
url_get_query(CelActivation *act, const CelValue *args, guint nargs)
{
	const CelUrl *u = url_of(args[0]);
	const char *q = u->query, *end = u->query + u->query_len;
	guint npairs = 1;

	for (const char *p = q; p < end; p++) {
		npairs += *p == '&';
	}
	CelValue *keys = cel_activation_alloc(act, npairs * sizeof(CelValue));
	CelValue *vals = cel_activation_alloc(act, npairs * sizeof(CelValue));
	guint n = 0;
	for (const char *p = q; p < end;) {
		const char *amp = memchr(p, '&', (gsize)(end - p));
		const char *stop = amp != NULL ? amp : end;
		const char *eq = memchr(p, '=', (gsize)(stop - p));
		const char *kend = eq != NULL ? eq : stop;
		const char *vstart = eq != NULL ? eq + 1 : stop;
		gsize klen, vlen;
		char *k = cel_activation_alloc(act, (gsize)(kend - p) + 1);
		char *v = cel_activation_alloc(act, (gsize)(stop - vstart) + 1);
		if (stop > p && memchr(p, ';', (gsize)(stop - p)) == NULL &&
		    cel_url_unescape(p, (gsize)(kend - p), k, &klen) &&
		    cel_url_unescape(vstart, (gsize)(stop - vstart), v, &vlen)) {
			keys[n] = cel_value_string(k, klen);
			vals[n] = cel_value_string(v, vlen);
			n++;
		}
		p = amp != NULL ? amp + 1 : end;
	}

	CelMap *map = cel_map_new(act, n);
	for (guint i = 0; i < n; i++) {
		guint count = 0;
		gboolean seen = FALSE;
		for (guint j = 0; j < i && !seen; j++) {
			seen = cel_value_equal(keys[j], keys[i], act);
		}
		if (seen) {
			continue;
		}
		for (guint j = i; j < n; j++) {
			count += cel_value_equal(keys[j], keys[i], act);
		}
		CelList *list = cel_list_new(act, count);
		for (guint j = i; j < n; j++) {
			if (cel_value_equal(keys[j], keys[i], act)) {
				list->items[list->len++] = vals[j];
			}
		}
		map->keys[map->len] = keys[i];
		map->values[map->len] = cel_value_list(list);
		map->len++;
	}
	return cel_value_map(map);
}

static const CelOverload url_overloads[] = {
	{ "url", "string_to_url", CEL_GLOBAL, "string -> kubernetes.URL", url_from_string, NULL },
	{ "isURL", "is_url_string", CEL_GLOBAL, "string -> bool", url_is_url, NULL },
	{ "getScheme", "url_get_scheme", CEL_RECEIVER, "kubernetes.URL -> string", url_get_scheme,
	  NULL },
	{ "getHost", "url_get_host", CEL_RECEIVER, "kubernetes.URL -> string", url_get_host, NULL },
	{ "getHostname", "url_get_hostname", CEL_RECEIVER, "kubernetes.URL -> string",
	  url_get_hostname, NULL },
	{ "getPort", "url_get_port", CEL_RECEIVER, "kubernetes.URL -> string", url_get_port, NULL },
	{ "getEscapedPath", "url_get_escaped_path", CEL_RECEIVER, "kubernetes.URL -> string",
	  url_get_escaped_path, NULL },
	{ "getQuery", "url_get_query", CEL_RECEIVER, "kubernetes.URL -> map(string, list(string))",
	  url_get_query, NULL },
};

void
cel_lib_k8s_urls_register(CelEnv *env)
{
	cel_type_register_opaque(cel_url_class.type_name, &cel_url_class);
	cel_env_add_overloads(env, url_overloads, G_N_ELEMENTS(url_overloads));
}
