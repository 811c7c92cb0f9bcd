/*
 * slices_gen.h: writes the benchmark input, a `v1 List` of ResourceSlices as the NVIDIA
 * DRA driver publishes them (one slice per node, 8 GPUs per slice).
 */
#pragma once

#include <stdio.h>

#include <glib.h>

/* Writes @n_slices slices of @n_devices devices each to @out. Returns bytes written. */
gsize slices_gen_write(FILE *out, guint n_slices, guint n_devices);
