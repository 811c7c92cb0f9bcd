/*
 * sweep_slurm.c: a sweep as one Slurm job array (`drasim sweep --slurm`).
 * Writes DIR/sweep.sbatch, whose task T execs `drasim sweep run-task DIR
 * --task T --tasks N`, and, with --submit, runs `sbatch --parsable --wait`
 * on it and reports the job and how it ended; the caller then merges.
 *
 * Quoting: the #SBATCH lines are read by sbatch's own parser, which groups
 * a token in double quotes and takes \" as a quote; each option is written
 * as one such token. A newline or a backslash cannot be carried there (and a
 * backslash in --output turns off its %A/%a patterns), so they are refused.
 * In the --output path a literal % is written %% (Slurm's filename
 * patterns). The script body is read by sh and quoted with g_shell_quote().
 */
#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep_engines.h"

#define DEFAULT_JOB_NAME "drasim-sweep"

/* A value with a newline or backslash cannot be written in an #SBATCH line. */
static gboolean
check_sbatch_value(const char *what, const char *value, GError **error)
{
	if (strpbrk(value, "\n\r\\") == NULL)
		return TRUE;
	g_autofree char *shown = g_strescape(value, NULL);
	g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
	            "%s \"%s\": a newline or backslash cannot be written in an #SBATCH line "
	            "(sbatch's parser and its file name patterns do not carry them)",
	            what, shown);
	return FALSE;
}

/* Appends `#SBATCH "TOKEN"` where TOKEN is @option followed by @value. */
static void
append_directive(GString *out, const char *option, const char *value)
{
	g_string_append(out, "#SBATCH \"");
	for (const char *p = option; *p != '\0'; p++) {
		if (*p == '"')
			g_string_append_c(out, '\\');
		g_string_append_c(out, *p);
	}
	for (const char *p = value; *p != '\0'; p++) {
		if (*p == '"')
			g_string_append_c(out, '\\');
		g_string_append_c(out, *p);
	}
	g_string_append(out, "\"\n");
}

/* @path with each % doubled: Slurm reads %A, %a ... in --output as patterns. */
static char *
escape_percent(const char *path)
{
	GString *s = g_string_new(NULL);

	for (const char *p = path; *p != '\0'; p++) {
		if (*p == '%')
			g_string_append_c(s, '%');
		g_string_append_c(s, *p);
	}
	return g_string_free(s, FALSE);
}

/*
 * TRUE when the option name of @arg (up to '=') names @option ("array"):
 * sbatch parses with getopt_long, which takes an unambiguous abbreviation
 * (--arr) for the option, or its short form @letter (-a, -a0-3).
 */
static gboolean
names_option(const char *arg, const char *option, char letter)
{
	gsize n = strcspn(arg, "=");

	if (arg[0] == '-' && arg[1] == letter)
		return TRUE;
	return g_str_has_prefix(arg, "--") && n >= 4 && n - 2 <= strlen(option) &&
	       strncmp(arg + 2, option, n - 2) == 0;
}

/*
 * The options drasim writes itself, which an --sbatch-arg must not override:
 * --array (it must match run-task's --tasks) and --output (the task logs).
 * "--ar" and "--ou" are the shortest abbreviations getopt_long would take
 * for them among sbatch's options (--a and --o are ambiguous).
 */
static gboolean
check_extra_arg(const char *arg, GError **error)
{
	if (arg[0] != '-') {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		            "--sbatch-arg \"%s\": expected one sbatch option written as one "
		            "token, such as --mem=4G or --account=NAME",
		            arg);
		return FALSE;
	}
	gboolean is_array = names_option(arg, "array", 'a');
	gboolean is_output = names_option(arg, "output", 'o');
	if (is_array || is_output) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		            "--sbatch-arg \"%s\": drasim writes %s itself (%s)", arg,
		            is_array ? "--array" : "--output",
		            is_array ? "use --tasks and --array-throttle"
		                     : "the task logs go to DIR/slurm/%A_%a.out");
		return FALSE;
	}
	return check_sbatch_value("--sbatch-arg", arg, error);
}

static gboolean
check_options(const SweepSlurmOptions *o, const char *dir, GError **error)
{
	if (o->tasks == 0) {
		g_set_error_literal(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		                    "--tasks: expected at least 1 array task");
		return FALSE;
	}
	if (!check_sbatch_value("the output folder", dir, error))
		return FALSE;
	const char *const named[][2] = {
		{ "--job-name", o->job_name },
		{ "--partition", o->partition },
		{ "--time", o->time },
	};
	for (gsize i = 0; i < G_N_ELEMENTS(named); i++) {
		if (named[i][1] != NULL && !check_sbatch_value(named[i][0], named[i][1], error))
			return FALSE;
	}
	for (gsize i = 0; o->args != NULL && o->args[i] != NULL; i++) {
		if (!check_extra_arg(o->args[i], error))
			return FALSE;
	}
	return TRUE;
}

static void
append_directives(GString *out, const SweepSlurmOptions *o, const char *dir)
{
	g_autofree char *array = NULL;
	g_autofree char *dir_pattern = escape_percent(dir);
	g_autofree char *output = g_strconcat(dir_pattern, "/slurm/%A_%a.out", NULL);

	if (o->array_throttle > 0)
		array = g_strdup_printf("0-%u%%%u", o->tasks - 1, o->array_throttle);
	else
		array = g_strdup_printf("0-%u", o->tasks - 1);
	append_directive(out, "--job-name=", o->job_name != NULL ? o->job_name : DEFAULT_JOB_NAME);
	append_directive(out, "--array=", array);
	append_directive(out, "--output=", output);
	if (o->partition != NULL)
		append_directive(out, "--partition=", o->partition);
	if (o->time != NULL)
		append_directive(out, "--time=", o->time);
	if (o->cpus_per_task > 0) {
		g_autofree char *cpus = g_strdup_printf("%u", o->cpus_per_task);
		append_directive(out, "--cpus-per-task=", cpus);
	}
	for (gsize i = 0; o->args != NULL && o->args[i] != NULL; i++)
		append_directive(out, "", o->args[i]);
}

char *
sweep_slurm_script(const SweepSlurmOptions *options,
                   const char *drasim,
                   const char *dir,
                   GError **error)
{
	g_return_val_if_fail(options != NULL && drasim != NULL && dir != NULL, NULL);
	g_return_val_if_fail(g_path_is_absolute(drasim) && g_path_is_absolute(dir), NULL);

	if (!check_options(options, dir, error))
		return NULL;
	g_autofree char *q_drasim = g_shell_quote(drasim);
	g_autofree char *q_dir = g_shell_quote(dir);
	GString *out = g_string_new("#!/bin/sh\n");
	g_string_append(
	        out,
	        "# Written by `drasim sweep --slurm`: the runs of this sweep as one Slurm job\n"
	        "# array. Task T runs the runs T, T+N, T+2N ... of sweep-manifest.json (N: the\n"
	        "# array's size) and writes their reports under cells/. Submit it with sbatch;\n"
	        "# when every task has ended, `drasim sweep merge` on this folder writes\n"
	        "# sweep.json, sweep.csv and sweep.html. See docs/slurm.md.\n");
	append_directives(out, options, dir);
	g_string_append_printf(
	        out, "exec %s sweep run-task %s --task \"$SLURM_ARRAY_TASK_ID\" --tasks %u\n",
	        q_drasim, q_dir, options->tasks);
	return g_string_free(out, FALSE);
}

gboolean
sweep_slurm_write(const SweepSlurmOptions *options, const char *dir, GError **error)
{
	g_autofree char *abs_dir = g_canonicalize_filename(dir, NULL);
	g_autofree char *drasim = g_file_read_link("/proc/self/exe", error);
	if (drasim == NULL)
		return FALSE;
	g_autofree char *text = sweep_slurm_script(options, drasim, abs_dir, error);
	if (text == NULL)
		return FALSE;
	g_autofree char *logs = g_build_filename(abs_dir, "slurm", NULL);
	if (g_mkdir_with_parents(logs, 0755) != 0) {
		int saved = errno;
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(saved),
		            "cannot create %s: %s", logs, g_strerror(saved));
		return FALSE;
	}
	g_autofree char *path = g_build_filename(abs_dir, "sweep.sbatch", NULL);
	return g_file_set_contents_full(path, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0755,
	                                error);
}

void
sweep_slurm_submit_clear(SweepSlurmSubmit *self)
{
	g_clear_pointer(&self->job_id, g_free);
	self->exit_status = 0;
}

/*
 * Reads sbatch's stdout to its end. `sbatch --parsable --wait` prints the
 * job id ("ID" or "ID;CLUSTER") as soon as the job is queued and then waits,
 * so the id is announced before the wait, not after it.
 */
static char *
read_job_id(int fd, const char *script)
{
	GString *text = g_string_new(NULL);
	char *job_id = NULL;
	char buf[256];

	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		g_string_append_len(text, buf, n);
		const char *nl = strchr(text->str, '\n');
		if (job_id == NULL && nl != NULL) {
			job_id = g_strstrip(g_strndup(text->str, (gsize)(nl - text->str)));
			g_printerr("sweep: submitted %s as Slurm job %s; waiting until its tasks "
			           "end (sbatch --wait)\n",
			           script, job_id);
		}
	}
	if (job_id == NULL && text->len > 0)
		job_id = g_strstrip(g_strdup(text->str));
	g_string_free(text, TRUE);
	if (job_id != NULL && job_id[0] == '\0')
		g_clear_pointer(&job_id, g_free);
	return job_id;
}

static int
wait_exit_status(GPid pid)
{
	int status = 0;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return 255;
	}
	g_spawn_close_pid(pid);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status); /* as a shell reports a signal */
}

gboolean
sweep_slurm_submit(const char *dir, SweepSlurmSubmit *out, GError **error)
{
	g_autofree char *abs_dir = g_canonicalize_filename(dir, NULL);
	g_autofree char *script = g_build_filename(abs_dir, "sweep.sbatch", NULL);
	g_autofree char *sbatch = g_find_program_in_path("sbatch");
	GPid pid = 0;
	int out_fd = -1;

	*out = (SweepSlurmSubmit){ 0 };
	if (sbatch == NULL) {
		g_set_error_literal(
		        error, G_SPAWN_ERROR, G_SPAWN_ERROR_NOENT,
		        "--submit needs Slurm's sbatch on PATH; tools/slurm-local start "
		        "runs a one-node cluster on this machine (docs/slurm.md)");
		return FALSE;
	}
	char *argv[] = { sbatch, (char *)"--parsable", (char *)"--wait", script, NULL };
	/* No shell: the script's path goes to sbatch as one argument. sbatch's
	 * stderr is the user's, so its own messages (a bad partition...) show. */
	if (!g_spawn_async_with_pipes(NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid,
	                              NULL, &out_fd, NULL, error))
		return FALSE;
	out->job_id = read_job_id(out_fd, script);
	close(out_fd);
	out->exit_status = wait_exit_status(pid);
	if (out->job_id == NULL) {
		g_set_error(
		        error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED,
		        "sbatch submitted nothing for %s (exit status %d; its message is above)",
		        script, out->exit_status);
		return FALSE;
	}
	if (out->exit_status == 0)
		g_printerr("sweep: Slurm job %s ended; every task exited 0\n", out->job_id);
	else
		g_printerr("sweep: Slurm job %s ended with a task failing (highest exit status %d; "
		           "the task logs are in %s/slurm/); the merge lists the runs that are "
		           "missing\n",
		           out->job_id, out->exit_status, abs_dir);
	return TRUE;
}
