/*
 * hw_mig_layout.c: named MIG layouts, in the spirit of mig-parted's config names.
 *
 * "all-1g.10gb" fills a GPU with one profile, "all-balanced" is the GPU Operator's
 * balanced mix, and an explicit list ("2x1g.10gb,3g.40gb" or with pinned starts
 * "3g.40gb@4,4g.40gb@0") says exactly what to create. Unpinned lists are placed by
 * hw_mig_place(), so the same name always yields the same placements.
 */
#include <stdarg.h>
#include <string.h>

#include "hw-private.h"

static char *
known_profiles(const HwGpuModel *model)
{
	GString *text = g_string_new(NULL);

	for (guint i = 0; i < model->mig->profiles->len; i++) {
		const HwMigProfile *p = g_ptr_array_index(model->mig->profiles, i);

		g_string_append_printf(text, "%s%s", i ? ", " : "", p->name);
	}
	return g_string_free(text, FALSE);
}

static gboolean fail(GError **error, const char *layout, const char *format, ...)
        G_GNUC_PRINTF(3, 4);

static gboolean
fail(GError **error, const char *layout, const char *format, ...)
{
	va_list args;
	g_autofree char *message = NULL;

	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	g_set_error(error, HW_ERROR, HW_ERROR_INVALID, "MIG layout \"%s\": %s", layout, message);
	return FALSE;
}

static const HwMigProfile *
lookup(const HwGpuModel *model, const char *layout, const char *name, GError **error)
{
	const HwMigProfile *profile = hw_gpu_model_lookup_profile(model, name);

	if (profile == NULL) {
		g_autofree char *known = known_profiles(model);
		fail(error, layout, "unknown MIG profile \"%s\" for %s (known: %s)", name,
		     model->id, known);
	}
	return profile;
}

/* Places @profiles and appends them to @out. */
static gboolean
place_into(const HwGpuModel *model,
           const char *layout,
           GPtrArray *profiles,
           GArray *out,
           GError **error)
{
	g_autofree HwMigInstance *placed = g_new0(HwMigInstance, profiles->len + 1);
	g_autofree char *reason = NULL;

	if (hw_mig_place(model, (const HwMigProfile *const *)profiles->pdata, profiles->len, placed,
	                 &reason) != HW_MIG_OK) {
		return fail(error, layout, "%s", reason);
	}
	g_array_append_vals(out, placed, profiles->len);
	return TRUE;
}

static gboolean
parse_fill(
        const HwGpuModel *model, const char *layout, const char *name, GArray *out, GError **error)
{
	const HwMigProfile *profile = lookup(model, layout, name, error);
	g_autoptr(GPtrArray) profiles = g_ptr_array_new();

	if (profile == NULL) {
		return FALSE;
	}
	/* As many as fit: the profile's maximum, fewer when placements run out. */
	for (guint count = profile->max_count; count > 0; count--) {
		g_autofree HwMigInstance *placed = g_new0(HwMigInstance, count);

		g_ptr_array_set_size(profiles, 0);
		for (guint i = 0; i < count; i++) {
			g_ptr_array_add(profiles, (gpointer)profile);
		}
		if (hw_mig_place(model, (const HwMigProfile *const *)profiles->pdata, count, placed,
		                 NULL) == HW_MIG_OK) {
			g_array_append_vals(out, placed, count);
			return TRUE;
		}
	}
	return fail(error, layout, "no instance of %s fits", name);
}

static gboolean
parse_item(const HwGpuModel *model,
           const char *layout,
           const char *item,
           GPtrArray *unpinned,
           GArray *pinned,
           GError **error)
{
	g_autofree char *text = g_strstrip(g_strdup(item));
	const char *name = text;
	char *at = strchr(text, '@');
	char *x = strchr(text, 'x');
	guint64 count = 1, start = 0;
	const HwMigProfile *profile;

	/* "2x1g.10gb": a count prefix is digits (or a sign) before an 'x'. */
	if (x != NULL && x != text && (g_ascii_isdigit(text[0]) || text[0] == '-')) {
		gint64 signed_count;

		*x = '\0';
		if (!g_ascii_string_to_signed(text, 10, G_MININT64, G_MAXINT64, &signed_count,
		                              NULL)) {
			return fail(error, layout, "bad count \"%s\"", text);
		}
		if (signed_count <= 0) {
			return fail(error, layout, "count must be positive, got %" G_GINT64_FORMAT,
			            signed_count);
		}
		count = (guint64)signed_count;
		name = x + 1;
	}
	if (at != NULL) {
		*at = '\0';
		if (!g_ascii_string_to_unsigned(at + 1, 10, 0, 7, &start, NULL)) {
			return fail(error, layout, "bad start \"%s\" (expected 0..7)", at + 1);
		}
		if (count != 1) {
			return fail(error, layout, "a pinned start (@%u) needs a count of 1",
			            (guint)start);
		}
	}
	if (*name == '\0') {
		return fail(error, layout, "empty item");
	}
	profile = lookup(model, layout, name, error);
	if (profile == NULL) {
		return FALSE;
	}
	if (count > 8) {
		return fail(error, layout, "%u instances of %s cannot fit", (guint)count, name);
	}
	for (guint64 i = 0; i < count; i++) {
		if (at != NULL) {
			HwMigInstance inst = { profile, (guint)start };
			g_array_append_val(pinned, inst);
		} else {
			g_ptr_array_add(unpinned, (gpointer)profile);
		}
	}
	return TRUE;
}

static int
instance_compare(gconstpointer a, gconstpointer b)
{
	const HwMigInstance *x = a, *y = b;

	return x->start < y->start ? -1 : (x->start > y->start ? 1 : 0);
}

static gboolean
parse_list(const HwGpuModel *model, const char *layout, GArray *out, GError **error)
{
	g_auto(GStrv) items = g_strsplit(layout, ",", -1);
	g_autoptr(GPtrArray) unpinned = g_ptr_array_new();
	g_autofree char *reason = NULL;

	for (guint i = 0; items[i] != NULL; i++) {
		if (!parse_item(model, layout, items[i], unpinned, out, error)) {
			return FALSE;
		}
	}
	if (out->len > 0 && unpinned->len > 0) {
		return fail(error, layout, "pin every instance with @start, or none");
	}
	if (unpinned->len > 0) {
		return place_into(model, layout, unpinned, out, error);
	}
	g_array_sort(out, instance_compare);
	if (hw_mig_check(model, (HwMigInstance *)(void *)out->data, out->len, &reason) !=
	    HW_MIG_OK) {
		return fail(error, layout, "%s", reason);
	}
	return TRUE;
}

/* The layout names @model accepts, for messages: "all-disabled, ..., all-7g.80gb". */
static char *
known_layouts(const HwGpuModel *model)
{
	GString *text = g_string_new("all-disabled, all-enabled");

	if (model->mig->balanced->len > 0) {
		g_string_append(text, ", all-balanced");
	}
	for (guint i = 0; i < model->mig->profiles->len; i++) {
		const HwMigProfile *p = g_ptr_array_index(model->mig->profiles, i);

		g_string_append_printf(text, ", all-%s", p->name);
	}
	return g_string_free(text, FALSE);
}

/*
 * A bare name ("1g.10gb", "balanced") where a layout is expected: no list separator,
 * no pinned start, no count prefix. Read as a list of one it made one instance per GPU,
 * which is never what "mig: 1g.10gb" meant; so it is refused with the names that are
 * valid for this GPU. One instance is written 1x1g.10gb (or pinned, 1g.10gb@0).
 */
static gboolean
is_bare_name(const char *layout)
{
	const char *x = strchr(layout, 'x');

	return strchr(layout, ',') == NULL && strchr(layout, '@') == NULL &&
	       !(x != NULL && x != layout && (g_ascii_isdigit(layout[0]) || layout[0] == '-'));
}

static gboolean
fail_bare_name(const HwGpuModel *model, const char *layout, GError **error)
{
	g_autofree char *layouts = known_layouts(model);

	if (hw_gpu_model_lookup_profile(model, layout) != NULL) {
		return fail(error, layout,
		            "a MIG profile, not a layout: write all-%s (as many as fit) or 1x%s "
		            "(one instance); layouts for %s: %s, or a list like 2x%s",
		            layout, layout, model->id, layouts, layout);
	}
	return fail(error, layout,
	            "unknown layout for %s (valid: %s, or a list of profiles like "
	            "2x1g.10gb,3g.40gb)",
	            model->id, layouts);
}

GArray *
hw_mig_layout_parse(const HwGpuModel *model,
                    const char *layout,
                    gboolean *mig_enabled_out,
                    GError **error)
{
	g_autoptr(GArray) out = g_array_new(FALSE, TRUE, sizeof(HwMigInstance));
	gboolean ok = TRUE;

	*mig_enabled_out = FALSE;
	if (strcmp(layout, "all-disabled") == 0 || strcmp(layout, "none") == 0) {
		return g_steal_pointer(&out);
	}
	if (model->mig == NULL) {
		fail(error, layout, "%s does not support MIG", model->product_name);
		return NULL;
	}
	*mig_enabled_out = TRUE;
	if (strcmp(layout, "all-enabled") == 0) {
		return g_steal_pointer(&out);
	}
	if (strcmp(layout, "all-balanced") == 0) {
		if (model->mig->balanced->len == 0) {
			fail(error, layout, "%s has no balanced layout in the catalog", model->id);
			return NULL;
		}
		ok = place_into(model, layout, model->mig->balanced, out, error);
	} else if (g_str_has_prefix(layout, "all-")) {
		ok = parse_fill(model, layout, layout + 4, out, error);
	} else if (is_bare_name(layout)) {
		ok = fail_bare_name(model, layout, error);
	} else {
		ok = parse_list(model, layout, out, error);
	}
	return ok ? g_steal_pointer(&out) : NULL;
}
