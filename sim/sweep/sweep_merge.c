/*
 * sweep_merge.c: a sweep's results from its runs' reports: sweep_collect()
 * builds the table, and the three writers of reports/ render it into
 * sweep.json, sweep.csv and sweep.html beside the manifest, each replaced
 * atomically. Nothing here depends on how or where the runs ran, so a
 * local sweep and a Slurm one give the same bytes.
 */
#include <string.h>

#include "sweep-private.h"

typedef char *(*SweepWriter)(const RptSweep *table);

gboolean
sweep_merge(const SweepManifest *manifest, const char *dir, RptSweep **table_out, GError **error)
{
	static const struct {
		const char *name;
		SweepWriter write;
	} outputs[] = {
		{ "sweep.json", rpt_sweep_json_to_string },
		{ "sweep.csv", rpt_sweep_csv_to_string },
		{ "sweep.html", rpt_sweep_html_to_string },
	};
	g_autoptr(RptSweep) table = sweep_collect(manifest, dir);

	for (gsize i = 0; i < G_N_ELEMENTS(outputs); i++) {
		g_autofree char *path = g_build_filename(dir, outputs[i].name, NULL);
		g_autofree char *text = outputs[i].write(table);

		if (!rpt_output_write_file(path, text, strlen(text), error))
			return FALSE;
	}
	if (table_out != NULL)
		*table_out = g_steal_pointer(&table);
	return TRUE;
}
