/*
 * k8s_quantity-private.h: the exact decimal shared by k8s_quantity.c (parsing, text)
 * and k8s_quantity_math.c (comparison, arithmetic). Not part of the module's API.
 */
#pragma once

#include <glib.h>

#include "k8s_quantity.h"

G_BEGIN_DECLS

__extension__ typedef unsigned __int128 QtyU128;

/* An exact decimal: (neg ? -1 : 1) * mag * 10^exp. Zero has mag 0, neg FALSE. */
typedef struct {
	QtyU128 mag;
	gint64 exp;
	gboolean neg;
} QtyDec;

#define QTY_INT64_MAX_U ((QtyU128)G_MAXINT64)

/* The value of @q (either form) as an exact decimal. */
QtyDec qty_dec_of(const K8sQuantity *q);
/* Strips trailing zeros of the magnitude into the exponent. */
void qty_dec_normalize(QtyDec *d);
int qty_dec_cmp(const QtyDec *a, const QtyDec *b);
/* mag * 10^n; FALSE on 128-bit overflow. */
gboolean qty_u128_mul_pow10(QtyU128 *mag, guint64 n);
guint qty_u128_digits(QtyU128 v);
/* Writes the decimal digits of @v (no sign, no NUL); returns their count (<= 39). */
guint qty_u128_format(QtyU128 v, char *out);
/* Stores @d as @q's slow form with upstream's inf.Dec scale @dec_scale; FALSE if the
 * exponent does not fit (the quantity is then unchanged). */
gboolean qty_set_slow(K8sQuantity *q, const QtyDec *d, gint32 dec_scale);
/* Rounds @d to a multiple of 10^@scale, away from zero; @exact reports no loss. */
QtyDec qty_dec_round_up(const QtyDec *d, gint64 scale, gboolean *exact);

G_END_DECLS
