/*
 * cel_lib_regex.c: regular expressions for CEL, with Go regexp (RE2) semantics.
 *
 * The Kubernetes regex library (k8s.io/apiserver/pkg/cel/library/regex.go: find, findAll)
 * and, when the core has not registered it, the standard `matches`. Patterns that are
 * constants are compiled once, when the program is prepared (cel-go's OptimizeRegex does
 * the same), by cel_regex_rewrite(); other patterns go through a small process-wide cache
 * so a steady stream of evaluations allocates nothing.
 */
#include <string.h>

#include "cel_lib_k8s.h"

/* ---- compiled-pattern cache for patterns only known at run time ---- */

#define REGEX_CACHE_SIZE 32

typedef struct {
	char *pattern;
	gsize len;
	CelRegex *re;
	guint64 last_use;
} RegexCacheEntry;

static GMutex regex_cache_lock;
static RegexCacheEntry regex_cache[REGEX_CACHE_SIZE];
static guint64 regex_cache_clock;

/*
 * Returns the compiled @pattern, or NULL with Go's message in @err. Entries are never freed
 * while in use: evaluation holds no lock while matching, so an entry is only replaced when it
 * is the least recently used of REGEX_CACHE_SIZE (callers finish long before that wraps).
 */
static const CelRegex *
regex_cache_get(const char *pattern, gsize len, char *err)
{
	RegexCacheEntry *victim = &regex_cache[0];
	const CelRegex *found = NULL;

	g_mutex_lock(&regex_cache_lock);
	regex_cache_clock++;
	for (guint i = 0; i < REGEX_CACHE_SIZE; i++) {
		RegexCacheEntry *e = &regex_cache[i];
		if (e->re != NULL && e->len == len && memcmp(e->pattern, pattern, len) == 0) {
			e->last_use = regex_cache_clock;
			found = e->re;
			break;
		}
		if (e->last_use < victim->last_use) {
			victim = e;
		}
	}
	if (found == NULL) {
		CelRegex *re = cel_regex_compile(pattern, len, err);
		if (re != NULL) {
			cel_regex_free(victim->re);
			g_free(victim->pattern);
			victim->pattern = g_memdup2(pattern, len);
			victim->len = len;
			victim->re = re;
			victim->last_use = regex_cache_clock;
			found = re;
		}
	}
	g_mutex_unlock(&regex_cache_lock);
	return found;
}

/* ---- functions ---- */

static CelValue
regex_matches_with(CelActivation *act, const CelRegex *re, CelValue text)
{
	return cel_value_bool(cel_regex_match(re, text.str, text.aux));
}

static CelValue
regex_find_with(CelActivation *act, const CelRegex *re, CelValue text)
{
	gsize start, end;
	if (!cel_regex_find(re, text.str, text.aux, 0, &start, &end)) {
		return cel_value_string("", 0);
	}
	return cel_value_string(text.str + start, end - start);
}

typedef struct {
	CelActivation *act;
	CelList *list;
	guint cap;
} FindAllState;

static gboolean
find_all_collect(const char *match, gsize len, gpointer user_data)
{
	FindAllState *st = user_data;
	if (st->list->len == st->cap) {
		/* Grow inside the arena: the old array is simply abandoned until reset. */
		guint cap = st->cap * 2;
		CelValue *items = cel_activation_alloc(st->act, cap * sizeof(CelValue));
		memcpy(items, st->list->items, st->list->len * sizeof(CelValue));
		st->list->items = items;
		st->list->cap = cap;
		st->cap = cap;
	}
	st->list->items[st->list->len++] = cel_value_string(match, len);
	return TRUE;
}

static CelValue
regex_find_all_with(CelActivation *act, const CelRegex *re, CelValue text, gint64 limit)
{
	FindAllState st = { act, cel_list_new(act, 8), 8 };
	if (limit != 0) {
		cel_regex_find_all(re, text.str, text.aux, limit < 0 ? -1 : limit, find_all_collect,
		                   &st);
	}
	return cel_value_list(st.list);
}

/* The pattern argument's compiled form, or an error value. */
static gboolean
regex_arg(CelActivation *act, CelValue pattern, const CelRegex **re, CelValue *error)
{
	char err[CEL_K8S_ERRBUF];
	*re = regex_cache_get(pattern.str, pattern.aux, err);
	if (*re == NULL) {
		*error = cel_errorf(act, "%s", err);
		return FALSE;
	}
	return TRUE;
}

static CelValue
regex_matches(CelActivation *act, const CelValue *args, guint nargs)
{
	const CelRegex *re;
	CelValue error;
	if (!regex_arg(act, args[1], &re, &error)) {
		return error;
	}
	return regex_matches_with(act, re, args[0]);
}

static CelValue
regex_find(CelActivation *act, const CelValue *args, guint nargs)
{
	const CelRegex *re;
	CelValue error;
	if (!regex_arg(act, args[1], &re, &error)) {
		return error;
	}
	return regex_find_with(act, re, args[0]);
}

static CelValue
regex_find_all(CelActivation *act, const CelValue *args, guint nargs)
{
	const CelRegex *re;
	CelValue error;
	if (!regex_arg(act, args[1], &re, &error)) {
		return error;
	}
	return regex_find_all_with(act, re, args[0], nargs > 2 ? args[2].i : -1);
}

static const CelOverload regex_k8s_overloads[] = {
	{ "find", "string_find_string", CEL_RECEIVER, "string, string -> string", regex_find,
	  NULL },
	{ "findAll", "string_find_all_string", CEL_RECEIVER, "string, string -> list(string)",
	  regex_find_all, NULL },
	{ "findAll", "string_find_all_string_int", CEL_RECEIVER,
	  "string, string, int -> list(string)", regex_find_all, NULL },
};

static const CelOverload regex_matches_overloads[] = {
	{ "matches", "matches", CEL_GLOBAL, "string, string -> bool", regex_matches, NULL },
	{ "matches", "matches_string", CEL_RECEIVER, "string, string -> bool", regex_matches,
	  NULL },
};

void
cel_lib_regex_register(CelEnv *env)
{
	cel_env_add_overloads(env, regex_k8s_overloads, G_N_ELEMENTS(regex_k8s_overloads));
}

void
cel_lib_regex_register_matches(CelEnv *env)
{
	cel_env_add_overloads(env, regex_matches_overloads, G_N_ELEMENTS(regex_matches_overloads));
}

/* ---- compile-time preparation of constant patterns ---- */

typedef enum {
	REGEX_OP_MATCHES,
	REGEX_OP_FIND,
	REGEX_OP_FIND_ALL,
} RegexOp;

typedef struct {
	RegexOp op;
	CelRegex *re;       /* owned by the process-wide list below */
	CelAst *text;       /* the string operand */
	CelAst *limit;      /* findAll's n, or NULL */
	guint64 regex_cost; /* ceil(len(pattern) * RegexStringLengthCostFactor) */
} RegexHost;

/* Compiled constant patterns live as long as the process (programs share them). */
static GMutex regex_const_lock;
static GHashTable *regex_const; /* pattern (owned) -> CelRegex* */

static CelRegex *
regex_const_get(const char *pattern, gsize len)
{
	char err[CEL_K8S_ERRBUF];
	g_autofree char *key = g_strndup(pattern, len);
	CelRegex *re;

	if (strlen(key) != len) {
		return NULL; /* a NUL inside: let the runtime path report it */
	}
	g_mutex_lock(&regex_const_lock);
	if (regex_const == NULL) {
		regex_const = g_hash_table_new(g_str_hash, g_str_equal);
	}
	re = g_hash_table_lookup(regex_const, key);
	/* Bounded: past this many distinct patterns, new ones take the run-time cache path. */
	if (re == NULL && g_hash_table_size(regex_const) < 4096) {
		re = cel_regex_compile(pattern, len, err);
		if (re != NULL) {
			g_hash_table_insert(regex_const, g_steal_pointer(&key), re);
		}
	}
	g_mutex_unlock(&regex_const_lock);
	return re;
}

static guint64
ceil_factor(guint64 n, double factor)
{
	double v = (double)n * factor;
	guint64 c = (guint64)v;
	return (double)c < v ? c + 1 : c;
}

static CelValue
regex_host_eval(CelActivation *act, const CelAst *self)
{
	const RegexHost *h = self->host.data;
	CelValue text = cel_eval_node(act, h->text);
	CelValue limit = { 0 };

	if (cel_value_is_error(text)) {
		return text;
	}
	if (h->limit != NULL) {
		limit = cel_eval_node(act, h->limit);
		if (cel_value_is_error(limit)) {
			return limit;
		}
	}
	if (text.kind != CEL_KIND_STRING || (h->limit != NULL && limit.kind != CEL_KIND_INT)) {
		return cel_value_error("no such overload");
	}
	/* The call's own cost, as cel-go's and the k8s library's CallCost compute it. */
	guint64 len = cel_utf8_length(text.str, text.aux);
	act->cost += ceil_factor(1 + len, 0.1) * h->regex_cost;

	switch (h->op) {
	case REGEX_OP_MATCHES:
		return regex_matches_with(act, h->re, text);
	case REGEX_OP_FIND:
		return regex_find_with(act, h->re, text);
	case REGEX_OP_FIND_ALL:
	default:
		return regex_find_all_with(act, h->re, text, h->limit != NULL ? limit.i : -1);
	}
}

CelAst *
cel_regex_rewrite(CelAst *node, BaseArena *arena)
{
	RegexOp op;
	CelAst *text, *pattern, *limit = NULL;

	if (node->kind != CEL_AST_CALL || node->call.noverloads != 1) {
		return node;
	}
	const char *id = node->call.overloads[0]->def->id;
	if (strcmp(id, "matches_string") == 0 || strcmp(id, "matches") == 0) {
		op = REGEX_OP_MATCHES;
	} else if (strcmp(id, "string_find_string") == 0) {
		op = REGEX_OP_FIND;
	} else if (strcmp(id, "string_find_all_string") == 0 ||
	           strcmp(id, "string_find_all_string_int") == 0) {
		op = REGEX_OP_FIND_ALL;
	} else {
		return node;
	}
	/* Normalise receiver and global call forms to (text, pattern[, n]). */
	CelAst *all[3];
	guint n = 0;
	if (node->call.target != NULL) {
		all[n++] = node->call.target;
	}
	for (guint i = 0; i < node->call.nargs && n < 3; i++) {
		all[n++] = node->call.args[i];
	}
	if (n < 2) {
		return node;
	}
	text = all[0];
	pattern = all[1];
	if (n == 3) {
		limit = all[2];
	}
	if (pattern->kind != CEL_AST_CONST || pattern->constant.kind != CEL_KIND_STRING) {
		return node;
	}
	CelRegex *re = regex_const_get(pattern->constant.str, pattern->constant.aux);
	if (re == NULL) {
		return node; /* invalid: reported by cel_regex_validate(), or fails at run time */
	}
	RegexHost *h = base_arena_alloc(arena, sizeof *h);
	h->op = op;
	h->re = re;
	h->text = text;
	h->limit = limit;
	h->regex_cost =
	        ceil_factor(cel_utf8_length(pattern->constant.str, pattern->constant.aux), 0.25);

	CelAst *host = base_arena_alloc(arena, sizeof *host);
	*host = *node;
	host->kind = CEL_AST_HOST;
	host->host.eval = regex_host_eval;
	host->host.data = h;
	host->host.original = node;
	return host;
}

gboolean
cel_regex_host_is(const CelAst *node)
{
	return node->kind == CEL_AST_HOST && node->host.eval == regex_host_eval;
}

gboolean
cel_regex_host_matches(const CelAst *node,
                       const CelAst **text,
                       const CelRegex **re,
                       guint64 *regex_cost)
{
	if (!cel_regex_host_is(node)) {
		return FALSE;
	}
	const RegexHost *h = node->host.data;
	if (h->op != REGEX_OP_MATCHES) {
		return FALSE;
	}
	*text = h->text;
	*re = h->re;
	*regex_cost = h->regex_cost;
	return TRUE;
}

/* cel-go ValidateRegexLiterals: a constant pattern of `matches` must compile. */
gboolean
cel_regex_validate(const CelAstTree *tree, const CelAst *node, GError **error)
{
	char err[CEL_K8S_ERRBUF];

	if (node == NULL) {
		return TRUE;
	}
	switch (node->kind) {
	case CEL_AST_CALL: {
		gboolean is_matches = strcmp(node->call.function, "matches") == 0;
		const CelAst *pattern = NULL;
		if (is_matches) {
			pattern = node->call.target != NULL
			                  ? (node->call.nargs > 0 ? node->call.args[0] : NULL)
			                  : (node->call.nargs > 1 ? node->call.args[1] : NULL);
		}
		if (pattern != NULL && pattern->kind == CEL_AST_CONST &&
		    pattern->constant.kind == CEL_KIND_STRING) {
			CelRegex *re = cel_regex_compile(pattern->constant.str,
			                                 pattern->constant.aux, err);
			if (re == NULL) {
				cel_ast_tree_error(tree, pattern->offset, error, CEL_ERROR_TYPE,
				                   "invalid matches argument");
				return FALSE;
			}
			cel_regex_free(re);
		}
		if (!cel_regex_validate(tree, node->call.target, error)) {
			return FALSE;
		}
		for (guint i = 0; i < node->call.nargs; i++) {
			if (!cel_regex_validate(tree, node->call.args[i], error)) {
				return FALSE;
			}
		}
		return TRUE;
	}
	case CEL_AST_SELECT:
		return cel_regex_validate(tree, node->select.operand, error);
	case CEL_AST_LIST:
		for (guint i = 0; i < node->list.n; i++) {
			if (!cel_regex_validate(tree, node->list.elems[i], error)) {
				return FALSE;
			}
		}
		return TRUE;
	case CEL_AST_MAP:
		for (guint i = 0; i < node->map.n; i++) {
			if (!cel_regex_validate(tree, node->map.keys[i], error) ||
			    !cel_regex_validate(tree, node->map.values[i], error)) {
				return FALSE;
			}
		}
		return TRUE;
	case CEL_AST_STRUCT:
		for (guint i = 0; i < node->strukt.n; i++) {
			if (!cel_regex_validate(tree, node->strukt.values[i], error)) {
				return FALSE;
			}
		}
		return TRUE;
	case CEL_AST_COMPREHENSION:
		return cel_regex_validate(tree, node->comp.iter_range, error) &&
		       cel_regex_validate(tree, node->comp.accu_init, error) &&
		       cel_regex_validate(tree, node->comp.loop_cond, error) &&
		       cel_regex_validate(tree, node->comp.loop_step, error) &&
		       cel_regex_validate(tree, node->comp.result, error);
	case CEL_AST_HOST:
		return cel_regex_validate(tree, node->host.original, error);
	default:
		return TRUE;
	}
}
