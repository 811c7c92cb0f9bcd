/*
 * test_sweep_k8s.c: DIR/sweep-job.yaml and DIR/README-k8s.md as
 * `drasim sweep --k8s` writes them: the exact manifest for the defaults and
 * for every option, the mount root, the refused options, and `drasim lint`
 * on a written manifest (exit 0, no warning).
 */
#include "drasim-config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "sweep_engines.h"

#define HEADER                                                                                     \
	"# Written by `drasim sweep --k8s`: the runs of this sweep as a Kubernetes\n"              \
	"# Indexed Job, one index per task; index I runs the runs I, I+N, I+2N ...\n"              \
	"# of sweep-manifest.json (N: completions). README-k8s.md beside this file\n"              \
	"# says what the volume must hold, how to run it and merge the results.\n"

#define BACKOFF                                                                                    \
	"  # A pod that fails (a lost node, an eviction) is tried once more for\n"                 \
	"  # its index; an index that fails twice stays failed while the others\n"                 \
	"  # go on, and the merge lists its runs as missing (KEP-3850).\n"                         \
	"  backoffLimitPerIndex: 1\n"

#define ENV_RESOURCES                                                                              \
	"          env:\n"                                                                         \
	"            # The pod's index, by the Downward API (the Job controller\n"                 \
	"            # sets the same variable; written here so the command's\n"                    \
	"            # $(JOB_COMPLETION_INDEX) never depends on that).\n"                          \
	"            - name: JOB_COMPLETION_INDEX\n"                                               \
	"              valueFrom:\n"                                                               \
	"                fieldRef:\n"                                                              \
	"                  fieldPath: "                                                            \
	"metadata.annotations['batch.kubernetes.io/job-completion-index']\n"                       \
	"          resources:\n"                                                                   \
	"            # run-task runs its runs one after another: one core. A run of\n"             \
	"            # the shipped scenarios needs far less than 1Gi; raise it for\n"              \
	"            # large clusters or traces (README-k8s.md).\n"                                \
	"            requests:\n"                                                                  \
	"              cpu: \"1\"\n"                                                               \
	"              memory: 1Gi\n"

/*
 * Defaults with 6 tasks: parallelism min(6, 4) = 4; image drasim:VERSION;
 * claim drasim-sweep; root /data, the deepest folder holding /data/sweeps/out
 * and the scenario's folder /data/scenarios/tiny.
 */
static void
test_job_defaults(void **state)
{
	SweepK8sOptions o = { .tasks = 6 };
	g_autoptr(GError) error = NULL;
	g_autofree char *text = sweep_k8s_job_text(&o, "/data/sweeps/out",
	                                           "/data/scenarios/tiny/scenario.yaml", &error);

	assert_null(error);
	assert_string_equal(text,
	                    HEADER "apiVersion: batch/v1\n"
	                           "kind: Job\n"
	                           "metadata:\n"
	                           "  name: drasim-sweep\n"
	                           "spec:\n"
	                           "  completionMode: Indexed\n"
	                           "  completions: 6\n"
	                           "  parallelism: 4\n" BACKOFF "  template:\n"
	                           "    spec:\n"
	                           "      restartPolicy: Never\n"
	                           "      containers:\n"
	                           "        - name: run-task\n"
	                           "          image: \"drasim:" DRASIM_VERSION "\"\n"
	                           "          command: [\"drasim\", \"sweep\", \"run-task\", "
	                           "\"/data/sweeps/out\",\n"
	                           "                    \"--task\", \"$(JOB_COMPLETION_INDEX)\", "
	                           "\"--tasks\", \"6\"]\n" ENV_RESOURCES "          volumeMounts:\n"
	                           "            - name: sweep\n"
	                           "              mountPath: \"/data\"\n"
	                           "      volumes:\n"
	                           "        - name: sweep\n"
	                           "          persistentVolumeClaim:\n"
	                           "            claimName: \"drasim-sweep\"\n");
}

/*
 * Every option: the name "My Sweep_2026!!" as a DNS label is my-sweep-2026
 * (lower case, each run of other characters one '-', none at the end);
 * parallelism 3 of 2 tasks is kept (the Job runs 2); --k8s-root /srv holds
 * both paths. The folder's $ is $$ (the kubelet would expand $(HOME)) and its
 * quote \" (a YAML double-quoted scalar).
 */
static void
test_job_options(void **state)
{
	SweepK8sOptions o = { .tasks = 2,
		              .parallelism = 3,
		              .job_name = "My Sweep_2026!!",
		              .image = "registry.example/drasim:dev",
		              .pvc = "lab-nfs",
		              .root = "/srv" };
	g_autoptr(GError) error = NULL;
	g_autofree char *text =
	        sweep_k8s_job_text(&o, "/srv/sw/out \"$(HOME)\"", "/srv/sw/scenario.yaml", &error);

	assert_null(error);
	assert_string_equal(text,
	                    HEADER "apiVersion: batch/v1\n"
	                           "kind: Job\n"
	                           "metadata:\n"
	                           "  name: my-sweep-2026\n"
	                           "spec:\n"
	                           "  completionMode: Indexed\n"
	                           "  completions: 2\n"
	                           "  parallelism: 3\n" BACKOFF "  template:\n"
	                           "    spec:\n"
	                           "      restartPolicy: Never\n"
	                           "      containers:\n"
	                           "        - name: run-task\n"
	                           "          image: \"registry.example/drasim:dev\"\n"
	                           "          command: [\"drasim\", \"sweep\", \"run-task\", "
	                           "\"/srv/sw/out \\\"$$(HOME)\\\"\",\n"
	                           "                    \"--task\", \"$(JOB_COMPLETION_INDEX)\", "
	                           "\"--tasks\", \"2\"]\n" ENV_RESOURCES "          volumeMounts:\n"
	                           "            - name: sweep\n"
	                           "              mountPath: \"/srv\"\n"
	                           "      volumes:\n"
	                           "        - name: sweep\n"
	                           "          persistentVolumeClaim:\n"
	                           "            claimName: \"lab-nfs\"\n");
}

/* The mount root: the deepest common folder, whole components only. */
static void
test_mount_root(void **state)
{
	const struct {
		const char *dir, *scenario, *root;
	} cases[] = {
		/* the scenario's folder is /w/s, DIR is under it */
		{ "/w/s/out", "/w/s/scenario.yaml", "/w/s" },
		/* /w/ab and /w/a share "/w/a" as text, but only /w as a folder */
		{ "/w/ab/out", "/w/a/scenario.yaml", "/w" },
		/* DIR is the scenario's folder itself */
		{ "/w/s", "/w/s/scenario.yaml", "/w/s" },
	};
	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		SweepK8sOptions o = { .tasks = 1 };
		g_autoptr(GError) error = NULL;
		g_autofree char *text =
		        sweep_k8s_job_text(&o, cases[i].dir, cases[i].scenario, &error);
		g_autofree char *line = g_strdup_printf("mountPath: \"%s\"\n", cases[i].root);
		assert_non_null(text);
		if (strstr(text, line) == NULL)
			fail_msg("case %zu: no '%s' in:\n%s", i, line, text);
	}
}

static void
test_refused(void **state)
{
	const struct {
		SweepK8sOptions o;
		const char *dir, *scenario, *message;
	} cases[] = {
		{ { .tasks = 1 },
		  "/a/out",
		  "/b/scenario.yaml",
		  "the output folder /a/out and the scenario's folder /b share no folder but /, "
		  "and the "
		  "volume cannot be mounted over the image's root: put them under one folder, or "
		  "give "
		  "--k8s-root FOLDER" },
		{ { .tasks = 1, .root = "/a" },
		  "/a/out",
		  "/b/scenario.yaml",
		  "--k8s-root /a: expected a folder holding both the output folder /a/out and the "
		  "scenario's folder /b" },
		{ { .tasks = 1, .root = "/" },
		  "/a/out",
		  "/b/scenario.yaml",
		  "--k8s-root /: expected a folder below /; the volume cannot be mounted over the "
		  "image's root" },
		{ { .tasks = 0 },
		  "/a/out",
		  "/a/scenario.yaml",
		  "--tasks 0, --parallelism 0: expected 1 to 100000 tasks and at most 100000 pods "
		  "at "
		  "once (an Indexed Job's limits)" },
		{ { .tasks = 100001 },
		  "/a/out",
		  "/a/scenario.yaml",
		  "--tasks 100001, --parallelism 0" },
		{ { .tasks = 1, .image = "drasim:\xff" },
		  "/a/out",
		  "/a/scenario.yaml",
		  "--image: not valid UTF-8, which a Kubernetes manifest must be" },
	};
	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		g_autofree char *text =
		        sweep_k8s_job_text(&cases[i].o, cases[i].dir, cases[i].scenario, &error);
		assert_null(text);
		assert_non_null(error);
		if (!g_str_has_prefix(error->message, cases[i].message))
			fail_msg("case %zu: '%s' does not start with '%s'", i, error->message,
			         cases[i].message);
		g_clear_error(&error);
		assert_null(sweep_k8s_readme_text(&cases[i].o, cases[i].dir, cases[i].scenario,
		                                  &error));
		assert_non_null(error);
	}
}

static void
assert_contains(const char *text, const char *needle)
{
	if (strstr(text, needle) == NULL)
		fail_msg("'%s' not found in:\n%s", needle, text);
}

/* The README names this sweep's claim, root, paths, Job and commands. */
static void
test_readme(void **state)
{
	SweepK8sOptions o = { .tasks = 6, .job_name = "mig", .pvc = "lab-nfs" };
	g_autoptr(GError) error = NULL;
	g_autofree char *text =
	        sweep_k8s_readme_text(&o, "/data/sw/out", "/data/scen/scenario.yaml", &error);

	assert_null(error);
	assert_contains(text, "an Indexed Job named `mig`:\n6 indexes, 4 pods at once");
	assert_contains(text, "The pods mount the PersistentVolumeClaim `lab-nfs` (in the Job's "
	                      "namespace) at\n`/data`");
	assert_contains(text, "- the scenario's folder `/data/scen`");
	assert_contains(text, "- this folder `/data/sw/out`");
	assert_contains(text, "`ReadWriteMany`");
	assert_contains(text, "kubectl cp '/data/scen' POD:'/data/scen'\n");
	assert_contains(text, "image `drasim:" DRASIM_VERSION "`");
	assert_contains(text, "kubectl apply -f '/data/sw/out'/sweep-job.yaml\n"
	                      "kubectl wait --for=condition=complete --timeout=24h job/mig\n");
	assert_contains(text, "kubectl cp POD:'/data/sw/out'/cells '/data/sw/out'/cells\n"
	                      "drasim sweep merge '/data/sw/out'\n");
}

/*
 * The written manifest passes `drasim lint` as it stands: exit 0, and the
 * summary says one object, no error, no warning (a Job whose restartPolicy
 * is not Never or OnFailure, a bad name or a negative count would not).
 */
static void
test_written_manifest_lints(void **state)
{
	g_autofree char *tmp = g_dir_make_tmp("sweep-k8s-XXXXXX", NULL);
	g_autofree char *dir = g_build_filename(tmp, "out", NULL);
	g_autofree char *scenario = g_build_filename(tmp, "scenario", "scenario.yaml", NULL);
	g_autofree char *job = g_build_filename(dir, "sweep-job.yaml", NULL);
	g_autofree char *readme = g_build_filename(dir, "README-k8s.md", NULL);
	const char *bin = g_getenv("DRASIM_BIN");
	SweepK8sOptions o = { .tasks = 5, .job_name = "Lint Me" };
	g_autoptr(GError) error = NULL;
	g_autofree char *err = NULL;
	int status = 0;

	if (bin == NULL)
		fail_msg("DRASIM_BIN is not set (run through meson test)");
	assert_int_equal(g_mkdir_with_parents(dir, 0755), 0);
	assert_true(sweep_k8s_write(&o, dir, scenario, &error));
	assert_true(g_file_test(readme, G_FILE_TEST_IS_REGULAR));
	const char *argv[] = { bin, "lint", job, NULL };
	assert_true(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
	                         NULL, &err, &status, &error));
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_string_equal(err, "drasim lint: 1 object, 0 errors, 0 warnings\n");
	g_unlink(job);
	g_unlink(readme);
	g_rmdir(dir);
	g_rmdir(tmp);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_job_defaults), cmocka_unit_test(test_job_options),
		cmocka_unit_test(test_mount_root),   cmocka_unit_test(test_refused),
		cmocka_unit_test(test_readme),       cmocka_unit_test(test_written_manifest_lints),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
