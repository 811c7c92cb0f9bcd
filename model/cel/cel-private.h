/*
 * cel-private.h: shared layout of the CEL engine's files, and the interface
 * for libraries (cel_lib_*.c, written by this module and by cel-k8s).
 *
 * HOW TO ADD A LIBRARY
 *
 *   1. Write the functions. Every implementation has the CelFunc signature:
 *        static CelValue
 *        my_starts(CelActivation *act, const CelValue *args, guint nargs)
 *      args[0] is the receiver for receiver-style overloads. Arguments are
 *      never errors (the evaluator propagates argument errors itself, strict
 *      left-to-right) and their kinds match the declared parameter types
 *      (dyn/type-parameter positions excepted). Return a value or an error
 *      value: cel_value_error("static text") or cel_errorf(act, fmt, ...).
 *      Memory for results comes from cel_activation_alloc(act, n) (reset per
 *      evaluation, so no malloc in steady state); see cel_string_new().
 *
 *   2. Describe the overloads in a static table:
 *        static const CelOverload my_overloads[] = {
 *          { "startsWith", "string_starts_with", CEL_RECEIVER,
 *            "string, string -> bool", my_starts, NULL },
 *          { "quantity", "string_to_quantity", CEL_GLOBAL,
 *            "string -> kubernetes.Quantity", my_quantity, NULL },
 *        };
 *      The signature lists the parameters (the receiver first) then "->" and
 *      the result type, in cel_type_parse() spelling. Single upper-case letters
 *      (A, B, K, V, T) are type parameters. The last field is an optional
 *      runtime cost function (NULL: cost 1 per call, as cel-go).
 *
 *   3. Register opaque/object types your signatures name, then the table:
 *        cel_type_register_opaque("kubernetes.Quantity", &quantity_class);
 *        cel_env_add_overloads(env, my_overloads, G_N_ELEMENTS(my_overloads));
 *      Several overloads may share a function name; dispatch at runtime picks
 *      the first whose parameter types match the argument kinds, and the
 *      checker picks by static types. Registering an id twice replaces it.
 *
 * HOST VALUES (e.g. the DRA `device` variable)
 *
 *   A value with custom field/index lookup is either a map-like value or an
 *   object. Embed the public struct as the FIRST member of your own struct:
 *
 *     typedef struct { CelMap base; const DraDevice *dev; } AttrDomains;
 *     static gboolean domains_lookup(const CelMap *m, CelValue key,
 *                                    CelValue *out, CelActivation *act);
 *     static const CelMapClass domains_class = { domains_lookup, domains_entry };
 *
 *   base.klass = &domains_class; base.len = number of entries. The evaluator
 *   calls klass->lookup for m[key], m.key and `key in m`, and klass->entry
 *   (index 0..len-1) for iteration, size(), equality and printing. lookup
 *   returns FALSE for "no such key" (the evaluator makes the error value).
 *   Keys from field selection (m.key) arrive as CEL strings whose .str is a
 *   g_intern_string() pointer and flags has CEL_VALUE_INTERNED, so a host that
 *   interns its own keys can compare pointers. Results may point into the
 *   host's arrays (borrowed) or into cel_activation_alloc() memory.
 *
 *   Object types (fields declared for the checker, like kubernetes.DRADevice)
 *   use CelObject + CelObjectClass.select in the same way, and are declared
 *   with cel_type_register_object(). Opaque library types (Quantity, Semver)
 *   are CelObjects with a class whose type_name names the registered type.
 *
 * THE AST (for the static cost estimator)
 *
 *   CelAst below is cel-go's expression shape: CONST, IDENT, SELECT, CALL,
 *   LIST, MAP, STRUCT, COMPREHENSION, with macros expanded exactly as cel-go
 *   expands them (accumulator "@result", loop_cond/loop_step/result). After
 *   checking every node's .type is set, and CALL nodes carry the overloads
 *   the checker kept (call.overloads / call.noverloads). cel_program_get_ast()
 *   gives the checked tree of a program.
 */
#pragma once

#include <glib.h>

#include "base_arena.h"
#include "cel.h"

G_BEGIN_DECLS

/* Exact double equality without -Wfloat-equal noise; false for NaN. */
#define CEL_DOUBLE_EQ(a, b) ((a) <= (b) && (a) >= (b))

/* ---------------------------------------------------------------------- */
/* types */

typedef enum {
	CEL_TYPE_DYN,
	CEL_TYPE_ANY, /* cel-go AnyKind: like dyn, but not a comprehension range */
	CEL_TYPE_NULL,
	CEL_TYPE_BOOL,
	CEL_TYPE_INT,
	CEL_TYPE_UINT,
	CEL_TYPE_DOUBLE,
	CEL_TYPE_STRING,
	CEL_TYPE_BYTES,
	CEL_TYPE_LIST,      /* params[0] = element */
	CEL_TYPE_MAP,       /* params[0] = key, params[1] = value */
	CEL_TYPE_TYPE,      /* params[0] = the type whose value this is (may be NULL) */
	CEL_TYPE_TIMESTAMP, /* google.protobuf.Timestamp */
	CEL_TYPE_DURATION,  /* google.protobuf.Duration */
	CEL_TYPE_OPTIONAL,  /* optional_type(params[0]) */
	CEL_TYPE_OPAQUE,    /* named library type, e.g. kubernetes.Quantity */
	CEL_TYPE_OBJECT,    /* named type with declared fields (DRA device) */
	CEL_TYPE_PARAM,     /* type parameter, name */
	CEL_TYPE_ERROR,
	CEL_TYPE_FUNCTION,
} CelTypeKind;

typedef struct CelObjectClass CelObjectClass;

typedef struct {
	const char *name; /* interned */
	const CelType *type;
} CelField;

struct CelType {
	CelTypeKind kind;
	guint nparams;
	const char *name; /* interned spelling: "list(int)", "kubernetes.Quantity" */
	const char *base; /* interned name without parameters: "list", "tuple" */
	const CelType *params[4];
	/* OBJECT types: declared fields */
	const CelField *fields;
	guint nfields;
	const CelObjectClass *klass; /* OPAQUE/OBJECT: runtime class, may be NULL */
};

const CelType *cel_type_dyn(void);
const CelType *cel_type_any(void);
const CelType *cel_type_null(void);
const CelType *cel_type_bool(void);
const CelType *cel_type_int(void);
const CelType *cel_type_uint(void);
const CelType *cel_type_double(void);
const CelType *cel_type_string(void);
const CelType *cel_type_bytes(void);
const CelType *cel_type_timestamp(void);
const CelType *cel_type_duration(void);
const CelType *cel_type_error(void);
const CelType *cel_type_list(const CelType *elem);
const CelType *cel_type_map(const CelType *key, const CelType *value);
const CelType *cel_type_type(const CelType *of); /* of may be NULL: plain `type` */
const CelType *cel_type_optional(const CelType *elem);
const CelType *cel_type_param(const char *name);
/* Parameterised abstract (opaque) type, e.g. tuple(int, uint, double); n <= 4. */
const CelType *cel_type_abstract(const char *base, const CelType *const *params, guint n);
/* Same kind and base as @t, with @params replaced (nparams unchanged). */
const CelType *cel_type_with_params(const CelType *t, const CelType *const *params);
/* Registers (once) an opaque named type; returns it. @klass may be NULL. */
const CelType *cel_type_register_opaque(const char *name, const CelObjectClass *klass);
/* Registers an object type with fields (copied). */
const CelType *cel_type_register_object(const char *name,
                                        const CelField *fields,
                                        guint nfields,
                                        const CelObjectClass *klass);
const CelType *cel_type_lookup_named(const char *name);
/* The runtime type value of @v (what type(v) returns). */
const CelType *cel_type_of_value(CelValue v);
gboolean cel_type_equal(const CelType *a, const CelType *b);

/* ---------------------------------------------------------------------- */
/* values: flags, containers, host classes */

enum {
	CEL_VALUE_INTERNED = 1 << 0, /* STRING .str is a g_intern_string() pointer */
	CEL_VALUE_MUTABLE = 1 << 1,  /* LIST/MAP accumulator owned by a comprehension */
	/* a DRA device's value of its node alone (cel_dra_device_mark_node_value) */
	CEL_VALUE_NODE_VALUE = 1 << 2,
};

typedef struct CelMapClass CelMapClass;
typedef struct CelListClass CelListClass;

struct CelList {
	const CelListClass *klass; /* NULL: items[] holds the elements */
	guint len;
	guint cap; /* mutable accumulators only */
	CelValue *items;
};

struct CelListClass {
	/* Element @index (< len). Never fails for an index in range. */
	CelValue (*get)(const CelList *self, guint index, CelActivation *act);
};

struct CelMap {
	const CelMapClass *klass; /* NULL: keys[]/values[] hold the entries */
	guint len;
	guint cap;
	CelValue *keys;
	CelValue *values;
};

struct CelMapClass {
	/* FALSE when @key is absent. @key may be any kind (numbers compare
	 * across int/uint/double as in cel-go's map lookup). */
	gboolean (*lookup)(const CelMap *self, CelValue key, CelValue *out, CelActivation *act);
	/* Entry @index (< len), in a deterministic order. */
	void (*entry)(const CelMap *self,
	              guint index,
	              CelValue *key,
	              CelValue *value,
	              CelActivation *act);
	/* Optional: `key in map` (cel-go Mapper.Contains) when it differs from
	 * lookup (a defaulting Find); NULL: lookup decides. Not used by has(). */
	gboolean (*contains)(const CelMap *self, CelValue key, CelActivation *act);
};

struct CelObjectClass {
	const char *type_name; /* as registered with cel_type_register_opaque/object */
	/* Field selection obj.field; FALSE: no such field (error "no such key"). */
	gboolean (*select)(const CelObject *self,
	                   const char *field,
	                   CelValue *out,
	                   CelActivation *act);
	/* Equality with another object of the same class; NULL: pointer identity. */
	gboolean (*equal)(const CelObject *a, const CelObject *b);
	/* Appends a debug rendering; NULL: "<type_name>". */
	void (*print)(GString *out, const CelObject *self);
	/* Go type cel-go prints in messages like "got 'cel.Semver', expected
	 * iterable type"; NULL: type_name. */
	const char *go_type_name;
};

struct CelObject {
	const CelObjectClass *klass;
};

/* Element access that works for plain and host containers. */
CelValue cel_list_get(const CelList *list, guint index, CelActivation *act);
void
cel_map_entry(const CelMap *map, guint index, CelValue *key, CelValue *value, CelActivation *act);
gboolean cel_map_lookup(const CelMap *map, CelValue key, CelValue *out, CelActivation *act);

CelValue cel_value_list(const CelList *list);
CelValue cel_value_map(const CelMap *map);
CelValue cel_value_type(const CelType *type);
CelValue cel_value_object(const CelObject *obj);
CelValue cel_value_timestamp(gint64 seconds, guint32 nanos);
CelValue cel_value_duration(gint64 nanos);
CelValue cel_value_optional_none(void);
CelValue cel_value_optional_of(CelActivation *act, CelValue inner);

/* New string in the activation's arena (copies @len bytes). */
CelValue cel_string_new(CelActivation *act, const char *str, gsize len);
CelValue cel_bytes_new(CelActivation *act, const char *data, gsize len);
/* Error value with a formatted message in the arena. */
CelValue cel_errorf(CelActivation *act, const char *format, ...) G_GNUC_PRINTF(2, 3);
/* New plain list/map with room for @n elements (len = 0). */
CelList *cel_list_new(CelActivation *act, guint n);
CelMap *cel_map_new(CelActivation *act, guint n);

/* CEL equality (heterogeneous numbers equal by value); never an error. */
gboolean cel_value_equal(CelValue a, CelValue b, CelActivation *act);
/* Ordering for <,<=,>,>=: -1/0/1, or 2 when unordered (NaN), 3 when no overload. */
int cel_value_compare(CelValue a, CelValue b);
/* UTF-8 validation that, unlike g_utf8_validate_len(), accepts NUL bytes. */
gboolean cel_utf8_validate(const char *s, gsize len, const char **bad);
/* Number of code points of a UTF-8 string. */
gsize cel_utf8_length(const char *s, gsize len);
/* Formats a double as cel-go's string(double) does (Go 'g', shortest). */
void cel_format_double(GString *out, double d);

/* ---------------------------------------------------------------------- */
/* functions */

typedef CelValue (*CelFunc)(CelActivation *act, const CelValue *args, guint nargs);
/* Runtime cost of one call (cel-go's actual cost), given the arguments and result. */
typedef guint64 (*CelCostFn)(const CelValue *args, guint nargs, CelValue result);

enum {
	CEL_GLOBAL = 0,
	CEL_RECEIVER = 1,
};

#define CEL_MAX_PARAMS 4

typedef struct {
	const char *function;  /* name as written: "startsWith", "_+_", "quantity" */
	const char *id;        /* unique overload id */
	int style;             /* CEL_GLOBAL or CEL_RECEIVER */
	const char *signature; /* "string, string -> bool" (receiver first) */
	CelFunc impl;
	CelCostFn cost;
} CelOverload;

/* A parsed overload, as the checker and the evaluator see it. */
typedef struct {
	const CelOverload *def;
	guint nparams;
	const CelType *params[CEL_MAX_PARAMS];
	const CelType *result;
	gboolean has_type_params;
} CelOverloadDecl;

/* Adds @n overloads to @self. Aborts (programming error) on a bad signature. */
void cel_env_add_overloads(CelEnv *self, const CelOverload *overloads, guint n);
/* Checked-time declaration of a function from type_env data (no implementation). */
gboolean cel_env_declare_function(CelEnv *self,
                                  const char *name,
                                  const char *id,
                                  gboolean receiver,
                                  const CelType *const *params,
                                  guint nparams,
                                  const CelType *result,
                                  GError **error);

/* ---------------------------------------------------------------------- */
/* AST */

typedef enum {
	CEL_AST_CONST,
	CEL_AST_IDENT,
	CEL_AST_SELECT,
	CEL_AST_CALL,
	CEL_AST_LIST,
	CEL_AST_MAP,
	CEL_AST_STRUCT,
	CEL_AST_COMPREHENSION,
	CEL_AST_HOST, /* installed by CelEnv.rewrite: evaluated by host.eval */
} CelAstKind;

/* What an IDENT resolved to. */
typedef enum {
	CEL_REF_NONE,  /* unresolved (disable_check): runtime "no such attribute" */
	CEL_REF_VAR,   /* environment variable: slot */
	CEL_REF_LOCAL, /* comprehension variable: local */
	CEL_REF_CONST, /* type name or folded constant: constant */
} CelRefKind;

/* Calls the evaluator treats specially (non-strict or structural). */
typedef enum {
	CEL_SPECIAL_NONE,
	CEL_SPECIAL_AND,
	CEL_SPECIAL_OR,
	CEL_SPECIAL_COND,
	CEL_SPECIAL_NOT_STRICTLY_FALSE,
	CEL_SPECIAL_INDEX,
	CEL_SPECIAL_OPT_SELECT, /* _?._ */
	CEL_SPECIAL_OPT_INDEX,  /* _[?_] */
	CEL_SPECIAL_EQ,
	CEL_SPECIAL_NE,
	CEL_SPECIAL_IN,
	CEL_SPECIAL_OR_VALUE, /* optional or()/orValue(): lazy argument */
	CEL_SPECIAL_OR_OPT,
	CEL_SPECIAL_NOT, /* !_ on one argument: inlined */
} CelSpecial;

typedef struct CelAst CelAst;

struct CelAst {
	CelAstKind kind;
	guint32 id;
	guint32 offset;      /* byte offset in the source, for positions */
	const CelType *type; /* after checking; dyn otherwise */
	union {
		CelValue constant;
		struct {
			const char *name; /* interned; may be qualified after resolution */
			CelRefKind ref;
			guint index; /* slot or local */
			CelValue constant;
		} ident;
		struct {
			CelAst *operand;
			const char *field;  /* interned */
			gboolean test_only; /* has() */
			guint32 field_len;
		} select;
		struct {
			CelAst *target;       /* receiver, or NULL */
			const char *function; /* interned */
			CelAst **args;
			guint nargs;
			CelSpecial special;
			const CelOverloadDecl **overloads; /* candidates after resolution */
			guint noverloads;
			/* set when the checker proved the only overload applies to any
			 * runtime arguments: called without matching */
			CelFunc direct;
		} call;
		struct {
			CelAst **elems;
			guint n;
			guint8 *optional; /* per element, or NULL */
		} list;
		struct {
			CelAst **keys;
			CelAst **values;
			guint n;
			guint8 *optional;
		} map;
		struct {
			const char *message;
			const char **fields;
			CelAst **values;
			guint n;
			guint8 *optional;
		} strukt;
		struct {
			const char *iter_var;  /* interned */
			const char *iter_var2; /* NULL unless two-variable */
			const char *accu_var;
			CelAst *iter_range;
			CelAst *accu_init;
			CelAst *loop_cond;
			CelAst *loop_step;
			CelAst *result;
			guint iter_local, iter2_local, accu_local;
		} comp;
		struct {
			CelValue (*eval)(CelActivation *act, const CelAst *self);
			gpointer data;
			CelAst *original; /* the subtree replaced (for printing/cost) */
		} host;
	};
};

typedef struct {
	const char *source; /* a copy in the arena; may hold NULs inside literals */
	gsize len;
	BaseArena arena; /* every node and constant */
	CelAst *root;
	guint next_id;
	/* offsets of line starts, for line:column */
	GArray *line_starts;
	/* macro call offsets by node id are not kept: positions are per node */
} CelAstTree;

/* Parses @source into @tree (initialised by the call). FALSE with @error. */
gboolean
cel_parse(CelAstTree *tree, const char *source, gsize len, gboolean macros, GError **error);
void cel_ast_tree_clear(CelAstTree *tree);
/* 1-based line and column (in code points, as cel-go) of @offset. */
void cel_ast_tree_position(const CelAstTree *tree, guint32 offset, guint *line, guint *column);
/* Formats a cel-go style error at @offset into @error. */
void cel_ast_tree_error(
        const CelAstTree *tree, guint32 offset, GError **error, int code, const char *format, ...)
        G_GNUC_PRINTF(5, 6);
/* Debug printer: an S-expression-like dump of the tree (for tests). */
void cel_ast_print(GString *out, const CelAst *node);

const CelAst *cel_program_get_ast(const CelProgram *self);

/* ---------------------------------------------------------------------- */
/* environment and program internals */

typedef struct {
	const char *name; /* interned, qualified */
	const CelType *type;
	guint slot;
} CelVarDecl;

typedef struct {
	const char *name;     /* interned */
	GPtrArray *overloads; /* CelOverloadDecl*, owned */
} CelFuncDecl;

/*
 * Hooks an environment owner (the DRA env) may install.
 *
 * rewrite: called once per node, bottom-up, after checking. Return @node
 * unchanged, or a replacement (e.g. a CEL_AST_HOST node allocated with
 * base_arena_alloc(arena, sizeof(CelAst)), keeping id/offset/type).
 *
 * observe: when set, called after every node is evaluated, with the node,
 * the argument values of a CALL (NULL otherwise) and the result; it adds to
 * act->cost as cel-go's interpreter/runtimecost.go would. When act->cost
 * exceeds act->cost_limit (if non-zero), evaluation stops with the error
 * "operation cancelled: actual cost limit exceeded".
 */
typedef struct {
	/* after a successful check, before rewrite and folding (cel-go's checked
	 * AST); FALSE with @error fails the compile */
	gboolean (*checked)(CelEnv *env, CelAstTree *tree, gpointer data, GError **error);
	CelAst *(*rewrite)(CelEnv *env, CelAst *node, BaseArena *arena, gpointer data);
	void (*observe)(CelActivation *act,
	                const CelAst *node,
	                const CelValue *args,
	                guint nargs,
	                CelValue result,
	                gpointer data);
	gpointer data;
} CelEnvHooks;

struct CelEnv {
	gint ref_count;
	CelEnvHooks hooks;
	char *container;
	gboolean homogeneous;
	gboolean disable_macros;
	gboolean disable_check;
	guint64 cost_limit;
	GHashTable *vars;  /* name -> CelVarDecl* */
	GHashTable *funcs; /* name -> CelFuncDecl* */
	guint nslots;
	BaseArena arena; /* decls */
};

CelFuncDecl *cel_env_lookup_function(const CelEnv *self, const char *name);
const CelVarDecl *cel_env_lookup_var(const CelEnv *self, const char *name);

struct CelProgram {
	CelEnv *env;
	CelAstTree tree;
	guint nlocals;
	const CelType *type;
};

struct CelActivation {
	CelEnv *env;
	BaseArena scratch;
	BaseArena *alloc; /* where cel_activation_alloc() takes memory: &scratch */
	CelValue *vars;
	guint nvars;
	CelValue *locals;
	guint nlocals;
	guint64 cost;
	guint64 cost_limit;
	gboolean cancelled; /* cost limit hit: every node now returns the error */
	gboolean observing; /* env->hooks.observe is set: the slow evaluation path */
	guint depth;
};

/* One binding of the unifier's substitution: type parameter @param stands for @type. */
typedef struct {
	const CelType *param;
	const CelType *type;
} CelCheckBinding;

/* The checker's state, shared by cel_check.c (names, nodes) and cel_check_unify.c (types). */
typedef struct {
	CelEnv *env;
	CelAstTree *tree;
	gboolean report;
	GError **error;
	GArray *subst;    /* CelCheckBinding, append-only; rollback by truncation */
	GArray *scope;    /* comprehension locals in scope (cel_check.c) */
	GPtrArray *nodes; /* every checked node, for the final substitution */
	guint nlocals;
	guint fresh;
} CelChecker;

/* cel_check_unify.c: the substitution and the type relations it decides. */
gboolean cel_check__is_dyn(const CelType *t);
/* @t with its bound parameters followed to their binding. */
const CelType *cel_check__resolve(CelChecker *c, const CelType *t);
/* Applies the substitution; free parameters become dyn when @to_dyn. */
const CelType *cel_check__substitute(CelChecker *c, const CelType *t, gboolean to_dyn);
/* Can a @t2 be used where @t1 is expected; binds parameters, keeps them even on failure. */
gboolean cel_check__assignable_raw(CelChecker *c, const CelType *t1, const CelType *t2);
/* As cel_check__assignable_raw, but rolls the bindings back on failure. */
gboolean cel_check__assignable(CelChecker *c, const CelType *t1, const CelType *t2);
const CelType *cel_check__most_general(CelChecker *c, const CelType *a, const CelType *b);
const CelType *cel_check__fresh_param(CelChecker *c);
/* Renames an overload's type parameters to fresh ones (per call site). */
const CelType *cel_check__instantiate(
        CelChecker *c, const CelType *t, const CelType **from, const CelType **to, guint *n);

/* Checker: resolves names and types in @tree (always run; when @report is
 * FALSE type errors are not reported and unresolved names stay NONE). */
gboolean cel_check(CelEnv *env, CelAstTree *tree, gboolean report, guint *nlocals, GError **error);
/* Constant folding after checking. */
void cel_program_fold(CelProgram *self);
CelValue cel_eval_node(CelActivation *act, const CelAst *node);
/* Calls @decl's implementation with runtime type checks; no matching overload → error. */
CelValue
cel_eval_dispatch(CelActivation *act, const CelAst *call, const CelValue *args, guint nargs);
gboolean
cel_overload_matches_values(const CelOverloadDecl *decl, const CelValue *args, guint nargs);

/* Built-in libraries (cel_lib_std.c, cel_lib_strings.c, cel_lib_time.c, cel_lib_opt.c). */
void cel_lib_std_register(CelEnv *env);
void cel_lib_strings_register(CelEnv *env);
void cel_lib_time_register(CelEnv *env);
void cel_lib_optional_register(CelEnv *env);

G_END_DECLS
