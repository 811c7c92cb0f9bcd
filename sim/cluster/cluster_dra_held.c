/*
 * cluster_dra_held.c: the run-model invariant "devices held = claims
 * allocated" for DRA worlds (issue 18 item 3; cluster_invariants.c calls it
 * after every event when DRASIM_CHECK_INVARIANTS=1).
 *
 * What the allocator counts as in use must be exactly what the allocated
 * claims hold, as the scheduler's allocated state is built from the claims
 * upstream (pkg/scheduler/framework/plugins/dynamicresources, allocateddevices.go):
 *  - a dedicated device of an allocated claim is marked in use, and no other
 *    allocated claim holds it;
 *  - every device marked in use belongs to such a claim (the counts agree);
 *  - an admin-access result holds nothing (DRAAdminAccess: it blocks nobody);
 *  - a result with a shareID (DRAConsumableCapacity, allowMultipleAllocations)
 *    is one share: the shares the allocator counts equal those results.
 */
#include "cluster_dra-private.h"

typedef struct {
	ClusterDra *dra;
	guint dedicated;
	gint64 shares;
	char *what; /* the first breach */
} HeldWalk;

static guint
devref_hash(gconstpointer p)
{
	const DevRef *d = p;

	return (g_str_hash(d->driver) * 31u + g_str_hash(d->pool)) * 31u + g_str_hash(d->device);
}

static gboolean
devref_equal(gconstpointer a, gconstpointer b)
{
	const DevRef *x = a, *y = b;

	return strcmp(x->device, y->device) == 0 && strcmp(x->pool, y->pool) == 0 &&
	       strcmp(x->driver, y->driver) == 0;
}

static void
check_dedicated(HeldWalk *w, const ClusterClaim *claim, const DevRef *d)
{
	const ClusterClaim *other = g_hash_table_lookup(w->dra->held, d);

	if (other != NULL) {
		w->what = g_strdup_printf("device %s/%s/%s is held by claims %s and %s", d->driver,
		                          d->pool, d->device, other->name, claim->name);
		return;
	}
	g_hash_table_insert(w->dra->held, (gpointer)d, (gpointer)claim);
	w->dedicated++;
	if (!dra_allocator_is_allocated(w->dra->alloc, d->driver, d->pool, d->device))
		w->what = g_strdup_printf("claim %s holds device %s/%s/%s, which the "
		                          "allocator has as free",
		                          claim->name, d->driver, d->pool, d->device);
}

static void
walk_claim(gpointer data, gpointer user_data)
{
	const ClusterClaim *claim = data;
	HeldWalk *w = user_data;
	const ClaimAlloc *a = claim->allocation;

	if (!claim->allocated || a == NULL)
		return;
	for (guint i = 0; i < a->devices->len && w->what == NULL; i++) {
		const DevRef *d = &g_array_index(a->devices, DevRef, i);

		if (d->admin_access)
			continue;
		if (d->shared)
			w->shares++;
		else
			check_dedicated(w, claim, d);
	}
}

gboolean
cluster_dra__check_held(gpointer data, char **what)
{
	ClusterDra *self = data;
	HeldWalk w = { self, 0, 0, NULL };
	guint marked;
	gint64 shares;

	if (self->sim == NULL)
		return TRUE;
	if (self->held == NULL)
		self->held = g_hash_table_new(devref_hash, devref_equal);
	g_hash_table_remove_all(self->held);
	cluster_claims_foreach(cluster_sim_get_claims(self->sim), walk_claim, &w);
	if (w.what != NULL) {
		*what = w.what;
		return FALSE;
	}
	marked = dra_allocator_count_allocated(self->alloc);
	shares = dra_allocator_count_shares(self->alloc);
	if (marked == w.dedicated && shares == w.shares)
		return TRUE;
	*what = g_strdup_printf(
	        "the allocator has %u dedicated devices in use and %" G_GINT64_FORMAT
	        " shares; the allocated claims hold %u and %" G_GINT64_FORMAT,
	        marked, shares, w.dedicated, w.shares);
	return FALSE;
}
