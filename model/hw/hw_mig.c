/*
 * hw_mig.c: MIG layout geometry: the feasibility rules, deterministic placement and
 * the named layouts (all-1g.10gb, all-balanced, explicit lists).
 *
 * The rules are NVIDIA's (nvidia-hw.md 2.1): each GPU instance sits at a start its
 * profile allows, no two instances share a memory slice, the compute slices add up to
 * at most the GPU's (7), at most one +me instance, and no profile exceeds its maximum
 * count. The DRA driver's counter model encodes the same rules (memory-slice-N
 * counters plus engine counters sized to the 7g profile).
 */
#include <stdlib.h>
#include <string.h>

#include "hw-private.h"

static gboolean
start_is_valid(const HwMigProfile *profile, guint start)
{
	for (guint i = 0; i < profile->n_starts; i++) {
		if (profile->starts[i] == start) {
			return TRUE;
		}
	}
	return FALSE;
}

static char *
starts_text(const HwMigProfile *profile)
{
	GString *text = g_string_new(NULL);

	for (guint i = 0; i < profile->n_starts; i++) {
		g_string_append_printf(text, "%s%u", i ? ", " : "", profile->starts[i]);
	}
	return g_string_free(text, FALSE);
}

static HwMigVerdict
verdict(HwMigVerdict v, char **reason_out, char *reason)
{
	if (reason_out != NULL) {
		g_free(*reason_out);
		*reason_out = reason;
	} else {
		g_free(reason);
	}
	return v;
}

HwMigVerdict
hw_mig_check(const HwGpuModel *model, const HwMigInstance *instances, guint n, char **reason_out)
{
	const HwMigInstance *owner[8] = { NULL };
	guint compute = 0, media = 0;

	if (model->mig == NULL) {
		return verdict(HW_MIG_NOT_CAPABLE, reason_out,
		               g_strdup_printf("%s does not support MIG", model->product_name));
	}
	for (guint i = 0; i < n; i++) {
		const HwMigInstance *inst = &instances[i];
		const HwMigProfile *p = inst->profile;

		if (!start_is_valid(p, inst->start)) {
			g_autofree char *valid = starts_text(p);
			return verdict(HW_MIG_BAD_START, reason_out,
			               g_strdup_printf("%s cannot start at memory slice %u (valid "
			                               "starts: %s)",
			                               p->name, inst->start, valid));
		}
		for (guint s = inst->start; s < inst->start + p->size; s++) {
			if (owner[s] != NULL) {
				return verdict(
				        HW_MIG_OVERLAP, reason_out,
				        g_strdup_printf("%s at %u overlaps %s at %u on memory "
				                        "slice %u",
				                        p->name, inst->start,
				                        owner[s]->profile->name, owner[s]->start,
				                        s));
			}
			owner[s] = inst;
		}
		compute += p->compute_slices;
		media += p->media_extensions ? 1 : 0;
	}
	if (compute > model->mig->compute_slices) {
		return verdict(HW_MIG_COMPUTE, reason_out,
		               g_strdup_printf("the layout uses %u compute slices, %s has %u",
		                               compute, model->product_name,
		                               model->mig->compute_slices));
	}
	if (media > 1) {
		return verdict(HW_MIG_MEDIA_EXT, reason_out,
		               g_strdup_printf("the layout has %u +me instances, at most one is "
		                               "allowed",
		                               media));
	}
	for (guint i = 0; i < n; i++) {
		guint count = 0;

		for (guint j = 0; j < n; j++) {
			count += instances[j].profile == instances[i].profile ? 1 : 0;
		}
		if (count > instances[i].profile->max_count) {
			return verdict(HW_MIG_MAX_COUNT, reason_out,
			               g_strdup_printf("%u instances of %s, at most %u", count,
			                               instances[i].profile->name,
			                               instances[i].profile->max_count));
		}
	}
	return verdict(HW_MIG_OK, reason_out, NULL);
}

/* Placement order: larger memory size first, then more compute, then the input order
 * (the sort is made stable by comparing indexes). */
typedef struct {
	const HwMigProfile *profile;
	guint index;
} Pending;

static int
pending_compare(const void *a, const void *b)
{
	const Pending *x = a, *y = b;

	if (x->profile->size != y->profile->size) {
		return x->profile->size > y->profile->size ? -1 : 1;
	}
	if (x->profile->compute_slices != y->profile->compute_slices) {
		return x->profile->compute_slices > y->profile->compute_slices ? -1 : 1;
	}
	return x->index < y->index ? -1 : (x->index > y->index ? 1 : 0);
}

static gboolean
place_from(const Pending *pending, guint n, guint at, guint8 used, HwMigInstance *out)
{
	if (at == n) {
		return TRUE;
	}
	const HwMigProfile *p = pending[at].profile;
	for (guint i = 0; i < p->n_starts; i++) {
		guint8 mask = (guint8)(((1u << p->size) - 1u) << p->starts[i]);

		if ((used & mask) != 0) {
			continue;
		}
		out[at].profile = p;
		out[at].start = p->starts[i];
		if (place_from(pending, n, at + 1, used | mask, out)) {
			return TRUE;
		}
	}
	return FALSE;
}

static int
instance_compare(const void *a, const void *b)
{
	const HwMigInstance *x = a, *y = b;

	return x->start < y->start ? -1 : (x->start > y->start ? 1 : 0);
}

HwMigVerdict
hw_mig_place(const HwGpuModel *model,
             const HwMigProfile *const *profiles,
             guint n,
             HwMigInstance *out,
             char **reason_out)
{
	g_autofree Pending *pending = g_new0(Pending, n + 1);
	HwMigVerdict v;

	if (model->mig == NULL) {
		return hw_mig_check(model, NULL, 0, reason_out);
	}
	if (n > model->mig->memory_slices) {
		return verdict(HW_MIG_NO_PLACEMENT, reason_out,
		               g_strdup_printf("%u instances do not fit in %u memory slices", n,
		                               model->mig->memory_slices));
	}
	for (guint i = 0; i < n; i++) {
		pending[i] = (Pending){ profiles[i], i };
	}
	qsort(pending, n, sizeof(Pending), pending_compare);
	if (!place_from(pending, n, 0, 0, out)) {
		/* Say which counting rule breaks, if one does; else it is pure geometry. */
		for (guint i = 0; i < n; i++) {
			out[i] = (HwMigInstance){ pending[i].profile,
				                  pending[i].profile->starts[0] };
		}
		g_autofree char *why = NULL;
		HwMigVerdict counting = HW_MIG_OK;
		guint compute = 0, media = 0;
		for (guint i = 0; i < n; i++) {
			compute += out[i].profile->compute_slices;
			media += out[i].profile->media_extensions ? 1 : 0;
		}
		if (compute > model->mig->compute_slices || media > 1) {
			/* hw_mig_check reports these ahead of the overlap only when the starts are
			 * distinct, so build the reason directly. */
			counting = compute > model->mig->compute_slices ? HW_MIG_COMPUTE
			                                                : HW_MIG_MEDIA_EXT;
			why = counting == HW_MIG_COMPUTE
			              ? g_strdup_printf(
			                        "the layout uses %u compute slices, %s has %u",
			                        compute, model->product_name,
			                        model->mig->compute_slices)
			              : g_strdup_printf("the layout has %u +me instances, at most "
			                                "one is allowed",
			                                media);
			return verdict(counting, reason_out, g_steal_pointer(&why));
		}
		return verdict(HW_MIG_NO_PLACEMENT, reason_out,
		               g_strdup("no placement puts every instance at a valid start without "
		                        "overlapping memory slices"));
	}
	qsort(out, n, sizeof(HwMigInstance), instance_compare);
	v = hw_mig_check(model, out, n, reason_out);
	return v;
}

char *
hw_mig_profile_dns_name(const HwMigProfile *profile)
{
	/* Upstream: dots removed, lowercased, anything outside [a-z0-9-.] becomes '-'
	 * (nvidia-hw.md 1.3), so "1g.10gb+me" -> "1g10gb-me". */
	GString *name = g_string_new(NULL);

	for (const char *c = profile->name; *c != '\0'; c++) {
		char lower = g_ascii_tolower(*c);

		if (lower == '.') {
			continue;
		}
		g_string_append_c(name, (g_ascii_isalnum(lower) || lower == '-') ? lower : '-');
	}
	return g_string_free(name, FALSE);
}
