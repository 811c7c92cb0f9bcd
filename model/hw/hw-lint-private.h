/*
 * hw-lint-private.h: the selector scanner shared by hw_lint.c and hw_lint_expr.c.
 *
 * drasim's lint does not evaluate CEL here (model/hw may only use model/api); it reads
 * the shapes selectors are written in: top-level && chains of `device.driver == 'x'`,
 * `device.attributes['d'].name == literal`, `has(device.attributes['d'].name)`, and
 * every `device.attributes[...]` / `device.capacity[...]` reference anywhere.
 */
#pragma once

#include "hw-private.h"

typedef enum {
	HW_REF_ATTRIBUTE,
	HW_REF_CAPACITY,
} HwRefKind;

typedef struct {
	HwRefKind kind;
	char *domain;
	char *name;
	gsize offset;     /* byte offset of "device" in the expression */
	gboolean guarded; /* inside has(...) */
} HwRef;

typedef enum {
	HW_COND_DRIVER, /* device.driver == str */
	HW_COND_EQUAL,  /* device.attributes[domain].name == literal */
	HW_COND_HAS,    /* has(device.attributes[domain].name) */
} HwCondKind;

typedef struct {
	HwCondKind kind;
	HwRefKind ref_kind;
	char *domain;
	char *name;
	HwAttrType type; /* of the literal (HW_COND_EQUAL) */
	char *str;
	gint64 num;
} HwCond;

typedef struct {
	GArray *refs;              /* HwRef */
	GArray *conds;             /* HwCond, from top-level conjuncts */
	gboolean has_top_level_or; /* conjunct analysis does not apply */
} HwSelectorScan;

void hw_selector_scan_init(HwSelectorScan *scan);
void hw_selector_scan_clear(HwSelectorScan *scan);
/* Scans @expression, appending to @scan (so class and request selectors combine). */
void hw_selector_scan(HwSelectorScan *scan, const char *expression, gboolean refs_too);
