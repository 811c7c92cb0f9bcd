/*
 * research_fgd.c: the FGD paper's protocol (research.h) over sim/cluster's
 * scheduling cycle with Open-Gpu-Share's milli-GPU model. Each step follows
 * the authors' simulator (hkust-adsl/kubernetes-scheduler-simulator), cited
 * where it is done; the random streams are drasim's own, so runs match the
 * paper's in distribution, not pod for pod.
 */
#include <math.h>
#include <string.h>

#include "cluster_gpushare.h"
#include "cluster_sched.h"
#include "research-private.h"
#include "research.h"
#include "sim.h"

G_DEFINE_QUARK(research - fgd - error - quark, research_fgd_error)

#define MIB ((gint64)1 << 20)
/* openb_node_list_gpu_node.yaml gives every node 1001 allocatable pods */
#define NODE_PODS 1001

typedef struct {
	const WorkloadTrace *trace;
	ClusterGpuShare *share;
	ClusterSched *sched;
	GPtrArray *nodes;           /* ClusterNode *, owned */
	ClusterGpuShareNode *gpu;   /* one per node */
	GPtrArray *pods;            /* ClusterPod * per trace row, owned */
	ResearchWorldRequest *reqs; /* per trace row, in the world's terms */
	ResearchWorldNode *world;   /* one per node */
	ResearchWorldSetup setup;
	ClusterGpuPick pick;
	SimRng *policy_rng, *order_rng;
} Run;

static guint32
draw(gpointer rng, guint32 n)
{
	return sim_rng_uniform_int(rng, n);
}

static void
run_clear(Run *run)
{
	cluster_sched_free(run->sched);
	if (run->nodes != NULL)
		g_ptr_array_unref(run->nodes);
	if (run->pods != NULL)
		g_ptr_array_unref(run->pods);
	g_free(run->gpu);
	g_free(run->world);
	g_free(run->reqs);
	research_world__setup_clear(&run->setup);
	cluster_gpushare_free(run->share);
	sim_rng_free(run->policy_rng);
	sim_rng_free(run->order_rng);
}

/* What the milli-GPU model holds: at most 8 GPUs a node, 32 models (bits of a mask). */
static gboolean
check_nodes(const WorkloadTrace *trace, GError **error)
{
	for (guint i = 0; i < workload_trace_get_n_nodes(trace); i++) {
		const WorkloadTraceNode *tn = workload_trace_get_node(trace, i);

		if (tn->gpu > CLUSTER_GPUSHARE_MAX_GPUS || (tn->gpu > 0 && tn->model_index >= 32)) {
			g_set_error(error, RESEARCH_FGD_ERROR, 0,
			            "node list line %u: node %s has %u GPUs of model index %u; the "
			            "milli-GPU model holds at most %u GPUs a node and 32 models",
			            tn->line, tn->name, tn->gpu, tn->model_index,
			            CLUSTER_GPUSHARE_MAX_GPUS);
			return FALSE;
		}
	}
	return TRUE;
}

/* The GPU nodes (gpu > 0); the largest CPU and GPU spec among them. */
static gint64
build_nodes(Run *run, gint64 *max_cpu, gint64 *max_gpu)
{
	guint n = workload_trace_get_n_nodes(run->trace);
	gint64 capacity = 0;

	*max_cpu = *max_gpu = 0;
	for (guint i = 0; i < n; i++) {
		const WorkloadTraceNode *tn = workload_trace_get_node(run->trace, i);

		if (tn->gpu == 0)
			continue;
		*max_cpu = MAX(*max_cpu, tn->cpu_milli);
		*max_gpu = MAX(*max_gpu, (gint64)tn->gpu * CLUSTER_GPUSHARE_MILLI);
		capacity +=
		        (gint64)MIN(tn->gpu, CLUSTER_GPUSHARE_MAX_GPUS) * CLUSTER_GPUSHARE_MILLI;
	}
	return capacity;
}

static gint
cmp_node_name(gconstpointer a, gconstpointer b, gpointer trace)
{
	return strcmp(workload_trace_get_node(trace, *(const guint *)a)->name,
	              workload_trace_get_node(trace, *(const guint *)b)->name);
}

/*
 * The scheduler's node order, which with no random tie-break (below) decides
 * every tie: the first node in it wins. The authors' simulator sorts the nodes
 * by name, then renames node i to "%04d-" + name with perm[i] from
 * rand.Perm(n) (simulator.go syncClusterResourceList), so the smallest name,
 * which wins a tie, is a random node drawn once per run from the run's seed,
 * not openb-node-0000. Node i of the name order is placed at rank[i]: the
 * nodes in renamed-name order. Fisher-Yates over its own stream ("nodes"),
 * so the pod order is drawn as before.
 */
static void
shuffle_by_rank(guint *by_name, guint n, SimRng *rng)
{
	g_autofree guint *rank = g_new(guint, MAX(n, 1));
	g_autofree guint *placed = g_new(guint, MAX(n, 1));

	for (guint i = 0; i < n; i++)
		rank[i] = i;
	for (guint i = n; i > 1; i--) {
		guint j = sim_rng_uniform_int(rng, i), t = rank[i - 1];

		rank[i - 1] = rank[j];
		rank[j] = t;
	}
	for (guint i = 0; i < n; i++)
		placed[rank[i]] = by_name[i];
	memcpy(by_name, placed, n * sizeof(guint));
}

/*
 * Every GPU node, in the order above (percentageOfNodesToScore 100 and no zone
 * labels: the order the scheduler filters and scores them in).
 */
static void
add_nodes(Run *run, SimRng *node_rng)
{
	guint n = workload_trace_get_n_nodes(run->trace), k = 0;
	g_autofree guint *by_name = g_new(guint, MAX(n, 1));

	for (guint i = 0; i < n; i++)
		by_name[i] = i;
	g_qsort_with_data(by_name, (gint)n, sizeof(guint), cmp_node_name, (gpointer)run->trace);
	shuffle_by_rank(by_name, n, node_rng);

	run->nodes = g_ptr_array_new_with_free_func((GDestroyNotify)cluster_node_free);
	run->gpu = g_new0(ClusterGpuShareNode, n);
	run->world = g_new0(ResearchWorldNode, n);
	for (guint i = 0; i < n; i++) {
		const WorkloadTraceNode *tn = workload_trace_get_node(run->trace, by_name[i]);
		ClusterNode *node;

		if (tn->gpu == 0)
			continue;
		node = cluster_node_new(tn->name);
		node->allocatable.v[CLUSTER_RES_CPU] = tn->cpu_milli;
		node->allocatable.v[CLUSTER_RES_MEMORY] = tn->memory_mib * MIB;
		node->allocatable.v[CLUSTER_RES_PODS] = NODE_PODS;
		cluster_gpushare_node_init(&run->gpu[k], run->share, tn->model_index, tn->gpu);
		research_world__node_init(&run->world[k], &run->setup, tn->model_index, tn->gpu);
		node->user_data = &run->world[k];
		if (research_world__uses_gpushare(run->setup.world))
			node->gpushare = &run->gpu[k];
		k++;
		g_ptr_array_add(run->nodes, node);
		cluster_sched_add_node(run->sched, node);
	}
}

/* The scheduler's view of every trace row; tuned copies reuse their row's pod. */
static void
add_pods(Run *run)
{
	guint n = workload_trace_get_n_pods(run->trace);

	run->pods = g_ptr_array_new_with_free_func((GDestroyNotify)cluster_pod_free);
	run->reqs = g_new0(ResearchWorldRequest, n);
	for (guint i = 0; i < n; i++) {
		const WorkloadTracePod *tp = workload_trace_get_pod(run->trace, i);
		ClusterPod *pod = cluster_pod_new(tp->name, i + 1);

		cluster_pod_set_request(pod, CLUSTER_RES_CPU, tp->cpu_milli);
		cluster_pod_set_request(pod, CLUSTER_RES_MEMORY, tp->memory_mib * MIB);
		run->reqs[i] = research_world__request(&run->setup, tp->num_gpu, tp->gpu_milli,
		                                       tp->gpu_spec_mask);
		pod->user_data = &run->reqs[i];
		if (research_world__uses_gpushare(run->setup.world))
			pod->gpushare = &run->reqs[i].req;
		pod->has_dra = run->reqs[i].world_filter;
		g_ptr_array_add(run->pods, pod);
	}
}

/* ------------------------------------------------------------ the log */

typedef struct {
	double alloc[RESEARCH_FGD_POINTS], amount[RESEARCH_FGD_POINTS], ratio[RESEARCH_FGD_POINTS];
	guint count[RESEARCH_FGD_POINTS];
} PointSums;

/* Python's round(x, 2) on the logged ratio, as merge_alloc_discrete.py does. */
static inline double
round2(double x)
{
	return nearbyint(x * 100.0) / 100.0;
}

static void
log_point(PointSums *sums, gint64 capacity, gint64 arrived, gint64 used, double frag)
{
	double arrived_pct = nearbyint((double)arrived / (double)capacity * 100.0);
	gint64 idle = capacity - used;
	guint i;

	if (arrived_pct < 0 || arrived_pct >= RESEARCH_FGD_POINTS)
		return;
	i = (guint)arrived_pct;
	sums->alloc[i] += round2((double)used / (double)capacity * 100.0);
	sums->amount[i] += frag / (double)capacity * 100.0;
	sums->ratio[i] += idle > 0 ? frag / (double)idle * 100.0 : 0.0;
	sums->count[i]++;
}

/* Per integer: the mean of its log points, or of the points within ±1 when it has none. */
static void
aggregate(const PointSums *sums, ResearchFgdRun *out)
{
	for (gint i = 0; i < RESEARCH_FGD_POINTS; i++) {
		gint lo = i, hi = i;
		double alloc = 0, amount = 0, ratio = 0;
		guint n = 0;

		if (sums->count[i] == 0) {
			lo = MAX(i - 1, 0);
			hi = MIN(i + 1, RESEARCH_FGD_POINTS - 1);
		}
		for (gint j = lo; j <= hi; j++) {
			alloc += sums->alloc[j];
			amount += sums->amount[j];
			ratio += sums->ratio[j];
			n += sums->count[j];
		}
		out->has[i] = n > 0;
		if (n == 0)
			continue;
		out->unallocated_pct[i] = 100.0 - round2(alloc / n);
		out->frag_amount_pct[i] = amount / n;
		out->frag_ratio_pct[i] = ratio / n;
	}
}

/* ------------------------------------------------------------ the run */

/*
 * One pod offered: schedule, place it on GPUs the world's way, bind; the
 * cluster fragment kept current where the world has one.
 */
static gboolean
offer(Run *run, ClusterPod *pod, double *frag)
{
	ClusterScheduleResult result;
	gboolean has_frag = research_world__has_frag(run->setup.world);
	double before = 0.0;

	cluster_sched_schedule_one(run->sched, pod, &result);
	if (result.status != CLUSTER_STATUS_SUCCESS)
		return FALSE;
	if (has_frag)
		before = cluster_gpushare_node_frag(result.node);
	research_world__place(&run->setup, run->pick, result.node, pod);
	if (has_frag)
		*frag += cluster_gpushare_node_frag(result.node) - before;
	return TRUE;
}

static double
cluster_frag(const Run *run)
{
	double sum = 0.0;

	if (!research_world__has_frag(run->setup.world))
		return 0.0;
	for (guint i = 0; i < run->nodes->len; i++)
		sum += cluster_gpushare_node_frag(run->nodes->pdata[i]);
	return sum;
}

/* The policy's name, its GPU pick, and whether the world runs it (research_world_refuses). */
static gboolean
check_policy(const ResearchFgdConfig *config, ClusterGpuPick *pick, GError **error)
{
	const char *policy = config->policy != NULL ? config->policy : "";
	const char *refused;

	if (!g_strv_contains((const char *const *)research_policy_names(), policy) ||
	    !cluster_sched_score_policy_gpu_pick(policy, pick)) {
		g_autofree char *names = g_strjoinv(", ", (char **)research_policy_names());

		g_set_error(error, RESEARCH_FGD_ERROR, 0, "policy \"%s\": the FGD protocol runs %s",
		            policy, names);
		return FALSE;
	}
	refused = research_world_refuses(config->world, policy);
	if (refused != NULL) {
		g_set_error(error, RESEARCH_FGD_ERROR, 0, "policy %s cannot run in world %s: %s",
		            policy, research_world_info(config->world)->name, refused);
		return FALSE;
	}
	return TRUE;
}

/* Logs every pod; takes cotenants and stranded GPU once arrival first reaches 100 %. */
static void
offer_all(Run *run, const GArray *order, PointSums *sums, gint64 capacity, ResearchFgdRun *out)
{
	gint64 arrived = 0, used = 0;
	double frag = cluster_frag(run), held = 0.0;

	for (guint k = 0; k < order->len; k++) {
		guint row = g_array_index(order, guint, k);
		const ResearchWorldRequest *req = &run->reqs[row];
		gint64 share = (gint64)req->num_gpu * req->share;

		arrived += share;
		if (offer(run, run->pods->pdata[row], &frag)) {
			used += share;
			held += req->held;
		} else {
			out->pods_failed++;
		}
		log_point(sums, capacity, arrived, used, frag);
		if (!out->has_at_100 && arrived >= capacity) {
			out->has_at_100 = TRUE;
			out->stranded_pct = (held - (double)used) / (double)capacity * 100.0;
			research_world__cotenants(run->world, run->nodes->len, &out->cotenants_mean,
			                          &out->cotenants_max);
		}
	}
}

/* Without a GPU pod tuning up to 130 % of GPU capacity would append CPU pods forever. */
static gboolean
has_gpu_pod(const WorkloadTrace *trace)
{
	for (guint i = 0; i < workload_trace_get_n_pods(trace); i++) {
		const WorkloadTracePod *tp = workload_trace_get_pod(trace, i);

		if (tp->num_gpu > 0 && tp->gpu_milli > 0)
			return TRUE;
	}
	return FALSE;
}

gboolean
research_fgd_run(const WorkloadTrace *trace,
                 const ResearchFgdConfig *config,
                 ResearchFgdRun *out,
                 GError **error)
{
	Run run = { .trace = trace };
	/*
	 * No random tie-break: the authors' kube-scheduler fork (go.mod replaces
	 * k8s.io/kubernetes with mental2008/kubernetes v1.20.5-minor) changed
	 * selectHost (pkg/scheduler/core/generic_scheduler.go) to keep the
	 * lexicographically smallest node name among equal scores, "for
	 * reproducibility". The paper's figures come from that rule, over the
	 * randomly prefixed names of add_nodes' order. The worlds without
	 * Open-Gpu-Share state reach their GPU fit through DynamicResources' hooks.
	 */
	ClusterSchedConfig sc = { .percentage_of_nodes_to_score = 100,
		                  .rand = NULL,
		                  .skip_reasons = TRUE,
		                  .dra = research_world__dra_ops(),
		                  .dra_data = &run.setup };
	g_autofree PointSums *sums = g_new0(PointSums, 1);
	g_autoptr(GArray) order = NULL;
	gint64 max_cpu, max_gpu, capacity;
	g_autoptr(SimRng) node_rng = NULL;

	*out = (ResearchFgdRun){ 0 };
	if (!check_policy(config, &run.pick, error) || !check_nodes(trace, error) ||
	    !research_world__setup(&run.setup, config, error))
		return FALSE;
	capacity = build_nodes(&run, &max_cpu, &max_gpu);
	if (capacity == 0 || !has_gpu_pod(trace)) {
		g_set_error(error, RESEARCH_FGD_ERROR, 0,
		            "the trace has no GPU node or no GPU pod (num_gpu and gpu_milli > 0): "
		            "the protocol tunes the GPU load to its target with GPU pods");
		research_world__setup_clear(&run.setup);
		return FALSE;
	}
	run.policy_rng = sim_rng_new(config->seed, "policy");
	run.order_rng = sim_rng_new(config->seed, "workload");
	node_rng = sim_rng_new(config->seed, "nodes");
	run.sched = cluster_sched_new(&sc);
	cluster_sched_add_score_policy(run.sched, config->policy);
	run.share = cluster_gpushare_new(max_cpu, max_gpu, draw, run.policy_rng);
	out->n_tasks = research_fgd__set_world_tasks(run.share, trace, &run.setup);
	add_nodes(&run, node_rng);
	add_pods(&run);
	order = research_fgd__order(trace, run.order_rng, config->tune_ratio, capacity);
	offer_all(&run, order, sums, capacity, out);
	out->pods_offered = order->len;
	out->capacity_milli = capacity;
	out->frag_defined = research_world__has_frag(run.setup.world);
	aggregate(sums, out);
	cluster_gpushare_get_memo_stats(run.share, &out->memo_lookups, &out->memo_misses);
	run_clear(&run);
	return TRUE;
}
