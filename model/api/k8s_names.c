/*
 * k8s_names.c: the name formats of k8s.io/apimachinery (DNS-1123 labels and subdomains,
 * label keys and values, C identifiers) and field.Error's wording.
 *
 * The regular expressions upstream uses are matched by hand here: every manifest has many
 * names, and the benchmark lints 80,000 devices. Messages are upstream's, word for word,
 * because users search for them.
 */
#include "k8s_names.h"

#include <string.h>

#include <glib.h>

static const char dns1123_label_fmt[] = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
static const char dns1123_label_msg[] =
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
        "and must start and end with an alphanumeric character";
static const char dns1123_subdomain_fmt[] =
        "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
static const char dns1123_subdomain_msg[] =
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
        "'-' or '.', and must start and end with an alphanumeric character";
static const char dns1035_label_fmt[] = "[a-z]([-a-z0-9]*[a-z0-9])?";
static const char dns1035_label_msg[] =
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with "
        "an alphabetic character, and end with an alphanumeric character";
static const char label_key_fmt[] = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
static const char label_key_msg[] =
        "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with "
        "an alphanumeric character";
static const char label_value_fmt[] = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
static const char label_value_msg[] =
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' "
        "or '.', and must start and end with an alphanumeric character";
static const char c_identifier_fmt[] = "[A-Za-z_][A-Za-z0-9_]*";
static const char c_identifier_msg[] =
        "a valid C identifier must start with alphabetic character or '_', followed by a string "
        "of alphanumeric characters or '_'";

/* RegexError(msg, fmt, examples...) */
static char *
regex_error(const char *msg, const char *fmt, const char *const *examples)
{
	GString *s = g_string_new(msg);

	if (examples == NULL || examples[0] == NULL) {
		g_string_append_printf(s, " (regex used for validation is '%s')", fmt);
		return g_string_free(s, FALSE);
	}
	g_string_append(s, " (e.g. ");
	for (guint i = 0; examples[i] != NULL; i++) {
		if (i > 0) {
			g_string_append(s, " or ");
		}
		g_string_append_printf(s, "'%s', ", examples[i]);
	}
	g_string_append_printf(s, "regex used for validation is '%s')", fmt);
	return g_string_free(s, FALSE);
}

static void
add(GPtrArray **msgs, char *msg)
{
	if (*msgs == NULL) {
		*msgs = g_ptr_array_new_with_free_func(g_free);
	}
	g_ptr_array_add(*msgs, msg);
}

static char *
max_len_error(int length)
{
	return g_strdup_printf("must be no more than %d characters", length);
}

static gboolean
is_lower_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static gboolean
is_alnum(char c)
{
	return is_lower_alnum(c) || (c >= 'A' && c <= 'Z');
}

/* ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$ on value[0..len) */
static gboolean
match_label(const char *v, gsize len)
{
	if (len == 0 || !is_lower_alnum(v[0]) || !is_lower_alnum(v[len - 1])) {
		return FALSE;
	}
	for (gsize i = 1; i + 1 < len; i++) {
		if (!is_lower_alnum(v[i]) && v[i] != '-') {
			return FALSE;
		}
	}
	return TRUE;
}

static gboolean
match_subdomain(const char *v)
{
	const char *start = v;

	for (const char *p = v;; p++) {
		if (*p == '.' || *p == '\0') {
			if (!match_label(start, (gsize)(p - start))) {
				return FALSE;
			}
			if (*p == '\0') {
				return TRUE;
			}
			start = p + 1;
		}
	}
}

/* ^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$ */
static gboolean
match_label_key_name(const char *v, gsize len)
{
	if (len == 0 || !is_alnum(v[0]) || !is_alnum(v[len - 1])) {
		return FALSE;
	}
	for (gsize i = 1; i + 1 < len; i++) {
		if (!is_alnum(v[i]) && v[i] != '-' && v[i] != '_' && v[i] != '.') {
			return FALSE;
		}
	}
	return TRUE;
}

GPtrArray *
k8s_names_dns1123_label(const char *value)
{
	static const char *const examples[] = { "my-name", "123-abc", NULL };
	gsize len = strlen(value);
	GPtrArray *msgs = NULL;

	if (len <= K8S_DNS1123_LABEL_MAX && match_label(value, len)) {
		return NULL;
	}
	if (len > K8S_DNS1123_LABEL_MAX) {
		add(&msgs, max_len_error(K8S_DNS1123_LABEL_MAX));
	}
	if (!match_label(value, len)) {
		if (match_subdomain(value)) {
			/* a valid subdomain, so it must be the dots */
			add(&msgs, g_strdup("must not contain dots"));
		} else {
			add(&msgs, regex_error(dns1123_label_msg, dns1123_label_fmt, examples));
		}
	}
	return msgs;
}

GPtrArray *
k8s_names_dns1123_subdomain(const char *value)
{
	static const char *const examples[] = { "example.com", NULL };
	gsize len = strlen(value);
	GPtrArray *msgs = NULL;
	gboolean ok = match_subdomain(value);

	if (len > K8S_DNS1123_SUBDOMAIN_MAX) {
		add(&msgs, max_len_error(K8S_DNS1123_SUBDOMAIN_MAX));
	}
	if (!ok) {
		add(&msgs, regex_error(dns1123_subdomain_msg, dns1123_subdomain_fmt, examples));
	}
	return msgs;
}

GPtrArray *
k8s_names_dns1035_label(const char *value)
{
	static const char *const examples[] = { "my-name", "abc-123", NULL };
	gsize len = strlen(value);
	GPtrArray *msgs = NULL;
	gboolean ok = match_label(value, len) && value[0] >= 'a' && value[0] <= 'z';

	if (len > K8S_DNS1123_LABEL_MAX) {
		add(&msgs, max_len_error(K8S_DNS1123_LABEL_MAX));
	}
	if (!ok) {
		add(&msgs, regex_error(dns1035_label_msg, dns1035_label_fmt, examples));
	}
	return msgs;
}

static void
add_prefixed(GPtrArray **msgs, const char *prefix, GPtrArray *inner)
{
	if (inner == NULL) {
		return;
	}
	for (guint i = 0; i < inner->len; i++) {
		add(msgs, g_strconcat(prefix, (const char *)inner->pdata[i], NULL));
	}
	g_ptr_array_unref(inner);
}

GPtrArray *
k8s_names_label_key(const char *value)
{
	static const char *const examples[] = { "MyName", "my.name", "123-abc", NULL };
	const char *slash = strchr(value, '/');
	const char *name = value;
	GPtrArray *msgs = NULL;
	gsize name_len;

	if (slash != NULL && strchr(slash + 1, '/') != NULL) {
		g_autofree char *re = regex_error(label_key_msg, label_key_fmt, examples);
		add(&msgs, g_strdup_printf("a valid label key %s with an optional DNS subdomain "
		                           "prefix and '/' (e.g. 'example.com/MyName')",
		                           re));
		return msgs;
	}
	if (slash != NULL) {
		g_autofree char *prefix = g_strndup(value, (gsize)(slash - value));
		name = slash + 1;
		if (prefix[0] == '\0') {
			add(&msgs, g_strdup("prefix part must be non-empty"));
		} else {
			add_prefixed(&msgs, "prefix part ", k8s_names_dns1123_subdomain(prefix));
		}
	}
	name_len = strlen(name);
	if (name_len == 0) {
		add(&msgs, g_strdup("name part must be non-empty"));
	} else if (name_len > 63) {
		add(&msgs, g_strdup("name part must be no more than 63 characters"));
	}
	if (!match_label_key_name(name, name_len)) {
		g_autofree char *re = regex_error(label_key_msg, label_key_fmt, examples);
		add(&msgs, g_strconcat("name part ", re, NULL));
	}
	return msgs;
}

GPtrArray *
k8s_names_label_value(const char *value)
{
	static const char *const examples[] = { "MyValue", "my_value", "12345", NULL };
	gsize len = strlen(value);
	GPtrArray *msgs = NULL;

	if (len > K8S_LABEL_VALUE_MAX) {
		add(&msgs, max_len_error(K8S_LABEL_VALUE_MAX));
	}
	if (len != 0 && !match_label_key_name(value, len)) {
		add(&msgs, regex_error(label_value_msg, label_value_fmt, examples));
	}
	return msgs;
}

GPtrArray *
k8s_names_c_identifier(const char *value)
{
	static const char *const examples[] = { "my_name", "MY_NAME", "MyName", NULL };
	GPtrArray *msgs = NULL;
	gboolean ok = value[0] != '\0' && (g_ascii_isalpha(value[0]) || value[0] == '_');

	for (const char *p = value; ok && *p != '\0'; p++) {
		ok = g_ascii_isalnum(*p) || *p == '_';
	}
	if (!ok) {
		add(&msgs, regex_error(c_identifier_msg, c_identifier_fmt, examples));
	}
	return msgs;
}

gboolean
k8s_names_is_extended_resource_name(const char *value)
{
	g_autofree char *requests = NULL;
	GPtrArray *msgs;

	/* IsNativeResource: no domain, or a *kubernetes.io/ domain */
	if (strchr(value, '/') == NULL || strstr(value, "kubernetes.io/") != NULL) {
		return FALSE;
	}
	if (g_str_has_prefix(value, "requests.")) {
		return FALSE;
	}
	/* "requests.<name>" has to be a valid label key for quota to work */
	requests = g_strconcat("requests.", value, NULL);
	msgs = k8s_names_label_key(requests);
	if (msgs != NULL) {
		g_ptr_array_unref(msgs);
		return FALSE;
	}
	return TRUE;
}

/* ---- field.Error --------------------------------------------------------------------- */

char *
k8s_field_quote(const char *value)
{
	GString *s = g_string_new("\"");
	const char *p = value;

	while (*p != '\0') {
		gunichar c = g_utf8_get_char_validated(p, -1);
		if (c == (gunichar)-1 || c == (gunichar)-2) {
			g_string_append_printf(s, "\\x%02x", (guchar)*p);
			p++;
			continue;
		}
		switch (c) {
		case '"':
			g_string_append(s, "\\\"");
			break;
		case '\\':
			g_string_append(s, "\\\\");
			break;
		case '\n':
			g_string_append(s, "\\n");
			break;
		case '\t':
			g_string_append(s, "\\t");
			break;
		case '\r':
			g_string_append(s, "\\r");
			break;
		default:
			if (g_unichar_isprint(c)) {
				g_string_append_unichar(s, c);
			} else if (c < 0x80) {
				g_string_append_printf(s, "\\x%02x", c);
			} else if (c < 0x10000) {
				g_string_append_printf(s, "\\u%04x", c);
			} else {
				g_string_append_printf(s, "\\U%08x", c);
			}
		}
		p = g_utf8_next_char(p);
	}
	g_string_append_c(s, '"');
	return g_string_free(s, FALSE);
}

char *
k8s_field_error_body(K8sFieldErrorType type, const char *value, const char *detail)
{
	static const char *const names[] = {
		[K8S_FIELD_NOT_FOUND] = "Not found",
		[K8S_FIELD_REQUIRED] = "Required value",
		[K8S_FIELD_DUPLICATE] = "Duplicate value",
		[K8S_FIELD_INVALID] = "Invalid value",
		[K8S_FIELD_NOT_SUPPORTED] = "Unsupported value",
		[K8S_FIELD_FORBIDDEN] = "Forbidden",
		[K8S_FIELD_TOO_LONG] = "Too long",
		[K8S_FIELD_TOO_MANY] = "Too many",
	};
	GString *s = g_string_new(names[type]);
	gboolean omit = type == K8S_FIELD_REQUIRED || type == K8S_FIELD_FORBIDDEN ||
	                type == K8S_FIELD_TOO_LONG || value == NULL;

	if (!omit) {
		g_string_append_printf(s, ": %s", value);
	}
	if (detail != NULL && detail[0] != '\0') {
		g_string_append_printf(s, ": %s", detail);
	}
	return g_string_free(s, FALSE);
}
