/*
 * workload_models.c: which GPU of drasim's hardware catalog stands for each
 * GPU model code of the Alibaba trace (the node list's `model` column and the
 * pod list's `gpu_spec`). The table is the one docs/workload.md explains:
 * five codes name real GPUs; G2 and G3 are codes Alibaba does not disclose,
 * so their entries are stand-ins chosen only to keep every code on a GPU
 * model (and so a productName) of its own. G1 is in the trace legend but in
 * no row, so it maps to nothing.
 */
#include <string.h>

#include "workload.h"

static const struct {
	const char *code;
	const char *catalog_id;
} trace_models[] = {
	{ "T4", "t4-16gb" },
	{ "A10", "a10-24gb" },
	{ "P100", "p100-pcie-16gb" },    /* scenarios/alibaba-replay/openb-cluster.hw.yaml */
	{ "V100M16", "v100-sxm2-16gb" }, /* scenarios/alibaba-replay/openb-cluster.hw.yaml */
	{ "V100M32", "v100-sxm2-32gb" },
	{ "G2", "a100-sxm4-40gb" }, /* undisclosed: a stand-in, not a fact */
	{ "G3", "a100-sxm4-80gb" }, /* undisclosed: a stand-in, not a fact */
};

const char *
workload_trace_model_catalog_id(const char *code)
{
	g_return_val_if_fail(code != NULL, NULL);
	for (guint i = 0; i < G_N_ELEMENTS(trace_models); i++) {
		if (strcmp(trace_models[i].code, code) == 0) {
			return trace_models[i].catalog_id;
		}
	}
	return NULL;
}
