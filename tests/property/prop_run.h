/*
 * prop_run.h: running one case through the properties, permuting and
 * minimising worlds (prop_run.c, prop_edit.c).
 */
#pragma once

#include "prop.h"

G_BEGIN_DECLS

typedef struct {
	DraOutcome outcome;
	const char *property;      /* the first property that failed, or NULL */
	const char *excluded;      /* why a property could not be checked, or NULL */
	gboolean complete_checked; /* the brute force agreed */
	GString *why;              /* what failed, one line each */
	GString *answer;           /* the allocator's answer as text */
} PropVerdict;

/* Every property on @w; @salt seeds the permutations. Clear @v after. */
void prop_run_world(const PropWorld *w, guint salt, PropVerdict *v);
void prop_verdict_clear(PropVerdict *v);
/* Production's quirks on (the default) or the two data-dependent ones off (DraQuirks). */
void prop_run_set_quirks(gboolean on);

/* Reorders what production cannot depend on: classes, held devices, attributes, capacities. */
void prop_permute_unordered(PropWorld *w, guint salt);
/* Reorders pools (their slices stay together, in order): production does not fix pool order. */
void prop_permute_pools(PropWorld *w, guint salt);

/*
 * Delta debugging: drops claims, slices, requests, constraints, devices,
 * selectors, attributes... and lowers counts while @property still fails.
 * Returns: (transfer full) the smallest failing world found.
 */
PropWorld *prop_minimise(const PropWorld *w, const char *property, guint salt, guint *steps);

G_END_DECLS
