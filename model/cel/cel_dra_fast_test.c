/*
 * cel_dra_fast_test.c: the fast path's test form, for evaluation without cost accounting.
 *
 * cel_dra_fast.c compiles a selector to a tree and evaluates it over a device view; this
 * file compiles that tree a second time, to leaves tested in place on the device's compact
 * record (cel_dra_rec.c), and runs them. Like the tree, it only takes the happy path and
 * answers -1 where the generic evaluator must decide.
 */
#include <string.h>

#include "cel-dra-private.h"

/*
 * ---- the test path: the boolean-valued tree without cost accounting ----
 *
 * Evaluation proper (cost not requested) runs a second compiled form in which every
 * comparison of one device lookup with a constant is a leaf tested in place on the device's
 * compact record (cel_dra_rec.c): no CelValue temporaries, no recursion into the operands.
 * The slot of a lookup is found by a hint (the slot it had in the last shape met, kept in the
 * per-thread CelDraEval and verified by shape and key), so devices of one shape need no
 * search and a lookup reads one slot. A leaf answers -1 where the tree above returns FALSE,
 * so the generic evaluator still decides every unusual case.
 */

typedef enum {
	TEST_AND,
	TEST_OR,
	TEST_NOT,
	TEST_DRIVER, /* device.driver ==/!= constant: interned, so pointers compare */
	TEST_CMP,    /* lookup <rel> constant of the same kind */
	TEST_STR,    /* startsWith, endsWith, contains, matches on a string lookup */
	TEST_ORD,    /* quantity or semver order against a constant, then <rel> k_int */
	TEST_TREE,   /* anything else: the tree above */
} TestOp;

struct TestNode {
	TestOp op;
	FastOp rel; /* TEST_CMP, TEST_ORD: FAST_EQ..FAST_GE; TEST_STR: the string operation */
	const TestNode *a;
	const TestNode *b;
	const CelDraHost *host;
	CelDraHostKind lk; /* host->kind, without the indirection */
	CelDraAtom atom;   /* entry lookups: the record key */
	guint hint;        /* index into the hint array */
	CelValue k;
	const CelRegex *re;
	gboolean semver; /* TEST_ORD */
	gint64 k_int;    /* TEST_ORD */
	/* FAST_MATCHES of a pattern `^? (.*)? literal (.*)? $?`: the literal and its anchors */
	const char *lit;
	guint lit_len;
	gboolean at_start, at_end;
	const FastNode *tree;
};

static gboolean
is_entry_lookup(const FastNode *n)
{
	return n->op == FAST_LOOKUP;
}

static FastOp
rel_swap(FastOp rel)
{
	switch (rel) {
	case FAST_LT:
		return FAST_GT;
	case FAST_LE:
		return FAST_GE;
	case FAST_GT:
		return FAST_LT;
	case FAST_GE:
		return FAST_LE;
	default:
		return rel;
	}
}

static TestNode *
test_leaf(BaseArena *arena, TestOp op, const FastNode *lookup_node, guint *nleaves)
{
	TestNode *t = base_arena_alloc(arena, sizeof *t);
	memset(t, 0, sizeof *t);
	t->op = op;
	t->host = lookup_node->host;
	t->lk = t->host->kind;
	if (t->host->kind == CEL_DRA_HOST_ENTRY) {
		t->atom = cel_dra_atom(t->host->capacity, t->host->domain, t->host->id);
	}
	t->hint = (*nleaves)++ % CEL_DRA_FAST_HINTS;
	return t;
}

static const TestNode *
test_compile_compare(const FastNode *n, BaseArena *arena, guint *nleaves)
{
	const FastNode *a = n->a, *b = n->b;
	FastOp rel = n->op;

	if (is_entry_lookup(b) && a->op == FAST_CONST) {
		const FastNode *t = a;
		a = b;
		b = t;
		rel = rel_swap(rel);
	}
	if (is_entry_lookup(a) && b->op == FAST_CONST &&
	    (b->k.kind == CEL_KIND_INT || b->k.kind == CEL_KIND_UINT ||
	     b->k.kind == CEL_KIND_BOOL || b->k.kind == CEL_KIND_STRING)) {
		TestNode *t = test_leaf(arena, TEST_CMP, a, nleaves);
		t->rel = rel;
		t->k = b->k;
		if (a->host->kind == CEL_DRA_HOST_DRIVER && b->k.kind == CEL_KIND_STRING &&
		    (rel == FAST_EQ || rel == FAST_NE) && strlen(b->k.str) == b->k.aux) {
			/* drivers are interned (cel_dra_device_new); driver names are few */
			t->op = TEST_DRIVER;
			t->k.str = g_intern_string(b->k.str);
		}
		return t;
	}
	if ((a->op == FAST_QTY_CMP || a->op == FAST_SEMVER_CMP) && a->mode == CMP_VALUE &&
	    is_entry_lookup(a->a) && b->op == FAST_CONST && b->k.kind == CEL_KIND_INT) {
		TestNode *t = test_leaf(arena, TEST_ORD, a->a, nleaves);
		t->rel = rel;
		t->k = a->k;
		t->semver = a->op == FAST_SEMVER_CMP;
		t->k_int = b->k.i;
		return t;
	}
	return NULL;
}

static gboolean
literal_char(char c)
{
	/* characters that are not regexp syntax outside a character class (RE2, Go) */
	return g_ascii_isalnum(c) || c == ' ' || c == '_' || c == '-' || c == ':' || c == '/' ||
	       c == ',' || c == '=' || c == '@';
}

/*
 * Patterns of the shape `^? (.*)? literal (.*)? $?` are common (`^.*H100.*$`). Every match
 * contains the literal, and on ASCII text without a newline (where `.` matches every byte
 * and `^`/`$` are the ends of the text) the pattern is a plain prefix/suffix/contains/equal
 * test. Other texts still go to RE2, after the exact "no literal, no match" filter.
 */
static void
regex_literal_shape(TestNode *t, CelValue pattern)
{
	const char *p = pattern.str;
	guint len = pattern.kind == CEL_KIND_STRING ? pattern.aux : 0;
	gboolean caret = FALSE, dollar = FALSE, star_before = FALSE, star_after = FALSE;
	guint i = 0;

	if (i < len && p[i] == '^') {
		caret = TRUE;
		i++;
	}
	if (i + 1 < len && p[i] == '.' && p[i + 1] == '*') {
		star_before = TRUE;
		i += 2;
	}
	guint start = i;
	while (i < len && literal_char(p[i])) {
		i++;
	}
	guint end = i;
	if (i + 1 < len && p[i] == '.' && p[i + 1] == '*') {
		star_after = TRUE;
		i += 2;
	}
	if (i < len && p[i] == '$') {
		dollar = TRUE;
		i++;
	}
	if (i != len || end == start) {
		return;
	}
	t->lit = p + start;
	t->lit_len = end - start;
	t->at_start = caret && !star_before;
	t->at_end = dollar && !star_after;
}

const TestNode *
cel_dra_fast__test_compile(const FastNode *n, BaseArena *arena, guint *nleaves)
{
	const TestNode *leaf = NULL;
	TestNode *t;

	switch (n->op) {
	case FAST_AND:
	case FAST_OR:
	case FAST_NOT:
		t = base_arena_alloc(arena, sizeof *t);
		memset(t, 0, sizeof *t);
		t->op = n->op == FAST_AND ? TEST_AND : (n->op == FAST_OR ? TEST_OR : TEST_NOT);
		t->a = cel_dra_fast__test_compile(n->a, arena, nleaves);
		t->b = n->op == FAST_NOT ? NULL : cel_dra_fast__test_compile(n->b, arena, nleaves);
		return t;
	case FAST_EQ:
	case FAST_NE:
	case FAST_LT:
	case FAST_LE:
	case FAST_GT:
	case FAST_GE:
		leaf = test_compile_compare(n, arena, nleaves);
		break;
	case FAST_STARTS:
	case FAST_ENDS:
	case FAST_CONTAINS:
	case FAST_MATCHES:
		if (is_entry_lookup(n->a)) {
			t = test_leaf(arena, TEST_STR, n->a, nleaves);
			t->rel = n->op;
			t->k = n->k;
			t->re = n->re;
			if (n->op == FAST_MATCHES) {
				regex_literal_shape(t, n->pattern);
			}
			leaf = t;
		}
		break;
	case FAST_QTY_CMP:
	case FAST_SEMVER_CMP:
		if (n->mode != CMP_VALUE && is_entry_lookup(n->a)) {
			t = test_leaf(arena, TEST_ORD, n->a, nleaves);
			t->rel = FAST_EQ;
			t->k = n->k;
			t->semver = n->op == FAST_SEMVER_CMP;
			t->k_int = n->mode == CMP_GT ? 1 : -1;
			leaf = t;
		}
		break;
	default:
		break;
	}
	if (leaf != NULL) {
		return leaf;
	}
	t = base_arena_alloc(arena, sizeof *t);
	memset(t, 0, sizeof *t);
	t->op = TEST_TREE;
	t->tree = n;
	return t;
}

static const CelDraSlot bool_slots[2] = {
	{ .v = { .kind = CEL_DRA_SLOT_BOOL, .b = FALSE } },
	{ .v = { .kind = CEL_DRA_SLOT_BOOL, .b = TRUE } },
};

G_GNUC_NO_INLINE static const CelDraSlot *
test_lookup_search(const TestNode *t, const CelDraRec *rec, CelDraHint *h)
{
	gint slot = cel_dra_shape_find(rec->shape, t->atom);
	if (rec->shape->shared) {
		h->shape = rec->shape;
		h->atom = t->atom;
		h->slot = slot;
	}
	return slot >= 0 ? &rec->slots[slot] : NULL;
}

/* The slot of a leaf's lookup, or NULL when the key is missing. */
static inline const CelDraSlot *
test_lookup(const TestNode *t, const CelDraRec *rec, CelDraHint *hints)
{
	switch (t->lk) {
	case CEL_DRA_HOST_DRIVER:
		return &rec->shape->driver_slot;
	case CEL_DRA_HOST_MULTI:
		return &bool_slots[rec->allow_multiple_allocations != 0];
	default: {
		CelDraHint *h = &hints[t->hint];
		if (G_LIKELY(h->shape == rec->shape && h->atom == t->atom)) {
			return h->slot >= 0 ? &rec->slots[h->slot] : NULL;
		}
		return test_lookup_search(t, rec, h);
	}
	}
}

/* The bytes of a string slot; FALSE for other kinds. */
static inline gboolean
slot_str(const CelDraSlot *s, const char **p, guint *n)
{
	if (s->kind == CEL_DRA_SLOT_SSTR) {
		*p = s->sstr.s;
		*n = s->sstr.len;
		return TRUE;
	}
	if (s->kind == CEL_DRA_SLOT_STR) {
		*p = s->v.str;
		*n = s->v.len;
		return TRUE;
	}
	return FALSE;
}

/* @rel (FAST_EQ..FAST_GE) of an order @c in {-1, 0, 1}: bit c+1 of the relation's mask. */
static inline int
test_rel(FastOp rel, int c)
{
	static const guint8 masks[] = { 2, 5, 1, 3, 4, 6 }; /* ==, !=, <, <=, >, >= */
	return (masks[rel - FAST_EQ] >> (c + 1)) & 1;
}

/* Byte equality; short strings (most attribute values) without a call. */
static inline gboolean
bytes_equal(const char *a, const char *b, guint n)
{
	if (a == b) {
		return TRUE;
	}
	if (n > 16) {
		return memcmp(a, b, n) == 0;
	}
	for (guint i = 0; i < n; i++) {
		if (a[i] != b[i]) {
			return FALSE;
		}
	}
	return TRUE;
}

static int
test_cmp(const TestNode *t, const CelDraSlot *v)
{
	const CelValue *k = &t->k;
	const char *p;
	guint n;

	switch (k->kind) {
	case CEL_KIND_INT:
		if (v->kind != CEL_DRA_SLOT_INT) {
			return -1;
		}
		return test_rel(t->rel, (v->v.i > k->i) - (v->v.i < k->i));
	case CEL_KIND_BOOL:
		if (v->kind != CEL_DRA_SLOT_BOOL) {
			return -1;
		}
		return test_rel(t->rel, (v->v.b != 0) - (k->b != 0));
	case CEL_KIND_STRING:
		if (!slot_str(v, &p, &n)) {
			return -1;
		}
		if (t->rel == FAST_EQ || t->rel == FAST_NE) {
			gboolean eq = n == k->aux && bytes_equal(p, k->str, n);
			return eq == (t->rel == FAST_EQ);
		}
		return test_rel(t->rel, cel_dra_fast__cmp_strings(cel_value_string(p, n), *k));
	default: /* uint: device values never are; the generic evaluator decides */
		return -1;
	}
}

/* No byte >= 0x80 and no newline: eight bytes at a time (the "has a zero byte" trick). */
static gboolean
plain_ascii(const char *s, guint n)
{
	const guint64 ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	guint64 bad = 0;
	guint i = 0;

	for (; i + 8 <= n; i += 8) {
		guint64 w, nl;
		memcpy(&w, s + i, 8);
		nl = w ^ (ones * '\n'); /* a zero byte where w has a newline */
		bad |= (w & highs) | ((nl - ones) & ~nl & highs);
	}
	for (; i < n; i++) {
		bad |= (guchar)s[i] >= 0x80 || s[i] == '\n';
	}
	return bad == 0;
}

G_GNUC_NO_INLINE static int
test_regex_literal(const TestNode *t, const char *s, guint n)
{
	guint m = t->lit_len;
	const char *p = s, *end = s + n;
	gboolean found = FALSE;

	while (!found && (gsize)(end - p) >= m &&
	       (p = memchr(p, t->lit[0], (gsize)(end - p) - m + 1)) != NULL) {
		found = memcmp(p, t->lit, m) == 0;
		p++;
	}
	if (!found) {
		return 0; /* every match contains the literal */
	}
	if (!plain_ascii(s, n)) {
		return cel_regex_match(t->re, s, n);
	}
	if (t->at_start && t->at_end) {
		return n == m;
	}
	if (t->at_start) {
		return memcmp(s, t->lit, m) == 0;
	}
	if (t->at_end) {
		return memcmp(s + n - m, t->lit, m) == 0;
	}
	return 1;
}

static int
test_str(const TestNode *t, const CelDraSlot *v)
{
	const CelValue *k = &t->k;
	const char *p;
	guint n;

	if (!slot_str(v, &p, &n)) {
		return -1;
	}
	switch (t->rel) {
	case FAST_STARTS:
		return n >= k->aux && bytes_equal(p, k->str, k->aux);
	case FAST_ENDS:
		return n >= k->aux && bytes_equal(p + n - k->aux, k->str, k->aux);
	case FAST_CONTAINS:
		return k->aux == 0 || g_strstr_len(p, n, k->str) != NULL;
	default:
		return t->lit != NULL ? test_regex_literal(t, p, n) : cel_regex_match(t->re, p, n);
	}
}

G_GNUC_NO_INLINE static int
test_ord(const TestNode *t, const CelDraSlot *v)
{
	int c;

	if (t->semver) {
		CelSemver small;
		const CelSemver *ver = v->v.ver;
		if (v->kind == CEL_DRA_SLOT_SEMVER3) {
			small = (CelSemver){
				v->ver3.major, v->ver3.minor, v->ver3.patch, "", 0, 0
			};
			ver = &small;
		} else if (v->kind != CEL_DRA_SLOT_SEMVER) {
			return -1;
		}
		c = cel_semver_compare(ver, cel_semver_of(t->k));
	} else {
		K8sQuantity small;
		const K8sQuantity *q = v->v.qty;
		if (v->kind == CEL_DRA_SLOT_QTY64) {
			memset(&small, 0, sizeof small);
			small.value = v->qty64.value;
			small.scale = v->qty64.scale;
			small.format = v->qty64.format;
			small.string_is_input = v->qty64.string_is_input;
			q = &small;
		} else if (v->kind != CEL_DRA_SLOT_QTY) {
			return -1;
		}
		c = k8s_quantity_cmp(q, cel_quantity_of(t->k));
	}
	gint64 d = c;
	return test_rel(t->rel, d == t->k_int ? 0 : (d < t->k_int ? -1 : 1));
}

/* A leaf: 1 true, 0 false, -1 "use the generic evaluator". */
static inline int
test_leaf_eval(const TestNode *t, const CelDraRec *rec, CelDraHint *hints)
{
	const CelDraSlot *v;

	if (t->op == TEST_DRIVER) {
		return (rec->shape->driver == t->k.str) == (t->rel == FAST_EQ);
	}
	v = test_lookup(t, rec, hints);
	if (v == NULL) {
		return -1;
	}
	switch (t->op) {
	case TEST_CMP:
		return test_cmp(t, v);
	case TEST_STR:
		return test_str(t, v);
	default:
		return test_ord(t, v);
	}
}

/* A subtree the leaves do not cover: the tree evaluator over the view (off the hot path). */
G_GNUC_NO_INLINE static int
test_tree(const TestNode *t, const CelDraDevice *dev)
{
	CelValue tmp;

	if (!cel_dra_fast__eval_node(t->tree, dev->view, &tmp, NULL) || tmp.kind != CEL_KIND_BOOL) {
		return -1;
	}
	return tmp.b;
}

/* 1 true, 0 false, -1 "use the generic evaluator". */
static int
test_eval(const TestNode *t, const CelDraDevice *dev, CelDraHint *hints)
{
	int r;

	for (;;) {
		switch (t->op) {
		case TEST_AND:
		case TEST_OR:
			r = test_eval(t->a, dev, hints);
			if (r < 0 || r == (t->op == TEST_OR)) {
				return r; /* short circuit, as cel-go */
			}
			t = t->b; /* the right operand decides */
			continue;
		case TEST_NOT:
			r = test_eval(t->a, dev, hints);
			return r < 0 ? r : !r;
		case TEST_TREE:
			return test_tree(t, dev);
		default:
			return test_leaf_eval(t, dev->rec, hints);
		}
	}
}

int
cel_dra_fast_test(const CelDraFast *fast, const CelDraDevice *device, CelDraHint *hints)
{
	if (G_UNLIKELY(device->rec == NULL)) {
		return -1;
	}
	return test_eval(fast->test, device, hints);
}
