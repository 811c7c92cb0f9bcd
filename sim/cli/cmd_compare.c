/*
 * cmd_compare.c: `drasim compare SCENARIO` runs every mode of a scenario with
 * the same arrivals and seeds and prints one side-by-side table (cmd_run.c).
 */
#include "cli.h"
#include "cmd_run.h"

int
cli_compare_main(int argc, char **argv)
{
	return cli_run_common(argc, argv, TRUE);
}
