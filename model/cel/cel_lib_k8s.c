/*
 * cel_lib_k8s.c: helpers shared by the Kubernetes CEL libraries.
 *
 * Upstream error messages quote user input with Go's %q verb; users and the conformance
 * cases match on those messages, so the quoting is reproduced here byte for byte for the
 * cases that occur (ASCII, valid UTF-8, stray bytes).
 */
#include "cel_lib_k8s.h"

static gsize
put(char *out, gsize size, gsize pos, const char *s, gsize n)
{
	for (gsize i = 0; i < n && pos + 1 < size; i++) {
		out[pos++] = s[i];
	}
	return pos;
}

gsize
cel_k8s_go_quote(char *out, gsize size, const char *s, gsize len)
{
	char tmp[16];
	gsize pos = 0;

	if (size == 0) {
		return 0;
	}
	pos = put(out, size, pos, "\"", 1);
	for (gsize i = 0; i < len;) {
		guchar c = (guchar)s[i];
		if (c < 0x80) {
			const char *esc = NULL;
			switch (c) {
			case '"':
				esc = "\\\"";
				break;
			case '\\':
				esc = "\\\\";
				break;
			case '\a':
				esc = "\\a";
				break;
			case '\b':
				esc = "\\b";
				break;
			case '\f':
				esc = "\\f";
				break;
			case '\n':
				esc = "\\n";
				break;
			case '\r':
				esc = "\\r";
				break;
			case '\t':
				esc = "\\t";
				break;
			case '\v':
				esc = "\\v";
				break;
			default:
				break;
			}
			if (esc != NULL) {
				pos = put(out, size, pos, esc, 2);
			} else if (c < 0x20 || c == 0x7f) {
				g_snprintf(tmp, sizeof tmp, "\\x%02x", c);
				pos = put(out, size, pos, tmp, 4);
			} else {
				pos = put(out, size, pos, (const char *)&c, 1);
			}
			i++;
			continue;
		}
		gunichar u = g_utf8_get_char_validated(s + i, (gssize)(len - i));
		if (u == (gunichar)-1 || u == (gunichar)-2) {
			g_snprintf(tmp, sizeof tmp, "\\x%02x", c);
			pos = put(out, size, pos, tmp, 4);
			i++;
			continue;
		}
		gsize w = (gsize)g_unichar_to_utf8(u, NULL);
		if (g_unichar_isprint(u)) {
			pos = put(out, size, pos, s + i, w);
		} else if (u < 0x10000) {
			g_snprintf(tmp, sizeof tmp, "\\u%04x", u);
			pos = put(out, size, pos, tmp, 6);
		} else {
			g_snprintf(tmp, sizeof tmp, "\\U%08x", u);
			pos = put(out, size, pos, tmp, 10);
		}
		i += w;
	}
	pos = put(out, size, pos, "\"", 1);
	out[pos] = '\0';
	return pos;
}
