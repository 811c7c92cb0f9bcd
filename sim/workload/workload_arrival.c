/*
 * workload_arrival.c: the arrival processes and their parameters by name, as a
 * scenario writes them (`arrival: {process: burst, burstSize: 8, ...}`). The
 * tables are the one place a process is named: the scenario decoder checks
 * names and reads parameters through them, and workload_synth.c samples the
 * process.
 */
#include <stddef.h>

#include "workload.h"

static const char *const names[] = {
	[WORKLOAD_ARRIVAL_POISSON] = "poisson",
	[WORKLOAD_ARRIVAL_FIXED_RATE] = "fixed-rate",
	[WORKLOAD_ARRIVAL_BURST] = "burst",
	[WORKLOAD_ARRIVAL_DIURNAL] = "diurnal",
	NULL,
};

static const WorkloadArrivalParam params[] = {
	{ "rate", WORKLOAD_PARAM_NUMBER, offsetof(WorkloadArrival, rate_per_s) },
	{ "burstSize", WORKLOAD_PARAM_COUNT, offsetof(WorkloadArrival, burst_size) },
	{ "burstPeriod", WORKLOAD_PARAM_DURATION, offsetof(WorkloadArrival, burst_period) },
	{ "amplitude", WORKLOAD_PARAM_NUMBER, offsetof(WorkloadArrival, amplitude) },
	{ "period", WORKLOAD_PARAM_DURATION, offsetof(WorkloadArrival, period) },
	{ "peak", WORKLOAD_PARAM_DURATION, offsetof(WorkloadArrival, peak) },
	{ NULL, 0, 0 },
};

const char *const *
workload_arrival_names(void)
{
	return names;
}

const WorkloadArrivalParam *
workload_arrival_params(void)
{
	return params;
}
