/*
 * hw_test_publish.h: publishing a node whose Node object api must reject, for
 * the tests that check where the message points (test_api.c,
 * test_publish_api.c). Include after cmocka.h.
 */
#pragma once

#include "hw_api.h"

/* Loads @node, its Node object changed by @spoil, as the one node published to
 * "<published node-a>"; fails the test unless api rejects it. Returns the first
 * diagnostic (in @diags, its file kept alive by @set). */
static inline const K8sDiag *
first_publish_error(HwNode *node,
                    void (*spoil)(HwNodeObject *object),
                    K8sObjectSet *set,
                    K8sDiagList *diags)
{
	g_autoptr(GPtrArray) nodes =
	        g_ptr_array_new_with_free_func((GDestroyNotify)hw_node_object_free);
	HwNodeObject *object = hw_node_object_new(node);
	const K8sDiag *diag;

	spoil(object);
	g_ptr_array_add(nodes, object);
	assert_false(hw_load_published("<published node-a>", nodes, NULL, NULL, set, diags));
	assert_true(k8s_diag_list_count_errors(diags) > 0);
	diag = k8s_diag_list_get(diags, 0);
	assert_string_equal(diag->pos.file, "<published node-a>");
	return diag;
}
