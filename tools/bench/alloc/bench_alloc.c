/*
 * bench_alloc.c: allocator benchmarks (fill, churn, hard cases of upstream
 * issue 131730), run as meson benchmark() targets.
 *
 *   fill   500 nodes x 10 devices, 5000 pods with one single-device claim each,
 *          every pod placed on the first node that fits in node order (like
 *          scheduler_perf SchedulingWithResourceClaimTemplate/5000pods_500nodes).
 *   churn  the same cluster kept 90% full: free a random claim, place a new one.
 *   hard   n devices asked when n-1 fit; matchAttribute over 4 requests with no
 *          solution on 128 devices; two requests with 8 sub-requests each.
 *   budget the first hard case unpruned under the default Filter timeout
 *          (10,000,000 steps): how long drasim takes to time out, its steps/s.
 *
 * Times are CPU time of the process. Selectors use a trivial evaluator (driver equality) so the
 * figures measure the search, not CEL; results are cached per device either way.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "dra.h"

static gpointer
b_compile(gpointer data, const char *expression, GError **error)
{
	return g_strdup(expression);
}

static DraMatch
b_eval(gpointer data,
       gpointer program,
       const DraDevice *device,
       const char *driver,
       gpointer *view,
       const char **message)
{
	return strcmp(program, driver) == 0 ? DRA_MATCH_TRUE : DRA_MATCH_FALSE;
}

static void
b_free(gpointer data, gpointer program)
{
	g_free(program);
}

/*
 * CPU time of this process in microseconds: the machine is shared, so wall
 * time mostly measures the other processes.
 */
static gint64
cpu_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (gint64)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static const DraSelectorOps ops = { b_compile, b_eval, b_free, NULL, NULL };
static const DraClass gpu_class = { "gpu", (const char *const[]){ "gpu.example.com" }, 1, NULL, 0 };

typedef struct {
	GPtrArray *strings;
	DraNode *nodes;
	DraSlice *slices;
	guint n_nodes;
} Cluster;

static const char *
keep(Cluster *c, char *s)
{
	g_ptr_array_add(c->strings, s);
	return s;
}

static void
cluster_init(Cluster *c, guint n_nodes, guint per_node, const DraAttribute *(*attr)(guint))
{
	c->strings = g_ptr_array_new_with_free_func(g_free);
	c->n_nodes = n_nodes;
	c->nodes = g_new0(DraNode, n_nodes);
	c->slices = g_new0(DraSlice, n_nodes);
	for (guint n = 0; n < n_nodes; n++) {
		DraDevice *devs = g_new0(DraDevice, per_node);
		g_ptr_array_add(c->strings, devs);
		for (guint d = 0; d < per_node; d++) {
			devs[d].name = keep(c, g_strdup_printf("gpu-%u", d));
			if (attr != NULL) {
				devs[d].attributes = attr(d);
				devs[d].n_attributes = 1;
			}
		}
		c->nodes[n].name = keep(c, g_strdup_printf("node-%04u", n));
		DraSlice *s = &c->slices[n];
		s->name = keep(c, g_strdup_printf("slice-%04u", n));
		s->driver = "gpu.example.com";
		s->pool = c->nodes[n].name;
		s->generation = 1;
		s->resource_slice_count = 1;
		s->node_name = c->nodes[n].name;
		s->devices = devs;
		s->n_devices = per_node;
	}
}

static void
cluster_clear(Cluster *c)
{
	g_ptr_array_unref(c->strings);
	g_free(c->nodes);
	g_free(c->slices);
}

static DraAllocator *
new_alloc(Cluster *c, gboolean prune)
{
	DraFeatures f = dra_features_default();
	DraAllocator *a = dra_allocator_new(&f, &ops, NULL);
	dra_allocator_set_prune(a, prune);
	dra_allocator_add_class(a, &gpu_class);
	for (guint n = 0; n < c->n_nodes; n++) {
		dra_allocator_add_slice(a, &c->slices[n]);
	}
	return a;
}

static DraRequest
one_request(const char *name, gint64 count)
{
	DraRequest r = { 0 };
	r.name = name;
	r.has_exactly = TRUE;
	r.exactly.device_class_name = "gpu";
	r.exactly.allocation_mode = "ExactCount";
	r.exactly.count = count;
	return r;
}

/* The claim of every pod in fill and churn: one device of class gpu. */
static const DraRequest one_gpu = {
	.name = "gpu",
	.has_exactly = TRUE,
	.exactly = { .device_class_name = "gpu", .allocation_mode = "ExactCount", .count = 1 }
};
static const DraClaim one_gpu_claim = { "default", "claim", &one_gpu, 1, NULL, 0, NULL, 0 };

/* First fit in node order; returns the node or -1. */
static int
place(DraAllocator *a, Cluster *c, const DraClaim *claim, guint64 *calls)
{
	const DraClaim *claims[] = { claim };
	/* one pod, many nodes: the claims are validated once */
	dra_allocator_set_claims(a, claims, 1);
	for (guint n = 0; n < c->n_nodes; n++) {
		(*calls)++;
		if (dra_allocator_allocate_on(a, &c->nodes[n]) == DRA_OUTCOME_ALLOCATED) {
			dra_allocator_commit(a, 0);
			return (int)n;
		}
	}
	return -1;
}

static int
bench_fill(gboolean prune)
{
	Cluster c;
	guint64 calls = 0;

	cluster_init(&c, 500, 10, NULL);
	DraAllocator *a = new_alloc(&c, prune);
	gint64 t0 = cpu_us();
	guint placed = 0;
	for (guint p = 0; p < 5000; p++) {
		placed += place(a, &c, &one_gpu_claim, &calls) >= 0;
	}
	double s = (double)(cpu_us() - t0) / 1e6;
	printf("fill: %u/5000 claims placed in %.3f s: %.0f claims/s, %" G_GUINT64_FORMAT
	       " Allocate calls (%.0f ns each)\n",
	       placed, s, placed / s, calls, s * 1e9 / (double)calls);
	dra_allocator_free(a);
	cluster_clear(&c);
	return placed == 5000 ? 0 : 1;
}

static int
bench_churn(gboolean prune)
{
	Cluster c;
	guint64 calls = 0;
	GRand *rand = g_rand_new_with_seed(42);
	/* which node holds which device: remember placements to free them */
	GArray *held = g_array_new(FALSE, FALSE, sizeof(guint64));

	cluster_init(&c, 500, 10, NULL);
	DraAllocator *a = new_alloc(&c, prune);
	const DraClaim *claims[] = { &one_gpu_claim };
	for (guint p = 0; p < 4500; p++) {
		int n = place(a, &c, &one_gpu_claim, &calls);
		const DraAllocation *r = dra_allocator_get_allocation(a, 0);
		guint64 key = ((guint64)n << 32) | (guint64)atoi(r->results[0].device + 4);
		g_array_append_val(held, key);
	}
	calls = 0;
	gint64 t0 = cpu_us();
	guint ops_done = 0;
	for (guint i = 0; i < 5000; i++) {
		guint victim = g_rand_int_range(rand, 0, (gint32)held->len);
		guint64 key = g_array_index(held, guint64, victim);
		guint n = (guint)(key >> 32);
		guint d = (guint)(key & 0xffffffffu);
		dra_allocator_mark_allocated(a, c.slices[n].driver, c.slices[n].pool,
		                             c.slices[n].devices[d].name, FALSE);
		g_array_remove_index_fast(held, victim);
		int placed = place(a, &c, &one_gpu_claim, &calls);
		if (placed < 0) {
			break;
		}
		const DraAllocation *r = dra_allocator_get_allocation(a, 0);
		key = ((guint64)placed << 32) | (guint64)atoi(r->results[0].device + 4);
		g_array_append_val(held, key);
		ops_done++;
	}
	(void)claims;
	double s = (double)(cpu_us() - t0) / 1e6;
	printf("churn: %u free+place cycles at 90%% full in %.3f s: %.0f claims/s, "
	       "%" G_GUINT64_FORMAT " Allocate calls (%.0f ns each)\n",
	       ops_done, s, ops_done / s, calls, s * 1e9 / (double)calls);
	dra_allocator_free(a);
	cluster_clear(&c);
	g_array_unref(held);
	g_rand_free(rand);
	return ops_done == 5000 ? 0 : 1;
}

static DraAttribute group_attrs[128];

static const DraAttribute *
group_attr(guint d)
{
	/* 16 groups of 8 devices share a value of "numa" */
	group_attrs[d].name = "numa";
	group_attrs[d].kind = DRA_ATTR_INT;
	group_attrs[d].int_value = d / 8;
	return &group_attrs[d];
}

static double
time_one(DraAllocator *a, const DraNode *node, const DraClaim *claim, DraOutcome *out)
{
	const DraClaim *claims[] = { claim };
	gint64 t0 = cpu_us();
	*out = dra_allocator_allocate(a, node, claims, 1);
	return (double)(cpu_us() - t0) / 1e3;
}

static const char *
outcome_name(DraOutcome o)
{
	return o == DRA_OUTCOME_ALLOCATED ? "allocated"
	       : o == DRA_OUTCOME_ERROR   ? "error"
	                                  : "unschedulable";
}

static int
bench_hard(gboolean prune)
{
	Cluster c;
	DraOutcome out;

	/* 1: n devices asked when n-1 fit (12 devices, ask for 12, one is in use) */
	cluster_init(&c, 1, 12, NULL);
	DraAllocator *a = new_alloc(&c, prune);
	dra_allocator_mark_allocated(a, "gpu.example.com", c.slices[0].pool, "gpu-11", TRUE);
	DraRequest r1 = one_request("gpus", 12);
	DraClaim c1 = { "default", "n-minus-1", &r1, 1, NULL, 0, NULL, 0 };
	double ms = time_one(a, &c.nodes[0], &c1, &out);
	printf("hard n-1 of 12: %s in %.3f ms, %" G_GUINT64_FORMAT " allocateOne calls\n",
	       outcome_name(out), ms, dra_allocator_get_stats(a)->allocate_one_calls);
	dra_allocator_free(a);
	cluster_clear(&c);

	/* 2: matchAttribute across 4 requests (2+2+2+3 devices) on 128 devices, no solution */
	cluster_init(&c, 1, 128, group_attr);
	a = new_alloc(&c, prune);
	DraRequest r2[4] = { one_request("a", 2), one_request("b", 2), one_request("c", 2),
		             one_request("d", 3) };
	DraConstraint con = { NULL, 0, "gpu.example.com/numa", NULL };
	DraClaim c2 = { "default", "match4", r2, 4, &con, 1, NULL, 0 };
	ms = time_one(a, &c.nodes[0], &c2, &out);
	printf("hard matchAttribute x4 on 128: %s in %.3f ms, %" G_GUINT64_FORMAT
	       " allocateOne calls\n",
	       outcome_name(out), ms, dra_allocator_get_stats(a)->allocate_one_calls);
	dra_allocator_free(a);
	cluster_clear(&c);

	/* 3: two requests with 8 sub-requests each (counts 8..1) on 4 free devices of 8 */
	cluster_init(&c, 1, 8, NULL);
	a = new_alloc(&c, prune);
	for (guint d = 0; d < 4; d++) {
		dra_allocator_mark_allocated(a, "gpu.example.com", c.slices[0].pool,
		                             c.slices[0].devices[d].name, TRUE);
	}
	DraExactRequest subs[8];
	const char *sub_names[] = { "s8", "s7", "s6", "s5", "s4", "s3", "s2", "s1" };
	for (guint i = 0; i < 8; i++) {
		DraRequest tmp = one_request(sub_names[i], 8 - i);
		subs[i] = tmp.exactly;
		subs[i].name = sub_names[i];
	}
	DraRequest r3[2] = { { 0 }, { 0 } };
	r3[0].name = "first";
	r3[0].first_available = subs;
	r3[0].n_first_available = 8;
	r3[1] = r3[0];
	r3[1].name = "second";
	DraClaim c3 = { "default", "prioritized", r3, 2, NULL, 0, NULL, 0 };
	ms = time_one(a, &c.nodes[0], &c3, &out);
	printf("hard firstAvailable 2x8: %s in %.3f ms, %" G_GUINT64_FORMAT " allocateOne calls\n",
	       outcome_name(out), ms, dra_allocator_get_stats(a)->allocate_one_calls);
	dra_allocator_free(a);
	cluster_clear(&c);
	return 0;
}

/* docs/allocator.md "Filter timeout": drasim's own rate behind the calibration. */
static int
bench_budget(void)
{
	Cluster c;
	DraOutcome out;

	cluster_init(&c, 1, 12, NULL);
	DraAllocator *a = new_alloc(&c, FALSE);
	dra_allocator_set_step_budget(a, dra_filter_timeout_steps(DRA_FILTER_TIMEOUT_DEFAULT));
	dra_allocator_mark_allocated(a, "gpu.example.com", c.slices[0].pool, "gpu-11", TRUE);
	DraRequest r1 = one_request("gpus", 12);
	DraClaim c1 = { "default", "n-minus-1", &r1, 1, NULL, 0, NULL, 0 };
	double ms = time_one(a, &c.nodes[0], &c1, &out);
	guint64 steps = dra_allocator_get_stats(a)->allocate_one_calls;
	printf("budget n-1 of 12, unpruned, filterTimeout 10s: %s after %" G_GUINT64_FORMAT
	       " steps in %.1f ms (%.1f million steps/s)\n",
	       dra_allocator_timed_out(a) ? "timed out" : outcome_name(out), steps, ms,
	       (double)steps / (ms * 1e3));
	int rc = dra_allocator_timed_out(a) ? 0 : 1;
	dra_allocator_free(a);
	cluster_clear(&c);
	return rc;
}

int
main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "all";
	gboolean prune = !(argc > 2 && strcmp(argv[2], "--no-prune") == 0);
	int rc = 0;

	if (strcmp(what, "fill") == 0 || strcmp(what, "all") == 0) {
		rc |= bench_fill(prune);
	}
	if (strcmp(what, "churn") == 0 || strcmp(what, "all") == 0) {
		rc |= bench_churn(prune);
	}
	if (strcmp(what, "hard") == 0 || strcmp(what, "all") == 0) {
		rc |= bench_hard(prune);
	}
	if (strcmp(what, "budget") == 0) {
		rc |= bench_budget();
	}
	return rc;
}
