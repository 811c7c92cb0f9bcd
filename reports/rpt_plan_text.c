/*
 * rpt_plan_text.c: plan.txt, what `drasim plan` prints: the question, the
 * answer per mode, then per mode the table of the points evaluated (in
 * count order) with each SLO's mean, confidence interval and verdict. The
 * answer's row is marked "answer", rows that contradict monotonicity "!".
 */
#include <string.h>

#include "rpt_plan-private.h"

/* A table of cells (char*), printed with columns padded to their widest cell. */
static void
print_table(GString *out, GPtrArray *rows)
{
	g_autoptr(GArray) widths = g_array_new(FALSE, TRUE, sizeof(guint));

	for (guint r = 0; r < rows->len; r++) {
		GPtrArray *row = g_ptr_array_index(rows, r);

		for (guint c = 0; c < row->len; c++) {
			guint w = (guint)g_utf8_strlen(g_ptr_array_index(row, c), -1);

			if (c >= widths->len)
				g_array_set_size(widths, c + 1);
			g_array_index(widths, guint, c) = MAX(g_array_index(widths, guint, c), w);
		}
	}
	for (guint r = 0; r < rows->len; r++) {
		GPtrArray *row = g_ptr_array_index(rows, r);
		GString *line = g_string_new("  ");

		for (guint c = 0; c < row->len; c++) {
			const char *cell = g_ptr_array_index(row, c);
			guint pad =
			        g_array_index(widths, guint, c) - (guint)g_utf8_strlen(cell, -1);

			g_string_append(line, cell);
			if (c + 1 < row->len) {
				for (guint k = 0; k < pad + 2; k++)
					g_string_append_c(line, ' ');
			}
		}
		g_string_append_printf(out, "%s\n", g_strchomp(line->str));
		g_string_free(line, TRUE);
	}
}

static GPtrArray *
new_row(void)
{
	return g_ptr_array_new_with_free_func(g_free);
}

static GPtrArray *
header_row(const RptPlan *self)
{
	GPtrArray *row = new_row();

	for (guint p = 0; p < self->n_pools; p++)
		g_ptr_array_add(row, g_strdup(self->pools[p]));
	for (guint s = 0; s < self->n_slos; s++)
		g_ptr_array_add(row, g_strdup(self->slos[s].text));
	g_ptr_array_add(row, g_strdup("all"));
	g_ptr_array_add(row, g_strdup(""));
	return row;
}

static GPtrArray *
point_row(const RptPlan *self, guint mode, guint index)
{
	RptPlanPoint *point = g_ptr_array_index(self->points, index);
	const RptPlanAnswer *answer = &self->answers[mode];
	GPtrArray *row = new_row();
	const char *mark = "";

	for (guint p = 0; p < self->n_pools; p++)
		g_ptr_array_add(row, g_strdup_printf("%u", point->counts[p]));
	for (guint s = 0; s < self->n_slos; s++) {
		g_ptr_array_add(row,
		                rpt_plan__measure_text(
		                        self, rpt_plan_point_measure(self, point, mode, s), s));
	}
	g_ptr_array_add(row, g_strdup(rpt_plan_point_holds(self, point, mode) ? "holds" : "fails"));
	if (answer->met && answer->point == index)
		mark = "answer";
	else if (!answer->met && answer->point == index)
		mark = "closest";
	if (rpt_plan__is_offending(answer, index))
		mark = "! not monotone";
	if (point->error != NULL)
		g_ptr_array_add(row, g_strdup_printf("%s%srun failed: %s", mark, *mark ? "; " : "",
		                                     point->error));
	else
		g_ptr_array_add(row, g_strdup(mark));
	return row;
}

static void
mode_table(GString *out, const RptPlan *self, guint mode, const GArray *order)
{
	g_autoptr(GPtrArray) rows =
	        g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);

	g_string_append_printf(out, "\nmode %s: %u point%s evaluated\n", self->modes[mode],
	                       self->points->len, self->points->len == 1 ? "" : "s");
	g_ptr_array_add(rows, header_row(self));
	for (guint i = 0; i < order->len; i++)
		g_ptr_array_add(rows, point_row(self, mode, g_array_index(order, guint, i)));
	print_table(out, rows);
}

static void
question(GString *out, const RptPlan *self)
{
	g_autofree char *seeds = rpt_plan__seeds_text(self);

	g_string_append_printf(out, "drasim plan: %s\n", self->scenario);
	g_string_append(out,
	                self->n_pools == 1 ? "smallest count of pool " : "cheapest mix of pools ");
	for (guint p = 0; p < self->n_pools; p++) {
		g_string_append_printf(out, "%s%s (%s", p ? ", " : "", self->pools[p],
		                       self->shapes[p]);
		if (self->costs != NULL)
			g_string_append_printf(out, ", $%.2f per node-hour", self->costs[p]);
		g_string_append(out, ")");
	}
	g_string_append_printf(out, ", counts %u..%u\nSLOs:", self->min, self->max);
	for (guint s = 0; s < self->n_slos; s++)
		g_string_append_printf(out, "%s %s", s ? "," : "", self->slos[s].text);
	if (self->seeds->len == 1) {
		g_string_append_printf(out,
		                       "\nseed %s: one seed, so each bound is the value itself "
		                       "(no interval)\n",
		                       seeds);
	} else {
		g_string_append_printf(out,
		                       "\nseeds %s (%u): an SLO holds when the %g%% confidence "
		                       "interval of its mean (Student's t) is on its side\n",
		                       seeds, self->seeds->len, self->confidence * 100.0);
	}
}

char *
rpt_plan_text_to_string(const RptPlan *self)
{
	GString *out = g_string_new(NULL);
	g_autoptr(GArray) order = rpt_plan__points_by_counts(self);

	question(out, self);
	g_string_append(out, "\n");
	for (guint m = 0; m < self->n_modes; m++) {
		g_autofree char *answer = rpt_plan__answer_text(self, m);

		g_string_append_printf(out, "%s: %s\n", self->modes[m], answer);
	}
	for (guint m = 0; m < self->n_modes; m++)
		mode_table(out, self, m, order);
	return g_string_free(out, FALSE);
}
