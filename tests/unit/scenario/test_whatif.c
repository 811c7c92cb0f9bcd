/*
 * test_whatif.c: the what-if edits of a mode on an imported cluster
 * (world_inventory__build(), docs/import.md "What-if modes") on small
 * inventories whose counts are worked out by hand below, their errors, and
 * the decoder's checks of the mode keys.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "k8s_quantity.h"
#include "measure.h"
#include "scenario_test_util.h"
#include "world-inventory.h"

#define DATA   DRASIM_TEST_DATA "/"
#define IMPORT DRASIM_TEST_IMPORT "/"

typedef struct {
	Scenario sc;
	ScenarioMode *mode;
	WorldInventory inv;
	GPtrArray *notes;
	K8sDiagList *diags;
} Fix;

/* A scenario holding only what world_inventory__build() reads: the inventory
 * of @file, the built-in catalog, no pools, one mode of @world (mixed MIG
 * strategy, as the decoder sets it). */
static void
fix_init(Fix *f, const char *file, ScenarioWorld world)
{
	const char *paths[] = { file, NULL };
	ScenarioMode m = { .name = g_strdup("m"), .world = world };
	K8sDiagList *load = k8s_diag_list_new();

	memset(f, 0, sizeof(*f));
	f->sc.inventory = k8s_object_set_new();
	assert_true(k8s_load_paths(paths, K8S_LOAD_DEFAULT, f->sc.inventory, load));
	k8s_diag_list_free(load);
	f->sc.catalog = hw_catalog_new_builtin(NULL);
	/* nodeDefaults unset, as scenario_load() leaves them */
	f->sc.node_defaults = (ScenarioNodeDefaults){ -1, -1, -1, { NULL, 0, 0 } };
	f->sc.pools = g_array_new(FALSE, TRUE, sizeof(ScenarioPool));
	f->sc.modes = g_array_new(FALSE, TRUE, sizeof(ScenarioMode));
	xr_config_init(&m.xr);
	m.xr.mig_strategy = XR_MIG_MIXED;
	m.layouts = g_array_new(FALSE, TRUE, sizeof(ScenarioPoolLayout));
	g_array_append_val(f->sc.modes, m);
	f->mode = &g_array_index(f->sc.modes, ScenarioMode, 0);
	f->notes = g_ptr_array_new_with_free_func(scenario_note__free);
	f->diags = k8s_diag_list_new();
}

static void
fix_clear(Fix *f)
{
	world_inventory__clear(&f->inv);
	g_free(f->mode->name);
	for (guint i = 0; i < f->mode->layouts->len; i++) {
		g_free(g_array_index(f->mode->layouts, ScenarioPoolLayout, i).pool);
		g_free(g_array_index(f->mode->layouts, ScenarioPoolLayout, i).mig);
	}
	g_array_unref(f->mode->layouts);
	if (f->mode->add_nodes != NULL) {
		for (guint i = 0; i < f->mode->add_nodes->len; i++)
			g_free(g_array_index(f->mode->add_nodes, ScenarioNodeClone, i).like);
		g_array_unref(f->mode->add_nodes);
	}
	g_clear_pointer(&f->mode->remove_nodes, g_ptr_array_unref);
	g_clear_pointer(&f->mode->drain_nodes, g_ptr_array_unref);
	g_clear_pointer(&f->mode->remove_pos, g_array_unref);
	g_clear_pointer(&f->mode->drain_pos, g_array_unref);
	g_array_unref(f->sc.modes);
	g_array_unref(f->sc.pools);
	hw_catalog_free(f->sc.catalog);
	k8s_object_set_free(f->sc.inventory);
	g_ptr_array_unref(f->notes);
	k8s_diag_list_free(f->diags);
}

static void
names(GPtrArray **list, GArray **pos, const char *name)
{
	K8sPos at = { "scenario.yaml", 7, 9 };

	*list = g_ptr_array_new_with_free_func(g_free);
	*pos = g_array_new(FALSE, TRUE, sizeof(K8sPos));
	g_ptr_array_add(*list, g_strdup(name));
	g_array_append_val(*pos, at);
}

static void
clone(Fix *f, const char *like, guint count)
{
	ScenarioNodeClone c = { g_strdup(like), count, { "scenario.yaml", 5, 9 } };

	if (f->mode->add_nodes == NULL)
		f->mode->add_nodes = g_array_new(FALSE, TRUE, sizeof(ScenarioNodeClone));
	g_array_append_val(f->mode->add_nodes, c);
}

static void
layout(Fix *f, const char *node, const char *mig)
{
	ScenarioPoolLayout l = { g_strdup(node), g_strdup(mig), { "scenario.yaml", 9, 14 } };

	g_array_append_val(f->mode->layouts, l);
}

static gboolean
build(Fix *f)
{
	g_autoptr(GError) error = NULL;
	gboolean ok = world_inventory__build(&f->sc, f->mode, &f->inv, f->notes, f->diags, &error);

	assert_true(ok == (error == NULL));
	return ok;
}

static guint
count(const Fix *f, K8sKind kind)
{
	return k8s_object_set_count_kind(f->inv.set, kind);
}

static guint
devices(const Fix *f, const char *node)
{
	guint n = 0;

	for (guint i = 0; i < count(f, K8S_KIND_RESOURCE_SLICE); i++) {
		const K8sResourceSlice *s = k8s_object_as_resource_slice(
		        k8s_object_set_get_kind(f->inv.set, K8S_KIND_RESOURCE_SLICE, i));

		if (node == NULL || g_strcmp0(s->spec.node_name, node) == 0)
			n += s->spec.n_devices;
	}
	return n;
}

static K8sNode *
node(const Fix *f, const char *name)
{
	return k8s_object_as_node(k8s_object_set_lookup(f->inv.set, K8S_KIND_NODE, NULL, name));
}

static const char *
label(const K8sNode *n, const char *key)
{
	for (guint i = 0; i < n->obj.metadata.labels.n; i++)
		if (strcmp(n->obj.metadata.labels.items[i].key, key) == 0)
			return n->obj.metadata.labels.items[i].value;
	return NULL;
}

/* -1 when @n's allocatable has no @key */
static gint64
alloc(const K8sNode *n, const char *key)
{
	for (guint i = 0; i < n->allocatable.n; i++)
		if (strcmp(n->allocatable.items[i].key, key) == 0)
			return k8s_quantity_value(&n->allocatable.items[i].value.value);
	return -1;
}

static const K8sResourceSlice *
slice_of(const Fix *f, const char *node_name, const char *driver)
{
	for (guint i = 0; i < count(f, K8S_KIND_RESOURCE_SLICE); i++) {
		const K8sResourceSlice *s = k8s_object_as_resource_slice(
		        k8s_object_set_get_kind(f->inv.set, K8S_KIND_RESOURCE_SLICE, i));

		if (g_strcmp0(s->spec.node_name, node_name) == 0 &&
		    strcmp(s->spec.driver, driver) == 0)
			return s;
	}
	/* never NULL to the callers: a missing slice fails the test here */
	fail_msg("no %s slice of node %s", driver, node_name);
	abort();
}

static gboolean
has_diag(K8sDiagList *diags, const char *field, const char *text)
{
	for (guint i = 0; i < k8s_diag_list_count(diags); i++) {
		const K8sDiag *d = k8s_diag_list_get(diags, i);

		if (g_strcmp0(d->path, field) == 0 && strstr(d->message, text) != NULL)
			return TRUE;
	}
	return FALSE;
}

/* The inventory as imported, in the DRA world: 2 Nodes, 3 slices (node-a's
 * GPUs and NIC, node-b's GPUs), 2 + 1 + 2 = 5 devices; nothing gone or drained. */
static void
test_as_is(void **state)
{
	Fix f;

	(void)state;
	fix_init(&f, DATA "whatif-2node.yaml", SCENARIO_WORLD_DRA);
	assert_true(build(&f));
	assert_int_equal(count(&f, K8S_KIND_NODE), 2);
	assert_int_equal(count(&f, K8S_KIND_RESOURCE_SLICE), 3);
	assert_int_equal(devices(&f, NULL), 5);
	assert_int_equal(f.inv.gone->len, 0);
	assert_int_equal(f.inv.drained->len, 0);
	fix_clear(&f);
}

/* removeNodes [node-b]: node-b and its one slice (2 GPUs) go: 1 Node, 2
 * slices, 5 - 2 = 3 devices, gone = [node-b]. */
static void
test_remove(void **state)
{
	Fix f;

	(void)state;
	fix_init(&f, DATA "whatif-2node.yaml", SCENARIO_WORLD_DRA);
	names(&f.mode->remove_nodes, &f.mode->remove_pos, "node-b");
	assert_true(build(&f));
	assert_int_equal(count(&f, K8S_KIND_NODE), 1);
	assert_null(node(&f, "node-b"));
	assert_int_equal(count(&f, K8S_KIND_RESOURCE_SLICE), 2);
	assert_int_equal(devices(&f, NULL), 3);
	assert_int_equal(devices(&f, "node-b"), 0);
	assert_int_equal(f.inv.gone->len, 1);
	assert_string_equal(f.inv.gone->pdata[0], "node-b");
	fix_clear(&f);
}

/* drainNodes [node-b]: everything stays (2 Nodes, 3 slices, 5 devices), node-b
 * cordoned (spec.unschedulable), node-a not; drained = [node-b]. The
 * inventory itself is not edited: its node-b stays schedulable. */
static void
test_drain(void **state)
{
	Fix f;

	(void)state;
	fix_init(&f, DATA "whatif-2node.yaml", SCENARIO_WORLD_DRA);
	names(&f.mode->drain_nodes, &f.mode->drain_pos, "node-b");
	assert_true(build(&f));
	assert_int_equal(count(&f, K8S_KIND_NODE), 2);
	assert_int_equal(devices(&f, NULL), 5);
	assert_true(node(&f, "node-b")->unschedulable);
	assert_false(node(&f, "node-a")->unschedulable);
	assert_false(k8s_object_as_node(
	                     k8s_object_set_lookup(f.sc.inventory, K8S_KIND_NODE, NULL, "node-b"))
	                     ->unschedulable);
	assert_int_equal(f.inv.drained->len, 1);
	assert_string_equal(f.inv.drained->pdata[0], "node-b");
	fix_clear(&f);
}

/* addNodes [{like: node-a, count: 2}]: node-a-clone-0 and -1, each with
 * node-a's 2 slices (2 GPUs, 1 NIC): 2 + 2 = 4 Nodes, 3 + 2 * 2 = 7 slices,
 * 5 + 2 * 3 = 11 devices. A clone's slice: nodeName and pool renamed (pool
 * "node-a" -> "node-a-clone-1"), slice name likewise, device names and pool
 * generation (3) kept; its hostname label is its own name, other labels kept. */
static void
test_add(void **state)
{
	const K8sResourceSlice *s;
	Fix f;

	(void)state;
	fix_init(&f, DATA "whatif-2node.yaml", SCENARIO_WORLD_DRA);
	clone(&f, "node-a", 2);
	assert_true(build(&f));
	assert_int_equal(count(&f, K8S_KIND_NODE), 4);
	assert_int_equal(count(&f, K8S_KIND_RESOURCE_SLICE), 7);
	assert_int_equal(devices(&f, NULL), 11);
	assert_int_equal(devices(&f, "node-a-clone-0"), 3);
	assert_non_null(node(&f, "node-a-clone-1"));
	assert_string_equal(label(node(&f, "node-a-clone-1"), "kubernetes.io/hostname"),
	                    "node-a-clone-1");
	assert_string_equal(label(node(&f, "node-a-clone-1"), "zone"), "a");
	assert_string_equal(label(node(&f, "node-a"), "kubernetes.io/hostname"), "node-a");
	s = slice_of(&f, "node-a-clone-1", "gpu.nvidia.com");
	assert_non_null(s);
	assert_string_equal(s->obj.metadata.name, "node-a-clone-1-gpu.nvidia.com-abcde");
	assert_string_equal(s->spec.pool.name, "node-a-clone-1");
	assert_int_equal(s->spec.pool.generation, 3);
	assert_string_equal(s->spec.devices[1].name, "gpu-1");
	/* the original is untouched */
	assert_string_equal(slice_of(&f, "node-a", "gpu.nvidia.com")->spec.pool.name, "node-a");
	fix_clear(&f);
}

/* Two entries like one node continue its numbering: clones 0, then 1 and 2. */
static void
test_add_numbering(void **state)
{
	Fix f;

	(void)state;
	fix_init(&f, DATA "whatif-2node.yaml", SCENARIO_WORLD_DRA);
	clone(&f, "node-b", 1);
	clone(&f, "node-b", 2);
	assert_true(build(&f));
	assert_int_equal(count(&f, K8S_KIND_NODE), 5);
	assert_non_null(node(&f, "node-b-clone-2"));
	assert_null(node(&f, "node-b-clone-3"));
	fix_clear(&f);
}

/* mig {node-a: all-1g.10gb}: the H100 80GB HBM3 (catalog h100-sxm5-80gb)
 * takes 7 1g.10gb instances (max_count 7, starts 0..6 of 8 memory slices),
 * so node-a's 2 GPUs publish 2 * 7 = 14 MIG devices and no full GPU; its NIC
 * slice stays (15 devices on node-a), node-b keeps 2: 17 in all. The pool is
 * republished at generation 3 + 1 = 4; MIG devices keep their GPU's UUID as
 * parentUUID. */
static void
test_mig(void **state)
{
	const K8sResourceSlice *s;
	Fix f;

	(void)state;
	fix_init(&f, DATA "whatif-2node.yaml", SCENARIO_WORLD_DRA);
	layout(&f, "node-a", "all-1g.10gb");
	assert_true(build(&f));
	s = slice_of(&f, "node-a", "gpu.nvidia.com");
	assert_non_null(s);
	assert_int_equal(s->spec.n_devices, 14);
	assert_string_equal(s->spec.devices[0].name, "gpu-0-mig-1g10gb-19-0");
	assert_string_equal(s->spec.devices[13].name, "gpu-1-mig-1g10gb-19-6");
	for (guint i = 0; i < s->spec.devices[0].n_attributes; i++)
		if (strcmp(s->spec.devices[0].attributes[i].name, "parentUUID") == 0)
			assert_string_equal(s->spec.devices[0].attributes[i].string_value,
			                    "GPU-aaaaaaaa-0000-0000-0000-000000000000");
	assert_int_equal(s->spec.pool.generation, 4);
	assert_non_null(slice_of(&f, "node-a", "dra.net"));
	assert_int_equal(devices(&f, "node-a"), 15);
	assert_int_equal(devices(&f, NULL), 17);
	fix_clear(&f);
}

/* The extended world after the same layout: the device plugin (mixed) counts
 * nvidia.com/mig-1g.10gb = 14 on node-a and nvidia.com/gpu = 2 on node-b. */
static void
test_mig_extended(void **state)
{
	Fix f;

	(void)state;
	fix_init(&f, DATA "whatif-2node.yaml", SCENARIO_WORLD_EXTENDED);
	layout(&f, "node-a", "all-1g.10gb");
	assert_true(build(&f));
	assert_int_equal(alloc(node(&f, "node-a"), "nvidia.com/mig-1g.10gb"), 14);
	assert_true(alloc(node(&f, "node-a"), "nvidia.com/gpu") <= 0);
	assert_int_equal(alloc(node(&f, "node-b"), "nvidia.com/gpu"), 2);
	assert_string_equal(label(node(&f, "node-a"), "nvidia.com/mig-1g.10gb.count"), "14");
	fix_clear(&f);
}

/* mig errors at the key's position: a layout the GPU cannot take, a node
 * without NVIDIA GPUs. */
static void
test_mig_errors(void **state)
{
	Fix f;

	(void)state;
	fix_init(&f, DATA "whatif-2node.yaml", SCENARIO_WORLD_DRA);
	layout(&f, "node-a", "all-1g.5gb");
	assert_false(build(&f));
	assert_true(has_diag(f.diags, "spec.modes[0].mig.node-a", "unknown MIG profile"));
	assert_null(f.inv.set);
	fix_clear(&f);

	fix_init(&f, DATA "whatif-device-plugin.yaml", SCENARIO_WORLD_DRA);
	layout(&f, "dgx-1", "all-1g.10gb");
	assert_false(build(&f));
	assert_true(has_diag(f.diags, "spec.modes[0].mig.dgx-1", "publishes no NVIDIA GPU"));
	fix_clear(&f);
}

/* A real DRA dump (tests/data/import/nvidia-h100-2node-v1.yaml: 2 nodes known
 * only from their slices, 8 H100 80GB HBM3 each) in the extended world: each
 * gets a Node carrying nvidia.com/gpu = 8 and GFD's labels: gpu.product with
 * dashes, gpu.count 8, gpu.memory 81559 (the catalog's MiB), family hopper. */
static void
test_dra_dump_to_extended(void **state)
{
	K8sNode *n;
	Fix f;

	(void)state;
	fix_init(&f, IMPORT "nvidia-h100-2node-v1.yaml", SCENARIO_WORLD_EXTENDED);
	assert_true(build(&f));
	assert_int_equal(count(&f, K8S_KIND_NODE), 2);
	n = node(&f, "gpu-node-2");
	assert_non_null(n);
	assert_int_equal(alloc(n, "nvidia.com/gpu"), 8);
	assert_string_equal(label(n, "nvidia.com/gpu.product"), "NVIDIA-H100-80GB-HBM3");
	assert_string_equal(label(n, "nvidia.com/gpu.count"), "8");
	assert_string_equal(label(n, "nvidia.com/gpu.memory"), "81559");
	assert_string_equal(label(n, "nvidia.com/gpu.family"), "hopper");
	assert_string_equal(label(n, "kubernetes.io/hostname"), "gpu-node-2");
	assert_int_equal(alloc(n, "pods"), 110);
	fix_clear(&f);
}

/* A device-plugin snapshot in the DRA world: dgx-1 (gpu.product
 * NVIDIA-H100-80GB-HBM3, gpu.count 8) gets one gpu.nvidia.com slice of 8 full
 * GPUs gpu-0..gpu-7 with the catalog's productName and memory 81559Mi, and
 * loses nvidia.com/gpu; mystery-1 (NVIDIA-Z999, in no catalog) gets no device,
 * and a note names its product. */
static void
test_device_plugin_to_dra(void **state)
{
	const K8sResourceSlice *s;
	gboolean noted = FALSE;
	Fix f;

	(void)state;
	fix_init(&f, DATA "whatif-device-plugin.yaml", SCENARIO_WORLD_DRA);
	assert_true(build(&f));
	s = slice_of(&f, "dgx-1", "gpu.nvidia.com");
	assert_non_null(s);
	assert_int_equal(s->spec.n_devices, 8);
	assert_string_equal(s->spec.devices[7].name, "gpu-7");
	assert_int_equal(devices(&f, "mystery-1"), 0);
	for (guint i = 0; i < s->spec.devices[0].n_attributes; i++)
		if (strcmp(s->spec.devices[0].attributes[i].name, "productName") == 0)
			assert_string_equal(s->spec.devices[0].attributes[i].string_value,
			                    "NVIDIA H100 80GB HBM3");
	assert_string_equal(s->spec.devices[0].capacity[0].value.text, "81559Mi");
	assert_int_equal(alloc(node(&f, "dgx-1"), "nvidia.com/gpu"), -1);
	for (guint i = 0; i < f.notes->len; i++)
		noted = noted || strstr(((ScenarioNote *)f.notes->pdata[i])->what, "NVIDIA-Z999");
	assert_true(noted);
	fix_clear(&f);
}

/* Names that are no imported node: errors at their position, the valid names
 * listed and the closest suggested; nothing is built. */
static void
test_unknown_names(void **state)
{
	Fix f;

	(void)state;
	fix_init(&f, DATA "whatif-2node.yaml", SCENARIO_WORLD_DRA);
	clone(&f, "node-c", 1);
	names(&f.mode->remove_nodes, &f.mode->remove_pos, "nodeb");
	layout(&f, "node-x", "all-1g.10gb");
	assert_false(build(&f));
	assert_true(has_diag(f.diags, "spec.modes[0].addNodes[0].like",
	                     "\"node-c\" is no imported node (valid: node-a, node-b); did you "
	                     "mean \"node-a\"?"));
	assert_true(has_diag(f.diags, "spec.modes[0].removeNodes[0]", "did you mean \"node-b\""));
	assert_true(has_diag(f.diags, "spec.modes[0].mig.node-x", "no node pool or imported node"));
	fix_clear(&f);
}

/* A node known only from slices can be cloned (its clone is inferred too) and
 * removed, but not drained (no Node to cordon). */
static void
test_inferred_nodes(void **state)
{
	Fix f;

	(void)state;
	fix_init(&f, IMPORT "nvidia-h100-2node-v1.yaml", SCENARIO_WORLD_DRA);
	clone(&f, "gpu-node-1", 1);
	assert_true(build(&f));
	/* 4 slices (2 per node: gpu and compute-domain) + 2 of the clone */
	assert_int_equal(count(&f, K8S_KIND_RESOURCE_SLICE), 6);
	assert_int_equal(devices(&f, "gpu-node-1-clone-0"), 10);
	world_inventory__clear(&f.inv);
	names(&f.mode->drain_nodes, &f.mode->drain_pos, "gpu-node-2");
	assert_false(build(&f));
	assert_true(has_diag(f.diags, "spec.modes[0].drainNodes[0]",
	                     "known only from its slices' nodeName"));
	fix_clear(&f);
}

#define HEAD     "apiVersion: drasim.io/v1alpha1\nkind: Scenario\nmetadata: {name: x}\nspec:\n"
#define ONE_POOL "  cluster:\n    nodePools: [{name: p, shape: dgx-h100}]\n  modes:\n"

/* The decoder: the keys without spec.cluster.objects, and their form. The
 * mode is line 8; "  - {name: a, " is 14 characters, so addNodes' flow
 * sequence opens at column 25 and its first mapping at 26. */
static void
test_decode_errors(void **state)
{
	(void)state;
	/* like's value: 26 + "{like: " = column 33 */
	scenario_test_expect_error(HEAD ONE_POOL
	                           "  - {name: a, addNodes: [{like: node-a, count: 2}]}\n",
	                           "s.yaml:8:33: error: addNodes needs an imported cluster "
	                           "(spec.cluster.objects); this scenario's nodes come from "
	                           "nodePools [spec.modes[0].addNodes]");
	/* "drainNodes: [" is 13 characters: the name at column 28 */
	scenario_test_expect_error(HEAD ONE_POOL "  - {name: a, drainNodes: [node-a]}\n",
	                           "s.yaml:8:28: error: drainNodes needs an imported cluster");
	/* count's value: 33 + "node-a, count: " = column 48 */
	scenario_test_expect_error(HEAD ONE_POOL
	                           "  - {name: a, addNodes: [{like: node-a, count: 0}]}\n",
	                           "s.yaml:8:48: error: expected a count >= 1, got 0 "
	                           "[spec.modes[0].addNodes[0].count]");
	scenario_test_expect_error(HEAD ONE_POOL "  - {name: a, addNodes: [{count: 1}]}\n",
	                           "s.yaml:8:26: error: expected the name of an imported node "
	                           "[spec.modes[0].addNodes[0].like]");
	scenario_test_expect_error(HEAD ONE_POOL
	                           "  - {name: a, addNodes: [{like: node-a, cuont: 1}]}\n",
	                           "did you mean 'count'");
	/* removeNodes: n is not a list; its value at 14 + "removeNodes: " = column 28 */
	scenario_test_expect_error(
	        HEAD ONE_POOL "  - {name: a, removeNodes: node-a}\n",
	        "s.yaml:8:28: error: expected a list, got string [spec.modes[0].removeNodes]");
	/* without spec.cluster.objects, mig keys are still pools only */
	scenario_test_expect_error(HEAD ONE_POOL "  - {name: a, mig: {node-a: all-1g.10gb}}\n",
	                           "expected the name of a pool of spec.cluster.nodePools, got "
	                           "\"node-a\"");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_as_is),
		cmocka_unit_test(test_remove),
		cmocka_unit_test(test_drain),
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_add_numbering),
		cmocka_unit_test(test_mig),
		cmocka_unit_test(test_mig_extended),
		cmocka_unit_test(test_mig_errors),
		cmocka_unit_test(test_dra_dump_to_extended),
		cmocka_unit_test(test_device_plugin_to_dra),
		cmocka_unit_test(test_unknown_names),
		cmocka_unit_test(test_inferred_nodes),
		cmocka_unit_test(test_decode_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
