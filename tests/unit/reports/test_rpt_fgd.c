/*
 * test_rpt_fgd.c: the FGD experiment's page (reports/rpt_fgd*.c) on the
 * hand-written tests/data/fgd/small.json: 1 trace, 2 worlds (gpushare,
 * dra-mig), 2 policies (FGD, LeastAllocated), points at arrived 99..102 %,
 * FGD refused in dra-mig, a null point at 102 %, a policy with n 1 (null
 * SDs) and a world without FGD fragment. Coordinates are worked out by hand
 * from the layout in rpt-fgd-private.h; broken copies of the fixture check
 * the error messages' field paths.
 */
#include <setjmp.h> /* cmocka 1.x needs these four before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base.h"
#include "rpt-fgd-private.h"

/* Not inlined: inlined into fixture_with(), gcc 12 -O3 took the strstr() into
 * the file's text for a pointer to this local (-Wdangling-pointer). */
G_GNUC_NO_INLINE static char *
fixture(void)
{
	const char *dir = g_getenv("RPT_FGD_DATA");
	g_autofree char *path = g_build_filename(dir ? dir : "tests/data/fgd", "small.json", NULL);
	char *text = NULL;

	assert_true(g_file_get_contents(path, &text, NULL, NULL));
	return text;
}

/* The fixture with its one occurrence of @from replaced by @to. */
static char *
fixture_with(const char *from, const char *to)
{
	char *text = fixture(), *edited;
	const char *at = strstr(text, from);

	assert_non_null(at);
	assert_null(strstr(at + 1, from)); /* the edit must be unambiguous */
	edited = g_strdup_printf("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	g_free(text);
	return edited;
}

static char *
page_of(const char *json)
{
	g_autoptr(GError) error = NULL;
	char *page = rpt_fgd_html(json, -1, &error);

	if (page == NULL) {
		fail_msg("rpt_fgd_html: %s", error->message);
	}
	return page;
}

static void
assert_contains(const char *page, const char *text)
{
	if (strstr(page, text) == NULL) {
		fail_msg("the page lacks: %s", text);
	}
}

/*
 * Bars at 100 %: the y scale's top is the largest clipped whisker end, dra-mig
 * LeastAllocated's 40 + 8 = 48, rounded up on steps of 48/5 = 9.6 -> 10: 50. The plot is
 * 200 px from y 48, so y(v) = 248 - 200 v / 50 = 248 - 4 v.
 * gpushare FGD, mean 20 SD 5: top y(20) = 168, height 80; whisker y(25) = 148 to
 * y(15) = 188. Its group starts at LEFT 56 + GAP/2 10 = 66 and is 48 wide (the label
 * "gpushare", 8 x 6 px, is wider than 2 bars x 14); the bars are centred: 66 + (48 - 28) / 2
 * = 76, FGD's centre 76 + 7 = 83, its rect from 83 - 7 + 1 = 77, 12 wide; the whisker's
 * caps 3 px either side. LeastAllocated (mean 30, SD null: no whisker) is centred at 97:
 * rect x 91, y(30) = 128, height 120.
 * dra-mig's group starts at 66 + 48 + 20 = 134, 42 wide ("dra-mig" 7 x 6): first bar at
 * 134 + 7 = 141, FGD refused at centre 148 (no bar: "refused"), LeastAllocated at 162:
 * mean 40: rect x 156, y(40) = 88, height 160; whisker y(48) = 56 to y(32) = 120.
 */
static void
test_bars(void **state)
{
	g_autofree char *json = fixture();
	g_autofree char *page = page_of(json);

	(void)state;
	assert_contains(page, "<rect class=\"fgd-bar\" x=\"77.0\" y=\"168.0\" width=\"12.0\" "
	                      "height=\"80.0\" fill=\"#1f6feb\">");
	assert_contains(page, "<path class=\"whisker\" d=\"M83.0,148.0 L83.0,188.0 M80.0,148.0 "
	                      "L86.0,148.0 M80.0,188.0 L86.0,188.0\"/>");
	assert_contains(page, "<rect class=\"fgd-bar\" x=\"91.0\" y=\"128.0\" width=\"12.0\" "
	                      "height=\"120.0\" fill=\"#d1242f\">");
	assert_contains(page, "<rect class=\"fgd-bar\" x=\"156.0\" y=\"88.0\" width=\"12.0\" "
	                      "height=\"160.0\" fill=\"#d1242f\">");
	assert_contains(page, "<path class=\"whisker\" d=\"M162.0,56.0 L162.0,120.0 M159.0,56.0 "
	                      "L165.0,56.0 M159.0,120.0 L165.0,120.0\"/>");
	/* three bars, three whiskers at most: the n-1 bar has none, the refused pair no bar */
	assert_null(strstr(
	        strstr(strstr(strstr(page, "class=\"fgd-bar\"") + 1, "class=\"fgd-bar\"") + 1,
	               "class=\"fgd-bar\"") +
	                1,
	        "class=\"fgd-bar\""));
	/* value labels over the whisker (148 - 3) or the bar (128 - 3), rotated */
	assert_contains(page, "translate(86.5,145.0) rotate(-90)\" class=\"value\">20.0</text>");
	assert_contains(page, "translate(100.5,125.0) rotate(-90)\" class=\"value\">30.0</text>");
	assert_contains(page, "class=\"tick refused\">refused</text>");
}

/*
 * Fig. 9a: the unallocated scale is shared by both worlds: the largest clipped band end is
 * dra-mig LeastAllocated's 42 + 8 = 50 -> top 50, y(v) = 248 - 4 v. x(a) = 56 + 3.5 a.
 * gpushare FGD at 99, 100, 101 %: means 18, 20, 22 -> (402.5, 176), (406, 168),
 * (409.5, 160); the point at 102 % is null, so the line stops at 101 % (no 413.0 and no
 * zero drawn). Its band: upper 22, 25, 27 -> 160, 148, 140; lower 14, 15, 17 -> 192, 188,
 * 180. LeastAllocated's points have n 1 (null SD): a line, dashed (kube-scheduler's), no
 * band. The 100 % mark is at x 406 from the plot's top 48 to its bottom 248. The plot is
 * 455 px wide (3.5 px per arrived %).
 */
static void
test_curves(void **state)
{
	g_autofree char *json = fixture();
	g_autofree char *page = page_of(json);

	(void)state;
	assert_contains(page, "<polyline class=\"mean\" stroke=\"#1f6feb\" points=\"402.5,176.0 "
	                      "406.0,168.0 409.5,160.0\"/>");
	assert_contains(page, "<path class=\"band\" fill=\"#1f6feb\" d=\"M402.5,160.0 "
	                      "L406.0,148.0 L409.5,140.0 L409.5,180.0 L406.0,188.0 "
	                      "L402.5,192.0 Z\"/>");
	assert_contains(page, "<polyline class=\"mean\" stroke=\"#d1242f\" "
	                      "stroke-dasharray=\"6 3\" points=\"402.5,136.0 406.0,128.0 "
	                      "409.5,120.0\"/>");
	assert_null(strstr(page, "413.0,"));
	/* the close-up from 80 %: x(a) = 56 + (a - 80) 455 / 50 = 56 + 9.1 (a - 80), same y scale
	 * (its points are those from 99 %): 99 -> 228.9, 100 -> 238, 101 -> 247.1 */
	assert_contains(page, "id=\"t0-w0-unallocated-close\"");
	assert_contains(page, "<polyline class=\"mean\" stroke=\"#1f6feb\" points=\"228.9,176.0 "
	                      "238.0,168.0 247.1,160.0\"/>");
	assert_contains(page, "<line x1=\"238.0\" y1=\"48.0\" x2=\"238.0\" y2=\"248.0\" "
	                      "class=\"mark100\"/>");
	assert_contains(page, "<line x1=\"406.0\" y1=\"48.0\" x2=\"406.0\" y2=\"248.0\" "
	                      "class=\"mark100\"/>");
	/* the page's check needs data in every chart: no chart is drawn empty */
	assert_null(strstr(page, "data-points=\"0\""));
	assert_contains(page, "id=\"t0-w0-unallocated\" data-points=\"6\"");
}

/* The world without FGD fragment says so; the refused pair is listed with its reason;
 * badges on the research policies and the beyond-production world; the header. */
static void
test_sections(void **state)
{
	g_autofree char *json = fixture();
	g_autofree char *page = page_of(json);

	(void)state;
	assert_contains(page, "<p class=\"note\">dra-mig: no FGD fragment in this world.</p>");
	/* dra-mig's legends grey FGD out: a grey sample from the legend's x, 56 + 455 + 12 = 523,
	 * 3 px above its first row at 48, the name 22 px right; on both dra-mig charts */
	assert_contains(page, "<line x1=\"523.0\" y1=\"45.0\" x2=\"541.0\" y2=\"45.0\" "
	                      "stroke=\"#cccccc\" stroke-width=\"2\"/><text x=\"545.0\" "
	                      "y=\"48.0\" class=\"tick refused\">FGD (refused)</text>");
	assert_non_null(strstr(strstr(page, "FGD (refused)") + 1, "FGD (refused)"));
	assert_null(strstr(strstr(strstr(page, "FGD (refused)") + 1, "FGD (refused)") + 1,
	                   "FGD (refused)"));
	assert_null(strstr(page, "id=\"t0-w1-frag-amount\""));
	assert_contains(page, "id=\"t0-w0-frag-amount\"");
	/* a world's cells span its two policies' rows; the refused pair spans the figures; the
	 * world's least unallocated at 100 % is bold: FGD's 20 against 30 in gpushare, the one
	 * that ran in dra-mig */
	assert_contains(page, "<tr><td rowspan=\"2\">dra-mig</td><td rowspan=\"2\">first-fit</td>"
	                      "<td rowspan=\"2\">yes</td><td class=\"policy\">FGD<span "
	                      "class=\"badge\">beyond production</span></td><td colspan=\"3\" "
	                      "class=\"refused\">refused: FGD&apos;s fragment is not defined on "
	                      "MIG slices</td></tr>\n<tr><td class=\"policy\">LeastAllocated</td>"
	                      "<td class=\"num best\">40.00 ± 8.00 (n 3)</td>");
	assert_contains(page, "<tr><td rowspan=\"2\">gpushare<span class=\"badge\">beyond "
	                      "production</span></td><td rowspan=\"2\">policy</td><td "
	                      "rowspan=\"2\">no</td><td class=\"policy\">FGD<span "
	                      "class=\"badge\">beyond production</span></td><td class=\"num best\">"
	                      "20.00 ± 5.00 (n 3)</td><td class=\"num\">0.00 ± 0.00</td><td "
	                      "class=\"num\">2.50 ± 0.10 / 7.00</td></tr>");
	assert_contains(page, "<td class=\"num\">30.00 (n 1)</td><td class=\"num\">1.50</td>");
	assert_contains(page, "drasim.io/fgd/v1 · seeds 42-44 (3) · tune ratio 1.3 (pods sampled "
	                      "up to 130 % of GPU capacity) · 1 trace</p>");
	assert_contains(page, "drasim experiment fgd --trace default --worlds gpushare,dra-mig "
	                      "--policy FGD --policy LeastAllocated --seeds 42-44 --jobs 2 "
	                      "--format json,csv,html -o DIR");
}

/* fgd.json with one trace, @worlds (NULL-terminated) each holding @policies, no figures. */
static char *
bare_json(const char *const *worlds, const char *const *policies)
{
	GString *json = g_string_new("{\"apiVersion\": \"drasim.io/fgd/v1\", \"tune_ratio\": 1.3, "
	                             "\"seeds\": {\"from\": 42, \"to\": 51}, \"traces\": "
	                             "[{\"name\": \"cpu050\", \"worlds\": [");

	for (guint w = 0; worlds[w] != NULL; w++) {
		g_string_append_printf(json,
		                       "%s{\"name\": \"%s\", \"title\": \"t\", \"device_pick\": "
		                       "\"first-fit\", \"beyond_production\": false, "
		                       "\"memory_isolation\": false, \"policies\": [",
		                       w ? ", " : "", worlds[w]);
		for (guint p = 0; policies[p] != NULL; p++) {
			g_string_append_printf(json,
			                       "%s{\"name\": \"%s\", \"beyond_production\": true}",
			                       p ? ", " : "", policies[p]);
		}
		g_string_append(json, "]}");
	}
	g_string_append(json, "]}]}");
	return g_string_free(json, FALSE);
}

/*
 * The command names only what differs from `drasim experiment fgd`'s defaults
 * (docs/experiment.md): the paper's world and six policies are the defaults without
 * --worlds, all ten policies with it, and every world is `--worlds all`. Naming a policy a
 * world refuses on both sides is a usage error, so a page whose refused pairs came from
 * those defaults must not name them.
 */
static void
test_command(void **state)
{
	static const char *const paper[] = { "Random",     "DotProd", "GpuClustering",
		                             "GpuPacking", "BestFit", "FGD",
		                             NULL };
	static const char *const ten[] = { "Random",
		                           "DotProd",
		                           "GpuClustering",
		                           "GpuPacking",
		                           "BestFit",
		                           "FGD",
		                           "LeastAllocated",
		                           "MostAllocated",
		                           "RequestedToCapacityRatio",
		                           "BalancedAllocation",
		                           NULL };
	static const char *const gpushare[] = { "gpushare", NULL };
	static const char *const all[] = { "gpushare",          "whole",
		                           "time-slicing",      "dra-capacity",
		                           "dra-capacity-pick", "dra-mig",
		                           "dra-capacity-1.34", NULL };
	static const char *const two[] = { "whole", "dra-mig", NULL };
	static const struct {
		const char *const *worlds, *const *policies;
		const char *command;
	} cases[] = {
		{ gpushare, paper, "fgd --trace cpu050 --seeds 42-51" },
		{ gpushare, ten, "fgd --trace cpu050 --policy Random --policy DotProd" },
		{ all, ten, "fgd --trace cpu050 --worlds all --seeds 42-51" },
		{ two, ten, "fgd --trace cpu050 --worlds whole,dra-mig --seeds 42-51" },
		{ two, paper, "--worlds whole,dra-mig --policy Random --policy DotProd" },
		{ all, paper, "--worlds all --policy Random --policy DotProd" },
	};

	(void)state;
	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *json = bare_json(cases[i].worlds, cases[i].policies);
		g_autofree char *page = page_of(json);

		assert_contains(page, cases[i].command);
	}
}

/* The experiment's world options (fgd.json's world_options) come back in the command; nulls do not.
 */
static void
test_command_world_options(void **state)
{
	g_autofree char *json =
	        fixture_with("\"tune_ratio\": 1.3,", "\"tune_ratio\": 1.3, \"world_options\": "
	                                             "{\"replicas\": 4, \"capacity_step\": null, "
	                                             "\"mig_model\": \"h100-sxm5-80gb\"},");
	g_autofree char *page = page_of(json);

	(void)state;
	assert_contains(page, " --replicas 4 --mig-model h100-sxm5-80gb --seeds 42-44");
	assert_null(strstr(page, "--capacity-step"));
}

/* A missing at_100 is not an error: the row shows dashes. */
static void
test_optional_sections(void **state)
{
	g_autofree char *json = fixture_with(
	        "\"at_100\": {\"unallocated_pct\": {\"mean\": 40, \"sd\": 8, \"n\": 3},",
	        "\"at_100_absent\": {\"unallocated_pct\": {\"mean\": 40, \"sd\": 8, \"n\": 3},");
	g_autofree char *page = page_of(json);

	(void)state;
	assert_contains(page, "LeastAllocated</td><td class=\"num\">-</td><td "
	                      "class=\"num\">-</td><td class=\"num\">- / -</td></tr>");
	/* its bar slot says there is no figure instead of drawing a zero */
	assert_contains(page, "class=\"tick refused\">no data</text>");
}

/*
 * A world's title longer than a chart is wide wraps under the chart's title: lines of at
 * most 110 characters broken at a space, two at most, the rest cut with "..." (the whole
 * title is the tooltip). "abcd " x 50 is 249 characters with spaces at 4, 9, ... 244: the
 * 110-character limit lands on the 'a' at 110, so line 1 is characters 0..108 (22 words)
 * and line 2 starts at 110, the same again (22 words), then "...".
 */
static void
test_long_title(void **state)
{
	g_autoptr(GString) title = g_string_new(NULL);
	g_autoptr(GString) words = g_string_new(NULL);
	g_autofree char *json = NULL, *page = NULL, *line1 = NULL, *line2 = NULL, *quoted = NULL;

	(void)state;
	for (guint i = 0; i < 50; i++) {
		g_string_append(title, i ? " abcd" : "abcd");
	}
	for (guint i = 0; i < 22; i++) {
		g_string_append(words, i ? " abcd" : "abcd");
	}
	quoted = g_strdup_printf("\"%s\"", title->str);
	json = fixture_with("\"Open-Gpu-Share milli-GPU\"", quoted);
	page = page_of(json);
	line1 = g_strdup_printf("<text x=\"56.0\" y=\"30.0\" class=\"tick\">%s<title>%s</title>",
	                        words->str, title->str);
	line2 = g_strdup_printf("<text x=\"56.0\" y=\"41.0\" class=\"tick\">%s...<title>",
	                        words->str);
	assert_contains(page, line1);
	assert_contains(page, line2);
}

/* Refused pairs of one world with one reason: the reason once, then "the same reason";
 * another reason in full. A refused pair's figures, if any, are not drawn. */
static void
test_refused_rows(void **state)
{
	static const char la_dra_mig[] = "\"name\": \"LeastAllocated\", \"beyond_production\": "
	                                 "false,\n        \"at_100\": {\"unallocated_pct\": "
	                                 "{\"mean\": 40";
	g_autofree char *same = NULL, *other = NULL, *page_same = NULL, *page_other = NULL;

	(void)state;
	same = fixture_with(la_dra_mig, "\"name\": \"LeastAllocated\", \"beyond_production\": "
	                                "false, \"refused\": \"FGD's fragment is not defined on "
	                                "MIG slices\",\n        \"at_100\": {\"unallocated_pct\": "
	                                "{\"mean\": 40");
	other = fixture_with(la_dra_mig, "\"name\": \"LeastAllocated\", \"beyond_production\": "
	                                 "false, \"refused\": \"another\",\n        \"at_100\": "
	                                 "{\"unallocated_pct\": {\"mean\": 40");
	page_same = page_of(same);
	page_other = page_of(other);
	assert_contains(page_same, "<td class=\"policy\">LeastAllocated</td><td colspan=\"3\" "
	                           "class=\"refused\">refused: the same reason</td></tr>");
	assert_contains(page_other, "<td class=\"policy\">LeastAllocated</td><td colspan=\"3\" "
	                            "class=\"refused\">refused: another</td></tr>");
	/* no bar for it: the bars are gpushare's two */
	assert_null(strstr(page_same, "<rect class=\"fgd-bar\" x=\"156.0\""));
	/* nothing ran in dra-mig: its charts give way to a line saying so */
	assert_contains(page_same, "dra-mig: no policy ran in this world (see the table).");
}

/* Names from the JSON (a trace is named by its file) are escaped everywhere. */
static void
test_escaping(void **state)
{
	g_autofree char *json = fixture_with("\"name\": \"default\"",
	                                     "\"name\": \"<script>alert(1)</script>&\\\"x' y\"");
	g_autofree char *json2 =
	        fixture_with("\"name\": \"LeastAllocated\", \"beyond_production\": "
	                     "false,\n        \"at_100\": {\"unallocated_pct\": "
	                     "{\"mean\": 30",
	                     "\"name\": \"\\\"><b>bold</b>\", \"beyond_production\": "
	                     "false,\n        \"at_100\": {\"unallocated_pct\": "
	                     "{\"mean\": 30");
	g_autofree char *page = page_of(json);
	g_autofree char *page2 = page_of(json2);

	(void)state;
	assert_null(strstr(page, "<script>alert"));
	assert_contains(page,
	                "Trace &lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;x&apos; y</h2>");
	/* and shell-quoted in the command that regenerates the page */
	assert_contains(page,
	                "--trace &apos;&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;x&apos;"
	                "\\&apos;&apos; y&apos;");
	assert_null(strstr(page2, "<b>bold"));
	assert_contains(page2, "data-policy=\"&quot;&gt;&lt;b&gt;bold&lt;/b&gt;\"");
}

static void
assert_error(const char *json, gssize len, const char *message)
{
	g_autoptr(GError) error = NULL;
	char *page = rpt_fgd_html(json, len, &error);

	assert_null(page);
	assert_non_null(error);
	assert_true(g_error_matches(error, RPT_FGD_ERROR, RPT_FGD_ERROR_INVALID) ||
	            g_error_matches(error, RPT_FGD_ERROR, RPT_FGD_ERROR_PARSE));
	assert_string_equal(error->message, message);
}

/* Broken inputs name the field path and what was expected. */
static void
test_errors(void **state)
{
	static const struct {
		const char *from, *to, *message;
	} cases[] = {
		{ "{\"arrived_pct\": 99, \"unallocated_pct\": {\"mean\": 38,",
		  "{\"arrived_pct\": 99, \"unallocated_pct\": {\"mean\": \"38\",",
		  "traces[0].worlds[1].policies[1].points[0].unallocated_pct.mean: expected a "
		  "number or null" },
		{ "\"arrived_pct\": 102", "\"arrived_pct\": 131",
		  "traces[0].worlds[0].policies[0].points[3].arrived_pct: expected an integer from "
		  "0 to 130" },
		{ "\"arrived_pct\": 102", "\"arrived_pct\": 101",
		  "traces[0].worlds[0].policies[0].points[3].arrived_pct: 101 appears twice in "
		  "points" },
		{ "\"stranded_pct\": {\"mean\": 6.25, \"sd\": 0.5,",
		  "\"stranded_pct\": {\"mean\": 6.25, \"sd\": -0.5,",
		  "traces[0].worlds[1].policies[1].at_100.stranded_pct.sd: expected a standard "
		  "deviation >= 0 or null" },
		{ "\"cotenants_max\": {\"mean\": 3, \"sd\": 0, \"n\": 3}",
		  "\"cotenants_max\": {\"mean\": 3, \"sd\": 0, \"n\": 0}",
		  "traces[0].worlds[1].policies[1].at_100.cotenants_max.mean: expected null with "
		  "n 0 (no seed has the value)" },
		{ "\"memory_isolation\": true", "\"memory_isolation\": 1",
		  "traces[0].worlds[1].memory_isolation: expected true or false" },
		{ "\"worlds\": [{", "\"worldz\": [{", "traces[0].worlds: expected an array" },
		{ "\"drasim.io/fgd/v1\"", "\"drasim.io/fgd/v2\"",
		  "apiVersion: expected \"drasim.io/fgd/v1\"" },
		{ "\"to\": 44", "\"to\": 41", "seeds.to: expected at least from (42)" },
		{ "\"name\": \"dra-mig\"", "\"name\": 7",
		  "traces[0].worlds[1].name: expected a string (UTF-8, at most 256 bytes)" },
		{ "\"tune_ratio\": 1.3,",
		  "\"tune_ratio\": 1.3, \"world_options\": {\"replicas\": 0},",
		  "world_options.replicas: expected an integer from 1 to 1000000" },
		{ "\"tune_ratio\": 1.3,", "\"tune_ratio\": 1.3, \"world_options\": [],",
		  "world_options: expected an object" },
	};

	(void)state;
	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *json = fixture_with(cases[i].from, cases[i].to);

		assert_error(json, -1, cases[i].message);
	}
	assert_error("[1, 2]", -1, "(top level): expected an object");
	/* the length bounds the text: the fixture's first 40 bytes are not JSON; cJSON gives
	 * up at byte 39 (0-based): "{\n" is line 1, "  \"apiVersion\": \"drasim.io/fgd/v1\",\n"
	 * (36 bytes, 2..37) line 2, so byte 39 is line 3's second byte, column 2 */
	g_autofree char *whole = fixture();
	assert_error(whole, 40, "3:2: not valid JSON (expected a complete fgd.json document)");
}

/* Lists beyond the page's bounds fail with the bound, not with a page no browser opens. */
static void
test_bounds(void **state)
{
	GString *json = g_string_new("{\"apiVersion\": \"drasim.io/fgd/v1\", \"tune_ratio\": 1.3, "
	                             "\"seeds\": {\"from\": 1, \"to\": 1}, \"traces\": [");

	(void)state;
	for (guint i = 0; i <= RPT_FGD_MAX_TRACES; i++) {
		g_string_append_printf(json, "%s{\"name\": \"t%u\", \"worlds\": []}", i ? ", " : "",
		                       i);
	}
	g_string_append(json, "]}");
	assert_error(json->str, -1, "traces: 33 entries, at most 32 on one page");
	g_string_free(json, TRUE);
}

/* JSON nesting against DRASIM_MAX_JSON_DEPTH: the fixture nests 10 levels (the root,
 * traces, a trace, worlds, a world, policies, a policy, points, a point and its
 * unallocated_pct: {[{[{[{[{{), so its page is drawn at a limit of 10 and refused at 9,
 * before cJSON parses it, with the limit named. */
static void
test_json_depth_limit(void **state)
{
	g_autofree char *json = fixture();
	g_autoptr(GError) error = NULL;
	g_autofree char *page = NULL;
	char *refused;

	(void)state;
	base_limit_set(BASE_LIMIT_JSON_DEPTH, 10);
	page = rpt_fgd_html(json, -1, NULL);
	base_limit_set(BASE_LIMIT_JSON_DEPTH, 9);
	refused = rpt_fgd_html(json, -1, &error);
	base_limit_set(BASE_LIMIT_JSON_DEPTH, 0);
	assert_non_null(page);
	assert_null(refused);
	assert_true(g_error_matches(error, RPT_FGD_ERROR, RPT_FGD_ERROR_PARSE));
	assert_contains(error->message,
	                ": JSON nested deeper than 9 levels; the JSON nesting depth "
	                "limit is 9 (set DRASIM_MAX_JSON_DEPTH to raise it)");
}

/* The same input gives the same bytes. */
static void
test_deterministic(void **state)
{
	g_autofree char *json = fixture();
	g_autofree char *a = page_of(json);
	g_autofree char *b = page_of(json);

	(void)state;
	assert_string_equal(a, b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bars),
		cmocka_unit_test(test_curves),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_optional_sections),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_json_depth_limit),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_command),
		cmocka_unit_test(test_command_world_options),
		cmocka_unit_test(test_long_title),
		cmocka_unit_test(test_refused_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
