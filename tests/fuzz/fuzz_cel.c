/*
 * fuzz_cel.c: libFuzzer target for the CEL front end and evaluator (-Dfuzz=enabled, clang).
 *
 * The first input byte picks the environment (DRA selector environment with or without the
 * feature gates, or the plain Kubernetes library environment); the rest is the expression.
 * Every input is parsed, checked, cost-estimated and, when it compiles, evaluated against a
 * small fixed device, so the lexer, parser, checker, rewrites, fast path, generic evaluator
 * and libraries all see fuzzed programs. Crashes, sanitizer reports and leaks are findings.
 */
#include <stdint.h>
#include <string.h>

#include "cel_dra.h"
#include "cel_k8s.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static CelDraDevice *
fuzz_device(void)
{
	static const char *const names[] = { "a", "b" };
	CelDraDevice *dev = cel_dra_device_new("dra.example.com");
	K8sQuantity q;
	gint64 ints[] = { 1, 2, 3 };

	cel_dra_device_add_bool(dev, "ready", TRUE);
	cel_dra_device_add_int(dev, "index", 3);
	cel_dra_device_add_string(dev, "productName", "NVIDIA H100 80GB HBM3", -1);
	cel_dra_device_add_version(dev, "driverVersion", "550.54.15", -1, NULL);
	cel_dra_device_add_string(dev, "other.example.com/zone", "z1", -1);
	cel_dra_device_add_ints(dev, "ids", ints, 3);
	cel_dra_device_add_strings(dev, "names", names, 2);
	k8s_quantity_parse("80Gi", -1, &q, NULL);
	cel_dra_device_add_capacity(dev, "memory", &q);
	cel_dra_device_seal(dev);
	return dev;
}

static void
run_dra(const char *expr, guint variant)
{
	static CelDraEnv *envs[4];
	static CelDraDevice *dev;
	CelDraOptions o = CEL_DRA_OPTIONS_INIT;

	if (envs[variant] == NULL) {
		o.env_type = variant & 1 ? CEL_DRA_NEW_EXPRESSIONS : CEL_DRA_STORED_EXPRESSIONS;
		o.consumable_capacity = (variant & 2) != 0;
		envs[variant] = cel_dra_env_new(&o);
	}
	if (dev == NULL) {
		dev = fuzz_device();
	}
	CelDraDiag *diag = NULL;
	CelDraSelector *sel = cel_dra_selector_compile(envs[variant], expr, &diag);
	if (sel == NULL) {
		cel_dra_diag_free(diag);
		return;
	}
	CelDraEval *ev = cel_dra_eval_new(envs[variant]);
	const char *msg = NULL;
	(void)cel_dra_selector_eval(sel, ev, dev, &msg);
	(void)cel_dra_eval_get_cost(ev);
	cel_dra_eval_free(ev);
	cel_dra_selector_free(sel);
}

static void
run_k8s(const char *expr)
{
	static CelEnv *env;
	if (env == NULL) {
		CelK8sEnvOptions o = { TRUE, TRUE, TRUE, 1, 1000000 };
		env = cel_k8s_env_new(&o);
	}
	GError *error = NULL;
	CelProgram *prog = cel_program_compile(env, expr, &error);
	if (prog == NULL) {
		g_error_free(error);
		return;
	}
	CelActivation *act = cel_activation_new(env);
	CelValue v = cel_program_eval(prog, act);
	GString *s = g_string_new(NULL);
	cel_value_print(s, v);
	g_string_free(s, TRUE);
	cel_activation_free(act);
	cel_program_free(prog);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 16384) {
		return 0;
	}
	char *expr = g_strndup((const char *)data + 1, size - 1);
	guint mode = data[0] % 5;
	if (mode == 4) {
		run_k8s(expr);
	} else {
		run_dra(expr, mode);
	}
	g_free(expr);
	return 0;
}
