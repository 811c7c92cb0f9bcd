/*
 * cmd_conformance.c: `drasim conformance <suite> PATH...` dispatches to the
 * runner of one conformance corpus. Runners read ../shared in place.
 */
#include "cli.h"

const CliCommand cli_conformance_suites[] = {
	{ NULL, NULL, NULL },
};

int
cli_conformance_main(int argc, char **argv)
{
	return cli_dispatch(cli_conformance_suites, "drasim conformance", argc, argv);
}
