/*
 * fuzz_trace.c: libFuzzer target for trace CSVs: the pod list and the node list of the
 * Alibaba GPU trace format (workload_trace.c), as a scenario's `workload.trace` reads them.
 *
 * The first input byte picks the reader (pods or nodes); the rest is the file, read with
 * workload_trace_load_pods_data() / _nodes_data() (the buffer faces of the readers). Pods
 * that load are turned into workload items, as a run does.
 */
#include "fuzz.h"
#include "workload.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	const char *text = (const char *)data + 1;
	WorkloadTrace *trace = workload_trace_new();
	GError *error = NULL;

	if (data[0] & 1) {
		(void)workload_trace_load_nodes_data(trace, "nodes.csv", text, size - 1, &error);
	} else if (workload_trace_load_pods_data(trace, "pods.csv", text, size - 1, &error)) {
		g_array_unref(workload_trace_to_items(trace));
	}
	g_clear_error(&error);
	workload_trace_free(trace);
	return 0;
}
