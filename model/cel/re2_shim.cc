/*
 * re2_shim.cc: the C face of RE2, for CEL `matches` and the k8s regex library.
 *
 * Kubernetes evaluates regular expressions with Go's regexp, which implements RE2 syntax
 * and leftmost-first semantics in linear time. RE2 proper gives the same answers (Go's
 * package is its port), so drasim links it instead of emulating RE2 on a backtracking
 * engine. The two places where Go and C++ RE2 differ are handled here: \C (any byte) is
 * refused as Go refuses it, and errors are worded as Go's regexp/syntax words them.
 */
#include <cstring>
#include <new>
#include <re2/re2.h>

extern "C" {
#include "cel_lib_k8s.h"
}

struct CelRegex {
	re2::RE2 *re;
};

/* Go regexp/syntax ErrorCode strings, indexed by RE2::ErrorCode. */
static const char *
go_error_text(re2::RE2::ErrorCode code)
{
	switch (code) {
	case re2::RE2::ErrorBadEscape:
		return "invalid escape sequence";
	case re2::RE2::ErrorBadCharClass:
		return "invalid character class";
	case re2::RE2::ErrorBadCharRange:
		return "invalid character class range";
	case re2::RE2::ErrorMissingBracket:
		return "missing closing ]";
	case re2::RE2::ErrorMissingParen:
		return "missing closing )";
	case re2::RE2::ErrorTrailingBackslash:
		return "trailing backslash at end of expression";
	case re2::RE2::ErrorRepeatArgument:
		return "missing argument to repetition operator";
	case re2::RE2::ErrorRepeatSize:
		return "invalid repeat count";
	case re2::RE2::ErrorRepeatOp:
		return "invalid nested repetition operator";
	case re2::RE2::ErrorBadPerlOp:
		return "invalid or unsupported Perl syntax";
	case re2::RE2::ErrorBadUTF8:
		return "invalid UTF-8";
	case re2::RE2::ErrorBadNamedCapture:
		return "invalid named capture";
	case re2::RE2::ErrorPatternTooLarge:
		return "expression too large";
	default:
		return "regexp/syntax: internal error";
	}
}

static void
format_error(char *err, const char *what, const char *fragment, size_t fragment_len)
{
	g_snprintf(err, CEL_K8S_ERRBUF, "error parsing regexp: %s: `%.*s`", what, (int)fragment_len,
	           fragment);
}

/* Go has no \C; RE2 accepts it. Returns the offset of an unescaped \C, or -1. */
static long
find_any_byte_escape(const char *p, size_t len)
{
	for (size_t i = 0; i + 1 < len; i++) {
		if (p[i] == '\\') {
			if (p[i + 1] == 'C') {
				return (long)i;
			}
			i++; /* skip the escaped character */
		}
	}
	return -1;
}

extern "C" CelRegex *
cel_regex_compile(const char *pattern, gsize len, char *err)
{
	long any_byte = find_any_byte_escape(pattern, len);
	if (any_byte >= 0) {
		format_error(err, "invalid escape sequence", pattern + any_byte, 2);
		return nullptr;
	}

	re2::RE2::Options options;
	options.set_log_errors(false);
	/* Go regexp has no size limit short of its own; keep RE2's default program budget. */
	re2::RE2 *re = new (std::nothrow) re2::RE2(re2::StringPiece(pattern, len), options);
	if (re == nullptr) {
		g_error("out of memory compiling a regular expression");
	}
	if (!re->ok()) {
		const std::string &arg = re->error_arg();
		if (re->error_code() == re2::RE2::ErrorMissingParen ||
		    re->error_code() == re2::RE2::ErrorMissingBracket) {
			/* Go quotes the whole expression for an unclosed group or class. */
			format_error(err, go_error_text(re->error_code()), pattern, len);
		} else {
			format_error(err, go_error_text(re->error_code()), arg.data(), arg.size());
		}
		delete re;
		return nullptr;
	}
	CelRegex *self = g_new0(CelRegex, 1);
	self->re = re;
	return self;
}

extern "C" void
cel_regex_free(CelRegex *self)
{
	if (self == nullptr) {
		return;
	}
	delete self->re;
	g_free(self);
}

extern "C" gboolean
cel_regex_match(const CelRegex *self, const char *text, gsize len)
{
	/* Match() without submatches lets RE2 answer from its DFA alone. */
	return self->re->Match(re2::StringPiece(text, len), 0, len, re2::RE2::UNANCHORED, nullptr,
	                       0);
}

extern "C" gboolean
cel_regex_find(
        const CelRegex *self, const char *text, gsize len, gsize from, gsize *start, gsize *end)
{
	re2::StringPiece whole(text, len);
	re2::StringPiece match;
	if (from > len || !self->re->Match(whole, from, len, re2::RE2::UNANCHORED, &match, 1)) {
		return FALSE;
	}
	*start = (gsize)(match.data() - text);
	*end = *start + match.size();
	return TRUE;
}

/* Width of the UTF-8 sequence at @p, 1 for a stray byte (Go's utf8.DecodeRuneInString). */
static gsize
rune_width(const char *p, gsize avail)
{
	const gchar *next = g_utf8_find_next_char(p, p + avail);
	gunichar c = g_utf8_get_char_validated(p, (gssize)avail);
	if (c == (gunichar)-1 || c == (gunichar)-2 || next == nullptr) {
		return 1;
	}
	return (gsize)(next - p);
}

extern "C" gint64
cel_regex_find_all(const CelRegex *self,
                   const char *text,
                   gsize len,
                   gint64 limit,
                   CelRegexMatchFn fn,
                   gpointer user_data)
{
	gint64 count = 0;
	gsize pos = 0;
	gssize prev_end = -1;

	/* Go regexp.(*Regexp).allMatches. */
	while ((limit < 0 || count < limit) && pos <= len) {
		gsize start, end;
		if (!cel_regex_find(self, text, len, pos, &start, &end)) {
			break;
		}
		gboolean accept = TRUE;
		if (end == start) {
			if ((gssize)start == prev_end) {
				accept = FALSE; /* no empty match right after a match */
			}
			pos = start < len ? start + rune_width(text + start, len - start) : len + 1;
		} else {
			pos = end;
		}
		prev_end = (gssize)end;
		if (accept) {
			count++;
			if (fn != nullptr && !fn(text + start, end - start, user_data)) {
				break;
			}
		}
	}
	return count;
}
