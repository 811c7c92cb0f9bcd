/*
 * bench-node.h: the node of the cluster benchmarks (bench_sim.c, bench_dra.c),
 * the DGX-like shape, in one place so both modes measure the same cluster.
 */
#pragma once

#include <glib.h>

#include "cluster_run.h"
#include "cluster_types.h"

/* One of the node's 8 exclusive 80 GB GPUs. */
static const ClusterDevice bench_gpu = { CLUSTER_SHARE_EXCLUSIVE, CLUSTER_INTERVAL_DEFAULT, 1.0,
	                                 80000000000, FALSE };

/* Node @i, named node-%05u: 192 CPUs, 2 TiB of memory, 110 pods. */
static inline ClusterNode *
bench_node_new(guint i)
{
	g_autofree char *name = g_strdup_printf("node-%05u", i);
	ClusterNode *node = cluster_node_new(name);

	node->allocatable.v[CLUSTER_RES_CPU] = 192000;
	node->allocatable.v[CLUSTER_RES_MEMORY] = (gint64)2 << 40;
	node->allocatable.v[CLUSTER_RES_PODS] = 110;
	return node;
}
