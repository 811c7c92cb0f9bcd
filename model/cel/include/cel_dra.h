/*
 * cel_dra.h: the DRA device-selector environment (public; consumed by model/dra and the CLI).
 *
 * Mirrors k8s.io/dynamic-resource-allocation/cel/compile.go: a selector is compiled once in
 * the environment of the Kubernetes 1.34 CEL base library set plus cel.bind and the
 * `device` variable, then evaluated against many devices. Evaluation reads a CelDraDevice,
 * a view the caller builds once per device from its ResourceSlice (names interned,
 * attributes in arrays), so evaluating allocates nothing and hashes no strings.
 *
 * Example (error handling shortened):
 *
 *	CelDraOptions opts = CEL_DRA_OPTIONS_INIT;       // StoredExpressions, gates off
 *	g_autoptr(CelDraEnv) env = cel_dra_env_new(&opts);
 *	g_autoptr(CelDraDiag) diag = NULL;
 *	g_autoptr(CelDraSelector) sel = cel_dra_selector_compile(env,
 *		"device.attributes[\"gpu.nvidia.com\"].productName.startsWith(\"NVIDIA H100\")",
 *		&diag);
 *	if (sel == NULL)
 *		g_printerr("%u:%u: %s\n", diag->line, diag->column, diag->message);
 *
 *	// once per device, when its ResourceSlice is loaded:
 *	g_autoptr(CelDraDevice) dev = cel_dra_device_new("gpu.nvidia.com");
 *	cel_dra_device_add_string(dev, "productName", "NVIDIA H100 80GB HBM3", -1);
 *	cel_dra_device_add_version(dev, "driverVersion", "550.54.15", -1, NULL);
 *	cel_dra_device_add_capacity(dev, "memory", &mem_quantity);
 *	cel_dra_device_seal(dev);       // recommended: compact and in order; immutable from now on
 *
 *	// per evaluation (one CelDraEval per thread, reused):
 *	g_autoptr(CelDraEval) ev = cel_dra_eval_new(env);
 *	const char *why = NULL;
 *	switch (cel_dra_selector_eval(sel, ev, dev, &why)) {
 *	case CEL_DRA_TRUE: ...; break;
 *	case CEL_DRA_FALSE: ...; break;
 *	case CEL_DRA_ERROR: // production fails the claim: why = "no such key: memory"
 *		break;
 *	}
 *
 * Threads: an env, its selectors and sealed devices may be shared by any number of threads;
 * a CelDraEval belongs to one thread at a time.
 */
#pragma once

#include <glib.h>

#include "k8s_quantity.h"

G_BEGIN_DECLS

/* resource.k8s.io/v1 limits the environment and the cost model use (types.go). */
#define CEL_DRA_MAX_COST             1000000 /* CELSelectorExpressionMaxCost */
#define CEL_DRA_MAX_EXPRESSION_BYTES 10240   /* CELSelectorExpressionMaxLength */

typedef enum {
	/* Runtime and stored objects: everything this version knows, gates ignored. */
	CEL_DRA_STORED_EXPRESSIONS,
	/* Validation of new or changed objects: only what n-1 knows, gated items by gate. */
	CEL_DRA_NEW_EXPRESSIONS,
} CelDraEnvType;

typedef struct {
	CelDraEnvType env_type;
	gboolean consumable_capacity;  /* feature DRAConsumableCapacity (1.34 alpha) */
	gboolean list_type_attributes; /* feature DRAListTypeAttributes (1.36 alpha) */
	guint64 cost_limit;            /* runtime cost limit per evaluation; 0: CEL_DRA_MAX_COST */
	gboolean skip_cost_estimate; /* as Options.DisableCostEstimation (the scheduler's cache) */
} CelDraOptions;

#define CEL_DRA_OPTIONS_INIT                                                                       \
	{                                                                                          \
		CEL_DRA_STORED_EXPRESSIONS, FALSE, FALSE, 0, FALSE                                 \
	}

typedef struct CelDraEnv CelDraEnv;
typedef struct CelDraSelector CelDraSelector;
typedef struct CelDraDevice CelDraDevice;
typedef struct CelDraEval CelDraEval;

/**
 * CelDraDiag:
 * Where and why a selector did not compile. @line and @column are 1-based, the column counts
 * code points (as cel-go does); @offset is the byte offset in the expression. @message is
 * the error without position; @text is the full cel-go report with source line and caret
 * ("ERROR: <input>:1:8: undeclared reference to 'x'\n | ...\n | .......^").
 */
typedef struct {
	guint line;
	guint column;
	guint offset;
	char *message;
	char *text;
} CelDraDiag;

void cel_dra_diag_free(CelDraDiag *diag);

/* (transfer full): an environment; thread-safe to share once built. */
CelDraEnv *cel_dra_env_new(const CelDraOptions *options);
CelDraEnv *cel_dra_env_ref(CelDraEnv *self);
void cel_dra_env_unref(CelDraEnv *self);

/**
 * cel_dra_selector_compile:
 * @expression: NUL-terminated CEL source; not retained
 * @diag: (out) (optional) (transfer full): set on failure
 *
 * Parses, type-checks and prepares @expression. Fails like CompileCELExpression: syntax
 * and type errors, a result type other than bool (or the unknown type), and an expression
 * longer than CEL_DRA_MAX_EXPRESSION_BYTES.
 * Returns: (transfer full) (nullable): the selector, or NULL with @diag set.
 */
CelDraSelector *cel_dra_selector_compile(CelDraEnv *env, const char *expression, CelDraDiag **diag);
void cel_dra_selector_free(CelDraSelector *self);
const char *cel_dra_selector_get_expression(const CelDraSelector *self);
/*
 * The static worst-case cost (cel.EstimateCost Max with the DRA size estimator), what API
 * validation compares to CEL_DRA_MAX_COST; G_MAXUINT64 when estimation was skipped.
 */
guint64 cel_dra_selector_get_max_cost(const CelDraSelector *self);

/* ---- device views: built once per device, read by every evaluation ---- */

/* (transfer full): an empty device of @driver (copied and interned). */
CelDraDevice *cel_dra_device_new(const char *driver);
void cel_dra_device_free(CelDraDevice *self);
/* Unset reads as false (DRAConsumableCapacity). */
void cel_dra_device_set_allow_multiple_allocations(CelDraDevice *self, gboolean allow);

/*
 * Attributes and capacities take the qualified name as the ResourceSlice holds it ("memory"
 * or "gpu.nvidia.com/memory"); a bare name belongs to the driver's domain. @len may be -1.
 * Names and strings are copied. Adding a name twice keeps the last value.
 */
void cel_dra_device_add_bool(CelDraDevice *self, const char *name, gboolean value);
void cel_dra_device_add_int(CelDraDevice *self, const char *name, gint64 value);
void cel_dra_device_add_string(CelDraDevice *self, const char *name, const char *value, gssize len);
/* FALSE with @error when @value is not a semantic version (blang semver.Parse). */
gboolean cel_dra_device_add_version(
        CelDraDevice *self, const char *name, const char *value, gssize len, GError **error);
/* List attributes (DRAListTypeAttributes); @n values. Strings and versions are copied. */
void
cel_dra_device_add_bools(CelDraDevice *self, const char *name, const gboolean *values, guint n);
void cel_dra_device_add_ints(CelDraDevice *self, const char *name, const gint64 *values, guint n);
void cel_dra_device_add_strings(CelDraDevice *self,
                                const char *name,
                                const char *const *values,
                                guint n);
gboolean cel_dra_device_add_versions(
        CelDraDevice *self, const char *name, const char *const *values, guint n, GError **error);
void cel_dra_device_add_capacity(CelDraDevice *self, const char *name, const K8sQuantity *value);
/*
 * Marks attribute @name (added before) as a value of this node alone (a GPU's
 * uuid): an evaluation that reads it makes the selector say so
 * (cel_dra_selector_reads_node_values). Build time only.
 */
void cel_dra_device_mark_node_value(CelDraDevice *self, const char *name);
/*
 * cel_dra_device_seal:
 * Recommended, after the last add: builds the device's compact record (16 bytes per attribute
 * and capacity, what the fast path reads) right after the device in a sequential device store,
 * packs the generic evaluator's view into one block and frees the build-time copies. Devices
 * sealed one after another then lie one after another in memory, so evaluating a selector over
 * them in that order reads memory sequentially. A sealed device is immutable: adding to it is
 * a programming error (only the allowMultipleAllocations flag may still change).
 */
void cel_dra_device_seal(CelDraDevice *self);

/* ---- evaluation ---- */

typedef enum {
	CEL_DRA_FALSE = 0,
	CEL_DRA_TRUE = 1,
	CEL_DRA_ERROR = 2, /* a runtime error; production treats it as fatal for the claim */
} CelDraResult;

/* (transfer full): evaluation state for one thread; reuse it for every evaluation. */
CelDraEval *cel_dra_eval_new(CelDraEnv *env);
void cel_dra_eval_free(CelDraEval *self);

/**
 * cel_dra_selector_eval:
 * @error_message: (out) (optional): on CEL_DRA_ERROR, upstream's message ("no such key: x",
 *   "operation cancelled: actual cost limit exceeded", "CEL result of type list could not
 *   be converted to bool: ..."); borrowed until the next evaluation with @eval
 *
 * Evaluates @self against @device (DeviceMatches). Allocates nothing in steady state.
 */
/*
 * TRUE once an evaluation of @self read an attribute marked with
 * cel_dra_device_mark_node_value() (sticky): its result may differ on another
 * node's same device. Evaluations that read none depend on the rest alone.
 */
gboolean cel_dra_selector_reads_node_values(const CelDraSelector *self);
CelDraResult cel_dra_selector_eval(const CelDraSelector *self,
                                   CelDraEval *eval,
                                   const CelDraDevice *device,
                                   const char **error_message);
/* The runtime cost of the last evaluation with @eval (cel-go's actual cost). */
guint64 cel_dra_eval_get_cost(const CelDraEval *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(CelDraDiag, cel_dra_diag_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(CelDraEnv, cel_dra_env_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(CelDraSelector, cel_dra_selector_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(CelDraDevice, cel_dra_device_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(CelDraEval, cel_dra_eval_free)

G_END_DECLS
