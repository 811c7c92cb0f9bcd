/*
 * world.h: the face of sim/world, which builds a world per mode of a
 * scenario (nodes and their published devices, DeviceClasses, the pods as the
 * mode's world asks for them) on sim/cluster and drives it: the run loop,
 * the timed events, MIG reconfiguration. What it measures is sim/measure's
 * (measure.h); the scenario it reads is sim/scenario's (scenario.h).
 */
#pragma once

#include <glib.h>

#include "k8s_diag.h"
#include "k8s_objects.h"
#include "measure.h"
#include "scenario.h"

G_BEGIN_DECLS

/* ---- a mode's world besides the manifests (world_classes.c; run and lint) ---- */

/* The "file" the DeviceClasses below are read from (their positions point into it). */
#define SCENARIO_CLASSES_FILE "<nvidia device classes>"

/**
 * scenario_chart_classes_load:
 * Appends to @set the DeviceClasses the NVIDIA DRA driver's chart installs
 * (hw_nvidia_device_classes()), except those @manifests define (theirs win).
 */
void
scenario_chart_classes_load(const K8sObjectSet *manifests, K8sObjectSet *set, K8sDiagList *diags);
/**
 * scenario_dra_classes_load:
 * Appends to @set the DeviceClasses a DRA world of @sc has besides the manifests':
 * the chart's and one KEP-5004 class mig-<profile>.nvidia.com per MIG profile of
 * the pools' GPUs, except those the manifests define.
 */
void scenario_dra_classes_load(const Scenario *sc, K8sObjectSet *set, K8sDiagList *diags);
/**
 * scenario_lint_extended:
 * For `drasim lint`: warns at each workload entry whose pod, as @mode (an extended
 * world) translates it, no node of the mode's cluster can take (world_lint.c).
 */
void scenario_lint_extended(const Scenario *sc, const ScenarioMode *mode, K8sDiagList *diags);
/**
 * scenario_mode_inventory:
 * For `drasim lint`: @mode's imported Nodes and ResourceSlices after its what-if
 * edits, as its world sees them (what the run builds). NULL when @sc has no
 * spec.cluster.objects, or when the mode cannot be built (the reason is in @diags,
 * as the run would report it). (transfer full)
 */
K8sObjectSet *
scenario_mode_inventory(const Scenario *sc, const ScenarioMode *mode, K8sDiagList *diags);

/**
 * scenario_entry_pods:
 * The manifest object of workload entry @e in @obj (NULL: none) and how many pods
 * the entry makes: its count times the object's replicas (or completions...).
 */
guint64 scenario_entry_pods(const Scenario *sc, const ScenarioEntry *e, const K8sObject **obj);

/* Progress during a run: called every so many events (CLI: a TTY line). */
typedef void (*ScenarioProgressFunc)(SimTime now, guint64 pods, guint64 events, gpointer data);

/**
 * scenario_run:
 * @seed: overrides the scenario's seed when non-zero
 * @horizon: overrides the horizon when > 0
 *
 * Runs one mode. Returns: (transfer full) (nullable): NULL with @error
 * (SCENARIO_ERROR_BUILD, diagnostics in @diags) when the mode cannot be built.
 */
ScenarioResult *scenario_run(const Scenario *self,
                             const ScenarioMode *mode,
                             guint64 seed,
                             SimTime horizon,
                             ScenarioProgressFunc progress,
                             gpointer progress_data,
                             K8sDiagList *diags,
                             GError **error);

G_END_DECLS
