/*
 * cel_lib_strings.c: the cel-go strings extension at version 2, the version
 * Kubernetes 1.34 enables (k8s.io/apiserver/pkg/cel/environment/base.go:
 * ext.Strings(ext.StringsVersion(2))): charAt, indexOf, lastIndexOf,
 * lowerAscii, upperAscii, replace, split, substring, trim, join,
 * strings.quote and format. Indexes count code points (Go runes).
 *
 * format() is the pre-v4 formatter (cel-go ext/formatting.go
 * stringFormatter), which is what version 2 uses; cel_lib_strings_format.c.
 */
#include <string.h>

#include "cel-private.h"

#define FN(name) static CelValue name(CelActivation *act, const CelValue *a, guint n)

CelValue cel_strings__format(CelActivation *act, CelValue fmt, CelValue args);
void cel_strings__go_quote(GString *out, const char *s, gsize len);
const char *cel_strings__escape(gunichar c);

/* Byte offset of code point @cp in @v (cp <= length). */
static gsize
cp_offset(CelValue v, gint64 cp)
{
	gsize i = 0;
	for (gint64 k = 0; k < cp && i < v.aux; k++) {
		i = (gsize)(g_utf8_next_char(v.str + i) - v.str);
	}
	return i;
}

static gint64
cp_len(CelValue v)
{
	return (gint64)cel_utf8_length(v.str, v.aux);
}

static CelValue
out_of_range(CelActivation *act, gint64 i)
{
	return cel_errorf(act, "index out of range: %" G_GINT64_FORMAT, i);
}

FN(char_at)
{
	gint64 len = cp_len(a[0]), i = a[1].i;
	if (i < 0 || i > len) {
		return out_of_range(act, i);
	}
	if (i == len) {
		return cel_value_string("", 0);
	}
	gsize b = cp_offset(a[0], i);
	gsize e = (gsize)(g_utf8_next_char(a[0].str + b) - a[0].str);
	return cel_value_string(a[0].str + b, e - b);
}

/* code-point index of @sub in @s at or after code point @from, or -1 */
static gint64
find_from(CelValue s, CelValue sub, gint64 from)
{
	gsize b = cp_offset(s, from);
	for (gint64 cp = from; b + sub.aux <= s.aux; cp++) {
		if (memcmp(s.str + b, sub.str, sub.aux) == 0) {
			return cp;
		}
		if (b >= s.aux) {
			break;
		}
		b = (gsize)(g_utf8_next_char(s.str + b) - s.str);
	}
	return -1;
}

FN(index_of)
{
	gint64 off = n == 3 ? a[2].i : 0;
	if (a[1].aux == 0) {
		return cel_value_int(off);
	}
	gint64 len = cp_len(a[0]);
	if (off < 0 || off >= len) {
		return out_of_range(act, off);
	}
	return cel_value_int(find_from(a[0], a[1], off));
}

FN(last_index_of)
{
	gint64 len = cp_len(a[0]);
	if (n == 2 && a[1].aux == 0) {
		return cel_value_int(len);
	}
	gint64 off = n == 3 ? a[2].i : len - 1;
	if (a[1].aux == 0) {
		return cel_value_int(off);
	}
	if (off < 0 || off >= len) {
		return out_of_range(act, off);
	}
	gint64 sublen = cp_len(a[1]);
	if (off > len - sublen) {
		off = len - sublen;
	}
	for (gint64 i = off; i >= 0; i--) {
		gsize b = cp_offset(a[0], i);
		if (b + a[1].aux <= a[0].aux && memcmp(a[0].str + b, a[1].str, a[1].aux) == 0) {
			return cel_value_int(i);
		}
	}
	return cel_value_int(-1);
}

static CelValue
ascii_case(CelActivation *act, CelValue s, gboolean upper)
{
	char *p = cel_activation_alloc(act, s.aux + 1);
	for (guint i = 0; i < s.aux; i++) {
		char c = s.str[i];
		p[i] = upper ? g_ascii_toupper(c) : g_ascii_tolower(c);
	}
	return cel_value_string(p, s.aux);
}

FN(lower_ascii)
{
	return ascii_case(act, a[0], FALSE);
}

FN(upper_ascii)
{
	return ascii_case(act, a[0], TRUE);
}

/* strings.Replace(s, old, new, n); n < 0 means all. Empty old matches
 * between every code point, as in Go. */
FN(replace)
{
	gint64 limit = n == 4 ? a[3].i : -1;
	CelValue s = a[0], old = a[1], rep = a[2];
	if (limit == 0) {
		return s;
	}
	GString *out = g_string_sized_new(s.aux);
	gsize i = 0;
	gint64 done = 0;
	if (old.aux == 0) {
		while (limit < 0 || done < limit) {
			g_string_append_len(out, rep.str, rep.aux);
			done++;
			if (i >= s.aux) {
				break;
			}
			gsize next = (gsize)(g_utf8_next_char(s.str + i) - s.str);
			g_string_append_len(out, s.str + i, next - i);
			i = next;
		}
		g_string_append_len(out, s.str + i, s.aux - i);
	} else {
		while (i < s.aux) {
			if ((limit < 0 || done < limit) && i + old.aux <= s.aux &&
			    memcmp(s.str + i, old.str, old.aux) == 0) {
				g_string_append_len(out, rep.str, rep.aux);
				i += old.aux;
				done++;
			} else {
				g_string_append_c(out, s.str[i++]);
			}
		}
	}
	CelValue v = cel_string_new(act, out->str, out->len);
	g_string_free(out, TRUE);
	return v;
}

/* strings.SplitN(s, sep, n); n < 0: all; n == 0: empty list. */
FN(split)
{
	gint64 limit = n == 3 ? a[2].i : -1;
	CelValue s = a[0], sep = a[1];
	if (limit == 0) {
		return cel_value_list(cel_list_new(act, 0));
	}
	guint cap = 1;
	if (sep.aux == 0) {
		cap = (guint)MAX(cel_utf8_length(s.str, s.aux), 1);
	} else {
		for (guint i = 0; i + sep.aux <= s.aux; i++) {
			if (memcmp(s.str + i, sep.str, sep.aux) == 0) {
				cap++;
				i += sep.aux - 1;
			}
		}
	}
	CelList *l = cel_list_new(act, cap);
	gsize start = 0, i = 0;
	if (sep.aux == 0) {
		while (i < s.aux) {
			if (limit > 0 && (gint64)l->len == limit - 1) {
				l->items[l->len++] = cel_value_string(s.str + i, s.aux - i);
				return cel_value_list(l);
			}
			gsize next = (gsize)(g_utf8_next_char(s.str + i) - s.str);
			l->items[l->len++] = cel_value_string(s.str + i, next - i);
			i = next;
		}
		return cel_value_list(l);
	}
	while (i + sep.aux <= s.aux) {
		if ((limit < 0 || (gint64)l->len < limit - 1) &&
		    memcmp(s.str + i, sep.str, sep.aux) == 0) {
			l->items[l->len++] = cel_value_string(s.str + start, i - start);
			i += sep.aux;
			start = i;
		} else {
			i++;
		}
	}
	l->items[l->len++] = cel_value_string(s.str + start, s.aux - start);
	return cel_value_list(l);
}

FN(substring)
{
	gint64 len = cp_len(a[0]);
	gint64 start = a[1].i, end = n == 3 ? a[2].i : len;
	if (n == 3 && start > end) {
		return cel_errorf(act,
		                  "invalid substring range. start: %" G_GINT64_FORMAT
		                  ", end: %" G_GINT64_FORMAT,
		                  start, end);
	}
	if (start < 0 || start > len) {
		return out_of_range(act, start);
	}
	if (end < 0 || end > len) {
		return out_of_range(act, end);
	}
	gsize b = cp_offset(a[0], start), e = cp_offset(a[0], end);
	return cel_value_string(a[0].str + b, e - b);
}

/* unicode.IsSpace, as Go's strings.TrimSpace uses */
static gboolean
go_is_space(gunichar c)
{
	switch (c) {
	case '\t':
	case '\n':
	case '\v':
	case '\f':
	case '\r':
	case ' ':
	case 0x85:
	case 0xA0:
	case 0x1680:
	case 0x2028:
	case 0x2029:
	case 0x202F:
	case 0x205F:
	case 0x3000:
		return TRUE;
	default:
		return c >= 0x2000 && c <= 0x200A;
	}
}

FN(trim)
{
	const char *s = a[0].str, *end = s + a[0].aux;
	while (s < end && go_is_space(g_utf8_get_char(s))) {
		s = g_utf8_next_char(s);
	}
	while (end > s) {
		const char *prev = g_utf8_find_prev_char(s, end);
		if (prev == NULL || !go_is_space(g_utf8_get_char(prev))) {
			break;
		}
		end = prev;
	}
	return cel_value_string(s, (gsize)(end - s));
}

FN(join)
{
	const CelList *l = a[0].list;
	CelValue sep = n == 2 ? a[1] : cel_value_string("", 0);
	GString *out = g_string_new(NULL);
	for (guint i = 0; i < l->len; i++) {
		CelValue e = cel_list_get(l, i, act);
		if (e.kind != CEL_KIND_STRING) {
			g_string_free(out, TRUE);
			return cel_value_error("join: list elements must be strings");
		}
		if (i) {
			g_string_append_len(out, sep.str, sep.aux);
		}
		g_string_append_len(out, e.str, e.aux);
	}
	CelValue v = cel_string_new(act, out->str, out->len);
	g_string_free(out, TRUE);
	return v;
}

FN(quote)
{
	GString *out = g_string_new("\"");
	const char *p = a[0].str, *end = p + a[0].aux;
	while (p < end) {
		gunichar c = g_utf8_get_char_validated(p, end - p);
		if (c == (gunichar)-1 || c == (gunichar)-2) {
			g_string_append(out, "\xef\xbf\xbd"); /* utf8.RuneError */
			p++;
			continue;
		}
		const char *esc = cel_strings__escape(c);
		if (esc != NULL) {
			g_string_append(out, esc);
		} else {
			g_string_append_unichar(out, c);
		}
		p = g_utf8_next_char(p);
	}
	g_string_append_c(out, '"');
	CelValue v = cel_string_new(act, out->str, out->len);
	g_string_free(out, TRUE);
	return v;
}

FN(format)
{
	return cel_strings__format(act, a[0], a[1]);
}

static const CelOverload strings_overloads[] = {
	{ "charAt", "string_char_at_int", CEL_RECEIVER, "string, int -> string", char_at, NULL },
	{ "indexOf", "string_index_of_string", CEL_RECEIVER, "string, string -> int", index_of,
	  NULL },
	{ "indexOf", "string_index_of_string_int", CEL_RECEIVER, "string, string, int -> int",
	  index_of, NULL },
	{ "lastIndexOf", "string_last_index_of_string", CEL_RECEIVER, "string, string -> int",
	  last_index_of, NULL },
	{ "lastIndexOf", "string_last_index_of_string_int", CEL_RECEIVER,
	  "string, string, int -> int", last_index_of, NULL },
	{ "lowerAscii", "string_lower_ascii", CEL_RECEIVER, "string -> string", lower_ascii, NULL },
	{ "upperAscii", "string_upper_ascii", CEL_RECEIVER, "string -> string", upper_ascii, NULL },
	{ "replace", "string_replace_string_string", CEL_RECEIVER,
	  "string, string, string -> string", replace, NULL },
	{ "replace", "string_replace_string_string_int", CEL_RECEIVER,
	  "string, string, string, int -> string", replace, NULL },
	{ "split", "string_split_string", CEL_RECEIVER, "string, string -> list(string)", split,
	  NULL },
	{ "split", "string_split_string_int", CEL_RECEIVER, "string, string, int -> list(string)",
	  split, NULL },
	{ "substring", "string_substring_int", CEL_RECEIVER, "string, int -> string", substring,
	  NULL },
	{ "substring", "string_substring_int_int", CEL_RECEIVER, "string, int, int -> string",
	  substring, NULL },
	{ "trim", "string_trim", CEL_RECEIVER, "string -> string", trim, NULL },
	{ "join", "list_join", CEL_RECEIVER, "list(string) -> string", join, NULL },
	{ "join", "list_join_string", CEL_RECEIVER, "list(string), string -> string", join, NULL },
	{ "format", "string_format", CEL_RECEIVER, "string, list(dyn) -> string", format, NULL },
	{ "strings.quote", "strings_quote", CEL_GLOBAL, "string -> string", quote, NULL },
};

void
cel_lib_strings_register(CelEnv *env)
{
	cel_env_add_overloads(env, strings_overloads, G_N_ELEMENTS(strings_overloads));
}
