/*
 * cli_commands.c: the table of drasim subcommands.
 *
 * Adding a subcommand is one row here plus its cmd_<name>.c file. Rows are
 * listed in the order `drasim --help` shows them.
 */
#include "cli.h"

int cli_cel_main(int argc, char **argv);
int cli_allocate_main(int argc, char **argv);
int cli_compare_main(int argc, char **argv);
int cli_run_main(int argc, char **argv);
int cli_diff_main(int argc, char **argv);
int cli_bench_main(int argc, char **argv);

const CliCommand cli_commands[] = {
	{ "allocate", "allocate the DRA claims of pods as the 1.34 scheduler would",
	  cli_allocate_main },
	{ "bench", "run the benchmarks: wall time and callgrind instructions (--quick: CI subset)",
	  cli_bench_main },
	{ "cel", "compile a DRA device selector; with --slices, evaluate it on every device",
	  cli_cel_main },
	{ "compare", "run every mode of a scenario and print one side-by-side table",
	  cli_compare_main },
	{ "convert", "print manifests as normalized v1 YAML (any served apiVersion in)",
	  cli_convert_main },
	{ "diff", "compare two reports (or bench files) metric by metric; exit 1 on a regression",
	  cli_diff_main },
	{ "experiment",
	  "a preset experiment: fgd, the FGD paper's protocol over traces x policies x seeds",
	  cli_experiment_main },
	{ "explain", "print one pod's history in a scenario run: attempts, reasons, co-tenants",
	  cli_explain_main },
	{ "import", "write a scenario from `kubectl get -o yaml` dumps of a real cluster",
	  cli_import_main },
	{ "lint", "check manifests as a Kubernetes 1.34 cluster would (exit 1 on errors)",
	  cli_lint_main },
	{ "plan",
	  "the smallest node pool (or cheapest mix) whose runs meet SLOs across seeds, per mode",
	  cli_plan_main },
	{ "publish", "print the Nodes and ResourceSlices of a simulated node shape",
	  cli_publish_main },
	{ "run", "replay one mode of a scenario and report its metrics", cli_run_main },
	{ "sweep", "run a scenario over a grid of parameters x seeds; statistics across seeds",
	  cli_sweep_main },
	{ "version", "print the drasim version", cli_version_main },
	{ NULL, NULL, NULL },
};
