/*
 * hw_reconfig.c: what it takes to change a GPU's MIG configuration.
 *
 * nvidia-hw.md 2.3: every change needs the GPU idle (NVML answers IN_USE otherwise).
 * Turning MIG mode on or off needs a GPU reset on Ampere (A100, A30: the mode stays
 * pending until then) but not on Hopper and later (the DRA driver's
 * supportsMIGModeToggle). Instances are created and destroyed one at a time without
 * disturbing the others, which dynamic MIG relies on. No durations are published:
 * the defaults are the reference's working assumptions and are parameters.
 */
#include "hw-private.h"

void
hw_reconfig_times_default(HwReconfigTimes *out)
{
	out->create_instance_us = 2 * G_USEC_PER_SEC;  /* "1-3 s per instance" */
	out->destroy_instance_us = 1 * G_USEC_PER_SEC; /* assumed cheaper than creation */
	out->mode_toggle_us = 5 * G_USEC_PER_SEC;      /* "a few seconds" on Hopper */
	out->gpu_reset_us = 30 * G_USEC_PER_SEC;       /* "10-60 s" A100 reset */
}

static gboolean
same_instance(const HwMigInstance *a, const HwMigInstance *b)
{
	return a->profile == b->profile && a->start == b->start;
}

static gboolean
contains(const HwMigInstance *list, guint n, const HwMigInstance *inst)
{
	for (guint i = 0; i < n; i++) {
		if (same_instance(&list[i], inst)) {
			return TRUE;
		}
	}
	return FALSE;
}

void
hw_gpu_plan_reconfigure(const HwGpu *gpu,
                        gboolean gpu_busy,
                        gboolean target_enabled,
                        const HwMigInstance *target,
                        guint n,
                        const HwReconfigTimes *times,
                        HwReconfigPlan *plan)
{
	const HwMigInstance *current = (const HwMigInstance *)(void *)gpu->instances->data;
	gboolean currently_enabled = gpu->mig_mode != HW_MIG_MODE_OFF;
	g_autofree char *reason = NULL;

	*plan = (HwReconfigPlan){ HW_RECONFIG_OK, 0, FALSE, 0, 0, NULL };
	if (gpu->model->mig == NULL && target_enabled) {
		plan->verdict = HW_RECONFIG_NOT_CAPABLE;
		plan->reason = g_strdup_printf("%s does not support MIG", gpu->model->product_name);
		return;
	}
	if (target_enabled && hw_mig_check(gpu->model, target, n, &reason) != HW_MIG_OK) {
		plan->verdict = HW_RECONFIG_INFEASIBLE;
		plan->reason = g_steal_pointer(&reason);
		return;
	}
	for (guint i = 0; i < gpu->instances->len; i++) {
		plan->destroyed += (target_enabled && contains(target, n, &current[i])) ? 0 : 1;
	}
	for (guint i = 0; target_enabled && i < n; i++) {
		plan->created += contains(current, gpu->instances->len, &target[i]) ? 0 : 1;
	}
	if (target_enabled != currently_enabled || gpu->mig_mode == HW_MIG_MODE_PENDING) {
		plan->needs_reset = gpu->model->mig->mode_toggle_requires_reset;
		plan->duration_us +=
		        plan->needs_reset ? times->gpu_reset_us : times->mode_toggle_us;
	}
	if (gpu_busy && (plan->needs_reset || plan->destroyed > 0 || plan->created > 0 ||
	                 target_enabled != currently_enabled)) {
		/* drasim follows the mig-manager flow: the whole GPU is drained for any
		 * change (NVML itself refuses a mode change with IN_USE). */
		plan->verdict = HW_RECONFIG_BUSY;
		plan->reason = g_strdup_printf("gpu-%u is in use: a MIG change needs the GPU idle",
		                               gpu->minor);
		plan->duration_us = 0;
		return;
	}
	plan->duration_us += (gint64)plan->destroyed * times->destroy_instance_us +
	                     (gint64)plan->created * times->create_instance_us;
}

void
hw_gpu_apply_reconfigure(HwGpu *gpu, gboolean target_enabled, const HwMigInstance *target, guint n)
{
	gpu->mig_mode = target_enabled ? HW_MIG_MODE_ON : HW_MIG_MODE_OFF;
	g_array_set_size(gpu->instances, 0);
	if (target_enabled) {
		g_array_append_vals(gpu->instances, target, n);
	}
}
