/*
 * cmd_conformance.c: `drasim conformance <suite> PATH...` dispatches to the
 * runner of one conformance corpus. Runners read ../shared in place.
 */
#include "cli.h"

int cli_conformance_cel_spec_main(int argc, char **argv);

int cli_conformance_cel_k8s_main(int argc, char **argv);

int cli_conformance_allocator_main(int argc, char **argv);

const CliCommand cli_conformance_suites[] = {
	{ "allocator", "upstream DRA allocator test table (allocator/*.yaml), read in place",
	  cli_conformance_allocator_main },
	{ "cel-k8s", "Kubernetes CEL library and DRA selector cases (cel-k8s/cases.json)",
	  cli_conformance_cel_k8s_main },
	{ "cel-spec", "cel-spec simple conformance files (JSON), read in place",
	  cli_conformance_cel_spec_main },
	{ NULL, NULL, NULL },
};

int
cli_conformance_main(int argc, char **argv)
{
	return cli_dispatch(cli_conformance_suites, "drasim conformance", argc, argv);
}
