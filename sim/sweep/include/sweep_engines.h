/*
 * sweep_engines.h: a sweep's runs on a batch system rather than as local
 * child processes. Both engines run the same command per task,
 * `drasim sweep run-task DIR --task T --tasks N` (task T runs the runs T,
 * T + N, T + 2N ... of DIR/sweep-manifest.json), and both assume that DIR
 * and the scenario's folder are at the same absolute paths where the tasks
 * run (a shared filesystem; a PersistentVolumeClaim on Kubernetes).
 * `drasim sweep merge DIR` assembles the results afterwards. docs/slurm.md
 * is the user's guide.
 *
 * - Slurm: DIR/sweep.sbatch, one job array of N tasks (sweep_slurm_write()),
 *   optionally submitted and waited for (sweep_slurm_submit()).
 * - Kubernetes: DIR/sweep-job.yaml, a batch/v1 Indexed Job of N completions,
 *   and DIR/README-k8s.md on the volume it needs (sweep_k8s_write()).
 *
 * The text writers are pure (same options, same text) so that unit tests can
 * compare them with exact expected files; the _write() functions resolve the
 * paths (the running binary through /proc/self/exe, DIR made absolute) and
 * write atomically.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* ---- Slurm -------------------------------------------------------------------------------- */

/*
 * What `drasim sweep --slurm` passes through to sbatch. Strings NULL and
 * numbers 0 mean "not set": Slurm's own default (the cluster's default
 * partition, the partition's time limit, one CPU per task, no throttle).
 */
typedef struct {
	guint tasks;             /* array tasks, >= 1: --array=0-(tasks-1) */
	const char *job_name;    /* --job-name; NULL: "drasim-sweep" */
	const char *partition;   /* --partition */
	const char *time;        /* --time, Slurm's syntax ("30", "1:00:00", "1-0") */
	guint cpus_per_task;     /* --cpus-per-task */
	guint array_throttle;    /* the %M of --array: at most M tasks at once */
	const char *const *args; /* --sbatch-arg: more options, one token each
	                          * ("--mem=4G", "--account=lab"), NULL-terminated */
} SweepSlurmOptions;

/**
 * sweep_slurm_script:
 * @drasim: the absolute path of the drasim binary the tasks run
 * @dir: the absolute path of the sweep's output folder
 *
 * The text of DIR/sweep.sbatch: a POSIX sh script whose #SBATCH lines ask
 * for the job array (output of task %a of job %A in DIR/slurm/%A_%a.out) and
 * whose body execs the task command. Every inserted string is quoted for the
 * reader that parses it (sbatch for #SBATCH lines, sh for the body).
 *
 * Returns: (transfer full) (nullable): the script, or NULL with @error
 * (G_OPTION_ERROR_BAD_VALUE, naming the option) when a value cannot be
 * written: a newline or backslash (neither sbatch's #SBATCH parser nor its
 * file name patterns can carry them), an option that does not start with
 * "-", or tasks == 0.
 */
char *sweep_slurm_script(const SweepSlurmOptions *options,
                         const char *drasim,
                         const char *dir,
                         GError **error);

/**
 * sweep_slurm_write:
 * Writes @dir/sweep.sbatch (mode 0755, atomically) for the running binary
 * and creates @dir/slurm/, where the tasks' output goes (Slurm does not
 * create it, and a task whose output file cannot be opened fails).
 * Returns: FALSE with @error when the script cannot be written.
 */
gboolean sweep_slurm_write(const SweepSlurmOptions *options, const char *dir, GError **error);

/* What sweep_slurm_submit() saw. */
typedef struct {
	char *job_id;    /* as `sbatch --parsable` printed it: "1234" or "1234;cluster" */
	int exit_status; /* sbatch --wait's: the highest exit status of the array's tasks */
} SweepSlurmSubmit;

void sweep_slurm_submit_clear(SweepSlurmSubmit *self);

/**
 * sweep_slurm_submit:
 * Runs `sbatch --parsable --wait DIR/sweep.sbatch` (no shell; sbatch found
 * on PATH), says on stderr which job it submitted and, when sbatch returns,
 * how the array ended. A task that failed is not an error here: the runs
 * it did not write are listed by the merge that follows.
 * Returns: FALSE with @error when sbatch is missing, cannot be started or
 * submitted nothing (its own message is on stderr).
 */
gboolean sweep_slurm_submit(const char *dir, SweepSlurmSubmit *out, GError **error);

/* ---- Kubernetes --------------------------------------------------------------------------- */

typedef struct {
	guint tasks;          /* the Job's completions (indexes 0 .. tasks-1), >= 1 */
	guint parallelism;    /* pods at once; 0: min(tasks, 4) */
	const char *job_name; /* NULL: "drasim-sweep"; made a DNS-1123 label */
	const char *image;    /* NULL: "drasim:" DRASIM_VERSION */
	const char *pvc;      /* the PersistentVolumeClaim; NULL: "drasim-sweep" */
	const char *root;     /* --k8s-root: where the claim is mounted; NULL: the
	                       * deepest folder holding both DIR and the scenario's */
} SweepK8sOptions;

/**
 * sweep_k8s_job_text:
 * @dir: the absolute path of the sweep's output folder
 * @scenario: the absolute path of the scenario file
 *
 * The text of DIR/sweep-job.yaml: a batch/v1 Job, completionMode Indexed,
 * whose pod index I runs `drasim sweep run-task DIR --task I --tasks N`
 * with the PersistentVolumeClaim mounted at the root (so DIR and the
 * scenario keep their paths).
 * Returns: (transfer full) (nullable): the manifest, or NULL with @error
 * (G_OPTION_ERROR_BAD_VALUE) when the root holds not both paths, is "/",
 * or an option is out of range.
 */
char *sweep_k8s_job_text(const SweepK8sOptions *options,
                         const char *dir,
                         const char *scenario,
                         GError **error);

/**
 * sweep_k8s_readme_text:
 * The text of DIR/README-k8s.md for the same options and paths: what the
 * volume must hold, how to build the image, apply, wait, copy back and merge.
 * Returns: (transfer full) (nullable): NULL with @error as sweep_k8s_job_text().
 */
char *sweep_k8s_readme_text(const SweepK8sOptions *options,
                            const char *dir,
                            const char *scenario,
                            GError **error);

/**
 * sweep_k8s_write:
 * Writes @dir/sweep-job.yaml and @dir/README-k8s.md atomically (@dir and
 * @scenario are made absolute first).
 * Returns: FALSE with @error when a text cannot be made or written.
 */
gboolean sweep_k8s_write(const SweepK8sOptions *options,
                         const char *dir,
                         const char *scenario,
                         GError **error);

G_END_DECLS
