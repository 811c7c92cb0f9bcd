/*
 * test_lint_scenario.c: `drasim lint` once a driver is implied, as a user runs it
 * (in the source root): the NVIDIA DRA driver chart's DeviceClasses with --shape,
 * scenario files linted on their own cluster in each mode, --cluster given a
 * scenario, and the notes for a directory holding a scenario.yaml.
 *
 * The expected findings are worked out from the inputs; each test says how.
 */
#include "drasim-config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>
#include <glib.h>

/* Runs drasim with @args (NULL-terminated) in the source root; the exit status (-1: signal). */
static int
run_drasim(const char *const *args, char **err_out)
{
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	g_autoptr(GError) error = NULL;
	const char *bin = g_getenv("DRASIM_BIN");
	int wait_status = 0;

	if (bin == NULL)
		fail_msg("DRASIM_BIN is not set (run through meson test)");
	g_ptr_array_add(argv, (gpointer)bin);
	for (guint i = 0; args[i] != NULL; i++)
		g_ptr_array_add(argv, (gpointer)args[i]);
	g_ptr_array_add(argv, NULL);
	if (!g_spawn_sync(DRASIM_SOURCE_ROOT, (char **)argv->pdata, NULL,
	                  G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, err_out, &wait_status,
	                  &error))
		fail_msg("cannot run %s: %s", bin, error->message);
	return WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1;
}

/* The line of @text that starts with @prefix, or NULL; fails the test when @must. */
static char *
find_line(const char *text, const char *prefix, gboolean must)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

	for (guint i = 0; lines[i] != NULL; i++) {
		if (g_str_has_prefix(lines[i], prefix))
			return g_strdup(lines[i]);
	}
	if (must)
		fail_msg("no line starting with '%s' in:\n%s", prefix, text);
	return NULL;
}

static void
assert_contains(const char *text, const char *needle)
{
	if (strstr(text, needle) == NULL)
		fail_msg("'%s' not found in:\n%s", needle, text);
}

/*
 * The case: the MIG notebooks' claims name mig.nvidia.com, which the chart
 * installs (templates/deviceclass-mig.yaml). 4 objects: two templates, two pods; the
 * 1g.10gb and 3g.40gb profiles exist on an H100, so nothing else is reported.
 * On main: 2 errors ("mig.nvidia.com" not found), exit 1.
 */
static void
test_mig_notebooks_shape(void **state)
{
	const char *args[] = { "lint", "--shape", "dgx-h100",
		               "scenarios/mig-notebooks/manifests.yaml", NULL };
	g_autofree char *err = NULL;

	assert_int_equal(run_drasim(args, &err), 0);
	assert_string_equal(err, "drasim lint: 4 objects, 0 errors, 0 warnings\n");
}

/*
 * gpu-shared.nvidia.com is no chart class: still an error at the deviceClassName
 * scalar (line 11, column 26), listing the five classes of hw_nvidia_device_classes()
 * in chart order. On main the message said "no DeviceClass of that name".
 */
static void
test_unknown_class_lists_known(void **state)
{
	const char *args[] = { "lint", "--shape", "dgx-h100", "tests/data/lint/unknown-class.yaml",
		               NULL };
	g_autofree char *err = NULL;
	g_autofree char *line = NULL;

	assert_int_equal(run_drasim(args, &err), 1);
	line = find_line(err, "tests/data/lint/unknown-class.yaml:11:26: error: ", TRUE);
	assert_contains(line, "could not retrieve device class gpu-shared.nvidia.com: "
	                      "deviceclass.resource.k8s.io \"gpu-shared.nvidia.com\" not found");
	assert_contains(line, "(known DeviceClasses: gpu.nvidia.com, mig.nvidia.com, "
	                      "vfio.gpu.nvidia.com, compute-domain-daemon.nvidia.com, "
	                      "compute-domain-default-channel.nvidia.com)");
	assert_contains(err, "drasim lint: 1 object, 1 error, 0 warnings\n");
}

/* Without a driver implied the class is unknown, and a note names the chart's template. */
static void
test_no_driver_note(void **state)
{
	const char *args[] = { "lint", "scenarios/mig-notebooks/manifests.yaml", NULL };
	g_autofree char *err = NULL;

	assert_int_equal(run_drasim(args, &err), 1);
	assert_contains(err, "(no DeviceClass is known: these manifests define none)");
	assert_contains(err, "drasim lint: note: the NVIDIA DRA driver's Helm chart installs "
	                     "DeviceClass mig.nvidia.com (deployments/helm/nvidia-dra-driver-gpu/"
	                     "templates/deviceclass-mig.yaml)");
}

/*
 * The manifests redefine gpu.nvidia.com (selector on the driver only: another spec)
 * and mig.nvidia.com (the chart's expression, in a block scalar: the same spec).
 * One warning, at gpu.nvidia.com's metadata.name (line 6, column 18); the claim finds
 * the manifests' class, so no error. On main: no warning.
 */
static void
test_class_override_warns(void **state)
{
	const char *args[] = { "lint", "--shape", "dgx-h100", "tests/data/lint/class-override.yaml",
		               NULL };
	g_autofree char *err = NULL;
	g_autofree char *line = NULL;

	assert_int_equal(run_drasim(args, &err), 0);
	line = find_line(err, "tests/data/lint/class-override.yaml:6:18: warning: ", TRUE);
	assert_contains(line, "DeviceClass gpu.nvidia.com is also installed by the NVIDIA DRA "
	                      "driver's Helm chart");
	assert_contains(err, "drasim lint: 3 objects, 0 errors, 1 warning\n");
}

/* The summary "drasim lint: N object(s), E error(s), W warning(s)": N and E. */
static void
summary_counts(const char *err, guint *objects, guint *errors)
{
	g_auto(GStrv) lines = g_strsplit(err, "\n", -1);
	const char *comma;

	for (guint i = 0; lines[i] != NULL; i++) {
		if (sscanf(lines[i], "drasim lint: %u object", objects) == 1 &&
		    (comma = strchr(lines[i], ',')) != NULL &&
		    sscanf(comma, ", %u error", errors) == 1)
			return;
	}
	fail_msg("no summary line in:\n%s", err);
}

/*
 * Every shipped scenario lints on its own cluster. Those with manifests must read
 * them (N > 0 objects; on main a scenario file read as manifests gave 0 objects).
 * All exit 0 except seed-tutorial, whose manifests are the tutorial's, broken on
 * purpose: it must report at least every finding `lint scenarios/seed-tutorial`
 * does (lint.expect) and exit 1.
 */
static void
test_shipped_scenarios(void **state)
{
	g_autofree char *dir = g_build_filename(DRASIM_SOURCE_ROOT, "scenarios", NULL);
	g_autoptr(GDir) handle = g_dir_open(dir, 0, NULL);
	const char *name;
	guint n = 0;

	assert_non_null(handle);
	while ((name = g_dir_read_name(handle)) != NULL) {
		g_autofree char *rel = g_build_filename("scenarios", name, "scenario.yaml", NULL);
		g_autofree char *abs = g_build_filename(DRASIM_SOURCE_ROOT, rel, NULL);
		g_autofree char *text = NULL;
		g_autofree char *err = NULL;
		const char *args[] = { "lint", rel, NULL };
		guint objects = 0, errors = 0;
		int status;

		if (!g_file_get_contents(abs, &text, NULL, NULL))
			continue;
		n++;
		status = run_drasim(args, &err);
		summary_counts(err, &objects, &errors);
		if (strstr(text, "manifests:") != NULL && objects == 0)
			fail_msg("%s: its manifests were not read:\n%s", rel, err);
		if (strcmp(name, "seed-tutorial") == 0) {
			g_autofree char *expect = NULL;
			g_auto(GStrv) lines = NULL;

			assert_int_equal(status, 1);
			assert_true(g_file_get_contents(DRASIM_SOURCE_ROOT
			                                "/scenarios/seed-tutorial/lint.expect",
			                                &expect, NULL, NULL));
			lines = g_strsplit(expect, "\n", -1);
			for (guint i = 0; lines[i] != NULL; i++) {
				if (lines[i][0] != '\0')
					assert_contains(err, lines[i]);
			}
		} else if (status != 0 || errors != 0) {
			fail_msg("%s: exit %d, expected 0:\n%s", rel, status, err);
		}
	}
	assert_true(n >= 7);
}

/*
 * An unknown shape in the scenario itself: lint reports exactly the line drasim run
 * reports (scenario_load() for both), at pool "full"'s shape: line 10, column 27.
 */
static void
test_scenario_error_as_run(void **state)
{
	const char *path = "tests/data/lint/bad-shape/scenario.yaml";
	const char *lint_args[] = { "lint", path, NULL };
	const char *run_args[] = { "run", path, NULL };
	g_autofree char *lint_err = NULL;
	g_autofree char *run_err = NULL;
	g_autofree char *prefix = g_strdup_printf("%s:10:27: error: ", path);
	g_autofree char *run_line = NULL;
	g_autofree char *lint_line = NULL;

	assert_int_equal(run_drasim(run_args, &run_err), 1);
	assert_int_equal(run_drasim(lint_args, &lint_err), 1);
	run_line = find_line(run_err, prefix, TRUE);
	lint_line = find_line(lint_err, prefix, TRUE);
	assert_string_equal(lint_line, run_line);
	assert_contains(lint_line, "unknown node shape 'dgx-h101'; did you mean 'dgx-h100'?");
}

/*
 * tests/data/lint/nomatch: pools "full" (MIG off) and "mig" (all-1g.10gb, or MIG off
 * in mode dra-nomig), both DGX H100; extended modes with the mixed strategy and none.
 *  - a100 asks productName "NVIDIA A100-SXM4-80GB": every device is an H100, so in
 *    both DRA modes the allocator pass (line 10, the request) and the published-names
 *    pass (line 12, the expression) warn, naming the two DRA modes; translated, the
 *    pod asks nvidia.com/gpu: 1 on nodes labelled nvidia.com/gpu.product=
 *    NVIDIA-A100-SXM4-80GB, which no H100 node has: a warning at its entry (line 28)
 *    naming both extended modes;
 *  - small asks type mig, profile 1g.10gb: dra-mig has 7 x 8 = 56 such devices on
 *    pool "mig", dra-nomig none: both passes warn (lines 23 and 25) naming dra-nomig
 *    only; translated it asks nvidia.com/mig-1g.10gb: 1, which the mixed strategy
 *    advertises (56 on pool "mig") and strategy none does not (every GPU is
 *    nvidia.com/gpu): a warning at its entry (line 29) naming extended-none.
 * 4 objects, 6 warnings, exit 0. (drasim run agrees: 1 pod pending in dra-mig and
 * extended, 2 in dra-nomig and extended-none.)
 */
static void
test_scenario_modes(void **state)
{
	const char *args[] = { "lint", "tests/data/lint/nomatch/scenario.yaml", NULL };
	const char *m = "tests/data/lint/nomatch/manifests.yaml";
	const char *sc = "tests/data/lint/nomatch/scenario.yaml";
	g_autofree char *err = NULL;
	g_autofree char *p10 = g_strdup_printf("%s:10:11: warning: ", m);
	g_autofree char *p12 = g_strdup_printf("%s:12:31: warning: ", m);
	g_autofree char *p23 = g_strdup_printf("%s:23:11: warning: ", m);
	g_autofree char *p25 = g_strdup_printf("%s:25:31: warning: ", m);
	g_autofree char *p28 = g_strdup_printf("%s:28:7: warning: ", sc);
	g_autofree char *p29 = g_strdup_printf("%s:29:7: warning: ", sc);
	g_autofree char *l10 = NULL, *l12 = NULL, *l23 = NULL, *l25 = NULL, *l28 = NULL,
	                *l29 = NULL;

	assert_int_equal(run_drasim(args, &err), 0);
	l10 = find_line(err, p10, TRUE);
	l12 = find_line(err, p12, TRUE);
	l23 = find_line(err, p23, TRUE);
	l25 = find_line(err, p25, TRUE);
	l28 = find_line(err, p28, TRUE);
	l29 = find_line(err, p29, TRUE);
	assert_contains(l10, "request gpu can match no device");
	assert_contains(l10, "(in modes dra-mig, dra-nomig)");
	assert_contains(l12, "productName == \"NVIDIA A100-SXM4-80GB\"");
	assert_contains(l12, "(in modes dra-mig, dra-nomig)");
	assert_contains(l23, "request mig can match no device");
	assert_contains(l23, "(in mode dra-nomig)");
	assert_contains(l25, "(in mode dra-nomig)");
	assert_contains(l28,
	                "Pod on-a100: translated for the device plugin it asks nvidia.com/gpu: "
	                "1 on nodes labelled nvidia.com/gpu.product=NVIDIA-A100-SXM4-80GB");
	assert_contains(l28, "(in modes extended, extended-none)");
	assert_contains(l29, "Pod on-mig: translated for the device plugin it asks "
	                     "nvidia.com/mig-1g.10gb: 1;");
	assert_contains(l29, "(in mode extended-none)");
	assert_contains(err, "drasim lint: 4 objects, 0 errors, 6 warnings\n");
}

/* --cluster takes a hardware catalog: a scenario there is a usage error saying so. */
static void
test_cluster_given_scenario(void **state)
{
	const char *args[] = { "lint", "--cluster", "scenarios/mig-notebooks/scenario.yaml",
		               "scenarios/mig-notebooks/manifests.yaml", NULL };
	g_autofree char *err = NULL;

	assert_int_equal(run_drasim(args, &err), 2);
	assert_contains(err, "expected a hardware catalog file");
	assert_contains(err, "got a drasim Scenario");
	assert_contains(err, "run drasim lint scenarios/mig-notebooks/scenario.yaml");
}

/* lint DIR reads the manifests only, and says how to lint the scenario beside them. */
static void
test_dir_note(void **state)
{
	const char *args[] = { "lint", "--shape", "dgx-h100", "scenarios/mig-notebooks", NULL };
	g_autofree char *err = NULL;

	assert_int_equal(run_drasim(args, &err), 0);
	assert_contains(err, "drasim lint: note: scenarios/mig-notebooks/scenario.yaml is a "
	                     "drasim Scenario, which lint DIR skips; `drasim lint "
	                     "scenarios/mig-notebooks/scenario.yaml` lints it");
	assert_contains(err, "drasim lint: 4 objects, 0 errors, 0 warnings\n");
}

/*
 * tests/data/lint/imported: a cluster given as objects (2 nodes, 4 H100 each, driver
 * gpu.nvidia.com), modes as-is, empty (both nodes removed) and device-plugin.
 *  - h100 (manifests.yaml:12) selects productName "NVIDIA H100 80GB HBM3", which all 8
 *    imported GPUs publish: nothing in as-is (lint read no imported slice before and
 *    warned "no modelled node publishes devices of driver gpu.nvidia.com" there), the
 *    driver warning in mode empty, which has no slice left;
 *  - a100: as-is publishes only H100s, so the allocator's pass warns at the request
 *    (line 23) and the published-names pass at the expression (line 25) naming the
 *    published value; the driver warning in mode empty;
 *  - by-serial reads attribute serial, which the slices do not publish: the allocator
 *    pass warns "no such key" at the request (line 53), the names pass errs at the
 *    expression (line 55) naming the first device checked (gpu-0 of node-a); the
 *    driver warning in mode empty;
 *  - the imported pod no-template (pods.yaml:18) names template "gone", which no file
 *    has: an error (lint did not read the imported pods before).
 * 7 objects (5 in manifests.yaml, the 2 imported pods), 2 errors, 6 warnings.
 */
static void
test_imported_cluster(void **state)
{
	const char *args[] = { "lint", "tests/data/lint/imported/scenario.yaml", NULL };
	const char *m = "tests/data/lint/imported/manifests.yaml";
	g_autofree char *err = NULL;
	g_autofree char *p12 = g_strdup_printf("%s:12:31: warning: ", m);
	g_autofree char *p25 = g_strdup_printf("%s:25:31: warning: ", m);
	g_autofree char *p55 = g_strdup_printf("%s:55:29: error: ", m);
	g_autofree char *l12 = NULL, *l25 = NULL, *l55 = NULL;

	assert_int_equal(run_drasim(args, &err), 1);
	l12 = find_line(err, p12, TRUE);
	assert_contains(l12, "no modelled node publishes devices of driver \"gpu.nvidia.com\" "
	                     "(in mode empty)");
	l25 = find_line(err, p25, TRUE);
	assert_contains(l25, "published values: \"NVIDIA H100 80GB HBM3\" (in mode as-is)");
	l55 = find_line(err, p55, TRUE);
	assert_contains(l55, "gpu.nvidia.com does not publish it on device gpu-0 (node "
	                     "node-a), so the selector fails with \"no such key: serial\" (in "
	                     "mode as-is)");
	assert_contains(err, "tests/data/lint/imported/pods.yaml:18:44: error: "
	                     "resourceclaimtemplate.resource.k8s.io \"gone\" not found");
	assert_contains(err, "manifests.yaml:23:11: warning: ResourceClaimTemplate a100: request "
	                     "gpu can match no device in the given ResourceSlices");
	assert_contains(err, "manifests.yaml:53:9: warning: ResourceClaim by-serial: request gpu: "
	                     "selector #1: no such key: serial (the allocator would fail) (in "
	                     "mode as-is)");
	assert_contains(err, "drasim lint: 7 objects, 2 errors, 6 warnings\n");
}

/*
 * scenarios/imported-cluster: its entries ask an H100 (inference) and four on one node
 * (training); the two imported nodes publish 8 H100 each. Lint used to check them
 * against catalog pools only (there are none): "no modelled node publishes devices of
 * driver gpu.nvidia.com" in the three DRA modes and, in device-plugin, "no node of this
 * mode's cluster offers" nvidia.com/gpu, though the run schedules them. Now the only
 * finding is that the dump has no Node objects (resourceslices.yaml:33:15).
 */
static void
test_imported_cluster_shipped(void **state)
{
	const char *args[] = { "lint", "scenarios/imported-cluster/scenario.yaml", NULL };
	g_autofree char *err = NULL;

	assert_int_equal(run_drasim(args, &err), 0);
	assert_contains(err, "scenarios/imported-cluster/cluster/resourceslices.yaml:33:15: "
	                     "warning: no Node object for gpu-node-1, gpu-node-2");
	assert_contains(err, "drasim lint: 4 objects, 0 errors, 1 warning\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mig_notebooks_shape),
		cmocka_unit_test(test_unknown_class_lists_known),
		cmocka_unit_test(test_no_driver_note),
		cmocka_unit_test(test_class_override_warns),
		cmocka_unit_test(test_shipped_scenarios),
		cmocka_unit_test(test_scenario_error_as_run),
		cmocka_unit_test(test_scenario_modes),
		cmocka_unit_test(test_cluster_given_scenario),
		cmocka_unit_test(test_dir_note),
		cmocka_unit_test(test_imported_cluster),
		cmocka_unit_test(test_imported_cluster_shipped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
