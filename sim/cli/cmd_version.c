/*
 * cmd_version.c: `drasim version`, the version of the program and of the
 * Kubernetes API it models.
 */
#include "drasim-config.h"

#include <stdio.h>

#include "cli.h"

int
cli_version_main(int argc, char **argv)
{
	g_autoptr(GOptionContext) context = g_option_context_new("- print the drasim version");
	int status = cli_parse_options(context, &argc, &argv);

	if (status != CLI_EXIT_OK) {
		return status;
	}
	printf("drasim %s (Kubernetes 1.34 resource.k8s.io/v1)\n", DRASIM_VERSION);
	return CLI_EXIT_OK;
}
