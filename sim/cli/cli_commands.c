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
int cli_verify_main(int argc, char **argv);

const CliCommand cli_commands[] = {
	{ "allocate", "allocate the DRA claims of pods as the 1.34 scheduler would",
	  cli_allocate_main,
	  "  drasim allocate scenarios/dra-claims/manifests.yaml\n  drasim allocate "
	  "scenarios/dra-claims/manifests.yaml -o json\n" },
	{ "bench", "run the benchmarks: wall time and callgrind instructions (--quick: CI subset)",
	  cli_bench_main, "  drasim bench --quick -o bench.json\n" },
	{ "cel", "compile a DRA device selector; with --slices, evaluate it on every device",
	  cli_cel_main,
	  "  drasim cel \"device.attributes['gpu.nvidia.com'].productName.startsWith('NVIDIA')\"\n"
	  "  drasim cel \"device.driver == 'gpu.nvidia.com'\" --slices slices.yaml\n" },
	{ "compare", "run every mode of a scenario and print one side-by-side table",
	  cli_compare_main,
	  "  drasim compare scenarios/mig-notebooks/scenario.yaml\n  drasim compare "
	  "scenarios/mig-notebooks/scenario.yaml -o out --format text,json,csv,html\n" },
	{ "convert", "print manifests as normalized v1 YAML (any served apiVersion in)",
	  cli_convert_main, "  drasim convert --to v1 scenarios/dra-claims/manifests.yaml\n" },
	{ "diff", "compare two reports (or bench files) metric by metric; exit 1 on a regression",
	  cli_diff_main, "  drasim diff old/report.json new/report.json\n" },
	{ "experiment",
	  "a preset experiment: fgd, the FGD paper's protocol over traces x policies x seeds",
	  cli_experiment_main,
	  "  drasim experiment fgd --trace default --seeds 42-44 -o out/fgd\n" },
	{ "explain", "print one pod's history in a scenario run: attempts, reasons, co-tenants",
	  cli_explain_main, "  drasim explain scenarios/dra-claims/scenario.yaml --pod flex\n" },
	{ "import", "write a scenario from `kubectl get -o yaml` dumps of a real cluster",
	  cli_import_main,
	  "  drasim import cluster.yaml workload.yaml -o my-cluster\n  drasim import slices.yaml "
	  "-o lab --node-defaults cpu=64,memory=512Gi,pods=110\n" },
	{ "lint", "check manifests as a Kubernetes 1.34 cluster would (exit 1 on errors)",
	  cli_lint_main,
	  "  drasim lint --shape dgx-h100 scenarios/seed-tutorial\n  drasim lint "
	  "scenarios/mig-notebooks/scenario.yaml\n" },
	{ "plan",
	  "the smallest node pool (or cheapest mix) whose runs meet SLOs across seeds, per mode",
	  cli_plan_main,
	  "  drasim plan scenarios/plan-one-gpu/scenario.yaml --pool dgx --slo 'pods_pending == 0' "
	  "-o out/plan\n" },
	{ "publish", "print the Nodes and ResourceSlices of a simulated node shape",
	  cli_publish_main,
	  "  drasim publish --shape dgx-h100 --count 2\n  drasim publish --list-shapes\n" },
	{ "run", "replay one mode of a scenario and report its metrics", cli_run_main,
	  "  drasim run scenarios/mig-notebooks/scenario.yaml --mode dra-static\n  drasim run "
	  "scenarios/mig-notebooks/scenario.yaml --horizon 2h --format json\n" },
	{ "sweep", "run a scenario over a grid of parameters x seeds; statistics across seeds",
	  cli_sweep_main, "  drasim sweep scenarios/dgx-capacity-sweep/sweep.yaml -o out/sweep\n" },
	{ "verify",
	  "check a report from its contents: the pod ledger, no device held by two pods at once",
	  cli_verify_main, "  drasim verify out/report.json\n" },
	{ "version", "print the drasim version", cli_version_main,
	  "  drasim version\n  drasim --version\n" },
	{ NULL, NULL, NULL, NULL },
};
