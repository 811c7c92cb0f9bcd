/*
 * cluster_run.c: the kubelet's run model as pure functions. Given the pods on
 * one device (a GPU or a MIG partition) and their demands, it says how fast
 * each runs, which pods an unisolated memory overcommit kills, how long the
 * crash-loop backoff lasts, and when a pod's work completes under a rate that
 * changes whenever its co-tenants do.
 *
 * The speeds come from max-min fair sharing ("water-filling") of the device's
 * compute: processor sharing for time-slicing, spatial sharing capped by the
 * active-thread percentage for MPS. The parameters are in ClusterRunParams and
 * documented with their defaults in docs/cluster.md.
 */
#include "cluster_run.h"

#include <math.h>

void
cluster_run_params_init(ClusterRunParams *params)
{
	/* NVIDIA does not publish the slice lengths behind nvidia-smi
	 * compute-policy --set-timeslice; these are drasim's assumptions. */
	params->time_slice[CLUSTER_INTERVAL_DEFAULT] = 2 * SIM_TIME_MS;
	params->time_slice[CLUSTER_INTERVAL_SHORT] = 1 * SIM_TIME_MS;
	params->time_slice[CLUSTER_INTERVAL_MEDIUM] = 2 * SIM_TIME_MS;
	params->time_slice[CLUSTER_INTERVAL_LONG] = 4 * SIM_TIME_MS;
	params->context_switch = 50 * SIM_TIME_US;
	/* pkg/kubelet: backOffPeriod 10 s, MaxContainerBackOff 300 s */
	params->restart_backoff_initial = 10 * SIM_TIME_S;
	params->restart_backoff_max = 300 * SIM_TIME_S;
	params->restart_keeps_progress = FALSE;
}

double
cluster_run_switch_overhead(const ClusterRunParams *params,
                            ClusterTimeSliceInterval interval,
                            guint n)
{
	double slice, cs;

	if (n < 2)
		return 0.0;
	slice = (double)params->time_slice[interval];
	cs = (double)params->context_switch;
	if (slice + cs <= 0.0)
		return 0.0;
	return cs / (slice + cs);
}

/*
 * Max-min fair split of @capacity among @n claimants capped at @caps: a
 * claimant whose cap is below the equal share gets its cap, and the rest is
 * shared again. @alloc doubles as the "fixed" marker (negative = open).
 */
static void
water_fill(double capacity, const double *caps, guint n, double *alloc)
{
	guint open = n;
	gboolean changed = TRUE;

	for (guint i = 0; i < n; i++)
		alloc[i] = -1.0;
	while (open > 0 && changed) {
		double share = capacity / open;

		changed = FALSE;
		for (guint i = 0; i < n; i++) {
			if (alloc[i] < 0.0 && caps[i] <= share) {
				alloc[i] = caps[i];
				capacity -= caps[i];
				open--;
				changed = TRUE;
			}
		}
	}
	for (guint i = 0; i < n; i++) {
		if (alloc[i] < 0.0)
			alloc[i] = capacity / open;
	}
}

static double
alone_speed(double capacity, double demand)
{
	if (demand <= 0.0)
		return 1.0;
	return MIN(1.0, capacity / demand);
}

/* Shares @capacity among tenants with positive demand; speed = share / demand. */
static void
shared_rates(const ClusterTenant *tenants, guint n, double capacity, gboolean mps, double *rates)
{
	double caps_small[32], alloc_small[32];
	double *caps = n <= 32 ? caps_small : g_new(double, n);
	double *alloc = n <= 32 ? alloc_small : g_new(double, n);

	for (guint i = 0; i < n; i++) {
		double cap = MAX(tenants[i].demand, 0.0);

		if (mps) {
			double threads =
			        tenants[i].mps_threads > 0.0 ? tenants[i].mps_threads : 100.0;

			cap = MIN(cap, MIN(threads, 100.0) / 100.0 * capacity);
		}
		caps[i] = cap;
	}
	water_fill(capacity, caps, n, alloc);
	for (guint i = 0; i < n; i++)
		rates[i] = tenants[i].demand > 0.0 ? MIN(1.0, alloc[i] / tenants[i].demand) : 1.0;
	if (caps != caps_small) {
		g_free(caps);
		g_free(alloc);
	}
}

void
cluster_run_rates(const ClusterRunParams *params,
                  const ClusterDevice *device,
                  const ClusterTenant *tenants,
                  guint n,
                  double *rates)
{
	ClusterTimeSliceInterval interval = device->interval;

	switch (device->mode) {
	case CLUSTER_SHARE_EXCLUSIVE:
		if (n < 2) {
			/* MIG: min(1, profile SMs / SMs the pod needs) */
			for (guint i = 0; i < n; i++)
				rates[i] = alone_speed(device->capacity, tenants[i].demand);
			return;
		}
		/*
		 * A device given to one consumer gets more tenants only through a
		 * ResourceClaim shared by several pods (resourceClaimName) whose
		 * config sets no sharing. NVIDIA's DRA driver then applies its
		 * default: for a GPU, DefaultGpuConfig (TimeSlicing, interval
		 * Default: api/nvidia.com/resource/v1beta1/gpuconfig.go); for a MIG
		 * device, DefaultMigDeviceConfig (TimeSlicing when the
		 * TimeSlicingSettings gate is on, otherwise no setting at all:
		 * migconfig.go), and a MIG device takes no interval. Either way the
		 * device stays in the default compute mode, where CUDA time-slices
		 * the contexts with the default slice: time-slicing, Default.
		 */
		interval = CLUSTER_INTERVAL_DEFAULT;
		/* fall through */
	case CLUSTER_SHARE_TIME_SLICE:
		if (n == 1) {
			rates[0] = alone_speed(device->capacity, tenants[0].demand);
			return;
		}
		shared_rates(tenants, n,
		             device->capacity *
		                     (1.0 - cluster_run_switch_overhead(params, interval, n)),
		             FALSE, rates);
		return;
	case CLUSTER_SHARE_MPS:
		shared_rates(tenants, n, device->capacity, TRUE, rates);
		return;
	}
	g_assert_not_reached();
}

/*
 * The run model's invariant: the compute a device delivers (the sum of its
 * tenants' speed × demand, full-GPU units) never exceeds its capacity, or one
 * GPU would do the work of two. Checked at every rate change in every build
 * (one comparison); a breach is a bug in drasim, so it aborts.
 */
void
cluster_run_check_delivered(const ClusterDevice *device, double delivered)
{
	if (G_UNLIKELY(delivered > device->capacity * (1.0 + 1e-9) + 1e-12))
		g_error("run model: a device delivers %.9g full GPUs of compute, its "
		        "capacity is %.9g",
		        delivered, device->capacity);
}

/* Newest first: the latest start, then the latest seq. */
static gint
newest_survivor(const ClusterTenant *tenants, guint n, const gboolean *kill)
{
	gint best = -1;

	for (guint i = 0; i < n; i++) {
		if (kill[i])
			continue;
		if (best < 0 || tenants[i].start > tenants[best].start ||
		    (tenants[i].start == tenants[best].start && tenants[i].seq > tenants[best].seq))
			best = (gint)i;
	}
	return best;
}

guint
cluster_run_oom_victims(const ClusterDevice *device,
                        const ClusterTenant *tenants,
                        guint n,
                        gboolean *kill)
{
	guint killed = 0;
	gint64 total = 0;

	for (guint i = 0; i < n; i++) {
		gint64 cap = tenants[i].mem_limit;

		if (cap <= 0 && device->mem_isolated)
			cap = device->mem_bytes;
		kill[i] = cap > 0 && tenants[i].mem_bytes > cap;
		if (kill[i])
			killed++;
		else
			total += tenants[i].mem_bytes;
	}
	if (device->mem_isolated)
		return killed;
	/* No isolation: the allocation that overflows fails, i.e. the newest pod's. */
	while (total > device->mem_bytes) {
		gint victim = newest_survivor(tenants, n, kill);

		if (victim < 0)
			break;
		kill[victim] = TRUE;
		total -= tenants[victim].mem_bytes;
		killed++;
	}
	return killed;
}

SimTime
cluster_run_restart_backoff(const ClusterRunParams *params, guint restarts)
{
	SimTime backoff = params->restart_backoff_initial;

	if (restarts == 0)
		return 0;
	for (guint i = 1; i < restarts; i++) {
		if (backoff >= params->restart_backoff_max / 2)
			return params->restart_backoff_max;
		backoff *= 2;
	}
	return MIN(backoff, params->restart_backoff_max);
}

void
cluster_progress_init(ClusterProgress *self, SimTime work, SimTime now)
{
	self->remaining = (double)work;
	self->rate = 1.0;
	self->since = now;
}

void
cluster_progress_advance(ClusterProgress *self, SimTime now)
{
	if (now <= self->since)
		return;
	self->remaining -= self->rate * (double)(now - self->since);
	/* completion events are rounded up to whole µs: absorb the residue */
	if (self->remaining < 1e-6)
		self->remaining = 0.0;
	self->since = now;
}

void
cluster_progress_set_rate(ClusterProgress *self, SimTime now, double rate)
{
	cluster_progress_advance(self, now);
	self->rate = rate;
}

SimTime
cluster_progress_finish_time(const ClusterProgress *self)
{
	double t;

	if (self->remaining <= 0.0)
		return self->since;
	if (self->rate <= 0.0)
		return SIM_TIME_NEVER;
	t = self->remaining / self->rate;
	if (t >= (double)(SIM_TIME_NEVER - self->since))
		return SIM_TIME_NEVER;
	/* tolerate float noise so exact analytic answers stay exact */
	return self->since + (SimTime)ceil(t - 1e-6);
}
