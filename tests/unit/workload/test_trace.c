/*
 * test_trace.c: the Alibaba GPU-sharing trace reader.
 *
 * Invariants under test: the real files (read in place from ../shared) load
 * with the counts and totals the trace README states; every variant loads;
 * the replay stream is sorted even for the variants whose rows are not; a
 * bad row stops the load with "file:line:col: what [column]" and appends
 * nothing. Load time of the whole trace is printed (not asserted: the
 * machine is shared).
 */
#include <math.h>
#include <setjmp.h> /* cmocka 1.x needs these four before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib/gstdio.h>

#include "workload.h"

static char *
trace_path(const char *file)
{
	const char *shared = g_getenv("DRASIM_SHARED_DIR");

	return g_build_filename(shared != NULL ? shared : "../shared", "traces",
	                        "alibaba-gpu-v2023", "csv", file, NULL);
}

static void
load_ok(WorkloadTrace *trace, const char *file, gboolean nodes)
{
	g_autofree char *path = trace_path(file);
	g_autoptr(GError) error = NULL;
	gboolean ok = nodes ? workload_trace_load_nodes(trace, path, &error)
	                    : workload_trace_load_pods(trace, path, &error);

	if (!ok) {
		fail_msg("%s", error->message);
	}
}

static void
test_trace__default_matches_readme(void **state)
{
	g_autoptr(WorkloadTrace) t = workload_trace_new();
	guint by_gpus[9] = { 0 }, pending = 0, sharing = 0;
	guint64 gpu_milli_total = 0;

	load_ok(t, "openb_pod_list_default.csv", FALSE);
	assert_int_equal(workload_trace_get_n_pods(t), 8152);
	for (guint i = 0; i < workload_trace_get_n_pods(t); i++) {
		const WorkloadTracePod *p = workload_trace_get_pod(t, i);
		assert_true(p->num_gpu <= 8);
		by_gpus[p->num_gpu]++;
		pending += p->phase == WORKLOAD_PHASE_PENDING;
		sharing += p->num_gpu == 1 && p->gpu_milli < 1000;
		gpu_milli_total += (guint64)p->num_gpu * p->gpu_milli;
		assert_true(p->deletion >= p->creation);
		assert_true(p->phase != WORKLOAD_PHASE_PENDING || p->scheduled == SIM_TIME_NEVER);
		assert_int_equal(p->line, i + 2);
	}
	/* README: num_gpu 0 -> 1088, 1 -> 6989, 2 -> 16, 4 -> 15, 8 -> 44 */
	assert_int_equal(by_gpus[0], 1088);
	assert_int_equal(by_gpus[1], 6989);
	assert_int_equal(by_gpus[2], 16);
	assert_int_equal(by_gpus[4], 15);
	assert_int_equal(by_gpus[8], 44);
	assert_int_equal(sharing, 3078);
	assert_int_equal(pending, 897);
	assert_int_equal(gpu_milli_total, 6086800); /* 6086.8 GPUs */

	const WorkloadTracePod *p1 = workload_trace_get_pod(t, 1);
	assert_string_equal(p1->name, "openb-pod-0001");
	assert_int_equal(p1->cpu_milli, 6000);
	assert_int_equal(p1->memory_mib, 12288);
	assert_int_equal(p1->gpu_milli, 460);
	assert_string_equal(p1->qos, "LS");
	assert_int_equal(p1->creation, 427061 * SIM_TIME_S);
	assert_int_equal(p1->deletion, 12902960 * SIM_TIME_S);
	assert_int_equal(p1->gpu_spec_mask, 0);
}

static void
test_trace__nodes_and_gpu_spec(void **state)
{
	g_autoptr(WorkloadTrace) t = workload_trace_new();
	guint gpus = 0, spec_pods = 0;

	load_ok(t, "openb_node_list_gpu_node.csv", TRUE);
	load_ok(t, "openb_pod_list_gpuspec33.csv", FALSE);
	assert_int_equal(workload_trace_get_n_nodes(t), 1213);
	gint64 cpu = 0, mem = 0;
	for (guint i = 0; i < workload_trace_get_n_nodes(t); i++) {
		const WorkloadTraceNode *n = workload_trace_get_node(t, i);
		gpus += n->gpu;
		cpu += n->cpu_milli;
		mem += n->memory_mib;
		assert_string_equal(n->model, workload_trace_get_model(t, n->model_index));
	}
	/* README: 6212 GPUs, 107,018,000 milli-CPU, 503,828,480 MiB; 7 models in nodes */
	assert_int_equal(gpus, 6212);
	assert_int_equal(cpu, 107018000);
	assert_int_equal(mem, 503828480);
	assert_int_equal(workload_trace_get_n_models(t), 7);

	/* gpuspec33: 2388 constrained pods; a spec's models are a set of known ones */
	guint v100_pair = 0;
	for (guint i = 0; i < workload_trace_get_n_pods(t); i++) {
		const WorkloadTracePod *p = workload_trace_get_pod(t, i);
		if (p->gpu_spec_mask == 0) {
			assert_string_equal(p->gpu_spec, "");
			continue;
		}
		spec_pods++;
		g_auto(GStrv) names = g_strsplit(p->gpu_spec, "|", -1);
		guint32 mask = 0;
		for (guint k = 0; names[k] != NULL; k++) {
			for (guint m = 0; m < workload_trace_get_n_models(t); m++) {
				if (strcmp(names[k], workload_trace_get_model(t, m)) == 0) {
					mask |= 1u << m;
				}
			}
		}
		assert_int_equal(mask, p->gpu_spec_mask);
		v100_pair += strcmp(p->gpu_spec, "V100M16|V100M32") == 0;
	}
	assert_int_equal(spec_pods, 2388);
	assert_int_equal(v100_pair, 141); /* README: V100M16|V100M32 141 */
}

/* Every model code of the node list and of gpuspec33 maps to a catalog GPU,
 * distinct codes to distinct GPUs (a gpu_spec selector must tell them apart);
 * G1 (legend only) and unknown codes map to nothing. */
static void
test_trace__model_catalog_ids(void **state)
{
	g_autoptr(WorkloadTrace) t = workload_trace_new();
	g_autoptr(GHashTable) ids = g_hash_table_new(g_str_hash, g_str_equal);

	(void)state;
	load_ok(t, "openb_node_list_gpu_node.csv", TRUE);
	load_ok(t, "openb_pod_list_gpuspec33.csv", FALSE);
	for (guint m = 0; m < workload_trace_get_n_models(t); m++) {
		const char *code = workload_trace_get_model(t, m);
		const char *id = workload_trace_model_catalog_id(code);

		if (id == NULL) {
			fail_msg("trace model %s has no catalog GPU", code);
		}
		assert_false(g_hash_table_contains(ids, id));
		g_hash_table_add(ids, (gpointer)id);
	}
	assert_int_equal(g_hash_table_size(ids), 7);
	assert_string_equal(workload_trace_model_catalog_id("T4"), "t4-16gb");
	assert_string_equal(workload_trace_model_catalog_id("V100M16"), "v100-sxm2-16gb");
	assert_string_equal(workload_trace_model_catalog_id("V100M32"), "v100-sxm2-32gb");
	assert_null(workload_trace_model_catalog_id("G1"));
	assert_null(workload_trace_model_catalog_id("t4")); /* codes are case-sensitive */
	assert_null(workload_trace_model_catalog_id(""));
}

static void
test_trace__every_file_and_speed(void **state)
{
	g_autofree char *dir_path = trace_path("");
	g_autoptr(GDir) dir = g_dir_open(dir_path, 0, NULL);
	g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_free);
	const char *name;

	assert_non_null(dir);
	while ((name = g_dir_read_name(dir)) != NULL) {
		g_ptr_array_add(files, g_strdup(name));
	}
	assert_int_equal(files->len, 26);

	guint pods = 0, nodes = 0;
	gint64 t0 = g_get_monotonic_time();
	for (guint i = 0; i < files->len; i++) {
		g_autoptr(WorkloadTrace) t = workload_trace_new();
		const char *f = files->pdata[i];
		gboolean is_nodes = g_str_has_prefix(f, "openb_node_list");
		load_ok(t, f, is_nodes);
		g_autoptr(GArray) items = workload_trace_to_items(t);
		for (guint k = 1; k < items->len; k++) {
			const WorkloadItem *a = &g_array_index(items, WorkloadItem, k - 1);
			const WorkloadItem *b = &g_array_index(items, WorkloadItem, k);
			assert_true(a->arrival < b->arrival ||
			            (a->arrival == b->arrival && a->index < b->index));
		}
		pods += workload_trace_get_n_pods(t);
		nodes += workload_trace_get_n_nodes(t);
	}
	double seconds = (double)(g_get_monotonic_time() - t0) / 1e6;
	/* README: 201,959 lines with headers in 26 files */
	assert_int_equal(pods + nodes + files->len, 201959);
	print_message("# whole trace: %u pod rows + %u node rows in %.3f s\n", pods, nodes,
	              seconds);
}

static void
test_trace__multigpu_schema(void **state)
{
	g_autoptr(WorkloadTrace) t = workload_trace_new();

	load_ok(t, "openb_pod_list_multigpu50.csv", FALSE);
	assert_int_equal(workload_trace_get_n_pods(t), 9061);
	const WorkloadTracePod *p = workload_trace_get_pod(t, 0);
	assert_int_equal(p->creation, 0);
	assert_int_equal(p->deletion, SIM_TIME_NEVER);
	assert_int_equal(p->phase, WORKLOAD_PHASE_UNKNOWN);
	g_autoptr(GArray) items = workload_trace_to_items(t);
	assert_int_equal(g_array_index(items, WorkloadItem, 0).duration, 0);
}

/* Writes @content to a temp file; returns its path. */
static char *
write_temp(const char *content)
{
	g_autoptr(GError) error = NULL;
	char *path = NULL;
	int fd = g_file_open_tmp("drasim-trace-XXXXXX.csv", &path, &error);

	assert_true(fd >= 0);
	close(fd);
	assert_true(g_file_set_contents(path, content, -1, &error));
	return path;
}

static void
test_trace__positioned_errors(void **state)
{
	static const char header[] = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,"
	                             "pod_phase,creation_time,deletion_time,scheduled_time\n";
	static const struct {
		const char *rows;
		const char *suffix; /* after "path:" */
	} cases[] = {
		{ "p0,1000,2048,1,500,,LS,Running,0,10,0\np1,10x0,2048,1,500,,LS,Running,0,10,0\n",
		  "3:4: expected a non-negative integer, got \"10x0\" [cpu_milli]" },
		{ "p0,1000,2048,1,1500,,LS,Running,0,10,0\n",
		  "2:16: value \"1500\" is out of range (at most 1000) [gpu_milli]" },
		{ "p0,1000,2048,1,500,,LS,Running,0,10\n",
		  "2:34: expected 11 fields as in the header, got 10" },
		{ "p0,1000,2048,1,500,,LS,Running,20,10,0\n",
		  "2:35: expected a time >= creation_time [deletion_time]" },
		{ "p0,1000,2048,1,500,,LS,Sleeping,0,10,0\n",
		  "2:24: expected Pending, Running, Succeeded or Failed, got \"Sleeping\" "
		  "[pod_phase]" },
		{ "p0,1000,2048,1,500,T4||P100,LS,Running,0,10,0\n",
		  "2:20: expected a GPU model name between '|' separators [gpu_spec]" },
		{ "p0,1000,2048,0,500,,LS,Running,0,10,0\n",
		  "2:16: expected 0 when num_gpu is 0, got 500 [gpu_milli]" },
		{ ",1000,2048,0,0,,LS,Running,0,10,0\n",
		  "2:1: expected a pod name, got an empty field [name]" },
		{ "p0,1000,2048,1,500,\"T4,LS,Running,0,10,0\n",
		  "2:20: unterminated quoted field" },
		{ "p0,-5,2048,1,500,,LS,Running,0,10,0\n",
		  "2:4: expected a non-negative integer, got \"-5\" [cpu_milli]" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *content = g_strconcat(header, cases[i].rows, NULL);
		g_autofree char *path = write_temp(content);
		g_autoptr(WorkloadTrace) t = workload_trace_new();
		g_autoptr(GError) error = NULL;
		g_autofree char *expect = g_strdup_printf("%s:%s", path, cases[i].suffix);

		assert_false(workload_trace_load_pods(t, path, &error));
		assert_true(g_error_matches(error, WORKLOAD_ERROR, WORKLOAD_ERROR_TRACE));
		assert_string_equal(error->message, expect);
		assert_int_equal(workload_trace_get_n_pods(t), 0); /* nothing appended */
		g_unlink(path);
	}

	/* header problems, an empty file, a missing file */
	g_autofree char *no_col = write_temp("name,cpu_milli,memory_mib,num_gpu\np0,1,1,0\n");
	g_autofree char *empty = write_temp("");
	g_autoptr(WorkloadTrace) t = workload_trace_new();
	g_autoptr(GError) e1 = NULL, e2 = NULL, e3 = NULL;
	g_autofree char *m1 = g_strdup_printf(
	        "%s:1:1: expected a column named \"gpu_milli\" in the header [gpu_milli]", no_col);
	g_autofree char *m2 =
	        g_strdup_printf("%s:1:1: expected a header row, the file is empty", empty);
	assert_false(workload_trace_load_pods(t, no_col, &e1));
	assert_string_equal(e1->message, m1);
	assert_false(workload_trace_load_pods(t, empty, &e2));
	assert_string_equal(e2->message, m2);
	assert_false(workload_trace_load_pods(t, "/nonexistent/pods.csv", &e3));
	assert_true(g_error_matches(e3, WORKLOAD_ERROR, WORKLOAD_ERROR_IO));
	g_unlink(no_col);
	g_unlink(empty);
}

static void
test_trace__crlf_quotes_and_blank_lines(void **state)
{
	g_autofree char *path = write_temp("sn,cpu_milli,memory_mib,gpu,model\r\n"
	                                   "\"node,a\",1000,2048,2,\"T4\"\r\n"
	                                   "\r\n"
	                                   "node-b,2000,4096,0,\r\n");
	g_autoptr(WorkloadTrace) t = workload_trace_new();
	g_autoptr(GError) error = NULL;

	if (!workload_trace_load_nodes(t, path, &error)) {
		fail_msg("%s", error->message);
	}
	assert_int_equal(workload_trace_get_n_nodes(t), 2);
	assert_string_equal(workload_trace_get_node(t, 0)->name, "node,a");
	assert_string_equal(workload_trace_get_node(t, 0)->model, "T4");
	assert_int_equal(workload_trace_get_node(t, 1)->line, 4);
	assert_int_equal(workload_trace_get_node(t, 1)->model_index, G_MAXUINT32);
	g_unlink(path);
}

/* Bad input never crashes: random mutations of a valid file either load or
 * fail with a positioned error (run this under ASan to mean anything). */
static void
test_trace__mutations_never_crash(void **state)
{
	static const char good[] = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,"
	                           "pod_phase,creation_time,deletion_time,scheduled_time\n"
	                           "p0,1000,2048,1,500,T4|P100,LS,Running,0,10,0\n"
	                           "p1,2000,4096,2,1000,,BE,Pending,5,20,\n";
	static const char alphabet[] = ",|\"\r\n0123456789x-";
	const char *seed_env = g_getenv("SIM_TEST_SEED");
	GRand *rand = g_rand_new_with_seed(seed_env != NULL ? (guint32)atoi(seed_env) : 1);
	guint loaded = 0, failed = 0;

	for (guint round = 0; round < 300; round++) {
		g_autofree char *content = g_strdup(good);
		gsize len = strlen(content);
		guint edits = g_rand_int_range(rand, 1, 6);
		for (guint e = 0; e < edits; e++) {
			gsize at = g_rand_int_range(rand, 0, (gint32)len);
			content[at] = alphabet[g_rand_int_range(rand, 0, sizeof alphabet - 1)];
		}
		if (g_rand_boolean(rand)) {
			content[g_rand_int_range(rand, 0, (gint32)len)] = '\0'; /* truncate */
		}
		g_autofree char *path = write_temp(content);
		g_autoptr(WorkloadTrace) t = workload_trace_new();
		g_autoptr(GError) error = NULL;
		if (workload_trace_load_pods(t, path, &error)) {
			loaded++;
		} else {
			g_autofree char *prefix = g_strdup_printf("%s:", path);
			assert_true(g_str_has_prefix(error->message, prefix));
			assert_int_equal(workload_trace_get_n_pods(t), 0);
			failed++;
		}
		g_unlink(path);
	}
	g_rand_free(rand);
	print_message("# mutations: %u loaded, %u refused with a position\n", loaded, failed);
	assert_true(failed > 0);
}

/*
 * The readers on a buffer (the fuzz targets' entry points) read what the file readers read:
 * two pods, the second with a quoted name, and a node; values by hand from the text. A bad
 * row names the buffer's name, line and column, and appends nothing.
 */
static void
test_trace__from_memory(void **state)
{
	static const char pods[] = "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
	                           "a,1000,512,1,500\n"
	                           "\"b,c\",2000,1024,0,0\n";
	static const char nodes[] = "sn,cpu_milli,memory_mib,gpu,model\nn1,64000,262144,2,P100\n";
	static const char bad[] = "name,cpu_milli,memory_mib,num_gpu,gpu_milli\nx,-1,0,0,0\n";
	g_autoptr(WorkloadTrace) t = workload_trace_new();
	g_autoptr(GError) error = NULL;

	assert_true(workload_trace_load_pods_data(t, "mem.csv", pods, sizeof(pods) - 1, &error));
	assert_int_equal(workload_trace_get_n_pods(t), 2);
	assert_string_equal(workload_trace_get_pod(t, 0)->name, "a");
	assert_int_equal(workload_trace_get_pod(t, 0)->gpu_milli, 500);
	assert_string_equal(workload_trace_get_pod(t, 1)->name, "b,c");
	assert_int_equal(workload_trace_get_pod(t, 1)->memory_mib, 1024);
	assert_true(workload_trace_load_nodes_data(t, "n.csv", nodes, sizeof(nodes) - 1, &error));
	assert_int_equal(workload_trace_get_n_nodes(t), 1);
	assert_int_equal(workload_trace_get_node(t, 0)->gpu, 2);
	assert_false(workload_trace_load_pods_data(t, "bad.csv", bad, sizeof(bad) - 1, &error));
	assert_true(g_str_has_prefix(error->message, "bad.csv:2:3: "));
	assert_int_equal(workload_trace_get_n_pods(t), 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace__default_matches_readme),
		cmocka_unit_test(test_trace__nodes_and_gpu_spec),
		cmocka_unit_test(test_trace__model_catalog_ids),
		cmocka_unit_test(test_trace__every_file_and_speed),
		cmocka_unit_test(test_trace__multigpu_schema),
		cmocka_unit_test(test_trace__positioned_errors),
		cmocka_unit_test(test_trace__crlf_quotes_and_blank_lines),
		cmocka_unit_test(test_trace__mutations_never_crash),
		cmocka_unit_test(test_trace__from_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
