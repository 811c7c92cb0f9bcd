/*
 * fgd-trace.h: the research tests' tiny traces, written from CSV texts to a
 * temporary folder and read back with sim/workload's reader (the protocol
 * reads nothing else). Included by one test file each.
 */
#pragma once

#include <glib/gstdio.h>

#include "workload.h"

#define NODES_HEADER "sn,cpu_milli,memory_mib,gpu,model\n"
#define PODS_HEADER  "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\n"

/* A trace from two CSV texts, written to a temporary folder and read back. */
static inline WorkloadTrace *
trace_new(const char *nodes, const char *pods)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *dir = g_dir_make_tmp("fgd-XXXXXX", &error);
	g_autofree char *np = g_build_filename(dir, "nodes.csv", NULL);
	g_autofree char *pp = g_build_filename(dir, "pods.csv", NULL);
	WorkloadTrace *trace = workload_trace_new();

	assert_non_null(dir);
	assert_true(g_file_set_contents(np, nodes, -1, &error));
	assert_true(g_file_set_contents(pp, pods, -1, &error));
	assert_true(workload_trace_load_nodes(trace, np, &error));
	assert_true(workload_trace_load_pods(trace, pp, &error));
	g_unlink(np);
	g_unlink(pp);
	g_rmdir(dir);
	return trace;
}
