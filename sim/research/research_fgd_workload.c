/*
 * research_fgd_workload.c: the FGD protocol's workload (research-private.h):
 * the fragment's task mix and the order pods are offered in, as the authors'
 * simulator builds them (pkg/utils/frag.go GetTypicalPods,
 * pkg/simulator/simulator.go SortClusterPods and TunePodsByNodeTotalResource).
 */
#include <string.h>

#include "research-private.h"

#define DEFAULT_CPU_REQUEST 100 /* GetNonzeroRequests: a pod without CPU counts 100m */

typedef struct {
	const WorkloadTracePod *first; /* the group's first pod, its shape */
	gint64 cpu;
	guint count;
} Group;

static gint64
pod_cpu(const WorkloadTracePod *tp)
{
	return tp->cpu_milli > 0 ? tp->cpu_milli : DEFAULT_CPU_REQUEST;
}

static guint32
pod_milli(const WorkloadTracePod *tp)
{
	return tp->num_gpu > 0 ? tp->gpu_milli : 0;
}

static gboolean
same_shape(const Group *g, const WorkloadTracePod *tp)
{
	return g->cpu == pod_cpu(tp) && pod_milli(g->first) == pod_milli(tp) &&
	       g->first->num_gpu == tp->num_gpu && strcmp(g->first->gpu_spec, tp->gpu_spec) == 0;
}

/* Most popular first; equal counts by shape, so the cut at 95 % is deterministic. */
static gint
cmp_group(gconstpointer pa, gconstpointer pb)
{
	const Group *a = pa, *b = pb;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	if (a->cpu != b->cpu)
		return a->cpu < b->cpu ? -1 : 1;
	if (pod_milli(a->first) != pod_milli(b->first))
		return pod_milli(a->first) < pod_milli(b->first) ? -1 : 1;
	if (a->first->num_gpu != b->first->num_gpu)
		return a->first->num_gpu < b->first->num_gpu ? -1 : 1;
	return strcmp(a->first->gpu_spec, b->first->gpu_spec);
}

/* Groups by shape; a hash of the shape finds a pod's group. */
static GArray *
group_pods(const WorkloadTrace *trace)
{
	GArray *groups = g_array_new(FALSE, FALSE, sizeof(Group));
	g_autoptr(GHashTable) index = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	guint n = workload_trace_get_n_pods(trace);

	for (guint i = 0; i < n; i++) {
		const WorkloadTracePod *tp = workload_trace_get_pod(trace, i);
		char *key = g_strdup_printf("%" G_GINT64_FORMAT "/%u/%u/%s", pod_cpu(tp),
		                            pod_milli(tp), tp->num_gpu, tp->gpu_spec);
		gpointer at;

		if (g_hash_table_lookup_extended(index, key, NULL, &at)) {
			Group *g = &g_array_index(groups, Group, GPOINTER_TO_UINT(at));

			g_assert(same_shape(g, tp));
			g->count++;
			g_free(key);
			continue;
		}
		g_hash_table_insert(index, key, GUINT_TO_POINTER(groups->len));
		g_array_append_val(groups, ((Group){ tp, pod_cpu(tp), 1 }));
	}
	return groups;
}

guint
research_fgd__set_tasks(ClusterGpuShare *share, const WorkloadTrace *trace)
{
	return research_fgd__set_world_tasks(share, trace, NULL);
}

/*
 * The trace's shapes in popularity order (equal counts by the trace's shape),
 * each asking what its world asks, with its pod count;
 * cluster_gpushare_keep_popular_tasks makes the cut a scenario's mix makes.
 */
guint
research_fgd__set_world_tasks(ClusterGpuShare *share,
                              const WorkloadTrace *trace,
                              const ResearchWorldSetup *world)
{
	g_autoptr(GArray) groups = group_pods(trace);
	g_autofree ClusterGpuShareTask *tasks = g_new0(ClusterGpuShareTask, MAX(groups->len, 1));

	g_array_sort(groups, cmp_group);
	for (guint i = 0; i < groups->len; i++) {
		const Group *g = &g_array_index(groups, Group, i);

		tasks[i].cpu_milli = g->cpu;
		tasks[i].req = (ClusterGpuShareReq){ g->first->num_gpu, pod_milli(g->first),
			                             g->first->gpu_spec_mask };
		if (world != NULL)
			tasks[i].req = research_world__request(world, g->first->num_gpu,
			                                       pod_milli(g->first),
			                                       g->first->gpu_spec_mask)
			                       .req;
		tasks[i].p = g->count;
	}
	return cluster_gpushare_keep_popular_tasks(share, tasks, groups->len);
}

static gint
cmp_name(gconstpointer a, gconstpointer b, gpointer trace)
{
	const WorkloadTracePod *x = workload_trace_get_pod(trace, *(const guint *)a);
	const WorkloadTracePod *y = workload_trace_get_pod(trace, *(const guint *)b);

	return strcmp(x->name, y->name);
}

static gint64
pod_total_milli(const WorkloadTrace *trace, guint row)
{
	const WorkloadTracePod *tp = workload_trace_get_pod(trace, row);

	return (gint64)tp->num_gpu * pod_milli(tp);
}

/*
 * tuneUpPods stops at the first drawn pod whose per-GPU milli (not its
 * total) would pass the target; tuneDownPods removes one pod at a time.
 */
static void
tune(GArray *order, const GArray *sorted, const WorkloadTrace *trace, SimRng *rng, double target)
{
	gint64 total = 0;

	for (guint i = 0; i < order->len; i++)
		total += pod_total_milli(trace, g_array_index(order, guint, i));
	while ((double)total > target && order->len > 0) {
		guint at = sim_rng_uniform_int(rng, order->len);

		total -= pod_total_milli(trace, g_array_index(order, guint, at));
		g_array_remove_index(order, at);
	}
	while ((double)total < target) {
		guint row = g_array_index(sorted, guint, sim_rng_uniform_int(rng, sorted->len));

		if ((double)(total + pod_milli(workload_trace_get_pod(trace, row))) > target)
			break;
		total += pod_total_milli(trace, row);
		g_array_append_val(order, row);
	}
}

GArray *
research_fgd__order(const WorkloadTrace *trace, SimRng *rng, double ratio, gint64 capacity)
{
	guint n = workload_trace_get_n_pods(trace);
	GArray *order = g_array_sized_new(FALSE, FALSE, sizeof(guint), n * 2);
	g_autoptr(GArray) sorted = g_array_sized_new(FALSE, FALSE, sizeof(guint), n);

	for (guint i = 0; i < n; i++)
		g_array_append_val(sorted, i);
	g_array_sort_with_data(sorted, cmp_name, (gpointer)trace);
	g_array_append_vals(order, sorted->data, n);
	/* rand.Shuffle: from the end, swap each with a uniform earlier-or-same slot */
	for (guint i = n; i > 1; i--) {
		guint j = sim_rng_uniform_int(rng, i);
		guint tmp = g_array_index(order, guint, i - 1);

		g_array_index(order, guint, i - 1) = g_array_index(order, guint, j);
		g_array_index(order, guint, j) = tmp;
	}
	if (ratio > 0)
		tune(order, sorted, trace, rng, ratio * (double)capacity);
	return order;
}
