/*
 * k8s_path.c: the field-path steps the decoder (k8s_dec.c) and the validator
 * (k8s_validate.c) share. No g_string_append_printf: every field, attribute
 * and capacity of every published device passes here.
 */
#include "k8s_path-private.h"

gsize
k8s_path_push_field(GString *path, const char *name)
{
	gsize mark = path->len;

	if (mark > 0) {
		g_string_append_c(path, '.');
	}
	g_string_append(path, name);
	return mark;
}

gsize
k8s_path_push_index(GString *path, guint index)
{
	gsize mark = path->len;
	char digits[16];

	g_snprintf(digits, sizeof(digits), "%u", index);
	g_string_append_c(path, '[');
	g_string_append(path, digits);
	g_string_append_c(path, ']');
	return mark;
}

gsize
k8s_path_push_key(GString *path, const char *key)
{
	gsize mark = path->len;

	g_string_append_c(path, '[');
	g_string_append(path, key);
	g_string_append_c(path, ']');
	return mark;
}

void
k8s_path_pop(GString *path, gsize mark)
{
	g_string_truncate(path, mark);
}
