/*
 * test_sweep_slurm.c: DIR/sweep.sbatch as `drasim sweep --slurm` writes it
 * (exact text), its quoting as sh reads it (the script run with a fake
 * drasim), the options it refuses, and `--submit` against fake sbatch
 * programs on PATH (what it reports, and its errors). The real Slurm run is
 * tests/slurm/sweep_slurm.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "sweep_engines.h"

/*
 * Every option set. The array is 0..3 (4 tasks) with at most 2 at once
 * (%2); the extra option with quotes is one double-quoted token whose inner
 * quotes are \" (sbatch's #SBATCH parser); the body is sh-quoted.
 */
static void
test_script_all_options(void **state)
{
	const char *args[] = { "--mem=4G", "--comment=a \"b\" c", NULL };
	SweepSlurmOptions o = { .tasks = 4,
		                .job_name = "drasim-sweep-mig",
		                .partition = "gpu",
		                .time = "1:00:00",
		                .cpus_per_task = 2,
		                .array_throttle = 2,
		                .args = args };
	g_autoptr(GError) error = NULL;
	g_autofree char *text =
	        sweep_slurm_script(&o, "/opt/drasim/bin/drasim", "/data/sweeps/mig", &error);

	assert_null(error);
	assert_string_equal(
	        text,
	        "#!/bin/sh\n"
	        "# Written by `drasim sweep --slurm`: the runs of this sweep as one Slurm job\n"
	        "# array. Task T runs the runs T, T+N, T+2N ... of sweep-manifest.json (N: the\n"
	        "# array's size) and writes their reports under cells/. Submit it with sbatch;\n"
	        "# when every task has ended, `drasim sweep merge` on this folder writes\n"
	        "# sweep.json, sweep.csv and sweep.html. See docs/slurm.md.\n"
	        "#SBATCH \"--job-name=drasim-sweep-mig\"\n"
	        "#SBATCH \"--array=0-3%2\"\n"
	        "#SBATCH \"--output=/data/sweeps/mig/slurm/%A_%a.out\"\n"
	        "#SBATCH \"--partition=gpu\"\n"
	        "#SBATCH \"--time=1:00:00\"\n"
	        "#SBATCH \"--cpus-per-task=2\"\n"
	        "#SBATCH \"--mem=4G\"\n"
	        "#SBATCH \"--comment=a \\\"b\\\" c\"\n"
	        "exec '/opt/drasim/bin/drasim' sweep run-task '/data/sweeps/mig' --task "
	        "\"$SLURM_ARRAY_TASK_ID\" --tasks 4\n");
}

/*
 * Nothing but one task: the default job name, --array=0-0 without a
 * throttle, no partition, time, CPUs or extra lines. A % in the folder is
 * %% in --output (Slurm's file name patterns) and stays one % in the body;
 * a ' in the folder is '\'' in the body.
 */
static void
test_script_defaults_and_quoting(void **state)
{
	SweepSlurmOptions o = { .tasks = 1 };
	g_autoptr(GError) error = NULL;
	g_autofree char *text =
	        sweep_slurm_script(&o, "/usr/bin/drasim", "/r/50% it's \"x\"", &error);

	assert_null(error);
	assert_non_null(strstr(text,
	                       "sweep.html. See docs/slurm.md.\n"
	                       "#SBATCH \"--job-name=drasim-sweep\"\n"
	                       "#SBATCH \"--array=0-0\"\n"
	                       "#SBATCH \"--output=/r/50%% it's \\\"x\\\"/slurm/%A_%a.out\"\n"
	                       "exec '/usr/bin/drasim' sweep run-task '/r/50% it'\\''s \"x\"' "
	                       "--task \"$SLURM_ARRAY_TASK_ID\" --tasks 1\n"));
	assert_true(g_str_has_suffix(text, "--tasks 1\n"));
}

/*
 * The body as sh reads it: the script is run with a fake drasim (a path with
 * a space, a quote and a $) that prints its arguments one per line, and
 * SLURM_ARRAY_TASK_ID=3. The folder (spaces, both quotes, %, $HOME, a
 * backquote) must arrive as one argument, unexpanded.
 */
static void
test_script_runs_under_sh(void **state)
{
	g_autofree char *tmp = g_dir_make_tmp("sweep-slurm-XXXXXX", NULL);
	g_autofree char *bin_dir = g_build_filename(tmp, "bin $dir 'q'", NULL);
	g_autofree char *fake = g_build_filename(bin_dir, "drasim", NULL);
	g_autofree char *dir = g_build_filename(tmp, "out 'a' \"b\" 5% $HOME `x`", NULL);
	g_autofree char *script_path = g_build_filename(tmp, "sweep.sbatch", NULL);
	SweepSlurmOptions o = { .tasks = 4 };
	g_autoptr(GError) error = NULL;

	assert_int_equal(g_mkdir_with_parents(bin_dir, 0755), 0);
	assert_true(g_file_set_contents_full(fake, "#!/bin/sh\nprintf '%s\\n' \"$@\"\n", -1,
	                                     G_FILE_SET_CONTENTS_NONE, 0755, NULL));
	g_autofree char *text = sweep_slurm_script(&o, fake, dir, &error);
	assert_non_null(text);
	assert_true(g_file_set_contents(script_path, text, -1, NULL));

	const char *argv[] = { "/bin/sh", script_path, NULL };
	g_auto(GStrv) envp = g_environ_setenv(g_get_environ(), "SLURM_ARRAY_TASK_ID", "3", TRUE);
	g_autofree char *out = NULL;
	int status = 0;
	assert_true(g_spawn_sync(tmp, (char **)argv, envp, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL,
	                         &status, &error));
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	g_autofree char *expected =
	        g_strdup_printf("sweep\nrun-task\n%s\n--task\n3\n--tasks\n4\n", dir);
	assert_string_equal(out, expected);
	g_unlink(fake);
	g_rmdir(bin_dir);
	g_unlink(script_path);
	g_rmdir(tmp);
}

/* Each refused option, with the words of its message. */
static void
test_script_refused(void **state)
{
	const struct {
		SweepSlurmOptions o;
		const char *dir;
		const char *message;
	} cases[] = {
		{ { .tasks = 0 }, "/d", "--tasks: expected at least 1 array task" },
		{ { .tasks = 2 },
		  "/d/a\nb",
		  "the output folder \"/d/a\\nb\": a newline or backslash" },
		{ { .tasks = 2, .partition = "gpu\\x" },
		  "/d",
		  "--partition \"gpu\\\\x\": a newline" },
		{ { .tasks = 2, .args = (const char *const[]){ "--array=0-9", NULL } },
		  "/d",
		  "--sbatch-arg \"--array=0-9\": drasim writes --array itself (use --tasks and "
		  "--array-throttle)" },
		/* getopt_long takes --arr for --array */
		{ { .tasks = 2, .args = (const char *const[]){ "--mem=1G", "--arr=0-1", NULL } },
		  "/d",
		  "--sbatch-arg \"--arr=0-1\": drasim writes --array itself" },
		{ { .tasks = 2, .args = (const char *const[]){ "-o/tmp/x", NULL } },
		  "/d",
		  "--sbatch-arg \"-o/tmp/x\": drasim writes --output itself (the task logs go to "
		  "DIR/slurm/%A_%a.out)" },
		{ { .tasks = 2, .args = (const char *const[]){ "mem=4G", NULL } },
		  "/d",
		  "--sbatch-arg \"mem=4G\": expected one sbatch option written as one token, such "
		  "as "
		  "--mem=4G or --account=NAME" },
	};
	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		g_autofree char *text =
		        sweep_slurm_script(&cases[i].o, "/bin/drasim", cases[i].dir, &error);
		assert_null(text);
		assert_non_null(error);
		if (!g_str_has_prefix(error->message, cases[i].message))
			fail_msg("case %zu: '%s' does not start with '%s'", i, error->message,
			         cases[i].message);
	}
}

/* sweep_slurm_write(): the script for this very binary, mode 0755, and slurm/. */
static void
test_write(void **state)
{
	g_autofree char *tmp = g_dir_make_tmp("sweep-slurm-XXXXXX", NULL);
	g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
	SweepSlurmOptions o = { .tasks = 3 };
	g_autoptr(GError) error = NULL;

	assert_true(sweep_slurm_write(&o, tmp, &error));
	g_autofree char *path = g_build_filename(tmp, "sweep.sbatch", NULL);
	g_autofree char *logs = g_build_filename(tmp, "slurm", NULL);
	g_autofree char *got = NULL;
	g_autofree char *want = sweep_slurm_script(&o, self, tmp, NULL);
	GStatBuf st;
	assert_true(g_file_get_contents(path, &got, NULL, NULL));
	assert_string_equal(got, want);
	assert_int_equal(g_stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0755);
	assert_true(g_file_test(logs, G_FILE_TEST_IS_DIR));
	g_unlink(path);
	g_rmdir(logs);
	g_rmdir(tmp);
}

/* A folder with a fake `sbatch` (the shell @body), put alone on PATH. */
static char *
fake_sbatch(const char *body)
{
	g_autofree char *tmp = g_dir_make_tmp("sweep-sbatch-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(tmp, "sbatch", NULL);
	g_autofree char *text = g_strconcat("#!/bin/sh\n", body, NULL);

	assert_true(g_file_set_contents_full(path, text, -1, G_FILE_SET_CONTENTS_NONE, 0755, NULL));
	g_setenv("PATH", tmp, TRUE);
	return g_steal_pointer(&tmp);
}

static void
remove_fake(const char *tmp)
{
	g_autofree char *path = g_build_filename(tmp, "sbatch", NULL);
	g_unlink(path);
	g_rmdir(tmp);
}

/*
 * sbatch --parsable --wait prints "ID;CLUSTER" and exits with the highest
 * task status (3 here): submitted, job id as printed, status 3, not an
 * error. The fake checks its arguments and fails (exit 9) on others.
 */
static void
test_submit_reports_job(void **state)
{
	g_autofree char *saved_path = g_strdup(g_getenv("PATH"));
	g_autofree char *tmp =
	        fake_sbatch("[ \"$1 $2 $3\" = '--parsable --wait /x/out/sweep.sbatch' ] || exit 9\n"
	                    "echo '77;cluster1'\nexit 3\n");
	SweepSlurmSubmit got = { 0 };
	g_autoptr(GError) error = NULL;

	assert_true(sweep_slurm_submit("/x/out", &got, &error));
	assert_null(error);
	assert_string_equal(got.job_id, "77;cluster1");
	assert_int_equal(got.exit_status, 3);
	sweep_slurm_submit_clear(&got);
	assert_null(got.job_id);
	g_setenv("PATH", saved_path, TRUE);
	remove_fake(tmp);
}

/* sbatch refusing the script (it prints no id, exits 1): an error. */
static void
test_submit_refused(void **state)
{
	g_autofree char *saved_path = g_strdup(g_getenv("PATH"));
	g_autofree char *tmp = fake_sbatch("echo 'sbatch: error: invalid partition' >&2\nexit 1\n");
	SweepSlurmSubmit got = { 0 };
	g_autoptr(GError) error = NULL;

	assert_false(sweep_slurm_submit("/x/out", &got, &error));
	assert_non_null(error);
	assert_string_equal(error->message, "sbatch submitted nothing for /x/out/sweep.sbatch "
	                                    "(exit status 1; its message is above)");
	assert_null(got.job_id);
	g_setenv("PATH", saved_path, TRUE);
	remove_fake(tmp);
}

/* No sbatch on PATH: the message says what is needed and how to get it. */
static void
test_submit_without_sbatch(void **state)
{
	g_autofree char *saved_path = g_strdup(g_getenv("PATH"));
	g_autofree char *tmp = g_dir_make_tmp("sweep-nosbatch-XXXXXX", NULL);
	SweepSlurmSubmit got = { 0 };
	g_autoptr(GError) error = NULL;

	g_setenv("PATH", tmp, TRUE);
	assert_false(sweep_slurm_submit("/x/out", &got, &error));
	assert_string_equal(error->message,
	                    "--submit needs Slurm's sbatch on PATH; tools/slurm-local start runs a "
	                    "one-node cluster on this machine (docs/slurm.md)");
	g_setenv("PATH", saved_path, TRUE);
	g_rmdir(tmp);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_script_all_options),
		cmocka_unit_test(test_script_defaults_and_quoting),
		cmocka_unit_test(test_script_runs_under_sh),
		cmocka_unit_test(test_script_refused),
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_submit_reports_job),
		cmocka_unit_test(test_submit_refused),
		cmocka_unit_test(test_submit_without_sbatch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
