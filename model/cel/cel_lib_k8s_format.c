/*
 * cel_lib_k8s_format.c: the Kubernetes format CEL library (format.dns1123Label().validate(s),
 * format.named("uuid"), ...) of k8s.io/apiserver/pkg/cel/library/format.go.
 *
 * The validators are apimachinery's (pkg/util/validation: IsDNS1123Label, IsQualifiedName,
 * ...) with their messages word for word, and strfmt's for uri/uuid/byte/date/datetime.
 * validate() returns optional.none() for a valid string, else optional.of(messages).
 */
#include <string.h>

#include "cel_lib_k8s.h"

typedef struct {
	const char *name; /* CEL name: format.<name>() */
	CelFormatKind kind;
} FormatRow;

static const FormatRow format_rows[CEL_FORMAT__COUNT] = {
	{ "dns1123Label", CEL_FORMAT_DNS1123_LABEL },
	{ "dns1123Subdomain", CEL_FORMAT_DNS1123_SUBDOMAIN },
	{ "dns1035Label", CEL_FORMAT_DNS1035_LABEL },
	{ "qualifiedName", CEL_FORMAT_QUALIFIED_NAME },
	{ "dns1123LabelPrefix", CEL_FORMAT_DNS1123_LABEL_PREFIX },
	{ "dns1123SubdomainPrefix", CEL_FORMAT_DNS1123_SUBDOMAIN_PREFIX },
	{ "dns1035LabelPrefix", CEL_FORMAT_DNS1035_LABEL_PREFIX },
	{ "labelValue", CEL_FORMAT_LABEL_VALUE },
	{ "uri", CEL_FORMAT_URI },
	{ "uuid", CEL_FORMAT_UUID },
	{ "byte", CEL_FORMAT_BYTE },
	{ "date", CEL_FORMAT_DATE },
	{ "datetime", CEL_FORMAT_DATETIME },
};

const char *
cel_format_name(CelFormatKind kind)
{
	return kind < CEL_FORMAT__COUNT ? format_rows[kind].name : NULL;
}

gboolean
cel_format_lookup(const char *name, gsize len, CelFormatKind *out)
{
	for (guint i = 0; i < CEL_FORMAT__COUNT; i++) {
		if (strlen(format_rows[i].name) == len &&
		    memcmp(format_rows[i].name, name, len) == 0) {
			*out = format_rows[i].kind;
			return TRUE;
		}
	}
	return FALSE;
}

/* ---- apimachinery validation patterns and messages ---- */

#define DNS1123_LABEL_FMT     "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
#define DNS1123_SUBDOMAIN_FMT DNS1123_LABEL_FMT "(\\." DNS1123_LABEL_FMT ")*"
#define DNS1035_LABEL_FMT     "[a-z]([-a-z0-9]*[a-z0-9])?"
#define QNAME_FMT             "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
#define LABEL_VALUE_FMT       "(" QNAME_FMT ")?"
#define UUID_FMT                                                                                   \
	"(?i)(^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$)|(^[0-9a-f]{32}$)"
#define DATE_FMT "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
#define DATETIME_FMT                                                                               \
	"^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?"                \
	"([Zz]|[+-][0-9]{2}:?[0-9]{2})?$"

#define DNS1123_LABEL_MSG                                                                          \
	"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or "        \
	"'-', and must start and end with an alphanumeric character"
#define DNS1123_SUBDOMAIN_MSG                                                                      \
	"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "      \
	"'-' or '.', and must start and end with an alphanumeric character"
#define DNS1035_LABEL_MSG                                                                          \
	"a DNS-1035 label must consist of lower case alphanumeric characters or '-', start "       \
	"with an alphabetic character, and end with an alphanumeric character"
#define QNAME_MSG                                                                                  \
	"must consist of alphanumeric characters, '-', '_' or '.', and must start and end "        \
	"with an alphanumeric character"
#define LABEL_VALUE_MSG                                                                            \
	"a valid label must be an empty string or consist of alphanumeric characters, '-', "       \
	"'_' or '.', and must start and end with an alphanumeric character"

/* validation.RegexError: "<msg> (e.g. 'a',  or 'b', regex used for validation is '<fmt>')". */
#define REGEX_ERROR1(msg, fmt, a) msg " (e.g. '" a "', regex used for validation is '" fmt "')"
#define REGEX_ERROR2(msg, fmt, a, b)                                                               \
	msg " (e.g. '" a "',  or '" b "', regex used for validation is '" fmt "')"
#define REGEX_ERROR3(msg, fmt, a, b, c)                                                            \
	msg " (e.g. '" a "',  or '" b "',  or '" c "', regex used for validation is '" fmt "')"

typedef enum {
	RX_LABEL,
	RX_SUBDOMAIN,
	RX_DNS1035,
	RX_QNAME,
	RX_LABEL_VALUE,
	RX_UUID,
	RX_DATE,
	RX_DATETIME,
	RX__COUNT,
} FormatRegex;

static const char *const rx_patterns[RX__COUNT] = {
	"^" DNS1123_LABEL_FMT "$",
	"^" DNS1123_SUBDOMAIN_FMT "$",
	"^" DNS1035_LABEL_FMT "$",
	"^" QNAME_FMT "$",
	"^" LABEL_VALUE_FMT "$",
	UUID_FMT,
	DATE_FMT,
	DATETIME_FMT,
};

static gboolean
rx_match(FormatRegex which, const char *s, gsize len)
{
	static CelRegex *compiled[RX__COUNT];
	static gsize init;

	if (g_once_init_enter(&init)) {
		char err[CEL_K8S_ERRBUF];
		for (guint i = 0; i < RX__COUNT; i++) {
			compiled[i] =
			        cel_regex_compile(rx_patterns[i], strlen(rx_patterns[i]), err);
			g_assert(compiled[i] != NULL);
		}
		g_once_init_leave(&init, 1);
	}
	return cel_regex_match(compiled[which], s, len);
}

typedef struct {
	CelFormatErrorFn fn;
	gpointer user_data;
	guint count;
} Errors;

static void
emit(Errors *e, const char *msg)
{
	e->count++;
	if (e->fn != NULL) {
		e->fn(msg, e->user_data);
	}
}

static void
emit2(Errors *e, const char *prefix, const char *msg)
{
	g_autofree char *s = g_strconcat(prefix, msg, NULL);
	emit(e, s);
}

static void
max_len(Errors *e, const char *prefix, guint n)
{
	g_autofree char *s = g_strdup_printf("%smust be no more than %u characters", prefix, n);
	emit(e, s);
}

static void
dns1123_label(Errors *e, const char *s, gsize len)
{
	if (len > 63) {
		max_len(e, "", 63);
	}
	if (!rx_match(RX_LABEL, s, len)) {
		if (rx_match(RX_SUBDOMAIN, s, len)) {
			emit(e, "must not contain dots");
		} else {
			emit(e, REGEX_ERROR2(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, "my-name",
			                     "123-abc"));
		}
	}
}

static void
dns1123_subdomain(Errors *e, const char *prefix, const char *s, gsize len)
{
	if (len > 253) {
		max_len(e, prefix, 253);
	}
	if (!rx_match(RX_SUBDOMAIN, s, len)) {
		emit2(e, prefix,
		      REGEX_ERROR1(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"));
	}
}

static void
dns1035_label(Errors *e, const char *s, gsize len)
{
	if (len > 63) {
		max_len(e, "", 63);
	}
	if (!rx_match(RX_DNS1035, s, len)) {
		emit(e, REGEX_ERROR2(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, "my-name", "abc-123"));
	}
}

static void
qualified_name(Errors *e, const char *s, gsize len)
{
	const char *slash = memchr(s, '/', len);
	const char *name = s;
	gsize name_len = len;

	if (slash != NULL) {
		if (memchr(slash + 1, '/', len - (gsize)(slash - s) - 1) != NULL) {
			emit(e, "a qualified name " REGEX_ERROR3(
			                QNAME_MSG, QNAME_FMT, "MyName", "my.name",
			                "123-abc") " with an optional DNS subdomain prefix and '/' "
			                           "(e.g. "
			                           "'example.com/MyName')");
			return;
		}
		gsize prefix_len = (gsize)(slash - s);
		if (prefix_len == 0) {
			emit(e, "prefix part must be non-empty");
		} else {
			dns1123_subdomain(e, "prefix part ", s, prefix_len);
		}
		name = slash + 1;
		name_len = len - prefix_len - 1;
	}
	if (name_len == 0) {
		emit(e, "name part must be non-empty");
	} else if (name_len > 63) {
		max_len(e, "name part ", 63);
	}
	if (!rx_match(RX_QNAME, name, name_len)) {
		emit(e, "name part " REGEX_ERROR3(QNAME_MSG, QNAME_FMT, "MyName", "my.name",
		                                  "123-abc"));
	}
}

/* apimachinery maskTrailingDash: "abc-" -> "aba" (it drops two characters, then adds 'a'). */
static gsize
mask_trailing_dash(const char *s, gsize len, char *buf)
{
	memcpy(buf, s, len);
	if (len > 1 && s[len - 1] == '-') {
		buf[len - 2] = 'a';
		return len - 1;
	}
	return len;
}

static gboolean
base64_ok(const char *s, gsize len)
{
	gsize pad = 0;
	if (len % 4 != 0) {
		return FALSE;
	}
	for (gsize i = 0; i < len; i++) {
		char c = s[i];
		if (c == '=') {
			pad++;
			continue;
		}
		if (pad > 0 || !(g_ascii_isalnum(c) || c == '+' || c == '/')) {
			return FALSE;
		}
	}
	return pad <= 2;
}

static gboolean
date_ok(const char *s, gsize len, gboolean with_time)
{
	if (!rx_match(with_time ? RX_DATETIME : RX_DATE, s, len)) {
		return FALSE;
	}
	guint y = (guint)g_ascii_strtoull(s, NULL, 10);
	guint m = (guint)g_ascii_strtoull(s + 5, NULL, 10);
	guint d = (guint)g_ascii_strtoull(s + 8, NULL, 10);
	if (m < 1 || m > 12 || d < 1 || d > g_date_get_days_in_month((GDateMonth)m, (GDateYear)y)) {
		return FALSE;
	}
	if (with_time) {
		guint hh = (guint)g_ascii_strtoull(s + 11, NULL, 10);
		guint mm = (guint)g_ascii_strtoull(s + 14, NULL, 10);
		guint ss = len > 17 && s[16] == ':' ? (guint)g_ascii_strtoull(s + 17, NULL, 10) : 0;
		return hh < 24 && mm < 60 && ss < 60;
	}
	return TRUE;
}

guint
cel_format_validate(
        CelFormatKind kind, const char *s, gsize len, CelFormatErrorFn fn, gpointer user_data)
{
	Errors e = { fn, user_data, 0 };
	g_autofree char *buf = g_malloc(len + 1);
	char err[CEL_K8S_ERRBUF];
	CelUrl url;

	switch (kind) {
	case CEL_FORMAT_DNS1123_LABEL:
		dns1123_label(&e, s, len);
		break;
	case CEL_FORMAT_DNS1123_LABEL_PREFIX:
		dns1123_label(&e, buf, mask_trailing_dash(s, len, buf));
		break;
	case CEL_FORMAT_DNS1123_SUBDOMAIN:
		dns1123_subdomain(&e, "", s, len);
		break;
	case CEL_FORMAT_DNS1123_SUBDOMAIN_PREFIX:
		dns1123_subdomain(&e, "", buf, mask_trailing_dash(s, len, buf));
		break;
	case CEL_FORMAT_DNS1035_LABEL:
		dns1035_label(&e, s, len);
		break;
	case CEL_FORMAT_DNS1035_LABEL_PREFIX:
		dns1035_label(&e, buf, mask_trailing_dash(s, len, buf));
		break;
	case CEL_FORMAT_QUALIFIED_NAME:
		qualified_name(&e, s, len);
		break;
	case CEL_FORMAT_LABEL_VALUE:
		if (len > 63) {
			max_len(&e, "", 63);
		}
		if (!rx_match(RX_LABEL_VALUE, s, len)) {
			emit(&e, REGEX_ERROR3(LABEL_VALUE_MSG, LABEL_VALUE_FMT, "MyValue",
			                      "my_value", "12345"));
		}
		break;
	case CEL_FORMAT_URI:
		if (!cel_url_parse(&url, s, len, err)) {
			emit(&e, err);
		}
		break;
	case CEL_FORMAT_UUID:
		if (!rx_match(RX_UUID, s, len)) {
			emit(&e, "does not match the UUID format");
		}
		break;
	case CEL_FORMAT_BYTE:
		if (!base64_ok(s, len)) {
			emit(&e, "invalid base64");
		}
		break;
	case CEL_FORMAT_DATE:
		if (!date_ok(s, len, FALSE)) {
			emit(&e, "invalid date");
		}
		break;
	case CEL_FORMAT_DATETIME:
	default:
		if (!date_ok(s, len, TRUE)) {
			emit(&e, "invalid datetime");
		}
		break;
	}
	return e.count;
}

/* ---- the CEL binding: kubernetes.NamedFormat ---- */

typedef struct {
	CelObject base;
	CelFormatKind kind;
} FormatObj;

static gboolean
format_obj_equal(const CelObject *a, const CelObject *b)
{
	return ((const FormatObj *)a)->kind == ((const FormatObj *)b)->kind;
}

static void
format_obj_print(GString *out, const CelObject *self)
{
	g_string_append_printf(out, "format.%s()",
	                       cel_format_name(((const FormatObj *)self)->kind));
}

static const CelObjectClass format_class = {
	.type_name = "kubernetes.NamedFormat",
	.select = NULL,
	.equal = format_obj_equal,
	.print = format_obj_print,
	.go_type_name = "*cel.Format",
};

/* One static object per format: the constants never change. */
static FormatObj format_objs[CEL_FORMAT__COUNT];

static CelValue
format_value(CelFormatKind kind)
{
	format_objs[kind].base.klass = &format_class;
	format_objs[kind].kind = kind;
	return cel_value_object(&format_objs[kind].base);
}

#define FORMAT_CTOR(fn, kind)                                                                      \
	static CelValue fn(CelActivation *act, const CelValue *args, guint nargs)                  \
	{                                                                                          \
		return format_value(kind);                                                         \
	}

FORMAT_CTOR(format_dns1123_label, CEL_FORMAT_DNS1123_LABEL)
FORMAT_CTOR(format_dns1123_subdomain, CEL_FORMAT_DNS1123_SUBDOMAIN)
FORMAT_CTOR(format_dns1035_label, CEL_FORMAT_DNS1035_LABEL)
FORMAT_CTOR(format_qualified_name, CEL_FORMAT_QUALIFIED_NAME)
FORMAT_CTOR(format_dns1123_label_prefix, CEL_FORMAT_DNS1123_LABEL_PREFIX)
FORMAT_CTOR(format_dns1123_subdomain_prefix, CEL_FORMAT_DNS1123_SUBDOMAIN_PREFIX)
FORMAT_CTOR(format_dns1035_label_prefix, CEL_FORMAT_DNS1035_LABEL_PREFIX)
FORMAT_CTOR(format_label_value, CEL_FORMAT_LABEL_VALUE)
FORMAT_CTOR(format_uri, CEL_FORMAT_URI)
FORMAT_CTOR(format_uuid, CEL_FORMAT_UUID)
FORMAT_CTOR(format_byte, CEL_FORMAT_BYTE)
FORMAT_CTOR(format_date, CEL_FORMAT_DATE)
FORMAT_CTOR(format_datetime, CEL_FORMAT_DATETIME)

typedef struct {
	CelActivation *act;
	CelList *list;
} Collect;

static void
collect_message(const char *message, gpointer user_data)
{
	Collect *c = user_data;
	c->list->items[c->list->len++] = cel_string_new(c->act, message, strlen(message));
}

static CelValue
format_validate(CelActivation *act, const CelValue *args, guint nargs)
{
	CelFormatKind kind = ((const FormatObj *)args[0].obj)->kind;
	guint n = cel_format_validate(kind, args[1].str, args[1].aux, NULL, NULL);
	if (n == 0) {
		return cel_value_optional_none();
	}
	Collect c = { act, cel_list_new(act, n) };
	cel_format_validate(kind, args[1].str, args[1].aux, collect_message, &c);
	return cel_value_optional_of(act, cel_value_list(c.list));
}

static CelValue
format_named(CelActivation *act, const CelValue *args, guint nargs)
{
	CelFormatKind kind;
	if (!cel_format_lookup(args[0].str, args[0].aux, &kind)) {
		return cel_value_optional_none();
	}
	return cel_value_optional_of(act, format_value(kind));
}

#define FORMAT_ROW(name, fn)                                                                       \
	{                                                                                          \
		"format." name, "format." name, CEL_GLOBAL, "-> kubernetes.NamedFormat", fn, NULL  \
	}

static const CelOverload format_overloads[] = {
	FORMAT_ROW("dns1123Label", format_dns1123_label),
	FORMAT_ROW("dns1123Subdomain", format_dns1123_subdomain),
	FORMAT_ROW("dns1035Label", format_dns1035_label),
	FORMAT_ROW("qualifiedName", format_qualified_name),
	FORMAT_ROW("dns1123LabelPrefix", format_dns1123_label_prefix),
	FORMAT_ROW("dns1123SubdomainPrefix", format_dns1123_subdomain_prefix),
	FORMAT_ROW("dns1035LabelPrefix", format_dns1035_label_prefix),
	FORMAT_ROW("labelValue", format_label_value),
	FORMAT_ROW("uri", format_uri),
	FORMAT_ROW("uuid", format_uuid),
	FORMAT_ROW("byte", format_byte),
	FORMAT_ROW("date", format_date),
	FORMAT_ROW("datetime", format_datetime),
	{ "validate", "format-validate", CEL_RECEIVER,
	  "kubernetes.NamedFormat, string -> optional_type(list(string))", format_validate, NULL },
	{ "format.named", "format-named", CEL_GLOBAL,
	  "string -> optional_type(kubernetes.NamedFormat)", format_named, NULL },
};

void
cel_lib_k8s_format_register(CelEnv *env)
{
	cel_type_register_opaque(format_class.type_name, &format_class);
	cel_env_add_overloads(env, format_overloads, G_N_ELEMENTS(format_overloads));
}
