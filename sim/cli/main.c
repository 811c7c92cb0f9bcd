/*
 * main.c: the entry point of the drasim command. It only dispatches to a
 * subcommand of cli_commands[]; each subcommand lives in its own file. A
 * write error on stdout makes any command exit 1 (cli_output.c).
 */
#include <locale.h>

#include "cli.h"

int
main(int argc, char **argv)
{
	/* Numbers in reports and manifests never depend on the user's locale. */
	setlocale(LC_ALL, "C");
	/* every command's stdout is checked once, at exit, however it ends */
	cli_install_output_checks();
	return cli_dispatch(cli_commands, "drasim", argc, argv);
}
