/*
 * cluster.h: the whole face of sim/cluster, drasim's control plane.
 *
 * sim/cluster models kube-scheduler 1.34 (scheduling queue, filter and score
 * plugins, percentageOfNodesToScore, reserve/bind), the resource-claim
 * controller and the kubelet's run model (GPU sharing, OOM kills). Each part
 * is a small module with plain C inputs, so it can be tested on its own and
 * wired onto sim/engine events and model/ objects by cluster_sim.c.
 *
 * Time is SimTime (µs). Nothing here iterates a GHashTable into a result.
 *
 * Temporary umbrella: it includes every part's face. Inside sim/cluster, and
 * in tests and tools, include only the face a file needs:
 *   cluster_types.h    resources, labels, taints, tolerations, nodes, pods
 *   cluster_plugin.h   filter plugins, reasons, status, ClusterDraOps
 *   cluster_score.h    score plugins and scorers
 *   cluster_sched.h    the scheduling cycle
 *   cluster_queue.h    the scheduling queue
 *   cluster_claims.h   the resource-claim controller
 *   cluster_run.h      the run model: devices, tenants, progress
 *   cluster_sim.h      the simulation object
 *   cluster_query.h    the read-only query face of a simulation
 *   cluster_journal.h  the per-pod journal
 */
#pragma once

#include "cluster_claims.h"
#include "cluster_journal.h"
#include "cluster_plugin.h"
#include "cluster_query.h"
#include "cluster_queue.h"
#include "cluster_run.h"
#include "cluster_sched.h"
#include "cluster_score.h"
#include "cluster_sim.h"
#include "cluster_types.h"
