/*
 * cluster_gpushare.c: Open-Gpu-Share's per-GPU milli model (fit, GPU choice,
 * binding) and FGD's fragment measure with its memo, as the FGD paper's
 * simulator defines them (hkust-adsl/kubernetes-scheduler-simulator:
 * pkg/simulator/plugin/open_gpu_share.go, pkg/type/resource.go,
 * pkg/utils/frag.go). Written from the definitions, not translated.
 *
 * The memo: a node's fragment depends only on its GPU model, on which task
 * CPU sizes still fit its free CPU, and on the multiset of its GPUs' free
 * milli. That state packs into 128 bits; an open-addressed table maps it to
 * the fragment, so a candidate costs one lookup once the state was seen.
 */
#include "cluster_gpushare.h"

#include <math.h>
#include <string.h>

#include "cluster-private.h"

#define MEMO_EMPTY G_MAXUINT64 /* no real key has every bit of its low word set */

typedef struct {
	guint64 lo, hi;
} MemoKey;

struct ClusterGpuShare {
	gint64 max_cpu, max_gpu;
	ClusterRandFunc rand;
	gpointer rand_data;
	ClusterGpuShareTask *tasks;
	guint n_tasks;
	gint64 *cpu_steps; /* distinct task CPU sizes, increasing */
	guint n_cpu_steps;
	MemoKey *keys; /* open addressing, linear probing */
	double *values;
	guint64 capacity, used; /* capacity: a power of two */
	guint64 lookups, misses;
};

static void
memo_reset(ClusterGpuShare *self, guint64 capacity)
{
	g_free(self->keys);
	g_free(self->values);
	self->capacity = capacity;
	self->used = 0;
	self->keys = g_new(MemoKey, capacity);
	self->values = g_new(double, capacity);
	for (guint64 i = 0; i < capacity; i++)
		self->keys[i] = (MemoKey){ MEMO_EMPTY, MEMO_EMPTY };
}

ClusterGpuShare *
cluster_gpushare_new(gint64 max_cpu_milli,
                     gint64 max_gpu_milli,
                     ClusterRandFunc rand,
                     gpointer rand_data)
{
	ClusterGpuShare *self = g_new0(ClusterGpuShare, 1);

	self->max_cpu = MAX(max_cpu_milli, 1);
	self->max_gpu = MAX(max_gpu_milli, 1);
	self->rand = rand;
	self->rand_data = rand_data;
	memo_reset(self, 1u << 12);
	return self;
}

void
cluster_gpushare_free(ClusterGpuShare *self)
{
	if (self == NULL)
		return;
	g_free(self->tasks);
	g_free(self->cpu_steps);
	g_free(self->keys);
	g_free(self->values);
	g_free(self);
}

static gint
cmp_gint64(gconstpointer a, gconstpointer b)
{
	gint64 x = *(const gint64 *)a, y = *(const gint64 *)b;

	return (x > y) - (x < y);
}

void
cluster_gpushare_set_tasks(ClusterGpuShare *self, const ClusterGpuShareTask *tasks, guint n)
{
	guint steps = 0;

	g_free(self->tasks);
	g_free(self->cpu_steps);
	self->tasks = g_memdup2(tasks, sizeof(*tasks) * n);
	self->n_tasks = n;
	self->cpu_steps = g_new(gint64, MAX(n, 1));
	for (guint i = 0; i < n; i++)
		self->cpu_steps[i] = tasks[i].cpu_milli;
	qsort(self->cpu_steps, n, sizeof(gint64), cmp_gint64);
	for (guint i = 0; i < n; i++) {
		if (steps == 0 || self->cpu_steps[steps - 1] != self->cpu_steps[i])
			self->cpu_steps[steps++] = self->cpu_steps[i];
	}
	self->n_cpu_steps = steps;
	memo_reset(self, self->capacity);
}

gint64
cluster_gpushare_get_max_cpu(const ClusterGpuShare *self)
{
	return self->max_cpu;
}

gint64
cluster_gpushare_get_max_gpu(const ClusterGpuShare *self)
{
	return self->max_gpu;
}

guint32
cluster_gpushare_rand(ClusterGpuShare *self, guint32 n)
{
	return self->rand != NULL && n > 1 ? self->rand(self->rand_data, n) : 0;
}

void
cluster_gpushare_get_memo_stats(const ClusterGpuShare *self, guint64 *lookups, guint64 *misses)
{
	*lookups = self->lookups;
	*misses = self->misses;
}

/* ------------------------------------------------------------ node state */

void
cluster_gpushare_node_init(ClusterGpuShareNode *node,
                           ClusterGpuShare *share,
                           guint32 model,
                           guint32 n_gpus)
{
	*node = (ClusterGpuShareNode){ 0 };
	node->share = share;
	node->model = model;
	node->n_gpus = MIN(n_gpus, CLUSTER_GPUSHARE_MAX_GPUS);
	for (guint i = 0; i < node->n_gpus; i++)
		node->free[i] = CLUSTER_GPUSHARE_MILLI;
}

guint32
cluster_gpushare_node_free_total(const ClusterGpuShareNode *node)
{
	guint32 total = 0;

	for (guint i = 0; i < node->n_gpus; i++)
		total += (guint32)node->free[i];
	return total;
}

guint32
cluster_gpushare_node_fully_free(const ClusterGpuShareNode *node)
{
	guint32 n = 0;

	for (guint i = 0; i < node->n_gpus; i++)
		n += node->free[i] == CLUSTER_GPUSHARE_MILLI;
	return n;
}

static inline gboolean
model_allowed(guint32 model, const ClusterGpuShareReq *req)
{
	return req->model_mask == 0 || (model < 32 && (req->model_mask & (1u << model)) != 0);
}

/* CanNodeHostPodOnGpuMemory: num_gpu GPUs with at least gpu_milli free each. */
static inline gboolean
gpus_fit(const gint32 *free, guint32 n_gpus, const ClusterGpuShareReq *req)
{
	guint32 fitting = 0;

	for (guint i = 0; i < n_gpus; i++)
		fitting += free[i] >= (gint32)req->gpu_milli;
	return fitting >= req->num_gpu;
}

gboolean
cluster_gpushare_fits(const ClusterGpuShareNode *node, const ClusterGpuShareReq *req)
{
	if (req->num_gpu == 0 || req->gpu_milli == 0)
		return TRUE;
	if (node == NULL || node->n_gpus == 0 || !model_allowed(node->model, req))
		return FALSE;
	return gpus_fit(node->free, node->n_gpus, req);
}

gint64
cluster_gpushare_cpu_left(const ClusterNode *node)
{
	return node->allocatable.v[CLUSTER_RES_CPU] - node->requested.v[CLUSTER_RES_CPU];
}

gint64
cluster_gpushare_cpu_request(const ClusterPod *pod)
{
	return pod->nonzero_requests.v[CLUSTER_RES_CPU];
}

/* ------------------------------------------------------------- fragment */

/* The categories of frag.go, in its order; the sum leaves Q3 (usable) out. */
enum { Q1_LACK_BOTH, Q2_LACK_GPU, Q3_SATISFIED, Q4_LACK_CPU, XL, XR, NO_ACCESS, N_CATEGORIES };

/*
 * NodeGpuShareFragAmount summed except Q3. Per task: a CPU-only task cannot
 * use any idle GPU (XL/XR); a task of another model cannot either (NoAccess);
 * a task that does not fit (too few GPUs with enough free milli, or too
 * little CPU) leaves all idle GPU as fragment (Q1, Q2, Q4); a task that fits
 * (Q3) leaves the GPUs with less free milli than it asks for. Accumulated per
 * category in task order, then summed in category order, as frag.go does.
 */
static double
frag_compute(const ClusterGpuShare *self,
             guint32 model,
             gint64 cpu_left,
             const gint32 *free,
             guint32 n_gpus)
{
	double data[N_CATEGORIES] = { 0 }, sum = 0.0;
	gint64 total = 0;

	for (guint i = 0; i < n_gpus; i++)
		total += free[i];
	for (guint t = 0; t < self->n_tasks; t++) {
		const ClusterGpuShareTask *task = &self->tasks[t];
		gboolean cpu_ok = cpu_left >= task->cpu_milli;
		gint64 short_milli = 0;

		if (task->req.gpu_milli == 0) {
			data[cpu_ok ? XL : XR] += task->p * (double)total;
			continue;
		}
		if (!model_allowed(model, &task->req)) {
			data[NO_ACCESS] += task->p * (double)total;
			continue;
		}
		if (!gpus_fit(free, n_gpus, &task->req)) {
			data[cpu_ok ? Q2_LACK_GPU : Q1_LACK_BOTH] += task->p * (double)total;
			continue;
		}
		if (!cpu_ok) {
			data[Q4_LACK_CPU] += task->p * (double)total;
			continue;
		}
		for (guint i = 0; i < n_gpus; i++) {
			if (free[i] < (gint32)task->req.gpu_milli)
				short_milli += free[i];
		}
		data[Q2_LACK_GPU] += task->p * (double)short_milli;
		data[Q3_SATISFIED] += task->p * (double)(total - short_milli);
	}
	for (guint c = 0; c < N_CATEGORIES; c++) {
		if (c != Q3_SATISFIED)
			sum += data[c];
	}
	return sum;
}

/* How many distinct task CPU sizes fit in @cpu_left: all the fragment needs of the CPU. */
static guint
cpu_step(const ClusterGpuShare *self, gint64 cpu_left)
{
	guint lo = 0, hi = self->n_cpu_steps;

	while (lo < hi) {
		guint mid = (lo + hi) / 2;

		if (self->cpu_steps[mid] <= cpu_left)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* (model 8 bits, CPU step 12 bits, GPU count 4 bits) and the free milli sorted, 10 bits each. */
static MemoKey
memo_key(const ClusterGpuShare *self,
         guint32 model,
         gint64 cpu_left,
         const gint32 *free,
         guint32 n_gpus)
{
	gint32 sorted[CLUSTER_GPUSHARE_MAX_GPUS];
	MemoKey key;

	for (guint i = 0; i < n_gpus; i++) {
		guint j = i;

		while (j > 0 && sorted[j - 1] < free[i]) {
			sorted[j] = sorted[j - 1];
			j--;
		}
		sorted[j] = free[i];
	}
	key.hi = ((guint64)(model & 0xff) << 16) |
	         ((guint64)(cpu_step(self, cpu_left) & 0xfff) << 4) | n_gpus;
	key.lo = 0;
	for (guint i = 0; i < n_gpus; i++) {
		if (i < 6)
			key.lo |= (guint64)sorted[i] << (10 * i);
		else
			key.hi |= (guint64)sorted[i] << (24 + 10 * (i - 6));
	}
	return key;
}

static inline guint64
memo_hash(MemoKey key)
{
	guint64 h = key.lo * 0x9e3779b97f4a7c15ull ^ (key.hi + 0x632be59bd9b4e019ull);

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 32);
}

static void
memo_insert(ClusterGpuShare *self, MemoKey key, double value)
{
	guint64 mask = self->capacity - 1, i = memo_hash(key) & mask;

	while (self->keys[i].lo != MEMO_EMPTY)
		i = (i + 1) & mask;
	self->keys[i] = key;
	self->values[i] = value;
	self->used++;
}

/* Doubles the table (amortised: the memo only grows while new states appear). */
static void
memo_grow(ClusterGpuShare *self)
{
	MemoKey *keys = self->keys;
	double *values = self->values;
	guint64 old = self->capacity;

	self->keys = NULL;
	self->values = NULL;
	memo_reset(self, old * 2);
	for (guint64 i = 0; i < old; i++) {
		if (keys[i].lo != MEMO_EMPTY)
			memo_insert(self, keys[i], values[i]);
	}
	g_free(keys);
	g_free(values);
}

double
cluster_gpushare_frag(
        ClusterGpuShare *self, guint32 model, gint64 cpu_left, const gint32 *free, guint32 n_gpus)
{
	MemoKey key = memo_key(self, model, cpu_left, free, n_gpus);
	guint64 mask = self->capacity - 1, i = memo_hash(key) & mask;
	double value;

	self->lookups++;
	for (; self->keys[i].lo != MEMO_EMPTY; i = (i + 1) & mask) {
		if (self->keys[i].lo == key.lo && self->keys[i].hi == key.hi)
			return self->values[i];
	}
	self->misses++;
	value = frag_compute(self, model, cpu_left, free, n_gpus);
	if ((self->used + 1) * 2 > self->capacity)
		memo_grow(self);
	memo_insert(self, key, value);
	return value;
}

double
cluster_gpushare_node_frag(const ClusterNode *node)
{
	ClusterGpuShareNode *g = node->gpushare;

	if (!g->frag_valid) {
		g->frag = cluster_gpushare_frag(g->share, g->model, cluster_gpushare_cpu_left(node),
		                                g->free, g->n_gpus);
		g->frag_valid = TRUE;
	}
	return g->frag;
}

/* ------------------------------------------------------- FGD and GPU choice */

/* int64(sigmoid(x) × MaxNodeScore), x = fragment decrease / 1000 (fgd_score.go) */
static inline gint64
fgd_sigmoid_score(double before, double after)
{
	double x = (before - after) / 1000.0;

	return (gint64)(1.0 / (1.0 + exp(-x)) * 100.0);
}

/*
 * A fractional pod tries every GPU that fits and keeps the first best; any
 * other pod takes idle GPUs (or only CPU), which leaves one state. GPUs with
 * equal free milli lead to the same state, so only the first of each is tried.
 */
gint64
cluster_gpushare_fgd_score(const ClusterPod *pod, const ClusterNode *node, gint *gpu)
{
	const ClusterGpuShareNode *g = node->gpushare;
	const ClusterGpuShareReq *req = pod->gpushare;
	gint64 cpu_after = cluster_gpushare_cpu_left(node) - cluster_gpushare_cpu_request(pod);
	double before = cluster_gpushare_node_frag(node);
	gint32 free[CLUSTER_GPUSHARE_MAX_GPUS];
	gint64 best = 0;

	*gpu = -1;
	memcpy(free, g->free, sizeof(free));
	if (req != NULL && req->num_gpu == 1 && req->gpu_milli < CLUSTER_GPUSHARE_MILLI) {
		for (guint i = 0; i < g->n_gpus; i++) {
			gboolean seen = FALSE;
			gint64 score;

			if (g->free[i] < (gint32)req->gpu_milli)
				continue;
			for (guint j = 0; j < i && !seen; j++)
				seen = g->free[j] == g->free[i];
			if (seen)
				continue;
			free[i] -= (gint32)req->gpu_milli;
			score = fgd_sigmoid_score(before, cluster_gpushare_frag(g->share, g->model,
			                                                        cpu_after, free,
			                                                        g->n_gpus));
			free[i] = g->free[i];
			if (*gpu < 0 || score > best) {
				best = score;
				*gpu = (gint)i;
			}
		}
		return best;
	}
	for (guint i = 0, left = req != NULL ? req->num_gpu : 0; i < g->n_gpus && left > 0; i++) {
		if (free[i] == CLUSTER_GPUSHARE_MILLI) {
			free[i] = 0;
			left--;
		}
	}
	return fgd_sigmoid_score(
	        before, cluster_gpushare_frag(g->share, g->model, cpu_after, free, g->n_gpus));
}

static guint
pick_fractional(ClusterGpuPick how, const ClusterPod *pod, const ClusterNode *node)
{
	const ClusterGpuShareNode *g = node->gpushare;
	gint32 milli = (gint32)pod->gpushare->gpu_milli;
	gint chosen = -1;
	guint32 count = 0;

	if (how == CLUSTER_GPU_PICK_FGD) {
		cluster_gpushare_fgd_score(pod, node, &chosen);
		return (guint)chosen;
	}
	for (guint i = 0; i < g->n_gpus; i++) {
		if (g->free[i] < milli)
			continue;
		if (how == CLUSTER_GPU_PICK_RANDOM) {
			/* allocateGpuIdBasedOnRandomFit: reservoir over the fitting GPUs */
			if (cluster_gpushare_rand(g->share, ++count) == 0)
				chosen = (gint)i;
		} else if (chosen < 0 || g->free[i] < g->free[chosen]) {
			chosen = (gint)i;
		}
	}
	return (guint)chosen;
}

guint
cluster_gpushare_pick(ClusterGpuPick how,
                      const ClusterPod *pod,
                      const ClusterNode *node,
                      guint *gpus)
{
	const ClusterGpuShareNode *g = node->gpushare;
	const ClusterGpuShareReq *req = pod->gpushare;
	guint n = 0;

	if (req == NULL || req->num_gpu == 0 || g == NULL || !cluster_gpushare_fits(g, req))
		return 0;
	if (req->num_gpu == 1 && req->gpu_milli < CLUSTER_GPUSHARE_MILLI) {
		gpus[0] = pick_fractional(how, pod, node);
		return 1;
	}
	/* AllocateExclusiveGpuId: the idle GPUs of lowest index */
	for (guint i = 0; i < g->n_gpus && n < req->num_gpu; i++) {
		if (g->free[i] == CLUSTER_GPUSHARE_MILLI)
			gpus[n++] = i;
	}
	return n;
}

/* GpuClustering's class of a GPU pod: 0 fractional, k for k whole GPUs. */
static guint
pod_class(const ClusterGpuShareReq *req)
{
	return req->gpu_milli < CLUSTER_GPUSHARE_MILLI
	               ? 0
	               : MIN(req->num_gpu, CLUSTER_GPUSHARE_MAX_GPUS);
}

void
cluster_gpushare_bind(ClusterNode *node, const ClusterPod *pod, const guint *gpus, guint n)
{
	ClusterGpuShareNode *g = node->gpushare;
	const ClusterGpuShareReq *req = pod->gpushare;

	g->frag_valid = FALSE; /* the CPU changed even for a CPU-only pod */
	if (req == NULL || req->num_gpu == 0)
		return;
	for (guint i = 0; i < n; i++)
		g->free[gpus[i]] -= (gint32)req->gpu_milli;
	if (g->affinity[pod_class(req)]++ == 0)
		g->n_affinity++;
}

void
cluster_gpushare_node_track_whole(ClusterGpuShareNode *g, guint slot)
{
	g->whole = TRUE;
	g->whole_res = slot;
}

void
cluster_gpushare_node_track_devices(ClusterGpuShareNode *g)
{
	g->devices = TRUE;
}

void
cluster_gpushare_node_set_held(ClusterGpuShareNode *g, guint index, gboolean held)
{
	if (index >= g->n_gpus)
		return;
	g->free[index] = held ? 0 : CLUSTER_GPUSHARE_MILLI;
	g->frag_valid = FALSE;
}

void
cluster_gpushare_node_sync(ClusterNode *node, const ClusterPod *pod, gint delta)
{
	ClusterGpuShareNode *g = node->gpushare;
	const ClusterGpuShareReq *req = pod->gpushare;
	gint64 idle;
	guint cls;

	if (g == NULL || (!g->whole && !g->devices))
		return;
	g->frag_valid = FALSE; /* the CPU changed even for a CPU-only pod */
	/* taken GPUs first, as the plugin hands out the idle ones of lowest index;
	 * only the count matters to the scores (devices: DynamicResources sets them) */
	if (g->whole) {
		idle = node->allocatable.v[g->whole_res] - node->requested.v[g->whole_res];
		for (guint i = 0; i < g->n_gpus; i++)
			g->free[i] = (gint64)(g->n_gpus - i) <= idle ? CLUSTER_GPUSHARE_MILLI : 0;
	}
	if (req == NULL || req->num_gpu == 0)
		return;
	cls = pod_class(req);
	if (delta > 0 && g->affinity[cls]++ == 0)
		g->n_affinity++;
	else if (delta < 0 && g->affinity[cls] > 0 && --g->affinity[cls] == 0)
		g->n_affinity--;
}

/* Most popular first; equal counts by shape, so the 95 % cut is deterministic. */
static gint
cmp_popular(gconstpointer pa, gconstpointer pb)
{
	const ClusterGpuShareTask *a = pa, *b = pb;

	if (a->p > b->p || a->p < b->p) /* pod counts: exact */
		return a->p > b->p ? -1 : 1;
	if (a->cpu_milli != b->cpu_milli)
		return a->cpu_milli < b->cpu_milli ? -1 : 1;
	if (a->req.gpu_milli != b->req.gpu_milli)
		return a->req.gpu_milli < b->req.gpu_milli ? -1 : 1;
	if (a->req.num_gpu != b->req.num_gpu)
		return a->req.num_gpu < b->req.num_gpu ? -1 : 1;
	return (a->req.model_mask > b->req.model_mask) - (a->req.model_mask < b->req.model_mask);
}

guint
cluster_gpushare_keep_popular_tasks(ClusterGpuShare *self, ClusterGpuShareTask *shapes, guint n)
{
	double total = 0.0, covered = 0.0, expected;
	guint kept = 0;

	for (guint i = 0; i < n; i++)
		total += shapes[i].p;
	/* podPopularityThreshold 95: whole shapes until 95 % of the pods are covered
	 * (95 x total / 100, in the authors' order of operations: 0.95 x total can
	 * differ in the last bit and move the cut) */
	expected = 95.0 * total / 100.0;
	while (kept < n && covered < expected)
		covered += shapes[kept++].p;
	for (guint i = 0; i < kept; i++)
		shapes[i].p /= covered;
	cluster_gpushare_set_tasks(self, shapes, kept);
	return kept;
}

guint
cluster_gpushare_set_popular_tasks(ClusterGpuShare *self, ClusterGpuShareTask *shapes, guint n)
{
	qsort(shapes, n, sizeof(*shapes), cmp_popular);
	return cluster_gpushare_keep_popular_tasks(self, shapes, n);
}
