/*
 * cmd_import_scan.c: what of a loaded cluster dump goes into the scenario.
 *
 * Every error (decoding, or Kubernetes' validation of one object) is charged to the
 * object it lies in; with --keep-going those objects are left out and listed, else
 * the import stops. The rest is sorted into the scenario's files (docs/import.md,
 * section 1), and the README's figures are summed: nodes (real or inferred from the
 * slices' nodeName), pools with generation and resourceSliceCount, claims allocated.
 * Reference checks between objects (a claim's DeviceClass...) are left to `drasim
 * lint` and `drasim run`: partial dumps are the norm.
 */
#include "drasim-config.h"

#include <string.h>

#include "cmd_import.h"
#include "k8s_validate.h"

void
import_result_init(ImportResult *self)
{
	memset(self, 0, sizeof *self);
	self->set = k8s_object_set_new();
	self->diags = k8s_diag_list_new();
	for (guint f = 0; f < IMPORT_FILE_COUNT_; f++) {
		self->files[f] = g_ptr_array_new();
	}
	self->errors = g_ptr_array_new_with_free_func(g_free);
	self->notes = g_ptr_array_new_with_free_func(g_free);
	self->nodes = g_array_new(FALSE, TRUE, sizeof(ImportNode));
	self->pools = g_array_new(FALSE, TRUE, sizeof(ImportPool));
}

void
import_result_clear(ImportResult *self)
{
	for (guint i = 0; i < self->nodes->len; i++) {
		g_ptr_array_free(g_array_index(self->nodes, ImportNode, i).drivers, TRUE);
	}
	g_array_free(self->nodes, TRUE);
	g_array_free(self->pools, TRUE);
	g_ptr_array_free(self->errors, TRUE);
	g_ptr_array_free(self->notes, TRUE);
	for (guint f = 0; f < IMPORT_FILE_COUNT_; f++) {
		g_ptr_array_free(self->files[f], TRUE);
	}
	k8s_diag_list_free(self->diags);
	k8s_object_set_free(self->set);
	g_free(self->node_defaults);
}

const char *
cmd_import_file_path(ImportFile file)
{
	static const char *const paths[IMPORT_FILE_COUNT_] = {
		[IMPORT_FILE_NODES] = "cluster/nodes.yaml",
		[IMPORT_FILE_SLICES] = "cluster/resourceslices.yaml",
		[IMPORT_FILE_CLASSES] = "cluster/deviceclasses.yaml",
		[IMPORT_FILE_CLAIMS] = "workload/claims.yaml",
		[IMPORT_FILE_TAINT_RULES] = "workload/devicetaintrules.yaml",
		[IMPORT_FILE_PODS] = "workload/pods.yaml",
		[IMPORT_FILE_CONTROLLERS] = "workload/controllers.yaml",
	};
	return paths[file];
}

static int
compare_strings(gconstpointer a, gconstpointer b, gpointer unused)
{
	(void)unused;
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* ---- charging errors to objects ---------------------------------------------------- */

static int
pos_cmp(const K8sPos *a, const K8sPos *b)
{
	if (a->line != b->line) {
		return a->line < b->line ? -1 : 1;
	}
	return a->col < b->col ? -1 : a->col > b->col;
}

static gboolean
same_pos(const K8sPos *a, const K8sPos *b)
{
	return a->line == b->line && a->col == b->col;
}

/*
 * Whether @diag, found after @obj in a file of several documents, is about a later
 * document that never became an object (no kind or apiVersion, an unknown kind, not a
 * mapping): it says so at that document's apiVersion, kind or root, never at @obj's.
 */
static gboolean
is_own_document_error(const K8sObject *obj, const K8sDiag *diag)
{
	const char *rel = diag->path != NULL ? diag->path : "";

	if (obj->path_prefix != NULL && g_str_has_prefix(rel, obj->path_prefix)) {
		rel += strlen(obj->path_prefix);
	}
	if (strcmp(rel, "kind") == 0 || strcmp(rel, "apiVersion") == 0) {
		return !same_pos(&diag->pos, &obj->kind_pos) &&
		       !same_pos(&diag->pos, &obj->api_version_pos);
	}
	return rel[0] == '\0' && (g_str_has_prefix(diag->message, "missing 'kind'") ||
	                          g_str_has_prefix(diag->message, "missing 'apiVersion'") ||
	                          g_str_has_prefix(diag->message, "expected a Kubernetes object"));
}

/*
 * The object @diag lies in: the last object of its file that starts at or before it,
 * when the diagnostic's field path is inside that object's (a List item's paths start
 * with "items[N]."). NULL for a document that never became an object.
 */
static K8sObject *
owner_of(GHashTable *by_file, const K8sDiag *diag)
{
	GPtrArray *objs =
	        diag->pos.file != NULL ? g_hash_table_lookup(by_file, diag->pos.file) : NULL;
	guint lo = 0, hi = objs != NULL ? objs->len : 0;
	K8sObject *obj;

	while (lo < hi) { /* first object starting after the diagnostic */
		guint mid = lo + (hi - lo) / 2;

		if (pos_cmp(&((K8sObject *)objs->pdata[mid])->pos, &diag->pos) <= 0) {
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	if (lo == 0) {
		return NULL;
	}
	obj = objs->pdata[lo - 1];
	if (obj->path_prefix != NULL &&
	    (diag->path == NULL || !g_str_has_prefix(diag->path, obj->path_prefix))) {
		return NULL;
	}
	return is_own_document_error(obj, diag) ? NULL : obj;
}

/* Marks in @bad (by object index) the objects that have errors; lists every error. */
static void
charge_errors(ImportResult *self, gboolean *bad)
{
	g_autoptr(GHashTable) by_file = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
	                                                      (GDestroyNotify)g_ptr_array_unref);
	guint n = k8s_object_set_count(self->set);

	for (guint i = 0; i < n; i++) {
		K8sObject *obj = k8s_object_set_get(self->set, i);
		GPtrArray *objs = g_hash_table_lookup(by_file, obj->pos.file);

		if (objs == NULL) {
			objs = g_ptr_array_new();
			g_hash_table_insert(by_file, (gpointer)obj->pos.file, objs);
		}
		g_ptr_array_add(objs, obj);
	}
	for (guint i = 0; i < k8s_diag_list_count(self->diags); i++) {
		const K8sDiag *diag = k8s_diag_list_get(self->diags, i);
		K8sObject *owner;

		if (diag->severity != K8S_SEVERITY_ERROR) {
			continue;
		}
		owner = owner_of(by_file, diag);
		if (owner != NULL && !bad[owner->index]) {
			bad[owner->index] = TRUE;
			self->left_out++;
		}
		g_ptr_array_add(self->errors, k8s_diag_format(diag));
	}
}

/* ---- pools and nodes --------------------------------------------------------------- */

/*
 * Sums @slices into @pools (ImportPool), one per driver and pool name, in first-seen
 * order; @pool_of (nullable, one per slice) gets each slice's pool.
 */
static void
collect_pools(GPtrArray *slices, GArray *pools, guint *pool_of)
{
	g_autoptr(GHashTable) index = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

	for (guint i = 0; i < slices->len; i++) {
		const K8sResourceSliceSpec *spec = &((K8sResourceSlice *)slices->pdata[i])->spec;
		g_autofree char *key = g_strconcat(spec->driver ? spec->driver : "", "/",
		                                   spec->pool.name ? spec->pool.name : "", NULL);
		gpointer at;
		ImportPool *pool;

		if (!g_hash_table_lookup_extended(index, key, NULL, &at)) {
			at = GUINT_TO_POINTER(pools->len);
			g_hash_table_insert(index, g_steal_pointer(&key), at);
			g_array_append_val(pools, ((ImportPool){ .driver = spec->driver,
			                                         .name = spec->pool.name,
			                                         .node = spec->node_name }));
		}
		pool = &g_array_index(pools, ImportPool, GPOINTER_TO_UINT(at));
		pool->slices++;
		pool->devices += spec->n_devices;
		if (spec->pool.has_generation) {
			pool->generation = MAX(pool->generation, spec->pool.generation);
		} else {
			pool->generation_trimmed = TRUE;
		}
		if (spec->pool.has_resource_slice_count) {
			pool->slice_count = spec->pool.resource_slice_count;
		} else {
			pool->count_trimmed = TRUE;
		}
		if (pool_of != NULL) {
			pool_of[i] = GPOINTER_TO_UINT(at);
		}
	}
}

static void
note_trimmed(ImportResult *self, const ImportPool *pool, gint64 count)
{
	g_autoptr(GString) text = g_string_new(NULL);

	g_string_printf(text, "pool %s/%s:", pool->driver, pool->name);
	if (pool->generation_trimmed) {
		g_string_append_printf(text,
		                       " no generation in the dump, %" G_GINT64_FORMAT " used (the "
		                       "API's zero value, or the pool's other slices')",
		                       pool->generation);
	}
	if (pool->count_trimmed) {
		g_string_append_printf(text,
		                       "%s no resourceSliceCount in the dump, %" G_GINT64_FORMAT
		                       " used (the slices it holds: the pool is complete)",
		                       pool->generation_trimmed ? ";" : "", count);
	}
	g_ptr_array_add(self->notes, g_string_free(g_steal_pointer(&text), FALSE));
}

/*
 * A poster who trimmed a pool's generation or resourceSliceCount leaves the slices
 * without them. The generation gets the zero value the API server decodes
 * (ResourcePool.Generation, staging/src/k8s.io/api/resource/v1/types.go) or the
 * pool's other slices' generation; the count, which validation requires above zero,
 * the number of slices the dump holds. Both are written into the slices (before
 * validation) so the scenario reads what the README says.
 */
static void
fill_trimmed_pools(ImportResult *self)
{
	guint n = k8s_object_set_count_kind(self->set, K8S_KIND_RESOURCE_SLICE);
	g_autoptr(GPtrArray) slices = g_ptr_array_sized_new(n);
	g_autoptr(GArray) pools = g_array_new(FALSE, TRUE, sizeof(ImportPool));
	g_autofree guint *pool_of = g_new0(guint, MAX(n, 1));

	for (guint i = 0; i < n; i++) {
		g_ptr_array_add(slices,
		                k8s_object_set_get_kind(self->set, K8S_KIND_RESOURCE_SLICE, i));
	}
	collect_pools(slices, pools, pool_of);
	for (guint i = 0; i < n; i++) {
		K8sResourcePool *written = &((K8sResourceSlice *)slices->pdata[i])->spec.pool;
		const ImportPool *pool = &g_array_index(pools, ImportPool, pool_of[i]);

		if (!written->has_generation) {
			written->has_generation = TRUE;
			written->generation = pool->generation;
		}
		if (!written->has_resource_slice_count) {
			written->has_resource_slice_count = TRUE;
			written->resource_slice_count =
			        pool->slice_count > 0 ? pool->slice_count : pool->slices;
		}
	}
	for (guint p = 0; p < pools->len; p++) {
		const ImportPool *pool = &g_array_index(pools, ImportPool, p);

		if (pool->generation_trimmed || pool->count_trimmed) {
			note_trimmed(self, pool,
			             pool->slice_count > 0 ? pool->slice_count : pool->slices);
		}
	}
}

static ImportNode *
node_entry(GHashTable *by_name, const char *name, gboolean inferred)
{
	ImportNode *node = g_hash_table_lookup(by_name, name);

	if (node == NULL) {
		node = g_new0(ImportNode, 1);
		node->name = name;
		node->inferred = inferred;
		node->drivers = g_ptr_array_new();
		g_hash_table_insert(by_name, (gpointer)name, node);
	}
	return node;
}

static void
node_add_devices(ImportNode *node, const char *driver, guint devices)
{
	guint at = 0;

	node->devices += devices;
	while (at < node->drivers->len && strcmp(node->drivers->pdata[at], driver) < 0) {
		at++;
	}
	if (at == node->drivers->len || strcmp(node->drivers->pdata[at], driver) != 0) {
		g_ptr_array_insert(node->drivers, (gint)at, (gpointer)driver);
	}
}

static int
node_order(gconstpointer a, gconstpointer b)
{
	const ImportNode *x = *(ImportNode *const *)a, *y = *(ImportNode *const *)b;

	if (x->inferred != y->inferred) {
		return x->inferred ? 1 : -1;
	}
	return strcmp(x->name, y->name);
}

/* The nodes: every Node, then those only slices name (their nodeName, or a device's
 * nodeName under perDeviceNodeSelection), each with its devices and drivers. */
static void
scan_nodes(ImportResult *self)
{
	g_autoptr(GHashTable) by_name = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GPtrArray) sorted = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *slices = self->files[IMPORT_FILE_SLICES];
	GHashTableIter iter;
	gpointer value;

	for (guint i = 0; i < self->files[IMPORT_FILE_NODES]->len; i++) {
		node_entry(by_name,
		           ((K8sObject *)self->files[IMPORT_FILE_NODES]->pdata[i])->metadata.name,
		           FALSE);
	}
	for (guint i = 0; i < slices->len; i++) {
		const K8sResourceSliceSpec *spec = &((K8sResourceSlice *)slices->pdata[i])->spec;

		if (spec->node_name != NULL && spec->node_name[0] != '\0') {
			node_add_devices(node_entry(by_name, spec->node_name, TRUE), spec->driver,
			                 spec->n_devices);
			continue;
		}
		for (guint d = 0; d < spec->n_devices; d++) {
			if (spec->devices[d].node_name != NULL &&
			    spec->devices[d].node_name[0] != '\0') {
				node_add_devices(
				        node_entry(by_name, spec->devices[d].node_name, TRUE),
				        spec->driver, 1);
			}
		}
	}
	g_hash_table_iter_init(&iter, by_name);
	while (g_hash_table_iter_next(&iter, NULL, &value)) {
		g_ptr_array_add(sorted, value);
	}
	g_ptr_array_sort(sorted, node_order);
	for (guint i = 0; i < sorted->len; i++) {
		g_array_append_val(self->nodes, *(ImportNode *)sorted->pdata[i]);
	}
}

static void
sort_pod(ImportResult *self, K8sPod *pod)
{
	if (pod->phase != NULL &&
	    (strcmp(pod->phase, "Succeeded") == 0 || strcmp(pod->phase, "Failed") == 0)) {
		self->pods_finished++; /* done: they hold nothing and never run again */
		return;
	}
	if (pod->spec.node_name != NULL && pod->spec.node_name[0] != '\0') {
		self->pods_bound++;
	} else {
		self->pods_pending++;
	}
	g_ptr_array_add(self->files[IMPORT_FILE_PODS], pod);
	self->versions[pod->obj.kind][pod->obj.version]++;
}

static gboolean
is_nvidia_resource(const char *name)
{
	return strcmp(name, "nvidia.com/gpu") == 0 || g_str_has_prefix(name, "nvidia.com/mig-");
}

/* The file @obj goes to, with the counts the README gives; -1: none (a finished pod). */
static void
sort_object(ImportResult *self, K8sObject *obj)
{
	static const ImportFile file_of[K8S_KIND_COUNT_] = {
		[K8S_KIND_DEVICE_CLASS] = IMPORT_FILE_CLASSES,
		[K8S_KIND_RESOURCE_CLAIM] = IMPORT_FILE_CLAIMS,
		[K8S_KIND_RESOURCE_CLAIM_TEMPLATE] = IMPORT_FILE_CLAIMS,
		[K8S_KIND_RESOURCE_SLICE] = IMPORT_FILE_SLICES,
		[K8S_KIND_DEVICE_TAINT_RULE] = IMPORT_FILE_TAINT_RULES,
		[K8S_KIND_NODE] = IMPORT_FILE_NODES,
		[K8S_KIND_DEPLOYMENT] = IMPORT_FILE_CONTROLLERS,
		[K8S_KIND_STATEFUL_SET] = IMPORT_FILE_CONTROLLERS,
		[K8S_KIND_REPLICA_SET] = IMPORT_FILE_CONTROLLERS,
		[K8S_KIND_JOB] = IMPORT_FILE_CONTROLLERS,
	};
	K8sResourceClaim *claim = k8s_object_as_resource_claim(obj);
	K8sResourceSlice *slice = k8s_object_as_resource_slice(obj);
	K8sNode *node = k8s_object_as_node(obj);

	if (obj->kind == K8S_KIND_POD) {
		sort_pod(self, k8s_object_as_pod(obj));
		return;
	}
	if (claim != NULL) {
		self->claims_allocated += claim->status.allocation != NULL;
		self->claims_reserved += claim->status.n_reserved_for > 0;
	}
	if (slice != NULL) {
		self->dra_world = TRUE;
		self->nvidia |= g_strcmp0(slice->spec.driver, "gpu.nvidia.com") == 0;
	}
	for (guint i = 0; node != NULL && i < node->capacity.n; i++) {
		self->nvidia |= is_nvidia_resource(node->capacity.items[i].key);
	}
	g_ptr_array_add(self->files[file_of[obj->kind]], obj);
	self->versions[obj->kind][obj->version]++;
}

/* A note per kind read in another apiVersion than v1: all are written as v1. */
static void
note_versions(ImportResult *self)
{
	for (guint k = 1; k < K8S_KIND_COUNT_; k++) {
		for (guint v = 1; v < 4; v++) {
			K8sObject probe = { .kind = (K8sKind)k, .version = (K8sApiVersion)v };
			const char *why = NULL;

			if (self->versions[k][v] == 0) {
				continue;
			}
			k8s_version_served(&probe, NULL, &why);
			g_ptr_array_add(self->notes,
			                g_strdup_printf("%u %s in %s, written as %s with the same "
			                                "content%s%s",
			                                self->versions[k][v], k8s_kind_name(k),
			                                k8s_api_version_string(k, v),
			                                k8s_api_version_string(k, K8S_VERSION_V1),
			                                why != NULL ? ": " : "",
			                                why != NULL ? why : ""));
		}
	}
}

/*
 * Kubernetes' validation of @obj, less what it says of the apiVersion: a dump in a
 * version 1.34 no longer serves (v1alpha3) or serves only when enabled (the betas)
 * is still what the cluster published, so it is imported and note_versions() says so.
 */
static void
validate(ImportResult *self, const K8sObject *obj)
{
	g_autoptr(K8sDiagList) found = k8s_diag_list_new();

	k8s_validate_object(obj, found);
	for (guint i = 0; i < k8s_diag_list_count(found); i++) {
		const K8sDiag *diag = k8s_diag_list_get(found, i);

		if (diag->pos.line == obj->api_version_pos.line &&
		    diag->pos.col == obj->api_version_pos.col && diag->path != NULL &&
		    g_str_has_suffix(diag->path, "apiVersion")) {
			continue;
		}
		k8s_diag_list_add(self->diags, diag->severity, &diag->pos, diag->path, "%s",
		                  diag->message);
	}
}

gboolean
cmd_import_scan(ImportResult *self)
{
	guint n = k8s_object_set_count(self->set);
	g_autofree gboolean *bad = g_new0(gboolean, MAX(n, 1));

	fill_trimmed_pools(self);
	for (guint i = 0; i < n; i++) {
		validate(self, k8s_object_set_get(self->set, i));
	}
	k8s_diag_list_sort(self->diags);
	charge_errors(self, bad);
	if (self->errors->len > 0 && !self->keep_going) {
		return FALSE;
	}
	for (guint i = 0; i < n; i++) {
		if (!bad[i]) {
			sort_object(self, k8s_object_set_get(self->set, i));
		}
	}
	collect_pools(self->files[IMPORT_FILE_SLICES], self->pools, NULL);
	scan_nodes(self);
	note_versions(self);
	return TRUE;
}

char *
cmd_import_skipped_text(const ImportResult *self)
{
	GHashTable *skipped = k8s_object_set_get_skipped(self->set);
	g_autofree gpointer *kinds = NULL;
	GString *text;
	guint n = 0;

	if (skipped == NULL) {
		return NULL;
	}
	kinds = g_hash_table_get_keys_as_array(skipped, &n);
	g_qsort_with_data(kinds, (gint)n, sizeof(gpointer), (GCompareDataFunc)compare_strings,
	                  NULL);
	text = g_string_new(NULL);
	for (guint i = 0; i < n; i++) {
		g_string_append_printf(text, "%s%s %u", i > 0 ? ", " : "", (char *)kinds[i],
		                       GPOINTER_TO_UINT(g_hash_table_lookup(skipped, kinds[i])));
	}
	return g_string_free(text, FALSE);
}
