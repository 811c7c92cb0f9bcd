/*
 * sweep_spec-private.h: what the files of the sweep's spec share (sweep_spec.c
 * reads the Sweep file, sweep_spec_args.c the command line's --vary and
 * --seeds): one way to add a parameter and a value, whichever way they came.
 */
#pragma once

#include "k8s_yaml.h"
#include "sweep.h"

G_BEGIN_DECLS

/* Adds a parameter for @path written at @pos: NULL with @message (transfer full) when
 * the path does not parse, is varied already, or there are SWEEP_MAX_PARAMS. */
SweepParam *sweep_spec__add_param(SweepSpec *self, const char *path, K8sPos pos, char **message);

/* Adds @value (kept as its flow text) written at @pos: FALSE with @message (transfer
 * full) when the parameter has it already or has SWEEP_MAX_VALUES. */
gboolean
sweep_spec__add_value(SweepParam *param, const K8sYamlNode *value, K8sPos pos, char **message);

G_END_DECLS
