/*
 * rpt_format.c: kube-scheduler's "0/N nodes are available: ..." message.
 *
 * The simulation counts per-node rejection reasons the way the scheduler's
 * diagnosis does; this file turns the histogram into the exact text users
 * see in `kubectl describe pod`, so reports can be compared with a real
 * cluster's events.
 */
#include <stdlib.h>
#include <string.h>

#include "rpt.h"

static int
compare_strings(gconstpointer a, gconstpointer b)
{
	/* Go's sort.Strings compares bytes, as strcmp does. */
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *
rpt_format_fit_error(guint n_nodes,
                     const char *const *reasons,
                     const guint *counts,
                     gsize n_reasons,
                     const char *pre_filter_msg,
                     const char *post_filter_msg)
{
	GString *out = g_string_new(NULL);

	/* upstream: pkg/scheduler/framework/types.go, (*FitError).Error() */
	g_string_append_printf(out, "0/%u nodes are available:", n_nodes);
	if (pre_filter_msg != NULL && *pre_filter_msg != '\0') {
		g_string_append_printf(out, " %s.", pre_filter_msg);
	} else if (n_reasons > 0) {
		g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func(g_free);

		for (gsize i = 0; i < n_reasons; i++) {
			g_ptr_array_add(items, g_strdup_printf("%u %s", counts[i], reasons[i]));
		}
		/* "120 x" sorts before "38 y": a string sort of the formatted items, as upstream */
		g_ptr_array_sort(items, compare_strings);
		g_string_append_c(out, ' ');
		for (guint i = 0; i < items->len; i++) {
			g_string_append_printf(out, "%s%s", i ? ", " : "",
			                       (char *)g_ptr_array_index(items, i));
		}
		g_string_append_c(out, '.');
	}
	if (post_filter_msg != NULL && *post_filter_msg != '\0') {
		g_string_append_printf(out, " %s", post_filter_msg);
	}
	return g_string_free(out, FALSE);
}
