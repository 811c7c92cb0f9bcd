/*
 * sweep_k8s.c: a sweep as a Kubernetes Indexed Job (`drasim sweep --k8s`).
 * Writes DIR/sweep-job.yaml, a batch/v1 Job with completionMode Indexed
 * whose pod of index I runs `drasim sweep run-task DIR --task I --tasks N`,
 * and DIR/README-k8s.md, which says what the volume must hold and how to
 * run the Job and merge its results. The manifest passes `drasim lint`.
 *
 * The pods see DIR and the scenario at the paths they have here: a
 * PersistentVolumeClaim is mounted at ROOT, the deepest folder that holds
 * both (or --k8s-root), and the user copies both onto it under ROOT.
 */
#include "drasim-config.h"

#include <string.h>

#include "k8s_names.h"
#include "sweep_engines.h"

#define DEFAULT_JOB_NAME "drasim-sweep"
#define DEFAULT_PVC      "drasim-sweep"
#define DEFAULT_PARALLEL 4
/* pkg/apis/batch/validation/validation.go: completions and parallelism of an
 * Indexed Job with backoffLimitPerIndex are at most 10^5. */
#define MAX_INDEXED_TASKS 100000
/* A Job's name is also the value of its pods' batch.kubernetes.io/job-name
 * label, so a name longer than a label value (63) is refused. */
#define MAX_JOB_NAME 63

/* @name as a DNS-1123 label: lower case, [a-z0-9-], no leading or trailing '-'. */
static char *
job_name(const char *name)
{
	GString *s = g_string_new(NULL);

	for (const char *p = name != NULL ? name : DEFAULT_JOB_NAME; *p != '\0'; p++) {
		char c = g_ascii_tolower(*p);
		if (!g_ascii_isalnum(c))
			c = '-';
		if (c == '-' && (s->len == 0 || s->str[s->len - 1] == '-'))
			continue;
		if (s->len < MAX_JOB_NAME)
			g_string_append_c(s, c);
	}
	while (s->len > 0 && s->str[s->len - 1] == '-')
		g_string_truncate(s, s->len - 1);
	if (s->len == 0)
		g_string_assign(s, DEFAULT_JOB_NAME);
	return g_string_free(s, FALSE);
}

/* TRUE when @path is @folder or lies under it (whole components). */
static gboolean
path_is_under(const char *path, const char *folder)
{
	gsize n = strlen(folder);

	if (strcmp(folder, "/") == 0)
		return TRUE;
	return strncmp(path, folder, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* The deepest folder holding both absolute paths ("/" at worst). */
static char *
common_folder(const char *a, const char *b)
{
	g_autofree char *folder = g_strdup(a);

	while (!path_is_under(b, folder)) {
		char *cut = strrchr(folder, '/');
		if (cut == folder) {
			folder[1] = '\0';
			break;
		}
		*cut = '\0';
	}
	return g_steal_pointer(&folder);
}

/* Where the claim is mounted: --k8s-root (checked) or the common folder. */
static char *
mount_root(const SweepK8sOptions *o, const char *dir, const char *scenario, GError **error)
{
	g_autofree char *scenario_dir = g_path_get_dirname(scenario);
	g_autofree char *root = o->root != NULL ? g_canonicalize_filename(o->root, NULL)
	                                        : common_folder(dir, scenario_dir);

	if (o->root != NULL && (!path_is_under(dir, root) || !path_is_under(scenario_dir, root))) {
		g_set_error(
		        error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		        "--k8s-root %s: expected a folder holding both the output folder %s and "
		        "the scenario's folder %s",
		        root, dir, scenario_dir);
		return NULL;
	}
	if (o->root != NULL && strcmp(root, "/") == 0) {
		g_set_error_literal(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		                    "--k8s-root /: expected a folder below /; the volume cannot be "
		                    "mounted over the image's root");
		return NULL;
	}
	if (strcmp(root, "/") == 0) {
		g_set_error(
		        error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		        "the output folder %s and the scenario's folder %s share no folder but /, "
		        "and the volume cannot be mounted over the image's root: put them under "
		        "one folder, or give --k8s-root FOLDER",
		        dir, scenario_dir);
		return NULL;
	}
	return g_steal_pointer(&root);
}

/* The manifest writes paths as YAML double-quoted scalars: valid UTF-8 only. */
static gboolean
check_paths(const SweepK8sOptions *o, const char *dir, const char *scenario, GError **error)
{
	const char *const named[][2] = {
		{ "the output folder", dir }, { "the scenario", scenario }, { "--image", o->image },
		{ "--pvc", o->pvc },          { "--k8s-root", o->root },
	};
	if (o->tasks == 0 || o->tasks > MAX_INDEXED_TASKS || o->parallelism > MAX_INDEXED_TASKS) {
		g_set_error(
		        error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		        "--tasks %u, --parallelism %u: expected 1 to %d tasks and at most %d pods "
		        "at once (an Indexed Job's limits)",
		        o->tasks, o->parallelism, MAX_INDEXED_TASKS, MAX_INDEXED_TASKS);
		return FALSE;
	}
	for (gsize i = 0; i < G_N_ELEMENTS(named); i++) {
		if (named[i][1] != NULL && !g_utf8_validate(named[i][1], -1, NULL)) {
			g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			            "%s: not valid UTF-8, which a Kubernetes manifest must be",
			            named[i][0]);
			return FALSE;
		}
	}
	return TRUE;
}

/*
 * A literal argument of the container's command. The kubelet expands
 * $(VAR) in command and args and reads $$ as one $ (pkg/kubelet/container
 * ExpandContainerCommandAndArgs, third_party/forked/golang/expansion), so
 * every $ of a path is doubled; then it is a YAML double-quoted scalar.
 */
static char *
command_arg(const char *value)
{
	g_auto(GStrv) parts = g_strsplit(value, "$", -1);
	g_autofree char *escaped = g_strjoinv("$$", parts);
	return k8s_field_quote(escaped);
}

/*
 * The Job. Its index reaches the command as $(JOB_COMPLETION_INDEX), an env
 * var by the Downward API from the index annotation the Job controller puts
 * on each pod (KEP-2214); the controller adds the same variable only when the
 * container has none (pkg/controller/job/indexed_job_utils.go,
 * addCompletionIndexEnvVariable), so writing it here changes nothing but
 * makes the manifest say where the index comes from.
 */
static void
append_job(
        GString *out, const SweepK8sOptions *o, const char *name, const char *dir, const char *root)
{
	g_autofree char *q_dir = command_arg(dir);
	g_autofree char *q_image =
	        k8s_field_quote(o->image != NULL ? o->image : "drasim:" DRASIM_VERSION);
	g_autofree char *q_pvc = k8s_field_quote(o->pvc != NULL ? o->pvc : DEFAULT_PVC);
	g_autofree char *q_root = k8s_field_quote(root);
	guint parallelism = o->parallelism > 0 ? o->parallelism : MIN(o->tasks, DEFAULT_PARALLEL);

	g_string_append_printf(
	        out,
	        "apiVersion: batch/v1\n"
	        "kind: Job\n"
	        "metadata:\n"
	        "  name: %s\n"
	        "spec:\n"
	        "  completionMode: Indexed\n"
	        "  completions: %u\n"
	        "  parallelism: %u\n"
	        "  # A pod that fails (a lost node, an eviction) is tried once more for\n"
	        "  # its index; an index that fails twice stays failed while the others\n"
	        "  # go on, and the merge lists its runs as missing (KEP-3850).\n"
	        "  backoffLimitPerIndex: 1\n"
	        "  template:\n"
	        "    spec:\n"
	        "      restartPolicy: Never\n"
	        "      containers:\n"
	        "        - name: run-task\n"
	        "          image: %s\n",
	        name, o->tasks, parallelism, q_image);
	g_string_append_printf(out,
	                       "          command: [\"drasim\", \"sweep\", \"run-task\", %s,\n"
	                       "                    \"--task\", \"$(JOB_COMPLETION_INDEX)\", "
	                       "\"--tasks\", \"%u\"]\n",
	                       q_dir, o->tasks);
	g_string_append(
	        out, "          env:\n"
	             "            # The pod's index, by the Downward API (the Job controller\n"
	             "            # sets the same variable; written here so the command's\n"
	             "            # $(JOB_COMPLETION_INDEX) never depends on that).\n"
	             "            - name: JOB_COMPLETION_INDEX\n"
	             "              valueFrom:\n"
	             "                fieldRef:\n"
	             "                  fieldPath: "
	             "metadata.annotations['batch.kubernetes.io/job-completion-index']\n"
	             "          resources:\n"
	             "            # run-task runs its runs one after another: one core. A run of\n"
	             "            # the shipped scenarios needs far less than 1Gi; raise it for\n"
	             "            # large clusters or traces (README-k8s.md).\n"
	             "            requests:\n"
	             "              cpu: \"1\"\n"
	             "              memory: 1Gi\n");
	g_string_append_printf(out,
	                       "          volumeMounts:\n"
	                       "            - name: sweep\n"
	                       "              mountPath: %s\n"
	                       "      volumes:\n"
	                       "        - name: sweep\n"
	                       "          persistentVolumeClaim:\n"
	                       "            claimName: %s\n",
	                       q_root, q_pvc);
}

char *
sweep_k8s_job_text(const SweepK8sOptions *options,
                   const char *dir,
                   const char *scenario,
                   GError **error)
{
	g_return_val_if_fail(options != NULL && dir != NULL && scenario != NULL, NULL);
	g_return_val_if_fail(g_path_is_absolute(dir) && g_path_is_absolute(scenario), NULL);

	if (!check_paths(options, dir, scenario, error))
		return NULL;
	g_autofree char *root = mount_root(options, dir, scenario, error);
	if (root == NULL)
		return NULL;
	g_autofree char *name = job_name(options->job_name);
	GString *out = g_string_new(NULL);
	g_string_append(
	        out, "# Written by `drasim sweep --k8s`: the runs of this sweep as a Kubernetes\n"
	             "# Indexed Job, one index per task; index I runs the runs I, I+N, I+2N ...\n"
	             "# of sweep-manifest.json (N: completions). README-k8s.md beside this file\n"
	             "# says what the volume must hold, how to run it and merge the results.\n");
	append_job(out, options, name, dir, root);
	return g_string_free(out, FALSE);
}

/* The README's section on the image. */
static void
append_readme_image(GString *out, const char *image)
{
	g_string_append_printf(
	        out,
	        "## 2. The image\n\n"
	        "The container runs `drasim` from its PATH, image `%s`. From a drasim checkout\n"
	        "built on Debian 12 (`tools/dev build`):\n\n"
	        "```Dockerfile\n"
	        "FROM debian:12-slim\n"
	        "RUN apt-get update && apt-get install -y --no-install-recommends \\\n"
	        "      libcjson1 libglib2.0-0 libgsl27 libre2-9 libyaml-0-2 && rm -rf "
	        "/var/lib/apt/lists/*\n"
	        "COPY build/sim/cli/drasim /usr/local/bin/drasim\n"
	        "```\n\n"
	        "`docker build -t %s .` and push it where the cluster pulls from (then give that\n"
	        "name with `--image`).\n\n",
	        image, image);
}

/* The README's section on running the Job and merging its results. */
static void
append_readme_run(GString *out, const char *name, const char *sh_dir)
{
	g_string_append_printf(
	        out,
	        "## 3. Run, wait, merge\n\n"
	        "```sh\n"
	        "kubectl apply -f %s/sweep-job.yaml\n"
	        "kubectl wait --for=condition=complete --timeout=24h job/%s\n"
	        "```\n\n"
	        "An index whose pod fails twice is left failed while the others go on; the Job\n"
	        "then ends with the condition `Failed` rather than `Complete` (the wait above "
	        "runs\n"
	        "to its timeout: `kubectl get job %s` shows it, and `kubectl logs -l\n"
	        "batch.kubernetes.io/job-name=%s --prefix` the pods' output). Each pod requests "
	        "one\n"
	        "CPU and 1Gi of memory; edit `resources` for large scenarios.\n\n"
	        "Then copy the reports back and merge them (or run the merge in a pod that mounts\n"
	        "the claim):\n\n"
	        "```sh\n"
	        "kubectl cp POD:%s/cells %s/cells\n"
	        "drasim sweep merge %s\n"
	        "```\n\n"
	        "The merge lists the runs that wrote no report (a failed index, or a run whose\n"
	        "scenario failed: its `cells/ID/error.txt` says why). Applying the Job again after "
	        "a\n"
	        "failure (`kubectl delete job %s` first) runs only the runs that have no report.\n",
	        sh_dir, name, name, name, sh_dir, sh_dir, sh_dir, name);
}

/* The README's steps, for the paths and names of this sweep. */
static void
append_readme(GString *out,
              const SweepK8sOptions *o,
              const char *name,
              const char *dir,
              const char *scenario,
              const char *root)
{
	g_autofree char *scenario_dir = g_path_get_dirname(scenario);
	g_autofree char *sh_dir = g_shell_quote(dir);
	g_autofree char *sh_scenario_dir = g_shell_quote(scenario_dir);
	const char *pvc = o->pvc != NULL ? o->pvc : DEFAULT_PVC;
	const char *image = o->image != NULL ? o->image : "drasim:" DRASIM_VERSION;

	g_string_append_printf(
	        out,
	        "# This sweep as a Kubernetes Job\n\n"
	        "`sweep-job.yaml` runs the runs of this sweep as an Indexed Job named `%s`:\n"
	        "%u indexes, %u pods at once, each running `drasim sweep run-task %s --task I\n"
	        "--tasks %u`, which writes its runs' reports under `cells/`. Then `drasim sweep\n"
	        "merge` writes `sweep.json`, `sweep.csv` and `sweep.html`, the same bytes as a\n"
	        "local run. See docs/slurm.md, \"Kubernetes\".\n\n",
	        name, o->tasks,
	        o->parallelism > 0 ? o->parallelism : MIN(o->tasks, DEFAULT_PARALLEL), dir,
	        o->tasks);
	g_string_append_printf(
	        out,
	        "## 1. The volume\n\n"
	        "The pods mount the PersistentVolumeClaim `%s` (in the Job's namespace) at\n"
	        "`%s`, so that paths under it are the same as here. It must hold, at these "
	        "paths:\n\n"
	        "- the scenario's folder `%s` (the scenario file, its manifests and any file it\n"
	        "  names), read by every pod;\n"
	        "- this folder `%s`, with `sweep-manifest.json`; every pod writes its reports\n"
	        "  into `cells/` there.\n\n"
	        "Pods on several nodes write at once, so the claim must be `ReadWriteMany` (NFS,\n"
	        "CephFS, a cloud file store); with `ReadWriteOnce` only the pods on one node "
	        "could\n"
	        "mount it. Copy both folders onto it, for example through a pod that mounts the\n"
	        "claim at the same path (here POD):\n\n"
	        "```sh\n"
	        "kubectl cp %s POD:%s\n"
	        "kubectl cp %s POD:%s\n"
	        "```\n\n",
	        pvc, root, scenario_dir, dir, sh_scenario_dir, sh_scenario_dir, sh_dir, sh_dir);
	append_readme_image(out, image);
	append_readme_run(out, name, sh_dir);
}

char *
sweep_k8s_readme_text(const SweepK8sOptions *options,
                      const char *dir,
                      const char *scenario,
                      GError **error)
{
	g_return_val_if_fail(options != NULL && dir != NULL && scenario != NULL, NULL);
	g_return_val_if_fail(g_path_is_absolute(dir) && g_path_is_absolute(scenario), NULL);

	if (!check_paths(options, dir, scenario, error))
		return NULL;
	g_autofree char *root = mount_root(options, dir, scenario, error);
	if (root == NULL)
		return NULL;
	g_autofree char *name = job_name(options->job_name);
	GString *out = g_string_new(NULL);
	append_readme(out, options, name, dir, scenario, root);
	return g_string_free(out, FALSE);
}

static gboolean
write_text(const char *dir, const char *file, const char *text, GError **error)
{
	g_autofree char *path = g_build_filename(dir, file, NULL);
	return g_file_set_contents_full(path, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0644,
	                                error);
}

gboolean
sweep_k8s_write(const SweepK8sOptions *options,
                const char *dir,
                const char *scenario,
                GError **error)
{
	g_autofree char *abs_dir = g_canonicalize_filename(dir, NULL);
	g_autofree char *abs_scenario = g_canonicalize_filename(scenario, NULL);
	g_autofree char *job = sweep_k8s_job_text(options, abs_dir, abs_scenario, error);
	if (job == NULL)
		return FALSE;
	g_autofree char *readme = sweep_k8s_readme_text(options, abs_dir, abs_scenario, error);
	if (readme == NULL)
		return FALSE;
	return write_text(abs_dir, "sweep-job.yaml", job, error) &&
	       write_text(abs_dir, "README-k8s.md", readme, error);
}
