/*
 * hw_test_catalog.h: the built-in hardware catalog as a cmocka group fixture,
 * for the tests that read shapes and GPU models from it (model/hw, the
 * fragmentation measure, the XR view), and nodes of its shapes. Include it once,
 * in the test's .c file, after cmocka.h.
 */
#pragma once

#include "hw.h"

static HwCatalog *catalog;

/* Group setup: loads the built-in catalog; non-zero (the group fails) if it does not load. */
static int
catalog_setup(void **state)
{
	catalog = hw_catalog_new_builtin(NULL);
	return catalog == NULL;
}

/* Group setup: the built-in catalog plus the shapes in @doc (@name in errors). */
static inline int
catalog_setup_with(const char *name, const char *doc, gsize len)
{
	return catalog_setup(NULL) != 0 || !hw_catalog_load_data(catalog, name, doc, len, NULL);
}

/* Node "node-a" of catalog shape @shape with MIG @layout applied; fails the test,
 * saying why, when the layout does not apply. */
static inline HwNode *
catalog_node(const char *shape, const char *layout)
{
	g_autoptr(GError) error = NULL;
	HwNode *node = hw_node_new(hw_catalog_lookup_shape(catalog, shape), "node-a");

	if (!hw_node_apply_layout(node, layout, &error))
		fail_msg("%s", error->message);
	return node;
}

static int
catalog_teardown(void **state)
{
	hw_catalog_free(catalog);
	return 0;
}
