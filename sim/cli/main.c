/*
 * main.c: the entry point of the drasim command. It only dispatches to a
 * subcommand of cli_commands[]; each subcommand lives in its own file. A
 * write error on stdout makes any command exit 1 (cli_output.c).
 */
#include <locale.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "cli.h"

int
main(int argc, char **argv)
{
	/* Numbers in reports and manifests never depend on the user's locale. */
	setlocale(LC_ALL, "C");
	/* every command's stdout is checked once, at exit, however it ends */
	cli_install_output_checks();
#ifdef __GLIBC__
	/*
	 * A fixed mmap threshold (glibc's default, 128 KiB): left dynamic, glibc
	 * raises it to the size of each large block freed (up to 32 MiB), after
	 * which the run's large arrays, regrown as pods arrive, come from the heap
	 * and their old copies leave holes there. Pods made at arrival and freed
	 * when they end made that show: 10,000 nodes and 200,000 pods peaked at
	 * 528 MB, 501 MB with this (docs/cluster.md "Memory"). No output changes.
	 */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
	return cli_dispatch(cli_commands, "drasim", argc, argv);
}
