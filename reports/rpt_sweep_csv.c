/*
 * rpt_sweep_csv.c: the sweep's results as sweep.csv, long and tidy: one row
 * per (parameter values, mode, metric).
 *
 * Columns: one per varied parameter, named by its path, then
 * mode,metric,unit,n,mean,sd,ciNN_low,ciNN_high with NN the confidence in
 * percent (ci95 at 0.95). RFC 4180 through rpt_csv.c's fields: a field holding a comma, a
 * quote or a line break is quoted ("[dra, extended]" is one value), an
 * undefined number is an empty field. Failed runs are in sweep.json only.
 */
#include "rpt-private.h"
#include "rpt-sweep-private.h"

static void
header(GString *out, const RptSweep *self)
{
	char level[32];
	guint n_params = self->params->len;

	rpt_sweep__level_text(level, sizeof(level), self->confidence);
	for (guint i = 0; i < n_params; i++) {
		rpt_csv__field(out, g_ptr_array_index(self->params, i), i == 0);
	}
	g_string_append_printf(out, "%smode,metric,unit,n,mean,sd,ci%s_low,ci%s_high\n",
	                       n_params ? "," : "", level, level);
}

char *
rpt_sweep_csv_to_string(const RptSweep *self)
{
	GString *out = g_string_new(NULL);
	guint n_params = self->params->len;

	header(out, self);
	for (guint r = 0; r < self->rows->len; r++) {
		const RptSweepRow *row = &g_array_index(self->rows, RptSweepRow, r);

		for (guint i = 0; i < n_params; i++) {
			rpt_csv__field(out, row->values[i], i == 0);
		}
		rpt_csv__field(out, row->mode, n_params == 0);
		rpt_csv__field(out, row->metric, FALSE);
		rpt_csv__field(out, row->unit, FALSE);
		g_string_append_printf(out, ",%u", row->stat.n);
		rpt_csv__number_field(out, row->stat.mean);
		rpt_csv__number_field(out, row->stat.sd);
		rpt_csv__number_field(out, row->stat.ci_low);
		rpt_csv__number_field(out, row->stat.ci_high);
		g_string_append_c(out, '\n');
	}
	return g_string_free(out, FALSE);
}
