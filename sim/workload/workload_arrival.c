/*
 * workload_arrival.c: the arrival processes and their parameters by name, as a
 * scenario writes them (`arrival: {process: burst, burstSize: 8, ...}`). The
 * tables are the one place a process is named: the scenario decoder checks
 * names and reads parameters through them, and workload_synth.c samples the
 * process. A rate reads with its unit (workload_rate_parse).
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "workload.h"

static const char *const names[] = {
	[WORKLOAD_ARRIVAL_POISSON] = "poisson",
	[WORKLOAD_ARRIVAL_FIXED_RATE] = "fixed-rate",
	[WORKLOAD_ARRIVAL_BURST] = "burst",
	[WORKLOAD_ARRIVAL_DIURNAL] = "diurnal",
	NULL,
};

static const WorkloadArrivalParam params[] = {
	{ "rate", WORKLOAD_PARAM_RATE, offsetof(WorkloadArrival, rate_per_s) },
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

static gboolean
rate_error(const char *text, const char *why, char **message)
{
	*message = g_strdup_printf("expected a rate: " WORKLOAD_RATE_FORMS ", got \"%s\"%s%s", text,
	                           why != NULL ? ": " : "", why != NULL ? why : "");
	return FALSE;
}

gboolean
workload_rate_parse(const char *text, double *per_s, char **message)
{
	const char *slash = strchr(text, '/');
	g_autofree char *number =
	        g_strndup(text, slash != NULL ? (gsize)(slash - text) : strlen(text));
	g_autofree char *per = NULL;
	g_autoptr(GError) error = NULL;
	char *end = NULL;
	double n = g_ascii_strtod(number, &end);
	SimTime span = 0;
	gboolean bare_unit;

	/* decimal only: g_ascii_strtod would also take hex, "inf" and leading blanks */
	if (number[0] == '\0' || *end != '\0' ||
	    strspn(number, "0123456789.eE+-") != strlen(number) || !isfinite(n) || n < 0)
		return rate_error(text, NULL, message);
	if (slash == NULL) {
		*per_s = n;
		return TRUE;
	}
	/* "/h" is one hour: a bare unit gets the 1 that sim_time_parse wants */
	bare_unit = g_ascii_isalpha(slash[1]) || (guchar)slash[1] >= 0x80;
	per = bare_unit ? g_strconcat("1", slash + 1, NULL) : g_strdup(slash + 1);
	if (!sim_time_parse(per, &span, &error)) {
		g_autofree char *why =
		        bare_unit ? g_strdup_printf(
		                            "unknown unit '%s' (us, ms, s, m or min, h, d or w)",
		                            slash + 1)
		                  : g_strdup(error->message);

		return rate_error(text, why, message);
	}
	if (span <= 0)
		return rate_error(text, "the time after '/' must be > 0", message);
	*per_s = n / sim_time_to_seconds(span);
	return TRUE;
}
