/*
 * workload_trace.c: the Alibaba GPU-sharing trace (cluster-trace-gpu-v2023,
 * "openb"), read in place from ../shared/traces/alibaba-gpu-v2023/csv.
 *
 * Columns are found by header name, so both pod-list schemas load (eleven
 * columns, or the five of the multigpu files). Values are checked as the
 * trace README defines them (gpu_milli in 0..1000, times in whole seconds);
 * the first bad value stops the load with file:line:col and the column name.
 * gpu_spec is a '|'-separated set of models, interned with the node models.
 */
#include <stdlib.h>
#include <string.h>

#include "workload-private.h"

struct WorkloadTrace {
	GArray *pods;          /* WorkloadTracePod */
	GArray *nodes;         /* WorkloadTraceNode */
	GPtrArray *models;     /* interned model names, first-seen order */
	GHashTable *model_idx; /* name -> index + 1; lookup only */
	GStringChunk *strings;
};

WorkloadTrace *
workload_trace_new(void)
{
	WorkloadTrace *self = g_new0(WorkloadTrace, 1);

	self->pods = g_array_new(FALSE, FALSE, sizeof(WorkloadTracePod));
	self->nodes = g_array_new(FALSE, FALSE, sizeof(WorkloadTraceNode));
	self->models = g_ptr_array_new();
	self->model_idx = g_hash_table_new(g_str_hash, g_str_equal);
	self->strings = g_string_chunk_new(64 * 1024);
	return self;
}

void
workload_trace_free(WorkloadTrace *self)
{
	if (self == NULL) {
		return;
	}
	g_array_unref(self->pods);
	g_array_unref(self->nodes);
	g_ptr_array_unref(self->models);
	g_hash_table_unref(self->model_idx);
	g_string_chunk_free(self->strings);
	g_free(self);
}

/* Index of @name in the model table, adding it; -1 if the table is full. */
static int
model_intern(WorkloadTrace *self, const char *name, gsize len)
{
	char key[64];

	if (len >= sizeof key) {
		len = sizeof key - 1;
	}
	memcpy(key, name, len);
	key[len] = '\0';
	gpointer found = g_hash_table_lookup(self->model_idx, key);
	if (found != NULL) {
		return GPOINTER_TO_INT(found) - 1;
	}
	if (self->models->len >= 32) {
		return -1; /* gpu_spec_mask has 32 bits */
	}
	char *interned = g_string_chunk_insert_const(self->strings, key);
	g_ptr_array_add(self->models, interned);
	g_hash_table_insert(self->model_idx, interned, GINT_TO_POINTER(self->models->len));
	return (int)self->models->len - 1;
}

/* ------------------------------------------------------------------ columns */

typedef struct {
	const char *name;
	gboolean required;
} Column;

static gboolean
map_header(WorkloadCsv *csv, const Column *columns, guint n_columns, int *index, GError **error)
{
	if (!workload_csv__next(csv, error)) {
		if (error == NULL || *error == NULL) {
			g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_TRACE,
			            "%s:1:1: expected a header row, the file is empty", csv->path);
		}
		return FALSE;
	}
	for (guint c = 0; c < n_columns; c++) {
		index[c] = -1;
	}
	for (guint f = 0; f < workload_csv__n_fields(csv); f++) {
		const char *name = workload_csv__field(csv, f);
		for (guint c = 0; c < n_columns; c++) {
			if (strcmp(name, columns[c].name) == 0) {
				if (index[c] >= 0) {
					return workload_csv__fail(csv, f, name, error,
					                          "duplicate column");
				}
				index[c] = (int)f;
			}
		}
	}
	for (guint c = 0; c < n_columns; c++) {
		if (columns[c].required && index[c] < 0) {
			return workload_csv__fail(csv, 0, columns[c].name, error,
			                          "expected a column named \"%s\" in the header",
			                          columns[c].name);
		}
	}
	return TRUE;
}

/* A non-negative integer in [0, max]; empty only if @empty_ok (then -1). */
static gboolean
field_int(WorkloadCsv *csv,
          int field,
          const char *column,
          gint64 max,
          gboolean empty_ok,
          gint64 *out,
          GError **error)
{
	const char *s = workload_csv__field(csv, (guint)field);
	gint64 v = 0;

	if (*s == '\0') {
		if (empty_ok) {
			*out = -1;
			return TRUE;
		}
		return workload_csv__fail(csv, (guint)field, column, error,
		                          "expected a non-negative integer, got an empty field");
	}
	for (const char *p = s; *p != '\0'; p++) {
		if (!g_ascii_isdigit(*p)) {
			return workload_csv__fail(csv, (guint)field, column, error,
			                          "expected a non-negative integer, got \"%s\"", s);
		}
		v = v * 10 + (*p - '0');
		if (v > max) {
			return workload_csv__fail(
			        csv, (guint)field, column, error,
			        "value \"%s\" is out of range (at most %" G_GINT64_FORMAT ")", s,
			        max);
		}
	}
	*out = v;
	return TRUE;
}

static const char *
field_str(WorkloadTrace *self, WorkloadCsv *csv, int field)
{
	return field >= 0 ? g_string_chunk_insert_const(self->strings,
	                                                workload_csv__field(csv, (guint)field))
	                  : "";
}

/* -------------------------------------------------------------------- pods */

enum {
	POD_NAME,
	POD_CPU,
	POD_MEM,
	POD_NUM_GPU,
	POD_GPU_MILLI,
	POD_GPU_SPEC,
	POD_QOS,
	POD_PHASE,
	POD_CREATION,
	POD_DELETION,
	POD_SCHEDULED,
	POD_N_COLUMNS
};

/* Column names from the trace README (the real header says pod_phase). */
static const Column pod_columns[POD_N_COLUMNS] = {
	[POD_NAME] = { "name", TRUE },
	[POD_CPU] = { "cpu_milli", TRUE },
	[POD_MEM] = { "memory_mib", TRUE },
	[POD_NUM_GPU] = { "num_gpu", TRUE },
	[POD_GPU_MILLI] = { "gpu_milli", TRUE },
	[POD_GPU_SPEC] = { "gpu_spec", FALSE },
	[POD_QOS] = { "qos", FALSE },
	[POD_PHASE] = { "pod_phase", FALSE },
	[POD_CREATION] = { "creation_time", FALSE },
	[POD_DELETION] = { "deletion_time", FALSE },
	[POD_SCHEDULED] = { "scheduled_time", FALSE },
};

/* Seconds in a trace time column: at most ~31 years, far inside SimTime. */
#define MAX_TRACE_SECONDS G_GINT64_CONSTANT(1000000000)
#define MAX_RESOURCE      (G_GINT64_CONSTANT(1) << 40)

static gboolean
parse_phase(WorkloadCsv *csv, int field, WorkloadPhase *out, GError **error)
{
	static const struct {
		const char *name;
		WorkloadPhase phase;
	} phases[] = {
		{ "Pending", WORKLOAD_PHASE_PENDING },
		{ "Running", WORKLOAD_PHASE_RUNNING },
		{ "Succeeded", WORKLOAD_PHASE_SUCCEEDED },
		{ "Failed", WORKLOAD_PHASE_FAILED },
	};

	*out = WORKLOAD_PHASE_UNKNOWN;
	if (field < 0) {
		return TRUE;
	}
	const char *s = workload_csv__field(csv, (guint)field);
	for (guint i = 0; i < G_N_ELEMENTS(phases); i++) {
		if (strcmp(s, phases[i].name) == 0) {
			*out = phases[i].phase;
			return TRUE;
		}
	}
	return workload_csv__fail(csv, (guint)field, "pod_phase", error,
	                          "expected Pending, Running, Succeeded or Failed, got \"%s\"", s);
}

static gboolean
parse_gpu_spec(WorkloadTrace *self, WorkloadCsv *csv, int field, guint32 *mask, GError **error)
{
	*mask = 0;
	if (field < 0) {
		return TRUE;
	}
	const char *s = workload_csv__field(csv, (guint)field);
	while (*s != '\0') {
		const char *bar = strchr(s, '|');
		gsize len = bar != NULL ? (gsize)(bar - s) : strlen(s);
		if (len == 0) {
			return workload_csv__fail(
			        csv, (guint)field, "gpu_spec", error,
			        "expected a GPU model name between '|' separators");
		}
		int m = model_intern(self, s, len);
		if (m < 0) {
			return workload_csv__fail(csv, (guint)field, "gpu_spec", error,
			                          "more than 32 distinct GPU models");
		}
		*mask |= 1u << m; /* a set: repeated models (V100M32|V100M32) count once */
		s += len + (bar != NULL);
		if (bar != NULL && *s == '\0') {
			return workload_csv__fail(csv, (guint)field, "gpu_spec", error,
			                          "expected a GPU model name after '|'");
		}
	}
	return TRUE;
}

static gboolean
parse_time(WorkloadCsv *csv, int field, const char *column, SimTime *out, GError **error)
{
	gint64 v = -1;

	if (field >= 0 && !field_int(csv, field, column, MAX_TRACE_SECONDS, TRUE, &v, error)) {
		return FALSE;
	}
	*out = v < 0 ? SIM_TIME_NEVER : v * SIM_TIME_S;
	return TRUE;
}

static gboolean
parse_pod(WorkloadTrace *self, WorkloadCsv *csv, const int *col, gpointer row, GError **error)
{
	WorkloadTracePod *pod = row;
	gint64 num_gpu, gpu_milli;

	*pod = (WorkloadTracePod){ .line = csv->row_line };
	if (*workload_csv__field(csv, (guint)col[POD_NAME]) == '\0') {
		return workload_csv__fail(csv, (guint)col[POD_NAME], "name", error,
		                          "expected a pod name, got an empty field");
	}
	if (!field_int(csv, col[POD_CPU], "cpu_milli", MAX_RESOURCE, FALSE, &pod->cpu_milli,
	               error) ||
	    !field_int(csv, col[POD_MEM], "memory_mib", MAX_RESOURCE, FALSE, &pod->memory_mib,
	               error) ||
	    !field_int(csv, col[POD_NUM_GPU], "num_gpu", 1024, FALSE, &num_gpu, error) ||
	    !field_int(csv, col[POD_GPU_MILLI], "gpu_milli", 1000, FALSE, &gpu_milli, error) ||
	    !parse_gpu_spec(self, csv, col[POD_GPU_SPEC], &pod->gpu_spec_mask, error) ||
	    !parse_phase(csv, col[POD_PHASE], &pod->phase, error) ||
	    !parse_time(csv, col[POD_CREATION], "creation_time", &pod->creation, error) ||
	    !parse_time(csv, col[POD_DELETION], "deletion_time", &pod->deletion, error) ||
	    !parse_time(csv, col[POD_SCHEDULED], "scheduled_time", &pod->scheduled, error)) {
		return FALSE;
	}
	if (num_gpu == 0 && gpu_milli != 0) {
		return workload_csv__fail(csv, (guint)col[POD_GPU_MILLI], "gpu_milli", error,
		                          "expected 0 when num_gpu is 0, got %" G_GINT64_FORMAT,
		                          gpu_milli);
	}
	if (num_gpu > 0 && gpu_milli == 0) {
		return workload_csv__fail(
		        csv, (guint)col[POD_GPU_MILLI], "gpu_milli", error,
		        "expected 1..1000 when num_gpu is %" G_GINT64_FORMAT ", got 0", num_gpu);
	}
	if (pod->creation == SIM_TIME_NEVER) {
		pod->creation = 0; /* multigpu files: every pod at the start */
	}
	if (pod->deletion != SIM_TIME_NEVER && pod->deletion < pod->creation) {
		return workload_csv__fail(csv, (guint)col[POD_DELETION], "deletion_time", error,
		                          "expected a time >= creation_time");
	}
	pod->num_gpu = (guint32)num_gpu;
	pod->gpu_milli = (guint32)gpu_milli;
	pod->name = field_str(self, csv, col[POD_NAME]);
	pod->gpu_spec = field_str(self, csv, col[POD_GPU_SPEC]);
	pod->qos = field_str(self, csv, col[POD_QOS]);
	return TRUE;
}

/* Runs @parse_row over every data row; appends to @rows only if all parse. */
typedef gboolean (*ParseRowFunc)(
        WorkloadTrace *self, WorkloadCsv *csv, const int *col, gpointer row, GError **error);

static gboolean
load_rows(WorkloadTrace *self,
          const char *path,
          const char *data, /* NULL: read @path */
          gsize len,
          const Column *columns,
          guint n_columns,
          GArray *rows,
          ParseRowFunc parse_row,
          GError **error)
{
	WorkloadCsv csv;
	int col[16];
	guint old_len = rows->len;
	guint old_models = self->models->len;
	gboolean ok = TRUE;

	g_assert(n_columns <= G_N_ELEMENTS(col));
	if (data != NULL) {
		workload_csv__open_data(&csv, path, data, len);
	} else if (!workload_csv__open(&csv, path, error)) {
		return FALSE;
	}
	ok = map_header(&csv, columns, n_columns, col, error);
	guint n_header = ok ? workload_csv__n_fields(&csv) : 0;
	while (ok) {
		g_autoptr(GError) row_error = NULL;
		if (!workload_csv__next(&csv, &row_error)) {
			ok = row_error == NULL;
			if (!ok) {
				g_propagate_error(error, g_steal_pointer(&row_error));
			}
			break;
		}
		if (workload_csv__n_fields(&csv) != n_header) {
			guint last = MIN(workload_csv__n_fields(&csv), n_header) - 1;
			ok = workload_csv__fail(&csv, last, NULL, error,
			                        "expected %u fields as in the header, got %u",
			                        n_header, workload_csv__n_fields(&csv));
			break;
		}
		g_array_set_size(rows, rows->len + 1);
		gpointer row = rows->data + (gsize)(rows->len - 1) * g_array_get_element_size(rows);
		ok = parse_row(self, &csv, col, row, error);
	}
	workload_csv__close(&csv);
	if (!ok) {
		/* nothing appended on error; interned models stay (harmless) unless new */
		g_array_set_size(rows, old_len);
		for (guint i = old_models; i < self->models->len; i++) {
			g_hash_table_remove(self->model_idx, self->models->pdata[i]);
		}
		g_ptr_array_set_size(self->models, old_models);
	}
	return ok;
}

gboolean
workload_trace_load_pods(WorkloadTrace *self, const char *path, GError **error)
{
	return load_rows(self, path, NULL, 0, pod_columns, POD_N_COLUMNS, self->pods, parse_pod,
	                 error);
}

gboolean
workload_trace_load_pods_data(
        WorkloadTrace *self, const char *name, const char *data, gsize len, GError **error)
{
	return load_rows(self, name, data, len, pod_columns, POD_N_COLUMNS, self->pods, parse_pod,
	                 error);
}

/* ------------------------------------------------------------------- nodes */

enum { NODE_NAME, NODE_CPU, NODE_MEM, NODE_GPU, NODE_MODEL, NODE_N_COLUMNS };

static const Column node_columns[NODE_N_COLUMNS] = {
	[NODE_NAME] = { "sn", TRUE },        [NODE_CPU] = { "cpu_milli", TRUE },
	[NODE_MEM] = { "memory_mib", TRUE }, [NODE_GPU] = { "gpu", TRUE },
	[NODE_MODEL] = { "model", TRUE },
};

static gboolean
parse_node(WorkloadTrace *self, WorkloadCsv *csv, const int *col, gpointer row, GError **error)
{
	WorkloadTraceNode *node = row;
	gint64 gpu;

	*node = (WorkloadTraceNode){ .line = csv->row_line, .model_index = G_MAXUINT32 };
	if (*workload_csv__field(csv, (guint)col[NODE_NAME]) == '\0') {
		return workload_csv__fail(csv, (guint)col[NODE_NAME], "sn", error,
		                          "expected a node name, got an empty field");
	}
	if (!field_int(csv, col[NODE_CPU], "cpu_milli", MAX_RESOURCE, FALSE, &node->cpu_milli,
	               error) ||
	    !field_int(csv, col[NODE_MEM], "memory_mib", MAX_RESOURCE, FALSE, &node->memory_mib,
	               error) ||
	    !field_int(csv, col[NODE_GPU], "gpu", 1024, FALSE, &gpu, error)) {
		return FALSE;
	}
	const char *model = workload_csv__field(csv, (guint)col[NODE_MODEL]);
	if (gpu > 0 && *model == '\0') {
		return workload_csv__fail(
		        csv, (guint)col[NODE_MODEL], "model", error,
		        "expected a GPU model for a node with %" G_GINT64_FORMAT " GPUs", gpu);
	}
	if (*model != '\0') {
		int m = model_intern(self, model, strlen(model));
		if (m < 0) {
			return workload_csv__fail(csv, (guint)col[NODE_MODEL], "model", error,
			                          "more than 32 distinct GPU models");
		}
		node->model_index = (guint32)m;
	}
	node->gpu = (guint32)gpu;
	node->name = field_str(self, csv, col[NODE_NAME]);
	node->model = field_str(self, csv, col[NODE_MODEL]);
	return TRUE;
}

gboolean
workload_trace_load_nodes(WorkloadTrace *self, const char *path, GError **error)
{
	return load_rows(self, path, NULL, 0, node_columns, NODE_N_COLUMNS, self->nodes, parse_node,
	                 error);
}

gboolean
workload_trace_load_nodes_data(
        WorkloadTrace *self, const char *name, const char *data, gsize len, GError **error)
{
	return load_rows(self, name, data, len, node_columns, NODE_N_COLUMNS, self->nodes,
	                 parse_node, error);
}

/* ---------------------------------------------------------------- access */

guint
workload_trace_get_n_pods(const WorkloadTrace *self)
{
	return self->pods->len;
}

const WorkloadTracePod *
workload_trace_get_pod(const WorkloadTrace *self, guint i)
{
	g_return_val_if_fail(i < self->pods->len, NULL);
	return &g_array_index(self->pods, WorkloadTracePod, i);
}

guint
workload_trace_get_n_nodes(const WorkloadTrace *self)
{
	return self->nodes->len;
}

const WorkloadTraceNode *
workload_trace_get_node(const WorkloadTrace *self, guint i)
{
	g_return_val_if_fail(i < self->nodes->len, NULL);
	return &g_array_index(self->nodes, WorkloadTraceNode, i);
}

guint
workload_trace_get_n_models(const WorkloadTrace *self)
{
	return self->models->len;
}

const char *
workload_trace_get_model(const WorkloadTrace *self, guint i)
{
	g_return_val_if_fail(i < self->models->len, NULL);
	return g_ptr_array_index(self->models, i);
}

static int
item_cmp(const void *a, const void *b)
{
	const WorkloadItem *x = a, *y = b;

	if (x->arrival != y->arrival) {
		return x->arrival < y->arrival ? -1 : 1;
	}
	return (x->index > y->index) - (x->index < y->index);
}

GArray *
workload_trace_to_items(const WorkloadTrace *self)
{
	GArray *items = g_array_sized_new(FALSE, FALSE, sizeof(WorkloadItem), self->pods->len);

	for (guint i = 0; i < self->pods->len; i++) {
		const WorkloadTracePod *pod = &g_array_index(self->pods, WorkloadTracePod, i);
		WorkloadItem item = {
			.arrival = pod->creation,
			.duration =
			        pod->deletion != SIM_TIME_NEVER ? pod->deletion - pod->creation : 0,
			.demand = pod->num_gpu * (double)pod->gpu_milli / 1000.0,
			.template_index = i,
			.source = 0,
			.index = i,
		};
		g_array_append_val(items, item);
	}
	/* Some variants (cpu050, gpushare*) are not sorted by creation time. The
	 * row index breaks ties, so the order is total and the sort stable. */
	if (items->len > 1) {
		qsort(items->data, items->len, sizeof(WorkloadItem), item_cmp);
	}
	return items;
}
