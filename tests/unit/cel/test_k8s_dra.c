/*
 * test_k8s_dra.c: the DRA selector environment (cel_dra.h).
 *
 * Device views (bare and qualified names, sealed and unsealed), missing domains and ids,
 * the fast path agreeing with the generic evaluator, compile diagnostics with positions,
 * cost estimates and runtime costs, and feature gates.
 */
#include <setjmp.h> /* cmocka 1.x needs these four before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cel_dra.h"

static CelDraDevice *
gpu_device(gboolean seal)
{
	static const char *const names[] = { "fish", "bird" };
	CelDraDevice *dev = cel_dra_device_new("gpu.nvidia.com");
	K8sQuantity q;
	gint64 ids[] = { 1, 2 };

	cel_dra_device_add_string(dev, "type", "gpu", -1);
	cel_dra_device_add_string(dev, "productName", "NVIDIA H100 80GB HBM3", -1);
	cel_dra_device_add_int(dev, "memoryMiB", 81559);
	cel_dra_device_add_bool(dev, "ready", TRUE);
	assert_true(cel_dra_device_add_version(dev, "driverVersion", "550.54.15", -1, NULL));
	cel_dra_device_add_string(dev, "resource.kubernetes.io/pcieRoot", "pci0000:10", -1);
	cel_dra_device_add_ints(dev, "ids", ids, 2);
	cel_dra_device_add_strings(dev, "names", names, 2);
	assert_true(k8s_quantity_parse("81559Mi", -1, &q, NULL));
	cel_dra_device_add_capacity(dev, "memory", &q);
	if (seal) {
		cel_dra_device_seal(dev);
	}
	return dev;
}

typedef struct {
	const char *expr;
	CelDraResult want;
	const char *error; /* substring, for CEL_DRA_ERROR */
} Row;

static const Row rows[] = {
	{ "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == "
	  "'gpu'",
	  CEL_DRA_TRUE, NULL },
	{ "device.attributes['gpu.nvidia.com'].productName.startsWith('NVIDIA H100')", CEL_DRA_TRUE,
	  NULL },
	{ "device.attributes['gpu.nvidia.com'].productName.endsWith('HBM3')", CEL_DRA_TRUE, NULL },
	{ "device.attributes['gpu.nvidia.com'].productName.contains('80GB')", CEL_DRA_TRUE, NULL },
	{ "device.attributes['gpu.nvidia.com'].memoryMiB >= 40960", CEL_DRA_TRUE, NULL },
	{ "device.attributes['gpu.nvidia.com']['memoryMiB'] < 40960", CEL_DRA_FALSE, NULL },
	{ "device.attributes['gpu.nvidia.com'].productName.matches('^.*H100.*$')", CEL_DRA_TRUE,
	  NULL },
	{ "device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('40Gi')) >= 0", CEL_DRA_TRUE,
	  NULL },
	{ "device.attributes['gpu.nvidia.com'].driverVersion.isGreaterThan(semver('550.0.0'))",
	  CEL_DRA_TRUE, NULL },
	{ "!device.attributes['gpu.nvidia.com'].ready", CEL_DRA_FALSE, NULL },
	{ "device.attributes['resource.kubernetes.io'].pcieRoot == 'pci0000:10'", CEL_DRA_TRUE,
	  NULL },
	{ "device.attributes['nope'].size() == 0 && !('x' in device.attributes['nope'])",
	  CEL_DRA_TRUE, NULL },
	{ "device.attributes['gpu.nvidia.com'].missing == 1", CEL_DRA_ERROR,
	  "no such key: missing" },
	{ "device.attributes['nope'].x", CEL_DRA_ERROR, "no such key: x" },
	{ "device.attributes['gpu.nvidia.com'].type == 1", CEL_DRA_FALSE, NULL },
	{ "device.attributes['gpu.nvidia.com'].type > 1", CEL_DRA_ERROR, "overload" },
	{ "device.attributes['gpu.nvidia.com'].ids", CEL_DRA_ERROR,
	  "CEL result of type list could not be converted to bool" },
	{ "device.attributes['gpu.nvidia.com'].ids.exists(i, i == 2) && "
	  "device.attributes['gpu.nvidia.com'].names.includes('bird')",
	  CEL_DRA_TRUE, NULL },
	{ "cel.bind(g, device.attributes['gpu.nvidia.com'], g.ready && g.memoryMiB > 1)",
	  CEL_DRA_TRUE, NULL },
	{ "device.attributes.exists_one(d, d == 'resource.kubernetes.io') && "
	  "device.capacity['gpu.nvidia.com'].exists(k, k == 'memory')",
	  CEL_DRA_TRUE, NULL },
	{ "has(device.attributes['gpu.nvidia.com'].ready) && !has(device.attributes['x'].y)",
	  CEL_DRA_TRUE, NULL },
};

static void
check_rows(const CelDraOptions *o, gboolean seal)
{
	g_autoptr(CelDraEnv) env = cel_dra_env_new(o);
	g_autoptr(CelDraEval) ev = cel_dra_eval_new(env);
	g_autoptr(CelDraDevice) dev = gpu_device(seal);
	guint failures = 0;

	for (guint i = 0; i < G_N_ELEMENTS(rows); i++) {
		g_autoptr(CelDraDiag) diag = NULL;
		g_autoptr(CelDraSelector) sel = cel_dra_selector_compile(env, rows[i].expr, &diag);
		if (sel == NULL) {
			print_error("compile: %s\n%s\n", rows[i].expr, diag->text);
			failures++;
			continue;
		}
		/* Wrapping in a list literal defeats the fast path: both must agree. */
		g_autofree char *wrapped = g_strdup_printf("[%s][0]", rows[i].expr);
		g_autoptr(CelDraSelector) slow = cel_dra_selector_compile(env, wrapped, NULL);
		const char *msg = NULL, *slow_msg = NULL;
		CelDraResult r = cel_dra_selector_eval(sel, ev, dev, &msg);
		g_autofree char *msg_copy = g_strdup(msg);
		CelDraResult rs = slow != NULL ? cel_dra_selector_eval(slow, ev, dev, &slow_msg)
		                               : CEL_DRA_ERROR;
		gboolean ok = r == rows[i].want && rs == r;
		if (ok && r == CEL_DRA_ERROR) {
			ok = strstr(msg_copy, rows[i].error) != NULL &&
			     (strstr(rows[i].error, "converted") != NULL ||
			      strcmp(msg_copy, slow_msg) == 0);
		}
		if (!ok) {
			print_error("%s\n  want %d (%s), got %d (%s), generic %d (%s)\n",
			            rows[i].expr, rows[i].want, rows[i].error ? rows[i].error : "",
			            r, msg_copy ? msg_copy : "", rs, slow_msg ? slow_msg : "");
			failures++;
		}
	}
	assert_int_equal(failures, 0);
}

static void
test_rows_stored(void **state)
{
	CelDraOptions o = CEL_DRA_OPTIONS_INIT;
	check_rows(&o, TRUE);
	check_rows(&o, FALSE);
}

static void
test_diagnostics(void **state)
{
	CelDraOptions o = CEL_DRA_OPTIONS_INIT;
	g_autoptr(CelDraEnv) env = cel_dra_env_new(&o);
	g_autoptr(CelDraDiag) diag = NULL;

	assert_null(cel_dra_selector_compile(env, "device.driver == \n  x", &diag));
	assert_int_equal(diag->line, 2);
	assert_int_equal(diag->column, 3);
	assert_int_equal(diag->offset, 20);
	assert_non_null(strstr(diag->message, "undeclared reference to 'x'"));
	g_clear_pointer(&diag, cel_dra_diag_free);

	assert_null(cel_dra_selector_compile(env, "1", &diag));
	assert_string_equal(diag->message, "must evaluate to bool or the unknown type, not int");
	g_clear_pointer(&diag, cel_dra_diag_free);

	assert_null(cel_dra_selector_compile(env, "'a'.matches('(')", &diag));
	assert_non_null(strstr(diag->message, "invalid matches argument"));
	g_clear_pointer(&diag, cel_dra_diag_free);

	/* NewExpressions without the gate does not know allowMultipleAllocations. */
	o.env_type = CEL_DRA_NEW_EXPRESSIONS;
	g_autoptr(CelDraEnv) new_env = cel_dra_env_new(&o);
	assert_null(cel_dra_selector_compile(new_env, "device.allowMultipleAllocations", &diag));
	assert_non_null(strstr(diag->message, "undefined field 'allowMultipleAllocations'"));
}

static void
test_costs(void **state)
{
	CelDraOptions o = CEL_DRA_OPTIONS_INIT;
	g_autoptr(CelDraEnv) env = cel_dra_env_new(&o);
	g_autoptr(CelDraEval) ev = cel_dra_eval_new(env);
	g_autoptr(CelDraDevice) dev = gpu_device(TRUE);
	static const struct {
		const char *expr;
		guint64 estimate; /* cel.EstimateCost Max with the DRA size estimator */
		guint64 actual;   /* cel-go runtime cost */
	} cases[] = {
		{ "device.driver == 'gpu.nvidia.com'", 4, 4 },
		{ "device.attributes['gpu.nvidia.com'].type == 'gpu'", 5, 5 },
		/* estimate: 4 + ceil(65 * 0.1) * ceil(10 * 0.25); run: 4 + ceil(22 * 0.1) * 3 */
		{ "device.attributes['gpu.nvidia.com'].productName.matches('^.*H100.*$')", 25, 13 },
		{ "device.capacity['gpu.nvidia.com'].memory.isGreaterThan(quantity('1Ki'))", 6, 6 },
	};
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(CelDraSelector) sel = cel_dra_selector_compile(env, cases[i].expr, NULL);
		assert_non_null(sel);
		assert_int_equal(cel_dra_selector_get_max_cost(sel), cases[i].estimate);
		assert_int_equal(cel_dra_selector_eval(sel, ev, dev, NULL), CEL_DRA_TRUE);
		assert_int_equal(cel_dra_eval_get_cost(ev), cases[i].actual);
	}
	/* Over the runtime limit: the error cel-go gives. */
	g_autoptr(CelDraSelector) big = cel_dra_selector_compile(
	        env,
	        "[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, "
	        "[1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, "
	        "[1,2,3,4,5,6,7,8,9,10].all(e, a + b + c + d + e > 0)))))",
	        NULL);
	assert_non_null(big);
	assert_true(cel_dra_selector_get_max_cost(big) > CEL_DRA_MAX_COST);
	const char *msg = NULL;
	assert_int_equal(cel_dra_selector_eval(big, ev, dev, &msg), CEL_DRA_ERROR);
	assert_non_null(strstr(msg, "actual cost limit exceeded"));
}

/*
 * The runtime cost limit at its bound and one past it: the matches() selector of test_costs
 * costs 13 at run time (4 + ceil(22 * 0.1) * 3, worked there), so a limit of 13 lets it
 * finish and a limit of 12 stops it with cel-go's error. The estimate (25) is not checked
 * against this limit: the scheduler evaluates with the estimate off (skip_cost_estimate).
 */
static void
test_cost_limit_edge(void **state)
{
	static const char *const expr =
	        "device.attributes['gpu.nvidia.com'].productName.matches('^.*H100.*$')";
	g_autoptr(CelDraDevice) dev = gpu_device(TRUE);

	for (guint64 limit = 12; limit <= 13; limit++) {
		CelDraOptions o = CEL_DRA_OPTIONS_INIT;

		o.cost_limit = limit;
		o.skip_cost_estimate = TRUE;
		g_autoptr(CelDraEnv) env = cel_dra_env_new(&o);
		g_autoptr(CelDraEval) ev = cel_dra_eval_new(env);
		g_autoptr(CelDraSelector) sel = cel_dra_selector_compile(env, expr, NULL);
		const char *msg = NULL;

		assert_non_null(sel);
		if (limit == 13) {
			assert_int_equal(cel_dra_selector_eval(sel, ev, dev, &msg), CEL_DRA_TRUE);
			assert_int_equal(cel_dra_eval_get_cost(ev), 13);
		} else {
			assert_int_equal(cel_dra_selector_eval(sel, ev, dev, &msg), CEL_DRA_ERROR);
			assert_non_null(msg);
			assert_non_null(strstr(msg, "actual cost limit exceeded"));
		}
	}
}

/*
 * The leaf-testing fast path (cel_dra_fast.c) against the generic evaluator over devices
 * whose attributes sit at different indexes (so remembered lookup hints miss), with other
 * drivers, missing keys, odd kinds, non-ASCII and multi-line strings, and regexp shapes that
 * the literal filter answers without RE2.
 */
static CelDraDevice *
mixed_device(guint i)
{
	static const char *const drivers[] = { "gpu.nvidia.com", "gpu.example.com" };
	static const char *const texts[] = {
		"NVIDIA H100 80GB", "H100", "xH100", "H100x", "h100", "", "NVIDIA H100\nNVL",
		"Ü H100", "NVIDIA A100", "a-b_c:d/e", "H10", "H100 H100",
		/* the longest string a record slot holds, and one byte more */
		"abcdefgH100klmn", "abcdefgH100klmno", "abcdefgH100klm",
		/* a newline and a non-ASCII letter inside the first and second 8-byte words */
		"NVIDIA\nH100 80GB HBM3", "H100 NVIDIA Ü 80GB", "H100 NVIDIA 80GB\n"
	};
	/* small versions sit in the slot; these do not (2^32, build metadata, prerelease) */
	static const char *const versions[] = { "1.2.3", "2.0.0-rc.1", "4294967296.0.0",
		                                "1.2.3+build.7", "1.10.0" };
	static const char *const quantities[] = { "0", "1Gi", "2Gi", "3Gi", "1500m", "1e40" };
	CelDraDevice *dev = cel_dra_device_new(drivers[i % 2]);
	K8sQuantity q;
	char buf[32];

	for (guint j = 0; j < i % 5; j++) { /* shift the indexes of what follows */
		g_snprintf(buf, sizeof buf, "x.example.com/pad%u", j);
		cel_dra_device_add_int(dev, buf, j);
	}
	if (i % 7 != 6) {
		cel_dra_device_add_string(dev, "x.example.com/s", texts[i % G_N_ELEMENTS(texts)],
		                          -1);
	} else {
		cel_dra_device_add_int(dev, "x.example.com/s",
		                       3); /* a kind the tests do not expect */
	}
	cel_dra_device_add_int(dev, "x.example.com/n", (gint64)(i % 9) - 4);
	cel_dra_device_add_bool(dev, "x.example.com/b", i % 3 == 0);
	assert_true(cel_dra_device_add_version(dev, "x.example.com/v",
	                                       versions[i % G_N_ELEMENTS(versions)], -1, NULL));
	assert_true(k8s_quantity_parse(quantities[i % G_N_ELEMENTS(quantities)], -1, &q, NULL));
	if (i % 11 != 10) {
		cel_dra_device_add_capacity(dev, "x.example.com/mem", &q);
	}
	if (i % 4 == 1) { /* the same name in both tables: two different record keys */
		cel_dra_device_add_capacity(dev, "x.example.com/n", &q);
	}
	if (i % 3 != 0) {
		cel_dra_device_set_allow_multiple_allocations(dev, i % 3 == 1);
	}
	if (i % 2) {
		cel_dra_device_seal(dev);
	}
	if (i % 6 == 5) { /* allowMultipleAllocations may change after sealing */
		cel_dra_device_set_allow_multiple_allocations(dev, TRUE);
	}
	return dev;
}

#define N_IS(k) "device.attributes['x.example.com'].n == " #k " || "

/*
 * The selectors test_fast_vs_generic runs both ways: the shapes the fast path compiles
 * (comparisons, string functions, regular expressions anchored and not, semver and
 * quantity comparisons, &&, ||, !) on values that sit on both sides of each comparison
 * in mixed_device(). A table that reads better whole.
 */
static const char *const fast_path_exprs[] = {
	"device.driver == 'gpu.nvidia.com'",
	"device.driver != 'gpu.nvidia.com'",
	"'gpu.example.com' == device.driver",
	"device.driver == 'gpu.nvidia.co\\x00m'",
	"device.driver < 'gpu.z'",
	"device.attributes['x.example.com'].s == 'H100'",
	"'H100' != device.attributes['x.example.com'].s",
	"device.attributes['x.example.com'].s > 'H100'",
	"device.attributes['x.example.com'].s <= 'H100x'",
	"device.attributes['x.example.com'].s.startsWith('NVIDIA')",
	"device.attributes['x.example.com'].s.endsWith('H100')",
	"device.attributes['x.example.com'].s.contains('100')",
	"device.attributes['x.example.com'].s.matches('^.*H100.*$')",
	"device.attributes['x.example.com'].s.matches('H100')",
	"device.attributes['x.example.com'].s.matches('^H100')",
	"device.attributes['x.example.com'].s.matches('H100$')",
	"device.attributes['x.example.com'].s.matches('^H100$')",
	"device.attributes['x.example.com'].s.matches('.*H100')",
	"device.attributes['x.example.com'].s.matches('^H100.*$')",
	"device.attributes['x.example.com'].s.matches('^.*H100$')",
	"device.attributes['x.example.com'].s.matches('^a-b_c:d/e$')",
	"device.attributes['x.example.com'].s.matches('H10+')",
	"device.attributes['x.example.com'].s.matches('^.*$')",
	"matches(device.attributes['x.example.com'].s, 'A100')",
	"device.attributes['x.example.com'].n >= 0",
	"0 < device.attributes['x.example.com'].n",
	"device.attributes['x.example.com'].n == -4 || "
	"device.attributes['x.example.com'].b",
	"!device.attributes['x.example.com'].b && device.attributes['x.example.com'].n != "
	"2",
	"device.attributes['x.example.com'].b == true",
	"device.attributes['x.example.com'].n == 1u",
	"device.attributes['x.example.com'].v.isGreaterThan(semver('1.5.0'))",
	"device.attributes['x.example.com'].v.isLessThan(semver('2.0.0'))",
	"device.attributes['x.example.com'].v.compareTo(semver('1.2.3')) == 0",
	"device.capacity['x.example.com'].mem.compareTo(quantity('2Gi')) >= 0",
	"device.capacity['x.example.com'].mem.compareTo(quantity('2Gi')) < 1",
	"device.capacity['x.example.com'].mem.compareTo(quantity('2Gi')) == -1",
	"device.capacity['x.example.com'].mem.isGreaterThan(quantity('1Gi'))",
	"device.capacity['x.example.com'].mem.isLessThan(quantity('1Gi'))",
	"device.attributes['x.example.com'].s == 'H100' && "
	"device.attributes['x.example.com'].n > -2 && device.attributes['x.example.com'].b",
	"device.attributes['x.example.com'].s == 'abcdefgH100klmn' || "
	"device.attributes['x.example.com'].s.endsWith('klmno')",
	"device.attributes['x.example.com'].s.matches('H100klm')",
	"device.attributes['x.example.com'].v.compareTo(semver('1.2.3')) > 0",
	"device.attributes['x.example.com'].v.isGreaterThan(semver('4294967295.9.9'))",
	"device.capacity['x.example.com'].mem.compareTo(quantity('1')) > 0",
	"device.capacity['x.example.com'].mem.isLessThan(quantity('2'))",
	"device.capacity['x.example.com'].n.compareTo(quantity('1Gi')) >= 0",
	"device.capacity['x.example.com'].n.isGreaterThan(quantity('1Gi')) || "
	"device.attributes['x.example.com'].n > 0",
	"device.allowMultipleAllocations",
	"!device.allowMultipleAllocations || device.attributes['x.example.com'].b",
	/* the 17th leaf shares a lookup hint with the 1st: hints must not mix them up */
	N_IS(9) "device.attributes['x.example.com'].b == false || "
	        "device.attributes['x.example.com'].pad0 == 7 || " N_IS(8) N_IS(7) N_IS(6) N_IS(5)
	                N_IS(9) N_IS(9) N_IS(9) N_IS(9) N_IS(9) N_IS(9) N_IS(9) N_IS(9)
	                        N_IS(9) "device.attributes['x.example.com'].s."
	                                "startsWith('NVIDIA')",
};

#define N_FAST_EXPRS    G_N_ELEMENTS(fast_path_exprs)
#define N_MIXED_DEVICES 77

/* One selector on every device, fast path and generic evaluator ("[e][0]" defeats the
 * fast compiler): the same result, the same error message, a cost counted. Records the
 * generic answers in @want. Returns the mismatches. */
static guint
compare_fast_with_generic(CelDraEnv *env,
                          CelDraEval *ev,
                          const char *expr,
                          CelDraSelector *sel,
                          CelDraDevice *const *devs,
                          CelDraResult *want)
{
	g_autofree char *wrapped = g_strdup_printf("[%s][0]", expr);
	g_autoptr(CelDraSelector) slow = cel_dra_selector_compile(env, wrapped, NULL);
	guint failures = 0;

	assert_non_null(sel);
	assert_non_null(slow);
	for (guint i = 0; i < N_MIXED_DEVICES; i++) {
		const char *msg = NULL, *slow_msg = NULL;
		CelDraResult r = cel_dra_selector_eval(sel, ev, devs[i], &msg);
		g_autofree char *msg_copy = g_strdup(msg);
		guint64 cost = cel_dra_eval_get_cost(ev);
		CelDraResult rs = cel_dra_selector_eval(slow, ev, devs[i], &slow_msg);
		if (r != rs || (r == CEL_DRA_ERROR && strcmp(msg_copy, slow_msg) != 0) ||
		    cost == 0) {
			print_error("%s on device %u: fast %d (%s), generic %d (%s)\n", expr, i, r,
			            msg_copy ? msg_copy : "", rs, slow_msg ? slow_msg : "");
			failures++;
		}
		want[i] = rs;
	}
	return failures;
}

/* All selectors in turn on each device, sharing one CelDraEval and so its lookup hints:
 * each answer is still the one it gave alone. Returns the mismatches. */
static guint
check_interleaved(CelDraEval *ev,
                  CelDraSelector *const *sels,
                  CelDraDevice *const *devs,
                  CelDraResult (*want)[N_MIXED_DEVICES])
{
	guint failures = 0;

	for (guint i = 0; i < N_MIXED_DEVICES; i++) {
		for (guint e = 0; e < N_FAST_EXPRS; e++) {
			CelDraResult r = cel_dra_selector_eval(sels[e], ev, devs[i], NULL);
			if (r != want[e][i]) {
				print_error("%s on device %u, interleaved: %d, want %d\n",
				            fast_path_exprs[e], i, r, want[e][i]);
				failures++;
			}
		}
	}
	return failures;
}

static void
test_fast_vs_generic(void **state)
{
	CelDraOptions o = CEL_DRA_OPTIONS_INIT;
	g_autoptr(CelDraEnv) env = cel_dra_env_new(&o);
	g_autoptr(CelDraEval) ev = cel_dra_eval_new(env);
	CelDraDevice *devs[N_MIXED_DEVICES];
	CelDraSelector *sels[N_FAST_EXPRS];
	CelDraResult want[N_FAST_EXPRS][N_MIXED_DEVICES];
	guint failures = 0;

	(void)state;
	for (guint i = 0; i < N_MIXED_DEVICES; i++) {
		devs[i] = mixed_device(i);
	}
	for (guint e = 0; e < N_FAST_EXPRS; e++) {
		sels[e] = cel_dra_selector_compile(env, fast_path_exprs[e], NULL);
		failures += compare_fast_with_generic(env, ev, fast_path_exprs[e], sels[e], devs,
		                                      want[e]);
	}
	failures += check_interleaved(ev, sels, devs, want);
	for (guint e = 0; e < N_FAST_EXPRS; e++) {
		cel_dra_selector_free(sels[e]);
	}
	for (guint i = 0; i < N_MIXED_DEVICES; i++) {
		cel_dra_device_free(devs[i]);
	}
	assert_int_equal(failures, 0);
}

/*
 * The device store (cel_dra_store.c) over several 2 MiB chunks: devices freed in an odd order,
 * chunks emptied and given back while others stay, new devices after that. Under ASan a chunk
 * given back too early shows up as a use after free.
 */
static void
test_store_chunks(void **state)
{
	enum { N = 24000, M = 6000 };
	CelDraOptions o = CEL_DRA_OPTIONS_INIT;
	g_autoptr(CelDraEnv) env = cel_dra_env_new(&o);
	g_autoptr(CelDraEval) ev = cel_dra_eval_new(env);
	g_autoptr(CelDraSelector) sel = cel_dra_selector_compile(
	        env, "device.attributes['x.example.com'].n % 3 == 0", NULL);
	g_autoptr(CelDraSelector) fast = cel_dra_selector_compile(/* on the record */
	                                                          env,
	                                                          "device.attributes['x.example."
	                                                          "com'].s.startsWith('a long')",
	                                                          NULL);
	CelDraDevice **devs = g_new0(CelDraDevice *, N + M);
	char buf[64];

	(void)state;
	assert_non_null(sel);
	assert_non_null(fast);
	for (guint i = 0; i < N + M; i++) {
		if (i == N) { /* free the first half and every third of the rest, then add more */
			for (guint j = 0; j < N; j++) {
				if (j < N / 2 || j % 3 == 0) {
					g_clear_pointer(&devs[j], cel_dra_device_free);
				}
			}
		}
		devs[i] = cel_dra_device_new("x.example.com");
		cel_dra_device_add_int(devs[i], "n", i);
		g_snprintf(buf, sizeof buf, "a long enough string to leave the slot %u", i);
		cel_dra_device_add_string(devs[i], "s", buf, -1);
		cel_dra_device_seal(devs[i]);
	}
	guint matched = 0, live = 0, fast_matched = 0;
	for (guint i = 0; i < N + M; i++) {
		if (devs[i] != NULL) {
			live++;
			matched += cel_dra_selector_eval(sel, ev, devs[i], NULL) == CEL_DRA_TRUE;
			fast_matched +=
			        cel_dra_selector_eval(fast, ev, devs[i], NULL) == CEL_DRA_TRUE;
		}
	}
	assert_int_equal(fast_matched, live);
	guint want = 0;
	for (guint i = 0; i < N + M; i++) {
		want += devs[i] != NULL && i % 3 == 0;
	}
	assert_int_equal(live, N / 2 - N / 6 + M);
	assert_int_equal(matched, want);
	for (guint i = N + M; i-- > 0;) {
		cel_dra_device_free(devs[i]);
	}
	g_free(devs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_stored),     cmocka_unit_test(test_diagnostics),
		cmocka_unit_test(test_costs),           cmocka_unit_test(test_cost_limit_edge),
		cmocka_unit_test(test_fast_vs_generic), cmocka_unit_test(test_store_chunks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
