/*
 * conformance.c: option parsing shared by the conformance runners
 * (conformance.h).
 */
#include "conformance.h"

#include <stdio.h>

int
conformance_parse_options(GOptionContext *context, int *argc, char ***argv)
{
	g_autoptr(GError) error = NULL;
	const char *prog = *argc > 0 ? (*argv)[0] : "conformance";

	if (!g_option_context_parse(context, argc, argv, &error)) {
		fprintf(stderr, "%s: %s\n", prog, error->message);
		fprintf(stderr, "Run with --help for usage.\n");
		return CONFORMANCE_EXIT_USAGE;
	}
	return CONFORMANCE_EXIT_OK;
}
