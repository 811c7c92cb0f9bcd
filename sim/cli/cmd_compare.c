/*
 * cmd_compare.c: `drasim compare SCENARIO` runs every mode of a scenario with
 * the same arrivals and seeds and prints one side-by-side table (cmd_run.c).
 * `--baseline MODE` names the mode the HTML page's deltas are measured against.
 */
#include "cli.h"
#include "cmd_run.h"

int
cli_compare_unknown_baseline(const Scenario *sc, const char *baseline)
{
	g_autoptr(GString) message = g_string_new(NULL);

	g_string_append_printf(message, "--baseline: no mode '%s' in the scenario; its modes are ",
	                       baseline);
	for (guint i = 0; i < sc->modes->len; i++)
		g_string_append_printf(message, "%s%s", i ? ", " : "",
		                       g_array_index(sc->modes, ScenarioMode, i).name);
	return cli_usage_error("compare", message->str);
}

int
cli_compare_main(int argc, char **argv)
{
	return cli_run_common(argc, argv, TRUE);
}
