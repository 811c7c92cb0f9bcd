/*
 * fuzz_k8s.h: for the fuzz targets whose inputs report problems as K8sDiagList entries
 * (manifests, allocate, scenario, sweep): every diagnostic is formatted, as the commands
 * print them, so the formatting of fuzzed positions, paths and messages is fuzzed too.
 */
#pragma once

#include "k8s_diag.h"

/* Formats every entry of @diags and frees the list. */
static inline void
fuzz_print_and_free_diags(K8sDiagList *diags)
{
	for (guint i = 0; i < k8s_diag_list_count(diags); i++)
		g_free(k8s_diag_format(k8s_diag_list_get(diags, i)));
	k8s_diag_list_free(diags);
}
