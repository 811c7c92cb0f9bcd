/*
 * cmd_import_readme.c: README.md of an imported scenario, what a reader needs before
 * trusting it: what was imported (counts per kind, nodes with their drivers and
 * devices, pools, claims), what was left out and why, which nodes were inferred with
 * which defaults, and every note on what was derived. Deterministic: the same inputs
 * give the same bytes (no dates, no absolute paths beyond what was typed).
 */
#include "drasim-config.h"

#include <string.h>

#include "cmd_import.h"
#include "k8s_names.h"

static void
append_counts(GString *out, const ImportResult *self)
{
	g_string_append(out, "## Imported\n\n| kind | objects | file |\n|---|---:|---|\n");
	for (guint k = 1; k < K8S_KIND_COUNT_; k++) {
		guint total = 0;
		const char *file = NULL;

		for (guint v = 0; v < 4; v++) {
			total += self->versions[k][v];
		}
		for (guint f = 0; f < IMPORT_FILE_COUNT_ && total > 0; f++) {
			for (guint i = 0; i < self->files[f]->len && file == NULL; i++) {
				if (((K8sObject *)self->files[f]->pdata[i])->kind == (K8sKind)k) {
					file = cmd_import_file_path(f);
				}
			}
		}
		if (total > 0) {
			g_string_append_printf(out, "| %s | %u | %s |\n", k8s_kind_name(k), total,
			                       file);
		}
	}
	g_string_append_printf(out,
	                       "\nPods: %u bound to a node (running from t = 0, their claims' "
	                       "allocations kept), %u pending (arrivals at t = 0).\n"
	                       "ResourceClaims: %u allocated (`status.allocation`, never "
	                       "allocated again), %u reserved (`reservedFor` kept).\n",
	                       self->pods_bound, self->pods_pending, self->claims_allocated,
	                       self->claims_reserved);
	if (self->files[IMPORT_FILE_CONTROLLERS]->len > 0) {
		g_string_append_printf(out,
		                       "\nWorkload controllers (%u) are kept in %s for reference "
		                       "only: drasim simulates the pods they had made (the dump's "
		                       "Pods), not the controllers.\n",
		                       self->files[IMPORT_FILE_CONTROLLERS]->len,
		                       cmd_import_file_path(IMPORT_FILE_CONTROLLERS));
	}
}

static void
append_nodes(GString *out, const ImportResult *self)
{
	g_string_append_printf(out,
	                       "\n## Nodes (%u)\n\n| node | from | devices | drivers |\n"
	                       "|---|---|---:|---|\n",
	                       self->nodes->len);
	for (guint i = 0; i < self->nodes->len; i++) {
		const ImportNode *node = &g_array_index(self->nodes, ImportNode, i);

		g_string_append_printf(out, "| %s | %s | %u | ", node->name,
		                       node->inferred ? "inferred" : "Node", node->devices);
		for (guint d = 0; d < node->drivers->len; d++) {
			g_string_append_printf(out, "%s%s", d > 0 ? ", " : "",
			                       (char *)node->drivers->pdata[d]);
		}
		g_string_append(out, " |\n");
	}
}

/* The Nodes' extended resources (the device plugin's nvidia.com/gpu, nvidia.com/mig-*...):
 * the devices of a device-plugin snapshot, which publishes no slices. */
static void
append_extended(GString *out, const ImportResult *self)
{
	const GPtrArray *nodes = self->files[IMPORT_FILE_NODES];
	gboolean any = FALSE;

	for (guint i = 0; i < nodes->len; i++) {
		const K8sNode *node = k8s_object_as_node(nodes->pdata[i]);
		const K8sQtyMap *alloc =
		        node->allocatable.n > 0 ? &node->allocatable : &node->capacity;

		for (guint r = 0; r < alloc->n; r++) {
			if (!k8s_names_is_extended_resource_name(alloc->items[r].key)) {
				continue;
			}
			if (!any) {
				g_string_append(
				        out, "\nExtended resources of the Nodes (device plugins, "
				             "status.allocatable):\n\n| node | resource | "
				             "allocatable |\n|---|---|---:|\n");
				any = TRUE;
			}
			g_string_append_printf(
			        out, "| %s | %s | %s |\n", node->obj.metadata.name,
			        alloc->items[r].key,
			        alloc->items[r].value.valid ? alloc->items[r].value.text : "?");
		}
	}
}

static void
append_pools(GString *out, const ImportResult *self)
{
	if (self->pools->len == 0) {
		return;
	}
	g_string_append_printf(out,
	                       "\n## Pools (%u)\n\n| driver | pool | node | generation | "
	                       "resourceSliceCount | slices in the dump | devices |\n"
	                       "|---|---|---|---:|---:|---:|---:|\n",
	                       self->pools->len);
	for (guint i = 0; i < self->pools->len; i++) {
		const ImportPool *pool = &g_array_index(self->pools, ImportPool, i);

		g_string_append_printf(out,
		                       "| %s | %s | %s | %" G_GINT64_FORMAT " | %" G_GINT64_FORMAT
		                       " | %u | %u |\n",
		                       pool->driver, pool->name, pool->node ? pool->node : "(none)",
		                       pool->generation, pool->slice_count, pool->slices,
		                       pool->devices);
	}
}

static void
append_left_out(GString *out, const ImportResult *self)
{
	g_autofree char *skipped = cmd_import_skipped_text(self);

	g_string_append(out, "\n## Left out\n\n");
	if (skipped == NULL && self->pods_finished == 0 && self->errors->len == 0) {
		g_string_append(out, "Nothing.\n");
		return;
	}
	if (skipped != NULL) {
		g_string_append_printf(out,
		                       "- Kinds drasim does not model, skipped unread: %s. The "
		                       "content of Secrets and ConfigMaps is never read nor "
		                       "copied.\n",
		                       skipped);
	}
	if (self->pods_finished > 0) {
		g_string_append_printf(out,
		                       "- %u Pods in phase Succeeded or Failed: they hold nothing "
		                       "and never run again.\n",
		                       self->pods_finished);
	}
	if (self->errors->len > 0) {
		g_string_append_printf(
		        out,
		        "- %u errors (--keep-going); the %u objects they are in are "
		        "left out, documents that never became objects with them:\n\n",
		        self->errors->len, self->left_out);
		for (guint i = 0; i < self->errors->len; i++) {
			g_string_append_printf(out, "      %s\n", (char *)self->errors->pdata[i]);
		}
	}
}

static void
append_notes(GString *out, const ImportResult *self)
{
	guint inferred = 0;

	for (guint i = 0; i < self->nodes->len; i++) {
		inferred += g_array_index(self->nodes, ImportNode, i).inferred;
	}
	if (inferred == 0 && self->notes->len == 0) {
		return;
	}
	g_string_append(out, "\n## Notes\n\n");
	if (inferred > 0) {
		g_string_append_printf(
		        out,
		        "- Nodes known only from their ResourceSlices' nodeName (%u) "
		        "are inferred with %s%s.\n",
		        inferred,
		        self->node_defaults != NULL ? "nodeDefaults "
		                                    : "unlimited CPU, memory and pods",
		        self->node_defaults != NULL ? self->node_defaults : "");
	}
	for (guint i = 0; i < self->notes->len; i++) {
		g_string_append_printf(out, "- %s.\n", (char *)self->notes->pdata[i]);
	}
}

char *
cmd_import_readme(const ImportResult *self)
{
	GString *out = g_string_new(NULL);

	g_string_append_printf(out, "# %s: an imported cluster\n\nWritten by `drasim import` from",
	                       self->name);
	for (guint i = 0; self->inputs[i] != NULL; i++) {
		g_string_append_printf(out, " `%s`", self->inputs[i]);
	}
	g_string_append(out, ". `drasim run scenario.yaml` replays it; docs/import.md describes "
	                     "the format.\n\n");
	append_counts(out, self);
	append_nodes(out, self);
	append_extended(out, self);
	append_pools(out, self);
	append_left_out(out, self);
	append_notes(out, self);
	return g_string_free(out, FALSE);
}
