/*
 * cluster_run.h: the kubelet's run model: GPU and MIG devices, their tenants,
 * time-slicing and MPS sharing, the speed of a pod and its progress.
 *
 * Value types with pure functions: a world describes devices with them and
 * the simulation recomputes rates from them at every bind and end, so they
 * stay transparent.
 */
#pragma once

#include <glib.h>

#include "sim.h"

G_BEGIN_DECLS

/* ========================================================== run model */

typedef enum {
	CLUSTER_SHARE_EXCLUSIVE,  /* one pod per device */
	CLUSTER_SHARE_TIME_SLICE, /* shared claim / TimeSlicing / device-plugin replicas */
	CLUSTER_SHARE_MPS,        /* CUDA MPS */
} ClusterShareMode;

typedef enum {
	CLUSTER_INTERVAL_DEFAULT,
	CLUSTER_INTERVAL_SHORT,
	CLUSTER_INTERVAL_MEDIUM,
	CLUSTER_INTERVAL_LONG,
	CLUSTER_N_INTERVALS
} ClusterTimeSliceInterval;

/* Every parameter of the run model; see docs/cluster.md for the defaults. */
typedef struct {
	SimTime time_slice[CLUSTER_N_INTERVALS]; /* length of one slice */
	SimTime context_switch;                  /* cost of one switch */
	SimTime restart_backoff_initial;         /* kubelet crash-loop backoff: 10 s */
	SimTime restart_backoff_max;             /* 300 s */
	gboolean restart_keeps_progress;         /* FALSE: an OOM-killed pod starts over */
} ClusterRunParams;

void cluster_run_params_init(ClusterRunParams *params);

/**
 * ClusterDevice:
 *
 * One physical compute unit that tenants share: a full GPU or a MIG
 * partition. @capacity is its compute in full-GPU units (profile SMs / GPU
 * SMs for MIG, 1 for a GPU). @mem_isolated: each tenant's memory is capped
 * on its own (MIG; MPS with pinned-memory limits), so co-tenants cannot OOM
 * each other.
 */
typedef struct {
	ClusterShareMode mode;
	ClusterTimeSliceInterval interval;
	double capacity;
	gint64 mem_bytes;
	gboolean mem_isolated;
} ClusterDevice;

/**
 * ClusterTenant:
 *
 * A running pod on a device. @demand: the fraction of a full GPU's compute
 * the pod uses when alone (SMs it needs / GPU SMs); @mps_threads: active
 * thread percentage 1..100 (0 = 100); @mem_limit: per-tenant memory cap
 * (MPS pinned limit, MIG profile memory), 0 = none; @start, @seq: newest
 * first for OOM victims.
 */
typedef struct {
	double demand;
	gint64 mem_bytes;
	double mps_threads;
	gint64 mem_limit;
	SimTime start;
	guint64 seq;
} ClusterTenant;

/* Fraction of time lost to context switches with @n tenants time-sliced. */
double cluster_run_switch_overhead(const ClusterRunParams *params,
                                   ClusterTimeSliceInterval interval,
                                   guint n);
/**
 * cluster_run_rates:
 * @rates: (out caller-allocates): @n speeds in [0, 1], work seconds per second
 *
 * Exclusive: min(1, capacity / demand) (the MIG rule); two or more tenants
 * on an exclusive device (a shared claim without sharing config) are
 * time-sliced with the Default interval, as NVIDIA's DRA driver configures
 * it then. Time-slicing: max-min fair sharing of capacity × (1 − overhead)
 * by demand. MPS: max-min fair sharing of capacity with each tenant capped at
 * its thread percentage.
 */
void cluster_run_rates(const ClusterRunParams *params,
                       const ClusterDevice *device,
                       const ClusterTenant *tenants,
                       guint n,
                       double *rates);
/* Aborts when @delivered (Σ speed × demand) exceeds the device's capacity. */
void cluster_run_check_delivered(const ClusterDevice *device, double delivered);
/**
 * cluster_run_oom_victims:
 * @kill: (out caller-allocates): TRUE for each tenant to kill
 *
 * A tenant over its own limit (or the device memory) dies. Without memory
 * isolation, while the survivors' memory exceeds the device's, the newest
 * dies. Returns the number killed.
 */
guint cluster_run_oom_victims(const ClusterDevice *device,
                              const ClusterTenant *tenants,
                              guint n,
                              gboolean *kill);
/* Crash-loop backoff before restart number @restarts (1 = first restart). */
SimTime cluster_run_restart_backoff(const ClusterRunParams *params, guint restarts);

/**
 * ClusterProgress:
 *
 * Work done by a running pod under a changing rate. @remaining is in µs of
 * full-speed work.
 */
typedef struct {
	double remaining;
	double rate;
	SimTime since; /* time of the last advance */
} ClusterProgress;

void cluster_progress_init(ClusterProgress *self, SimTime work, SimTime now);
/* Accounts the work done at the current rate up to @now. */
void cluster_progress_advance(ClusterProgress *self, SimTime now);
/* Advances to @now, then switches to @rate. */
void cluster_progress_set_rate(ClusterProgress *self, SimTime now, double rate);
/* When the work finishes at the current rate; SIM_TIME_NEVER at rate 0. */
SimTime cluster_progress_finish_time(const ClusterProgress *self);

G_END_DECLS
