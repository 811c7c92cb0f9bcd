/*
 * cel.h: the public face of drasim's CEL engine.
 *
 * A CelEnv holds declarations (variables, functions, options); a CelProgram
 * is one expression parsed, checked and prepared against an environment; a
 * CelActivation carries the variable values and the scratch arena of one
 * evaluation. Compile errors are GErrors; runtime errors are values of kind
 * CEL_KIND_ERROR, as the CEL specification requires.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CEL_ERROR (cel_error_quark())
GQuark cel_error_quark(void);

typedef enum {
	CEL_ERROR_SYNTAX, /* lexer or parser rejected the source */
	CEL_ERROR_TYPE,   /* checker: undeclared reference, no matching overload */
	CEL_ERROR_LIMIT,  /* size, nesting or recursion over the limit */
} CelErrorCode;

/* Limits; exceeding one is a compile error (CEL_ERROR_LIMIT). */
#define CEL_MAX_SOURCE_BYTES 10240
#define CEL_MAX_NESTING      250 /* parser recursion depth */

typedef enum {
	CEL_KIND_NULL,
	CEL_KIND_BOOL,
	CEL_KIND_INT,
	CEL_KIND_UINT,
	CEL_KIND_DOUBLE,
	CEL_KIND_STRING,
	CEL_KIND_BYTES,
	CEL_KIND_LIST,
	CEL_KIND_MAP,
	CEL_KIND_TYPE,
	CEL_KIND_TIMESTAMP,
	CEL_KIND_DURATION,
	CEL_KIND_OPTIONAL,
	CEL_KIND_OBJECT, /* host or library value (Quantity, Semver, DRA device, ...) */
	CEL_KIND_ERROR,
	CEL_KIND__COUNT,
} CelKind;

typedef struct CelType CelType;
typedef struct CelList CelList;
typedef struct CelMap CelMap;
typedef struct CelObject CelObject;
typedef struct CelEnv CelEnv;
typedef struct CelProgram CelProgram;
typedef struct CelActivation CelActivation;

/*
 * CelValue: 16 bytes, passed by value. Payloads (strings, lists, ...) are
 * borrowed: from the program (constants), from the host (variables) or from
 * the activation's scratch arena (valid until cel_activation_reset()).
 *
 * aux: byte length for STRING/BYTES (data need not be NUL-terminated);
 * nanoseconds (0..999999999) for TIMESTAMP, whose seconds are in .i.
 * DURATION is a signed nanosecond count in .i (Go's time.Duration range,
 * as cel-go). ERROR carries a message in .str.
 */
typedef struct {
	guint8 kind;
	guint8 flags;
	guint16 pad_;
	guint32 aux;
	union {
		gboolean b;
		gint64 i;
		guint64 u;
		double d;
		const char *str;
		const CelList *list;
		const CelMap *map;
		const CelType *type;
		const void *opt; /* OPTIONAL: const CelValue * or NULL for none */
		const CelObject *obj;
	};
} CelValue;

/* --- environments ------------------------------------------------------ */

/* An environment with the standard library, strings ext v2, optional types,
 * cel.bind and two-variable comprehensions (what Kubernetes 1.34 enables
 * from cel-go itself). Libraries of Kubernetes are added by cel-k8s. */
CelEnv *cel_env_new(void);
CelEnv *cel_env_ref(CelEnv *self);
void cel_env_unref(CelEnv *self);

/* Names are resolved against @container first ("a.b" tries a.b.x, a.x, x). */
void cel_env_set_container(CelEnv *self, const char *container);
/* Kubernetes' HomogeneousAggregateLiterals: mixed list/map literals are
 * compile errors. Off by default (cel-spec), on for DRA. */
void cel_env_set_homogeneous_literals(CelEnv *self, gboolean on);
/* Parse has(), all(), ... as plain calls. */
void cel_env_set_disable_macros(CelEnv *self, gboolean on);
/* Skip the type checker (cel-spec disable_check). */
void cel_env_set_disable_check(CelEnv *self, gboolean on);
/* Runtime cost limit per evaluation (0 = none). Exceeding it is an error value. */
void cel_env_set_cost_limit(CelEnv *self, guint64 limit);

/*
 * cel_env_declare_var:
 * Declares variable @name (may be qualified, "a.b.c") of @type.
 * Returns: the slot to pass to cel_activation_set(); redeclaring a name
 * returns its existing slot and replaces the type.
 */
guint cel_env_declare_var(CelEnv *self, const char *name, const CelType *type);

/* --- types ------------------------------------------------------------ */

/*
 * cel_type_parse:
 * Parses a type spelling: "int", "list(string)", "map(string, dyn)",
 * "optional_type(int)", a registered opaque name ("kubernetes.Quantity"),
 * or a single upper-case letter or a name declared as type parameter
 * ("A", "K", "V"). Types are interned for the life of the process.
 * Returns: (nullable): NULL when the spelling is unknown.
 */
const CelType *cel_type_parse(const char *spelling);
/* The CEL spelling of @type ("map(string, list(int))"); static storage. */
const char *cel_type_get_name(const CelType *type);

/* --- programs ---------------------------------------------------------- */

/*
 * cel_program_compile:
 * Parses, checks and prepares @source. On error @error holds a CEL_ERROR whose
 * message is cel-go's text: "ERROR: <input>:1:8: what\n | source\n | .......^".
 * Returns: (transfer full) (nullable)
 */
CelProgram *cel_program_compile(CelEnv *env, const char *source, GError **error);
/* Same, for a source of @len bytes that may contain NUL inside string
 * literals (cel-go accepts them there); a NUL elsewhere is a syntax error. */
CelProgram *cel_program_compile_len(CelEnv *env, const char *source, gsize len, GError **error);
void cel_program_free(CelProgram *self);
/* Checked result type (dyn when the checker was off). */
const CelType *cel_program_get_type(const CelProgram *self);

/* --- evaluation ---------------------------------------------------------- */

CelActivation *cel_activation_new(CelEnv *env);
void cel_activation_free(CelActivation *self);
/* Sets the variable in @slot (from cel_env_declare_var) for later evaluations. */
void cel_activation_set(CelActivation *self, guint slot, CelValue value);
/* Frees every value of the previous evaluations; keeps the arena's memory. */
void cel_activation_reset(CelActivation *self);
/* Cost spent by the last evaluation (cel-go runtime cost units). */
guint64 cel_activation_get_cost(const CelActivation *self);
/* Scratch memory valid until the next reset; for host values. */
gpointer cel_activation_alloc(CelActivation *self, gsize size);

/*
 * cel_program_eval:
 * Never fails in the GError sense: runtime errors come back as CEL_KIND_ERROR.
 * Resets nothing: call cel_activation_reset() between evaluations.
 */
CelValue cel_program_eval(const CelProgram *self, CelActivation *activation);

/* --- values ------------------------------------------------------------ */

CelValue cel_value_null(void);
CelValue cel_value_bool(gboolean b);
CelValue cel_value_int(gint64 i);
CelValue cel_value_uint(guint64 u);
CelValue cel_value_double(double d);
/* Borrows @str (@len bytes, UTF-8); the caller keeps it alive. */
CelValue cel_value_string(const char *str, gsize len);
CelValue cel_value_bytes(const char *data, gsize len);
/* @message must outlive the value (static, interned or arena). */
CelValue cel_value_error(const char *message);

static inline gboolean
cel_value_is_error(CelValue v)
{
	return v.kind == CEL_KIND_ERROR;
}

/* Appends a debug rendering ("[1, 'a']", "error: no such key") to @out. */
void cel_value_print(GString *out, CelValue value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(CelEnv, cel_env_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(CelProgram, cel_program_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(CelActivation, cel_activation_free)

G_END_DECLS
