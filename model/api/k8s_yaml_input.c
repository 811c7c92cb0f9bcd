/*
 * k8s_yaml_input.c: what the builder requires of its input text (UTF-8, JSON that
 * is JSON) and libyaml's parser errors turned into diagnostics that say what a user
 * did wrong and where. Cold code: it runs on bad input or once per file.
 */
#include <string.h>

#include "k8s-private.h"

/*
 * YAML flow collections allow a comma before the closing bracket; JSON does
 * not, and kubectl's JSON decoder rejects `{"a": 1,}`. libyaml's events do not
 * carry commas, so look back from the closing bracket in the source text.
 */
void
k8s_yaml_check_json_trailing_comma(K8sYamlBuilder *b, yaml_mark_t end)
{
	gsize i = end.index;

	if (i > b->len) {
		return;
	}
	while (i > 0 && g_ascii_isspace(b->data[i - 1])) {
		i--;
	}
	if (i > 0 && b->data[i - 1] == ',') {
		k8s_yaml_fail(b, end, "JSON: trailing comma before '%c' (JSON does not allow it)",
		              end.index < b->len ? b->data[end.index] : '}');
	}
}

/* The byte offset where a line starts (0-based line), or len. */
static gsize
line_start(const K8sYamlBuilder *b, gsize line)
{
	gsize offset = 0;

	for (gsize l = 0; l < line && offset < b->len; l++) {
		const char *nl = memchr(b->data + offset, '\n', b->len - offset);

		if (nl == NULL) {
			return b->len;
		}
		offset = (gsize)(nl - b->data) + 1;
	}
	return offset;
}

/* Turn libyaml's error into a diagnostic that says what a user did wrong. */
void
k8s_yaml_report_parser_error(K8sYamlBuilder *b, const yaml_parser_t *parser)
{
	yaml_mark_t mark = parser->problem_mark;
	const char *problem = parser->problem != NULL ? parser->problem : "syntax error";
	gsize start = line_start(b, mark.line);

	/* A tab in the indentation of the offending line, or right at the mark. */
	for (gsize i = start; i < b->len && (b->data[i] == ' ' || b->data[i] == '\t'); i++) {
		if (b->data[i] == '\t') {
			mark.column = i - start;
			k8s_yaml_fail(
			        b, mark,
			        "tab character in indentation (YAML indents with spaces only)");
			return;
		}
	}
	if (mark.index < b->len && b->data[mark.index] == '\t') {
		k8s_yaml_fail(b, mark, "tab character where YAML expects a token (use spaces)");
		return;
	}
	if (mark.index >= b->len || strstr(problem, "end of stream") != NULL) {
		/* point at the real end of the input (libyaml may invent a final line) */
		mark.line = 0;
		mark.column = 0;
		for (const char *p = b->data; p < b->data + b->len; p++) {
			if (*p == '\n') {
				mark.line++;
				mark.column = 0;
			} else if (((guchar)*p & 0xc0) != 0x80) {
				mark.column++;
			}
		}
		if (parser->context != NULL) {
			K8sPos ctx = k8s_yaml_mark_pos(b, parser->context_mark);

			k8s_yaml_fail(
			        b, mark,
			        "truncated input: unexpected end of file (%s started at %u:%u)",
			        parser->context, ctx.line, ctx.col);
		} else {
			k8s_yaml_fail(b, mark, "truncated input: unexpected end of file (%s)",
			              problem);
		}
		return;
	}
	if (b->first_root_flow && strstr(problem, "document start") != NULL) {
		k8s_yaml_fail(
		        b, mark,
		        "JSON/YAML mix: YAML content after a JSON document (separate documents "
		        "with '---' or use one format)");
		return;
	}
	if (parser->context != NULL) {
		K8sPos ctx = k8s_yaml_mark_pos(b, parser->context_mark);

		k8s_yaml_fail(b, mark, "invalid YAML: %s (%s at %u:%u)", problem, parser->context,
		              ctx.line, ctx.col);
	} else {
		k8s_yaml_fail(b, mark, "invalid YAML: %s", problem);
	}
}

/* Kubernetes reads UTF-8 only; libyaml would also guess UTF-16, so check first. */
gboolean
k8s_yaml_check_utf8(K8sYamlBuilder *b)
{
	const char *end;
	yaml_mark_t mark = { 0, 0, 0 };

	if (g_utf8_validate_len(b->data, b->len, &end)) {
		return TRUE;
	}
	mark.index = (size_t)(end - b->data);
	for (const char *p = b->data; p < end; p++) {
		if (*p == '\n') {
			mark.line++;
			mark.column = 0;
		} else if (((guchar)*p & 0xc0) != 0x80) {
			mark.column++;
		}
	}
	if (*end == '\0') {
		k8s_yaml_fail(b, mark, "NUL byte in input (is this a binary file?)");
	} else {
		k8s_yaml_fail(b, mark,
		              "invalid UTF-8 byte 0x%02x (Kubernetes manifests must be UTF-8)",
		              (guint)(guchar)*end);
	}
	return FALSE;
}

gboolean
k8s_yaml_looks_like_json(const char *file, const char *data, gsize len)
{
	if (g_str_has_suffix(file, ".json")) {
		return TRUE;
	}
	for (gsize i = 0; i < len; i++) {
		if (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n') {
			continue;
		}
		return data[i] == '{' || data[i] == '[';
	}
	return FALSE;
}

void
k8s_yaml_check_json_document(K8sYamlBuilder *b, const yaml_event_t *event)
{
	if (!b->json) {
		return;
	}
	if (event->type == YAML_DOCUMENT_START_EVENT && !event->data.document_start.implicit) {
		k8s_yaml_fail(b, event->start_mark,
		              "JSON/YAML mix: YAML document marker in a JSON file");
	} else if (event->type == YAML_DOCUMENT_START_EVENT && b->docs->len > 0) {
		k8s_yaml_fail(b, event->start_mark,
		              "JSON/YAML mix: more than one document in a JSON file");
	}
}
